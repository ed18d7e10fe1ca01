"""Lesson 08's checkers (qardlab.lessons.best_question): the student's entropy and information, the mistakes a
class makes refused and named, equivalent formulas accepted; and the student's bot."""

from __future__ import annotations

import math

import pytest

from qardlab.lessons import best_question as bq
from qardlab.lessons.best_question import check_entropy, check_information


def values(ps):
    return ps.values() if isinstance(ps, dict) else ps


ENTROPY_WRONG = {
    "natural log": lambda ps: sum(-p * math.log(p) for p in values(ps) if p > 0),
    "log base 10": lambda ps: sum(-p * math.log10(p) for p in values(ps) if p > 0),
    "sign": lambda ps: sum(p * math.log2(p) for p in values(ps) if p > 0),
    "unweighted": lambda ps: sum(math.log2(1 / p) for p in values(ps) if p > 0),
    "zero not skipped": lambda ps: sum(p * math.log2(1 / p) if p else -p * math.log2(p) for p in values(ps)),
}


@pytest.mark.parametrize("mistake", sorted(ENTROPY_WRONG))
def test_entropy_mistakes_are_refused_and_named(mistake):
    bq.EXERCISES["entropy"].reset()
    reply = check_entropy(ENTROPY_WRONG[mistake])
    assert reply.verdict == "wrong" and reply.mistake == mistake, reply.text


def test_entropy_reference_and_rewrites_pass():
    assert check_entropy(bq.entropy_reference).ok
    assert check_entropy(lambda ps: -sum(p * math.log(p, 2) for p in values(ps) if p)).ok
    assert check_entropy(lambda ps: sum(p * (math.log(1 / p) / math.log(2)) for p in values(ps) if p > 0)).ok


def outcomes(joint):
    out = {}
    for (_, o), p in joint.items():
        out[o] = out.get(o, 0.0) + p
    return out


def given(joint):
    out = {}
    for (pair, o), p in joint.items():
        out.setdefault(pair, {})[o] = out.get(pair, {}).get(o, 0.0) + p
    return out


def h(ps):
    return sum(-p * math.log2(p) for p in ps if p > 0)


def h_given(joint, weighted=True):
    laws = given(joint).values()
    parts = [(sum(law.values()), h([v / sum(law.values()) for v in law.values()])) for law in laws]
    if weighted:
        return sum(w * e for w, e in parts)
    return sum(e for _, e in parts) / len(parts)


INFORMATION_WRONG = {
    "answer entropy": lambda j: h(outcomes(j).values()),
    "natural log": lambda j: (h(outcomes(j).values()) - h_given(j)) * math.log(2),
    "unweighted average": lambda j: h(outcomes(j).values()) - h_given(j, weighted=False),
    "added": lambda j: h(outcomes(j).values()) + h_given(j),
    "secret entropy": lambda j: h(sum(law.values()) for law in given(j).values()),
}


@pytest.mark.parametrize("mistake", sorted(INFORMATION_WRONG))
def test_information_mistakes_are_refused_and_named(mistake):
    bq.EXERCISES["information"].reset()
    reply = check_information(INFORMATION_WRONG[mistake])
    assert reply.verdict == "wrong" and reply.mistake == mistake, reply.text


def mutual_information(joint):
    """I(S; A) as the sum of p(s, a) log2 p(s, a) / (p(s) p(a)): the same number by another formula."""
    ps = {pair: sum(law.values()) for pair, law in given(joint).items()}
    pa = outcomes(joint)
    return sum(p * math.log2(p / (ps[s] * pa[a])) for (s, a), p in joint.items() if p > 0)


def secret_side(joint):
    """H(secret) - H(secret | answer): the information read from the other side."""
    pa = outcomes(joint)
    h_s = h(sum(law.values()) for law in given(joint).values())
    h_s_a = sum(pa[a] * h(p / pa[a] for (s, b), p in joint.items() if b == a) for a in pa if pa[a] > 0)
    return h_s - h_s_a


def test_information_reference_and_equivalent_formulas_pass():
    assert check_information(bq.information_reference).ok
    assert check_information(lambda j: h(outcomes(j).values()) - h_given(j)).ok
    assert check_information(mutual_information).ok
    assert check_information(secret_side).ok


def test_replies_to_functions_that_are_not_ready():
    assert check_entropy(None).verdict == "empty" and check_entropy(lambda ps: None).verdict == "empty"
    assert check_entropy(3).verdict == "unreadable"
    assert check_information(lambda joint: "lots").verdict == "wrong"
    assert check_information(lambda joint: None).verdict == "empty"


def test_question_joints_of_the_full_game_give_the_advisors_figures():
    from qardlab.lessons.crossing_out import seeded_position

    pos = seeded_position(1, 6, 0)
    joints = bq.question_joints(pos.knowledge)
    qs = pos.knowledge.questions()
    assert len(joints) == len(qs) == 3 * 120
    for q in qs[:5] + qs[-5:]:
        law = joints[(q.target, q.face, q.number)]
        assert sum(law.values()) == pytest.approx(1.0)
        assert bq.information_reference(law) == pytest.approx(q.info, abs=1e-9)


def test_student_bot_plays_a_seeded_game_to_the_end():
    from qardlab.engine import play
    from qardlab.games.five_sons import FiveSons
    from qardlab.games.five_sons.bots import RandomAsker

    games = []
    for _ in range(2):
        g = FiveSons.new(players=4, seed=4)
        bots = {
            0: bq.student_bot(bq.information_reference, bq.entropy_reference, seed=1),
            **{s: RandomAsker(seed=20 + s) for s in (1, 2, 3)},
        }
        play(g, bots)
        games.append(g)
    assert games[0].is_over and games[0].winner is not None
    assert games[0].record().to_json() == games[1].record().to_json()  # seeded: the same game twice


def test_mine_or_reference(capsys):
    from qardlab.lessons.checking import mine_or_reference
    from qardlab.lessons.exercises import Reply

    assert mine_or_reference(len, Reply("right"), sum) is len
    assert mine_or_reference(len, Reply("wrong"), sum) is sum
    assert "reference" in capsys.readouterr().out

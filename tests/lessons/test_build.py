"""The build-it-yourself checkers (lessons 06-08): right answers pass, empty ones are asked for,
and the mistakes a student makes are caught and named. RULES.md, "What a seat knows, and the
exact posterior": the references must equal the engine's logic and exact posterior."""

from __future__ import annotations

import math

import pytest

from qardlab.cards import Card
from qardlab.lessons import build as b

# -- lesson 06 -------------------------------------------------------------------------


@pytest.mark.parametrize("exercise", ["cross_out", "possible", "sizes"])
def test_lesson06_references_equal_the_engine(exercise):
    """RULES.md's logical candidates: the reference logic with sizes equals the engine's exactly."""
    for pos in b.lesson06_positions(exercise):
        cx = b.cross_out_reference(pos)
        assert cx == pos.knowledge.naive_candidates()
        assert {p for p in cx if b.possible_with_sizes_reference(pos, p)} == pos.knowledge.candidates()


def test_lesson06_positions_need_what_each_exercise_teaches():
    for pos in b.lesson06_positions("possible"):  # "one of" logic matters, sizes do not
        cx = b.cross_out_reference(pos)
        logic = {p for p in cx if b.possible_reference(pos, p)}
        assert logic != cx and logic == pos.knowledge.candidates()
    for pos in b.lesson06_positions("sizes"):  # only hand sizes reach the engine's answer
        cx = b.cross_out_reference(pos)
        assert {p for p in cx if b.possible_reference(pos, p)} != pos.knowledge.candidates()


def test_reference_answers_pass():
    assert b.check_cross_out(b.cross_out_reference).status == "right"
    assert b.check_possible(b.possible_reference).status == "right"
    assert b.check_possible_with_sizes(b.possible_with_sizes_reference).status == "right"


def test_empty_answers_ask_for_one():
    for check in (
        b.check_cross_out(lambda pos: None),
        b.check_possible(lambda pos, pair: None),
        b.check_counts(lambda pos: None),
        b.check_posterior(lambda pos: None),
        b.check_entropy(lambda probs: None),
        b.check_information(lambda joint: None),
    ):
        assert check.status == "empty" and check.message.startswith("Write your answer first")


@pytest.mark.parametrize("name", sorted(b.CROSS_OUT_MISTAKES))
def test_cross_out_mistakes_are_named(name):
    check = b.check_cross_out(b.CROSS_OUT_MISTAKES[name][0])
    assert check.status == "wrong" and check.mistake == name
    assert "Hint:" in check.message and "The engine:" in check.message and " x " in check.message


def test_cross_out_accepts_card_codes():
    check = b.check_cross_out(lambda pos: {(f.code, n.code) for f, n in b.cross_out_reference(pos)})
    assert check.passed


@pytest.mark.parametrize("name", ["one of ignored", "exact pair only", "one of as both", "neither ignored"])
def test_possible_mistakes_are_named(name):
    fn = b._lesson06_possible_mistakes(False)[name][0]
    check = b.check_possible(fn)
    assert check.status == "wrong" and check.mistake == name, check.message


def test_forgetting_hand_sizes_is_caught():
    check = b.check_possible_with_sizes(b.possible_reference)
    assert check.status == "wrong" and check.mistake == "sizes forgotten"
    assert "hand sizes" in check.message


def test_a_crash_in_the_students_function_is_reported_not_raised():
    check = b.check_cross_out(lambda pos: 1 / 0)
    assert check.status == "wrong" and "ZeroDivisionError" in check.message


# -- lesson 07 -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(1, 16))
def test_brute_force_counts_equal_the_engine(seed):
    """RULES.md's exact posterior (uniform deals, 1/2 for a choice) by listing every deal."""
    pos = b.mini_position(seed)
    assert b.counts_reference(pos) == pos.knowledge.counts()
    post = pos.knowledge.posterior()
    mine = b.posterior_reference(pos)
    assert set(mine) == set(post) and all(mine[p] == pytest.approx(post[p], abs=1e-12) for p in post)


def test_the_lesson07_positions_need_the_half_rule():
    for seed in b.LESSON07_SEEDS:
        pos = b.mini_position(seed)
        counts = pos.knowledge.counts()
        total = sum(counts.values())
        flat = {p: c / total for p, c in counts.items()}
        assert max(abs(flat[p] - q) for p, q in pos.knowledge.posterior().items()) > 0.01


def test_all_deals_of_the_small_variant_and_refusal_of_the_full_game():
    pos = b.mini_position(1)
    deals = list(b.all_deals(pos))
    # 8 unknown cards: secret (one face, one number) then 2 + 2 + 2 cards to the other seats
    faces = sum(1 for c in pos.faces if c not in pos.hand)
    numbers = sum(1 for c in pos.numbers if c not in pos.hand)
    assert len(deals) == faces * numbers * math.comb(6, 2) * math.comb(4, 2)
    with pytest.raises(ValueError, match="small variant"):
        next(b.all_deals(b.seeded_position(1, 6, 0)))


def test_counting_mistakes_are_caught():
    def every_deal(pos):
        out = {}
        for d in b.all_deals(pos):
            out[d["secret"]] = out.get(d["secret"], 0) + 1
        return out

    assert b.check_counts(b.counts_reference).passed
    assert b.check_counts(every_deal).mistake == "no facts"


def test_forgetting_the_half_rule_is_caught():
    def flat(pos):
        c = b.counts_reference(pos)
        return {p: v / sum(c.values()) for p, v in c.items()}

    check = b.check_posterior(flat)
    assert check.status == "wrong" and check.mistake == "1/2 rule forgotten" and "1/2" in check.message
    assert b.check_posterior(b.counts_reference).mistake == "not normalised"
    assert b.check_posterior(b.posterior_reference).passed


# -- lesson 08 -------------------------------------------------------------------------


def test_entropy_mistakes():
    assert b.check_entropy(b.entropy_reference).passed
    natural = b.check_entropy(lambda ps: sum(-p * math.log(p) for p in _values(ps) if p > 0))
    assert natural.mistake == "natural log"
    assert b.check_entropy(lambda ps: sum(p * math.log2(p) for p in _values(ps) if p > 0)).mistake == "sign"
    check = b.check_entropy(lambda ps: sum(-p * math.log2(p) for p in _values(ps)))
    assert check.status == "wrong" and "0 log 0" in check.message


def _values(ps):
    return ps.values() if isinstance(ps, dict) else ps


def test_information_equals_the_advisor_and_answer_entropy_is_caught():
    assert b.check_information(b.information_reference).passed

    def answer_entropy(joint):
        out = {}
        for (_, o), v in joint.items():
            out[o] = out.get(o, 0.0) + v
        return b.entropy_reference(out)

    check = b.check_information(answer_entropy)
    assert check.mistake == "answer entropy" and "H(answer | pair)" in check.message


def test_question_joints_of_the_full_game_give_the_advisors_figures():
    pos = b.seeded_position(1, 6, 0)
    joints = b.question_joints(pos.knowledge)
    qs = pos.knowledge.questions()
    assert len(joints) == len(qs) == 3 * 120
    for q in qs[:5] + qs[-5:]:
        law = joints[(q.target, q.face, q.number)]
        assert sum(law.values()) == pytest.approx(1.0)
        assert b.information_reference(law) == pytest.approx(q.info, abs=1e-9)


def test_student_bot_plays_a_seeded_game_to_the_end():
    from qardlab.engine import play
    from qardlab.games.five_sons import FiveSons
    from qardlab.games.five_sons.bots import RandomAsker

    games = []
    for _ in range(2):
        g = FiveSons.new(players=4, seed=4)
        bots = {
            0: b.student_bot(b.information_reference, b.entropy_reference, seed=1),
            **{s: RandomAsker(seed=20 + s) for s in (1, 2, 3)},
        }
        play(g, bots)
        games.append(g)
    assert games[0].is_over and games[0].winner is not None
    assert games[0].record().to_json() == games[1].record().to_json()  # seeded: the same game twice


def test_function_bot():
    from qardlab.engine.bots import FunctionBot

    bot = FunctionBot(lambda obs: obs["legal"][0])
    assert bot.act({"legal": ["x", "y"]}) == "x"
    with pytest.raises(TypeError, match="function"):
        FunctionBot(3)


def test_mine_or_reference(capsys):
    ok = b.Check("x", "right", "fine")
    assert b.mine_or_reference(len, ok, sum) is len
    assert b.mine_or_reference(len, b.Check("x", "wrong", "no"), sum) is sum
    assert "reference" in capsys.readouterr().out


def test_card_parse_in_answers():
    assert b._as_pairs([("qc", "8h")], "x") == {(Card.parse("QC"), Card.parse("8H"))}
    with pytest.raises(ValueError, match="pairs"):
        b._as_pairs([("QC",)], "x")


def test_replies_start_as_the_lesson_tests_read_them():
    """LESSONS.md's three replies: "Write your answer first" / "Right:" / "Not quite:"."""
    assert b.check_cross_out(None).message.startswith("Write your answer first")
    assert b.check_posterior(None).verdict == "empty"
    assert b.check_entropy(3).message.startswith("Not quite:")
    assert b.check_cross_out(b.cross_out_reference).message.startswith("Right:")
    assert b.check_counts(b.counts_reference).message.startswith("Right:")
    assert b.check_cross_out(b._cross_out_hand_only).message.startswith("Not quite:")
    assert b.check_information(b.information_reference).message.startswith("Right:")


@pytest.mark.parametrize("exercise, name", [(e, n) for e, ms in b.MISTAKES.items() for n in ms])
def test_every_listed_mistake_is_refused_and_named(exercise, name):
    checker = {
        "cross_out": b.check_cross_out,
        "possible": b.check_possible,
        "sizes": b.check_possible_with_sizes,
        "counts": b.check_counts,
        "posterior": b.check_posterior,
        "entropy": b.check_entropy,
        "information": b.check_information,
    }[exercise]
    check = checker(b.MISTAKES[exercise][name])
    assert check.status == "wrong" and check.mistake == name, check.message
    assert check.message.startswith("Not quite:") and "Hint:" in check.message


def test_answers_of_the_wrong_shape_get_a_reply_not_a_crash():
    assert b.check_cross_out(lambda pos: ["QC"]).message.startswith("Not quite:")
    assert b.check_counts(lambda pos: [1, 2]).message.startswith("Not quite:")
    assert b.check_posterior(lambda pos: {"QC": 1.0}).message.startswith("Not quite:")
    assert b.check_information(lambda joint: "lots").message.startswith("Not quite:")

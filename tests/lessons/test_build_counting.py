"""Lesson 07's checkers (qardlab.lessons.counting_deals): wrong counting cannot pass.

The student functions below are written as a class writes them (the notebook's `agrees`, `count_deals` and
`posterior`), one mistake each, and must be refused and named; among them the two issue 28 found passing:
"one of" read as *exactly one*, and the 1/2 rule applied to an onlooker's "one of". Rewrites that count the
same pass. RULES.md, "What a seat knows, and the exact posterior": listing deals equals the engine.
"""

from __future__ import annotations

import math

import pytest

from qardlab.lessons import counting_deals as cd
from qardlab.lessons.counting_deals import all_deals, check_counts, check_posterior, mini_position


def make_agrees(*, shown=True, one_of=True, neither=True, exactly_one=False, as_both=False, only_shown=False):
    def agrees(pos, deal):
        for s in pos.shown:
            if shown and s.card not in deal[s.seat]:
                return False
            if only_shown and s.other in deal[s.seat]:  # "she showed me the J♣, so she has no 3♥"
                return False
        for o in pos.one_of:
            held = (o.face in deal[o.seat]) + (o.number in deal[o.seat])
            if one_of and held == 0:
                return False
            if exactly_one and held == 2:
                return False
            if as_both and held < 2:
                return False
        for o in pos.neither:
            if neither and (o.face in deal[o.seat] or o.number in deal[o.seat]):
                return False
        return True

    return agrees


def count_deals_with(agrees):
    def count_deals(pos):
        counts = {}
        for deal in all_deals(pos):
            if agrees(pos, deal):
                counts[deal["secret"]] = counts.get(deal["secret"], 0) + 1
        return counts

    return count_deals


def shares(pos):
    counts = count_deals_with(make_agrees())(pos)
    return {p: c / sum(counts.values()) for p, c in counts.items()}


COUNTS_WRONG = {
    "no facts": count_deals_with(lambda pos, deal: True),
    "one of and neither not checked": count_deals_with(make_agrees(one_of=False, neither=False)),  # the start
    "one of not checked": count_deals_with(make_agrees(one_of=False)),
    "neither not checked": count_deals_with(make_agrees(neither=False)),
    "exactly one": count_deals_with(make_agrees(exactly_one=True)),  # issue 28
    "one of as both": count_deals_with(make_agrees(as_both=True)),
    "shown as only that card": count_deals_with(make_agrees(only_shown=True)),
    "shown not checked": count_deals_with(make_agrees(shown=False)),
    "probabilities": shares,
}


@pytest.mark.parametrize("mistake", sorted(COUNTS_WRONG))
def test_counting_mistakes_are_refused_and_named(mistake):
    cd.EXERCISES["counts"].reset()
    reply = check_counts(COUNTS_WRONG[mistake])
    assert reply.verdict == "wrong" and reply.mistake == mistake, reply.text
    assert "Hint:" in reply.text and "The worked answer" not in reply.text


def count_by_sets(pos):  # the same count, written with sets and a generator
    def ok(deal):
        return (
            all(s.card in deal[s.seat] for s in pos.shown)
            and all({o.face, o.number} & deal[o.seat] for o in pos.one_of)
            and not any({o.face, o.number} & deal[o.seat] for o in pos.neither)
        )

    out = {}
    for deal in filter(ok, all_deals(pos)):
        key = (deal["secret"][0].code, deal["secret"][1].code)  # codes, not Cards: the checker reads both
        out[key] = out.get(key, 0) + 1
    return {k: float(v) for k, v in out.items()}


def test_counting_reference_and_rewrites_pass():
    assert check_counts(cd.counts_reference).ok
    assert check_counts(count_deals_with(make_agrees())).ok
    assert check_counts(count_by_sets).ok


def make_posterior(*, agrees=None, half=True, onlookers=False, factor=0.5, normalise=True, every_shown=False):
    agrees = agrees or make_agrees()

    def posterior(pos):
        weights = {}
        for deal in all_deals(pos):
            if not agrees(pos, deal):
                continue
            weight = 1.0
            for s in pos.shown:
                if half and s.other in deal[s.seat]:
                    weight *= factor
                if every_shown:  # halves every deal alike: the same chances once divided by the total
                    weight *= 0.5
            if onlookers:
                for o in pos.one_of:
                    if o.face in deal[o.seat] and o.number in deal[o.seat]:
                        weight *= factor
            weights[deal["secret"]] = weights.get(deal["secret"], 0.0) + weight
        total = sum(weights.values()) if normalise else 1.0
        return {pair: w / total for pair, w in weights.items()}

    return posterior


POSTERIOR_WRONG = {
    "1/2 rule forgotten": make_posterior(half=False),  # the starting point
    "not normalised": make_posterior(normalise=False),
    "1/2 rule for onlookers": make_posterior(onlookers=True),  # issue 28
    "doubled": make_posterior(factor=2.0),
    "shown as only that card": make_posterior(agrees=make_agrees(only_shown=True)),
    "exactly one": make_posterior(agrees=make_agrees(exactly_one=True)),
    "one of and neither not checked": make_posterior(agrees=make_agrees(one_of=False, neither=False)),
}


@pytest.mark.parametrize("mistake", sorted(POSTERIOR_WRONG))
def test_posterior_mistakes_are_refused_and_named(mistake):
    cd.EXERCISES["posterior"].reset()
    reply = check_posterior(POSTERIOR_WRONG[mistake])
    assert reply.verdict == "wrong" and reply.mistake == mistake, reply.text


def test_posterior_reference_and_equivalent_rewrites_pass():
    assert check_posterior(cd.posterior_reference).ok
    assert check_posterior(make_posterior()).ok
    assert check_posterior(make_posterior(every_shown=True)).ok  # a constant factor cancels


def test_the_issues_two_wrong_models_differ_from_the_engine_on_the_checked_positions():
    """Issue 28: on the old positions (seeds 5, 6, 12) no "one of" answerer could hold both cards, so these
    two passed; each differs now on two checked positions."""
    exactly_one = COUNTS_WRONG["exactly one"]
    onlookers = POSTERIOR_WRONG["1/2 rule for onlookers"]
    old = [mini_position(s) for s in (5, 6, 12)]
    assert all(exactly_one(p) == p.knowledge.counts() for p in old)
    for key in cd.POSITIONS["posterior"]:
        assert key in cd.POSITIONS["counts"]
    ps = cd.positions("counts")
    assert sum(exactly_one(p) != p.knowledge.counts() for p in ps) >= 2
    assert sum(cd._canon(onlookers(p)) != cd._canon(p.knowledge.posterior()) for p in ps) >= 2


@pytest.mark.parametrize("exercise", sorted(cd.POSITIONS))
def test_every_mutation_differs_on_two_checked_positions(exercise):
    ps = cd.positions(exercise)
    for m in cd.MUTATIONS[exercise]:
        wrong_on = sum(1 for p in ps if cd._canon(m.fn(p)) != cd._canon(cd._engine(p, exercise)))
        assert wrong_on >= 2, f"{m.name} differs on {wrong_on} of the {len(ps)} positions"


@pytest.mark.parametrize("seed", range(1, 16))
def test_brute_force_counts_equal_the_engine(seed):
    """RULES.md's exact posterior (uniform deals, 1/2 for a choice) by listing every deal."""
    pos = mini_position(seed)
    assert cd.counts_reference(pos) == pos.knowledge.counts()
    post = pos.knowledge.posterior()
    mine = cd.posterior_reference(pos)
    assert set(mine) == set(post) and all(mine[p] == pytest.approx(post[p], abs=1e-12) for p in post)


def test_all_deals_of_the_small_variant_and_refusal_of_the_full_game():
    from qardlab.lessons.crossing_out import seeded_position

    pos = mini_position(1)
    deals = list(all_deals(pos))
    faces = sum(1 for c in pos.faces if c not in pos.hand)
    numbers = sum(1 for c in pos.numbers if c not in pos.hand)
    assert len(deals) == faces * numbers * math.comb(6, 2) * math.comb(4, 2)
    with pytest.raises(ValueError, match="small variant"):
        next(all_deals(seeded_position(1, 6, 0)))


def test_answers_of_the_wrong_shape_get_a_reply_not_a_crash():
    assert check_counts(lambda pos: [1, 2]).verdict == "wrong"
    assert check_posterior(lambda pos: {"QC": 1.0}).verdict == "wrong"
    assert check_counts(None).verdict == "empty" and check_posterior(lambda pos: None).verdict == "empty"

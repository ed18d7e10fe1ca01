"""Property tests (hypothesis) and bad input for the deduction engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qardlab.cards import Card
from qardlab.deduction import SECRET, Fact, Knowledge
from qardlab.deduction.solve import Inconsistent

from .deduction_brute import candidates, deals, mini_game, posterior


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 5]), turns=st.integers(0, 12))
def test_property_solver_equals_enumeration(seed, players, turns):
    rng = random.Random(seed)
    game = mini_game(rng, players, 5, 4, turns, claim_rate=0.1)
    k = game.knowledge[rng.randrange(players)]
    ds = deals(k)
    assert k.candidates() == candidates(k, ds)
    ref = posterior(k, ds)
    post = k.posterior()
    assert set(post) == set(ref)
    assert all(abs(post[p] - ref[p]) < 1e-9 for p in ref)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 5]), turns=st.integers(0, 15))
def test_property_more_facts_never_widen(seed, players, turns):
    """Adding facts can only remove candidates; the truth always stays; levels nest."""
    rng = random.Random(seed)
    game = mini_game(rng, players, 6, 5, turns)
    for k in game.knowledge:
        full = k.candidates()
        assert game.secret in full
        assert full <= k.naive_candidates()
        half = k.upto(turns // 2)
        assert full <= half.candidates()
        assert 1.0 - 1e-9 <= k.effective_candidates() <= len(full) + 1e-9
        logic, prob = k.grid("logic"), k.grid("probability")
        for c in k.cards:
            for h in k.holders:
                if logic[c][h] == "yes":
                    assert prob[c][h] == pytest.approx(1.0, abs=1e-9)
                elif logic[c][h] == "no":
                    assert prob[c][h] == 0.0 or abs(prob[c][h]) < 1e-9
                else:
                    assert 1e-12 < prob[c][h] < 1 - 1e-12
        # the true holder of every card is never ruled out
        for seat, hand in enumerate(game.hands):
            for c in hand:
                assert logic[c][seat] != "no"


def test_bad_input_is_refused_clearly():
    k = mini_game(random.Random(1), 4, 4, 4, 2).knowledge[0]
    with pytest.raises(ValueError, match="'certain'"):
        k.grid("certain")
    with pytest.raises(ValueError, match="target 0"):
        k.questions([0])
    with pytest.raises(ValueError, match="target 9"):
        k.questions([9])
    with pytest.raises(ValueError, match="holder 'table'"):
        k.explain("JC", "table")


def test_contradictory_facts_raise_inconsistent():
    k = mini_game(random.Random(2), 4, 4, 4, 0).knowledge[0]
    other = next(c for c in k.cards if not any(f.kind == "has" and c in f.cards for f in k.facts))
    k = k.with_facts(Fact.has(1, other), Fact.has_not(1, other))
    with pytest.raises(Inconsistent):
        k.posterior()
    assert k.candidates() == set()


def test_hearts_knowledge_has_no_secret_pair():
    cards = tuple(Card.parse(c) for c in ("2C", "3C", "4C", "5C"))
    k = Knowledge(0, cards, (0, 1), {0: 2, 1: 2}, "hearts")
    with pytest.raises(ValueError, match="no secret"):
        k.naive_candidates()
    assert k.grid("probability")[cards[0]][1] == pytest.approx(0.5)


def test_more_facts_make_a_new_knowledge_and_results_never_go_stale():
    """Knowledge is a value: its facts are a tuple that cannot grow, and adding a fact gives a new
    Knowledge (with its own results) while the old one keeps its own."""
    game = mini_game(random.Random(4), 4, 5, 5, 0)
    k = game.knowledge[0]
    before = k.candidates()
    post = k.posterior()
    f, n = sorted(before)[0]
    assert isinstance(k.facts, tuple)
    with pytest.raises(AttributeError):
        k.facts.append(Fact.not_both(SECRET, (f, n), step=1))  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        k.facts = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        k.sizes[0] = 99  # type: ignore[index]
    k2 = k + Fact.not_both(SECRET, (f, n), step=1)
    assert k2.candidates() == before - {(f, n)}
    assert (f, n) not in k2.posterior()
    assert k.candidates() == before and k.posterior() == post  # the first value is unchanged
    assert k2.upto(0) == k and hash(k2.upto(0)) == hash(k)
    assert k.with_facts() == k and k2 != k
    # an equal value built again gives the same results
    again = Knowledge(k.seat, k.cards, k.holders, k.sizes, k.game, k.names, k.facts, k.extra, k.secret)
    assert again == k and again.posterior() == post
    import copy
    import pickle

    for twin in (pickle.loads(pickle.dumps(k2)), copy.deepcopy(k2)):
        assert twin == k2 and twin.candidates() == k2.candidates()


def test_bad_facts_are_refused_clearly():
    k = mini_game(random.Random(4), 4, 5, 5, 0).knowledge[0]
    with pytest.raises(ValueError, match="holder 'table'"):
        k + Fact.has("table", "JC")
    with pytest.raises(ValueError, match="2C"):
        k + Fact.has(1, "2C")
    with pytest.raises(ValueError, match="not one of the asked cards"):
        Fact.shown(1, "JC", ("QC", "AH"))


def test_default_grid_mixes_logic_and_probability():
    k = mini_game(random.Random(6), 4, 5, 5, 6).knowledge[1]
    mixed, logic, prob = k.grid(), k.grid("logic"), k.grid("probability")
    for c in k.cards:
        for h in k.holders:
            assert mixed[c][h] == (logic[c][h] if logic[c][h] is not None else prob[c][h])

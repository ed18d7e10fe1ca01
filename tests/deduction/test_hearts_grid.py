"""Hearts card counting: the exact grid agrees with enumeration; voids are zeros; rows sum to 1."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qardlab.cards import Suit, standard_deck
from qardlab.deduction import PLAYED, Fact, Knowledge

from .deduction_brute import assert_grids_agree, deals


def hearts_position(rng: random.Random, players: int, left: list[int], voids: int = 2, passed: int = 0):
    """A Hearts position seen by seat 0: ``left[i]`` cards still in seat i's hand.

    Played cards are public (has "played"); ``voids`` true voids of opponents are known;
    ``passed`` cards seat 0 gave away are known in the receiver's hand.
    """
    deck = standard_deck()
    rng.shuffle(deck)
    hands, at = [], 0
    for n in left:
        hands.append(deck[at : at + n])
        at += n
    played = deck[at:]
    sizes = {i: left[i] for i in range(players)}
    sizes[PLAYED] = len(played)
    facts = [Fact.has(0, c, step=0) for c in hands[0]] + [Fact.has(PLAYED, c, step=1) for c in played]
    true_voids = [(i, s) for i in range(1, players) for s in Suit if not any(c.suit == s for c in hands[i])]
    rng.shuffle(true_voids)
    for i, s in true_voids[:voids]:
        facts.append(Fact.void(i, s, step=2))
    for i in rng.sample(range(1, players), min(passed, players - 1)):
        if hands[i]:
            facts.append(Fact.has(i, rng.choice(hands[i]), step=0))
    k = Knowledge(0, tuple(standard_deck()), (*range(players), PLAYED), sizes, "hearts", facts=facts)
    return k, hands


def _check(k: Knowledge) -> None:
    ds = deals(k)
    assert ds
    assert_grids_agree(k, ds)


def test_hearts_grid_agrees_with_enumeration_small_endgames():
    rng = random.Random(7)
    shapes = [
        (4, [3, 3, 3, 2]),
        (4, [2, 3, 3, 3]),
        (3, [4, 4, 4]),
        (5, [2, 2, 2, 2, 1]),
        (6, [2, 2, 1, 2, 1, 1]),
    ]
    for i in range(25):
        players, left = shapes[i % len(shapes)]
        k, _ = hearts_position(rng, players, left, voids=rng.randrange(4), passed=rng.randrange(2))
        _check(k)


def test_rule_void_means_zero_for_every_card_of_the_suit():
    rng = random.Random(8)
    for _ in range(20):
        k, hands = hearts_position(rng, 4, [8, 8, 8, 8], voids=3)
        g = k.grid("probability")
        for f in k.facts:
            if f.kind == "void":
                for c in k.cards:
                    if c.suit == f.suit:
                        assert g[c][f.holder] == 0.0
                        assert k.grid("logic")[c][f.holder] == "no"


def test_each_card_sums_to_one_and_hidden_cards_never_leak():
    rng = random.Random(9)
    for players, n in ((4, 13), (4, 6), (3, 17), (5, 10), (6, 8)):
        k, hands = hearts_position(rng, players, [n] * players, voids=2)
        g = k.grid("probability")
        for c in k.cards:
            assert sum(g[c].values()) == pytest.approx(1.0, abs=1e-12)
        # an opponent's card is never certain unless a fact put it there
        named = {f.cards[0] for f in k.facts if f.kind == "has"}
        for i in range(1, players):
            for c in hands[i]:
                if c not in named:
                    assert k.grid("logic")[c][i] != "yes" or all(
                        g[c][j] == 0 for j in range(1, players) if j != i
                    )


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([3, 4, 5, 6]),
    left=st.integers(1, 3),
    voids=st.integers(0, 5),
)
def test_property_hearts_grid_matches_enumeration(seed, players, left, voids):
    rng = random.Random(seed)
    left = min(left, 8 // (players - 1))  # keep the enumeration small
    sizes = [left] * players
    sizes[rng.randrange(players)] = max(0, left - 1)
    k, _ = hearts_position(rng, players, sizes, voids=voids)
    _check(k)

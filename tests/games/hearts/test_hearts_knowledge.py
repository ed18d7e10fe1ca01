"""A Hearts seat's knowledge: built from its observation only, with facts a student can read."""

from __future__ import annotations

import random

import pytest

from qardlab.cards import Card, Suit
from qardlab.deduction import PLAYED
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.knowledge import knowledge_of

from .helpers import PLAYERS, make_deal, random_pass


def _consistent(game: Hearts, k) -> None:
    """Every fact holds in the true deal."""
    where = {c: s for s in range(game.players) for c in game.hand(s)}
    for f in k.facts:
        if f.kind == "has":
            truth = where.get(f.cards[0], PLAYED)
            assert truth == f.holder, f.text
        elif f.kind == "has_not":
            assert where.get(f.cards[0], PLAYED) != f.holder, f.text
        elif f.kind == "void":
            assert not any(c.suit == f.suit for c in game.hand(f.holder)), f.text
        assert f.text and f.step is not None


@pytest.mark.parametrize("n", PLAYERS)
def test_knowledge_facts_hold_and_sizes_add_up(n: int) -> None:
    """Own hand, played cards, passed cards and voids: every fact is true; sizes add to the deck."""
    rng = random.Random(n)
    voids = 0
    for seed in range(8):
        g = Hearts.new(n, seed=seed)
        random_pass(g, rng)
        while g.phase == "play":
            if rng.random() < 0.15:
                for seat in range(n):
                    k = g.knowledge(seat)
                    assert k.holders == (*range(n), PLAYED)
                    assert sum(k.sizes.values()) == len(k.cards)
                    assert k.sizes[PLAYED] == sum(1 for e in g.events if e.kind == "play")
                    _consistent(g, k)
                    voids += sum(f.kind == "void" for f in k.facts)
            g.apply(rng.choice(g.legal_actions()))
    assert voids > 0


def test_knowledge_of_a_void_and_a_pass() -> None:
    """A seat that does not follow suit is void in it; a passed card stays with the receiver until played."""
    hands = make_deal(4, {1: ["QS", "2H", "3H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"]})
    g = Hearts.from_deal(hands, "left")
    picks = {s: tuple(g.hand(s)[-3:]) for s in range(4)}
    for s in range(4):
        g.apply(picks[s])
    while g.first_trick:
        g.apply(g.legal_actions()[0])
    k = knowledge_of(g.observation(0))
    assert any(f.kind == "void" and f.holder == 1 and f.suit == Suit.CLUBS for f in k.facts)
    passed = [f for f in k.facts if f.kind == "has" and f.holder == 1 and f.text.startswith("You passed")]
    played = {Card.parse(e.public["card"]) for e in g.events if e.kind == "play"}
    assert {f.cards[0] for f in passed} == {c for c in picks[0] if c not in played}
    assert "holds no clubs" in next(f.text for f in k.facts if f.kind == "void")


def test_knowledge_from_observation_only() -> None:
    """The knowledge is a function of the observation: the same observation, the same facts."""
    g = Hearts.new(4, seed=8)
    random_pass(g, random.Random(0))
    for _ in range(9):
        g.apply(g.legal_actions()[-1])
    a, b = g.knowledge(2), knowledge_of(g.observation(2))
    assert a.facts == b.facts and a.sizes == b.sizes

"""The Hearts grid on real seeded hands: sums, voids, agreement with enumeration late in a hand."""

from __future__ import annotations

import pytest

from qardlab.deduction import PLAYED
from qardlab.deduction.solve import build_model, forced
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot

from .deduction_brute import deals, grid_prob


def _positions(players: int, seed: int):
    """(game, knowledge of the seat to play) at the start of every trick of one hand."""
    g = Hearts.new(players=players, seed=seed)
    bots = [RuleBot(seed * 10 + i) for i in range(players)]
    while g.phase in ("pass", "play"):
        if g.phase == "play" and not g.trick:
            yield g, g.knowledge(g.to_move)
        seat = g.to_move
        g.apply(bots[seat].act(g.observation(seat)))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_rule_void_zero_rows_sum_to_one_on_real_hands(players):
    for seed in range(2):
        for g, k in _positions(players, seed):
            grid = k.grid("probability")
            logic = k.grid("logic")
            for c in k.cards:
                assert sum(grid[c].values()) == pytest.approx(1.0, abs=1e-9)
            for c in g.hand(k.seat):
                assert logic[c][k.seat] == "yes"
            for f in k.facts:
                if f.kind == "void":
                    assert all(grid[c][f.holder] == 0.0 for c in k.cards if c.suit == f.suit)
                if f.kind == "has" and f.holder == PLAYED:
                    assert logic[f.cards[0]][PLAYED] == "yes"
            # the truth is never ruled out
            for s in range(players):
                for c in g.hand(s):
                    assert logic[c][s] != "no"


def test_hearts_grid_agrees_with_enumeration_late_in_real_hands():
    checked = 0
    for seed in range(6):
        for _g, k in _positions(4, seed):
            if k.model().n <= 9:
                ds = deals(k)
                ref = grid_prob(k, ds)
                grid = k.grid("probability")
                for c in k.model().unknown:
                    for h in k.holders:
                        assert grid[c][h] == pytest.approx(ref[c][h], abs=1e-9)
                checked += 1
    assert checked >= 6


def test_hearts_explanations_force_their_cells():
    done = 0
    for _g, k in _positions(4, 3):
        logic = k.grid("logic")
        for c in k.model().unknown:
            for h in range(4):
                if h != k.seat and logic[c][h] is not None and done < 15:
                    e = k.explain(c, h)
                    assert forced(build_model(k, e.facts), c, h) == logic[c][h]
                    done += 1
    assert done > 0

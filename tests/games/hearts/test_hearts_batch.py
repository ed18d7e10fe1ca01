"""The numpy batch simulator: sampled hands replay legally through the step engine to the same points."""

from __future__ import annotations

import numpy as np
import pytest

from qardlab.games.hearts import HeartsRules
from qardlab.games.hearts.batch import simulate

from .helpers import PLAYERS


@pytest.mark.parametrize("n", PLAYERS)
def test_batch_hands_replay_through_the_step_engine(n: int) -> None:
    """A sample of batch-played hands (every pass direction of the cycle) replays, every action
    validated, to the same hand points."""
    result = simulate(2000, n, seed=100 + n)
    assert result.points.shape == (2000, n) and result.plays.shape == (2000, len(result.plays[0]))
    for i in range(0, 2000, 7):
        game = result.replay(i)
        assert game.phase == "hand_over"
        assert game.hand_points == [int(p) for p in result.points[i]]
        assert [int(x) for x in result.raw[i]] == [
            sum(1 for c in game.taken(s) if c.suit == 2) + 13 * any(c.code == "QS" for c in game.taken(s))
            for s in range(n)
        ]


@pytest.mark.parametrize(
    "options",
    [
        {"jd_bonus": True, "moon": "subtract_from_shooter"},
        {"qs_breaks_hearts": True, "must_break_hearts": False, "no_pts_on_first_trick": False},
        {"cards_to_pass": 0},
        {"cards_to_pass": 2, "pass_cycle": ("right", "left")},
    ],
    ids=["jd-subtract", "breaking-options", "no-pass", "two-cards"],
)
def test_batch_rule_options_replay(options: dict) -> None:
    """The batch simulator honours the rule options: its hands replay under the same rules."""
    rules = HeartsRules(**options)
    result = simulate(600, 4, seed=9, rules=rules)
    for i in range(0, 600, 5):
        assert result.replay(i).hand_points == [int(p) for p in result.points[i]]


def test_batch_statistics_and_determinism() -> None:
    """The same seed gives the same hands; 26 points a hand (moons aside); a fixed direction is honoured."""
    a = simulate(3000, 4, seed=1, pass_direction="across")
    b = simulate(3000, 4, seed=1, pass_direction="across")
    assert np.array_equal(a.plays, b.plays) and np.array_equal(a.points, b.points)
    assert set(a.directions) == {"across"}
    moon = (a.raw == 26).any(axis=1)
    assert (a.points[~moon].sum(axis=1) == 26).all()
    assert (a.points[moon].sum(axis=1) == 78).all()
    assert 0 < moon.mean() < 0.05
    assert abs(a.mean_points().mean() - 26 / 4) < 0.5
    with pytest.raises(ValueError, match="across"):
        simulate(10, 5, pass_direction="across")
    with pytest.raises(ValueError, match="count"):
        simulate(0)


@pytest.mark.parametrize(
    "n,options",
    [
        (3, {"jd_bonus": True, "qs_breaks_hearts": True}),
        (5, {"must_break_hearts": False, "moon": "subtract_from_shooter"}),
        (6, {"no_pts_on_first_trick": False, "jd_bonus": True}),
    ],
    ids=["3-jd-qs", "5-no-break", "6-jd"],
)
def test_batch_rule_options_replay_other_player_counts(n: int, options: dict) -> None:
    """The options hold with every player count (the trick's followers are played all at once)."""
    rules = HeartsRules(**options)
    result = simulate(400, n, seed=n, rules=rules)
    for i in range(0, 400, 4):
        assert result.replay(i).hand_points == [int(p) for p in result.points[i]]


def test_batch_plays_a_uniformly_random_legal_card() -> None:
    """At every play the batch's card is uniform among the legal ones: replayed, the chosen card's
    position among ``legal_actions()`` is spread evenly over the positions (per number of legal cards)."""
    result = simulate(400, 4, seed=3)
    seen: dict[int, list[int]] = {}
    for i in range(400):
        hand = result.replay(i)  # validated already; now step through the same plays
        deal = [list(h) for h in hand.history[0].hands]
        game = type(hand).from_deal(deal, pass_direction=hand.pass_direction)
        while game.phase == "pass":
            game.apply(tuple(c for c in game.legal_actions() if c.bit & int(result.passes[i, game.to_move])))
        for idx in result.plays[i]:
            legal = game.legal_actions()
            pos = [c.index for c in legal].index(int(idx))
            seen.setdefault(len(legal), [0] * len(legal))[pos] += 1
            game.apply(legal[pos])
    checked = 0
    for c, counts in seen.items():
        total = sum(counts)
        if c > 1 and total >= 50 * c:
            expected = total / c
            assert max(abs(x - expected) for x in counts) < 5 * expected**0.5, (c, counts)
            checked += 1
    assert checked >= 5


def test_batch_results_do_not_share_the_kept_scratch_arrays() -> None:
    """The simulator keeps its scratch arrays for the thread's next call: what it returns is never one
    of them (a one-hand result, whose transposes are contiguous already, survives the next call), and
    what a call leaves in them changes no later result, in sequence or in threads at once."""
    fields = ("direction_codes", "deals", "passes", "plays", "raw", "points")
    one = simulate(1, 4, seed=3)
    kept = {f: getattr(one, f).copy() for f in fields}
    simulate(1, 4, seed=4)
    assert all(np.array_equal(getattr(one, f), v) for f, v in kept.items())
    first = simulate(500, 4, seed=2)
    simulate(700, 3, seed=9, rules=HeartsRules(jd_bonus=True))
    simulate(500, 5, seed=9)
    again = simulate(500, 4, seed=2)
    assert all(np.array_equal(getattr(first, f), getattr(again, f)) for f in fields)
    from concurrent.futures import ThreadPoolExecutor

    seeds = range(20, 28)
    alone = [simulate(300, 4, seed=s).plays for s in seeds]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda s: simulate(300, 4, seed=s).plays, seeds))
    assert all(np.array_equal(a, b) for a, b in zip(alone, together))

"""Hearts' golden playthroughs (written and checked by ``scripts/make_goldens.py`` and
``tests/games/test_golden.py``): whole seeded matches to 50 points between random bots."""

from __future__ import annotations

from functools import partial

from qardlab.engine import RandomBot, play
from qardlab.engine.playthrough import Case
from qardlab.games.hearts import Hearts, HeartsRules


def play_match(players: int) -> Hearts:
    g = Hearts.new(players, seed=7, rules=HeartsRules(target=50))
    play(g, [RandomBot(100 + s) for s in range(players)])
    return g


CASES = [
    Case(
        f"match_{n}p_seed7",
        partial(play_match, n),
        f"Hearts.new({n}, seed=7, rules=HeartsRules(target=50)); seat s: RandomBot(100 + s)",
    )
    for n in (3, 4, 5, 6)
]

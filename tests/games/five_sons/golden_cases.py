"""Five Sons' golden playthroughs (written and checked by ``scripts/make_goldens.py`` and
``tests/games/test_golden.py``): whole seeded games, one step each, forced answers given by the
answerer's bot."""

from __future__ import annotations

from functools import partial

from qardlab.engine.playthrough import Case
from qardlab.games.five_sons import FiveSons

from .helpers import ClaimSometimes


def play_golden(players: int, mode: str, seed: int) -> FiveSons:
    g = FiveSons.new(players, seed=seed, ask_mode=mode)
    bots = [ClaimSometimes(seed * 31 + s, 0.05) for s in range(players)]
    while not g.is_over:  # one step each, forced answers given by the answerer's bot
        g.apply(bots[g.to_move].act(g.observation(g.to_move)))
    return g


CASES = [
    Case(
        f"{n}p_{mode}_seed{seed}",
        partial(play_golden, n, mode, seed),
        f"FiveSons.new({n}, seed={seed}, ask_mode={mode!r}); seat s: ClaimSometimes({seed} * 31 + s, 0.05)",
    )
    for n, mode, seed in [(4, "chosen", 2), (5, "pass_left", 34)]
]

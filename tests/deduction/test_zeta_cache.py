"""The mask solver's shared cache of zeta transforms and its bound (``qardlab.deduction.solve``).

A classroom seat's kernel keeps ``SEAT_ZETA_CACHE_ENTRIES`` transforms instead of 16 (issue 27: a seat's
kernel as small as it can be). It draws its latest step only, so the smaller cache must make no more
transforms than the default one over a whole game of the largest table (five seats): the clicks stay as
fast as before, and the answers are the same whatever the bound.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from qardlab.deduction import knowledge, solve
from qardlab.engine import play_turn
from qardlab.games.five_sons import FiveSons
from qardlab.games.five_sons.bots import RandomAsker

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def default_cache():
    """Each test starts from the default bound with an empty cache, and leaves it so."""
    solve._ZETA_CACHE.clear()
    solve._ZETA_CACHE.size = solve.ZETA_CACHE_ENTRIES
    knowledge.clear_results()
    yield
    solve._ZETA_CACHE.clear()
    solve._ZETA_CACHE.size = solve.ZETA_CACHE_ENTRIES
    knowledge.clear_results()


def test_the_bound_keeps_the_most_recently_used() -> None:
    solve.limit_zeta_cache(3)
    for key in "abcd":
        solve._ZETA_CACHE.get_or(key, lambda key=key: key.upper())
    assert list(solve._ZETA_CACHE) == ["b", "c", "d"]
    assert solve._ZETA_CACHE.get_or("b", lambda: "made again") == "B"  # a hit, now the most recent
    solve.limit_zeta_cache(2)  # a smaller bound drops the least recently used at once
    assert list(solve._ZETA_CACHE) == ["d", "b"]


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "6", None])
def test_a_bad_bound_is_refused_by_name_and_changes_nothing(bad) -> None:
    solve._ZETA_CACHE.get_or("a", lambda: 1)
    with pytest.raises(ValueError, match=f"limit_zeta_cache\\({bad!r}\\)"):
        solve.limit_zeta_cache(bad)
    assert solve._ZETA_CACHE.size == solve.ZETA_CACHE_ENTRIES and list(solve._ZETA_CACHE) == ["a"]


def _in_fresh_process(value: str, code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QARDLAB_ZETA_CACHE_ENTRIES=value, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)


def test_the_environment_variable_sets_the_bound_of_the_whole_process() -> None:
    """``$QARDLAB_ZETA_CACHE_ENTRIES`` wins over a seat's bound (a teacher's setting for the machine);
    a value that is not a number of entries stops the import with its name and value."""
    code = (
        "from qardlab.deduction import solve\n"
        "print(solve._ZETA_CACHE.size)\n"
        "solve.limit_zeta_cache(solve.SEAT_ZETA_CACHE_ENTRIES)\n"
        "print(solve._ZETA_CACHE.size)\n"
    )
    proc = _in_fresh_process("3", code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["3", "3"]
    proc = _in_fresh_process("many", code)
    assert proc.returncode != 0 and "QARDLAB_ZETA_CACHE_ENTRIES='many'" in proc.stderr, proc.stderr


def _seat_grids(players: int, seed: int, seat: int) -> tuple[list, int]:
    """A seat's grid at every step of a seeded game (as its table draws them, latest step only), and how
    many zeta transforms the cache made for them."""
    made = 0
    get_or = solve._ZETA_CACHE.get_or

    def counting(key, make):
        nonlocal made
        if key not in solve._ZETA_CACHE:
            made += 1
        return get_or(key, make)

    solve._ZETA_CACHE.get_or = counting
    try:
        g = FiveSons.new(players=players, seed=seed)
        bots = [RandomAsker(seed * 7 + i) for i in range(players)]
        grids = []
        while not g.is_over and g.turn < 30:
            play_turn(g, bots)
            knowledge.clear_results()  # no answer reused by value: every grid counts with the solver
            grids.append(g.knowledge(seat).grid())
    finally:
        del solve._ZETA_CACHE.get_or
    return grids, made


@pytest.mark.parametrize("players", [4, 5])
def test_a_seat_makes_no_more_transforms_with_its_bound(players: int) -> None:
    """Over a game, a seat's grids with the seat's bound are the same grids, made from no more zeta
    transforms than with the default 16 (every one the default reuses, the seat's bound reuses too)."""
    default, made_default = _seat_grids(players, seed=11, seat=1)
    solve._ZETA_CACHE.clear()
    solve.limit_zeta_cache(solve.SEAT_ZETA_CACHE_ENTRIES)
    bounded, made_bounded = _seat_grids(players, seed=11, seat=1)
    assert bounded == default
    assert made_bounded == made_default, (made_bounded, made_default)
    assert len(solve._ZETA_CACHE) <= solve.SEAT_ZETA_CACHE_ENTRIES

"""How long one step of a table takes on the Python side (state, views, grid, charts).

For each table (Five Sons and Hearts, 4 and 5 players) and each reasoning level of the
grid, a seeded bot game is stepped through from its first to its last position with the
stepper's "next" button; each click is timed (the timeline moving, the game replayed one
action, every widget value updated, the grid and the chosen chart redrawn). Prints the
median and worst milliseconds with charts on and off, and the share of the time spent in
each part of the redraw. Budget: < 100 ms median with charts, < 30 ms without.

    python benchmarks/widgets.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from typing import Any

from threadpoolctl import threadpool_limits

from qardlab.engine import RandomBot, play
from qardlab.games.five_sons import FiveSons
from qardlab.games.five_sons.bots import ReasoningBot
from qardlab.games.hearts import Hearts
from qardlab.widgets.five_sons import FiveSonsTable
from qardlab.widgets.hearts import HeartsTable

PARTS = {
    FiveSonsTable: ["_render_table", "_render_log", "_render_controls", "_render_grid", "_render_charts"],
    HeartsTable: ["_render_table", "_render_controls", "_render_log", "_render_scores", "_render_counting"],
}


def instrument(cls: type, spent: dict[str, float]) -> list[tuple[str, Any]]:
    saved = []
    for name in PARTS[cls]:
        fn = getattr(cls, name)
        saved.append((name, fn))

        def timed(self, *a, _fn=fn, _name=name, **k):
            t = time.perf_counter()
            try:
                return _fn(self, *a, **k)
            finally:
                spent[_name] += time.perf_counter() - t

        setattr(cls, name, timed)
    return saved


def step_times(table: Any) -> list[float]:
    table.timeline.first()
    out = []
    while not table.stepper.next_button.disabled:
        t = time.perf_counter()
        table.stepper.next_button.click()
        out.append((time.perf_counter() - t) * 1000)
    return out


def five_sons_games(players: int, n: int) -> list[FiveSons]:
    return [
        play(FiveSons.new(players, seed=s), [ReasoningBot(s * 10 + i) for i in range(players)])
        for s in range(n)
    ]


def hearts_games(players: int, n: int) -> list[Hearts]:
    games = []
    for s in range(n):
        g = Hearts.new(players, seed=s)
        bots = [RandomBot(s * 10 + i) for i in range(players)]
        while g.phase in ("pass", "play"):
            from qardlab.engine import play_turn

            play_turn(g, bots)
        games.append(g)
    return games


def run(label: str, cls: type, games: list, seat: int, level: str | None, charts: bool) -> None:
    spent: dict[str, float] = defaultdict(float)
    saved = instrument(cls, spent)
    times: list[float] = []
    try:
        for g in games:
            kw = {"level": level} if level else {}
            t = cls(g, seat=seat, charts=charts, **kw)
            spent.clear()
            times += step_times(t)
    finally:
        for name, fn in saved:
            setattr(cls, name, fn)
    total = sum(spent.values()) or 1.0
    shares = ", ".join(
        f"{k.strip('_').replace('render_', '')} {100 * v / total:.0f}%"
        for k, v in sorted(spent.items(), key=lambda kv: -kv[1])
    )
    print(
        f"{label:<34} charts={'on ' if charts else 'off'} steps={len(times):5d}  "
        f"median {statistics.median(times):6.1f} ms  worst {max(times):7.1f} ms   [{shares}]"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="seeded games per configuration")
    args = ap.parse_args()
    with threadpool_limits(1):
        for players in (4, 5):
            games = five_sons_games(players, args.games)
            for level in ("naive", "logic", "probability"):
                for charts in (True, False):
                    run(f"Five Sons {players}p, grid {level}", FiveSonsTable, games, 1, level, charts)
        for players in (4, 5):
            games = hearts_games(players, args.games)
            for charts in (True, False):
                run(f"Hearts {players}p, counting grid", HeartsTable, games, 1, None, charts)


if __name__ == "__main__":
    main()

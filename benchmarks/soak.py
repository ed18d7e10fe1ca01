"""A long class session in one process: does memory stay flat?

Four phases, each through the public API, printing the process's resident memory (RSS),
the number of live widget models (``ipywidgets.Widget.widgets``) and the time per game at
intervals:

1. ``--five-sons`` Five Sons games (default 200), 4 and 5 players alternately, ``FiveSons.new``
   then ``engine.play`` with logic bots (``ReasoningBot``) to the end;
2. ``--hearts`` Hearts hands (default 2,000) in whole matches, ``Hearts.new`` then ``play``
   with rule bots, hands dealt by the game;
3. ``--deals`` "New deal" clicks in ``five_sons_app()`` (default 100), each followed by a few
   of the player's clicks (ask the builder's question, pass the claim);
4. the same in ``hearts_app()``: a new deal, then the pass and the first cards played.

After each phase it prints the growth from the end of its warm-up (the first quarter) to its
end: memory is flat when that growth is small against the warm-up level and the widget
count does not grow at all.

    python benchmarks/soak.py [--five-sons 200] [--hearts 2000] [--deals 100] [--charts]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import time
import warnings
from typing import Any, Callable

from threadpoolctl import threadpool_limits

from qardlab.engine import play
from qardlab.games.five_sons import FiveSons
from qardlab.games.five_sons.bots import ReasoningBot
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mib() -> float:
    """Resident memory of this process, MiB (after a collection, so garbage does not count)."""
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


def live_widgets() -> int:
    import ipywidgets as widgets

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return len(widgets.Widget.widgets)


def phase(title: str, count: int, unit: str, run_one: Callable[[int], int]) -> dict[str, Any]:
    """Run ``run_one(i)`` until ``count`` units are done, reporting at tenths; return the figures."""
    print(f"\n== {title}: {count} {unit}")
    print(f"{unit:>8} {'RSS MiB':>9} {'widgets':>8} {'ms/' + unit.rstrip('s'):>10}")
    marks = sorted({max(1, round(count * k / 10)) for k in range(1, 11)})
    warm = max(1, count // 4)
    done, i, t_all = 0, 0, 0.0
    t_mark, n_mark = 0.0, 0
    at_warm: tuple[float, int] | None = None
    start = (rss_mib(), live_widgets())
    print(f"{0:>8} {start[0]:>9.1f} {start[1]:>8}")
    while done < count:
        t = time.perf_counter()
        done += run_one(i)
        dt = time.perf_counter() - t
        i += 1
        t_all += dt
        t_mark += dt
        if at_warm is None and done >= warm:
            at_warm = (rss_mib(), live_widgets())
        while marks and done >= marks[0]:
            n = done - n_mark
            print(f"{marks[0]:>8} {rss_mib():>9.1f} {live_widgets():>8} {1000 * t_mark / max(1, n):>10.1f}")
            marks.pop(0)
            t_mark, n_mark = 0.0, done
    end = (rss_mib(), live_widgets())
    assert at_warm is not None
    print(
        f"growth after warm-up ({warm} {unit}): {end[0] - at_warm[0]:+.1f} MiB, "
        f"{end[1] - at_warm[1]:+d} widgets; {1000 * t_all / done:.1f} ms per {unit.rstrip('s')}"
    )
    run_one(-1)  # let the phase clean up (an app closes itself)
    print(f"after the phase: {live_widgets()} live widgets")
    return {"rss_warm": at_warm[0], "rss_end": end[0], "widgets_warm": at_warm[1], "widgets_end": end[1]}


def five_sons_game(i: int) -> int:
    if i < 0:
        return 0
    players = 4 + i % 2
    g = FiveSons.new(players, seed=1000 + i)
    play(g, [ReasoningBot(i * 10 + s) for s in range(players)])
    assert g.is_over
    return 1


def hearts_match(i: int) -> int:
    if i < 0:
        return 0
    g = Hearts.new(4, seed=2000 + i)
    play(g, [RuleBot(i * 10 + s) for s in range(4)])
    assert g.is_over
    return g.hand_no + 1


def five_sons_deals(charts: bool) -> Callable[[int], int]:
    from qardlab.widgets import five_sons_app

    app = five_sons_app(charts=charts)
    rng = random.Random(3)

    def one(i: int) -> int:
        if i < 0:  # the phase is over
            app.close()
            return 0
        app.seed.value = i
        app.new_button.click()
        t = app.table
        for _ in range(3):  # a few of the player's turns
            g = t.game
            if g.is_over:
                break
            if g.phase == "ask" and t.human_to_act():
                t.target.value = rng.choice([o[1] for o in t.target.options])
                t.ask_button.click()
            elif g.phase == "claim" and t.human_to_act():
                t.no_claim_button.click()
            elif g.phase == "answer" and t.human_to_act():  # (the player's own answer, forced or not)
                held = [c for c in g.question.cards if c in g.hand(t.human)]
                t.answer(held[0] if held else None)
        return 1

    return one


def hearts_deals(charts: bool) -> Callable[[int], int]:
    from qardlab.widgets import hearts_app

    app = hearts_app(charts=charts)

    def one(i: int) -> int:
        if i < 0:
            app.close()
            return 0
        app.seed.value = i
        app.new_button.click()
        t = app.table
        if t.game.phase == "pass" and t.human_to_act():
            for c in list(t.game.hand(t.human))[:3]:
                t.play(c)
            t.pass_button.click()
        for _ in range(3):  # the first cards the player plays
            if t.game.phase != "play" or not t.human_to_act():
                break
            t.play(t.game.legal_actions()[0])
        return 1

    return one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--five-sons", type=int, default=200, help="Five Sons games (default 200)")
    ap.add_argument("--hearts", type=int, default=2000, help="Hearts hands (default 2000)")
    ap.add_argument("--deals", type=int, default=100, help="new deals through each app (default 100)")
    ap.add_argument("--charts", action="store_true", help="draw the apps' charts (off by default)")
    args = ap.parse_args()
    with threadpool_limits(1):
        print(f"pid {os.getpid()}; start RSS {rss_mib():.1f} MiB")
        phase("Five Sons games, FiveSons.new + play (ReasoningBot)", args.five_sons, "games", five_sons_game)
        phase("Hearts hands, whole matches, Hearts.new + play (RuleBot)", args.hearts, "hands", hearts_match)
        phase(
            f"five_sons_app: New deal + 3 clicks (charts {'on' if args.charts else 'off'})",
            args.deals,
            "deals",
            five_sons_deals(args.charts),
        )
        phase(
            f"hearts_app: New deal + pass + 3 cards (charts {'on' if args.charts else 'off'})",
            args.deals,
            "deals",
            hearts_deals(args.charts),
        )


if __name__ == "__main__":
    main()

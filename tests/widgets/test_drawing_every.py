"""``GameTable.drawing_every``: changes drawn at most once per interval inside, the newest at the end."""

from __future__ import annotations

import asyncio
import concurrent.futures

import pytest

from qardlab.games.five_sons import FiveSons
from qardlab.widgets.five_sons import FiveSonsTable


def _run(coro):
    # a thread of its own: the browser tests' Playwright keeps an event loop in the main thread
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _game(steps: int = 12) -> FiveSons:
    g = FiveSons.new(players=4, seed=3)
    while g.step < steps:
        g.play(g.legal_actions()[0])
    return g


def _counted() -> tuple[FiveSonsTable, list[int]]:
    """A table whose drawings are counted: the timeline's position at each ``render``."""
    table = FiveSonsTable(_game(), seat=0, charts=False)
    renders: list[int] = []
    draw = table.render
    table.render = lambda: (renders.append(table.timeline.position), draw())  # type: ignore[method-assign]
    return table, renders


def test_changes_inside_are_drawn_at_most_once_per_interval_and_the_last_at_the_end() -> None:
    table, renders = _counted()
    tl = table.timeline

    async def steps() -> None:
        with table.drawing_every(60.0):
            for k in range(1, 8):  # 7 changes at once: the first drawn now, the rest put off
                tl.go_to(k)
            assert renders == [1] and table.log_view.value == _drawn_at(1).log_view.value  # not redrawn yet
            await asyncio.sleep(0)
        assert renders == [1, 7]  # the newest at the end, once

    _run(steps())
    # what is drawn is what a table drawn at that step shows
    assert table.log_view.value == _drawn_at(7).log_view.value
    tl.go_to(8)  # outside: each change at once again
    assert renders == [1, 7, 8]


def _drawn_at(step: int) -> FiveSonsTable:
    t = FiveSonsTable(_game(), seat=0, charts=False)
    t.timeline.go_to(step)
    return t


def test_a_put_off_drawing_comes_by_itself_after_the_interval() -> None:
    table, renders = _counted()
    tl = table.timeline

    async def steps() -> None:
        with table.drawing_every(0.05):
            tl.go_to(2)
            tl.go_to(3)
            assert renders == [2]
            await asyncio.sleep(0.2)  # the timer draws the newest meanwhile
            assert renders == [2, 3]
        assert renders == [2, 3]  # nothing left to draw at the end

    _run(steps())


def test_drawing_every_refuses_a_bad_interval() -> None:
    table = FiveSonsTable(_game(), seat=0, charts=False)
    for bad in (0, -1, True, "1"):
        with pytest.raises(ValueError, match="seconds must be a positive number"):
            with table.drawing_every(bad):  # type: ignore[arg-type]
                pass

"""A seat of a classroom table as the game's ordinary table widget: ``table = await join(url, code)``.

The table (a :class:`~qardlab.widgets.five_sons.FiveSonsTable` or
:class:`~qardlab.widgets.hearts.HeartsTable`) is drawn from a :class:`RemoteSource`: the seat's
hand, log, grid and explanations are computed in this kernel from that seat's observations
alone (nothing else reaches the kernel). The student's clicks go to the server as ``act``
messages; the server's refusals (the engine's IllegalAction text), a dropped connection and a
refused code are shown in the table's status line. The teacher's code gives the teacher's view
(every hand), to watch.

Nothing is ever sent for the student: every answer, forced by the cards or chosen, is the student's own
click (the one legal answer lit), as at a real table. The seat's standing orders (Five Sons' "pass on
claims unless I claim") are the student's choices made in advance; the server's seat driver applies them.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Optional

from .client import JoinRefused, RemoteSource

__all__ = ["join", "follow_status", "table_of"]


def follow_status(table: Any, src: RemoteSource) -> Callable[[], None]:
    """Show ``src``'s refusals and connection changes in ``table``'s status line; returns the
    function that stops it."""
    seen = {"errors": len(src.errors), "connected": src.connected}

    def changed(_src: RemoteSource) -> None:
        if table.comm is None:  # the table was closed
            stop()
            return
        if src.refused:
            table.say(
                f"The server refused this seat's code: {src.refused}. Ask your teacher for a code.",
                error=True,
            )
        elif len(src.errors) > seen["errors"]:
            seen["errors"] = len(src.errors)
            table.say(f"Not allowed: {src.errors[-1]}", error=True)
        elif src.connected != seen["connected"]:
            table.say(
                "" if src.connected else "Connection to the table lost: reconnecting...",
                error=not src.connected,
            )
        seen["connected"] = src.connected

    stop = src.observe(changed)
    return stop


async def join(
    url: str,
    code: str,
    *,
    timeout: float = 10.0,
    charts: bool = True,
    **table_kwargs: Any,
) -> Any:
    """Join the table seat that ``code`` opens on the server at ``url`` (``http://HOST:PORT``).

    Returns the game's table widget, locked to that seat (``human`` and the only view), or for the
    teacher's code the teacher's view (no human seat). ``table.remote`` is its
    :class:`RemoteSource`; closing the table closes the connection. Raises
    :class:`JoinRefused` for a code the server refuses, TimeoutError if it cannot be reached
    within ``timeout`` seconds. Every move of the seat is the student's click, a forced answer too.
    Extra keywords go to the table (``level`` for Five Sons' grid, ``counting`` for Hearts).
    """
    try:
        src = await RemoteSource.open(url, code, timeout=timeout)
    except asyncio.TimeoutError:
        raise TimeoutError(f"no answer from a classroom server at {url} within {timeout} s") from None
    return table_of(src, charts=charts, **table_kwargs)


def table_of(src: RemoteSource, *, charts: bool = True, **table_kwargs: Any) -> Any:
    """The table widget of an open :class:`RemoteSource` (what :func:`join` returns)."""
    if src.refused:
        raise JoinRefused(src.refused)
    seat: Optional[int] = src.seat
    from ..widgets import table_class

    if seat is not None:
        # a seat's kernel (the join page's, lesson 09's) only ever asks for its latest step: the
        # deduction engine keeps that step's zeta transforms, not 16 (10-14 MiB less late in a game)
        from ..deduction.solve import SEAT_ZETA_CACHE_ENTRIES, limit_zeta_cache

        limit_zeta_cache(SEAT_ZETA_CACHE_ENTRIES)

    cls = table_class(src.game_name)  # found by the game's name; ValueError naming an unknown game
    table = cls(src, seat=seat, human=seat, views=(seat,), charts=charts, **table_kwargs)
    table.remote = src
    table.owns_source = True
    follow_status(table, src)
    return table

"""A seat of a classroom table as the game's ordinary table widget: ``table = await join(url, code)``.

The table (a :class:`~qardlab.widgets.five_sons.FiveSonsTable` or
:class:`~qardlab.widgets.hearts.HeartsTable`) is drawn from a :class:`RemoteSource`: the seat's
hand, log, grid and explanations are computed in this kernel from that seat's observations
alone (nothing else reaches the kernel). The student's clicks go to the server as ``act``
messages; the server's refusals (the engine's IllegalAction text), a dropped connection and a
refused code are shown in the table's status line. The teacher's code gives the teacher's view
(every hand), to watch.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Optional

from ..engine import IllegalAction
from .client import JoinRefused, RemoteSource

__all__ = ["join", "follow_status", "give_forced", "FORCED_DELAY"]

#: seconds a joined seat waits before it sends an answer its cards force
FORCED_DELAY = 0.8


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


def give_forced(table: Any, src: RemoteSource, delay: float = FORCED_DELAY) -> Callable[[], None]:
    """Send the seat's forced steps (a Five Sons answer its cards force) after ``delay`` seconds.

    The server never plays a student's step, forced or not (docs/classroom.md); a local table gives a
    forced answer on the bots' clock, and a joined one gives it here, after a pause, so that nobody
    sees it come back at once. Returns the function that stops it.
    """
    due: dict[str, Any] = {"step": None}

    def send(step: int) -> None:
        if table.comm is None or not src.live or src.seat is None:
            return
        obs = src.observation(src.seat)
        if obs["step"] != step or obs["to_move"] != src.seat or not table.forced_due(obs):
            return
        try:
            src.act(src.seat, obs["legal"][0])
        except IllegalAction as e:  # disconnected meanwhile: it is sent again when the seat is back
            due["step"] = None
            table.say(f"Not allowed: {e}", error=True)

    def changed(_src: RemoteSource) -> None:
        if table.comm is None:
            stop()
            return
        if src.seat is None or not src.live:
            due["step"] = None
            return
        obs = src.observation(src.seat)
        if obs["to_move"] == src.seat and table.forced_due(obs) and due["step"] != obs["step"]:
            due["step"] = obs["step"]
            asyncio.get_running_loop().call_later(delay, send, obs["step"])

    stop = src.observe(changed)
    changed(src)
    return stop


async def join(
    url: str,
    code: str,
    *,
    timeout: float = 10.0,
    charts: bool = True,
    forced_delay: float = FORCED_DELAY,
    **table_kwargs: Any,
) -> Any:
    """Join the table seat that ``code`` opens on the server at ``url`` (``http://HOST:PORT``).

    Returns the game's table widget, locked to that seat (``human`` and the only view), or for the
    teacher's code the teacher's view (no human seat). ``table.remote`` is its
    :class:`RemoteSource`; closing the table closes the connection. Raises
    :class:`JoinRefused` for a code the server refuses, TimeoutError if it cannot be reached
    within ``timeout`` seconds. An answer the seat's cards force is sent by the table itself,
    ``forced_delay`` seconds after it is due. Extra keywords go to the table (``level`` for Five Sons'
    grid, ``counting`` for Hearts).
    """
    try:
        src = await RemoteSource.open(url, code, timeout=timeout)
    except asyncio.TimeoutError:
        raise TimeoutError(f"no answer from a classroom server at {url} within {timeout} s") from None
    return table_of(src, charts=charts, forced_delay=forced_delay, **table_kwargs)


def table_of(
    src: RemoteSource, *, charts: bool = True, forced_delay: float = FORCED_DELAY, **table_kwargs: Any
) -> Any:
    """The table widget of an open :class:`RemoteSource` (what :func:`join` returns)."""
    if src.refused:
        raise JoinRefused(src.refused)
    seat: Optional[int] = src.seat
    from ..widgets import table_class

    cls = table_class(src.game_name)  # found by the game's name; ValueError naming an unknown game
    table = cls(src, seat=seat, human=seat, views=(seat,), charts=charts, **table_kwargs)
    table.remote = src
    table.owns_source = True
    follow_status(table, src)
    give_forced(table, src, forced_delay)
    return table

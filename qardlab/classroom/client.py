"""The notebook side of a classroom table: a seat's observations over a websocket, as a widgets source.

:class:`RemoteSource` follows :class:`qardlab.widgets.source.Source`: it gives the observations of
its one viewpoint (the seat its join code opens, or the teacher's), sends the seat's actions, and
tells its observers after every change. It runs in the event loop of the process that opens it
(an IPython kernel's own loop in a notebook: open it with top-level ``await``), and reconnects by
itself with the same code when the connection drops or the server restarts; a code the server
refuses (wrong, stale, or its seat handed to a bot) is final.

One difference from a local source: the server answers a move after a round trip, so ``act``
refuses at once only what the source can see is wrong (not this seat, not its turn, not
connected) and otherwise sends the move; the server's refusal (the engine's IllegalAction text)
then arrives as ``last_error`` and observers are told. ``await act_async(...)`` waits for the
answer and raises :class:`~qardlab.engine.IllegalAction` with that text.

The seat's standing orders (``orders``, ``set_orders``) live at the server, in the table's seat driver:
``set_orders`` sends an ``orders`` message, and the server's ``orders`` frames say what they are. The
orders this source set are sent again after every reconnection (a restarted server starts each seat
from the table's own orders). ``waits_for(seat)`` says, from the seat's observation and its orders,
whether the table waits for this seat's person now (the engine's :func:`~qardlab.engine.seats.waits_for`).

The events of an observation have one shape for every viewer (:meth:`qardlab.engine.Event.seen_by`): a
seat's own private part is under ``private``, keyed by the seat, as the teacher's are. A server of the
version before (qardlab 0.1.0 as it was until then) sent a seat's own private fields at the top of each
event; for one version this source still reads that shape, turning it into the one shape on arrival
(:func:`one_shape`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from typing import Any, Callable, Optional
from urllib.parse import quote

from ..engine import Game, IllegalAction, find_game
from ..engine.seats import orders_class, waits_for
from .frames import apply_changes

__all__ = ["RemoteSource", "JoinRefused"]

log = logging.getLogger("qardlab.classroom")
#: seconds between reconnection attempts (the last one repeats), each drawn from half to one and a half times
#: this (:func:`backoff`), so that thirty pages dropped at once (a restarted server) do not all come back on
#: the same tick
RETRY = (0.2, 0.5, 1.0, 2.0, 4.0)
#: the longest :meth:`RemoteSource.wait` sleeps between two looks at its predicate (it also looks at once
#: after every change it is told of)
WAIT_POLL = 0.1


class JoinRefused(ConnectionError):
    """The server refused the join code (unknown, stale, or its seat is now a bot's)."""


def backoff(attempt: int, retry: tuple[float, ...] = RETRY, rng: Optional[random.Random] = None) -> float:
    """Seconds to wait before reconnection attempt ``attempt`` (0: the first after a drop): ``retry``'s delay
    for it (the last one repeats), times a factor drawn from 0.5 to 1.5 (jitter)."""
    delay = retry[min(attempt, len(retry) - 1)]
    return delay * (0.5 + (rng or random).random())


def ws_url(url: str, code: str) -> str:
    """``http://host:port`` (or ``ws://...``) and a code -> the table's websocket address."""
    url = url.rstrip("/")
    if url.startswith("http://"):
        url = "ws://" + url[len("http://") :]
    elif url.startswith("https://"):
        url = "wss://" + url[len("https://") :]
    elif not url.startswith(("ws://", "wss://")):
        raise ValueError(f"the server's address starts with http:// or https://, not {url!r}")
    return f"{url}/ws?code={quote(code, safe='')}&frames=changes"


#: The fields of a seat's own private part that a server of the version before this one sent at the top of
#: the seat's events, by game and event kind (its two games; a claim's ``secret`` only when the claim was
#: wrong: a right one says the secret aloud). Read for one version: see :func:`one_shape`.
_OLD_PRIVATE: dict[str, dict[str, tuple[str, ...]]] = {
    "five_sons": {"deal": ("hand",), "answer": ("card",), "claim": ("secret",)},
    "hearts": {"deal": ("cards",), "pass_choice": ("cards",), "pass": ("passed", "to", "received", "from")},
}


def one_shape(obs: dict[str, Any]) -> dict[str, Any]:
    """A seat's observation with its events in the one shape (its private part under ``private``), from an
    older server's frame too, which put the seat's own private fields at the top of each event (this
    version still reads it; the next one will not). A frame in the one shape comes back as it is."""
    seat, old = obs.get("seat"), _OLD_PRIVATE.get(obs.get("game", ""))
    if old is None or type(seat) is not int:  # the teacher's and the public view kept their shape
        return obs
    for event in obs.get("events") or ():
        keys = old.get(event.get("kind", ""))
        if not keys or "private" in event or (event["kind"] == "claim" and event.get("right")):
            continue
        mine = {k: event.pop(k) for k in keys if k in event}
        if mine:
            event["private"] = {str(seat): mine}
    return obs


class RemoteSource:
    """A seat (or the teacher's view) of a table on a classroom server. See the module docstring."""

    def __init__(
        self, url: str, code: str, *, retry: tuple[float, ...] = RETRY, rng: Optional[random.Random] = None
    ) -> None:
        self.url = ws_url(url, code)
        self.code = code
        self.retry = retry
        self.rng = rng or random.Random()  # the reconnections' jitter
        self.refreshes = 0  # whole observations asked for after a change frame did not fit
        self.seat: Optional[int] = None
        self.game_name = ""
        self.players = 0
        self.names: list[str] = []
        self.viewpoints: tuple[Optional[int], ...] = ()
        self.errors: list[str] = []
        self.connected = False
        self.connections = 0  # how many times it connected (1 + reconnections)
        self.refused: Optional[str] = None
        self._obs: Optional[dict[str, Any]] = None
        self._orders: dict[
            str, Any
        ] = {}  # the seat's standing orders as the server last said (none: defaults)
        self._wanted: dict[str, Any] = {}  # the orders this source set: sent again on every reconnection
        #: the game's class (found by the first observation's game): the action codec, a class method
        self.game_class: Optional[type[Game]] = None
        self._listeners: list[Callable[["RemoteSource"], None]] = []
        self._waiters: list[tuple[int, asyncio.Future]] = []
        self._changes: list[asyncio.Future] = []  # wait()s sleeping until the next change
        self._ws: Any = None
        self._closing = False
        self._first: Optional[asyncio.Future] = None
        self._task: Optional[asyncio.Task] = None

    # -- opening and closing ----------------------------------------------------------
    @classmethod
    async def open(cls, url: str, code: str, timeout: float = 10.0, **kwargs: Any) -> "RemoteSource":
        """Connect and wait for the first observation; JoinRefused if the server refuses the code."""
        src = cls(url, code, **kwargs)
        src.start()
        try:
            await asyncio.wait_for(asyncio.shield(src._first), timeout)
        except BaseException:
            src.close()
            raise
        return src

    def start(self) -> None:
        """Start connecting in the running event loop (``open`` does this and waits)."""
        loop = asyncio.get_running_loop()
        self._first = loop.create_future()
        self._task = loop.create_task(self._run())

    def close(self) -> None:
        """Disconnect for good."""
        self._closing = True
        if self._ws is not None:
            self._ws.close()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self.connected = False

    async def _run(self) -> None:
        from tornado.websocket import websocket_connect

        attempt = 0
        while not self._closing:
            try:
                ws = await websocket_connect(self.url, connect_timeout=5)
            except Exception as e:  # not up (yet), refused at the door, timed out: try again
                log.debug("cannot reach %s: %s", self.url.split("?", 1)[0], e)  # the address, never the code
                await asyncio.sleep(backoff(attempt + 1, self.retry, self.rng))
                attempt += 1
                continue
            self._ws, self.connected, attempt = ws, True, 0
            self.connections += 1
            if self._wanted:  # the seat's orders as this window set them (a restarted server lost them)
                ws.write_message(json.dumps({"type": "orders", "orders": self._wanted}))
            while True:
                text = await ws.read_message()
                if text is None:
                    break
                if isinstance(text, str):
                    self._receive(text)
            self._ws, self.connected = None, False
            if ws.close_code == 4403:  # the server refused the code: final
                self.refused = ws.close_reason or (self.errors[-1] if self.errors else "join code refused")
                self._fail_waiters(JoinRefused(self.refused))
                if self._first is not None and not self._first.done():
                    self._first.set_exception(JoinRefused(self.refused))
                self._notify()
                return
            self._fail_waiters(
                IllegalAction(
                    "the connection to the server dropped before it answered; "
                    "the move may or may not have been played"
                )
            )
            self._notify()
            await asyncio.sleep(backoff(0, self.retry, self.rng))

    # -- messages ---------------------------------------------------------------------
    def _receive(self, text: str) -> None:
        msg = json.loads(text)
        kind = msg.get("type")
        if (
            kind == "change"
        ):  # what changed since the last frame: applied to the observation this window holds
            if self._obs is None or msg.get("seat") != self.seat:
                self._refresh()
                return
            obs = apply_changes(self._obs, msg)
            if obs.get("step") != msg.get("step"):  # (never, on one ordered connection) lost track: ask
                self._refresh()
                return
            self._observed(obs)
        elif kind == "observation":  # (a server of the version before sends these only, in the old shape)
            self._observed(one_shape(msg["observation"]), msg["seat"])
        elif kind == "orders":
            self._orders = dict(msg["orders"])
            self._notify()
        elif kind == "error":
            self.errors.append(msg["message"])
            if self._waiters:
                _step, fut = self._waiters.pop(0)
                if not fut.done():
                    fut.set_exception(IllegalAction(msg["message"]))
            self._notify()

    def _refresh(self) -> None:
        """Ask the server for the whole observation (a change frame that does not fit what this holds)."""
        self.refreshes += 1
        if self._ws is not None:
            self._ws.write_message(json.dumps({"type": "observation"}))

    def _observed(self, obs: dict[str, Any], seat: Any = None) -> None:
        """A new observation (whole, or made from a change frame): kept, waiters and observers told."""
        if self._obs is None:
            self.seat = seat
            self.game_name = obs["game"]
            self.players = obs["players"]
            self.names = list(obs.get("names") or [f"Seat {s}" for s in range(self.players)])
            self.viewpoints = (self.seat,)
            # the game's class (imported at its first use: joining a table loads only its game)
            self.game_class = find_game(self.game_name)
        self._obs = obs
        if self._first is not None and not self._first.done():
            self._first.set_result(self)
        for step, fut in list(self._waiters):
            if obs["step"] > step and not fut.done():
                fut.set_result(obs)
        self._waiters = [(s, f) for s, f in self._waiters if not f.done()]
        self._notify()

    def _fail_waiters(self, error: Exception) -> None:
        for _step, fut in self._waiters:
            if not fut.done():
                fut.set_exception(error)
        self._waiters = []

    def _notify(self) -> None:
        for cb in list(self._listeners):
            try:
                cb(self)
            except Exception:  # an observer's bug must not stop the connection
                log.exception("a RemoteSource observer failed")
        changes, self._changes = self._changes, []
        for fut in changes:  # then the wait()s look again (the observers have drawn the change)
            if not fut.done():
                fut.set_result(None)

    # -- the Source protocol ----------------------------------------------------------
    @property
    def live(self) -> bool:
        """Connected, with an observation of the game as it is now."""
        return self.connected and self._obs is not None

    @property
    def last_error(self) -> Optional[str]:
        return self.errors[-1] if self.errors else None

    def observation(self, seat: Optional[int]) -> dict[str, Any]:
        """The latest observation of this source's viewpoint (ValueError for any other)."""
        if self._obs is None:
            raise ValueError("no observation yet: the source has not connected")
        if seat not in self.viewpoints:
            raise ValueError(f"viewpoint {seat!r} is not one this source gives ({list(self.viewpoints)})")
        return self._obs

    def act(self, seat: int, action: Any) -> None:
        """Send ``action`` (record encoding, or the game's action) for this source's seat.

        IllegalAction at once for another seat, out of turn, or while disconnected; the server's
        refusal of a sent move comes as ``last_error`` (see ``act_async``).
        """
        self._send(seat, action)

    async def act_async(self, seat: int, action: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Send ``action`` and wait for the server: the next observation, or IllegalAction (its text)."""
        step = self._send(seat, action)
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append((step, fut))
        return await asyncio.wait_for(fut, timeout)

    def _send(self, seat: int, action: Any) -> int:
        if self.seat is None or seat != self.seat:
            who = "the teacher" if self.seat is None else f"seat {self.seat}"
            raise IllegalAction(f"this source is {who}'s; it cannot act for seat {seat!r}")
        if not self.live:
            raise IllegalAction("not connected to the table's server (reconnecting); try again in a moment")
        obs = self._obs
        if obs["is_over"]:
            raise IllegalAction("the game is over; nothing more can be played")
        if obs["to_move"] != seat:
            raise IllegalAction(f"it is not your turn: seat {obs['to_move']} is to move ({obs['phase']})")
        if not isinstance(action, (dict, list, str)):
            action = self.game_class.action_to_json(action)
        self._ws.write_message(json.dumps({"type": "act", "action": action, "step": obs["step"]}))
        return obs["step"]

    def orders(self, seat: int) -> dict[str, Any]:
        """The seat's standing orders (every order of its game; the server's word, or what this source set
        since). ValueError for another seat."""
        self._own(seat)
        return {**orders_class(self.game_name).defaults, **self._orders}

    def set_orders(self, seat: int, orders: dict[str, Any]) -> None:
        """Change some of the seat's standing orders: checked here (ValueError naming a bad one, nothing
        sent), then sent to the server (at once, or when the connection is back)."""
        self._own(seat)
        checked = orders_class(self.game_name).check(orders)
        self._wanted.update(checked)
        self._orders.update(checked)
        if self.live:
            self._ws.write_message(json.dumps({"type": "orders", "orders": checked}))

    def waits_for(self, seat: int) -> bool:
        """Whether the table waits for this seat's person now (connected, its turn, no standing order of
        its own acting)."""
        if not self.live or seat != self.seat or seat is None:
            return False
        return waits_for(self.game_name, self._obs, seat, self.orders(seat))

    def _own(self, seat: Any) -> None:
        if self.seat is None or seat != self.seat:
            who = "the teacher" if self.seat is None else f"seat {self.seat}"
            raise ValueError(f"this source is {who}'s; it has no standing orders of seat {seat!r}")

    async def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        """Wait (without blocking the event loop) until ``predicate(observation)`` holds; returns that
        observation. TimeoutError names the step it stopped at.

        The predicate is tried again at each change the observers are told of (an observation, an
        error, a dropped connection), at once, and at least every ``WAIT_POLL`` seconds (for a predicate
        that reads something else, such as ``connected``)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._obs is None or not predicate(self._obs):
            if self.refused:
                raise JoinRefused(self.refused)
            left = end - loop.time()
            if left < 0:
                step = None if self._obs is None else self._obs["step"]
                raise TimeoutError(f"{self!r}: still waiting after {timeout} s (at step {step})")
            change = loop.create_future()
            self._changes.append(change)
            await asyncio.wait((change,), timeout=min(left, WAIT_POLL))
            if not change.done():
                change.cancel()
                self._changes = [f for f in self._changes if f is not change]
        return self._obs

    def observe(self, callback: Callable[["RemoteSource"], None]) -> Callable[[], None]:
        """Call ``callback(source)`` after every observation, error, or change of connection."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    def __repr__(self) -> str:
        who = "teacher" if self.seat is None else f"seat {self.seat}"
        state = "connected" if self.connected else ("refused" if self.refused else "not connected")
        return f"RemoteSource({self.game_name or '?'}, {who}, {state})"

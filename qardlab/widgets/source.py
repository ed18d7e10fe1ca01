"""Where a table's observations come from: a *source*, local or remote.

A table widget never reads a game. It asks a source for one viewpoint's observation and
sends the human's actions to it; the source says when something changed. Two sources
follow the same small :class:`Source` protocol:

- :class:`LocalSource`: a game in this kernel, over a :class:`~qardlab.engine.Timeline`
  (so a table can step back and forth through it);
- ``RemoteSource`` (``qardlab.classroom``): a seat of a table on a classroom server,
  whose observations arrive over a websocket.

An observation is the engine's ``game.observation_json(seat)``: plain JSON data, cards
as their codes, ``legal`` as the records encode actions; ``seat`` None is the teacher's
(``game.observation(None)``: every hand, the secret, every event part). An action given
to ``act`` is in that same record encoding (a local source also takes the game's own
action objects).

Who plays the seats is the engine's seat driver (:class:`~qardlab.engine.seats.Seats`), never the
table's: a local source holds one (``driver``: the bots, the persons' standing orders, the pace) and
plays what it has due when the table's clock asks (``advance``); a remote seat's is the server's. A
table reads what the driver says through the source: ``waits_for(seat)`` (the person at ``seat`` is
to act now) and ``orders(seat)`` / ``set_orders(seat, orders)`` (that person's standing orders). The
three are optional for a source: :func:`waits_for`, :func:`orders_of` and :func:`set_orders` here give
the engine's answer from the seat's observation, with no standing orders, for a source without them.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, Optional, Protocol, runtime_checkable

from ..engine import Game, IllegalAction, Record, Timeline
from ..engine.seats import Due, Pace, Seats, check_turn, orders_class
from ..engine.seats import waits_for as engine_waits_for

__all__ = [
    "Source",
    "LocalSource",
    "Unsubscribe",
    "to_json",
    "waits_for",
    "orders_of",
    "set_orders",
]

#: what ``Source.observe`` returns: call it to stop being told of changes
Unsubscribe = Callable[[], None]


@runtime_checkable
class Source(Protocol):
    """What a table reads its observations from (the contract a remote source also follows).

    Attributes: ``game_name`` the game's registry name (``"five_sons"``, ``"hearts"``);
    ``players`` the number of seats; ``names`` the seats' names; ``viewpoints`` the
    viewpoints this source may give (seat numbers, and None for the teacher): a student's
    remote source gives only its own seat. Optional: ``game_class``, the game's class (its words and
    its action codec, class methods); a table finds it by ``game_name`` where a source has none.
    """

    game_name: str
    players: int
    names: list[str]
    viewpoints: tuple[Optional[int], ...]

    @property
    def live(self) -> bool:
        """True when the observations are of the game as it is now (so actions may be sent)."""
        ...

    def observation(self, seat: Optional[int]) -> dict[str, Any]:
        """The observation of ``seat`` (None: the teacher) as JSON data; ValueError for a
        viewpoint not in ``viewpoints``."""
        ...

    def act(self, seat: int, action: Any) -> None:
        """Play ``action`` for ``seat``. Raises :class:`~qardlab.engine.IllegalAction` with
        the engine's text when it is refused; nothing changes then."""
        ...

    def observe(self, callback: Callable[["Source"], None]) -> Unsubscribe:
        """Call ``callback(source)`` after every change; returns the function that stops it."""
        ...


def waits_for(source: Any, seat: int) -> bool:
    """Whether the table of ``source`` waits for the person at ``seat`` now (live, its turn, no standing
    order of theirs acting): the source's ``waits_for`` (what its seat driver says); for a source that has
    none, the engine's :func:`~qardlab.engine.seats.waits_for` from the seat's observation, with no orders."""
    ask = getattr(source, "waits_for", None)
    if ask is not None:
        return bool(ask(seat))
    if not source.live or seat not in source.viewpoints:
        return False
    return engine_waits_for(source.game_name, source.observation(seat), seat, {})


def orders_of(source: Any, seat: int) -> dict[str, Any]:
    """The standing orders of the person at ``seat``: the source's ``orders``; the game's defaults (nothing
    done for them) for a source that keeps none."""
    ask = getattr(source, "orders", None)
    return dict(ask(seat)) if ask is not None else dict(orders_class(source.game_name).defaults)


def set_orders(source: Any, seat: int, orders: Mapping[str, Any]) -> None:
    """Change some of the standing orders of the person at ``seat`` through ``source`` (ValueError naming a
    bad one, or for a source that keeps none)."""
    ask = getattr(source, "set_orders", None)
    if ask is None:
        raise ValueError(f"{source!r:.60} keeps no standing orders")
    ask(seat, orders)


def to_json(game: Game, seat: Optional[int]) -> dict[str, Any]:
    """``game.observation_json(seat)``, or (an engine without it) the observation made JSON:
    ``legal`` in the record encoding, every card as its code."""
    if hasattr(game, "observation_json"):
        return game.observation_json(seat)  # type: ignore[attr-defined]
    obs = dict(game.observation(seat))  # type: ignore[arg-type]
    obs["legal"] = [
        a if isinstance(a, (str, list, dict)) else game.action_to_json(a) for a in obs.get("legal", [])
    ]
    return json.loads(json.dumps(obs, default=str))


class LocalSource:
    """A :class:`Source` over a game in this kernel, kept in a :class:`Timeline`, with its seat driver.

    ``timeline`` is public: a table steps through it (observations are of the timeline's
    position; ``live`` when it is at its end). ``viewpoints`` limits what the source gives
    (default: every seat and the teacher). ``driver`` (a :class:`~qardlab.engine.seats.Seats`; default:
    every seat a person's, deals at once) plays the bots, the standing orders and the deals at the
    timeline's end when the table's clock asks: :meth:`due`, :meth:`advance`, :meth:`advance_all`,
    :meth:`deal`.
    """

    def __init__(
        self,
        game: "Game | Record | Timeline",
        viewpoints: Optional[tuple[Optional[int], ...]] = None,
        driver: Optional[Seats] = None,
    ) -> None:
        self.timeline = game if isinstance(game, Timeline) else Timeline(game)
        g = self.timeline.game
        self.game_name: str = g.name
        #: the game's class: its words and its action codec (class methods)
        self.game_class: type[Game] = type(g)
        self.players: int = g.players
        self.names: list[str] = [g.seat_name(s) for s in range(g.players)]
        every: tuple[Optional[int], ...] = (None, *range(g.players))
        if viewpoints is not None:
            bad = [v for v in viewpoints if v not in every]
            if bad:
                raise ValueError(
                    f"viewpoints {bad!r} are not seats of this {g.players}-player game (or None, the teacher)"
                )
        self.viewpoints: tuple[Optional[int], ...] = every if viewpoints is None else tuple(viewpoints)
        if driver is not None and not (
            isinstance(driver, Seats) and driver.game_class is type(g) and driver.players == g.players
        ):
            raise ValueError(
                f"driver must be a Seats of this {g.players}-player {g.name} game, not {driver!r:.80}"
            )
        #: who plays each seat, and the pace (:class:`~qardlab.engine.seats.Seats`)
        self.driver: Seats = driver or Seats(type(g), g.players, pace=Pace())
        self._listeners: list[Callable[["LocalSource"], None]] = []

    @property
    def live(self) -> bool:
        tl = self.timeline
        return tl.position == tl.last

    def observation(self, seat: Optional[int]) -> dict[str, Any]:
        if seat not in self.viewpoints:
            raise ValueError(f"viewpoint {seat!r} is not one this source gives ({list(self.viewpoints)})")
        return to_json(self.timeline.game, seat)

    def act(self, seat: int, action: Any) -> None:
        """Apply ``action`` (record encoding or the game's action) for ``seat`` at the timeline's end."""
        tl = self.timeline
        if not self.live:
            raise IllegalAction(f"the table is at step {tl.position}, not at its end ({tl.last})")
        g = tl.game
        check_turn(g, seat)
        if isinstance(action, (Mapping, list)):  # the record encoding (a Hearts card code is one too)
            try:
                action = g.action_from_json(action)
            except IllegalAction:
                raise
            except (ValueError, TypeError, KeyError) as e:
                raise IllegalAction(f"not an action of {g.name}: {action!r} ({e})") from None
        tl.extend(action)

    def observe(self, callback: Callable[["LocalSource"], None]) -> Unsubscribe:
        """Call ``callback(source)`` after every move of the timeline and every change of orders."""
        stop = self.timeline.observe(lambda _tl: callback(self))
        self._listeners.append(callback)

        def unsubscribe() -> None:
            stop()
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    # -- the seat driver at the timeline's end ------------------------------------------------
    def due(self) -> Due:
        """What the driver has due at the timeline's end; nothing it plays (``automatic`` False) while the
        cursor is elsewhere (the table steps through the game)."""
        due = self.driver.due(self.timeline.final)
        return due if self.live or not due.automatic else Due(due.kind, due.seat, None, due.action)

    def advance(self) -> Any:
        """Play the one step the driver has due now (a deal, a bot's move, a standing order's action): the
        action, or None when it has none (a person's turn, a deal on request, the end, not live)."""
        if not self.due().automatic:
            return None
        return self.driver.step(self.timeline.final, self.timeline.extend)

    def advance_all(self, max_steps: int = 10_000) -> int:
        """Every step the driver has due, one after another, told to the observers once; how many."""
        if not self.live:
            return 0
        with self.timeline.batch():
            return self.driver.run(self.timeline.final, self.timeline.extend, max_steps)

    def deal(self) -> Any:
        """Deal now, as the person asked (Hearts' "Next hand"); IllegalAction when no deal is due here."""
        if not self.live:
            raise IllegalAction(f"the table is at step {self.timeline.position}, not at its end")
        return self.driver.deal(self.timeline.final, self.timeline.extend)

    def waits_for(self, seat: int) -> bool:
        due = self.due()
        return self.live and due.kind == "person" and due.seat == seat

    def orders(self, seat: int) -> dict[str, Any]:
        return self.driver.orders(seat)

    def set_orders(self, seat: int, orders: Mapping[str, Any]) -> None:
        before = self.driver.orders(seat)
        if self.driver.set_orders(seat, orders) != before:
            for callback in list(self._listeners):
                callback(self)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Changes inside are told to the observers once, at the end (see ``Timeline.batch``)."""
        with self.timeline.batch():
            yield

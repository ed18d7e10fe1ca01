"""Who plays each seat, and what is due next: the one seat driver of every table.

Every table asks the same question, ``Seats.due(game)``: what happens next here?

- ``"deal"``: chance is to move; the driver deals after ``pace.deal`` seconds (``pace.deal`` None: only when
  someone asks, :meth:`Seats.deal`, as Hearts' "Next hand" button at a local table);
- ``"bot"``: a bot plays the seat to move, after ``pace.bot`` seconds, every step alike (a forced answer
  takes the time a chosen one takes, so its timing tells nothing); also the stand-in of a person who is
  away (:meth:`Seats.set_away`: a classroom seat whose student left, after the table's grace period), for
  that person's turns only, until they are back;
- ``"order"``: the person at the seat gave a standing order that acts now (Five Sons' "pass on claims
  unless I claim"); the driver gives its action after ``pace.bot`` seconds, like a bot's move;
- ``"person"``: the table waits for the person at that seat. Nothing is ever played for a person, forced
  or not: the person answers with their own click;
- ``"over"``: nothing more.

The local table's clock (an ipywidgets ``Play`` ticking in the browser), the classroom server's
scheduler (Tornado's loop, bots thinking in a thread) and ``engine.bots.play`` all call it. The driver
holds how each seat is played (its ``bots``; every other seat is a person's, with its standing orders)
and the pace as data (:class:`Pace`); it never draws anything, and it decides nothing a seat could not
decide from what it may see.

Standing orders are the person's own choices made in advance. A game declares its orders in its own
folder, as a subclass of :class:`StandingOrders` named by the game class (``standing_orders =
"module:Class"``); the engine knows none. An order decides from the public state alone (the keys its
class ``reads``, which :func:`check_public_orders` checks are the same in every seat's observation as in
the public one) and the person's own orders, never from the seat's hand: it acts or waits at the same
moments whatever the seat holds, so the moment it acts tells the others nothing they do not see already.

The API, in short::

    seats = Seats(FiveSons, 4, {1: bot1, 2: bot2, 3: bot3}, pace=Pace(bot=0.4))
    seats.set_orders(0, {"pass_claims": True})   # a person's standing orders (validated by the game)
    due = seats.due(game)                         # Due(kind, seat, delay, action)
    seats.step(game)                              # play what is due, if the driver plays it
    seats.run(game)                               # ... until a person (or nothing) is due
    think = seats.decision(game, due); think()    # the same in two halves (a bot thinking in a thread)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, NamedTuple, Optional

from .game import CHANCE, PUBLIC, Game, IllegalAction
from .registry import find_game, import_object

__all__ = [
    "Seats",
    "Pace",
    "Due",
    "StandingOrders",
    "orders_class",
    "order_action",
    "waits_for",
    "check_turn",
    "check_public_orders",
    "DUE_KINDS",
]

#: what may be due at a table (``Due.kind``)
DUE_KINDS = ("deal", "bot", "order", "person", "over")


@dataclass(frozen=True)
class Pace:
    """The pace of a table as data: seconds before a bot's move (and a standing order's action), and before
    a deal (None: a deal waits until someone asks for it). 0 is at once."""

    bot: float = 0.0
    deal: Optional[float] = 0.0

    def __post_init__(self) -> None:
        for name in ("bot", "deal"):
            value = getattr(self, name)
            if name == "deal" and value is None:
                continue
            ok = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
            if not ok or value < 0:
                raise ValueError(f"pace {name} must be a number of seconds >= 0, not {value!r}")
            object.__setattr__(self, name, float(value))


class Due(NamedTuple):
    """What is due next at a table (a small immutable value, made at every step: a named tuple).

    ``kind`` one of :data:`DUE_KINDS`; ``seat`` the seat to move (``CHANCE`` for a deal, None when the game
    is over); ``delay`` the seconds to wait before the driver plays it, None when the driver does not play it
    (a person's turn, a deal on request, the end); ``action`` a standing order's action (else None).
    """

    kind: str
    seat: Optional[int]
    delay: Optional[float]
    action: Any = None

    @property
    def automatic(self) -> bool:
        """Whether the driver plays it (after ``delay`` seconds)."""
        return self.delay is not None


_OVER = Due("over", None, None)
_NOTHING = object()  # what Seats._action gives when the driver plays nothing now
_AT_ONCE = Pace()


class StandingOrders:
    """The standing orders a game offers the person at a seat (none here: the default of every game).

    A game that offers some subclasses this in its own folder and names it on its class
    (``standing_orders = "module:Class"``). Orders are JSON data (a name -> a value), so a classroom seat
    sends them as they are. See the module docstring for the rule every order keeps: it reads only the
    public keys of :attr:`reads`.
    """

    #: every order and its value when the person set none: nothing is done for them
    defaults: ClassVar[Mapping[str, Any]] = {}
    #: what a class table (and an app) starts each person's seat with, unless told otherwise
    recommended: ClassVar[Mapping[str, Any]] = {}
    #: each order in words, for people (a table's labels, the protocol's documentation)
    labels: ClassVar[Mapping[str, str]] = {}
    #: the observation keys :meth:`action` reads; each must be public (:func:`check_public_orders`)
    reads: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def check(cls, orders: Any) -> dict[str, Any]:
        """``orders`` (some order names -> values) checked and normalised; ValueError naming an unknown
        order or a bad value."""
        if not isinstance(orders, Mapping):
            raise ValueError(f"standing orders are an object of order -> value, not {orders!r:.80}")
        unknown = sorted(map(str, set(orders) - set(cls.defaults)))
        if unknown:
            known = sorted(cls.defaults) or "none"
            raise ValueError(f"unknown standing orders {unknown}; this game's orders: {known}")
        return {name: cls.check_value(name, value) for name, value in orders.items()}

    @classmethod
    def check_value(cls, name: str, value: Any) -> Any:
        """One order's value normalised (JSON data); ValueError naming a bad one. Games override."""
        return value

    @classmethod
    def action(cls, view: Mapping[str, Any], seat: int, orders: Mapping[str, Any]) -> Any:
        """The action ``orders`` give ``seat`` now, or None (the person decides). ``view`` holds only the
        keys of :attr:`reads`, from the public observation; ``seat`` is to move."""
        return None


@functools.cache
def orders_class(game: Any) -> type[StandingOrders]:
    """The standing orders of ``game`` (a game class or its registry name): its class's
    ``standing_orders`` (``"module:Class"`` or the class), or :class:`StandingOrders` (none)."""
    cls = find_game(game) if isinstance(game, str) else game
    ref = getattr(cls, "standing_orders", None) or StandingOrders
    made = import_object(ref) if isinstance(ref, str) else ref
    if not (isinstance(made, type) and issubclass(made, StandingOrders)):
        raise ValueError(f"{cls.__name__}.standing_orders must name a StandingOrders class, not {ref!r}")
    return made


def _view(obs: Mapping[str, Any], reads: Sequence[str]) -> dict[str, Any]:
    return {k: obs.get(k) for k in reads}


def order_action(game: Any, obs: Mapping[str, Any], seat: int, orders: Mapping[str, Any]) -> Any:
    """The action ``seat``'s standing ``orders`` give now, from ``obs`` (any observation of the moment:
    only the public keys the orders read are looked at), or None when the person decides or it is not
    the seat's turn. ``game``: the game class or its name."""
    if obs.get("is_over") or obs.get("to_move") != seat:
        return None
    kind = orders_class(game)
    return kind.action(_view(obs, kind.reads), seat, orders)


def waits_for(game: Any, obs: Mapping[str, Any], seat: int, orders: Mapping[str, Any]) -> bool:
    """Whether a table waits for the person at ``seat`` now: it is to move, the game goes on, and no
    standing order of theirs acts. From any observation of the moment (a joined seat's own)."""
    return (
        not obs.get("is_over")
        and obs.get("to_move") == seat
        and order_action(game, obs, seat, orders) is None
    )


def check_turn(game: Game, seat: int) -> None:
    """IllegalAction (naming who is to move) unless it is ``seat``'s turn in ``game``."""
    if game.is_over:
        raise IllegalAction(f"the game is over; seat {seat} cannot act")
    if game.to_move != seat:
        who = "chance (the deal)" if game.to_move == CHANCE else f"seat {game.to_move}"
        raise IllegalAction(f"it is {who}'s turn, not seat {seat}'s")


def _seat(seat: Any, players: int, what: str) -> int:
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"{what} {seat!r} is not a seat of this {players}-player game (0..{players - 1})")
    return seat


def _bot(bot: Any, seat: int) -> Any:
    if not callable(getattr(bot, "act", None)):
        raise ValueError(f"the bot of seat {seat} must have act(observation), not {bot!r:.80}")
    return bot


class Seats:
    """How each seat of a table is played, and what is due next (see the module docstring).

    ``game`` the game class (or its name), ``players`` the number of seats; ``bots`` seat -> bot (an object
    with ``act(observation) -> action``), a list meaning seats 0, 1, ...; every other seat is a person's.
    ``pace`` a :class:`Pace` (default: everything at once); ``orders`` seat -> standing orders of that
    seat's person (checked by the game's :class:`StandingOrders`). ValueError naming any bad value.
    """

    def __init__(
        self,
        game: Any,
        players: int,
        bots: "Mapping[int, Any] | Sequence[Any] | None" = None,
        *,
        pace: Optional[Pace] = None,
        orders: Optional[Mapping[int, Mapping[str, Any]]] = None,
    ) -> None:
        self.game_class: type[Game] = find_game(game) if isinstance(game, str) else game
        if not (isinstance(self.game_class, type) and issubclass(self.game_class, Game)):
            raise ValueError(f"a seat driver drives a game class (or its name), not {game!r:.80}")
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise ValueError(f"players must be a number of seats, not {players!r}")
        self.players = players
        #: the game's standing orders (:class:`StandingOrders`)
        self.orders_class = orders_class(self.game_class)
        if pace is not None and not isinstance(pace, Pace):
            raise ValueError(f"pace must be a Pace, not {pace!r:.80}")
        #: the pace as data; set a new :class:`Pace` to change it
        self.pace: Pace = pace or _AT_ONCE
        pairs = enumerate(bots) if isinstance(bots, (list, tuple)) else None
        if pairs is None and bots is not None:
            if not isinstance(bots, Mapping):
                raise ValueError(f"bots must map seats to bots (or list them by seat), not {bots!r:.80}")
            pairs = bots.items()
        self._bots: dict[int, Any] = {}
        for seat, bot in pairs or ():
            self._bots[_seat(seat, players, "bots: seat")] = _bot(bot, seat)
        self._orders: dict[int, dict[str, Any]] = {}
        self._away: dict[
            int, Any
        ] = {}  # a person's seat -> the bot that plays their turns while they are away
        if orders is not None:
            if not isinstance(orders, Mapping):
                raise ValueError(f"orders must map seats to standing orders, not {orders!r:.80}")
            for seat, given in orders.items():
                self.set_orders(seat, given)

    # -- how each seat is played --------------------------------------------------------
    @property
    def bots(self) -> dict[int, Any]:
        """Seat -> bot (a copy: change it with :meth:`set_bot`)."""
        return dict(self._bots)

    def set_bot(self, seat: int, bot: Any) -> None:
        """A bot plays ``seat`` from now on (``bot`` None: a person does)."""
        seat = _seat(seat, self.players, "seat")
        if bot is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = _bot(bot, seat)
            self._away.pop(seat, None)

    def set_away(self, seat: int, bot: Any) -> None:
        """The person at ``seat`` is away: ``bot`` plays their turns (after the bots' pace, their standing
        orders first) until they are back; ``bot`` None: they are back, and their turns wait for them again.
        A bot's seat is not a person's: ValueError."""
        seat = _seat(seat, self.players, "seat")
        if bot is None:
            self._away.pop(seat, None)
            return
        if seat in self._bots:
            raise ValueError(f"seat {seat} is a bot's: only a person's seat can be away")
        self._away[seat] = _bot(bot, seat)

    @property
    def away(self) -> dict[int, Any]:
        """A person's seat who is away -> the bot that plays their turns (a copy: change it with
        :meth:`set_away`)."""
        return dict(self._away)

    def playing(self, seat: int) -> Any:
        """The bot that plays ``seat``'s turns now: its own bot, the stand-in of a person who is away, or None
        (a person plays it)."""
        return self._bots.get(seat) or self._away.get(seat)

    def orders(self, seat: int) -> dict[str, Any]:
        """The standing orders of ``seat``'s person now: every order of the game, the defaults filled in."""
        seat = _seat(seat, self.players, "seat")
        return {**self.orders_class.defaults, **self._orders.get(seat, {})}

    def set_orders(self, seat: int, orders: Mapping[str, Any]) -> dict[str, Any]:
        """Change some of ``seat``'s standing orders (the others stay); returns them all. ValueError naming a
        bad seat, an unknown order or a bad value, and nothing changes."""
        seat = _seat(seat, self.players, "seat")
        checked = self.orders_class.check(orders)
        self._orders[seat] = {**self._orders.get(seat, {}), **checked}
        return self.orders(seat)

    # -- what is due ---------------------------------------------------------------------
    def due(self, game: Game) -> Due:
        """What is due next in ``game`` (see the module docstring)."""
        if game.is_over:
            return _OVER
        seat = game.to_move
        if seat == CHANCE:
            return Due("deal", CHANCE, self.pace.deal)
        if seat is None:
            return _OVER
        if seat in self._bots:
            return Due("bot", seat, self.pace.bot)
        if self._orders.get(seat):
            action = order_action(self.game_class, game.observation(PUBLIC), seat, self.orders(seat))
            if action is not None:
                return Due("order", seat, self.pace.bot, action)
        if seat in self._away:  # the person is away: their stand-in plays this turn, as a bot
            return Due("bot", seat, self.pace.bot)
        return Due("person", seat, None)

    def decision(self, game: Game, due: Due) -> Callable[[], Any]:
        """What plays ``due``, as a function of nothing that returns the action: call it here, or in another
        thread (a bot thinking): it reads nothing of ``game`` after this call (a bot's observation is made
        now, a deal drawn now). ValueError for a due the driver does not play (a person's, the end)."""
        if due.kind == "deal":
            action = game.chance_outcome()
            return lambda: action
        if due.kind == "order":
            return lambda: due.action
        if due.kind == "bot":
            bot, obs = self.playing(due.seat), game.observation(due.seat)
            return lambda: bot.act(obs)
        raise ValueError(f"the driver plays deals, bots and standing orders, not {due!r}")

    def _action(self, game: Game) -> Any:
        """The action the driver plays now (:meth:`due` then :meth:`decision`), or ``_NOTHING`` when it
        plays none. A bot's move, the commonest, is read straight from the seats (what ``due`` says of a
        bot's seat); a bot that gives None gives None (its refusal is ``apply``'s)."""
        seat = game.to_move
        bot = self._bots.get(seat)
        if bot is not None and not game.is_over:
            return bot.act(game.observation(seat))
        due = self.due(game)
        return _NOTHING if due.delay is None else self.decision(game, due)()

    def step(self, game: Game, apply: Optional[Callable[[Any], Any]] = None) -> Any:
        """Play the step due now if the driver plays it (a deal on request excepted), with ``apply`` (default
        ``game.apply``); the action, or None when a person is due, a deal waits to be asked for, or the game
        is over. The caller has waited the due's delay already (or plays at once)."""
        action = self._action(game)
        if action is _NOTHING:
            return None
        (apply or game.apply)(action)
        return action

    def run(self, game: Game, apply: Optional[Callable[[Any], Any]] = None, max_steps: int = 100_000) -> int:
        """:meth:`step` until the driver has nothing to play; returns the number of steps. ``apply`` returns
        the game after the step (``Game.apply`` and ``Timeline.extend`` do), which the next step reads."""
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 0:
            raise ValueError(f"max_steps must be a number of steps, not {max_steps!r}")
        for n in range(max_steps):
            action = self._action(game)
            if action is _NOTHING:
                return n
            after = (apply or game.apply)(action)
            game = after if isinstance(after, Game) else game
        return max_steps

    def deal(self, game: Game, apply: Optional[Callable[[Any], Any]] = None) -> Any:
        """Deal now, as someone asked (Hearts' "Next hand"); the deal. IllegalAction when no deal is due."""
        if game.is_over or game.to_move != CHANCE:
            raise IllegalAction("no deal is due now")
        action = game.chance_outcome()
        (apply or game.apply)(action)
        return action

    def __repr__(self) -> str:
        bots = ", ".join(f"{s}: {type(b).__name__}" for s, b in sorted(self._bots.items()))
        return f"Seats({self.game_class.__name__}, {self.players}, {{{bots}}}, {self.pace})"


def check_public_orders(game: Game, seats: Optional[Sequence[int]] = None) -> None:
    """AssertionError unless every key the game's standing orders read is the same in each seat's
    observation (``seats``, default all) as in the public one, now: call it at every step of some games
    (a game's tests do). What an order reads is then public, so the moment it acts tells nobody anything."""
    kind = orders_class(type(game))
    public = game.observation(PUBLIC)
    for seat in range(game.players) if seats is None else seats:
        obs = game.observation(seat)
        for key in kind.reads:
            if obs.get(key) != public.get(key):
                raise AssertionError(
                    f"{type(game).__name__}'s standing orders read {key!r}, which differs between seat "
                    f"{seat}'s observation and the public one at step {game.step}: an order must read only "
                    "what every seat sees"
                )

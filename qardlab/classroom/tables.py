"""The tables of a classroom: one game each, held only here, seats reached by join codes.

This is the server's logic without the web layer (``server.py`` puts it behind Tornado):
create a table, connect a client by its code, take a client's message, let bots play, write
every accepted step to the :class:`~qardlab.classroom.store.Store` before telling anyone,
and send each connected seat its own observation after every change (the teacher the
whole game's). Everything runs on the server's one event loop, so no two steps of a table
ever interleave.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional, Protocol

from ..engine import CHANCE, Game, IllegalAction
from ..engine.registry import find_game, game_names, package_games
from ..engine.seats import Pace, Seats, orders_class
from .commits import Commits
from .store import Store, TableRow
from .windows import Windows

__all__ = [
    "Classroom",
    "Table",
    "Connection",
    "RequestError",
    "game_bot_levels",
    "MAX_MESSAGE",
    "RateLimit",
    "bot_levels",
    "new_code",
    "code_key",
    "MAX_PER_CODE",
]

log = logging.getLogger("qardlab.classroom")

#: the largest client message taken (bytes); a bigger one is refused with an error
MAX_MESSAGE = 8 * 1024
#: the longest name of a table
MAX_NAME = 100
#: the longest grace period a table may set (seconds a student may be away before a bot plays their turns)
MAX_GRACE = 3600.0
#: the bots' pace when a table does not set one (seconds between a change and a bot's move)
DEFAULT_PACE = 0.6
MAX_PACE = 10.0
#: connections one code may hold at once (a reload, a second tab); a newer one closes the oldest
MAX_PER_CODE = 6
#: the bits the server draws from ``secrets`` for a table's deal when the teacher gives no seed
SEED_BITS = 128
#: groups of four characters in a seat's code (3) and in the teacher's (4)
TEACHER_GROUPS = 4

#: the characters of a join code: no look-alikes (no 0 O, 1 I L, and no U), upper case
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
_CODE_SET = frozenset(CODE_ALPHABET)


def new_code(groups: int = 3) -> str:
    """A join code: ``groups`` groups of four characters of :data:`CODE_ALPHABET` joined by dashes, drawn
    from ``secrets`` (three groups: 59 bits; the teacher's four: 78), easy to read off a printed sheet."""
    return "-".join("".join(secrets.choice(CODE_ALPHABET) for _ in range(4)) for _ in range(groups))


def code_key(code: str) -> str:
    """What a typed code is looked up by: a code of :func:`new_code`'s characters in any case, with or
    without its dashes or spaces, is its canonical form ``ABCD-EFGH-JKMN``; anything else (a code of an
    older server) is itself."""
    plain = "".join(code.split()).replace("-", "").upper()
    if plain and len(plain) % 4 == 0 and set(plain) <= _CODE_SET:
        return "-".join(plain[i : i + 4] for i in range(0, len(plain), 4))
    return code


#: the games a table may play: every game of the package (a folder of ``qardlab/games``). A game is
#: imported at its first table (a server of Five Sons tables never loads Hearts: it starts sooner)
GAMES = package_games()


def bot_levels(game: str) -> dict[str, Callable[[Optional[int]], Any]]:
    """Bot level name -> maker(seed), weakest first, for ``game`` (the game class's ``bot_levels``)."""
    return find_game(game).bot_makers()


@functools.cache
def game_bot_levels(game: str) -> tuple[str, ...]:
    """``game``'s bot levels, weakest first (its class's ``bot_levels``; the game imported now)."""
    return tuple(find_game(game).bot_levels)


def __getattr__(name: str) -> Any:
    if name == "BOT_LEVELS":  # every game's bot levels: every game imported (only when asked for)
        return {g: game_bot_levels(g) for g in game_names()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class RequestError(ValueError):
    """A refused request or message; the text is what the sender is told (HTTP status in ``status``)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Connection(Protocol):
    """A client's connection as the tables see it (a websocket in the server)."""

    table: Optional["Table"]
    seat: Optional[int]
    code: str
    rate: "RateLimit"
    #: ``"full"`` or ``"changes"`` (:data:`FRAME_MODES`); a connection without it gets full observations
    frames: str

    def send(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


class RateLimit:
    """A token bucket: ``burst`` messages at once, refilled at ``per_second``."""

    def __init__(self, per_second: float = 10.0, burst: float = 20.0) -> None:
        self.per_second, self.burst = per_second, burst
        self.tokens = burst
        self.at = time.monotonic()
        self.warned_at = -1e9

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def warn_now(self) -> bool:
        """Whether to tell the sender (at most once a second, so refusing a flood is no flood)."""
        now = time.monotonic()
        if now - self.warned_at >= 1.0:
            self.warned_at = now
            return True
        return False


class Table:
    """One game, its join codes, its seat driver (bots, students' standing orders, the pace) and the clients
    connected to it."""

    def __init__(
        self,
        row: TableRow,
        game: Game,
        orders: Optional[dict[str, Any]] = None,
        grace: Optional[float] = None,
        stand_in: Optional[str] = None,
        joined: Optional[set[int]] = None,
    ) -> None:
        self.id = row.id
        self.name = row.game
        self.players = row.players
        self.label = row.name  # the teacher's name for it (None: none)
        self.teacher = row.teacher
        self.seats: list[Optional[str]] = list(row.seats)  # seat -> code (None: a bot plays it)
        self.levels: dict[int, str] = dict(row.bots)
        self.pace = row.pace
        self.game = game  # the game with every accepted step
        self.told = game  # the game as last committed: what clients are sent
        #: the standing orders every student's seat starts with (the table option ``orders``)
        self.orders = dict(orders_class(row.game).recommended if orders is None else orders)
        #: who plays each seat, and what is due next (:class:`~qardlab.engine.seats.Seats`): bots, the
        #: students' standing orders, the table's pace for bots, orders and deals alike
        self.driver = Seats(row.game, row.players, pace=Pace(bot=row.pace, deal=row.pace))
        for seat, level in self.levels.items():
            self._make_bot(seat, level)
        for seat in range(row.players):
            if seat not in self.levels:
                self.driver.set_orders(seat, self.orders)
        #: seat (None: the teacher) -> its connections, oldest first
        self.clients: dict[Optional[int], dict[Connection, None]] = {}
        self.pending: Optional[asyncio.TimerHandle] = None
        self.thinking: Optional[asyncio.Future] = None  # a bot deciding in the bots' thread
        #: seat -> the step at which a message of that seat over the rate limit was last let through
        self.exempt: dict[int, int] = {}
        #: seconds a student's seat may have no window before a bot (of level ``stand_in``) plays its turns
        #: (None: never; the table option ``grace``)
        self.grace = grace
        self.stand_in = stand_in
        #: the students' seats that have been here (a window open, or a move played): only such a seat can
        #: be away; a seat whose student has not come yet waits for them
        self.joined: set[int] = set(joined or ())
        #: seat -> the timer that puts it away when the grace period is over
        self.leaving: dict[int, asyncio.TimerHandle] = {}
        #: viewer (a seat, None the teacher) -> what its ``changes`` windows hold now, the next change frame
        #: computed from it: the observation but its events, and the length of the log their events are
        #: the view of (a change frame adds the viewer's view of the events logged since)
        self.sent: dict[Optional[int], tuple[dict[str, Any], int]] = {}

    def _make_bot(self, seat: int, level: str) -> None:
        seed = None if self.game.seed is None else self.game.seed * 100 + seat
        self.driver.set_bot(seat, bot_levels(self.name)[level](seed))

    def connected(self) -> list[bool]:
        """Each seat's connected flag, as every observation carries it: a student's seat with a window open,
        and a bot's seat (a bot is always there)."""
        clients = self.clients
        return [s in self.levels or bool(clients.get(s)) for s in range(self.players)]

    def answer(self) -> dict[str, Any]:
        """What ``POST /api/tables`` answers for this table: its id, name, the teacher's code and the seats'
        codes as they are now."""
        return {
            "table": self.id,
            "name": self.label,
            "teacher": self.teacher,
            "seats": [
                {"seat": s, "code": self.seats[s], "bot": self.levels.get(s)} for s in range(self.players)
            ],
        }

    def summary(self) -> dict[str, Any]:
        g = self.told
        return {
            "table": self.id,
            "name": self.label,
            "game": self.name,
            "players": self.players,
            "step": g.step,
            "phase": g.phase,
            "to_move": g.to_move,
            "is_over": g.is_over,
            "pace": self.pace,
            "grace": self.grace,
            "teacher": self.teacher,
            "seats": [
                {
                    "seat": s,
                    "code": self.seats[s],
                    "bot": self.levels.get(s),
                    "connected": len(self.clients.get(s, ())),
                    "away": s in self.driver.away,
                }
                for s in range(self.players)
            ],
        }


def _short(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters: an error names the bad value, never echoes a flood."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"a {type(value).__name__} nested too deeply"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{what} must be an integer, not {_short(value)}")
    return value


def _new_game(game: str, players: int, options: dict[str, Any], seed: Optional[int]) -> Game:
    try:
        return find_game(game)._blank(players, dict(options), seed)
    except (ValueError, TypeError) as e:
        raise RequestError(f"cannot set up {game}: {e}") from None


def _replay(row: TableRow, given_deal: bool, movers_out: Optional[set[int]] = None) -> Game:
    """Rebuild a table's game from its stored steps (each applied as the one step it was).

    At a chance node the game's own RNG draws the deal as it did live (the stored deal is the
    one applied), so later deals after a restart are the ones the table would have had.
    """
    g = _new_game(row.game, row.players, row.options, row.seed)
    movers: set[Any] = set()
    for n, raw in enumerate(row.steps):
        if g.to_move == CHANCE and not (given_deal and n == 0):
            g.chance_outcome()
        movers.add(g.to_move)
        g.apply(g.action_from_json(raw))
    if movers_out is not None:
        movers_out.update(m for m in movers if isinstance(m, int) and m >= 0)
    return g


class Classroom(Windows, Commits):
    """Every table of a server, its store, and the teacher's token: the teacher's requests, the windows
    seated by their codes, the clients' messages and who is here, and the seat drivers' moves scheduled
    here; what each window is sent is :class:`~.windows.Windows`', how a step is committed
    :class:`~.commits.Commits`'."""

    def __init__(self, store: Store, token: str, *, rate: float = 10.0, burst: float = 20.0) -> None:
        self.store = store
        self.token = token
        #: where a teacher finds the token (a refused request is told): see ``tokens.token_help``
        self.token_help = "The server printed its token when it started ('teacher token: ...')"
        self.rate, self.burst = rate, burst
        self.tables: dict[int, Table] = {}
        self._unsaved: list[tuple[Table, Game, Game, tuple[int, int, Any, Optional[int], float]]] = []
        self._flush_due: Optional[asyncio.Handle] = None
        self._retry_due: Optional[asyncio.TimerHandle] = None
        self._failures = 0  # commits refused in a row
        #: what the server would tell the teacher of its file now (None: all is well); logged on change
        self.file_problem: Optional[str] = None
        #: (table, step number, accepted, told) of every step, when a benchmark asks for them
        self.timings: Optional[list[tuple[int, int, float, float]]] = None
        self._bots_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qardlab-bots")
        self.codes: dict[str, tuple[Table, Optional[int]]] = {}
        #: a table's name (``POST /api/tables`` with a ``name``) -> the table
        self.names: dict[str, Table] = {}
        rows = store.tables()
        for table_id, why in store.skipped:
            log.error(
                "table %s in %s does not read and is left out (%s); the other tables are served. "
                "Fix or delete that row, or start on another --db file",
                table_id,
                store.path,
                why,
            )
        for row in rows:
            given = bool(row.options.pop("_given_deal", False))
            orders = row.options.pop("_orders", None)  # (a table stored before standing orders: None)
            grace = row.options.pop("_grace", None)  # (stored before grace periods: none)
            stand_in = row.options.pop("_stand_in", None)
            movers: set[int] = set()
            try:
                game = _replay(row, given, movers)
            except (ValueError, TypeError, KeyError, RequestError) as e:  # say so, keep the rest
                log.error("table %s in %s does not replay and is left out: %s", row.id, store.path, e)
                continue
            row.options["_given_deal"] = given
            for key, value in (("_orders", orders), ("_grace", grace), ("_stand_in", stand_in)):
                if value is not None:
                    row.options[key] = value
            # a student who has moved has been here: after a restart, they are away once the grace is over
            self._add(Table(row, game, orders, grace, stand_in, movers - set(row.bots)))

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        if table.label is not None:
            self.names.setdefault(table.label, table)
        self.codes[code_key(table.teacher)] = (table, None)
        for seat, code in enumerate(table.seats):
            if code is not None:
                self.codes[code_key(code)] = (table, seat)

    def start(self) -> None:
        """Let the bots (and the deals) of every table move, and the grace periods of the students who have
        been at a table run (a restarted server: those who do not come back are away once it is over): call
        once the event loop runs."""
        for table in self.tables.values():
            for seat in table.joined:
                self._leaving(table, seat)
            self._schedule(table)

    # -- the teacher's requests -------------------------------------------------------
    def create(self, body: Any) -> dict[str, Any]:
        """``POST /api/tables``: a new table from the request body; its id and join codes.

        Without a ``seed`` the table is dealt from 128 bits drawn from ``secrets`` (its later deals and
        its bots too): no seat can find its deal from its own hand, nor from another table's record.
        StoreBusy (nothing changed) when another program holds the file's lock: try again."""
        if not isinstance(body, dict):
            raise RequestError(f"the body must be a JSON object, not {_short(body)}")
        known = (
            "game",
            "players",
            "seed",
            "options",
            "deal",
            "bots",
            "pace",
            "orders",
            "name",
            "grace",
            "stand_in",
        )
        unknown = set(body) - set(known)
        if unknown:
            raise RequestError(f"unknown fields {sorted(unknown)[:10]}; known: {', '.join(known)}")
        name = body.get("game")
        if not isinstance(name, str) or name not in GAMES:
            raise RequestError(f"game must be one of {list(GAMES)}, not {_short(name)}")
        players = _check_int(body.get("players", 4), "players")
        label = body.get("name")
        if label is not None:
            if not isinstance(label, str) or not 0 < len(label) <= MAX_NAME or not label.isprintable():
                raise RequestError(
                    f"name must be a table's name of 1 to {MAX_NAME} printable characters, "
                    f"not {_short(label)}"
                )
            same = self.names.get(label)
            if same is not None:  # the notebook run again: the table it made before, as it was answered
                if (same.name, same.players) != (name, players):
                    raise RequestError(
                        f"table {same.id} is named {label!r} already, and plays {same.name} for "
                        f"{same.players}: give this one another name",
                        409,
                    )
                return {**same.answer(), "existing": True}
        seed = body.get("seed")
        seed = secrets.randbits(SEED_BITS) if seed is None else _check_int(seed, "seed")
        options = body.get("options", {})
        if not isinstance(options, dict) or any(k.startswith("_") for k in options):
            raise RequestError(f"options must be a JSON object of the game's options, not {_short(options)}")
        options = dict(options)
        pace = body.get("pace", DEFAULT_PACE)
        if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not 0 <= pace <= MAX_PACE:
            raise RequestError(f"pace must be a number of seconds from 0 to {MAX_PACE}, not {_short(pace)}")
        orders = self._table_orders(name, body.get("orders"))
        levels = game_bot_levels(name)
        grace = body.get("grace")
        if grace is not None and (
            isinstance(grace, bool) or not isinstance(grace, (int, float)) or not 0 <= grace <= MAX_GRACE
        ):
            raise RequestError(
                f"grace must be a number of seconds from 0 to {MAX_GRACE:g}, or null (never), "
                f"not {_short(grace)}"
            )
        stand_in = body.get("stand_in", levels[len(levels) // 2])
        if not isinstance(stand_in, str) or stand_in not in levels:
            raise RequestError(f"stand_in: the {name} bot levels are {list(levels)}, not {_short(stand_in)}")
        bots_in = body.get("bots", {})
        if not isinstance(bots_in, dict):
            raise RequestError(
                f'bots must map seats to levels, like {{"2": "{levels[-1]}"}}, not {_short(bots_in)}'
            )
        bots: dict[int, str] = {}
        for key, level in bots_in.items():
            if not (key.isascii() and key.isdigit() and int(key) < players):
                raise RequestError(f"bots: {_short(key)} is not a seat of this table (0..{players - 1})")
            if not isinstance(level, str) or level not in levels:
                raise RequestError(
                    f"bots: seat {key} has level {_short(level)}; the {name} levels are {list(levels)}"
                )
            bots[int(key)] = level
        deal = body.get("deal")
        if deal is None:
            game = _new_game(name, players, options, seed)
            first = game.chance_outcome()
        else:
            first, options = self._deal_action(name, deal, options)
            game = _new_game(name, players, options, seed)
        try:
            game.apply(game.action_from_json(first) if isinstance(first, dict) else first)
        except (ValueError, TypeError, KeyError) as e:
            raise RequestError(f"the deal is refused: {e}") from None
        seats = [None if s in bots else new_code() for s in range(players)]
        teacher = new_code(TEACHER_GROUPS)
        stored = {**options, "_given_deal": deal is not None, "_orders": orders}
        if grace is not None:
            grace = float(grace)
            stored.update(_grace=grace, _stand_in=stand_in)
        steps = [game.action_to_json(a) for a in game.history]
        pace = float(pace)
        table_id = self.store.add_table(name, players, stored, seed, teacher, seats, bots, pace, steps, label)
        table = Table(
            TableRow(table_id, name, players, stored, seed, teacher, seats, bots, pace, name=label),
            game,
            orders,
            grace,
            stand_in if grace is not None else None,
        )
        self._add(table)
        self._schedule(table)
        log.info("table %s: %s for %s, bots %s", table_id, name, players, bots)
        return table.answer()

    @staticmethod
    def _table_orders(name: str, given: Any) -> dict[str, Any]:
        """The table option ``orders``: the standing orders every student's seat starts with (default: the
        game's recommended ones, Five Sons' "pass on claims unless I claim"; ``{}``: none)."""
        kind = orders_class(name)
        if given is None:
            return dict(kind.recommended)
        try:
            return kind.check(given)
        except ValueError as e:
            raise RequestError(f"orders: {e}") from None

    @staticmethod
    def _deal_action(name: str, deal: Any, options: dict[str, Any]) -> tuple[dict, dict[str, Any]]:
        """A set-up deal as the game's deal action (record encoding), and the options it implies."""
        try:
            return find_game(name).deal_from_json(deal, options)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise RequestError(f"the deal is refused: {e}") from None

    def table(self, table_id: Any) -> Table:
        try:
            return self.tables[int(table_id)]
        except (KeyError, ValueError):
            raise RequestError(f"no table {_short(table_id)}", 404) from None

    def listing(self) -> list[dict[str, Any]]:
        """``GET /api/tables``: every table with its codes, bots, step and connected clients."""
        return [t.summary() for t in self.tables.values()]

    def record(self, table_id: Any, teacher: bool) -> dict[str, Any]:
        """``GET /api/tables/ID/record``: the engine's record (the teacher's, or anyone's once over)."""
        table = self.table(table_id)
        if not (teacher or table.told.is_over):
            raise RequestError(
                f"table {table.id} is still being played: its record is for the teacher "
                "until the game is over",
                403,
            )
        return table.told.record().to_dict()

    def set_seat(self, table_id: Any, seat: Any, body: Any) -> dict[str, Any]:
        """Hand a seat to a bot (``{"bot": level}``) or back to a student (``{"bot": null}``).

        Either way the seat's old code stops working at once (its windows are told and closed): a
        student's seat always gets a new code, so a teacher can revoke a code that went round. The
        change is stored first (StoreBusy, nothing changed, when another program holds the lock)."""
        table = self.table(table_id)
        seat = _check_int(seat if not isinstance(seat, str) or not seat.isdigit() else int(seat), "seat")
        if not 0 <= seat < table.players:
            raise RequestError(f"seat {seat} is not a seat of table {table.id} (0..{table.players - 1})", 404)
        if not isinstance(body, dict) or set(body) != {"bot"}:
            raise RequestError(f'the body is {{"bot": LEVEL}} or {{"bot": null}}, not {_short(body)}')
        level = body["bot"]
        if level is not None and (not isinstance(level, str) or level not in game_bot_levels(table.name)):
            raise RequestError(f"bot level {_short(level)} is not one of {list(game_bot_levels(table.name))}")
        old = table.seats[seat]
        code = new_code() if level is None else None
        seats = [*table.seats[:seat], code, *table.seats[seat + 1 :]]
        levels = {s: v for s, v in table.levels.items() if s != seat}
        if level is not None:
            levels[seat] = level
        self.store.set_seats(table.id, seats, levels)  # first: nothing changes if it cannot be stored
        table.seats, table.levels = seats, levels
        table.joined.discard(seat)  # a bot's seat, or a new code's student who has not come yet: never away
        timer = table.leaving.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if level is None:
            table.driver.set_bot(seat, None)
            table.driver.set_away(seat, None)
            table.driver.set_orders(seat, {**orders_class(table.name).defaults, **table.orders})
            self.codes[code_key(code)] = (table, seat)
        else:
            table._make_bot(seat, level)
        if old is not None:
            self.codes.pop(code_key(old), None)
            why = (
                f"seat {seat} is now played by a bot"
                if level is not None
                else f"the teacher gave seat {seat} a new code"
            )
            for conn in list(table.clients.get(seat, ())):
                self._tell(conn, {"type": "error", "message": f"{why}: this join code is no longer valid"})
                conn.close(4403, "seat handed to a bot" if level is not None else "a new code was issued")
                self.disconnect(conn)
        log.info(
            "table %s: seat %s %s", table.id, seat, f"to a bot ({level})" if level else "given a new code"
        )
        self._presence(table)
        self._schedule(table)
        return {"table": table.id, "seat": seat, "bot": level, "code": code}

    # -- clients ----------------------------------------------------------------------
    def connect(self, conn: Connection, code: Optional[str]) -> bool:
        """Seat a new connection by its code and send it the observation; False if the code is refused.

        A code is taken in any case, with or without its dashes. At most :data:`MAX_PER_CODE` windows
        hold one code: a newer one closes the oldest (a reload replaces the page it reloads)."""
        found = self.codes.get(code_key(code)) if isinstance(code, str) and len(code) <= 200 else None
        if found is None:
            self._tell(
                conn,
                {
                    "type": "error",
                    "message": "unknown or stale join code: ask the teacher for your table's code",
                },
            )
            conn.close(4403, "unknown or stale join code")
            return False
        table, seat = found
        conn.table, conn.seat = table, seat
        conn.code = table.teacher if seat is None else table.seats[seat]
        conn.rate = RateLimit(self.rate, self.burst)
        clients = table.clients.setdefault(seat, {})
        arrived = seat is not None and seat not in table.levels and not clients
        while len(clients) >= MAX_PER_CODE:
            oldest = next(iter(clients))
            del clients[oldest]
            self._tell(
                oldest,
                {
                    "type": "error",
                    "message": f"this code is open in more than {MAX_PER_CODE} windows: "
                    "the oldest was closed",
                },
            )
            oldest.close(4408, "too many windows with this code")
        clients[conn] = None
        if arrived:
            self._arrived(table, seat)
        if seat is not None and seat not in table.levels:  # (first: a client knows them with its first view)
            orders = table.driver.orders(seat)
            if orders != orders_class(table.name).defaults:  # (none set: no frame, the client assumes none)
                self._tell(conn, {"type": "orders", "seat": seat, "orders": orders})
        self._send_full(conn, table, seat)
        if arrived:  # every other window is told that this seat is here
            self._presence(table)
        return True

    def disconnect(self, conn: Connection) -> None:
        table = getattr(conn, "table", None)
        if table is None:
            return
        seat = conn.seat
        conns = table.clients.get(seat)
        if conns is None or conn not in conns:
            return
        del conns[conn]
        if conns:
            return
        table.sent.pop(seat, None)  # (a window that comes gets the whole observation)
        if seat is not None and seat not in table.levels:  # the last window of a student's seat: away
            self._presence(table)
            self._leaving(table, seat)

    # -- who is here ------------------------------------------------------------------
    def _arrived(self, table: Table, seat: int) -> None:
        """The first window of a student's seat opened: the seat is the student's again (a stand-in bot, if
        any, stops at once: a move it is thinking of is dropped)."""
        table.joined.add(seat)
        timer = table.leaving.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if seat in table.driver.away:
            table.driver.set_away(seat, None)
            log.info("table %s: the student of seat %s is back and plays their turns again", table.id, seat)

    def _leaving(self, table: Table, seat: int) -> None:
        """A student's seat that has been here has no window: away once the table's grace period is over
        (none: the table waits for the student, as ever)."""
        if (
            table.grace is None
            or seat in table.levels
            or table.clients.get(seat)
            or seat not in table.joined
            or seat in table.leaving
            or seat in table.driver.away
        ):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a direct call): no timers
            return
        table.leaving[seat] = loop.call_later(table.grace, self._away, table, seat)

    def _away(self, table: Table, seat: int) -> None:
        """The grace period is over and the student is still away: a bot of the table's ``stand_in`` level
        plays their turns (only theirs, and never while a window of theirs is open) until they are back."""
        table.leaving.pop(seat, None)
        if table.clients.get(seat) or seat in table.levels or table.seats[seat] is None:
            return
        seed = None if table.game.seed is None else table.game.seed * 100 + 50 + seat
        table.driver.set_away(seat, bot_levels(table.name)[table.stand_in](seed))
        log.info(
            "table %s: the student of seat %s is away for %gs: a %s bot plays their turns until they are "
            "back",
            table.id,
            seat,
            table.grace,
            table.stand_in,
        )
        self._schedule(table)

    def receive(self, conn: Connection, message: Any) -> None:
        """Take one client message; anything refused gets the sender an error, and nothing changes."""
        if getattr(conn, "rate", None) is None:  # its code was refused (``connect``): it is being closed, and
            # nothing it sends meanwhile is read
            return
        if not conn.rate.take() and not self._moves_the_game(conn, message):
            if conn.rate.warn_now():
                self._tell(
                    conn,
                    {
                        "type": "error",
                        "message": f"too many messages: at most {self.rate:g} a "
                        f"second (bursts of {self.burst:g}); messages over the limit are dropped",
                    },
                )
            return
        try:
            self._receive(conn, message)
        except RequestError as e:
            self._tell(conn, {"type": "error", "message": str(e)})

    def _moves_the_game(self, conn: Connection, message: Any) -> bool:
        """Whether a message over the rate limit is still the move of the seat to move, for this step.

        One such message a step and seat is taken: dropping it would leave a quick client (a script, a
        bot seat at pace 0) waiting for an answer to a move the server never played, and the game
        itself allows one move a step, so it cannot flood anything. A second one at the same step (an
        illegal move sent again and again) is dropped like any other message over the limit. Only a
        cheap look: the message is checked in full by ``_receive`` as any other."""
        table, seat = conn.table, conn.seat
        if table is None or seat is None or not isinstance(message, str) or len(message) > MAX_MESSAGE:
            return False
        game = table.game
        if game.is_over or game.to_move != seat or table.exempt.get(seat) == game.step:
            return False
        try:
            msg = json.loads(message)
        except (ValueError, RecursionError):
            return False
        if (
            isinstance(msg, dict)
            and msg.get("type") == "act"
            and msg.get("step") == game.step
            and not isinstance(msg.get("step"), bool)
        ):
            table.exempt[seat] = game.step
            return True
        return False

    def _receive(self, conn: Connection, message: Any) -> None:
        if isinstance(message, bytes):
            raise RequestError("binary messages are not taken: send JSON text")
        if len(message) > MAX_MESSAGE:
            raise RequestError(f"message of {len(message)} characters is over the limit of {MAX_MESSAGE}")
        try:
            msg = json.loads(message)
        except ValueError as e:
            raise RequestError(f"malformed JSON: {e}") from None
        except RecursionError:
            raise RequestError("malformed JSON: nested too deeply") from None
        if not isinstance(msg, dict) or "type" not in msg:
            raise RequestError(f"a message is a JSON object with a 'type', not {message[:80]!r}")
        kind = msg["type"]
        if kind == "orders":
            self._set_orders(conn, msg)
            return
        if kind == "observation":  # a client that lost track asks for the whole observation
            if set(msg) != {"type"}:
                raise RequestError(
                    "an 'observation' message asks for the whole observation, and has only 'type'"
                )
            table = self._valid_table(conn)  # (the teacher's code too: it watches)
            self._send_full(conn, table, conn.seat)
            return
        if kind != "act":
            raise RequestError(
                f"unknown message type {str(kind)[:40]!r}: a client sends only 'act', 'orders' or "
                "'observation'"
            )
        extra = set(msg) - {"type", "action", "step"}
        if extra:
            raise RequestError(
                f"an 'act' message has 'action' and an optional 'step', not {sorted(extra)[:10]}; "
                "a join code acts only for its own seat"
            )
        if "action" not in msg:
            raise RequestError("an 'act' message needs an 'action' (as the game's records encode it)")
        table, seat = self._own_seat(conn, "can act")
        game = table.game
        if "step" in msg and (isinstance(msg["step"], bool) or msg["step"] != game.step):
            raise RequestError(
                f"stale message: sent for step {_short(msg['step'])}, the game is at step "
                f"{game.step}; nothing was played"
            )
        if game.is_over:
            raise RequestError("the game is over; nothing more can be played")
        if game.to_move != seat:
            raise RequestError(
                f"it is not your turn: {game.seat_name(game.to_move)} (seat {game.to_move}) "
                f"is to move ({game.phase})"
                if game.to_move != CHANCE
                else "it is not your turn: the next hand is being dealt"
            )
        try:
            action = game.action_from_json(msg["action"])
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise RequestError(f"not an action of this game: {e}") from None
        try:
            self.accept(table, seat, action)
        except IllegalAction as e:
            raise RequestError(str(e)) from None

    @staticmethod
    def _valid_table(conn: Connection) -> Table:
        """The table of a connection whose code still holds (a seat given a new code or handed to a bot: its
        old windows are being closed, and are answered nothing of the seat meanwhile); else RequestError."""
        table, seat = conn.table, conn.seat
        if table is None or (seat is not None and table.seats[seat] != conn.code):
            raise RequestError("this join code is no longer valid")
        return table

    @staticmethod
    def _own_seat(conn: Connection, what: str) -> tuple[Table, int]:
        """The table and seat of a connection whose code is still its seat's; RequestError for a code no
        longer valid (its seat handed to a bot, or given a new code) and for the teacher's (only a seat's
        code ``what``)."""
        table, seat = Classroom._valid_table(conn), conn.seat
        if seat is None:
            raise RequestError(f"the teacher's code watches the table; only a seat's code {what}")
        return table, seat

    def _set_orders(self, conn: Connection, msg: dict[str, Any]) -> None:
        """``{"type": "orders", "orders": {...}}``: change some of the sender's seat's standing orders. Every
        window of that seat is told the seat's orders (``{"type": "orders", ...}``); then whatever the
        orders now give is scheduled like a bot's move."""
        extra = set(msg) - {"type", "orders"}
        if extra or "orders" not in msg:
            raise RequestError(
                f"an 'orders' message has 'orders' (an object of order -> value) and nothing else, not "
                f"{sorted(set(msg) - {'type'})}"
            )
        table, seat = self._own_seat(conn, "has standing orders")
        try:
            orders = table.driver.set_orders(seat, msg["orders"])
        except ValueError as e:
            raise RequestError(f"orders: {e}") from None
        for other in list(table.clients.get(seat, ())):
            self._tell(other, {"type": "orders", "seat": seat, "orders": orders})
        self._schedule(table)

    def _schedule(self, table: Table) -> None:
        """If the table's driver plays what is due (a deal, a bot, a student's standing order), play it after
        the delay its pace gives. A student's own turn waits for the student: nothing is sent for them."""
        if table.pending is not None or table.thinking is not None:
            return
        g = table.game
        due = table.driver.due(g)
        if not due.automatic:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (the server calls start() once it runs)
            return
        table.pending = loop.call_later(due.delay, self._bot_step, table, g.step)

    def _bot_step(self, table: Table, at: int) -> None:
        """The pace has passed: play what the driver has due now (asked again: a student may have changed
        their orders, the teacher a seat)."""
        table.pending = None
        g = table.game
        if g.step != at:
            self._schedule(table)
            return
        due = table.driver.due(g)
        if not due.automatic:
            return
        if due.kind != "bot":  # a deal, a standing order: known at once
            self.accept(table, None if due.kind == "deal" else due.seat, table.driver.decision(g, due)())
            return
        bot = table.driver.playing(due.seat)  # its own bot, or the stand-in of a student who is away
        think = table.driver.decision(g, due)  # the bot's observation, made here in the event loop
        table.thinking = asyncio.ensure_future(self._think(table, due.seat, bot, think, at))

    async def _think(self, table: Table, seat: int, bot: Any, think: Callable[[], Any], at: int) -> None:
        """A bot decides in the bots' thread (one, so bots never run at once), not in the event loop:
        a slow bot (the probability bot's advisor) does not hold up the other tables' messages."""
        action: Any = None
        try:
            action = await asyncio.get_running_loop().run_in_executor(self._bots_thread, think)
        except Exception:  # a bot's bug must not stop the table
            log.exception("table %s: the bot of seat %s failed at step %s", table.id, seat, at)
        finally:
            table.thinking = None
        g = table.game
        if g.step != at or table.driver.playing(seat) is not bot:  # the teacher changed the seat, or the
            # student who was away came back, meanwhile: nothing is played for them
            self._schedule(table)
            return
        try:
            if action is None:
                raise IllegalAction("the bot gave no action")
            self.accept(table, seat, action)
        except IllegalAction as e:  # play a random legal action instead, and say so in the log
            log.error(
                "table %s: the bot of seat %s played no legal action at step %s (%s); a random legal "
                "action instead",
                table.id,
                seat,
                at,
                e,
            )
            self.accept(table, seat, random.Random(at).choice(g.legal_actions()))

    def close(self) -> None:
        """Stop the bots' thread and every timer (the server is stopping)."""
        for handle in (self._flush_due, self._retry_due):
            if handle is not None:
                handle.cancel()
        for table in self.tables.values():
            if table.pending is not None:
                table.pending.cancel()
            if table.thinking is not None:
                table.thinking.cancel()
        self._bots_thread.shutdown(wait=False, cancel_futures=True)

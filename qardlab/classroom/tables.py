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
from .engine_api import observation_text, step
from .store import Store, TableRow

__all__ = [
    "Classroom",
    "Table",
    "Connection",
    "RequestError",
    "game_bot_levels",
    "MAX_MESSAGE",
    "RateLimit",
    "bot_levels",
]

log = logging.getLogger("qardlab.classroom")

#: the largest client message taken (bytes); a bigger one is refused with an error
MAX_MESSAGE = 8 * 1024
#: the bots' pace when a table does not set one (seconds between a change and a bot's move)
DEFAULT_PACE = 0.6
MAX_PACE = 10.0


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
    """One game, its join codes, its bots and the clients connected to it."""

    def __init__(self, row: TableRow, game: Game) -> None:
        self.id = row.id
        self.name = row.game
        self.players = row.players
        self.teacher = row.teacher
        self.seats: list[Optional[str]] = list(row.seats)  # seat -> code (None: a bot plays it)
        self.levels: dict[int, str] = dict(row.bots)
        self.pace = row.pace
        self.game = game  # the game with every accepted step
        self.told = game  # the game as last committed: what clients are sent
        self.bots: dict[int, Any] = {}
        for seat, level in self.levels.items():
            self._make_bot(seat, level)
        self.clients: dict[Optional[int], set[Connection]] = {}
        self.pending: Optional[asyncio.TimerHandle] = None
        self.thinking: Optional[asyncio.Future] = None  # a bot deciding in the bots' thread

    def _make_bot(self, seat: int, level: str) -> None:
        seed = None if self.game.seed is None else self.game.seed * 100 + seat
        self.bots[seat] = bot_levels(self.name)[level](seed)

    def summary(self) -> dict[str, Any]:
        g = self.told
        return {
            "table": self.id,
            "game": self.name,
            "players": self.players,
            "step": g.step,
            "phase": g.phase,
            "to_move": g.to_move,
            "is_over": g.is_over,
            "pace": self.pace,
            "teacher": self.teacher,
            "seats": [
                {
                    "seat": s,
                    "code": self.seats[s],
                    "bot": self.levels.get(s),
                    "connected": len(self.clients.get(s, ())),
                }
                for s in range(self.players)
            ],
        }


def _check_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{what} must be an integer, not {value!r}")
    return value


def _new_game(game: str, players: int, options: dict[str, Any], seed: Optional[int]) -> Game:
    try:
        return find_game(game)._blank(players, dict(options), seed)
    except (ValueError, TypeError) as e:
        raise RequestError(f"cannot set up {game}: {e}") from None


def _replay(row: TableRow, given_deal: bool) -> Game:
    """Rebuild a table's game from its stored steps (each applied as the one step it was).

    At a chance node the game's own RNG draws the deal as it did live (the stored deal is the
    one applied), so later deals after a restart are the ones the table would have had.
    """
    g = _new_game(row.game, row.players, row.options, row.seed)
    for n, raw in enumerate(row.steps):
        if g.to_move == CHANCE and not (given_deal and n == 0):
            g.chance_outcome()
        step(g, g.action_from_json(raw))
    return g


class Classroom:
    """Every table of a server, its store, and the teacher's token."""

    def __init__(self, store: Store, token: str, *, rate: float = 10.0, burst: float = 20.0) -> None:
        self.store = store
        self.token = token
        self.rate, self.burst = rate, burst
        self.tables: dict[int, Table] = {}
        self._unsaved: list[tuple[Table, Game, Game, tuple[int, int, Any, Optional[int], float]]] = []
        self._flush_due: Optional[asyncio.Handle] = None
        #: (table, step number, accepted, told) of every step, when a benchmark asks for them
        self.timings: Optional[list[tuple[int, int, float, float]]] = None
        self._bots_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qardlab-bots")
        self.codes: dict[str, tuple[Table, Optional[int]]] = {}
        for row in store.tables():
            given = bool(row.options.pop("_given_deal", False))
            try:
                game = _replay(row, given)
            except (ValueError, RequestError) as e:  # a table that no longer replays: say so, keep the rest
                log.error("table %s does not replay and is left out: %s", row.id, e)
                continue
            row.options["_given_deal"] = given
            self._add(Table(row, game))

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.codes[table.teacher] = (table, None)
        for seat, code in enumerate(table.seats):
            if code is not None:
                self.codes[code] = (table, seat)

    def start(self) -> None:
        """Let the bots (and the deals) of every table move: call once the event loop runs."""
        for table in self.tables.values():
            self._schedule(table)

    # -- the teacher's requests -------------------------------------------------------
    def create(self, body: Any) -> dict[str, Any]:
        """``POST /api/tables``: a new table from the request body; its id and join codes."""
        if not isinstance(body, dict):
            raise RequestError(f"the body must be a JSON object, not {body!r}")
        unknown = set(body) - {"game", "players", "seed", "options", "deal", "bots", "pace"}
        if unknown:
            raise RequestError(
                f"unknown fields {sorted(unknown)}; known: game, players, seed, options, deal, bots, pace"
            )
        name = body.get("game")
        if name not in GAMES:
            raise RequestError(f"game must be one of {list(GAMES)}, not {name!r}")
        players = _check_int(body.get("players", 4), "players")
        seed = body.get("seed")
        seed = secrets.randbelow(2**31) if seed is None else _check_int(seed, "seed")
        options = body.get("options", {})
        if not isinstance(options, dict) or any(k.startswith("_") for k in options):
            raise RequestError(f"options must be a JSON object of the game's options, not {options!r}")
        options = dict(options)
        pace = body.get("pace", DEFAULT_PACE)
        if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not 0 <= pace <= MAX_PACE:
            raise RequestError(f"pace must be a number of seconds from 0 to {MAX_PACE}, not {pace!r}")
        levels = game_bot_levels(name)
        bots_in = body.get("bots", {})
        if not isinstance(bots_in, dict):
            raise RequestError(
                f'bots must map seats to levels, like {{"2": "{levels[-1]}"}}, not {bots_in!r}'
            )
        bots: dict[int, str] = {}
        for key, level in bots_in.items():
            if not (isinstance(key, str) and key.isdigit() and int(key) < players):
                raise RequestError(f"bots: {key!r} is not a seat of this table (0..{players - 1})")
            if level not in levels:
                raise RequestError(
                    f"bots: seat {key} has level {level!r}; the {name} levels are {list(levels)}"
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
            step(game, game.action_from_json(first) if isinstance(first, dict) else first)
        except (ValueError, TypeError) as e:
            raise RequestError(f"the deal is refused: {e}") from None
        seats = [None if s in bots else secrets.token_urlsafe(12) for s in range(players)]
        teacher = secrets.token_urlsafe(12)
        stored = {**options, "_given_deal": deal is not None}
        steps = [game.action_to_json(a) for a in game.history]
        pace = float(pace)
        table_id = self.store.add_table(name, players, stored, seed, teacher, seats, bots, pace, steps)
        table = Table(TableRow(table_id, name, players, stored, seed, teacher, seats, bots, pace), game)
        self._add(table)
        self._schedule(table)
        log.info("table %s: %s for %s, bots %s", table_id, name, players, bots)
        return {
            "table": table_id,
            "teacher": teacher,
            "seats": [{"seat": s, "code": seats[s], "bot": bots.get(s)} for s in range(players)],
        }

    @staticmethod
    def _deal_action(name: str, deal: Any, options: dict[str, Any]) -> tuple[dict, dict[str, Any]]:
        """A set-up deal as the game's deal action (record encoding), and the options it implies."""
        try:
            return find_game(name).deal_from_json(deal, options)
        except (ValueError, TypeError) as e:
            raise RequestError(str(e)) from None

    def table(self, table_id: Any) -> Table:
        try:
            return self.tables[int(table_id)]
        except (KeyError, ValueError):
            raise RequestError(f"no table {table_id!r}", 404) from None

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
        """Hand a seat to a bot (``{"bot": level}``) or back to a student (``{"bot": null}``: a new code)."""
        table = self.table(table_id)
        seat = _check_int(seat if not isinstance(seat, str) or not seat.isdigit() else int(seat), "seat")
        if not 0 <= seat < table.players:
            raise RequestError(f"seat {seat} is not a seat of table {table.id} (0..{table.players - 1})", 404)
        if not isinstance(body, dict) or set(body) != {"bot"}:
            raise RequestError(f'the body is {{"bot": LEVEL}} or {{"bot": null}}, not {body!r}')
        level = body["bot"]
        if level is not None and level not in game_bot_levels(table.name):
            raise RequestError(f"bot level {level!r} is not one of {list(game_bot_levels(table.name))}")
        old = table.seats[seat]
        if level is None:
            table.levels.pop(seat, None)
            table.bots.pop(seat, None)
            code = old or secrets.token_urlsafe(12)
            table.seats[seat] = code
            self.codes[code] = (table, seat)
        else:
            table.levels[seat] = level
            table._make_bot(seat, level)
            table.seats[seat] = None
            if old is not None:
                self.codes.pop(old, None)
            for conn in list(table.clients.get(seat, ())):
                self._tell(
                    conn,
                    {
                        "type": "error",
                        "message": f"seat {seat} is now played by a bot: this join code is no longer valid",
                    },
                )
                conn.close(4403, "seat handed to a bot")
        self.store.set_seats(table.id, table.seats, table.levels)
        self._schedule(table)
        return {"table": table.id, "seat": seat, "bot": level, "code": table.seats[seat]}

    # -- clients ----------------------------------------------------------------------
    def connect(self, conn: Connection, code: Optional[str]) -> bool:
        """Seat a new connection by its code and send it the observation; False if the code is refused."""
        found = self.codes.get(code) if isinstance(code, str) else None
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
        conn.table, conn.seat, conn.code = table, seat, code
        conn.rate = RateLimit(self.rate, self.burst)
        table.clients.setdefault(seat, set()).add(conn)
        conn.send(self._observation_text(table, seat))
        return True

    def disconnect(self, conn: Connection) -> None:
        table = getattr(conn, "table", None)
        if table is not None:
            table.clients.get(conn.seat, set()).discard(conn)

    def receive(self, conn: Connection, message: Any) -> None:
        """Take one client message; anything refused gets the sender an error, and nothing changes."""
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

        Such a message is taken: the game itself allows one of those a step, so taking them cannot
        flood anything, and dropping one would leave a quick client (a script, a bot seat at pace 0)
        waiting for an answer to a move the server never played. Only a cheap look: the message is
        checked in full by ``_receive`` as any other."""
        table, seat = conn.table, conn.seat
        if table is None or seat is None or not isinstance(message, str) or len(message) > MAX_MESSAGE:
            return False
        try:
            msg = json.loads(message)
        except ValueError:
            return False
        game = table.game
        return (
            isinstance(msg, dict)
            and msg.get("type") == "act"
            and msg.get("step") == game.step
            and not isinstance(msg.get("step"), bool)
            and not game.is_over
            and game.to_move == seat
        )

    def _receive(self, conn: Connection, message: Any) -> None:
        if isinstance(message, bytes):
            raise RequestError("binary messages are not taken: send JSON text")
        if len(message) > MAX_MESSAGE:
            raise RequestError(f"message of {len(message)} characters is over the limit of {MAX_MESSAGE}")
        try:
            msg = json.loads(message)
        except ValueError as e:
            raise RequestError(f"malformed JSON: {e}") from None
        if not isinstance(msg, dict) or "type" not in msg:
            raise RequestError(f"a message is a JSON object with a 'type', not {message[:80]!r}")
        kind = msg["type"]
        if kind != "act":
            raise RequestError(f"unknown message type {str(kind)[:40]!r}: a client sends only 'act'")
        extra = set(msg) - {"type", "action", "step"}
        if extra:
            raise RequestError(
                f"an 'act' message has 'action' and an optional 'step', not {sorted(extra)}; "
                "a join code acts only for its own seat"
            )
        if "action" not in msg:
            raise RequestError("an 'act' message needs an 'action' (as the game's records encode it)")
        table, seat = conn.table, conn.seat
        if table is None or (seat is not None and table.seats[seat] != conn.code):
            raise RequestError("this join code is no longer valid")
        if seat is None:
            raise RequestError("the teacher's code watches the table; only a seat's code can act")
        game = table.game
        if "step" in msg and (isinstance(msg["step"], bool) or msg["step"] != game.step):
            raise RequestError(
                f"stale message: sent for step {msg['step']!r}, the game is at step "
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
        except (ValueError, TypeError) as e:
            raise RequestError(f"not an action of this game: {e}") from None
        try:
            self.accept(table, seat, action)
        except IllegalAction as e:
            raise RequestError(str(e)) from None

    # -- steps ------------------------------------------------------------------------
    def accept(self, table: Table, seat: Optional[int], action: Any) -> None:
        """Apply one step on a copy of the table's game; it is committed, then told, by ``_flush``.

        IllegalAction (nothing changed) if the rules refuse it. The new game is the table's at once
        (the next message is checked against it), but no client hears of it before it is on disk:
        clients are sent ``table.told``, the game as last committed.
        """
        old = table.game
        new = old.copy()
        step(new, action)
        row = (table.id, old.step, new.action_to_json(new.history[-1]), seat, time.time())
        self._unsaved.append((table, old, new, row))
        table.game = new
        if self._flush_due is None:
            try:
                self._flush_due = asyncio.get_running_loop().call_soon(self._flush)
            except RuntimeError:  # no event loop (a direct call): commit now
                self._flush()

    def _flush(self) -> None:
        """Commit every step accepted in this turn of the event loop in one transaction, then tell.

        A group commit: one sync of the file for every table's steps accepted meanwhile. It runs in
        the event loop itself: handing it to a thread was measured slower here (each hand-over
        waits for the other thread to be scheduled, on a machine whose two cores are busy).
        """
        self._flush_due = None
        if not self._unsaved:
            return
        batch, self._unsaved = self._unsaved, []
        try:
            self.store.add_steps([row for *_rest, row in batch])
        except Exception as e:
            self._lost(batch, e)
        else:
            self._written(batch)

    def _written(self, batch: list) -> None:
        """The batch is on disk: tell every client of its tables, let their bots move."""
        latest: dict[int, tuple[Table, Game]] = {}
        for table, _old, new, _row in batch:
            latest[id(table)] = (table, new)
        told: dict[int, float] = {}
        for table, new in latest.values():
            table.told = new
            self._broadcast(table)
            told[table.id] = time.time()
            self._schedule(table)
        if self.timings is not None:  # (benchmarks) when each step was accepted, and when it was told
            self.timings.extend(
                (table_id, n, accepted, told[table_id])
                for _t, _o, _n, (table_id, n, _a, _s, accepted) in batch
            )

    def _lost(self, batch: list, error: BaseException) -> None:
        """The batch could not be stored: undo its steps and every later one at those tables."""
        tables = {id(t): t for t, *_rest in batch}
        for table, old, _new, _row in reversed(batch):
            table.game = old
        self._unsaved = [u for u in self._unsaved if id(u[0]) not in tables]
        log.error("could not store %s steps (%s); they were undone", len(batch), error)
        for table in tables.values():
            table.game = table.told
            for conns in table.clients.values():
                for conn in list(conns):
                    self._tell(
                        conn,
                        {
                            "type": "error",
                            "message": "the server could not store the last "
                            "move; it was undone: play it again",
                        },
                    )

    def _observation_text(self, table: Table, seat: Optional[int]) -> str:
        obs = observation_text(table.told, seat)
        return f'{{"type":"observation","seat":{json.dumps(seat)},"observation":{obs}}}'

    def _broadcast(self, table: Table) -> None:
        for seat, conns in list(table.clients.items()):
            if not conns:
                continue
            text = self._observation_text(table, seat)
            for conn in list(conns):
                conn.send(text)

    @staticmethod
    def _tell(conn: Connection, message: dict[str, Any]) -> None:
        conn.send(json.dumps(message))

    def _schedule(self, table: Table) -> None:
        """If a bot (or a deal) is due at this table, let it move after the table's pace."""
        if table.pending is not None or table.thinking is not None:
            return
        g = table.game
        if g.is_over or not (g.to_move == CHANCE or g.to_move in table.bots):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (the server calls start() once it runs)
            return
        table.pending = loop.call_later(table.pace, self._bot_step, table, g.step)

    def _bot_step(self, table: Table, at: int) -> None:
        table.pending = None
        g = table.game
        if g.step != at or g.is_over:
            self._schedule(table)
            return
        seat = g.to_move
        if seat == CHANCE:
            self.accept(table, None, g.chance_outcome())
            return
        bot = table.bots.get(seat)
        if bot is None:  # the seat went back to a student
            return
        table.thinking = asyncio.ensure_future(self._think(table, seat, bot, g.observation(seat), at))

    async def _think(self, table: Table, seat: int, bot: Any, obs: Any, at: int) -> None:
        """A bot decides in the bots' thread (one, so bots never run at once), not in the event loop:
        a slow bot (the probability bot's advisor) does not hold up the other tables' messages."""
        action: Any = None
        try:
            action = await asyncio.get_running_loop().run_in_executor(self._bots_thread, bot.act, obs)
        except Exception:  # a bot's bug must not stop the table
            log.exception("table %s: the bot of seat %s failed at step %s", table.id, seat, at)
        finally:
            table.thinking = None
        g = table.game
        if g.step != at or table.bots.get(seat) is not bot:  # the teacher changed the seat meanwhile
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
        """Stop the bots' thread (the server is stopping)."""
        self._bots_thread.shutdown(wait=False, cancel_futures=True)

"""The classroom table server on Tornado: the HTTP API for the teacher and a websocket per seat.

Why Tornado: Jupyter's own server runs on it, so every machine that runs the lessons has it
already (no new dependency); it serves HTTP and websockets from one asyncio event loop in one
thread, which is all a class of tables needs (each step is a few milliseconds of work); and
its websocket client runs in an IPython kernel's event loop, which is where the notebook
client lives. The protocol is in ``docs/classroom.md``; the logic is in ``tables.py``.

No one client can stop the class: a connection that sends nothing is closed after
``IDLE_TIMEOUT`` seconds, one address holds at most ``per_address`` connections and the server at
most ``connections`` (below its limit of open files, so it never runs out of them), a code at most
``tables.MAX_PER_CODE``; the log says a repeated message a few times, then how many it left out; and
no log line holds a join code (a request is logged as its path, never its query).
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import json
import logging
import os
import re
import signal
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable, Optional

import tornado.httpserver
import tornado.ioloop
import tornado.web
import tornado.websocket
from tornado.netutil import bind_sockets

from .frames import FRAME_MODES
from .hub import hub_oauth_available, service_prefix
from .logs import LogLimit
from .store import Store, StoreBusy, StoreError
from .tables import MAX_MESSAGE, Classroom, RateLimit, RequestError, Table
from .tokens import TOKEN_ENV, TOKEN_SETTING, read_token, token_help

__all__ = ["make_app", "serve", "run", "LogLimit", "connection_limits", "TOKEN_ENV"]

log = logging.getLogger("qardlab.classroom")
#: a body of POST /api/tables bigger than this is refused
MAX_BODY = 64 * 1024
#: seconds a connection may stay open without sending a whole request (or between two), and to send a body
IDLE_TIMEOUT = 10.0
#: file descriptors kept free of connections (the database, its journal, the log, the bots' thread...)
RESERVED_FILES = 48
#: seconds between two looks at the database file (deleted or replaced while the server runs?)
FILE_CHECK_EVERY = 2.0
#: seconds a teacher's request waits for another program's lock on the database before it is refused
BUSY_WAIT = 10.0


def _limit_log_of(handler: logging.Handler) -> None:
    if not any(isinstance(f, LogLimit) for f in handler.filters):
        handler.addFilter(LogLimit())


def _summary(handler: tornado.web.RequestHandler) -> str:
    """A request as the log shows it: its method, path and address, never its query (a join code)."""
    return f"{handler.request.method} {handler.request.path} ({handler.request.remote_ip})"


def _log_request(handler: tornado.web.RequestHandler) -> None:
    """Tornado's access log, with the path only."""
    status = handler.get_status()
    level = logging.INFO if status < 400 else logging.WARNING if status < 500 else logging.ERROR
    ms = 1000.0 * handler.request.request_time()
    logging.getLogger("tornado.access").log(level, "%d %s %.2fms", status, _summary(handler), ms)


def _log_exception(handler: tornado.web.RequestHandler, typ: Any, value: Any, tb: Any) -> None:
    """An exception in a handler, logged with the request's path only (Tornado's own prints its URI)."""
    if isinstance(value, tornado.web.HTTPError):
        if value.log_message:
            logging.getLogger("tornado.general").warning(
                "%d %s: %s", value.status_code, _summary(handler), value.log_message
            )
    else:
        log.error("uncaught exception at %s: %r", _summary(handler), value, exc_info=(typ, value, tb))


class _Handler(tornado.web.RequestHandler):
    classroom: Classroom

    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")

    def _request_summary(self) -> str:
        return _summary(self)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        _log_exception(self, typ, value, tb)

    async def is_teacher(self) -> bool:
        """The teacher's token in ``Authorization``, or (as a hub service with the ``hub`` extra) a hub user
        the hub lets use this service: its cookie, or a hub token of theirs."""
        given = self.request.headers.get("Authorization", "")
        if hmac.compare_digest(given.encode(), f"token {self.classroom.token}".encode()):
            return True
        if self.settings.get("hub_auth") is not None:
            from .hub import hub_teacher

            return await hub_teacher(self) is not None
        return False

    async def need_teacher(self) -> None:
        if await self.is_teacher():
            return
        given = self.request.headers.get("Authorization", "")
        if not given:
            first = "this needs the teacher's token, in the header 'Authorization: token TOKEN'"
        elif not given.startswith("token "):
            first = "the teacher's token goes in the header as 'Authorization: token TOKEN'"
        else:
            first = "the teacher's token given is not this server's (an old one, or another server's?)"
        raise RequestError(f"{first}. {self.classroom.token_help}", 403)

    def body_json(self) -> Any:
        if len(self.request.body) > MAX_BODY:
            raise RequestError(f"the body of {len(self.request.body)} bytes is over the limit of {MAX_BODY}")
        try:
            return json.loads(self.request.body or b"null")
        except ValueError as e:
            raise RequestError(f"malformed JSON: {e}") from None
        except RecursionError:
            raise RequestError("malformed JSON: nested too deeply") from None

    def answer(self, data: Any, status: int = 200) -> None:
        self.set_status(status)
        self.finish(json.dumps(data))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """Every error as ``{"error": text}``: a refused request's own text, else the HTTP reason."""
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, tornado.web.HTTPError) and isinstance(error.__cause__, RequestError):
            text = str(error.__cause__)
        else:
            text = self._reason
        self.finish(json.dumps({"error": text}))

    async def stored(self, change: Callable[[], Any]) -> Any:
        """``change()``, tried again while another program holds the database's lock (the event loop
        serving everyone meanwhile); a 503 saying so after ``BUSY_WAIT`` seconds."""
        end = time.monotonic() + BUSY_WAIT
        delay = 0.02
        while True:
            try:
                return change()
            except (sqlite3.Error, OSError) as e:
                if not isinstance(e, StoreBusy):
                    raise RequestError(
                        f"the server could not store this in its database file {self.classroom.store.path} "
                        f"({e}): is its disk full? Nothing was changed",
                        503,
                    ) from None
                if time.monotonic() > end:
                    raise RequestError(
                        f"the server's database file {self.classroom.store.path} is locked by another "
                        "program (a database browser, a backup?): close it, then try again",
                        503,
                    ) from None
                await asyncio.sleep(delay)
                delay = min(0.5, delay * 2)


def _refusals(method: Any) -> Any:
    """A handler method whose RequestError becomes its status and ``{"error": text}``."""

    async def run(self: _Handler, *args: Any) -> None:
        try:
            result = method(self, *args)
            if asyncio.iscoroutine(result):
                await result
        except RequestError as e:
            raise tornado.web.HTTPError(e.status, reason=_reason(e.status)) from e

    run.__name__, run.__doc__ = method.__name__, method.__doc__
    return run


def _reason(status: int) -> str:
    return {
        400: "Bad Request",
        403: "Forbidden",
        404: "Not Found",
        409: "Conflict",
        503: "Service Unavailable",
    }.get(status, "Error")


class StatusHandler(_Handler):
    def get(self) -> None:
        status = {"status": "ready", "tables": len(self.classroom.tables)}
        if self.classroom.file_problem:
            status["problem"] = self.classroom.file_problem
        self.answer(status)


class TablesHandler(_Handler):
    @_refusals
    async def get(self) -> None:
        await self.need_teacher()
        self.answer({"tables": self.classroom.listing()})

    @_refusals
    async def post(self) -> None:
        await self.need_teacher()
        body = self.body_json()
        made = await self.stored(lambda: self.classroom.create(body))
        self.answer(made, 200 if made.get("existing") else 201)


class RecordHandler(_Handler):
    @_refusals
    async def get(self, table_id: str) -> None:
        self.answer(self.classroom.record(table_id, await self.is_teacher()))


class SeatHandler(_Handler):
    @_refusals
    async def post(self, table_id: str, seat: str) -> None:
        await self.need_teacher()
        body = self.body_json()
        self.answer(await self.stored(lambda: self.classroom.set_seat(table_id, seat, body)))


class SeatSocket(tornado.websocket.WebSocketHandler):
    """``/ws?code=CODE``: a seat's (or the teacher's) live connection to its table."""

    table: Optional[Table] = None
    seat: Optional[int] = None
    code: str = ""
    rate: RateLimit
    frames: str = "full"

    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom

    def _request_summary(self) -> str:
        return _summary(self)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        _log_exception(self, typ, value, tb)

    def check_origin(self, origin: str) -> bool:
        return True  # students join from pages served elsewhere (Voila, JupyterHub); the code is the key

    def open(self) -> None:
        self.set_nodelay(True)
        frames = self.get_argument("frames", "full")
        if frames not in FRAME_MODES:
            self.send(
                json.dumps(
                    {"type": "error", "message": f"frames must be 'full' or 'changes', not {frames!r:.40}"}
                )
            )
            self.close(4400, "unknown frames")
            return
        self.frames = frames
        self.classroom.connect(self, self.get_argument("code", None))

    def on_message(self, message: Any) -> None:
        try:
            self.classroom.receive(self, message)
        except Exception as e:  # noqa: BLE001 - a bug must not drop the connection without a word
            where = f"table {self.table.id if self.table else '?'} seat {self.seat}"
            log.error("a message at %s failed: %r", where, e, exc_info=True)
            self.send(
                json.dumps(
                    {
                        "type": "error",
                        "message": f"the server could not take this message ({type(e).__name__}); "
                        "nothing changed",
                    }
                )
            )

    def on_close(self) -> None:
        self.classroom.disconnect(self)

    def send(self, text: str) -> None:
        try:
            sent = self.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            self.classroom.disconnect(self)
            return
        sent.add_done_callback(self._sent)

    def _sent(self, sent: Any) -> None:
        """A frame's write is over: if the connection closed meanwhile, this window has gone (its error
        read here, so that no "exception never retrieved" line per frame floods the log)."""
        if not sent.cancelled() and sent.exception() is not None:
            self.classroom.disconnect(self)


def make_app(classroom: Classroom, prefix: str = "/", hub: bool = False) -> tornado.web.Application:
    """The server's routes, every one under ``prefix`` (``/services/qardlab/`` as a JupyterHub managed
    service); ``hub``: the teacher may also sign in through the hub (``hub.py``)."""
    args = {"classroom": classroom}
    p = re.escape(prefix)
    routes: list[Any] = [
        (p + r"api/status", StatusHandler, args),
        (p + r"api/tables", TablesHandler, args),
        (p + r"api/tables/([0-9]+)/record", RecordHandler, args),
        (p + r"api/tables/([0-9]+)/seats/([0-9]+)", SeatHandler, args),
        (p + r"ws", SeatSocket, args),
        (
            p + r"?",
            StatusHandler,
            args,
        ),  # the prefix itself: the status (a hub's link to the service lands here)
    ]
    settings: dict[str, Any] = {}
    if hub:
        from .hub import hub_routes

        more, settings = hub_routes(prefix, classroom)
        routes = more + routes
    return tornado.web.Application(
        routes,
        **settings,
        # bigger frames than this close the connection; ours (MAX_MESSAGE) get a clear error first
        websocket_max_message_size=max(MAX_MESSAGE * 8, 64 * 1024),
        # a ping every 10 s, the connection closed when its answer is 10 s late (Tornado takes no timeout
        # longer than the interval: 30 here was cut to 10 with a warning at every start)
        websocket_ping_interval=10,
        websocket_ping_timeout=10,
        log_function=_log_request,
    )


def connection_limits() -> tuple[int, int]:
    """(connections in all, connections from one address) this process can hold: its limit of open
    files less ``RESERVED_FILES``, and half of that for one address (at least 16, at most 256: a class
    behind one school router, or joined through one JupyterHub, comes from one address)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or hard > soft):
            want = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
            if want > soft:  # a server may raise its own soft limit up to the hard one
                resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
                soft = want
        files = 65536 if soft == resource.RLIM_INFINITY else soft
    except (ImportError, ValueError, OSError):  # Windows: no such limit
        files = 1024
    total = max(8, min(files - RESERVED_FILES, 16384))
    return total, max(8, min(256, total // 2))


class _Admission:
    """Which connections are open, by address; who may open one more."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self.open: dict[str, list[socket.socket]] = {}
        self.count = 0

    def _sweep(self, host: Optional[str] = None) -> None:
        for h in [host] if host is not None else list(self.open):
            live = [s for s in self.open.get(h, ()) if s.fileno() != -1]
            self.count -= len(self.open.get(h, ())) - len(live)
            if live:
                self.open[h] = live
            else:
                self.open.pop(h, None)

    def admit(self, sock: socket.socket, host: str) -> Optional[str]:
        """None if ``sock`` may be served (it is counted), else why not."""
        if len(self.open.get(host, ())) >= self.per_address:
            self._sweep(host)
            if len(self.open.get(host, ())) >= self.per_address:
                return f"{self.per_address} connections from one address"
        if self.count >= self.total:
            self._sweep()
            if self.count >= self.total:
                return f"{self.total} connections in all"
        self.open.setdefault(host, []).append(sock)
        self.count += 1
        return None


_BUSY_REPLY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
    b"Connection: close\r\nContent-Length: %d\r\n\r\n%s"
)


class ClassServer(tornado.httpserver.HTTPServer):
    """Tornado's HTTP server with a cap on connections (per address and in all), and an accept loop that
    pauses when the process runs out of files instead of spinning and logging."""

    def initialize(self, *args: Any, total: int = 1000, per_address: int = 200, **kwargs: Any) -> None:  # type: ignore[override]
        super().initialize(*args, **kwargs)
        self.admission = _Admission(total, per_address)

    def _handle_connection(self, connection: socket.socket, address: Any) -> None:
        host = address[0] if isinstance(address, tuple) and address else str(address)
        refused = self.admission.admit(connection, host)
        if refused is None:
            super()._handle_connection(connection, address)
            return
        log.warning("a connection from %s was refused: the server holds %s", host, refused)
        body = json.dumps({"error": f"the server is busy ({refused}): try again in a few seconds"}).encode()
        try:
            connection.setblocking(False)
            connection.send(_BUSY_REPLY % (len(body), body))
        except OSError:
            pass
        connection.close()

    def add_sockets(self, sockets: Any) -> None:
        for sock in sockets:
            self._sockets[sock.fileno()] = sock
            self._handlers[sock.fileno()] = self._accept_on(sock)

    def _accept_on(self, sock: socket.socket) -> Callable[[], None]:
        loop = tornado.ioloop.IOLoop.current()
        state: dict[str, Any] = {"removed": False, "paused": None}

        def ready(fd: Any, events: int) -> None:
            for _ in range(128):
                if state["removed"]:
                    return
                try:
                    connection, address = sock.accept()
                except BlockingIOError:
                    return
                except ConnectionAbortedError:
                    continue
                except OSError as e:
                    if e.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                        log.error("out of open files (%s): new connections wait half a second", e.strerror)
                        loop.remove_handler(sock)
                        state["paused"] = loop.call_later(0.5, resume)
                        return
                    raise
                self._handle_connection(connection, address)

        def resume() -> None:
            state["paused"] = None
            if not state["removed"]:
                loop.add_handler(sock, ready, tornado.ioloop.IOLoop.READ)

        def remove() -> None:
            state["removed"] = True
            if state["paused"] is not None:
                loop.remove_timeout(state["paused"])
            else:
                loop.remove_handler(sock)

        loop.add_handler(sock, ready, tornado.ioloop.IOLoop.READ)
        return remove


async def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    db: str = "qardlab-classroom.db",
    token: Optional[str] = None,
    *,
    synchronous: str = "FULL",
    rate: float = 10.0,
    burst: float = 20.0,
    ready: Any = print,
    token_file: Optional[str] = None,
    connections: Optional[int] = None,
    per_address: Optional[int] = None,
    base_url: Optional[str] = None,
) -> None:
    """Run a classroom server until cancelled (or SIGINT / SIGTERM). Port 0 picks a free port.

    The token: ``token``, else ``token_file``, else ``$QARDLAB_TOKEN``, else the one the database file keeps,
    else a new one (:func:`read_token`); it is kept in the file, so a restart on the same file takes it.
    StoreError (before listening) for a database file it will not use; ValueError for a token file that
    cannot be used.

    ``base_url``: the prefix of every route (default ``$JUPYTERHUB_SERVICE_PREFIX``, else ``/``); run by a
    JupyterHub (``$JUPYTERHUB_API_TOKEN``) with the ``hub`` extra, the teacher may sign in through the hub."""
    prefix = service_prefix(base_url)  # (ValueError for a bad one, before anything is opened)
    if token or (token_file and Path(token_file).exists()):
        read_token(token, token_file)  # a token that cannot be used is refused before the file is opened
    store = Store(db, synchronous=synchronous)
    try:
        stored = store.setting(TOKEN_SETTING)
        token, whence = read_token(token, token_file, stored)
        if token != stored:
            if stored is not None:
                log.warning(
                    "the teacher's token given (%s) replaces the one %s kept: the teacher's notebook needs "
                    "the new one",
                    whence,
                    db,
                )
            store.set_setting(TOKEN_SETTING, token)
    except sqlite3.Error as e:
        store.close()
        raise StoreError(f"cannot keep the teacher's token in the database file {db} ({e})") from None
    except BaseException:
        store.close()
        raise
    classroom = Classroom(store, token, rate=rate, burst=burst)
    classroom.token_help = token_help(whence, db, token_file)
    timings = os.environ.get("QARDLAB_CLASSROOM_TIMINGS")  # benchmarks/classroom.py reads these
    if timings:
        classroom.timings = []
    app = make_app(classroom, prefix, hub=hub_oauth_available())
    total, one = connection_limits()
    server = ClassServer(
        app,
        max_body_size=MAX_BODY * 4,
        idle_connection_timeout=IDLE_TIMEOUT,
        body_timeout=IDLE_TIMEOUT,
        total=connections or total,
        per_address=per_address or one,
    )
    sockets = bind_sockets(port, host)
    server.add_sockets(sockets)
    real_port = sockets[0].getsockname()[1]
    classroom.start()
    watch = tornado.ioloop.PeriodicCallback(classroom.check_file, FILE_CHECK_EVERY * 1000)
    watch.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
            pass
    n = len(classroom.tables)
    ready(
        f"qardlab classroom server at http://{host}:{real_port}{prefix} (database {db}, "
        f"{n} table{'' if n == 1 else 's'})"
    )
    ready(f"teacher token: {token}")
    try:
        await stop.wait()
    finally:
        watch.stop()
        server.stop()
        classroom.close()
        store.close()
        if timings:
            Path(timings).write_text(json.dumps(classroom.timings))


def run(
    host: str = "127.0.0.1",
    port: int = 8765,
    db: str = "qardlab-classroom.db",
    token: Optional[str] = None,
    **kwargs: Any,
) -> None:
    """Blocking: run the server in this process until stopped."""

    def ready(text: str) -> None:
        print(text, flush=True)

    for handler in logging.getLogger().handlers:
        _limit_log_of(handler)
    asyncio.run(serve(host, port, db, token, ready=ready, **kwargs))

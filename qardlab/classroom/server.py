"""The classroom table server on Tornado: the HTTP API for the teacher and a websocket per seat.

Why Tornado: Jupyter's own server runs on it, so every machine that runs the lessons has it
already (no new dependency); it serves HTTP and websockets from one asyncio event loop in one
thread, which is all a class of tables needs (each step is a few milliseconds of work); and
its websocket client runs in an IPython kernel's event loop, which is where the notebook
client lives. The protocol is in ``docs/classroom.md``; the logic is in ``tables.py``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import secrets
import signal
from pathlib import Path
from typing import Any, Optional

import tornado.httpserver
import tornado.web
import tornado.websocket
from tornado.netutil import bind_sockets

from .store import Store
from .tables import MAX_MESSAGE, Classroom, RateLimit, RequestError, Table

__all__ = ["make_app", "serve", "run"]

log = logging.getLogger("qardlab.classroom")
#: a body of POST /api/tables bigger than this is refused
MAX_BODY = 64 * 1024


class _Handler(tornado.web.RequestHandler):
    classroom: Classroom

    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")

    def is_teacher(self) -> bool:
        given = self.request.headers.get("Authorization", "")
        return hmac.compare_digest(given.encode(), f"token {self.classroom.token}".encode())

    def need_teacher(self) -> None:
        if not self.is_teacher():
            raise RequestError("this needs the teacher's token: header 'Authorization: token TOKEN'", 403)

    def body_json(self) -> Any:
        if len(self.request.body) > MAX_BODY:
            raise RequestError(f"the body of {len(self.request.body)} bytes is over the limit of {MAX_BODY}")
        try:
            return json.loads(self.request.body or b"null")
        except ValueError as e:
            raise RequestError(f"malformed JSON: {e}") from None

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


def _refusals(method: Any) -> Any:
    """A handler method whose RequestError becomes its status and ``{"error": text}``."""

    def run(self: _Handler, *args: Any) -> None:
        try:
            method(self, *args)
        except RequestError as e:
            raise tornado.web.HTTPError(e.status, reason=_reason(e.status)) from e

    run.__name__, run.__doc__ = method.__name__, method.__doc__
    return run


def _reason(status: int) -> str:
    return {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}.get(status, "Error")


class StatusHandler(_Handler):
    def get(self) -> None:
        self.answer({"status": "ready", "tables": len(self.classroom.tables)})


class TablesHandler(_Handler):
    @_refusals
    def get(self) -> None:
        self.need_teacher()
        self.answer({"tables": self.classroom.listing()})

    @_refusals
    def post(self) -> None:
        self.need_teacher()
        self.answer(self.classroom.create(self.body_json()), 201)


class RecordHandler(_Handler):
    @_refusals
    def get(self, table_id: str) -> None:
        self.answer(self.classroom.record(table_id, self.is_teacher()))


class SeatHandler(_Handler):
    @_refusals
    def post(self, table_id: str, seat: str) -> None:
        self.need_teacher()
        self.answer(self.classroom.set_seat(table_id, seat, self.body_json()))


class SeatSocket(tornado.websocket.WebSocketHandler):
    """``/ws?code=CODE``: a seat's (or the teacher's) live connection to its table."""

    table: Optional[Table] = None
    seat: Optional[int] = None
    code: str = ""
    rate: RateLimit

    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom

    def check_origin(self, origin: str) -> bool:
        return True  # students join from pages served elsewhere (Voila, JupyterHub); the code is the key

    def open(self) -> None:
        self.set_nodelay(True)
        self.classroom.connect(self, self.get_argument("code", None))

    def on_message(self, message: Any) -> None:
        self.classroom.receive(self, message)

    def on_close(self) -> None:
        self.classroom.disconnect(self)

    def send(self, text: str) -> None:
        try:
            self.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            self.classroom.disconnect(self)


def make_app(classroom: Classroom) -> tornado.web.Application:
    args = {"classroom": classroom}
    return tornado.web.Application(
        [
            (r"/api/status", StatusHandler, args),
            (r"/api/tables", TablesHandler, args),
            (r"/api/tables/([0-9]+)/record", RecordHandler, args),
            (r"/api/tables/([0-9]+)/seats/([0-9]+)", SeatHandler, args),
            (r"/ws", SeatSocket, args),
        ],
        # bigger frames than this close the connection; ours (MAX_MESSAGE) get a clear error first
        websocket_max_message_size=max(MAX_MESSAGE * 8, 64 * 1024),
        # a ping every 10 s, the connection closed when its answer is 10 s late (Tornado takes no timeout
        # longer than the interval: 30 here was cut to 10 with a warning at every start)
        websocket_ping_interval=10,
        websocket_ping_timeout=10,
    )


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
) -> None:
    """Run a classroom server until cancelled (or SIGINT / SIGTERM). Port 0 picks a free port."""
    token = token or secrets.token_hex(24)
    store = Store(db, synchronous=synchronous)
    classroom = Classroom(store, token, rate=rate, burst=burst)
    timings = os.environ.get("QARDLAB_CLASSROOM_TIMINGS")  # benchmarks/classroom.py reads these
    if timings:
        classroom.timings = []
    app = make_app(classroom)
    server = tornado.httpserver.HTTPServer(app, max_body_size=MAX_BODY * 4)
    sockets = bind_sockets(port, host)
    server.add_sockets(sockets)
    real_port = sockets[0].getsockname()[1]
    classroom.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
            pass
    n = len(classroom.tables)
    ready(
        f"qardlab classroom server at http://{host}:{real_port}/ (database {db}, "
        f"{n} table{'' if n == 1 else 's'})"
    )
    ready(f"teacher token: {token}")
    try:
        await stop.wait()
    finally:
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

    asyncio.run(serve(host, port, db, token, ready=ready, **kwargs))

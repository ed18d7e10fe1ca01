"""The teacher's side of a classroom server, for a notebook: start a server, create tables, read them.

- :class:`LocalServer`: ``qardlab serve`` in a subprocess on this machine (the teacher's laptop, or
  a lesson run alone under nbval), stopped with ``stop()`` or at the end of a ``with`` block;
- :class:`Teacher`: the teacher's HTTP requests (``POST /api/tables`` and the rest of
  docs/classroom.md) with the token;
- :func:`side_by_side`: a finished table's record at every seat's view at once, one slider moving
  them all ("here is what each of you could have known after question 7").
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from .. import palette
from ..engine import Record
from ..render.markup import el, raw, to_html

__all__ = [
    "LocalServer",
    "ThreadServer",
    "Teacher",
    "TeacherError",
    "side_by_side",
    "codes_html",
    "join_sheet",
    "join_link",
]


def seat_names(game: str, players: int, options: Mapping[str, Any]) -> list[str]:
    """The seats' names of a table of ``game`` (its ``names`` option, else the game's own)."""
    from ..engine import find_game

    try:
        g = find_game(game)._blank(players, dict(options), None)
        return [g.seat_name(s) for s in range(players)]
    except (KeyError, ValueError, TypeError):
        return [f"seat {s}" for s in range(players)]


class TeacherError(RuntimeError):
    """The server refused a teacher's request (its error text)."""


class _Server:
    """What both ways of running a classroom server share: ``url`` and ``token`` read from the lines it
    prints as it starts, and a ``with`` block that stops it."""

    url: str
    token: str

    def _heard(self, line: str) -> None:
        """Take the address (``... at http://host:port/``) or the teacher's token from a line it printed."""
        m = re.search(r"at (http://[^/\s]+)/", line)
        if m:
            self.url = m.group(1)
        if line.startswith("teacher token:"):
            self.token = line.split(":", 1)[1].strip()

    def stop(self) -> None:  # pragma: no cover - each way of running it stops it its own way
        raise NotImplementedError

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class LocalServer(_Server):
    """``python -m qardlab serve`` in a subprocess; ``url`` and ``token`` once it is ready. It runs until
    ``stop()``, the end of a ``with`` block, or the exit of this process (a notebook's kernel shut down).

    ``db`` None: a file of its own in a temporary folder, removed at ``stop()``; ``sync`` (``qardlab serve
    --sync``) is then "normal" by default (it survives a killed server, not a power cut: the file would
    be gone anyway), else "full"."""

    def __init__(
        self,
        db: Optional[str] = None,
        host: str = "127.0.0.1",
        port: int = 0,
        token: Optional[str] = None,
        sync: Optional[str] = None,
        wait: bool = True,
    ) -> None:
        self._tmp = None
        if db is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="qardlab-classroom-")
            db = str(Path(self._tmp.name) / "classroom.db")
        self.db = db
        if sync is None:
            # a file of its own, deleted at stop(), need not survive a power cut: no disk sync per step
            sync = "normal" if self._tmp is not None else "full"
        args = [
            sys.executable,
            "-m",
            "qardlab",
            "serve",
            "--host",
            host,
            "--port",
            str(port),
            "--db",
            db,
            "--sync",
            sync,
        ]
        if token:
            args += ["--token", token]
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
        self.proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        self.url = self.token = ""
        self.log: list[str] = []
        self._started = time.monotonic()
        # it stops with the process that started it (a notebook's kernel shutting down) at the latest
        atexit.register(self.stop)
        if wait:
            self.ready()

    def ready(self) -> "LocalServer":
        """Wait until the server says where it listens and its token (``url``, ``token``); at once when it
        has. ``LocalServer(wait=False)`` returns as soon as the process is started, so that the caller can
        do something else meanwhile (the server takes about half a second to start), then calls this."""
        if self.token:
            return self
        lines = self.log
        deadline = self._started + 30
        while time.monotonic() < deadline and not self.token:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the classroom server stopped: " + "".join(lines))
            lines.append(line)
            self._heard(line)
        if not self.token:
            self.stop()
            raise RuntimeError("the classroom server did not start within 30 s")
        # what the server prints later (its warnings) is read into self.log, so a full pipe never blocks it
        threading.Thread(target=self._drain, daemon=True).start()
        return self

    def _drain(self) -> None:
        try:
            for line in self.proc.stdout:
                self.log.append(line)
        except (ValueError, OSError):  # closed by stop()
            pass

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self.proc.stdout:
            self.proc.stdout.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __repr__(self) -> str:
        return f"LocalServer({self.url}, {'running' if self.proc.poll() is None else 'stopped'})"


class ThreadServer(_Server):
    """The classroom server (``qardlab serve``'s: the same tables, store and web layer) in a thread of this
    process, on 127.0.0.1 and a free port, its tables in a file of its own in a temporary folder (synced
    "normal"), removed at ``stop()``. ``url`` and ``token`` once ``ready()``.

    For a practice table in a lesson run alone (:func:`qardlab.lessons.together.practice`): no process to
    start and nothing to import again (the kernel has loaded the games and Tornado already), and the seat's
    messages and the bots' replies go between two threads, not two processes (measured here: the practice
    game's start and play in 0.2-0.5 s where a subprocess took 0.6-2.2 s, the more so the busier the
    machine). Students' seats still join over a websocket and see only their own observations. It runs
    until ``stop()``, the end of a ``with`` block, or the exit of this process. What the server logs (a
    bot's failure) goes to ``log``, not to the notebook. :class:`LocalServer` is a server of its own process
    (the teacher's, which may outlive the notebook's work)."""

    def __init__(self, token: Optional[str] = None, wait: bool = True) -> None:
        self._tmp: Optional[tempfile.TemporaryDirectory] = tempfile.TemporaryDirectory(
            prefix="qardlab-classroom-"
        )
        self.db = str(Path(self._tmp.name) / "classroom.db")
        self.url = self.token = ""
        self.log: list[str] = []
        self._token = token
        self._ready = threading.Event()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._task: Optional[asyncio.Task] = None
        self._error: Optional[BaseException] = None
        self._handler = _ListHandler(self.log)
        for name in _SERVER_LOGGERS:  # the server's warnings kept here, not printed under a notebook's cell
            logging.getLogger(name).addHandler(self._handler)
        self._thread = threading.Thread(target=self._run, name="qardlab-classroom-server", daemon=True)
        self._thread.start()
        atexit.register(self.stop)
        if wait:
            self.ready()

    def _run(self) -> None:
        from .server import serve

        def said(text: str) -> None:
            self.log.append(text + "\n")
            self._heard(text)
            if self.token:
                self._ready.set()

        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._task = asyncio.current_task()
            await serve("127.0.0.1", 0, self.db, self._token, synchronous="normal", ready=said)

        try:
            asyncio.run(main())
        except asyncio.CancelledError:  # stop()
            pass
        except BaseException as e:  # noqa: BLE001 - said by ready(), in the caller's thread
            self._error = e
        finally:
            self._ready.set()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def ready(self) -> "ThreadServer":
        """Wait until the server listens (``url``, ``token``); at once when it does. RuntimeError when it
        stopped or did not start within 30 s."""
        if not self._ready.wait(30) or not self.token:
            error = self._error
            self.stop()
            raise RuntimeError(f"the classroom server did not start: {error or 'no answer within 30 s'}")
        return self

    def stop(self) -> None:
        loop, task = self._loop, self._task
        if loop is not None and task is not None and self._thread.is_alive():
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # its loop closed meanwhile
                pass
            self._thread.join(10)
        for name in _SERVER_LOGGERS:
            logging.getLogger(name).removeHandler(self._handler)
        if self._tmp is not None and not self._thread.is_alive():
            self._tmp.cleanup()
            self._tmp = None

    def __repr__(self) -> str:
        return f"ThreadServer({self.url}, {'running' if self.running else 'stopped'})"


#: the loggers of a classroom server (its own, and Tornado's)
_SERVER_LOGGERS = ("qardlab.classroom", "tornado")


class _ListHandler(logging.Handler):
    """Log records as lines into a list (a :class:`ThreadServer`'s ``log``)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record) + "\n")


class Teacher:
    """The teacher's requests to a server at ``url`` with ``token`` (see docs/classroom.md)."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url.rstrip("/"), token

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Authorization": f"token {self.token}"}
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raise TeacherError(json.loads(e.read()).get("error", str(e))) from None

    def create_table(
        self,
        game: str = "five_sons",
        players: int = 4,
        seed: Optional[int] = None,
        options: Optional[dict] = None,
        deal: Optional[dict] = None,
        bots: Optional[Mapping[int, str]] = None,
        pace: Optional[float] = None,
    ) -> dict:
        """A new table: ``{"table": id, "seats": [{"seat", "code", "bot", "name"}], "teacher": code}`` (the
        server's answer, with each seat's name added)."""
        body: dict[str, Any] = {
            "game": game,
            "players": players,
            "seed": seed,
            "options": options or {},
            "bots": {str(s): level for s, level in (bots or {}).items()},
        }
        if deal is not None:
            body["deal"] = deal
        if pace is not None:
            body["pace"] = pace
        answer = self._request("POST", "/api/tables", body)
        names = seat_names(game, players, options or {})
        for seat in answer.get("seats", []):  # the seats' names, for the join sheet (students know them)
            seat.setdefault("name", names[seat["seat"]] if seat["seat"] < len(names) else None)
        return answer

    def create_tables(
        self,
        count: int,
        game: str = "five_sons",
        players: int = 4,
        seed: Optional[int] = None,
        bots: Optional[Mapping[int, str]] = None,
        **kwargs: Any,
    ) -> list[dict]:
        """``count`` tables alike (table k seeded ``seed + k`` when a seed is given)."""
        return [
            self.create_table(game, players, None if seed is None else seed + k, bots=bots, **kwargs)
            for k in range(count)
        ]

    def tables(self) -> list[dict]:
        return self._request("GET", "/api/tables")["tables"]

    def record(self, table: int) -> Record:
        """A table's record (the engine's), to step through locally."""
        return Record.from_dict(self._request("GET", f"/api/tables/{int(table)}/record"))

    def set_bot(self, table: int, seat: int, level: Optional[str]) -> dict:
        """Hand a seat to a bot of ``level``, or back to a student (``None``: a new join code)."""
        return self._request("POST", f"/api/tables/{int(table)}/seats/{int(seat)}", {"bot": level})

    async def wait_over(self, tables: Sequence[int], timeout: float = 300.0, every: float = 0.2) -> None:
        """Wait (without blocking a notebook's event loop) until every table in ``tables`` is over."""
        end = time.monotonic() + timeout
        wanted = {int(t) for t in tables}
        while True:
            over = {t["table"] for t in self.tables() if t["is_over"]}
            if wanted <= over:
                return
            if time.monotonic() > end:
                raise TimeoutError(f"tables {sorted(wanted - over)} are not over after {timeout} s")
            await asyncio.sleep(every)


def codes_html(created: Sequence[dict], url: str = "") -> str:
    """The join codes of some tables as an HTML table, to show (or print) for the class."""
    width = max((len(t["seats"]) for t in created), default=0)
    head = el("tr", el("th"), [el("th", f"seat {s}") for s in range(width)], el("th", "teacher"))
    rows = [
        el(
            "tr",
            el("th", f"table {t['table']}"),
            [
                el("td", el("code", s["code"])) if s["code"] else el("td", f"bot: {s['bot']}")
                for s in t["seats"]
            ],
            el("td", el("code", t["teacher"])),
        )
        for t in created
    ]
    table = to_html(el("table", head, rows, cls="qard-codes"))
    return (to_html(el("p", "Server: ", el("code", url))) if url else "") + table


def join_link(app_url: str, server_url: str, code: str) -> str:
    """The address of the student's join page with the server and the code filled in."""
    from urllib.parse import urlencode

    return f"{app_url.rstrip('?')}?{urlencode({'server': server_url, 'code': code})}"


def _qr_svg(text: str) -> str:
    """A QR code of ``text`` as inline SVG, or "" when no light QR library (segno) is installed."""
    try:
        import segno
    except ImportError:
        return ""
    return segno.make(text, error="m").svg_inline(scale=3, border=2)


def join_sheet(created: Sequence[dict], server_url: str, app_url: Optional[str] = None) -> str:
    """The join codes of some tables as HTML, one card per student seat: the table, the seat's name, the
    code, and (with ``app_url``, the address of the Voila page ``app-classroom.ipynb`` as the students
    reach it) a link that opens the page with the code filled in, and its QR code when segno is
    installed (``pip install qardlab[classroom]``)."""
    cards = []
    for t in created:
        for s in t["seats"]:
            if not s["code"]:
                continue
            name = f"{s['name']} (seat {s['seat']})" if s.get("name") else f"seat {s['seat']}"
            link = join_link(app_url, server_url, s["code"]) if app_url else ""
            qr = _qr_svg(link) if link else ""
            cards.append(
                el(
                    "div",
                    el("b", f"table {t['table']}"),
                    f" · {name}",
                    el("br"),
                    el("code", s["code"], style={"font-size": "1.1em"}),
                    [el("br"), el("a", "open my seat", href=link, target="_blank")] if link else None,
                    el("br"),
                    raw(qr) if qr else None,
                    cls="qard-join-card",
                    style={
                        "display": "inline-block",
                        "border": f"1px solid {palette.GRID_LINE}",
                        "border-radius": "6px",
                        "padding": "6px",
                        "margin": "4px",
                        "text-align": "center",
                        "vertical-align": "top",
                    },
                )
            )
    where = el(
        "p", "Server: ", el("code", server_url), [" · join page: ", el("code", app_url)] if app_url else None
    )
    return to_html(el("div", where, cards, cls="qard-join-sheet"))


def side_by_side(
    record: Record,
    seats: Optional[Sequence[int]] = None,
    charts: bool = False,
    at: Optional[int] = None,
    interactive: bool = False,
) -> Any:
    """Every seat's view of a recorded game next to each other, one slider stepping them together.

    One column per seat: whose view it is, what that seat saw happen at this step, its own hand, and
    what it could know (Five Sons: its deduction grid; Hearts: its felt and card-counting grid), then
    its log. ``seats``: the seats shown (default all; ValueError naming them unless each is a seat, given
    once, and there is one: :func:`qardlab.widgets.replay.check_seats`, for both views alike). ``at``: the
    step shown first (default the last).

    By default each column is HTML drawn from that seat's observation at the step alone
    (:class:`qardlab.widgets.replay.SideBySide`: ``box.columns``, one level control for every Five Sons
    grid): light enough for a projector. ``interactive=True`` (or ``charts=True``): each column is part of
    an ordinary table locked to its seat (``box.tables``), its grid cells clickable ("why?"), its charts
    drawn; each table is drawn at ``at`` at once, not at the last step and then again. The table is the
    game's own (:func:`qardlab.widgets.table_class`: the generic table for a game that names none), and
    its ``seat_column`` gives the column, so a new game needs no change here."""
    if not isinstance(interactive, bool) or not isinstance(charts, bool):
        raise ValueError(f"interactive and charts must be True or False, not {interactive!r}, {charts!r}")
    if not (interactive or charts):
        from ..widgets.replay import SideBySide

        return SideBySide(record, seats=seats, at=at)

    import ipywidgets as widgets

    from ..engine import Timeline
    from ..widgets import GameTable, table_class
    from ..widgets.replay import check_seats, check_step, columns_classes

    cls = table_class(record)  # the game's own table (the generic one for a game that names none)
    if cls.seat_column is GameTable.seat_column:
        raise ValueError(
            f"no interactive side-by-side view of the game {record.game!r}: {cls.__name__} has no seat_column"
        )
    seats = check_seats(seats, record.players)
    first = Timeline(record)
    last = first.last
    check_step(at, last)  # (before the other seats' replays)
    timelines = [first, *(Timeline(record) for _ in seats[1:])]
    if at is not None:
        for tl in timelines:
            tl.go_to(at)
    tables = [cls(tl, seat=s, views=(s,), charts=charts) for tl, s in zip(timelines, seats)]
    slider = widgets.IntSlider(
        value=last if at is None else at,
        min=0,
        max=last,
        description="Step:",
        continuous_update=False,
        layout=widgets.Layout(width="40em"),
    )
    slider.add_class("qard-side-by-side-step")

    def moved(change: dict) -> None:
        for t in tables:
            t.timeline.go_to(change["new"])

    slider.observe(moved, names="value")
    columns = []
    for s, t in zip(seats, tables):
        head = widgets.HTML(to_html(el("h4", f"{t.names[s]}'s view", style={"margin": ".2em 0"})))
        col = widgets.VBox(
            [head, t.stepper.text, *t.seat_column(s, len(seats))],
            layout=widgets.Layout(
                width=f"{100 / len(seats):.2f}%",
                min_width="18em",
                padding="0 4px",
                border_right=f"1px solid {palette.RULE}",
            ),
        )
        col.add_class("qard-seat-column")
        columns.append(col)
    row = widgets.HBox(columns)  # as many abreast as the output area has room for (replay.columns_classes)
    for cls in columns_classes(len(seats)):
        row.add_class(cls)
    note = widgets.HTML(
        "<i>One column per seat, each only what that seat saw and could work out. "
        "Move the slider: every seat moves to the same step.</i>"
    )
    box = widgets.VBox([tables[0].css, slider, note, row])
    box.add_class("qard-side-by-side")
    box.tables = tables  # type: ignore[attr-defined]
    box.slider = slider  # type: ignore[attr-defined]
    return box

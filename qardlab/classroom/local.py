"""Running a classroom server from a notebook: in a subprocess (:class:`LocalServer`, the teacher's) or in a
thread of this process (:class:`ThreadServer`, a lesson's practice table). Both read the address and the
token from the lines the server prints, keep only the last :data:`LOG_LINES` lines of its log, and stop at
the end of a ``with`` block or of this process."""

from __future__ import annotations

import asyncio
import atexit
import collections
import logging
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Optional

from .logs import LogLimit
from .tokens import TOKEN_ENV

__all__ = ["LocalServer", "ThreadServer", "LOG_LINES", "TOKEN_ENV"]

#: the lines of a server's log kept in memory (``.log``): the last ones; a flood never fills the memory
LOG_LINES = 2000


class _Server:
    """What both ways of running a classroom server share: ``url`` and ``token`` read from the lines it
    prints as it starts, and a ``with`` block that stops it."""

    url: str
    token: str

    def _heard(self, line: str) -> None:
        """Take the address (``... at http://host:port/``) or the teacher's token from a line it printed."""
        m = re.search(r"at (http://\S+?)/? \(", line)  # (its prefix too, under --base-url)
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
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
        if token:  # in the environment: a --token argument would show in the process list
            env[TOKEN_ENV] = token
        self.proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        self.url = self.token = ""
        self.log: collections.deque[str] = collections.deque(maxlen=LOG_LINES)
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

    @property
    def running(self) -> bool:
        """Whether its process still runs."""
        return self.proc.poll() is None

    def __repr__(self) -> str:
        return f"LocalServer({self.url}, {'running' if self.running else 'stopped'})"


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
        self.log: collections.deque[str] = collections.deque(maxlen=LOG_LINES)
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

    def __init__(self, lines: Any) -> None:
        super().__init__(logging.WARNING)
        self.lines = lines
        self.addFilter(LogLimit())

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record) + "\n")

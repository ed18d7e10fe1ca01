"""Helpers of the classroom tests: a server in a subprocess, and websocket clients.

The server runs as ``sys.executable -m qardlab serve --port 0`` (a free port, read from what
it prints) with PYTHONPATH at this repository's root, on a database in the test's tmp folder,
so a test can SIGKILL it and start it again on the same file. Clients are synchronous
(websocket-client) and keep every frame they receive, for the scans.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator, Optional

import pytest

from qardlab.classroom.frames import apply_changes

websocket = pytest.importorskip("websocket")

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "teacher-token-for-tests"

#: a Five Sons deal (4 players, dealer 0: seat 1 asks first); seat 2 holds QC but not 8H
DEAL = {
    "hands": [
        ["JC", "KC", "JD", "AH", "2H"],
        ["QD", "KD", "JH", "3H", "4H"],
        ["QC", "9H", "QH", "5H", "6H"],
        ["KH", "JS", "QS", "7H", "8H"],
    ],
    "secret": ["KS", "TH"],
    "dealer": 0,
}


def ask(target: int, face: str, number: str) -> dict:
    return {"type": "ask", "target": target, "face": face, "number": number}


#: seat 1's first move under DEAL: seat 2, about the Q♣ and the 8♥
ASK = ask(2, "QC", "8H")


class ServerProcess:
    """``qardlab serve`` in a subprocess on 127.0.0.1 and a free port."""

    def __init__(
        self,
        db: Path,
        token: str = TOKEN,
        port: int = 0,
        args: tuple[str, ...] = (),
        preexec: Any = None,
    ) -> None:
        self.db, self.token, self.port = db, token, port
        self.args, self.preexec = args, preexec  # more arguments; what the child runs before the server
        self.proc: Optional[subprocess.Popen] = None
        self.url = ""
        self.start()

    def start(self) -> None:
        # the token in the environment, as a teacher should give it (an argument shows in the process list)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "QARDLAB_TOKEN": self.token}
        if not self.token:
            del env["QARDLAB_TOKEN"]
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qardlab",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--sync",
                "normal",
                *self.args,
            ],
            preexec_fn=self.preexec,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            cwd=str(ROOT),
        )
        self.lines: list[str] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server stopped: {''.join(self.lines)}")
            self.lines.append(line)
            m = re.search(r"at (http://127\.0\.0\.1:\d+)/", line)
            if m:
                self.url = m.group(1)
            if line.startswith("teacher token:"):
                printed = line.split(":", 1)[1].strip()
                assert printed == self.token or not self.token, (printed, self.token)
                self.token = printed  # (none given: the server's own, from --token-file)
                break
        else:
            raise RuntimeError("the server did not start within 30 s")
        # keep reading what the server prints, so that a full pipe never blocks its event loop
        threading.Thread(target=self._drain, args=(self.proc.stdout,), daemon=True).start()
        status, body = self.get("/api/status")
        assert status == 200 and body["status"] == "ready", body

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    def request(
        self, method: str, path: str, body: Any = None, token: Optional[str] = "", raw: Optional[bytes] = None
    ) -> tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method)
        token = self.token if token == "" else token
        if token is not None:
            req.add_header("Authorization", f"token {token}")
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path: str, token: Optional[str] = "") -> tuple[int, Any]:
        return self.request("GET", path, token=token)

    def create(self, **body: Any) -> dict[str, Any]:
        """``POST /api/tables``. The tests' clients play every step of their seats themselves, so a table made
        here gives students no standing orders unless the test says (``orders=...``); a class table's
        default, the game's recommended orders, is tested where it is asked for."""
        body.setdefault("orders", {})
        status, answer = self.request("POST", "/api/tables", body)
        assert status == 201, answer
        return answer

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def _drain(self, stream: Any) -> None:
        try:
            for line in stream:
                self.lines.append(line)
        except (ValueError, OSError):  # the stream was closed by stop()
            pass

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self.proc and self.proc.stdout:
            self.proc.stdout.close()

    def alive(self) -> bool:
        return self.proc.poll() is None


def run_async(coro: Any) -> Any:
    """``asyncio.run(coro)`` in a thread of its own. The browser tests' Playwright (its sync API) keeps an
    event loop running in the main thread for the whole session, where ``asyncio.run`` is refused."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


class Client:
    """One websocket client of a seat (or of the teacher), keeping every frame it receives."""

    def __init__(self, server: ServerProcess, code: Optional[str], frames: Optional[str] = None) -> None:
        """``frames``: None connects as a client of the protocol's first form (whole observations), "changes"
        asks for change frames after the first observation (what the package's own client does)."""
        self.server, self.code = server, code
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.obs: Optional[dict[str, Any]] = None
        #: the observation this client holds after each observation or change frame, in order
        self.states: list[dict[str, Any]] = []
        self.mode = frames
        self.seat: Any = "?"
        self._sent: list[float] = []  # when this client's last moves went out (see act)
        query = f"code={code}" + (f"&frames={frames}" if frames else "")
        self.ws = websocket.create_connection(f"{server.ws_url}/ws?{query}", timeout=15)

    def recv(self, timeout: float = 15) -> dict[str, Any]:
        """The next message, within ``timeout`` seconds in all: the server's pings (every 10 s) are
        answered here but do not extend the wait, so a stalled table fails the test instead of hanging it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise websocket.WebSocketTimeoutException(f"no message within {timeout} s")
            self.ws.settimeout(left)
            opcode, data = self.ws.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                raise ConnectionError("the server closed the connection")
            if opcode == websocket.ABNF.OPCODE_TEXT:
                text = data.decode("utf-8")
                break
        self.frames.append(text)
        msg = json.loads(text)
        if msg["type"] == "observation":
            self.obs, self.seat = msg["observation"], msg["seat"]
            self.states.append(self.obs)
        elif msg["type"] == "change":
            assert self.obs is not None and msg["seat"] == self.seat, msg
            self.obs = apply_changes(self.obs, msg)
            assert self.obs["step"] == msg["step"], msg
            self.states.append(self.obs)
        elif msg["type"] == "error":
            self.errors.append(msg["message"])
        return msg

    def wait_step(self, k: int) -> dict[str, Any]:
        while self.obs is None or self.obs["step"] < k:
            try:
                self.recv()
            except websocket.WebSocketTimeoutException:
                raise AssertionError(
                    f"seat {self.seat}: no observation of step {k}; errors {self.errors}"
                ) from None
        return self.obs

    def wait_error(self) -> str:
        n = len(self.errors)
        while len(self.errors) == n:
            self.recv()
        return self.errors[-1]

    def quiet(self, seconds: float = 0.3) -> list[str]:
        """Every frame that arrives within ``seconds`` (none expected, usually)."""
        got = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                self.recv(timeout=left)
                got.append(self.frames[-1])
            except websocket.WebSocketTimeoutException:
                break
        return got

    def send(self, text: str) -> None:
        self.ws.send(text)

    def act(self, action: Any, step: Optional[int] = None) -> None:
        """Send a move, keeping to the server's rate limit (10 messages a second) as a person would:
        a game played at full speed would otherwise be refused as a flood, as it should be."""
        msg: dict[str, Any] = {"type": "act", "action": action}
        if step is not None:
            msg["step"] = step
        now = time.monotonic()
        self._sent = [s for s in self._sent if now - s < 1.0]
        if len(self._sent) >= 9:
            time.sleep(1.0 - (now - self._sent[0]))
        self._sent.append(time.monotonic())
        self.send(json.dumps(msg))

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass


def free_port() -> int:
    """A port free now on 127.0.0.1 (for a server that must come back on the same address)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def five_sons_policy(rng: random.Random, claim_rate: float = 0.08):
    """A client's choice from its observation's JSON only: random questions, answers, rare claims."""

    def choose(obs: dict[str, Any]) -> Any:
        legal = obs["legal"]
        if obs["phase"] == "claim":
            claims = [a for a in legal if a["type"] == "claim"]
            return rng.choice(claims) if rng.random() < claim_rate else {"type": "no_claim"}
        return rng.choice(legal)

    return choose


def random_policy(rng: random.Random):
    return lambda obs: rng.choice(obs["legal"])


def play_out(clients: dict[int, Client], others: list[Client], choose, max_steps: int = 3000) -> list[Any]:
    """Every seat's client plays ``choose`` until the game is over; every client follows each step.

    Returns the actions sent, in order (the server deals between Hearts hands by itself).
    """
    sent = []
    everyone = [*clients.values(), *others]
    for _ in range(max_steps):
        obs = next(iter(clients.values())).obs
        if obs["is_over"]:
            return sent
        k, mover = obs["step"], obs["to_move"]
        if mover in clients:
            action = choose(clients[mover].obs)
            clients[mover].act(action, step=k)
            sent.append(action)
        try:
            for c in everyone:
                c.wait_step(k + 1)
        except AssertionError as e:
            told = {s: c.errors[-3:] for s, c in clients.items() if c.errors}
            raise AssertionError(
                f"{e}; step {k}, {obs.get('phase')}, seat {mover} to move; refusals told to seats: {told}"
            ) from None
    raise AssertionError(f"the game did not end within {max_steps} steps")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path / "classroom.db")
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def connect(server: ServerProcess):
    opened: list[Client] = []

    def make(code: Optional[str], frames: Optional[str] = None) -> Client:
        c = Client(server, code, frames)
        opened.append(c)
        return c

    yield make
    for c in opened:
        c.close()

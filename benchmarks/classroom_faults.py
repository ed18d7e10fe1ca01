"""What a fault or a hostile script does to a classroom server, before and after issue 25, in one run.

Each scenario runs against ``python -m qardlab serve`` in a subprocess, once on this tree and once on an
older commit (``--baseline REF``, default the commit before issue 25's work), round after round:

- **lock**: another program holds the database's write lock for ``--lock`` seconds while a move is made at
  one table: how long ``GET /api/status`` takes meanwhile, and whether the move is stored and told once the
  lock goes (or undone: "could not store");
- **flood**: the seat to move sends ``--flood`` illegal moves for the current step as fast as it can: how
  many the server answered with the engine's refusal (each one a full check), and how long a move at
  another table then takes to be told;
- **half-open**: the server may hold 256 files; a script opens 400 connections from 127.0.0.2 and sends
  nothing: whether ``GET /api/status`` from 127.0.0.1 answers within 5 s, and how many bytes of log the
  server writes in the next ``--watch`` seconds.

Figures are printed as a table of medians over the rounds; nothing is asserted.

    python benchmarks/classroom_faults.py [--rounds 2] [--baseline 43a5597]
"""

from __future__ import annotations

import json
import os
import resource
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _baseline import checkout  # noqa: E402

TOKEN = "benchmark-token"
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
ASK = {"type": "ask", "target": 2, "face": "QC", "number": "8H"}


class Server:
    def __init__(self, tree: Path, db: Path, files: int | None = None) -> None:
        env = {**os.environ, "PYTHONPATH": str(tree), "QARDLAB_TOKEN": TOKEN}

        def limit() -> None:
            if files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qardlab",
                "serve",
                "--port",
                "0",
                "--db",
                str(db),
                "--token",
                TOKEN,
                "--sync",
                "normal",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=str(tree),
            preexec_fn=limit,
        )
        self.log_bytes = 0
        self.url = ""
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace")
            if " at http://" in line:
                self.url = line.split(" at ")[1].split("/ ")[0].rstrip("/")
            if line.startswith("teacher token"):
                break
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for raw in self.proc.stdout:
            self.log_bytes += len(raw)

    def request(self, method: str, path: str, body=None, timeout: float = 30) -> tuple[int, dict]:
        req = urllib.request.Request(
            self.url + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Authorization": f"token {TOKEN}"},
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def seat(server: Server, code: str):
    import websocket

    ws = websocket.create_connection(f"{server.url.replace('http', 'ws')}/ws?code={code}", timeout=30)
    return ws


def until(ws, pred, timeout: float = 30.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ws.settimeout(max(0.05, end - time.monotonic()))
        msg = json.loads(ws.recv())
        if pred(msg):
            return msg
    raise TimeoutError


def lock(tree: Path, hold: float) -> dict:
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "c.db"
        server = Server(tree, db)
        try:
            made = server.request(
                "POST", "/api/tables", {"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0}
            )[1]
            ws = seat(server, made["seats"][1]["code"])
            until(ws, lambda m: m["type"] == "observation")
            other = sqlite3.connect(db, isolation_level=None, timeout=0, check_same_thread=False)
            other.execute("BEGIN IMMEDIATE")
            released = time.monotonic() + hold
            threading.Timer(hold, lambda: (other.execute("ROLLBACK"), other.close())).start()
            ws.send(json.dumps({"type": "act", "action": ASK, "step": 1}))
            time.sleep(0.2)
            t0 = time.monotonic()
            server.request("GET", "/api/status")
            status = time.monotonic() - t0
            msg = until(ws, lambda m: m["type"] == "observation" or m["type"] == "error", timeout=hold + 30)
            stored = msg["type"] == "observation" and msg["observation"]["step"] == 2
            told_after_release = time.monotonic() - released
            ws.close()
            return {"status_s": status, "stored": stored, "told_after_release_s": told_after_release}
        finally:
            server.stop()


def flood(tree: Path, n: int) -> dict:
    with tempfile.TemporaryDirectory() as d:
        server = Server(tree, Path(d) / "c.db")
        try:
            one = server.request(
                "POST", "/api/tables", {"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0}
            )[1]
            two = server.request(
                "POST", "/api/tables", {"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0}
            )[1]
            mover, elsewhere = seat(server, one["seats"][1]["code"]), seat(server, two["seats"][1]["code"])
            for ws in (mover, elsewhere):
                until(ws, lambda m: m["type"] == "observation")
            bad = json.dumps({"type": "act", "action": {**ASK, "target": 1}, "step": 1})
            got = {"refused": 0}
            done = threading.Event()

            def read() -> None:
                mover.settimeout(3)
                try:
                    while True:
                        m = json.loads(mover.recv())
                        if m["type"] == "error" and not m["message"].startswith("too many"):
                            got["refused"] += 1
                except Exception:  # noqa: BLE001 - the end of the answers
                    done.set()

            threading.Thread(target=read, daemon=True).start()
            for _ in range(n):
                mover.send(bad)
            t0 = time.monotonic()
            elsewhere.send(json.dumps({"type": "act", "action": ASK, "step": 1}))
            until(
                elsewhere, lambda m: m["type"] == "observation" and m["observation"]["step"] == 2, timeout=120
            )
            other_move = time.monotonic() - t0
            done.wait(60)
            return {"processed": got["refused"], "other_table_move_s": other_move}
        finally:
            server.stop()


def half_open(tree: Path, watch: float) -> dict:
    with tempfile.TemporaryDirectory() as d:
        server = Server(tree, Path(d) / "c.db", files=256)
        socks = []
        try:
            host, port = server.url.split("//")[1].split(":")
            for _ in range(400):
                s = socket.socket()
                s.bind(("127.0.0.2", 0))
                s.settimeout(5)
                try:
                    s.connect((host, int(port)))
                except OSError:
                    pass
                socks.append(s)
            before = server.log_bytes
            t0 = time.monotonic()
            try:
                ok = server.request("GET", "/api/status", timeout=5)[0] == 200
            except (OSError, urllib.error.URLError):
                ok = False
            status = time.monotonic() - t0
            time.sleep(watch)
            return {"status_ok": ok, "status_s": status, "log_bytes": server.log_bytes - before}
        finally:
            for s in socks:
                s.close()
            server.stop()


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--baseline", default="43a5597")
    ap.add_argument("--lock", type=float, default=3.0)
    ap.add_argument("--flood", type=int, default=3000)
    ap.add_argument("--watch", type=float, default=10.0)
    args = ap.parse_args()
    trees = {"before": checkout(args.baseline), "after": ROOT}
    results: dict[str, dict[str, list[dict]]] = {k: {"lock": [], "flood": [], "half_open": []} for k in trees}
    for r in range(args.rounds):
        for name, tree in trees.items():
            results[name]["lock"].append(lock(tree, args.lock))
            results[name]["flood"].append(flood(tree, args.flood))
            results[name]["half_open"].append(half_open(tree, args.watch))
            print(
                f"round {r + 1} {name}: {json.dumps({k: v[-1] for k, v in results[name].items()})}",
                flush=True,
            )
    print(f"\n{'figure':58} {'before':>12} {'after':>12}")

    def med(name: str, scenario: str, key: str) -> float:
        return statistics.median(float(x[key]) for x in results[name][scenario])

    rows = [
        (f"lock {args.lock:g} s: GET /api/status during it (s)", "lock", "status_s"),
        ("lock: the move stored and told (share of rounds)", "lock", "stored"),
        ("lock: told after the lock went (s)", "lock", "told_after_release_s"),
        (f"flood of {args.flood} illegal moves: answered in full", "flood", "processed"),
        ("flood: a move at another table told after (s)", "flood", "other_table_move_s"),
        ("400 half-open at 256 files: status answered (share)", "half_open", "status_ok"),
        ("half-open: status took (s)", "half_open", "status_s"),
        (f"half-open: log bytes in the next {args.watch:g} s", "half_open", "log_bytes"),
    ]
    for label, scenario, key in rows:
        print(f"{label:58} {med('before', scenario, key):12.3f} {med('after', scenario, key):12.3f}")


if __name__ == "__main__":
    main()

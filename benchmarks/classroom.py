"""A class of 150 at one classroom server: 30 tables of 5, every seat a websocket client.

The server runs as ``python -m qardlab serve`` in a subprocess (as a teacher would run it).
Every seat's client is a bot (the games' own bot classes, given the observation the client
received) that moves the moment its observation says it is to move, so the tables play at
full speed. For each accepted step the server's database says when it was accepted; each
client notes when the observation of that step reached it. Prints the p50 / p95 / max time
from an accepted action to the *last* seat of its table receiving its observation, the
steps played a second, and the server's memory (resident, and its peak). Target: p95 under
100 ms on this machine.

    python benchmarks/classroom.py [--tables 30] [--players 5] [--game five_sons] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qardlab.engine import Game, Observation, RandomBot  # noqa: E402
from qardlab.games.five_sons import RandomAsker  # noqa: E402
from qardlab.games.hearts import Hearts  # noqa: E402,F401  (registers the game)

TOKEN = "benchmark"
#: a client reads these three fields of every frame (the rest only when it is to move)
FIELDS = re.compile(
    r'"type":"observation".*?"step":(?P<step>\d+).*?"to_move":(?P<to_move>-?\d+|null)'
    r'.*?"is_over":(?P<over>true|false)',
    re.S,
)


def start_server(db: Path, sync: str, timings: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QARDLAB_CLASSROOM_TIMINGS": str(timings)}
    proc = subprocess.Popen(
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
            sync,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    url = ""
    for line in proc.stdout:
        m = re.search(r"at (http://127\.0\.0\.1:\d+)/", line)
        if m:
            url = m.group(1)
        if line.startswith("teacher token:"):
            return proc, url
    raise RuntimeError("the server did not start")


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(
        url + "/api/tables",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"token {TOKEN}"},
    )
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kib(pid: int) -> tuple[int, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


class Seat:
    """A seat's client: a bot that acts on the observations it receives; notes when each arrived."""

    def __init__(self, game: Game, table: int, seat: int, seed: int) -> None:
        self.game, self.table, self.seat = game, table, seat
        self.bot = RandomAsker(seed) if game.name == "five_sons" else RandomBot(seed)
        self.arrived: dict[int, float] = {}
        self.over = False

    async def run(self, url: str, code: str, deadline: float) -> None:
        ws = await websocket_connect(f"{url.replace('http', 'ws')}/ws?code={code}")
        ws.stream.set_nodelay(True)  # small frames go out at once (no Nagle wait for an ACK)
        acted = -1
        while time.monotonic() < deadline:
            text = await ws.read_message()
            if text is None:
                break
            now = time.time()
            head = FIELDS.search(text)  # the observation's own step, to_move, is_over come first
            if head is None:
                raise RuntimeError(f"table {self.table} seat {self.seat}: {text[:300]}")
            k = int(head["step"])
            self.arrived.setdefault(k, now)
            if head["over"] == "true":
                self.over = True
                break
            if head["to_move"] == str(self.seat) and k > acted:  # only the mover reads it all
                obs = json.loads(text)["observation"]
                legal = [self.game.action_from_json(a) for a in obs["legal"]]
                action = self.bot.act(Observation({**obs, "legal": legal}))
                acted = obs["step"]
                ws.write_message(
                    json.dumps(
                        {"type": "act", "action": self.game.action_to_json(action), "step": obs["step"]}
                    )
                )
        ws.close()


async def class_of(url: str, tables: int, players: int, game: str, seconds: float) -> list[Seat]:
    seats, tasks = [], []
    deadline = time.monotonic() + seconds
    proto = Game.registry[game]._blank(players, {}, None)
    answers = [
        post(
            url,
            {
                "game": game,
                "players": players,
                "seed": 1000 + t,
                "pace": 0,
                "options": {"single": True} if game == "hearts" else {},
                "orders": {},  # every seat's client plays all its steps (no standing orders at the server)
            },
        )
        for t in range(tables)
    ]
    for answer in answers:
        for s in answer["seats"]:
            seat = Seat(proto, answer["table"], s["seat"], answer["table"] * 10 + s["seat"])
            seats.append(seat)
            tasks.append(seat.run(url, s["code"], deadline))
    await asyncio.gather(*tasks)
    return seats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--game", default="five_sons", choices=("five_sons", "hearts"))
    parser.add_argument("--seconds", type=float, default=30.0, help="stop the class after this long")
    parser.add_argument("--sync", default="full", choices=("full", "normal"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        timing_file = Path(tmp) / "timings.json"
        proc, url = start_server(db, args.sync, timing_file)
        try:
            rss0, _ = memory_kib(proc.pid)
            cpu0, mine0 = cpu_seconds(proc.pid), time.process_time()
            t0 = time.monotonic()
            seats = asyncio.run(class_of(url, args.tables, args.players, args.game, args.seconds))
            wall = time.monotonic() - t0
            cpu, mine = cpu_seconds(proc.pid) - cpu0, time.process_time() - mine0
            rss, peak = memory_kib(proc.pid)
        finally:
            proc.terminate()
            proc.wait(30)
        told = sorted((t - a) * 1000 for _table, _n, a, t in json.loads(timing_file.read_text()))
        db_conn = sqlite3.connect(db)
        accepted = {(t, n): at for t, n, at in db_conn.execute("SELECT table_id, n, accepted FROM steps")}
        by_table: dict[int, list[Seat]] = {}
        for s in seats:
            by_table.setdefault(s.table, []).append(s)
        lat = []
        for table, group in by_table.items():
            n = 1
            while (table, n) in accepted:
                times = [s.arrived.get(n + 1) for s in group]
                if all(t is not None for t in times):
                    lat.append((max(times) - accepted[table, n]) * 1000)
                n += 1
    lat.sort()
    over = sum(1 for t in by_table.values() if all(s.over for s in t))
    print(
        f"{args.tables} tables of {args.players} ({args.game}), {len(seats)} websocket clients, "
        f"bots at full speed, SQLite synchronous={args.sync}"
    )
    print(f"steps measured: {len(lat)} in {wall:.1f} s ({len(lat) / wall:.0f} steps/s); tables over: {over}")
    if lat:
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        print(
            f"accepted action -> last seat of its table has the observation: p50 "
            f"{statistics.median(lat):.1f} ms, p95 {p95:.1f} ms, max {lat[-1]:.1f} ms "
            "(target p95 < 100 ms)"
        )
    if told:
        print(
            f"of which in the server, accepted -> committed and every frame written: p50 "
            f"{statistics.median(told):.1f} ms, p95 {told[int(0.95 * (len(told) - 1))]:.1f} ms, "
            f"max {told[-1]:.1f} ms"
        )
    print(
        f"CPU per step: server {1000 * cpu / max(1, len(lat)):.1f} ms, the 150 clients (bots included) "
        f"{1000 * mine / max(1, len(lat)):.1f} ms; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    print(
        f"server memory: {rss0 / 1024:.0f} MiB at start, {rss / 1024:.0f} MiB at the end, "
        f"peak {peak / 1024:.0f} MiB"
    )


if __name__ == "__main__":
    main()

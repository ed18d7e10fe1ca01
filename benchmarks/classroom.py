"""A class at one classroom server: 30 tables, every seat a websocket client, moves offered at a set rate.

The server runs as ``python -m qardlab serve`` in a subprocess (as a teacher would run it), pinned to one
core (the clients to the other). Every seat's client is a bot (the games' own bot classes, given the
observation the client holds) that moves when its observation says so, at the offered rate: a class-wide
pacer lets one move go every 1/RATE seconds (0: as fast as the tables go). For each accepted step the
server's database says when it was accepted; each client notes when the frame of that step reached it.

Printed per offered rate: the moves played a second, the p50 / p95 / max time from an accepted move to the
*last* seat of its table holding that step, the server's CPU per move, and the frames' sizes (median, p95;
and the median late in a Hearts match: from step 300 on, about the sixth hand). Target: at most 4 KiB
median frame late in a Hearts match, and p95 under 100 ms at 1,000 moves a second on one core.

The clients ask for change frames (``frames=changes``, issue 27 item 7) and take whole observations too,
so ``--baseline REF`` runs the same class against the server of commit REF (whole observations only), in the
same run, round after round with the new one.

    python benchmarks/classroom.py [--tables 30] [--players 4] [--game hearts] [--seconds 20]
        [--rates 330,1000] [--rounds 1] [--baseline REF]
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
from typing import Any, Optional

from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import _baseline  # noqa: E402

from qardlab.engine import Game, Observation, RandomBot  # noqa: E402
from qardlab.games.five_sons import RandomAsker  # noqa: E402
from qardlab.games.hearts import Hearts  # noqa: E402,F401  (registers the game)

TOKEN = "benchmark"
#: "late in a Hearts match": frames of step 300 on (the sixth hand of a match of four, about)
LATE_STEP = 300
#: a whole observation's first fields (a client reads the rest only when it is to move)
FIELDS = re.compile(
    r'"type":"observation".*?"step":(?P<step>\d+).*?"to_move":(?P<to_move>-?\d+|null)'
    r'.*?"is_over":(?P<over>true|false)',
    re.S,
)


def start_server(db: Path, sync: str, timings: Path, code: Optional[Path]) -> tuple[subprocess.Popen, str]:
    path = str(code) if code is not None else str(ROOT)
    env = {**os.environ, "PYTHONPATH": path, "QARDLAB_CLASSROOM_TIMINGS": str(timings)}
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
        cwd=path,
    )
    url = ""
    for line in proc.stdout:
        m = re.search(r"at (http://127\.0\.0\.1:\d+)/", line)
        if m:
            url = m.group(1)
        if line.startswith("teacher token:"):
            return proc, url
    raise RuntimeError("the server did not start")


def post(url: str, body: dict, path: str = "/api/tables") -> dict:
    req = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"token {TOKEN}"},
    )
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def listing(url: str) -> list[dict]:
    req = urllib.request.Request(url + "/api/tables", headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())["tables"]


def warm_up(url: str, tables: int, players: int, game: str, steps: int) -> list[dict]:
    """Tables whose seats bots play (at a pace of 0.05 s) until each is ``steps`` in, then handed to the
    students (a new code a seat): the class starts late in its matches. Returns each table's seats."""
    made = [
        post(
            url,
            {
                "game": game,
                "players": players,
                "seed": 1000 + t,
                "pace": 0.05,
                "orders": {},
                "bots": {str(s): "random" for s in range(players)},
            },
        )
        for t in range(tables)
    ]
    waiting = {t["table"] for t in made}
    seats: dict[int, list[dict]] = {}
    deadline = time.monotonic() + 300
    while waiting and time.monotonic() < deadline:
        for t in listing(url):
            if t["table"] in waiting and (t["step"] >= steps or t["is_over"]):
                waiting.discard(t["table"])
                seats[t["table"]] = [
                    {"seat": s, **post(url, {"bot": None}, f"/api/tables/{t['table']}/seats/{s}")}
                    for s in range(players)
                ]
        time.sleep(0.05)
    return [{"table": t, "seats": seats[t]} for t in sorted(seats)]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Pacer:
    """One move of the class every ``1/rate`` seconds (rate 0: no waiting): the offered load."""

    def __init__(self, rate: float) -> None:
        self.gap = 1.0 / rate if rate else 0.0
        self.next = time.monotonic()

    async def slot(self) -> None:
        if not self.gap:
            return
        now = time.monotonic()
        at = max(self.next, now)
        self.next = at + self.gap
        if at > now:
            await asyncio.sleep(at - now)


class Seat:
    """A seat's client: holds its observation (whole frames, or change frames applied), acts on it."""

    def __init__(self, game: Game, table: int, seat: int, seed: int) -> None:
        self.game, self.table, self.seat = game, table, seat
        self.bot = RandomAsker(seed) if game.name == "five_sons" else RandomBot(seed)
        self.arrived: dict[int, float] = {}
        self.sizes: list[tuple[int, int]] = []  # (step, bytes) of every frame after the first
        self.over = False
        self.obs: Optional[dict] = None

    def _take(self, text: str) -> tuple[int, Any, bool]:
        """(step, to_move, over) of a frame; the observation kept up to date."""
        if text.startswith('{"type":"change"'):
            msg = json.loads(text)
            if self.obs is None:
                self.obs = json.loads(self._text)["observation"]
            obs = self.obs
            for key in msg.get("drop", ()):
                obs.pop(key, None)
            obs.update(msg["set"])
            for key, items in msg["add"].items():
                obs[key].extend(items)
            return obs["step"], obs["to_move"], obs["is_over"]
        head = FIELDS.search(text)
        if head is None:
            raise RuntimeError(f"table {self.table} seat {self.seat}: {text[:300]}")
        self.obs = None  # read in full only when this seat moves
        self._text = text
        to_move = None if head["to_move"] == "null" else int(head["to_move"])
        return int(head["step"]), to_move, head["over"] == "true"

    async def run(self, url: str, code: str, deadline: float, pacer: Pacer) -> None:
        ws = await websocket_connect(f"{url.replace('http', 'ws')}/ws?code={code}&frames=changes")
        ws.stream.set_nodelay(True)  # small frames go out at once (no Nagle wait for an ACK)
        acted, first = -1, True
        while time.monotonic() < deadline:
            text = await ws.read_message()
            if text is None:
                break
            now = time.time()
            if text.startswith('{"type":"error"'):
                raise RuntimeError(f"table {self.table} seat {self.seat}: {text[:300]}")
            if text.startswith('{"type":"orders"'):
                continue
            k, to_move, over = self._take(text)
            if not first:
                self.sizes.append((k, len(text)))
            first = False
            self.arrived.setdefault(k, now)
            if over:
                self.over = True
                break
            if to_move == self.seat and k > acted:
                if self.obs is None:
                    self.obs = json.loads(self._text)["observation"]
                obs = self.obs
                legal = [self.game.action_from_json(a) for a in obs["legal"]]
                action = self.bot.act(Observation({**obs, "legal": legal}))
                acted = k
                await pacer.slot()
                ws.write_message(
                    json.dumps({"type": "act", "action": self.game.action_to_json(action), "step": k})
                )
        ws.close()


async def class_of(
    url: str, answers: list[dict], players: int, game: str, seconds: float, rate: float
) -> list[Seat]:
    seats, tasks = [], []
    deadline = time.monotonic() + seconds
    proto = Game.registry[game]._blank(players, {}, None)
    pacer = Pacer(rate)
    for answer in answers:
        for s in answer["seats"]:
            seat = Seat(proto, answer["table"], s["seat"], answer["table"] * 10 + s["seat"])
            seats.append(seat)
            tasks.append(seat.run(url, s["code"], deadline, pacer))
    await asyncio.gather(*tasks)
    return seats


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


def one_class(args: argparse.Namespace, rate: float, code: Optional[Path]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        timing_file = Path(tmp) / "timings.json"
        proc, url = start_server(db, args.sync, timing_file, code)
        try:
            try:  # the server on one core, the clients on the other
                os.sched_setaffinity(proc.pid, {0})
                os.sched_setaffinity(0, {1} if os.cpu_count() and os.cpu_count() > 1 else {0})
            except (AttributeError, OSError):
                pass
            if args.late:
                answers = warm_up(url, args.tables, args.players, args.game, args.late)
            else:
                answers = [
                    post(
                        url,
                        {
                            "game": args.game,
                            "players": args.players,
                            "seed": 1000 + t,
                            "pace": 0,
                            "orders": {},
                        },
                    )
                    for t in range(args.tables)
                ]
            cpu0 = cpu_seconds(proc.pid)
            t0 = time.monotonic()
            seats = asyncio.run(class_of(url, answers, args.players, args.game, args.seconds, rate))
            wall = time.monotonic() - t0
            cpu = cpu_seconds(proc.pid) - cpu0
        finally:
            proc.terminate()
            proc.wait(30)
        con = sqlite3.connect(db)
        accepted = {(t, n): at for t, n, at in con.execute("SELECT table_id, n, accepted FROM steps")}
        con.close()
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
    sizes = [b for s in seats for _k, b in s.sizes]
    over = {t for t, g in by_table.items() if all(s.over for s in g)}
    late = [b for s in seats for k, b in s.sizes if k >= LATE_STEP]
    return {
        "moves_per_s": len(lat) / wall,
        "p50": statistics.median(lat) if lat else float("nan"),
        "p95": pct(lat, 0.95),
        "max": max(lat) if lat else float("nan"),
        "cpu_ms": 1000 * cpu / max(1, len(lat)),
        "frame_median": statistics.median(sizes) if sizes else float("nan"),
        "frame_p95": pct(sizes, 0.95),
        "late_median": statistics.median(late) if late else float("nan"),
        "tables_over": len(over),
    }


def main() -> None:
    ap = _baseline.parser(__doc__.splitlines()[0], rounds=1, baseline="server is measured")
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", default="hearts", choices=("five_sons", "hearts"))
    ap.add_argument("--seconds", type=float, default=20.0, help="stop the class after this long")
    ap.add_argument(
        "--rates", default="330,1000", help="offered moves a second, comma-separated (0: flat out)"
    )
    ap.add_argument("--sync", default="normal", choices=("full", "normal"))
    ap.add_argument(
        "--late",
        type=int,
        default=LATE_STEP,
        help="bots play each table this many steps in before the students take the seats (0: from the deal)",
    )
    args = ap.parse_args()
    rates = [float(r) for r in args.rates.split(",")]
    codes: list[tuple[str, Optional[Path]]] = [("new", None)]
    if args.baseline:
        codes.insert(0, (f"old ({args.baseline})", _baseline.checkout(args.baseline)))
    results: dict[tuple[str, float], list[dict]] = {}
    for _round in range(args.rounds):
        for rate in rates:
            for name, code in codes:  # old and new, one after the other, every round
                results.setdefault((name, rate), []).append(one_class(args, rate, code))
    print(
        f"{args.tables} tables of {args.players} ({args.game}, whole matches, the students from step "
        f"{args.late} on), {args.tables * args.players} "
        f"websocket clients, {args.seconds:g} s a class, server on one core, SQLite synchronous={args.sync}, "
        f"{args.rounds} round(s); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        "| server | offered moves/s | played moves/s | p50 ms | p95 ms | max ms | server CPU ms/move | "
        "frame median B | frame p95 B | late-match frame median B | tables over |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for rate in rates:
        for name, _code in codes:
            runs = results[(name, rate)]
            med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            print(
                f"| {name} | {rate:g} | {med['moves_per_s']:.0f} | {med['p50']:.1f} | {med['p95']:.1f} | "
                f"{med['max']:.0f} | {med['cpu_ms']:.2f} | {med['frame_median']:.0f} | "
                f"{med['frame_p95']:.0f} | "
                f"{med['late_median']:.0f} | {med['tables_over']:.0f} |"
            )
    print("targets: late-match frame median <= 4096 B; p95 < 100 ms at 1,000 moves a second")


if __name__ == "__main__":
    main()

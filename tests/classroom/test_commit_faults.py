"""Issue 25, section 3: a commit that fails never freezes a table, another program's lock never holds up the
server, a full disk loses no accepted move.

Before: a failed commit undid the step and scheduled nothing, so a table whose next move was a bot's or a
deal stood still for good; a DB browser's write lock held the event loop about 5 s per commit attempt
(``/api/status`` and the other tables waited 7.6 s) and the move was then undone. Now a refused commit is
kept and tried again, and if it is given up, what was due is scheduled again; the store waits 20 ms at
most for a lock, so the loop serves everyone meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sqlite3
import threading
import time

import pytest
from conftest import ASK, DEAL, Client, ServerProcess, run_async

from qardlab.classroom import commits
from qardlab.classroom.store import Store
from qardlab.classroom.tables import Classroom


class FailingStore(Store):
    """A store whose commits of steps fail while ``failing(rows)`` says so (the seam of a fault)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.failing = lambda rows: False
        self.refused = 0

    def add_steps(self, steps) -> None:
        if self.failing(steps):
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")
        super().add_steps(steps)


class Conn:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        pass


async def until(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.02)


def test_a_bots_move_refused_for_good_is_scheduled_again_and_the_table_goes_on(tmp_path, monkeypatch) -> None:
    """Five Sons, a bot to ask first: its move cannot be stored (every try), so it is undone, and the bot
    moves again later; once the disk takes writes again the table plays on by itself."""
    monkeypatch.setattr(commits, "RETRY_FAULT", (0.01, 0.01))
    monkeypatch.setattr(commits, "LOST_PAUSE", 0.02)

    async def main() -> None:
        store = FailingStore(tmp_path / "b.db")
        room = Classroom(store, "token")
        made = room.create(
            {"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0, "bots": {"1": "logic"}}
        )
        table = room.tables[made["table"]]
        watch = Conn()
        room.connect(watch, made["teacher"])
        store.failing = lambda rows: True
        await until(lambda: store.refused >= 9)  # three bot moves, each tried three times, each undone
        assert table.told.step == 1 and table.game.step in (1, 2)
        assert sum("could not store" in m.get("message", "") for m in watch.sent) >= 2
        store.failing = lambda rows: False
        await until(lambda: table.told.step == 2)  # the bot's question, stored and told at last
        assert (
            watch.sent[-1]["observation"]["step"] == 2 and watch.sent[-1]["observation"]["phase"] == "answer"
        )
        room.close()

    run_async(main())


def test_a_deal_refused_between_hearts_hands_comes_again(tmp_path, monkeypatch) -> None:
    """Hearts, four bots: the deal of the second hand cannot be stored; it is undone and dealt again until it
    can be, and the match goes on (before, the table stood still at "hand over" for good)."""
    monkeypatch.setattr(commits, "RETRY_FAULT", (0.01,))
    monkeypatch.setattr(commits, "LOST_PAUSE", 0.02)

    async def main() -> None:
        store = FailingStore(tmp_path / "h.db")
        room = Classroom(store, "token")
        made = room.create(
            {"game": "hearts", "players": 4, "pace": 0, "bots": {str(s): "random" for s in range(4)}}
        )
        table = room.tables[made["table"]]
        deals = lambda rows: any(isinstance(a, dict) and "deal" in a for _t, _n, a, _s, _at in rows)  # noqa: E731
        store.failing = deals
        await until(lambda: store.refused >= 3, timeout=60)
        told = table.told
        assert told.phase == "hand_over" and told.hand_no == 0  # the first hand played out; no second yet
        store.failing = lambda rows: False
        await until(lambda: table.told.hand_no == 1 and table.told.step > told.step + 5, timeout=60)
        room.close()

    run_async(main())


def test_another_programs_write_lock_holds_up_nothing_and_loses_nothing(tmp_path) -> None:
    """A DB browser holds the file's write lock for 1.5 s while moves are made at two tables: the server
    answers ``/api/status`` and new windows meanwhile, and once the lock goes both moves are stored and
    told, with no "could not store" and nothing lost."""
    db = tmp_path / "class.db"
    server = ServerProcess(db)
    opened = []
    try:
        one = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
        two = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
        a, b = Client(server, one["seats"][1]["code"]), Client(server, two["seats"][1]["code"])
        opened += [a, b]
        a.wait_step(1)
        b.wait_step(1)
        browser = sqlite3.connect(db, isolation_level=None)
        browser.execute("BEGIN IMMEDIATE")  # the other program's write lock
        try:
            a.act(ASK, step=1)
            b.act(ASK, step=1)
            status, body = server.get("/api/status")
            assert status == 200 and body["tables"] == 2  # answered while the lock is held
            late = Client(server, one["seats"][0]["code"])  # and a new window is served its observation
            opened.append(late)
            assert late.wait_step(1)["step"] == 1
            made: list = []  # the teacher creates a table meanwhile: it waits for the lock, off the loop
            creating = threading.Thread(
                target=lambda: made.append(server.request("POST", "/api/tables", {"game": "hearts"}))
            )
            creating.start()
            assert a.quiet(1.0) == []  # nobody is told of a move that is not stored yet
            assert server.get("/api/status")[0] == 200 and not made
        finally:
            browser.execute("ROLLBACK")
            browser.close()
        assert a.wait_step(2)["phase"] == "answer" and b.wait_step(2)["phase"] == "answer"
        creating.join(30)
        assert made and made[0][0] == 201 and made[0][1]["table"] == 3
        assert not [e for c in (a, b) for e in c.errors]
        status, body = server.get("/api/status")
        assert "problem" not in body, body
        for t in (one, two):
            assert server.get(f"/api/tables/{t['table']}/record")[1]["actions"][1] == ASK
        out = "".join(server.lines)
        assert "is locked by another program" in out  # the teacher's terminal says why moves waited
    finally:
        for c in opened:
            c.close()
        server.stop()


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux prlimit")
def test_a_full_disk_loses_no_accepted_move_and_the_class_goes_on(tmp_path) -> None:
    """The server runs with a file-size limit (``RLIMIT_FSIZE``, a disk that fills), so its journal soon
    cannot grow: moves are kept and retried, then undone and said so, the bots' moves come again, the
    server stays up; once there is room (the limit lifted), the tables play on and every move told to
    anyone is in the file."""
    db = tmp_path / "class.db"
    limit = 96 * 1024
    server = ServerProcess(
        db, preexec=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    )
    proc = server.proc
    opened = []
    try:
        # (the students' table first: the bots at pace 0 fill the journal within moments)
        people = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
        bots = server.create(game="five_sons", players=4, pace=0, bots={str(s): "logic" for s in range(4)})
        watch = Client(server, bots["teacher"])
        seat = Client(server, people["seats"][1]["code"])
        opened += [watch, seat]
        seat.wait_step(1)
        deadline = time.monotonic() + 60
        while "cannot store moves" not in "".join(server.lines):  # the bots fill the journal
            assert time.monotonic() < deadline and proc.poll() is None, "".join(server.lines)[-2000:]
            time.sleep(0.1)
        assert server.get("/api/status")[1]["problem"].startswith(f"cannot store moves in {db}")
        seat.act(ASK, step=1)
        assert "could not store the last move" in seat.wait_error()  # told, and the game is where it was
        assert proc.poll() is None
        resource.prlimit(
            proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
        )  # room
        seat.act(ASK, step=1)  # there is room again: the move is taken
        assert seat.wait_step(2)["phase"] == "answer"
        while watch.obs is None or watch.obs["step"] < 40 and not watch.obs["is_over"]:  # the bots play on
            watch.recv(timeout=30)
        told = watch.obs["step"]
        assert "problem" not in server.get("/api/status")[1]
    finally:
        for c in opened:
            c.close()
        server.stop()
    con = sqlite3.connect(db)  # every step anyone was told of is in the file
    stored = con.execute("SELECT COUNT(*) FROM steps WHERE table_id = ?", (bots["table"],)).fetchone()[0]
    con.close()
    assert stored >= told


def test_a_commit_refused_because_the_file_went_is_stored_in_the_file_put_back(tmp_path) -> None:
    """The file is deleted and the next commit fails (as SQLite may refuse to write to a moved file): the
    server writes every table back to the file at once and stores the step there, without undoing it."""

    async def main() -> None:
        store = FailingStore(tmp_path / "m.db")
        room = Classroom(store, "token")
        made = room.create({"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0})
        seat = Conn()
        room.connect(seat, made["seats"][1]["code"])
        for name in ("m.db", "m.db-wal", "m.db-shm"):
            (tmp_path / name).unlink(missing_ok=True)
        once = iter([True])
        store.failing = lambda rows: next(once, False)
        room.receive(seat, json.dumps({"type": "act", "action": ASK, "step": 1}))
        await until(lambda: seat.sent[-1].get("observation", {}).get("step") == 2)
        assert store.refused == 1 and not any("could not store" in m.get("message", "") for m in seat.sent)
        assert (tmp_path / "m.db").exists()
        room.close()
        store.close()

    run_async(main())
    again = Store(tmp_path / "m.db")
    assert [len(t.steps) for t in again.tables()] == [2]
    again.close()

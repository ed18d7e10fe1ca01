"""Issue 25, section 3 (bad database files) and 4 (the file's mode): ``qardlab serve --db FILE`` with a file
that is not what it should be. Each case ends in a clear message naming the file and what to do, and never
in a silent loss: a malformed table is skipped and named, another program's SQLite file and a file that is
not SQLite are refused and left byte for byte as they were, a read-only file is refused at start, a file
deleted while the server runs is written back, and the file (with its journal) is readable by its owner
only. A file of an older qardlab is taken on as it is."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ASK, DEAL, ROOT, TOKEN, Client, ServerProcess

from qardlab.classroom.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreError


def serve_fails(db: Path) -> subprocess.CompletedProcess:
    """``qardlab serve`` on ``db``, expected to refuse it and stop."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "qardlab", "serve", "--port", "0", "--db", str(db), "--token", TOKEN],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def digest(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), stat.S_IMODE(path.stat().st_mode)


def test_a_malformed_table_is_skipped_and_named_the_others_are_served(tmp_path) -> None:
    db = tmp_path / "class.db"
    server = ServerProcess(db)
    try:
        good = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
        bad = server.create(game="five_sons", players=4, seed=3, pace=0)
        worse = server.create(game="hearts", players=4, seed=4, pace=10)
    finally:
        server.stop()
    con = sqlite3.connect(db)
    con.execute("UPDATE tables SET seats = '[\"oops' WHERE id = ?", (bad["table"],))  # a broken row
    con.execute("UPDATE steps SET action = '{' WHERE table_id = ? AND n = 0", (worse["table"],))
    con.commit()
    con.close()
    server = ServerProcess(db)  # it starts
    try:
        out = "".join(server.lines)
        assert "1 table)" in out
        for t, what in ((bad, "seats"), (worse, "step 0")):
            assert f"table {t['table']} in {db} does not read and is left out" in out and what in out, out
        assert "Fix or delete that row, or start on another --db file" in out
        codes = [c for t in (good, bad, worse) for c in [t["teacher"], *(x["code"] for x in t["seats"])]]
        assert not [c for c in codes if c in out]  # what is wrong, never what the row holds
        listed = server.get("/api/tables")[1]["tables"]
        assert [t["table"] for t in listed] == [good["table"]]
        seat = Client(server, good["seats"][1]["code"])  # the good table plays on
        seat.wait_step(1)
        seat.act(ASK, step=1)
        assert seat.wait_step(2)["phase"] == "answer"
        seat.close()
    finally:
        server.stop()
    # the broken rows are still there, untouched, for the teacher to mend or drop
    con = sqlite3.connect(db)
    assert con.execute("SELECT seats FROM tables WHERE id = ?", (bad["table"],)).fetchone() == ('["oops',)
    con.close()


def test_another_programs_sqlite_file_is_refused_and_left_as_it_was(tmp_path) -> None:
    """The issue: the server switched such a file to WAL and added two tables. Now it is refused, and the
    file's bytes, its mode (rollback journal) and its tables are what they were."""
    db = tmp_path / "grades.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE students (name TEXT, grade INTEGER)")
    con.execute("INSERT INTO students VALUES ('Ada', 19)")
    con.commit()
    con.close()
    before = digest(db)
    run = serve_fails(db)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{db} is another program's SQLite database (tables ['students'])" in run.stderr
    assert "Give --db another file name" in run.stderr and "qardlab classroom server at" not in run.stdout
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("grades")) == ["grades.sqlite"]
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["students"]
    con.close()


def test_a_file_that_is_not_sqlite_is_refused_and_left_as_it_was(tmp_path) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("the class list, not a database\n" * 10)
    before = digest(db)
    run = serve_fails(db)
    assert run.returncode == 1 and f"{db} is not an SQLite database" in run.stderr, run.stderr
    assert digest(db) == before


def test_a_read_only_file_is_refused_at_start(tmp_path) -> None:
    """The issue: a read-only file started, then undid every move forever. Now the start says so."""
    db = tmp_path / "class.db"
    server = ServerProcess(db)
    server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    server.stop()
    db.chmod(0o400)
    try:
        before = digest(db)
        run = serve_fails(db)
        assert run.returncode == 1, run.stdout
        assert f"the database file {db} is read-only" in run.stderr and f"chmod u+w {db}" in run.stderr
        assert digest(db) == before
    finally:
        db.chmod(0o600)
    ServerProcess(db).stop()  # writable again: it starts


def test_a_file_deleted_while_the_server_runs_is_written_back(tmp_path) -> None:
    """The issue: a deleted file went unnoticed, and a restart found 0 tables. Now the server notices
    (every two seconds), says so, writes every table back, and the moves made meanwhile are kept."""
    db = tmp_path / "class.db"
    server = ServerProcess(db)
    try:
        table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
        seat = Client(server, table["seats"][1]["code"])
        seat.wait_step(1)
        for name in ("class.db", "class.db-wal", "class.db-shm"):
            (tmp_path / name).unlink(missing_ok=True)
        seat.act(ASK, step=1)  # a move made while the file is gone
        seat.wait_step(2)
        deadline = time.monotonic() + 30
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert db.exists(), "".join(server.lines)
        out = "".join(server.lines)
        assert f"the database file {db} was deleted while the server ran" in out and "nothing was lost" in out
        answer = Client(server, table["seats"][2]["code"])
        answer.wait_step(2)
        answer.act({"type": "show", "card": "QC"}, step=2)  # and a move after it is back
        answer.wait_step(3)
        answer.close()
        seat.close()
    finally:
        server.stop()
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    server = ServerProcess(db)  # a restart finds the table, with both moves
    try:
        assert server.get("/api/tables")[1]["tables"][0]["step"] == 3
    finally:
        server.stop()


def test_the_file_and_its_journal_are_readable_by_their_owner_only(tmp_path) -> None:
    """The file holds every join code: created 0600, its WAL and shared-memory files too; an older
    server's 0644 file is made 0600 when the server starts on it."""
    db = tmp_path / "class.db"
    old_umask = os.umask(0o022)
    try:
        server = ServerProcess(db)
        try:
            server.create(game="five_sons", players=4, deal=DEAL, pace=0)
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
        finally:
            server.stop()
    finally:
        os.umask(old_umask)
    assert modes == {"class.db": 0o600, "class.db-wal": 0o600, "class.db-shm": 0o600}, modes
    db.chmod(0o644)
    ServerProcess(db).stop()
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


V1_SCHEMA = """
CREATE TABLE tables (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,
    options TEXT NOT NULL, seed INTEGER, teacher TEXT NOT NULL UNIQUE, seats TEXT NOT NULL,
    bots TEXT NOT NULL, pace REAL NOT NULL, created REAL NOT NULL);
CREATE TABLE steps (table_id INTEGER NOT NULL REFERENCES tables(id), n INTEGER NOT NULL,
    action TEXT NOT NULL, seat INTEGER, accepted REAL NOT NULL, PRIMARY KEY (table_id, n));
"""


def test_a_file_of_an_older_qardlab_is_taken_on_with_its_tables_and_codes(tmp_path) -> None:
    """A file written before the versions (its integer seeds, its old-style codes) is marked as qardlab's
    and resumed: the old codes still work, exactly as typed."""
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.executescript(V1_SCHEMA)
    deal = {"type": "deal", **DEAL}
    con.execute(
        "INSERT INTO tables VALUES (1, 'five_sons', 4, ?, 1234567, 'Teach-er_Code123', ?, '{}', 0.0, 0)",
        (json.dumps({"_given_deal": True}), json.dumps(["s0-aaaaaaaaaaaaa", "s1_bbbbbbbbbbbbb", "c", "d"])),
    )
    con.execute("INSERT INTO steps VALUES (1, 0, ?, NULL, 0)", (json.dumps(deal),))
    con.commit()
    con.close()
    store = Store(db)
    [row] = store.tables()
    assert row.seed == 1234567 and row.seats[1] == "s1_bbbbbbbbbbbbb"
    assert store.db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    assert store.db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    store.close()
    server = ServerProcess(db)
    try:
        seat = Client(server, "s1_bbbbbbbbbbbbb")
        assert seat.wait_step(1)["seat"] == 1
        seat.close()
        wrong_case = Client(server, "S1_BBBBBBBBBBBBB")  # an old code is taken exactly as it was made
        assert "unknown or stale join code" in wrong_case.wait_error()
        wrong_case.close()
    finally:
        server.stop()


def test_a_file_of_a_newer_qardlab_is_refused(tmp_path) -> None:
    db = tmp_path / "new.db"
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="written by a newer qardlab"):
        Store(db)

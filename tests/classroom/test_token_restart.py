"""The teacher's token across restarts (issue 27 item 2): kept in the database file, taken again by a server
restarted on the same ``--db``, replaced only by a token given another way; a refused request says which
token and where to find it; and the teacher's notebook run again finds its tables instead of making a
second set (tables made with a ``name``)."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys

import pytest
from conftest import ROOT, Client, ServerProcess

from qardlab.classroom.api import Teacher, TeacherError
from qardlab.classroom.store import APPLICATION_ID, SCHEMA_VERSION, Store


def _printed_token(server: ServerProcess) -> str:
    return next(line for line in server.lines if line.startswith("teacher token:")).split(":", 1)[1].strip()


def _qardlab(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "QARDLAB_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "qardlab", *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_a_restarted_server_takes_the_old_token_even_after_sigkill(tmp_path) -> None:
    db = tmp_path / "class.db"
    server = ServerProcess(db, token="")  # no token given: the server makes one
    try:
        token = _printed_token(server)
        assert len(token) >= 32
        made = Teacher(server.url, token).create_table("five_sons", 4, bots={3: "logic"})
        server.kill()
        server.token = ""
        server.start()  # the same file, no token given again
        assert _printed_token(server) == token
        teacher = Teacher(server.url, token)  # the notebook's Teacher of before the restart works as it was
        assert [t["table"] for t in teacher.tables()] == [made["table"]]
        assert _qardlab("token", "--db", str(db)).stdout.strip() == token  # where the teacher finds it
    finally:
        server.stop()


def test_a_token_given_another_way_replaces_the_kept_one(tmp_path) -> None:
    db = tmp_path / "class.db"
    first = ServerProcess(db, token="")
    old = _printed_token(first)
    first.stop()
    given = ServerProcess(db, token="chosen-in-the-environment")
    try:
        assert _printed_token(given) == "chosen-in-the-environment"
        with pytest.raises(TeacherError, match="not this server's"):
            Teacher(given.url, old).tables()
    finally:
        given.stop()
    again = ServerProcess(db, token="")  # nothing given: the newest one, as it was kept
    try:
        assert _printed_token(again) == "chosen-in-the-environment"
    finally:
        again.stop()


def test_a_new_token_file_takes_the_token_the_database_keeps(tmp_path) -> None:
    """A teacher who adds ``--token-file`` to a server that ran without it keeps the same token: the file is
    made with the kept one (readable by its owner only), not with a new one that the notebook would lack."""
    db = tmp_path / "class.db"
    first = ServerProcess(db, token="")
    kept = _printed_token(first)
    first.stop()
    token_file = tmp_path / "classroom-token.txt"
    second = ServerProcess(db, token="", args=("--token-file", str(token_file)))
    try:
        assert token_file.read_text().strip() == kept == _printed_token(second)
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    finally:
        second.stop()


def test_a_refused_request_says_which_token_and_where_to_find_it(tmp_path) -> None:
    token_file = tmp_path / "classroom-token.txt"
    server = ServerProcess(tmp_path / "class.db", token="", args=("--token-file", str(token_file)))
    try:
        status, none = server.get("/api/tables", token=None)
        assert status == 403
        assert "this needs the teacher's token, in the header 'Authorization: token TOKEN'" in none["error"]
        status, wrong = server.request("POST", "/api/tables", {"game": "hearts"}, token="an-old-token")
        assert status == 403 and "not this server's" in wrong["error"]
        for error in (none["error"], wrong["error"]):
            assert f"the one in the file {token_file}" in error  # which token
            assert "stays the same when the server restarts" in error
            assert "qardlab token --db" in error  # where to find it
            assert server.token not in error  # and never the token itself
        assert server.get("/api/tables")[1]["tables"] == []  # nothing was made by the refused request
    finally:
        server.stop()
    env_server = ServerProcess(tmp_path / "env.db", token="from-env")
    try:
        status, wrong = env_server.get("/api/tables", token="nope")
        assert status == 403 and "the environment variable QARDLAB_TOKEN" in wrong["error"]
        assert "from-env" not in wrong["error"]
    finally:
        env_server.stop()


def test_qardlab_token_says_what_is_wrong(tmp_path) -> None:
    missing = _qardlab("token", "--db", str(tmp_path / "none.db"))
    assert missing.returncode == 1 and "no database file" in missing.stderr
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    refused = _qardlab("token", "--db", str(other))
    assert refused.returncode == 1 and "not a qardlab classroom file" in refused.stderr


def test_run_all_again_finds_the_named_tables_instead_of_making_a_second_set(tmp_path) -> None:
    db = tmp_path / "class.db"
    server = ServerProcess(db, token="")
    try:
        teacher = Teacher(server.url, _printed_token(server))
        first = teacher.create_tables(2, "five_sons", players=4, bots={3: "logic"}, name="period 3")
        assert [t["name"] for t in first] == ["period 3 1", "period 3 2"]
        seat = Client(server, first[0]["seats"][0]["code"])
        assert seat.wait_step(1)["seat"] == 0
        seat.close()
        server.kill()
        server.token = ""
        server.start()
        teacher = Teacher(server.url, _printed_token(server))  # (a free port again: a new address)
        again = teacher.create_tables(2, "five_sons", players=4, bots={3: "logic"}, name="period 3")
        assert [t["table"] for t in again] == [t["table"] for t in first]
        assert [[s["code"] for s in t["seats"]] for t in again] == [
            [s["code"] for s in t["seats"]] for t in first
        ]
        assert all(t["existing"] for t in again) and len(teacher.tables()) == 2
        more = teacher.create_tables(3, "five_sons", players=4, bots={3: "logic"}, name="period 3")
        assert len(teacher.tables()) == 3 and "existing" not in more[2]  # one more table asked for: one made
        with pytest.raises(TeacherError, match="is named 'period 3 1' already, and plays five_sons for 4"):
            teacher.create_table("hearts", 4, name="period 3 1")
        status, body = server.request("POST", "/api/tables", {"game": "hearts", "name": "x\ny"})
        assert status == 400 and "name must be" in body["error"]
        assert [t["name"] for t in teacher.tables()] == ["period 3 1", "period 3 2", "period 3 3"]
    finally:
        server.stop()


def test_a_version_2_file_gains_the_token_and_the_names(tmp_path) -> None:
    """A file of the server before this one (schema 2: no settings, no names) is taken on: its tables and
    codes as they were, and from now on the token kept in it."""
    db = tmp_path / "v2.db"
    store = Store(db)
    store.add_table("hearts", 3, {"_given_deal": False}, 5, "TEACHER-CODE", ["A", "B", "C"], {}, 0.0, [])
    store.close()
    con = sqlite3.connect(db)
    con.execute("DROP TABLE settings")
    con.execute("ALTER TABLE tables DROP COLUMN name")
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()
    store = Store(db)
    assert store.db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (3,)
    assert store.db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    [row] = store.tables()
    assert row.seats == ["A", "B", "C"] and row.name is None
    assert store.setting("teacher_token") is None
    store.set_setting("teacher_token", "kept")
    assert store.setting("teacher_token") == "kept"
    store.close()
    assert json.loads(json.dumps(row.options)) == {"_given_deal": False}

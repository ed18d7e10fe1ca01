"""Issue 25, section 4: codes and tokens stay where they belong.

Before: ``codes_html`` ("to show (or print) for the class") printed each table's teacher code (every hand and
the secret); ``{"bot": null}`` kept a student's old code, so a leaked code could not be revoked; ``--token``
was the only way to give the token (visible in the process list); codes were 16 characters of
``token_urlsafe`` (l, 1, I, O, 0, - and _ all in play) that a student had to copy from a printed sheet.
(The log and the file's mode: ``test_floods.py`` and ``test_store_files.py``.)
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

from conftest import ASK, DEAL, ROOT, Client, ServerProcess

from qardlab.classroom.tables import CODE_ALPHABET, code_key, new_code
from qardlab.classroom.teacher import LocalServer, Teacher, codes_html, join_sheet

GROUPED = re.compile(r"[2-9A-Z]{4}(-[2-9A-Z]{4})+")


def test_codes_have_no_look_alikes_and_come_in_groups() -> None:
    codes = [new_code() for _ in range(2000)]
    assert all(re.fullmatch(r"[^-]{4}-[^-]{4}-[^-]{4}", c) for c in codes)
    used = set("".join(codes).replace("-", ""))
    assert used == set(CODE_ALPHABET) and not used & set("lI1O0oiLU")
    assert len(set(codes)) == len(codes)
    assert re.fullmatch(r"([^-]{4}-){3}[^-]{4}", new_code(4))  # the teacher's: one group more
    c = "ABCD-EFGH-JKMN"
    for typed in ("abcd-efgh-jkmn", "ABCDEFGHJKMN", " abcd efgh jkmn ", "abCD-efGH jkmn"):
        assert code_key(typed) == c
    for other in ("ABCD-EFGH-JKM", "ABCD-EFGH-JKM0", "s1_bbbbbbbbbbbbb"):
        assert code_key(other) != c


def test_a_student_types_the_code_as_it_comes(server) -> None:
    """Lower case, without the dashes, with spaces: the seat the code opens."""
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    code = table["seats"][2]["code"]
    assert GROUPED.fullmatch(code) and GROUPED.fullmatch(table["teacher"])
    for typed in (code.lower(), code.replace("-", ""), code.replace("-", " ").lower()):
        c = Client(server, typed.replace(" ", "%20"))
        assert c.wait_step(1)["seat"] == 2 and c.seat == 2
        c.close()
    wrong = Client(server, code[:-1] + ("2" if code[-1] != "2" else "3"))
    assert "unknown or stale join code" in wrong.wait_error()
    wrong.close()


def test_a_new_code_for_a_students_seat_revokes_the_old_one(server) -> None:
    """The teacher revokes a leaked code: ``{"bot": null}`` on a student's seat gives it a new code, the
    windows of the old one are told and closed, the old one is refused, the new one plays."""
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    old = table["seats"][1]["code"]
    leaked = Client(server, old)
    leaked.wait_step(1)
    status, answer = server.request("POST", f"/api/tables/{table['table']}/seats/1", {"bot": None})
    assert (
        status == 200
        and answer["bot"] is None
        and GROUPED.fullmatch(answer["code"])
        and answer["code"] != old
    )
    assert "the teacher gave seat 1 a new code: this join code is no longer valid" in leaked.wait_error()
    again = Client(server, old)
    assert "unknown or stale join code" in again.wait_error()
    again.close()
    seat = Client(server, answer["code"])
    seat.wait_step(1)
    seat.act(ASK, step=1)
    assert seat.wait_step(2)["phase"] == "answer"
    seat.close()
    leaked.close()
    listed = server.get("/api/tables")[1]["tables"][0]["seats"][1]
    assert listed["code"] == answer["code"] and listed["bot"] is None


def test_teachers_codes_are_on_nothing_meant_for_students(server) -> None:
    teacher = Teacher(server.url, server.token)
    made = teacher.create_tables(2, "five_sons", players=4, bots={3: "logic"}, pace=10)
    made.append(teacher.create_table("hearts", 4, bots={1: "rules"}, pace=10))
    for html in (codes_html(made, server.url), join_sheet(made, server.url, "http://school:8866/")):
        for t in made:
            assert t["teacher"] not in html and t["teacher"].lower() not in html
            assert all(s["code"] in html for s in t["seats"] if s["code"])  # the students' are there


def test_the_token_comes_from_the_environment_or_a_file(tmp_path) -> None:
    """``$QARDLAB_TOKEN`` (what the test servers use), or ``--token-file`` (a new token written to it,
    readable by its owner only, when it does not exist; read when it does); never in the process list
    when given those ways."""
    server = ServerProcess(tmp_path / "a.db", token="from-the-environment")
    try:
        assert "teacher token: from-the-environment" in "".join(server.lines)
        cmdline = Path(f"/proc/{server.proc.pid}/cmdline").read_bytes()
        assert b"from-the-environment" not in cmdline
        assert Teacher(server.url, "from-the-environment").tables() == []
    finally:
        server.stop()
    token_file = tmp_path / "classroom-token.txt"
    first = ServerProcess(tmp_path / "b.db", token="", args=("--token-file", str(token_file)))
    try:
        written = token_file.read_text().strip()
        assert len(written) >= 32 and stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert f"teacher token: {written}" in "".join(first.lines)
    finally:
        first.stop()
    token_file.write_text("chosen-by-the-teacher\n")
    second = ServerProcess(tmp_path / "b.db", token="", args=("--token-file", str(token_file)))
    try:
        assert Teacher(second.url, "chosen-by-the-teacher").tables() == []
    finally:
        second.stop()
    token_file.write_text("two words\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    bad = subprocess.run(
        [sys.executable, "-m", "qardlab", "serve", "--port", "0", "--token-file", str(token_file)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2 and f"the token file {token_file} must hold the token alone" in bad.stderr


def test_a_local_servers_token_is_not_in_the_process_list() -> None:
    from qardlab.classroom.local import LOG_LINES

    with LocalServer(token="not-for-ps") as server:
        assert server.token == "not-for-ps" and server.log.maxlen == LOG_LINES  # its log kept bounded
        assert b"not-for-ps" not in Path(f"/proc/{server.proc.pid}/cmdline").read_bytes()
        assert Teacher(server.url, "not-for-ps").tables() == []

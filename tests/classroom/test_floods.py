"""Issue 25, sections 3 and 4: one student's script cannot lock a class out, flood a table, fill the log or
the teacher's memory, drop a connection with odd input, or read a code from the log.

Before: half-open connections were kept for an hour; at a limit of 256 open files new joins timed out while
the server wrote about 200 MB of log a minute; the seat to move could send illegal moves without limit (30,000
of 30,000 processed); 500 windows on one code made each step of that table cost 16 ms; about 1,000 levels of
nested JSON dropped the connection with no error and logged the join code; some POST bodies gave 500; join
codes were logged at INFO, at WARNING (a plain GET of the websocket address) and at ERROR.
"""

from __future__ import annotations

import json
import logging
import resource
import socket
import time
import urllib.error
import urllib.request

import pytest
from conftest import ASK, DEAL, Client, ServerProcess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qardlab.classroom import server as server_module
from qardlab.classroom import tables
from qardlab.classroom.logs import LogLimit
from qardlab.classroom.store import Store
from qardlab.classroom.tables import Classroom, RequestError

FILES = 256


def half_open(url: str, n: int, source: str = "127.0.0.2") -> list[socket.socket]:
    """``n`` connections to the server from ``source`` that send nothing (a script's, or a dead laptop's)."""
    host, port = url.split("//")[1].split(":")
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(5)
        s.connect((host, int(port)))
        out.append(s)
    return out


def refused(s: socket.socket) -> bool:
    """Whether the server answered this connection at once with 503 and closed it."""
    s.settimeout(5)
    try:
        data = s.recv(4096)
    except TimeoutError:
        return False
    return data.startswith(b"HTTP/1.1 503")


def test_a_script_of_half_open_connections_does_not_lock_the_class_out(tmp_path) -> None:
    """The server has 256 files; a script opens 400 connections from one address and sends nothing. The
    server takes half of what it can hold from that address, answers the rest 503 at once, keeps serving
    the class from other addresses, writes a few lines of log, and closes the idle ones after 10 s."""
    server = ServerProcess(
        tmp_path / "c.db", preexec=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))
    )
    total, per_address = FILES - server_module.RESERVED_FILES, (FILES - server_module.RESERVED_FILES) // 2
    opened: list = []
    try:
        table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
        lines_before = len(server.lines)
        start = time.monotonic()
        flood = half_open(server.url, 400)
        opened += flood
        waiting, over = flood[:per_address], flood[per_address:]  # taken in the order they came
        assert all(refused(s) for s in over), total
        # while the script holds its connections, the class goes on from its own address
        assert server.get("/api/status")[0] == 200
        seat = Client(server, table["seats"][1]["code"])
        opened.append(seat)
        seat.wait_step(1)
        seat.act(ASK, step=1)
        assert seat.wait_step(2)["phase"] == "answer"
        waiting[-1].setblocking(False)
        with pytest.raises(BlockingIOError):  # meanwhile the script's connections were held open
            waiting[-1].recv(1)
        for s in waiting:  # each idle connection is closed by the server (recv gives b"")
            s.settimeout(max(0.1, start + server_module.IDLE_TIMEOUT + 10 - time.monotonic()))
            assert s.recv(1) == b""
        again = half_open(server.url, 3)  # the address may connect again
        opened += again
        assert not any(refused(s) for s in again[:1]) and server.get("/api/status")[0] == 200
        log = server.lines[lines_before:]
        assert 1 <= len(log) <= 20, log  # "refused" said a few times, then how many were left out
        assert server.alive()
    finally:
        for c in opened:
            c.close()
        server.stop()


def test_many_windows_on_one_code_close_the_oldest(server) -> None:
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    code = table["seats"][1]["code"]
    windows = []
    try:
        for _ in range(20):
            w = Client(server, code)
            w.wait_step(1)
            windows.append(w)
        listed = server.get("/api/tables")[1]["tables"][0]["seats"][1]
        assert listed["connected"] == tables.MAX_PER_CODE
        for w in windows[: 20 - tables.MAX_PER_CODE]:
            assert "open in more than 6 windows: the oldest was closed" in w.wait_error()
            with pytest.raises(ConnectionError):
                w.recv(timeout=5)
        newest = windows[-1]
        newest.act(ASK, step=1)
        for w in windows[-tables.MAX_PER_CODE :]:
            assert w.wait_step(2)["phase"] == "answer"
    finally:
        for w in windows:
            w.close()


def test_the_seat_to_move_cannot_flood_with_illegal_moves(server) -> None:
    """The seat to move sends 2,000 illegal moves for this very step at once: one of them is let past the
    rate limit (the one move a seat and step the limit never drops), the rest are held to it; another
    table's moves go on."""
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    other = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    mover, elsewhere = Client(server, table["seats"][1]["code"]), Client(server, other["seats"][1]["code"])
    try:
        mover.wait_step(1)
        elsewhere.wait_step(1)
        bad = json.dumps({"type": "act", "action": {**ASK, "target": 1}, "step": 1})  # asking oneself
        start = time.monotonic()
        for _ in range(2000):
            mover.send(bad)
        elapsed = time.monotonic() - start
        mover.quiet(1.0)
        elsewhere.act(ASK, step=1)
        assert elsewhere.wait_step(2)["phase"] == "answer"
        illegal = [e for e in mover.errors if "not too many" not in e and not e.startswith("too many")]
        allowed = 20 + 10 * (elapsed + 1.5) + 1  # the burst, the rate while sending and waiting, the one
        assert 20 <= len(illegal) <= allowed, (len(illegal), elapsed)
        assert any(e.startswith("too many messages") for e in mover.errors)
        mover.act(ASK, step=1)  # the seat can still play
        assert mover.wait_step(2)["phase"] == "answer"
    finally:
        mover.close()
        elsewhere.close()


NESTED = "[" * 1000 + "]" * 1000


def test_deeply_nested_json_and_odd_bodies_get_a_clear_error(server) -> None:
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    seat = Client(server, table["seats"][1]["code"])
    try:
        seat.wait_step(1)
        for text in (NESTED, json.dumps({"type": "act", "action": json.loads("[" * 900 + "]" * 900)})):
            seat.send(text)
            assert "nested too deeply" in seat.wait_error() or "not an action" in seat.errors[-1]
        seat.send('{"type": "act", "action": ' + "{" * 3000)
        assert "malformed JSON" in seat.wait_error()
        seat.act(ASK, step=1)  # the connection is still there
        assert seat.wait_step(2)["phase"] == "answer"
    finally:
        seat.close()
    bodies = [
        NESTED.encode(),
        b'{"a":' * 5000 + b"1" + b"}" * 5000,
        b"\xff\xfe not utf-8",
        b"",
        b"game=five_sons&players=4",
        b"[]",
        b'"five_sons"',
        b"NaN",
        b'{"game": ["five_sons"]}',
        b'{"game": {"a": 1}}',
        b'{"game": "five_sons", "bots": {"\xc2\xb2": "logic"}}',
        b'{"game": "five_sons", "bots": {"1": ["logic"]}}',
        b'{"game": "five_sons", "players": 100000000000000000000000}',
        b'{"game": "five_sons", "players": -4}',
        b'{"game": "five_sons", "seed": 1e9}',
        b'{"game": "five_sons", "seed": "7"}',
        b'{"game": "five_sons", "pace": NaN}',
        b'{"game": "five_sons", "pace": Infinity}',
        b'{"game": "five_sons", "options": {"names": 5}}',
        b'{"game": "five_sons", "options": {"names": ["a", "a", "b", "c"]}}',
        b'{"game": "five_sons", "options": {"ask_mode": []}}',
        b'{"game": "hearts", "options": {"rules": "x"}}',
        b'{"game": "hearts", "options": {"rules": {"target": "x"}}}',
        b'{"game": "five_sons", "deal": []}',
        b'{"game": "five_sons", "deal": {"hands": "x", "secret": 1, "dealer": 0}}',
        b'{"game": "five_sons", "deal": {"hands": [[1, 2]], "secret": [null], "dealer": "x"}}',
        b'{"game": "hearts", "deal": {"hands": 5, "pass_direction": []}}',
        b'{"game": "five_sons", "' + b"x" * 1000 + b'": 1}',
    ]
    for body in bodies:
        status, answer = server.request("POST", "/api/tables", raw=body)
        assert 400 <= status < 500 and answer["error"], (body[:60], status, answer)
    for body in (b"[]", b'{"bot": ["x"]}', b'{"bot": null, "x": 1}', NESTED.encode(), b'{"bot": 5}'):
        status, answer = server.request("POST", "/api/tables/1/seats/1", raw=body)
        assert 400 <= status < 500 and answer["error"], (body[:60], status, answer)
    assert (
        server.get("/api/tables")[1]["tables"][0]["step"] == 2
        and len(server.get("/api/tables")[1]["tables"]) == 1
    )
    out = "".join(server.lines)
    assert table["seats"][1]["code"] not in out and "Traceback" not in out, out[-3000:]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
body_keys = st.sampled_from(["game", "players", "seed", "options", "deal", "bots", "pace"])
bodies = st.one_of(
    json_values,
    st.dictionaries(body_keys, json_values, max_size=7),
    st.fixed_dictionaries(
        {"game": st.sampled_from(["five_sons", "hearts"])},
        optional={
            "players": st.integers(-2, 8) | json_values,
            "options": st.dictionaries(
                st.sampled_from(["names", "rules", "single", "ask_mode", "notes"]), json_values
            ),
            "deal": json_values,
            "bots": st.dictionaries(st.text(max_size=3), json_values, max_size=3),
            "pace": json_values,
            "seed": json_values,
        },
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
def test_any_json_body_is_a_table_or_a_clear_refusal(tmp_path, body) -> None:
    """Any JSON body of ``POST /api/tables``: a table, or a RequestError (a 4xx naming the bad value), never
    another exception (a 500)."""
    room = Classroom(Store(":memory:"), "token")
    try:
        made = room.create(body)
        assert made["table"] in room.tables
    except RequestError as e:
        assert 400 <= e.status < 500 and str(e)
    finally:
        room.close()


def test_the_log_holds_no_code_at_any_level(tmp_path, monkeypatch) -> None:
    """Every path that logs, at DEBUG and up, in one server: joins with good, wrong-case, dash-less, wrong
    and revoked codes; a plain GET of the websocket address with a code; a message that fails inside the
    server (ERROR with its traceback); a request that fails (500); a refused one (403). The log names tables
    and seats, never a code."""
    from qardlab.classroom.teacher import Teacher, ThreadServer

    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    keep = Keep(logging.DEBUG)
    keep.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(keep)
    root.setLevel(logging.DEBUG)
    real = Classroom._receive

    def failing(self, conn, message):
        if message == "boom":
            raise RuntimeError("a bug in the server")
        return real(self, conn, message)

    monkeypatch.setattr(Classroom, "_receive", failing)
    try:
        with ThreadServer() as srv:
            teacher = Teacher(srv.url, srv.token)
            made = teacher.create_table("five_sons", 4, deal=DEAL, pace=0, bots={3: "logic"})
            codes = [s["code"] for s in made["seats"] if s["code"]] + [made["teacher"]]
            proxy = type("S", (), {"ws_url": srv.url.replace("http", "ws")})()
            seat = Client(proxy, codes[1])
            seat.wait_step(1)
            for typed in (codes[0].lower(), codes[2].replace("-", ""), "WRONG-CODE-XXXX", codes[3]):
                c = Client(proxy, typed)
                c.recv()
                c.close()
            seat.send("boom")
            assert "could not take this message (RuntimeError)" in seat.wait_error()
            seat.send(NESTED)
            seat.wait_error()
            new = teacher.set_bot(made["table"], 0, None)["code"]  # codes[0] is revoked
            codes.append(new)
            stale = Client(proxy, codes[0])
            assert "unknown or stale" in stale.wait_error()
            for path in (
                f"/ws?code={codes[1]}",
                f"/api/tables?code={codes[2]}",
                f"/api/nothing?code={codes[0]}",
            ):
                try:
                    urllib.request.urlopen(srv.url + path, timeout=10)
                except urllib.error.HTTPError:
                    pass
            monkeypatch.setattr(Classroom, "listing", lambda self: 1 / 0)
            with pytest.raises(urllib.error.HTTPError) as failed:
                urllib.request.urlopen(
                    urllib.request.Request(
                        f"{srv.url}/api/tables?code={codes[1]}",
                        headers={"Authorization": f"token {srv.token}"},
                    ),
                    timeout=10,
                )
            assert failed.value.code == 500
            seat.close()
    finally:
        root.removeHandler(keep)
        root.setLevel(old_level)
    text = "\n".join(records)
    assert "ERROR" in text and "Traceback" in text and "a bug in the server" in text  # the paths ran
    assert "GET /ws (127.0.0.1)" in text and "table 1 seat 1" in text
    forms = {f for c in codes for f in (c, c.lower(), c.replace("-", ""), c.replace("-", "").lower())}
    leaked = sorted(f for f in forms if f in text)
    assert not leaked, f"the log holds codes {leaked}"


def test_the_log_is_thinned_and_a_thread_servers_log_is_bounded() -> None:
    """LogLimit lets a repeated line through a few times, then says how many it left out; a flood of
    different lines is held to its rate. A ThreadServer keeps at most LOG_LINES lines."""
    f = LogLimit(burst=5, every=10.0, total=50)
    rec = lambda i: logging.LogRecord("x", logging.WARNING, "", 0, "out of files %s", ("EMFILE",), None)  # noqa: E731
    passed = [f.filter(rec(i)) for i in range(10_000)]
    assert sum(passed) == 5
    varied = [
        f.filter(logging.LogRecord("x", logging.WARNING, "", 0, f"line {i}", (), None)) for i in range(10_000)
    ]
    assert sum(varied) <= 50
    from qardlab.classroom.local import LOG_LINES
    from qardlab.classroom.teacher import ThreadServer

    with ThreadServer() as srv:
        for i in range(20_000):
            logging.getLogger("qardlab.classroom").warning("a different line %s", i)
        assert len(srv.log) <= LOG_LINES and srv.log.maxlen == LOG_LINES
        assert len(srv.log) < 200

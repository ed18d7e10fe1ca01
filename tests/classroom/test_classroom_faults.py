"""Faults and bad input at a classroom server in a subprocess: SIGKILL and restart, a client dropped
while it must answer, every kind of bad message, two clients with one code, bots taking seats."""

from __future__ import annotations

import json
import random

import pytest
from conftest import DEAL, ServerProcess, ask, five_sons_policy, play_out
from test_classroom_games import local_game

from qardlab.engine import Game, Record, Timeline, part_of


def seat_clients(server, connect, table):
    clients = {s["seat"]: connect(s["code"]) for s in table["seats"] if s["code"]}
    teacher = connect(table["teacher"])
    for c in [*clients.values(), teacher]:
        c.wait_step(1)
    return clients, teacher


def test_sigkill_mid_game_and_restart_resumes_every_table(tmp_path) -> None:
    server = ServerProcess(tmp_path / "kill.db")
    opened = []
    try:

        def connect(code):
            from conftest import Client

            c = Client(server, code)
            opened.append(c)
            return c

        five = server.create(game="five_sons", players=4, seed=21, pace=0)
        hearts = server.create(
            game="hearts",
            players=4,
            seed=22,
            options={"single": True},
            pace=0,
            bots={"1": "rules", "2": "counting", "3": "random"},
        )
        fc, ft = seat_clients(server, connect, five)
        hc, ht = seat_clients(server, connect, hearts)
        rng = random.Random(5)
        policy = five_sons_policy(rng, claim_rate=0.0)
        sent5 = []
        for _ in range(9):  # nine steps of Five Sons by its four students
            k, mover = fc[0].obs["step"], fc[0].obs["to_move"]
            action = policy(fc[mover].obs)
            fc[mover].act(action, step=k)
            sent5.append(action)
            for c in [*fc.values(), ft]:
                c.wait_step(k + 1)
        sent_h = []
        for _ in range(4):  # Hearts: seat 0 passes three cards, then waits for its turn to play
            obs = hc[0].obs
            action = obs["legal"][0]
            hc[0].act(action, step=obs["step"])
            sent_h.append(action)
            hc[0].wait_step(obs["step"] + 1)
            ht.wait_step(obs["step"] + 1)
            while hc[0].obs["to_move"] != 0:
                hc[0].recv()
        ht.wait_step(hc[0].obs["step"])
        before = {t: server.get(f"/api/tables/{t}/record")[1] for t in (five["table"], hearts["table"])}
        last = {(t, s): c.obs for t, cs in ((1, fc), (2, hc)) for s, c in cs.items()}
        server.kill()
        assert not server.alive()

        server.start()  # the same file; a new port: the clients come back with their codes
        after = {t: server.get(f"/api/tables/{t}/record")[1] for t in before}
        assert after == before
        fc2, ft2 = seat_clients(server, connect, five)
        hc2, ht2 = seat_clients(server, connect, hearts)
        for (t, s), obs in last.items():
            again = (fc2 if t == 1 else hc2)[s]
            game_of = lambda o: {k: v for k, v in o.items() if k != "connected"}  # noqa: E731 (who is here moved)
            assert game_of(again.obs) == game_of(obs), f"table {t} seat {s} did not resume where it was"
        # both tables play on to the end
        sent5 += play_out(fc2, [ft2], five_sons_policy(rng))
        record = Record.from_dict(server.get(f"/api/tables/{five['table']}/record")[1])
        assert record.to_dict() == local_game("five_sons", 4, {}, 21, sent5).record().to_dict()
        while not hc2[0].obs["is_over"]:
            obs = hc2[0].obs
            if obs["to_move"] == 0:
                hc2[0].act(obs["legal"][0], step=obs["step"])
            hc2[0].recv()
        assert Timeline(Record.from_dict(server.get(f"/api/tables/{hearts['table']}/record")[1])).game.is_over
    finally:
        for c in opened:
            c.close()
        server.stop()


def test_client_dropped_during_its_answer_reconnects_to_the_same_seat(server, connect) -> None:
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    clients, teacher = seat_clients(server, connect, table)
    clients[1].act(ask(2, "QC", "8H"), step=1)
    for c in [*clients.values(), teacher]:
        c.wait_step(2)
    assert clients[2].obs["legal"] == [{"type": "show", "card": "QC"}]  # forced: the only legal answer
    clients[2].close()  # dropped while it must answer
    # the server does not give the forced answer itself: nothing happens while seat 2 is away
    assert clients[0].quiet(0.5) == [] and teacher.quiet(0.1) == []
    again = connect(table["seats"][2]["code"])
    obs = again.wait_step(2)
    assert obs == clients[2].obs and obs["seat"] == 2 and obs["phase"] == "answer" and obs["to_move"] == 2
    again.act({"type": "show", "card": "QC"}, step=2)
    for c in [again, clients[0], clients[1], teacher]:
        c.wait_step(3)
    assert (
        part_of(clients[1].obs["events"][-1], 1)["card"] == "QC"
        and "private" not in clients[0].obs["events"][-1]
    )


def test_bad_input_gets_a_clear_error_and_changes_nothing(server, connect) -> None:
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    other = server.create(game="five_sons", players=4, seed=3, pace=0, bots={"2": "logic", "3": "random"})
    clients, teacher = seat_clients(server, connect, table)
    oc, ot = seat_clients(server, connect, other)
    local = Game.registry["five_sons"]._blank(4, {}, None)
    local.apply(local.action_from_json({"type": "deal", **DEAL}))
    big = json.dumps({"type": "act", "action": "x" * 9000})
    cases = [
        (1, "not json{", "malformed JSON"),
        (1, "[1, 2]", "a JSON object with a 'type'"),
        (1, json.dumps({"type": "hello"}), "unknown message type 'hello'"),
        (1, big, "over the limit of 8192"),
        (1, json.dumps({"type": "act"}), "needs an 'action'"),
        (1, json.dumps({"type": "act", "action": ask(2, "QC", "8H"), "seat": 3}), "only for its own seat"),
        (0, json.dumps({"type": "act", "action": ask(2, "QC", "8H")}), "it is not your turn"),
        (1, json.dumps({"type": "act", "action": {"type": "fly"}}), "unknown Five Sons action type 'fly'"),
        (1, json.dumps({"type": "act", "action": ask(1, "QC", "8H")}), local.why_illegal(ask(1, "QC", "8H"))),
        (1, json.dumps({"type": "act", "action": ask(2, "8H", "QC")}), local.why_illegal(ask(2, "8H", "QC"))),
        (1, json.dumps({"type": "act", "action": ask(2, "QC", "8H"), "step": 0}), "stale message"),
        (1, json.dumps({"type": "act", "action": ask(2, "QC", "8H"), "step": True}), "stale message"),
    ]
    for seat, text, words in cases:
        clients[seat].send(text)
        message = clients[seat].wait_error()
        assert words in message, (text[:60], message)
    teacher.send(json.dumps({"type": "act", "action": ask(2, "QC", "8H")}))
    assert "the teacher's code watches" in teacher.wait_error()
    clients[1].ws.send_binary(b"\x00\x01")
    assert "binary messages" in clients[1].wait_error()
    # nobody else heard of any of it, and nothing changed
    assert all(c.quiet(0.2) == [] for s, c in clients.items() if s != 1)
    status, tables = server.get("/api/tables")
    assert tables["tables"][0]["step"] == 1
    # a replayed message: accepted once, refused the second time
    good = json.dumps({"type": "act", "action": ask(2, "QC", "8H"), "step": 1})
    clients[1].send(good)
    clients[1].wait_step(2)
    clients[1].send(good)
    assert "stale message" in clients[1].wait_error()
    # a flood: dropped over the rate limit, with a few errors, not one per message
    clients[0].errors.clear()
    for _ in range(200):
        clients[0].send(json.dumps({"type": "hello"}))
    clients[0].quiet(0.6)
    flood = [e for e in clients[0].errors if e.startswith("too many messages")]
    answered = [e for e in clients[0].errors if e.startswith("unknown message type")]
    # a burst of 20 and 10 a second are answered; the rest are dropped, with one warning a second
    assert 1 <= len(flood) <= 5 and 20 <= len(answered) <= 60, (len(flood), len(answered))
    # over the limit, the move of the seat to move is still taken (the game allows one a step): a quick
    # client loses no move
    for c in clients.values():
        c.wait_step(2)
    mover = clients[0].obs["to_move"]
    k = clients[mover].obs["step"]
    for _ in range(60):
        clients[mover].send(json.dumps({"type": "hello"}))
    clients[mover].act(clients[mover].obs["legal"][0], step=k)
    clients[mover].wait_step(k + 1)
    # a wrong code, and a code of no seat
    for code in ("nope", ""):
        bad = connect(code)
        assert "unknown or stale join code" in bad.wait_error()
    # the server and the other table go on
    assert server.alive() and server.get("/api/status")[0] == 200
    k = oc[0].obs["step"]
    mover = oc[0].obs["to_move"]
    oc[mover].act(oc[mover].obs["legal"][0], step=k)
    ot.wait_step(k + 1)
    assert server.get("/api/tables")[1]["tables"][0]["step"] == 3  # the good move and the quick one


def test_two_clients_with_the_same_code(server, connect) -> None:
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    code = table["seats"][1]["code"]
    a, b = connect(code), connect(code)
    assert a.wait_step(1) == b.wait_step(1)
    move = json.dumps({"type": "act", "action": ask(2, "QC", "8H"), "step": 1})
    a.send(move)
    assert a.wait_step(2) == b.wait_step(2)
    b.send(move)  # the same move from the other window comes too late: refused, nothing changed
    assert "stale message" in b.wait_error()
    assert a.quiet(0.2) == []
    assert server.get("/api/tables")[1]["tables"][0]["seats"][1]["connected"] == 2


def test_teacher_hands_seats_to_bots_of_every_level(server, connect) -> None:
    five = server.create(game="five_sons", players=4, deal=DEAL, pace=0, bots={"3": "probability"})
    clients, teacher = seat_clients(server, connect, five)
    t = five["table"]
    status, answer = server.request("POST", f"/api/tables/{t}/seats/2", {"bot": "logic"})
    assert status == 200 and answer["code"] is None
    assert "now played by a bot" in clients[2].wait_error()
    stale = connect(five["seats"][2]["code"])
    assert "unknown or stale join code" in stale.wait_error()
    assert server.request("POST", f"/api/tables/{t}/seats/9", {"bot": "logic"})[0] == 404
    assert server.request("POST", f"/api/tables/{t}/seats/1", {"bot": "genius"})[0] == 400
    assert server.request("POST", f"/api/tables/{t}/seats/1", {"bot": "logic"}, token="wrong")[0] == 403
    status, back = server.request("POST", f"/api/tables/{t}/seats/2", {"bot": None})
    assert status == 200 and back["code"] and back["code"] != five["seats"][2]["code"]
    connect(back["code"]).wait_step(1)
    for seat, level in ((0, "random"), (1, "logic"), (2, "probability")):
        assert server.request("POST", f"/api/tables/{t}/seats/{seat}", {"bot": level})[0] == 200
    while not teacher.obs["is_over"]:
        teacher.recv(timeout=60)
    hearts = server.create(
        game="hearts",
        players=4,
        seed=9,
        options={"single": True},
        pace=0,
        bots={"0": "random", "1": "rules", "2": "counting", "3": "counting"},
    )
    watch = connect(hearts["teacher"])
    while watch.obs is None or not watch.obs["is_over"]:
        watch.recv(timeout=60)
    for table in (five, hearts):
        data = server.get(f"/api/tables/{table['table']}/record", token=None)[1]
        assert Timeline(Record.from_dict(data)).game.is_over


def test_http_api_refuses_bad_requests(server) -> None:
    assert server.get("/api/tables", token=None)[0] == 403
    assert server.get("/api/tables", token="not-it")[0] == 403
    bad_bodies = [
        ({"game": "chess"}, "game must be one of"),
        ({"game": "five_sons", "players": 7}, "4 or 5 players"),
        ({"game": "five_sons", "players": "4"}, "players must be an integer"),
        ({"game": "hearts", "players": 4, "bots": {"1": "genius"}}, "the hearts levels are"),
        ({"game": "hearts", "players": 4, "bots": {"4": "rules"}}, "not a seat"),
        ({"game": "five_sons", "colour": "red"}, "unknown fields ['colour']"),
        ({"game": "five_sons", "options": {"ask_mode": "shout"}}, "ask_mode"),
        ({"game": "five_sons", "deal": {"hands": [["QC"]] * 4, "secret": ["KS", "TH"]}}, "deal is refused"),
        ({"game": "five_sons", "pace": -1}, "pace must be"),
    ]
    for body, words in bad_bodies:
        status, answer = server.request("POST", "/api/tables", body)
        assert status == 400 and words in answer["error"], (body, answer)
    status, answer = server.request("POST", "/api/tables", raw=b"{not json")
    assert status == 400 and "malformed JSON" in answer["error"]
    assert server.get("/api/tables")[1] == {"tables": []}  # nothing was created
    table = server.create(game="five_sons", players=5, seed=1)
    assert server.get(f"/api/tables/{table['table']}/record", token=None)[0] == 403  # not over yet
    assert server.get(f"/api/tables/{table['table']}/record")[0] == 200  # the teacher's
    assert server.get("/api/tables/99/record")[0] == 404


def test_bots_move_at_the_tables_pace_answers_too(server, connect) -> None:
    """Every bot step, each answer included (forced or chosen alike), waits the table's pace after the
    step before it (the accepted times in the database): the server never answers at once."""
    import sqlite3

    pace = 0.25
    table = server.create(
        game="five_sons", players=4, deal=DEAL, pace=pace, bots={str(s): "logic" for s in range(4)}
    )
    watch = connect(table["teacher"])
    while watch.obs is None or watch.obs["step"] < 12:
        watch.recv(timeout=30)
    db = sqlite3.connect(server.db)
    rows = db.execute(
        "SELECT n, action, accepted FROM steps WHERE table_id = ? ORDER BY n", (table["table"],)
    ).fetchall()
    db.close()
    answers = [n for n, action, _at in rows if json.loads(action)["type"] in ("show", "neither")]
    assert answers, "no answer was given in the first steps"
    gaps = [b[2] - a[2] for a, b in zip(rows[1:], rows[2:])]  # bot steps after the deal's first step
    assert min(gaps) >= pace - 0.01, gaps
    for n in answers:
        assert rows[n][2] - rows[n - 1][2] >= pace - 0.01


def test_a_giant_frame_closes_only_its_connection(server, connect) -> None:
    """Frames over 64 KiB are not even read: that connection is closed (1009), the seat can rejoin,
    the table and the server go on."""
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
    code = table["seats"][1]["code"]
    big, other = connect(code), connect(table["seats"][0]["code"])
    big.wait_step(1)
    other.wait_step(1)
    big.send(json.dumps({"type": "act", "action": "x" * 70_000}))
    with pytest.raises(ConnectionError):
        for _ in range(5):
            big.recv(timeout=10)
    assert other.quiet(0.2) == []
    again = connect(code)
    again.wait_step(1)
    again.act(ask(2, "QC", "8H"), step=1)
    assert other.wait_step(2)["phase"] == "answer"

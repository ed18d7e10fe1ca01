"""Who is here (issue 27 item 8): each seat's connected flag in every observation (a public fact), told to
every window as a change frame when it changes; a table's grace period after which a bot plays only the
turns of a student who is away (never while a window of theirs is open), the student taking the seat back
on reconnecting with the same code; and the package's client coming back with jittered backoff."""

from __future__ import annotations

import random
import time

from conftest import ASK, DEAL, Client, ServerProcess, free_port, run_async

from qardlab.classroom.client import RETRY, RemoteSource, backoff


def _flags(client) -> list[bool]:
    return client.obs["connected"]


def test_every_observation_carries_who_is_here_and_a_change_is_told(server, connect) -> None:
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0, bots={"3": "logic"})
    teacher = connect(table["teacher"], "changes")
    assert teacher.wait_step(1)["connected"] == [False, False, False, True]  # a bot is always here
    old = connect(table["seats"][1]["code"])  # a client of the first form: whole observations
    assert old.wait_step(1)["connected"] == [False, True, False, True]
    teacher.recv()  # told at once, as a change frame of that flag alone
    assert teacher.frames[-1].startswith('{"type":"change"') and _flags(teacher) == [False, True, False, True]
    seat0 = connect(table["seats"][0]["code"], "changes")
    assert seat0.wait_step(1)["connected"] == [True, True, False, True]
    teacher.recv()
    assert _flags(teacher) == [True, True, False, True]
    assert old.quiet(0.3) == []  # a whole-observation client sees the flag in its next observation only
    seat0.close()
    teacher.recv()
    assert _flags(teacher) == [False, True, False, True] and teacher.obs["step"] == 1
    # the teacher's listing says the same
    status, listing = server.get("/api/tables")
    seats = listing["tables"][0]["seats"]
    assert [s["connected"] for s in seats] == [0, 1, 0, 0] and not any(s["away"] for s in seats)
    # a second window of a seat that is here already changes nothing
    again = connect(table["seats"][1]["code"], "changes")
    assert again.wait_step(1)["connected"] == [False, True, False, True]
    assert teacher.quiet(0.3) == []


def test_a_client_may_ask_for_the_whole_observation(server, connect) -> None:
    table = server.create(game="hearts", players=4, seed=3, pace=0)
    c = connect(table["seats"][0]["code"], "changes")
    first = c.wait_step(1)
    c.send('{"type": "observation"}')
    msg = c.recv()
    assert msg["type"] == "observation" and msg["observation"] == first
    c.send('{"type": "observation", "seat": 2}')
    assert "has only 'type'" in c.wait_error()
    bad = connect(table["seats"][1]["code"], "everything")
    assert "frames must be 'full' or 'changes'" in bad.wait_error()


def test_after_the_grace_period_a_bot_plays_only_the_away_students_turns(tmp_path) -> None:
    server = ServerProcess(tmp_path / "class.db")
    try:
        table = server.create(
            game="five_sons", players=4, deal=DEAL, pace=0, grace=0.5, stand_in="random", orders={}
        )
        codes = [s["code"] for s in table["seats"]]
        watch = Client(server, table["teacher"], "changes")
        seats = {s: Client(server, codes[s], "changes") for s in range(4)}
        watch.wait_step(1)
        seats[1].act(ASK, step=1)  # seat 1 (left of the dealer) asks seat 2; seat 2's answer is due
        watch.wait_step(2)
        assert watch.obs["to_move"] == 2
        seats[2].close()  # seat 2 leaves on its turn
        time.sleep(0.3)  # within the grace period nothing is played for it
        watch.quiet(0.1)
        assert watch.obs["step"] == 2 and watch.obs["connected"][2] is False
        watch.wait_step(3)  # after the grace: the stand-in answers for seat 2
        status, listing = server.get("/api/tables")
        assert listing["tables"][0]["seats"][2]["away"] is True
        # the claim round after the answer: the students here decide for themselves (no standing orders)
        assert watch.obs["phase"] == "claim" and watch.obs["to_move"] == 1
        mover = watch.obs["to_move"]
        time.sleep(0.8)
        watch.quiet(0.2)
        assert watch.obs["step"] == 3 and watch.obs["to_move"] == mover  # never a present student's turn
        back = Client(server, codes[2], "changes")  # the same code: the seat is the student's again
        assert back.wait_step(3)["seat"] == 2
        status, listing = server.get("/api/tables")
        assert listing["tables"][0]["seats"][2]["away"] is False
        # the others pass; at seat 2's claim chance the table waits for the student (here now)
        while watch.obs["to_move"] != 2:
            k, m = watch.obs["step"], watch.obs["to_move"]
            seats[m].act({"type": "no_claim"}, step=k)
            watch.wait_step(k + 1)
        k = watch.obs["step"]
        time.sleep(1.0)
        watch.quiet(0.2)
        assert (
            watch.obs["step"] == k and watch.obs["to_move"] == 2
        )  # nothing played for a student who is here
        back.act({"type": "no_claim"}, step=k)
        assert watch.wait_step(k + 1)["step"] == k + 1
        for c in [watch, back, *seats.values()]:
            c.close()
    finally:
        server.stop()


def test_without_a_grace_period_the_table_waits_and_a_bad_one_is_refused(server, connect) -> None:
    table = server.create(game="five_sons", players=4, deal=DEAL, pace=0, orders={})
    status, body = server.request("POST", "/api/tables", {"game": "hearts", "grace": -1})
    assert status == 400 and "grace must be a number of seconds from 0 to 3600" in body["error"]
    status, body = server.request("POST", "/api/tables", {"game": "hearts", "grace": 5, "stand_in": "logic"})
    assert status == 400 and "stand_in: the hearts bot levels are" in body["error"]
    watch = connect(table["teacher"], "changes")
    asker = connect(table["seats"][1]["code"])
    answerer = connect(table["seats"][2]["code"])
    asker.act(ASK, step=1)
    watch.wait_step(2)
    answerer.close()
    time.sleep(1.0)
    watch.quiet(0.2)
    assert watch.obs["step"] == 2 and watch.obs["to_move"] == 2  # no grace set: it waits for the student


def test_a_student_who_never_came_is_not_away(tmp_path) -> None:
    """Only a student who has been at the table can be away: a seat whose student has not joined yet waits
    (a class takes minutes to sit down)."""
    server = ServerProcess(tmp_path / "class.db")
    try:
        table = server.create(game="five_sons", players=4, deal=DEAL, pace=0, grace=0, orders={})
        watch = Client(server, table["teacher"], "changes")
        asker = Client(server, table["seats"][1]["code"])
        asker.act(ASK, step=1)
        watch.wait_step(2)
        time.sleep(0.8)
        watch.quiet(0.2)
        assert watch.obs["step"] == 2 and watch.obs["to_move"] == 2  # seat 2 never came: no stand-in
        watch.close()
        asker.close()
    finally:
        server.stop()


def test_reconnections_are_jittered() -> None:
    rng = random.Random(27)
    firsts = [backoff(0, RETRY, rng) for _ in range(30)]  # thirty pages dropped at once
    assert all(0.5 * RETRY[0] <= d <= 1.5 * RETRY[0] for d in firsts)
    assert max(firsts) - min(firsts) > 0.6 * RETRY[0]  # spread over the interval, not one tick
    assert len({round(d, 3) for d in firsts}) >= 25
    assert all(0.5 * RETRY[-1] <= backoff(n, RETRY, rng) <= 1.5 * RETRY[-1] for n in range(len(RETRY), 20))


def test_the_package_client_holds_the_observation_and_comes_back_after_a_restart(tmp_path) -> None:
    """RemoteSource asks for change frames; after SIGKILL and a restart on the same file it reconnects by
    itself and holds the server's observation again, connected flags included."""
    port = free_port()
    server = ServerProcess(tmp_path / "class.db", port=port)
    table = server.create(game="hearts", players=4, seed=5, pace=0, bots={"1": "random", "2": "random"})

    async def scenario() -> None:
        import asyncio

        a = await RemoteSource.open(server.url, table["seats"][0]["code"])
        b = await RemoteSource.open(server.url, table["seats"][3]["code"])
        await a.wait(lambda o: o["connected"] == [True, True, True, True])
        assert "frames=changes" in a.url
        server.kill()
        await a.wait(lambda o: not a.connected, timeout=10)
        await asyncio.get_running_loop().run_in_executor(None, server.start)
        await a.wait(lambda o: a.connected and o["connected"] == [True, True, True, True], timeout=20)
        await b.wait(lambda o: b.connected, timeout=20)
        assert a.connections == 2 and b.connections == 2
        a.close()
        await b.wait(lambda o: o["connected"] == [False, True, True, True], timeout=10)
        b.close()

    try:
        run_async(scenario())
    finally:
        server.stop()


def test_the_felt_marks_who_is_here_in_shape_and_words() -> None:
    """The felt of a class table's observation marks each seat (a filled dot here, a hollow ring away) with
    words for a screen reader; a local table's observation has no flags and no marks."""
    from qardlab.engine import find_game
    from qardlab.widgets import felt

    for name, draw in (("hearts", felt.hearts_felt), ("five_sons", felt.five_sons_felt)):
        g = find_game(name)._blank(4, {}, 3)
        g.apply(g.chance_outcome())
        obs = g.observation_json(0)
        assert "qard-presence" not in draw(obs)
        names = obs["names"]
        html = draw({**obs, "connected": [True, False, True, True]})
        assert html.count('class="qard-presence qard-here"') == 3
        assert html.count('class="qard-presence qard-away"') == 1
        assert f'aria-label="{names[1]} is away: not connected"' in html
        assert f'aria-label="{names[2]} is here"' in html and 'role="img"' in html

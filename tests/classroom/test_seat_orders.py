"""A class table's seat driver over the wire: nothing is sent for a student who has not acted (a forced
answer and "neither" are the student's clicks too), and the students' standing orders ("pass on claims
unless I claim", on by default at class tables) are kept by the server, set by an ``orders`` message,
checked, told to every window of the seat, kept across a server restart (the join page sends them
again), and the table option ``orders`` sets them for every student at creation."""

from __future__ import annotations

import asyncio
import json

import pytest
from conftest import ServerProcess, free_port, run_async

from qardlab.classroom import join
from qardlab.classroom.store import Store
from qardlab.classroom.tables import Classroom, RequestError
from qardlab.engine import Record

# Bob (seat 1) holds the Q♣ and not the 8♥: Alice's first question forces his answer; Alice holds neither
# the Q♥ nor the 5♥
HANDS = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "9H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "8H"],
]
DEAL = {"hands": HANDS, "secret": ["KS", "TH"], "dealer": 3}  # dealer 3: Alice asks first
PASS_ON = {"pass_claims": True, "claim": None}


async def until(predicate, timeout: float = 15.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def lit(table, seat: int) -> list[str]:
    """The cards of ``seat``'s hand a click may play (the others are dimmed with the reason)."""
    view = table.hands[seat]
    if view.mode != "buttons":
        return []
    return [c.code for c in view._cards if "qard-illegal" not in view.button_for(c)._dom_classes]


def play_one(table, obs) -> None:
    """The student's click for ``obs`` (their turn): the first question, the card lit, Neither, No claim."""
    if obs["phase"] == "ask":
        a = obs["legal"][0]
        assert table.ask(a["target"], a["face"], a["number"])
    elif obs["phase"] == "answer":
        first = obs["legal"][0]
        if first["type"] == "neither":
            assert table.answer()
        else:
            table.hands[table.human].click(first["card"])
    else:
        table.no_claim_button.click()


@pytest.fixture
def srv(tmp_path):
    s = ServerProcess(tmp_path / "orders.db", port=free_port())
    yield s
    s.stop()


def test_a_joined_seat_with_one_or_neither_named_card_sends_nothing_until_the_student_acts(srv) -> None:
    table = srv.create(
        game="five_sons", players=4, deal=DEAL, pace=0.2, bots={"2": "logic", "3": "logic"}, orders=None
    )

    def server_step() -> int:
        return srv.get("/api/tables")[1]["tables"][0]["step"]

    async def main() -> None:
        alice = await join(srv.url, table["seats"][0]["code"], charts=False)
        bob = await join(srv.url, table["seats"][1]["code"], charts=False)
        # a class table: "pass on claims unless I claim" is on for every student, and their tables say so
        await until(lambda: bob.remote.orders(1) == PASS_ON and alice.remote.orders(0) == PASS_ON)
        await until(lambda: bob.auto_pass.value and alice.auto_pass.value)
        assert alice.ask(1, "QC", "8H")
        await bob.remote.wait(lambda o: o["step"] == 2)
        # Bob holds only the Q♣: his table lights that one card and waits for him, and nothing is sent
        assert bob.human_to_act() and lit(bob, 1) == ["QC"] and "Click the card you hold" in bob.prompt.value
        await asyncio.sleep(1.0)
        assert server_step() == 2 and bob.observation(1)["step"] == 2
        bob.hands[1].click("QC")
        await alice.remote.wait(lambda o: o["step"] == 3)
        # Alice decides after her own question; Bob's chance then passes by his standing order, not a click
        assert alice.human_to_act() and "Your question is answered" in alice.prompt.value
        alice.no_claim_button.click()
        obs = await bob.remote.wait(lambda o: o["phase"] == "ask" and o["to_move"] == 1)
        assert [e["seat"] for e in obs["events"] if e["kind"] == "no_claim"] == [0, 1, 2, 3]
        # Bob asks Alice about two cards she does not hold: her table offers Neither, and waits for it
        assert bob.ask(0, "QH", "5H")
        await alice.remote.wait(lambda o: o["phase"] == "answer" and o["to_move"] == 0)
        assert alice.human_to_act() and alice.answer_row.layout.display == "" and lit(alice, 0) == []
        k = alice.observation(0)["step"]
        await asyncio.sleep(1.0)
        assert server_step() == k
        alice.neither_button.click()
        await bob.remote.wait(lambda o: o["step"] > k)
        record = Record.from_dict(srv.get(f"/api/tables/{table['table']}/record")[1])
        assert [type(a).__name__ for a in record.replay().history[1:4]] == ["Ask", "Show", "NoClaim"]
        assert type(record.replay().history[k]).__name__ == "Neither"
        # Bob turns his order off; a restarted server forgets it, and Bob's page sends it again
        bob.auto_pass.value = False
        await until(lambda: bob.remote.orders(1)["pass_claims"] is False)
        srv.kill()
        await until(lambda: not bob.remote.connected)
        # a dropped seat says so (not "Stepping through: go to the last step to play.")
        assert "Connection to the table lost: reconnecting" in bob.prompt.value
        assert "Stepping through" not in bob.prompt.value + alice.prompt.value
        srv.start()
        await bob.remote.wait(lambda o: bob.remote.connected, 20)
        await asyncio.sleep(0.5)  # the server's orders frame (the table's own) and its answer to Bob's
        assert bob.remote.orders(1)["pass_claims"] is False and not bob.auto_pass.value
        # so his next claim chance after another's question waits for his click (the students play on)
        seen_wait = False
        for _ in range(200):
            obs = await bob.remote.wait(lambda o: o["is_over"] or o["to_move"] in (0, 1), 30)
            if obs["is_over"]:
                break
            who = {0: alice, 1: bob}[obs["to_move"]]
            await until(lambda w=who, k=obs["step"]: w.human_to_act() or w.observation(w.human)["step"] > k)
            if not who.human_to_act():  # a standing order (Alice's) played it
                continue
            k, mine = obs["step"], who.observation(who.human)
            if mine["phase"] == "claim" and who is bob and mine["question"]["asker"] != 1:
                await asyncio.sleep(0.6)
                assert server_step() == k and bob.human_to_act()  # not passed for him
                seen_wait = True
            play_one(who, mine)
            await bob.remote.wait(lambda o, k=k: o["step"] > k)
            if seen_wait:
                break
        assert seen_wait, "no claim chance of Bob after another's question came"
        for t in (alice, bob):
            t.close()

    run_async(main())


class Conn:
    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed = None

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_orders_messages_are_checked_told_to_every_window_and_kept_with_the_table(tmp_path) -> None:
    room = Classroom(Store(tmp_path / "o.db"), "token")
    made = room.create({"game": "five_sons", "players": 4, "deal": DEAL, "bots": {"3": "logic"}})
    table = room.tables[made["table"]]
    assert table.orders == {"pass_claims": True}  # the class default: the game's recommended orders
    assert [table.driver.orders(s) for s in (0, 1, 2)] == [PASS_ON] * 3
    a, b, watch = Conn(), Conn(), Conn()
    code = made["seats"][1]["code"]
    assert room.connect(a, code) and room.connect(b, code) and room.connect(watch, made["teacher"])
    # a seat whose orders are not the game's defaults is told them first, then sent its observation
    assert [m["type"] for m in a.sent] == ["orders", "observation"] and a.sent[0]["orders"] == PASS_ON
    assert [m["type"] for m in watch.sent] == ["observation"]
    bad = [
        ({"type": "orders", "orders": {"pass_claims": "yes"}}, "orders: pass_claims must be true or false"),
        ({"type": "orders", "orders": {"autoplay": True}}, "orders: unknown standing orders ['autoplay']"),
        (
            {"type": "orders", "orders": {"claim": {"type": "claim", "face": "2H", "number": "KS"}}},
            "a claim names",
        ),
        ({"type": "orders", "orders": []}, "orders: standing orders are an object"),
        ({"type": "orders"}, "an 'orders' message has 'orders'"),
        ({"type": "orders", "orders": {}, "seat": 2}, "an 'orders' message has 'orders'"),
    ]
    for msg, words in bad:
        n = len(a.sent)
        room.receive(a, json.dumps(msg))
        assert (
            a.sent[n:] == [{"type": "error", "message": a.sent[-1]["message"]}]
            and words in a.sent[-1]["message"]
        )
    assert table.driver.orders(1) == PASS_ON and len(b.sent) == 2  # nothing changed, nobody else told
    room.receive(watch, json.dumps({"type": "orders", "orders": {"pass_claims": False}}))
    assert "the teacher's code watches" in watch.sent[-1]["message"]
    claim = {"type": "claim", "face": "KS", "number": "TH"}
    room.receive(a, json.dumps({"type": "orders", "orders": {"claim": claim}}))
    told = {"type": "orders", "seat": 1, "orders": {"pass_claims": True, "claim": claim}}
    assert a.sent[-1] == told and b.sent[-1] == told and table.driver.orders(1) == told["orders"]
    # the table option: checked at creation, kept with the table (a restarted server gives it again)
    with pytest.raises(RequestError, match="orders: unknown standing orders"):
        room.create({"game": "five_sons", "orders": {"claims": "pass"}})
    quiet = room.create({"game": "five_sons", "players": 4, "seed": 2, "orders": {}})
    hearts = room.create({"game": "hearts", "players": 4, "seed": 2})
    assert room.tables[hearts["table"]].orders == {}  # Hearts gives no standing orders
    with pytest.raises(RequestError, match="unknown standing orders"):
        room.create({"game": "hearts", "orders": {"pass_claims": True}})
    # a seat handed to a bot and back to a student starts again from the table's orders
    room.set_seat(table.id, 1, {"bot": "logic"})
    room.set_seat(table.id, 1, {"bot": None})
    assert table.driver.orders(1) == PASS_ON
    room.close()
    again = Classroom(Store(tmp_path / "o.db"), "token")
    assert again.tables[table.id].orders == {"pass_claims": True}
    assert again.tables[quiet["table"]].orders == {} and again.tables[quiet["table"]].driver.orders(0) == {
        "pass_claims": False,
        "claim": None,
    }
    again.close()

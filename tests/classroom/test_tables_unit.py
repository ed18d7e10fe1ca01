"""The tables' logic in this process (no web layer): nobody is told of a step before it is committed,
and a step that cannot be stored is undone and said so; bots never act on an uncommitted state's
behalf of a student. Connections here are plain objects that keep what they are sent."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from qardlab.classroom.store import Store
from qardlab.classroom.tables import Classroom, RequestError

DEAL = {"hands": [["JC", "KC", "JD", "AH", "2H"], ["QD", "KD", "JH", "3H", "4H"],
                  ["QC", "9H", "QH", "5H", "6H"], ["KH", "JS", "QS", "7H", "8H"]],
        "secret": ["KS", "TH"], "dealer": 0}
ASK = {"type": "ask", "target": 2, "face": "QC", "number": "8H"}


class Conn:
    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed = None

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


class SlowStore(Store):
    """A store whose commits wait for the test's word (or fail when told to)."""

    def __init__(self, path) -> None:
        super().__init__(path)
        self.go = threading.Event()
        self.fail = False

    def add_steps(self, steps) -> None:
        self.go.wait(10)
        if self.fail:
            raise OSError("disk full")
        super().add_steps(steps)


def test_nobody_is_told_before_the_commit_and_a_lost_commit_is_undone(tmp_path) -> None:
    store = SlowStore(tmp_path / "t.db")

    async def main() -> None:
        room = Classroom(store, "token")
        store.go.set()
        made = room.create({"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0})
        store.go.clear()
        table = room.tables[made["table"]]
        seats = [Conn() for _ in range(4)]
        for conn, s in zip(seats, made["seats"]):
            assert room.connect(conn, s["code"])
        room.receive(seats[1], json.dumps({"type": "act", "action": ASK, "step": 1}))
        assert table.game.step == 2 and table.told.step == 1  # applied, not yet on disk
        await asyncio.sleep(0.2)
        assert all(len(c.sent) == 1 for c in seats)  # nobody heard of it while it is being written
        late = Conn()
        room.connect(late, made["seats"][0]["code"])
        assert late.sent[0]["observation"]["step"] == 1  # a newcomer gets the committed state
        assert room.record(table.id, teacher=True)["actions"][-1]["type"] == "deal"
        store.go.set()
        for _ in range(100):
            await asyncio.sleep(0.02)
            if all(len(c.sent) == 2 for c in seats):
                break
        assert [c.sent[-1]["observation"]["step"] for c in seats] == [2, 2, 2, 2]
        # a commit that fails: the step is undone, every client of the table is told, nothing else moved
        store.go.clear()
        store.fail = True
        room.receive(seats[2], json.dumps({"type": "act", "action": {"type": "show", "card": "QC"}}))
        assert table.game.step == 3
        store.go.set()
        for _ in range(100):
            await asyncio.sleep(0.02)
            if table.game.step == 2:
                break
        assert table.game.step == 2 and table.told.step == 2
        assert all("could not store" in c.sent[-1]["message"] for c in seats)
        store.fail = False
        room.receive(seats[2], json.dumps({"type": "act", "action": {"type": "show", "card": "QC"}}))
        for _ in range(100):
            await asyncio.sleep(0.02)
            last = seats[0].sent[-1]
            if last.get("type") == "observation" and last["observation"]["step"] == 3:
                break
        assert seats[0].sent[-1]["observation"]["step"] == 3
        room.close()

    asyncio.run(main())
    again = Classroom(Store(tmp_path / "t.db"), "token")  # what is on disk: the deal, the ask, the answer
    assert next(iter(again.tables.values())).game.step == 3


def test_create_refuses_what_it_cannot_set_up(tmp_path) -> None:
    room = Classroom(Store(tmp_path / "u.db"), "token")
    with pytest.raises(RequestError, match="options must be a JSON object"):
        room.create({"game": "five_sons", "options": {"_given_deal": True}})
    with pytest.raises(RequestError, match="a Five Sons deal has hands, secret, dealer"):
        room.create({"game": "five_sons", "deal": {**DEAL, "colour": 1}})
    assert room.tables == {}
    room.close()

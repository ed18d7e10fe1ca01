"""The tables' logic in this process (no web layer): nobody is told of a step before it is committed,
steps of several tables accepted in one turn of the event loop share one commit, and a step that
cannot be stored is undone and said so. Connections here are plain objects keeping what they get."""

from __future__ import annotations

import asyncio
import json

import pytest
from conftest import ASK, DEAL, run_async

from qardlab.classroom.commits import RETRY_FAULT
from qardlab.classroom.store import Store
from qardlab.classroom.tables import Classroom, RequestError


class Conn:
    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed = None

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


class FlakyStore(Store):
    """A store whose commits fail when told to."""

    fail = False
    commits = 0

    def add_steps(self, steps) -> None:
        if self.fail:
            raise OSError("disk full")
        self.commits += 1
        super().add_steps(steps)


async def turn() -> None:
    """Let the event loop run the callbacks due (the commit after a message)."""
    for _ in range(3):
        await asyncio.sleep(0)


def test_nobody_is_told_before_the_commit_and_a_lost_commit_is_undone(tmp_path) -> None:
    async def main() -> None:
        store = FlakyStore(tmp_path / "t.db")  # made in the loop's thread, as the server makes its store
        room = Classroom(store, "token")
        # (no standing orders: every student answers every claim chance, as the script below does)
        made = room.create({"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0, "orders": {}})
        table = room.tables[made["table"]]
        seats = [Conn() for _ in range(4)]
        for conn, s in zip(seats, made["seats"]):
            assert room.connect(conn, s["code"])
        room.receive(seats[1], json.dumps({"type": "act", "action": ASK, "step": 1}))
        assert table.game.step == 2 and table.told.step == 1  # applied, not yet on disk
        assert all(len(c.sent) == 1 for c in seats)  # so nobody has heard of it
        late = Conn()
        room.connect(late, made["seats"][0]["code"])
        assert late.sent[0]["observation"]["step"] == 1  # a newcomer gets the committed state
        assert room.record(table.id, teacher=True)["actions"][-1]["type"] == "deal"
        commits = store.commits
        await turn()
        assert store.commits == commits + 1
        assert [c.sent[-1]["observation"]["step"] for c in seats] == [2, 2, 2, 2]
        # two tables' steps in one turn of the loop share one commit
        other = room.create({"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0})
        o1 = Conn()
        room.connect(o1, other["seats"][1]["code"])
        room.receive(o1, json.dumps({"type": "act", "action": ASK, "step": 1}))
        room.receive(seats[2], json.dumps({"type": "act", "action": {"type": "show", "card": "QC"}}))
        commits = store.commits
        await turn()
        assert store.commits == commits + 1 and seats[0].sent[-1]["observation"]["step"] == 3
        # a commit that fails once: kept, tried again, stored; nobody was told of it before, nothing lost
        store.fail = True
        room.receive(seats[1], json.dumps({"type": "act", "action": {"type": "no_claim"}}))
        assert table.game.step == 4
        await turn()
        assert table.game.step == 4 and table.told.step == 3 and room._retry_due is not None
        assert [c.sent[-1]["observation"]["step"] for c in seats] == [3, 3, 3, 3]
        store.fail = False
        await asyncio.sleep(RETRY_FAULT[0] + 0.05)
        assert [c.sent[-1]["observation"]["step"] for c in seats] == [4, 4, 4, 4]
        # a commit that fails at every try: the step is undone, every client of the table is told
        store.fail = True
        room.receive(seats[2], json.dumps({"type": "act", "action": {"type": "no_claim"}}))
        assert table.game.step == 5
        await asyncio.sleep(sum(RETRY_FAULT) + 0.3)
        assert table.game.step == 4 and table.told.step == 4
        assert all("could not store" in c.sent[-1]["message"] for c in seats)
        store.fail = False
        room.receive(seats[2], json.dumps({"type": "act", "action": {"type": "no_claim"}}))
        await turn()
        assert [c.sent[-1]["observation"]["step"] for c in seats] == [5, 5, 5, 5]
        room.close()

    run_async(main())
    again = Classroom(Store(tmp_path / "t.db"), "token")  # what is on disk
    assert [t.game.step for t in again.tables.values()] == [5, 2]


def test_create_refuses_what_it_cannot_set_up(tmp_path) -> None:
    room = Classroom(Store(tmp_path / "u.db"), "token")
    with pytest.raises(RequestError, match="options must be a JSON object"):
        room.create({"game": "five_sons", "options": {"_given_deal": True}})
    with pytest.raises(RequestError, match="a Five Sons deal has hands, secret, dealer"):
        room.create({"game": "five_sons", "deal": {**DEAL, "colour": 1}})
    assert room.tables == {}
    room.close()


def test_a_game_is_loaded_at_its_first_table(tmp_path) -> None:
    """The server's tables import no game until a table of it is made (a server of Five Sons tables starts
    without loading Hearts), yet offer every game of the package; a stored table of a game not loaded yet
    is resumed, and BOT_LEVELS (every game's levels) is still there when asked for."""
    import subprocess
    import sys
    from pathlib import Path

    code = f"""
import asyncio, json, sys
from qardlab.classroom.store import Store
from qardlab.classroom import tables
loaded = lambda: sorted(m.split(".")[2] for m in sys.modules if m.count(".") == 2
                        and m.startswith("qardlab.games."))
out = {{"games": list(tables.GAMES), "before": loaded()}}
async def main():
    room = tables.Classroom(Store({str(tmp_path / "t.db")!r}), "tok")
    room.create({{"game": "five_sons", "players": 4, "seed": 1, "bots": {{"1": "logic"}}}})
    out["five_sons"] = loaded()
    room.close()
    again = tables.Classroom(Store({str(tmp_path / "t.db")!r}), "tok")  # resumed from the file
    out["resumed"] = sorted(t.name for t in again.tables.values())
    again.close()
asyncio.run(main())
out["levels"] = sorted(tables.BOT_LEVELS)
print(json.dumps(out))
"""
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    out = json.loads(run.stdout)
    assert out["games"] == ["five_sons", "hearts"] and out["before"] == []
    assert out["five_sons"] == ["five_sons"] and out["resumed"] == ["five_sons"]
    assert out["levels"] == ["five_sons", "hearts"]


def test_a_revoked_code_is_answered_nothing_of_its_seat(tmp_path) -> None:
    """A seat given a new code: a window still holding the old one (its close under way) that asks for the
    whole observation gets an error, not the seat's hand; the teacher's code still gets the table's."""
    room = Classroom(Store(tmp_path / "t.db"), "token")
    made = room.create({"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0, "orders": {}})
    old, teacher = Conn(), Conn()
    assert room.connect(old, made["seats"][2]["code"]) and room.connect(teacher, made["teacher"])
    new = room.set_seat(made["table"], 2, {"bot": None})
    assert new["code"] != made["seats"][2]["code"] and old.closed is not None
    told = len(old.sent)
    room.receive(old, json.dumps({"type": "observation"}))
    assert [m["type"] for m in old.sent[told:]] == ["error"]
    assert "no longer valid" in old.sent[-1]["message"]
    room.receive(teacher, json.dumps({"type": "observation"}))
    assert teacher.sent[-1]["type"] == "observation" and teacher.sent[-1]["seat"] is None


def test_the_messages_of_a_refused_code_are_not_read(tmp_path) -> None:
    """A window whose code was refused is being closed; what it sends meanwhile is dropped, with no error of
    the server's own (it has no rate limit yet: that is given to a seated window)."""
    room = Classroom(Store(tmp_path / "t.db"), "token")
    room.create({"game": "five_sons", "players": 4, "deal": DEAL, "pace": 0})
    conn = Conn()
    assert not room.connect(conn, "K7QM-4TXD-9HPW")
    told = len(conn.sent)
    room.receive(conn, json.dumps({"type": "orders", "orders": {}}))
    room.receive(conn, json.dumps({"type": "observation"}))
    assert conn.sent[told:] == [] and conn.closed[0] == 4403

"""RemoteSource, the notebook client: a seat's observations over a websocket in an asyncio loop (as a
kernel's), following the widgets' Source protocol; moves, refusals with the engine's text, a server
SIGKILLed and restarted on the same address (the source reconnects by itself), refused codes."""

from __future__ import annotations

import asyncio

import pytest
from conftest import DEAL, ServerProcess, ask, free_port, run_async

from qardlab.classroom import JoinRefused, RemoteSource
from qardlab.engine import IllegalAction, find_game
from qardlab.widgets.source import Source


async def until(predicate, timeout: float = 15.0) -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


def test_remote_source_plays_refuses_and_reconnects(tmp_path) -> None:
    server = ServerProcess(tmp_path / "remote.db", port=free_port())
    try:
        table = server.create(game="five_sons", players=4, deal=DEAL, pace=0)
        local = find_game("five_sons")._blank(4, {}, None)
        local.apply(local.action_from_json({"type": "deal", **DEAL}))

        async def main() -> None:
            srcs = [await RemoteSource.open(server.url, s["code"]) for s in table["seats"]]
            teacher = await RemoteSource.open(server.url, table["teacher"])
            one = srcs[1]
            assert isinstance(one, Source)
            assert (one.game_name, one.players, one.viewpoints, one.seat) == ("five_sons", 4, (1,), 1)
            assert one.names == ["Alice", "Bob", "Carol", "Dave"] and one.live
            assert one.observation(1)["hand"] == DEAL["hands"][1]
            with pytest.raises(ValueError, match="viewpoint 0"):
                one.observation(0)
            assert teacher.viewpoints == (None,) and teacher.observation(None)["secret"] == ["KS", "TH"]
            changes = []
            unsubscribe = srcs[0].observe(lambda s: changes.append(s.observation(0)["step"]))
            # refusals: at once for another seat or out of turn, from the server with the engine's text
            with pytest.raises(IllegalAction, match="cannot act for seat 2"):
                one.act(2, ask(3, "QC", "8H"))
            with pytest.raises(IllegalAction, match="not your turn"):
                srcs[0].act(0, ask(2, "QC", "8H"))
            with pytest.raises(IllegalAction, match="teacher"):
                teacher.act(1, ask(2, "QC", "8H"))
            with pytest.raises(IllegalAction) as refused:
                await one.act_async(1, ask(1, "QC", "8H"))
            assert str(refused.value) == local.why_illegal(ask(1, "QC", "8H"))
            # moves, in the record encoding or as the game's own actions
            from qardlab.games.five_sons import Ask, Show

            obs = await one.act_async(1, Ask(2, "QC", "8H"))
            assert obs["step"] == 2 and obs["phase"] == "answer"
            await until(lambda: srcs[2].observation(2)["step"] == 2)
            await srcs[2].act_async(2, Show("QC"))
            await until(lambda: changes[-1:] == [3])
            assert changes == [2, 3]
            unsubscribe()
            # the server is killed and comes back on the same address: every source reconnects itself
            server.kill()
            await until(lambda: not one.connected)
            server.start()
            await until(lambda: all(s.connections == 2 and s.live for s in [*srcs, teacher]))
            assert one.observation(1)["step"] == 3 and changes == [2, 3]
            await one.act_async(1, {"type": "no_claim"})
            await until(lambda: teacher.observation(None)["step"] == 4)
            for s in [*srcs, teacher]:
                s.close()
            # a code the server refuses is final
            with pytest.raises(JoinRefused, match="unknown or stale join code"):
                await RemoteSource.open(server.url, "not-a-code")

        run_async(main())
    finally:
        server.stop()


def test_importing_the_classroom_loads_no_game_and_a_source_loads_its_own() -> None:
    """``import qardlab.classroom`` (a student's join cell) loads neither the server's tables nor any game;
    BOT_LEVELS is still there (loaded at its first use), and a source's first observation loads its game."""
    import json
    import subprocess
    import sys

    code = """
import json, sys
import qardlab.classroom as c
from qardlab.classroom import RemoteSource
prefixes = ("qardlab.games.", "qardlab.classroom.tables")
loaded = lambda: sorted(m for m in sys.modules if m.startswith(prefixes))
before = loaded()
src = RemoteSource("http://127.0.0.1:1", "code")
obs = {"game": "hearts", "players": 4, "names": ["A", "B", "C", "D"], "step": 0}
src._receive(json.dumps({"type": "observation", "seat": 0, "observation": obs}))
after = loaded()
print(json.dumps([before, "qardlab.games.hearts" in after, src.game_class.__name__,
                  list(c.BOT_LEVELS), "qardlab.classroom.tables" in sys.modules]))
"""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]  # this checkout's qardlab, first on the path of `-c`
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    before, hearts_after, codec, games, tables = json.loads(out.stdout)
    assert before == [] and hearts_after and codec == "Hearts"
    assert games == ["five_sons", "hearts"] and tables

"""One seat driver for every table: the same seeded game, the person's moves made by the same policy, gives
the same record through a local table widget, through the classroom server with a plain protocol client,
and through a joined seat (the server's table drawn by the game's widget): for both games.

The seed deals the game and seeds the bots as the server seeds them (``seed * 100 + seat``); seat 0 is a
person, whose policy reads only its own observation; the local table and the joined one are played by
their widgets' clicks (the question builder, a card, Neither, Claim and its confirmation, No claim, Pass,
Next hand). Five Sons is played with "pass on claims unless I claim" on, a class table's default: the
driver passes the person's other claim chances in all three.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import ServerProcess, run_async

from qardlab.classroom import RemoteSource, join
from qardlab.engine import Record, find_game
from qardlab.games.five_sons.knowledge import knowledge_of
from qardlab.widgets.five_sons import FiveSonsTable
from qardlab.widgets.hearts import HeartsTable

CASES = {
    # game, players, seed, options, the bots' level, the table option "orders"
    "five_sons": ("five_sons", 4, 11, {}, "logic", None),
    "hearts": ("hearts", 4, 5, {"rules": {"target": 40}}, "rules", None),
}


def person(obs: dict[str, Any]) -> Any:
    """The person's move from its own observation (the record encoding)."""
    legal = obs["legal"]
    if obs["game"] == "hearts":
        if obs["phase"] == "pass":
            return sorted(legal)[: obs["cards_to_pass"]]
        return legal[0]
    if obs["phase"] == "ask":
        return random.Random(obs["step"]).choice(legal)
    if obs["phase"] == "answer":
        return legal[0]  # the card lit (both held: the first), or neither
    left = sorted(knowledge_of(obs).candidates(), key=lambda p: (p[0].code, p[1].code))
    if len(left) == 1:
        return {"type": "claim", "face": left[0][0].code, "number": left[0][1].code}
    return {"type": "no_claim"}


def click(table: Any, action: Any) -> None:
    """``action`` (the record encoding) made by the table's own controls, as the person would."""
    if isinstance(table, HeartsTable):
        if isinstance(action, list):
            for c in action:
                assert table.play(c), table.status.value
            table.pass_button.click()
        else:
            assert table.play(action), table.status.value
        return
    kind = action["type"]
    if kind == "ask":
        assert table.ask(action["target"], action["face"], action["number"]), table.status.value
    elif kind in ("show", "neither"):
        assert table.answer(action.get("card")), table.status.value
    elif kind == "claim":
        assert table.claim(action["face"], action["number"]) and table.confirm_claim(), table.status.value
    else:
        table.no_claim_button.click()


def bots(name: str, level: str, seed: int, players: int) -> dict[int, Any]:
    """The bots of seats 1.. as the server makes them."""
    make = find_game(name).bot_makers()[level]
    return {s: make(seed * 100 + s) for s in range(1, players)}


def local_record(name: str, players: int, seed: int, options: dict, level: str) -> dict:
    game = find_game(name).new(players, seed=seed, **options)
    kwargs: dict[str, Any] = {"auto_pass": True} if name == "five_sons" else {}
    t = (FiveSonsTable if name == "five_sons" else HeartsTable)(
        game, seat=0, human=0, bots=bots(name, level, seed, players), charts=False, **kwargs
    )
    for _ in range(2000):
        obs = t.observation(0)
        if obs["is_over"]:
            break
        step = obs["step"]
        if obs["phase"] == "hand_over":
            t.next_hand_button.click()  # the person asks for the next hand
        else:
            assert t.human_to_act(), (step, obs["phase"], obs["to_move"])
            click(t, person(obs))
        assert t.observation(0)["step"] > step, t.status.value
    assert t.observation(0)["is_over"]
    return t.timeline.record.to_dict()


async def protocol_record(srv: ServerProcess, table: dict) -> dict:
    """The person's seat played by a plain protocol client: ``act`` messages, nothing drawn."""
    src = await RemoteSource.open(srv.url, table["seats"][0]["code"])
    try:
        for _ in range(2000):
            obs = await src.wait(lambda o: o["is_over"] or src.waits_for(0), 30)
            if obs["is_over"]:
                break
            await src.act_async(0, person(obs))
    finally:
        src.close()
    return srv.get(f"/api/tables/{table['table']}/record")[1]


async def joined_record(srv: ServerProcess, table: dict) -> dict:
    """The person's seat played by clicks on its joined table (the game's widget over the server)."""
    t = await join(srv.url, table["seats"][0]["code"], charts=False)
    try:
        for _ in range(2000):
            obs = await t.remote.wait(lambda o: o["is_over"] or t.remote.waits_for(0), 30)
            if obs["is_over"]:
                break
            assert t.human_to_act()
            click(t, person(obs))
            await t.remote.wait(lambda o, k=obs["step"]: o["step"] > k, 30)
    finally:
        t.close()
    return srv.get(f"/api/tables/{table['table']}/record")[1]


@pytest.mark.parametrize("case", list(CASES))
def test_the_same_game_gives_the_same_record_at_every_kind_of_table(tmp_path, case) -> None:
    name, players, seed, options, level, orders = CASES[case]
    mine = local_record(name, players, seed, options, level)
    srv = ServerProcess(tmp_path / "same.db")
    try:
        body = {
            "game": name,
            "players": players,
            "seed": seed,
            "options": options,
            "bots": {str(s): level for s in range(1, players)},
            "pace": 0,
            "orders": orders,  # None: the class default (Five Sons: pass on claims unless I claim)
        }
        by_protocol = run_async(protocol_record(srv, srv.create(**body)))
        by_clicks = run_async(joined_record(srv, srv.create(**body)))
    finally:
        srv.stop()
    assert Record.from_dict(mine).replay().is_over
    assert by_protocol == mine
    assert by_clicks == mine
    if name == "five_sons":  # the standing order passed the person's chances after others' questions
        asker, passed = None, 0
        for e in Record.from_dict(mine).replay().events:
            asker = e.public["asker"] if e.kind == "ask" else asker
            passed += e.kind == "no_claim" and e.public["seat"] == 0 and asker != 0
        assert passed > 2
    else:  # the server dealt later hands by itself; the local table when the person asked
        assert sum(type(a).__name__ == "Deal" for a in Record.from_dict(mine).replay().history) >= 2

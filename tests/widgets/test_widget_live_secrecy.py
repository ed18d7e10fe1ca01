"""Live secrecy on the wire (issue 9, section 1): what a Five Sons table sends to the browser
must not tell a forced answer from a chosen one, to any viewer but the answerer.

The issue's deals A and B differ only in where the 8♥ and 9♥ lie: in A, Bob holds both cards
Alice names (the Q♣ and the 8♥) and chooses to show the Q♣; in B he holds the Q♣ only and must
show it. Every widget message (comm opens and state updates) a table sends is captured, with
model ids replaced by their order of first appearance, and the streams seen from the asker's
and an onlooker's view must be identical, message for message, at pace "at once" and tick by
tick on the bots' clock.
"""

from __future__ import annotations

import copy
import json
import re
from contextlib import contextmanager
from typing import Any, Iterator
from unittest import mock

import ipywidgets as widgets
import pytest
from ipywidgets.widgets import widget as widget_module

from qardlab.engine import forced_in
from qardlab.games.five_sons import Ask, FiveSons, NoClaim, Show
from qardlab.widgets.five_sons import FiveSonsTable

A = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "8H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "9H"],
]
B = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "9H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "8H"],
]
SECRET = ("KS", "TH")
_ID = re.compile(r"[0-9a-f]{32}")


class Scripted:
    """The same choices in both deals: Alice first asks Bob about the Q♣ and the 8♥, later questions
    go to the left about the J♣ and the A♥; a choice of card shows the face card; nobody claims."""

    def act(self, obs: dict) -> Any:
        forced = forced_in(obs)
        if forced is not None:
            return forced
        if obs["phase"] == "answer":
            return Show(obs["question"]["face"])
        if obs["phase"] == "claim":
            return NoClaim()
        if obs["seat"] == 0 and obs["turn"] == 0:
            return Ask(1, "QC", "8H")
        return Ask((obs["seat"] + 1) % obs["players"], "JC", "AH")


@contextmanager
def wire() -> Iterator[list]:
    """Every message widgets send while inside: ("open", id, data) and ("send", id, msg)."""
    sent: list = []
    send, create = widgets.Widget._send, widget_module.comm.create_comm

    def spy_send(self, msg, buffers=None):
        if self.comm is not None:  # (a widget with no comm yet sends nothing: anywidget's traits, set early)
            sent.append(("send", self.model_id, copy.deepcopy(msg), [bytes(b) for b in buffers or []]))
        return send(self, msg, buffers)

    def spy_create(**kwargs):
        c = create(**kwargs)
        sent.append(("open", c.comm_id, copy.deepcopy(kwargs.get("data")), []))
        return c

    with (
        mock.patch.object(widgets.Widget, "_send", spy_send),
        mock.patch.object(widget_module.comm, "create_comm", spy_create),
    ):
        yield sent


def normalised(sent: list) -> list[str]:
    """The messages as text, each model id replaced by its order of first appearance."""
    order: dict[str, str] = {}

    def name(m: re.Match) -> str:
        return order.setdefault(m.group(0), f"M{len(order)}")

    out = []
    for kind, model, msg, buffers in sent:
        text = json.dumps([kind, model, msg, [b.hex() for b in buffers]], sort_keys=True, default=repr)
        out.append(_ID.sub(name, text))
    return out


def table_stream(
    hands: list, human: int, view: int, pace: str = "at once", ticks: int = 0, game: type = FiveSons
) -> list[list[str]]:
    """The messages of a table over a few turns, in chunks: construction, then each human pass
    (at once) or each clock tick (paced)."""
    bots = {s: Scripted() for s in range(4) if s != human}
    with wire() as sent:
        g = game.from_deal(hands, secret=SECRET, dealer=3)
        t = FiveSonsTable(g, seat=view, human=human, bots=bots, pace=pace, charts=False)
        chunks = [normalised(sent)]
        del sent[:]
        if pace == "at once":
            if human == 0:
                assert t.ask(1, "QC", "8H")
                chunks.append(normalised(sent))
                del sent[:]
            for _ in range(3):  # the human plays the script too, through the table
                assert t.game.to_move == human
                assert t.act(Scripted().act(t.game.observation(human)))
                chunks.append(normalised(sent))
                del sent[:]
        else:
            t.run_bots()
            for _ in range(ticks):  # the browser's clock: each tick plays one move
                t.clock.value += 1
                chunks.append(normalised(sent))
                del sent[:]
        assert any(e.kind == "answer" for e in t.game.events)  # the run went past Bob's answer
    return chunks


def _first_difference(a: list[list[str]], b: list[list[str]]) -> str:
    for i, (ca, cb) in enumerate(zip(a, b)):
        for j, (ma, mb) in enumerate(zip(ca, cb)):
            if ma != mb:
                return f"chunk {i}, message {j}:\n{ma[:600]}\n   vs\n{mb[:600]}"
        if len(ca) != len(cb):
            return f"chunk {i}: {len(ca)} vs {len(cb)} messages"
    return f"{len(a)} vs {len(b)} chunks"


def test_the_deals_differ_only_in_bob_having_a_choice() -> None:
    """The premise: in A Bob chooses (two Shows), in B he is forced (one)."""
    legal = []
    for hands in (A, B):
        g = FiveSons.from_deal(hands, secret=SECRET, dealer=3)
        g.apply(Ask(1, "QC", "8H"))
        legal.append(g.legal_actions())
    assert legal == [[Show("QC"), Show("8H")], [Show("QC")]]


@pytest.mark.parametrize("human,view", [(0, 0), (2, 2)], ids=["asker", "onlooker"])
def test_table_sends_the_same_messages_for_a_forced_and_a_chosen_answer(human: int, view: int) -> None:
    """At pace "at once", from the asker's and an onlooker's view, every message is identical."""
    a, b = table_stream(A, human, view), table_stream(B, human, view)
    assert sum(map(len, a)) > 50  # the capture saw the table's traffic
    # the answer went out; the moment before it ("Bob to answer") is drawn only on the bots' clock: at
    # once, the human's click and the bots' replies are one change of the table, drawn once
    assert any("Bob shows Alice" in m for chunk in a for m in chunk)
    assert a == b, _first_difference(a, b)


def test_table_paced_sends_the_same_messages_tick_by_tick() -> None:
    """On the bots' clock (an onlooker, Carol, is the human): Bob's answer takes one tick in
    both deals, and every tick sends the same messages; "Bob to answer" shows in both."""
    a, b = table_stream(A, 2, 2, "fast (0.4 s)", ticks=3), table_stream(B, 2, 2, "fast (0.4 s)", ticks=3)
    assert a == b, _first_difference(a, b)
    assert any("Bob to answer" in m for m in a[1]) and any("Bob to answer" in m for m in b[1])


def test_human_forced_answer_waits_for_the_humans_own_click() -> None:
    """Bob is the human: forced (deal B) or choosing (deal A), the table gives nothing for him. The clock
    stops after Alice's question in both deals and later ticks play nothing; his hand lights the cards he
    may show (the one card in B, both in A); his click answers."""
    for hands, forced in ((B, True), (A, False)):
        g = FiveSons.from_deal(hands, secret=SECRET, dealer=3)
        bots = {s: Scripted() for s in (0, 2, 3)}
        t = FiveSonsTable(g, seat=1, human=1, bots=bots, pace="fast (0.4 s)", charts=False)
        t.run_bots()
        t.clock.value += 1  # Alice asks
        assert t.game.phase == "answer" and t.game.to_move == 1 and t.game.step == 2
        assert t.human_to_act() and not t.clock.playing
        for _ in range(3):  # a late tick (the browser's timer) gives nothing for Bob
            t.clock.value += 1
        assert t.game.step == 2
        lit = [
            c.code for c in t.hands[1]._cards if "qard-illegal" not in t.hands[1].button_for(c)._dom_classes
        ]
        assert lit == (["QC"] if forced else ["QC", "8H"])
        assert ("Click the card you hold" if forced else "You hold both cards") in t.prompt.value
        t.hands[1].click("QC")
        assert t.game.phase == "claim" and t.game.history[-1] == Show("QC")
        assert t.game.history[-1].forced is forced


class _OldEngine(FiveSons):
    """The engine before the fix: ``apply`` gives the forced answers itself, inside the ask."""

    name = ""  # not registered

    def apply(self, action: Any) -> "_OldEngine":
        super().apply(action)
        while self.forced_action() is not None:
            super().apply(self.forced_action())
        return self

    def observation(self, seat):
        return {**super().observation(seat), "game": "five_sons"}


def test_the_capture_catches_the_old_leak() -> None:
    """Not vacuous: on the old engine the onlooker's stream differs between deals A and B."""
    a, b = table_stream(A, 2, 2, game=_OldEngine), table_stream(B, 2, 2, game=_OldEngine)
    assert a != b
    # on the bots' clock the moment itself shows: "Bob to answer" only when Bob had a choice
    pace = "fast (0.4 s)"
    pa, pb = (table_stream(h, 2, 2, pace, ticks=3, game=_OldEngine) for h in (A, B))
    assert any("Bob to answer" in m for c in pa for m in c)
    assert not any("Bob to answer" in m for c in pb for m in c)

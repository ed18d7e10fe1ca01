"""Live secrecy on the wire (issue 9, section 1): what a Five Sons table sends to the browser
must not tell a forced answer from a chosen one, to any viewer but the answerer.

The issue's deals A and B differ only in where the 8♥ and 9♥ lie: in A, Bob holds both cards
Alice names (the Q♣ and the 8♥) and chooses to show the Q♣; in B he holds the Q♣ only and must
show it. Every widget message (comm opens and state updates) a table sends is captured, with
model ids replaced by their order of first appearance and each binary buffer (a chart's PNG) by its
digest, and the streams seen from the asker's and an onlooker's view must be identical, message for
message and picture for picture, at pace "at once" and tick by tick on the bots' clock. The tables
draw their charts, as a player's do (issue 25, section 5); a planted leak in a chart is caught.
"""

from __future__ import annotations

import copy
import hashlib
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
_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


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
        # the state a widget opens with, and its binary buffers (an Image's picture: a chart)
        sent.append(
            (
                "open",
                c.comm_id,
                copy.deepcopy(kwargs.get("data")),
                [bytes(b) for b in kwargs.get("buffers") or []],
            )
        )
        return c

    with (
        mock.patch.object(widgets.Widget, "_send", spy_send),
        mock.patch.object(widget_module.comm, "create_comm", spy_create),
    ):
        yield sent


def normalised(sent: list) -> list[str]:
    """The messages as text, each model id replaced by its order of first appearance, each binary buffer (a
    chart's PNG) by its SHA-256 digest.

    Only model ids are renamed: the ids the messages open and update, and those their states refer to
    (``IPY_MODEL_<id>``). (Renaming every run of 32 hex digits renamed the pictures too, a buffer's hex cut
    into chunks each named by its order of first appearance, so two different pictures of the same length
    read alike: :func:`test_two_different_pictures_never_compare_equal`.)"""
    ids = {model for _kind, model, _msg, _buffers in sent}
    texts = [json.dumps([kind, model, msg], sort_keys=True, default=repr) for kind, model, msg, _b in sent]
    for text in texts:
        ids.update(_REF.findall(text))
    order: dict[str, str] = {}

    def name(m: re.Match) -> str:
        return order.setdefault(m.group(0), f"M{len(order)}")

    pattern = re.compile("|".join(map(re.escape, sorted(ids, key=len, reverse=True)))) if ids else None
    out = []
    for text, (_kind, _model, _msg, buffers) in zip(texts, sent):
        text = pattern.sub(name, text) if pattern is not None else text
        digests = [f"sha256:{hashlib.sha256(b).hexdigest()}:{len(b)}" for b in buffers]
        out.append(f"{text} buffers {digests}")
    return out


def table_stream(
    hands: list,
    human: int,
    view: int,
    pace: str = "at once",
    ticks: int = 0,
    game: type = FiveSons,
    charts: bool = True,
) -> list[list[str]]:
    """The messages of a table over a few turns, in chunks: construction, then each human pass
    (at once) or each clock tick (paced). With its charts, as a player sees it: their pictures are
    compared by digest."""
    bots = {s: Scripted() for s in range(4) if s != human}
    with wire() as sent:
        g = game.from_deal(hands, secret=SECRET, dealer=3)
        t = FiveSonsTable(g, seat=view, human=human, bots=bots, pace=pace, charts=charts)
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


def pictures(chunks: list[list[str]]) -> list[str]:
    """Every picture's digest in a stream, in order."""
    return [d for chunk in chunks for m in chunk for d in re.findall(r"sha256:[0-9a-f]{64}:\d+", m)]


def test_the_charts_are_in_the_stream_and_alike_for_both_deals() -> None:
    """With charts on (as a player has them), the pictures are sent, and each is the same picture, byte
    for byte, in deals A and B."""
    a, b = table_stream(A, 2, 2), table_stream(B, 2, 2)
    pa = pictures(a)
    assert len(pa) >= 3 and len(set(pa)) >= 2  # several charts, redrawn as the game goes
    assert pa == pictures(b)


def test_two_different_pictures_never_compare_equal() -> None:
    """The normalisation renames model ids only. The old one renamed every run of 32 hex digits, the hex
    of a picture's bytes included, each chunk by its order of first appearance: two different pictures of
    the same length came out the same."""
    first, second = bytes(range(256)) * 4, bytes(reversed(range(256))) * 4
    model = "0123456789abcdef0123456789abcdef"

    def stream(png: bytes) -> list:
        return [("send", model, {"method": "update", "state": {}, "buffer_paths": [["value"]]}, [png])]

    def old(sent: list) -> list[str]:
        order: dict[str, str] = {}
        name = lambda m: order.setdefault(m.group(0), f"M{len(order)}")  # noqa: E731
        return [
            re.sub(r"[0-9a-f]{32}", name, json.dumps([k, mid, msg, [x.hex() for x in b]], sort_keys=True))
            for k, mid, msg, b in sent
        ]

    assert len(first) == len(second) and first != second
    assert old(stream(first)) == old(stream(second))  # the old normalisation's blind spot
    assert normalised(stream(first)) != normalised(stream(second))
    assert normalised(stream(first)) == normalised(stream(first))


def test_a_chart_that_shows_a_hidden_card_is_caught(monkeypatch) -> None:
    """A planted leak: every chart also draws Bob's hand in a corner (what a chart built from the game
    instead of the seat's observation could do). The messages' text is the same in both deals; only the
    pictures differ, and the comparison names them."""
    import io

    from PIL import Image, ImageDraw

    from qardlab.widgets import figures

    leak = {"text": ""}
    real_canvas, real_figure = figures._canvas_png, figures.figure_png

    def marked(png: bytes) -> bytes:
        img = Image.open(io.BytesIO(png))
        ImageDraw.Draw(img).text((2, 2), leak["text"], fill=(0, 0, 0, 255))
        out = io.BytesIO()
        img.save(out, "png")
        return out.getvalue()

    monkeypatch.setattr(figures, "_canvas_png", lambda canvas: marked(real_canvas(canvas)))
    monkeypatch.setattr(figures, "figure_png", lambda fig, dpi=figures.DPI: marked(real_figure(fig, dpi)))
    streams = []
    for hands in (A, B):
        leak["text"] = " ".join(hands[1])  # Bob's hand: "QC 8H ..." in A, "QC 9H ..." in B
        streams.append(table_stream(hands, 2, 2))
    a, b = streams
    assert a != b, "the planted leak went unseen"
    assert pictures(a) != pictures(b)
    strip = lambda chunks: [[re.sub(r" buffers .*", "", m) for m in c] for c in chunks]  # noqa: E731
    assert strip(a) == strip(b)  # the text alone is alike: only the pictures give Bob's hand away


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

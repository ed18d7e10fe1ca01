"""Nothing hidden from the player reaches the browser: whole games of both apps in Voila, every frame read.

Each app is served by Voila from a notebook that builds it with a fixed seed. The test plays seat 0 by
clicking, and keeps a *shadow*: the same app built in the test's own process from the same seed, given
the same clicks. The shadow's game is the truth at every moment (the deal, every hand, what was shown
to the player), and its log must match the browser's after every click (so the two never drift apart).

Every websocket frame, received and sent, is recorded (`page.on("websocket")`), with the page as first
served and its DOM after every click and at the end. After each click the new frames and the DOM are
searched for every card the player cannot see at that moment (Five Sons: the secret pair until it is
public, every card of another seat not shown to the player; Hearts: other seats' cards not yet played,
less the ones the player passed them):

- everywhere, for the forms of a card shown face up (its face element `data-card`, the face's rank and
  suit, a card's title or tooltip, an image's alt text, "the Q♥." of a shown card);
- outside the parts that list every card by design (the question and claim builders' option lists and
  phrase, the deduction grid's rows, the Hearts counting grid's rows of unseen cards), for any word for
  the card (its code as a token, its symbol, its name, a question's "eight sons"), when nobody has named
  it in public yet (a question or a claim names cards without saying where they are).

Binary buffers (the charts' PNG pictures) carry no text and are not searched.
"""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser_harness import assert_rendered, voila_errors
from wire import Models, decode, find_cards, text_of, without_models

from qardlab.cards import Card
from qardlab.games.five_sons import Show
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from qardlab.widgets.apps import FiveSonsApp, HeartsApp

pytestmark = pytest.mark.browser

#: parts of the page that list every card by design (left out of the loose scan only)
LISTS = ("qard-controls", "qard-deduction-grid", "qard-counting-grid")

JS_DOM = """(skip) => {
  const all = document.documentElement.outerHTML;
  const copy = document.body.cloneNode(true);
  for (const sel of skip) copy.querySelectorAll('.' + sel).forEach((e) => e.remove());
  return [all, copy.outerHTML];
}"""


def notebook(path: Path, source: str) -> Path:
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": "app",
                "metadata": {},
                "outputs": [],
                "source": source,
            }
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb))
    return path


class Wire:
    """Every frame of the page's websockets, and the scans made so far."""

    def __init__(self, page: Any) -> None:
        self.frames: list[tuple[str, Any]] = []
        self.scanned = 0
        self.models = Models()
        self.checks = 0
        self.bytes = 0
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(("received", payload)))
        ws.on("framesent", lambda payload: self.frames.append(("sent", payload)))

    def quiet(self, page: Any, ms: int = 400, timeout_s: float = 30) -> None:
        """Wait until no frame has arrived for ``ms`` milliseconds."""
        deadline = time.monotonic() + timeout_s
        n = -1
        while time.monotonic() < deadline and n != len(self.frames):
            n = len(self.frames)
            page.wait_for_timeout(ms)

    def scan(
        self,
        page: Any,
        forbidden: set[Card],
        unnamed: set[Card],
        five_sons: bool,
        when: str,
        said: tuple[str, ...] = (),
    ) -> None:
        """Search the new frames and the DOM now; fail naming the card, the form and where it was."""
        leaks: list[str] = []
        new = self.frames[self.scanned :]
        self.scanned += len(new)
        decoded = [(d, msg) for d, payload in new for msg in decode(payload)]
        self.bytes += sum(len(p) for _d, p in new)
        for _d, msg in decoded:
            self.models.feed(msg)
        skip = self.models.under(LISTS)
        for direction, msg in decoded:
            for leak in find_cards(text_of(msg), forbidden, five_sons=five_sons):
                leaks.append(f"{direction} frame: {leak}")
            for leak in find_cards(text_of(without_models(msg, skip)), (), unnamed, five_sons, said):
                leaks.append(f"{direction} frame: {leak}")
        full, outside_lists = page.evaluate(JS_DOM, list(LISTS))
        leaks += [f"page: {x}" for x in find_cards(full, forbidden, five_sons=five_sons)]
        outside = _visible_text(outside_lists)
        leaks += [f"page: {x}" for x in find_cards(outside, (), unnamed, five_sons, said)]
        self.checks += 1
        where = sorted({x.split(":", 1)[0] for x in leaks})
        cards = sorted({x.split(": ", 2)[1] for x in leaks})
        assert not leaks, (
            f"{when}: the browser was sent what the player cannot see: cards {cards} "
            f"(in {where}), {len(leaks)} finds:\n" + "\n".join(leaks[:20])
        )


def _visible_text(markup: str) -> str:
    """The DOM without its scripts and styles (whose code names no card), tags kept for the strict forms."""
    markup = re.sub(r"<script\b.*?</script>", "", markup, flags=re.S | re.I)
    return re.sub(r"<style\b.*?</style>", "", markup, flags=re.S | re.I)


def _log(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".qard-log li").all_inner_texts()]


def _shadow_log(table: Any) -> list[str]:
    items = re.findall(r"<li\b[^>]*>(.*?)</li>", table.log_view.value, re.S)  # newest first, folded
    return [html.unescape(re.sub(r"<[^>]+>", "", x)).strip() for x in items]


def _follow(page: Any, table: Any, what: str, timeout_s: float = 60) -> None:
    """Wait until the browser's log is the shadow's (the click took, the bots answered), then for quiet."""
    want = _shadow_log(table)
    deadline = time.monotonic() + timeout_s
    got = _log(page)
    while got != want and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        got = _log(page)
    assert got == want, f"after {what} the browser's log is not the shadow's:\n{got[-4:]}\n{want[-4:]}"


def _card_button(page: Any, card: Card) -> Any:
    exact = re.compile(rf"^\s*{re.escape(card.symbol)}\s*$")
    loc = page.locator(".qard-my-hand button.qard-card").filter(has_text=exact)
    assert loc.count() == 1, f"no single button for {card.symbol} in the player's hand"
    return loc.first


# -- Five Sons ---------------------------------------------------------------------------------------------


def five_sons_truth(app: FiveSonsApp) -> tuple[set[Card], set[Card]]:
    """(cards the player may not see now, those of them nobody has named in public)."""
    g = app.table.game
    obs = g.observation(0)
    seen = {Card.parse(c) for c in obs["hand"]}
    named: set[Card] = set()
    for e in obs["events"]:
        if "card" in e:
            seen.add(Card.parse(e["card"]))
        seen.update(Card.parse(c) for c in e.get("secret", []))
        if e["kind"] in ("ask", "claim"):
            named.update(Card.parse(e[k]) for k in ("face", "number"))
    everything = set(FACE_CARDS) | set(NUMBER_CARDS)
    forbidden = everything - seen
    return forbidden, forbidden - named


def _choose(page: Any, nth: int, index: int) -> None:
    """Choose option ``index`` of the ``nth`` dropdown of the player's controls (target, face, number)."""
    page.locator(".qard-controls select").nth(nth).select_option(index=index)


def test_five_sons_app_sends_nothing_hidden(voila: Any, page: Any, tmp_path: Path) -> None:
    seed = 7  # a long game (47 clicks; four cards shown to the player)
    nb = notebook(
        tmp_path / "five-sons.ipynb", f"from qardlab.widgets import five_sons_app\nfive_sons_app(seed={seed})"
    )
    wire = Wire(page)
    server = voila(nb)
    response = page.goto(server.base + "/", wait_until="load", timeout=180_000)
    served = response.text() if response is not None else ""
    assert_rendered(page, (".qard-app", ".qard-table", ".qard-card"), timeout_ms=90_000)
    assert not voila_errors(page), voila_errors(page)
    shadow = FiveSonsApp(seed=seed, charts=False)
    t = shadow.table
    forbidden, unnamed = five_sons_truth(shadow)
    assert len(forbidden) == 22 - 5  # the player sees only its hand so far
    assert not find_cards(served, forbidden), "the page as served holds a hidden card"
    _follow(page, t, "the page load")
    wire.quiet(page)
    wire.scan(page, forbidden, unnamed, True, "page load")
    clicks = 0
    for turn in range(300):
        g = t.game
        if g.is_over:
            break
        assert t.human_to_act(), f"the shadow waits for nobody: {g.phase} {g.to_move}"
        if g.phase == "ask":
            fi, ni, ti = turn % len(FACE_CARDS), (3 * turn) % len(NUMBER_CARDS), turn % len(t.target.options)
            face, number = FACE_CARDS[fi], NUMBER_CARDS[ni]
            target_name, target = t.target.options[ti]
            _choose(page, 0, ti)
            _choose(page, 1, fi)
            _choose(page, 2, ni)
            page.wait_for_timeout(150)
            page.locator(".qard-ask:visible").click()
            t.ask(target, face, number)
            what = f"asking {target_name} {face.symbol} {number.symbol}"
        elif g.phase == "claim":
            page.locator(".qard-no-claim:visible").click()
            t.no_claim_button.click()
            what = "no claim"
        else:
            assert g.phase == "answer"
            [first, *_] = [a.card for a in g.legal_actions() if isinstance(a, Show)]
            _card_button(page, first).click()
            t.hands[0].click(first)
            what = f"showing {first.symbol}"
        clicks += 1
        _follow(page, t, what)
        wire.quiet(page)
        forbidden, unnamed = five_sons_truth(shadow)
        wire.scan(page, forbidden, unnamed, True, f"click {clicks} ({what})")
    assert t.game.is_over, "the game did not end"
    page.wait_for_timeout(500)
    wire.quiet(page, 800)
    forbidden, unnamed = five_sons_truth(shadow)
    wire.scan(page, forbidden, unnamed, True, "the end of the game")
    assert "game is over" in " ".join(page.locator(".qard-controls").all_inner_texts())
    # the test has teeth: the other seats' cards were really hidden, and the scan reads these frames
    assert forbidden and clicks >= 3 and wire.scanned == len(wire.frames) > clicks
    print(
        f"\nFive Sons seed {seed}: {clicks} clicks, {wire.checks} scans, {len(wire.frames)} frames "
        f"({wire.bytes} bytes), {len(wire.models.states)} widget models; "
        f"{len(forbidden)} cards still hidden at the end"
    )


# -- Hearts ------------------------------------------------------------------------------------------------


def hearts_truth(app: HeartsApp) -> tuple[set[Card], set[Card], tuple[str, ...]]:
    """(other seats' cards the player may not see, the same, the public sentences of earlier plays).

    A card played in an earlier hand of the match is named in the log ("Bob plays the Ace of Clubs."),
    and may be back in a hidden hand now: that sentence is left out of the loose scan, nothing else."""
    g = app.table.game
    obs = g.observation(0)
    forbidden = {c for s in range(1, g.players) for c in g.hand(s)}
    forbidden -= {Card.parse(c) for c in obs.get("passed", [])}  # the player knows where those went
    played = {Card.parse(e["card"]) for e in obs["events"] if e["kind"] == "play"}
    said = tuple(f"plays the {c.name}." for c in played)
    return forbidden, set(forbidden), said


def test_hearts_app_sends_nothing_hidden(voila: Any, page: Any, tmp_path: Path) -> None:
    seed = 3
    nb = notebook(
        tmp_path / "hearts.ipynb", f"from qardlab.widgets import hearts_app\nhearts_app(seed={seed})"
    )
    wire = Wire(page)
    server = voila(nb)
    response = page.goto(server.base + "/", wait_until="load", timeout=180_000)
    served = response.text() if response is not None else ""
    assert_rendered(page, (".qard-app", ".qard-table", "button.qard-card"), timeout_ms=90_000)
    assert not voila_errors(page), voila_errors(page)
    shadow = HeartsApp(seed=seed, charts=False)
    t = shadow.table
    forbidden, unnamed, said = hearts_truth(shadow)
    assert not find_cards(served, forbidden), "the page as served holds a hidden card"
    _follow(page, t, "the page load")
    wire.quiet(page)
    wire.scan(page, forbidden, unnamed, False, "page load", said)
    clicks = hands = 0
    for _ in range(3000):
        g = t.game
        if g.phase == "match_over":
            break
        if g.phase == "hand_over":
            page.locator(".qard-next-hand:visible").click()
            t.next_hand_button.click()
            what = "next hand"
            hands += 1
        elif g.phase == "pass":
            assert t.human_to_act()
            for c in list(g.hand(0))[: g.rules.cards_to_pass]:
                _card_button(page, c).click()
                t.play(c)
                want = t.pass_button.description
                page.locator(".qard-pass", has_text=want).wait_for(timeout=30_000)
            page.locator(".qard-pass:visible").click()
            t.pass_button.click()
            what = "the pass"
        else:
            assert t.human_to_act(), f"the shadow waits for nobody: {g.phase} {g.to_move}"
            card = g.legal_actions()[0]
            _card_button(page, card).click()
            t.play(card)
            what = f"playing {card.symbol}"
        clicks += 1
        _follow(page, t, what)
        wire.quiet(page, 300)
        forbidden, unnamed, said = hearts_truth(shadow)
        wire.scan(page, forbidden, unnamed, False, f"click {clicks} ({what}, hand {g.hand_no + 1})", said)
    assert t.game.phase == "match_over", "the match did not end"
    wire.quiet(page, 800)
    forbidden, unnamed, said = hearts_truth(shadow)
    wire.scan(page, forbidden, unnamed, False, "the end of the match", said)
    assert "match is over" in " ".join(page.locator(".qard-controls").all_inner_texts())
    assert hands >= 1 and wire.scanned == len(wire.frames) > clicks
    print(
        f"\nHearts seed {seed}: {hands + 1} hands, {clicks} clicks, {wire.checks} scans, "
        f"{len(wire.frames)} frames ({wire.bytes} bytes), {len(wire.models.states)} widget models"
    )


def test_the_scan_finds_cards_the_teacher_view_sends(voila: Any, page: Any, tmp_path: Path) -> None:
    """The scan has teeth: the same app with ``teacher=True``, switched to the teacher's view in the
    browser, sends the other hands and the secret; the scan must name them."""
    seed = 7
    nb = notebook(
        tmp_path / "teacher.ipynb",
        f"from qardlab.widgets import five_sons_app\nfive_sons_app(seed={seed}, teacher=True)",
    )
    wire = Wire(page)
    server = voila(nb)
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    assert_rendered(page, (".qard-app", ".qard-viewpoint", ".qard-card"), timeout_ms=90_000)
    shadow = FiveSonsApp(seed=seed, charts=False)
    forbidden, unnamed = five_sons_truth(shadow)
    wire.quiet(page)
    wire.scan(page, forbidden, unnamed, True, "the player's own view")  # clean so far
    page.locator(".qard-viewpoint select").select_option(index=1)  # "Teacher (all cards)"
    page.locator(".qard-secret [data-card]").first.wait_for(timeout=30_000)
    wire.quiet(page)
    with pytest.raises(AssertionError) as caught:
        wire.scan(page, forbidden, unnamed, True, "the teacher's view")
    head = str(caught.value).split("\n", 1)[0]
    for c in shadow.table.game.secret:  # the secret pair, face up in the middle
        assert f"'{c.code}'" in head
    assert "'received frame'" in head and "'page'" in head  # on the wire and on the page

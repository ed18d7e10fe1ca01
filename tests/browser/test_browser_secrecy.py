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
  the card (its code as a token or, in lower case, where markup puts a code; its symbol; its name; a
  question's "eight sons"; its Unicode playing card; HTML entities, CSS and JavaScript escapes of any of
  these; SVG text split across elements: ``wire.find_cards``), when nobody has named it in public yet (a
  question or a claim names cards without saying where they are).

The charts' pictures (binary buffers, most of a game's bytes) are compared by digest: each picture the
browser receives must be one that the shadow, built from the same seed with its charts on, drew from the
player's own view. And a short scripted game is played in the browser on one deal while the shadow plays
another that the player cannot tell from it (Bob holds the 8♥ in one, the 9♥ in the other): every
picture the browser gets is, byte for byte, one the shadow drew; a chart that shows Bob's hand is caught.
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
from wire import Models, buffers, decode, digest, find_cards, text_of, without_models

from qardlab.cards import Card
from qardlab.engine import part_of
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


class Drawn:
    """Every picture the charts of this process draw (the shadow's), by digest."""

    def __init__(self, monkeypatch: Any) -> None:
        from qardlab.widgets import figures

        self.digests: set[str] = set()
        canvas_png, figure_png = figures._canvas_png, figures.figure_png

        def keep(png: bytes) -> bytes:
            self.digests.add(digest(png))
            return png

        monkeypatch.setattr(figures, "_canvas_png", lambda canvas: keep(canvas_png(canvas)))
        monkeypatch.setattr(figures, "figure_png", lambda fig, dpi=figures.DPI: keep(figure_png(fig, dpi)))


class Wire:
    """Every frame of the page's websockets, and the scans made so far. ``drawn``: the pictures the
    shadow drew, which are all the browser may get."""

    def __init__(self, page: Any, drawn: Drawn | None = None) -> None:
        self.frames: list[tuple[str, Any]] = []
        self.scanned = 0
        self.models = Models()
        self.checks = 0
        self.bytes = 0
        self.pictures: list[str] = []  # the digest of every picture received, in order
        self.drawn = drawn
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
        for direction, payload in new:
            for data in buffers(payload):
                if direction != "received" or not data.startswith(b"\x89PNG"):
                    continue
                self.pictures.append(digest(data))
                if self.drawn is not None and digest(data) not in self.drawn.digests:
                    leaks.append(
                        f"picture: a chart of {len(data)} bytes that the player's own view does not draw "
                        f"(sha256 {digest(data)[:16]}...)"
                    )
        full, outside_lists = page.evaluate(JS_DOM, list(LISTS))
        leaks += [f"page: {x}" for x in find_cards(full, forbidden, five_sons=five_sons)]
        outside = _visible_text(outside_lists)
        leaks += [f"page: {x}" for x in find_cards(outside, (), unnamed, five_sons, said)]
        self.checks += 1
        where = sorted({x.split(":", 1)[0] for x in leaks})
        cards = sorted({x.split(": ", 2)[1] for x in leaks if not x.startswith("picture")})
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


def five_sons_truth(app: Any) -> tuple[set[Card], set[Card]]:
    """(cards the player may not see now, those of them nobody has named in public). ``app``: an app, or
    a table."""
    g = getattr(app, "table", app).game
    obs = g.observation(0)
    seen = {Card.parse(c) for c in obs["hand"]}
    named: set[Card] = set()
    for e in obs["events"]:
        mine = part_of(e, 0)  # what this event told the player alone: a card shown to them, the secret
        if "card" in mine:
            seen.add(Card.parse(mine["card"]))
        seen.update(Card.parse(c) for c in [*e.get("secret", []), *mine.get("secret", [])])
        if e["kind"] in ("ask", "claim"):
            named.update(Card.parse(e[k]) for k in ("face", "number"))
    everything = set(FACE_CARDS) | set(NUMBER_CARDS)
    forbidden = everything - seen
    return forbidden, forbidden - named


def _choose(page: Any, nth: int, index: int) -> None:
    """Choose option ``index`` of the ``nth`` dropdown of the player's controls (target, face, number)."""
    page.locator(".qard-controls select").nth(nth).select_option(index=index)


def test_five_sons_app_sends_nothing_hidden(voila: Any, page: Any, tmp_path: Path, monkeypatch: Any) -> None:
    seed = 7  # a long game (47 clicks; four cards shown to the player)
    nb = notebook(
        tmp_path / "five-sons.ipynb", f"from qardlab.widgets import five_sons_app\nfive_sons_app(seed={seed})"
    )
    wire = Wire(page, Drawn(monkeypatch))
    server = voila(nb)
    response = page.goto(server.base + "/", wait_until="load", timeout=180_000)
    served = response.text() if response is not None else ""
    assert_rendered(page, (".qard-app", ".qard-table", ".qard-card"), timeout_ms=90_000)
    assert not voila_errors(page), voila_errors(page)
    shadow = FiveSonsApp(seed=seed)  # its charts on, as the page's: the pictures the page may get
    t = shadow.table
    forbidden, unnamed = five_sons_truth(shadow)
    assert len(forbidden) == 22 - 5  # the player sees only its hand so far
    assert not find_cards(served, forbidden), "the page as served holds a hidden card"
    _follow(page, t, "the page load")
    wire.quiet(page)
    wire.scan(page, forbidden, unnamed, True, "page load")
    clicks = asks = 0
    for turn in range(300):
        g = t.game
        if g.is_over:
            break
        assert t.human_to_act(), f"the shadow waits for nobody: {g.phase} {g.to_move}"
        if g.phase == "ask":
            asks += 1
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
        else:  # every answer is the player's click: a card lit (chosen or forced), or Neither
            assert g.phase == "answer"
            shows = [a.card for a in g.legal_actions() if isinstance(a, Show)]
            if shows:
                _card_button(page, shows[0]).click()
                t.hands[0].click(shows[0])
                what = f"showing {shows[0].symbol}"
            else:
                page.locator(".qard-neither:visible").click()
                t.answer()
                what = "neither"
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
    # the test has teeth: the other seats' cards were really hidden, and the scan reads these frames and
    # their pictures
    assert forbidden and clicks >= 3 and wire.scanned == len(wire.frames) > clicks
    # every question of the player's moves the candidates chart on (a new picture); an answer or a passed
    # claim may leave the pictures as they were
    assert asks >= 3 and len(wire.pictures) >= asks and len(set(wire.pictures)) >= 3
    print(
        f"\nFive Sons seed {seed}: {clicks} clicks, {wire.checks} scans, {len(wire.frames)} frames "
        f"({wire.bytes} bytes), {len(wire.pictures)} pictures, {len(wire.models.states)} widget models; "
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


def test_hearts_app_sends_nothing_hidden(voila: Any, page: Any, tmp_path: Path, monkeypatch: Any) -> None:
    seed = 3
    nb = notebook(
        tmp_path / "hearts.ipynb", f"from qardlab.widgets import hearts_app\nhearts_app(seed={seed})"
    )
    wire = Wire(page, Drawn(monkeypatch))
    server = voila(nb)
    response = page.goto(server.base + "/", wait_until="load", timeout=180_000)
    served = response.text() if response is not None else ""
    assert_rendered(page, (".qard-app", ".qard-table", "button.qard-card"), timeout_ms=90_000)
    assert not voila_errors(page), voila_errors(page)
    shadow = HeartsApp(seed=seed)  # its charts on, as the page's
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
    assert hands >= 1 and wire.scanned == len(wire.frames) > clicks and wire.pictures
    print(
        f"\nHearts seed {seed}: {hands + 1} hands, {clicks} clicks, {wire.checks} scans, "
        f"{len(wire.frames)} frames ({wire.bytes} bytes), {len(wire.pictures)} pictures, "
        f"{len(wire.models.states)} widget models"
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


# -- charts under indistinguishable deals ----------------------------------------------------------------

#: deals A and B of the widget differential test: they differ only in where the 8♥ and 9♥ lie (Bob holds
#: both cards Alice names in A and chooses, holds one in B and must show it); Alice cannot tell them apart
DEAL_A = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "8H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "9H"],
]
DEAL_B = [DEAL_A[0], ["QC", "9H", "QD", "3H", "4H"], DEAL_A[2], ["KH", "JS", "QS", "7H", "8H"]]

SCRIPTED = '''
from qardlab.engine import forced_in
from qardlab.games.five_sons import Ask, FiveSons, NoClaim, Show
from qardlab.widgets.five_sons import FiveSonsTable


class Scripted:
    """The same choices in both deals: Alice asks Bob about the Q♣ and the 8♥, later questions go to the
    left about the J♣ and the A♥; a choice of card shows the face card; nobody claims."""

    def act(self, obs):
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
'''

#: a planted leak: every chart also draws Bob's hand in its corner
LEAKY_CHARTS = """
import io
from PIL import Image, ImageDraw
from qardlab.widgets import figures

_canvas_png, _figure_png = figures._canvas_png, figures.figure_png


def _marked(png):
    img = Image.open(io.BytesIO(png))
    ImageDraw.Draw(img).text((2, 2), " ".join(c.code for c in GAME.hand(1)), fill=(0, 0, 0, 255))
    out = io.BytesIO()
    img.save(out, "png")
    return out.getvalue()


figures._canvas_png = lambda canvas: _marked(_canvas_png(canvas))
figures.figure_png = lambda fig, dpi=figures.DPI: _marked(_figure_png(fig, dpi))
"""


def scripted_code(hands: list) -> str:
    """The code that makes the table of the scripted game on ``hands``, Alice's view, charts on."""
    return (
        f"GAME = FiveSons.from_deal({hands!r}, secret=('KS', 'TH'), dealer=3)\n"
        "TABLE = FiveSonsTable(GAME, seat=0, human=0, bots={s: Scripted() for s in (1, 2, 3)}, charts=True)\n"
    )


def scripted_table(hands: list) -> Any:
    """That table, in this process (the shadow)."""
    namespace: dict[str, Any] = {}
    exec(SCRIPTED + scripted_code(hands), namespace)
    return namespace["TABLE"]


def play_scripted(page: Any, wire: Wire, shadow: Any, clicks: int = 4) -> None:
    """Alice's part of the script, clicked in the browser and played on the shadow alike; a scan after
    each."""
    from qardlab.cards import Card

    script = shadow.bots[1].__class__()
    for n in range(clicks):
        g = shadow.game
        assert shadow.human_to_act(), f"the shadow waits for nobody: {g.phase} {g.to_move}"
        action = script.act(g.observation(0))
        if g.phase == "ask":
            targets = [seat for _name, seat in shadow.target.options]
            _choose(page, 0, targets.index(action.target))
            _choose(page, 1, FACE_CARDS.index(Card.parse(str(action.face))))
            _choose(page, 2, NUMBER_CARDS.index(Card.parse(str(action.number))))
            page.wait_for_timeout(150)
            page.locator(".qard-ask:visible").click()
            shadow.ask(action.target, action.face, action.number)
        elif g.phase == "claim":
            page.locator(".qard-no-claim:visible").click()
            shadow.no_claim_button.click()
        else:
            card = Card.parse(str(action.card))
            _card_button(page, card).click()
            shadow.hands[0].click(card)
        _follow(page, shadow, f"scripted click {n + 1} ({action})")
        wire.quiet(page)
        forbidden, unnamed = five_sons_truth(shadow)
        wire.scan(page, forbidden, unnamed, True, f"scripted click {n + 1} ({action})")


def test_the_charts_are_the_same_for_a_deal_the_player_cannot_tell_apart(
    voila: Any, page: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """The page plays deal A; the shadow plays deal B with the same clicks. Every picture the browser gets
    (charts on) is one the shadow drew, byte for byte: the pictures say nothing of where the 8♥ and 9♥ lie."""
    drawn = Drawn(monkeypatch)
    shadow = scripted_table(DEAL_B)  # (deal A is made only on the page: its pictures are not in drawn)
    nb = notebook(tmp_path / "scripted.ipynb", SCRIPTED + scripted_code(DEAL_A) + "TABLE")
    wire = Wire(page, drawn)
    server = voila(nb)
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    assert_rendered(page, (".qard-table", ".qard-card"), timeout_ms=90_000)
    assert not voila_errors(page), voila_errors(page)
    _follow(page, shadow, "the page load")
    wire.quiet(page)
    forbidden, unnamed = five_sons_truth(shadow)
    wire.scan(page, forbidden, unnamed, True, "page load")
    play_scripted(page, wire, shadow)
    assert len(wire.pictures) >= 4, wire.pictures  # charts were drawn and sent, and each one was checked
    print(
        f"\ncharts under indistinguishable deals: {len(wire.pictures)} pictures, all drawn alike for deal B"
    )


def test_the_scan_catches_a_chart_that_shows_a_hidden_hand(
    voila: Any, page: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """The same game, with a planted leak on the page: every chart draws Bob's hand in its corner. The
    text of the page and the frames is as clean as before; the pictures differ from deal B's, and the scan
    says so."""
    drawn = Drawn(monkeypatch)
    shadow = scripted_table(DEAL_B)
    nb = notebook(tmp_path / "leaky.ipynb", SCRIPTED + LEAKY_CHARTS + scripted_code(DEAL_A) + "TABLE")
    wire = Wire(page, drawn)
    server = voila(nb)
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    assert_rendered(page, (".qard-table", ".qard-card"), timeout_ms=90_000)
    _follow(page, shadow, "the page load")
    wire.quiet(page)
    forbidden, unnamed = five_sons_truth(shadow)
    with pytest.raises(AssertionError) as caught:
        wire.scan(page, forbidden, unnamed, True, "page load")
        play_scripted(page, wire, shadow)
    message = str(caught.value)
    assert "picture: a chart" in message and "that the player's own view does not draw" in message
    assert "cards []" in message  # the text gave nothing away: only the pictures did

"""Three students at one classroom table, each in their own Chromium context on the Voila join page.

A classroom server runs in a subprocess (127.0.0.1, a free port) with one Five Sons table: seats 0-2
students, seat 3 a bot. Each context opens ``notebooks/app-classroom.ipynb`` in Voila, types the server's
address and its seat's code, and joins. Each page (its DOM, and every websocket frame between it and its
kernel) holds only its own cards and those shown to it; a click by one student reaches the others' pages.
Every page (the three seats' join pages, the teacher's replay and desk) fits 1024 x 768 and 1280 x 900 with
nothing cut and no type under 12 px (browser_harness.layout_faults). Screenshots of the three seats and of
the teacher's side-by-side replay go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from browser_harness import NOTEBOOKS, assert_rendered, fit_report, local_only, voila_errors
from test_browser_secrecy import Wire, notebook

from qardlab.cards import Card
from qardlab.classroom.teacher import LocalServer, Teacher, join_link
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}
# deal A of the live-secrecy tests: Bob (seat 1) holds both the Q♣ and the 8♥ Alice asks about
HANDS = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "8H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "9H"],
]
SECRET = ["KS", "TH"]
EVERY = set(FACE_CARDS) | set(NUMBER_CARDS)


def _log(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".qard-log li").all_inner_texts()]


def _wait_log(page: Any, words: str, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(words in line for line in _log(page)):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{words!r} never reached this page's log: {_log(page)[-4:]}")


def _wait_text(page: Any, selector: str, words: str, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if words in " ".join(page.locator(selector).all_inner_texts()):
            return
        page.wait_for_timeout(100)
    raise AssertionError(
        f"{words!r} never appeared in {selector}: "
        f"{' '.join(page.locator(selector).all_inner_texts())[:300]!r}"
    )


def _forbidden(seat: int, shown: set[Card]) -> tuple[set[Card], set[Card]]:
    """(cards the seat may not see, those of them nobody has named in public)."""
    seen = {Card.parse(c) for c in HANDS[seat]} | shown
    forbidden = EVERY - seen
    named = {Card.parse(c) for c in ("QC", "8H")}  # Alice's question, heard by everyone
    return forbidden, forbidden - named


def test_three_students_at_one_table_in_the_browser(
    browser: Any, voila: Any, tmp_path: Path, shot: Any, fit: Any
) -> None:
    server = LocalServer(db=str(tmp_path / "class.db"))
    try:
        teacher = Teacher(server.url, server.token)
        table = teacher.create_table(
            "five_sons",
            4,
            options={},
            bots={3: "logic"},
            pace=0.3,
            deal={"hands": HANDS, "secret": SECRET, "dealer": 3},
        )
        codes = [s["code"] for s in table["seats"][:3]]
        app_nb = tmp_path / "app" / "app-classroom.ipynb"
        app_nb.parent.mkdir()
        shutil.copy(NOTEBOOKS / "app-classroom.ipynb", app_nb)
        app = voila(app_nb)
        pages, wires = [], []
        for seat, code in enumerate(codes):
            context = browser.new_context(viewport=VIEWPORT)
            local_only(context)
            page = context.new_page()
            page.set_default_timeout(60_000)
            errors: list[str] = []
            page.on("pageerror", lambda exc, e=errors: e.append(str(exc)))
            wires.append(Wire(page))
            if seat < 2:  # Alice and Bob type the address and their code
                page.goto(app.base + "/", wait_until="load", timeout=180_000)
                assert_rendered(page, (".qard-join-app", ".qard-join-code"), timeout_ms=90_000)
                page.locator(".qard-join-server input").fill(server.url)
                page.locator(".qard-join-code input").fill(code)
            else:  # Carol opens the join sheet's link: both fields come filled in
                link = join_link(app.base + "/", server.url, code)
                page.goto(link, wait_until="load", timeout=180_000)
                assert_rendered(page, (".qard-join-app", ".qard-join-code"), timeout_ms=90_000)
                assert page.locator(".qard-join-code input").input_value() == code
                assert page.locator(".qard-join-server input").input_value() == server.url
            page.locator("button.qard-join").click()
            page.locator(".qard-table").first.wait_for(state="visible", timeout=60_000)
            _wait_text(page, ".qard-join-status", "Joined: you are")
            assert not voila_errors(page) and not errors, (voila_errors(page), errors)
            pages.append(page)
        names = ["Alice", "Bob", "Carol"]
        for seat, page in enumerate(pages):
            assert names[seat] in page.locator(".qard-join-status").inner_text()
            forbidden, unnamed = _forbidden(seat, set())
            wires[seat].quiet(page)
            wires[seat].scan(page, forbidden, unnamed, True, f"{names[seat]} joined", said=tuple(codes))
            # its own five cards face up at the bottom, nobody else's
            own = {Card.parse(c) for c in HANDS[seat]}
            faces = set(
                page.evaluate(
                    "() => [...document.querySelectorAll('[data-card]')]"
                    ".map(e => e.getAttribute('data-card'))"
                )
            )
            assert faces <= {c.code for c in own}, faces
        # Alice asks Bob about the Q♣ and the 8♥ by the question builder
        alice, bob, carol = pages
        _wait_text(alice, ".qard-controls", "Your turn to ask.")
        builder = alice.locator(".qard-controls select")
        builder.nth(0).select_option(label="Bob")
        builder.nth(1).select_option(index=FACE_CARDS.index(Card.parse("QC")))
        builder.nth(2).select_option(index=NUMBER_CARDS.index(Card.parse("8H")))
        alice.wait_for_timeout(200)
        alice.locator(".qard-ask:visible").click()
        for page in pages:  # the click reached every window
            _wait_log(page, "Alice asks Bob: the Queen of Clubs has eight sons.")
        _wait_text(bob, ".qard-controls", "You hold both cards")
        shot(bob, "classroom-seat-1-bob-chooses")
        qc = re.compile(r"^\s*Q♣\s*$")
        bob.locator(".qard-my-hand button.qard-card").filter(has_text=qc).first.click()
        _wait_log(alice, "Bob shows Alice the Q♣.")
        _wait_log(carol, "Bob shows Alice a card")
        _wait_text(alice, ".qard-controls", "Your question is answered")
        for seat, page in enumerate(pages):
            forbidden, unnamed = _forbidden(seat, {Card.parse("QC")} if seat == 0 else set())
            wires[seat].quiet(page)
            wires[seat].scan(
                page, forbidden, unnamed, True, f"{names[seat]} after the answer", said=tuple(codes)
            )
        # Alice passes after her own question; Bob's and Carol's chances pass by their standing order
        # ("pass on claims unless I claim", a class table's default, ticked in their windows), then Dave's
        assert all(p.locator(".qard-auto-pass input").is_checked() for p in pages)
        alice.locator(".qard-no-claim:visible").click()
        _wait_text(bob, ".qard-controls", "Your turn to ask.")
        assert bob.locator(".qard-no-claim:visible").count() == 0  # he clicked nothing
        for seat, page in enumerate(pages):
            page.wait_for_timeout(300)
            faults = fit(page, f"classroom-seat-{seat}-{names[seat].lower()}")
            assert not faults, f"{names[seat]}'s join page does not fit:\n{fit_report(faults)}"
        assert all(not voila_errors(p) for p in pages)
        # the teacher's side-by-side replay of the table so far, in Voila
        (tmp_path / "replay").mkdir()
        replay_nb = notebook(
            tmp_path / "replay" / "replay.ipynb",
            "from qardlab.classroom.teacher import Teacher, side_by_side\n"
            f"record = Teacher({server.url!r}, {server.token!r}).record({table['table']})\n"
            "box = side_by_side(record)\nbox.slider.value = 3\nbox",
        )
        rv = voila(replay_nb)
        context = browser.new_context(viewport=VIEWPORT)
        local_only(context)
        page = context.new_page()
        page.goto(rv.base + "/", wait_until="load", timeout=180_000)
        assert_rendered(page, (".qard-side-by-side", ".qard-seat-column"), timeout_ms=90_000)
        assert page.locator(".qard-side-by-side .qard-seat-column").count() == 4
        heads = page.locator(".qard-seat-column h4").all_inner_texts()
        assert heads == ["Alice's view", "Bob's view", "Carol's view", "Dave's view"], heads
        page.wait_for_timeout(500)
        faults = fit(page, "classroom-teacher-side-by-side")
        assert not faults, f"the teacher's replay does not fit:\n{fit_report(faults)}"
    finally:
        server.stop()


def test_teacher_desk_in_voila(browser: Any, voila: Any, tmp_path: Path, fit: Any) -> None:
    """The teacher's notebook run alone (a practice server): the join sheet, one live tab per table, and the
    side-by-side replay of a finished table of bots."""
    nb = tmp_path / "desk" / "classroom-teacher.ipynb"
    nb.parent.mkdir()
    shutil.copy(NOTEBOOKS / "classroom-teacher.ipynb", nb)
    desk = voila(nb)
    context = browser.new_context(viewport=VIEWPORT)
    local_only(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(desk.base + "/", wait_until="load", timeout=240_000)
    assert_rendered(page, (".qard-join-sheet", ".qard-watch", ".qard-side-by-side"), timeout_ms=120_000)
    assert page.locator(".qard-join-card").count() == 2 * 3  # two tables of three students (a bot each)
    cards = page.locator(".qard-join-card").all_inner_texts()
    assert [c.split("\n")[0] for c in cards[:3]] == [
        f"table 1 · {n} (seat {s})" for s, n in enumerate(["Alice", "Bob", "Carol"])
    ], cards
    assert page.locator(".qard-seat-column").count() == 4
    assert not voila_errors(page) and not errors, (voila_errors(page), errors)
    page.wait_for_timeout(500)
    faults = fit(page, "classroom-teacher-desk")
    assert not faults, f"the teacher's desk does not fit:\n{fit_report(faults)}"

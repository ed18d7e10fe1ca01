"""What the browser tests check in each lesson and app, as data: one entry per notebook.

The lessons' authors add or adjust an entry when they write a notebook; the harness in
test_browser_lessons.py / test_browser_apps.py does the rest (open, wait for the kernel, Run All, no error
output, widgets rendered, the interaction, a screenshot). A notebook without an entry is still opened and
run, and its test reports a skip naming the missing interaction.

Selectors are CSS selectors over classes the widgets add themselves (`widget.add_class("qard-...")`);
text selectors would also match the cells' source code, so avoid them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Interaction:
    """One real interaction and its visible effect.

    click: selector of the element to click (the `nth` match; -1 for the last); None for a lesson with
        nothing to click (its output is plain HTML): then only `rendered` is checked.
    changes: selector of an element whose text (or, if `attribute` is set, that attribute, or else its
        inner HTML) must differ after the click; by default the clicked element itself.
    expect_text: optional text that must then appear inside `changes`.
    expect_visible: optional selector that must be visible after the click.
    rendered: selectors that must each match at least one element after Run All (the widgets rendered).
    script: optional callable page -> None for a longer scripted interaction (a whole game by clicking),
        run after the click check; it asserts what it needs itself.
    """

    click: str | None
    changes: str | None = None
    nth: int = 0
    expect_text: str | None = None
    expect_visible: str | None = None
    attribute: str | None = None
    rendered: tuple[str, ...] = ('[class*="qard-"]',)
    script: Callable[[Any], None] | None = None


# -- scripted games for the apps -------------------------------------------------------------------


def _visible(page: Any, selector: str) -> Any:
    """The first visible element matching ``selector``, or None."""
    loc = page.locator(f"{selector}:visible")
    return loc.first if loc.count() else None


def _click_until_log_changes(page: Any, target: Any, timeout_ms: int = 30_000) -> None:
    """Click and wait until the table's log (or its prompt) shows something new."""
    watched = ".qard-log, .qard-controls"
    before = "\n".join(page.locator(watched).all_inner_texts())
    target.click()
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        if "\n".join(page.locator(watched).all_inner_texts()) != before:
            return
        page.wait_for_timeout(100)
    raise AssertionError("a click in the game changed nothing in its log or controls")


def play_five_sons_by_clicking(page: Any, max_clicks: int = 400) -> None:
    """Play seat 0 of the Five Sons app to the end: ask the builder's question, pass every claim,
    answer every question by a click (a card lit, or Neither); the bots win (or, rarely, everyone is out).
    Asserts the end."""
    for _ in range(max_clicks):
        if "game is over" in " ".join(page.locator(".qard-controls").all_inner_texts()):
            break
        for selector in (
            ".qard-no-claim",
            ".qard-ask",
            "button.qard-card:not(.qard-illegal)",
            ".qard-neither",
        ):
            target = _visible(page, selector)
            if target is not None:
                _click_until_log_changes(page, target)
                break
        else:
            page.wait_for_timeout(200)
    texts = " ".join(page.locator(".qard-controls").all_inner_texts())
    assert "game is over" in texts, f"the Five Sons game did not end by clicking: {texts!r}"
    log = " ".join(page.locator(".qard-log").all_inner_texts())
    assert "wins" in log or "no winner" in log, f"no winner announced in the log: {log[-300:]!r}"


def play_hearts_hand_by_clicking(page: Any, max_clicks: int = 200) -> None:
    """Play seat 0 of the Hearts app through one hand: pick three cards and pass them, then click the
    first legal card each turn until the hand is over. Asserts the hand's end."""
    for _ in range(max_clicks):
        controls = " ".join(page.locator(".qard-controls").all_inner_texts())
        if "Hand over" in controls or "match is over" in controls:
            break
        if _visible(page, ".qard-pass") is not None:
            cards = page.locator("button.qard-card:visible")
            for i in range(3):
                if "qard-selected" not in (cards.nth(i).get_attribute("class") or ""):
                    cards.nth(i).click()
                    page.wait_for_timeout(150)
            button = page.locator(".qard-pass:visible").first
            deadline = time.monotonic() + 10
            while button.is_disabled() and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            _click_until_log_changes(page, button)
            continue
        card = _visible(page, "button.qard-card:not(.qard-illegal)")
        if card is not None:
            _click_until_log_changes(page, card)
        else:
            page.wait_for_timeout(200)
    controls = " ".join(page.locator(".qard-controls").all_inner_texts())
    assert "Hand over" in controls or "match is over" in controls, (
        f"the Hearts hand did not end by clicking: {controls!r}"
    )
    assert "The hand is over" in " ".join(page.locator(".qard-log").all_inner_texts())


def play_on_and_ask_carol(page: Any, timeout_ms: int = 30_000) -> None:
    """Lesson 04, section 6 (issue 29, item 4): "Play on from here as Alice" under the second table's stepper
    (at Alice's question 8) makes a new game below it; there Alice asks Carol "The Queen of Spades has five
    sons", and her grid counts the pairs Carol's answer (forced by her real cards) leaves. The new table is
    left in view for the fit check and its screenshots."""
    button = page.locator(".qard-play-on").nth(1)
    button.scroll_into_view_if_needed()
    assert "as Alice" in button.inner_text(), button.inner_text()
    button.click()
    new = page.locator(".qard-what-if .qard-table").first
    new.wait_for(state="visible", timeout=timeout_ms)
    scope = ".qard-what-if"
    page.locator(f"{scope} .qard-ask-target select").first.select_option(label="Carol")
    page.locator(f"{scope} .qard-ask-face select").first.select_option(label="Q♠ Queen")
    page.locator(f"{scope} .qard-ask-number select").first.select_option(label="5♥ Five")
    grid = page.locator(f"{scope} .qard-grid-column").first
    before = grid.inner_text()
    page.locator(f"{scope} .qard-ask:visible").first.click()
    deadline = time.monotonic() + timeout_ms / 1000
    while grid.inner_text() == before and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    text = grid.inner_text()
    assert "56 pairs by crossing out, 54 by logic" in text, text[:300]
    page.locator(f"{scope} .qard-what-if-heading").first.scroll_into_view_if_needed()


# lessons, opened in JupyterLab (notebooks/NN-*.ipynb)
LESSONS: dict[str, Interaction] = {
    "00-start-here.ipynb": Interaction(
        click=".qard-demo-deal",
        changes=".qard-demo-hand",
        rendered=(".qard-card", ".qard-demo-deal", ".qard-demo-hand"),
    ),
    # the deal-time table's stepper: one step back shows "Before the deal"
    "01-five-sons-first-game.ipynb": Interaction(
        click=".qard-step-previous",
        changes=".qard-step-text",
        expect_text="Before the deal",
        rendered=(".qard-table", ".qard-stepper", ".qard-card", ".qard-felt"),
    ),
    # Dave's grid: a click on a cell explains it in the deduction engine's words
    "02-what-an-answer-tells-whom.ipynb": Interaction(
        click=".qard-grid-cell",
        changes=".qard-grid-explanation",
        expect_text="Why",
        rendered=(".qard-table", ".qard-grid-cell", ".qard-viewpoint"),
    ),
    # Alice's grid: a cell, again explained
    "03-three-ways-to-reason.ipynb": Interaction(
        click=".qard-grid-cell",
        nth=5,
        changes=".qard-grid-explanation",
        expect_text="Why",
        rendered=(".qard-table", ".qard-grid-level", ".qard-grid-cell", ".qard-chart-0"),
    ),
    # the experiment's progress bar rendered; the stepper jumps to the first step; then section 6 plays on
    # from Alice's question 8 and asks Carol instead (play_on_and_ask_carol)
    "04-asking-good-questions.ipynb": Interaction(
        click=".qard-step-first",
        changes=".qard-step-text",
        expect_text="Before the deal",
        rendered=(".qard-progress", ".qard-table", ".qard-stepper", ".qard-play-on"),
        script=play_on_and_ask_carol,
    ),
    # playing from memory: the game opens on Alice's question (not a claim); the memory test's log is on the
    # page only after "Show the log" is clicked, and the grid only after "Reveal the grid"
    "05-play-from-memory.ipynb": Interaction(
        click=".qard-show-log",
        changes=".qard-memory-log",
        expect_text="deals 5 cards each",
        rendered=(".qard-table", ".qard-controls", ".qard-ask", ".qard-show-log", ".qard-reveal-grid"),
    ),
    # a Hearts hand: the first rule button jumps the table's stepper to the pass
    # the game the student's logic played: one step back from the end changes the stepper's text
    "06-build-crossing-out.ipynb": Interaction(
        click=".qard-step-previous",
        changes=".qard-step-text",
        rendered=(".qard-table", ".qard-stepper", ".qard-card"),
    ),
    # lesson 07 has no widget and nothing to click: its grid (an HTML table) is checked as rendered
    "07-build-counting-deals.ipynb": Interaction(
        click=None,
        rendered=(".qard-grid-table",),
    ),
    # the game the student's asker played, stepped back from its end
    "08-build-best-question.ipynb": Interaction(
        click=".qard-step-previous",
        changes=".qard-step-text",
        rendered=(".qard-table", ".qard-stepper", ".qard-card"),
    ),
    # the practice game played itself; the side-by-side replay's slider moves every seat's column
    "09-play-together.ipynb": Interaction(
        click=".qard-side-by-side-step .noUi-base",
        changes=".qard-seat-column",
        rendered=(".qard-table", ".qard-side-by-side", ".qard-seat-column", ".qard-side-by-side-step"),
    ),
    "10-first-hand-of-hearts.ipynb": Interaction(
        click=".qard-rule-jump",
        changes=".qard-step-text",
        rendered=(".qard-rule-jump", ".qard-table", ".qard-trick", ".qard-stepper"),
    ),
    # one step back from the moment of certainty: the counting grid's probabilities change
    "11-counting-cards-in-hearts.ipynb": Interaction(
        click=".qard-step-previous",
        changes=".qard-counting-grid",
        rendered=(".qard-table", ".qard-counting-grid", ".qard-void"),
    ),
    # the tournament's progress bar rendered; the sample hand steps back to its start
    "12-hearts-experiments.ipynb": Interaction(
        click=".qard-step-first",
        changes=".qard-step-text",
        expect_text="Before the deal",
        rendered=(".qard-progress", ".qard-table", ".qard-stepper"),
    ),
}

# apps, served by Voila (notebooks/app-*.ipynb)
APPS: dict[str, Interaction] = {
    # the join page with no server running: Join with no code asks for the code (joining itself, with a
    # server, is played through in test_browser_classroom.py)
    "app-classroom.ipynb": Interaction(
        click=".qard-join",
        changes=".qard-join-status",
        expect_text="join code",
        rendered=(".qard-join-app", ".qard-join-server", ".qard-join-code", ".qard-join"),
    ),
    # the app passes the player's claims after others' questions (issue 11): it opens on the player's turn
    # to ask, and asking logs the question and its answer
    "app-five-sons.ipynb": Interaction(
        click=".qard-ask",
        changes=".qard-log",
        rendered=(".qard-app", ".qard-table", ".qard-new-deal", ".qard-card"),
        script=play_five_sons_by_clicking,
    ),
    "app-hearts.ipynb": Interaction(
        click="button.qard-card",
        changes=".qard-controls",
        rendered=(".qard-app", ".qard-table", ".qard-trick", "button.qard-card"),
        script=play_hearts_hand_by_clicking,
    ),
}

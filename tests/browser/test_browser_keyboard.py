"""Keyboard play in a real browser (issues 11 and 29): a hand of cards and the deduction grid each take one
stop of the Tab order (a roving tabindex); the arrow keys move through them, Enter plays a card or explains
a cell, an illegal card is never focused; the explanation of a cell comes under its row, on the screen; in
JupyterLab the keys stay with the widget (the notebook's selected cell does not move)."""

from __future__ import annotations

import shutil
import time
from typing import Any

import nbformat
import pytest
from browser_harness import (
    NOTEBOOKS,
    PROJECTOR,
    LabServer,
    assert_rendered,
    open_notebook,
    run_all,
    voila_errors,
)

pytestmark = pytest.mark.browser

JS_FOCUSED = """() => {
  const e = document.activeElement;
  return e ? {card: e.classList.contains('qard-card'), illegal: e.classList.contains('qard-illegal'),
              cell: e.classList.contains('qard-grid-cell'), label: e.getAttribute('aria-label'),
              text: e.textContent, classes: e.className,
              outline: getComputedStyle(e).outlineColor + ' ' + getComputedStyle(e).outlineWidth} : null;
}"""

#: the notebook's selected cell (JupyterLab's arrows in command mode move it)
JS_ACTIVE_CELL = "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"


def _log(page: Any) -> str:
    return " ".join(page.locator(".qard-log, .qard-controls").all_inner_texts())


def _tab_to(page: Any, kind: str, presses: int = 80) -> dict:
    """Press Tab until a ``kind`` ("card" or "cell") has the focus; its description."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate(JS_FOCUSED)
        if focused and focused[kind]:
            return focused
    raise AssertionError(f"Tab never reached a {kind}")


def _key(page: Any, key: str) -> dict:
    page.keyboard.press(key)
    page.wait_for_timeout(60)
    return page.evaluate(JS_FOCUSED)


def test_hearts_by_keyboard(voila: Any, page: Any, tmp_path: Any) -> None:
    copy = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    server = voila(copy / "app-hearts.ipynb")
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    assert not voila_errors(page), voila_errors(page)
    assert_rendered(page, (".qard-app", "button.qard-card", ".qard-pass"), timeout_ms=60_000)
    # the pass: three cards chosen with the arrow keys and Enter, then the pass button clicked
    page.locator("body").click(position={"x": 5, "y": 5})
    first = _tab_to(page, "card")
    assert not first["illegal"]
    # the focus ring of the one style sheet (palette.FOCUS_CSS): a thick ring the projector shows
    assert first["outline"] == "rgb(0, 114, 178) 3px", first
    # the hand is one stop of the Tab order: one card with tabindex 0
    assert page.locator("button.qard-card[tabindex='0']:visible").count() == 1
    for _ in range(3):
        page.keyboard.press("Enter")
        page.wait_for_timeout(300)
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelectorAll('button.qard-card.qard-selected').length === 3", timeout=10_000
    )
    button = page.locator(".qard-pass:visible").first
    deadline = time.monotonic() + 10
    while button.is_disabled() and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    button.click()
    # play: wait for a turn with an illegal card and two legal ones in the hand (playing the first legal
    # card otherwise), then walk the hand with the arrow keys
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        legal = page.locator("button.qard-card:not(.qard-illegal):visible")
        if page.locator("button.qard-card.qard-illegal:visible").count() and legal.count() >= 2:
            break
        if "Your turn" in _log(page) and legal.count():
            legal.first.click()
        page.wait_for_timeout(300)
    else:
        pytest.skip("no turn with two legal cards and an illegal one came up in this deal")
    page.wait_for_timeout(300)
    legal = page.locator("button.qard-card:not(.qard-illegal):visible")
    page.locator("body").click(position={"x": 5, "y": 5})
    focused = _tab_to(page, "card")
    assert not focused["illegal"]
    focused = _key(page, "Home")
    seen = [focused["text"]]
    for _ in range(20):  # to the end of the hand: every legal card once, no illegal one
        after = _key(page, "ArrowRight")
        assert after["card"] and not after["illegal"], f"the arrows focused an illegal card: {after}"
        if after["text"] == seen[-1]:
            break  # the last legal card: the arrow stays
        seen.append(after["text"])
    assert seen == legal.all_inner_texts(), (seen, legal.all_inner_texts())
    assert _key(page, "End")["text"] == seen[-1] and _key(page, "ArrowLeft")["text"] == seen[-2]
    # Tab leaves the hand at once (one stop), Shift+Tab comes back to the same card
    assert not _key(page, "Tab")["card"]
    assert _key(page, "Shift+Tab")["text"] == seen[-2]
    # Enter plays the focused legal card: the log moves on
    before = _log(page)
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 20
    while _log(page) == before and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert _log(page) != before, "Enter on a legal card changed nothing"
    assert seen[-2] in _log(page), f"the played card {seen[-2]!r} is not in the log"
    assert not page.watch.errors, page.watch.errors


KEYS_NOTEBOOK = "zz-keyboard.ipynb"
KEYS_SOURCE = """\
from qardlab.games.five_sons import FiveSons
from qardlab.games.five_sons.bots import RandomAsker
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot
from qardlab.widgets import table

game = FiveSons.new(players=4, seed=9)
bots = {s: RandomAsker(seed=200 + s) for s in range(4)}
while game.turn < 6 or game.phase != "ask":
    game.apply(bots[game.to_move].act(game.observation(game.to_move)))
alice = table(game, seat=0)
alice"""
HEARTS_SOURCE = """\
hand = table(Hearts.new(4, seed=3), seat=0, human=0, bots={s: RuleBot(s) for s in (1, 2, 3)}, charts=False)
hand"""


def test_grid_and_hand_by_keyboard_in_jupyterlab(lab: LabServer, lab_page: Any) -> None:
    """In JupyterLab at 1024 x 768 with the file browser open: the grid is an ARIA grid with one cell in
    the Tab order; the arrow keys, Home, End and Ctrl+Home move the focus, Enter explains the focused
    cell, under its row, on the screen; the arrows and Enter in a hand choose cards; the notebook's
    selected cell stays where it was."""
    page = lab_page
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(KEYS_SOURCE), nbformat.v4.new_code_cell(HEARTS_SOURCE)]
    )
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, lab.root / KEYS_NOTEBOOK)
    page.set_viewport_size(PROJECTOR)
    open_notebook(page, lab, KEYS_NOTEBOOK)
    run_all(page)
    assert_rendered(page, (".qard-grid-cell", "button.qard-card"))
    grid = page.locator("[role='grid'].qard-grid-cells").first
    assert grid.locator("[role='row']").count() == 1 + 22 + 1  # the heads, a row a card, the explanation's
    assert (
        grid.locator("[role='columnheader']").count() == 5
        and grid.locator("[role='rowheader']").count() == 22
    )
    assert grid.locator("[role='gridcell'].qard-grid-cell").count() == 88
    assert grid.locator(".qard-grid-cell[tabindex='0']").count() == 1  # one stop of the Tab order
    # a click on a cell of the grid's last rows: the explanation comes under its row, on the screen
    cell = grid.locator(".qard-grid-cell[data-r='20'][data-c='1']")
    cell.scroll_into_view_if_needed()
    cell.click()
    why = grid.locator(".qard-grid-explanation")
    why.wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelector('.qard-grid-explanation').textContent.includes('Why 9♥ / Carol')"
    )
    page.wait_for_timeout(300)
    c, w = cell.bounding_box(), why.bounding_box()
    assert 0 <= w["y"] - (c["y"] + c["height"]) <= 6, (c, w)  # right under the clicked cell's row
    assert 0 <= w["y"] and w["y"] + w["height"] <= PROJECTOR["height"], w  # and on the screen
    active = page.evaluate(JS_ACTIVE_CELL)
    # the keys: the focus moves through the cells, the notebook's selected cell stays
    assert page.evaluate(JS_FOCUSED)["label"].startswith("cell: Nine of Hearts with Carol")  # (the click)
    assert _key(page, "ArrowDown")["label"].startswith("cell: Ten of Hearts with Carol")
    assert _key(page, "ArrowDown")["label"].startswith("cell: Ten of Hearts with Carol")  # the last row
    assert _key(page, "ArrowRight")["label"].startswith("cell: Ten of Hearts with Dave")
    assert _key(page, "End")["label"].startswith("cell: Ten of Hearts with secret")
    assert _key(page, "Home")["label"].startswith("cell: Ten of Hearts with Bob")
    assert _key(page, "Control+Home")["label"].startswith("cell: Jack of Clubs with Bob")
    assert _key(page, "PageDown")["label"].startswith("cell: King of Diamonds with Bob")  # five rows on
    assert _key(page, "ArrowUp")["label"].startswith("cell: Queen of Diamonds with Bob")
    assert grid.locator(".qard-grid-cell[tabindex='0']").count() == 1
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.qard-grid-explanation').textContent.includes('Why Q♦ / Bob')"
    )
    page.wait_for_timeout(300)
    q, w = grid.locator(".qard-grid-cell[data-r='4'][data-c='0']").bounding_box(), why.bounding_box()
    assert 0 <= w["y"] - (q["y"] + q["height"]) <= 6, (q, w)
    assert 0 <= w["y"] and w["y"] + w["height"] <= PROJECTOR["height"], w
    focused = page.evaluate(JS_FOCUSED)
    assert focused["label"].startswith("cell: Queen of Diamonds with Bob")  # the focus stays on the cell
    assert focused["outline"] == "rgb(0, 114, 178) 3px", focused
    assert page.evaluate(JS_ACTIVE_CELL) == active, "the arrow keys moved the notebook's selected cell"
    # the hand below: Hearts' pass, three cards chosen by the arrows and Enter, in JupyterLab
    hand = page.locator(".qard-hand-cards").last
    hand.locator("button.qard-card[tabindex='0']").focus()  # (JupyterLab selects the cell the focus is in)
    page.wait_for_timeout(200)
    active = page.evaluate(JS_ACTIVE_CELL)
    for _ in range(3):
        page.keyboard.press("Enter")
        page.wait_for_timeout(300)
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelectorAll('.qard-hand-cards button.qard-card.qard-selected').length === 3",
        timeout=10_000,
    )
    assert page.evaluate(JS_ACTIVE_CELL) == active, "the keys in the hand moved the notebook's selected cell"
    mode = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.mode")
    assert mode == "command", "Enter on a card put the notebook into edit mode"
    assert not page.watch.errors, page.watch.errors

"""Keyboard play in a real browser (issue 11): Tab walks the legal cards of the Hearts app, an illegal card
is never focused, and Enter on a focused card chooses or plays it."""

from __future__ import annotations

import shutil
import time
from typing import Any

import pytest
from browser_harness import NOTEBOOKS, assert_rendered, voila_errors

pytestmark = pytest.mark.browser

JS_FOCUSED = """() => {
  const e = document.activeElement;
  return e ? {card: e.classList.contains('qard-card'), illegal: e.classList.contains('qard-illegal'),
              text: e.textContent, classes: e.className,
              outline: getComputedStyle(e).outlineColor + ' ' + getComputedStyle(e).outlineWidth} : null;
}"""


def _log(page: Any) -> str:
    return " ".join(page.locator(".qard-log, .qard-controls").all_inner_texts())


def _tab_to_card(page: Any, presses: int = 80) -> dict:
    for _ in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate(JS_FOCUSED)
        if focused and focused["card"]:
            return focused
    raise AssertionError("Tab never reached a card")


def test_hearts_by_keyboard(voila: Any, page: Any, tmp_path: Any) -> None:
    copy = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    server = voila(copy / "app-hearts.ipynb")
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    assert not voila_errors(page), voila_errors(page)
    assert_rendered(page, (".qard-app", "button.qard-card", ".qard-pass"), timeout_ms=60_000)
    # the pass: three cards chosen with Tab and Enter, then the pass button clicked
    page.locator("body").click(position={"x": 5, "y": 5})
    first = _tab_to_card(page)
    assert not first["illegal"]
    # the focus ring of the one style sheet (palette.FOCUS_CSS): a thick ring the projector shows
    assert first["outline"] == "rgb(0, 114, 178) 3px", first
    for _ in range(3):
        page.keyboard.press("Enter")
        page.wait_for_timeout(300)
        page.keyboard.press("Tab")
    page.wait_for_function(
        "() => document.querySelectorAll('button.qard-card.qard-selected').length === 3", timeout=10_000
    )
    button = page.locator(".qard-pass:visible").first
    deadline = time.monotonic() + 10
    while button.is_disabled() and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    button.click()
    # play: wait for a turn with an illegal card in the hand, then walk the hand with Tab
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if (
            page.locator("button.qard-card.qard-illegal:visible").count()
            and page.locator("button.qard-card:not(.qard-illegal):visible").count()
        ):
            break
        page.wait_for_timeout(200)
    else:
        pytest.skip("no turn with both legal and illegal cards came up in this deal")
    illegal = page.locator("button.qard-card.qard-illegal:visible")
    assert all(illegal.nth(i).get_attribute("tabindex") == "-1" for i in range(illegal.count()))
    legal = page.locator("button.qard-card:not(.qard-illegal):visible")
    page.locator("body").click(position={"x": 5, "y": 5})
    seen = []
    focused = _tab_to_card(page)
    while focused and focused["card"]:
        assert not focused["illegal"], f"Tab focused an illegal card: {focused}"
        seen.append(focused["text"])
        page.keyboard.press("Tab")
        focused = page.evaluate(JS_FOCUSED)
    assert len(seen) == legal.count(), (seen, legal.count())
    # Enter plays the focused legal card: the log moves on
    page.keyboard.press("Shift+Tab")
    before = _log(page)
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 20
    while _log(page) == before and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert _log(page) != before, "Enter on a legal card changed nothing"
    assert seen[-1] in _log(page), f"the played card {seen[-1]!r} is not in the log"
    assert not page.watch.errors, page.watch.errors

"""Both apps as a class first sees them, at 1280 x 900 and at 1024 x 768 (a projector): screenshots into
artifacts/screenshots/ (`<app>-voila-start-1280x900.png`, `<app>-voila-start-1024x768.png`), taken whatever
the scripted game of test_browser_apps.py later does. The page must render with no error, show its chart
(a text alternative included) and fit both screens (browser_harness.layout_faults)."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from browser_harness import (
    NOTEBOOKS,
    PROJECTOR,
    SCREENSHOTS,
    assert_rendered,
    cut_labels,
    fit_report,
    voila_errors,
)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", ["app-five-sons.ipynb", "app-hearts.ipynb"])
def test_app_first_screen(name: str, voila: Any, page: Any, shot: Any, fit: Any, tmp_path: Any) -> None:
    copy = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    server = voila(copy / name)
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    assert not voila_errors(page), voila_errors(page)
    assert_rendered(page, (".qard-app", ".qard-table", ".qard-card"), timeout_ms=60_000)
    if "five-sons" in name:  # play on (pass claims, ask, answer) until the charts have lines to draw
        alt = ""
        for _ in range(12):
            page.wait_for_timeout(400)
            alts = page.locator(".qard-chart-0 .qard-chart-alt")
            alt = alts.first.inner_text() if alts.count() else ""
            if alt and "After the deal" not in alt:
                break
            for selector in (
                ".qard-no-claim",
                ".qard-ask",
                "button.qard-card:not(.qard-illegal)",
                ".qard-neither",
            ):
                target = page.locator(f"{selector}:visible")
                if target.count():
                    target.first.click()
                    break
        assert "full logic" in alt, f"the candidates chart never drew its lines: {alt!r}"
    page.wait_for_timeout(500)
    size = page.viewport_size
    faults = fit(page, name.removesuffix(".ipynb") + "-voila-start")
    page.set_viewport_size(size)
    assert not faults, f"{name} does not fit:\n{fit_report(faults)}"
    if "five-sons" in name:  # on a projector (1024 x 768) the grid stands beside the ask controls
        size = page.viewport_size
        page.set_viewport_size(PROJECTOR)
        try:
            page.wait_for_timeout(300)
            box = page.evaluate("""() => { const r = s => document.querySelector(s).getBoundingClientRect();
                return {felt: r('.qard-felt'), grid: r('.qard-deduction-grid'),
                        ask: r('.qard-controls')}; }""")
        finally:
            page.set_viewport_size(size)
        assert box["grid"]["left"] >= box["felt"]["right"] and box["grid"]["top"] < box["ask"]["top"], box
        assert box["grid"]["right"] <= PROJECTOR["width"], box  # no sideways scroll
    if "five-sons" in name:  # the grid and the charts lie below the first screen
        page.locator(".qard-chart-0").first.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        shot(page, name.removesuffix(".ipynb") + "-voila-grid")
    # the labels show whole: no select's chosen words, no button's or description's words wider than their box
    # (issue 11: "probability (best ques", "J♣ Jack of Clu", "crossing out seen ca..." were cut)
    cut = cut_labels(page, ".qard-app")
    assert not cut, f"labels cut: {cut}"
    # the four-colour deck: one click recolours every club on the page green (cards, grid rows)
    page.locator(".qard-four-colours input").first.click()
    page.wait_for_timeout(600)
    colours = page.evaluate("""() => [...document.querySelectorAll(
        '.qard-table .qard-card, .qard-table [aria-label^="card row"]')]
        .filter(b => b.textContent.includes('♣')).map(b => getComputedStyle(b).color)""")
    assert colours and all(c == "rgb(27, 122, 50)" for c in colours), colours  # palette.DECKS["four"]["C"]
    shot(page, name.removesuffix(".ipynb") + "-voila-four-colours")
    if "five-sons" in name:
        claim_and_see_the_verdict(page, name.removesuffix(".ipynb"))
    assert not page.watch.errors, page.watch.errors


_SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def claim_and_see_the_verdict(page: Any, stem: str) -> None:
    """The player claims a pair it knows is wrong (holding one of its cards, or shown it), by the claim
    row's dropdowns and button as a student would; the verdict of its own claim is then on the screen where
    the page is after the click, with no scrolling, at 1280 x 900 and at 1024 x 768 (issue 11: "the verdict
    of the player's own claim is not on screen without scrolling")."""
    seen = set(
        page.locator(".qard-app [data-card]").evaluate_all(
            "(els) => els.map((e) => e.getAttribute('data-card'))"
        )
    )  # its hand and the cards shown to it
    faces = sorted(c for c in seen if c[0] in "JQK")
    numbers = sorted(c for c in seen if c[1] == "H" and c[0] in "A23456789T")
    face, number = (faces[0], "AH") if faces else ("JC", numbers[0])
    button = page.locator(".qard-claim:visible").first
    selects = button.locator("xpath=..").locator("select")
    for select, code in ((selects.nth(0), face), (selects.nth(1), number)):
        start = ("10" if code[0] == "T" else code[0]) + _SUITS[code[1]]
        label = next(t for t in select.locator("option").all_inner_texts() if t.startswith(start))
        select.select_option(label=label)
    button.click()
    page.locator(".qard-claim-confirm:visible").click()  # a claim asks once to confirm
    ask = page.locator(".qard-ask:visible")
    if ask.count():  # claims pass unless I claim: the claim waits for my next chance, after my question
        ask.first.click()
    verdict = page.locator(".qard-verdict-wrong").first
    verdict.wait_for(state="visible", timeout=30_000)
    assert "Your claim" in verdict.inner_text(), verdict.inner_text()
    size = page.viewport_size
    try:
        for viewport in (size, PROJECTOR):
            page.set_viewport_size(viewport)
            page.wait_for_timeout(300)
            box = verdict.bounding_box()
            on_screen = box is not None and 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"]
            assert on_screen, (viewport, box)
            suffix = "" if viewport == size else f"-{PROJECTOR['width']}x{PROJECTOR['height']}"
            page.screenshot(path=str(SCREENSHOTS / f"{stem}-voila-verdict{suffix}.png"))  # the screen as seen
    finally:
        page.set_viewport_size(size)

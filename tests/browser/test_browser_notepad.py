"""The printable notepad renders in Chromium: every card row and column heading is laid out on the page."""

from __future__ import annotations

from typing import Any

import pytest

from qardlab.lessons.notepad import notepad_svg

pytestmark = pytest.mark.browser


def test_notepad_renders_in_chromium(page: Any, shot: Any) -> None:
    page.set_content(f"<!doctype html><body style='margin:0'>{notepad_svg(4)}</body>")
    svg = page.locator("svg.qard-notepad")
    box = svg.bounding_box()
    assert box and box["width"] > 700 and box["height"] > 1000  # 210 x 297 mm at 96 dpi: 794 x 1123 px
    cards = page.locator(".qard-notepad-card")
    assert cards.count() == 22
    first, last = cards.first.bounding_box(), cards.last.bounding_box()
    assert first and last and first["width"] > 0 and last["y"] > first["y"]
    assert last["y"] + last["height"] < box["y"] + box["height"]
    assert page.locator(".qard-notepad-col").count() == 5
    shot(page, "notepad")

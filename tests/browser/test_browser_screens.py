"""Both apps as a class first sees them, at 1280 x 900 and at 1024 x 768 (a projector): screenshots into
artifacts/screenshots/ (`<app>-voila-start.png`, `<app>-voila-start-1024x768.png`), taken whatever the
scripted game of test_browser_apps.py later does. The page must render with no error and show its chart
(a text alternative included)."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from browser_harness import NOTEBOOKS, assert_rendered, voila_errors

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", ["app-five-sons.ipynb", "app-hearts.ipynb"])
def test_app_first_screen(name: str, voila: Any, page: Any, shot: Any, tmp_path: Any) -> None:
    copy = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    server = voila(copy / name)
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    assert not voila_errors(page), voila_errors(page)
    assert_rendered(page, (".qard-app", ".qard-table", ".qard-card"), timeout_ms=60_000)
    if "five-sons" in name:  # play on (pass claims, ask) until the charts have lines to draw
        alt = ""
        for _ in range(12):
            page.wait_for_timeout(400)
            alts = page.locator(".qard-chart-0 .qard-chart-alt")
            alt = alts.first.inner_text() if alts.count() else ""
            if alt and "After the deal" not in alt:
                break
            for selector in (".qard-no-claim", ".qard-ask"):
                target = page.locator(f"{selector}:visible")
                if target.count():
                    target.first.click()
                    break
        assert "full logic" in alt, f"the candidates chart never drew its lines: {alt!r}"
    page.wait_for_timeout(500)
    shot(page, name.removesuffix(".ipynb") + "-voila-start")
    if "five-sons" in name:  # the grid and the charts lie below the first screen
        page.locator(".qard-chart-0").first.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        shot(page, name.removesuffix(".ipynb") + "-voila-grid")
    assert not page.watch.errors, page.watch.errors

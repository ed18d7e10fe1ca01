"""Both game apps served by Voila in headless Chromium: the page renders the app's widgets with no
JavaScript error, the declared interaction (a game played by clicking) works, and at the game's end the
tables fit the page at 1024 x 768 and at 1280 x 900 with nothing cut and no type under 12 px
(browser_harness.layout_faults), a screenshot at each size."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import NOTEBOOKS, assert_rendered, fit_report, perform, voila_errors
from interactions import APPS

pytestmark = pytest.mark.browser

APP_FILES = sorted(p.name for p in NOTEBOOKS.glob("app-*.ipynb"))


def test_every_declared_app_exists() -> None:
    """An entry in interactions.APPS names a notebook that is really there."""
    missing = sorted(set(APPS) - set(APP_FILES))
    assert not missing, f"interactions.APPS names notebooks that do not exist: {missing}"


@pytest.mark.parametrize(
    "name",
    APP_FILES
    or [
        pytest.param(
            "app-*.ipynb",
            marks=pytest.mark.skip(
                reason="no app notebooks yet (notebooks/app-five-sons.ipynb, notebooks/app-hearts.ipynb)"
            ),
        )
    ],
)
def test_app_in_voila(name: str, voila: Any, page: Any, fit: Any, tmp_path: Any) -> None:
    """The app renders in Voila and plays by clicking."""
    import shutil

    copy = tmp_path / "notebooks"  # Voila runs a copy: nothing is written next to the real notebook
    shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    server = voila(copy / name)
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    interaction = APPS.get(name)
    assert not voila_errors(page), f"the app raised: {voila_errors(page)}"
    assert_rendered(page, interaction.rendered if interaction else ('[class*="qard-"]',), timeout_ms=60_000)
    if interaction is not None:
        perform(page, interaction)
    faults = fit(page, name.removesuffix(".ipynb") + "-voila")
    assert not faults, f"{name} does not fit:\n{fit_report(faults)}"
    assert not page.watch.errors, f"JavaScript errors on the page: {page.watch.errors}"
    if interaction is None:
        pytest.skip(f"renders, but no interaction is declared for {name} in tests/browser/interactions.py")

"""Every lesson notebook opened in JupyterLab in headless Chromium: Run All, no error output, the widgets
rendered, one real interaction with its visible effect, and a screenshot under artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import (
    NOTEBOOKS,
    LabServer,
    assert_rendered,
    cut_labels,
    open_notebook,
    perform,
    run_all,
)
from interactions import LESSONS

pytestmark = pytest.mark.browser

LESSON_FILES = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))


def test_every_declared_lesson_exists() -> None:
    """An entry in interactions.LESSONS names a notebook that is really there (catches renames)."""
    missing = sorted(set(LESSONS) - set(LESSON_FILES))
    assert not missing, f"interactions.LESSONS names notebooks that do not exist: {missing}"


@pytest.mark.parametrize("name", LESSON_FILES)
def test_lesson_in_jupyterlab(name: str, lab: LabServer, lab_page: Any, shot: Any) -> None:
    """The lesson runs top to bottom in JupyterLab, its widgets render and respond to a click."""
    page = lab_page
    open_notebook(page, lab, name)
    run_all(page)
    interaction = LESSONS.get(name)
    rendered = interaction.rendered if interaction else ('[class*="qard-"]',)
    assert_rendered(page, rendered)
    if interaction is not None and interaction.click is not None:
        perform(page, interaction)
    shot(page, name.removesuffix(".ipynb"))
    cut = cut_labels(page, ".jp-OutputArea")
    assert not cut, f"labels cut: {cut}"
    assert not page.watch.errors, f"JavaScript errors on the page: {page.watch.errors}"
    if interaction is None:
        pytest.skip(f"ran clean, but no interaction is declared for {name} in tests/browser/interactions.py")

"""Every lesson notebook opened in JupyterLab in headless Chromium at 1024 x 768, as JupyterLab opens (its
file browser open): Run All, no error output, the widgets rendered, one real interaction with its visible
effect; then, at 1024 x 768 and at 1280 x 900, every table fits its output area with nothing cut and no type
under 12 px (browser_harness.layout_faults), and a screenshot at each size under artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import (
    NOTEBOOKS,
    PROJECTOR,
    LabServer,
    assert_rendered,
    cut_labels,
    file_browser_width,
    fit_report,
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
def test_lesson_in_jupyterlab(name: str, lab: LabServer, lab_page: Any, fit: Any) -> None:
    """The lesson runs top to bottom in JupyterLab, its widgets render and respond to a click, and its
    tables fit a projector with the file browser open and a laptop."""
    page = lab_page
    page.set_viewport_size(PROJECTOR)  # JupyterLab as it opens on a projector: the file browser open
    open_notebook(page, lab, name)
    assert file_browser_width(page) > 200, "JupyterLab opened with its file browser closed"
    run_all(page)
    interaction = LESSONS.get(name)
    rendered = interaction.rendered if interaction else ('[class*="qard-"]',)
    assert_rendered(page, rendered)
    if interaction is not None and interaction.click is not None:
        perform(page, interaction)
    faults = fit(page, name.removesuffix(".ipynb"))
    assert file_browser_width(page) > 200, "the file browser closed"
    assert not faults, f"{name} does not fit:\n{fit_report(faults)}"
    cut = cut_labels(page, ".jp-OutputArea")
    assert not cut, f"labels cut: {cut}"
    assert not page.watch.errors, f"JavaScript errors on the page: {page.watch.errors}"
    if interaction is None:
        pytest.skip(f"ran clean, but no interaction is declared for {name} in tests/browser/interactions.py")

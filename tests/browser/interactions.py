"""What the browser tests check in each lesson and app, as data: one entry per notebook.

The lessons' authors add or adjust an entry when they write a notebook; the harness in
test_browser_lessons.py / test_browser_apps.py does the rest (open, wait for the kernel, Run All, no error
output, widgets rendered, the interaction, a screenshot). A notebook without an entry is still opened and
run, and its test reports a skip naming the missing interaction.

Selectors are CSS selectors over classes the widgets add themselves (`widget.add_class("qard-...")`);
text selectors would also match the cells' source code, so avoid them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Interaction:
    """One real interaction and its visible effect.

    click: selector of the element to click (the `nth` match; -1 for the last).
    changes: selector of an element whose text (or, if `attribute` is set, that attribute, or else its
        inner HTML) must differ after the click; by default the clicked element itself.
    expect_text: optional text that must then appear inside `changes`.
    expect_visible: optional selector that must be visible after the click.
    rendered: selectors that must each match at least one element after Run All (the widgets rendered).
    script: optional callable page -> None for a longer scripted interaction (a whole game by clicking),
        run after the click check; it asserts what it needs itself.
    """

    click: str
    changes: str | None = None
    nth: int = 0
    expect_text: str | None = None
    expect_visible: str | None = None
    attribute: str | None = None
    rendered: tuple[str, ...] = ('[class*="qard-"]',)
    script: Callable[[Any], None] | None = None


# lessons, opened in JupyterLab (notebooks/NN-*.ipynb)
LESSONS: dict[str, Interaction] = {
    "00-start-here.ipynb": Interaction(
        click=".qard-demo-deal",
        changes=".qard-demo-hand",
        rendered=(".qard-card", ".qard-demo-deal", ".qard-demo-hand"),
    ),
}

# apps, served by Voila (notebooks/app-*.ipynb)
APPS: dict[str, Interaction] = {}

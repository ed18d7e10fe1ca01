"""'Play on from here' in JupyterLab as it opens on a projector (1024 x 768, the file browser open; issue 29,
item 4): the button under a replay's stepper makes a new live table under it, which fits its output area
with nothing cut (browser_harness.layout_faults) at 1024 x 768 and 1280 x 900, and screenshots of it are kept.
Lesson 04's section 6 does the same for Five Sons (interactions.play_on_and_ask_carol); here a Hearts replay
mid-hand, in a notebook written for the test into the server's copy of notebooks/."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_harness import PROJECTOR, LabServer, file_browser_width, fit_report, open_notebook, run_all

pytestmark = pytest.mark.browser

NOTEBOOK = "play-on-hearts.ipynb"
CELLS = [
    "from qardlab.engine import play\n"
    "from qardlab.games.hearts import Hearts\n"
    "from qardlab.games.hearts.bots import RuleBot\n"
    "from qardlab.widgets import table",
    "game = play(Hearts.new(4, seed=6), [RuleBot(s) for s in range(4)], max_steps=30)  # a few tricks in\n"
    "replay = table(game, seat=1)\n"
    "replay.timeline.go_to(20)\n"
    "replay",
]


def _write(lab: LabServer) -> None:
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"p{i}",
                "metadata": {},
                "outputs": [],
                "source": c,
            }
            for i, c in enumerate(CELLS)
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (lab.root / NOTEBOOK).write_text(json.dumps(nb), encoding="utf-8")


def test_hearts_plays_on_from_a_replay_and_the_new_table_fits(
    lab: LabServer, lab_page: Any, fit: Any
) -> None:
    page = lab_page
    _write(lab)
    page.set_viewport_size(PROJECTOR)
    open_notebook(page, lab, NOTEBOOK)
    assert file_browser_width(page) > 200, "JupyterLab opened with its file browser closed"
    run_all(page)
    button = page.locator(".qard-play-on").first
    button.wait_for(state="visible", timeout=30_000)
    assert button.inner_text().strip() == "Play on from here as Bob"
    assert page.locator(".qard-play-on-bots select").first.input_value() is not None
    button.click()
    new = page.locator(".qard-what-if .qard-table").first
    new.wait_for(state="visible", timeout=30_000)
    heading = page.locator(".qard-what-if-heading").first
    assert "from step 20 of the game above" in heading.inner_text() and "you play Bob" in heading.inner_text()
    # the new table is Bob's, live: his hand's cards under its felt, and the bots played up to his turn
    page.locator(".qard-what-if .qard-my-hand .qard-card").first.wait_for(state="visible", timeout=30_000)
    assert page.locator(".qard-what-if .qard-felt").count() >= 1
    heading.scroll_into_view_if_needed()
    faults = fit(page, "play-on-hearts")
    assert not faults, f"the table played on from here does not fit:\n{fit_report(faults)}"
    assert file_browser_width(page) > 200, "the file browser closed"
    assert not page.watch.errors, f"JavaScript errors on the page: {page.watch.errors}"
    # closing it takes the new table away, and the replay is as it was
    page.locator(".qard-what-if-close").first.click()
    page.wait_for_function("() => !document.querySelector('.qard-what-if .qard-table')", timeout=30_000)

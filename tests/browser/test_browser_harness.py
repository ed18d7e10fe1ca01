"""The harness itself, against a tiny notebook with an ipywidgets Button: JupyterLab and Voila both
render it, and a click in the browser reaches the kernel and comes back as a visible change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from browser_harness import (
    LabServer,
    assert_rendered,
    cut_labels,
    layout_faults,
    open_notebook,
    perform,
    run_all,
    voila_errors,
)
from interactions import Interaction

pytestmark = pytest.mark.browser

BUTTON_NOTEBOOK = "zz-harness-button.ipynb"
SOURCE = """\
import ipywidgets as widgets

clicks = widgets.Label("clicked 0 times")
clicks.add_class("qard-test-label")
button = widgets.Button(description="Click me")
button.add_class("qard-test-button")


def on_click(_):
    n = int(clicks.value.split()[1]) + 1
    clicks.value = f"clicked {n} times"


button.on_click(on_click)
widgets.VBox([button, clicks])"""

CLICK = Interaction(
    click=".qard-test-button",
    changes=".qard-test-label",
    expect_text="clicked 1 times",
    rendered=(".qard-test-button", ".qard-test-label"),
)


def write_button_notebook(folder: Path) -> Path:
    """A two-cell notebook: a Button that counts its clicks into a Label."""
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# harness check"), nbformat.v4.new_code_cell(SOURCE)]
    )
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / BUTTON_NOTEBOOK
    nbformat.write(nb, path)
    return path


def test_harness_button_in_jupyterlab(lab: LabServer, lab_page: Any) -> None:
    """Run All waits for the kernel (not the toolbar), and a click on a widget updates a Label."""
    write_button_notebook(lab.root)
    open_notebook(lab_page, lab, BUTTON_NOTEBOOK)
    report = run_all(lab_page)
    assert [c["count"] for c in report] == [1], report
    assert_rendered(lab_page, CLICK.rendered)
    perform(lab_page, CLICK)
    assert not lab_page.watch.errors


def test_harness_reports_a_failing_cell(lab: LabServer, lab_page: Any) -> None:
    """A cell that raises is reported by name, so a broken lesson cannot pass silently."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise ValueError('boom 42')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, lab.root / "zz-harness-raises.ipynb")
    open_notebook(lab_page, lab, "zz-harness-raises.ipynb")
    with pytest.raises(AssertionError, match="boom 42"):
        run_all(lab_page)


def test_harness_button_in_voila(voila: Any, page: Any, tmp_path: Path) -> None:
    """Voila serves the notebook at its root, and the same locator and click work there."""
    server = voila(write_button_notebook(tmp_path))
    page.goto(server.base + "/", wait_until="load", timeout=120_000)
    assert not voila_errors(page)
    assert_rendered(page, CLICK.rendered, timeout_ms=60_000)
    perform(page, CLICK)
    assert not page.watch.errors


def test_harness_reports_a_failing_cell_in_voila(voila: Any, page: Any, tmp_path: Path) -> None:
    """An app whose cell raises is caught by voila_errors (Voila shows the traceback and stops there)."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise ValueError('boom 42')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "raises.ipynb")
    server = voila(tmp_path / "raises.ipynb")
    page.goto(server.base + "/", wait_until="load", timeout=120_000)
    errors = voila_errors(page)
    assert errors and "boom 42" in errors[0]


CUT_PAGE = """<style>
  button, .widget-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
</style>
<div class="t">
  <button style="width: 4em">crossing out seen cards</button>
  <button style="width: 30em">full logic</button>
  <span class="widget-label" style="display: inline-block; width: 3em">Bot level:</span>
  <select style="width: 5em"><option>Teacher (all cards)</option></select>
  <select style="width: 20em"><option>Alice</option></select>
  <button style="width: 2em; display: none">hidden and cut</button>
</div>"""


def test_cut_labels_finds_the_words_their_box_cuts(page: Any) -> None:
    """cut_labels (issue 11's check of every lesson and app) names exactly the button, description and
    dropdown whose words do not fit, and none that fits or is hidden."""
    page.set_content(CUT_PAGE)
    assert sorted(cut_labels(page, ".t")) == ["Bot level:", "Teacher (all cards)", "crossing out seen cards"]


FAULT_PAGE = """<div class="qard-table" id="bad" style="width: 300px; font-size: 13px">
  <div class="qard-felt-ring" style="position: relative; width: 280px; height: 120px; overflow: hidden">
    <div class="qard-seat" style="position: absolute; left: 10px; top: 10px; width: 80px; height: 40px">
      <span class="qard-seat-name">Alice</span></div>
    <div class="qard-seat" style="position: absolute; left: 60px; top: 30px; width: 80px; height: 40px">
      <span class="qard-seat-name">Bob</span></div>
    <div class="qard-seat" style="position: absolute; left: 250px; top: 70px; width: 80px; height: 40px">
      <span class="qard-seat-name">Dave</span></div>
  </div>
  <div class="qard-seat-info" style="width: 40px; overflow: hidden; white-space: nowrap">score 15</div>
  <div class="qard-trick-name" style="font-size: 9.6px">Carol</div>
  <div class="qard-wide" style="width: 400px">wide</div>
  <div class="qard-hidden" style="display: none; font-size: 5px">hidden</div>
  <div class="qard-log" style="height: 20px; overflow-y: auto">one<br>two<br>three<br>four</div>
</div>
<div class="qard-table" id="good" style="width: 300px; font-size: 13px">
  <div class="qard-felt-ring" style="position: relative; width: 280px; height: 120px; overflow: hidden">
    <div class="qard-seat" style="position: absolute; left: 10px; top: 10px; width: 80px">Alice</div>
    <div class="qard-seat" style="position: absolute; left: 150px; top: 10px; width: 80px">Bob</div>
  </div>
  <div style="position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
              font-size: 8px">for screen readers only</div>
</div>"""


def test_layout_faults_names_what_a_class_would_see_wrong(page: Any) -> None:
    """layout_faults (issue 29's check of every lesson and app) names a seat beyond the felt's side and
    on another seat, words cut by their box, small type and a table wider than its area; a log that
    scrolls up and down, hidden elements and text for screen readers only are no fault."""
    page.set_viewport_size({"width": 360, "height": 600})
    page.set_content(FAULT_PAGE)
    bad = layout_faults(page, "#bad")
    text = "\n".join(bad)
    # a seat off the felt's side: the felt holds more than it shows, and Dave's name is cut
    assert 'qard-felt-ring "Alice Bob Dave" cuts or scrolls its content sideways (330 > 280 px)' in text
    assert 'qard-seat-name "Dave" is cut by qard-felt-ring' in text
    assert 'qard-seat "Alice" lies on qard-seat "Bob"' in text and 'Dave" lies on' not in text
    assert 'qard-seat-info "score 15" cuts or scrolls its content sideways' in text
    assert 'qard-trick-name "Carol" is 9.6 px type' in text
    assert 'qard-wide "wide" overflows the output area' in text
    assert "hidden" not in text and "qard-log" not in text
    assert layout_faults(page, "#good") == []

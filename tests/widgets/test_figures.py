"""ChartView: a chart in an Image widget, with a text alternative, blitting only real charts."""

from __future__ import annotations

from qardlab import charts
from qardlab.widgets.figures import ChartView

ROWS = [
    {"turn": t, "naive": 72, "logic": 72 - t, "effective": 70 - t, "entropy": 6 - t / 10} for t in range(6)
]


def test_chart_view_reads_its_chart_aloud():
    view = ChartView()
    view.show(charts.candidates_chart(ROWS))
    assert view.value[:4] == b"\x89PNG"
    assert view.alt_text.startswith("Candidate secret pairs.") and "full logic: 72 to 67." in view.alt_text
    assert 'aria-label="Candidate secret pairs.' in view.caption.value
    assert view.tooltip is None and view.image.tooltip is None  # an Image with a tooltip fails to render
    view.show(None)
    assert view.value == b"" and view.alt_text == "" and view.caption.value == ""


def test_nothing_yet_is_shown_but_not_kept_for_blitting():
    view = ChartView()
    fig = charts.candidates_chart(ROWS[:1], fixed_layout=True)
    view.show_blit(fig, [ln for a in fig.axes for ln in a.lines])
    assert not view.blitting and view.figure is fig
    assert "After the deal" in view.alt_text
    fig = charts.candidates_chart(ROWS[:3], fixed_layout=True)
    view.show_blit(fig, [ln for a in fig.axes for ln in a.lines])
    assert view.blitting


def test_blitted_lines_that_leave_the_axes_widen_them():
    """A table builds the chart once and then moves its lines: values below the axis widen it."""
    view = ChartView()
    fig = charts.candidates_chart(ROWS[:3], fixed_layout=True)
    view.show_blit(fig, [ln for a in fig.axes for ln in a.lines])
    ax = fig.axes[0]
    lo_before = ax.get_ylim()[0]
    line = next(ln for ln in ax.lines if ln.get_gid() == "logic")
    line.set_data([0, 1, 2, 3, 4, 5, 20], [72, 71, 70, 40, 20, 5, 2])
    view.redraw()
    lo, hi = ax.get_ylim()
    assert lo < 2 <= hi and lo < lo_before
    assert ax.get_xlim()[1] >= 20
    assert view.blitting and "full logic: 72 to 2." in view.alt_text

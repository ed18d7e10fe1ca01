"""Charts are pure functions returning Figures; checked by their plotted data, not pixels."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from qardlab import charts
from qardlab.cards import Card
from qardlab.games.five_sons import FiveSons
from qardlab.games.five_sons import charts as five_sons_charts
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from qardlab.widgets.figures import figure_png

ROWS = [
    {
        "step": s,
        "naive": 120 - 2 * s,
        "logic": 100 - 3 * s,
        "effective": 90.5 - 3 * s,
        "entropy": 6.0 - s / 10,
    }
    for s in range(1, 11)
]


def lines(fig: Figure) -> dict:
    return {ln.get_gid(): ln for ax in fig.axes for ln in ax.lines}


def test_candidates_chart_plots_each_level_and_marks_the_step():
    fig = charts.candidates_chart(ROWS, current=4)
    assert isinstance(fig, Figure)
    ls = lines(fig)
    assert list(ls["naive"].get_ydata()) == [r["naive"] for r in ROWS]
    assert list(ls["logic"].get_ydata()) == [r["logic"] for r in ROWS]
    assert list(ls["effective"].get_ydata()) == [r["effective"] for r in ROWS]
    assert list(ls["entropy"].get_ydata()) == pytest.approx([r["entropy"] for r in ROWS])
    assert list(ls["current"].get_xdata()) == [4, 4]
    assert len(figure_png(fig)) > 1000


def test_candidates_chart_accepts_columns_and_no_entropy():
    cols = {"step": [1, 2], "naive": [120, 50], "logic": [100, 40]}
    ls = lines(charts.candidates_chart(cols))
    assert set(ls) == {"naive", "logic"}


def test_pair_grid_chart_shades_posterior_and_crosses_out_pairs():
    g = FiveSons.from_deal(
        ["JC QC KC AH 2H", "JD QD KD 3H 4H", "JH QH KH 5H 6H", "JS QS 7H 9H TH"], secret=("KS", "8H")
    )
    k = g.knowledge(0)
    post = k.posterior()
    fig = five_sons_charts.pair_grid_chart(post, k.candidates())
    arr = fig.axes[0].images[0].get_array()
    assert arr.shape == (12, 10)
    assert arr.sum() == pytest.approx(1.0)
    i, j = FACE_CARDS.index(Card.parse("QS")), NUMBER_CARDS.index(Card.parse("8H"))
    assert arr[i, j] == pytest.approx(post[(Card.parse("QS"), Card.parse("8H"))])
    crossed = fig.axes[0].collections[0]
    assert crossed.get_gid() == "crossed"
    assert len(crossed.get_offsets()) == 120 - len(k.candidates())
    # JC is in the seat's own hand: every pair with it is crossed out
    offs = {tuple(map(int, o)) for o in np.asarray(crossed.get_offsets())}
    assert all((j, FACE_CARDS.index(Card.parse("JC"))) in offs for j in range(10))
    text = charts.chart_text(fig)  # the shared text alternative reads the image's own noun
    assert f"{int(np.count_nonzero(arr))} pairs with a probability above zero" in text


def test_the_shared_charts_module_holds_no_five_sons_shape():
    """Issue 26, item 5: the 12 x 10 grid of pairs and the advisor's bars are Five Sons' own charts, in its
    folder (loaded by widgets and lessons only); the shared module draws any game's lines, and a grid image
    it did not label reads as "cells"."""
    import inspect

    assert not {"pair_grid", "pair_grid_chart", "advisor_chart"} & set(dir(charts))
    source = inspect.getsource(charts)
    assert "FACE_CARDS" not in source and "NUMBER_CARDS" not in source
    assert not [line for line in source.splitlines() if "import" in line and "games" in line]
    fig = charts.figure()
    fig.add_subplot().imshow(np.array([[0.0, 0.25], [0.75, 0.0]]))
    assert "2 cells with a probability above zero; the likeliest 75%." in charts.chart_text(fig)


def test_advisor_chart_bars_are_the_best_questions_in_order():
    advice = [("q1", 0.9), ("q2", 0.5), ("q3", 0.1)]
    fig = five_sons_charts.advisor_chart(advice, top=2)
    bars = [p for p in fig.axes[0].patches if p.get_gid() == "advice"]
    assert [b.get_width() for b in bars] == [0.9, 0.5]
    g = FiveSons.from_deal(
        ["JC QC KC AH 2H", "JD QD KD 3H 4H", "JH QH KH 5H 6H", "JS QS 7H 9H TH"],
        secret=("KS", "8H"),
        dealer=3,
    )
    qs = g.knowledge(0).questions()
    fig = five_sons_charts.advisor_chart(qs, top=5, names=["A", "B", "C", "D"])
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert widths == pytest.approx([q.info for q in qs[:5]])
    with pytest.raises(ValueError, match="expected information"):
        five_sons_charts.advisor_chart([object()])


def test_hearts_totals_chart_plots_running_totals():
    pts = [[5, 8, 13, 0], [0, 26, 0, 0], [3, 3, 10, 10]]
    fig = charts.hearts_totals_chart(pts, ["A", "B", "C", "D"], target=100)
    ls = lines(fig)
    assert list(ls["seat1"].get_ydata()) == [0, 8, 34, 37]
    assert list(ls["seat3"].get_ydata()) == [0, 0, 0, 10]
    assert ls["target"].get_ydata()[0] == 100


# -- issue 11: legends off the lines, questions on the x axis, ranges that fit, coinciding lines ---------

TURN_ROWS = [
    {
        "step": 3 * t + 1,
        "turn": t,
        "naive": 72 - t,
        "logic": 72 - t,
        "effective": 70 - 1.5 * t,
        "entropy": 6.1 - t / 10,
    }
    for t in range(10)
]


def _bbox(artist, fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    return artist.get_window_extent(canvas.get_renderer())


@pytest.mark.parametrize("fixed", [False, True])
def test_candidates_legend_lies_outside_the_axes(fixed):
    fig = charts.candidates_chart(TURN_ROWS, fixed_layout=fixed)
    legend = next(a for a in [*fig.legends, *[ax.get_legend() for ax in fig.axes]] if a is not None)
    assert legend.get_gid() == "legend"
    leg, axes = _bbox(legend, fig), _bbox(fig.axes[0], fig)
    assert leg.y1 <= axes.y0, f"the legend ({leg}) overlaps the plot ({axes})"
    assert 0 <= leg.x0 and leg.x1 <= fig.bbox.width + 1, "the legend runs off the figure"
    texts = [t.get_text() for t in legend.get_texts()]
    assert "entropy (bits, right axis)" in texts and "full logic" in " ".join(texts)


def test_candidates_x_axis_counts_questions_with_integer_ticks():
    fig = charts.candidates_chart(TURN_ROWS, current=4)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "questions asked"
    assert list(lines(fig)["logic"].get_xdata()) == [r["turn"] for r in TURN_ROWS]
    _bbox(ax, fig)
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    # rows without a turn column still chart against steps, and x can be chosen
    assert charts.candidates_chart(ROWS).axes[0].get_xlabel() == "step"
    assert charts.candidates_chart(TURN_ROWS, x="step").axes[0].get_xlabel() == "step"
    with pytest.raises(ValueError, match="'moves'"):
        charts.candidates_chart(TURN_ROWS, x="moves")


def test_lesson_three_ticks_are_whole_questions():
    """Lesson 03 charts 20 questions: no tick at 2.5 or 7.5."""
    rows = [
        {"step": t, "turn": t, "naive": 70, "logic": 70 - t, "effective": 70 - 2 * t, "entropy": 6}
        for t in range(21)
    ]
    ax = charts.candidates_chart(rows).axes[0]
    assert all(float(t).is_integer() for t in ax.get_xticks())


def test_y_range_fits_values_that_stay_high():
    """Dave's counts move 72 -> 63: the axis fits them (not 0-70, not from 0)."""
    rows = [{"turn": t, "naive": 72, "logic": 72 - t, "effective": 72 - t, "entropy": 6} for t in range(10)]
    lo, hi = charts.candidates_chart(rows).axes[0].get_ylim()
    assert 55 <= lo < 63 and 72 < hi <= 76, (lo, hi)
    # a top given by a table is widened when the values are above it
    lo, hi = charts.candidates_chart(rows, ylim=70).axes[0].get_ylim()
    assert hi > 72
    # values that fall far start the axis at 0
    assert (
        charts.candidates_chart(TURN_ROWS[:1] + [{**TURN_ROWS[1], "logic": 3, "effective": 2}])
        .axes[0]
        .get_ylim()[0]
        == 0
    )
    assert charts.fit_range([5, 50])[0] == 0
    assert charts.fit_range([60, 70], (0, 126)) == (0, 126)


def test_nothing_yet_instead_of_an_empty_chart_at_the_deal():
    fig = charts.candidates_chart(TURN_ROWS[:1])
    assert fig.get_gid() == charts.NOTHING_YET
    assert all(not ax.lines for ax in fig.axes) and all(not ax.axison for ax in fig.axes)
    text = charts.chart_text(fig)
    assert "After the deal: 72 by crossing out seen cards and 72 by full logic" in text
    assert charts.candidates_chart([]).get_gid() == charts.NOTHING_YET
    assert charts.seats_chart({"A": TURN_ROWS[:1], "B": []}).get_gid() == charts.NOTHING_YET
    assert not charts.has_history(TURN_ROWS[:1]) and charts.has_history(TURN_ROWS[:2])
    assert charts.candidates_chart(TURN_ROWS[:2]).get_gid() != charts.NOTHING_YET
    # steps before the first question all sit at question 0: still nothing to chart
    before = [{**TURN_ROWS[0], "step": s} for s in (1, 2, 3)]
    assert charts.candidates_chart(before).get_gid() == charts.NOTHING_YET
    assert charts.candidates_chart(before, x="step").get_gid() != charts.NOTHING_YET


def test_coinciding_lines_stay_visible_and_are_named():
    """naive == logic here: the wider line lies under the narrower one, and the legend says they agree."""
    fig = charts.candidates_chart(TURN_ROWS)
    ls = lines(fig)
    assert ls["naive"].get_linewidth() > ls["logic"].get_linewidth() > ls["effective"].get_linewidth()
    assert ls["naive"].get_zorder() < ls["logic"].get_zorder()
    assert ls["logic"].get_label() == "full logic (= crossing out seen cards)"
    assert ls["effective"].get_label() == "probability (2^entropy)"


def test_moon_hand_totals_show_all_three_coinciding_lines():
    """A moon: three seats take 26. Each line has its own marker, a smaller one than the seat before,
    and the legend names the seats whose line is another's."""
    fig = charts.hearts_totals_chart([[26, 0, 26, 26]], ["Alice", "Bob", "Carol", "Dave"], target=100)
    ls = lines(fig)
    seats = [ls[f"seat{s}"] for s in range(4)]
    assert len({ln.get_marker() for ln in seats}) == 4
    sizes = [ln.get_markersize() for ln in seats]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 4
    assert [ln.get_label() for ln in seats] == ["Alice", "Bob", "Carol (= Alice)", "Dave (= Alice)"]
    assert list(fig.axes[0].get_xticks()) == [0, 1]
    assert fig.axes[0].get_ylim()[1] > 100  # the target line is inside the axes
    leg, axes = _bbox(fig.legends[0], fig), _bbox(fig.axes[0], fig)
    assert leg.y1 <= axes.y0


def test_seats_chart_styles_differ_per_seat():
    fig = charts.seats_chart({"A": TURN_ROWS, "B": TURN_ROWS, "C": TURN_ROWS[:5]})
    ls = [lines(fig)[f"seat:{n}"] for n in "ABC"]
    assert len({ln.get_linestyle() for ln in ls}) == 3 and len({ln.get_color() for ln in ls}) == 3
    assert ls[1].get_label() == "B (= A)" and ls[2].get_label() == "C"
    assert fig.axes[0].get_xlabel() == "questions asked"


def test_compact_height_and_text_alternatives():
    assert charts.candidates_chart(TURN_ROWS).get_size_inches()[1] <= 3.0
    assert charts.seats_chart({"A": TURN_ROWS}).get_size_inches()[1] <= 3.0
    text = charts.chart_text(charts.candidates_chart(TURN_ROWS))
    assert text.startswith("Candidate secret pairs.")
    assert "full logic (= crossing out seen cards): 72 to 63." in text
    bars = charts.chart_text(five_sons_charts.advisor_chart([("q1", 0.9), ("q2", 0.5)]))
    assert "q1 0.90 bits." in bars and "q2 0.50 bits." in bars
    assert charts.chart_text(None) == ""

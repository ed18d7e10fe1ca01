"""Charts are pure functions returning Figures; checked by their plotted data, not pixels."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from qardlab import charts
from qardlab.cards import FACE_CARDS, NUMBER_CARDS, Card
from qardlab.games.five_sons import FiveSons
from qardlab.widgets.figures import figure_png

ROWS = [{"step": s, "naive": 120 - 2 * s, "logic": 100 - 3 * s, "effective": 90.5 - 3 * s,
         "entropy": 6.0 - s / 10} for s in range(1, 11)]


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
    g = FiveSons.from_deal(["JC QC KC AH 2H", "JD QD KD 3H 4H", "JH QH KH 5H 6H", "JS QS 7H 9H TH"],
                           secret=("KS", "8H"))
    k = g.knowledge(0)
    post = k.posterior()
    fig = charts.pair_grid_chart(post, k.candidates())
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


def test_advisor_chart_bars_are_the_best_questions_in_order():
    advice = [("q1", 0.9), ("q2", 0.5), ("q3", 0.1)]
    fig = charts.advisor_chart(advice, top=2)
    bars = [p for p in fig.axes[0].patches if p.get_gid() == "advice"]
    assert [b.get_width() for b in bars] == [0.9, 0.5]
    g = FiveSons.from_deal(["JC QC KC AH 2H", "JD QD KD 3H 4H", "JH QH KH 5H 6H", "JS QS 7H 9H TH"],
                           secret=("KS", "8H"), dealer=3)
    qs = g.knowledge(0).questions()
    fig = charts.advisor_chart(qs, top=5, names=["A", "B", "C", "D"])
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert widths == pytest.approx([q.info for q in qs[:5]])
    with pytest.raises(ValueError, match="expected information"):
        charts.advisor_chart([object()])


def test_hearts_totals_chart_plots_running_totals():
    pts = [[5, 8, 13, 0], [0, 26, 0, 0], [3, 3, 10, 10]]
    fig = charts.hearts_totals_chart(pts, ["A", "B", "C", "D"], target=100)
    ls = lines(fig)
    assert list(ls["seat1"].get_ydata()) == [0, 8, 34, 37]
    assert list(ls["seat3"].get_ydata()) == [0, 0, 0, 10]
    assert ls["target"].get_ydata()[0] == 100

"""A chart whose question axis grows is widened in place: only its x axis is drawn again, and the picture is
the one a chart built anew with that axis shows."""

from __future__ import annotations

from qardlab import charts
from qardlab.widgets import five_sons_app
from qardlab.widgets.figures import ChartView

ROWS = [
    {"turn": t, "naive": 72 - t, "logic": 72 - 3 * t, "effective": 70 - 3 * t, "entropy": 6 - t / 5}
    for t in range(16)
]


def _blitted(rows: list[dict], xlim: tuple[float, float]) -> ChartView:
    view = ChartView()
    fig = charts.candidates_chart(
        rows,
        current=rows[-1]["turn"],
        xlim=xlim,
        ylim=(0.0, 80.0),
        entropy_max=(0.0, 7.0),
        fixed_layout=True,
        x="turn",
    )
    view.show_blit(fig, [ln for a in fig.axes for ln in a.lines])
    return view


def test_widen_draws_what_a_new_chart_draws() -> None:
    view = _blitted(ROWS[:8], (0, 10))
    fig, before = view.figure, view.value
    cols = charts.history_columns(ROWS)
    for ax in fig.axes:
        for ln in ax.lines:
            if ln.get_gid() == "current":
                ln.set_xdata([15, 15])
            elif ln.get_gid() in cols:
                ln.set_data(cols["turn"], cols[ln.get_gid()])
    view.widen((0, 20))
    assert view.figure is fig and view.blitting  # the same figure, not rebuilt
    assert fig.axes[0].get_xlim() == (0, 20) and fig.axes[1].get_xlim() == (0, 20)
    assert view.value != before and view.value == _blitted(ROWS, (0, 20)).value
    assert "full logic: 72 to 27." in view.alt_text
    # and back to a short axis (a new deal): again what a new chart draws
    for ax in fig.axes:
        for ln in ax.lines:
            if ln.get_gid() == "current":
                ln.set_xdata([3, 3])
            elif ln.get_gid() in cols:
                ln.set_data(cols["turn"][:4], cols[ln.get_gid()][:4])
    view.widen((0, 10))
    fresh = _blitted(ROWS[:4], (0, 10))
    assert view.value == fresh.value


def test_the_app_widens_its_chart_when_the_bots_play_on_after_a_wrong_claim() -> None:
    """The player claims wrongly at its first chance: the bots play the game out, past the chart's axis,
    and the table widens the chart it had (the same figure) instead of building another."""
    app = five_sons_app(seed=1)
    t = app.table
    assert t.ask()
    fig = t.figures["candidates"]
    start = fig.axes[0].get_xlim()
    hand = t.observation(0)["hand"]
    faces = [c for c in hand if c[0] in "JQK"]
    # a card the player holds is not in the secret pair: the claim is wrong
    assert t.claim(faces[0], "AH") if faces else t.claim("JC", next(c for c in hand if c[1] == "H"))
    assert t.confirm_claim()  # (one confirmation)
    for _ in range(60):  # out of the game, the player still answers the bots' questions, by clicks
        obs = t.observation(0)
        if obs["is_over"]:
            break
        assert t.human_to_act() and obs["phase"] == "answer"
        answer = obs["legal"][0]
        t.answer() if answer["type"] == "neither" else t.hands[0].click(answer["card"])
    assert t.observation(0)["is_over"]
    assert t.figures["candidates"] is fig
    assert fig.axes[0].get_xlim()[1] > start[1] >= 10
    rows = t._history(0)
    assert max(fig.axes[0].lines[0].get_xdata()) == rows[-1]["turn"] > start[1]

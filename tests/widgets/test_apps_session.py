"""The apps a student plays: locked to the player's seat, flat over a long session, drawn once per click."""

from __future__ import annotations

import gc
import warnings

import ipywidgets as widgets
import pytest
from widget_walk import all_widgets

from qardlab.engine import RandomBot, Timeline
from qardlab.games.five_sons import FiveSons
from qardlab.games.hearts import Hearts
from qardlab.widgets import five_sons as five_sons_widgets
from qardlab.widgets import five_sons_app, hearts_app
from qardlab.widgets import hearts as hearts_widgets
from qardlab.widgets.base import TEACHER_LABEL
from qardlab.widgets.five_sons import FiveSonsTable
from qardlab.widgets.hearts import HeartsTable


def live_widgets() -> int:
    gc.collect()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return len(widgets.Widget.widgets)


def _view_controls(root: widgets.Widget) -> list[widgets.Widget]:
    """Every selection widget on the page that names a seat's view or the teacher's."""
    out = []
    for w in all_widgets(root):
        if isinstance(w, (widgets.Dropdown, widgets.ToggleButtons, widgets.Select, widgets.RadioButtons)):
            labels = [o[0] if isinstance(o, tuple) else str(o) for o in w.options]
            if any(TEACHER_LABEL in lab or lab.endswith("'s view") for lab in labels):
                out.append(w)
    return out


@pytest.mark.parametrize("make", [five_sons_app, hearts_app])
def test_app_is_locked_to_the_player_seat(make):
    """No control of the app reaches another seat's view or the teacher's; setting one is refused."""
    app = make(charts=False)
    t = app.table
    assert t.seat == 0 and t.views == (0,)
    assert _view_controls(app) == []
    for other in (None, 1, 2):
        with pytest.raises(ValueError, match="not one of this table's views"):
            t.seat = other
    assert t.seat == 0


@pytest.mark.parametrize("make", [five_sons_app, hearts_app])
def test_teacher_view_only_when_asked_and_never_a_bot_view(make):
    app = make(charts=False, teacher=True)
    t = app.table
    [control] = _view_controls(app)
    labels = [o[0] for o in control.options]
    assert labels == [f"{t.names[0]}'s view", TEACHER_LABEL]  # the player and the teacher; no bot
    t.seat = None
    assert t.seat is None
    with pytest.raises(ValueError):
        t.seat = 1
    with pytest.raises(ValueError, match="teacher must be True or False"):
        make(charts=False, teacher="yes")


def test_table_views_are_checked_by_value():
    g = FiveSons.new(4, seed=1)
    with pytest.raises(ValueError, match="views"):
        FiveSonsTable(g, seat=0, views=(0, 7), charts=False)
    with pytest.raises(ValueError, match="seat None is not one of the table's views"):
        FiveSonsTable(g, seat=None, views=(0,), charts=False)
    t = FiveSonsTable(g, seat=2, views=(2,), charts=False)
    assert t.viewpoint not in t.toolbar.children  # one view: no View control at all


@pytest.mark.parametrize("make", [five_sons_app, hearts_app])
def test_new_deal_reuses_the_table_or_closes_the_one_it_replaces(make):
    """'New deal' with the same seats plays at the same table (no widget made or closed: it shows at once);
    with another number of players it replaces the table and closes the old one and all its widgets. The
    live widget count stays flat either way."""
    app = make(charts=True)
    same = app.table
    counts = []
    for _ in range(2):  # the first round fills the table's caches (a hand's card buttons, made once)
        for seed in range(2, 6):
            app.seed.value = seed
            app.new_deal()
            assert app.table is same and same.comm is not None
        counts.append(live_widgets())
    assert counts[1] == counts[0]
    old_widgets = all_widgets(same)
    app.players.value = 5
    app.new_deal()
    assert app.table is not same and app.table.players == 5 and app.table_box.children == (app.table,)
    assert all(w.comm is None for w in old_widgets)  # every widget of the old table is closed
    app.close()
    assert app.comm is None and app.table.comm is None


def _fresh_and_restarted(table_class, game_of, bots_of, play):
    """A table that played a game and then restarted with another, and a new table of that other game."""
    first = table_class(game_of(1), seat=0, human=0, bots=bots_of(1), charts=False)
    play(first)
    first.restart(game_of(7), bots_of(7))
    return first, table_class(game_of(7), seat=0, human=0, bots=bots_of(7), charts=False)


def test_a_restarted_five_sons_table_shows_what_a_new_table_shows():
    """Nothing of the old game stays on the page (log, hands, grid, stepper, prompt): the restarted table's
    synced state equals a new table's of the same game, message for message."""
    from widget_walk import tree_state

    from qardlab.games.five_sons.bots import ReasoningBot

    def play(t):
        t.ask(1, "QC", "8H")
        for _ in range(3):
            if t.human_to_act() and t.game.phase == "claim":
                t.no_claim_button.click()
        t.claim("KS", "TH")  # armed or made: either way forgotten by the restart
        t.confirm_claim()

    def bots(seed):
        return {s: ReasoningBot(seed * 10 + s) for s in (1, 2, 3)}

    a, b = _fresh_and_restarted(FiveSonsTable, lambda s: FiveSons.new(4, seed=s), bots, play)
    assert a.armed is None and a.timeline.steps == b.timeline.steps
    assert tree_state(a) == tree_state(b)
    a.ask(2, "JC", "AH")
    b.ask(2, "JC", "AH")
    assert tree_state(a) == tree_state(b)  # and it plays on the same


def test_a_restarted_five_sons_chart_draws_the_new_game():
    """The chart keeps its axes from one game to the next but its lines are the new game's (as a new
    table's), and its text alternative says so."""
    from qardlab.games.five_sons.bots import ReasoningBot

    def table(seed):
        return FiveSonsTable(
            FiveSons.new(4, seed=seed),
            seat=0,
            human=0,
            charts=True,
            bots={s: ReasoningBot(seed * 10 + s) for s in (1, 2, 3)},
        )

    a, b = table(1), table(7)
    a.ask(1, "QC", "8H")
    a.restart(FiveSons.new(4, seed=7), {s: ReasoningBot(70 + s) for s in (1, 2, 3)})
    for t in (a, b):
        t.ask(2, "JC", "AH")
    lines = [
        {
            ln.get_gid(): (list(ln.get_xdata()), list(ln.get_ydata()))
            for ax in t.figures["candidates"].axes
            for ln in ax.lines
        }
        for t in (a, b)
    ]
    assert lines[0] == lines[1] and len(lines[0]["logic"][0]) > 2
    assert a.chart_views[0].alt_text == b.chart_views[0].alt_text


def test_a_restarted_hearts_table_shows_what_a_new_table_shows():
    from widget_walk import tree_state

    def play(t):
        for c in list(t.game.hand(0))[:2]:
            t.play(c)  # two cards chosen to pass: forgotten by the restart

    def bots(seed):
        return {s: RandomBot(seed * 10 + s) for s in (1, 2, 3)}

    a, b = _fresh_and_restarted(HeartsTable, lambda s: Hearts.new(4, seed=s), bots, play)
    assert a.selected == [] and tree_state(a) == tree_state(b)


def test_restart_refuses_another_game_or_other_seats():
    t = FiveSonsTable(FiveSons.new(4, seed=1), seat=0, human=0, charts=False)
    steps = t.timeline.steps
    for bad in (FiveSons.new(5, seed=1), Hearts.new(4, seed=1), "a game"):
        assert not t.can_restart(bad)
        with pytest.raises(ValueError, match="cannot restart"):
            t.restart(bad)
    with pytest.raises(ValueError, match="bots must map seats"):
        t.restart(FiveSons.new(4, seed=2), {9: RandomBot(1)})
    assert t.timeline.steps == steps  # refused: nothing changed


def test_closing_a_table_closes_cached_buttons_not_on_show():
    """A hand's buttons are cached between turns; close() reaches them through the table's attributes."""
    start = live_widgets()
    g = Hearts.new(4, seed=3)
    t = HeartsTable(g, seat=0, human=0, bots={s: RandomBot(s) for s in (1, 2, 3)}, charts=False)
    assert live_widgets() > start
    t.close()
    assert live_widgets() == start


class _Counter:
    """Counts the table's drawings and its knowledge solves (``knowledge_of`` in the table's module)."""

    def __init__(self, table, monkeypatch, module):
        self.renders = 0
        self.solves = 0
        real_render = table.render

        def render():
            self.renders += 1
            real_render()

        monkeypatch.setattr(table, "render", render)
        real_knowledge = module.knowledge_of

        def knowledge(obs):
            self.solves += 1
            return real_knowledge(obs)

        monkeypatch.setattr(module, "knowledge_of", knowledge)


def test_hearts_pass_click_renders_once(monkeypatch):
    """One pass click (the pass, three bots' passes, the bots' plays up to the human) draws the table once
    and asks the deduction engine once (it ran 12 renders and 12 solves on this seed before batching)."""
    g = Hearts.new(4, seed=1)
    t = HeartsTable(g, seat=0, human=0, bots={s: RandomBot(s) for s in (1, 2, 3)}, charts=False)
    for c in list(t.game.hand(0))[:3]:
        t.play(c)
    moves = len(t.timeline.steps)
    n = _Counter(t, monkeypatch, hearts_widgets)
    t.pass_button.click()
    assert len(t.timeline.steps) >= moves + 4  # the human's pass and every bot's at least
    assert (n.renders, n.solves) == (1, 1)


def test_five_sons_no_claim_click_renders_once(monkeypatch):
    g = FiveSons.new(4, seed=2, dealer=3)
    t = FiveSonsTable(g, seat=0, human=0, bots={s: RandomBot(s) for s in (1, 2, 3)}, charts=False)
    t.ask(1, "QC", "8H")
    n = _Counter(t, monkeypatch, five_sons_widgets)
    assert (t.game.phase, t.game.to_move) == ("claim", 0)  # the asker claims first
    moves = len(t.timeline.steps)
    t.no_claim_button.click()
    assert len(t.timeline.steps) > moves + 1  # the pass and the bots' moves after it
    assert n.renders == 1


def test_timeline_batch_tells_listeners_once():
    tl = Timeline(Hearts.new(4, seed=2))
    told = []
    stop = tl.observe(lambda _t: told.append(tl.position))
    with tl.batch():
        with tl.batch():
            for _ in range(5):
                tl.extend(
                    tl.game.legal_actions()[0]
                    if tl.game.phase == "play"
                    else tuple(tl.game.hand(tl.game.to_move)[:3])
                )
        assert told == []  # nested: only the outermost batch tells
    assert told == [tl.last]
    with tl.batch():
        pass
    assert told == [tl.last]  # nothing moved: nothing told
    stop()
    tl.previous()
    assert told == [tl.last]  # unsubscribed


def test_timeline_draws_chance_from_the_live_rng_across_replays():
    """A deal drawn at the end comes from the live RNG, even after the cursor replayed earlier states:
    the same deal the game itself would draw next (not a repeat of the first shuffle)."""
    direct = Hearts.new(4, seed=9)
    tl = Timeline(direct.copy())
    # play the hand out with the same moves in both
    bots = {s: RandomBot(s) for s in range(4)}
    while direct.phase not in ("hand_over", "match_over"):
        a = bots[direct.to_move].act(direct.observation(direct.to_move))
        direct.apply(a)
        tl.extend(a)
    tl.go_to(3)  # a replayed state: fresh RNG
    tl.end()
    outcome = tl.chance_outcome()
    direct.next_hand()
    assert outcome == direct.history[-1]
    assert outcome != tl.state_at(1).history[0]  # not the first deal again


@pytest.mark.parametrize("make", [five_sons_app, hearts_app])
def test_app_title_shown_once(make):
    """The app notebooks' heading names the game: the app draws no second title unless asked."""
    app = make(charts=False)
    titles = [
        w
        for w in all_widgets(app)
        if isinstance(w, widgets.HTML) and f">{app.title}</h" in w.value and w.layout.display != "none"
    ]
    assert titles == []
    titled = make(charts=False, title=True)
    assert isinstance(titled.children[0], widgets.HTML) and titled.title in titled.children[0].value


def test_five_sons_app_passes_claims_by_default_and_keeps_the_choice():
    app = five_sons_app(charts=False)
    assert app.table.auto_pass.value is True
    app.table.auto_pass.value = False
    app.new_deal()
    assert app.table.auto_pass.value is False
    assert five_sons_app(charts=False, auto_pass=False).table.auto_pass.value is False


# -- issue 11: labels that say which bots setting is which, and the four-colour deck -----------------
@pytest.mark.parametrize(
    "make", [lambda: five_sons_app(seed=2, charts=False), lambda: hearts_app(seed=2, charts=False)]
)
def test_bot_level_and_pace_are_told_apart_and_the_deck_switches_every_card(make) -> None:
    from qardlab import palette

    app = make()
    try:
        labels = [w.description for w in all_widgets(app) if isinstance(w, widgets.Dropdown)]
        assert "Bot level:" in labels and "Bot pace:" in labels and "Bots:" not in labels
        assert app.level.style.description_width and app.table.pace.style.description_width
        assert not app.four_colours.value and palette.deck() == "two"
        clubs = palette.DECKS["four"]["C"]
        assert clubs not in app.table.felt_view.value + str([h._html.value for h in app.table.hands])
        app.four_colours.value = True
        assert palette.deck() == "four"
        drawn = app.table.felt_view.value + "".join(h._html.value for h in app.table.hands)
        drawn += "".join(str(h.playable.cards) for h in app.table.hands if h.playable is not None)
        if hasattr(app.table, "grid"):
            drawn += "".join(app.table.grid.box.labels)
        assert clubs in drawn  # the table was drawn again in four colours
        app.four_colours.value = False
        assert palette.deck() == "two"
    finally:
        palette.use("two")
        app.close()

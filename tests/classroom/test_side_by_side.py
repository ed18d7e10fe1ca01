"""The light side-by-side replay (``side_by_side`` by default): one HTML column a seat, drawn from that
seat's observation at the slider's step alone (DESIGN.md, "Secrecy is a property of every moment")."""

from __future__ import annotations

import warnings

import ipywidgets as widgets
import pytest
from test_classroom_secrecy import SCRIPT, A, B

from qardlab.classroom.teacher import side_by_side
from qardlab.engine import Timeline
from qardlab.games.five_sons import FiveSons
from qardlab.lessons.together import LESSON_QUESTION, lesson_record, questions, who_could_tell
from qardlab.widgets.replay import SideBySide, seat_view_html


def _record(hands):
    g = FiveSons.from_deal(hands, secret=("KS", "TH"), dealer=0)
    for seat, action in SCRIPT:
        assert g.to_move == seat
        g.apply(action)
    return g.record()


def test_a_seats_column_is_the_same_under_deals_it_cannot_tell_apart() -> None:
    """The script of test_classroom_secrecy under deals A and B (RULES.md: the asker alone sees the card
    shown, nobody else learns whether the answerer had a choice): seats 0 and 1 never see 8H or 9H, so
    their columns are the same at every step, at every level; seats 2 and 3 (who hold one of them) see a
    difference."""
    a, b = side_by_side(_record(A)), side_by_side(_record(B))
    assert isinstance(a, SideBySide) and a.slider.max == b.slider.max == len(SCRIPT) + 1
    differ = {2: 0, 3: 0}
    for level in ("naive", "logic", "probability"):
        a.level.value = b.level.value = level
        for k in range(a.slider.max + 1):
            a.slider.value = b.slider.value = k
            for seat in (0, 1):
                assert a.columns[seat].value == b.columns[seat].value, (level, k, seat)
            for seat in differ:
                differ[seat] += a.columns[seat].value != b.columns[seat].value
    assert all(differ.values()), differ


def test_each_column_is_its_seats_observation_drawn() -> None:
    """At the lesson's question, each column is exactly :func:`seat_view_html` of that seat's JSON
    observation (what the classroom server sends it), holds its own hand and no other seat's, and the
    slider and level move every column together."""
    record = lesson_record()
    step = questions(record)[LESSON_QUESTION - 1].step
    view = side_by_side(record, at=step)
    game = Timeline(record).state_at(step)
    hands = game.observation(None)["hands"]
    for seat, col in view.columns.items():
        obs = game.observation_json(seat)
        assert col.value == seat_view_html(obs, seat, view.slider.max) == view.column_html(seat)
        assert f"{obs['names'][seat]}'s view" in col.value and f"Step {step} of" in col.value
        for other, hand in enumerate(hands):  # another seat's cards appear only as grid rows, never as faces
            faces = [c for c in hand if f'data-card="{c}"' in col.value]
            assert faces == (list(hand) if other == seat else []), (seat, other, faces)
    # the exercise's answer reads off the columns: an onlooker who could tell has ✗ for the other card
    assert who_could_tell(record, LESSON_QUESTION)
    before = {s: c.value for s, c in view.columns.items()}
    view.slider.value = step - 2
    assert all(view.columns[s].value != before[s] for s in view.columns)
    assert all(f"Step {step - 2} of" in c.value for c in view.columns.values())
    view.level.value = "naive"
    assert all("crossing out seen cards" in c.value for c in view.columns.values())


def test_bad_arguments_are_named() -> None:
    record = lesson_record()
    with pytest.raises(ValueError, match="at must be a step"):
        side_by_side(record, at=-1)
    with pytest.raises(ValueError, match=r"seats \[7\]"):
        side_by_side(record, seats=[0, 7])
    with pytest.raises(ValueError, match="level 'best'"):
        SideBySide(record, level="best")
    with pytest.raises(ValueError, match="interactive and charts must be True or False"):
        side_by_side(record, interactive="yes")
    obs = Timeline(record).state_at(5).observation_json(1)
    with pytest.raises(ValueError, match="seat 1's, not seat 2's"):
        seat_view_html(obs, 2, 10)


def test_interactive_view_refuses_a_bad_step_after_one_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad ``at`` in the interactive side-by-side is refused after one replay of the record (its last step
    is all the check needs), not one per seat; a good one draws every seat's table at that step."""
    import qardlab.engine as engine

    made = []

    class Counted(engine.Timeline):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(engine, "Timeline", Counted)
    record = lesson_record()
    with pytest.raises(ValueError, match="at must be a step"):
        side_by_side(record, at=10_000, interactive=True)
    assert len(made) == 1
    view = side_by_side(record, at=3, interactive=True)
    assert len(made) == 1 + record.players and all(t.timeline.position == 3 for t in view.tables)


BAD_SEATS = [
    ([], r"seats \[\]: show at least one seat 0\.\.3"),
    ([0, 7], r"seats \[7\]: each must be a seat 0\.\.3"),
    ([-1], r"seats \[-1\]: each must be a seat 0\.\.3"),
    ([1, 2, 1], r"seats \[1, 2, 1\]: seat 1 given more than once; show each seat once"),
    ([3, 0, 3, 0], r"seats \[3, 0, 3, 0\]: seats 0, 3 given more than once"),
    (["1", 2.0], r"seats \['1', 2\.0\]: each must be a seat 0\.\.3"),
    ([True], r"seats \[True\]: each must be a seat 0\.\.3"),
    (3, r"seats 3: give a list of seats 0\.\.3"),
]


@pytest.mark.parametrize("seats, words", BAD_SEATS, ids=[repr(s) for s, _w in BAD_SEATS])
def test_bad_seats_are_refused_alike_by_the_light_and_the_interactive_view(seats, words) -> None:
    """Empty, out of range, repeated or not a seat number: both views refuse the seats with one message
    naming them (one check, :func:`qardlab.widgets.replay.check_seats`), before any table is made."""
    record = lesson_record()
    assert record.players == 4
    messages = []
    before = _live_widgets()
    for interactive in (False, True):
        with pytest.raises(ValueError, match=words) as refused:
            side_by_side(record, seats=seats, interactive=interactive)
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert _live_widgets() == before, "a widget was made for seats that were refused"


def _live_widgets() -> int:
    """How many widgets ipywidgets holds open (a widget made and not closed stays counted)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return len(widgets.Widget.widgets)


def test_a_hearts_replay_draws_every_seat_through_a_hand() -> None:
    """A Hearts hand side by side: each seat's column (its hand, felt, card counting with the voids it has
    seen, its log) drawn at steps through the hand, each from that seat's observation."""
    import random

    from qardlab.games.hearts import Hearts

    g = Hearts.new(players=4, seed=3)
    rng = random.Random(1)
    while g.observation(None)["phase"] != "hand_over":  # one hand
        g.play(g.chance_outcome() if g.to_move == -1 else rng.choice(g.legal_actions()))
    view = side_by_side(g.record(), at=0)
    tl = Timeline(g.record())
    voids = 0
    for k in range(0, view.slider.max + 1, 5):
        view.slider.value = k
        for seat, col in view.columns.items():
            assert col.value == seat_view_html(tl.state_at(k).observation_json(seat), seat, view.slider.max)
            voids += "qard-void" in col.value
    assert voids  # an opponent's void seen, said in the counting grid's head
    view.slider.value = 20
    assert all("Card counting" in c.value and "qard-felt" in c.value for c in view.columns.values())

"""'Play on from here' at the tables (issue 29, item 4): from a replay at any step a table makes a new live
game with the same cards (the engine's ``what_if``), the viewer's seat the person's, bots in the others, and
shows it under the stepper. Never at a classroom seat, never before the end of a game someone plays here,
and never with more views than the table had; a bad step says what is wrong and changes nothing."""

from __future__ import annotations

import pytest
from widget_walk import all_text, all_widgets

from qardlab.engine import Record, play
from qardlab.games.five_sons import Ask, FiveSons
from qardlab.games.five_sons.bots import RandomAsker, ReasoningBot
from qardlab.games.five_sons.probability_bot import ProbabilityBot
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot
from qardlab.widgets import five_sons_app, table
from qardlab.widgets.five_sons import FiveSonsTable
from qardlab.widgets.hearts import HeartsTable
from tests.widgets.test_widget_source import ServerLike


def finished(seed: int = 3) -> FiveSons:
    return play(FiveSons.new(4, seed=seed), [ReasoningBot(seed * 10 + s) for s in range(4)])


def state(t) -> tuple:
    """What a refused play-on must leave as it was."""
    tl = t.timeline
    return tl.position, tl.last, tl.record.to_json(), t.what_if, t.what_if_box.children


def click_a_move(t: FiveSonsTable, seat: int) -> None:
    """The person at ``seat`` makes the first move they may, as their clicks make it."""
    obs = t.observation(seat)
    if obs["phase"] == "ask":
        ask = next(a for a in obs["legal"] if a["type"] == "ask")
        assert t.ask(ask["target"], ask["face"], ask["number"])
    elif obs["phase"] == "answer":
        answer = obs["legal"][0]
        t.answer() if answer["type"] == "neither" else t.hands[seat].click(answer["card"])
    else:
        t.no_claim_button.click()


def shown(t) -> bool:
    return t.play_on_row.layout.display != "none" and t.play_on_row in t.stepper.children


def test_a_replay_plays_on_with_the_same_cards_and_history_as_the_viewer() -> None:
    g = finished()
    t = table(g, seat=2)
    assert shown(t) and t.play_on_button.description == "Play on from here as Carol"
    t.timeline.go_to(21)
    t.play_on_bots.value = "random"
    t.play_on_button.click()
    new = t.what_if
    assert isinstance(new, FiveSonsTable) and new in t.what_if_box.children and not t.status.value
    assert new.human == 2 and new.seat == 2 and new.views == t.views
    # the same history up to the step, the same hands, the same secret; the new game goes on from there
    assert new.timeline.steps[:21] == t.timeline.steps[:21]
    assert new.timeline.state_at(21).observation_json(None) == t.timeline.state_at(21).observation_json(None)
    assert new.observation(None)["secret"] == t.observation(None)["secret"]
    assert {type(b) for b in new.bots.values()} == {RandomAsker} and set(new.bots) == {0, 1, 3}
    assert new.live and not new.timeline.final.is_over
    assert "What if?" in all_text(t) and "from step 21 of the game above" in all_text(t)
    # the person plays on: the bots (unseeded) played up to the person's turn; the person's move is their
    # own click, and the bots go on
    assert new.human_to_act()
    before = new.timeline.last
    click_a_move(new, 2)
    assert new.timeline.last > before and new.timeline.steps[:21] == t.timeline.steps[:21]
    # the old table is as it was
    assert t.timeline.position == 21 and t.timeline.final.is_over


def test_the_tables_own_bots_play_on_and_a_students_app_offers_only_its_own_seat() -> None:
    """The app (a student's table, locked to seat 0) offers nothing while the game is played; once it is
    over it plays on with copies of its own bots, at a table locked to the student's seat as before: the
    teacher's view is never offered to a student."""
    app = five_sons_app(seed=2, level="logic")
    t = app.table
    assert t.views == (0,) and not t.may_play_on() and not shown(t)
    before = state(t)
    with pytest.raises(ValueError, match="still being played"):
        t.play_on(step=3)
    assert state(t) == before
    t.set_orders({"pass_claims": True})
    for _ in range(300):  # the student plays by clicks until the game is over
        if t.observation(0)["is_over"]:
            break
        assert t.human_to_act(), t.status.value
        click_a_move(t, 0)
    assert t.observation(0)["is_over"] and t.may_play_on()
    t.timeline.go_to(6)
    assert shown(t) and t.play_on_bots.value == ""  # "this table's bots"
    new = t.play_on()
    assert new.views == (0,) and new.seat == 0 and new.human == 0
    assert new.viewpoint not in all_widgets(new) or len(new.viewpoint.options) == 1
    assert {type(b) for b in new.bots.values()} == {ReasoningBot}
    assert all(new.bots[s] is not t.bots[s] for s in new.bots)
    assert new.timeline.steps[:6] == t.timeline.steps[:6]
    # "New deal" closes the game played on from the old one
    app.new_deal()
    assert t.what_if is None and new.comm is None and not t.what_if_box.children


def test_a_classroom_seat_never_offers_it() -> None:
    """A joined seat's table has no timeline: no button, and asking for it says why, changing nothing."""
    src = ServerLike(FiveSons.new(4, seed=5), 1, {s: RandomAsker(s) for s in (0, 2, 3)})
    t = FiveSonsTable(src, seat=1, human=1, views=(1,))
    assert not t.may_play_on() and not hasattr(t, "play_on_row")
    assert not any("qard-play-on" in getattr(w, "_dom_classes", ()) for w in all_widgets(t))
    with pytest.raises(ValueError, match="A classroom seat cannot play on"):
        t.play_on(step=1)
    assert t.what_if is None and not t.what_if_box.children and src.sent == []


def test_a_table_locked_to_some_seats_waits_for_the_end_of_its_game() -> None:
    g = FiveSons.new(4, seed=4)
    play(g, [RandomAsker(s) for s in range(4)], max_steps=20)
    assert not g.is_over
    locked = table(g, seat=3, views=(3,))
    assert not locked.may_play_on() and not shown(locked)
    with pytest.raises(ValueError, match="shows some seats only"):
        locked.play_on(step=5)
    teacher = table(g, seat=3)  # the teacher's view among its views: nothing is hidden, any step plays on
    assert teacher.may_play_on() and shown(teacher)
    new = teacher.play_on(step=5, seat=0, bots="logic", seed=1)
    assert new.human == 0 and new.seat == 0 and None in new.views
    done = table(finished(), seat=3, views=(3,))
    assert done.may_play_on()
    with pytest.raises(ValueError, match=r"seat 0 is not one of this table's views \[3\]"):
        done.play_on(step=5, seat=0)
    assert done.play_on(step=5).views == (3,)


@pytest.mark.parametrize(
    "step, words",
    [
        (-1, r"step -1 is outside the timeline"),
        (10_000, "outside the timeline"),
        ("4", "outside the timeline"),
    ],
)
def test_a_bad_step_is_refused_naming_it_and_changes_nothing(step, words) -> None:
    t = table(finished(), seat=1)
    first = t.play_on(step=4)
    before = state(t)
    with pytest.raises(ValueError, match=words):
        t.play_on(step=step)
    assert state(t) == before and t.what_if is first and first.comm is not None
    with pytest.raises(ValueError, match="bot level 'genius'"):
        t.play_on(step=4, bots="genius")
    assert state(t) == before


def test_the_last_step_of_a_finished_game_has_nothing_to_play_on() -> None:
    t = table(finished(), seat=0)
    assert t.live and t.play_on_button.disabled and "step back" in t.play_on_button.tooltip
    t.play_on_button.click()  # (a click that reaches the kernel anyway)
    assert t.what_if is None and "the game is over at step" in t.status.value
    t.timeline.previous()
    assert not t.play_on_button.disabled


def test_the_teachers_view_plays_on_as_the_seat_at_the_bottom() -> None:
    t = table(finished(), seat=None)
    t.timeline.go_to(1)  # the deal: the new game is the same deal
    assert t.play_on_button.description == "Play on from here as Alice"
    new = t.play_on(bots="probability")
    assert new.seat is None and new.human == 0
    assert new.observation(None)["hands"] == t.timeline.state_at(1).observation_json(None)["hands"]
    assert {type(b) for b in new.bots.values()} == {ProbabilityBot}
    # the new table has its own play on, once its game is over; closing the old table closes it
    assert not new.may_play_on()
    t.close()
    assert new.comm is None


def test_hearts_plays_on_mid_hand() -> None:
    g = Hearts.new(4, seed=6)
    bots = [RuleBot(s) for s in range(4)]
    play(g, bots, max_steps=30)  # passed, and a few tricks in
    rec = Record.from_json(g.record().to_json())
    t = table(rec, seat=1)
    assert isinstance(t, HeartsTable) and t.may_play_on()
    t.timeline.go_to(20)
    new = t.play_on(bots="rules")
    assert isinstance(new, HeartsTable) and new.human == 1 and new.counting_on == t.counting_on
    assert new.timeline.steps[:20] == t.timeline.steps[:20]
    assert new.timeline.state_at(20).observation_json(None) == t.timeline.state_at(20).observation_json(None)
    assert new.observation(1)["hand"] == new.timeline.final.observation_json(1)["hand"]


def test_what_if_alice_had_asked_carol_instead() -> None:
    """The lesson's question, at a table: play on from Alice's turn, ask Carol, get Carol's real answer."""
    g = finished(seed=6)
    t = table(g, seat=0)
    tl = t.timeline
    k = next(i for i in range(1, tl.last) if tl.state_at(i).phase == "ask" and tl.state_at(i).to_move == 0)
    t.timeline.go_to(k)
    new = t.play_on(bots="random", seed=2)
    carol = set(new.timeline.final.hand(2))
    assert carol == set(tl.state_at(k).hand(2))
    assert new.ask(target=2, face="JC", number="AH")
    answer = next(e for e in new.observation(0)["events"][::-1] if e["kind"] == "answer")
    held = {"JC", "AH"} & {c.code for c in carol}
    assert answer["shown"] == bool(held) and (answer["card"] in held if held else "card" not in answer)
    assert isinstance(new.timeline.steps[k], Ask) and new.timeline.steps[k].target == 2

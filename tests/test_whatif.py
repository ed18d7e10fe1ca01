"""Play on from here (issue 29, item 4): ``Timeline.play_on`` makes a new live game at any step of a recorded
one with the same cards and the same history up to that step; ``engine.whatif.what_if`` seats a person and
bots at it. A bad step changes nothing and says what was wrong."""

from __future__ import annotations

import pytest

from qardlab.engine import CHANCE, Record, Seats, Timeline, play
from qardlab.engine.seats import Pace
from qardlab.engine.whatif import WhatIf, level_of, what_if
from qardlab.games.five_sons import Ask, FiveSons
from qardlab.games.five_sons.bots import RandomAsker, ReasoningBot
from qardlab.games.five_sons.probability_bot import ProbabilityBot
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot


def five_sons_game(seed: int = 3) -> FiveSons:
    return play(FiveSons.new(4, seed=seed), [ReasoningBot(seed * 10 + s) for s in range(4)])


def hearts_match(hands: int = 2, seed: int = 5) -> Hearts:
    """A Hearts match of ``hands`` hands played by rule bots, stopped before the next deal is drawn."""
    g = Hearts.new(4, seed=seed)
    bots = [RuleBot(seed * 10 + s) for s in range(4)]
    while not g.is_over:
        if g.to_move == CHANCE:
            if g.hand_no + 1 == hands:
                break
            g.apply(g.chance_outcome())
        else:
            g.apply(bots[g.to_move].act(g.observation(g.to_move)))
    return g


def same_position(new, old) -> None:
    """Every seat's view, the teacher's and the public one are those of the old game at that step."""
    assert new.history == old.history
    for seat in (None, *range(old.players)):
        assert new.observation_json(seat) == old.observation_json(seat), seat
    for seat in range(old.players):
        assert list(new.hand(seat)) == list(old.hand(seat))


def snapshot(tl: Timeline) -> tuple:
    return tl.position, tl.last, tl.steps, tl.record.to_json(), tl.game.observation_json(None)


# -- the game: the same cards, the same history -----------------------------------------------------


@pytest.mark.parametrize("step", [1, 2, 9, 40, 77])
def test_five_sons_plays_on_with_the_same_cards_and_history(step: int) -> None:
    tl = Timeline(five_sons_game())
    tl.go_to(30)
    before = snapshot(tl)
    new = tl.play_on(step)
    old = tl.state_at(step)
    same_position(new, old)
    assert new.secret == old.secret and new.dealer == old.dealer
    assert not new.is_over and new.step == step
    assert snapshot(tl) == before  # the timeline, its cursor and its record are as they were
    # the new game is live and independent: a step there changes nothing here
    seat = new.to_move
    new.apply(new.legal_actions()[0])
    assert new.step == step + 1 and tl.state_at(step).observation_json(seat) == old.observation_json(seat)


def test_from_step_zero_the_recorded_deal_is_the_deal() -> None:
    """Before the deal nothing is dealt yet: playing on from there deals the recorded cards, not new ones."""
    g = five_sons_game(seed=8)
    new = Timeline(g).play_on(0, seed=99)
    assert new.step == 1 and new.history == g.history[:1]
    assert new.secret == g.secret and all(new.hand(s) == Timeline(g).state_at(1).hand(s) for s in range(4))


def test_a_record_plays_on_too_and_the_new_game_records_and_replays() -> None:
    g = five_sons_game(seed=4)
    rec = Record.from_json(g.record().to_json())
    new = Timeline(rec).play_on(25)
    same_position(new, rec.replay(25))
    new.apply(new.legal_actions()[-1])
    again = Record.from_json(new.record().to_json()).replay()
    assert again.history == new.history and again.observation_json(None) == new.observation_json(None)


def test_hearts_plays_on_mid_hand_and_between_hands_with_the_recorded_deal() -> None:
    g = hearts_match(hands=1)
    g.apply(g.chance_outcome())  # the second hand dealt: now the record holds it
    tl = Timeline(g)
    mid = next(i for i, a in enumerate(tl.steps) if i > 30 and tl.state_at(i).phase == "play")
    same_position(tl.play_on(mid), tl.state_at(mid))
    # between the hands the next deal is due: the new game starts with the second hand as it was dealt
    between = max(i for i in range(tl.last) if tl.state_at(i).to_move == CHANCE)
    assert between > 0
    new = tl.play_on(between)
    same_position(new, tl.state_at(between + 1))
    assert new.hand_no == 1


def test_what_the_new_game_draws_later_foretells_nothing_of_the_old_one() -> None:
    """At the end of a live timeline the next deal is not drawn yet: the new game's is its own (from its seed,
    or the system's entropy), and the old game's next deal is still the one its own generator gives."""
    g = hearts_match(hands=1)
    tl = Timeline(g)
    assert tl.final.to_move == CHANCE
    coming = tl.final.copy().chance_outcome()
    a, b = tl.play_on(tl.last, seed=1), tl.play_on(tl.last, seed=1)
    assert a.chance_outcome() == b.chance_outcome()  # a seed is a lesson's tool: the same draws
    unseeded = {repr(tl.play_on(tl.last).chance_outcome()) for _ in range(3)}
    assert repr(coming) not in unseeded and len(unseeded) == 3
    assert tl.final.copy().chance_outcome() == coming


# -- refusals: a clear error, nothing changed -------------------------------------------------------


@pytest.mark.parametrize("step", [-1, 10_000, "5", 2.0, True, None])
def test_a_step_outside_the_game_is_refused_naming_it(step) -> None:
    tl = Timeline(five_sons_game())
    tl.go_to(12)
    before = snapshot(tl)
    with pytest.raises(ValueError, match=rf"step {step!r} is outside the timeline \(0\.\.{tl.last}\)"):
        tl.play_on(step)
    with pytest.raises(ValueError, match="outside the timeline"):
        what_if(tl, step, 0)
    assert snapshot(tl) == before


def test_the_end_of_a_finished_game_has_nothing_to_play_on() -> None:
    tl = Timeline(five_sons_game())
    assert tl.final.is_over
    with pytest.raises(ValueError, match=rf"the game is over at step {tl.last}"):
        tl.play_on(tl.last)
    assert tl.play_on(tl.last - 1).step == tl.last - 1


@pytest.mark.parametrize("seed", ["7", 1.5, False])
def test_a_bad_seed_is_refused(seed) -> None:
    with pytest.raises(ValueError, match="seed must be an integer or None"):
        Timeline(five_sons_game()).play_on(3, seed=seed)


# -- who plays the new game -------------------------------------------------------------------------


def test_a_level_seats_new_bots_of_that_level_and_the_person_gets_the_recommended_orders() -> None:
    tl = Timeline(five_sons_game())
    w = what_if(tl, 20, 2, bots="random", seed=4, pace=Pace(bot=0.4))
    assert isinstance(w, WhatIf) and (w.seat, w.step) == (2, 20)
    assert {s: type(b) for s, b in w.driver.bots.items()} == {0: RandomAsker, 1: RandomAsker, 3: RandomAsker}
    assert w.driver.orders(2) == {"pass_claims": True, "claim": None}  # FiveSonsOrders.recommended
    assert w.driver.pace == Pace(bot=0.4)
    # the person's seat is never played for them: the driver plays the bots up to the person's turn
    game = w.game
    w.driver.run(game)
    assert w.driver.due(game).kind in ("person", "over")
    assert game.history[:20] == list(tl.steps[:20])


def test_the_tables_own_bots_are_copied_and_seats_without_one_get_the_strongest_level() -> None:
    g = five_sons_game()
    old = Seats(FiveSons, 4, {1: RandomAsker(1, memory=3), 3: ReasoningBot(3)}, pace=Pace(bot=1.2))
    w = what_if(Timeline(g), 15, 0, driver=old)
    bots = w.driver.bots
    assert type(bots[1]) is RandomAsker and bots[1].memory == 3 and bots[1] is not old.bots[1]
    assert type(bots[3]) is ReasoningBot and bots[3] is not old.bots[3]
    assert type(bots[2]) is ProbabilityBot  # the strongest of FiveSons.bot_levels
    assert w.driver.pace == Pace(bot=1.2)
    assert level_of(FiveSons, bots[2]) == "probability" and level_of(FiveSons, object()) is None
    # a level chosen replaces the table's own
    assert {type(b) for b in what_if(Timeline(g), 15, 0, driver=old, bots="logic").driver.bots.values()} == {
        ReasoningBot
    }


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"seat": 4}, "seat 4 is not a seat of this 4-player game"),
        ({"seat": None}, "seat None is not a seat"),
        ({"bots": "genius"}, "bot level 'genius' is not one of"),
        ({"bots": {0: RandomAsker(1)}}, "another seat than the person's"),
        ({"bots": {7: RandomAsker(1)}}, "another seat than the person's"),
        ({"bots": 3}, "bots must be a bot level"),
        ({"driver": Seats(Hearts, 4)}, "driver must be a Seats of this 4-player five_sons game"),
        ({"pace": 0.4}, "pace must be a Pace"),
        ({"seed": "x"}, "seed must be an integer or None"),
    ],
)
def test_bad_values_are_refused_naming_them(kwargs, words) -> None:
    tl = Timeline(five_sons_game())
    before = snapshot(tl)
    args = {"seat": 0, **kwargs}
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        what_if(tl, 10, **args)
    assert snapshot(tl) == before


def test_a_bot_that_cannot_be_copied_asks_for_a_level() -> None:
    import threading

    class Locked(RandomAsker):
        def __init__(self) -> None:
            super().__init__(1)
            self.lock = threading.Lock()

    old = Seats(FiveSons, 4, {1: Locked()})
    with pytest.raises(ValueError, match=r"the bot of seat 1 \(Locked\) cannot be copied.*give a bot level"):
        what_if(Timeline(five_sons_game()), 10, 0, driver=old)
    assert what_if(Timeline(five_sons_game()), 10, 0, driver=old, bots="logic").driver.bots[1] is not None


def test_a_hypothetical_question_gets_the_answer_the_real_cards_give() -> None:
    """ "What if Alice had asked Carol instead?": the answer in the new game is the one Carol's real cards
    give."""
    g = five_sons_game(seed=6)
    tl = Timeline(g)
    k = next(i for i in range(1, tl.last) if tl.state_at(i).phase == "ask" and tl.state_at(i).to_move == 0)
    w = what_if(tl, k, 0, bots="random", seed=1)
    carol = set(w.game.hand(2))
    face = next(c for c in w.game.legal_actions() if isinstance(c, Ask) and c.target == 2)
    w.game.apply(Ask(2, face.face, face.number))
    legal = w.game.legal_actions()
    held = {face.face, face.number} & carol
    assert {getattr(a, "card", None) for a in legal} == (held or {None})

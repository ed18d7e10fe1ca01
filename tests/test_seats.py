"""The seat driver (``qardlab.engine.seats``): what is due next, who plays each seat, the pace as data, the
standing orders a game declares, and the rule that a person's seat is never played for them."""

from __future__ import annotations

import random
import re
from typing import Any, Mapping

import pytest

from qardlab.engine import CHANCE, IllegalAction, RandomBot, play, play_turn
from qardlab.engine.seats import (
    DUE_KINDS,
    Due,
    Pace,
    Seats,
    StandingOrders,
    check_public_orders,
    check_turn,
    order_action,
    orders_class,
    waits_for,
)
from qardlab.games.five_sons import Ask, FiveSons, NoClaim, Show
from qardlab.games.five_sons.bots import ReasoningBot
from qardlab.games.five_sons.orders import FiveSonsOrders
from qardlab.games.hearts import Hearts

# Bob (seat 1) holds both of Alice's named cards in A (a choice), only the Q♣ in B (forced)
A = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "8H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "9H"],
]
B = [A[0], ["QC", "9H", "QD", "3H", "4H"], A[2], ["KH", "JS", "QS", "7H", "8H"]]


def dealt(hands=A) -> FiveSons:
    return FiveSons.from_deal(hands, secret=("KS", "TH"), dealer=3)  # Alice (seat 0) asks first


def test_what_is_due_deal_bot_person_order_over() -> None:
    blank = FiveSons(4, {}, 5)
    seats = Seats(FiveSons, 4, {1: ReasoningBot(1)}, pace=Pace(bot=0.4, deal=0.2))
    assert seats.due(blank) == Due("deal", CHANCE, 0.2)
    assert seats.step(blank) is not None and blank.phase == "ask"
    g = dealt()
    assert seats.due(g) == Due("person", 0, None) and not seats.due(g).automatic
    assert seats.step(g) is None and g.step == 1  # nothing is played for a person
    g.apply(Ask(1, "QC", "8H"))
    assert seats.due(g) == Due("bot", 1, 0.4)
    seats.step(g)
    assert g.phase == "claim" and seats.due(g) == Due("person", 0, None)
    g.apply(NoClaim())
    assert seats.due(g) == Due("bot", 1, 0.4)  # Bob's chance: his bot's
    seats.step(g)
    # Carol's chance: her person's standing order passes it (not her own question), at the bots' pace
    seats.set_orders(2, {"pass_claims": True})
    assert seats.due(g) == Due("order", 2, 0.4, NoClaim())
    assert seats.run(g) == 1 and g.to_move == 3  # the order's step; then Dave, a person, is due
    assert {d for d in DUE_KINDS} == {"deal", "bot", "order", "person", "over"}
    play(g, {s: ReasoningBot(s) for s in range(4)})
    assert seats.due(g) == Due("over", None, None)


@pytest.mark.parametrize("hands", [A, B], ids=["choice", "forced"])
def test_a_persons_answer_is_never_given_and_a_bots_takes_its_pace_forced_or_not(hands) -> None:
    g = dealt(hands)
    g.apply(Ask(1, "QC", "8H"))
    person = Seats(FiveSons, 4, pace=Pace(bot=0.5))
    assert person.due(g) == Due("person", 1, None) and person.step(g) is None and g.step == 2
    assert waits_for(FiveSons, g.observation_json(1), 1, person.orders(1))
    with pytest.raises(ValueError, match="not Due"):
        person.decision(g, person.due(g))
    bot = Seats(FiveSons, 4, {1: RandomBot(3)}, pace=Pace(bot=0.5))
    assert bot.due(g) == Due("bot", 1, 0.5)  # the same due, forced or chosen: the pace tells nothing
    assert bot.step(g) in (Show("QC"), Show("8H")) and g.phase == "claim"


def test_the_same_public_moments_give_the_same_dues_under_deals_a_seat_cannot_tell_apart() -> None:
    """Alice and Carol cannot tell A from B: every due the driver gives (kind, seat, delay, an order's
    action) is the same in both, step for step, with standing orders on and bots in some seats."""
    runs = []
    for hands in (A, B):
        g = dealt(hands)
        seats = Seats(FiveSons, 4, {3: ReasoningBot(7)}, pace=Pace(bot=0.3))
        for s in (0, 1, 2):
            seats.set_orders(s, {"pass_claims": True})
        script = iter([Ask(1, "QC", "8H"), Show("QC"), NoClaim(), Ask(2, "JH", "5H"), Show("JH"), NoClaim()])
        dues = []
        for _ in range(40):
            due = seats.due(g)
            dues.append((due.kind, due.seat, due.delay, due.action))
            if due.kind == "over" or (due.kind == "person" and g.phase == "ask" and g.turn >= 2):
                break
            if due.automatic:
                seats.step(g)
            else:
                g.apply(next(script))
            check_public_orders(g)
        runs.append(dues)
    assert runs[0] == runs[1] and ("order", 1, 0.3, NoClaim()) in runs[0]


def test_standing_orders_read_only_public_keys_in_every_game_played() -> None:
    for players, mode, seed in ((4, "chosen", 1), (5, "chosen", 2), (4, "pass_left", 3)):
        g = FiveSons.new(players, seed=seed, ask_mode=mode)
        bots = [ReasoningBot(seed * 10 + s) for s in range(players)]
        while not g.is_over:
            check_public_orders(g)
            play_turn(g, bots)

    class Peeking(StandingOrders):
        defaults = {"peek": False}
        reads = ("phase", "hand")  # the seat's own cards: the moment it acts would tell them

    class PeekingGame(FiveSons):
        name = ""
        standing_orders = Peeking

    g = PeekingGame.from_deal(A, secret=("KS", "TH"), dealer=3)
    with pytest.raises(AssertionError, match="read 'hand'.*only what every seat sees"):
        check_public_orders(g)


def test_five_sons_orders_pass_claims_unless_its_own_question_and_claim_at_the_next_chance() -> None:
    assert orders_class(FiveSons) is FiveSonsOrders and orders_class("five_sons") is FiveSonsOrders
    assert orders_class(Hearts) is StandingOrders  # a game that declares none
    g = dealt()
    g.apply(Ask(1, "QC", "8H"))
    g.apply(Show("QC"))  # the claim round after Alice's question: Alice first
    on = {"pass_claims": True, "claim": None}
    assert order_action(FiveSons, g.observation_json(0), 0, on) is None  # her own question: she decides
    g.apply(NoClaim())
    assert order_action(FiveSons, g.observation_json(1), 1, on) == NoClaim()
    assert order_action(FiveSons, g.observation_json(2), 1, on) == NoClaim()  # any viewer of the moment
    assert order_action(FiveSons, g.observation_json(1), 2, on) is None  # not seat 2's turn
    off = {"pass_claims": False, "claim": None}
    assert order_action(FiveSons, g.observation_json(1), 1, off) is None
    armed = {"pass_claims": False, "claim": {"type": "claim", "face": "KS", "number": "TH"}}
    claim = order_action(FiveSons, g.observation_json(1), 1, armed)
    assert type(claim).__name__ == "Claim" and (claim.face.code, claim.number.code) == ("KS", "TH")
    g.apply(claim)
    assert g.is_over and g.winner == 1
    assert order_action(FiveSons, g.observation_json(1), 1, armed) is None  # spent with the game


def test_bad_values_are_refused_by_name_and_change_nothing() -> None:
    with pytest.raises(ValueError, match="pace bot must be a number of seconds >= 0, not -1"):
        Pace(bot=-1)
    with pytest.raises(ValueError, match="pace deal"):
        Pace(deal=float("nan"))
    with pytest.raises(ValueError, match="pace bot"):
        Pace(bot=True)
    assert Pace(deal=None).deal is None and Pace(bot=1).bot == 1.0
    with pytest.raises(ValueError, match="game class"):
        Seats(object, 4)
    with pytest.raises(ValueError, match="no_such_game"):
        Seats("no_such_game", 4)
    with pytest.raises(ValueError, match="bots: seat 7 is not a seat of this 4-player game"):
        Seats(FiveSons, 4, {7: RandomBot()})
    with pytest.raises(ValueError, match="the bot of seat 1 must have act"):
        Seats(FiveSons, 4, {1: "logic"})
    with pytest.raises(ValueError, match="pace must be a Pace"):
        Seats(FiveSons, 4, pace=0.4)
    seats = Seats(FiveSons, 4, orders={2: {"pass_claims": True}})
    assert seats.orders(2) == {"pass_claims": True, "claim": None}
    for bad, words in (
        ({"pass_claim": True}, "unknown standing orders ['pass_claim']"),
        ({"pass_claims": "yes"}, "pass_claims must be true or false"),
        ({"claim": {"type": "claim", "face": "AH", "number": "KS"}}, "a claim names a face card"),
        ({"claim": {"type": "claim", "face": "ZZ", "number": "TH"}}, "ZZ"),
        ({"claim": ["KS", "TH"]}, "claim must be null or a claim"),
        ("pass", "standing orders are an object"),
    ):
        with pytest.raises(ValueError, match=re.escape(words)):
            seats.set_orders(2, bad)
        assert seats.orders(2) == {"pass_claims": True, "claim": None}
    with pytest.raises(ValueError, match="seat 4 is not a seat"):
        seats.set_orders(4, {})
    with pytest.raises(ValueError, match="seat -1"):
        seats.orders(-1)
    seats.set_bot(2, RandomBot())
    assert 2 in seats.bots
    seats.set_bot(2, None)
    assert seats.bots == {}


def test_a_deal_on_request_and_the_turn_check() -> None:
    """Hearts at a local table: the next hand is dealt when the person asks (``Pace(deal=None)``)."""
    g = Hearts.new(4, seed=3, rules={"target": 200})
    seats = Seats(Hearts, 4, [RandomBot(s) for s in range(4)], pace=Pace(deal=None))
    with pytest.raises(IllegalAction, match="no deal is due"):
        seats.deal(g)
    seats.run(g)
    assert g.phase == "hand_over" and seats.due(g) == Due("deal", CHANCE, None)
    assert seats.step(g) is None
    before = g.step
    seats.deal(g)
    assert g.step == before + 1 and g.phase == "pass"
    check_turn(g, g.to_move)
    other = (g.to_move + 1) % 4
    with pytest.raises(IllegalAction, match=f"it is seat {g.to_move}'s turn, not seat {other}'s"):
        check_turn(g, other)


def test_play_and_play_turn_are_the_driver_with_a_bot_in_every_seat() -> None:
    def bots() -> list:
        return [ReasoningBot(40 + s) for s in range(4)]

    a = play(FiveSons.new(4, seed=4), bots())
    b = FiveSons.new(4, seed=4)
    Seats(FiveSons, 4, bots()).run(b)
    assert a.record().to_json() == b.record().to_json() and a.is_over
    c = dealt()
    with pytest.raises(ValueError, match="no bot for seat 0"):
        play_turn(c, {1: RandomBot()})
    with pytest.raises(ValueError, match="no bot for seat 0"):
        play(c, {1: RandomBot()})
    with pytest.raises(ValueError, match="the game is over"):
        play_turn(a, bots())
    with pytest.raises(ValueError, match="bots must map seats"):
        play(c, "bots")


def test_a_bot_thinks_from_the_observation_made_when_asked() -> None:
    """``decision`` takes the bot's observation at once, so the bot may think in another thread while the
    table's game moves on (the classroom server's bots' thread)."""
    seen: list[Mapping[str, Any]] = []

    class Recorder:
        def act(self, obs):
            seen.append(obs)
            return random.Random(0).choice(obs["legal"])

    g = dealt()
    seats = Seats(FiveSons, 4, {0: Recorder()})
    think = seats.decision(g, seats.due(g))
    step = g.step
    g.apply(Ask(2, "JH", "5H"))  # the game moves on before the bot thinks
    action = think()
    assert seen[0]["step"] == step and action in seen[0]["legal"]


def test_play_turn_keeps_its_driver_for_the_same_bots_and_never_plays_a_changed_or_equal_one() -> None:
    """``play_turn`` asks one driver for a loop with the same bots (it is made once, not at every step), and a
    new one when the bots change: the list changed in place, another seat's bot, a dict, an equal bot that
    is not the same object (a dataclass's), another game of other players."""
    import dataclasses

    from qardlab.engine import bots as engine_bots

    made: list[Seats] = []
    real = engine_bots._driver

    def counting(game, bots):
        made.append(real(game, bots))
        return made[-1]

    calls: list[tuple[int, int]] = []

    class Tagged:
        def __init__(self, tag: int) -> None:
            self.tag = tag

        def act(self, obs):
            calls.append((self.tag, obs["seat"]))
            return obs["legal"][0]

    @dataclasses.dataclass
    class Same:
        tag: int

        def act(self, obs):
            calls.append((self.tag, obs["seat"]))
            return obs["legal"][0]

    engine_bots._driver = counting
    try:
        g = Hearts.new(4, seed=1)
        bots = [Tagged(s) for s in range(4)]
        for _ in range(10):
            play_turn(g, bots)
        assert len(made) == 1 and [t for t, _ in calls] == [s for _, s in calls]
        bots[g.to_move] = Tagged(100)  # changed in place: that seat's new bot plays
        play_turn(g, bots)
        assert calls[-1][0] == 100 and len(made) == 2
        play_turn(g, dict(enumerate(bots)))  # a dict of the same bots: a driver of its own
        assert len(made) == 3
        seat = g.to_move
        equal = [Same(s) for s in range(4)]
        play_turn(g, equal)
        again = [Same(s) for s in range(4)]  # equal to the last ones, other objects
        again[(seat + 1) % 4] = Same(200)
        calls.clear()
        play_turn(g, again)
        assert calls == [(200, (seat + 1) % 4)] and len(made) == 5  # never the equal bot it replaced
        k = FiveSons.new(4, seed=2)
        five = [ReasoningBot(s) for s in range(4)]
        play_turn(k, five)
        play_turn(k, five)
        assert len(made) == 6
    finally:
        engine_bots._driver = real


def test_a_bot_that_gives_nothing_is_refused_not_taken_for_the_end() -> None:
    class Silent:
        def act(self, obs):
            return None

    g = dealt()
    with pytest.raises(IllegalAction):
        play(g, [Silent()] * 4)
    with pytest.raises(IllegalAction):
        Seats(FiveSons, 4, [Silent()] * 4).step(g)
    assert g.step == 1  # the deal only

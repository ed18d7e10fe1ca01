"""Issue 9, section 4: every bad input is a clear error naming the bad value, and changes nothing.

First each item the issue lists, by name; then a hypothesis sweep that throws random JSON and
random Python values at every public entry point (constructors, ``apply``/``play``/``act``,
observations, records, the timeline, the codecs, cards, bots) and checks that the error is of
the ValueError family (IllegalAction, RecordError, ValueError: never TypeError, KeyError,
IndexError, AttributeError or RecursionError) and that the game's record and every seat's
observation are as they were.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qardlab.cards import Card, Hand, Suit, as_card, as_cards, card_of_index, cards_of_mask, mask_of
from qardlab.engine import IllegalAction, RandomBot, Record, RecordError, Timeline, play
from qardlab.games.five_sons import (
    Ask,
    Claim,
    Deal,
    FiveSons,
    FiveSonsSession,
    ProbabilityBot,
    RandomAsker,
    Show,
    phrase,
)
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.rules import HeartsRules

HANDS4 = ["JC QC KC JD QD", "KD JH QH KH JS", "QS AH 2H 3H 4H", "5H 6H 7H 8H 9H"]


def _record(**change: Any) -> str:
    data = json.loads(FiveSons.new(4, seed=3).record().to_json())
    data.update(change)
    return json.dumps(data, separators=(",", ":"))


# -- the list, item by item ----------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "[" * 100000 + "]" * 100000,
        _record(actions=[]).replace('"actions":[]', '"actions":' + "[" * 100000 + "]" * 100000),
        _record(actions=[]).replace('"actions":[]', '"actions":[' + "[" * 40 + "]" * 40 + "]"),
        _record(options={"x": json.loads("[" * 40 + "]" * 40)}),
    ],
    ids=["top", "actions-deep", "actions-40", "options-40"],
)
def test_record_deep_nesting_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError, match="nested"):
        Record.from_json(text)


def test_record_names_5_is_a_record_error_from_replay() -> None:
    rec = Record.from_json(_record(options={"names": 5}))
    with pytest.raises(RecordError, match="names must be 4 non-empty strings, one per seat, not 5"):
        rec.replay()


@pytest.mark.parametrize("version", [True, 1.0, 2.0, "2", None, 0, 3])
def test_record_version_must_be_the_integer_1_or_2(version: Any) -> None:
    with pytest.raises(RecordError, match=f"version {version!r} is not supported"):
        Record.from_json(_record(version=version))


@pytest.mark.parametrize("seed", ["x", 1.5, True, [1], b"7"])
@pytest.mark.parametrize(
    "make",
    [
        lambda s: FiveSons.new(4, seed=s),
        lambda s: Hearts.new(4, seed=s),
        lambda s: FiveSons.from_deal(HANDS4, secret=("KS", "TH"), seed=s),
        lambda s: FiveSons(4, {}, s),
        lambda s: Hearts(4, {}, s),
    ],
    ids=["five_sons.new", "hearts.new", "five_sons.from_deal", "FiveSons()", "Hearts()"],
)
def test_seed_must_be_an_integer_or_none(make: Callable, seed: Any) -> None:
    with pytest.raises(ValueError, match=re.escape(f"seed must be an integer or None, not {seed!r}")):
        make(seed)


@pytest.mark.parametrize("make", [lambda s: FiveSons.new(4, seed=s), lambda s: Hearts.new(4, seed=s)])
@pytest.mark.parametrize("seed", [None, 0, 7, 2**40])
def test_every_playable_game_saves_and_loads(make: Callable, seed: Any) -> None:
    g = make(seed)
    again = Record.from_json(g.record().to_json()).replay()
    assert again.record().to_json() == g.record().to_json() and again.seed == seed


@pytest.mark.parametrize(
    "names",
    [
        5,
        {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4},
        ["Ann"],
        "ABCD",
        ["Ann", "Ben", "Cat", ""],
        ["Ann", "Ben", "Cat", 4],
    ],
)
@pytest.mark.parametrize(
    "make",
    [
        lambda n: FiveSons.new(4, names=n),
        lambda n: Hearts.new(4, names=n),
        lambda n: FiveSons(4, {"names": n}, 1),
        lambda n: Hearts(4, {"names": n}, 1),
    ],
    ids=["five_sons.new", "hearts.new", "FiveSons()", "Hearts()"],
)
def test_names_one_check_for_both_games(make: Callable, names: Any) -> None:
    with pytest.raises(ValueError, match=r"names must be 4 non-empty strings, one per seat, not "):
        make(names)


@pytest.mark.parametrize(
    "hands,secret,match",
    [
        (None, ("KS", "TH"), "hands must be a list with one hand per seat, not None"),
        ([None, *HANDS4[1:]], ("KS", "TH"), "the hand of seat 0 must be a list of cards .*, got None"),
        ([5, *HANDS4[1:]], ("KS", "TH"), "the hand of seat 0 must be a list of cards .*, got 5"),
        ((h for h in HANDS4), ("KS", "TH"), "hands must be a list with one hand per seat, not <generator"),
        (HANDS4, None, "the secret must be two cards .*, got None"),
        (HANDS4, 5, "the secret must be two cards .*, got 5"),
        (HANDS4, "KSTH", "the secret must be two cards .*, got 'KSTH'"),
    ],
)
def test_from_deal_bad_values_named(hands: Any, secret: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        FiveSons.from_deal(hands, secret=secret)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: cards_of_mask(1 << 60), "card mask 1152921504606846976 is not a mask of the 52 cards"),
        (lambda: cards_of_mask(-1), "card mask -1 is not a mask of the 52 cards"),
        (lambda: cards_of_mask("3"), "card mask '3' is not an integer"),
        (lambda: card_of_index("3"), "card index '3' is not an integer"),
        (lambda: card_of_index(52), "card index 52 is outside 0..51"),
        (lambda: card_of_index(True), "card index True is not an integer"),
        (lambda: mask_of(5), "expected several cards, got 5"),
        (lambda: Hand(5), "a hand is several cards .*, not 5"),
        (lambda: Suit.parse(3), "unknown suit 3"),
        (lambda: as_cards(None), "expected several cards, got None"),
    ],
)
def test_cards_bad_values_named(call: Callable, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("make", [lambda: FiveSons.new(4, seed=1), lambda: Hearts.new(4, seed=1)])
@pytest.mark.parametrize("seat", [-1, 4, True, "0", None, 1.0])
def test_one_seat_check_for_both_games(make: Callable, seat: Any) -> None:
    """``act``, ``hand`` and ``observation`` name a bad seat with IllegalAction, in both games (None is
    the teacher's observation, and no seat to act for)."""
    g = make()
    before = g.record().to_json()
    with pytest.raises(IllegalAction, match=f"seat {seat!r} is not a seat of this game"):
        g.act(seat, g.legal_actions()[0])
    with pytest.raises(IllegalAction, match=f"seat {seat!r} is not a seat of this game"):
        g.hand(seat)
    if seat is not None:
        with pytest.raises(IllegalAction, match=f"seat {seat!r} is not a seat of this game"):
            g.observation(seat)
    assert g.record().to_json() == before


# -- the sweep -------------------------------------------------------------------------------
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(
        [
            "QS",
            "2C",
            "8H",
            "KS",
            "TH",
            "deal",
            "ask",
            "show",
            "claim",
            "no_claim",
            "neither",
            "hearts",
            "five_sons",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "target",
                    "face",
                    "number",
                    "card",
                    "dealer",
                    "secret",
                    "hands",
                    "deal",
                    "names",
                    "rules",
                    "x",
                ]
            )
            | st.text(max_size=4),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)
python_values = (
    json_values
    | st.sampled_from(
        [
            object(),
            float("nan"),
            math.inf,
            (1, 2),
            ("QS",),
            frozenset({1}),
            b"QS",
            bytearray(b"x"),
            3j,
            Card.parse("QS"),
            Ask(1, "QC", "8H"),
            Show("QC"),
            Claim("QC", "8H"),
            ...,
            type,
            len,
        ]
    )
    | st.builds(lambda x: (y for y in [x]), json_values)
    | st.tuples(json_values, json_values)
)

OK = (ValueError,)  # IllegalAction and RecordError are ValueErrors
NOT_OK = (TypeError, KeyError, IndexError, AttributeError, RecursionError, LookupError, ArithmeticError)


def _state(g: Any) -> tuple:
    return (
        g.record().to_json(),
        [json.dumps(g.observation_json(s), sort_keys=True) for s in [None, *range(g.players)]],
    )


def _five() -> FiveSons:
    g = FiveSons.from_deal(HANDS4, secret=("KS", "TH"), dealer=0)
    g.apply(Ask(2, "QS", "AH"))  # seat 2 chooses which to show: the answer phase
    return g


def _hearts() -> Hearts:
    g = Hearts.new(4, seed=5)
    play(g, [RandomBot(s) for s in range(4)], max_steps=20)  # passes done, tricks under way
    return g


GAMES = {"five_sons": _five(), "hearts": _hearts()}

#: entry points on a live game (the game is checked unchanged afterwards)
GAME_CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "apply": lambda g, v: g.apply(v),
    "play": lambda g, v: g.play(v),
    "act(seat)": lambda g, v: g.act(v, g.legal_actions()[0]),
    "act(action)": lambda g, v: g.act(g.to_move, v),
    "observation": lambda g, v: g.observation(v),
    "observation_json": lambda g, v: g.observation_json(v),
    "hand": lambda g, v: g.hand(v),
    "transcript": lambda g, v: g.transcript(v) if hasattr(g, "transcript") else g.observation(v),
    "knowledge": lambda g, v: g.knowledge(v),
    "why_illegal": lambda g, v: g.why_illegal(v),
    "action_from_json": lambda g, v: g.action_from_json(v),
    "action_to_json": lambda g, v: g.action_to_json(v),
    "timeline.extend": lambda g, v: Timeline(g).extend(v),
    "timeline.go_to": lambda g, v: Timeline(g).go_to(v),
    "timeline.state_at": lambda g, v: Timeline(g).state_at(v),
    "timeline.describe": lambda g, v: Timeline(g).describe(v),
    "timeline.sync": lambda g, v: Timeline(g).sync(v),
    "record.replay(upto)": lambda g, v: g.record().replay(v),
}

#: constructors and free functions (nothing to leave unchanged but the error type)
FREE_CALLS: dict[str, Callable[[Any], Any]] = {
    "FiveSons.new(players)": lambda v: FiveSons.new(v),
    "FiveSons.new(seed)": lambda v: FiveSons.new(4, seed=v),
    "FiveSons.new(dealer)": lambda v: FiveSons.new(4, dealer=v),
    "FiveSons.new(names)": lambda v: FiveSons.new(4, names=v),
    "FiveSons.new(ask_mode)": lambda v: FiveSons.new(4, ask_mode=v),
    "FiveSons.new(notes)": lambda v: FiveSons.new(4, notes=v),
    "FiveSons(options)": lambda v: FiveSons(4, v, 1),
    "FiveSons.from_deal(hands)": lambda v: FiveSons.from_deal(v),
    "FiveSons.from_deal(hand)": lambda v: FiveSons.from_deal([v, *HANDS4[1:]], secret=("KS", "TH")),
    "FiveSons.from_deal(secret)": lambda v: FiveSons.from_deal(HANDS4, secret=v),
    "FiveSons.from_deal(dealer)": lambda v: FiveSons.from_deal(HANDS4, secret=("KS", "TH"), dealer=v),
    "Ask": lambda v: Ask(v, v, v),
    "Ask(target)": lambda v: Ask(v, "QC", "8H"),
    "Show": lambda v: Show(v),
    "Claim": lambda v: Claim("QC", v),
    "Deal": lambda v: Deal(0, ("QC", "8H"), v),
    "Deal(dealer)": lambda v: Deal(v, ("QC", "8H"), ()),
    "phrase": lambda v: phrase("QC", v),
    "FiveSonsSession(players)": lambda v: FiveSonsSession(v),
    "FiveSonsSession(seed)": lambda v: FiveSonsSession(4, seed=v),
    "Hearts.new(players)": lambda v: Hearts.new(v),
    "Hearts.new(seed)": lambda v: Hearts.new(4, seed=v),
    "Hearts.new(rules)": lambda v: Hearts.new(4, rules=v),
    "Hearts.new(names)": lambda v: Hearts.new(4, names=v),
    "Hearts(options)": lambda v: Hearts(4, v, 1),
    "Hearts.from_deal(hands)": lambda v: Hearts.from_deal(v),
    "Hearts.from_deal(direction)": lambda v: Hearts.from_deal(
        [[f"{r}{s}" for r in "23456789TJQKA"] for s in "CDHS"], pass_direction=v
    ),
    "HeartsRules.from_dict": lambda v: HeartsRules.from_dict(v),
    "Record.from_json": lambda v: Record.from_json(v),
    "Record.from_json(text)": lambda v: Record.from_json(json.dumps(v, default=repr)),
    "Record.from_dict": lambda v: Record.from_dict(v),
    "Record(actions).replay": lambda v: Record("five_sons", 4, {}, 1, [v]).replay(),
    "Record(hearts actions).replay": lambda v: Record("hearts", 4, {}, 1, [v]).replay(),
    "Record(options).replay": lambda v: Record("five_sons", 4, v, 1, []).replay(),
    "Record(players).replay": lambda v: Record("hearts", v, {}, 1, []).replay(),
    "Record(game)": lambda v: Record(v, 4, {}, 1, []).replay(),
    "Record(seed)": lambda v: Record("five_sons", 4, {}, v, []).replay(),
    "Timeline(source)": lambda v: Timeline(v),
    "Timeline(checkpoint_every)": lambda v: Timeline(FiveSons.new(4, seed=1), v),
    "Card.parse": lambda v: Card.parse(v),
    "as_card": lambda v: as_card(v),
    "as_cards": lambda v: as_cards(v),
    "card_of_index": lambda v: card_of_index(v),
    "cards_of_mask": lambda v: cards_of_mask(v),
    "mask_of": lambda v: mask_of(v),
    "Hand": lambda v: Hand(v),
    "Suit.parse": lambda v: Suit.parse(v),
    "RandomBot(seed)": lambda v: RandomBot(v),
    "RandomAsker(seed)": lambda v: RandomAsker(v),
    "RandomAsker(memory)": lambda v: RandomAsker(1, memory=v),
    "ProbabilityBot(threshold)": lambda v: ProbabilityBot(1, threshold=v),
    "play(max_steps)": lambda v: play(
        FiveSons.new(4, seed=1), [RandomAsker(s) for s in range(4)], max_steps=v
    ),
}


def _call(f: Callable[[], Any], name: str, value: Any) -> None:
    try:
        f()
    except OK:
        pass
    except NOT_OK as e:  # pragma: no cover - a failure
        raise AssertionError(f"{name}({value!r:.120}) raised {type(e).__name__}: {e}") from e


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(GAME_CALLS)), st.sampled_from(sorted(GAMES)), python_values)
def test_property_game_calls_refuse_bad_values_and_change_nothing(name: str, game: str, value: Any) -> None:
    g = GAMES[game].copy()
    before = _state(g)
    _call(lambda: GAME_CALLS[name](g.copy() if name == "play" else g, value), name, value)
    if name != "play":  # apply, act: either accepted (then it is one legal step) or nothing changed
        after = _state(g)
        if after != before:
            assert name in ("apply", "act(action)") and g.step == GAMES[game].step + 1
            g2 = GAMES[game].copy()
            g2.apply(g.history[-1])
            assert _state(g2) == after


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(FREE_CALLS)), python_values)
def test_property_constructors_and_codecs_refuse_bad_values_clearly(name: str, value: Any) -> None:
    _call(lambda: FREE_CALLS[name](value), name, value)


@settings(max_examples=100, deadline=None)
@given(st.lists(json_values, max_size=4), st.sampled_from(["five_sons", "hearts"]))
def test_property_records_with_random_actions_replay_or_say_which(actions: list, game: str) -> None:
    """Random JSON after a real prefix: the record replays, or a RecordError names the action."""
    real = GAMES[game].record()
    try:
        Record(real.game, real.players, real.options, real.seed, real.actions + actions).replay()
    except RecordError as e:
        assert "record action #" in str(e)
    except NOT_OK as e:  # pragma: no cover - a failure
        raise AssertionError(f"replay raised {type(e).__name__}: {e}") from e

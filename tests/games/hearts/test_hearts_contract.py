"""Hearts against the generic game contract, bad input, records, and what each seat may see."""

from __future__ import annotations

import json
import random

import pytest

from qardlab.cards import Card, Suit
from qardlab.engine import IllegalAction, RandomBot, Record, RecordError, Timeline, part_of, play
from qardlab.engine.contract import check_contract, check_illegal_changes_nothing
from qardlab.games.hearts import Deal, Hearts, HeartsRules

from .helpers import PLAYERS, QS, make_deal, random_pass

# -- the generic contract ------------------------------------------------------------------


def bad_actions(game: Hearts) -> list:
    """Hearts actions that are wrong whatever the state: cards not held, wrong pass shapes, deals."""
    bad: list = ["1X", ("2C",), ["QS", "QS", "QS"]]
    if game.phase in ("pass", "play") and game.to_move is not None and game.to_move >= 0:
        mover = game.to_move
        others = [c for s in range(game.players) if s != mover for c in game.hand(s)]
        bad += others[:1]  # a card of another hand
        bad.append(Deal(make_deal(game.players)))
        if game.phase == "pass":
            free = game.legal_actions()
            bad += [tuple(free[:2]), (free[0], free[0], free[1]), tuple(free[:4])]
        else:
            legal = set(game.legal_actions())
            bad += [c for c in game.hand(mover) if c not in legal][:3]
            bad.append(tuple(game.legal_actions()[:1] * 3))
    return bad


def hidden_cards(game: Hearts, seat: int) -> list[Card]:
    """Cards in other hands that the seat did not pass (so cannot place) and were never played."""
    known = set()
    for e in game.events.view(seat):
        if e["kind"] == "pass_choice" and e["seat"] == seat:
            known |= {Card.parse(c) for c in part_of(e, seat)["cards"]}
    return [c for s in range(game.players) if s != seat for c in game.hand(s) if c not in known]


def alternatives(game: Hearts, seat: int, rng: random.Random) -> list[Hearts]:
    """Games the seat cannot tell apart: two unplayed cards of one suit (not the Queen of spades),
    unknown to the seat and held by two other seats, swapped in every action of the history."""
    hidden = set(hidden_cards(game, seat)) - {QS}
    out = []
    holders = {c: s for s in range(game.players) for c in game.hand(s)}
    for _ in range(4):
        pool = list(hidden)
        rng.shuffle(pool)
        pair = next(
            ((a, b) for a in pool for b in pool if a.suit == b.suit and holders[a] != holders[b]), None
        )
        if pair is None:
            break
        a, b = pair
        swap = {a: b, b: a}

        def tr(action, swap=swap):
            if isinstance(action, Deal):
                return Deal([[swap.get(c, c) for c in h] for h in action.hands])
            if isinstance(action, Card):
                return swap.get(action, action)
            if isinstance(action, tuple):
                return tuple(swap.get(c, c) for c in action)
            return action

        out.append(Hearts.replay([tr(x) for x in game.history], game.players, dict(game.options), game.seed))
    return out


def make_bots(n: int):
    return lambda seed: [RandomBot(seed * 10 + s) for s in range(n)]


@pytest.mark.parametrize("n", PLAYERS)
def test_contract_one_hand(n: int) -> None:
    """Generic contract on single hands: legal actions, refusals, replay, determinism, no leaks."""

    def make(seed: int) -> Hearts:
        return Hearts.from_deal(make_deal(n, seed=seed), pass_direction="left" if seed % 2 else "right")

    stats = check_contract(
        make,
        make_bots(n),
        range(2),
        bad_actions=bad_actions,
        alternatives=alternatives,
        hidden_cards=hidden_cards,
        positions=4,
        check_every=9,
    )
    assert stats.finished == 2
    assert stats.illegal_checked > 20
    assert stats.alternatives > 5
    assert stats.live_alternatives > 5 and stats.live_calls > 50  # the live check ran, call by call
    assert stats.hidden_scans == stats.positions * n


@pytest.mark.parametrize("n", PLAYERS)
def test_contract_match(n: int) -> None:
    """Generic contract on a whole (short) match: chance deals between hands, records, determinism."""

    def make(seed: int) -> Hearts:
        return Hearts.new(n, seed=seed, rules=HeartsRules(target=40))

    stats = check_contract(
        make,
        make_bots(n),
        [1],
        bad_actions=bad_actions,
        positions=3,
        check_every=23,
        # named by the function itself, so that this test cannot outlive the one that checks the secrecy
        secrecy_checked_by=f"{test_contract_one_hand.__name__} (the hooks build single hands, not matches)",
    )
    assert stats.finished == 1 and stats.steps > 2 * n * 8


# -- bad input -----------------------------------------------------------------------------


def _after_pass(n: int = 4, seed: int = 0) -> Hearts:
    g = Hearts.new(n, seed=seed)
    random_pass(g, random.Random(seed))
    return g


def test_bad_card_not_in_hand() -> None:
    """A card not in the mover's hand is refused naming it, but never its holder (another seat's hand is
    that seat's secret: the refusal goes to the mover, over the wire in a classroom); nothing changes."""
    g = _after_pass()
    holder = (g.to_move + 1) % 4
    other = next(c for c in g.hand(holder))
    with pytest.raises(IllegalAction, match=f"{other} is not in {g.seat_name(g.to_move)}'s hand") as refused:
        g.apply(other)
    assert g.seat_name(holder) not in str(refused.value)
    check_illegal_changes_nothing(g, [other, "ZZ", "11C", 52, ""])


def test_bad_out_of_turn() -> None:
    """Acting for a seat not to move, or no seat, is refused (the engine's ``act(seat, action)``)."""
    g = _after_pass()
    wrong = (g.to_move + 1) % 4
    step = g.step
    with pytest.raises(IllegalAction, match=f"not seat {wrong}"):
        g.act(wrong, g.legal_actions()[0])
    assert g.step == step
    with pytest.raises(IllegalAction, match="not a seat"):
        g.act(4, g.legal_actions()[0])
    g.act(g.to_move, g.legal_actions()[0])
    assert g.step == step + 1


@pytest.mark.parametrize("n", PLAYERS)
def test_bad_passes(n: int) -> None:
    """A pass of two cards, of a card twice, of a card not held, or a second tuple: refused, no change."""
    g = Hearts.from_deal(make_deal(n, seed=1), "left")
    mine = g.legal_actions()
    theirs = list(g.hand(1))
    cases = {
        (mine[0], mine[1]): "a pass is 3 cards",
        (mine[0], mine[0], mine[1]): "named twice",
        (mine[0], mine[1], theirs[0]): "not in Alice's hand",
        (mine[0], mine[1], mine[2], mine[3]): "a pass is 3 cards",
    }
    for bad, msg in cases.items():
        with pytest.raises(IllegalAction, match=msg):
            g.apply(bad)
    check_illegal_changes_nothing(g, list(cases))
    g.apply(mine[0])
    with pytest.raises(IllegalAction, match="already chosen"):
        g.apply(mine[0])
    with pytest.raises(IllegalAction, match="one at a time"):
        g.apply(tuple(mine[1:4]))


def test_bad_heart_lead_and_first_trick_points() -> None:
    """Leading a heart too early and a first-trick point card are refused with the rule's words
    (the rule tests cover every player count)."""
    hands = make_deal(4, {1: ["QS", "2H", "3H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"]})
    g = Hearts.from_deal(hands, "none")
    g.apply(g.opening_card)
    for bad in ("QS", "2H"):
        with pytest.raises(IllegalAction, match="may not be played on the first trick.*legal: 2D"):
            g.apply(bad)
    check_illegal_changes_nothing(g, ["QS", "2H", "3H"])


def test_bad_malformed_records() -> None:
    """A malformed record is refused naming the bad field or action."""
    g = Hearts.new(4, seed=3)
    random_pass(g, random.Random(3))
    data = g.record().to_dict()
    cases = [
        ({**data, "players": 7}, "7"),
        ({**data, "options": {"rules": {"moon": "moonwalk"}}}, "moonwalk"),
        ({**data, "options": {"colour": 1}}, "colour"),
        ({**data, "actions": data["actions"][:1] + [["QS"]]}, "#1"),
        ({**data, "actions": [{"deal": [["2C"]]}]}, "#0"),
        ({**data, "actions": data["actions"] + ["XX"]}, "XX"),
        ({**data, "actions": data["actions"] + [{"play": "2C"}]}, "play"),
    ]
    for bad, msg in cases:
        with pytest.raises(RecordError, match=msg):
            Record.from_dict(json.loads(json.dumps(bad))).replay()


def test_bad_deals() -> None:
    """A deal with a missing, repeated or foreign card, or the wrong count, is refused."""
    hands = make_deal(4)
    with pytest.raises(IllegalAction, match="dealt twice"):
        Hearts.from_deal([hands[0], hands[0], hands[2], hands[3]])
    with pytest.raises(IllegalAction, match="12 cards"):
        Hearts.from_deal([hands[0][:12], hands[1], hands[2], hands[3] + hands[0][12:]])
    with pytest.raises(IllegalAction, match="each gets 17 with 3 players"):
        Hearts.from_deal(hands[:3])
    g5 = make_deal(5)
    g5[0] = g5[0][:-1] + [Card.parse("2C")]
    with pytest.raises(IllegalAction, match="2C is not in play with 5 players"):
        Hearts.from_deal(g5)


# -- what a seat sees ----------------------------------------------------------------------


@pytest.mark.parametrize("n", PLAYERS)
def test_observation_hides_other_hands(n: int) -> None:
    """A seat's observation names no card of another hand that it has not seen played or passed by it."""
    for seed in range(6):
        g = Hearts.new(n, seed=seed)
        bots = [RandomBot(seed + s) for s in range(n)]
        steps = 0
        while g.phase in ("pass", "play"):
            if steps % 5 == 0:
                for seat in range(n):
                    text = json.dumps(g.observation(seat))
                    for c in hidden_cards(g, seat):
                        assert f'"{c.code}"' not in text, f"seat {seat} sees {c} at step {g.step}"
            g.apply(bots[g.to_move].act(g.observation(g.to_move)))
            steps += 1


def test_observation_pass_is_private() -> None:
    """Passes are private: the passer sees what it passed, the receiver what it received, no one else."""
    g = Hearts.from_deal(make_deal(4, seed=9), "across")
    picks = {s: tuple(g.hand(s)[:3]) for s in range(4)}
    for s in range(4):
        g.apply(picks[s])
    for s in range(4):
        obs = g.observation(s)
        assert obs["passed"] == [c.code for c in picks[s]] and obs["passed_to"] == (s + 2) % 4
        assert obs["received"] == [c.code for c in picks[(s + 2) % 4]]
        text = json.dumps(obs)
        for t in (s + 1, s + 3):
            assert not any(f'"{c.code}"' in text for c in picks[t % 4] if c not in g.hand(s))


def test_describe_in_words() -> None:
    """Events read as sentences; a seat's words never name cards it did not see."""
    g = Hearts.from_deal(make_deal(4, seed=2), "left", names=["Ann", "Ben", "Cat", "Dan"])
    random_pass(g, random.Random(1))
    g.apply(g.legal_actions()[0])
    texts = [g.describe(e, 2) for e in g.events if e.visible_to(2)]
    assert texts[0].startswith("Hand 1: Ann deals; the pass is left. You get")
    assert any(t.startswith("You pass") and "from Ben" in t for t in texts)
    assert texts[-1].endswith(f"plays the {g.opening_card.name}.")
    teacher = [g.describe(e, None) for e in g.events]
    assert any("The cards are passed left: Ann passes" in t for t in teacher)


def test_record_timeline_and_html() -> None:
    """Records replay byte for byte; the Timeline steps through a hand; cards, hands, tricks show as HTML."""
    g = Hearts.new(4, seed=4)
    play(g, [RandomBot(i) for i in range(4)], max_steps=80)
    again = Record.from_json(g.record().to_json()).replay()
    assert again.record().to_json() == g.record().to_json() and again.scores == g.scores
    t = Timeline(g)
    t.go_to(1)
    assert t.game.phase == "pass"
    t.end()
    assert t.game.step == g.step
    assert "qard-card" in g.hand(0)._repr_html_()
    if g.trick:
        assert "qard-card" in g.trick._repr_html_()
    assert Suit.HEARTS.symbol == "♥"


def test_lazy_play_log_equals_an_eager_one() -> None:
    """Plays are logged as ints and turned into events on first read: reading the log at every
    step or only at the end gives the same events, and copies and truncation keep it whole."""
    rng = random.Random(6)
    g = Hearts.new(4, seed=6, rules=HeartsRules(target=30))
    eager = g.copy()
    while not g.is_over:
        if g.to_move == -1:
            action = g.chance_outcome()
        elif g.phase == "pass":
            action = tuple(rng.sample(g.legal_actions(), 3))
        else:
            action = rng.choice(g.legal_actions())
        g.apply(action)
        eager.apply(action)
        len(eager.events)  # read at every step
        if rng.random() < 0.1:
            assert list(g.copy().events) == list(eager.events)
    assert list(g.events) == list(eager.events)
    assert [e.kind for e in g.events].count("trick") == 13 * len(g.hand_history)
    t = g.events.copy()
    t.truncate(40)
    assert list(t) == list(g.events)[:40]

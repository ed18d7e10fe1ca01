"""The fast paths of the Hearts engines keep every promise of the slow ones.

The step engine logs plays implicitly (their events are built from the history when read),
holds the open trick as card bits, checks passes of interned Cards on a short path and
shuffles with ``Random.shuffle``'s steps written out (dealing as it goes); the batch simulator
deals by sorting random keys and draws slots from raw 32-bit words. These tests pin what those
shortcuts must not change.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from qardlab.cards import Card, cards_of_mask
from qardlab.engine import IllegalAction, Record
from qardlab.engine.events import EventLog, part_of
from qardlab.engine.game import PUBLIC
from qardlab.games.hearts import Hearts, HeartsRules
from qardlab.games.hearts.batch import simulate
from qardlab.games.hearts.bots import CountingBot, RuleBot
from qardlab.games.hearts.game import BOT_OBSERVATION_KEYS
from qardlab.games.hearts.rules import deck_mask, hand_size

from .helpers import PLAYERS, make_deal, play_random, random_pass


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_deal_is_random_shuffle_dealt_from_dealers_left(n: int) -> None:
    """The deal (one card at a time clockwise from the dealer's left) is exactly a
    ``random.Random(seed).shuffle`` of the cards in play, so seeded games deal as they always did,
    hand after hand of a match."""
    rules = HeartsRules(target=10**6)
    g = Hearts.new(n, seed=11, rules=rules)
    rng = random.Random(11)
    for hand_no in range(3):
        cards = cards_of_mask(deck_mask(n))
        rng.shuffle(cards)
        first = (hand_no + 1) % n  # the dealer of hand h is seat h; its left deals first
        expect = [sorted(cards[(s - first) % n :: n]) for s in range(n)]
        assert [sorted(h) for h in g.history[-1].hands] == expect
        play_random(g, random.Random(hand_no))
        g.next_hand()


def test_copies_keep_separate_logs_mid_trick() -> None:
    """A copy taken in the middle of a trick and the original, played on differently, each log
    exactly their own plays (the events equal a replay of each history)."""
    g = Hearts.new(4, seed=5)
    random_pass(g, random.Random(1))
    for _ in range(6):
        g.apply(g.legal_actions()[0])
    while not g.trick or len(g.legal_actions()) < 2:  # mid-trick, with a choice
        g.apply(g.legal_actions()[0])
    len(g.events)  # flush what is there so far
    c = g.copy()
    g.apply(g.legal_actions()[0])
    c.apply(c.legal_actions()[-1])
    assert g.history[-1] != c.history[-1]
    for game in (g, c):
        play_random(game, random.Random(2))
        again = Record.of(game).replay()
        assert list(game.events) == list(again.events)
    assert list(g.events) != list(c.events)
    assert [e.kind for e in g.events].count("trick") == 13


def test_events_read_mid_trick_then_later_match_one_read() -> None:
    """Reading the log after every single play builds the same events as one read at the end."""
    a = Hearts.new(4, seed=8)
    b = Hearts.new(4, seed=8)
    rng = random.Random(3)
    random_pass(a, rng)
    for action in a.history[1:]:
        b.apply(action)
    while a.phase == "play":
        card = rng.choice(a.legal_actions())
        a.apply(card)
        b.apply(card)
        assert a.events[-1].kind in ("play", "trick", "hand_over")
    assert list(a.events) == list(b.events)


def test_rule_hearts_broken_as_soon_as_a_heart_is_played() -> None:
    """A heart discarded in the middle of a trick breaks hearts at once (``hearts_broken``),
    though it only matters for the next lead."""
    hands = make_deal(4, {1: ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]})
    g = Hearts.from_deal(hands, "none", rules=HeartsRules(no_pts_on_first_trick=False))
    g.apply(g.legal_actions()[0])  # the two of clubs
    assert not g.hearts_broken
    g.apply(g.legal_actions()[0])  # seat 1 holds only hearts
    assert g.hearts_broken and len(g.trick) == 2 and g.trick[1][0] == 1


def test_pass_fast_path_refuses_as_the_slow_one() -> None:
    """Tuples of interned Cards take a short path; a bad tuple still gets IllegalAction naming
    it and changes nothing, and a pass as a list or as codes is recorded the same way."""
    g = Hearts.new(4, seed=2)
    mine = g.legal_actions()
    other = g.hand(1)[0]
    before = Record.of(g).to_json()
    for bad in [(mine[0], mine[1], other), (mine[0], mine[0], mine[1]), (mine[0], mine[1])]:
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert Record.of(g).to_json() == before
    g.apply([c.code for c in mine[:3]])
    assert g.history[-1] == tuple(mine[:3]) and g.to_move == 1
    assert all(type(c) is Card for c in g.history[-1])


def test_deal_of_cards_short_path_is_the_full_parse() -> None:
    """Rule (deck) and the set-up deal: hands of interned Cards take a short path (their bits summed);
    they give the same deal as codes, Hands or a mix, keep each hand in its given order, and a bad
    value, a card twice in a hand or in two hands is refused as by the full parse, naming it."""
    from qardlab.cards import Hand
    from qardlab.games.hearts.values import Deal

    hands = [list(reversed(h)) for h in make_deal(4, seed=3)]
    fast = Deal(hands)
    for other in (
        [[c.code for c in h] for h in hands],
        tuple(Hand(h) for h in hands),
        [hands[0], [c.code for c in hands[1]], tuple(hands[2]), hands[3]],
    ):
        slow = Deal(other)
        assert (slow.masks, slow.sizes, slow.hands) == (fast.masks, fast.sizes, fast.hands)
    assert fast.hands[0] == tuple(hands[0]) and type(fast.hands[0]) is Hand  # as given, not sorted
    g = Hearts.from_deal(hands)
    assert [g.hand_mask(s) for s in range(4)] == [sum(c.bit for c in h) for h in hands]
    for bad, named in (("ZZ", "ZZ"), (7, "7"), (None, "None")):
        with pytest.raises(IllegalAction, match=named):
            Hearts.from_deal([hands[0][:-1] + [bad], *hands[1:]])
    with pytest.raises(IllegalAction, match=f"{hands[0][0]} is dealt twice"):
        Hearts.from_deal([hands[0][:-1] + [hands[0][0]], *hands[1:]])  # twice in one hand
    with pytest.raises(IllegalAction, match="dealt twice"):
        Hearts.from_deal([hands[0], hands[0], hands[2], hands[3]])  # in two hands
    with pytest.raises(IllegalAction, match="hand"):
        Hearts.from_deal([hands[0], "2C 3C", hands[2], hands[3]])


def test_given_deal_makes_its_hands_when_read_as_given() -> None:
    """Rule (deck) and the set-up deal: a deal of given Cards keeps each hand's cards in their given
    order and makes its Hands only when read; a caller's list changed afterwards changes neither the
    deal nor the game set up from it, and the record holds the same deal as the full parse's."""
    from qardlab.cards import Hand
    from qardlab.games.hearts.values import Deal, action_to_json

    hands = [list(reversed(h)) for h in make_deal(4, seed=5)]
    given = [list(h) for h in hands]
    deal = Deal(given)
    game = Hearts.from_deal(given)
    for h in given:  # the caller reuses its lists
        h.reverse()
        h.pop()
    assert deal._hands is None  # (not made yet: from_deal and the record need only the masks)
    assert [list(h) for h in deal.hands] == hands and all(type(h) is Hand for h in deal.hands)
    assert deal.hands is deal.hands  # made once
    assert deal == Deal([[c.code for c in h] for h in hands])  # as the full parse of codes
    assert action_to_json(deal) == action_to_json(Deal([[c.code for c in h] for h in hands]))
    assert [list(h) for h in game.history[0].hands] == hands
    assert [game.hand_mask(s) for s in range(4)] == [sum(c.bit for c in h) for h in hands]
    assert repr(deal) == "Deal(" + ", ".join(f"[{Hand(h)}]" for h in hands) + ")"


@pytest.mark.parametrize("n", PLAYERS)
def test_deal_checked_by_its_sum_refuses_what_the_full_check_refuses(n: int) -> None:
    """Rule (deck): a deal is accepted at once when its hands have the right sizes and their masks add
    up to the cards in play; every other deal takes the full check, which names the bad card. A card
    dealt twice in place of another (the sizes right, the masks adding up to one card short of the
    deck after the carry), a card out of play in place of one in play, a short and a long hand are
    all refused, and the game is unchanged."""
    from qardlab.games.hearts.values import Deal

    hands = make_deal(n, seed=4)
    twice = [list(h) for h in hands]
    twice[1][0] = twice[0][0]  # seat 0's first card dealt to seat 1 too, seat 1's first card to no one
    out_of_play = [list(h) for h in hands]
    removed = cards_of_mask(((1 << 52) - 1) & ~deck_mask(n))
    short_long = [hands[0][:-1], *hands[1:-1], hands[-1] + hands[0][-1:]]
    cases = [(twice, f"{hands[0][0]} is dealt twice"), (short_long, "cards; each gets")]
    if removed:
        out_of_play[0][-1] = removed[0]
        cases.append((out_of_play, f"{removed[0]} is not in play with {n} players"))
    for bad, named in cases:
        with pytest.raises(IllegalAction, match=named):
            Hearts.from_deal(bad)
        game = Hearts(n, {"single": True}, None)
        before = Record.of(game).to_json()
        with pytest.raises(IllegalAction, match=named):
            game.apply(Deal(bad))
        assert Record.of(game).to_json() == before and game.history == []
    assert Hearts.from_deal(hands).step == 1


@pytest.mark.parametrize("n", PLAYERS)
def test_batch_deal_is_a_uniform_partition(n: int) -> None:
    """Batch deals give every seat its share of distinct cards, passes are cards of the passer's
    hand, and each card lands on each seat about equally often (a loose chi-square bound)."""
    count = 6000
    result = simulate(count, n, seed=40 + n)
    deals = result.deals
    size = hand_size(n)
    union = np.bitwise_or.reduce(deals, axis=1)
    assert (union == deck_mask(n)).all()
    assert (np.bitwise_count(deals) == size).all()
    assert ((result.passes & ~deals) == 0).all()
    assert (np.bitwise_count(result.passes[result.passes != 0]) == 3).all()
    cards = [c.index for c in cards_of_mask(deck_mask(n))]
    seat_counts = np.array([[((deals[:, s] >> i) & 1).sum() for s in range(n)] for i in cards])
    expected = count / n
    chi2 = (((seat_counts - expected) ** 2) / expected).sum(axis=1)  # per card, n - 1 degrees of freedom
    assert chi2.mean() < 2 * (n - 1) and chi2.max() < 10 * (n - 1)


def test_batch_integer_draw_stays_below_the_count() -> None:
    """The batch draws a legal slot as (u * count) >> 32 with a 32-bit u: u = 0 gives the first slot,
    the largest u the last, for every count of legal cards a hand can have (17 with 3 players)."""
    counts = np.arange(1, 18, dtype=np.uint8)
    for u, expect in ((0, 0 * counts), (2**32 - 1, counts - 1)):
        r = np.multiply(np.full(17, u, dtype=np.uint32), counts, dtype=np.uint64) >> 32
        assert (r == expect).all()


def _scanned(game: Hearts, seat: object) -> tuple[list, list, list]:
    """A seat's view, pass and tricks of the hand as the plain scan of the whole log finds them."""
    view = EventLog.view(game.events, seat)  # the engine's view, built anew from every Event
    chosen, passed = [], []
    for e in view:
        if e["kind"] == "deal":
            chosen, passed = [], []
        elif e["kind"] == "pass_choice" and e["seat"] == seat:
            chosen += part_of(e, seat)["cards"]
        elif e["kind"] == "pass" and "passed" in part_of(e, seat):
            mine = part_of(e, seat)
            passed = [mine["passed"], mine["to"], mine["received"], mine["from"]]
    deals = [i for i, e in enumerate(game.events) if e.kind == "deal"]
    tricks = [e.public["cards"] for e in list(game.events)[deals[-1] :] if e.kind == "trick"]
    return view, [chosen, passed], tricks


def test_views_the_log_keeps_equal_a_fresh_scan() -> None:
    """The log keeps each seat's view (and its pass, and the hand's tricks) as events come, so a bot's
    observation does not view the whole log again at every decision: at every step of a match, for
    every seat and the public view, what it keeps is what a scan of the whole log gives, and a reader
    that changes the dicts it was given changes nothing for the next reader; a copy keeps its own."""
    g = Hearts.new(4, seed=21, rules=HeartsRules(target=40))
    rng = random.Random(4)
    viewers = [PUBLIC, *range(4)]
    checked = 0
    while not g.is_over:
        if g.to_move == -1:
            g.next_hand()
            continue
        for v in viewers:
            view, pass_, tricks = _scanned(g, v)
            obs = g.observation(v)
            assert obs["events"] == view
            assert [
                obs["chosen"],
                [obs["passed"], obs["passed_to"], obs["received"], obs["received_from"]]
                if obs["passed_to"] is not None
                else [],
            ] == pass_
            assert [t["cards"] for t in obs["tricks"]] == tricks
            obs["events"][-1]["kind"] = "changed"
            obs["chosen"].append("XX")
            if obs["tricks"]:
                obs["tricks"][-1]["scoring"].append("XX")
            again = g.observation(v)
            assert again["events"] == view and again["chosen"] == pass_[0]
            assert [t["cards"] for t in again["tricks"]] == tricks
            assert all("XX" not in t["scoring"] for t in again["tricks"])
            checked += 1
        g.apply(rng.choice(g.legal_actions()))
        if checked % 97 == 0 and g.phase in ("pass", "play"):  # a copy: its own views, of the same events
            c = g.copy()
            c.apply(c.legal_actions()[-1])
            g.apply(g.legal_actions()[0])
            for game in (g, c):
                assert game.observation(1)["events"] == _scanned(game, 1)[0]
    assert g.hand_no >= 1 and checked > 1000


@pytest.mark.parametrize(
    "n,rules",
    [
        (4, HeartsRules()),
        (3, HeartsRules(jd_bonus=True, qs_breaks_hearts=True)),
        (5, HeartsRules(must_break_hearts=False)),
        (6, HeartsRules(cards_to_pass=1)),
    ],
)
def test_bot_observation_is_the_seats_observation_restricted(n: int, rules: HeartsRules) -> None:
    """What a tournament shows the package's bots (``bot_observation``) is, at every step of a hand and
    for every seat, exactly those keys of that seat's own observation (so it holds nothing the seat
    does not know), and the rule and counting bots read no other key of it."""
    g = Hearts.new(n, seed=n, rules=rules)
    bots = [CountingBot(seed=s, samples=2) if s == 1 else RuleBot(seed=s) for s in range(n)]
    steps = 0
    for _hand in range(2):  # two hands of a match: the second one's pass replaces the first's
        while g.phase in ("pass", "play"):
            for s in range(n):
                full = g.observation(s)
                assert g.bot_observation(s) == {k: full[k] for k in BOT_OBSERVATION_KEYS}
            s = g.to_move
            choice = bots[s].act(g.bot_observation(s))
            assert choice in g.observation(s)["legal"]
            g.apply(choice)
            steps += 1
        assert g.bot_observation(0) == {k: g.observation(0)[k] for k in BOT_OBSERVATION_KEYS}
        g.next_hand()
    assert steps >= 2 * 13 * 3
    for bad in (None, PUBLIC, n, -1):
        with pytest.raises(IllegalAction, match="not a seat"):
            g.bot_observation(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "n,rules", [(4, HeartsRules()), (3, HeartsRules(jd_bonus=True)), (6, HeartsRules(cards_to_pass=1))]
)
def test_observed_tricks_are_the_trick_events_the_seat_saw_this_hand(n: int, rules: HeartsRules) -> None:
    """An observation's ``tricks`` (kept by the game as each trick ends, not read from the log) are, at every
    step and for every seat, the "trick" events of the seat's own log since the last deal: leader, cards in
    playing order, winner, points and the cards that score under the table's rules. Changing the lists an
    observation returns changes no later observation, nor a copy's."""
    g = Hearts.new(n, seed=10 + n, rules=rules)
    bots = [RuleBot(seed=s) for s in range(n)]
    seen = 0
    for _hand in range(2):
        while g.phase in ("pass", "play"):
            for s in range(n):
                obs = g.observation(s)
                events = obs["events"]
                start = max(i for i, e in enumerate(events) if e["kind"] == "deal")
                want = [
                    {
                        "leader": e["cards"][0][0],
                        "cards": e["cards"],
                        "winner": e["winner"],
                        "points": e["points"],
                        "scoring": [c for _, c in e["cards"] if g.scores_points(c)],
                    }
                    for e in events[start:]
                    if e["kind"] == "trick"
                ]
                assert obs["tricks"] == want
                seen += len(want)
            for t in g.bot_observation(0)["tricks"]:  # a bot scribbling on its observation
                t["cards"].clear()
                t["scoring"].append("XX")
                t["winner"] = -1
            twin = g.copy()
            g.apply(bots[g.to_move].act(g.bot_observation(g.to_move)))
            before, after = twin.observation(0)["tricks"], g.observation(0)["tricks"]
            assert after[: len(before)] == before and len(after) - len(before) in (0, 1)
        assert len(g.observation(0)["tricks"]) == hand_size(n)
        g.next_hand()
        assert g.observation(0)["tricks"] == []  # a new deal: none of this hand's yet
    assert seen > 0


def test_layout_cache_serves_equal_rules_made_anew_by_their_own_id() -> None:
    """Equal rules made anew share one layout, found by the new object's id from its second game on
    (the by-value lookup hashes the rules: it once ran for every game of such rules)."""
    from qardlab.games.hearts import layout as hearts_layout

    first, again = HeartsRules(target=777), HeartsRules(target=777)
    table = hearts_layout.layout(4, first)
    assert hearts_layout.layout(4, again) is table
    assert hearts_layout._LAYOUTS[4, id(again)] == (again, table)  # cached by its own id now
    assert Hearts.new(4, seed=3, rules=again)._layout is table
    assert hearts_layout.layout(5, again) is not table  # (another player count, another layout)

"""Every Hearts rule and option of RULES.md, for 3, 4, 5 and 6 players."""

from __future__ import annotations

import random

import pytest

from qardlab.cards import Card, Suit, card_of_index, cards_of_mask
from qardlab.engine import CHANCE, IllegalAction
from qardlab.games.hearts import Deal, Hearts, HeartsRules
from qardlab.games.hearts.batch import simulate
from qardlab.games.hearts.rules import DEFAULT_CYCLES, pass_offset

from .helpers import PLAYERS, QS, deck, expected_legal, make_deal, play_random, points_of, random_pass

REMOVED = {3: {"2D"}, 4: set(), 5: {"2D", "2C"}, 6: {"2D", "3D", "3C", "4C"}}
SIZES = {3: 17, 4: 13, 5: 10, 6: 8}


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_deck_and_hand_sizes(n: int) -> None:
    """Rule (deck): the cards removed and the hand size per player count."""
    g = Hearts.new(n, seed=1)
    assert {c.code for c in deck(n)} == {c.code for c in cards_of_mask((1 << 52) - 1)} - REMOVED[n]
    assert [len(g.hand(s)) for s in range(n)] == [SIZES[n]] * n
    dealt = set().union(*(set(g.hand(s)) for s in range(n)))
    assert {c.code for c in dealt} == {c.code for c in deck(n)}


@pytest.mark.parametrize("bad", [2, 7, 0, "4", None])
def test_rule_player_count_refused(bad) -> None:
    """Rule (players): 3 to 6; anything else is refused naming the count."""
    with pytest.raises(ValueError, match=repr(bad).replace("(", r"\(")):
        Hearts.new(bad)


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_deal_one_at_a_time_from_dealers_left(n: int) -> None:
    """Rule (deal): the shuffled deck is dealt one card at a time clockwise from the dealer's left."""
    seed = 11
    g = Hearts.new(n, seed=seed)
    order = [c.index for c in deck(n)]
    random.Random(seed).shuffle(order)
    dealer = g.dealer
    assert dealer == 0
    for s in range(n):
        expect = sorted(order[k] for k in range(len(order)) if (dealer + 1 + k) % n == s)
        assert [c.index for c in g.hand(s)] == expect


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_deal_moves_clockwise_and_pass_cycle(n: int) -> None:
    """Rule (match): the deal moves one seat clockwise each hand; the pass follows the cycle of the table."""
    g = Hearts.new(n, seed=5, rules=HeartsRules(target=10_000))
    rng = random.Random(5)
    cycle = DEFAULT_CYCLES[n]
    for h in range(2 * len(cycle)):
        assert g.hand_no == h and g.dealer == h % n
        assert g.pass_direction == cycle[h % len(cycle)]
        assert g.phase == ("play" if g.pass_direction == "none" else "pass")
        play_random(g, rng)
        assert g.phase == "hand_over" and g.to_move == CHANCE and not g.is_over
        g.next_hand()


def test_pass_cycles_per_table() -> None:
    """Rule (pass cycle): 3 and 5 players left, right, none; 4 and 6 left, right, across, none."""
    assert DEFAULT_CYCLES[3] == DEFAULT_CYCLES[5] == ("left", "right", "none")
    assert DEFAULT_CYCLES[4] == DEFAULT_CYCLES[6] == ("left", "right", "across", "none")
    assert pass_offset("across", 6) == 3 and pass_offset("across", 4) == 2
    with pytest.raises(ValueError, match="across"):
        HeartsRules(pass_cycle=("across",)).cycle_for(5)


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("direction", ["left", "right", "across"])
def test_rule_pass_chosen_by_all_then_handed_on_together(n: int, direction: str) -> None:
    """Rule (passing): every seat chooses three cards; they change hands together once all have chosen."""
    if direction == "across" and n % 2:
        with pytest.raises(ValueError, match="across"):
            Hearts.from_deal(make_deal(n), pass_direction=direction)
        return
    hands = make_deal(n, seed=3)
    g = Hearts.from_deal(hands, pass_direction=direction)
    off = pass_offset(direction, n)
    chosen = {}
    for s in range(n):
        assert g.phase == "pass" and g.to_move == s
        pick = tuple(hands[s][:3])
        g.apply(pick)
        chosen[s] = set(pick)
        if s < n - 1:  # nothing has moved yet, and no one else sees the choice
            assert all(list(g.hand(t)) == hands[t] for t in range(n))
            other = g.observation((s + 1) % n)
            assert not any(c.code in other["chosen"] + other["received"] for c in pick)
    assert g.phase == "play"
    for s in range(n):
        giver = (s - off) % n
        assert set(g.hand(s)) == (set(hands[s]) - chosen[s]) | chosen[giver]
        obs = g.observation(s)
        assert obs["passed_to"] == (s + off) % n and obs["received_from"] == giver
        assert set(map(Card.parse, obs["received"])) == chosen[giver]


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_pass_one_card_at_a_time(n: int) -> None:
    """Passing card by card (as OpenSpiel does) gives the same result as a tuple of three."""
    hands = make_deal(n, seed=4)
    a = Hearts.from_deal(hands, "left")
    b = Hearts.from_deal(hands, "left")
    for s in range(n):
        a.apply(tuple(hands[s][-3:]))
        for c in hands[s][-3:]:
            assert b.to_move == s
            b.apply(c.code)
    assert [a.hand(s) for s in range(n)] == [b.hand(s) for s in range(n)]


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_lowest_club_leads(n: int) -> None:
    """Rule (lead): the holder of the lowest club in play (the 3 with five players) leads it."""
    g = Hearts.new(n, seed=2)
    random_pass(g, random.Random(2))
    low = Card.parse("3C" if n == 5 else "2C")
    assert g.opening_card == low
    assert low in g.hand(g.to_move)
    assert g.legal_actions() == [low]
    other = next(c for c in g.hand(g.to_move) if c != low)
    before = g.record().to_json()
    with pytest.raises(IllegalAction, match=f"must lead it.*legal: {low}"):
        g.apply(other)
    assert g.record().to_json() == before


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_legal_plays_match_a_plain_reading(n: int) -> None:
    """Rules (follow suit, first trick, hearts breaking): at every play of many random hands the
    legal cards equal a plain restatement of RULES.md over Card objects."""
    rng = random.Random(n)
    checked = 0

    def check(game: Hearts) -> None:
        nonlocal checked
        assert set(game.legal_actions()) == expected_legal(game)
        checked += 1

    for seed in range(25):
        for kw in (
            {},
            {"qs_breaks_hearts": True},
            {"must_break_hearts": False},
            {"no_pts_on_first_trick": False},
        ):
            play_random(Hearts.new(n, seed=seed, rules=HeartsRules(**kw)), rng, each=check)
    assert checked > 100 * 25 * 4 // 4


def _find(n: int, pred, seeds=range(400), **kw) -> Hearts:
    """The first position of a random hand where ``pred(game)`` holds."""
    rng = random.Random(0)
    for seed in seeds:
        g = Hearts.new(n, seed=seed, rules=HeartsRules(**kw))
        random_pass(g, rng)
        while g.phase == "play":
            if pred(g):
                return g
            g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("no such position found")


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_follow_suit(n: int) -> None:
    """Rule (follow suit): a seat holding the suit led must play it."""

    def pred(g: Hearts) -> bool:
        if not g.trick:
            return False
        lead = g.trick[0][1].suit
        return any(c.suit == lead for c in g.hand(g.to_move)) and any(
            c.suit != lead for c in g.hand(g.to_move)
        )

    g = _find(n, pred)
    lead = g.trick[0][1].suit
    assert all(c.suit == lead for c in g.legal_actions())
    off = next(c for c in g.hand(g.to_move) if c.suit != lead)
    before = g.record().to_json()
    with pytest.raises(IllegalAction, match="must follow suit"):
        g.apply(off)
    assert g.record().to_json() == before


def _first_trick_deal(n: int, only_points: bool) -> list:
    """Seat 0 holds the lowest club; seat 1 holds no club, the Queen of spades and hearts, and
    (unless ``only_points``) other safe cards."""
    low = "3C" if n == 5 else "2C"
    size = len(make_deal(n)[0])
    hearts = [r + "H" for r in "23456789TJQKA"]
    if only_points:
        seat1 = ["QS"] + hearts[: size - 1]
    else:
        safe = [c.code for c in deck(n) if c.suit in (Suit.DIAMONDS, Suit.SPADES) and c != QS]
        seat1 = ["QS", "2H", "3H"] + safe[: size - 3]
    rest = [c.code for c in deck(n) if c.code not in seat1 and c.code != low]
    seat0 = [low] + rest[: size - 1]
    return make_deal(n, {0: seat0, 1: seat1})


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_first_trick_no_points(n: int) -> None:
    """Rule (first trick): no heart nor Queen of spades on the first trick while holding another card."""
    g = Hearts.from_deal(_first_trick_deal(n, only_points=False), "none")
    g.apply(g.opening_card)
    assert g.to_move == 1
    legal = g.legal_actions()
    assert legal and all(c.suit != Suit.HEARTS and c != QS for c in legal)
    for bad in ("QS", "2H"):
        with pytest.raises(IllegalAction, match="first trick"):
            g.apply(bad)
    # with the option off, anything goes when void
    g2 = Hearts.from_deal(
        _first_trick_deal(n, only_points=False), "none", rules=HeartsRules(no_pts_on_first_trick=False)
    )
    g2.apply(g2.opening_card)
    assert set(g2.legal_actions()) == set(g2.hand(1))
    g2.apply("QS")


@pytest.mark.parametrize("n", [4, 5, 6])
def test_rule_first_trick_points_when_nothing_else(n: int) -> None:
    """Rule (first trick): a hand of nothing but hearts and the Queen may play them.
    (Three players hold 17 cards, more than the 14 point cards, so this cannot arise.)"""
    g = Hearts.from_deal(_first_trick_deal(n, only_points=True), "none")
    g.apply(g.opening_card)
    assert set(g.legal_actions()) == set(g.hand(1))
    g.apply("QS")
    assert not g.hearts_broken  # the Queen does not break hearts by default


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_hearts_not_led_until_broken(n: int) -> None:
    """Rule (breaking): hearts may not be led until a heart has been played on an earlier trick."""

    def pred(g: Hearts) -> bool:
        hand = g.hand(g.to_move)
        return (
            not g.trick
            and not g.first_trick
            and not g.hearts_broken
            and any(c.suit == Suit.HEARTS for c in hand)
            and any(c.suit != Suit.HEARTS for c in hand)
        )

    g = _find(n, pred)
    assert all(c.suit != Suit.HEARTS for c in g.legal_actions())
    heart = next(c for c in g.hand(g.to_move) if c.suit == Suit.HEARTS)
    before = g.record().to_json()
    with pytest.raises(IllegalAction, match="hearts may not be led"):
        g.apply(heart)
    assert g.record().to_json() == before
    # option must_break_hearts=False: the same position allows it
    free = Hearts.replay(g.history, n, {"rules": HeartsRules(must_break_hearts=False)}, g.seed)
    assert heart in free.legal_actions()


@pytest.mark.parametrize("n", [4, 5, 6])
def test_rule_may_lead_hearts_holding_only_hearts(n: int) -> None:
    """Rule (breaking): a hand of only hearts may lead one before hearts are broken.
    Seat 1 holds the Ace of clubs and hearts only, wins the first trick and must lead a heart."""
    size = len(make_deal(n)[0])
    seat1 = ["AC"] + [r + "H" for r in "23456789TJQKA"][: size - 1]
    g = Hearts.from_deal(make_deal(n, {1: seat1}, seed=1), "none")
    while g.first_trick:
        g.apply("AC" if g.to_move == 1 else g.legal_actions()[0])
    assert g.to_move == 1 and not g.hearts_broken
    assert set(g.legal_actions()) == set(g.hand(1))


@pytest.mark.parametrize("n", PLAYERS)
def test_option_qs_breaks_hearts(n: int) -> None:
    """Option qs_breaks_hearts: playing the Queen of spades breaks hearts (off by default)."""

    def pred(g: Hearts) -> bool:
        return not g.hearts_broken and QS in g.legal_actions() and not g.first_trick

    for on in (False, True):
        g = _find(n, pred, qs_breaks_hearts=on)
        g.apply(QS)
        assert g.hearts_broken is on


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_highest_card_of_suit_led_takes_trick(n: int) -> None:
    """Rule (trick): the highest card of the suit led takes the trick and leads next."""
    rng = random.Random(n)
    tricks = 0
    for seed in range(20):
        g = play_random(Hearts.new(n, seed=seed), rng)
        for e in g.events:
            if e.kind == "trick":
                cards = [(s, Card.parse(c)) for s, c in e.public["cards"]]
                lead = cards[0][1].suit
                assert e.public["winner"] == max((c.rank, s) for s, c in cards if c.suit == lead)[1]
                tricks += 1
        plays = [e for e in g.events if e.kind in ("play", "trick")]
        for a, b in zip(plays, plays[1:]):
            if a.kind == "trick" and b.kind == "play":
                assert b.public["seat"] == a.public["winner"]
    assert tricks == 20 * SIZES[n]


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_scoring_hearts_and_queen(n: int) -> None:
    """Rule (scoring): each heart taken is 1 point, the Queen of spades 13 (no moon: raw points)."""
    rng = random.Random(n)
    for seed in range(30):
        g = play_random(Hearts.new(n, seed=seed), rng)
        if g.moon_shooter is None:
            assert g.hand_points == [points_of(g.taken(s)) for s in range(n)]
        assert sum(points_of(g.taken(s)) for s in range(n)) == 26
        assert sorted(c for s in range(n) for c in g.taken(s)) == deck(n)


def _moon_hand(n: int):
    result = simulate(3000, n, seed=n)
    i = next(i for i in range(len(result)) if (result.raw[i] == 26).any())
    return result, i


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("mode", ["add_to_others", "subtract_from_shooter", "shooter_chooses"])
def test_rule_shooting_the_moon(n: int, mode: str) -> None:
    """Rule (moon): taking all hearts and the Queen: shooter 0, others 26 (option moon: or shooter -26,
    or the shooter's choice, which in a lone hand adds)."""
    result, i = _moon_hand(n)
    g = result.replay(i, rules=HeartsRules(moon=mode))
    shooter = int(result.raw[i].argmax())
    assert g.moon_shooter == shooter
    if mode == "subtract_from_shooter":
        assert g.hand_points == [-26 if s == shooter else 0 for s in range(n)]
    else:
        assert g.hand_points == [0 if s == shooter else 26 for s in range(n)]


def test_option_shooter_chooses_in_a_match() -> None:
    """Option moon="shooter_chooses": when adding 26 to the others would end the match with the
    shooter losing, 26 is subtracted from the shooter instead; otherwise it adds."""
    result, i = _moon_hand(4)
    shooter = int(result.raw[i].argmax())
    direction = result.directions[i]
    hands = [cards_of_mask(int(m)) for m in result.deals[i]]
    for late, expect in (
        (True, [-26 if s == shooter else 0 for s in range(4)]),
        (False, [0 if s == shooter else 26 for s in range(4)]),
    ):
        g = Hearts(4, {"rules": HeartsRules(moon="shooter_chooses", pass_cycle=(direction,))}, seed=1)
        if late:  # adding 26 would end the match with another seat below the shooter
            g.scores = [95 if s == shooter else 60 if s == (shooter + 1) % 4 else 80 for s in range(4)]
        g.apply(Deal(hands))
        while g.phase == "pass":
            g.apply(tuple(cards_of_mask(int(result.passes[i, g.to_move]))))
        for idx in result.plays[i]:
            g.apply(card_of_index(int(idx)))
        assert g.moon_shooter == shooter
        assert g.hand_points == expect


@pytest.mark.parametrize("n", PLAYERS)
def test_option_jd_bonus(n: int) -> None:
    """Option jd_bonus: the Jack of diamonds scores -10 for whoever takes it, moon or not."""
    rng = random.Random(n)
    jd = Card.parse("JD")
    for seed in range(20):
        g = play_random(Hearts.new(n, seed=seed, rules=HeartsRules(jd_bonus=True)), rng)
        plain = Hearts.replay(g.history, n, {"rules": HeartsRules()}, g.seed)
        taker = next(s for s in range(n) if jd in g.taken(s))
        assert g.hand_points == [p - 10 * (s == taker) for s, p in enumerate(plain.hand_points)]


@pytest.mark.parametrize("n", PLAYERS)
def test_rule_match_to_target_lowest_wins(n: int) -> None:
    """Rule (match): it ends after the hand in which someone reaches the target; the lowest total wins."""
    rng = random.Random(n)
    g = play_random(Hearts.new(n, seed=n, rules=HeartsRules(target=60)), rng, until="match")
    assert g.phase == "match_over" and g.is_over and g.to_move is None
    totals = [0] * n
    for h, pts in enumerate(g.hand_history):
        totals = [a + b for a, b in zip(totals, pts)]
        assert (max(totals) >= 60) == (h == len(g.hand_history) - 1)
    assert totals == g.scores
    assert set(g.winners) == {s for s in range(n) if g.scores[s] == min(g.scores)}
    with pytest.raises(IllegalAction):
        g.next_hand()


def test_rule_shared_win_on_a_tie() -> None:
    """Rule (match): a tie for the lowest total is a shared win."""
    rng = random.Random(1)
    for seed in range(300):
        g = play_random(Hearts.new(4, seed=seed, rules=HeartsRules(target=20)), rng, until="match")
        if len(g.winners) > 1:
            assert all(g.scores[w] == min(g.scores) for w in g.winners)
            assert "win" in g.describe(g.events[-1], 0)
            return
    raise AssertionError("no tie found in 300 short matches")


@pytest.mark.parametrize("n", PLAYERS)
def test_option_cards_to_pass_and_pass_cycle(n: int) -> None:
    """Options cards_to_pass and pass_cycle: pass 2 cards to the right every hand; 0 cards: no pass."""
    rules = HeartsRules(cards_to_pass=2, pass_cycle=("right",))
    g = Hearts.new(
        n,
        seed=3,
        rules=rules,
    )
    assert g.pass_direction == "right"
    with pytest.raises(IllegalAction, match="a pass is 2 cards"):
        g.apply(tuple(g.legal_actions()[:3]))
    random_pass(g, random.Random(0))
    assert g.phase == "play"
    received = g.observation(0)["received"]
    assert len(received) == 2 and g.observation(0)["received_from"] == 1
    g0 = Hearts.new(n, seed=3, rules=HeartsRules(cards_to_pass=0))
    assert g0.phase == "play"


def test_rules_options_round_trip_and_refuse_bad_values() -> None:
    """HeartsRules: to_dict/from_dict round-trip; bad values are refused naming them."""
    r = HeartsRules(jd_bonus=True, moon="subtract_from_shooter", target=50, pass_cycle=("left", "none"))
    assert HeartsRules.from_dict(r.to_dict()) == r
    with pytest.raises(ValueError, match="moonwalk"):
        HeartsRules(moon="moonwalk")
    with pytest.raises(ValueError, match="sideways"):
        HeartsRules(pass_cycle=("sideways",))
    with pytest.raises(ValueError, match="speed"):
        HeartsRules.from_dict({"speed": 3})
    with pytest.raises(ValueError, match="-5"):
        HeartsRules(target=-5)


@pytest.mark.parametrize("bad", ["abcd", 5, ["Ann", "Ben", "Cat"], ["Ann", "Ben", "Cat", 4]])
def test_names_option_refuses_anything_but_one_string_per_seat(bad) -> None:
    """Seat names are a list of one string per seat; a bare string is not split into letters."""
    with pytest.raises(ValueError, match="names must be 4 non-empty strings"):
        Hearts.new(4, seed=1, names=bad)
    names = ("Ann", "Ben", "Cat", "Dan")
    assert Hearts.new(4, seed=1, names=names).options["names"] == list(names)

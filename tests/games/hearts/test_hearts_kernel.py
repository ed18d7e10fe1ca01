"""The Hearts rules kernel (``qardlab.games.hearts.rules``): one test per function, each naming the rule
of RULES.md it checks; the step engine agrees with the kernel at every decision; the engine's fast path
ends where the general path ends; nothing outside an event log touches its private list."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from qardlab.cards import ALL_CARDS, SUIT_MASKS, Card, Suit, mask_of
from qardlab.engine import Game, Record
from qardlab.games.five_sons import FiveSons
from qardlab.games.hearts import Hearts, HeartsRules
from qardlab.games.hearts import rules as K

from .helpers import PLAYERS, expected_legal, play_random

ROOT = Path(__file__).resolve().parents[3]


def m(codes: str) -> int:
    return mask_of(codes.split())


def test_rule_deck_hand_size_and_opening_card() -> None:
    """Rule (deck) and Rule (play): the cards removed per player count, each seat's share, and the lowest
    club in play (2C, or 3C with five players) that opens the hand."""
    assert [K.hand_size(n) for n in PLAYERS] == [17, 13, 10, 8]
    assert K.deck_mask(4) == (1 << 52) - 1
    assert not K.deck_mask(6) & m("2D 3D 3C 4C") and K.deck_mask(6).bit_count() == 48
    assert [Card.parse(c) for c in ("2C", "2C", "3C", "2C")] == [
        ALL_CARDS[K.opening_bit(n).bit_length() - 1] for n in PLAYERS
    ]


def test_rule_scoring_points_of_cards() -> None:
    """Rule (scoring): each heart taken is 1 point, the Queen of spades 13; every other card 0; all of
    them are the 26 points of shooting the moon."""
    assert K.points_of(m("2H AH QS KS JD")) == 15
    assert K.points_of(0) == 0 and K.points_of(K.HEARTS_MASK | K.QS_BIT) == K.MOON_POINTS == 26
    cards = map(Card.parse, ("TH", "QS", "KS", "QH", "2C"))
    assert [K.card_points(c.index) for c in cards] == [1, 13, 0, 1, 0]
    assert sum(K.POINTS) == K.MOON_POINTS


def test_option_jd_bonus_scores_points() -> None:
    """Option jd_bonus: the Jack of diamonds counts as a scoring card only with the option on."""
    assert K.scores_points(Card.parse("5H").bit) and K.scores_points(K.QS_BIT)
    assert not K.scores_points(K.JD_BIT) and K.scores_points(K.JD_BIT, HeartsRules(jd_bonus=True))
    assert not K.scores_points(Card.parse("KS").bit, HeartsRules(jd_bonus=True))


def test_option_qs_breaks_hearts_break_mask() -> None:
    """Rule (play), option qs_breaks_hearts: a heart played breaks hearts; the Queen of spades only with
    the option."""
    assert K.break_mask() == K.HEARTS_MASK
    assert K.break_mask(HeartsRules(qs_breaks_hearts=True)) == K.HEARTS_MASK | K.QS_BIT


def test_rule_lead_mask_first_trick_and_hearts_not_led_until_broken() -> None:
    """Rule (play): the holder of the lowest club leads it; hearts may not be led until broken (option
    must_break_hearts), after which anything may be led."""
    assert K.lead_mask(True, False, 5) == Card.parse("3C").bit
    assert K.lead_mask(False, False, 4) == ~K.HEARTS_MASK
    assert K.lead_mask(False, True, 4) == -1
    assert K.lead_mask(False, False, 4, HeartsRules(must_break_hearts=False)) == -1


def test_rule_discard_mask_no_points_on_first_trick() -> None:
    """Rule (play), option no_pts_on_first_trick: no heart nor the Queen of spades on the first trick
    (unless nothing else is held); later, or with the option off, any card."""
    assert K.discard_mask(True) == ~K.POINT_MASK
    assert K.discard_mask(False) == -1
    assert K.discard_mask(True, HeartsRules(no_pts_on_first_trick=False)) == -1


def test_rule_legal_mask_follow_suit_discard_and_lead() -> None:
    """Rule (play): follow suit if you can; void, play anything but a point card on the first trick
    (unless nothing else); lead no heart before hearts are broken unless holding only hearts."""
    hand = m("2C 9C 4D QS 5H")
    assert K.legal_mask(hand, Suit.CLUBS, False, False, 4) == m("2C 9C")
    assert K.legal_mask(hand, Suit.SPADES, True, False, 4) == m("QS")
    assert K.legal_mask(m("2C 4D 5H QS"), Suit.SPADES, False, False, 4) == m("QS")
    assert K.legal_mask(m("4D QS 5H"), Suit.CLUBS, True, False, 4) == m("4D")
    assert K.legal_mask(m("QS 5H"), Suit.CLUBS, True, False, 4) == m("QS 5H")  # nothing else
    assert K.legal_mask(m("4D QS 5H"), Suit.CLUBS, False, False, 4) == m("4D QS 5H")
    assert K.legal_mask(hand, None, True, False, 4) == m("2C")
    assert K.legal_mask(hand, None, False, False, 4) == m("2C 9C 4D QS")
    assert K.legal_mask(hand, None, False, True, 4) == hand
    assert K.legal_mask(m("5H AH"), None, False, False, 4) == m("5H AH")  # only hearts


def test_rule_playable_must_then_may_then_any() -> None:
    """Rule (play), from the masks of the moment: the cards of ``must`` if the seat holds any (the suit
    led; for a lead, the lead mask), else those of ``may`` (the discard mask; for a lead, any card), else
    any card; ``legal_mask`` is ``playable`` with the masks of a position."""
    hand = m("2C 9C 4D QS 5H")
    clubs, spades = SUIT_MASKS[Suit.CLUBS], SUIT_MASKS[Suit.SPADES]
    assert K.playable(hand, clubs, K.discard_mask(True)) == m("2C 9C")  # follow suit
    assert K.playable(m("4D QS 5H"), clubs, K.discard_mask(True)) == m("4D")  # void: no points
    assert K.playable(m("QS 5H"), clubs, K.discard_mask(True)) == m("QS 5H")  # nothing else
    assert K.playable(m("4D QS 5H"), clubs, K.discard_mask(False)) == m("4D QS 5H")
    assert K.playable(hand, K.lead_mask(False, False, 4), -1) == m("2C 9C 4D QS")  # no heart led
    assert K.playable(m("5H AH"), K.lead_mask(False, False, 4), -1) == m("5H AH")  # only hearts
    rng = random.Random(4)
    for _ in range(300):
        h = mask_of(rng.sample(ALL_CARDS, 6))
        for led in (None, *Suit):
            first, broken = rng.random() < 0.5, rng.random() < 0.5
            if led is None:
                want = K.playable(h, K.lead_mask(first, broken, 4), -1)
            else:
                want = K.playable(h, SUIT_MASKS[led], K.discard_mask(first))
            assert K.legal_mask(h, led, first, broken, 4) == want
    assert K.playable(spades & m("QS"), spades, -1) == m("QS")


def test_rule_refusal_says_why_a_held_card_is_refused() -> None:
    """Rule (play): a card held but not playable is refused because the first lead is the lowest club
    ("opening"), no heart is led before hearts are broken ("unbroken"), the seat holds the suit led
    ("follow"), or it is void but may throw no point on the first trick ("first_trick")."""
    clubs = SUIT_MASKS[Suit.CLUBS]
    assert K.refusal(m("2C 5H"), 0, True) == "opening"
    assert K.refusal(m("3C 5H"), 0, False) == "unbroken"
    assert K.refusal(m("3C 5H"), clubs, False) == "follow"
    assert K.refusal(m("4D QS 5H"), clubs, True) == "first_trick"


def test_rule_trick_winner_highest_card_of_suit_led() -> None:
    """Rule (trick): the highest card of the suit led takes the trick, whatever else is played; seats
    count on from the leader, round the table."""
    bits = [Card.parse(c).bit for c in ("TC", "AH", "QC", "2C")]
    assert K.trick_winner(bits, 0, 4) == 2
    assert K.trick_winner(bits, 3, 4) == 1  # led by seat 3: the Queen was played by seat 1
    assert K.trick_winner([Card.parse(c).bit for c in ("4D", "AS", "KS")], 1, 3) == 1  # no one followed


def test_rule_pass_hands_change_together() -> None:
    """Rule (passing): the chosen cards change hands together, each seat's to the seat the direction names."""
    hands = [m("2C 3C 4C 5C"), m("2D 3D 4D 5D"), m("2H 3H 4H 5H"), m("2S 3S 4S 5S")]
    chosen = [m("2C"), m("2D"), m("2H"), m("2S")]
    left = K.pass_hands(hands, chosen, K.pass_offset("left", 4))
    assert left[1] == m("2C 3D 4D 5D") and left[0] == m("2S 3C 4C 5C")
    right = K.pass_hands(hands, chosen, K.pass_offset("right", 4))
    assert right[0] == m("2D 3C 4C 5C")
    across = K.pass_hands(hands, chosen, K.pass_offset("across", 4))
    assert across[0] == m("2H 3C 4C 5C") and across[2] == m("2C 3H 4H 5H")


@pytest.mark.parametrize("mode", ["add_to_others", "subtract_from_shooter"])
def test_rule_score_hand_and_shooting_the_moon(mode: str) -> None:
    """Rule (scoring): the points taken; taking every heart and the Queen shoots the moon (option moon:
    0 for the shooter and 26 for the others, or -26 for the shooter); option jd_bonus: -10 for the Jack."""
    plain = K.score_hand([m("2H 3H"), m("QS JD"), 0, m("4H")], HeartsRules(moon=mode))
    assert plain == K.HandScore([2, 13, 0, 1], [2, 13, 0, 1], None, None)
    moon = K.score_hand([K.HEARTS_MASK | K.QS_BIT, m("JD"), 0, 0], HeartsRules(moon=mode, jd_bonus=True))
    assert moon.raw == [26, 0, 0, 0] and moon.shooter == 0 and moon.mode == mode
    expect = [0, 26, 26, 26] if mode == "add_to_others" else [-26, 0, 0, 0]
    assert moon.final == [expect[0], expect[1] - 10, *expect[2:]]


def test_option_shooter_chooses_moon_choice() -> None:
    """Option moon="shooter_chooses": adding 26 to the others, unless that ends the match with the shooter
    not among the winners and subtracting would not."""
    r = HeartsRules(moon="shooter_chooses", target=100)
    assert K.moon_choice(0, [10, 20, 30, 40], r) == "add_to_others"
    assert K.moon_choice(0, [90, 70, 80, 60], r) == "subtract_from_shooter"  # 86 would end it, shooter 90
    assert K.moon_choice(0, [90, 70, 80, 60], r, single=True) == "add_to_others"
    moon = K.score_hand([K.HEARTS_MASK | K.QS_BIT, 0, 0, 0], r, [90, 70, 80, 60], False)
    assert moon.final == [-26, 0, 0, 0] and moon.mode == "subtract_from_shooter"


def test_rule_moon_mode_points_and_bonuses() -> None:
    """Option moon: a moon scores by the option; "shooter_chooses" is moon_choice (a lone hand adds); the
    scores of each mode; option jd_bonus: the Jack of diamonds is the one bonus card, -10 to its taker."""
    assert K.moon_mode(0, [0] * 4, HeartsRules(moon="subtract_from_shooter")) == "subtract_from_shooter"
    chooses = HeartsRules(moon="shooter_chooses")
    assert K.moon_mode(0, [90, 70, 80, 60], chooses) == "subtract_from_shooter"
    assert K.moon_mode(0, [90, 70, 80, 60], chooses, single=True) == "add_to_others"
    assert K.moon_points("add_to_others") == (0, 26) and K.moon_points("subtract_from_shooter") == (-26, 0)
    with pytest.raises(ValueError, match="'sideways'"):
        K.moon_points("sideways")
    assert K.bonuses() == () and K.bonuses(HeartsRules(jd_bonus=True)) == ((K.JD_BIT, -10),)


def test_rule_match_over_and_shared_win() -> None:
    """Rule (match): the match ends after the hand in which someone reaches the target (100); the lowest
    total wins, a tie for lowest is a shared win."""
    assert not K.match_over([99, 0, 0, 0]) and K.match_over([100, 0, 0, 0])
    assert K.match_over([50, 3], target=50)
    assert K.match_winners([100, 20, 35, 20]) == (1, 3) and K.match_winners([5, 9, 7]) == (0,)


def test_cards_keep_index_and_bit() -> None:
    """Every card's index and bit (computed once, read by the engines): suit * 13 + rank - 2, its bit."""
    for i, c in enumerate(ALL_CARDS):
        assert c.index == i and c.bit == 1 << i and c.bit & SUIT_MASKS[c.suit]
    assert Card(Suit.SPADES, 12).index == Card.parse("QS").index and Card(Suit.SPADES, 12) == Card.parse("QS")


# -- the step engine agrees with the kernel ---------------------------------------------------
OPTION_SETS = [
    HeartsRules(),
    HeartsRules(no_pts_on_first_trick=False, must_break_hearts=False),
    HeartsRules(qs_breaks_hearts=True, jd_bonus=True, moon="subtract_from_shooter"),
]


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("r", range(len(OPTION_SETS)))
def test_rule_engine_legal_cards_are_the_kernels(n: int, r: int) -> None:
    """Rule (play): at every decision of seeded random hands, the engine's legal cards are the kernel's
    ``legal_mask`` of the mover's hand (and a plain reading of RULES.md), and the last trick's taker is
    the kernel's ``trick_winner``."""
    rules = OPTION_SETS[r]
    for seed in range(3):
        g = Hearts.new(n, seed=seed, rules=rules)

        def check(game: Hearts) -> None:
            trick = game.trick
            led = trick[0][1].suit if trick else None
            want = K.legal_mask(game.hand_mask(game.to_move), led, game.first_trick, game._broken, n, rules)
            assert game.legal_mask() == want == mask_of(expected_legal(game))
            assert mask_of(game.legal_actions()) == want

        play_random(g, random.Random(seed), each=check)
        tricks = [e for e in g.events if e.kind == "trick"]
        for e in tricks:
            bits = [Card.parse(c).bit for _, c in e.public["cards"]]
            assert K.trick_winner(bits, e.public["cards"][0][0], n) == e.public["winner"]
        assert g.hand_history[-1] == K.score_hand(g._taken, rules).final


# -- the engine's fast path ------------------------------------------------------------------
def _general(game: Hearts) -> Hearts:
    """``game`` with the fused step off: every action takes the engine's general path."""
    game.__dict__["_step_fast"] = lambda action: False  # hides the hook: the engine's general path only
    return game


def _count_general(game: Hearts) -> list[Any]:
    """The actions ``game.apply`` hands to the engine's general path from now on (a list that grows)."""
    taken: list[Any] = []
    general = Game._apply_general

    def spy(action: Any) -> Hearts:
        taken.append(action)
        return general(game, action)  # type: ignore[return-value]

    game.__dict__["_apply_general"] = spy  # the instance's attribute hides the method
    return taken


@pytest.mark.parametrize("n", PLAYERS)
def test_fast_path_ends_where_the_general_path_ends(n: int) -> None:
    """Hearts' fast-path hook fuses its commonest steps: a match played through it and the same actions played
    through the engine's validate, record and do alone give the same history, log, observations and
    scores; the same holds for cards given as codes (which the fused step leaves to the general one)."""
    g = Hearts.new(n, seed=3, rules=HeartsRules(target=60))
    slow = _general(Hearts.new(n, seed=3, rules=g.rules))
    general = _count_general(g)
    rng = random.Random(n)
    steps = 0
    while not g.is_over:
        if g.to_move == -1:
            g.next_hand()
            slow.next_hand()
            continue
        legal = g.legal_actions()
        action = tuple(rng.sample(legal, g.rules.cards_to_pass)) if g.phase == "pass" else rng.choice(legal)
        if rng.random() < 0.2 and g.phase == "play":
            action = action.code  # a code: normalised by the general path
        g.apply(action)
        slow.apply(action)
        steps += 1
        if steps % 17 == 0:
            seat = g.to_move if g.to_move is not None and g.to_move >= 0 else 0
            assert g.observation(seat) == slow.observation(seat)
    assert g.history == slow.history and list(g.events) == list(slow.events)
    assert steps - len(general) > 50 and len(general) > 10  # both paths were taken
    assert all(type(a) is str for a in general)  # only the codes took the general path
    assert g.scores == slow.scores and g.winners == slow.winners
    assert all(type(a) is not str for a in g.history)  # every recorded play is a Card
    assert Record.of(g).replay().scores == g.scores


def test_fast_path_refuses_what_the_rules_refuse() -> None:
    """A Card the mover may not play, or one asked for before its legal cards were computed, takes the
    general path: the refusal is the rules' (IllegalAction naming the rule), and the game is unchanged."""
    from qardlab.engine import IllegalAction

    game = Hearts.new(4, seed=2)
    while game.phase == "pass":
        game.apply(tuple(game.legal_actions()[:3]))
    seat = game.to_move
    other = next(c for c in game.hand(seat) if c != game.opening_card)
    before = (list(game.history), len(game.events))
    general = _count_general(game)
    with pytest.raises(IllegalAction, match="must lead it"):
        game.apply(other)
    assert general == [other]  # never validated by the fused step
    assert (list(game.history), len(game.events)) == before
    game.apply(game.opening_card)
    assert general == [other]  # (the refusal computed the legal cards: the fused step takes it)
    assert game.history[-1] is game.opening_card and game.trick[0][1] == game.opening_card


def test_five_sons_has_no_fast_path() -> None:
    """Five Sons keeps the engine's general path (the base hook, which declines everything)."""
    assert FiveSons._step_fast is Game._step_fast and FiveSons.apply is Game.apply
    assert not Game._step_fast(FiveSons.new(4, seed=1), object())
    # the order validate, record, do is written once: Hearts fuses its step through the hook, and no game
    # overrides apply
    assert Hearts.apply is Game.apply and Hearts._step_fast is not Game._step_fast


# -- the event log's private list --------------------------------------------------------------
def test_nothing_outside_an_event_log_touches_its_private_list() -> None:
    """Only the event log classes (``engine/events.py``, ``games/hearts/log.py``) read or write
    ``_events``; the game records through the log's methods (``HeartsLog.deal``, ``pass_choice``...)."""
    allowed = {ROOT / "qardlab" / "engine" / "events.py", ROOT / "qardlab" / "games" / "hearts" / "log.py"}
    offenders = []
    for folder in ("qardlab", "benchmarks", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path in allowed:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            offenders += [
                f"{path.relative_to(ROOT)}:{node.lineno}"
                for node in ast.walk(tree)
                if isinstance(node, ast.Attribute) and node.attr == "_events"
            ]
    assert offenders == []
    # and the API is enough: a game's log is built from recorded entries only
    g = Hearts.new(4, seed=1)
    play_random(g, random.Random(0))
    assert [e.kind for e in g.events][:2] == ["deal", "pass_choice"] and g.events[-1].kind == "hand_over"


# -- words -------------------------------------------------------------------------------------
def test_words_one_winner_wins_several_win() -> None:
    """The match's end in words: "Bob wins." for one winner, "Carol and Frank win." for several; a hand
    without a pass says so."""
    names = ["Alice", "Bob", "Carol", "Dave"]
    over = {"kind": "hand_over", "step": 60, "points": [1, 0, 5, 20], "moon": None}
    words = Hearts.describe_event  # the game's one words function, a class method: no game needed
    assert words({**over, "winners": [1]}, None, names).endswith("; Bob wins.")
    assert words({**over, "winners": [1, 2]}, None, names).endswith("; Bob and Carol win.")
    assert words({**over, "winners": [0, 1, 2]}, None, names).endswith("; Alice, Bob and Carol win.")
    deal = {"kind": "deal", "step": 0, "hand": 3, "dealer": 3, "pass_direction": "none"}
    assert words(deal, None, names) == "Hand 4: Dave deals; no cards are passed."
    trick = {"kind": "trick", "step": 4, "winner": 0, "points": 1}
    assert words(trick, 2, names) == "Alice takes the trick (1 point)."


def test_rng_is_made_at_the_first_draw_with_the_seeded_state() -> None:
    """``Game.rng`` is ``random.Random(seed)``, made when first drawn from: a hand from a given deal
    never makes one (a seedless Random costs ~20 us), and a copy continues the original's draws."""
    g = Hearts(4, {}, 11)
    assert g._rng is None and g.rng.getstate() == random.Random(11).getstate()
    dealt = Hearts.new(4, seed=11)
    assert dealt.history[0] == g.chance_outcome()  # the same first deal, drawn lazily or not
    lone = Hearts.from_deal([list(h) for h in dealt.history[0].hands])
    assert lone._rng is None
    copy = dealt.copy()
    assert copy.rng is not dealt.rng and [copy.rng.random() for _ in range(3)] == [
        dealt.rng.random() for _ in range(3)
    ]

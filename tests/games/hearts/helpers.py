"""Helpers for the Hearts tests: built deals, random play, a plain restatement of the rules."""

from __future__ import annotations

import random
from typing import Callable, Iterable, Optional

from qardlab.cards import Card, Suit, cards_of_mask
from qardlab.games.hearts import Hearts, HeartsRules
from qardlab.games.hearts.rules import deck_mask, hand_size

QS = Card.parse("QS")
PLAYERS = (3, 4, 5, 6)


def deck(n: int) -> list[Card]:
    return cards_of_mask(deck_mask(n))


def make_deal(n: int, fixed: Optional[dict[int, Iterable[str]]] = None, seed: int = 0) -> list[list[Card]]:
    """Hands for n seats: ``fixed`` seats get exactly those cards (a full hand), the others a
    seeded random share of the rest."""
    fixed = {s: [Card.parse(c) for c in cards] for s, cards in (fixed or {}).items()}
    size = hand_size(n)
    for s, cards in fixed.items():
        assert len(cards) == size, f"seat {s} needs {size} cards, given {len(cards)}"
    used = {c for cards in fixed.values() for c in cards}
    rest = [c for c in deck(n) if c not in used]
    random.Random(seed).shuffle(rest)
    hands = []
    for s in range(n):
        if s in fixed:
            hands.append(sorted(fixed[s]))
        else:
            hands.append(sorted(rest[:size]))
            rest = rest[size:]
    return hands


def random_pass(game: Hearts, rng: random.Random) -> None:
    """Every seat passes random cards (if the hand has a pass)."""
    while game.phase == "pass":
        game.apply(tuple(rng.sample(game.legal_actions(), game.rules.cards_to_pass)))


def play_random(
    game: Hearts, rng: random.Random, each: Optional[Callable[[Hearts], None]] = None, until: str = "hand"
) -> Hearts:
    """Play random legal actions to the end of the hand (or match); ``each(game)`` before every play."""
    while not game.is_over and (until == "match" or game.phase in ("pass", "play")):
        if game.to_move == -1:
            game.next_hand()
            continue
        if game.phase == "pass":
            random_pass(game, rng)
            continue
        if each is not None:
            each(game)
        game.apply(rng.choice(game.legal_actions()))
    return game


def expected_legal(game: Hearts) -> set[Card]:
    """The legal plays by a plain reading of RULES.md, over Card objects (independent of the engine)."""
    rules = game.rules
    hand = set(game.hand(game.to_move))
    trick = game.trick
    first_trick = game.first_trick
    if not trick:
        if first_trick:
            return {game.opening_card}
        non_hearts = {c for c in hand if c.suit != Suit.HEARTS}
        if rules.must_break_hearts and not game.hearts_broken and non_hearts:
            return non_hearts
        return hand
    lead = trick[0][1].suit
    follow = {c for c in hand if c.suit == lead}
    if follow:
        return follow
    if first_trick and rules.no_pts_on_first_trick:
        safe = {c for c in hand if c.suit != Suit.HEARTS and c != QS}
        if safe:
            return safe
    return hand


def points_of(cards: Iterable[Card]) -> int:
    return sum(1 for c in cards if c.suit == Suit.HEARTS) + sum(13 for c in cards if c == QS)


def rules(**kw) -> HeartsRules:
    return HeartsRules(**kw)

"""The Five Sons deck: the 12 face cards, then the Ace to 10 of hearts (the Ace counts one).

The game's own cards live with the game (``qardlab.cards`` holds only what every game shares): the
face cards, clubs to spades, Jack, Queen, King in each suit; the number cards, the hearts from the Ace
to the 10. A secret pair is one of each.
"""

from __future__ import annotations

from ...cards import Card

__all__ = ["FACE_CARDS", "NUMBER_CARDS", "five_sons_deck"]

#: the face cards, clubs to spades, J Q K in each suit
FACE_CARDS: tuple[Card, ...] = tuple(Card.parse(r + s) for s in "CDHS" for r in "JQK")
#: the number cards: the Ace (one) to the 10 of hearts
NUMBER_CARDS: tuple[Card, ...] = tuple(Card.parse(r + "H") for r in "A23456789T")


def five_sons_deck() -> list[Card]:
    """The 22 cards, face cards first (the deck's order: hands and grids are shown in it)."""
    return [*FACE_CARDS, *NUMBER_CARDS]

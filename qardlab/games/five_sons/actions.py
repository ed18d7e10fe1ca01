"""The actions of The King of Hearts has Five Sons, and how they are spoken.

Actions are small frozen values that accept card codes and normalise them to
:class:`~qardlab.cards.Card` objects, so ``Ask(2, "QC", "8H") == Ask(2, Card.parse("QC"), Card.parse("8H"))``.
The chance action :class:`Deal` holds the whole deal (dealer, secret pair, hands) so a
record replays exactly without its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from ...cards import Card, CardLike

__all__ = ["Ask", "Show", "Neither", "Claim", "NoClaim", "Deal", "Action", "phrase", "TITLE", "SONS"]

#: how many sons each number card has, spoken
SONS = {
    14: "one son",
    2: "two sons",
    3: "three sons",
    4: "four sons",
    5: "five sons",
    6: "six sons",
    7: "seven sons",
    8: "eight sons",
    9: "nine sons",
    10: "ten sons",
}


class _Value:
    """Actions are immutable values: copies (a game's deepcopy) share them."""

    __slots__ = ()

    def __copy__(self):
        return self

    def __deepcopy__(self, memo: dict):
        return self


def _card(value: CardLike, what: str) -> Card:
    try:
        return Card.parse(value)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a seat number, got {value!r}")
    return value


@dataclass(frozen=True)
class Ask(_Value):
    """The asker names ``target`` and one face card and one number card."""

    target: int
    face: Card
    number: Card

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", _seat(self.target, "Ask target"))
        object.__setattr__(self, "face", _card(self.face, "Ask face card"))
        object.__setattr__(self, "number", _card(self.number, "Ask number card"))

    @property
    def cards(self) -> tuple[Card, Card]:
        return (self.face, self.number)

    def __repr__(self) -> str:
        return f"Ask({self.target}, {self.face.code!r}, {self.number.code!r})"


@dataclass(frozen=True)
class Show(_Value):
    """The answerer shows this card to the asker.

    An answerer holding both named cards chooses which (``Show`` is then its action); one
    holding only one must show it: its single legal action is then that ``Show``, marked
    ``forced``, which it gives as its own step like a chosen one (``Game.play`` gives it at
    once). Equality ignores the mark.
    """

    card: Card
    forced: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _card(self.card, "Show card"))

    def __repr__(self) -> str:
        return f"Show({self.card.code!r}{', forced=True' if self.forced else ''})"


@dataclass(frozen=True)
class Neither(_Value):
    """The answerer holds neither named card and says so: always forced, the answerer's own step."""

    forced: bool = field(default=True, compare=False)

    def __repr__(self) -> str:
        return "Neither()"


@dataclass(frozen=True)
class Claim(_Value):
    """A seat claims the secret pair is (face, number)."""

    face: Card
    number: Card

    def __post_init__(self) -> None:
        object.__setattr__(self, "face", _card(self.face, "Claim face card"))
        object.__setattr__(self, "number", _card(self.number, "Claim number card"))

    @property
    def pair(self) -> tuple[Card, Card]:
        return (self.face, self.number)

    def __repr__(self) -> str:
        return f"Claim({self.face.code!r}, {self.number.code!r})"


@dataclass(frozen=True)
class NoClaim(_Value):
    """A seat lets its chance to claim pass."""

    def __repr__(self) -> str:
        return "NoClaim()"


@dataclass(frozen=True)
class Deal(_Value):
    """The chance action: who deals, the secret pair put aside, and every seat's hand."""

    dealer: int
    secret: tuple[Card, Card]
    hands: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dealer", _seat(self.dealer, "Deal dealer"))
        if not isinstance(self.secret, (list, tuple)) or len(self.secret) != 2:
            raise ValueError(f"the secret must be two cards (face, number), got {self.secret!r:.80}")
        object.__setattr__(self, "secret", tuple(_card(c, "secret card") for c in self.secret))
        if not isinstance(self.hands, (list, tuple)):
            raise ValueError(f"hands must be a list of card lists, one per seat, got {self.hands!r:.80}")
        hands = []
        for s, h in enumerate(self.hands):
            if isinstance(h, str):
                h = h.split()
            if not isinstance(h, (list, tuple)):
                raise ValueError(
                    f"the hand of seat {s} must be a list of cards (or a spaced string), got {h!r:.80}"
                )
            hands.append(tuple(sorted(_card(c, f"card of seat {s}") for c in h)))
        object.__setattr__(self, "hands", tuple(hands))

    def __repr__(self) -> str:
        hands = [" ".join(c.code for c in h) for h in self.hands]
        return f"Deal(dealer={self.dealer}, secret={[c.code for c in self.secret]}, hands={hands})"


Action = Union[Ask, Show, Neither, Claim, NoClaim, Deal]


def phrase(face: CardLike, number: CardLike) -> str:
    """The question as spoken: ``"The Queen of Clubs has eight sons"`` (an Ace: ``"has one son"``)."""
    f, n = Card.parse(face), Card.parse(number)
    if n.rank not in SONS:
        raise ValueError(f"{n.code} is not a number card (Ace to 10 of hearts)")
    return f"The {f.name} has {SONS[n.rank]}"


#: The game's title is itself a question: the King of Hearts and the five.
TITLE = phrase("KH", "5H")

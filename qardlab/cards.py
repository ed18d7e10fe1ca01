"""Cards, suits and the standard deck: small immutable values every game shares (a game keeps its own deck).

A card is a frozen value (``Card.parse("QS")``, ``str(card) == "QS"``,
``card.symbol == "Q♠"``). Every one of the 52 cards also has a bit, so that a game
can hold a hand as one integer mask and still hand out readable ``Card`` objects:
``card.bit == 1 << card.index`` with ``index = suit * 13 + (rank - 2)``, suits in the
order clubs, diamonds, hearts, spades. Each suit's 13 ranks are a contiguous run of
bits, which makes "cards of this suit" a shift and a mask.

Cards are interned: ``Card.parse`` and ``card_of_index`` return the same object for
the same card, so identity, equality and hashing are all cheap.
"""

from __future__ import annotations

import contextlib
import gc
import operator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Iterable, Iterator, Mapping, Union

from . import palette
from .render.markup import el, to_html

__all__ = [
    "Suit",
    "Card",
    "Hand",
    "CardLike",
    "RANK_CODES",
    "RANK_NAMES",
    "ALL_CARDS",
    "standard_deck",
    "card_of_index",
    "cards_of_mask",
    "mask_of",
    "as_card",
    "as_cards",
    "SUIT_MASKS",
]


class Suit(IntEnum):
    """The four suits, in the order used for bits and for sorting hands."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def title(self) -> str:
        """The plural name, as spoken: "Clubs"."""
        return ("Clubs", "Diamonds", "Hearts", "Spades")[self]

    @classmethod
    def parse(cls, text: str) -> "Suit":
        if not isinstance(text, str):
            raise ValueError(f"unknown suit {text!r}: expected one of C, D, H, S (or ♣ ♦ ♥ ♠)")
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.symbol, suit.title.upper(), suit.title.upper()[:-1]):
                return suit
        for suit, outline in zip(cls, "♧♢♡♤"):
            if key == outline:
                return suit
        raise ValueError(f"unknown suit {text!r}: expected one of C, D, H, S (or ♣ ♦ ♥ ♠)")


#: rank number -> code letter; Ten is "T" (parsing also accepts "10").
RANK_CODES = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "T",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
RANK_NAMES = {
    2: "Two",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
    10: "Ten",
    11: "Jack",
    12: "Queen",
    13: "King",
    14: "Ace",
}
_RANK_OF_CODE = {code: rank for rank, code in RANK_CODES.items()}
_RANK_OF_CODE["10"] = 10

CardLike = Union["Card", str]


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One playing card. Order: by suit (C, D, H, S), then by rank (2 low, Ace high).

    ``index`` (0..51: ``suit * 13 + rank - 2``) and ``bit`` (``1 << index``) are computed once, as
    the card is made: engines read them at every step."""

    suit: Suit
    rank: int
    #: 0..51: suit * 13 + (rank - 2)
    index: int = field(init=False, repr=False, compare=False)
    #: the card's bit in a 52-bit mask: 1 << index
    bit: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = int(self.suit) * 13 + int(self.rank) - 2
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)

    # -- construction -----------------------------------------------------------------
    @staticmethod
    def parse(text: "CardLike") -> "Card":
        """Read a card code such as ``"QS"``, ``"10h"``, ``"q♠"`` or ``"TH"``.

        Raises ValueError naming the text when it is not a card.
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r} (expected a code such as 'QS')")
        cached = _PARSED.get(text)
        if cached is not None:
            return cached
        key = text.strip().upper()
        if len(key) < 2:
            raise ValueError(f"not a card: {text!r} (expected a rank and a suit, such as 'QS' or '10H')")
        rank_code, suit_code = key[:-1], key[-1]
        rank = _RANK_OF_CODE.get(rank_code)
        try:
            suit = Suit.parse(suit_code)
        except ValueError:
            suit = None
        if rank is None or suit is None:
            raise ValueError(
                f"not a card: {text!r} (rank one of 2-9, T or 10, J, Q, K, A; suit one of C, D, H, S)"
            )
        return _CARDS[suit * 13 + rank - 2]

    # -- identity ---------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if other is self:  # cards are interned: the common case
            return True
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index  # suit * 13 + rank - 2, computed once

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo: dict) -> "Card":
        return self  # cards are interned values

    def __reduce__(self):
        return (card_of_index, (self.index,))

    def __lt__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    # -- text -------------------------------------------------------------------------
    @property
    def code(self) -> str:
        return RANK_CODES[self.rank] + self.suit.letter

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    @property
    def symbol(self) -> str:
        """Rank and suit symbol, Ten as "10": ``"Q♠"``, ``"10♥"``."""
        rank = "10" if self.rank == 10 else RANK_CODES[self.rank]
        return rank + self.suit.symbol

    @property
    def name(self) -> str:
        """Spoken name: ``"Queen of Clubs"``."""
        return f"{RANK_NAMES[self.rank]} of {self.suit.title}"

    @property
    def is_face(self) -> bool:
        return self.rank in (11, 12, 13)

    @property
    def red(self) -> bool:
        return self.suit.red

    def _repr_html_(self) -> str:
        return card_html(self)


def _build_cards() -> tuple[Card, ...]:
    return tuple(Card(Suit(i // 13), i % 13 + 2) for i in range(52))


_CARDS: tuple[Card, ...] = _build_cards()
ALL_CARDS = _CARDS
_PARSED: dict[str, Card] = {}
for _c in _CARDS:
    _PARSED[_c.code] = _c

#: mask of each suit's 13 bits, by suit
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))


def card_of_index(index: int) -> Card:
    """The interned card of index 0..51; ValueError naming any other index (-1 is no Ace of spades,
    ``"3"`` and ``3.0`` are no index, True is not 1)."""
    if type(index) is not int:
        index = _integer(index, "card index")
    if not 0 <= index < 52:
        raise ValueError(f"card index {index!r} is outside 0..51")
    return _CARDS[index]


def _integer(value: object, what: str) -> int:
    """An integer (a numpy integer too), never a bool, a string or a float; ValueError naming it."""
    if isinstance(value, bool):
        raise ValueError(f"{what} {value!r} is not an integer")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{what} {value!r} is not an integer") from None


def _suit_table(suit: int) -> tuple[tuple[Card, ...], ...]:
    """A 13-bit suit mask -> the tuple of its cards, low to high: built bit by bit (mask ``m | 2^r``
    below ``2^(r+1)`` is the cards of ``m`` and then rank ``r``), ten times faster than testing every bit
    of every mask, at each import."""
    table: list[tuple[Card, ...]] = [()]
    for r in range(13):
        card = (_CARDS[13 * suit + r],)
        table += [cards + card for cards in table]
    return tuple(table)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while import-time tables are built: their ~32k new tuples
    would otherwise set off collections that walk every object the process holds (in a kernel with
    matplotlib and IPython loaded, 50-80 ms of the 5 ms the tables take). The tables hold no cycles."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# Per-suit tables: a 13-bit suit mask -> the tuple of its cards, low to high. Built at their first use
# (``cards_of_mask``, or ``from qardlab.cards import _SUIT_TABLES``: the Hearts engine's import), not at
# this module's: their ~32k tuples are ~4 MiB that a process which never reads a mask (a Five Sons seat
# joined from a class's page, one kernel per student) need not hold.
_suit_tables_built: tuple[tuple[tuple[Card, ...], ...], ...] | None = None


def _suit_tables() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    global _suit_tables_built
    if _suit_tables_built is None:
        with _gc_paused():
            _suit_tables_built = tuple(_suit_table(s) for s in range(4))
    return _suit_tables_built


def __getattr__(name: str) -> Any:
    """``_SUIT_TABLES``, built at its first use (PEP 562)."""
    if name == "_SUIT_TABLES":
        return _suit_tables()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a 52-bit mask, sorted by suit then rank; ValueError naming anything that is not
    a mask of the 52 cards (a negative number, bits above the 52nd, a non-integer)."""
    if type(mask) is not int:
        mask = _integer(mask, "card mask")
    if mask < 0 or mask >> 52:
        raise ValueError(f"card mask {mask!r} is not a mask of the 52 cards (0 .. 2**52 - 1)")
    t = _suit_tables_built or _suit_tables()
    return [*t[0][mask & 0x1FFF], *t[1][mask >> 13 & 0x1FFF], *t[2][mask >> 26 & 0x1FFF], *t[3][mask >> 39]]


def mask_of(cards: Iterable[CardLike]) -> int:
    """The 52-bit mask of some cards; ValueError naming a value that is not a card (or not several)."""
    if isinstance(cards, (str, Card)) or not isinstance(cards, Iterable):
        raise ValueError(f"expected several cards, got {cards!r}")
    mask = 0
    for c in cards:
        mask |= Card.parse(c).bit
    return mask


def as_card(value: CardLike) -> Card:
    """A Card from a Card or a code; ValueError naming the value otherwise."""
    return Card.parse(value)


def as_cards(values: Iterable[CardLike]) -> list[Card]:
    """Cards from several cards or codes; ValueError naming a single value or a non-card."""
    if isinstance(values, (str, Card)):
        raise ValueError(f"expected several cards, got the single value {values!r}")
    if not isinstance(values, Iterable):
        raise ValueError(f"expected several cards, got {values!r}")
    return [Card.parse(v) for v in values]


def standard_deck() -> list[Card]:
    """The 52 cards, clubs to spades, 2 to Ace."""
    return list(_CARDS)


class Hand(tuple):
    """A tuple of Cards that shows itself as cards in a notebook."""

    def __new__(cls, cards: Iterable[CardLike] = ()) -> "Hand":
        if isinstance(cards, (str, Card)) or not isinstance(cards, Iterable):
            raise ValueError(f"a hand is several cards (a list of cards or codes), not {cards!r:.80}")
        return super().__new__(cls, (Card.parse(c) for c in cards))

    def __str__(self) -> str:
        return " ".join(c.code for c in self)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    @property
    def mask(self) -> int:
        return mask_of(self)

    def _repr_html_(self) -> str:
        return hand_html(self)

    def __iter__(self) -> Iterator[Card]:  # for type checkers
        return super().__iter__()


# -- HTML rendering (pure functions, used by _repr_html_ and by the widgets) --------------
# Built with the package's element helper (:mod:`qardlab.render.markup`, which imports nothing of the
# package); the colours are the palette's. :func:`hand_element` is the one row-of-cards renderer: a hand,
# a trick, a seat's cards face down, a hand of which some cards were shown.
CARD_CSS = (
    "display:inline-flex;flex-direction:column;align-items:center;justify-content:center;"
    f"width:2.6em;height:3.6em;margin:0 .15em;border:1px solid {palette.CARD_EDGE};border-radius:.35em;"
    f"background:{palette.PAPER};font:bold 1.05em/1.1 'DejaVu Sans',sans-serif;"
    f"box-shadow:1px 1px 2px {palette.CARD_SHADOW};"
)
BACK_CSS = (
    f"display:inline-block;width:2.6em;height:3.6em;margin:0 .15em;border:1px solid {palette.CARD_EDGE};"
    f"border-radius:.35em;background:repeating-linear-gradient(45deg,{palette.BACK[0]} 0 4px,"
    f"{palette.BACK[1]} 4px 8px);box-shadow:1px 1px 2px {palette.CARD_SHADOW};vertical-align:middle;"
)


def card_element(card: Card, *, dim: bool = False, title: str | None = None, deck: str | None = None) -> Any:
    """A card face as an element (see :func:`card_html`)."""
    color = palette.suit_color(card.suit.letter, deck)
    rank = "10" if card.rank == 10 else RANK_CODES[card.rank]
    spoken = card.name if title is None else title if title.startswith(card.name) else f"{card.name}: {title}"
    return el(
        "span",
        el("span", rank),
        el("span", card.suit.symbol),
        cls="qard-card",
        data_card=card.code,
        role="img",
        aria_label=spoken,
        title=title if title is not None else card.name,
        style=f"{CARD_CSS}color:{color};" + ("opacity:.35;" if dim else ""),
    )


def card_html(card: Card, *, dim: bool = False, title: str | None = None, deck: str | None = None) -> str:
    """A card face as an inline HTML element, coloured by :mod:`qardlab.palette` (the session's deck,
    or ``deck``: "two" or "four"); a screen reader reads its name (``role="img"`` and ``aria-label``),
    a pointer shows ``title`` (default the name)."""
    return to_html(card_element(card, dim=dim, title=title, deck=deck))


def back_element() -> Any:
    """A card face down, as an element; read as "hidden card"."""
    return el(
        "span",
        cls="qard-card-back",
        role="img",
        aria_label="hidden card",
        title="hidden card",
        style=BACK_CSS,
    )


def back_html() -> str:
    """A card face down; read as "hidden card"."""
    return to_html(back_element())


def hand_element(
    cards: Iterable[Card],
    *,
    backs: int = 0,
    deck: str | None = None,
    dim: Mapping[Card, str] | None = None,
    mark: Iterable[Card] = (),
    title: str | None = None,
    fan: bool = False,
    empty: str = "no cards",
    label: str | None = None,
) -> Any:
    """The one row of cards: ``cards`` face up (``dim`` maps a card to the reason it is dimmed, ``mark``
    outlines some, ``title`` is said of each), then ``backs`` cards face down (overlapping when ``fan``),
    wrapping; ``empty`` in their place when there are none. A screen reader reads the row's ``label``
    (default the cards' names, and how many are hidden)."""
    cards = list(cards)
    dim = dim or {}
    marked = set(mark)
    faces = []
    for c in cards:
        said = dim.get(c, title)
        face = card_element(c, dim=c in dim, title=None if said is None else f"{c.name}: {said}", deck=deck)
        faces.append(el("span", face, cls="qard-marked") if c in marked else face)
    hidden = [back_element() for _ in range(backs)]
    names = [c.name for c in cards] + ([f"{backs} hidden card{'s' if backs != 1 else ''}"] if backs else [])
    spoken = label if label is not None else ", ".join(names) or empty
    return el(
        "span",
        faces,
        hidden,
        el("em", empty, cls="qard-none") if not (cards or backs) else None,
        cls=["qard-hand", "qard-fan" if fan else None],
        role="group",
        aria_label=spoken,
        style="display:inline-flex;flex-wrap:wrap;gap:.2em 0",
    )


def hand_html(cards: Iterable[Card], *, deck: str | None = None, **kw: Any) -> str:
    """A row of card faces (a hand shows itself so in a notebook); see :func:`hand_element`."""
    return to_html(hand_element(cards, deck=deck, **kw))

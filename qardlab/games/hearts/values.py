"""The value types of Hearts and their JSON codec: the chance action ``Deal`` and the open ``Trick``.

A card is an interned :class:`~qardlab.cards.Card`; a pass of several cards a tuple of them. The
codec (``action_to_json``, ``action_from_json``) is what records hold: a card code, a list of
codes, or ``{"deal": [[codes of seat 0], ...]}``.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...cards import _SUIT_TABLES, Card, Hand, _gc_paused, hand_html
from ...engine import IllegalAction

__all__ = ["Deal", "Trick", "action_to_json", "action_from_json", "codes_of", "cards_of"]

_T0, _T1, _T2, _T3 = _SUIT_TABLES


def _code_table(suit: int) -> tuple[tuple[str, ...], ...]:
    """The codes of the cards of ``_SUIT_TABLES[suit]``, mask by mask, built bit by bit as that table
    is (each rank's code read once, not once per mask holding it: ~5x faster at import)."""
    table: list[tuple[str, ...]] = [()]
    for r in range(13):
        code = (_SUIT_TABLES[suit][1 << r][0].code,)
        table += [codes + code for codes in table]
    return tuple(table)


with _gc_paused():  # (see cards._gc_paused)
    _CODE_TABLES = tuple(_code_table(s) for s in range(4))
_C0, _C1, _C2, _C3 = _CODE_TABLES
_NEW_TUPLE = tuple.__new__


def codes_of(mask: int) -> list[str]:
    """The codes of a (valid) mask's cards, sorted: four table lookups."""
    return [*_C0[mask & 0x1FFF], *_C1[mask >> 13 & 0x1FFF], *_C2[mask >> 26 & 0x1FFF], *_C3[mask >> 39]]


def cards_of(mask: int) -> list[Card]:
    """The interned Cards of a (valid) mask, sorted: four table lookups."""
    return [*_T0[mask & 0x1FFF], *_T1[mask >> 13 & 0x1FFF], *_T2[mask >> 26 & 0x1FFF], *_T3[mask >> 39]]


def _new_hand(cards: list[Card]) -> Hand:
    """A Hand of known, interned Cards (skips re-parsing them)."""
    return tuple.__new__(Hand, cards)


def _masks_of_cards(hands: Sequence[Any]) -> tuple[int, ...] | None:
    """The mask of each hand when every hand is a list or tuple of distinct Cards (the usual case: one
    loop over the cards, their bits summed: distinct bits, so the sum is the union); None otherwise (a
    code, a bad value, a card twice in a hand: its bit carries, so the hand's bit count falls short),
    for the full parse to name."""
    masks = []
    for h in hands:
        if type(h) is not list and type(h) is not tuple and type(h) is not Hand:
            return None
        m = 0
        for c in h:
            if type(c) is not Card:
                return None
            m += c.bit  # (an int add: cheaper than |)
        if m.bit_count() != len(h):
            return None
        masks.append(m)
    return tuple(masks)


class Deal:
    """The chance action of one hand: every seat's cards (``hands``, seat 0 first).

    Each hand is also held as a 52-bit mask (``masks``), so that checking and applying a
    deal is a few integer operations. The ``Hand`` objects are made only when asked: a deal drawn
    by the game makes them from its masks (sorted), a deal of given Cards from the given cards
    (each hand in its given order, kept as a tuple).
    """

    __slots__ = ("_hands", "_given", "masks", "sizes")

    def __init__(
        self,
        hands: Sequence[Sequence[Any]] | None = None,
        _masks: Sequence[int] | None = None,
        _sizes: Sequence[int] | None = None,
    ) -> None:
        self._given: tuple[tuple[Card, ...], ...] | None = None
        self._hands: tuple[Hand, ...] | None = None
        if _masks is not None:  # drawn by chance_outcome: distinct cards, sizes known
            self.masks = tuple(_masks)
            self.sizes = tuple(_sizes or (m.bit_count() for m in _masks))
            return
        if type(hands) is tuple or type(hands) is list:
            masks = _masks_of_cards(hands)
            if masks is not None:  # hands of Cards, no card twice in a hand
                self._given = tuple(map(tuple, hands))  # (a copy: the caller's lists may change)
                self.masks = masks
                self.sizes = tuple(map(len, hands))
                return
        if hands is None or isinstance(hands, (str, bytes)):
            raise IllegalAction(f"a deal is a list of hands of cards, got {hands!r}")
        try:
            parsed = self._hands = tuple(Hand(h) for h in hands)
        except (TypeError, ValueError) as e:
            raise IllegalAction(f"a deal is a list of hands of cards: {e}") from None
        masks = []
        for h in parsed:  # Cards already (Hand parsed them): OR their bits
            m = 0
            for c in h:
                m |= c.bit
            masks.append(m)
        self.masks = tuple(masks)
        self.sizes = tuple(len(h) for h in parsed)

    @classmethod
    def _of_masks(cls, masks: tuple[int, ...], sizes: tuple[int, ...]) -> Deal:
        """A deal of distinct cards given as masks (the game's own draw): no checks, no copies."""
        deal = object.__new__(cls)
        deal._hands = deal._given = None
        deal.masks = masks
        deal.sizes = sizes
        return deal

    @property
    def hands(self) -> tuple[Hand, ...]:
        """Every seat's cards as a ``Hand``: as given (a deal of given Cards), else sorted."""
        if self._hands is None:
            given = self._given
            if given is not None:
                self._hands = tuple([_NEW_TUPLE(Hand, h) for h in given])
            else:
                self._hands = tuple(_new_hand(cards_of(m)) for m in self.masks)
        return self._hands

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.masks == other.masks and self.sizes == other.sizes

    def __hash__(self) -> int:
        return hash(self.masks)

    def __repr__(self) -> str:
        return "Deal(" + ", ".join(f"[{h}]" for h in self.hands) + ")"


class Trick(tuple):
    """The cards on the table: ``(seat, Card)`` pairs in the order played."""

    def _repr_html_(self) -> str:
        return hand_html(card for _, card in self)

    def __str__(self) -> str:
        return " ".join(f"{s}:{c}" for s, c in self)


def action_to_json(action: Any) -> Any:
    """A Hearts action as record data: a card code, a list of codes, or ``{"deal": [...]}``."""
    if isinstance(action, Deal):
        return {"deal": [codes_of(m) for m in action.masks]}
    if isinstance(action, Card):
        return action.code
    if isinstance(action, str):  # a card code (an observation's legal cards): its own encoding
        return Card.parse(action).code
    if isinstance(action, tuple) and all(isinstance(c, Card) for c in action):
        return [c.code for c in action]
    raise ValueError(f"not a Hearts action: {action!r}")


def action_from_json(data: Any) -> Any:
    """The action of record data (see :func:`action_to_json`); ValueError naming anything else."""
    if isinstance(data, str):
        return Card.parse(data)
    if isinstance(data, list):
        return tuple(Card.parse(x) for x in data)
    if isinstance(data, dict) and set(data) == {"deal"} and isinstance(data["deal"], list):
        hands = data["deal"]
        if not all(isinstance(h, list) for h in hands):
            raise ValueError(f"a deal is a list of hands (lists of card codes), got {hands!r}")
        return Deal(tuple(Hand(h) for h in hands))
    raise ValueError(f"not a Hearts action: {data!r} (a card code, a list of codes, or {{'deal': [...]}})")

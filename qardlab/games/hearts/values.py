"""The value types of Hearts and their JSON codec: the chance action ``Deal`` and the open ``Trick``.

A card is an interned :class:`~qardlab.cards.Card`; a pass of several cards a tuple of them. The
codec (``action_to_json``, ``action_from_json``) is what records hold: a card code, a list of
codes, or ``{"deal": [[codes of seat 0], ...]}``.
"""

from __future__ import annotations

from operator import attrgetter
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
_BIT = attrgetter("bit")
_JUST_CARDS = frozenset({Card})
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


class Deal:
    """The chance action of one hand: every seat's cards (``hands``, seat 0 first).

    Each hand is also held as a 52-bit mask (``masks``), so that checking and applying a
    deal is a few integer operations; a deal drawn by the game is built from masks and
    makes its ``Hand`` objects only when asked.
    """

    __slots__ = ("_hands", "masks", "sizes")

    def __init__(self, hands: Sequence[Sequence[Any]] | None = None, _masks: Sequence[int] | None = None,
                 _sizes: Sequence[int] | None = None) -> None:
        if _masks is not None:  # drawn by chance_outcome: distinct cards, sizes known
            self._hands = None
            self.masks = tuple(_masks)
            self.sizes = tuple(_sizes or (m.bit_count() for m in _masks))
            return
        if type(hands) is tuple or type(hands) is list:
            # the usual case, hands of interned Cards (no card twice in a hand): their bits are summed
            # (distinct bits: the sum is the union, and a card twice would lose a bit); anything
            # else takes the full parse below, which names a bad value
            masks = []
            for h in hands:
                if (type(h) is list or type(h) is tuple or type(h) is Hand) and _JUST_CARDS.issuperset(
                        map(type, h)):
                    m = sum(map(_BIT, h))
                    if m.bit_count() == len(h):
                        masks.append(m)
                        continue
                break
            else:
                self._hands = tuple([h if type(h) is Hand else _NEW_TUPLE(Hand, h) for h in hands])
                self.masks = tuple(masks)
                self.sizes = tuple(map(len, hands))
                return
        if hands is None or isinstance(hands, (str, bytes)):
            raise IllegalAction(f"a deal is a list of hands of cards, got {hands!r}")
        try:
            self._hands = tuple(Hand(h) for h in hands)
        except (TypeError, ValueError) as e:
            raise IllegalAction(f"a deal is a list of hands of cards: {e}") from None
        masks = []
        for h in self._hands:  # Cards already (Hand parsed them): OR their bits
            m = 0
            for c in h:
                m |= c.bit
            masks.append(m)
        self.masks = tuple(masks)
        self.sizes = tuple(len(h) for h in self._hands)

    @classmethod
    def _of_masks(cls, masks: tuple[int, ...], sizes: tuple[int, ...]) -> Deal:
        """A deal of distinct cards given as masks (the game's own draw): no checks, no copies."""
        deal = object.__new__(cls)
        deal._hands = None
        deal.masks = masks
        deal.sizes = sizes
        return deal

    @property
    def hands(self) -> tuple[Hand, ...]:
        if self._hands is None:
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
    raise ValueError(
        f"not a Hearts action: {data!r} (a card code, a list of codes, or {{'deal': [...]}})"
    )

"""What a table of Hearts keeps fixed, worked out once from the rules kernel: :class:`Layout`.

A table of ``players`` seats under one :class:`~.rules.HeartsRules` has the same deck, hand size,
opening card, pass offsets and the same masks of the kernel (:func:`~.rules.lead_mask`,
:func:`~.rules.discard_mask`, :func:`~.rules.break_mask`, :func:`~.rules.scores_points`) in every
hand: the step engine reads them from its layout at every step instead of asking the kernel again,
and :func:`layout` keeps one per table (a game's set-up costs a dictionary lookup). The tables by
card (``LED`` at the top, the others at the bottom) turn a card's bit or index into what the engine
reads of it (its suit's mask, its Card, its code).
"""

from __future__ import annotations

from ...cards import _CARDS, _SUIT_TABLES, SUIT_MASKS, Card, cards_of_mask
from .rules import (
    HeartsRules,
    break_mask,
    deck_mask,
    discard_mask,
    hand_size,
    lead_mask,
    opening_bit,
    pass_offset,
    scores_points,
)

__all__ = ["Layout", "layout", "CARD_OF_BIT", "CODES"]

#: by the index of a card: its suit's mask, the shift of its 13 bits and that suit's table of Cards (a
#: tuple: indexing it is several times cheaper than a dict keyed by the card's bit)
LED = tuple((SUIT_MASKS[i // 13], 13 * (i // 13), _SUIT_TABLES[i // 13]) for i in range(52))
_DECK_BITS = {n: tuple(c.bit for c in cards_of_mask(deck_mask(n))) for n in range(3, 7)}
_HAND_SIZES = {n: hand_size(n) for n in range(3, 7)}
_NEXT = {n: tuple((s + 1) % n for s in range(n)) for n in range(3, 7)}


class Layout:
    """What a table of ``players`` under ``rules`` keeps fixed, from the rules kernel (see the module
    docstring); one per table (:func:`layout`)."""

    __slots__ = (
        "rules",
        "players",
        "cycle",
        "deck",
        "hand_size",
        "lead_bit",
        "opening_card",
        "next",
        "first_lead",
        "unbroken_lead",
        "broken_lead",
        "first_discard",
        "later_discard",
        "break_mask",
        "offsets",
        "point_mask",
        "rules_dict",
        "deck_bits",
        "sizes",
        "cycle_offsets",
        "first_follows",
        "later_follows",
        "first_lead_state",
        "unbroken_state",
        "broken_state",
    )

    def __init__(self, players: int, rules: HeartsRules) -> None:
        self.rules = rules
        self.players = players
        self.cycle = rules.cycle_for(players)
        self.deck = deck_mask(players)
        self.hand_size = _HAND_SIZES[players]
        self.lead_bit = opening_bit(players)
        self.opening_card: Card = _CARDS[self.lead_bit.bit_length() - 1]
        #: the seat on each seat's left
        self.next = _NEXT[players]
        #: the kernel's masks of the cards a seat may lead (first trick, before and after hearts are
        #: broken) and throw when void (first trick, later) when it holds any of them, as cards in play
        #: (an AND with a negative mask, "all but...", costs a complement: these are positive); the
        #: cards whose play breaks hearts
        deck = self.deck
        self.first_lead = deck & lead_mask(True, False, players, rules)
        self.unbroken_lead = deck & lead_mask(False, False, players, rules)
        self.broken_lead = deck & lead_mask(False, True, players, rules)
        self.first_discard = deck & discard_mask(True, rules)
        self.later_discard = deck & discard_mask(False, rules)
        self.break_mask = break_mask(rules)
        self.offsets: dict[str, int] = {}
        #: the cards that score under these rules (``scores_points``), and the rules as ``to_dict``
        #: gives them (an observation's ``rules``, copied)
        self.point_mask = sum(1 << i for i in range(52) if scores_points(1 << i, rules))
        self.rules_dict = rules.to_dict()
        #: the bits of the cards in play, lowest first (what the dealing shuffle starts from), and the
        #: hand sizes of a deal
        self.deck_bits = _DECK_BITS[players]
        self.sizes = (self.hand_size,) * players
        #: the pass cycle as (direction, offset) pairs
        self.cycle_offsets = tuple((d, self.offset(d)) for d in self.cycle)
        #: what the kernel's ``playable`` reads at each moment of a trick, with what shows the legal
        #: cards: (the mask of the suit to follow, the shift of its 13 bits, that suit's table of
        #: Cards, a mask). After a lead, by the index of the card led, on the first trick and later:
        #: the mask is the discard mask. For a lead (no suit to follow: 0, 0, no table) on the first
        #: trick, before and after hearts are broken: the mask is the lead mask
        self.first_follows = tuple((*LED[i], self.first_discard) for i in range(52))
        self.later_follows = tuple((*LED[i], self.later_discard) for i in range(52))
        self.first_lead_state = (0, 0, (), self.first_lead)
        self.unbroken_state = (0, 0, (), self.unbroken_lead)
        self.broken_state = (0, 0, (), self.broken_lead)

    def offset(self, direction: str) -> int:
        """The pass offset of ``direction`` (checked once per table; ValueError naming a bad one)."""
        if type(direction) is not str:
            return pass_offset(direction, self.players)  # (raises, naming it)
        off = self.offsets.get(direction)
        if off is None:
            off = self.offsets[direction] = pass_offset(direction, self.players)
        return off


#: by (players, id of the rules object): that object (kept alive here, so its id is not reused while
#: it is cached) and its layout; by (players, rules' value): the layout
_LAYOUTS: dict[tuple[int, int], tuple[HeartsRules, Layout]] = {}
_LAYOUTS_BY_VALUE: dict[tuple[int, HeartsRules], Layout] = {}


def layout(players: int, rules: HeartsRules) -> Layout:
    """The cached ``Layout`` of a table: by the rules object, else by the rules' value (equal rules
    made anew share the layout, and are cached by their own id from then on: hashing a dataclass's
    value costs more than the rest of a game's set-up)."""
    key = (players, id(rules))
    entry = _LAYOUTS.get(key)
    if entry is not None and entry[0] is rules:
        return entry[1]
    if len(_LAYOUTS) > 256:
        _LAYOUTS.clear()
        _LAYOUTS_BY_VALUE.clear()
    found = _LAYOUTS_BY_VALUE.get((players, rules))
    if found is None:
        found = _LAYOUTS_BY_VALUE[players, rules] = Layout(players, rules)
    _LAYOUTS[key] = (rules, found)
    return found


CARD_OF_BIT = {1 << i: _CARDS[i] for i in range(52)}
CODES = tuple(c.code for c in _CARDS)

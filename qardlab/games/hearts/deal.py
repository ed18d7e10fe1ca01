"""The deal of a hand of Hearts: drawn from a game's RNG (:func:`shuffled_deal`) or given and checked
(:func:`check_deal`).

Rule (deck): every card in play is dealt, one at a time clockwise from the dealer's left, each
seat the same number (:class:`~.layout.Layout` knows them). The draw is ``random.Random.shuffle``'s,
step for step, so a seed gives the same deals as ever.
"""

from __future__ import annotations

from typing import Any, Callable

from ...engine import IllegalAction
from .layout import Layout
from .rules import hand_size
from .values import Deal, codes_of

__all__ = ["shuffled_deal", "check_deal"]

#: the dealing shuffle's steps for each player count: (i, bits of i + 1), i from the top down (see
#: :func:`shuffled_deal`)
_DEAL_STEPS = {
    n: tuple((i, (i + 1).bit_length()) for i in range(hand_size(n) * n - 1, 0, -1)) for n in range(3, 7)
}


def shuffled_deal(table: Layout, getrandbits: Callable[[int], int], first: int) -> Deal:
    """A deal drawn with ``getrandbits`` (a ``random.Random``'s): ``random.Random.shuffle`` on the list
    of the bits of the cards in play, step for step (the same draws, so a seed gives the same deals as
    ever), and the shuffled cards dealt one at a time clockwise, the first to seat ``first`` (the
    dealer's left): card ``p`` of the shuffled order to seat ``(first + p) % players``, each hand's
    mask the sum of a slice (distinct bits: the sum is the union)."""
    order = [*table.deck_bits]
    for i, k in _DEAL_STEPS[table.players]:  # Random.shuffle: j = _randbelow(i + 1), then a swap
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    n = table.players
    if n == 4:  # (the usual table: four slices, no loop)
        dealt = sum(order[0::4]), sum(order[1::4]), sum(order[2::4]), sum(order[3::4])
    else:
        dealt = tuple([sum(order[h::n]) for h in range(n)])
    if first:  # seat s gets the cards dealt s - first seats on from the first
        dealt = dealt[-first:] + dealt[:-first]
    return Deal._of_masks(dealt, table.sizes)


def check_deal(action: Any, table: Layout) -> Deal:
    """``action`` if it is a deal of this table (Rule (deck): every card in play dealt, each seat
    ``hand_size`` of them), else IllegalAction naming what is wrong."""
    if not isinstance(action, Deal):
        raise IllegalAction(f"a deal is due (use chance_outcome() or next_hand()), not {action!r}")
    masks = action.masks
    if action.sizes == table.sizes and sum(masks) == table.deck:
        # the usual case, in two comparisons. Every card in play is dealt (the deck deals out
        # evenly), and a hand's mask never has more cards than its size (a card named twice in a
        # hand is one bit): so n hands of the right size whose masks add up to the deck hold
        # hand_size cards each, no card twice (a shared bit would carry, and the sum's bit count
        # fall short) and only cards in play
        return action
    n = table.players
    if len(masks) != n:
        raise IllegalAction(f"a deal needs {n} hands, got {len(masks)}")
    size = table.hand_size
    deck = table.deck
    seen = 0
    for s, m in enumerate(masks):
        if action.sizes[s] != size:
            raise IllegalAction(
                f"seat {s} is dealt {action.sizes[s]} cards; each gets {size} with {n} players"
            )
        if m & ~deck:
            raise IllegalAction(f"{' '.join(codes_of(m & ~deck))} is not in play with {n} players")
        if m & seen or m.bit_count() != size:
            dup = [c for c in action.hands[s] if seen & c.bit] or [
                c for c in action.hands[s] if action.hands[s].count(c) > 1
            ]
            raise IllegalAction(f"{dup[0]} is dealt twice")
        seen |= m
    return action

"""Many random hands of Hearts at once, with numpy: the experiment path.

``simulate(count, players, seed, rules, pass_direction)`` deals ``count`` hands, passes
random cards and plays every hand to its end with uniformly random legal cards, all
hands in step: one numpy operation per rule per step over every hand. It keeps the whole
story of each hand (deal, passes, plays), so any hand can be replayed through the step
engine (``BatchResult.replay(i)``) and checked to the same points; the tests do that.

Hands are 52-bit masks (bit ``suit * 13 + rank - 2``, as ``Card.bit``) in int64 arrays.
A deal is one sort of random keys per hand, and the hands after the pass are sorted by a
second sort of ``seat * 64 + card``; temporaries are kept small (page faults of big ones
cost more than the arithmetic). In play each seat's sorted cards are slots; a uniformly
random legal card is drawn by counting the legal slots and picking the r-th with a table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...cards import SUIT_MASKS, card_of_index, cards_of_mask
from .game import Hearts
from .rules import JD_BIT, QS_BIT, HeartsRules, check_players, deck_mask, hand_size, pass_offset

__all__ = ["simulate", "BatchResult"]

_POINTS = np.array(
    [1 if i // 13 == 2 else 13 if (1 << i) == QS_BIT else 0 for i in range(52)], dtype=np.int64
)
_SUIT = np.arange(52, dtype=np.int64) // 13
_QS = QS_BIT.bit_length() - 1
_JD = JD_BIT.bit_length() - 1
_ONE = np.int64(1)
_BITS = _ONE << np.arange(52, dtype=np.int64)  # the bit of each card index
_SELECT: dict[int, np.ndarray] = {}
_SLOT_BITS = (1 << np.arange(17)).astype(np.int32)  # the bit of each slot (a hand has at most 17)


def _select_table(size: int) -> np.ndarray:
    """Flat table: entry ``m * size + r`` is the position of the r-th set bit of the size-bit mask m."""
    table = _SELECT.get(size)
    if table is None:
        masks = np.arange(1 << size, dtype=np.int64)
        bits = (masks[:, None] >> np.arange(size)) & 1
        rank = np.cumsum(bits, axis=1) - 1
        table = np.zeros((1 << size, size), dtype=np.int8)
        m_idx, pos = np.nonzero(bits)
        table[m_idx, rank[m_idx, pos]] = pos
        table = table.ravel()
        _SELECT[size] = table
    return table


@dataclass
class BatchResult:
    """The hands a batch played: enough to replay each one through the step engine."""

    players: int
    rules: HeartsRules
    #: the pass directions used, by name ("left", "right", "across", "none")
    direction_names: tuple[str, ...]
    #: (count,) index into ``direction_names`` of each hand's pass direction
    direction_codes: np.ndarray
    #: (count, players) int64: each seat's cards as dealt
    deals: np.ndarray
    #: (count, players) int64: the cards each seat passed (0 without a pass)
    passes: np.ndarray
    #: (count, cards in play) int8: the card index of every play, in order
    plays: np.ndarray
    #: (count, players) int64: raw points taken
    raw: np.ndarray
    #: (count, players) int64: the hand's points, moon and Jack of diamonds applied
    points: np.ndarray

    @property
    def directions(self) -> list[str]:
        """Each hand's pass direction, by name."""
        return [self.direction_names[i] for i in self.direction_codes]

    def __len__(self) -> int:
        return len(self.points)

    def replay(self, i: int, rules: HeartsRules | None = None) -> Hearts:
        """Hand ``i`` replayed through the step engine, every action validated (under ``rules``
        if given, e.g. to score the same play under another moon option)."""
        hands = [cards_of_mask(int(m)) for m in self.deals[i]]
        direction = self.direction_names[self.direction_codes[i]]
        game = Hearts.from_deal(hands, pass_direction=direction, rules=rules or self.rules)
        while game.phase == "pass":
            game.apply(tuple(cards_of_mask(int(self.passes[i, game.to_move]))))
        for idx in self.plays[i]:
            game.apply(card_of_index(int(idx)))
        return game

    def mean_points(self) -> np.ndarray:
        """Average points per hand of each seat."""
        return self.points.mean(axis=0)


def simulate(
    count: int,
    players: int = 4,
    seed: int | None = None,
    rules: HeartsRules | None = None,
    pass_direction: str = "cycle",
) -> BatchResult:
    """Play ``count`` random hands at once.

    ``pass_direction``: a direction name for every hand, or ``"cycle"`` for the rules' pass
    cycle (hand i uses entry i of it). Every seat passes ``cards_to_pass`` random cards and
    plays uniformly random legal cards.
    """
    n = check_players(players)
    rules = rules or HeartsRules()
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"count must be a positive integer, got {count!r}")
    rng = np.random.default_rng(seed)
    deck = np.array([c.index for c in cards_of_mask(deck_mask(n))], dtype=np.uint32)
    size = hand_size(n)
    total = size * n
    rows = np.arange(count)
    select = _select_table(size)

    # the deal: each hand's cards sorted by random 26-bit keys (the low 6 bits of a key hold
    # the card) is a random permutation; the card at position p goes to seat p % n. (Equal keys,
    # about one hand in 50,000, are broken by card index: a negligible bias.)
    keys = rng.integers(0, 1 << 32, size=(count, len(deck)), dtype=np.uint32)
    keys &= np.uint32(~63 & 0xFFFFFFFF)
    keys |= deck
    keys.sort(axis=1)
    keys &= np.uint32(63)  # (hand, position): the card dealt there
    # the deal as masks, round by round (small temporaries: big ones cost page faults)
    deals = np.zeros((count, n), dtype=np.int64)
    k = rules.cards_to_pass
    for j in range(size):
        if j == k:  # the pass: the first k cards a seat was dealt are a uniformly random k of its hand
            passes = deals.copy()
        deals |= _BITS.take(keys[:, j * n : (j + 1) * n])
    if k == size:
        passes = deals.copy()
    if pass_direction == "cycle":
        cycle = rules.cycle_for(n)
    else:
        pass_offset(pass_direction, n)
        cycle = (pass_direction,)
    direction_codes = rows % len(cycle)
    cycle_offsets = [pass_offset(d, n) for d in cycle]
    offsets = np.array(cycle_offsets, dtype=np.int64)[direction_codes]
    if k:
        passes[offsets == 0] = 0
        giver = (np.arange(n)[None, :] - offsets[:, None]) % n
        hands = (deals & ~passes) | np.take_along_axis(passes, giver, axis=1)
    else:
        passes = np.zeros((count, n), dtype=np.int64)
        hands = deals
    # each seat's cards after the pass, sorted: one sort of the keys seat * 64 + card, where a
    # position's seat after the pass is fixed by the pass direction (hand i: direction i % len)
    for d, off in enumerate(cycle_offsets):
        seat_after = [(p % n + (off if p < k * n else 0)) % n for p in range(len(deck))]
        keys[d :: len(cycle)] |= np.array(seat_after, dtype=np.uint32) << np.uint32(6)
    keys.sort(axis=1)
    keys &= np.uint32(63)
    cards = keys.reshape(count, n, size)  # (hand, seat, slot): each seat's cards, low to high
    # slots: each seat's cards sorted, so each suit is a run of slots
    cards_flat = keys.astype(np.int8).ravel()
    below = [np.zeros((count, n), dtype=np.int64)]
    for t in range(4):
        below.append(below[-1] + np.bitwise_count(hands & SUIT_MASKS[t]))
    suit_slots = np.stack([(_ONE << below[t + 1]) - (_ONE << below[t]) for t in range(4)], axis=2)
    # slot masks (a hand's slots: up to 17 bits, with 3 players) are int32 throughout the play loop:
    # no mixed-type casts, half the memory traffic of int64
    heart_slots = suit_slots[:, :, 2].ravel().astype(np.int32)
    qs_slot = np.where(hands & QS_BIT, _ONE << np.bitwise_count(hands & (QS_BIT - 1)), 0).ravel()
    point_slots = (heart_slots | qs_slot).astype(np.int32)
    suit_slots = np.ascontiguousarray(suit_slots.transpose(2, 0, 1), dtype=np.int32).ravel()  # suit-major
    per_suit = count * n
    alive = np.full(count * n, (1 << size) - 1, dtype=np.int32)
    size32 = np.int32(size)
    base = rows * n

    # play
    clubs = deck_mask(n) & SUIT_MASKS[0]
    lead_card = (clubs & -clubs).bit_length() - 1  # the lowest club in play
    leader = np.argmax(cards[:, :, 0] == lead_card, axis=1).astype(np.int64)
    plays = np.empty((total, count), dtype=np.int8)  # step-major: each step writes one row
    raw = np.zeros((count, n), dtype=np.int64)
    jd_taker = np.full(count, -1, dtype=np.int64)
    broken = np.zeros(count, dtype=bool)
    # float32 is enough: u < 1 times a count c <= 13 rounds to below c, so r = floor(u * c) < c
    uniforms = rng.random((total, count), dtype=np.float32)
    lead = np.zeros(count, dtype=np.int64)
    wrap = np.arange(2 * n, dtype=np.int64) % n  # (leader + k) % n by lookup
    leader_flat = base + leader
    lead_offset = np.zeros(count, dtype=np.int64)
    # every index below is in range by construction: mode="clip" skips numpy's bounds checks
    for step in range(total):
        pos = step % n
        flat = leader_flat if pos == 0 else base + wrap.take(leader + pos, mode="clip")
        al = alive.take(flat, mode="clip")
        if step == 0:
            slot = np.zeros(count, dtype=np.int64)
        else:
            if pos == 0:
                if rules.must_break_hearts:
                    safe = al & ~heart_slots.take(flat, mode="clip")
                    legal = np.where(broken | (safe == 0), al, safe)
                else:
                    legal = al
            else:
                follow = al & suit_slots.take(flat + lead_offset, mode="clip")
                if step < n and rules.no_pts_on_first_trick:
                    safe = al & ~point_slots.take(flat, mode="clip")
                    other = np.where(safe, safe, al)
                else:
                    other = al
                legal = np.where(follow, follow, other)
            r = (uniforms[step] * np.bitwise_count(legal)).astype(np.int32)
            slot = select.take(legal * size32 + r, mode="clip")
        card = cards_flat.take(flat * size + slot, mode="clip")
        alive[flat] = al ^ _SLOT_BITS.take(slot, mode="clip")
        plays[step] = card
        if pos == 0:
            lead = _SUIT.take(card, mode="clip")
            lead_offset = lead * per_suit
        if pos == n - 1:  # the trick is complete: the highest card of the suit led takes it
            trick = plays[step - n + 1 : step + 1]  # (n, count), in playing order from the leader
            suits = _SUIT.take(trick, mode="clip")
            broken |= (suits == 2).any(axis=0)  # a heart played breaks hearts for the next lead
            if rules.qs_breaks_hearts:
                broken |= (trick == _QS).any(axis=0)
            value = np.where(suits == lead, trick, -1)
            leader = wrap.take(leader + np.argmax(value, axis=0), mode="clip")
            raw[rows, leader] += _POINTS.take(trick, mode="clip").sum(axis=0)
            if rules.jd_bonus:
                jd_taker = np.where((trick == _JD).any(axis=0), leader, jd_taker)
            leader_flat = base + leader

    points = raw.copy()
    moon = raw == 26
    shot = moon.any(axis=1)
    if shot.any():
        if rules.moon == "subtract_from_shooter":
            points[shot] = np.where(moon[shot], -26, 0)
        else:  # add_to_others; "shooter_chooses" in a lone hand adds too (see Hearts._moon_choice)
            points[shot] = np.where(moon[shot], 0, 26)
    if rules.jd_bonus:
        has_jd = jd_taker >= 0
        points[rows[has_jd], jd_taker[has_jd]] -= 10
    return BatchResult(
        n, rules, tuple(cycle), direction_codes, deals, passes, np.ascontiguousarray(plays.T), raw, points
    )

"""Many random hands of Hearts at once, with numpy: the experiment path.

``simulate(count, players, seed, rules, pass_direction)`` deals ``count`` hands, passes
random cards and plays every hand to its end with uniformly random legal cards, all
hands in step: one numpy operation per rule per trick over every hand. It keeps the whole
story of each hand (deal, passes, plays), so any hand can be replayed through the step
engine (``BatchResult.replay(i)``) and checked to the same points; the tests do that.

Hands are 52-bit masks (bit ``suit * 13 + rank - 2``, as ``Card.bit``) in int64 arrays.
A deal is one sort of random keys per hand, and the hands after the pass are sorted by a
second sort of ``seat * 64 + card``; temporaries are kept small (page faults of big ones
cost more than the arithmetic). In play each seat's sorted cards are slots; a uniformly
random legal card is drawn by counting the legal slots and picking the r-th with a table.
A trick is two rounds of operations: the leader's card (one gather per hand), then all the other
seats' cards at once, since a follower's legal cards depend only on the suit led and its own
hand (the seats of a trick are rows of seat-major arrays); the trick's taker is the largest
key ``(card + 1) * 8 + seat`` among the cards of the suit led. No per-hand ``np.where`` and no
``argmax`` along a short axis: both cost several times a plain vector operation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...cards import SUIT_MASKS, card_of_index, cards_of_mask
from .game import Hearts
from .rules import (
    JD_INDEX,
    JD_POINTS,
    MOON_POINTS,
    POINTS,
    QS_BIT,
    QS_INDEX,
    HeartsRules,
    check_players,
    deck_mask,
    hand_size,
    opening_bit,
    pass_offset,
)

__all__ = ["simulate", "BatchResult"]

_POINTS = np.array(POINTS, dtype=np.int64)  # the rules kernel's points of each card
_SUIT = np.arange(52, dtype=np.int64) // 13
_POINTS8 = _POINTS.astype(np.int8)
_SHIFT16 = _SUIT * 16  # by card: the shift of its suit's field in a seat's packed suit slots
_QS = QS_INDEX
_JD = JD_INDEX
_ONE = np.int64(1)
_BITS = _ONE << np.arange(52, dtype=np.int64)  # the bit of each card index
_SELECT: dict[int, np.ndarray] = {}
_ONE32 = np.int32(1)  # 1 << slot: the bit of a slot in int32 (a hand has at most 17 slots)


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
    cells = count * len(deck)  # the generator's raw 64-bit words, two 32-bit keys each
    keys = rng.bit_generator.random_raw((cells + 1) // 2).view(np.uint32)[:cells].reshape(count, len(deck))
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
    # slots: each seat's cards sorted, so each suit is a run of slots; suit t's slots of a seat are
    # the bits from (its cards below suit t) to (its cards up to suit t), built suit-major in int32
    cards_flat = keys.astype(np.int8).ravel()  # (hand * n + seat) * size + slot
    per_suit = count * n
    hands_flat = hands.T.ravel()  # seat * count + hand
    below = np.zeros((5, per_suit), dtype=np.int32)
    for t in range(4):
        np.add(below[t], np.bitwise_count(hands_flat & SUIT_MASKS[t]), out=below[t + 1])
    np.left_shift(np.int32(1), below, out=below)
    suit_slots = below[1:] - below[:4]  # (suit, seat * count + hand), contiguous
    # slot masks (a hand's slots: up to 17 bits, with 3 players) are int32 throughout the play loop:
    # no mixed-type casts, half the memory traffic of int64
    heart_slots = suit_slots[2]
    qs_slot = (hands_flat >> _QS & 1) << np.bitwise_count(hands_flat & (QS_BIT - 1))  # 0 if not held
    point_slots = heart_slots | qs_slot.astype(np.int32)
    if size <= 16:  # every seat's four suits packed in 16-bit fields: suit t's slots are one shift away
        packed = suit_slots.astype(np.int64)
        packed <<= np.arange(0, 64, 16, dtype=np.int64)[:, None]
        packed = np.bitwise_or.reduce(packed, axis=0).reshape(n, count)
    suit_slots = suit_slots.ravel()
    alive = np.full(count * n, (1 << size) - 1, dtype=np.int32)
    size32 = np.int32(size)

    # play, a trick at a time: the leader's card (one gather per hand), then every other seat's at
    # once (a follower's legal cards depend only on the suit led and its own hand), seat-major
    # arrays (seat * count + hand) so that the n seats of a trick are n contiguous rows. Branches
    # are Python ones on the trick only (each a rule), never per hand; "a if c else b" per hand is
    # written with masks (np.where costs several times more).
    lead_card = opening_bit(n).bit_length() - 1  # the lowest club in play
    leader = np.argmax(cards[:, :, 0] == lead_card, axis=1).astype(np.int64)
    plays = np.empty((total, count), dtype=np.int8)  # step-major: each trick writes n rows
    raw = np.zeros((n, count), dtype=np.int16)  # (seat, hand): the points taken (26 at most)
    jd_taker = np.full(count, -1, dtype=np.int64)
    broken = np.zeros(count, dtype=bool)
    # r = floor(u * c) for a uniform 32-bit integer u / 2**32 and a count c of legal slots: one
    # multiply in uint64 and a shift (bias at most c / 2**32). Per trick, the generator's raw 64-bit
    # words, two 32-bit draws each: n rows for the seats' follows, then one for the lead.
    words = ((n + 1) * count + 1) // 2
    bits = rng.bit_generator.random_raw
    order = np.arange(n, dtype=np.int64)[:, None]  # a trick's positions, as a column
    seats = np.arange(n, dtype=np.int16)[:, None]
    seat_rows = seats + np.int16(8)  # a seat in the low 3 bits, 8 set
    order_rows = order * count  # a trick's positions, as offsets into the two copies of its cards
    twice = np.empty((2 * n, count), dtype=np.int8)  # a trick's cards by seat, twice: no wrap-around
    flat2d = np.arange(per_suit, dtype=np.int64).reshape(n, count)  # seat * count + hand
    card_base = (rows * n + order) * size  # (seat, hand): where its slots start in cards_flat
    point_slots2d = point_slots.reshape(n, count)
    alive2d = alive.reshape(n, count)
    # every index below is in range by construction: mode="clip" skips numpy's bounds checks
    leader_flat = leader * count + rows
    for t in range(size):
        draws = bits(words).view(np.uint32)[: (n + 1) * count].reshape(n + 1, count)
        al = alive.take(leader_flat, mode="clip")
        if t == 0:  # the lowest club, the holder's lowest slot, opens the hand
            slot = np.zeros(count, dtype=np.int64)
        else:
            if rules.must_break_hearts:  # no heart led before hearts are broken, unless only hearts
                held = al & heart_slots.take(leader_flat, mode="clip")
                safe = al ^ held
                legal = safe | held * (broken | (safe == 0))
            else:
                legal = al
            r = (np.multiply(draws[n], np.bitwise_count(legal), dtype=np.uint64) >> 32).astype(np.int32)
            slot = select.take(legal * size32 + r, mode="clip")
        lead = cards_flat.take((rows * n + leader) * size + slot, mode="clip")
        alive[leader_flat] = al ^ (_ONE32 << slot)
        # the others follow suit if they can (the leader's row is computed too, and discarded)
        if size <= 16:  # (the low 32 bits of the shifted fields: the suit led, and above it bits that
            # no live slot has)
            follow = alive2d & (packed >> _SHIFT16.take(lead, mode="clip")).astype(np.int32)
        else:
            follow = alive2d & suit_slots.take(_SUIT.take(lead, mode="clip") * per_suit + flat2d, mode="clip")
        if t == 0 and rules.no_pts_on_first_trick:  # no point card on the first trick, if avoidable
            held = alive2d & point_slots2d
            safe = alive2d ^ held
            other = safe | held * (safe == 0)
        else:
            other = alive2d
        legal = follow | other * (follow == 0)
        r = (np.multiply(draws[:n], np.bitwise_count(legal), dtype=np.uint64) >> 32).astype(np.int32)
        slot = select.take(legal * size32 + r, mode="clip")
        card = twice[:n]  # (seat, hand)
        cards_flat.take(card_base + slot, mode="clip", out=card)
        played = _ONE32 << slot  # a shift, several times cheaper than a table gather
        played.ravel()[leader_flat] = 0  # the leader has played already
        alive2d ^= played
        card.ravel()[leader_flat] = lead
        followed = follow != 0  # a card that followed suit is of the suit led (ordered by rank)
        followed.ravel()[leader_flat] = True
        # the trick goes to the highest card of the suit led: key (card + 1) * 8 + seat, 0 off suit
        key = card.astype(np.int16)
        key <<= 3
        key += seat_rows
        key *= followed
        taker = (key.max(axis=0) & 7).astype(np.int64)
        # the trick in playing order, from the leader
        twice[n:] = card
        plays[t * n : (t + 1) * n] = twice.ravel().take(leader_flat + order_rows, mode="clip")
        hearts = (card - np.int8(26)).view(np.uint8) < 13
        if rules.qs_breaks_hearts:
            hearts |= card == _QS
        for row in hearts:  # a heart played breaks hearts for the next lead
            broken |= row
        raw += _POINTS8.take(card, mode="clip").sum(axis=0, dtype=np.int16) * (seats == taker)
        if rules.jd_bonus:
            jd_taker = np.where((card == _JD).any(axis=0), taker, jd_taker)
        leader = taker
        leader_flat = taker * count + rows
    raw = raw.T.astype(np.int64)
    points = raw.copy()
    moon = raw == MOON_POINTS
    shot = moon.any(axis=1)
    if shot.any():
        if rules.moon == "subtract_from_shooter":
            points[shot] = np.where(moon[shot], -MOON_POINTS, 0)
        else:  # add_to_others; "shooter_chooses" in a lone hand adds too (see Hearts._moon_choice)
            points[shot] = np.where(moon[shot], 0, MOON_POINTS)
    if rules.jd_bonus:
        has_jd = jd_taker >= 0
        points[rows[has_jd], jd_taker[has_jd]] += JD_POINTS
    return BatchResult(
        n, rules, tuple(cycle), direction_codes, deals, passes, np.ascontiguousarray(plays.T), raw, points
    )

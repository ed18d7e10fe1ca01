"""Many random hands of Hearts at once, with numpy: the experiment path.

``simulate(count, players, seed, rules, pass_direction)`` deals ``count`` hands, passes
random cards and plays every hand to its end with uniformly random legal cards, all
hands in step: one numpy operation per rule per trick over every hand. It keeps the whole
story of each hand (deal, passes, plays), so any hand can be replayed through the step
engine (``BatchResult.replay(i)``) and checked to the same points; the tests do that.

Hands are 52-bit masks (bit ``suit * 13 + rank - 2``, as ``Card.bit``) in int64 arrays.
A deal is one sort of random keys per hand, and the hands after the pass are sorted by a
second sort of ``seat * 256 + card``; the deal runs a cache-sized chunk of hands at a time,
and each seat's deal and pass masks are one float64 matrix product (powers of two add
exactly). In play each seat's sorted cards are slots (int16 masks; int32 with 3 players); a
uniformly random legal card is drawn by counting the legal slots and picking the r-th with a
table. A trick is two rounds of operations: the leader's card (one gather per hand), then every
seat's card at once, since a follower's legal cards depend only on the suit led and its own
hand (the seats of a trick are rows of seat-major arrays); the leader's row plays its lead as
its only legal card, so nothing is written per hand. The trick's taker is the largest key
``(card + 1) * 8 + seat`` among the cards of the suit led. No ``np.where``, no ``where=`` and
no ``argmax`` along a short axis (each costs several times a plain vector operation: masks of
-1 and 0 do the choosing), no operation on mixed dtypes (an implicit cast each), and no fresh
memory: the scratch arrays are kept per thread for the next call, since paging in new memory
cost about a quarter of a call. The random stream is the same as when each trick drew its own
words (the play's words are drawn in one call now, in the same order), so the same seed gives the
same hands as before all this.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache

import numpy as np

from ...cards import SUIT_MASKS, card_of_index, cards_of_mask
from .game import Hearts
from .rules import (
    JD_INDEX,
    JD_POINTS,
    MOON_POINTS,
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

_SUIT = np.arange(52, dtype=np.int64) // 13
_SHIFT16 = _SUIT * 16  # by card: the shift of its suit's field in a seat's packed suit slots
_QS = QS_INDEX
_JD = JD_INDEX
_ONE = np.int64(1)
_SELECT: dict[int, np.ndarray] = {}
_DEAL_CHUNK = 2048  # hands per chunk of the deal (even)


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


@cache
def _layout(n: int) -> tuple[np.ndarray, int, int]:
    """Per player count: the deck's card indices (uint32), the hand size and the lowest club (the
    opening lead)."""
    deck = np.array([c.index for c in cards_of_mask(deck_mask(n))], dtype=np.uint32)
    deck.flags.writeable = False
    return deck, hand_size(n), opening_bit(n).bit_length() - 1


class _Scratch:
    """The scratch arrays of a ``simulate`` call, by name, kept for the thread's next call.

    A fresh array is memory the operating system must page in, and the C library hands a freed
    heap back to the system once its free top passes a threshold: measured, page faults were
    about a quarter of a call's time. Calls of the same shape (the usual: a loop of batches) find their
    arrays here. Only calls of up to ``_SCRATCH_HANDS`` hands keep theirs (about 0.75 KiB a hand:
    8 MiB for 10,000); nothing returned to the caller is ever one of these arrays.
    """

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def __call__(self, name: str, shape: int | tuple[int, ...], dtype: type) -> np.ndarray:
        """The array ``name`` of this shape and dtype (its contents are left from the last call)."""
        array = self.arrays.get(name)
        shape = shape if isinstance(shape, tuple) else (shape,)
        if array is None or array.shape != shape or array.dtype != dtype:
            array = self.arrays[name] = np.empty(shape, dtype=dtype)
        return array


_SCRATCH_HANDS = 1 << 15
_THREAD = threading.local()


def _scratch(count: int) -> _Scratch:
    """This thread's kept scratch arrays, or (for a call of many hands) arrays of its own."""
    if count > _SCRATCH_HANDS:
        return _Scratch()
    scratch = getattr(_THREAD, "scratch", None)
    if scratch is None:
        scratch = _THREAD.scratch = _Scratch()
    return scratch


@cache
def _deal_matrix(n: int, k: int) -> np.ndarray:
    """(position, [seat's pass, seat's deal]): 1.0 where the card dealt at the position is in it."""
    matrix = np.zeros((hand_size(n) * n, 2 * n))
    for p in range(len(matrix)):
        matrix[p, n + p % n] = 1.0
        if p < k * n:
            matrix[p, p % n] = 1.0
    matrix.flags.writeable = False
    return matrix


def _count_bits(masks: np.ndarray, work: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Set bits of each int16/int32 mask, into ``out`` (uint64): numpy's bitwise_count is several times
    faster on bytes than on wider integers, so count the bytes (into ``work``, uint8) and add them
    with one multiply."""
    np.bitwise_count(masks.reshape(-1).view(np.uint8), out=work)
    if masks.itemsize == 2:
        sums = work.view(np.uint16)
        sums *= np.uint16(0x0101)
        sums >>= np.uint16(8)
    else:
        sums = work.view(np.uint32)
        sums *= np.uint32(0x01010101)
        sums >>= np.uint32(24)
    np.copyto(out, sums.reshape(out.shape))
    return out


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
    if pass_direction == "cycle":
        cycle = rules.cycle_for(n)
    else:
        pass_offset(pass_direction, n)
        cycle = (pass_direction,)
    rng = np.random.default_rng(seed)
    bits = rng.bit_generator.random_raw
    deck, size, lead_card = _layout(n)
    select = _select_table(size)
    ncards = len(deck)
    total = size * n
    k = rules.cards_to_pass
    per_suit = count * n
    w = _scratch(count)
    rows = np.arange(count)
    seats64 = np.arange(n, dtype=np.int64)[:, None]

    # the deal, a chunk of hands at a time (temporaries that fit the cache): each hand's cards
    # sorted by random 26-bit keys (the low 6 bits of a key hold the card) is a random
    # permutation; the card at position p goes to seat p % n. (Equal keys, about one hand in
    # 50,000, are broken by card index: a negligible bias.) The keys come first in the generator's
    # stream, hand after hand, two 32-bit keys a raw 64-bit word; a chunk holds an even number of
    # hands, so that each starts on a word.
    direction_codes = rows % len(cycle)
    cycle_offsets = [pass_offset(d, n) for d in cycle]
    # by direction and position: the seat the card is in after the pass, in a key's second byte
    seat_after = np.array(
        [[(p % n + (off if p < k * n else 0)) % n for p in range(ncards)] for off in cycle_offsets],
        dtype=np.uint32,
    ) << np.uint32(8)
    # the deal as masks by a matrix product: a card's bit as the float64 2**card (exponent bits
    # card + 1023) and a hand's row of them times a 0/1 matrix (position, seat); distinct powers of
    # two below 2**52 add exactly in float64, in any order. The first k rounds a seat was dealt are a
    # uniformly random k of its hand: its pass
    sums = w("sums", (count, 2 * n), np.int64)  # (hand, passes by seat then deals by seat)
    cards_flat = w("cards", count * ncards, np.uint8)  # (hand * n + seat) * size + slot
    period = 2 * len(cycle)  # a chunk starts on a word and on the first direction of the cycle
    chunk = min(count, max(period, _DEAL_CHUNK // period * period))
    after = w("after", (chunk, ncards), np.uint32)  # each hand's row of seat_after, by its direction
    seat_after.take(np.arange(chunk) % len(cycle), axis=0, out=after)
    powers = w("powers", (chunk, ncards), np.uint64)
    product = w("product", (chunk, 2 * n), np.float64)
    matrix = _deal_matrix(n, k)
    for a in range(0, count, chunk):
        b = min(count, a + chunk)
        c = b - a
        keys = bits((c * ncards + 1) // 2).view(np.uint32)[: c * ncards].reshape(c, ncards)
        keys &= np.uint32(~63 & 0xFFFFFFFF)
        keys |= deck
        keys.sort(axis=1)
        keys &= np.uint32(63)  # (hand, position): the card dealt there
        np.add(keys, np.uint32(1023), out=powers[:c])
        powers[:c] <<= np.uint64(52)
        np.matmul(powers[:c].view(np.float64), matrix, out=product[:c])
        np.copyto(sums[a:b], product[:c], casting="unsafe")
        # each seat's cards after the pass, sorted: one sort of the keys seat * 256 + card, where a
        # position's seat after the pass is fixed by the pass direction (hand i: direction i % len);
        # the low byte of a sorted key is its card
        keys |= after[:c]
        keys.sort(axis=1)
        np.copyto(cards_flat[a * ncards : b * ncards].reshape(c, ncards), keys, casting="unsafe")
    cards_flat = cards_flat.view(np.int8)
    offsets = np.array(cycle_offsets, dtype=np.int64).take(direction_codes)
    passes_hm = sums[:, :n]
    deals_hm = sums[:, n:]
    deals = deals_hm.copy()  # (copies: nothing returned is a scratch array)
    # each seat's hand after the pass: its deal less its pass, and its giver's pass (its own, with no pass)
    giver = w("giver", (count, n), np.int64)
    # (by direction, seat: its giver, taken by each hand's direction: a broadcast of a column against a
    # row of n costs twice as much)
    givers = (np.arange(n, dtype=np.int64) - np.array(cycle_offsets, dtype=np.int64)[:, None]) % n
    givers.take(direction_codes, axis=0, out=giver)
    giver += (rows * (2 * n))[:, None]
    hands_hm = w("hands_hm", (count, n), np.int64)
    sums.take(giver, mode="clip", out=hands_hm)
    hands_hm += deals_hm
    hands_hm -= passes_hm
    hands_sm = w("hands", (n, count), np.int64)  # seat-major: (seat, hand)
    np.copyto(hands_sm, hands_hm.T)
    passes = passes_hm * (offsets != 0)[:, None]

    # slots: each seat's cards sorted, so each suit is a run of slots; suit t's slots of a seat are
    # the bits from (its cards below suit t) to (its cards up to suit t), seat-major. Slot masks are
    # int16 (4 players or more: 13 slots at most) or int32 (3 players: 17)
    small = size <= 15
    mdt = np.int16 if small else np.int32
    one = mdt(1)
    sign = mdt(15 if small else 31)
    hands_flat = hands_sm.ravel()  # seat * count + hand
    below = w("below", per_suit, np.uint8)
    below.fill(0)
    in_suit = w("in_suit", per_suit, np.uint8)
    suit_mask = w("suit_mask", per_suit, np.int64)
    edge = w("edge", per_suit, np.int64)
    edge.fill(1)  # 1 << (the seat's cards below the suit)
    upper = w("upper", per_suit, np.int64)
    heart_slots = w("heart_slots", per_suit, mdt)
    if small:  # a seat's four suits packed in 16-bit fields: suit t's slots are one shift away
        packed = w("packed", (n, count), np.int64)
        packed.fill(0)
    else:
        suit_slots = w("suit_slots", 4 * per_suit, mdt)
    for t in range(4):
        np.bitwise_and(hands_flat, SUIT_MASKS[t], out=suit_mask)
        np.bitwise_count(suit_mask, out=in_suit)
        below += in_suit
        np.left_shift(_ONE, below, out=upper)
        np.subtract(upper, edge, out=suit_mask)  # suit t's slots
        if t == 2:
            np.copyto(heart_slots, suit_mask, casting="unsafe")
        if small:
            suit_mask <<= 16 * t
            packed.ravel()[:] |= suit_mask
        else:
            np.copyto(suit_slots[t * per_suit : (t + 1) * per_suit], suit_mask, casting="unsafe")
        edge, upper = upper, edge
    # the Queen of spades' slot (0 if not held): its bit, shifted by the seat's cards below it
    np.bitwise_and(hands_flat, QS_BIT - 1, out=suit_mask)
    np.bitwise_count(suit_mask, out=in_suit)
    np.right_shift(hands_flat, _QS, out=suit_mask)
    suit_mask &= 1
    np.left_shift(suit_mask, in_suit, out=suit_mask)
    point_slots2d = w("point_slots", (n, count), mdt)
    np.copyto(point_slots2d.ravel(), suit_mask, casting="unsafe")
    point_slots2d.ravel()[:] |= heart_slots
    alive2d = w("alive", (n, count), mdt)
    alive2d.fill((1 << size) - 1)
    alive = alive2d.ravel()

    # play, a trick at a time: the leader's card (one gather per hand), then every seat's at once
    # (a follower's legal cards depend only on the suit led and its own hand), seat-major arrays
    # (seat * count + hand) so that the n seats of a trick are n contiguous rows. The leader's row
    # plays too, its legal cards being its lead alone (one card: the draw picks it), so that the
    # trick's cards, the played slots and the taker need no per-hand writes. Branches are Python
    # ones on the trick only (each a rule), never per hand; "a if c else b" per hand is written
    # with masks (-1 or 0: np.where and ufuncs' where= cost several times more). Operands share one
    # dtype (mixed ones cost a cast each) and every array is one of the scratch arrays.
    leader = w("leader", count, np.int64)  # the first trick: the lowest club's holder
    holder = w("holder", (n, count), np.int64)
    np.right_shift(hands_sm, lead_card, out=holder)
    holder &= 1
    holder *= seats64
    holder.sum(axis=0, out=leader)
    plays = w("plays", (total, count), np.int8)  # step-major: each trick writes n rows
    raw = w("raw", (n, count), mdt)  # (seat, hand): the points taken (26 at most)
    raw.fill(0)
    jd_taker = np.full(count, -1, dtype=np.int64)
    broken = w("broken", count, bool)
    broken.fill(False)
    everywhere_broken = False  # (then the rule no longer bars a lead)
    # r = floor(u * c) for a uniform 32-bit integer u / 2**32 and a count c of legal slots: one
    # multiply in uint64 and a shift (bias at most c / 2**32). Per trick, the generator's raw 64-bit
    # words, two 32-bit draws each: n rows for the seats' follows, then one for the lead.
    trick_cells = (n + 1) * count
    trick_words = (trick_cells + 1) // 2
    draws = w("draws", (n + 1, count), np.uint64)
    # every trick's words but the last's (which draws nothing) at once: the same stream as a call a trick
    words = bits(trick_words * (size - 1)).view(np.uint32)
    seats = np.arange(n, dtype=mdt)[:, None]
    seat_rows = seats + mdt(8)  # a seat in the low 3 bits, 8 set
    order_rows = seats64 * count  # a trick's positions, as offsets into the two copies of its cards
    twice = w("twice", (2 * n, count), np.int8)  # a trick's cards by seat, twice: no wrap-around
    card = twice[:n]  # (seat, hand)
    card_base = w("card_base", (n, count), np.int64)  # (seat, hand): where its slots start in cards_flat
    np.add(rows * n, seats64, out=card_base)
    card_base *= size
    lead_base = rows * (n * size)
    if not small:
        flat2d = np.arange(per_suit, dtype=np.int64).reshape(n, count)  # seat * count + hand
    # the seats' rows (seat, hand)
    legal = w("legal", (n, count), mdt)
    other = w("other", (n, count), mdt)
    spare = w("spare", (n, count), mdt)
    followed = w("followed", (n, count), mdt)  # -1 where the seat has a card of the suit led
    is_leader = w("is_leader", (n, count), bool)
    leader_mask = w("leader_mask", (n, count), mdt)  # -1 in the leader's row
    byte_counts = w("byte_counts", per_suit * np.dtype(mdt).itemsize, np.uint8)
    counts = w("counts", (n, count), np.uint64)
    index = w("index", (n, count), np.int64)
    slot = w("slot", (n, count), np.int8)
    key = w("key", (n, count), mdt)
    card8 = w("card8", (n, count), np.int8)
    is_heart = w("is_heart", (n, count), bool)
    is_queen = w("is_queen", (n, count), bool)
    # the leaders' (hand)
    leader_flat = w("leader_flat", count, np.int64)
    lead_legal = w("lead_legal", count, mdt)
    held = w("held", count, mdt)
    lead_bytes = w("lead_bytes", count, np.uint8)
    lead_counts = w("lead_counts", count, np.uint64)
    lead_index = w("lead_index", count, np.int64)
    lead_slot = w("lead_slot", count, np.int8)
    lead_slot.fill(0)  # the lowest club, the holder's lowest slot, opens the hand
    lead_bit = w("lead_bit", count, mdt)
    lead = w("lead", count, np.int8)
    shift = w("shift", count, np.int64)
    flags = w("flags", count, bool)
    taken = w("taken", count, mdt)
    np.equal(seats, leader.astype(mdt), out=is_leader)
    np.negative(is_leader.view(np.int8), out=leader_mask, casting="unsafe")
    # every index below is in range by construction: mode="clip" skips numpy's bounds checks
    for t in range(size):
        last = t == size - 1  # every seat holds one card, its only legal one: no draws (they would be
        # the generator's last words, drawn for nothing)
        np.multiply(leader, count, out=leader_flat)
        leader_flat += rows
        if last:
            np.copyto(index, alive2d)
            index *= size
            select.take(index, mode="clip", out=slot)
            np.copyto(index, slot)
            index += card_base
            cards_flat.take(index, mode="clip", out=card)
            card.reshape(-1).take(leader_flat, mode="clip", out=lead)
        else:
            np.copyto(draws.ravel(), words[2 * t * trick_words : 2 * t * trick_words + trick_cells])
            if t:
                alive.take(leader_flat, mode="clip", out=lead_legal)
                if rules.must_break_hearts and not everywhere_broken:  # no heart led before hearts are
                    # broken, unless only hearts
                    heart_slots.take(leader_flat, mode="clip", out=held)
                    held &= lead_legal
                    lead_legal ^= held
                    np.equal(lead_legal, 0, out=flags)
                    flags |= broken
                    held *= flags
                    lead_legal |= held
                np.bitwise_count(lead_legal, out=lead_bytes)
                np.copyto(lead_counts, lead_bytes)
                lead_counts *= draws[n]
                lead_counts >>= np.uint64(32)
                np.copyto(lead_index, lead_legal)
                lead_index *= size
                lead_index += lead_counts.view(np.int64)
                select.take(lead_index, mode="clip", out=lead_slot)
            np.multiply(leader, size, out=lead_index)
            lead_index += lead_base
            np.add(lead_index, lead_slot, out=lead_index, casting="unsafe")
            cards_flat.take(lead_index, mode="clip", out=lead)
        # the others follow suit if they can
        if small:  # (the low 16 bits of the shifted fields: the suit led)
            _SHIFT16.take(lead, mode="clip", out=shift)
            np.right_shift(packed, shift, out=index)
            np.copyto(legal, index, casting="unsafe")
        else:
            _SUIT.take(lead, mode="clip", out=shift)
            shift *= per_suit
            np.add(flat2d, shift, out=index)
            suit_slots.take(index, mode="clip", out=legal)
        legal &= alive2d
        if last:
            np.negative(legal, out=followed)
            followed >>= sign  # -1 where a card of the suit led
        else:
            # the leader's row: its lead alone
            np.left_shift(one, lead_slot, out=lead_bit, casting="unsafe")
            np.bitwise_xor(legal, lead_bit, out=spare)
            spare &= leader_mask
            legal ^= spare
            if t == 0 and rules.no_pts_on_first_trick:  # no point card on the first trick, if avoidable
                np.bitwise_and(alive2d, point_slots2d, out=spare)
                np.bitwise_xor(alive2d, spare, out=other)
                np.subtract(other, one, out=followed)
                followed >>= sign  # -1 where only point cards are left
                spare &= followed
                other |= spare
                allowed = other
            else:
                allowed = alive2d
            # void in the suit led: any card (of those allowed); followed: -1 where a card of the suit led
            np.negative(legal, out=followed)
            followed >>= sign
            np.invert(followed, out=spare)
            spare &= allowed
            legal |= spare
            _count_bits(legal, byte_counts, counts)
            counts *= draws[:n]
            counts >>= np.uint64(32)
            np.copyto(index, legal)
            index *= size
            index += counts.view(np.int64)
            select.take(index, mode="clip", out=slot)
            np.copyto(index, slot)
            index += card_base
            cards_flat.take(index, mode="clip", out=card)
            np.left_shift(one, slot, out=spare, casting="unsafe")
            alive2d ^= spare
        # the trick goes to the highest card of the suit led: key (card + 1) * 8 + seat, 0 off suit
        np.copyto(key, card)
        key <<= 3
        key += seat_rows
        key &= followed
        key.max(axis=0, out=taken)
        taken &= 7
        # the trick in playing order, from the leader
        twice[n:] = card
        np.add(leader_flat, order_rows, out=index)
        twice.ravel().take(index, mode="clip", out=plays[t * n : (t + 1) * n])
        np.subtract(card, np.int8(26), out=card8)
        np.less(card8.view(np.uint8), 13, out=is_heart)
        np.equal(card, _QS, out=is_queen)
        if rules.must_break_hearts:  # a heart played breaks hearts for the next lead
            if not everywhere_broken:
                broken |= is_heart.any(axis=0, out=flags)
                if rules.qs_breaks_hearts:
                    broken |= is_queen.any(axis=0, out=flags)
                everywhere_broken = bool(broken.all())
        # the trick's points, to its taker
        np.equal(seats, taken, out=is_leader)  # the taker leads the next trick
        np.negative(is_leader.view(np.int8), out=leader_mask, casting="unsafe")
        is_heart.sum(axis=0, dtype=mdt, out=lead_bit)
        is_queen.any(axis=0, out=flags)
        lead_bit += flags * mdt(13)
        np.bitwise_and(leader_mask, lead_bit, out=spare)
        raw += spare
        np.copyto(leader, taken)
        if rules.jd_bonus:
            jd_taker = np.where((card == _JD).any(axis=0), leader, jd_taker)
    # the hand's points, seat-major: a moon (one seat took all 26) turns them around; "shooter_chooses"
    # in a lone hand adds to the others (see rules.moon_choice)
    shot = (raw == MOON_POINTS).any(axis=0).astype(mdt)  # (hand)
    turned = raw * shot
    points = raw - 2 * turned  # the shooter: -26
    if rules.moon != "subtract_from_shooter":  # add_to_others: the shooter 0, the others 26
        points += MOON_POINTS * shot
    if rules.jd_bonus:
        has_jd = jd_taker >= 0
        points[jd_taker[has_jd], rows[has_jd]] += JD_POINTS
    raw = raw.T.astype(np.int64, order="C")
    points = points.T.astype(np.int64, order="C")
    return BatchResult(
        # (plays: a hand-major view of a copy, the copy a block: transposing int8 as it copies costs
        # some 15 times as much)
        n,
        rules,
        tuple(cycle),
        direction_codes,
        deals,
        passes,
        plays.copy().T,
        raw,
        points,
    )

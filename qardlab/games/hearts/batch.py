"""Many random hands of Hearts at once, with numpy: the experiment path.

``simulate(count, players, seed, rules, pass_direction)`` deals ``count`` hands, passes
random cards and plays every hand to its end with uniformly random legal cards, all
hands in step: one numpy operation per rule per trick over every hand. It keeps the whole
story of each hand (deal, passes, plays), so any hand can be replayed through the step
engine (``BatchResult.replay(i)``) and checked to the same points; the tests do that.

The rules are the kernel's (:mod:`.rules`), turned into arrays once per call
(:class:`_Rules`): the cards a seat may not lead before hearts are broken
(:func:`~.rules.lead_mask`) and may not throw on the first trick (:func:`~.rules.discard_mask`)
as slots of its hand, the points of each card (:data:`~.rules.POINTS`) and the cards that break
hearts (:func:`~.rules.break_mask`) as tables by card, a moon's scores (:func:`~.rules.moon_mode`,
:func:`~.rules.moon_points`) and the bonus cards (:func:`~.rules.bonuses`). What stays here is how
numpy plays by them: follow suit if you can, else any card the rules allow, else any; the highest
card of the suit led takes the trick.

``simulate`` is a few named steps of :class:`_Simulation`: ``deal`` (and the pass), ``exchange``
(the hands after it), ``slots`` (each hand's cards as slots), ``play`` (a trick at a time:
``play_lead``, ``play_follows``, ``take_trick``) and ``score``.

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
from functools import cache, lru_cache
from typing import Any

import numpy as np

from ...cards import SUIT_MASKS, card_of_index, cards_of_mask
from .game import Hearts
from .rules import (
    MOON_POINTS,
    POINTS,
    HeartsRules,
    bonuses,
    break_mask,
    check_players,
    deck_mask,
    discard_mask,
    hand_size,
    lead_mask,
    moon_mode,
    moon_points,
    opening_bit,
    pass_offset,
)

__all__ = ["simulate", "BatchResult"]

_SUIT = np.arange(52, dtype=np.int64) // 13
_SHIFT16 = _SUIT * 16  # by card: the shift of its suit's field in a seat's packed suit slots
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


class _Rules:
    """The kernel's rules for a table of ``n`` under ``rules``, as the simulator reads them (see the module
    docstring): masks of cards and numbers, and the masks as parts (:meth:`parts`); one per table
    (:func:`_rules_of`)."""

    def __init__(self, n: int, rules: HeartsRules) -> None:
        deck = self.deck = deck_mask(n)
        #: the cards a seat may not lead before hearts are broken, and may not throw on the first trick,
        #: when it holds others (as parts; none: [])
        self.lead_barred = self.parts(deck & ~lead_mask(False, False, n, rules))
        self.first_barred = self.parts(deck & ~discard_mask(True, rules))
        #: the cards whose play breaks hearts; the cards that score with their points (POINTS), as parts
        self.breaks = self.parts(break_mask(rules) & deck)
        by_points: dict[int, int] = {}
        for i, points in enumerate(POINTS):
            if points and deck >> i & 1:
                by_points[points] = by_points.get(points, 0) | 1 << i
        self.points = [(p, value) for value, mask in sorted(by_points.items()) for p in self.parts(mask)]
        #: a moon's points in a lone hand: (the shooter's, each other seat's)
        self.moon = moon_points(moon_mode(0, [0] * n, rules, single=True))
        #: the cards that score for their taker beside the points: (card index, points)
        self.bonuses = tuple((bit.bit_length() - 1, points) for bit, points in bonuses(rules))

    def parts(self, mask: int) -> list[Any]:
        """A mask of cards in play as whole suits (``t``: every card of suit t in play) and single cards
        (``("card", i)``): what the simulator tests a card against, or works out the slots of."""
        deck = self.deck
        suits = [t for t in range(4) if deck & SUIT_MASKS[t] and mask & SUIT_MASKS[t] == deck & SUIT_MASKS[t]]
        rest = mask & ~sum(SUIT_MASKS[t] for t in suits)
        return [*suits, *(("card", i) for i in range(52) if rest >> i & 1)]


@lru_cache(maxsize=64)
def _rules_of(n: int, rules: HeartsRules) -> _Rules:
    """The simulator's reading of the kernel for a table (made once per player count and rules)."""
    return _Rules(n, rules)


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
    sim = _Simulation(count, n, rules, tuple(cycle), seed)
    sim.deal()
    sim.exchange()
    sim.slots()
    sim.play()
    return sim.score()


class _Simulation:
    """One call of :func:`simulate`, step by step (see the module docstring); the arrays are this
    thread's scratch arrays (``_scratch``), kept for its next call, and nothing returned is one."""

    def __init__(
        self, count: int, n: int, rules: HeartsRules, cycle: tuple[str, ...], seed: int | None
    ) -> None:
        self.count, self.n, self.rules, self.cycle = count, n, rules, cycle
        self.kernel = _rules_of(n, rules)
        self.bits = np.random.default_rng(seed).bit_generator.random_raw
        self.deck, self.size, self.lead_card = _layout(n)
        self.w = _scratch(count)
        self.rows = np.arange(count)
        self.seats64 = np.arange(n, dtype=np.int64)[:, None]
        self.direction_codes = self.rows % len(cycle)
        self.cycle_offsets = [pass_offset(d, n) for d in cycle]

    def deal(self) -> None:
        """Deal and pass, a chunk of hands at a time (temporaries that fit the cache): each hand's cards
        sorted by random 26-bit keys (the low 6 bits of a key hold the card) is a random permutation;
        the card at position p goes to seat p % n. (Equal keys, about one hand in 50,000, are broken by
        card index: a negligible bias.) The keys come first in the generator's stream, hand after hand,
        two 32-bit keys a raw 64-bit word; a chunk holds an even number of hands, so that each starts on
        a word. The deal's masks come by a matrix product: a card's bit as the float64 2**card (exponent
        bits card + 1023) and a hand's row of them times a 0/1 matrix (position, seat); distinct powers
        of two below 2**52 add exactly in float64, in any order. The first k rounds a seat was dealt are
        a uniformly random k of its hand: its pass. Each seat's cards after the pass, sorted: one sort of
        the keys seat * 256 + card, where a position's seat after the pass is fixed by the pass direction
        (hand i: direction i % len); the low byte of a sorted key is its card."""
        count, n, w, deck = self.count, self.n, self.w, self.deck
        cycle = self.cycle
        ncards = len(deck)
        k = self.rules.cards_to_pass
        # by direction and position: the seat the card is in after the pass, in a key's second byte
        seat_after = np.array(
            [[(p % n + (off if p < k * n else 0)) % n for p in range(ncards)] for off in self.cycle_offsets],
            dtype=np.uint32,
        ) << np.uint32(8)
        sums = self.sums = w("sums", (count, 2 * n), np.int64)  # (hand, passes by seat then deals by seat)
        cards_flat = w("cards", count * ncards, np.uint8)  # (hand * n + seat) * size + slot
        period = 2 * len(cycle)  # a chunk starts on a word and on the first direction of the cycle
        chunk = min(count, max(period, _DEAL_CHUNK // period * period))
        after = w("after", (chunk, ncards), np.uint32)  # each hand's row of seat_after, by its direction
        seat_after.take(np.arange(chunk) % len(cycle), axis=0, out=after)
        powers = w("powers", (chunk, ncards), np.uint64)
        product = w("product", (chunk, 2 * n), np.float64)
        matrix = _deal_matrix(n, k)
        bits = self.bits
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
            keys |= after[:c]
            keys.sort(axis=1)
            np.copyto(cards_flat[a * ncards : b * ncards].reshape(c, ncards), keys, casting="unsafe")
        self.cards_flat = cards_flat.view(np.int8)

    def exchange(self) -> None:
        """The hands after the pass: each seat's deal less its pass, and its giver's pass (its own, with
        no pass); seat-major (seat, hand), as the play reads them."""
        count, n, w, sums = self.count, self.n, self.w, self.sums
        offsets = np.array(self.cycle_offsets, dtype=np.int64).take(self.direction_codes)
        passes_hm = sums[:, :n]
        deals_hm = sums[:, n:]
        self.deals = deals_hm.copy()  # (copies: nothing returned is a scratch array)
        giver = w("giver", (count, n), np.int64)
        # (by direction, seat: its giver, taken by each hand's direction: a broadcast of a column against a
        # row of n costs twice as much)
        givers = (np.arange(n, dtype=np.int64) - np.array(self.cycle_offsets, dtype=np.int64)[:, None]) % n
        givers.take(self.direction_codes, axis=0, out=giver)
        giver += (self.rows * (2 * n))[:, None]
        hands_hm = w("hands_hm", (count, n), np.int64)
        sums.take(giver, mode="clip", out=hands_hm)
        hands_hm += deals_hm
        hands_hm -= passes_hm
        hands_sm = self.hands_sm = w("hands", (n, count), np.int64)  # seat-major: (seat, hand)
        np.copyto(hands_sm, hands_hm.T)
        self.passes = passes_hm * (offsets != 0)[:, None]

    def slots(self) -> None:
        """Each seat's cards sorted, so each suit is a run of slots; suit t's slots of a seat are the bits
        from (its cards below suit t) to (its cards up to suit t), seat-major. Slot masks are int16 (4
        players or more: 13 slots at most) or int32 (3 players: 17). The kernel's barred cards (no lead
        before hearts are broken, no discard on the first trick) as each seat's slots: a whole suit's
        slots, and a single card's its bit shifted by the seat's cards below it."""
        count, n, w, size = self.count, self.n, self.w, self.size
        per_suit = count * n
        small = self.small = size <= 15
        mdt = self.mdt = np.int16 if small else np.int32
        hands_flat = self.hands_sm.ravel()  # seat * count + hand
        kernel = self.kernel
        parts = [kernel.lead_barred, kernel.first_barred]
        whole = {p for ps in parts for p in ps if type(p) is int}
        single = sorted({p[1] for ps in parts for p in ps if type(p) is not int})
        part_slots: dict[Any, np.ndarray] = {}
        below = w("below", per_suit, np.uint8)
        below.fill(0)
        in_suit = w("in_suit", per_suit, np.uint8)
        suit_mask = w("suit_mask", per_suit, np.int64)
        edge = w("edge", per_suit, np.int64)
        edge.fill(1)  # 1 << (the seat's cards below the suit)
        upper = w("upper", per_suit, np.int64)
        if small:  # a seat's four suits packed in 16-bit fields: suit t's slots are one shift away
            packed = self.packed = w("packed", (n, count), np.int64)
            packed.fill(0)
        else:
            suit_slots = self.suit_slots = w("suit_slots", 4 * per_suit, mdt)
        for t in range(4):
            np.bitwise_and(hands_flat, SUIT_MASKS[t], out=suit_mask)
            np.bitwise_count(suit_mask, out=in_suit)
            below += in_suit
            np.left_shift(_ONE, below, out=upper)
            np.subtract(upper, edge, out=suit_mask)  # suit t's slots
            if t in whole:
                part_slots[t] = w(f"suit{t}_slots", per_suit, mdt)
                np.copyto(part_slots[t], suit_mask, casting="unsafe")
            if small:
                suit_mask <<= 16 * t
                packed.ravel()[:] |= suit_mask
            else:
                np.copyto(suit_slots[t * per_suit : (t + 1) * per_suit], suit_mask, casting="unsafe")
            edge, upper = upper, edge
        for i in single:  # a card's slot (0 if not held): its bit, shifted by the seat's cards below it
            np.bitwise_and(hands_flat, (1 << i) - 1, out=suit_mask)
            np.bitwise_count(suit_mask, out=in_suit)
            np.right_shift(hands_flat, i, out=suit_mask)
            suit_mask &= 1
            np.left_shift(suit_mask, in_suit, out=suit_mask)
            part_slots["card", i] = w(f"card{i}_slots", per_suit, mdt)
            np.copyto(part_slots["card", i], suit_mask, casting="unsafe")
        slots: list[np.ndarray | None] = []
        for name, keys in zip(("lead_barred", "first_barred"), parts):
            if len(keys) == 1:  # (one part: its slots as they are)
                slots.append(part_slots[keys[0]].reshape(n, count))
            elif keys:
                out = w(name, per_suit, mdt)
                np.copyto(out, part_slots[keys[0]])
                for key in keys[1:]:
                    out |= part_slots[key]
                slots.append(out.reshape(n, count))
            else:
                slots.append(None)
        self.lead_barred, self.first_barred = slots
        self.alive2d = w("alive", (n, count), mdt)
        self.alive2d.fill((1 << size) - 1)

    def play(self) -> None:
        """Play, a trick at a time: the leader's card (one gather per hand), then every seat's at once
        (a follower's legal cards depend only on the suit led and its own hand), seat-major arrays
        (seat * count + hand) so that the n seats of a trick are n contiguous rows. The leader's row
        plays too, its legal cards being its lead alone (one card: the draw picks it), so that the
        trick's cards, the played slots and the taker need no per-hand writes. Branches are Python ones
        on the trick only (each a rule), never per hand; "a if c else b" per hand is written with masks
        (-1 or 0: np.where and ufuncs' where= cost several times more). Operands share one dtype (mixed
        ones cost a cast each) and every array is one of the scratch arrays. r = floor(u * c) for a
        uniform 32-bit integer u / 2**32 and a count c of legal slots is one multiply in uint64 and a
        shift (bias at most c / 2**32); per trick the generator's raw 64-bit words give two 32-bit draws
        each: n rows for the seats' follows, then one for the lead."""
        count, n, w, size, mdt = self.count, self.n, self.w, self.size, self.mdt
        per_suit = count * n
        rows, seats64 = self.rows, self.seats64
        self.leader = leader = w("leader", count, np.int64)  # the first trick: the lowest club's holder
        holder = w("holder", (n, count), np.int64)
        np.right_shift(self.hands_sm, self.lead_card, out=holder)
        holder &= 1
        holder *= seats64
        holder.sum(axis=0, out=leader)
        self.plays = w("plays", (size * n, count), np.int8)  # step-major: each trick writes n rows
        self.raw = w("raw", (n, count), mdt)  # (seat, hand): the points taken (26 at most)
        self.raw.fill(0)
        #: by bonus card: the seat that took it, -1 until then
        self.bonus_takers = [np.full(count, -1, dtype=np.int64) for _ in self.kernel.bonuses]
        self.broken = w("broken", count, bool)
        self.broken.fill(False)
        self.everywhere_broken = self.lead_barred is None  # (then no rule bars a lead)
        self.trick_cells = (n + 1) * count
        self.trick_words = (self.trick_cells + 1) // 2
        self.draws = w("draws", (n + 1, count), np.uint64)
        self.draws_flat = self.draws.ravel()
        self.select = _select_table(size)
        self.alive = self.alive2d.ravel()
        if self.lead_barred is not None:
            self.lead_barred_flat = self.lead_barred.ravel()
        # every trick's words but the last's (which draws nothing) at once: the same stream as a call a trick
        self.words = self.bits(self.trick_words * (size - 1)).view(np.uint32)
        seats = self.seats = np.arange(n, dtype=mdt)[:, None]
        self.seat_rows = seats + mdt(8)  # a seat in the low 3 bits, 8 set
        self.order_rows = seats64 * count  # a trick's positions, as offsets into the two copies of its cards
        self.twice = w("twice", (2 * n, count), np.int8)  # a trick's cards by seat, twice: no wrap-around
        self.twice_flat = self.twice.ravel()
        self.card = self.twice[:n]  # (seat, hand)
        self.card_base = w("card_base", (n, count), np.int64)  # (seat, hand): where its slots start in cards
        np.add(rows * n, seats64, out=self.card_base)
        self.card_base *= size
        self.lead_base = rows * (n * size)
        if not self.small:
            self.flat2d = np.arange(per_suit, dtype=np.int64).reshape(n, count)  # seat * count + hand
        # the seats' rows (seat, hand)
        for name, dtype in (("legal", mdt), ("other", mdt), ("spare", mdt), ("followed", mdt), ("key", mdt)):
            setattr(self, name, w(name, (n, count), dtype))
        self.is_leader = w("is_leader", (n, count), bool)
        self.leader_mask = w("leader_mask", (n, count), mdt)  # -1 in the leader's row
        self.byte_counts = w("byte_counts", per_suit * np.dtype(mdt).itemsize, np.uint8)
        self.counts = w("counts", (n, count), np.uint64)
        self.index = w("index", (n, count), np.int64)
        self.chosen_slot = w("slot", (n, count), np.int8)
        self.card8 = w("card8", (n, count), np.int8)
        #: the tests of a trick's cards against the kernel's cards that score and that break hearts, by
        #: part (see _Rules.parts): which of them each card is
        kernel = self.kernel
        self.point_parts = kernel.points
        self.break_parts = kernel.breaks
        parts = {*(p for p, _ in self.point_parts), *self.break_parts}
        self.tests = {p: w(f"is_{p}", (n, count), bool) for p in sorted(parts, key=str)}
        self.part_points = w("part_points", count, mdt)
        # the leaders' (hand)
        self.leader_flat = w("leader_flat", count, np.int64)
        self.lead_legal = w("lead_legal", count, mdt)
        self.held = w("held", count, mdt)
        self.lead_bytes = w("lead_bytes", count, np.uint8)
        self.lead_counts = w("lead_counts", count, np.uint64)
        self.lead_index = w("lead_index", count, np.int64)
        self.lead_slot = w("lead_slot", count, np.int8)
        self.lead_slot.fill(0)  # the lowest club, the holder's lowest slot, opens the hand
        self.lead_bit = w("lead_bit", count, mdt)
        self.lead = w("lead", count, np.int8)
        self.shift = w("shift", count, np.int64)
        self.flags = w("flags", count, bool)
        self.taken = w("taken", count, mdt)
        self.trick_points = w("trick_points", count, mdt)
        np.equal(seats, leader.astype(mdt), out=self.is_leader)
        np.negative(self.is_leader.view(np.int8), out=self.leader_mask, casting="unsafe")
        for t in range(size):
            last = t == size - 1  # every seat holds one card, its only legal one: no draws (they would be
            # the generator's last words, drawn for nothing)
            self.play_lead(t, last)
            self.play_follows(t, last)
            self.take_trick(t)

    def play_lead(self, t: int, last: bool) -> None:
        """Trick ``t``'s lead: a uniformly random card of the leader's legal leads (the lowest club to
        open the hand; its last card at the last trick), into ``lead`` (its card) and ``lead_slot``."""
        count, n, size = self.count, self.n, self.size
        leader, leader_flat, lead, lead_slot = self.leader, self.leader_flat, self.lead, self.lead_slot
        select, cards_flat = self.select, self.cards_flat
        np.multiply(leader, count, out=leader_flat)
        leader_flat += self.rows
        if last:
            index, slot = self.index, self.chosen_slot
            np.copyto(index, self.alive2d)
            index *= size
            select.take(index, mode="clip", out=slot)
            np.copyto(index, slot)
            index += self.card_base
            cards_flat.take(index, mode="clip", out=self.card)
            self.card.reshape(-1).take(leader_flat, mode="clip", out=lead)
            return
        trick_words, trick_cells = self.trick_words, self.trick_cells
        np.copyto(self.draws_flat, self.words[2 * t * trick_words : 2 * t * trick_words + trick_cells])
        lead_index = self.lead_index
        if t:
            lead_legal = self.lead_legal
            self.alive.take(leader_flat, mode="clip", out=lead_legal)
            if not self.everywhere_broken:  # the kernel's lead mask: no barred card led before hearts are
                # broken, unless it holds only those
                held, flags = self.held, self.flags
                self.lead_barred_flat.take(leader_flat, mode="clip", out=held)
                held &= lead_legal
                lead_legal ^= held
                np.equal(lead_legal, 0, out=flags)
                flags |= self.broken
                held *= flags
                lead_legal |= held
            np.bitwise_count(lead_legal, out=self.lead_bytes)
            lead_counts = self.lead_counts
            np.copyto(lead_counts, self.lead_bytes)
            lead_counts *= self.draws[n]
            lead_counts >>= np.uint64(32)
            np.copyto(lead_index, lead_legal)
            lead_index *= size
            lead_index += lead_counts.view(np.int64)
            select.take(lead_index, mode="clip", out=lead_slot)
        np.multiply(leader, size, out=lead_index)
        lead_index += self.lead_base
        np.add(lead_index, lead_slot, out=lead_index, casting="unsafe")
        cards_flat.take(lead_index, mode="clip", out=lead)

    def play_follows(self, t: int, last: bool) -> None:
        """Every seat's card of trick ``t`` at once, into ``card``: a uniformly random card of its legal
        ones (the suit led if it holds any, else the cards the kernel's discard mask allows if it holds
        any, else any; the leader's row: its lead); ``followed`` is -1 where a seat held the suit led."""
        n, size, mdt = self.n, self.size, self.mdt
        legal, spare, followed, alive2d = self.legal, self.spare, self.followed, self.alive2d
        index, shift, lead = self.index, self.shift, self.lead
        sign = mdt(15 if self.small else 31)
        one = mdt(1)
        if self.small:  # (the low 16 bits of the shifted fields: the suit led)
            _SHIFT16.take(lead, mode="clip", out=shift)
            np.right_shift(self.packed, shift, out=index)
            np.copyto(legal, index, casting="unsafe")
        else:
            _SUIT.take(lead, mode="clip", out=shift)
            shift *= self.count * n
            np.add(self.flat2d, shift, out=index)
            self.suit_slots.take(index, mode="clip", out=legal)
        legal &= alive2d
        if last:
            np.negative(legal, out=followed)
            followed >>= sign  # -1 where a card of the suit led
            return
        # the leader's row: its lead alone
        lead_bit = self.lead_bit
        np.left_shift(one, self.lead_slot, out=lead_bit, casting="unsafe")
        np.bitwise_xor(legal, lead_bit, out=spare)
        spare &= self.leader_mask
        legal ^= spare
        if t == 0 and self.first_barred is not None:  # the kernel's first-trick discards: no barred card
            # thrown, if avoidable
            other = self.other
            np.bitwise_and(alive2d, self.first_barred, out=spare)
            np.bitwise_xor(alive2d, spare, out=other)
            np.subtract(other, one, out=followed)
            followed >>= sign  # -1 where only barred cards are left
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
        counts, slot = self.counts, self.chosen_slot
        _count_bits(legal, self.byte_counts, counts)
        counts *= self.draws[:n]
        counts >>= np.uint64(32)
        np.copyto(index, legal)
        index *= size
        index += counts.view(np.int64)
        self.select.take(index, mode="clip", out=slot)
        np.copyto(index, slot)
        index += self.card_base
        self.cards_flat.take(index, mode="clip", out=self.card)
        np.left_shift(one, slot, out=spare, casting="unsafe")
        alive2d ^= spare

    def take_trick(self, t: int) -> None:
        """Trick ``t`` taken: the highest card of the suit led takes it (key ``(card + 1) * 8 + seat``, 0
        off suit); its cards in playing order into ``plays``; the kernel's tables by card say whether
        it breaks hearts and what it is worth, added to the taker's points; the taker leads next."""
        n = self.n
        card, key, taken, index = self.card, self.key, self.taken, self.index
        np.copyto(key, card)
        key <<= 3
        key += self.seat_rows
        key &= self.followed
        key.max(axis=0, out=taken)
        taken &= 7
        # the trick in playing order, from the leader
        self.twice[n:] = card
        np.add(self.leader_flat, self.order_rows, out=index)
        self.twice_flat.take(index, mode="clip", out=self.plays[t * n : (t + 1) * n])
        tests, card8 = self.tests, self.card8
        for part, test in tests.items():  # which cards of the trick are of each part
            if type(part) is int:  # suit t: card - 13 t below 13, unsigned
                if part:
                    np.subtract(card, np.int8(13 * part), out=card8)
                    np.less(card8.view(np.uint8), 13, out=test)
                else:
                    np.less(card.view(np.uint8), 13, out=test)
            else:
                np.equal(card, part[1], out=test)
        if not self.everywhere_broken:  # a card of the kernel's break mask breaks hearts for the next lead
            for part in self.break_parts:
                self.broken |= tests[part].any(axis=0, out=self.flags)
            self.everywhere_broken = bool(self.broken.all())
        # the trick's points (the kernel's, by card), to its taker (the taker leads the next trick)
        np.equal(self.seats, taken, out=self.is_leader)
        np.negative(self.is_leader.view(np.int8), out=self.leader_mask, casting="unsafe")
        trick_points, mdt = self.trick_points, self.mdt
        for k, (part, value) in enumerate(self.point_parts):
            out = trick_points if k == 0 else self.part_points
            tests[part].sum(axis=0, dtype=mdt, out=out)
            if value != 1:
                out *= mdt(value)
            if k:
                trick_points += out
        np.bitwise_and(self.leader_mask, trick_points, out=self.spare)
        self.raw += self.spare
        np.copyto(self.leader, taken)
        for (i, _), takers in zip(self.kernel.bonuses, self.bonus_takers):
            takers[...] = np.where((card == i).any(axis=0), self.leader, takers)

    def score(self) -> BatchResult:
        """The hands' points, seat-major: the kernel's moon scores when one seat took every point (a
        lone hand's: see ``rules.moon_mode``), then its bonus cards' points to their takers."""
        n, mdt, raw, rows = self.n, self.mdt, self.raw, self.rows
        mine, others = self.kernel.moon
        shot = (raw == MOON_POINTS).any(axis=0).astype(mdt)  # (hand)
        turned = raw * shot  # the shooter's points, in a hand shot
        points = raw - turned
        points += mdt(others) * shot
        points += mdt(mine - others) * (turned // mdt(MOON_POINTS))
        for (_, bonus), takers in zip(self.kernel.bonuses, self.bonus_takers):
            has = takers >= 0
            points[takers[has], rows[has]] += bonus
        return BatchResult(
            # (plays: a hand-major view of a copy, the copy a block: transposing int8 as it copies costs
            # some 15 times as much)
            n,
            self.rules,
            self.cycle,
            self.direction_codes,
            self.deals,
            self.passes,
            self.plays.copy().T,
            raw.T.astype(np.int64, order="C"),
            points.T.astype(np.int64, order="C"),
        )

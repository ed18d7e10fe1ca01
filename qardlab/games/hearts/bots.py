"""Hearts bots on the engine's Bot protocol (``act(observation) -> action``), and a tournament.

Every bot sees one seat's observation and nothing else. Cards are handled inside as
indices (``suit * 13 + rank - 2``, as ``Card.index``), so a rank comparison within a
suit is an integer comparison.

- :class:`RandomBot` (the engine's): a uniformly random legal action.
- :class:`RuleBot`: passes dangerous cards (the Queen, King and Ace of spades, high
  hearts, cards of a short suit), ducks under the card winning the trick, dumps the
  Queen of spades and high hearts when void, avoids taking points, and when one
  opponent has taken every point so far and enough of them to threaten the moon, takes
  a trick with points to stop it.
- :class:`CountingBot`: tracks the cards still out and the opponents' voids, samples
  deals of the unseen cards consistent with what it has seen (hand sizes, voids, the
  cards it passed), plays the rest of the hand out in each by rule of thumb, and picks
  the card with the fewest points taken on average.

``tournament(entries, hands, seed)`` seats the entries around the table, rotating them
hand by hand, and reports each entry's average points per hand with a 95% interval.
"""

from __future__ import annotations

import copy
import functools
import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from ...cards import ALL_CARDS, SUIT_MASKS, Suit
from ...engine import RandomBot
from .game import Hearts
from .parallel import chunk_seed, map_chunks
from .rules import (
    _SUIT_MASK_OF_BIT,
    HEARTS_MASK,
    QS_BIT,
    QS_INDEX,
    HeartsRules,
    break_mask,
    card_points,
    deck_mask,
    discard_mask,
    lead_mask,
    playable,
    points_of,
    trick_winner,
)

__all__ = [
    "RandomBot",
    "RuleBot",
    "CountingBot",
    "tournament",
    "TournamentRow",
    "TOURNAMENT_CHUNK",
    "format_table",
    "observer",
    "play_hand",
]

_IDX = {c.code: c.index for c in ALL_CARDS}
_CODE = [c.code for c in ALL_CARDS]
QS = QS_INDEX
_QS_CODE = _CODE[QS]  # "QS"
KS = _IDX["KS"]
AS = _IDX["AS"]
HEARTS = int(Suit.HEARTS)
SPADES = int(Suit.SPADES)
_points = card_points  # the rules kernel's points of a card


def _suit(i: int) -> int:
    return i // 13


def _trick_state(trick: Sequence[Sequence[Any]]) -> tuple[int, int, int, int]:
    """(lead suit, winning card, winning seat, points on the table) of a trick in progress: the card
    winning it so far as the kernel's ``trick_winner`` finds it, the points the kernel's ``points_of``."""
    cards = [(s, _IDX[c]) for s, c in trick]
    bits = [1 << i for _, i in cards]
    win_seat, win = cards[trick_winner(bits, 0, len(cards))]  # its position
    return _suit(cards[0][1]), win, win_seat, points_of(sum(bits))


def _hand_counts(hand: Sequence[int]) -> tuple[list[int], int]:
    """A hand's length in each suit, and how many spades below the Queen it holds."""
    count = [0, 0, 0, 0]
    for i in hand:
        count[_suit(i)] += 1
    return count, sum(1 for i in hand if _suit(i) == SPADES and i < QS)


def _danger(card: int, count: Sequence[int], low_spades: int) -> float:
    """The rule bot's wish to pass ``card`` (see :meth:`RuleBot.pass_danger`), from its hand's counts."""
    suit, rank = _suit(card), card % 13
    if suit == SPADES and card in (QS, KS, AS):
        return 40 + rank if low_spades < 4 else rank
    score = float(rank)
    if suit == HEARTS:
        score += 6
    if count[suit] <= 2 and suit != SPADES:  # emptying a short suit makes discards possible
        score += 8 - count[suit]
    return score


class RuleBot:
    """Plays by a handful of sensible rules of thumb; see the module docstring."""

    #: the bot reads only the keys of ``Hearts.bot_observation`` (a subclass that reads more sets it
    #: False), so a tournament gives it that, the cheaper part of its observation
    uses_bot_observation = True

    def __init__(self, seed: Optional[int] = None, moon_guard: bool = True) -> None:
        self.rng = random.Random(seed)
        self.moon_guard = moon_guard

    def __repr__(self) -> str:
        return "RuleBot()"

    # -- passing ---------------------------------------------------------------------
    def pass_danger(self, card: int, hand: Sequence[int]) -> float:
        """How much the bot wants to be rid of ``card`` (higher: pass it first)."""
        return _danger(card, *_hand_counts(hand))

    def choose_pass(self, obs: Mapping[str, Any]) -> str:
        hand = [_IDX[c] for c in obs["hand"]]
        legal = [_IDX[c] for c in obs["legal"]]
        if type(self).pass_danger is RuleBot.pass_danger:  # the hand counted once, not for every card
            counts = _hand_counts(hand)
            return _CODE[max(legal, key=lambda i: (_danger(i, *counts), i))]
        return _CODE[max(legal, key=lambda i: (self.pass_danger(i, hand), i))]  # (a subclass's own)

    # -- playing ---------------------------------------------------------------------
    def act(self, obs: Mapping[str, Any]) -> Any:
        if obs["phase"] == "pass":
            return self.choose_pass(obs)
        legal = [_IDX[c] for c in obs["legal"]]
        if len(legal) == 1:
            return _CODE[legal[0]]
        return _CODE[self.choose_play(obs, legal)]

    def moon_threat(self, obs: Mapping[str, Any]) -> Optional[int]:
        """The opponent who has taken every point so far, enough to threaten the moon (the Queen and
        three hearts, or nine hearts or more), if any."""
        if not self.moon_guard:
            return None
        taken = obs["points_taken"]
        total = sum(taken)
        seat = obs["seat"]
        for s, p in enumerate(taken):
            if s != seat and p == total and (p >= 16 or 9 <= p < 13):
                return s
        return None

    def choose_play(self, obs: Mapping[str, Any], legal: list[int]) -> int:
        trick = obs["trick"]
        threat = self.moon_threat(obs)
        if not trick:
            return self.lead(obs, legal, threat)
        lead, win, win_seat, pts = _trick_state(trick)
        last = len(trick) == obs["players"] - 1
        if _suit(legal[0]) == lead:  # following suit
            if threat is not None and (pts or win_seat == threat):
                above = [i for i in legal if i > win]
                if above:  # take the trick away from the moon shooter
                    return max(above)
            below = [i for i in legal if i < win]
            if below:
                return max(below)  # duck as high as possible
            safe = [i for i in legal if i != QS]
            if not safe:
                return legal[0]
            return max(safe) if last and pts == 0 else min(safe)  # winning a pointless last card: the highest
        return self.discard(obs, legal, threat)

    def discard(self, obs: Mapping[str, Any], legal: list[int], threat: Optional[int]) -> int:
        """Void in the suit led: dump the most dangerous card."""
        if threat is not None:
            non_points = [i for i in legal if not _points(i)]
            if non_points:  # do not feed the shooter
                return max(non_points, key=lambda i: i % 13)
        if QS in legal:
            return QS
        for danger in (AS, KS):
            if danger in legal and not _queen_seen_or_mine(obs):
                return danger
        hearts = [i for i in legal if _suit(i) == HEARTS]
        if hearts:
            return max(hearts)
        return max(legal, key=lambda i: (i % 13, -self._suit_len(obs, _suit(i))))

    def _suit_len(self, obs: Mapping[str, Any], suit: int) -> int:
        return sum(1 for c in obs["hand"] if _suit(_IDX[c]) == suit)

    def lead(self, obs: Mapping[str, Any], legal: list[int], threat: Optional[int]) -> int:
        """Lead low, from a suit the bot is safe in; flush the Queen with low spades when it is out."""
        if threat is not None:
            return max(legal, key=lambda i: i % 13)
        hand = [_IDX[c] for c in obs["hand"]]
        holds_high_spade = any(i in hand for i in (QS, KS, AS))
        spades = [i for i in legal if _suit(i) == SPADES and i < QS]
        if spades and not holds_high_spade and not _queen_seen_or_mine(obs):
            return min(spades)
        options = [i for i in legal if not (_suit(i) == SPADES and holds_high_spade)] or legal
        non_hearts = [i for i in options if _suit(i) != HEARTS] or options
        return min(non_hearts, key=lambda i: (i % 13, i))


def _queen_seen_or_mine(obs: Mapping[str, Any]) -> bool:
    """Whether the Queen of spades is in the seat's hand or was seen played this hand (all the rules of
    thumb ask of the cards seen: looked up, not every card seen collected)."""
    if _QS_CODE in obs["hand"] or any(c == _QS_CODE for _, c in obs["trick"]):
        return True
    return any(c == _QS_CODE for t in obs["tricks"] for _, c in t["cards"])


_RULES_SEEN: dict[str, HeartsRules] = {}


def _rules_of(data: Mapping[str, Any]) -> HeartsRules:
    """An observation's rules (``HeartsRules.from_dict``, remembered: a bot reads them at every play)."""
    key = repr(sorted(data.items()))
    rules = _RULES_SEEN.get(key)
    if rules is None:
        if len(_RULES_SEEN) > 64:
            _RULES_SEEN.clear()
        rules = _RULES_SEEN[key] = HeartsRules.from_dict(data)
    return rules


class CountingBot(RuleBot):
    """Counts cards and voids, and samples consistent deals to choose its play (see the module docstring).

    For each legal card and each of ``samples`` sampled deals, the rest of the hand is played
    out by every seat with a quick rule of thumb; the card with the fewest points taken on
    average is chosen. Passing and moon defence are the rule bot's.
    """

    def __init__(self, seed: Optional[int] = None, samples: int = 12) -> None:
        super().__init__(seed)
        self.samples = samples

    def __repr__(self) -> str:
        return f"CountingBot(samples={self.samples})"

    def choose_play(self, obs: Mapping[str, Any], legal: list[int]) -> int:
        threat = self.moon_threat(obs)
        if threat is not None:
            return super().choose_play(obs, legal)
        view = _View(obs)
        deals = [d for d in (view.sample_masks(self.rng) for _ in range(self.samples)) if d is not None]
        if not deals:
            return super().choose_play(obs, legal)
        return view.best_card(legal, deals)


class _View:
    """What the counting bot knows: its hand, the cards out, who may hold what."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.seat = obs["seat"]
        self.n = n = obs["players"]
        in_play = deck_mask(n)
        self.hand = [_IDX[c] for c in obs["hand"]]
        self.hand_mask = sum(1 << i for i in self.hand)
        self.trick = [(s, _IDX[c]) for s, c in obs["trick"]]
        #: the open trick's cards as bits in playing order, its leader, the suit led's mask and the
        #: card winning it so far (the rule of thumb ducks under it)
        self.trick_bits = [1 << i for _, i in self.trick]
        self.leader = self.trick[0][0] if self.trick else self.seat
        self.suit = self.win = 0
        if self.trick:
            lead, win, _seat, _points = _trick_state(obs["trick"])
            self.suit, self.win = _SUIT_M[lead], 1 << win
        self._prep: Optional[tuple] = None
        #: the cards still in play: in a hand or on the table (not in a completed trick, not removed)
        self.live = in_play & ~sum(1 << _IDX[c] for t in obs["tricks"] for _, c in t["cards"])
        played = set()
        void = [set() for _ in range(n)]
        for t in [*obs["tricks"], {"cards": obs["trick"]}]:
            cards = [(s, _IDX[c]) for s, c in t["cards"]]
            played.update(i for _, i in cards)
            if cards:
                lead = _suit(cards[0][1])
                for s, i in cards[1:]:
                    if _suit(i) != lead:
                        void[s].add(lead)
        self.void = void
        self.sizes = list(obs["hand_sizes"])
        known: dict[int, int] = {}
        if obs.get("passed_to") is not None:
            for c in obs["passed"]:
                i = _IDX[c]
                if i not in played:
                    known[i] = obs["passed_to"]
        self.known = known
        mine = set(self.hand)
        self.out = [i for i in range(52) if in_play >> i & 1 and i not in played and i not in mine]
        self.first_trick = bool(obs.get("first_trick"))
        self.broken = bool(obs.get("hearts_broken"))
        rules = self.rules = _rules_of(obs.get("rules") or {})
        # the rules kernel's masks: what a seat void in the suit led may throw in the open trick and
        # in later ones, what it may lead before and after hearts are broken (by broken), and the
        # cards that break them; as cards in play (positive: an AND with "all but..." costs more)
        self.discard = in_play & discard_mask(self.first_trick, rules)
        self.later_discard = in_play & discard_mask(False, rules)
        self.leads = (in_play & lead_mask(False, False, n, rules), in_play & lead_mask(False, True, n, rules))
        self.breaks = break_mask(rules)

    def sample(self, rng: random.Random) -> Optional[list[list[int]]]:
        """A deal of the unseen cards to the other seats, consistent with sizes, voids and passes
        (each seat's card indices, in increasing order; ``[]`` for this seat)."""
        masks = self.sample_masks(rng)
        if masks is None:
            return None
        return [[i for i in range(52) if m >> i & 1] for m in masks]

    def _prepared(self) -> Optional[tuple]:
        """What every sample starts from (made once per view): the cards passed to each seat as its
        masks, the room left in each hand, the other cards out, each card's possible holders (the
        seats not void in its suit) and how many. None if the passes overfill a hand."""
        prep = self._prep
        if prep is None:
            n, seat = self.n, self.seat
            base = [0] * n
            room0 = list(self.sizes)
            room0[seat] = 0
            free0 = []
            known = self.known
            for i in self.out:
                holder = known.get(i)
                if holder is not None:
                    base[holder] |= 1 << i
                    room0[holder] -= 1
                else:
                    free0.append(i)
            if any(r < 0 for r in room0):
                prep = self._prep = ()
            else:
                # per suit: the seats that may hold it (``others``, the same tuple, where no seat is
                # void in it), and how many (the order in which cards are placed)
                void = self.void
                others = tuple(s for s in range(n) if s != seat)
                holders = [
                    tuple(s for s in others if t not in void[s])
                    if any(t in void[s] for s in others)
                    else others
                    for t in range(4)
                ]
                by_card = [holders[i // 13] for i in range(52)]
                width = {i: len(by_card[i]) for i in free0}.__getitem__
                prep = self._prep = (base, room0, free0, width, by_card, others)
        return prep or None

    def sample_masks(self, rng: random.Random) -> Optional[list[int]]:
        """``sample`` as 52-bit masks, one per seat: the cards passed to a seat are its own, the
        others go one by one (the most constrained first, random among equals) to a seat not void
        in their suit, chosen with weights the room left in each hand. None if 12 tries fail.

        The draws are ``rng.shuffle`` of the free cards and then ``rng.choices(options,
        weights=room)`` for each card, step for step (the same draws from the same ``rng``), with
        both inlined for a plain ``random.Random``."""
        prep = self._prepared()
        if prep is None:
            return None
        base, room0, free0, width, by_card, others = prep
        random_ = rng.random
        getrandbits = rng.getrandbits if type(rng) is random.Random else None
        steps = _SHUFFLE_STEPS[len(free0)]
        for _ in range(12):
            hands = list(base)
            room = list(room0)
            free = list(free0)
            if getrandbits is None:
                rng.shuffle(free)
            else:  # rng.shuffle(free): j = randbelow(i + 1), swap, i from the top down
                for i, k in steps:
                    j = getrandbits(k)
                    while j > i:
                        j = getrandbits(k)
                    free[i], free[j] = free[j], free[i]
            free.sort(key=width)
            left = len(free)  # the room left in every other hand together: the cards left to place
            for i in free:
                options = by_card[i]
                if options is others:
                    total = left
                else:
                    total = 0
                    for s in options:
                        total += room[s]
                if not total:  # no seat that may hold it has room
                    break
                # rng.choices(options with room, weights=room)[0]: the first seat whose cumulative
                # room exceeds the draw (the last one if none does)
                x = random_() * total
                acc = 0
                for s in options:
                    r = room[s]
                    if r:
                        acc += r
                        last = s
                        if acc > x:
                            break
                hands[last] |= _BIT[i]
                room[last] -= 1
                left -= 1
            else:
                return hands
        return None

    def best_card(self, legal: Sequence[int], deals: Sequence[Sequence[int]]) -> int:
        """The legal card with the fewest points taken over ``deals`` (the sum of its rollouts),
        the highest rank among equals, the first of ``legal`` among those: the counting bot's play.

        Exactly that minimum, with fewer rollouts played to the end: a card that has a higher twin
        (:meth:`twins`) is left out, since the twin takes the same points and wins the tie; the
        open trick is finished for every card and deal first, whose points are a lower bound of
        each card's sum (the tricks after it add points, never take any away); the cards are then
        played out from the lowest bound up, and a card stops as soon as its sum so far cannot
        beat the best one."""
        # of legal cards that take the same points in every rollout (see twins), only the highest
        # can be chosen: the others are not played out
        ks = [k for k in range(len(legal)) if k + 1 == len(legal) or not self.twins(legal[k], legal[k + 1])]
        firsts = {k: [self.finish_trick(legal[k], deal) for deal in deals] for k in ks}
        bounds = {k: sum(f[0] for f in fs) for k, fs in firsts.items()}
        # the key of the choice: (points, -rank, position in legal), the lowest wins
        order = sorted(ks, key=lambda k: (bounds[k], -(legal[k] % 13), k))
        play_out = self.play_out
        best: Optional[tuple[int, int, int]] = None
        for k in order:
            rank = -(legal[k] % 13)
            total = bounds[k]
            if best is not None and (total, rank, k) > best:
                break  # (the cards left have bounds as high: none can beat it)
            for _taken, hands, leader, broken in firsts[k]:
                if hands is not None:
                    total += play_out(hands, leader, broken)
                    if best is not None and (total, rank, k) > best:
                        break
            else:
                best = (total, rank, k)
        assert best is not None
        return legal[best[2]]

    def twins(self, a: int, b: int) -> bool:
        """Whether cards ``a < b`` of this seat take the same points in every rollout: both of one
        suit, neither the Queen of spades (so the same points and the same place in every rule's
        mask), no card still in play between them (every other card is above both or below both),
        and no card of this seat's hand in another suit of a rank from ``a``'s to ``b``'s (the
        rules of thumb that compare ranks across suits, in this seat's own hand, see the same
        order). Swapping the two then changes no comparison a rollout makes."""
        suit = a // 13
        if b // 13 != suit or a == QS or b == QS:
            return False
        if self.live & ((1 << b) - (1 << a + 1)):
            return False
        ra, rb = a % 13, b % 13
        return not self.hand_mask & ~_SUIT_M[suit] & _RANKS * ((1 << rb + 1) - (1 << ra))

    def rollout(self, card: int, deal: Sequence[int]) -> int:
        """Points this seat takes from here to the end of the hand if it plays ``card`` now and
        every seat (itself included) then plays by rule of thumb, the others from ``deal`` (their
        hands as 52-bit masks, bit ``i`` for card index ``i``): the open trick finished
        (:meth:`finish_trick`), then the tricks after it (:meth:`play_out`).

        The rules are the kernel's: each seat plays a card of :func:`~.rules.playable` (its legal
        cards), :func:`~.rules.trick_winner` takes each trick, :func:`~.rules.points_of` counts its
        points and :func:`~.rules.break_mask` says whether it breaks hearts. Hands are masks and cards
        their bits, so a seat's cards of a suit, those under the card to beat and the highest of them
        are a few integer operations."""
        taken, hands, leader, broken = self.finish_trick(card, deal)
        return taken if hands is None else taken + self.play_out(hands, leader, broken)

    def finish_trick(self, card: int, deal: Sequence[int]) -> tuple[int, Optional[list[int]], int, bool]:
        """The open trick played out by rule of thumb after this seat plays ``card`` (see
        :meth:`rollout`): (the points this seat takes in it, every hand after it or None if the
        hand is over, the trick's taker, whether hearts are broken)."""
        n, me = self.n, self.seat
        hands = list(deal)
        bit = 1 << card
        hands[me] = self.hand_mask ^ bit
        trick = [*self.trick_bits, bit]
        if len(trick) > 1:  # the card to beat: the highest of the suit led on the table
            suit, win = self.suit, self.win
            if bit & suit and bit > win:
                win = bit
        else:  # this seat leads
            suit, win = _SUIT_OF_BIT[bit], bit
        may = self.discard  # (the open trick's: no points on the first trick, with the option)
        seat = me + 1 if me + 1 < n else 0
        while len(trick) < n:
            h = hands[seat]
            legal = playable(h, suit, may)
            follow = legal & suit
            if follow:  # duck under the card to beat as high as possible, else play the lowest
                below = follow & (win - 1)
                if below:
                    c = 1 << below.bit_length() - 1
                else:
                    c = follow & -follow
                    win = c
            else:  # void: the Queen, else the highest heart, else the highest rank (lowest suit)
                c = _discard(legal)
            hands[seat] = h ^ c
            trick.append(c)
            seat = seat + 1 if seat + 1 < n else 0
        tmask = sum(trick)  # (distinct bits: the sum is the union)
        w = trick_winner(trick, self.leader, n, tmask, suit)
        broken = self.broken or bool(tmask & self.breaks)
        taken = points_of(tmask) if w == me else 0
        return taken, (hands if hands[w] else None), w, broken

    def play_out(self, hands: list[int], leader: int, broken: bool) -> int:
        """The points this seat takes in the tricks from the one ``leader`` leads to the end of
        the hand, every seat playing ``hands`` (masks, changed in place) by rule of thumb (see
        :meth:`rollout`); ``broken``: whether hearts are broken. (Every hand of a sample holds as
        many cards as the seat does, so every seat has a card for every trick.)"""
        n, me = self.n, self.seat
        leads, may, breaks = self.leads, self.later_discard, self.breaks
        after = _AFTER[n]  # the other seats of a trick, in playing order, by its leader
        ranks, suit_of = _RANKS, _SUIT_OF_BIT
        won = 0  # the cards this seat takes
        w = leader
        while True:
            h = hands[w]
            if not h:
                return points_of(won)
            # the winner leads its lowest legal card, the lowest suit of that rank
            options = playable(h, leads[broken], -1)
            folded = (options | options >> 13 | options >> 26 | options >> 39) & 0x1FFF
            c = options & ranks * (folded & -folded)
            c &= -c
            hands[w] = h ^ c
            suit, win = suit_of[c], c
            trick = [c]
            for seat in after[w]:
                h = hands[seat]
                legal = playable(h, suit, may)
                follow = legal & suit
                if follow:  # duck under the card to beat as high as possible, else play the lowest
                    below = follow & (win - 1)
                    if below:
                        c = 1 << below.bit_length() - 1
                    else:
                        c = follow & -follow
                        win = c
                else:  # void: the Queen, else the highest heart, else the highest rank (lowest suit)
                    c = _discard(legal)
                hands[seat] = h ^ c
                trick.append(c)
            tmask = sum(trick)  # (distinct bits: the sum is the union)
            w = trick_winner(trick, w, n, tmask, suit)
            if not broken and tmask & breaks:
                broken = True
            if w == me:
                won |= tmask


def _discard(options: int) -> int:
    """The rule of thumb's card when void in the suit led, of ``options`` (its legal cards): the Queen
    of spades, else the highest heart, else the highest rank (the lowest suit of that rank)."""
    if options & _QS_BIT:
        return _QS_BIT
    hearts = options & _HEARTS_M
    if hearts:
        return 1 << hearts.bit_length() - 1
    folded = (options | options >> 13 | options >> 26 | options >> 39) & 0x1FFF
    c = options & (_RANKS << folded.bit_length() - 1)
    return c & -c


_SUIT_M = SUIT_MASKS
_SUIT_OF_BIT = _SUIT_MASK_OF_BIT  # the kernel's: a card's bit -> its suit's mask
_HEARTS_M = HEARTS_MASK
_QS_BIT = QS_BIT
#: Random.shuffle's steps for a list of each length: (i, bits of i + 1), i from the top down
_SHUFFLE_STEPS = [tuple((i, (i + 1).bit_length()) for i in reversed(range(1, size))) for size in range(53)]
_RANKS = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the cards of rank 2 in every suit
_BIT = tuple(1 << i for i in range(52))  # a card's bit, by index
#: by player count and leader: the other seats of the trick, in playing order
_AFTER = {n: tuple(tuple((lead + k) % n for k in range(1, n)) for lead in range(n)) for n in range(3, 7)}


# -- tournaments ---------------------------------------------------------------------------
@dataclass
class TournamentRow:
    """One entry's result: average points per hand and its 95% confidence interval."""

    name: str
    hands: int
    mean: float
    half_width: float

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


#: hands per chunk of a tournament: each chunk gets fresh bots, seeded from the chunk's index
TOURNAMENT_CHUNK = 10


def tournament(
    entries: "Sequence[tuple[str, Any]] | Mapping[str, Any]",
    hands: int = 200,
    seed: int = 0,
    players: int = 4,
    rules: Optional[HeartsRules] = None,
    progress: Optional[Callable[[int], None]] = None,
    *,
    n_jobs: Optional[int] = None,
    backend: Optional[str] = None,
    bar: Optional[bool] = None,
    chunk: int = TOURNAMENT_CHUNK,
) -> list[TournamentRow]:
    """Play ``hands`` single hands, the entries rotating around the table hand by hand.

    ``entries``: (name, bot) pairs (or a dict), as many as ``players``; a bot is a Bot or a
    factory ``f(seed) -> Bot`` (a class taking a seed). Hand h is dealt from its own seed and
    passes by the rules' cycle (hand h uses its h-th direction). Returns one row per entry: its
    average points per hand with a 95% confidence interval (normal approximation).

    The hands are played in chunks of ``chunk`` through :func:`~.parallel.map_chunks`: on every
    local core (``n_jobs``, joblib's; None: this process or every core, whichever finishes sooner
    by the chunks timed so far, see :mod:`~.parallel`), on a Dask
    cluster (``backend="dask"``, or inside ``joblib.parallel_config(backend="dask")``), with a
    tqdm bar (``bar=False``: none) and ``progress(hands_done)`` called as chunks finish. Each
    chunk gets its own bots: a factory is called with a seed made from ``seed``, the chunk's
    index and the entry's; a bot instance is copied and, if it has a ``random.Random`` as
    ``rng``, that copy is reseeded the same way. So the results depend on ``seed`` (and
    ``chunk``), never on the number of workers.
    """
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise ValueError(f"a tournament plays a positive number of hands, not {hands!r}")
    items = list(entries.items()) if isinstance(entries, Mapping) else list(entries)
    if len(items) != players:
        raise ValueError(f"a tournament needs {players} entries, one per seat, got {len(items)}")
    rules = rules or HeartsRules()
    cycle = rules.cycle_for(players)
    hand_rules = tuple(HeartsRules(**{**rules.to_dict(), "pass_cycle": (d,)}) for d in cycle)
    play = functools.partial(_tournament_chunk, tuple(b for _, b in items), players, hand_rules, seed)
    per_hand = map_chunks(
        play,
        hands,
        chunk=chunk,
        n_jobs=n_jobs,
        backend=backend,
        bar=bar,
        progress=progress,
        desc="tournament",
    )
    rows = []
    for k, (name, _) in enumerate(items):
        pts = [points[k] for points in per_hand]
        mean = sum(pts) / len(pts)
        var = sum((p - mean) ** 2 for p in pts) / max(1, len(pts) - 1)
        rows.append(TournamentRow(name, len(pts), mean, 1.96 * math.sqrt(var / len(pts))))
    return rows


def _chunk_bots(bots: Sequence[Any], seed: int, chunk_index: int) -> list[Any]:
    """The entries' bots for one chunk (see ``tournament``): built or copied, seeded by the chunk."""
    out = []
    for k, b in enumerate(bots):
        s = chunk_seed(seed, chunk_index, k)
        if isinstance(b, type) or not hasattr(b, "act"):
            out.append(b(s))
            continue
        b = copy.deepcopy(b)
        if isinstance(getattr(b, "rng", None), random.Random):
            b.rng.seed(s)
        out.append(b)
    return out


def observer(game: Hearts, bot: Any) -> Callable[[int], Any]:
    """What ``bot`` is shown of ``game`` at each decision, as a function of the seat: the seat's
    ``bot_observation`` for a bot that says it reads only that (``uses_bot_observation``, as this
    module's bots), else its whole ``observation``. Either way that seat's knowledge only."""
    return game.bot_observation if getattr(bot, "uses_bot_observation", False) else game.observation


def play_hand(game: Hearts, bots: Sequence[Any]) -> Hearts:
    """Play the hand out: seat s by ``bots[s]``, each shown what :func:`observer` gives it."""
    acts = [b.act for b in bots]
    views = [observer(game, b) for b in bots]
    apply = game.apply
    while game.phase in ("pass", "play"):
        s = game.to_move
        apply(acts[s](views[s](s)))
    return game


def _tournament_chunk(
    bots: Sequence[Any],
    players: int,
    hand_rules: Sequence[HeartsRules],
    seed: int,
    start: int,
    stop: int,
    chunk_index: int,
) -> list[list[int]]:
    """Hands ``start..stop-1`` of a tournament: each hand's points by entry."""
    chunk_bots = _chunk_bots(bots, seed, chunk_index)
    out = []
    for h in range(start, stop):
        game = Hearts.new(players, seed=seed * 1_000_003 + h, rules=hand_rules[h % len(hand_rules)])
        seating = [(s + h) % players for s in range(players)]  # seat s plays entry seating[s]
        play_hand(game, [chunk_bots[seating[s]] for s in range(players)])
        points = [0] * players
        for s, p in enumerate(game.hand_points):
            points[seating[s]] = p
        out.append(points)
    return out


def format_table(rows: Sequence[TournamentRow]) -> str:
    """The tournament as a small text table."""
    lines = [f"{'bot':12s} {'hands':>6s} {'points/hand':>12s}   95% interval"]
    for r in rows:
        lines.append(f"{r.name:12s} {r.hands:6d} {r.mean:12.2f}   [{r.low:.2f}, {r.high:.2f}]")
    return "\n".join(lines)

"""Hearts for 3 to 6 players on the shared engine: passing, play, scoring and the match.

The core holds every hand as a 52-bit mask (``Card.bit``; suits are contiguous runs of
13 bits, so "this seat's spades" is one AND), and hands out readable ``Card`` objects
at the edges (``hand``, ``legal_actions``, ``trick``). That keeps a random hand through
the public API, every play validated, about as fast as OpenSpiel's C++ engine called
from Python.

Actions (all in ``history``, so a record replays exactly):

- ``Deal``: chance, one per hand: every seat's cards (dealt one at a time clockwise
  from the dealer's left; ``chance_outcome()`` draws it from the game's RNG);
- in the ``"pass"`` phase: a ``Card`` (or its code) picks one card to pass, and a
  tuple of ``cards_to_pass`` cards picks them all at once. Seats choose in order
  0..n-1; ``to_move`` stays on a seat until it has chosen all its cards, and the cards
  change hands together once every seat has chosen. ``legal_actions()`` is the Cards
  of the mover's hand not yet chosen (as OpenSpiel, which also passes card by card);
- in the ``"play"`` phase: a ``Card`` (or its code) to play.
"""

from __future__ import annotations

import random as _random
from operator import add as _add
from typing import Any, Iterator, Mapping, Sequence

from ...cards import (
    _CARDS,
    _PARSED,
    _SUIT_TABLES,
    SUIT_MASKS,
    Card,
    CardLike,
    Hand,
    Suit,
    cards_of_mask,
    hand_html,
    mask_of,
)
from ...engine import CHANCE, Game, IllegalAction, Observation
from ...engine.events import Event, EventLog
from .rules import (
    HEARTS_MASK,
    JD_BIT,
    QS_BIT,
    HeartsRules,
    check_players,
    deck_mask,
    hand_size,
    pass_offset,
)

__all__ = ["Hearts", "Deal", "Trick", "PHASES", "describe_event"]

PHASES = ("pass", "play", "hand_over", "match_over")
_DEAL, _PASS, _PLAY, _HAND_OVER, _MATCH_OVER = range(5)
_PHASE_NAMES = ("deal", "pass", "play", "hand_over", "match_over")
_CLUBS = SUIT_MASKS[0]
_POINT_MASK = HEARTS_MASK | QS_BIT
_IDX_OF_ID = {id(c): i for i, c in enumerate(_CARDS)}
_CODES = tuple(c.code for c in _CARDS)
_T0, _T1, _T2, _T3 = _SUIT_TABLES
_QS = QS_BIT.bit_length() - 1
_POINTS = tuple(1 if i // 13 == 2 else 13 if i == _QS else 0 for i in range(52))
_PHASE_OUT = ("hand_over", "pass", "play", "hand_over", "match_over")
_idx_of_id = _IDX_OF_ID.get
_DECK_BITS = {n: tuple(c.bit for c in cards_of_mask(deck_mask(n))) for n in range(3, 7)}
_DECKS = {n: deck_mask(n) for n in range(3, 7)}
_HAND_SIZES = {n: hand_size(n) for n in range(3, 7)}
_SIZES_OF = {n: (s,) * n for n, s in _HAND_SIZES.items()}
#: by the bit of the card led: the shift of its suit's 13 bits and that suit's table of Cards
_FOLLOW = {1 << i: (13 * (i // 13), _SUIT_TABLES[i // 13]) for i in range(52)}
_SUIT_MASK_OF_BIT = {1 << i: SUIT_MASKS[i // 13] for i in range(52)}
_CARD_OF_BIT = {1 << i: _CARDS[i] for i in range(52)}
_bit_of_id = {id(c): 1 << i for i, c in enumerate(_CARDS)}.get
_EVERY_NTH = {n: tuple(slice(j, None, n) for j in range(n)) for n in range(3, 7)}
_NEXT = {n: tuple((s + 1) % n for s in range(n)) for n in range(3, 7)}
_CYCLES: dict[tuple[tuple[str, ...] | None, int], tuple[str, ...]] = {}  # checked pass cycles
_OPTION_NAMES = frozenset({"rules", "single", "pass_direction", "names"})
#: Random.shuffle's steps for a list of each length: (i, bits of i + 1), i from the top down
_SHUFFLE_STEPS = {
    size: tuple((i, (i + 1).bit_length()) for i in reversed(range(1, size)))
    for size in (48, 50, 51, 52)
}


def _new_hand(cards: list[Card]) -> Hand:
    """A Hand of known, interned Cards (skips re-parsing them)."""
    return tuple.__new__(Hand, cards)


_CODE_TABLES = tuple(tuple(tuple(c.code for c in cards) for cards in table) for table in _SUIT_TABLES)
_C0, _C1, _C2, _C3 = _CODE_TABLES


def _codes(mask: int) -> list[str]:
    """The codes of a mask's cards, sorted (suit tables: four lookups)."""
    return [*_C0[mask & 0x1FFF], *_C1[mask >> 13 & 0x1FFF], *_C2[mask >> 26 & 0x1FFF], *_C3[mask >> 39]]


def _symbols(codes: Sequence[str]) -> str:
    """Card codes as the symbols a reader sees: ``["QS", "TH"]`` -> ``"Q♠ 10♥"``."""
    return " ".join(Card.parse(c).symbol for c in codes)


def _cards(mask: int) -> list[Card]:
    return [*_T0[mask & 0x1FFF], *_T1[mask >> 13 & 0x1FFF], *_T2[mask >> 26 & 0x1FFF], *_T3[mask >> 39]]


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
        if hands is None or isinstance(hands, (str, bytes)):
            raise IllegalAction(f"a deal is a list of hands of cards, got {hands!r}")
        try:
            self._hands = tuple(Hand(h) for h in hands)
        except (TypeError, ValueError) as e:
            raise IllegalAction(f"a deal is a list of hands of cards: {e}") from None
        self.masks = tuple(mask_of(h) for h in self._hands)
        self.sizes = tuple(len(h) for h in self._hands)

    @property
    def hands(self) -> tuple[Hand, ...]:
        if self._hands is None:
            self._hands = tuple(_new_hand(_cards(m)) for m in self.masks)
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


class _PlayLog(EventLog):
    """The Hearts event log, built lazily so that the hot path of a hand creates no dicts.

    ``_events`` holds Events and raw entries (plain tuples, a tag first: a deal, a pass
    choice, a pass, the plays of a hand, the end of a hand) that ``_flush`` turns into
    Events on the first read. Plays are not logged one by one at all: while a hand is
    played, ``_open`` is ``[first step, seat to play it, open trick]`` and the "play" events
    and, after every trick's last card, the "trick" events are built from the game's
    history (where every play is a Card) when read. Every read goes through ``_flush``; the
    result is exactly the log an eager version would have written.
    """

    __slots__ = ("players", "_history", "_done", "_open")

    def __init__(self, players: int, history: list, events: Sequence[Any] = ()) -> None:
        super().__init__(events)
        self.players = players
        self._history = history  # the game's history: the plays are read from it
        self._done = 0  # entries before this index are Events
        self._open: list | None = None  # the plays being made: [next step, its seat, open trick]

    def _start(self, step: int, leader: int) -> None:
        """Plays begin at history ``step``, ``leader`` first."""
        self._open = [step, leader, ()]

    def _close(self) -> None:
        """The hand's plays are over: keep them as a raw entry (before the next event)."""
        op = self._open
        if op is not None:
            self._events.append(("plays", op[0], len(self._history), op[1], op[2]))
            self._open = None

    def append(self, kind: str, step: int, public: Any, private: Any = None, hidden: Any = None) -> Event:
        self._close()
        return super().append(kind, step, public, private, hidden)

    def _flush(self) -> None:
        op = self._open
        events = self._events
        if self._done == len(events) and (op is None or op[0] == len(self._history)):
            return
        out = events[: self._done]
        for e in events[self._done:]:
            if type(e) is tuple:
                self._build(out, e)
            else:
                out.append(e)
        if op is not None:
            op[1], op[2] = self._plays(out, op[0], len(self._history), op[1], op[2])
            op[0] = len(self._history)
        self._events = out
        self._done = len(out)

    def _build(self, out: list, e: tuple) -> None:
        """Append the Events of one raw entry to ``out``."""
        tag, step = e[0], e[1]
        if tag == "plays":
            self._plays(out, step, e[2], e[3], e[4])
        elif tag == "deal":
            _, _, hand_no, dealer, direction, masks, sizes = e
            public = {"hand": hand_no, "dealer": dealer, "pass_direction": direction, "sizes": list(sizes)}
            private = {s: {"cards": _codes(m)} for s, m in enumerate(masks)}
            out.append(Event("deal", step, public, private))
        elif tag == "choice":
            _, _, seat, cards = e
            codes = [c.code for c in cards]
            public = {"seat": seat, "count": len(cards)}
            out.append(Event("pass_choice", step, public, {seat: {"cards": codes}}))
        elif tag == "pass":
            _, _, direction, off, chosen = e
            n = len(chosen)
            codes = [_codes(c) for c in chosen]
            private = {
                i: {
                    "passed": codes[i],
                    "to": (i + off) % n,
                    "received": codes[(i - off) % n],
                    "from": (i - off) % n,
                }
                for i in range(n)
            }
            out.append(Event("pass", step, {"direction": direction}, private))
        elif tag == "over":
            _, _, raw, final, shooter, mode, scores, winners = e
            public = {"raw": raw, "points": final, "moon": shooter, "moon_mode": mode, "scores": list(scores)}
            if winners is not None:
                public["winners"] = winners
            out.append(Event("hand_over", step, public))
        else:  # pragma: no cover - every raw entry is one of the above
            raise AssertionError(f"unknown raw Hearts event {tag!r}")

    def _plays(self, out: list, start: int, end: int, seat: int, trick: Sequence) -> tuple[int, tuple]:
        """Append the play and trick events of history steps ``start..end-1``; return the next
        seat and the open trick (``(seat, card index)`` pairs)."""
        n = self.players
        history = self._history
        trick = list(trick)
        for step in range(start, end):
            idx = _IDX_OF_ID[id(history[step])]
            out.append(Event("play", step, {"seat": seat, "card": _CODES[idx]}))
            trick.append((seat, idx))
            if len(trick) < n:
                seat = seat + 1 if seat + 1 < n else 0
                continue
            lead = trick[0][1] // 13
            seat = max((i, t) for t, i in trick if i // 13 == lead)[1]
            public = {
                "winner": seat,
                "cards": [[t, _CODES[i]] for t, i in trick],
                "points": sum(_POINTS[i] for _, i in trick),
            }
            out.append(Event("trick", step, public))
            trick = []
        return seat, tuple(trick)

    def __getitem__(self, i):  # type: ignore[override]
        self._flush()
        return self._events[i]

    def __len__(self) -> int:
        self._flush()
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        self._flush()
        return iter(self._events)

    def view(self, seat: int | None) -> list[dict[str, Any]]:
        self._flush()
        return super().view(seat)

    def _copy_for(self, history: list) -> _PlayLog:
        """This log, unflushed, for a copy of its game (whose history is ``history``)."""
        new = _PlayLog(self.players, history)
        new._events = list(self._events)
        new._done = self._done
        new._open = None if self._open is None else list(self._open)
        return new

    def copy(self) -> _PlayLog:
        """A detached copy: every event so far, built; later plays of the game are not in it."""
        self._flush()
        new = _PlayLog(self.players, self._history, self._events)
        new._done = len(new._events)
        return new

    def __deepcopy__(self, memo: dict) -> _PlayLog:
        return self.copy()

    def truncate(self, length: int) -> None:
        """Keep the first ``length`` events (of a detached copy: the log no longer follows a game)."""
        self._flush()
        super().truncate(length)
        self._done = len(self._events)
        self._open = None


class Hearts(Game):
    """A match (``Hearts.new``) or one hand (``Hearts.from_deal``) of Hearts; see the module docstring."""

    name = "hearts"
    title = "Hearts"
    min_players = 3
    max_players = 6
    knowledge_adapter = "qardlab.games.hearts.knowledge:knowledge_of"
    table_widget = "qardlab.widgets.hearts:HeartsTable"
    # The state lives in slots (the engine's attributes stay in the instance dict): more than 30
    # attributes overflow an instance dict's shared keys, and every read in the hot path slows.
    __slots__ = (
        "_bit", "_break_mask", "_broken", "_chosen", "_cycle", "_discard_mask", "_final", "_first",
        "_first_discard", "_fixed_direction", "_hands", "_k", "_lead_bit", "_lead_mask", "_legal_mask",
        "_moon", "_next", "_offset", "_phase", "_taken", "_to_move", "_trick", "_unbroken_lead",
        "dealer", "deck",
        "hand_history", "hand_no", "hand_size", "is_over", "opening_card", "pass_direction", "phase", "rules",
        "scores", "single", "winners",
    )
    _LISTS = ("_hands", "_chosen", "_taken", "_trick", "scores", "hand_history")

    # -- construction -----------------------------------------------------------------
    def __init__(self, players: int, options: dict[str, Any], seed: int | None) -> None:
        players = check_players(players)
        if not isinstance(options, dict):
            raise ValueError(f"Hearts options must be a dict, not {options!r}")
        rules = HeartsRules.from_dict(options.get("rules", {}))
        options = dict(options)
        options["rules"] = rules
        if not options.keys() <= _OPTION_NAMES:
            raise ValueError(f"unknown Hearts options {sorted(set(options) - _OPTION_NAMES)}")
        single = options.get("single", False)
        if not isinstance(single, bool):
            raise ValueError(f"option 'single' must be True or False, got {single!r}")
        super().__init__(players, options, seed)  # checks the seed and the names
        #: whether the game is over (no seat to move, no deal due): a plain attribute, kept in step
        #: with ``to_move``, since the engine's ``apply`` reads it at every action
        self.is_over = False
        self._bit = 0  # the bit of the card played (the mask of the cards passed), from _validate to _do
        self.events = _PlayLog(players, self.history)
        self.rules: HeartsRules = rules
        self.single = single
        cycle = _CYCLES.get((rules.pass_cycle, players))
        if cycle is None:
            cycle = _CYCLES[rules.pass_cycle, players] = rules.cycle_for(players)
        self._cycle = cycle
        if single:
            direction = options.get("pass_direction", "left")
            pass_offset(direction, players)
            self._fixed_direction: str | None = direction
        elif "pass_direction" in options:
            raise ValueError("option 'pass_direction' is only for a single hand (Hearts.from_deal)")
        else:
            self._fixed_direction = None
        self.deck = _DECKS[players]
        self.hand_size = _HAND_SIZES[players]
        low_clubs = self.deck & _CLUBS
        self._lead_bit = low_clubs & -low_clubs
        #: the lowest club in play, which opens every hand
        self.opening_card: Card = _CARDS[self._lead_bit.bit_length() - 1]
        self._next = _NEXT[players]  # the seat on each seat's left
        self._k = rules.cards_to_pass
        # cards that break hearts once played, and that may not be discarded on the first trick
        self._break_mask = _POINT_MASK if rules.qs_breaks_hearts else HEARTS_MASK
        self._first_discard = ~_POINT_MASK if rules.no_pts_on_first_trick else -1
        self._unbroken_lead = ~HEARTS_MASK if rules.must_break_hearts else -1
        self.hand_no = -1
        self.dealer = -1
        self.scores = [0] * players
        self.winners: tuple[int, ...] = ()
        self.hand_history: list[list[int]] = []
        self._phase = _DEAL
        #: "pass" | "play" | "hand_over" | "match_over" (between hands, before a deal: "hand_over");
        #: a plain attribute, kept in step with ``_phase``, since loops read it at every action
        self.phase: str = _PHASE_OUT[_DEAL]
        self._to_move: int | None = CHANCE
        self._reset_hand()

    def _reset_hand(self) -> None:
        n = self.players
        self._hands = [0] * n
        self._chosen = [0] * n
        self._taken = [0] * n
        self._final: list[int] | None = None
        self._moon: int | None = None
        self._trick: list[int] = []  # the open trick's cards as bits (Card.bit); seat k: (leader + k) % n
        self._first = True  # the first trick is not complete yet
        self._broken = False  # hearts broken by a completed trick (the open trick: see hearts_broken)
        # the cards the mover may lead / discard when it holds any of them (else: any card held):
        # on the first trick the lowest club (whose holder leads) and no point card; later, no
        # heart led until hearts are broken, and any discard
        self._lead_mask = self._lead_bit
        self._discard_mask = self._first_discard
        self._legal_mask = -1  # cached legal mask of the mover, -1: not computed
        self.pass_direction = "none"
        self._offset = 0

    @classmethod
    def _blank(cls, players: int, options: dict[str, Any], seed: int | None) -> Hearts:
        return cls(players, options, seed)

    @classmethod
    def new(
        cls,
        players: int = 4,
        seed: int | None = 7,
        rules: HeartsRules | None = None,
        names: Sequence[str] | None = None,
    ) -> Hearts:
        """A match; the first hand is dealt (a chance action drawn from the seeded RNG)."""
        options: dict[str, Any] = {"rules": rules or HeartsRules()}
        if names is not None:
            options["names"] = names
        game = cls(players, options, seed)
        game._deal_drawn()
        return game

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[Sequence[Any]],
        pass_direction: str = "left",
        rules: HeartsRules | None = None,
        names: Sequence[str] | None = None,
    ) -> Hearts:
        """One hand from given hands (seat 0 first); ``pass_direction`` left/right/across/none."""
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
            raise ValueError(f"hands must be a list of hands, one per seat, got {hands!r}")
        options: dict[str, Any] = {
            "rules": rules or HeartsRules(),
            "single": True,
            "pass_direction": pass_direction,
        }
        if names is not None:
            options["names"] = names
        game = cls(len(hands), options, None)
        game.apply(Deal(tuple(hands)))  # IllegalAction naming a hand that is not a list of cards
        return game

    # -- state ------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._to_move


    def hand(self, seat: int) -> Hand:
        """That seat's cards now (chosen pass cards stay in the hand until they change hands)."""
        return Hand(cards_of_mask(self._hands[self._seat(seat)]))

    def hand_mask(self, seat: int) -> int:
        return self._hands[self._seat(seat)]

    def taken(self, seat: int) -> Hand:
        """The cards that seat has taken in tricks this hand."""
        return Hand(cards_of_mask(self._taken[self._seat(seat)]))

    def scores_points(self, card: CardLike) -> bool:
        """Whether taking ``card`` scores under these rules: a heart, the Queen of spades, and the
        Jack of diamonds with ``jd_bonus`` (views show the cards that count, and no rule of their own)."""
        bit = Card.parse(card).bit
        return bool(bit & _POINT_MASK or (self.rules.jd_bonus and bit & JD_BIT))

    @property
    def trick(self) -> Trick:
        """The cards on the table, as ``(seat, Card)`` pairs."""
        lead = self.leader
        n = self.players
        return Trick(((lead + k) % n, _CARD_OF_BIT[b]) for k, b in enumerate(self._trick))  # type: ignore[operator]

    @property
    def leader(self) -> int | None:
        """The seat that led (or is to lead) the current trick."""
        if self._phase != _PLAY:
            return None
        return (self._to_move - len(self._trick)) % self.players  # type: ignore[operator]

    @property
    def hearts_broken(self) -> bool:
        if self._broken:
            return True
        return any(self._break_mask & b for b in self._trick)

    @property
    def first_trick(self) -> bool:
        return self._phase == _PLAY and self._first

    @property
    def hand_points(self) -> list[int]:
        """Per seat: after the hand, its score (moon and Jack applied); during it, raw points taken."""
        return list(self._final) if self._final is not None else self._raw_points()

    def _raw_points(self) -> list[int]:
        """Points taken so far this hand, per seat (a heart 1, the Queen of spades 13)."""
        return [(t & HEARTS_MASK).bit_count() + (13 if t & QS_BIT else 0) for t in self._taken]

    @property
    def moon_shooter(self) -> int | None:
        return self._moon

    def chosen_pass(self, seat: int) -> Hand:
        """The cards ``seat`` has chosen to pass so far (the teacher's view)."""
        return Hand(cards_of_mask(self._chosen[self._seat(seat)]))

    def _seat(self, seat: Any) -> int:
        return self._check_seat(seat)  # IllegalAction (a ValueError) naming a bad seat

    # -- legality ---------------------------------------------------------------------
    def _legal(self) -> int:
        """The legal mask of the mover in the play phase (cached until the next action)."""
        h = self._hands[self._to_move]  # type: ignore[index]
        trick = self._trick
        if trick:  # follow suit if it can, else discard
            m = h & _SUIT_MASK_OF_BIT[trick[0]] or h & self._discard_mask or h
        else:
            m = h & self._lead_mask or h
        self._legal_mask = m
        return m

    def legal_mask(self) -> int:
        """The mover's legal cards as a 52-bit mask (0 when no seat is to act)."""
        p = self._phase
        if p == _PLAY:
            return self._legal()
        if p == _PASS:
            s = self._to_move
            return self._hands[s] & ~self._chosen[s]  # type: ignore[index]
        return 0

    def legal_actions(self) -> list[Any]:
        """Play: the legal Cards. Pass: the mover's Cards not yet chosen (pick one at a time,
        or apply a tuple of them all). At a chance node or once over: ``[]``."""
        trick = self._trick
        if trick:  # _legal(), inlined (cards on the table: the play phase)
            h = self._hands[self._to_move]  # type: ignore[index]
            shift, table = _FOLLOW[trick[0]]  # by the bit of the card led
            x = h >> shift & 0x1FFF
            if x:  # following suit: one suit's table
                self._legal_mask = x << shift
                return [*table[x]]
            m = self._legal_mask = h & self._discard_mask or h
            return [*_T0[m & 0x1FFF], *_T1[m >> 13 & 0x1FFF], *_T2[m >> 26 & 0x1FFF], *_T3[m >> 39]]
        p = self._phase
        if p == _PLAY:  # a lead
            h = self._hands[self._to_move]  # type: ignore[index]
            m = self._legal_mask = h & self._lead_mask or h
        elif p == _PASS:
            s = self._to_move
            m = self._hands[s] & ~self._chosen[s]  # type: ignore[index]
        else:
            return []
        return [*_T0[m & 0x1FFF], *_T1[m >> 13 & 0x1FFF], *_T2[m >> 26 & 0x1FFF], *_T3[m >> 39]]

    def _why_illegal(self, idx: int) -> str:
        """Why the mover may not play card ``idx`` now, and what is legal."""
        s = self._to_move
        card = _CARDS[idx]
        who = self.seat_name(s)  # type: ignore[arg-type]
        legal = " ".join(_codes(self._legal()))
        h = self._hands[s]  # type: ignore[index]
        bit = 1 << idx
        if not h & bit:
            owner = next((o for o in range(self.players) if self._hands[o] & bit), None)
            if owner is not None:
                why = f"{card} is in {self.seat_name(owner)}'s hand, and it is {who}'s turn (seat {s})"
            elif self.deck & bit:
                why = f"{card} is not in {who}'s hand (it has been played)"
            else:
                why = f"{card} is not in play with {self.players} players"
        elif self._first and not self._trick:
            why = f"the holder of {self.opening_card} must lead it to the first trick"
        elif not self._trick:
            why = f"hearts may not be led until a heart has been played (or {who} holds only hearts)"
        elif h & _SUIT_MASK_OF_BIT[self._trick[0]]:
            suit = Suit(_CARD_OF_BIT[self._trick[0]].suit)
            why = f"{who} must follow suit ({suit.title.lower()} were led)"
        else:
            why = (
                f"a heart or the Queen of spades may not be played on the first trick while {who} holds "
                "another card"
            )
        return f"{why}; legal: {legal}"

    def _card_index(self, action: Any) -> int:
        """The card index of a Card or a code; IllegalAction naming a bad value."""
        if type(action) is Card:
            i = _IDX_OF_ID.get(id(action))
            return action.index if i is None else i
        if type(action) is str:
            c = _PARSED.get(action)
            if c is not None:
                return _IDX_OF_ID[id(c)]
        try:
            return Card.parse(action).index
        except ValueError as e:
            raise IllegalAction(str(e)) from None

    # -- applying actions -------------------------------------------------------------
    # ``apply`` is the engine's one step (validate, record, do); Hearts gives its two hooks, with the
    # fast paths in them, and forces no action. ``act(seat, action)`` is the engine's seat guard.

    def _validate(self, action: Any) -> Any:
        """The engine's validation hook: the normalised action, or IllegalAction (nothing changed).

        The hot path first: an interned Card played in the play phase is checked against the
        mover's legal mask (one AND; the mask is cached until the next action)."""
        p = self._phase
        if p == _PLAY:
            bit = _bit_of_id(id(action))
            if bit is not None:
                m = self._legal_mask
                if m < 0:
                    m = self._legal()
                if m & bit:
                    self._bit = bit  # for _do, which follows at once
                    return action
        if p == _PLAY:
            idx = _idx_of_id(id(action))
            if idx is None:
                if type(action) is tuple or type(action) is list:
                    raise IllegalAction(
                        f"play one card, not {action!r}; legal: {' '.join(_codes(self._legal()))}"
                    )
                idx = self._card_index(action)
            if not self._legal() >> idx & 1:
                raise IllegalAction(self._why_illegal(idx))
            self._bit = 1 << idx
            return _CARDS[idx]
        if p == _PASS:
            return self._validate_pass(action)
        if p == _DEAL:
            return self._validate_deal(action)
        raise IllegalAction("the game is over")

    def _validate_deal(self, action: Any) -> Deal:
        if not isinstance(action, Deal):
            raise IllegalAction(f"a deal is due (use chance_outcome() or next_hand()), not {action!r}")
        n = self.players
        if len(action.masks) != n:
            raise IllegalAction(f"a deal needs {n} hands, got {len(action.masks)}")
        size = self.hand_size
        deck = self.deck
        masks = action.masks
        union = 0
        for m in masks:
            union |= m
        sizes = _SIZES_OF[n]
        if action.sizes == sizes == tuple(map(int.bit_count, masks)) and union.bit_count() == n * size and (
            not union & ~deck
        ):
            return action  # n hands of the right size, no card twice, all in play: the usual case
        seen = 0
        for s, m in enumerate(masks):
            if action.sizes[s] != size:
                raise IllegalAction(
                    f"seat {s} is dealt {action.sizes[s]} cards; each gets {size} with {n} players"
                )
            if m & ~deck:
                raise IllegalAction(f"{' '.join(_codes(m & ~deck))} is not in play with {n} players")
            if m & seen or m.bit_count() != size:
                dup = [c for c in action.hands[s] if seen & c.bit] or [
                    c for c in action.hands[s] if action.hands[s].count(c) > 1
                ]
                raise IllegalAction(f"{dup[0]} is dealt twice")
            seen |= m
        return action

    def _validate_pass(self, action: Any) -> Card | tuple[Card, ...]:
        s = self._to_move
        k = self._k
        if type(action) is tuple and len(action) == k and not self._chosen[s]:  # type: ignore[index]
            m = 0  # the common case, k interned Cards, checked here (anything else: _check_pass)
            for c in action:
                b = _bit_of_id(id(c))
                if b is None:
                    break
                m |= b
            else:
                if m & self._hands[s] == m and m.bit_count() == k:  # type: ignore[index]
                    self._bit = m  # the cards' mask, for _do
                    return action  # already normalised: a tuple of interned Cards
        chosen, self._bit = self._check_pass(action)
        return chosen

    def _check_pass(self, action: Any) -> tuple[Card | tuple[Card, ...], int]:
        """The normalised pass action and the mask of its cards, or IllegalAction."""
        s: int = self._to_move  # type: ignore[assignment]
        k = self._k
        chosen = self._chosen[s]
        free = self._hands[s] & ~chosen
        if isinstance(action, (tuple, list)):
            if chosen:
                raise IllegalAction(
                    f"{self.seat_name(s)} has already chosen {chosen.bit_count()} card(s) to "
                    f"pass; choose the remaining {k - chosen.bit_count()} one at a time"
                )
            if len(action) != k:
                raise IllegalAction(f"a pass is {k} cards, got {len(action)}: {action!r}")
            idxs = [self._card_index(a) for a in action]
        else:
            idxs = [self._card_index(action)]
        m = 0
        for i in idxs:
            bit = 1 << i
            if not free & bit:
                where = "already chosen" if chosen & bit else f"not in {self.seat_name(s)}'s hand"
                raise IllegalAction(
                    f"cannot pass {_CARDS[i]}: it is {where}; choose from {' '.join(_codes(free))}"
                )
            if m & bit:
                raise IllegalAction(
                    f"a pass is {k} different cards; {_CARDS[i]} is named twice in {action!r}"
                )
            m |= bit
        if not isinstance(action, (tuple, list)):
            return _CARDS[idxs[0]], m  # one card chosen: recorded as that card
        return tuple([_CARDS[i] for i in idxs]), m

    def _do(self, action: Any) -> None:
        """The engine's hook that applies a validated (normalised) action."""
        if self._phase == _PLAY:  # _play(), inlined for a card that leaves the trick open
            bit = self._bit  # the card's bit, kept by _validate
            trick = self._trick
            trick.append(bit)
            if len(trick) < self.players:
                s = self._to_move
                self._hands[s] ^= bit  # type: ignore[index]
                self._legal_mask = -1
                self._to_move = self._next[s]  # type: ignore[index]
            else:
                self._end_trick(bit)
        elif self._phase == _PASS:
            self._pass(action, self._bit)  # the mask of its cards, kept by _validate
        else:
            self._deal(action)

    def chance_outcome(self) -> Deal:
        """Shuffle the cards in play with the game's RNG; deal one at a time clockwise from dealer's left.

        The shuffle is ``random.Random.shuffle``'s, step for step (so a seed gives the same deals as
        ever), with its per-card method calls inlined.
        """
        if self._phase != _DEAL:
            raise IllegalAction("no deal is due now")
        if self.single and self.hand_no >= 0:
            raise IllegalAction("a game set up with from_deal is one hand")
        n = self.players
        order = [*_DECK_BITS[n]]
        getrandbits = self.rng.getrandbits
        for i, k in _SHUFFLE_STEPS[len(order)]:  # Random.shuffle: j = randbelow(i + 1), swap
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            order[i], order[j] = order[j], order[i]
        # the k-th card dealt goes to seat (first + k) % n, first the seat left of the next dealer
        first = (self.dealer + 2) % n
        sums = list(map(sum, map(order.__getitem__, _EVERY_NTH[n])))  # sums[j]: cards j, j + n, ...
        return Deal(_masks=sums[-first:] + sums[:-first], _sizes=_SIZES_OF[n])  # seat s: sums[s - first]

    def next_hand(self) -> Hearts:
        """Deal the next hand of the match (only between hands)."""
        if self.single:
            raise IllegalAction("a game set up with from_deal is one hand; use Hearts.new for a match")
        if self._phase != _DEAL:
            raise IllegalAction(f"the hand is not over (phase {self.phase!r}); no next hand yet")
        self._deal_drawn()
        return self

    def _deal_drawn(self) -> None:
        """Apply a deal drawn from the game's RNG (valid by construction, so not checked again)."""
        deal = self.chance_outcome()
        self.history.append(deal)
        self._deal(deal)

    def _deal(self, deal: Deal) -> None:
        n = self.players
        if self.hand_no >= 0:  # (a new game is in the reset state already)
            self._reset_hand()
        self.hand_no += 1
        self.dealer = (self.dealer + 1) % n
        self._hands = list(deal.masks)
        if self._fixed_direction is not None:
            direction = self._fixed_direction
        else:
            direction = self._cycle[self.hand_no % len(self._cycle)]
        self.pass_direction = direction
        self._offset = pass_offset(direction, n)
        self.events._close()
        self.events._events.append(
            ("deal", len(self.history) - 1, self.hand_no, self.dealer, direction, deal.masks, deal.sizes)
        )
        if self._offset and self._k:
            self._phase = _PASS
            self.phase = _PHASE_OUT[_PASS]
            self._to_move = 0
        else:
            self._start_play()

    def _pass(self, action: Card | tuple[Card, ...], mask: int | None = None) -> None:
        """Seat ``to_move`` chooses the cards of ``action`` (their mask, if the caller has it)."""
        s: int = self._to_move  # type: ignore[assignment]
        cards = (action,) if type(action) is Card else action
        if mask is None:
            mask = 0
            for c in cards:
                mask |= 1 << _IDX_OF_ID[id(c)]
        m = self._chosen[s] | mask
        self._chosen[s] = m
        self.events._events.append(("choice", len(self.history) - 1, s, cards))
        if m.bit_count() < self._k:
            return
        n = self.players
        if s + 1 < n:
            self._to_move = s + 1
            return
        off = self._offset
        hands, chosen = self._hands, self._chosen
        self._hands = [(hands[i] & ~chosen[i]) | chosen[i - off] for i in range(n)]  # chosen[-j]: seat n-j
        self.events._events.append(("pass", len(self.history) - 1, self.pass_direction, off, tuple(chosen)))
        self._start_play()

    def _start_play(self) -> None:
        lead = self._lead_bit
        self._phase = _PLAY
        self.phase = _PHASE_OUT[_PLAY]
        self._legal_mask = -1
        s = 0
        while not self._hands[s] & lead:
            s += 1
        self._to_move = s
        self.events._start(len(self.history), s)

    def _play(self, idx: int) -> None:
        """Play card ``idx`` (already validated and in the history) for the mover."""
        bit = 1 << idx
        self._trick.append(bit)
        if len(self._trick) == self.players:
            self._end_trick(bit)
            return
        s: int = self._to_move  # type: ignore[assignment]
        self._hands[s] ^= bit
        self._legal_mask = -1
        self._to_move = self._next[s]

    def _end_trick(self, bit: int) -> None:
        """The trick's last card (``bit``) is played: the highest card of the suit led takes the trick."""
        s: int = self._to_move  # type: ignore[assignment]
        hands = self._hands
        hands[s] ^= bit
        self._legal_mask = -1
        trick = self._trick
        tmask = sum(trick)  # distinct bits: the sum is the union
        top = tmask & _SUIT_MASK_OF_BIT[trick[0]]
        top = 1 << top.bit_length() - 1  # the highest card of the suit led
        w = (s + 1 + trick.index(top)) % self.players  # the leader sits left of the last to play
        self._taken[w] |= tmask
        if self._first:
            self._first = False
            self._discard_mask = -1
            self._lead_mask = self._unbroken_lead
        if tmask & self._break_mask:
            self._broken = True
            self._lead_mask = -1
        self._trick = []
        if hands[s]:  # cards are left (every seat holds as many)
            self._to_move = w
        else:
            self._score_hand()

    # -- scoring ----------------------------------------------------------------------
    def _score_hand(self) -> None:
        n = self.players
        raw = self._raw_points()
        final = list(raw)
        # every player count keeps all 26 points in the deck: a seat with 26 took them all
        shooter = raw.index(26) if 26 in raw else None
        mode = None
        if shooter is not None:
            mode = self.rules.moon
            if mode == "shooter_chooses":
                mode = self._moon_choice(shooter)
            if mode == "add_to_others":
                final = [0 if s == shooter else 26 for s in range(n)]
            else:
                final = [-26 if s == shooter else 0 for s in range(n)]
        if self.rules.jd_bonus:
            for s in range(n):
                if self._taken[s] & JD_BIT:
                    final[s] -= 10
        self._final = final
        self._moon = shooter
        self.scores = list(map(_add, self.scores, final))
        self.hand_history.append(final)
        winners = None
        if self.single:
            self._phase = _HAND_OVER
            self.phase = _PHASE_OUT[_HAND_OVER]
            self._to_move = None
            self.is_over = True
        elif max(self.scores) >= self.rules.target:
            low = min(self.scores)
            self.winners = tuple(s for s in range(n) if self.scores[s] == low)
            winners = list(self.winners)
            self._phase = _MATCH_OVER
            self.phase = _PHASE_OUT[_MATCH_OVER]
            self._to_move = None
            self.is_over = True
        else:
            self._phase = _DEAL
            self.phase = _PHASE_OUT[_DEAL]
            self._to_move = CHANCE
        events = self.events
        events._close()
        scores = tuple(self.scores)
        events._events.append(("over", len(self.history) - 1, raw, final, shooter, mode, scores, winners))

    def _moon_choice(self, shooter: int) -> str:
        """Option moon="shooter_chooses": the shooter takes the option better for it in the match.

        Adding 26 to the others is taken unless it would end the match with the shooter not
        among the winners while subtracting would not; then 26 is subtracted instead.
        """
        n = self.players
        target = self.rules.target
        add = [self.scores[s] + (0 if s == shooter else 26) for s in range(n)]

        def loses(totals: list[int]) -> bool:
            return max(totals) >= target and totals[shooter] > min(totals)

        if self.single or not loses(add):
            return "add_to_others"
        return "subtract_from_shooter"

    # -- observation ------------------------------------------------------------------
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` knows: its hand, the public state, and its view of the event log.

        ``None``: the teacher's observation, from the whole log, with every hand (``hands``) and
        the mover's legal cards; its own pass keys (``chosen``, ``passed``...) stay empty.
        """
        teacher = seat is None
        if not teacher:
            seat = self._seat(seat)
        events = self.events.view(seat)
        passed: list[str] = []
        received: list[str] = []
        passed_to = received_from = None
        chosen: list[str] = []
        for e in events:  # this hand's pass, as this seat saw it
            k = e["kind"]
            if k == "deal":
                passed, received, chosen, passed_to, received_from = [], [], [], None, None
            elif k == "pass_choice" and e["seat"] == seat:
                chosen += e["cards"]
            elif k == "pass" and not teacher:
                passed, received = e["passed"], e["received"]
                passed_to, received_from = e["to"], e["from"]
        mover = teacher or self._to_move == seat
        tricks = []
        if self.hand_no >= 0:
            start = self._last_deal_step()
            for e in self.events:
                if e.kind == "trick" and e.step >= start:
                    tricks.append(
                        {
                            "leader": e.public["cards"][0][0],
                            "cards": e.public["cards"],
                            "winner": e.public["winner"],
                            "points": e.public["points"],
                            "scoring": [c for _s, c in e.public["cards"] if self.scores_points(c)],
                        }
                    )
        obs = Observation(
            game=self.name,
            seat=seat,
            players=self.players,
            step=self.step,
            to_move=self._to_move,
            is_over=self.is_over,
            phase=self.phase,
            hand=[] if teacher else _codes(self._hands[seat]),
            events=events,
            legal=[c.code for c in self.legal_actions()] if mover else [],
            hand_no=self.hand_no,
            dealer=self.dealer,
            pass_direction=self.pass_direction,
            cards_to_pass=self.rules.cards_to_pass if self._offset else 0,
            chosen=chosen,
            passed=passed,
            passed_to=passed_to,
            received=received,
            received_from=received_from,
            trick=[[s, c.code] for s, c in self.trick],
            leader=self.leader,
            tricks=tricks,
            hearts_broken=self.hearts_broken,
            first_trick=self.first_trick,
            hand_sizes=[h.bit_count() for h in self._hands],
            points_taken=self._raw_points(),
            hand_points=self.hand_points,
            scores=list(self.scores),
            winners=list(self.winners),
            removed=_codes(((1 << 52) - 1) & ~self.deck),
            rules=self.rules.to_dict(),
            names=[self.seat_name(s) for s in range(self.players)],
        )
        # for a table: why each of the mover's other cards is refused now
        refused: dict[str, str] = {}
        if mover and self.phase == "play" and self._to_move is not None and self._to_move >= 0:
            legal = self._legal()
            for idx in range(52):
                bit = 1 << idx
                if self._hands[self._to_move] & bit and not legal & bit:
                    refused[_CARDS[idx].code] = self._why_illegal(idx)
        obs["refused"] = refused
        if teacher:
            obs["hands"] = [_codes(m) for m in self._hands]
        return obs

    def knowledge(self, seat: int):
        """What ``seat`` knows about where the cards are (a deduction ``Knowledge``), from its observation."""
        from .knowledge import knowledge_of

        return knowledge_of(self.observation(seat))

    def summary(self) -> dict[str, Any]:
        """The result: match totals, the winners, and every hand's points (moon applied)."""
        return {"scores": list(self.scores), "winners": list(self.winners),
                "hand_points": [list(h) for h in self.hand_history]}

    def _last_deal_step(self) -> int:
        for e in reversed(self.events):
            if e.kind == "deal":
                return e.step
        return 0

    # -- records ----------------------------------------------------------------------
    def action_to_json(self, action: Any) -> Any:
        if isinstance(action, Deal):
            return {"deal": [_codes(m) for m in action.masks]}
        if isinstance(action, Card):
            return action.code
        if isinstance(action, str):  # a card code (an observation's legal cards): its own encoding
            return Card.parse(action).code
        if isinstance(action, tuple) and all(isinstance(c, Card) for c in action):
            return [c.code for c in action]
        raise ValueError(f"not a Hearts action: {action!r}")

    def action_from_json(self, data: Any) -> Any:
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

    def copy(self) -> Hearts:
        """An independent copy (same state, same RNG state); events are immutable and shared."""
        new = object.__new__(Hearts)
        d = self.__dict__.copy()
        d["history"] = list(d["history"])
        d["events"] = self.events._copy_for(d["history"])
        d["options"] = dict(self.options)
        rng = _random.Random()
        rng.setstate(self.rng.getstate())
        d["rng"] = rng
        new.__dict__ = d
        for key in Hearts.__slots__:
            setattr(new, key, getattr(self, key))
        for key in Hearts._LISTS:
            setattr(new, key, list(getattr(self, key)))
        if self._final is not None:
            new._final = list(self._final)
        return new

    def __deepcopy__(self, memo: dict) -> Hearts:
        return self.copy()

    # -- words ------------------------------------------------------------------------
    def describe(self, event: Any, seat: int | None = None) -> str:
        """One event in words, as ``seat`` saw it (None: the teacher, who sees everything)."""
        data = event.seen_by(seat) if isinstance(event, Event) else event
        kind = event.kind if isinstance(event, Event) else event["kind"]
        return describe_event(kind, data, seat, [self.seat_name(s) for s in range(self.players)])

    def __repr__(self) -> str:
        return (
            f"<Hearts {self.players} players, hand {self.hand_no + 1}, {self.phase}, to move {self._to_move}>"
        )


def describe_event(kind: str, data: Mapping[str, Any], seat: int | None, names: Sequence[str]) -> str:
    """One event (its data as ``seat`` saw it) in words; ``names`` the seats' names. ``Hearts.describe``
    and the tables (from an observation's events) both use it."""
    name = names.__getitem__
    if kind == "deal":
        dealer, direction = name(data["dealer"]), data["pass_direction"]
        text = f"Hand {data['hand'] + 1}: {dealer} deals; the pass is {direction}."
        if seat is not None and "cards" in data:
            text += f" You get {_symbols(data['cards'])}."
        return text
    if kind == "pass_choice":
        s = data["seat"]
        if seat == s:
            return f"You choose to pass {_symbols(data['cards'])}."
        if seat is None:
            cards = data["private"][s]["cards"]
            return f"{name(s)} chooses to pass {_symbols(cards)}."
        count = data["count"]
        return f"{name(s)} chooses " + ("a card" if count == 1 else f"{count} cards") + " to pass."
    if kind == "pass":
        if seat is None:
            parts = [
                f"{name(s)} passes {_symbols(p['passed'])} to "
                f"{name(p['to'])}"
                for s, p in data["private"].items()
            ]
            return f"The cards are passed {data['direction']}: " + "; ".join(parts) + "."
        passed = _symbols(data["passed"])
        received = _symbols(data["received"])
        to, giver = name(data["to"]), name(data["from"])
        return f"You pass {passed} to {to} and receive {received} from {giver}."
    if kind == "play":
        return f"{name(data['seat'])} plays the {Card.parse(data['card']).name}."
    if kind == "trick":
        pts = data["points"]
        return f"{name(data['winner'])} takes the trick" + (
            f" ({pts} point{'s' * (pts != 1)})." if pts else "."
        )
    if kind == "hand_over":
        pts = ", ".join(f"{name(s)} {p}" for s, p in enumerate(data["points"]))
        text = f"The hand is over: {pts}."
        if data.get("moon") is not None:
            text = f"{name(data['moon'])} shoots the moon! " + text
        if "winners" in data:
            text += " The match is over; " + " and ".join(name(s) for s in data["winners"]) + " win."
        return text
    return kind

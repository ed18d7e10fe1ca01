"""Hearts for 3 to 6 players on the shared engine: the state machine of passing, play, scoring and the match.

The rules themselves live in :mod:`.rules` (the kernel: legal cards, the taker of a trick,
points, scoring, the end of the match), the log in :mod:`.log`, the words in :mod:`.words`, the
value types and their JSON codec in :mod:`.values`. The state machine holds every hand as a
52-bit mask (``Card.bit``; suits are contiguous runs of 13 bits, so "this seat's spades" is one
AND), the lead and discard masks of the trick being played (the kernel's
:func:`~.rules.lead_mask` and :func:`~.rules.discard_mask`, updated as the first trick ends and
as hearts are broken) and the mover's legal mask once asked for, and hands out readable ``Card``
objects at the edges (``hand``, ``legal_actions``, ``trick``). The engine's one step
(``Game.apply``: validate, record, do) is not overridden: Hearts gives the engine's fast-path hook
``_step_fast``, which fuses its commonest cases, a legal Card played and a whole pass of Cards,
and declines every other action, which ``Game.apply`` then hands to the engine's general path
(``Game._apply_general``: ``_validate``, the history, ``_do``), which explains a refusal.

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
from collections.abc import Sequence as _Sequence
from operator import add as _add
from typing import Any, Mapping, Sequence

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
)
from ...engine import CHANCE, Game, IllegalAction, Observation
from . import words
from .log import HeartsLog
from .rules import (
    DEFAULT_RULES,
    HeartsRules,
    break_mask,
    check_players,
    deck_mask,
    discard_mask,
    hand_size,
    lead_mask,
    match_over,
    match_winners,
    opening_bit,
    pass_hands,
    pass_offset,
    points_of,
    score_hand,
    scores_points,
    trick_winner,
)
from .values import Deal, Trick, action_from_json, action_to_json, codes_of
from .words import event_words

__all__ = ["Hearts", "Deal", "Trick", "PHASES", "BOT_OBSERVATION_KEYS"]

PHASES = ("pass", "play", "hand_over", "match_over")
#: the keys of ``Hearts.bot_observation``: what the package's Hearts bots read of an observation
BOT_OBSERVATION_KEYS = (
    "seat",
    "players",
    "phase",
    "to_move",
    "hand",
    "legal",
    "trick",
    "tricks",
    "hearts_broken",
    "first_trick",
    "hand_sizes",
    "points_taken",
    "passed",
    "passed_to",
    "rules",
)
_DEAL, _PASS, _PLAY, _HAND_OVER, _MATCH_OVER = range(5)
_T0, _T1, _T2, _T3 = _SUIT_TABLES
_PHASE_OUT = ("hand_over", "pass", "play", "hand_over", "match_over")
_DECK_BITS = {n: tuple(c.bit for c in cards_of_mask(deck_mask(n))) for n in range(3, 7)}
_DECKS = {n: deck_mask(n) for n in range(3, 7)}
_HAND_SIZES = {n: hand_size(n) for n in range(3, 7)}
_SIZES_OF = {n: (s,) * n for n, s in _HAND_SIZES.items()}
#: by the index of the card led: its suit's mask, the shift of its 13 bits and that suit's table of Cards
#: (a tuple: indexing it is several times cheaper than a dict keyed by the card's bit)
_LED = tuple((SUIT_MASKS[i // 13], 13 * (i // 13), _SUIT_TABLES[i // 13]) for i in range(52))
_SUIT_MASK_OF_BIT = {1 << i: SUIT_MASKS[i // 13] for i in range(52)}
_CARD_OF_BIT = {1 << i: _CARDS[i] for i in range(52)}
_CODES = tuple(c.code for c in _CARDS)
_NEXT = {n: tuple((s + 1) % n for s in range(n)) for n in range(3, 7)}
_OPTION_NAMES = frozenset({"rules", "single", "pass_direction", "names"})


#: the dealing shuffle's steps for each player count: (i, bits of i + 1, the hand of position i), i from
#: the top down (see :func:`_deal_shuffled`)
_DEAL_STEPS = {
    n: tuple((i, (i + 1).bit_length(), i % n) for i in range(_HAND_SIZES[n] * n - 1, 0, -1))
    for n in range(3, 7)
}


def _deal_shuffled(order: list[int], getrandbits: Any, players: int) -> tuple[int, ...]:
    """``random.Random.shuffle(order)`` on the list of the bits of the cards in play, step for step (the
    same draws, so a seed gives the same deals as ever), and the shuffled cards dealt one at a time,
    card ``p`` of the shuffled order to hand ``p % players``: the tuple of the hands' masks. Dealt as the
    shuffle goes: Fisher-Yates fixes position ``i`` at step ``i``, so its card joins its hand then and
    the list is not read there again (no swap back, no sums after)."""
    hands = [0] * players
    for i, k, h in _DEAL_STEPS[players]:  # Random.shuffle: j = _randbelow(i + 1)
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        hands[h] += order[j]
        order[j] = order[i]
    hands[0] += order[0]
    return tuple(hands)


class _Setup:
    """What a table of ``players`` under ``rules`` keeps fixed, from the rules kernel (one per rules)."""

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
    )

    def __init__(self, players: int, rules: HeartsRules) -> None:
        self.rules = rules
        self.players = players
        self.cycle = rules.cycle_for(players)
        self.deck = deck_mask(players)
        self.hand_size = hand_size(players)
        self.lead_bit = opening_bit(players)
        self.opening_card = _CARDS[self.lead_bit.bit_length() - 1]
        self.next = _NEXT[players]
        self.first_lead = lead_mask(True, False, players, rules)
        self.unbroken_lead = lead_mask(False, False, players, rules)
        self.broken_lead = lead_mask(False, True, players, rules)
        self.first_discard = discard_mask(True, rules)
        self.later_discard = discard_mask(False, rules)
        self.break_mask = break_mask(rules)
        self.offsets: dict[str, int] = {}
        #: the cards that score under these rules (``scores_points``), and the rules as ``to_dict``
        #: gives them (an observation's ``rules``, copied)
        self.point_mask = sum(1 << i for i in range(52) if scores_points(1 << i, rules))
        self.rules_dict = rules.to_dict()
        #: the bits of the cards in play, lowest first (what the dealing shuffle starts from), and the
        #: hand sizes of a deal
        self.deck_bits = _DECK_BITS[players]
        self.sizes = _SIZES_OF[players]
        #: the pass cycle as (direction, offset) pairs
        self.cycle_offsets = tuple((d, self.offset(d)) for d in self.cycle)

    def offset(self, direction: str) -> int:
        """The pass offset of ``direction`` (checked once per table; ValueError naming a bad one)."""
        if type(direction) is not str:
            return pass_offset(direction, self.players)  # (raises, naming it)
        off = self.offsets.get(direction)
        if off is None:
            off = self.offsets[direction] = pass_offset(direction, self.players)
        return off


#: by (players, id of the rules object): that object (kept alive here, so its id is not reused while
#: it is cached) and its setup; by (players, rules' value): the setup
_SETUPS: dict[tuple[int, int], tuple[HeartsRules, _Setup]] = {}
_SETUPS_BY_VALUE: dict[tuple[int, HeartsRules], _Setup] = {}


def _setup(players: int, rules: HeartsRules) -> _Setup:
    """The cached ``_Setup`` of a table: by the rules object, else by the rules' value (equal rules
    made anew share the setup, and are cached by their own id from then on: hashing a dataclass's
    value costs more than the rest of a game's set-up)."""
    key = (players, id(rules))
    entry = _SETUPS.get(key)
    if entry is not None and entry[0] is rules:
        return entry[1]
    if len(_SETUPS) > 256:
        _SETUPS.clear()
        _SETUPS_BY_VALUE.clear()
    setup = _SETUPS_BY_VALUE.get((players, rules))
    if setup is None:
        setup = _SETUPS_BY_VALUE[players, rules] = _Setup(players, rules)
    _SETUPS[key] = (rules, setup)
    return setup


class Hearts(Game):
    """A match (``Hearts.new``) or one hand (``Hearts.from_deal``) of Hearts; see the module docstring."""

    name = "hearts"
    title = "Hearts"
    min_players = 3
    max_players = 6
    knowledge_adapter = "qardlab.games.hearts.knowledge:knowledge_of"
    table_widget = "qardlab.widgets.hearts:HeartsTable"
    bot_levels = {
        "random": "qardlab.engine.bots:RandomBot",
        "rules": "qardlab.games.hearts.bots:RuleBot",
        "counting": "qardlab.games.hearts.bots:CountingBot",
    }
    bot_level_titles = {"counting": "card counting"}

    @classmethod
    def deal_from_json(cls, deal: Any, options: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """A set-up hand ``{"hands": [[codes], ...], "pass_direction": "left"}`` as the deal action; it
        makes the table one hand (options ``single`` and ``pass_direction``)."""
        if not isinstance(deal, dict) or "hands" not in deal:
            raise ValueError(f"deal must be an object with 'hands', not {deal!r}")
        unknown = set(deal) - {"hands", "pass_direction"}
        if unknown:
            raise ValueError(f"a Hearts deal has hands and pass_direction; not {sorted(unknown)}")
        options = {**options, "single": True, "pass_direction": deal.get("pass_direction", "left")}
        return {"deal": deal["hands"]}, options

    # The state lives in slots (the engine's attributes stay in the instance dict): more than 30
    # attributes overflow an instance dict's shared keys, and every read in the hot path slows.
    __slots__ = (
        "_bit",
        "_broken",
        "_chosen",
        "_discard_mask",
        "_final",
        "_first",
        "_fixed",
        "_hands",
        "_k",
        "_lead_mask",
        "_led",
        "_legal_mask",
        "_moon",
        "_next",
        "_offset",
        "_phase",
        "_setup",
        "_taken",
        "_to_move",
        "_trick",
        "_tricks",
        "_trick_views",
        "dealer",
        "hand_history",
        "hand_no",
        "is_over",
        "pass_direction",
        "phase",
        "rules",
        "scores",
        "single",
        "winners",
    )
    _LISTS = ("_hands", "_chosen", "_taken", "_trick", "_tricks", "_trick_views", "scores", "hand_history")

    # -- construction -----------------------------------------------------------------
    def __init__(self, players: int, options: dict[str, Any], seed: int | None) -> None:
        if type(players) is not int or not 3 <= players <= 6:
            players = check_players(players)  # (ValueError naming it)
        if type(options) is not dict:
            if not isinstance(options, dict):
                raise ValueError(f"Hearts options must be a dict, not {options!r}")
        rules = options.get("rules")
        if type(rules) is not HeartsRules:
            rules = DEFAULT_RULES if rules is None else HeartsRules.from_dict(rules)
        options = {**options, "rules": rules}
        if len(options) > 1 and not options.keys() <= _OPTION_NAMES:
            raise ValueError(f"unknown Hearts options {sorted(set(options) - _OPTION_NAMES)}")
        single = options.get("single", False)
        if single is not False and single is not True:
            raise ValueError(f"option 'single' must be True or False, got {single!r}")
        Game.__init__(self, players, options, seed)  # checks the seed and the names
        setup = _setup(players, rules)  # the table's constants, from the rules kernel (cached)
        if single:  # a single hand's pass direction and its offset (ValueError naming a bad one)
            direction = options.get("pass_direction", "left")
            self._fixed: tuple[str, int] | None = (direction, setup.offset(direction))
        elif "pass_direction" in options:
            raise ValueError("option 'pass_direction' is only for a single hand (Hearts.from_deal)")
        else:
            self._fixed = None
        #: whether the game is over (no seat to move, no deal due): a plain attribute, kept in step
        #: with ``to_move``, since the engine's ``apply`` reads it at every action
        self.is_over = False
        self._bit = 0  # the bit of the card played (the mask of the cards passed), from _validate to _do
        self.rules: HeartsRules = rules
        self.single = single
        self._setup = setup  # (the table's constants: deck, hand_size, opening_card... read from it)
        self._next = setup.next  # the seat on each seat's left
        self._k = rules.cards_to_pass
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

    def _new_log(self) -> HeartsLog:
        """The engine's log hook: Hearts' lazy log, which reads the plays from the history."""
        return HeartsLog(self.players, self.history)

    def _reset_hand(self) -> None:
        n = self.players
        self._hands = [0] * n
        self._chosen = [0] * n
        self._taken = [0] * n
        self._final: list[int] | None = None
        self._moon: int | None = None
        self._trick: list[int] = []  # the open trick's cards as bits (Card.bit); seat k: (leader + k) % n
        #: the hand's completed tricks, (leader, the cards as bits in playing order, taker), as they end;
        #: and as many of them as have been observed, in an observation's words (``_observed_tricks``)
        self._tricks: list[tuple[int, list[int], int]] = []
        self._trick_views: list[dict[str, Any]] = []
        #: the suit led to the open trick, as ``_LED`` gives it (set as a trick is led; read only while
        #: the trick is open)
        self._led: tuple[int, int, tuple[Card, ...]] = _LED[0]
        self._first = True  # the first trick is not complete yet
        self._broken = False  # hearts broken by a completed trick (the open trick: see hearts_broken)
        # the kernel's masks of the cards the mover may lead / discard when it holds any of them
        # (else any card held), for the trick being played: updated as the first trick ends and
        # as hearts are broken
        setup = self._setup
        self._lead_mask = setup.first_lead
        self._discard_mask = setup.first_discard
        #: the mover's legal cards in the play phase, cached by ``legal_actions`` and ``legal_mask``
        #: until the next action; 0 when not computed, and in any other phase (so ``apply``'s fused
        #: play finds no legal card there, and leaves the action to the general path)
        self._legal_mask = 0
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
        options: dict[str, Any] = {"rules": rules or DEFAULT_RULES}
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
        if (
            type(hands) is not list
            and type(hands) is not tuple
            and (isinstance(hands, (str, bytes)) or not isinstance(hands, _Sequence))
        ):
            raise ValueError(f"hands must be a list of hands, one per seat, got {hands!r}")
        options: dict[str, Any] = {
            "rules": rules or DEFAULT_RULES,
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

    @property
    def deck(self) -> int:
        """The mask of the cards in play with this many players."""
        return self._setup.deck

    @property
    def hand_size(self) -> int:
        """The cards each seat is dealt."""
        return self._setup.hand_size

    @property
    def opening_card(self) -> Card:
        """The lowest club in play, which opens every hand."""
        return self._setup.opening_card

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
        return scores_points(Card.parse(card).bit, self.rules)

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
        breaks = self._setup.break_mask
        return any(breaks & b for b in self._trick)

    @property
    def first_trick(self) -> bool:
        return self._phase == _PLAY and self._first

    @property
    def hand_points(self) -> list[int]:
        """Per seat: after the hand, its score (moon and Jack applied); during it, raw points taken."""
        return list(self._final) if self._final is not None else self._raw_points()

    def _raw_points(self) -> list[int]:
        """Points taken so far this hand, per seat (a heart 1, the Queen of spades 13)."""
        return [points_of(t) for t in self._taken]

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
        """The legal mask of the mover in the play phase, cached in ``_legal_mask`` until the next
        action: the kernel's ``legal_mask`` (follow suit if it can, else any card the discard mask
        allows, else any; a lead: any card the lead mask allows, else any), with this trick's lead
        and discard masks (the kernel's ``lead_mask`` and ``discard_mask``, kept as the trick changes)."""
        h = self._hands[self._to_move]  # type: ignore[index]
        trick = self._trick
        if trick:
            m = h & _SUIT_MASK_OF_BIT[trick[0]] or h & self._discard_mask or h
        else:
            m = h & self._lead_mask or h
        self._legal_mask = m
        return m

    def legal_mask(self) -> int:
        """The mover's legal cards as a 52-bit mask (0 when no seat is to act)."""
        p = self._phase
        if p == _PLAY:
            return self._legal_mask or self._legal()
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
            suit, shift, table = self._led  # the suit led
            m = h & suit
            if m:  # following suit: one suit's table
                self._legal_mask = m
                return [*table[m >> shift]]
            m = self._legal_mask = h & self._discard_mask or h
        else:
            p = self._phase
            if p == _PLAY:  # a lead
                h = self._hands[self._to_move]  # type: ignore[index]
                m = self._legal_mask = h & self._lead_mask or h
            elif p == _PASS:
                s = self._to_move
                m = self._hands[s] & ~self._chosen[s]  # type: ignore[index]
            else:
                return []
        lo = m & 0x3FFFFFF  # (two one-digit ints: the four suits' masks from them come cheaper)
        m >>= 26
        return [*_T0[lo & 0x1FFF], *_T1[lo >> 13], *_T2[m & 0x1FFF], *_T3[m >> 13]]

    def _why_illegal(self, idx: int) -> str:
        """Why the mover may not play card ``idx`` now, and what is legal (in ``words.why_illegal``)."""
        s: int = self._to_move  # type: ignore[assignment]
        card = _CARDS[idx]
        who = self.seat_name(s)
        legal = codes_of(self.legal_mask())
        h = self._hands[s]
        bit = 1 << idx
        led = None
        if not h & bit:
            # whose hand it is in is another seat's secret: the refusal never names it (the words go to
            # the mover, and over the wire to a classroom seat)
            if any(self._hands[o] & bit for o in range(self.players)):
                reason = "elsewhere"
            elif self.deck & bit:
                reason = "played"
            else:
                reason = "removed"
        else:
            reason, led = self._held_refusal()
        return words.why_illegal(
            reason, card, who, s, legal, players=self.players, opening=self.opening_card, led=led
        )

    def _card_index(self, action: Any) -> int:
        """The card index of a Card or a code; IllegalAction naming a bad value."""
        if type(action) is Card:
            return action.index
        if type(action) is str:
            c = _PARSED.get(action)
            if c is not None:
                return c.index
        try:
            return Card.parse(action).index
        except ValueError as e:
            raise IllegalAction(str(e)) from None

    # -- applying actions -------------------------------------------------------------
    # ``Game.apply`` is the engine's one step (validate, record, do); Hearts gives its commonest steps
    # (a legal interned Card played, a whole pass of Cards) through the engine's fast-path hook
    # ``_step_fast``, and every other action takes the general path through ``_validate`` / ``_do``.
    # Hearts forces no action. ``act(seat, action)`` is the engine's seat guard.

    def _step_fast(self, action: Any) -> bool:
        """The fused step (the engine's hook, see ``Game._step_fast``): a legal Card in the play phase,
        or a whole pass of ``cards_to_pass`` Cards of the mover's hand, validated, recorded and done at
        once, ending exactly where the general path ends (True); anything else (a code, a single pass
        card, a deal, an illegal card) changes nothing (False) and takes the general path, which
        explains a refusal. ``_legal_mask`` is the mover's legal mask in the play phase once
        ``legal_actions`` (or ``legal_mask``) has computed it, else 0, so one AND is the whole
        validation of a play (a card applied before its legal cards were asked for takes the general
        path); the play is ``_play``, inlined."""
        if type(action) is Card:
            bit = action.bit
            if self._legal_mask & bit:
                self.history.append(action)
                self._legal_mask = 0
                s: int = self._to_move  # type: ignore[assignment]
                self._hands[s] ^= bit
                trick = self._trick
                if trick:
                    trick.append(bit)
                    if len(trick) == self.players:
                        self._end_trick(s)
                        return True
                else:  # a lead
                    trick.append(bit)
                    self._led = _LED[action.index]
                self._to_move = self._next[s]
                return True
            return False
        return type(action) is tuple and self._phase == _PASS and self._pass_fast(action)

    def _pass_fast(self, action: tuple) -> bool:
        """A whole pass of interned Cards of the mover's hand, recorded and done (True); anything else
        changes nothing (False) and is left to the general path."""
        s: int = self._to_move  # type: ignore[assignment]
        k = self._k
        if len(action) != k or self._chosen[s]:
            return False
        m = 0
        for c in action:
            if type(c) is not Card:
                return False
            m += c.bit  # (distinct bits: the sum is the union; a card twice carries, and m has < k bits)
        if m.bit_count() != k or m & self._hands[s] != m:
            return False  # a card twice, or not in the hand
        history = self.history
        history.append(action)
        self._chosen[s] = m  # (_pass, inlined: the seat had chosen nothing, and now all its cards)
        self.events.pass_choice(len(history) - 1, s, action)
        if s + 1 < self.players:
            self._to_move = s + 1
        else:
            self._exchange()
        return True

    def _validate(self, action: Any) -> Any:
        """The engine's validation hook: the normalised action, or IllegalAction (nothing changed)."""
        p = self._phase
        if p == _PLAY:
            if type(action) is Card:
                idx = action.index
            else:
                if type(action) is tuple or type(action) is list:
                    raise IllegalAction(
                        f"play one card, not {action!r}; legal: {' '.join(codes_of(self.legal_mask()))}"
                    )
                idx = self._card_index(action)
            if not self.legal_mask() >> idx & 1:
                raise IllegalAction(self._why_illegal(idx))
            self._bit = 1 << idx  # for _do, which follows at once
            return _CARDS[idx]
        if p == _PASS:
            return self._validate_pass(action)
        if p == _DEAL:
            return self._validate_deal(action)
        raise IllegalAction("the game is over")

    def _validate_deal(self, action: Any) -> Deal:
        if not isinstance(action, Deal):
            raise IllegalAction(f"a deal is due (use chance_outcome() or next_hand()), not {action!r}")
        setup = self._setup
        masks = action.masks
        if action.sizes == setup.sizes and sum(masks) == setup.deck:
            # the usual case, in two comparisons. Every card in play is dealt (the deck deals out
            # evenly), and a hand's mask never has more cards than its size (a card named twice in a
            # hand is one bit): so n hands of the right size whose masks add up to the deck hold
            # hand_size cards each, no card twice (a shared bit would carry, and the sum's bit count
            # fall short) and only cards in play
            return action
        n = self.players
        if len(masks) != n:
            raise IllegalAction(f"a deal needs {n} hands, got {len(masks)}")
        size = setup.hand_size
        deck = setup.deck
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

    def _validate_pass(self, action: Any) -> Card | tuple[Card, ...]:
        chosen, self._bit = self._check_pass(action)  # (a whole pass of Cards: see _pass_fast)
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
                    f"cannot pass {_CARDS[i]}: it is {where}; choose from {' '.join(codes_of(free))}"
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
        p = self._phase
        if p == _PLAY:
            self._play(self._bit)  # the card's bit, kept by _validate
        elif p == _PASS:
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
        setup = self._setup
        # dealt[j]: the cards j, j + n, ... of the shuffled deck (the shuffle is Random.shuffle's)
        dealt = _deal_shuffled([*setup.deck_bits], (self._rng or self.rng).getrandbits, self.players)
        # the k-th card dealt goes to seat (first + k) % n, first the seat left of the next dealer
        first = (self.dealer + 2) % self.players
        if first:
            dealt = dealt[-first:] + dealt[:-first]  # seat s: dealt[s - first]
        return Deal._of_masks(dealt, setup.sizes)

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
        if self.hand_no >= 0:  # (a new game is in the reset state already)
            self._reset_hand()
        hand_no = self.hand_no = self.hand_no + 1
        dealer = self.dealer = (self.dealer + 1) % self.players
        self._hands = list(deal.masks)
        fixed = self._fixed
        if fixed is None:
            cycle = self._setup.cycle_offsets
            direction, offset = cycle[hand_no % len(cycle)]
        else:
            direction, offset = fixed
        self.pass_direction = direction
        self._offset = offset
        self.events.deal(len(self.history) - 1, hand_no, dealer, direction, deal.masks, deal.sizes)
        if offset and self._k:
            self._phase = _PASS
            self.phase = _PHASE_OUT[_PASS]
            self._to_move = 0
        else:
            self._start_play()

    def _pass(self, action: Card | tuple[Card, ...], mask: int) -> None:
        """Seat ``to_move`` chooses the cards of ``action`` (``mask``, their mask)."""
        s: int = self._to_move  # type: ignore[assignment]
        cards = (action,) if type(action) is Card else action
        m = self._chosen[s] | mask
        self._chosen[s] = m
        self.events.pass_choice(len(self.history) - 1, s, cards)
        if m.bit_count() < self._k:
            return
        if s + 1 < self.players:
            self._to_move = s + 1
            return
        self._exchange()

    def _exchange(self) -> None:
        """Every seat has chosen: the chosen cards change hands together (the kernel's ``pass_hands``)
        and play begins."""
        chosen = self._chosen
        self._hands = pass_hands(self._hands, chosen, self._offset)
        self.events.passed(len(self.history) - 1, self.pass_direction, self._offset, chosen)
        self._start_play()

    def _start_play(self) -> None:
        lead = self._setup.lead_bit
        self._phase = _PLAY
        self.phase = _PHASE_OUT[_PLAY]
        hands = self._hands
        s = 0
        while not hands[s] & lead:
            s += 1
        self._to_move = s
        self._legal_mask = 0
        self.events.start_plays(len(self.history), s)

    def _play(self, bit: int) -> None:
        """The mover plays the card of ``bit`` (validated, in the history; ``_step_fast`` inlines this)."""
        s: int = self._to_move  # type: ignore[assignment]
        self._hands[s] ^= bit
        self._legal_mask = 0
        trick = self._trick
        if not trick:
            self._led = _LED[bit.bit_length() - 1]
        trick.append(bit)
        if len(trick) < self.players:
            self._to_move = self._next[s]
        else:
            self._end_trick(s)

    def _end_trick(self, s: int) -> None:
        """Seat ``s`` has played the trick's last card (its hand and the trick updated): the taker
        (the kernel's ``trick_winner``) takes the trick's cards and leads next, or the hand is scored
        once the hands are empty."""
        trick = self._trick
        tmask = sum(trick)  # distinct bits: the sum is the union
        # the leader sits left of the last; the suit led and the trick's mask are known already
        w = trick_winner(trick, self._next[s], self.players, tmask, self._led[0])
        self._taken[w] |= tmask
        self._tricks.append((self._next[s], trick, w))  # (the list is never changed again: a new one follows)
        if self._first:
            setup = self._setup
            self._first = False
            self._discard_mask = setup.later_discard
            self._lead_mask = setup.unbroken_lead  # (broken just below, if this trick breaks hearts)
        if not self._broken and tmask & self._setup.break_mask:
            self._broken = True
            self._lead_mask = self._setup.broken_lead
        self._trick = []
        if self._hands[s]:  # cards are left (every seat holds as many)
            self._to_move = w
        else:
            self._score_hand()

    # -- scoring ----------------------------------------------------------------------
    def _score_hand(self) -> None:
        """The hand is over: the kernel scores it (moon and Jack), and the match may end."""
        raw, final, shooter, mode = score_hand(self._taken, self.rules, self.scores, self.single)
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
        elif match_over(self.scores, self.rules.target):
            self.winners = match_winners(self.scores)
            winners = list(self.winners)
            self._phase = _MATCH_OVER
            self.phase = _PHASE_OUT[_MATCH_OVER]
            self._to_move = None
            self.is_over = True
        else:
            self._phase = _DEAL
            self.phase = _PHASE_OUT[_DEAL]
            self._to_move = CHANCE
        self.events.hand_over(len(self.history) - 1, raw, final, shooter, mode, self.scores, winners)

    # -- observation ------------------------------------------------------------------
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` knows: its hand, the public state, and its view of the event log.

        ``None``: the teacher's observation, from the whole log, with every hand (``hands``) and
        the mover's legal cards; its own pass keys (``chosen``, ``passed``...) stay empty.
        """
        obs = self.base_observation(seat)  # IllegalAction naming a bad seat
        seat = obs["seat"]
        teacher = seat is None
        events = self.events
        # this hand's pass as this seat saw it: read from the log's view, which it keeps up to date as
        # events come (a bot reads it at every decision); the hand's tricks are public: from the game
        chosen, passed, passed_to, received, received_from = events.pass_seen(seat)
        tricks = self._observed_tricks()
        raw = self._raw_points()
        lead = self.leader
        obs.update(
            hand_no=self.hand_no,
            dealer=self.dealer,
            pass_direction=self.pass_direction,
            cards_to_pass=self.rules.cards_to_pass if self._offset else 0,
            chosen=chosen,
            passed=passed,
            passed_to=passed_to,
            received=received,
            received_from=received_from,
            trick=self._observed_trick(),
            leader=lead,
            tricks=tricks,
            hearts_broken=self.hearts_broken,
            first_trick=self.first_trick,
            hand_sizes=[h.bit_count() for h in self._hands],
            points_taken=raw,
            hand_points=list(self._final) if self._final is not None else list(raw),
            scores=list(self.scores),
            winners=list(self.winners),
            removed=codes_of(((1 << 52) - 1) & ~self.deck),
            rules=self._observed_rules(),
        )
        # for a table: why each of the mover's other cards is refused now
        mover = teacher or self._to_move == seat
        refused: dict[str, str] = {}
        if mover and self._phase == _PLAY:
            s = self._to_move
            legal = self._legal()
            others = self._hands[s] & ~legal  # type: ignore[index]
            if others:
                refused = self._refusals(others)
        obs["refused"] = refused
        if teacher:
            obs["hands"] = [codes_of(m) for m in self._hands]
        return obs

    def bot_observation(self, seat: int) -> Observation:
        """The part of ``observation(seat)`` the package's Hearts bots read: the keys of
        :data:`BOT_OBSERVATION_KEYS`, with the same values, made without the rest (the seat's view
        of the log, the names, the words of each refused card...), since a bot asks at every
        decision. A seat only (IllegalAction naming anything else): it is that seat's knowledge,
        a restriction of its observation (the tests compare the two at every step)."""
        seat = self._check_seat(seat)
        n = self.players
        # the seat's own pass of this hand (its chosen cards, once they have changed hands) and to whom
        if self._offset and self._k and self._phase != _PASS:
            passed, passed_to = codes_of(self._chosen[seat]), (seat + self._offset) % n
        else:
            passed, passed_to = [], None
        return Observation(
            seat=seat,
            players=n,
            phase=self.phase,
            to_move=self._to_move,
            hand=codes_of(self._hands[seat]),
            legal=self._observed_legal() if self._to_move == seat else [],
            trick=self._observed_trick(),
            tricks=self._observed_tricks(),
            hearts_broken=self.hearts_broken,
            first_trick=self.first_trick,
            hand_sizes=[h.bit_count() for h in self._hands],
            points_taken=self._raw_points(),
            passed=passed,
            passed_to=passed_to,
            rules=self._observed_rules(),
        )

    def _observed_rules(self) -> dict[str, Any]:
        """The rules as an observation gives them: ``HeartsRules.to_dict()`` (made once per table), a
        fresh copy, the pass cycle a list."""
        rules = dict(self._setup.rules_dict)
        if rules["pass_cycle"] is not None:
            rules["pass_cycle"] = list(rules["pass_cycle"])
        return rules

    def _observed_tricks(self) -> list[dict[str, Any]]:
        """The hand's completed tricks as an observation gives them (public: every seat sees every
        trick), each ``{"leader", "cards", "winner", "points", "scoring"}``: ``cards`` ``[seat, code]``
        in playing order, ``points`` the trick's points (a heart 1, the Queen 13), ``scoring`` the
        codes of its cards that score under the rules. Each trick is put in words once, as it is first
        observed; every call returns fresh dicts and lists, which a bot may change (the ``[seat, code]``
        pairs inside ``cards``, made once, are shared from call to call: read them, do not change them)."""
        views, done = self._trick_views, self._tricks
        if len(views) < len(done):
            n, point_mask = self.players, self._setup.point_mask
            for leader, bits, winner in done[len(views) :]:
                views.append(
                    {
                        "leader": leader,
                        "cards": [[(leader + k) % n, _CODES[b.bit_length() - 1]] for k, b in enumerate(bits)],
                        "winner": winner,
                        "points": points_of(sum(bits)),  # (distinct bits: the sum is the trick's mask)
                        "scoring": [_CODES[b.bit_length() - 1] for b in bits if b & point_mask],
                    }
                )
        return [{**t, "cards": list(t["cards"]), "scoring": list(t["scoring"])} for t in views]

    def _observed_trick(self) -> list[list[Any]]:
        """The open trick as an observation gives it: ``[seat, code]`` of each card, in playing order."""
        lead, n = self.leader, self.players
        return [[(lead + k) % n, _CODES[b.bit_length() - 1]] for k, b in enumerate(self._trick)]  # type: ignore[operator]

    def _held_refusal(self) -> tuple[str, Suit | None]:
        """Why the rules refuse the mover a card it holds but may not play now (the same reason for
        every such card): the reason's name for ``words.why_illegal``, and the suit led if it is "follow"."""
        trick = self._trick
        if not trick:
            return ("opening" if self._first else "unbroken"), None
        if self._hands[self._to_move] & _SUIT_MASK_OF_BIT[trick[0]]:  # type: ignore[index]
            return "follow", Suit(_CARD_OF_BIT[trick[0]].suit)
        return "first_trick", None

    def _refusals(self, others: int) -> dict[str, str]:
        """Why the mover may play none of the cards of ``others`` (cards of its hand the rules refuse
        now): ``_why_illegal`` of each. For a card held, the reason is the same for every card, and
        its words name none (the opening card, hearts, the suit led), so they are made once."""
        s: int = self._to_move  # type: ignore[assignment]
        reason, led = self._held_refusal()
        who, legal = self.seat_name(s), codes_of(self.legal_mask())
        n, opening = self.players, self.opening_card
        codes = codes_of(others)
        why = words.why_illegal
        if words.names_card(reason):  # (words that name the card: made for each)
            return {
                c: why(reason, _PARSED[c], who, s, legal, players=n, opening=opening, led=led) for c in codes
            }
        return dict.fromkeys(
            codes, why(reason, _PARSED[codes[0]], who, s, legal, players=n, opening=opening, led=led)
        )

    def _observed_hand(self, seat: int) -> list[str]:
        return codes_of(self._hands[seat])

    def _observed_legal(self) -> list[str]:
        """The codes of ``legal_actions()`` (its mask, kept for the fused step as it keeps it)."""
        return codes_of(self.legal_mask())

    def summary(self) -> dict[str, Any]:
        """The result: match totals, the winners, and every hand's points (moon applied)."""
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "hand_points": [list(h) for h in self.hand_history],
        }

    # -- records ----------------------------------------------------------------------
    @classmethod
    def action_to_json(cls, action: Any) -> Any:
        """A Hearts action as record data (:func:`.values.action_to_json`): a card code, a list of codes, or
        ``{"deal": [...]}``."""
        return action_to_json(action)

    @classmethod
    def action_from_json(cls, data: Any) -> Any:
        """The action of record data (:func:`.values.action_from_json`); ValueError naming anything else."""
        return action_from_json(data)

    def copy(self) -> Hearts:
        """An independent copy (same state, same RNG state); events are immutable and shared."""
        new = object.__new__(Hearts)
        d = self.__dict__.copy()
        d["history"] = list(d["history"])
        d["events"] = self.events.copy_for(d["history"])
        d["options"] = dict(self.options)
        if self._rng is not None:  # the same state, without seeding a new Random first
            rng = _random.Random.__new__(_random.Random)
            rng.setstate(self._rng.getstate())
            d["_rng"] = rng
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
    @classmethod
    def describe_event(cls, event: Mapping[str, Any], seat: Any, names: Sequence[str]) -> str:
        """One event of an observation in its viewer's words (:func:`.words.event_words`)."""
        return event_words(event, seat, names)

    def __repr__(self) -> str:
        return (
            f"<Hearts {self.players} players, hand {self.hand_no + 1}, {self.phase}, to move {self._to_move}>"
        )

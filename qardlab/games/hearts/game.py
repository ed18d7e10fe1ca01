"""Hearts for 3 to 6 players on the shared engine: the state machine of passing, play, scoring and the match.

The rules live in :mod:`.rules` (the kernel: the legal cards, why a card is refused, the taker of a
trick, points, scoring, the end of the match), and this state machine calls it for each of them;
what a table keeps fixed (the kernel's masks for its rules) is its :class:`~.layout.Layout`, the
deal is :mod:`.deal`'s, what a seat is shown :class:`~.views.HeartsViews`' (a base of ``Hearts``),
the log :mod:`.log`'s, the words :mod:`.words`' and the value types and their codec :mod:`.values`'.
Every hand is a 52-bit mask (``Card.bit``; a suit is a run of 13 bits, so "this seat's spades" is one
AND); beside them the machine keeps what the kernel's :func:`~.rules.playable` reads for the mover (the
suit led and the layout's discard mask after a lead, the layout's lead mask for one), and the mover's
legal mask once asked for. ``hand``, ``legal_actions`` and ``trick`` give readable ``Card`` objects.

The engine's one step (``Game.apply``: validate, record, do) is not overridden. Hearts gives the
engine's fast-path hook ``_step_fast``, which takes its commonest steps (a legal Card played, a whole
pass of Cards) and declines every other action, which ``Game.apply`` then hands to the engine's
general path (``_validate``, the history, ``_do``), which explains a refusal. Each step is written
once: ``_do`` plays a card through the fused step and passes through ``_pass``, as the fused step does.

Actions (all in ``history``, so a record replays exactly):

- ``Deal``: chance, one per hand: every seat's cards (dealt one at a time clockwise
  from the dealer's left; ``chance_outcome()`` draws it from the game's RNG);
- in the ``"pass"`` phase: a ``Card`` (or its code) picks one card to pass, and a tuple of
  ``cards_to_pass`` cards picks them all at once. Seats choose in order 0..n-1; ``to_move`` stays on
  a seat until it has chosen all its cards, and the cards change hands together once every seat has
  chosen. ``legal_actions()`` is the Cards of the mover's hand not yet chosen (as OpenSpiel, which
  also passes card by card);
- in the ``"play"`` phase: a ``Card`` (or its code) to play.
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence as _Sequence
from operator import add as _add
from typing import Any, Mapping, Sequence

from ...cards import _CARDS, _PARSED, _SUIT_TABLES, Card, CardLike, Hand, cards_of_mask
from ...engine import CHANCE, Game, IllegalAction
from .deal import check_deal, shuffled_deal
from .layout import CARD_OF_BIT, layout
from .log import HeartsLog
from .rules import (
    DEFAULT_RULES,
    HeartsRules,
    check_players,
    match_over,
    match_winners,
    pass_hands,
    playable,
    points_of,
    score_hand,
    scores_points,
    trick_winner,
)
from .values import Deal, Trick, action_from_json, action_to_json, codes_of
from .views import BOT_OBSERVATION_KEYS, HeartsViews
from .words import event_words

__all__ = ["Hearts", "Deal", "Trick", "PHASES", "BOT_OBSERVATION_KEYS"]

PHASES = ("pass", "play", "hand_over", "match_over")
_DEAL, _PASS, _PLAY, _HAND_OVER, _MATCH_OVER = range(5)
_T0, _T1, _T2, _T3 = _SUIT_TABLES
_PHASE_OUT = ("hand_over", "pass", "play", "hand_over", "match_over")
_OPTION_NAMES = frozenset({"rules", "single", "pass_direction", "names"})


class Hearts(HeartsViews, Game):
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
        "_broken",
        "_chosen",
        "_follows",
        "_final",
        "_first",
        "_fixed",
        "_hands",
        "_k",
        "_layout",
        "_lead_state",
        "_led",
        "_legal_mask",
        "_moon",
        "_next",
        "_offset",
        "_phase",
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
        table = layout(players, rules)  # the table's constants, from the rules kernel (cached)
        if single:  # a single hand's pass direction and its offset (ValueError naming a bad one)
            direction = options.get("pass_direction", "left")
            self._fixed: tuple[str, int] | None = (direction, table.offset(direction))
        elif "pass_direction" in options:
            raise ValueError("option 'pass_direction' is only for a single hand (Hearts.from_deal)")
        else:
            self._fixed = None
        #: whether the game is over (no seat to move, no deal due): a plain attribute, kept in step
        #: with ``to_move``, since the engine's ``apply`` reads it at every action
        self.is_over = False
        self.rules: HeartsRules = rules
        self.single = single
        self._layout = table  # (the table's constants: deck, hand_size, opening_card... read from it)
        self._next = table.next  # the seat on each seat's left
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
        self._hands = [0] * players  # (each deal sets them)
        self._reset_hand()

    def _new_log(self) -> HeartsLog:
        """The engine's log hook: Hearts' lazy log, which reads the plays from the history."""
        return HeartsLog(self.players, self.history)

    def _reset_hand(self) -> None:
        """A new hand's state, before its deal (which sets the hands)."""
        n = self.players
        self._chosen = [0] * n
        self._taken = [0] * n
        self._final: list[int] | None = None
        self._moon: int | None = None
        self._trick: list[int] = []  # the open trick's cards as bits (Card.bit); seat k: (leader + k) % n
        #: the hand's completed tricks, (leader, the cards as bits in playing order, taker), as they end;
        #: and as many of them as have been observed, in an observation's words (``_observed_tricks``)
        self._tricks: list[tuple[int, list[int], int]] = []
        self._trick_views: list[dict[str, Any]] = []
        self._first = True  # the first trick is not complete yet
        self._broken = False  # hearts broken by a completed trick (the open trick: see hearts_broken)
        #: what the kernel's ``playable`` reads now, from the layout (see ``Layout.first_follows``): the
        #: suit led (0 for a lead), its shift and table of Cards, and the discard mask after a lead (the
        #: lead mask for one); what a lead makes of it (the follows of the first trick, then later ones)
        #: and what a trick's end makes of it (the first lead, then the leads before and after hearts
        #: are broken)
        table = self._layout
        self._follows = table.first_follows
        self._led: tuple[int, int, tuple, int] = table.first_lead_state
        self._lead_state = self._led
        #: the mover's legal cards in the play phase, cached by ``legal_actions`` and ``legal_mask``
        #: until the next action; 0 when not computed, and in any other phase (so the fused play
        #: finds no legal card there, and leaves the action to the general path)
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
        return self._layout.deck

    @property
    def hand_size(self) -> int:
        """The cards each seat is dealt."""
        return self._layout.hand_size

    @property
    def opening_card(self) -> Card:
        """The lowest club in play, which opens every hand."""
        return self._layout.opening_card

    def hand(self, seat: int) -> Hand:
        """That seat's cards now (chosen pass cards stay in the hand until they change hands)."""
        return Hand(cards_of_mask(self._hands[self._check_seat(seat)]))

    def hand_mask(self, seat: int) -> int:
        return self._hands[self._check_seat(seat)]

    def taken(self, seat: int) -> Hand:
        """The cards that seat has taken in tricks this hand."""
        return Hand(cards_of_mask(self._taken[self._check_seat(seat)]))

    def scores_points(self, card: CardLike) -> bool:
        """Whether taking ``card`` scores under these rules: a heart, the Queen of spades, and the
        Jack of diamonds with ``jd_bonus`` (views show the cards that count, and no rule of their own)."""
        return scores_points(Card.parse(card).bit, self.rules)

    @property
    def trick(self) -> Trick:
        """The cards on the table, as ``(seat, Card)`` pairs."""
        lead = self.leader
        n = self.players
        return Trick(((lead + k) % n, CARD_OF_BIT[b]) for k, b in enumerate(self._trick))  # type: ignore[operator]

    @property
    def leader(self) -> int | None:
        """The seat that led (or is to lead) the current trick."""
        if self._phase != _PLAY:
            return None
        return (self._to_move - len(self._trick)) % self.players  # type: ignore[operator]

    @property
    def hearts_broken(self) -> bool:
        """Whether hearts are broken: by a completed trick, or by a card of the open trick (a card of
        the kernel's break mask)."""
        return self._broken or bool(sum(self._trick) & self._layout.break_mask)

    @property
    def first_trick(self) -> bool:
        return self._phase == _PLAY and self._first

    @property
    def hand_points(self) -> list[int]:
        """Per seat: after the hand, its score (moon and Jack applied); during it, raw points taken."""
        return list(self._final) if self._final is not None else self._raw_points()

    def _raw_points(self) -> list[int]:
        """Points taken so far this hand, per seat (the kernel's ``points_of``)."""
        return [points_of(t) for t in self._taken]

    @property
    def moon_shooter(self) -> int | None:
        return self._moon

    def chosen_pass(self, seat: int) -> Hand:
        """The cards ``seat`` has chosen to pass so far (the teacher's view)."""
        return Hand(cards_of_mask(self._chosen[self._check_seat(seat)]))

    # -- legality: the kernel's ``playable`` ------------------------------------------
    def legal_mask(self) -> int:
        """The mover's legal cards as a 52-bit mask (0 when no seat is to act)."""
        p = self._phase
        if p == _PLAY:
            m = self._legal_mask
            if not m:
                h, (follow, _, _, mask) = self._hands[self._to_move], self._led  # type: ignore[index]
                m = self._legal_mask = playable(h, follow, mask) if follow else playable(h, mask, -1)
            return m
        if p == _PASS:
            s = self._to_move
            return self._hands[s] ^ self._chosen[s]  # type: ignore[index]  # (chosen cards are in the hand)
        return 0

    def legal_actions(self) -> list[Any]:
        """Play: the legal Cards. Pass: the mover's Cards not yet chosen (pick one at a time,
        or apply a tuple of them all). At a chance node or once over: ``[]``."""
        if self._trick:  # a trick has been led (the play phase): the kernel's legal cards
            follow, shift, table, discard = self._led
            m = self._legal_mask = playable(self._hands[self._to_move], follow, discard)  # type: ignore[index]
            if m <= follow:  # following suit (or void, holding lower suits only: no cards of it here)
                cards = table[m >> shift]
                if cards:
                    return [*cards]
        else:
            p = self._phase
            if p == _PLAY:  # a lead: the kernel's legal cards
                m = self._legal_mask = playable(self._hands[self._to_move], self._led[3], -1)  # type: ignore[index]
            elif p == _PASS:
                s = self._to_move
                m = self._hands[s] ^ self._chosen[s]  # type: ignore[index]  # (chosen cards are in the hand)
            else:
                return []
        lo = m & 0x3FFFFFF  # (two one-digit ints: the four suits' masks from them come cheaper)
        m >>= 26
        return [*_T0[lo & 0x1FFF], *_T1[lo >> 13], *_T2[m & 0x1FFF], *_T3[m >> 13]]

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
    # ``Game.apply`` is the engine's one step (validate, record, do); Hearts takes its commonest steps
    # (a legal Card played, a whole pass of Cards) through the engine's fast-path hook ``_step_fast``,
    # and every other action takes the general path through ``_validate`` / ``_do``, whose ``_do`` does
    # a step with the same code. Hearts forces no action. ``act(seat, action)`` is the engine's seat guard.

    def _fused_step(self, action: Any) -> bool:
        """The fused step, the engine's fast-path hook (``_step_fast``, see ``Game._step_fast``): a legal
        Card in the play phase, or a whole pass of ``cards_to_pass`` Cards of the mover's hand,
        validated, recorded and done at once (True); anything else (a code, a single pass card, a
        deal, an illegal card) changes nothing (False) and takes the general path, which explains a
        refusal.

        It is the one play of a card: the general path's ``_do`` plays through it too (the card
        validated, and taken off the history for this to record it again). ``_legal_mask`` is the
        mover's legal mask in the play phase once ``legal_actions`` (or ``legal_mask``) has computed
        it, else 0, so one AND is the whole validation of a play (a card applied before its legal
        cards were asked for takes the general path, which asks). The trick's last card ends the
        trick."""
        if type(action) is Card:
            bit = action.bit
            if self._legal_mask & bit:
                self.history.append(action)
                self._legal_mask = 0
                s: int = self._to_move  # type: ignore[assignment]
                self._hands[s] ^= bit
                trick = self._trick
                if not trick:  # a lead: the suit to follow, and what a seat void in it may throw
                    trick.append(bit)
                    self._led = self._follows[action.index]
                    self._to_move = self._next[s]
                    return True
                trick.append(bit)
                if len(trick) < self.players:
                    self._to_move = self._next[s]
                    return True
                # the trick's last card: the taker (the kernel's trick_winner; the leader sits left of
                # the last) takes its cards and leads next, or the hand is scored once hands are empty
                tmask = sum(trick)  # distinct bits: the sum is the union
                leader = self._next[s]
                w = trick_winner(trick, leader, self.players, tmask, self._led[0])
                self._taken[w] |= tmask
                # (the trick's list is never changed again: a new one follows)
                self._tricks.append((leader, trick, w))
                if self._first:  # the next lead's mask: the layout's, as the first trick ends...
                    self._first = False
                    self._follows = self._layout.later_follows
                    self._lead_state = self._layout.unbroken_state
                if not self._broken and tmask & self._layout.break_mask:  # ...and as hearts break
                    self._broken = True
                    self._lead_state = self._layout.broken_state
                self._trick = []
                self._led = self._lead_state
                if self._hands[s]:  # cards are left (every seat holds as many)
                    self._to_move = w
                else:
                    self._score_hand()
                return True
            return False
        # a whole pass: cards_to_pass distinct interned Cards of the mover's hand while it has chosen
        # none (anything else is left to the general path, whose _check_pass says what is wrong)
        if type(action) is not tuple or self._phase != _PASS:
            return False
        s = self._to_move
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
        self.history.append(action)
        self._pass(action, m)
        return True

    _step_fast = _fused_step  # the engine's fast-path hook

    def _validate(self, action: Any) -> Any:
        """The engine's validation hook: the normalised action, or IllegalAction (nothing changed)."""
        p = self._phase
        if p == _PLAY:
            if type(action) is tuple or type(action) is list:
                raise IllegalAction(
                    f"play one card, not {action!r}; legal: {' '.join(codes_of(self.legal_mask()))}"
                )
            idx = self._card_index(action)
            if not self.legal_mask() >> idx & 1:
                raise IllegalAction(self._why_illegal(idx))
            return _CARDS[idx]
        if p == _PASS:
            return self._check_pass(action)
        if p == _DEAL:
            return check_deal(action, self._layout)
        raise IllegalAction("the game is over")

    def _check_pass(self, action: Any) -> Card | tuple[Card, ...]:
        """The normalised pass action (a Card, or a tuple of Cards), or IllegalAction naming what is wrong."""
        s: int = self._to_move  # type: ignore[assignment]
        k = self._k
        chosen = self._chosen[s]
        free = self._hands[s] & ~chosen
        whole = isinstance(action, (tuple, list))
        if whole:
            if chosen:
                raise IllegalAction(
                    f"{self.seat_name(s)} has already chosen {chosen.bit_count()} card(s) to "
                    f"pass; choose the remaining {k - chosen.bit_count()} one at a time"
                )
            if len(action) != k:
                raise IllegalAction(f"a pass is {k} cards, got {len(action)}: {action!r}")
        idxs = [self._card_index(a) for a in action] if whole else [self._card_index(action)]
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
        return tuple([_CARDS[i] for i in idxs]) if whole else _CARDS[idxs[0]]  # (one card: recorded as it)

    def _do(self, action: Any) -> None:
        """The engine's hook that applies a validated (normalised, recorded) action: the same code as
        the fused step's."""
        p = self._phase
        if p == _PLAY:  # the fused step's play (legal: _validate has computed the legal mask), which
            self.history.pop()  # records the card itself: the engine's record of it is taken off first
            self._fused_step(action)
        elif p == _PASS:
            cards = (action,) if type(action) is Card else action
            self._pass(cards, sum(c.bit for c in cards))
        else:
            self._deal(action)

    def chance_outcome(self) -> Deal:
        """Shuffle the cards in play with the game's RNG; deal one at a time clockwise from dealer's
        left (``shuffled_deal``: ``random.Random.shuffle``'s draws, so a seed deals as ever)."""
        if self._phase != _DEAL:
            raise IllegalAction("no deal is due now")
        if self.single and self.hand_no >= 0:
            raise IllegalAction("a game set up with from_deal is one hand")
        # the first card goes to the left of the next dealer (seat dealer + 1)
        return shuffled_deal(
            self._layout, (self._rng or self.rng).getrandbits, (self.dealer + 2) % self.players
        )

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
            cycle = self._layout.cycle_offsets
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

    def _pass(self, cards: tuple[Card, ...], mask: int) -> None:
        """Seat ``to_move`` chooses ``cards`` (``mask``, their mask) to pass; once every seat has
        chosen all its cards, they change hands (``_exchange``)."""
        s: int = self._to_move  # type: ignore[assignment]
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
        lead = self._layout.lead_bit
        self._phase = _PLAY
        self.phase = _PHASE_OUT[_PLAY]
        hands = self._hands
        s = 0
        while not hands[s] & lead:
            s += 1
        self._to_move = s
        self._legal_mask = 0
        self.events.start_plays(len(self.history), s)

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
            self._to_move = None
            self.is_over = True
        elif match_over(self.scores, self.rules.target):
            self.winners = match_winners(self.scores)
            winners = list(self.winners)
            self._phase = _MATCH_OVER
            self._to_move = None
            self.is_over = True
        else:
            self._phase = _DEAL
            self._to_move = CHANCE
        self.phase = _PHASE_OUT[self._phase]
        self.events.hand_over(len(self.history) - 1, raw, final, shooter, mode, self.scores, winners)

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

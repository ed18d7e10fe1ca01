"""What a seat of Hearts is shown: the observations of :class:`~.game.Hearts` and its refusals in words.

:class:`HeartsViews` is the part of ``Hearts`` that reads the state and writes nothing of it: a
seat's observation (``observation``), the cheaper part of it the package's bots read
(``bot_observation``, the keys of :data:`BOT_OBSERVATION_KEYS`), and why the mover may not play a
card (``_why_illegal``, ``_refusals``: the kernel's :func:`~.rules.refusal`, put in words by
:func:`.words.why_illegal`). The state machine (``game.py``) keeps the state; this reads it.
"""

from __future__ import annotations

from typing import Any

from ...cards import _CARDS, _PARSED, Suit
from ...engine import Observation
from . import words
from .layout import CARD_OF_BIT, CODES
from .rules import points_of, refusal
from .values import codes_of

__all__ = ["HeartsViews", "BOT_OBSERVATION_KEYS"]

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


class HeartsViews:
    """The observations of a Hearts game and its refusals in words (see the module docstring); a base
    of ``Hearts``, which holds the state read here."""

    __slots__ = ()

    def observation(self: Any, seat: int | None) -> Observation:
        """What ``seat`` knows: its hand, the public state, and its view of the event log.

        ``None``: the teacher's observation, from the whole log, with every hand (``hands``) and
        the mover's legal cards; its own pass keys (``chosen``, ``passed``...) stay empty.
        """
        obs = self.base_observation(seat)  # IllegalAction naming a bad seat
        seat = obs["seat"]
        teacher = seat is None
        # this hand's pass as this seat saw it: read from the log's view, which it keeps up to date as
        # events come (a bot reads it at every decision); the hand's tricks are public: from the game
        chosen, passed, passed_to, received, received_from = self.events.pass_seen(seat)
        raw = self._raw_points()
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
            leader=self.leader,
            tricks=self._observed_tricks(),
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
        refused: dict[str, str] = {}
        if (teacher or self._to_move == seat) and self.phase == "play":
            others = self._hands[self._to_move] & ~self.legal_mask()
            if others:
                refused = self._refusals(others)
        obs["refused"] = refused
        if teacher:
            obs["hands"] = [codes_of(m) for m in self._hands]
        return obs

    def bot_observation(self: Any, seat: int) -> Observation:
        """The part of ``observation(seat)`` the package's Hearts bots read: the keys of
        :data:`BOT_OBSERVATION_KEYS`, with the same values, made without the rest (the seat's view
        of the log, the names, the words of each refused card...), since a bot asks at every
        decision. A seat only (IllegalAction naming anything else): it is that seat's knowledge,
        a restriction of its observation (the tests compare the two at every step)."""
        seat = self._check_seat(seat)
        n = self.players
        # the seat's own pass of this hand (its chosen cards, once they have changed hands) and to whom
        if self._offset and self._k and self.phase != "pass":
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

    def _observed_rules(self: Any) -> dict[str, Any]:
        """The rules as an observation gives them: ``HeartsRules.to_dict()`` (made once per table), a
        fresh copy, the pass cycle a list."""
        rules = dict(self._layout.rules_dict)
        if rules["pass_cycle"] is not None:
            rules["pass_cycle"] = list(rules["pass_cycle"])
        return rules

    def _observed_tricks(self: Any) -> list[dict[str, Any]]:
        """The hand's completed tricks as an observation gives them (public: every seat sees every
        trick), each ``{"leader", "cards", "winner", "points", "scoring"}``: ``cards`` ``[seat, code]``
        in playing order, ``points`` the trick's points (a heart 1, the Queen 13), ``scoring`` the
        codes of its cards that score under the rules. Each trick is put in words once, as it is first
        observed; every call returns fresh dicts and lists, which a bot may change (the ``[seat, code]``
        pairs inside ``cards``, made once, are shared from call to call: read them, do not change them)."""
        views, done = self._trick_views, self._tricks
        if len(views) < len(done):
            n, point_mask = self.players, self._layout.point_mask
            for leader, bits, winner in done[len(views) :]:
                views.append(
                    {
                        "leader": leader,
                        "cards": [[(leader + k) % n, CODES[b.bit_length() - 1]] for k, b in enumerate(bits)],
                        "winner": winner,
                        "points": points_of(sum(bits)),  # (distinct bits: the sum is the trick's mask)
                        "scoring": [CODES[b.bit_length() - 1] for b in bits if b & point_mask],
                    }
                )
        return [{**t, "cards": list(t["cards"]), "scoring": list(t["scoring"])} for t in views]

    def _observed_trick(self: Any) -> list[list[Any]]:
        """The open trick as an observation gives it: ``[seat, code]`` of each card, in playing order."""
        lead, n = self.leader, self.players
        return [[(lead + k) % n, CODES[b.bit_length() - 1]] for k, b in enumerate(self._trick)]

    def _observed_hand(self: Any, seat: int) -> list[str]:
        return codes_of(self._hands[seat])

    def _observed_legal(self: Any) -> list[str]:
        """The codes of ``legal_actions()`` (its mask, kept for the fused step as it keeps it)."""
        return codes_of(self.legal_mask())

    # -- refusals in words ----------------------------------------------------------------------
    def _held_refusal(self: Any) -> tuple[str, Suit | None]:
        """Why the rules refuse the mover a card it holds but may not play now (the kernel's
        ``refusal``, the same for every such card), and the suit led if the reason is "follow"."""
        reason = refusal(self._hands[self._to_move], self._led[0], self._first)
        return reason, (Suit(CARD_OF_BIT[self._trick[0]].suit) if reason == "follow" else None)

    def _why_illegal(self: Any, idx: int) -> str:
        """Why the mover may not play card ``idx`` now, and what is legal (in ``words.why_illegal``)."""
        s: int = self._to_move
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
        legal = codes_of(self.legal_mask())
        return words.why_illegal(
            reason,
            _CARDS[idx],
            self.seat_name(s),
            s,
            legal,
            players=self.players,
            opening=self.opening_card,
            led=led,
        )

    def _refusals(self: Any, others: int) -> dict[str, str]:
        """Why the mover may play none of the cards of ``others`` (cards of its hand the rules refuse
        now): ``_why_illegal`` of each. For a card held, the reason is the same for every card, and
        its words name none (the opening card, hearts, the suit led), so they are made once."""
        s: int = self._to_move
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

    def summary(self: Any) -> dict[str, Any]:
        """The result: match totals, the winners, and every hand's points (moon applied)."""
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "hand_points": [list(h) for h in self.hand_history],
        }

"""The King of Hearts has Five Sons: the rules of RULES.md as a :class:`~qardlab.engine.Game`.

Phases: ``"deal"`` (chance is due), ``"ask"`` (the asker names a seat and two cards),
``"answer"`` (after every question: the answerer is ``to_move`` and answers as its own
step), ``"claim"`` (after each answer every seat not eliminated, clockwise from the asker,
claims or passes) and ``"over"``.

Live secrecy: after ``apply(Ask(...))`` the game is always in phase ``"answer"`` with the
answerer to move, whatever it holds. Its ``legal_actions()`` are the two ``Show`` actions when
it holds both named cards (a choice), else the single forced answer (``Show(card,
forced=True)`` or ``Neither()``), which the answerer gives like any other step (a bot
returns it; a table gives a human's on the bots' clock). So no other seat can tell, at
any moment, a forced answer from a chosen one. ``play(Ask(...))`` asks and lets the cards
answer at once (the forced answers), for scripts and lessons.

What each seat may see is decided here, in the events: a seat's hand is private to it,
the secret pair is hidden until a right claim or the end, a shown card is private to the
asker (and the answerer, who knows what they showed), a wrong claimant privately sees
the secret, everything else is public.
"""

from __future__ import annotations

import copy as _copy
import random
from typing import Any, Mapping, Sequence

from ...cards import Card, CardLike, Hand, cards_of_mask, mask_of
from ...engine import CHANCE, Game, IllegalAction, Observation
from ...engine.events import part_of
from ...engine.game import check_names
from .actions import Action, Ask, Claim, Deal, Neither, NoClaim, Show
from .deck import FACE_CARDS, NUMBER_CARDS, five_sons_deck
from .words import event_words

__all__ = ["FiveSons", "ASK_MODES", "DEFAULT_OPTIONS"]

ASK_MODES = ("chosen", "pass_left")
DEFAULT_OPTIONS: dict[str, Any] = {"ask_mode": "chosen", "notes": True, "names": None}
_FACE_SET = frozenset(FACE_CARDS)
_NUMBER_SET = frozenset(NUMBER_CARDS)
_DECK_MASK = mask_of(five_sons_deck())
_ORDER = {c: i for i, c in enumerate(five_sons_deck())}


def _in_order(cards) -> list[Card]:
    """Cards in the Five Sons deck order: face cards (clubs to spades, J Q K), then A to 10 of hearts."""
    return sorted(cards, key=_ORDER.__getitem__)


#: every question to each seat, and every claim round choice, built once (actions are immutable)
_ASKS = [tuple(Ask(t, f, n) for f in FACE_CARDS for n in NUMBER_CARDS) for t in range(5)]


def _targets_of(asker: int, players: int, pass_left: bool) -> list[int]:
    """The seats ``asker`` may ask: its left neighbour (ask mode "pass_left"), else every other seat."""
    if pass_left:
        return [(asker + 1) % players]
    return [s for s in range(players) if s != asker]


#: ``_ASKS_TO[pass_left][players][asker]``: the asker's legal questions in order (its targets', each
#: target's 120 in deck order), made once, since a random asker asks for them at every turn
_ASKS_TO = {
    pass_left: {
        n: [tuple(a for t in _targets_of(s, n, pass_left) for a in _ASKS[t]) for s in range(n)]
        for n in (4, 5)
    }
    for pass_left in (False, True)
}
_CLAIMS = (NoClaim(), *(Claim(f, n) for f in FACE_CARDS for n in NUMBER_CARDS))
#: the record encoding's action types: type -> (the action class, its fields)
_MAKERS: dict[str, tuple[Any, set[str]]] = {
    "ask": (Ask, {"target", "face", "number"}),
    "show": (Show, {"card"}),
    "neither": (Neither, set()),
    "claim": (Claim, {"face", "number"}),
    "no_claim": (NoClaim, set()),
    "deal": (Deal, {"dealer", "secret", "hands"}),
}


def _check_options(players: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Validate the player count and the options; return the options with defaults filled in."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in (4, 5):
        raise ValueError(f"The King of Hearts has Five Sons is for 4 or 5 players, not {players!r}")
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise ValueError(f"unknown Five Sons options {sorted(unknown)}; known: {sorted(DEFAULT_OPTIONS)}")
    out = {**DEFAULT_OPTIONS, **options}
    if out["ask_mode"] not in ASK_MODES:
        raise ValueError(f"ask_mode must be one of {ASK_MODES}, not {out['ask_mode']!r}")
    if not isinstance(out["notes"], bool):
        raise ValueError(f"notes must be True or False, not {out['notes']!r}")
    out["names"] = check_names(out["names"], players)
    return out


def _check_pair(face: Card, number: Card, what: str) -> None:
    """A question and a claim both name one face card, then one number card."""
    if face not in _FACE_SET:
        raise IllegalAction(f"{face.code} is not a face card: {what} names a face card first (J, Q or K)")
    if number not in _NUMBER_SET:
        raise IllegalAction(
            f"{number.code} is not a number card: {what} names a number card second (A-10 of hearts)"
        )


class FiveSons(Game):
    """One hand of The King of Hearts has Five Sons. See the module docstring."""

    name = "five_sons"
    title = "The King of Hearts has Five Sons"
    min_players = 4
    max_players = 5
    knowledge_adapter = "qardlab.games.five_sons.knowledge:knowledge_of"
    table_widget = "qardlab.widgets.five_sons:FiveSonsTable"
    bot_levels = {
        "random": "qardlab.games.five_sons.bots:RandomAsker",
        "logic": "qardlab.games.five_sons.bots:ReasoningBot",
        "probability": "qardlab.games.five_sons.probability_bot:ProbabilityBot",
    }
    bot_level_titles = {"random": "random questions", "probability": "probability (best questions)"}
    #: the standing orders a person may give (:mod:`qardlab.games.five_sons.orders`)
    standing_orders = "qardlab.games.five_sons.orders:FiveSonsOrders"

    @classmethod
    def deal_from_json(cls, deal: Any, options: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """A set-up deal ``{"hands": [[codes], ...], "secret": [face, number], "dealer": seat}`` as the
        deal action; the options are unchanged."""
        if not isinstance(deal, dict) or "hands" not in deal:
            raise ValueError(f"deal must be an object with 'hands', not {deal!r}")
        unknown = set(deal) - {"hands", "secret", "dealer"}
        if unknown:
            raise ValueError(f"a Five Sons deal has hands, secret, dealer; not {sorted(unknown)}")
        return (
            {
                "type": "deal",
                "dealer": deal.get("dealer", 0),
                "secret": deal.get("secret"),
                "hands": deal["hands"],
            },
            options,
        )

    def __init__(self, players: int, options: dict[str, Any], seed: int | None) -> None:
        if not isinstance(options, dict):
            raise ValueError(f"Five Sons options must be a dict, not {options!r}")
        options = _check_options(players, options)
        super().__init__(players, options, seed)
        self.phase = "deal"
        self.dealer: int | None = None
        self.secret: tuple[Card, Card] | None = None  # the teacher's truth; never in a seat's view
        self._hands: list[int] = [0] * players  # bit masks
        self.eliminated: set[int] = set()
        self.winner: int | None = None
        self.asker: int | None = None  # whose turn it is to ask (or who just asked)
        self.turn = 0  # questions asked so far
        self.question: Ask | None = None  # the question being answered or just answered
        self._answerer: int | None = None  # who answers the question now (chosen or forced)
        self._claimers: list[int] = []  # seats still to claim or pass in this claim round
        self._next_dealer = 0  # dealer for chance_outcome (set by new())

    def __deepcopy__(self, memo: dict) -> FiveSons:
        """A fast independent copy: actions and logged events are immutable and shared."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.options = _copy.deepcopy(self.options, memo)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.events = self.events.copy()
        new.history = list(self.history)
        new._hands = list(self._hands)
        new.eliminated = set(self.eliminated)
        new._claimers = list(self._claimers)
        return new

    # -- construction -----------------------------------------------------------------
    @classmethod
    def _blank(cls, players: int, options: dict[str, Any], seed: int | None) -> FiveSons:
        return cls(players, dict(options), seed)

    @classmethod
    def new(cls, players: int = 4, seed: int | None = 7, *, dealer: int = 0, **options: Any) -> FiveSons:
        """A game dealt from its seeded RNG (the deal is recorded as a chance action)."""
        game = cls(players, options, seed)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0..{players - 1}, not {dealer!r}")
        game._next_dealer = dealer
        game.apply(game.chance_outcome())
        return game

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[Any],
        secret: Sequence[CardLike] = ("QC", "8H"),
        dealer: int = 0,
        seed: int | None = None,
        **options: Any,
    ) -> FiveSons:
        """A game from a given deal: ``hands`` one list of cards (or a spaced string) per seat.

        ValueError naming a bad value (hands that are not a list of hands, a secret that is not
        two cards, a bad dealer or seed); IllegalAction for a deal the rules refuse.
        """
        if not isinstance(hands, (list, tuple)):
            raise ValueError(f"hands must be a list with one hand per seat, not {hands!r:.80}")
        game = cls(len(hands), options, seed)
        deal = Deal(dealer, secret, tuple(hands))  # ValueError naming a bad secret, hand or dealer
        game._next_dealer = dealer
        game.apply(deal)
        return game

    def chance_outcome(self) -> Deal:
        """Shuffle the two piles, put the secret pair aside, deal the rest from the dealer's left."""
        if self.phase != "deal":
            raise IllegalAction("no deal is due now")
        faces, numbers = list(FACE_CARDS), list(NUMBER_CARDS)
        self.rng.shuffle(faces)
        self.rng.shuffle(numbers)
        secret = (faces.pop(), numbers.pop())
        rest = faces + numbers
        self.rng.shuffle(rest)
        n, dealer = self.players, self._next_dealer
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i, card in enumerate(rest):
            hands[(dealer + 1 + i) % n].append(card)
        return Deal(dealer, secret, tuple(tuple(h) for h in hands))

    # -- the protocol -----------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self.phase == "deal":
            return CHANCE
        if self.phase == "ask":
            return self.asker
        if self.phase == "answer":
            return self._answerer
        if self.phase == "claim":
            return self._claimers[0]
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def hand_size(self) -> int:
        return 20 // self.players

    def hand(self, seat: int) -> Hand:
        """The cards ``seat`` holds (the teacher's view of any seat)."""
        self._check_seat(seat, "seat")
        return Hand(_in_order(cards_of_mask(self._hands[seat])))

    def holds(self, seat: int, card: CardLike) -> bool:
        """Whether ``seat`` holds ``card`` (the teacher's view); a bad seat is refused, naming it
        (seat -1 is no alias of the last seat)."""
        self._check_seat(seat, "seat")
        return bool(self._hands[seat] & Card.parse(card).bit)

    def act(self, seat: int, action: Any) -> FiveSons:
        """Apply ``action`` (one step) for ``seat``; IllegalAction (nothing changed) if it is not that
        seat's turn."""
        self._check_seat(seat, "seat")
        if self.to_move != seat:
            if self.is_over:
                raise IllegalAction(f"the game is over; seat {seat} cannot act")
            if seat in self.eliminated and self.phase in ("ask", "claim"):
                raise IllegalAction(f"seat {seat} made a wrong claim and may no longer ask or claim")
            who = "chance (the deal)" if self.to_move == CHANCE else f"seat {self.to_move}"
            raise IllegalAction(f"it is {who}'s turn ({self.phase}), not seat {seat}'s")
        return self.apply(action)

    def legal_actions(self) -> list[Action]:
        if self.phase == "deal":
            return []  # chance: see chance_outcome()
        if self.phase == "ask":
            return [*_ASKS_TO[self.options["ask_mode"] == "pass_left"][self.players][self.asker]]
        if self.phase == "answer":
            forced = self._forced()
            if forced is not None:
                return [forced]
            q = self.question
            return [Show(q.face), Show(q.number)]
        if self.phase == "claim":
            return list(_CLAIMS)
        return []

    def _targets(self, asker: int) -> list[int]:
        return _targets_of(asker, self.players, self.options["ask_mode"] == "pass_left")

    # -- validation (never changes anything) ------------------------------------------
    def _validate(self, action: Any) -> Action:
        if isinstance(action, dict):
            try:
                action = self.action_from_json(action)
            except ValueError as e:
                raise IllegalAction(str(e)) from None
        if self.phase == "deal":
            if not isinstance(action, Deal):
                raise IllegalAction(f"the cards must be dealt first (a Deal), not {action!r}")
            return self._validate_deal(action)
        if isinstance(action, Deal):
            raise IllegalAction("the cards have already been dealt")
        if self.phase == "ask":
            return self._validate_ask(action)
        if self.phase == "answer":
            return self._validate_show(action)
        return self._validate_claim(action)

    def _validate_deal(self, deal: Deal) -> Deal:
        n = self.players
        if not 0 <= deal.dealer < n:
            raise IllegalAction(f"dealer {deal.dealer} is not a seat of this game (0..{n - 1})")
        face, number = deal.secret
        if face not in _FACE_SET:
            raise IllegalAction(f"the secret's first card must be a face card (J, Q, K), not {face.code}")
        if number not in _NUMBER_SET:
            raise IllegalAction(
                f"the secret's second card must be a number card (A-10 of hearts), not {number.code}"
            )
        if len(deal.hands) != n:
            raise IllegalAction(f"a deal for {n} players needs {n} hands, got {len(deal.hands)}")
        seen = face.bit | number.bit
        for s, h in enumerate(deal.hands):
            if len(h) != self.hand_size:
                raise IllegalAction(f"seat {s} must get {self.hand_size} cards, got {len(h)}: {Hand(h)}")
            for c in h:
                if not c.bit & _DECK_MASK:
                    raise IllegalAction(f"{c.code} (seat {s}) is not in the Five Sons deck")
                if seen & c.bit:
                    raise IllegalAction(f"{c.code} (seat {s}) is dealt twice")
                seen |= c.bit
        return deal

    def _validate_ask(self, action: Any) -> Ask:
        if not isinstance(action, Ask):
            raise IllegalAction(
                f"{self.seat_name(self.asker)} (seat {self.asker}) must ask a question "
                f"(Ask(target, face, number)), not {action!r}"
            )
        self._check_seat(action.target, "target")
        if action.target == self.asker:
            raise IllegalAction(
                f"seat {self.asker} cannot ask themself; ask one of {self._targets(self.asker)}"
            )
        if action.target not in self._targets(self.asker):
            raise IllegalAction(
                f"with ask_mode 'pass_left' the question goes to the left neighbour, seat "
                f"{self._targets(self.asker)[0]}, not seat {action.target}"
            )
        _check_pair(action.face, action.number, "a question")
        return action

    def _validate_show(self, action: Any) -> Show | Neither:
        q = self.question
        held = [c for c in q.cards if self.holds(self._answerer, c)]
        if isinstance(action, Neither):
            if held:
                raise IllegalAction(
                    f"seat {self._answerer} holds {' and '.join(c.code for c in held)} "
                    "and must show it, not say neither"
                )
            return action
        if not held:
            raise IllegalAction(
                f"seat {self._answerer} holds neither {q.face.code} nor {q.number.code}: "
                f"the answer is Neither(), not {action!r}"
            )
        if not isinstance(action, Show):
            raise IllegalAction(
                f"seat {self._answerer} must show {q.face.code} or {q.number.code} "
                f"(Show(card)), not {action!r}"
            )
        if action.card not in q.cards:
            raise IllegalAction(f"{action.card.code} was not named; show {q.face.code} or {q.number.code}")
        if not self.holds(self._answerer, action.card):
            raise IllegalAction(
                f"seat {self._answerer} does not hold {action.card.code}; it must show {held[0].code}"
            )
        forced = len(held) == 1  # the only card it may show: the engine shows it itself
        return action if action.forced == forced else Show(action.card, forced=forced)

    def _validate_claim(self, action: Any) -> Action:
        seat = self._claimers[0]
        if isinstance(action, NoClaim):
            return action
        if not isinstance(action, Claim):
            raise IllegalAction(
                f"it is seat {seat}'s chance to claim: Claim(face, number) or NoClaim(), not {action!r}"
            )
        _check_pair(action.face, action.number, "a claim")
        return action

    # -- applying ---------------------------------------------------------------------
    def _do(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._do_deal(action)
        elif isinstance(action, Ask):
            self._do_ask(action)
        elif isinstance(action, Show):
            self._answer(self._answerer, action.card)
        elif isinstance(action, Neither):
            self._neither(self._answerer)
        elif isinstance(action, Claim):
            self._do_claim(action)
        else:
            seat = self._claimers.pop(0)
            self.log("no_claim", {"seat": seat})
            self._after_claim()

    def _do_deal(self, deal: Deal) -> None:
        self.dealer = deal.dealer
        self.secret = deal.secret
        self._hands = [mask_of(h) for h in deal.hands]
        self.log(
            "deal",
            {"dealer": deal.dealer, "sizes": [len(h) for h in deal.hands]},
            private={s: {"hand": [c.code for c in _in_order(h)]} for s, h in enumerate(deal.hands)},
            hidden={"secret": [c.code for c in deal.secret]},
        )
        self.asker = self._next_asker(deal.dealer)
        self.phase = "ask"

    def _next_asker(self, after: int) -> int:
        for k in range(1, self.players + 1):
            s = (after + k) % self.players
            if s not in self.eliminated:
                return s
        raise AssertionError("no seat left to ask")  # pragma: no cover - the game ends first

    def _do_ask(self, ask: Ask) -> None:
        self.turn += 1
        self.question = ask
        self.log(
            "ask",
            {
                "asker": self.asker,
                "target": ask.target,
                "face": ask.face.code,
                "number": ask.number.code,
                "turn": self.turn,
            },
        )
        self._put_to(ask.target)

    def _put_to(self, answerer: int) -> None:
        """Put the question to ``answerer``: the answer is their step, chosen or forced.

        Every answer is a step of its own, given by the answerer (``apply`` never gives it), so
        that the game looks the same at every moment whether or not the answerer had a choice:
        only the answerer may know that it held both cards.
        """
        self._answerer = answerer
        self.phase = "answer"

    def _forced(self) -> Show | Neither | None:
        """The answer the cards force: the one named card held, or "neither"."""
        if self.phase != "answer":
            return None
        held = [c for c in self.question.cards if self.holds(self._answerer, c)]
        if len(held) == 2:
            return None
        return Show(held[0], forced=True) if held else Neither()

    def _neither(self, answerer: int) -> None:
        q = self.question
        self.log(
            "answer",
            {
                "asker": self.asker,
                "answerer": answerer,
                "face": q.face.code,
                "number": q.number.code,
                "shown": False,
            },
        )
        nxt = (answerer + 1) % self.players
        if self.options["ask_mode"] == "pass_left" and nxt != self.asker:
            self._put_to(nxt)
        else:
            self._answerer = None
            self._start_claims()

    def _answer(self, answerer: int, card: Card) -> None:
        q = self.question
        mine = {"card": card.code}
        self.log(
            "answer",
            {
                "asker": self.asker,
                "answerer": answerer,
                "face": q.face.code,
                "number": q.number.code,
                "shown": True,
            },
            private={self.asker: mine, answerer: mine},
        )
        self._answerer = None
        self._start_claims()

    def _start_claims(self) -> None:
        n = self.players
        self._claimers = [s for s in ((self.asker + k) % n for k in range(n)) if s not in self.eliminated]
        self.phase = "claim"

    def _do_claim(self, claim: Claim) -> None:
        seat = self._claimers.pop(0)
        right = claim.pair == self.secret
        public = {"seat": seat, "face": claim.face.code, "number": claim.number.code, "right": right}
        secret = [c.code for c in self.secret]
        if right:
            self.log("claim", {**public, "secret": secret})
            self.winner = seat
            self._end()
            return
        self.eliminated.add(seat)
        self.log("claim", public, private={seat: {"secret": secret}})
        if len(self.eliminated) == self.players:
            self._end()
        else:
            self._after_claim()

    def _after_claim(self) -> None:
        if self._claimers:
            return
        self.question = None
        self.asker = self._next_asker(self.asker)
        self.phase = "ask"

    def _end(self) -> None:
        self._claimers = []
        self.phase = "over"
        self.log("over", {"winner": self.winner, "secret": [c.code for c in self.secret]})

    # -- views ------------------------------------------------------------------------
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` knows now: its hand, the public state, and the log as it saw it.

        ``None``: the teacher's observation, built the same way from the whole log, with every
        hand (``hands``), the secret pair (``secret``) and the mover's legal actions.
        """
        obs = self.base_observation(seat)
        teacher = seat is None
        to_move = obs["to_move"]
        obs.update(
            options={"ask_mode": self.options["ask_mode"], "notes": self.options["notes"]},
            dealer=self.dealer,
            asker=self.asker,
            turn=self.turn,
            question=None
            if self.question is None
            else {
                "asker": self.asker,
                "target": self.question.target,
                "face": self.question.face.code,
                "number": self.question.number.code,
            },
            hand_sizes=[m.bit_count() for m in self._hands],
            eliminated=sorted(self.eliminated),
            winner=self.winner,
        )
        # what a table shows and the log already says: the cards each seat has shown to this one
        # (teacher: to anyone), the secret once this seat has seen it, and why the answerer's
        # other cards are refused
        shown: list[list[str]] = [[] for _ in range(self.players)]
        seen_secret = None
        for e in obs["events"]:
            if e["kind"] == "answer" and e.get("shown"):
                cards = [p["card"] for p in (e.get("private") or {}).values() if "card" in p]
                for c in cards[:1]:
                    if e["answerer"] != seat and c not in shown[e["answerer"]]:
                        shown[e["answerer"]].append(c)
            secret = e.get("secret") or part_of(e, seat).get("secret")
            if secret:
                seen_secret = list(secret)
        obs["shown"] = shown
        obs["secret"] = seen_secret
        refused: dict[str, str] = {}
        if self.phase == "answer" and (teacher or to_move == seat):
            for c in _in_order(cards_of_mask(self._hands[to_move])):
                why = self.why_illegal(Show(c))
                if why is not None:
                    refused[c.code] = why
        obs["refused"] = refused
        if teacher:
            obs["hands"] = [[c.code for c in _in_order(cards_of_mask(m))] for m in self._hands]
            obs["secret"] = None if self.secret is None else [c.code for c in self.secret]
        return obs

    def summary(self) -> dict[str, Any]:
        """The result: the winner (None: nobody), the secret pair, the seats out after a wrong claim."""
        secret = None if self.secret is None else [c.code for c in self.secret]
        return {
            "winner": self.winner,
            "secret": secret,
            "eliminated": sorted(self.eliminated),
            "questions": self.turn,
        }

    # -- words and the JSON codec: class methods (a view needs no game to read an event or send a click) --
    @classmethod
    def describe_event(cls, event: Mapping[str, Any], seat: Any, names: Sequence[str]) -> str:
        """One event of an observation in its viewer's words (:func:`.words.event_words`)."""
        return event_words(event, seat, names)

    @classmethod
    def action_to_json(cls, action: Action) -> dict[str, Any]:
        """An action as a small JSON object (card codes, seat numbers)."""
        built = _JSON_OF_INTERNED.get(id(action))
        if built is not None:  # one of the interned legal actions (an observation lists up to 480)
            return dict(built)
        if isinstance(action, Ask):
            return {
                "type": "ask",
                "target": action.target,
                "face": action.face.code,
                "number": action.number.code,
            }
        if isinstance(action, Show):
            return {"type": "show", "card": action.card.code}
        if isinstance(action, Neither):
            return {"type": "neither"}
        if isinstance(action, Claim):
            return {"type": "claim", "face": action.face.code, "number": action.number.code}
        if isinstance(action, NoClaim):
            return {"type": "no_claim"}
        if isinstance(action, Deal):
            return {
                "type": "deal",
                "dealer": action.dealer,
                "secret": [c.code for c in action.secret],
                "hands": [[c.code for c in h] for h in action.hands],
            }
        raise ValueError(f"not a Five Sons action: {action!r}")

    @classmethod
    def action_from_json(cls, data: Any) -> Action:
        """Read an action written by :meth:`action_to_json`; ValueError naming what is wrong."""
        if not isinstance(data, dict) or "type" not in data:
            raise ValueError(f"a Five Sons action is an object with a 'type', not {data!r}")
        fields = {k: v for k, v in data.items() if k != "type"}
        kind = data["type"]
        if not isinstance(kind, str) or kind not in _MAKERS:
            raise ValueError(f"unknown Five Sons action type {kind!r}; known: {sorted(_MAKERS)}")
        maker, keys = _MAKERS[kind]
        if set(fields) != keys:
            raise ValueError(f"a {kind!r} action has fields {sorted(keys)}, got {sorted(fields)}")
        if kind == "deal" and not (
            isinstance(fields["hands"], list) and all(isinstance(h, list) for h in fields["hands"])
        ):
            raise ValueError(f"a deal's hands must be lists of card codes, got {fields['hands']!r}")
        return maker(**fields)

    def __repr__(self) -> str:
        return (
            f"FiveSons(players={self.players}, phase={self.phase!r}, step={self.step}, "
            f"to_move={self.to_move})"
        )


#: the JSON of every interned legal action (``_ASKS``, ``_CLAIMS``: module-level, so their ids stay theirs)
_JSON_OF_INTERNED: dict[int, dict[str, Any]] = {}
_JSON_OF_INTERNED.update({id(a): FiveSons.action_to_json(a) for asks in _ASKS for a in asks})
_JSON_OF_INTERNED.update({id(a): FiveSons.action_to_json(a) for a in _CLAIMS})

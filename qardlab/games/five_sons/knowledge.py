"""From one seat's observation to a :class:`~qardlab.deduction.knowledge.Knowledge`.

Only the observation is read (the seat's hand, the hand sizes and the log as the seat saw
it), never the game state, so whatever the reasoning concludes, it concludes from what
the seat could know. Each fact carries the game step it comes from and a sentence a
student can follow, phrased for the seat ("you").

What the deduction engine needs of Five Sons beyond the facts is here too: the secret as
two groups of one card (:func:`secret_spec`: a face card and a number heart, with the
question model: "ask" starts a question, "ask" and "no_claim" add no fact, ``ask_mode``
"chosen" or "pass_left") and the words for the secret's column (:data:`WORDS`).
:func:`base_knowledge` builds a seat's knowledge from them (lessons use it for positions
that come from no game).
"""

from __future__ import annotations

import functools
from typing import Any, Iterable, Mapping, Sequence

from ...cards import Card
from ...deduction.facts import SECRET, Fact, PlaceWords, QuestionModel, SecretSpec
from ...deduction.knowledge import Knowledge
from ...engine.events import part_of
from .deck import FACE_CARDS, NUMBER_CARDS

__all__ = [
    "knowledge_of",
    "SeatKnowledge",
    "KnowledgeFeed",
    "secret_spec",
    "base_knowledge",
    "WORDS",
    "RULE_TEXTS",
]

#: the event kinds that add no fact about the cards (a question, per RULES.md; a pass on claiming)
QUIET = frozenset({"ask", "no_claim"})
#: how explanations speak of the secret
WORDS = {
    SECRET: PlaceWords(
        "the secret pair",
        "The secret pair",
        "{card} is in the secret pair",
        "{card} is not in the secret pair",
        "(a wrong claim)",
    )
}
#: the sentences of the secret's two rules, as the full game says them
RULE_TEXTS = (
    "The secret pair holds exactly one face card (J, Q or K).",
    "The secret pair holds exactly one number card (A-10 ♥).",
)


def secret_spec(
    faces: Sequence[Card] = FACE_CARDS, numbers: Sequence[Card] = NUMBER_CARDS, ask_mode: str = "chosen"
) -> SecretSpec:
    """The Five Sons secret: one face card and one number card (smaller decks for lessons and tests)."""
    return _secret_spec(tuple(faces), tuple(numbers), ask_mode)


@functools.lru_cache(maxsize=16)
def _secret_spec(faces: tuple, numbers: tuple, ask_mode: str) -> SecretSpec:
    """:func:`secret_spec`, made once per deck and mode (a frozen value, checked once: every
    :func:`knowledge_of` asks for it)."""
    return SecretSpec(
        groups=(faces, numbers),
        kinds=("face card", "number card"),
        questions=QuestionModel(mode=ask_mode, event="ask", quiet=QUIET),
    )


def base_knowledge(
    seat: int,
    sizes: Mapping[int, int],
    names: Mapping[Any, str],
    facts: Iterable[Fact] = (),
    *,
    faces: Sequence[Card] = FACE_CARDS,
    numbers: Sequence[Card] = NUMBER_CARDS,
    ask_mode: str = "chosen",
    rule_texts: Sequence[str] = RULE_TEXTS,
    extra: Mapping[str, Any] | None = None,
) -> Knowledge:
    """A seat's Five Sons knowledge: the cards ``faces + numbers``, seats ``0..len(sizes)-1`` of the given
    hand sizes and the secret pair, the secret's rules (said in ``rule_texts``) and then ``facts``."""
    spec = secret_spec(faces, numbers, ask_mode)
    players = len(sizes)
    return Knowledge(
        seat=seat,
        cards=tuple(faces) + tuple(numbers),
        holders=(*range(players), SECRET),
        sizes={**{s: sizes[s] for s in range(players)}, SECRET: 2},
        game="five_sons",
        names={**dict(names), SECRET: WORDS[SECRET].name},
        facts=(*spec.rules(rule_texts), *facts),
        extra=dict(extra or {}),
        secret=spec,
        words=WORDS,
    )


def _sym(code: str) -> str:
    return Card.parse(code).symbol


class _FactReader:
    """Reads one seat's events in order into facts (what :func:`knowledge_of` says of each), keeping what
    a later event needs (the question number, whether the secret is known)."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.seat: int = obs["seat"]
        self.names = _names(obs)
        self.facts: list[Fact] = []
        self.turn = 0
        self.secret_known = False

    def who(self, s: int) -> str:
        return "you" if s == self.seat else self.names[s]

    def read(self, ev: Mapping[str, Any], hand: Sequence[str]) -> None:
        """The facts of one event (``hand``: the seat's hand, for a deal event that does not list it)."""
        seat, who, add = self.seat, self.who, self.facts.append
        kind, step = ev["kind"], ev["step"]
        mine = part_of(ev, seat)  # what this event told the seat alone (its hand, a card shown to it)
        if kind == "deal":
            for code in mine.get("hand", hand):
                add(Fact.has(seat, code, step=step, text=f"You were dealt the {_sym(code)}."))
        elif kind == "ask":
            self.turn = ev.get("turn", self.turn + 1)
        elif kind == "answer":
            turn = self.turn
            a, asker = ev["answerer"], ev["asker"]
            pair = (Card.parse(ev["face"]), Card.parse(ev["number"]))
            both = f"{_sym(ev['face'])} and {_sym(ev['number'])}"
            if not ev["shown"]:
                if a != seat:
                    nor = f"{_sym(ev['face'])} nor {_sym(ev['number'])}"
                    add(
                        Fact.none_of(
                            a,
                            pair,
                            step=step,
                            text=f"Turn {turn}: {who(a)} had neither {nor} ({who(asker)} asked).",
                        )
                    )
            elif a == seat:
                pass  # the seat showed a card of its own hand: nothing new
            elif "card" in mine:
                add(
                    Fact.shown(
                        a,
                        mine["card"],
                        pair,
                        step=step,
                        text=f"Turn {turn}: {who(a)} showed you the {_sym(mine['card'])} "
                        f"(you asked about {both}).",
                    )
                )
            else:
                add(
                    Fact.one_of(
                        a, pair, step=step, text=f"Turn {turn}: {who(a)} showed {who(asker)} one of {both}."
                    )
                )
        elif kind == "claim":
            turn = self.turn
            c = ev["seat"]
            pair = (Card.parse(ev["face"]), Card.parse(ev["number"]))
            both = f"{_sym(ev['face'])} and {_sym(ev['number'])}"
            if ev["right"] and not self.secret_known:
                self.secret_known = True
                for card in pair:
                    add(
                        Fact.has(
                            SECRET,
                            card,
                            step=step,
                            text=f"Turn {turn}: {who(c)} claimed {both}, rightly: that is the secret pair.",
                        )
                    )
            elif not ev["right"]:
                if c == seat and "secret" in mine and not self.secret_known:
                    self.secret_known = True
                    for code in mine["secret"]:
                        add(
                            Fact.has(
                                SECRET,
                                code,
                                step=step,
                                text=f"Turn {turn}: your wrong claim showed you the secret pair, "
                                f"{_sym(mine['secret'][0])} and {_sym(mine['secret'][1])}.",
                            )
                        )
                elif c != seat:
                    add(
                        Fact.not_both(
                            SECRET,
                            pair,
                            step=step,
                            text=f"Turn {turn}: {who(c)} claimed {both} and was wrong, "
                            f"so the secret pair is not {both}.",
                        )
                    )
        elif kind == "over" and not self.secret_known:
            self.secret_known = True
            for code in ev["secret"]:
                add(
                    Fact.has(
                        SECRET,
                        code,
                        step=step,
                        text=f"The game is over and the secret pair is shown: {_sym(code)} is in it.",
                    )
                )

    def knowledge(self, obs: Mapping[str, Any]) -> Knowledge:
        """The seat's Knowledge from the facts read so far and the observation's hand sizes and options."""
        players: int = obs["players"]
        if obs.get("phase") == "deal":  # nothing dealt yet: every seat will get its share
            sizes: dict[int, int] = {s: 20 // players for s in range(players)}
        else:
            sizes = {s: obs["hand_sizes"][s] for s in range(players)}
        ask_mode = obs.get("options", {}).get("ask_mode", "chosen")
        return base_knowledge(
            self.seat,
            sizes,
            {s: self.who(s) for s in range(players)},
            self.facts,
            ask_mode=ask_mode,
            extra={
                "players": players,
                "ask_mode": ask_mode,
                "phase": obs.get("phase"),
                "to_move": obs.get("to_move"),
                "eliminated": list(obs.get("eliminated", [])),
            },
        )


def _names(obs: Mapping[str, Any]) -> list[str]:
    """The seats' names an observation gives (``seat 0``... where it gives none)."""
    return list(obs.get("names") or [f"seat {s}" for s in range(obs["players"])])


def _check_obs(obs: Mapping[str, Any]) -> None:
    if obs.get("game") != "five_sons":
        raise ValueError(f"not a Five Sons observation (game {obs.get('game')!r})")


def knowledge_of(obs: Mapping[str, Any]) -> Knowledge:
    """The knowledge of ``obs["seat"]``, built from its Five Sons observation alone."""
    _check_obs(obs)
    reader = _FactReader(obs)
    for ev in obs["events"]:
        reader.read(ev, obs["hand"])
    return reader.knowledge(obs)


class KnowledgeFeed:
    """:func:`knowledge_of` kept up from the events alone, each read once: ``feed(obs)`` reads the events of
    ``obs`` (the first time every event of an observation, after that only the events since, as the seat
    saw them, which an experiment can take from the log without a whole observation) and returns the
    seat's knowledge with the other keys of ``obs`` as they are now: the same Knowledge as
    ``knowledge_of`` of the whole observation. Events must come in order (ValueError naming a step
    already read). :class:`SeatKnowledge` is the same for whole observations (a bot's)."""

    def __init__(self) -> None:
        self._reader: _FactReader | None = None
        self._step = -1  # the last step read

    @property
    def facts(self) -> list[Fact]:
        return self._reader.facts if self._reader is not None else []

    def feed(self, obs: Mapping[str, Any]) -> Knowledge:
        _check_obs(obs)
        reader = self._reader
        if reader is None:
            reader = self._reader = _FactReader(obs)
        elif obs["seat"] != reader.seat:
            raise ValueError(f"this feed reads seat {reader.seat}'s observations, not seat {obs['seat']!r}'s")
        hand = obs["hand"]
        for ev in obs["events"]:
            step = ev["step"]
            if step < self._step:
                raise ValueError(
                    f"event of step {step!r} comes after step {self._step}: events are read once, in order"
                )
            self._step = step
            reader.read(ev, hand)
        return reader.knowledge(obs)


class SeatKnowledge:
    """``knowledge_of`` for a player that sees one observation after another of its game (a bot): the
    facts of the events read before are kept and only the new ones are read, so the log is read once a
    game, not once a turn. Each call gives exactly ``knowledge_of(obs)``; an observation whose events do
    not continue those read (another game, another seat, a forgetting bot's shorter memory) is read
    from its start."""

    def __init__(self) -> None:
        self._reader: _FactReader | None = None
        self._seen_events: list[Mapping[str, Any]] = []
        self._seat: Any = None
        self._hand: list[str] = []

    def __call__(self, obs: Mapping[str, Any]) -> Knowledge:
        _check_obs(obs)
        events = obs["events"]
        n = len(self._seen_events)
        hand = list(obs["hand"])
        reader = self._reader
        if (
            reader is None
            or obs["seat"] != self._seat
            or hand != self._hand
            or len(events) < n
            or reader.names != _names(obs)
            or list(events[:n]) != self._seen_events
        ):
            reader = self._reader = _FactReader(obs)
            self._seat, self._hand, self._seen_events, n = obs["seat"], hand, [], 0
        for ev in events[n:]:
            reader.read(ev, hand)
            self._seen_events.append(ev)
        return reader.knowledge(obs)

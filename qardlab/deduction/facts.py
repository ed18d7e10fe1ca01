"""The value types of the deduction engine: facts, the secret, the question model and the words.

Everything here is a small frozen value, imported by :mod:`.knowledge`, :mod:`.solve`,
:mod:`.explain`, :mod:`.pair_advisor` and :mod:`.history` alike (this module imports only
:mod:`qardlab.cards`), so the reasoning modules never import :mod:`.knowledge`:

- :class:`Fact`: one thing a seat knows (``Fact.has(1, "QC")``, ``Fact.shown(...)``, ...);
- :class:`SecretSpec`: the secret as ``k`` groups of cards, ``picks[i]`` cards taken from
  group ``i`` (Five Sons: one face card and one number heart; a Clue-like game: one
  suspect, one weapon, one room), with its :class:`QuestionModel`;
- :class:`QuestionModel`: how a seat asks about the secret (which event of the log is a
  question, which events tell nothing, how a question travels);
- :class:`PlaceWords`: how explanations speak of a holder that is not a seat
  ("the envelope", "played");
- :class:`KnowledgeLike`: the part of a :class:`~qardlab.deduction.knowledge.Knowledge`
  the reasoning reads (a typing protocol).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Protocol, Sequence, Union

from ..cards import Card, Suit

if TYPE_CHECKING:  # typing only: the reasoning modules take any KnowledgeLike
    from .solve import Model

__all__ = [
    "Holder",
    "SECRET",
    "PLAYED",
    "Fact",
    "SecretSpec",
    "QuestionModel",
    "PlaceWords",
    "KnowledgeLike",
    "FACT_KINDS",
]

Holder = Union[int, str]
#: the conventional name of the holder of a secret (Five Sons: the two cards put aside)
SECRET = "secret"
#: the conventional name of the holder of cards out of play (Hearts)
PLAYED = "played"

#: every kind of fact the solver understands
FACT_KINDS = frozenset({"has", "has_not", "one_of", "shown", "none_of", "void", "exactly", "not_both"})


def _cards(cards: Iterable[Any]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in cards)


@dataclass(frozen=True)
class Fact:
    """One thing the seat knows.

    kinds and their fields:

    - ``"has"``: ``holder`` holds ``cards[0]``;
    - ``"has_not"``: ``holder`` does not hold ``cards[0]``;
    - ``"one_of"``: ``holder`` holds at least one of ``cards`` (a card was shown to
      someone else, or the seat knows only that one of them was shown);
    - ``"shown"``: ``holder`` showed this seat ``cards[0]`` when asked for ``cards`` (the
      shown card first, then the other named ones): logically a "has"; for probability, a
      deal in which the holder held ``m`` of the named cards weighs ``1/m``, since the
      holder chose which to show, each with the same chance;
    - ``"none_of"``: ``holder`` holds none of ``cards`` (an answer of "neither");
    - ``"void"``: ``holder`` holds no card of ``suit`` (Hearts: did not follow suit);
    - ``"exactly"``: ``holder`` holds exactly ``count`` of ``cards`` (the rules of a
      secret: one card of each group);
    - ``"not_both"``: ``holder`` does not hold all of ``cards`` (a refuted claim).

    ``step`` is the game step it comes from (None for the rules themselves); ``text``
    is the sentence used in explanations. Build facts with the class methods
    (``Fact.has(holder, card, step=3, text="...")``), which parse card codes.
    """

    kind: str
    holder: Holder
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None
    count: int | None = None
    step: int | None = None
    text: str = ""

    @property
    def key(self) -> tuple:
        """What the counting reads of this fact (no step, no words)."""
        return (self.kind, self.holder, self.cards, self.suit, self.count)

    @classmethod
    def has(cls, holder: Holder, card: Any, *, step: int | None = None, text: str = "") -> Fact:
        return cls("has", holder, _cards((card,)), step=step, text=text)

    @classmethod
    def has_not(cls, holder: Holder, card: Any, *, step: int | None = None, text: str = "") -> Fact:
        return cls("has_not", holder, _cards((card,)), step=step, text=text)

    @classmethod
    def one_of(cls, holder: Holder, cards: Iterable[Any], *, step: int | None = None, text: str = "") -> Fact:
        return cls("one_of", holder, _cards(cards), step=step, text=text)

    @classmethod
    def shown(
        cls, holder: Holder, shown: Any, asked: Iterable[Any], *, step: int | None = None, text: str = ""
    ) -> Fact:
        """``holder`` showed ``shown``, one of the ``asked`` cards (stored shown card first)."""
        asked, card = _cards(asked), Card.parse(shown)
        if card not in asked:
            raise ValueError(f"shown card {card} is not one of the asked cards {asked}")
        return cls("shown", holder, (card, *(c for c in asked if c != card)), step=step, text=text)

    @classmethod
    def none_of(
        cls, holder: Holder, cards: Iterable[Any], *, step: int | None = None, text: str = ""
    ) -> Fact:
        return cls("none_of", holder, _cards(cards), step=step, text=text)

    @classmethod
    def void(cls, holder: Holder, suit: Any, *, step: int | None = None, text: str = "") -> Fact:
        return cls("void", holder, (), suit=Suit(suit), step=step, text=text)

    @classmethod
    def exactly(
        cls, holder: Holder, cards: Iterable[Any], count: int, *, step: int | None = None, text: str = ""
    ) -> Fact:
        return cls("exactly", holder, _cards(cards), count=count, step=step, text=text)

    @classmethod
    def not_both(
        cls, holder: Holder, cards: Iterable[Any], *, step: int | None = None, text: str = ""
    ) -> Fact:
        return cls("not_both", holder, _cards(cards), step=step, text=text)


@dataclass(frozen=True, kw_only=True)
class QuestionModel:
    """How a seat asks about the secret, as the rules say (keywords only; a game names its own event).

    A question names ``picks`` cards of each group of the secret and is put to a seat; a seat
    holding some of the named cards shows one of them (each with the same chance), else says
    "neither". ``event`` is the kind of the game's log event that starts a question (it numbers
    the turns of a history); ``mode`` "chosen": the asker picks the seat; "pass_left": the
    question goes to the asker's left neighbour, and on leftwards after each "neither";
    ``quiet`` the kinds of events that add no fact about the cards (a step with only these keeps
    the previous candidate counts; none by default).
    """

    event: str
    mode: str = "chosen"
    quiet: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not isinstance(self.event, str) or not self.event:
            raise ValueError(
                f"a question model needs the kind of event that starts a question, not {self.event!r}"
            )
        if self.mode not in ("chosen", "pass_left"):
            raise ValueError(f"unknown question mode {self.mode!r}: expected 'chosen' or 'pass_left'")
        object.__setattr__(self, "quiet", frozenset(self.quiet))


@dataclass(frozen=True)
class SecretSpec:
    """The secret: ``picks[i]`` cards of each group ``groups[i]``, held by ``holder``.

    ``picks`` default to one card a group. A candidate secret is a tuple of cards, group by
    group in the order of the groups, each group's cards in the group's order. ``kinds`` names
    one card of each group for sentences ("suspect", "weapon"); ``questions`` is how seats ask
    about it (None, the default: nobody asks about it by the rules).
    """

    groups: tuple[tuple[Card, ...], ...]
    picks: tuple[int, ...] = ()
    holder: Holder = SECRET
    kinds: tuple[str, ...] = ()
    questions: QuestionModel | None = None

    def __post_init__(self) -> None:
        groups = tuple(_cards(g) for g in self.groups)
        if not groups or any(not g for g in groups):
            raise ValueError(f"a secret needs at least one group of cards, not {self.groups!r}")
        seen: set[Card] = set()
        for g in groups:
            for c in g:
                if c in seen:
                    raise ValueError(f"card {c} is in two groups of the secret")
                seen.add(c)
        picks = tuple(self.picks) if self.picks else (1,) * len(groups)
        if len(picks) != len(groups) or any(not 1 <= p <= len(g) for p, g in zip(picks, groups)):
            raise ValueError(f"picks {picks} do not fit groups of sizes {[len(g) for g in groups]}")
        if self.kinds and len(self.kinds) != len(groups):
            raise ValueError(f"{len(self.kinds)} kinds named for {len(groups)} groups")
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "picks", picks)
        object.__setattr__(self, "kinds", tuple(self.kinds))
        object.__setattr__(self, "_group_of", {c: i for i, g in enumerate(groups) for c in g})
        object.__setattr__(self, "_order", {c: j for g in groups for j, c in enumerate(g)})

    @property
    def size(self) -> int:
        """How many cards the secret holds."""
        return sum(self.picks)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card that may be in the secret."""
        return tuple(c for g in self.groups for c in g)

    def group_of(self, card: Card) -> int | None:
        """The index of the group ``card`` is in (None: in no group)."""
        return self._group_of.get(card)  # type: ignore[attr-defined]

    def candidate(self, cards: Iterable[Card]) -> tuple[Card, ...] | None:
        """The candidate a hand of the secret holder is (cards ordered group by group), or
        None when the hand does not take ``picks[i]`` cards of every group ``i``."""
        by: list[list[Card]] = [[] for _ in self.groups]
        group_of = self._group_of  # type: ignore[attr-defined]
        for c in cards:
            i = group_of.get(c)
            if i is None:
                return None
            by[i].append(c)
        if any(len(b) != p for b, p in zip(by, self.picks)):
            return None
        order = self._order  # type: ignore[attr-defined]
        return tuple(c for b in by for c in sorted(b, key=order.__getitem__))

    def all_candidates(self) -> list[tuple[Card, ...]]:
        """Every candidate the rules allow, in the groups' order."""
        per = [list(itertools.combinations(g, p)) for g, p in zip(self.groups, self.picks)]
        return [tuple(c for part in combo for c in part) for combo in itertools.product(*per)]

    def count(self) -> int:
        """How many candidates the rules allow (the product of ``comb(len(group), picks)``)."""
        return math.prod(math.comb(len(g), p) for g, p in zip(self.groups, self.picks))

    def rules(self, texts: Sequence[str] = ()) -> tuple[Fact, ...]:
        """The secret's rules as facts: exactly ``picks[i]`` of group ``i`` (step None)."""
        return tuple(
            Fact("exactly", self.holder, g, count=p, text=texts[i] if i < len(texts) else "")
            for i, (g, p) in enumerate(zip(self.groups, self.picks))
        )

    @classmethod
    def from_facts(cls, facts: Iterable[Fact], holder: Holder = SECRET, **kw: Any) -> SecretSpec:
        """The spec whose rules are ``holder``'s "exactly" facts among ``facts``, in their order."""
        rules = [f for f in facts if f.kind == "exactly" and f.holder == holder]
        if not rules:
            raise ValueError(f"no 'exactly' fact about {holder!r} to read a secret from")
        return cls(
            groups=tuple(f.cards for f in rules),
            picks=tuple(int(f.count or 0) for f in rules),
            holder=holder,
            **kw,
        )


@dataclass(frozen=True)
class PlaceWords:
    """How explanations speak of a holder that is not a seat; ``{card}`` is replaced by a card.

    A Clue-like envelope: ``PlaceWords("the envelope", "The envelope", "{card} is in the envelope",
    "{card} is not in the envelope", "(a wrong accusation)")``.
    """

    name: str  # as a grid column and in running text
    subject: str  # as the subject of a sentence
    holds: str  # "{card} is in the envelope"
    holds_not: str  # "{card} is not in the envelope"
    refuted: str = ""  # said after "X is not A and B" (a refuted claim about this place)

    @classmethod
    def plain(cls, holder: Holder) -> PlaceWords:
        """Words for a place the adapter did not name."""
        name = str(holder)
        return cls(name, name[:1].upper() + name[1:], "{card} is with " + name, "{card} is not with " + name)


class KnowledgeLike(Protocol):
    """What :mod:`.solve`, :mod:`.explain` and :mod:`.pair_advisor` read of a Knowledge."""

    seat: int
    cards: tuple[Card, ...]
    holders: tuple[Holder, ...]
    sizes: Mapping[Holder, int]
    facts: tuple[Fact, ...]
    secret: SecretSpec | None
    extra: Mapping[str, Any]
    game: str

    def name(self, holder: Holder) -> str: ...

    def place_words(self, holder: Holder) -> PlaceWords: ...

    def model(self) -> Model: ...

    def grid(self, level: str = "mixed") -> dict[Card, dict[Holder, Any]]: ...

    def cell(self, card: Card, holder: Holder, level: str = "mixed") -> Any: ...

    def naive_candidates(self) -> set[tuple[Card, ...]]: ...

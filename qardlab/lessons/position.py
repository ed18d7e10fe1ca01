"""A seat's view of a Five Sons position in plain terms, for students and lesson authors.

A :class:`Position` lists what one seat knows as short lists a student can loop over
(its hand, the cards shown to it, the "one of" and "neither" answers it heard, the wrong
claims, every hand size) next to the engine's :class:`~qardlab.deduction.Knowledge` of the
same facts, so a student's function and the engine can be run on the same thing.

Two ways to get one:

- ``position_of(game, seat)``: from a game (through the seat's observation only);
- ``position("Alice asks Bob: QC 8H -> shows QC", ..., seat="Alice", hand="JS KD 2H 3H 4H")``:
  from a short history in words, for a lesson author who wants a particular moment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from ..cards import Card, CardLike
from ..deduction.facts import SECRET, Fact
from ..deduction.knowledge import Knowledge
from ..games.five_sons.deck import NUMBER_CARDS, five_sons_deck
from ..games.five_sons.knowledge import base_knowledge

__all__ = ["Position", "Shown", "OneOf", "NeitherOf", "position", "position_of", "NAMES"]

#: the seat names the games use by default
NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve")

Pair = tuple[Card, Card]


class Shown(NamedTuple):
    """``seat`` showed you ``card`` when you asked about ``card`` and ``other``."""

    seat: int
    card: Card
    other: Card


class OneOf(NamedTuple):
    """``seat`` showed someone else one of ``face`` and ``number`` (you did not see which)."""

    seat: int
    face: Card
    number: Card


class NeitherOf(NamedTuple):
    """``seat`` said it holds neither ``face`` nor ``number``."""

    seat: int
    face: Card
    number: Card


@dataclass
class Position:
    """What seat ``seat`` knows, as plain lists (see the module docstring)."""

    seat: int
    names: list[str]
    faces: tuple[Card, ...]
    numbers: tuple[Card, ...]
    hand: frozenset[Card]
    sizes: dict[int, int]
    shown: list[Shown] = field(default_factory=list)
    one_of: list[OneOf] = field(default_factory=list)
    neither: list[NeitherOf] = field(default_factory=list)
    refuted: list[Pair] = field(default_factory=list)
    #: the secret pair, when this seat has seen it (after its own wrong claim)
    secret_seen: Pair | None = None
    knowledge: Knowledge | None = field(default=None, repr=False, compare=False)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def others(self) -> list[int]:
        """The other seats."""
        return [s for s in range(self.players) if s != self.seat]

    def pairs(self) -> list[Pair]:
        """Every (face, number) pair of the game: 120 in the full game."""
        return [(f, n) for f in self.faces for n in self.numbers]

    @classmethod
    def from_knowledge(cls, k: Knowledge, names: Sequence[str] | None = None) -> Position:
        """The plain lists of a Five Sons :class:`Knowledge` (its facts read one by one)."""
        seats = [h for h in k.holders if isinstance(h, int)]
        names = (
            list(names)
            if names is not None
            else [k.names.get(s, NAMES[s]) if k.names.get(s) != "you" else NAMES[s] for s in seats]
        )
        if k.secret is None:
            raise ValueError(f"not a Five Sons knowledge (no secret): {k.game!r}")
        faces, numbers = k.secret.groups
        pos = cls(
            seat=k.seat,
            names=names,
            faces=tuple(faces),
            numbers=tuple(numbers),
            hand=frozenset(),
            sizes={s: k.sizes[s] for s in seats},
            knowledge=k,
        )
        hand, seen = set(), []
        for f in k.facts:
            if f.kind == "has" and f.holder == k.seat:
                hand.add(f.cards[0])
            elif f.kind == "has" and f.holder == SECRET:
                seen.append(f.cards[0])
            elif f.kind == "shown":
                pos.shown.append(Shown(f.holder, f.cards[0], f.cards[1]))
            elif f.kind == "one_of":
                pos.one_of.append(OneOf(f.holder, *_face_first(f.cards)))
            elif f.kind == "none_of":
                pos.neither.append(NeitherOf(f.holder, *_face_first(f.cards)))
            elif f.kind == "not_both" and f.holder == SECRET:
                pos.refuted.append(_face_first(f.cards))
        pos.hand = frozenset(hand)
        if len(seen) == 2:
            pos.secret_seen = _face_first(seen)
        return pos

    def describe(self) -> str:
        """The position in words, one fact a line (what a student would write in their notes)."""
        n = self.names

        def cards(cs) -> str:
            return " ".join(c.symbol for c in sorted(cs, key=lambda c: (not c.is_face, c.index)))

        lines = [
            f"You are {n[self.seat]}; you hold {cards(self.hand)}.",
            "Hand sizes: " + ", ".join(f"{n[s]} {self.sizes[s]}" for s in range(self.players)) + ".",
        ]
        lines += [
            f"{n[s.seat]} showed you the {s.card.symbol} (you asked about it and the {s.other.symbol})."
            for s in self.shown
        ]
        lines += [
            f"{n[o.seat]} showed someone one of {o.face.symbol} {o.number.symbol}." for o in self.one_of
        ]
        lines += [f"{n[o.seat]} has neither {o.face.symbol} nor {o.number.symbol}." for o in self.neither]
        lines += [f"A wrong claim: the secret is not {f.symbol} {m.symbol}." for f, m in self.refuted]
        if self.secret_seen:
            lines.append(f"You have seen the secret pair: {cards(self.secret_seen)}.")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()


def _face_first(cards: Sequence[Card]) -> Pair:
    a, b = cards
    return (a, b) if a.is_face or not b.is_face else (b, a)


def position_of(game: Any, seat: int | None = None) -> Position:
    """The position of ``seat`` in a Five Sons ``game``, read from that seat's observation only;
    or, given an observation itself (``position_of(obs)``, as a bot receives it), that seat's."""
    from ..games.five_sons.knowledge import knowledge_of

    if isinstance(game, Mapping):
        obs = game
    else:
        if seat is None:
            raise ValueError("position_of(game, seat) needs the seat whose view it is")
        obs = game.observation(seat)
    return Position.from_knowledge(knowledge_of(obs), names=obs["names"])


_ASK = re.compile(r"^\s*(\w+)\s+asks\s+(\w+)\s*:\s*(\S+)\s+(\S+)\s*->\s*(.+?)\s*$", re.I)
_CLAIM = re.compile(r"^\s*(\w+)\s+claims\s*:?\s*(\S+)\s+(\S+)\s*->\s*(.+?)\s*$", re.I)


def position(
    *history: str,
    seat: int | str = 0,
    hand: str | Sequence[CardLike] = (),
    names: Sequence[str] | None = None,
    players: int = 4,
) -> Position:
    """A seat's position from a short history in words (for lesson authors).

    Each line is one of::

        "Alice asks Bob: QC 8H -> shows QC"     (the card shown: only the asker sees it)
        "Alice asks Bob: QC 8H -> shows a card" (as anyone but the asker saw it)
        "Alice asks Bob: QC 8H -> neither"
        "Carol claims KH 5H -> wrong"

    ``seat`` is the seat whose view this is (a number or a name), ``hand`` its cards (codes,
    spaced or a list). Names are matched in any case. What the seat could not have seen is
    refused with a ValueError naming the line (an asker is always shown the card; a seat
    cannot show a card it does not hold), so a position is always one a player could be in.
    """
    names = list(names) if names is not None else list(NAMES[:players])
    if len(names) not in (4, 5):
        raise ValueError(f"Five Sons is for 4 or 5 players, not {len(names)} ({names})")
    me = _seat_of(seat, names, "seat")
    my_hand = [Card.parse(c) for c in (hand.split() if isinstance(hand, str) else hand)]
    size = 20 // len(names)
    if len(set(my_hand)) != size:
        raise ValueError(
            f"{names[me]}'s hand must be {size} distinct cards, not {len(set(my_hand))}: {hand!r}"
        )
    deck = five_sons_deck()
    for c in my_hand:
        if c not in deck:
            raise ValueError(f"{c.code} is not a Five Sons card")
    sizes = {s: size for s in range(len(names))}
    facts = [Fact.has(me, c, step=0, text=f"You were dealt the {c.symbol}.") for c in my_hand]
    for turn, line in enumerate(history, start=1):
        _read_line(facts.append, line, turn, me, names, set(my_hand))
    k = base_knowledge(me, sizes, {s: ("you" if s == me else nm) for s, nm in enumerate(names)}, facts)
    return Position.from_knowledge(k, names=names)


def _seat_of(who: int | str, names: Sequence[str], what: str) -> int:
    if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(names):
        return who
    lower = [n.lower() for n in names]
    if isinstance(who, str) and who.strip().lower() in lower:
        return lower.index(who.strip().lower())
    raise ValueError(f"{what} {who!r} is not one of the players {names}")


def _read_line(
    add: Callable[[Fact], None], line: str, turn: int, me: int, names: Sequence[str], hand: set[Card]
) -> None:
    m = _ASK.match(line)
    if m:
        asker, target = _seat_of(m[1], names, "asker"), _seat_of(m[2], names, "answerer")
        if asker == target:
            raise ValueError(f"{line!r}: a player cannot ask themself")
        face, number = Card.parse(m[3]), Card.parse(m[4])
        if not face.is_face or number.is_face or number not in NUMBER_CARDS:
            raise ValueError(f"{line!r}: a question names a face card, then a number card (A-10 of hearts)")
        answer = m[5].lower()
        words = f"Turn {turn}: {names[target]}"
        if answer == "neither":
            if target == me:
                if face in hand or number in hand:
                    raise ValueError(f"{line!r}: you hold one of those cards and cannot say neither")
            else:
                add(
                    Fact.none_of(
                        target,
                        (face, number),
                        step=turn,
                        text=f"{words} had neither {face.symbol} nor {number.symbol}.",
                    )
                )
            return
        sm = re.fullmatch(r"shows\s+(a card|\S+)", answer)
        if not sm:
            raise ValueError(f"{line!r}: the answer must be 'shows <card>', 'shows a card' or 'neither'")
        if sm[1] == "a card":
            if asker == me:
                raise ValueError(f"{line!r}: you asked, so you saw which card: write 'shows <card>'")
            if target != me:
                add(
                    Fact.one_of(
                        target,
                        (face, number),
                        step=turn,
                        text=f"{words} showed {names[asker]} one of {face.symbol} and {number.symbol}.",
                    )
                )
            return
        card = Card.parse(sm[1])
        if card not in (face, number):
            raise ValueError(f"{line!r}: {card.code} was not named in the question")
        if target == me:
            if card not in hand:
                raise ValueError(f"{line!r}: you do not hold {card.code}")
        elif asker == me:
            add(
                Fact.shown(
                    target,
                    card,
                    (face, number),
                    step=turn,
                    text=f"{words} showed you the {card.symbol} (you asked about {face.symbol} and "
                    f"{number.symbol}).",
                )
            )
        else:  # an onlooker does not see the card, whatever the line says
            add(
                Fact.one_of(
                    target,
                    (face, number),
                    step=turn,
                    text=f"{words} showed {names[asker]} one of {face.symbol} and {number.symbol}.",
                )
            )
        return
    m = _CLAIM.match(line)
    if m:
        claimant = _seat_of(m[1], names, "claimant")
        face, number = Card.parse(m[2]), Card.parse(m[3])
        if m[4].lower() != "wrong":
            raise ValueError(f"{line!r}: only a wrong claim leaves a position to reason about ('-> wrong')")
        if claimant != me:
            add(
                Fact.not_both(
                    SECRET,
                    (face, number),
                    step=turn,
                    text=f"Turn {turn}: {names[claimant]} claimed {face.symbol} {number.symbol} "
                    "and was wrong.",
                )
            )
        return
    raise ValueError(
        f"cannot read {line!r}: expected 'Alice asks Bob: QC 8H -> shows QC' "
        "(or '-> shows a card', '-> neither') or 'Carol claims KH 5H -> wrong'"
    )

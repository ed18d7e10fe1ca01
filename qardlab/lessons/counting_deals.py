"""Lesson 07 (Build it: counting deals): the small variant whose deals can all be listed, the reference count
and posterior, their mutations and the two checkers.

The small variant (:func:`mini_position`): 4 players, the face cards J♣ Q♣ K♣ J♦ and the number cards A♥-6♥
(24 pairs), 2 cards each, so from one seat every deal of the other cards can be listed in milliseconds
(:func:`all_deals`). The student writes ``agrees(pos, deal)`` (does a deal agree with every answer heard?),
whose
``count_deals`` :func:`check_counts` compares with the engine's ``counts()``, and ``posterior(pos)`` (each
agreeing deal weighed by the 1/2 rule, then normalised), which :func:`check_posterior` compares with the
engine's exact ``posterior()``. The checkers run on positions chosen by search
(:mod:`qardlab.lessons.checking`) so that every mutation of :data:`MUTATIONS` differs from the reference on at
least one: among them "one of" read as *exactly one*, and the 1/2 rule applied to an onlooker's "one of".

``python -m qardlab.lessons.counting_deals`` searches the positions again and prints them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..cards import Card
from ..deduction.facts import Fact
from ..games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from ..games.five_sons.knowledge import base_knowledge
from .checking import Mutation, distinguishing, function_check, mutation_fn, name_mistake, run
from .exercises import Exercise, Reply, right, wrong
from .position import NAMES, Position

__all__ = [
    "MINI_FACES",
    "MINI_NUMBERS",
    "mini_position",
    "all_deals",
    "Counting",
    "agrees_reference",
    "counts_reference",
    "posterior_reference",
    "POSITIONS",
    "positions",
    "MUTATIONS",
    "mistake",
    "check_counts",
    "check_posterior",
    "EXERCISES",
]

Pair = tuple[Card, Card]
LESSON = "07-build-counting-deals"
MINI_FACES = tuple(FACE_CARDS[:4])
MINI_NUMBERS = tuple(NUMBER_CARDS[:6])
MINI_PLAYERS, MINI_HAND = 4, 2


def mini_position(seed: int, seat: int = 0, questions: int = 6) -> Position:
    """Seat ``seat``'s position in a seeded game of the small variant: 4 players, the face cards J♣ Q♣ K♣ J♦
    and the number cards A♥-6♥ (24 pairs), 2 cards each, ``questions`` random questions answered (an answerer
    holding both shows one at random)."""
    rng = random.Random(seed)
    faces, numbers = list(MINI_FACES), list(MINI_NUMBERS)
    secret = (rng.choice(faces), rng.choice(numbers))
    rest = [c for c in faces + numbers if c not in secret]
    rng.shuffle(rest)
    hands = [frozenset(rest[MINI_HAND * s : MINI_HAND * (s + 1)]) for s in range(MINI_PLAYERS)]
    sizes = {s: MINI_HAND for s in range(MINI_PLAYERS)}
    facts = [
        Fact.has(seat, c, step=0, text=f"You were dealt the {c.symbol}.")
        for c in sorted(hands[seat], key=lambda c: c.index)
    ]
    for turn in range(1, questions + 1):
        asker = rng.randrange(MINI_PLAYERS)
        target = rng.choice([s for s in range(MINI_PLAYERS) if s != asker])
        face, number = rng.choice(faces), rng.choice(numbers)
        held = [c for c in (face, number) if c in hands[target]]
        shown = rng.choice(held) if held else None
        if target == seat:
            continue
        if shown is None:
            facts.append(
                Fact.none_of(
                    target,
                    (face, number),
                    step=turn,
                    text=f"Turn {turn}: {NAMES[target]} had neither {face.symbol} nor {number.symbol}.",
                )
            )
        elif asker == seat:
            facts.append(
                Fact.shown(
                    target,
                    shown,
                    (face, number),
                    step=turn,
                    text=f"Turn {turn}: {NAMES[target]} showed you the {shown.symbol}.",
                )
            )
        else:
            facts.append(
                Fact.one_of(
                    target,
                    (face, number),
                    step=turn,
                    text=f"Turn {turn}: {NAMES[target]} showed {NAMES[asker]} one of "
                    f"{face.symbol} and {number.symbol}.",
                )
            )
    k = base_knowledge(
        seat,
        sizes,
        {**{s: NAMES[s] for s in range(MINI_PLAYERS)}, seat: "you"},
        facts,
        faces=faces,
        numbers=numbers,
        rule_texts=(
            "The secret pair holds exactly one face card.",
            "The secret pair holds exactly one number card.",
        ),
    )
    return Position.from_knowledge(k, names=list(NAMES[:MINI_PLAYERS]))


def all_deals(pos: Position) -> Iterator[dict[Any, Any]]:
    """Every way to deal the cards ``pos``'s seat does not hold: one dict per deal, with ``"secret"`` ->
    (face, number) and each other seat -> the frozenset of its cards. Facts are NOT checked: deciding which
    deals agree with the answers is the student's part."""
    if len(pos.faces) * len(pos.numbers) > 40:
        raise ValueError(
            "all_deals is for the small variant (mini_position): the full game has billions of deals"
        )
    rest = [c for c in (*pos.faces, *pos.numbers) if c not in pos.hand]
    others = pos.others
    for face in pos.faces:
        for number in pos.numbers:
            if face in pos.hand or number in pos.hand:
                continue
            left = [c for c in rest if c not in (face, number)]
            yield from _deal_rest(left, others, pos.sizes, {"secret": (face, number)})


def _deal_rest(left: list, seats: list, sizes: Mapping, deal: dict) -> Iterator[dict]:
    if not seats:
        yield dict(deal)
        return
    s = seats[0]
    for combo in itertools.combinations(left, sizes[s]):
        deal[s] = frozenset(combo)
        chosen = set(combo)
        yield from _deal_rest([c for c in left if c not in chosen], seats[1:], sizes, deal)
    deal.pop(s, None)


# -- the reference, with switches ------------------------------------------------------------------------


@dataclass(frozen=True)
class Counting:
    """How a deal is judged and weighed; the reference has the defaults, and each mistake a student makes is
    one switch away."""

    shown: bool = True  # the card shown to you is in that hand
    one_of: bool = True  # a "one of" hand holds at least one of its two cards
    neither: bool = True  # a "neither" hand holds neither card
    exactly_one: bool = False  # a mistake: a "one of" hand holds exactly one of the two
    one_of_as_both: bool = False  # a mistake: a "one of" hand holds both
    shown_only: bool = False  # a mistake: a hand that showed you one card does not hold the other
    half: bool = True  # the 1/2 rule: a card shown to you by a hand holding both counts 1/2
    half_onlookers: bool = False  # a mistake: the 1/2 rule applied to a "one of" you only heard
    double: bool = False  # a mistake: a hand holding both counts 2, not 1/2
    normalise: bool = True  # divide by the total weight

    def agrees(self, pos: Position, deal: Mapping) -> bool:
        if self.shown and any(s.card not in deal[s.seat] for s in pos.shown):
            return False
        if self.shown_only and any(s.other in deal[s.seat] for s in pos.shown):
            return False
        for o in pos.one_of if self.one_of else ():
            held = len({o.face, o.number} & deal[o.seat])
            if held == 0 or (self.exactly_one and held == 2) or (self.one_of_as_both and held < 2):
                return False
        if self.neither and any({o.face, o.number} & deal[o.seat] for o in pos.neither):
            return False
        return tuple(deal["secret"]) not in set(pos.refuted)

    def weight(self, pos: Position, deal: Mapping) -> float:
        w = 1.0
        both = 2.0 if self.double else 0.5
        if self.half:
            for s in pos.shown:
                if s.other in deal[s.seat]:
                    w *= both
        if self.half_onlookers:
            for o in pos.one_of:
                if {o.face, o.number} <= deal[o.seat]:
                    w *= both
        return w

    def counts(self, pos: Position) -> dict[Pair, int]:
        out: dict[Pair, int] = {}
        for deal in all_deals(pos):
            if self.agrees(pos, deal):
                out[deal["secret"]] = out.get(deal["secret"], 0) + 1
        return out

    def posterior(self, pos: Position) -> dict[Pair, float]:
        weights: dict[Pair, float] = {}
        for deal in all_deals(pos):
            if self.agrees(pos, deal):
                weights[deal["secret"]] = weights.get(deal["secret"], 0.0) + self.weight(pos, deal)
        total = sum(weights.values()) if self.normalise else 1.0
        return {p: w / total for p, w in weights.items()}


REFERENCE = Counting()


def agrees_reference(pos: Position, deal: Mapping) -> bool:
    """Whether a deal agrees with every answer the seat has heard."""
    return REFERENCE.agrees(pos, deal)


def counts_reference(pos: Position) -> dict[Pair, int]:
    """The number of deals that agree with every answer, per secret pair (pairs with none left out)."""
    return REFERENCE.counts(pos)


def posterior_reference(pos: Position) -> dict[Pair, float]:
    """The exact probability of each pair: every agreeing deal counts 1, halved for each card shown to you by
    a player who held both named cards (they could have shown the other), divided by the total."""
    return REFERENCE.posterior(pos)


# -- mistakes a student makes ----------------------------------------------------------------------------


def _counts_with(**changes: Any) -> Callable[[Position], dict[Pair, int]]:
    variant = replace(REFERENCE, **changes)
    return variant.counts


def _posterior_with(**changes: Any) -> Callable[[Position], dict[Pair, float]]:
    variant = replace(REFERENCE, **changes)
    return variant.posterior


def _every_deal(pos: Position) -> dict[Pair, int]:
    out: dict[Pair, int] = {}
    for deal in all_deals(pos):
        out[deal["secret"]] = out.get(deal["secret"], 0) + 1
    return out


def _shares(pos: Position) -> dict[Pair, float]:
    counts = counts_reference(pos)
    total = sum(counts.values())
    return {p: c / total for p, c in counts.items()}


_HINT_ONE_OF = (
    'A "one of" answer says the hand holds at least one of the two cards. Look at a deal in which it holds '
    "both: does your function keep it?"
)

MUTATIONS: dict[str, list[Mutation]] = {
    "counts": [
        Mutation(
            "no facts",
            _every_deal,
            "You count every deal. A deal counts only if it agrees with every answer: look at each kind of "
            "answer (shown, one of, neither) in turn.",
        ),
        Mutation(
            "one of and neither not checked",
            _counts_with(one_of=False, neither=False),
            'Your function checks the shown cards only. What do a "one of" and a "neither" answer say about '
            "a "
            "hand?",
        ),
        Mutation(
            "one of not checked",
            _counts_with(one_of=False),
            'Look at the "one of" answers: in a deal that agrees, what does that hand hold?',
        ),
        Mutation(
            "neither not checked",
            _counts_with(neither=False),
            'Look at the "neither" answers: in a deal that agrees, what does that hand not hold?',
        ),
        Mutation("exactly one", _counts_with(exactly_one=True), _HINT_ONE_OF),
        Mutation(
            "one of as both",
            _counts_with(one_of_as_both=True),
            '"Showed one of two cards" says at least one, not both: look at a deal where that hand holds '
            "just one of them.",
        ),
        Mutation(
            "shown as only that card",
            _counts_with(shown_only=True),
            "A player who showed you one card may hold the other too (they chose which to show): look at a "
            "deal where they hold both.",
        ),
        Mutation(
            "shown not checked",
            _counts_with(shown=False),
            "Look at the cards shown to you: in a deal that agrees, where are they?",
        ),
        Mutation(
            "probabilities",
            _shares,
            "This exercise asks for counts of deals (whole numbers), not probabilities: leave out the "
            "division.",
        ),
    ],
    "posterior": [
        Mutation(
            "1/2 rule forgotten",
            _shares,
            "You count every agreeing deal once. Look at a deal in which the player who showed you a card "
            "held both named cards: how likely was it that they showed you that one?",
        ),
        Mutation(
            "not normalised",
            _posterior_with(normalise=False),
            "Your numbers do not add up to 1: what do you divide each pair's weight by?",
        ),
        Mutation(
            "1/2 rule for onlookers",
            _posterior_with(half_onlookers=True),
            'You halve deals for a "one of" you only heard about. Which card was shown there, and to whom? '
            "The 1/2 rule is about a card you saw.",
        ),
        Mutation(
            "doubled",
            _posterior_with(double=True),
            "A deal in which the answerer held both cards makes the card you saw less likely, not more: look "
            "at the factor you use.",
        ),
        Mutation(
            "shown as only that card",
            _posterior_with(shown_only=True),
            "A player who showed you one card may hold the other too: such a deal counts, with a weight. "
            "Look "
            "at the deals where they hold both.",
        ),
        Mutation("exactly one", _posterior_with(exactly_one=True), _HINT_ONE_OF),
        Mutation(
            "one of and neither not checked",
            _posterior_with(one_of=False, neither=False),
            'Which deals do you weigh? Each must agree with every answer, "one of" and "neither" too.',
        ),
    ],
}


def mistake(exercise: str, name: str) -> Callable[..., Any]:
    """The function of the named mistake of ``exercise`` (the answer keys' wrong answers are these)."""
    return mutation_fn(MUTATIONS, exercise, name)


# -- positions ----------------------------------------------------------------------------------------------


def _canon(d: Mapping[Pair, float]) -> frozenset:
    """A count or a posterior as a comparable value (zeros dropped, 12 significant digits)."""
    return frozenset((p, float(f"{v:.12g}")) for p, v in d.items() if v != 0)


#: (seed, seat, questions) of the small variant's positions each checker runs on: Alice's position of seed 5
#: first (a card shown to her by a player who may have held both), then those :func:`search` chose, on which
#: every mutation of :data:`MUTATIONS` differs from the engine twice
POSITIONS: dict[str, list[tuple[int, int, int]]] = {
    "counts": [(5, 0, 6), (1, 3, 4), (1, 3, 6)],
    "posterior": [(5, 0, 6), (1, 3, 4), (1, 3, 6)],
}


def positions(exercise: str) -> list[Position]:
    """The positions of one exercise ("counts", "posterior")."""
    if exercise not in POSITIONS:
        raise ValueError(f"unknown exercise {exercise!r}; known: {sorted(POSITIONS)}")
    return [mini_position(*key) for key in POSITIONS[exercise]]


def _engine(pos: Position, exercise: str) -> dict[Pair, float]:
    k = pos.knowledge
    return {p: float(c) for p, c in k.counts().items()} if exercise == "counts" else dict(k.posterior())


def search(exercise: str) -> tuple[list[tuple[int, int, int]], dict[str, int]]:
    """The positions for ``exercise``: every mutation differs from the engine on one at least. The candidates:
    seeds 1-150, every seat, after 4, 6 or 8 questions."""
    mini = lru_cache(maxsize=None)(mini_position)
    keys = [(seed, seat, q) for seed in range(1, 151) for seat in range(4) for q in (4, 6, 8)]
    chosen, differs = distinguishing(
        keys,
        lambda k: _canon(_engine(mini(*k), exercise)),
        {m.name: (lambda k, m=m: _canon(m.fn(mini(*k)))) for m in MUTATIONS[exercise]},
    )
    return chosen, {name: len(ks) for name, ks in differs.items()}


# -- the checkers ------------------------------------------------------------------------------------------

EXERCISES = {"counts": Exercise(LESSON, "count-deals"), "posterior": Exercise(LESSON, "posterior")}
_NAMES = {"counts": "count_deals(pos)", "posterior": "posterior(pos)"}


def _as_numbers(value: Any, what: str) -> dict[Pair, float]:
    try:
        items = value.items()
    except AttributeError:
        raise ValueError(
            f"{what} must return a dict {{(face, number): number}}, not {type(value).__name__}"
        ) from None
    out: dict[Pair, float] = {}
    try:
        for key, v in items:
            f, n = key
            out[(Card.parse(f), Card.parse(n))] = float(v)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} must map (face, number) pairs such as (QC, 8H) to numbers: {e}") from None
    return {p: v for p, v in out.items() if v != 0}


def _close(a: Mapping, b: Mapping, tol: float) -> bool:
    return set(a) == set(b) and all(abs(a[p] - b[p]) <= tol for p in a)


def _top(d: Mapping, fmt: str, limit: int = 4) -> str:
    items = sorted(d.items(), key=lambda kv: (-kv[1], kv[0][0].index, kv[0][1].index))[:limit]
    return ", ".join(f"{f.symbol}{n.symbol} {format(v, fmt)}" for (f, n), v in items)


def _worst(mine: Mapping[Pair, float], want: Mapping[Pair, float]) -> Pair:
    return max(set(mine) | set(want), key=lambda p: (abs(mine.get(p, 0.0) - want.get(p, 0.0)), -p[0].index))


def _judge(exercise: str) -> Callable[[Callable], Reply]:
    what = _NAMES[exercise]
    fmt = "g" if exercise == "counts" else ".1%"

    def judge(fn: Callable) -> Reply:
        ps = positions(exercise)
        mine: list[dict[Pair, float]] = []
        for i, pos in enumerate(ps, start=1):
            value, error = run(fn, pos)
            if error:
                return wrong(f"on position {i} your function raised {error}.", key=("error", error))
            if value is None:
                return Reply("empty", (f"Write your answer first: {what} still returns None.",))
            try:
                mine.append(_as_numbers(value, what))
            except ValueError as e:
                return wrong(str(e), key=("shape", str(e)))
        wants = [_engine(pos, exercise) for pos in ps]
        bad = [i for i, (m, w) in enumerate(zip(mine, wants)) if not _close(m, w, 1e-9)]
        if not bad:
            pos = ps[0]
            if exercise == "counts":
                return right(
                    f"your counts equal the engine's on all {len(ps)} positions (position 1: "
                    f"{sum(wants[0].values()):g} agreeing deals; largest {_top(wants[0], 'g')}).",
                )
            return right(
                f"your posterior equals the engine's exact one, the 1/2 rule included, on all {len(ps)} "
                "positions.",
                f"Position 1's most likely pairs: {_top(wants[0], '.1%')}.",
            )
        i = bad[0]
        found = name_mistake(
            [_canon(m) for m in mine], ps, MUTATIONS[exercise], lambda f, pos: _canon(f(pos)), i
        )
        pos, got, want = ps[i], mine[i], wants[i]
        pair = _worst(got, want)
        lines = [
            f"on position {i + 1} ({pos.names[pos.seat]}'s view) your numbers differ from the engine's.",
            "Hint: "
            + (found.hint if found else "check each kind of answer against a deal: shown, one of, neither."),
            f"Look at the pair {pair[0].symbol} {pair[1].symbol}: yours {format(got.get(pair, 0.0), fmt)}.",
            "The position:\n  " + pos.describe().replace("\n", "\n  "),
        ]
        every = sum(1 for _ in all_deals(pos))
        solution = [
            f"The engine on position {i + 1}: {pair[0].symbol} {pair[1].symbol} "
            f"{format(want.get(pair, 0.0), fmt)}; its largest: {_top(want, fmt)}.",
        ]
        if exercise == "counts":
            solution.append(
                f"{sum(want.values()):g} of the {every} deals of the cards you do not hold agree with every "
                "answer; yours: " + f"{sum(got.values()):g}."
            )
        else:
            solution.append(
                "Weigh each agreeing deal 1, times 1/2 for each card shown to you by a player who held both "
                "named cards; add up per pair; divide by the total."
            )
        key = tuple(_canon(m) for m in mine)
        return wrong(*lines, solution=solution, mistake=found.name if found else None, key=hash(key))

    return judge


def check_counts(fn: Any) -> Reply:
    """Check ``fn(pos) -> {pair: number of agreeing deals}`` against the engine's exact counts."""
    return function_check(EXERCISES["counts"], fn, _judge("counts"))


def check_posterior(fn: Any) -> Reply:
    """Check ``fn(pos) -> {pair: probability}`` against the engine's exact posterior (1/2 rule included)."""
    return function_check(EXERCISES["posterior"], fn, _judge("posterior"))


if __name__ == "__main__":  # python -m qardlab.lessons.counting_deals: search the positions again
    for ex in POSITIONS:
        keys, told = search(ex)
        print(f"{ex}: {keys}")
        for name, count in told.items():
            print(f"    {name:32s} told apart on {count} candidate positions")

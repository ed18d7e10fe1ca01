"""Lesson 06 (Build it: crossing out and logic): seeded positions, the reference reasoning, its mutations and
the three checkers.

The student writes, over the 120 pairs: ``cross_out(pos)`` (the pairs left once every seen card is crossed
out),
``possible(pos, pair)`` ("one of" and "neither" as set logic: suppose the pair is the secret and follow the
consequences) and ``possible_with_sizes(pos, pair)`` (the same with the three hand-size rules). The checkers
(:func:`check_cross_out`, :func:`check_possible`, :func:`check_possible_with_sizes`) compare them with the
engine (``Knowledge.naive_candidates()`` and ``Knowledge.candidates()``) on positions of
:func:`seeded_position` chosen by search (:mod:`qardlab.lessons.checking`): on them every mutation of
:data:`MUTATIONS` (a plausible wrong student function) differs from the reference, so each is refused and
named. The reference reasoning is :class:`Logic`, whose switches make most mutations; :func:`explain_pair`
writes its steps on one pair in words, the worked answer a second wrong try gets.

``python -m qardlab.lessons.crossing_out`` searches the positions again and prints them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from ..cards import Card
from ..deduction.facts import SECRET
from .checking import Mutation, distinguishing, function_check, mutation_fn, name_mistake, run
from .exercises import Exercise, Reply, right, wrong
from .position import Position, position_of

__all__ = [
    "Pair",
    "seeded_position",
    "POSITIONS",
    "positions",
    "Logic",
    "ALL_SIZE_RULES",
    "cross_out_reference",
    "possible_reference",
    "possible_with_sizes_reference",
    "explain_pair",
    "MUTATIONS",
    "mistake",
    "check_cross_out",
    "check_possible",
    "check_possible_with_sizes",
    "EXERCISES",
]

Pair = tuple[Card, Card]
LESSON = "06-build-crossing-out"


# -- the lesson's positions ------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _seeded_game(seed: int, turn: int, claims: int = 0):
    from ..games.five_sons import Claim, FiveSons, NoClaim

    rng = random.Random(1000 + seed)
    claim_rng = random.Random(
        5000 + seed
    )  # only games with claims draw from it: the others stay as they were
    game = FiveSons.new(players=4, seed=seed)
    made = 0
    while not (game.phase == "ask" and game.turn == turn):
        legal = game.legal_actions()
        if game.phase == "claim":
            seat = game.to_move
            # the asker of every fourth question claims a wrong pair it still holds possible, up to `claims`
            if made < claims and game.turn % 4 == 0 and seat == game.asker and seat not in game.eliminated:
                left = sorted(game.knowledge(seat).naive_candidates() - {tuple(game.secret)})
                game.play(Claim(*claim_rng.choice(left)))
                made += 1
            else:
                game.play(NoClaim())
        elif game.phase == "answer" and len(legal) == 1:
            game.play(legal[0])
        else:
            game.play(rng.choice(legal))
    return game


def seeded_position(seed: int, turn: int, seat: int, claims: int = 0) -> Position:
    """Seat ``seat``'s position in a seeded 4-player game of random questions when ``turn`` questions have
    been answered. With ``claims`` > 0, the asker of every fourth question makes a wrong claim, up to
    ``claims`` of them (a seat that claimed has seen the secret: such a seat is refused). The same numbers
    give the same position."""
    game = _seeded_game(seed, turn, claims)
    if seat in game.eliminated:
        raise ValueError(
            f"seat {seat} claimed in game ({seed}, {turn}, claims={claims}): it has seen the secret"
        )
    return position_of(game, seat)


#: (seed, turn, seat, claims) of the positions each checker runs on: a short position first (a wrong function
#: is told about the first position it is wrong on), then those :func:`search` chose among the keys of
#: :func:`_candidates`, so that every mutation of :data:`MUTATIONS` gives another answer on two of them
POSITIONS: dict[str, list[tuple[int, int, int, int]]] = {
    "cross_out": [(1, 6, 0, 0), (1, 6, 2, 2), (1, 6, 3, 2)],
    "possible": [(1, 6, 1, 0), (40, 26, 3, 0), (40, 30, 3, 0), (1, 10, 0, 0), (1, 10, 2, 0)],
    "sizes": [(6, 8, 2, 0), (84, 30, 1, 0), (99, 30, 1, 0), (35, 30, 1, 0)],
}


def positions(exercise: str) -> list[Position]:
    """The positions of one exercise ("cross_out", "possible", "sizes")."""
    if exercise not in POSITIONS:
        raise ValueError(f"unknown exercise {exercise!r}; known: {sorted(POSITIONS)}")
    return [seeded_position(*key) for key in POSITIONS[exercise]]


# -- the reference reasoning -------------------------------------------------------------------------------

#: the hand-size rules: a seat with more placed cards than its size ("over") or fewer possible cards than its
#: size ("under") is a contradiction; a full hand holds nothing else ("full"); a hand with only as many
#: possible cards as room holds them all ("room"); a card only one seat can hold is there ("only")
ALL_SIZE_RULES = frozenset({"over", "under", "full", "room", "only"})


@dataclass(frozen=True)
class Logic:
    """The reasoning of exercises 2 and 3 with switches: the reference has them all as set here (exercise 2
    without hand sizes); turning one off (or ``exactly_one`` on) makes a mistake a student makes."""

    one_of: bool = True  # use the "one of" answers
    neither: bool = True  # a "neither" answer: that seat holds neither card
    shown: bool = True  # a card shown to you is in the hand of who showed it
    pair_in_secret: bool = True  # the supposed pair's cards are in the secret, so no seat holds them
    place_forced: bool = True  # a "one of" seat that can hold only one of its two cards holds that one
    repeat: bool = True  # go round again until nothing changes
    exactly_one: bool = False  # a mistake: "one of" read as "exactly one"
    sizes: frozenset[str] = field(default_factory=frozenset)

    def possible(self, pos: Position, pair: Pair, say: Callable[[str], None] | None = None) -> bool:
        """Whether ``pair`` can be the secret by this reasoning; ``say`` is told each step in words."""
        say = say or (lambda _s: None)
        n = pos.names
        place: dict[Card, Any] = {c: pos.seat for c in pos.hand}
        if self.shown:
            for s in pos.shown:
                place[s.card] = s.seat
        for c in pair:
            if c in place:
                say(f"{c.symbol} is in {_whose(pos, place[c])} hand: the pair is crossed out.")
                return False
            if self.pair_in_secret:
                place[c] = SECRET
        say(f"Suppose {pair[0].symbol} {pair[1].symbol} is the secret: no seat holds those two cards.")
        cannot: dict[int, set[Card]] = {h: set() for h in pos.others}
        if self.neither:
            for nb in pos.neither:
                if nb.seat in cannot:
                    cannot[nb.seat] |= {nb.face, nb.number}
        while True:
            changed = False
            for o in pos.one_of if self.one_of else ():
                h = o.seat
                if h == pos.seat:
                    continue
                if place.get(o.face) == h or place.get(o.number) == h:
                    if self.exactly_one:
                        other = o.number if place.get(o.face) == h else o.face
                        if other not in cannot[h]:
                            cannot[h].add(other)
                            changed = True
                    continue
                options = [c for c in (o.face, o.number) if c not in place and c not in cannot[h]]
                if not options:
                    say(
                        f"{n[h]} showed someone one of {o.face.symbol} and {o.number.symbol}, but can hold "
                        f"neither ({_why_not(pos, place, cannot, h, o.face)}; "
                        f"{_why_not(pos, place, cannot, h, o.number)})"
                        f": a contradiction, so {pair[0].symbol} {pair[1].symbol} is not the secret."
                    )
                    return False
                if len(options) == 1 and self.place_forced:
                    c = options[0]
                    other = o.number if c == o.face else o.face
                    place[c] = h
                    changed = True
                    say(
                        f"{n[h]} showed someone one of {o.face.symbol} and {o.number.symbol}; "
                        f"{_why_not(pos, place, cannot, h, other)}, so {n[h]} holds {c.symbol}."
                    )
                    if self.exactly_one:
                        cannot[h].add(other)
            if self.sizes:
                grew = self._sizes(pos, pair, place, cannot, say)
                if grew is None:
                    return False
                changed = changed or grew
            if not changed or not self.repeat:
                say(f"Nothing more follows: {pair[0].symbol} {pair[1].symbol} stays possible.")
                return True

    def _sizes(
        self, pos: Position, pair: Pair, place: dict, cannot: dict, say: Callable[[str], None]
    ) -> bool | None:
        """The hand-size rules once: None on a contradiction, True if something changed."""
        n, rules, changed = pos.names, self.sizes, False
        out = f"a contradiction, so {pair[0].symbol} {pair[1].symbol} is not the secret."
        cards = list(pos.faces) + list(pos.numbers)
        for h in pos.others:
            free = [c for c in cards if c not in place]
            held = [c for c, v in place.items() if v == h]
            could = [c for c in free if c not in cannot[h]]
            size = pos.sizes[h]
            if "over" in rules and len(held) > size:
                say(f"{n[h]} would hold {len(held)} cards ({_cards(held)}), more than {size}: {out}")
                return None
            if "under" in rules and len(held) + len(could) < size:
                say(f"{n[h]} holds {size} cards but could hold only {len(held) + len(could)}: {out}")
                return None
            if "full" in rules and len(held) == size and could:
                cannot[h] |= set(could)
                changed = True
                say(f"{n[h]}'s {size} cards are all placed ({_cards(held)}): {n[h]} holds nothing else.")
            elif "room" in rules and len(held) < size and len(held) + len(could) == size:
                for c in could:
                    place[c] = h
                changed = True
                say(
                    f"{n[h]} has room for {size - len(held)} more and can hold only {_cards(could)}: all "
                    f"there."
                )
        if "only" in rules:
            for c in cards:
                if c in place:
                    continue
                where = [h for h in pos.others if c not in cannot[h]]
                if not where:
                    say(f"No seat can hold {c.symbol}, and it is not in the secret: {out}")
                    return None
                if len(where) == 1:
                    place[c] = where[0]
                    changed = True
                    say(f"Only {n[where[0]]} can hold {c.symbol}: it is there.")
        return changed


def _cards(cs: Iterable[Card]) -> str:
    return " ".join(c.symbol for c in sorted(cs, key=lambda c: (not c.is_face, c.index)))


def _whose(pos: Position, holder: Any) -> str:
    if holder == pos.seat:
        return "your"
    return "the secret's" if holder == SECRET else f"{pos.names[holder]}'s"


def _why_not(pos: Position, place: dict, cannot: dict, h: int, c: Card) -> str:
    """Why seat ``h`` cannot hold ``c``, in a few words."""
    if place.get(c) == SECRET:
        return f"{c.symbol} is in the secret"
    if place.get(c) == pos.seat:
        return f"you hold {c.symbol}"
    if c in place:
        return f"{c.symbol} is with {pos.names[place[c]]}"
    if c in cannot[h]:
        said = any(c in (nb.face, nb.number) and nb.seat == h for nb in pos.neither)
        return (
            f"{pos.names[h]} said neither about {c.symbol}"
            if said
            else f"{pos.names[h]} cannot hold {c.symbol}"
        )
    return f"{c.symbol} is free"


#: exercise 2's reasoning ("one of" and "neither", no hand sizes) and exercise 3's (every rule)
REFERENCE_LOGIC = Logic()
REFERENCE_SIZES = Logic(sizes=ALL_SIZE_RULES)


def cross_out_reference(pos: Position) -> set[Pair]:
    """The pairs left when every card you have seen (your hand, cards shown to you) is crossed out, and the
    pairs wrong claims refuted: a seen card is in a hand, so it is not in the secret."""
    seen = set(pos.hand) | {s.card for s in pos.shown}
    left = {(f, n) for f, n in pos.pairs() if f not in seen and n not in seen}
    left -= set(pos.refuted)
    if pos.secret_seen is not None:
        left &= {pos.secret_seen}
    return left


def possible_reference(pos: Position, pair: Pair) -> bool:
    """Whether ``pair`` can be the secret by "one of" and "neither" logic, hand sizes aside.

    Suppose the pair is the secret. A seat that showed someone one of two cards holds one it can hold: not a
    card placed elsewhere (your hand, a card shown to you, the pair itself) and not one it said "neither"
    about.
    No such card: the pair is impossible. Exactly one: that card is in its hand, which may settle another
    "one of"; repeat until nothing changes.
    """
    return REFERENCE_LOGIC.possible(pos, pair)


def possible_with_sizes_reference(pos: Position, pair: Pair) -> bool:
    """As :func:`possible_reference`, and every hand holds exactly its size: more placed cards than its size,
    or fewer possible cards, is a contradiction; a full hand holds nothing else; a hand with only as many
    possible cards as room holds them all; a card only one seat can hold is there."""
    return REFERENCE_SIZES.possible(pos, pair)


def explain_pair(pos: Position, pair: Pair, sizes: bool = True) -> list[str]:
    """The reference's reasoning about one pair, a step a line (the worked answer of a wrong try)."""
    steps: list[str] = []
    pair = (Card.parse(pair[0]), Card.parse(pair[1]))
    (REFERENCE_SIZES if sizes else REFERENCE_LOGIC).possible(pos, pair, steps.append)
    return steps


# -- mistakes a student makes ----------------------------------------------------------------------------


def _hand_only(pos: Position) -> set[Pair]:  # the notebook's starting point
    return {(f, n) for f, n in pos.pairs() if f not in pos.hand and n not in pos.hand}


def _named_cards(pos: Position) -> set[Pair]:
    named = {c for o in (*pos.one_of, *pos.neither) for c in (o.face, o.number)}
    return {(f, n) for f, n in cross_out_reference(pos) if f not in named and n not in named}


def _both_cards(pos: Position) -> set[Pair]:
    seen = set(pos.hand) | {s.card for s in pos.shown}
    return {(f, n) for f, n in pos.pairs() if not (f in seen and n in seen)} - set(pos.refuted)


def _your_other_card(pos: Position) -> set[Pair]:
    asked = {s.other for s in pos.shown}
    return {(f, n) for f, n in cross_out_reference(pos) if f not in asked and n not in asked}


def _neither_cards(pos: Position) -> set[Pair]:
    said = {c for o in pos.neither for c in (o.face, o.number)}
    return {(f, n) for f, n in cross_out_reference(pos) if f not in said and n not in said}


def _refuted_ignored(pos: Position) -> set[Pair]:
    seen = set(pos.hand) | {s.card for s in pos.shown}
    return {(f, n) for f, n in pos.pairs() if f not in seen and n not in seen}


def _exact_pair_only(pos: Position, pair: Pair) -> bool:
    return not any((o.face, o.number) == pair for o in pos.one_of)


def _one_of_as_both(pos: Position, pair: Pair) -> bool:
    named = {c for o in pos.one_of for c in (o.face, o.number)}
    return not (set(pair) & named)


def _with(logic: Logic, **changes: Any) -> Callable[[Position, Pair], bool]:
    variant = replace(logic, **changes)
    return lambda pos, pair: variant.possible(pos, pair)


def _logic_mutations(base: Logic) -> list[Mutation]:
    """The mistakes of exercises 2 and 3, on top of ``base`` (no sizes, or every size rule)."""
    return [
        Mutation(
            "one of ignored",
            _with(base, one_of=False),
            'Your function keeps every pair crossing out keeps: the "one of" answers rule nothing out yet. '
            "Suppose the pair is the secret (so no seat holds its two cards): can each seat that showed one "
            "of two cards still hold one?",
        ),
        Mutation(
            "exact pair only",
            lambda pos, pair: pair in cross_out_reference(pos) and _exact_pair_only(pos, pair),
            'You rule out only the very pair a "one of" answer names. Look at pairs holding one of its '
            "cards: "
            "when the other card cannot be in that seat's hand, what must the seat hold?",
        ),
        Mutation(
            "one of as both",
            lambda pos, pair: pair in cross_out_reference(pos) and _one_of_as_both(pos, pair),
            '"Showed one of Q♣ and 8♥" says at least one is in that hand, not both: the other card may be '
            "anywhere, the secret included. Look at the pairs holding a named card.",
        ),
        Mutation(
            "neither ignored",
            _with(base, neither=False),
            'Your function does not use the "neither" answers. A seat that said neither cannot hold those '
            'cards: what does that leave of its "one of" answers?',
        ),
        Mutation(
            "forced card not placed",
            _with(base, place_forced=False),
            'When a "one of" seat can hold only one of its two cards, that card is in its hand. Does your '
            "loop "
            "put it there (in place), so that another answer can use it?",
        ),
        Mutation(
            "no repeat",
            _with(base, repeat=False),
            "Your function goes through the answers once. A card placed by a later answer can settle an "
            "earlier one: go round again until nothing changes.",
        ),
        Mutation(
            "exactly one",
            _with(base, exactly_one=True),
            'You read "showed one of two cards" as "holds exactly one". A seat holding one of them may hold '
            "the other too: look at what your function forbids a seat once one of its cards is placed.",
        ),
        Mutation(
            "shown cards not placed",
            _with(base, shown=False),
            "A card shown to you is in the hand of the seat that showed it, so no other seat can hold it: "
            "look at the cards of pos.shown in your place.",
        ),
    ]  # (leaving the pair's cards out of place is "one of ignored" again: a "one of" then never fails)


def _size_mutations() -> list[Mutation]:
    def without(*rules: str) -> Callable[[Position, Pair], bool]:
        return _with(REFERENCE_SIZES, sizes=ALL_SIZE_RULES - set(rules))

    return [
        Mutation(
            "sizes forgotten",
            possible_reference,
            "You do not use the hand sizes yet: every hand holds exactly its size. Look at a seat whose "
            "placed cards fill its hand, and at one that can hold only as many cards as it has room for.",
        ),
        Mutation(
            "full hand not closed",
            without("full"),
            "Look at a seat whose placed cards fill its hand: can it hold anything else?",
        ),
        Mutation(
            "room not filled",
            without("room"),
            "Look at a seat that can still hold only as many cards as it has room for: where are those "
            "cards?",
        ),
        Mutation(
            "only seat not used",
            without("only"),
            "Every card is somewhere: look at a card that only one seat can still hold.",
        ),
        Mutation(
            "size contradiction missed",
            without("over", "under"),
            "Look at a seat with more placed cards than its size, or fewer possible cards than its size: can "
            "the supposed pair be the secret then?",
        ),
        *_logic_mutations(REFERENCE_SIZES)[:1],
        *(m for m in _logic_mutations(REFERENCE_SIZES)[3:]),
    ]


#: exercise -> the mutations each checker recognises and names, in the order it tries them
MUTATIONS: dict[str, list[Mutation]] = {
    "cross_out": [
        Mutation(
            "hand only",
            _hand_only,
            "You crossed out your own hand only. Which other cards have you seen, and where are they?",
        ),
        Mutation(
            "named cards",
            _named_cards,
            "You crossed out cards because someone named them in a question or an answer. Is a question "
            "evidence of where a card is? (The asker may name cards from their own hand.)",
        ),
        Mutation(
            "your other card",
            _your_other_card,
            "You crossed out both cards of your own question. Which of the two did you actually see?",
        ),
        Mutation(
            "both cards",
            _both_cards,
            "You cross out a pair only when both of its cards were seen. Is one seen card enough?",
        ),
        Mutation(
            "neither cards",
            _neither_cards,
            'You crossed out the cards of a "neither" answer. "Neither" says where two cards are not: could '
            "they be in the secret?",
        ),
        Mutation(
            "refuted ignored",
            _refuted_ignored,
            "Look at pos.refuted: a pair a wrong claim named is not the secret either.",
        ),
    ],
    "possible": _logic_mutations(REFERENCE_LOGIC),
    "sizes": _size_mutations(),
}


def mistake(exercise: str, name: str) -> Callable[..., Any]:
    """The function of the named mistake of ``exercise`` (the answer keys' wrong answers are these)."""
    return mutation_fn(MUTATIONS, exercise, name)


# -- the candidates of the search --------------------------------------------------------------------------


def _candidates(claims: int = 0) -> list[tuple[int, int, int, int]]:
    """The keys the search chooses from: with no wrong claim, seeds 1-100 after 6, 10, ... 30 questions; with
    two wrong claims (crossing out only), seeds 1-40 after 6 to 18; every seat that has not claimed."""
    seeds, turns = (range(1, 101), range(6, 31, 4)) if claims == 0 else (range(1, 41), range(6, 19, 4))
    return [
        (seed, turn, seat, claims)
        for seed in seeds
        for turn in turns
        for seat in range(4)
        if seat not in _seeded_game(seed, turn, claims).eliminated
    ]


def _answers(fn: Callable[..., Any], pos: Position, exercise: str) -> frozenset[Pair]:
    if exercise == "cross_out":
        return frozenset(fn(pos))
    return frozenset(p for p in cross_out_reference(pos) if fn(pos, p))


def _engine(pos: Position, exercise: str) -> frozenset[Pair]:
    k = pos.knowledge
    return frozenset(k.naive_candidates() if exercise == "cross_out" else k.candidates())


def search(exercise: str) -> tuple[list[tuple[int, int, int, int]], dict[str, int]]:
    """The positions for ``exercise`` (see :data:`POSITIONS`) and how many candidates tell each mutation
    apart. Exercise 2's candidates are those where its logic without sizes already equals the engine's."""
    seeded = lru_cache(maxsize=None)(seeded_position)  # each position read once in this search
    keys = _candidates(0) + (_candidates(2) if exercise == "cross_out" else [])
    if exercise == "possible":
        keys = [
            k
            for k in keys
            if _answers(possible_reference, seeded(*k), "possible") == _engine(seeded(*k), "possible")
        ]
    elif exercise == "sizes":  # where the rules reach the engine's logic (they do not always: see the kit)
        keys = [
            k
            for k in keys
            if _answers(possible_with_sizes_reference, seeded(*k), "sizes") == _engine(seeded(*k), "sizes")
        ]
    chosen, differs = distinguishing(
        keys,
        lambda k: _engine(seeded(*k), exercise),
        {m.name: (lambda k, m=m: _answers(m.fn, seeded(*k), exercise)) for m in MUTATIONS[exercise]},
    )
    return chosen, {name: len(ks) for name, ks in differs.items()}


# -- the checkers --------------------------------------------------------------------------------------------

EXERCISES = {
    "cross_out": Exercise(LESSON, "cross-out"),
    "possible": Exercise(LESSON, "one-of-neither"),
    "sizes": Exercise(LESSON, "hand-sizes"),
}
_TITLES = {
    "cross_out": "cross_out(pos)",
    "possible": "possible(pos, pair)",
    "sizes": "possible_with_sizes(pos, pair)",
}


def _pairs_text(pairs: Iterable[Pair], limit: int = 4) -> str:
    ps = sorted(pairs, key=lambda p: (p[0].index, p[1].index))
    text = ", ".join(f"{f.symbol} {n.symbol}" for f, n in ps[:limit])
    return text + (f" and {len(ps) - limit} more" if len(ps) > limit else "")


def _as_pairs(value: Any, what: str) -> set[Pair]:
    """A student's answer as a set of (face, number) Card pairs (codes accepted)."""
    try:
        return {(Card.parse(f), Card.parse(n)) for f, n in value}
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} must give (face, number) pairs such as (QC, 8H): {e}") from None


def _naive_arithmetic(pos: Position) -> str:
    seen = set(pos.hand) | {s.card for s in pos.shown}
    a = sum(1 for c in seen if c in pos.faces)
    b = sum(1 for c in seen if c in pos.numbers)
    nf, nn = len(pos.faces), len(pos.numbers)
    text = (
        f"{pos.names[pos.seat]} has seen {a} face card(s) and {b} number card(s): "
        f"({nf} - {a}) x ({nn} - {b}) = {(nf - a) * (nn - b)} pairs"
    )
    if pos.refuted:
        text += f", less {len(pos.refuted)} refuted by wrong claims"
    return text + "."


def _students(fn: Callable, exercise: str, ps: list[Position]) -> tuple[list[frozenset[Pair]], Reply | None]:
    """The student's answers on every position, or the reply to a function that cannot give them."""
    what = _TITLES[exercise]
    out = []
    for i, pos in enumerate(ps, start=1):
        if exercise == "cross_out":
            value, error = run(fn, pos)
            if error:
                return out, wrong(f"on position {i} your function raised {error}.", key=("error", error))
            if value is None:
                return out, Reply("empty", (f"Write your answer first: {what} still returns None.",))
            try:
                out.append(frozenset(_as_pairs(value, what)))
            except ValueError as e:
                return out, wrong(str(e), key=("shape", str(e)))
            continue
        mine = set()
        for pair in sorted(cross_out_reference(pos), key=lambda p: (p[0].index, p[1].index)):
            value, error = run(fn, pos, pair)
            if error:
                return out, wrong(
                    f"on position {i}, pair {pair[0].symbol} {pair[1].symbol}, your function raised {error}.",
                    key=("error", error),
                )
            if value is None:
                return out, Reply("empty", (f"Write your answer first: {what} still returns None.",))
            if value:
                mine.add(pair)
        out.append(frozenset(mine))
    return out, None


def _judge(exercise: str) -> Callable[[Callable], Reply]:
    def judge(fn: Callable) -> Reply:
        ps = positions(exercise)
        mine, early = _students(fn, exercise, ps)
        if early is not None:
            return early
        rights = [_engine(pos, exercise) for pos in ps]
        if mine == rights:
            if exercise == "cross_out":
                counts = ", ".join(str(len(r)) for r in rights)
                return right(
                    f"crossing out gives {counts} pairs on the {len(ps)} positions, as the engine counts.",
                    _naive_arithmetic(ps[0]),
                )
            counts = ", ".join(f"{len(cross_out_reference(p))} -> {len(r)}" for p, r in zip(ps, rights))
            return right(
                f"as the engine's logic on all {len(ps)} positions: {counts} pairs (crossing out -> logic)."
            )
        i = next(j for j, (m, r) in enumerate(zip(mine, rights)) if m != r)
        found = name_mistake(mine, ps, MUTATIONS[exercise], lambda f, pos: _answers(f, pos, exercise), i)
        pos, got, want = ps[i], mine[i], rights[i]
        extra, missing = sorted(got - want), sorted(want - got)
        lines = [
            f"on position {i + 1} ({pos.names[pos.seat]}'s view) your function keeps {len(got)} pairs; "
            f"{len(want)} are possible.",
            "Hint: "
            + (found.hint if found else "compare your reasoning with the position below, pair by pair."),
        ]
        if extra:
            lines.append(f"Look at {_pairs_text(extra[:1])}: you keep it, and it cannot be the secret.")
        elif missing:
            lines.append(f"Look at {_pairs_text(missing[:1])}: you rule it out, and it is still possible.")
        lines.append("The position:\n  " + pos.describe().replace("\n", "\n  "))
        look = (extra or missing)[0]
        if exercise == "cross_out":
            solution = [_naive_arithmetic(pos)]
        else:
            solution = [f"The reasoning about {look[0].symbol} {look[1].symbol}, step by step:"]
            solution += ["  " + s for s in explain_pair(pos, look, sizes=exercise == "sizes")]
        if extra:
            solution.append(f"Every pair you keep that the engine rules out: {_pairs_text(extra, 8)}.")
        if missing:
            solution.append(f"Every pair you rule out that is still possible: {_pairs_text(missing, 8)}.")
        key = tuple(tuple(sorted((f.code, n.code) for f, n in m)) for m in mine)
        return wrong(*lines, solution=solution, mistake=found.name if found else None, key=hash(key))

    return judge


def check_cross_out(fn: Any) -> Reply:
    """Check ``fn(pos) -> set of pairs`` (crossing out seen cards) on the lesson's positions."""
    return function_check(EXERCISES["cross_out"], fn, _judge("cross_out"))


def check_possible(fn: Any) -> Reply:
    """Check ``fn(pos, pair) -> bool`` ("one of" and "neither" logic) against the engine."""
    return function_check(EXERCISES["possible"], fn, _judge("possible"))


def check_possible_with_sizes(fn: Any) -> Reply:
    """Check ``fn(pos, pair) -> bool`` (logic with hand sizes) against the engine's candidates."""
    return function_check(EXERCISES["sizes"], fn, _judge("sizes"))


if __name__ == "__main__":  # python -m qardlab.lessons.crossing_out: search the positions again
    for ex in POSITIONS:
        keys, told = search(ex)
        print(f"{ex}: {keys}")
        for name, count in told.items():
            print(f"    {name:28s} told apart on {count} candidate positions")

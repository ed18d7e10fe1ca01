"""The build-it-yourself lessons (06-08): seeded positions, reference solutions and checkers.

A student writes a function; a checker runs it on seeded positions, compares it with the
engine and says, in a :class:`Check`, whether it is right, what the engine's answer is, and,
when the student's answer matches a known mistake (forgetting the 1/2 rule, forgetting
hand sizes, crossing out the cards a question names...), which one and why it is wrong.

- Lesson 06, crossing out and logic over the 120 pairs: :func:`check_cross_out`,
  :func:`check_possible` ("one of" and "neither" as set logic) and :func:`check_possible_with_sizes`,
  against ``Knowledge.naive_candidates()`` and ``Knowledge.candidates()``.
- Lesson 07, counting deals on a small variant (:func:`mini_position`: 4 players, 4 face cards,
  6 number cards, 2 cards each, so every deal can be listed in milliseconds, :func:`all_deals`):
  :func:`check_counts` and :func:`check_posterior`, against ``counts()`` and ``posterior()``.
- Lesson 08, entropy and the information of a question: :func:`check_entropy` and
  :func:`check_information` against the advisor (``Knowledge.questions()``); :func:`student_bot`
  turns the student's functions into a Five Sons bot.

The reference solutions (``cross_out_reference`` and so on) are what a teacher's answer key
shows and what a lesson falls back on while the student's function is not yet right.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping

from ..cards import Card
from ..deduction.facts import SECRET, Fact
from ..deduction.knowledge import Knowledge
from ..games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from ..games.five_sons.knowledge import base_knowledge
from .position import NAMES, Position, position_of

__all__ = [
    "Check",
    "seeded_position",
    "lesson06_positions",
    "cross_out_reference",
    "possible_reference",
    "possible_with_sizes_reference",
    "check_cross_out",
    "check_possible",
    "check_possible_with_sizes",
    "mini_position",
    "all_deals",
    "counts_reference",
    "posterior_reference",
    "check_counts",
    "check_posterior",
    "entropy_reference",
    "information_reference",
    "answer_joint",
    "question_joints",
    "check_entropy",
    "check_information",
    "student_bot",
    "mine_or_reference",
    "Pair",
    "MISTAKES",
]

Pair = tuple[Card, Card]


# --------------------------------------------------------------------------------------
# what a checker says
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """A checker's verdict: ``status`` is "empty" (nothing written yet), "wrong" or "right".

    ``mistake`` names the known mistake the answer matches, if any. It shows itself as its
    message in a notebook.
    """

    exercise: str
    status: str
    message: str
    mistake: str | None = None

    @property
    def passed(self) -> bool:
        return self.status == "right"

    @property
    def verdict(self) -> str:
        """The same as ``status``, under the name :class:`qardlab.lessons.exercises.Reply` uses."""
        return self.status

    def __str__(self) -> str:
        return self.message

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.message)


def _empty(exercise: str, what: str) -> Check:
    return Check(exercise, "empty", f"Write your answer first: {what} still returns None.")


def _not_a_function(exercise: str, fn: Any) -> Check | None:
    """The reply when the answer is not yet a function: empty for None, else what is expected."""
    if fn is None or fn is ...:
        return Check(
            exercise,
            "empty",
            "Write your answer first: write your function, then set the answer "
            "to it (answer = your_function) and run this cell.",
        )
    if not callable(fn):
        return Check(
            exercise,
            "wrong",
            f"Not quite: the answer must be your function (its name, without brackets), not {fn!r}.",
        )
    return None


def mine_or_reference(fn: Callable, check: Check, reference: Callable) -> Callable:
    """The student's function if its check passed, else the reference (saying so), so that a
    lesson's later cells run either way."""
    if check.passed:
        return fn
    print(f"(Using the reference solution for now: yours is not right yet. {check.exercise})")
    return reference


def _cards(cs) -> str:
    return " ".join(c.symbol for c in sorted(cs, key=lambda c: (not c.is_face, c.index)))


def _pairs_text(pairs, limit: int = 4) -> str:
    ps = sorted(pairs, key=lambda p: (p[0].index, p[1].index))
    text = ", ".join(f"{f.symbol}{n.symbol}" for f, n in ps[:limit])
    return text + (f" and {len(ps) - limit} more" if len(ps) > limit else "")


def _as_pairs(value: Any, what: str) -> set[Pair]:
    """A student's answer as a set of (face, number) Card pairs (codes accepted)."""
    try:
        return {(Card.parse(f), Card.parse(n)) for f, n in value}
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} must give (face, number) pairs such as (QC, 8H): {e}") from None


def _run(fn: Callable, *args: Any) -> tuple[Any, str | None]:
    """Call a student's function; an exception becomes a message, not a crash of the lesson."""
    try:
        return fn(*args), None
    except Exception as e:  # noqa: BLE001 - any error in a student's code is reported, not raised
        return None, f"{type(e).__name__}: {e}"


# --------------------------------------------------------------------------------------
# seeded positions of the full game (lesson 06)
# --------------------------------------------------------------------------------------
def _apply(game: Any, action: Any) -> None:
    """One move and whatever the rules force after it (``play`` where the engine has it)."""
    (game.play if hasattr(game, "play") else game.apply)(action)


@lru_cache(maxsize=64)
def _seeded_game(seed: int, turn: int):
    from ..games.five_sons import FiveSons, NoClaim

    rng = random.Random(1000 + seed)
    game = FiveSons.new(players=4, seed=seed)
    while not (game.phase == "ask" and game.turn == turn):
        legal = game.legal_actions()
        if game.phase == "claim":
            _apply(game, NoClaim())
        elif game.phase == "answer" and len(legal) == 1:
            _apply(game, legal[0])
        else:
            _apply(game, rng.choice(legal))
    return game


def seeded_position(seed: int, turn: int, seat: int) -> Position:
    """Seat ``seat``'s position in a seeded 4-player game of random questions (no claims),
    when ``turn`` questions have been answered. The same numbers give the same position."""
    return position_of(_seeded_game(seed, turn), seat)


#: (seed, turn, seat) of the positions lesson 06 checks on, per exercise. Chosen so that each
#: needs what its exercise teaches: "one of" positions where that logic (without sizes) already
#: equals the engine's full logic, "sizes" positions where only hand sizes reach it.
LESSON06 = {
    "cross_out": [(1, 6, 0), (5, 10, 2), (12, 14, 3)],
    "possible": [(1, 6, 1), (1, 10, 2), (1, 14, 2)],
    "sizes": [(6, 8, 2), (5, 12, 1), (15, 12, 3)],
}


def lesson06_positions(exercise: str) -> list[Position]:
    """The seeded positions of one lesson-06 exercise ("cross_out", "possible", "sizes")."""
    if exercise not in LESSON06:
        raise ValueError(f"unknown exercise {exercise!r}; known: {sorted(LESSON06)}")
    return [seeded_position(*key) for key in LESSON06[exercise]]


# --------------------------------------------------------------------------------------
# lesson 06: reference solutions
# --------------------------------------------------------------------------------------
def cross_out_reference(pos: Position) -> set[Pair]:
    """The pairs left when every card you have seen (your hand, cards shown to you) is crossed
    out, and the wrong claims: a seen card is in a hand, so it is not in the secret."""
    seen = set(pos.hand) | {s.card for s in pos.shown}
    left = {(f, n) for f, n in pos.pairs() if f not in seen and n not in seen}
    left -= set(pos.refuted)
    if pos.secret_seen is not None:
        left &= {pos.secret_seen}
    return left


def _placing(pos: Position, pair: Pair) -> tuple[dict[Card, Any], dict[int, set[Card]]] | None:
    """Where the cards are if ``pair`` is the secret: what you saw, the pair itself, and the
    cards each seat said "neither" about. None if that already contradicts itself."""
    place: dict[Card, Any] = {c: pos.seat for c in pos.hand}
    for s in pos.shown:
        place[s.card] = s.seat
    for c in pair:
        if place.get(c, SECRET) != SECRET:
            return None
        place[c] = SECRET
    cannot: dict[int, set[Card]] = {h: set() for h in pos.others}
    for nb in pos.neither:
        if nb.seat in cannot:
            cannot[nb.seat] |= {nb.face, nb.number}
    if any(place.get(c) == h for h, cs in cannot.items() for c in cs):
        return None
    return place, cannot


def _one_of_step(pos: Position, place: dict, cannot: dict) -> bool | None:
    """Apply every "one of" once: None if one cannot hold, True if a card got placed."""
    changed = False
    for o in pos.one_of:
        h = o.seat
        if h == pos.seat or place.get(o.face) == h or place.get(o.number) == h:
            continue
        options = [c for c in (o.face, o.number) if c not in place and c not in cannot[h]]
        if not options:
            return None
        if len(options) == 1:
            place[options[0]] = h
            changed = True
    return changed


def _sizes_step(pos: Position, place: dict, cannot: dict) -> bool | None:
    """Apply the hand sizes once: None on a contradiction, True if something changed."""
    changed = False
    cards = list(pos.faces) + list(pos.numbers)
    for h in pos.others:
        free = [c for c in cards if c not in place]
        held = sum(1 for v in place.values() if v == h)
        could = [c for c in free if c not in cannot[h]]
        if held > pos.sizes[h] or held + len(could) < pos.sizes[h]:
            return None
        if held == pos.sizes[h] and could:  # a full hand holds nothing else
            cannot[h] |= set(could)
            changed = True
        elif held < pos.sizes[h] and held + len(could) == pos.sizes[h]:  # it must hold them all
            for c in could:
                place[c] = h
            changed = True
    for c in cards:
        if c not in place:
            where = [h for h in pos.others if c not in cannot[h]]
            if not where:
                return None
            if len(where) == 1:
                place[c] = where[0]
                changed = True
    return changed


def possible_reference(pos: Position, pair: Pair) -> bool:
    """Whether ``pair`` can be the secret by "one of" and "neither" logic, hand sizes aside.

    Suppose the pair is the secret. A seat that showed someone one of two cards holds one it
    can hold: not a card placed elsewhere (your hand, a card shown to you, the pair itself)
    and not one it said "neither" about. No such card: the pair is impossible. Exactly one:
    that card is in its hand, which may settle another "one of"; repeat until nothing changes.
    """
    start = _placing(pos, pair)
    if start is None:
        return False
    place, cannot = start
    while True:
        changed = _one_of_step(pos, place, cannot)
        if changed is None:
            return False
        if not changed:
            return True


def possible_with_sizes_reference(pos: Position, pair: Pair) -> bool:
    """As :func:`possible_reference`, and every hand holds exactly its size: a full hand holds
    nothing else; a hand with only as many possible cards as its size holds them all; a card
    only one seat can hold is there."""
    start = _placing(pos, pair)
    if start is None:
        return False
    place, cannot = start
    while True:
        a = _one_of_step(pos, place, cannot)
        if a is None:
            return False
        b = _sizes_step(pos, place, cannot)
        if b is None:
            return False
        if not (a or b):
            return True


# --------------------------------------------------------------------------------------
# lesson 06: mistakes a student makes, as functions, so that a checker can recognise them
# --------------------------------------------------------------------------------------
def _cross_out_hand_only(pos: Position) -> set[Pair]:
    return {(f, n) for f, n in pos.pairs() if f not in pos.hand and n not in pos.hand} - set(pos.refuted)


def _cross_out_named(pos: Position) -> set[Pair]:
    named = {c for o in (*pos.one_of, *pos.neither) for c in (o.face, o.number)}
    return {(f, n) for f, n in cross_out_reference(pos) if f not in named and n not in named}


def _cross_out_both(pos: Position) -> set[Pair]:
    seen = set(pos.hand) | {s.card for s in pos.shown}
    return {(f, n) for f, n in pos.pairs() if not (f in seen and n in seen)} - set(pos.refuted)


def _cross_out_your_question(pos: Position) -> set[Pair]:
    asked = {s.other for s in pos.shown}
    return {(f, n) for f, n in cross_out_reference(pos) if f not in asked and n not in asked}


def _cross_out_neither(pos: Position) -> set[Pair]:
    said = {c for o in pos.neither for c in (o.face, o.number)}
    return {(f, n) for f, n in cross_out_reference(pos) if f not in said and n not in said}


CROSS_OUT_MISTAKES: dict[str, tuple[Callable, str]] = {
    "hand only": (
        _cross_out_hand_only,
        "You crossed out your own hand only. A card shown to you is in that player's hand too, "
        "so it cannot be in the secret: cross it out as well.",
    ),
    "named cards": (
        _cross_out_named,
        "You crossed out cards because someone named them in a question. A question is no "
        "evidence: the asker may name cards from their own hand, or anything at all.",
    ),
    "your other card": (
        _cross_out_your_question,
        "You crossed out both cards of your own question. When you asked about Q♣ and 8♥ "
        "and were shown the Q♣, you saw the Q♣ only: the 8♥ may be anywhere, the secret "
        "included.",
    ),
    "both cards": (
        _cross_out_both,
        "You crossed out a pair only when both of its cards were seen. One seen card is enough: "
        "a pair whose face card is in a hand cannot be the secret, whatever its number card.",
    ),
    "neither cards": (
        _cross_out_neither,
        'You crossed out the cards of a "neither" answer. "Neither" says where those cards '
        "are not (that player's hand); they may still be in the secret.",
    ),
}


def _lesson06_possible_mistakes(with_sizes: bool) -> dict[str, tuple[Callable, str]]:
    def one_of_ignored(pos, pair):
        return pair in cross_out_reference(pos)

    def exact_pair_only(pos, pair):
        return pair in cross_out_reference(pos) and not any((o.face, o.number) == pair for o in pos.one_of)

    def one_of_as_both(pos, pair):
        named = {c for o in pos.one_of for c in (o.face, o.number)}
        return pair in cross_out_reference(pos) and not (set(pair) & named)

    def neither_ignored(pos, pair):
        bare = Position(
            pos.seat,
            pos.names,
            pos.faces,
            pos.numbers,
            pos.hand,
            pos.sizes,
            pos.shown,
            pos.one_of,
            [],
            pos.refuted,
            pos.secret_seen,
        )
        return (possible_with_sizes_reference if with_sizes else possible_reference)(bare, pair)

    out = {
        "one of ignored": (
            one_of_ignored,
            "Your function keeps every pair that crossing out keeps: it does not use the "
            '"one of" answers. If Bob showed someone the Q♣ or the 8♥, the pair Q♣ 8♥ '
            "cannot be the secret, and neither can Q♣ with any number when the 8♥ is known "
            "to be elsewhere.",
        ),
        "exact pair only": (
            exact_pair_only,
            'You rule out only the pair a "one of" answer names. It also rules out a pair '
            "holding one of its cards when the other card cannot be in that hand (you "
            "hold it, it was shown to you by someone else, or that player said "
            '"neither" about it).',
        ),
        "one of as both": (
            one_of_as_both,
            'You read "showed one of Q♣ and 8♥" as "holds both". It says at least one; '
            "the other card may be anywhere, the secret included.",
        ),
        "neither ignored": (
            neither_ignored,
            'You did not use the "neither" answers: a player who said neither cannot '
            'hold those cards, so a "one of" from that player must be the other card.',
        ),
    }
    if with_sizes:  # checked first: the commonest mistake of exercise 3 (and on these positions the same
        del out["neither ignored"]  # answers as ignoring "neither", so that one is not told apart here)
        out = {
            "sizes forgotten": (
                possible_reference,
                "You forgot the hand sizes. Every hand holds exactly its size: when "
                "the cards you have placed fill a hand, it holds nothing else; when a "
                "hand has only as many possible cards as its size, it holds them all; "
                "and a card only one seat can still hold is in that seat's hand.",
            ),
            **out,
        }
    return out


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


def check_cross_out(fn: Callable[[Position], Any]) -> Check:
    """Check ``fn(pos) -> set of pairs`` (crossing out seen cards) on lesson 06's positions."""
    ex = "Lesson 06, exercise 1 (crossing out)"
    if (reply := _not_a_function(ex, fn)) is not None:
        return reply
    positions = lesson06_positions("cross_out")
    answers = []
    for i, pos in enumerate(positions, start=1):
        value, error = _run(fn, pos)
        if error:
            return Check(ex, "wrong", f"Not quite: on position {i} your function raised {error}.")
        if value is None:
            return _empty(ex, "cross_out(pos)")
        try:
            answers.append(_as_pairs(value, "cross_out(pos)"))
        except ValueError as e:
            return Check(ex, "wrong", f"Not quite: {e}")
    rights = [pos.knowledge.naive_candidates() for pos in positions]
    if answers != rights:
        return _wrong_pairs(
            ex, positions, answers, rights, CROSS_OUT_MISTAKES, lambda f, pos: f(pos), _naive_arithmetic
        )
    return Check(
        ex,
        "right",
        "Right: crossing out gives "
        + ", ".join(str(len(r)) for r in rights)
        + " pairs, as the engine counts. "
        + _naive_arithmetic(positions[0]),
    )


def _wrong_pairs(
    ex: str,
    positions: list,
    answers: list,
    rights: list,
    mistakes: Mapping,
    run: Callable,
    arithmetic: Callable[[Position], str],
) -> Check:
    """The reply to a wrong set of pairs: the known mistake it matches on every position (if
    any), the engine's answer and arithmetic on the first position it is wrong on."""
    name, hint = None, "Compare your pairs with the engine's below."
    for key, (mistake, text) in mistakes.items():
        try:
            if all(run(mistake, pos) == mine for pos, mine in zip(positions, answers)):
                name, hint = key, text
                break
        except Exception:  # noqa: BLE001 - a mistake model that cannot run here simply does not match
            continue
    i = next(j for j, (m, r) in enumerate(zip(answers, rights)) if m != r)
    pos, mine, right = positions[i], answers[i], rights[i]
    extra, missing = mine - right, right - mine
    lines = [
        f"Not quite: on position {i + 1} ({pos.names[pos.seat]}'s view): you have {len(mine)} pairs, "
        f"the engine {len(right)}.",
        "Hint: " + hint,
        "The engine: " + arithmetic(pos),
    ]
    if extra:
        lines.append(f"You keep pairs the engine rules out: {_pairs_text(extra)}.")
    if missing:
        lines.append(f"You rule out pairs that are still possible: {_pairs_text(missing)}.")
    lines.append("The position:\n  " + pos.describe().replace("\n", "\n  "))
    return Check(ex, "wrong", "\n".join(lines), name)


def _check_possible(fn: Callable, exercise: str, key: str, with_sizes: bool) -> Check:
    if (reply := _not_a_function(exercise, fn)) is not None:
        return reply
    mistakes = _lesson06_possible_mistakes(with_sizes)
    positions = lesson06_positions(key)
    answers = []
    for i, pos in enumerate(positions, start=1):
        mine: set[Pair] = set()
        for pair in sorted(cross_out_reference(pos), key=lambda p: (p[0].index, p[1].index)):
            value, error = _run(fn, pos, pair)
            if error:
                return Check(
                    exercise,
                    "wrong",
                    f"Not quite: on position {i}, pair "
                    f"{pair[0].symbol}{pair[1].symbol}, your function raised {error}.",
                )
            if value is None:
                return _empty(exercise, "your function")
            if value:
                mine.add(pair)
        answers.append(mine)
    rights = [pos.knowledge.candidates() for pos in positions]

    def arithmetic(pos: Position) -> str:
        start = cross_out_reference(pos)
        text = (
            f'crossing out leaves {len(start)} pairs; "one of" and "neither" logic leaves '
            f"{sum(1 for p in start if possible_reference(pos, p))}"
        )
        return text + (f"; with hand sizes, {len(pos.knowledge.candidates())}." if with_sizes else ".")

    if answers != rights:
        return _wrong_pairs(
            exercise,
            positions,
            answers,
            rights,
            mistakes,
            lambda f, pos: {p for p in cross_out_reference(pos) if f(pos, p)},
            arithmetic,
        )
    counts = ", ".join(f"{len(cross_out_reference(p))} -> {len(r)}" for p, r in zip(positions, rights))
    return Check(
        exercise,
        "right",
        f"Right: as the engine's full logic on every position: {counts} pairs (crossing out -> logic).",
    )


def check_possible(fn: Callable[[Position, Pair], Any]) -> Check:
    """Check ``fn(pos, pair) -> bool`` ("one of" and "neither" logic) against the engine."""
    return _check_possible(fn, 'Lesson 06, exercise 2 ("one of" and "neither")', "possible", False)


def check_possible_with_sizes(fn: Callable[[Position, Pair], Any]) -> Check:
    """Check ``fn(pos, pair) -> bool`` (logic with hand sizes) against the engine's candidates."""
    return _check_possible(fn, "Lesson 06, exercise 3 (hand sizes)", "sizes", True)


# --------------------------------------------------------------------------------------
# lesson 07: a small variant whose deals can all be listed
# --------------------------------------------------------------------------------------
MINI_FACES = tuple(FACE_CARDS[:4])
MINI_NUMBERS = tuple(NUMBER_CARDS[:6])
MINI_PLAYERS, MINI_HAND = 4, 2


def mini_position(seed: int, seat: int = 0, questions: int = 6) -> Position:
    """Seat ``seat``'s position in a seeded game of the small variant: 4 players, the face cards
    J♣ Q♣ K♣ J♦ and the number cards A♥-6♥ (24 pairs), 2 cards each, ``questions`` random
    questions answered (an answerer holding both shows one at random)."""
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
    """Every way to deal the cards ``pos``'s seat does not hold: one dict per deal, with
    ``"secret"`` -> (face, number) and each other seat -> the frozenset of its cards. Facts are
    NOT checked: deciding which deals agree with the answers is the student's part."""
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


def agrees_reference(pos: Position, deal: Mapping) -> bool:
    """Whether a deal agrees with every answer the seat has heard."""
    if any(s.card not in deal[s.seat] for s in pos.shown):
        return False
    if any(not ({o.face, o.number} & deal[o.seat]) for o in pos.one_of):
        return False
    if any({o.face, o.number} & deal[o.seat] for o in pos.neither):
        return False
    return tuple(deal["secret"]) not in set(pos.refuted)


def counts_reference(pos: Position) -> dict[Pair, int]:
    """The number of deals that agree with every answer, per secret pair (pairs with none left out)."""
    out: dict[Pair, int] = {}
    for deal in all_deals(pos):
        if agrees_reference(pos, deal):
            out[deal["secret"]] = out.get(deal["secret"], 0) + 1
    return out


def posterior_reference(pos: Position) -> dict[Pair, float]:
    """The exact probability of each pair: every agreeing deal counts 1, halved for each card
    shown to you by a player who held both named cards (they could have shown the other)."""
    weights: dict[Pair, float] = {}
    for deal in all_deals(pos):
        if not agrees_reference(pos, deal):
            continue
        w = 1.0
        for s in pos.shown:
            if s.other in deal[s.seat]:
                w /= 2
        weights[deal["secret"]] = weights.get(deal["secret"], 0.0) + w
    total = sum(weights.values())
    return {p: w / total for p, w in weights.items()}


#: seeds of the small variant's positions the lesson-07 checkers use (seat 0, 6 questions);
#: each has a card shown to seat 0 by a player who may have held both, so the 1/2 rule counts
LESSON07_SEEDS = (5, 6, 12)


def _as_numbers(value: Any, what: str) -> dict[Pair, float]:
    try:
        items = value.items()
    except AttributeError:
        raise ValueError(
            f"{what} must be a dict {{(face, number): number}}, not {type(value).__name__}"
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


def check_counts(fn: Callable[[Position], Any]) -> Check:
    """Check ``fn(pos) -> {pair: number of agreeing deals}`` against the engine's exact counts."""
    ex = "Lesson 07, exercise 1 (counting deals)"
    if (reply := _not_a_function(ex, fn)) is not None:
        return reply
    for i, seed in enumerate(LESSON07_SEEDS, start=1):
        pos = mini_position(seed)
        value, error = _run(fn, pos)
        if error:
            return Check(ex, "wrong", f"Not quite: on position {i} your function raised {error}.")
        if value is None:
            return _empty(ex, "count_deals(pos)")
        try:
            mine = _as_numbers(value, "count_deals(pos)")
        except ValueError as e:
            return Check(ex, "wrong", f"Not quite: {e}")
        right = {p: float(c) for p, c in pos.knowledge.counts().items()}
        if not _close(mine, right, 1e-9):
            every = {}
            for deal in all_deals(pos):
                every[deal["secret"]] = every.get(deal["secret"], 0) + 1
            name, hint = None, "Check each kind of answer against the deal: shown, one of, neither."
            if _close(mine, {p: float(c) for p, c in every.items()}, 1e-9):
                name, hint = (
                    "no facts",
                    (
                        "You counted every deal: a deal counts only if it agrees with every answer "
                        "(the shown "
                        'card in that hand, at least one of the two in a "one of" hand, neither in a '
                        '"neither" hand).'
                    ),
                )
            elif abs(sum(mine.values()) - 1) < 1e-6:
                name, hint = (
                    "probabilities",
                    ("This exercise asks for counts of deals (whole numbers), not probabilities."),
                )
            total = sum(right.values())
            return Check(
                ex,
                "wrong",
                "\n".join(
                    [
                        f"Not quite: on position {i}: you count {sum(mine.values()):g} deals in all, "
                        "the engine "
                        f"{total:g} "
                        f"(of {sum(every.values())} deals of the cards you do not hold).",
                        "Hint: " + hint,
                        "The engine's largest counts: " + _top(right, "g"),
                        "The position:\n  " + pos.describe().replace("\n", "\n  "),
                    ]
                ),
                name,
            )
    pos = mini_position(LESSON07_SEEDS[0])
    counts = pos.knowledge.counts()
    return Check(
        ex,
        "right",
        f"Right: your counts equal the engine's on every position (position 1: "
        f"{sum(counts.values())} agreeing deals; largest {_top(counts, 'g')}).",
    )


def check_posterior(fn: Callable[[Position], Any]) -> Check:
    """Check ``fn(pos) -> {pair: probability}`` against the engine's exact posterior (1/2 rule included)."""
    ex = "Lesson 07, exercise 2 (the posterior)"
    if (reply := _not_a_function(ex, fn)) is not None:
        return reply
    for i, seed in enumerate(LESSON07_SEEDS, start=1):
        pos = mini_position(seed)
        value, error = _run(fn, pos)
        if error:
            return Check(ex, "wrong", f"Not quite: on position {i} your function raised {error}.")
        if value is None:
            return _empty(ex, "posterior(pos)")
        try:
            mine = _as_numbers(value, "posterior(pos)")
        except ValueError as e:
            return Check(ex, "wrong", f"Not quite: {e}")
        right = pos.knowledge.posterior()
        if not _close(mine, right, 1e-9):
            counts = pos.knowledge.counts()
            total = sum(counts.values())
            flat = {p: c / total for p, c in counts.items()}
            name, hint = None, "Weigh each agreeing deal, add up per pair, then divide by the total."
            if _close(mine, flat, 1e-9):
                name, hint = (
                    "1/2 rule forgotten",
                    (
                        "You counted every agreeing deal once. A player who held both named cards "
                        "chose which "
                        "to show, and shows yours with probability 1/2: a deal in which the answerer "
                        "held both "
                        "counts 1/2 for each such answer."
                    ),
                )
            elif abs(sum(mine.values()) - 1) > 1e-6:
                name, hint = (
                    "not normalised",
                    (
                        f"Your numbers add up to {sum(mine.values()):.4g}, not 1: "
                        "divide each pair's weight by the total weight."
                    ),
                )
            return Check(
                ex,
                "wrong",
                "\n".join(
                    [
                        f"Not quite: on position {i}.",
                        "Hint: " + hint,
                        "The engine's exact posterior: " + _top(right, ".1%"),
                        "Yours: " + (_top(mine, ".1%") if mine else "(empty)"),
                        "The position:\n  " + pos.describe().replace("\n", "\n  "),
                    ]
                ),
                name,
            )
    return Check(
        ex,
        "right",
        "Right: your posterior equals the engine's exact one, the 1/2 rule included, on every position.",
    )


# --------------------------------------------------------------------------------------
# lesson 08: entropy and the information of a question
# --------------------------------------------------------------------------------------
def entropy_reference(probs: Mapping[Any, float] | list) -> float:
    """Shannon entropy in bits: sum of p log2(1/p) over the outcomes with p > 0."""
    values = probs.values() if isinstance(probs, Mapping) else probs
    return sum(-p * math.log2(p) for p in values if p > 0)


def information_reference(joint: Mapping[tuple[Any, Any], float]) -> float:
    """Expected information (bits) a question gives about the secret, from the joint law
    ``{(pair, outcome): probability}``: H(outcome) - H(outcome | pair), which is the entropy of
    the answer less what stays unpredictable once the secret is known."""
    outcome: dict = {}
    given: dict = {}  # pair -> {outcome: chance}, one pass (a scan per pair would be quadratic)
    for (p, o), v in joint.items():
        outcome[o] = outcome.get(o, 0.0) + v
        given.setdefault(p, {})[o] = given.get(p, {}).get(o, 0.0) + v
    h_outcome = entropy_reference(outcome)
    h_given = 0.0
    for laws in given.values():
        chance = sum(laws.values())
        if chance > 0:
            h_given += chance * entropy_reference([v / chance for v in laws.values()])
    return h_outcome - h_given


def answer_joint(pos: Position, target: int, face: Card, number: Card) -> dict[tuple[Pair, Any], float]:
    """The joint law of (secret pair, what the asker sees) for one question, by listing every
    deal of the small variant (weights as in :func:`posterior_reference`); the outcome is the card
    shown or None for "neither"; an answerer holding both shows each with probability 1/2."""
    face, number = Card.parse(face), Card.parse(number)
    joint: dict = {}
    total = 0.0
    for deal in all_deals(pos):
        if not agrees_reference(pos, deal):
            continue
        w = 1.0
        for s in pos.shown:
            if s.other in deal[s.seat]:
                w /= 2
        total += w
        hand = deal[target]
        held = [c for c in (face, number) if c in hand]
        outs = [(c, 1 / len(held)) for c in held] if held else [(None, 1.0)]
        for o, q in outs:
            key = (deal["secret"], o)
            joint[key] = joint.get(key, 0.0) + w * q
    return {key: v / total for key, v in joint.items()}


def question_joints(k: Knowledge, targets: list[int] | None = None) -> dict[tuple[int, Card, Card], dict]:
    """For every question (target, face, number) of a Five Sons position, the joint law
    ``{(pair, outcome): probability}`` the advisor works from (RULES.md's model), computed by
    the engine's exact counting rather than by listing deals (the full game has too many)."""
    import numpy as np

    from ..deduction.pair_advisor import single_thread, target_joint, two_groups
    from ..deduction.solve import solver_for

    spec, faces, numbers = two_groups(k)
    seats = [h for h in k.holders if isinstance(h, int)]
    targets = [s for s in seats if s != k.seat] if targets is None else list(targets)
    model = k.model()
    solver = solver_for(model, weighted=True)
    masks, _ = solver.sets[spec.holder]
    fset = set(faces)
    rows = []
    for m in masks.tolist():
        cards = sorted(model.known[spec.holder], key=lambda c: c.index) + [
            model.unknown[i] for i in range(model.n) if m >> i & 1
        ]
        a, b = cards
        rows.append((a, b) if a in fset else (b, a))
    cols = list(faces) + list(numbers)
    nf = len(faces)
    out: dict = {}
    with single_thread():
        for t in targets:
            joint, mem = target_joint(solver, t, cols)
            joint = joint / joint.sum()
            pp = joint.sum(axis=1)
            x = joint @ mem
            both = (mem[:, :nf, None] * mem[:, None, nf:]).reshape(len(mem), -1)
            y = (joint @ both).reshape(len(pp), nf, len(numbers))
            p_face = np.maximum(x[:, :nf, None] - 0.5 * y, 0.0)
            p_num = np.maximum(x[:, None, nf:] - 0.5 * y, 0.0)
            p_none = np.maximum(pp[:, None, None] - x[:, :nf, None] - x[:, None, nf:] + y, 0.0)
            live = [r for r in range(len(rows)) if pp[r] > 0]
            for i, f in enumerate(faces):
                for j, n in enumerate(numbers):
                    law: dict = {}
                    for r in live:
                        for o, v in ((f, p_face[r, i, j]), (n, p_num[r, i, j]), (None, p_none[r, i, j])):
                            if v > 0:
                                law[(rows[r], o)] = law.get((rows[r], o), 0.0) + float(v)
                    out[(t, f, n)] = law
    return out


LESSON08_SEED = 8  # the small position lesson 08 scores every question of (seat 0, 6 questions)


def check_entropy(fn: Callable[[Any], Any]) -> Check:
    """Check ``fn(probabilities) -> bits`` on a few laws and on a posterior of the small variant."""
    ex = "Lesson 08, exercise 1 (entropy)"
    if (reply := _not_a_function(ex, fn)) is not None:
        return reply
    pos = mini_position(LESSON08_SEED)
    cases = [
        ("a fair coin", [0.5, 0.5], 1.0),
        ("8 equally likely pairs", [1 / 8] * 8, 3.0),
        ("a certain outcome", [1.0, 0.0], 0.0),
        ("odds of 0.7 / 0.2 / 0.1", [0.7, 0.2, 0.1], None),
        ("the posterior of the small position", pos.knowledge.posterior(), pos.knowledge.entropy()),
    ]
    for what, law, right in cases:
        right = entropy_reference(law) if right is None else right
        arg = dict(law) if isinstance(law, dict) else list(law)
        value, error = _run(fn, arg)
        if error:
            hint = (
                " A probability of 0 adds nothing (0 log 0 = 0): skip it, as log(0) is undefined."
                if "domain" in error or "divide" in error
                else ""
            )
            return Check(ex, "wrong", f"Not quite: on {what}, your function raised {error}.{hint}", "error")
        if value is None:
            return _empty(ex, "entropy(probs)")
        try:
            v = float(value)
        except (TypeError, ValueError):
            return Check(
                ex, "wrong", f"Not quite: on {what}, entropy must be a number of bits, not {value!r}."
            )
        if abs(v - right) > 1e-9:
            name, hint = None, "H = sum over the outcomes of p x log2(1/p)."
            if right and abs(v - right * math.log(2)) < 1e-9:
                name, hint = "natural log", "You used the natural logarithm: bits need log2 (math.log2)."
            elif abs(v + right) < 1e-9:
                name, hint = "sign", "Your sign is wrong: log2(p) is negative, so H = -sum p log2(p)."
            return Check(
                ex,
                "wrong",
                f"Not quite: on {what} you get {v:.4f} bits; the right figure is {right:.4f}.\nHint: {hint}",
                name,
            )
    return Check(
        ex,
        "right",
        f"Right: a fair coin is 1 bit, 8 equal pairs 3 bits, and the small position's "
        f"posterior {pos.knowledge.entropy():.3f} bits, as the engine says "
        f"(as uncertain as {pos.knowledge.effective_candidates():.1f} equally likely pairs).",
    )


@lru_cache(maxsize=1)
def _lesson08() -> tuple[Position, list, list]:
    """Lesson 08's small position, the advisor's questions on it and each question's joint law
    (listed once per session: the check runs more than once in the lesson)."""
    pos = mini_position(LESSON08_SEED)
    advisor = pos.knowledge.questions()
    return pos, advisor, [answer_joint(pos, q.target, q.face, q.number) for q in advisor]


def check_information(fn: Callable[[Mapping], Any]) -> Check:
    """Check ``fn(joint) -> bits`` on every question of lesson 08's small position against the advisor."""
    ex = "Lesson 08, exercise 2 (expected information)"
    if (reply := _not_a_function(ex, fn)) is not None:
        return reply
    pos, advisor, joints = _lesson08()
    worst = None
    for q, joint in zip(advisor, joints):
        joint = dict(joint)  # a copy: the student's function may change what it is given
        value, error = _run(fn, joint)
        if error:
            return Check(
                ex,
                "wrong",
                f"Not quite: your function raised {error} on the question to "
                f"{pos.names[q.target]} about {q.face.symbol} {q.number.symbol}.",
            )
        if value is None:
            return _empty(ex, "information(joint)")
        try:
            v = float(value)
        except (TypeError, ValueError):
            return Check(ex, "wrong", f"Not quite: information must be a number of bits, not {value!r}.")
        if abs(v - q.info) > 1e-9:
            worst = (q, v, joint)
            break
    if worst is None:
        best = advisor[0]
        return Check(
            ex,
            "right",
            f"Right: your figures equal the advisor's on all {len(advisor)} "
            f"questions. The best is to ask {pos.names[best.target]} about {best.face.symbol} "
            f"{best.number.symbol}, {best.info:.3f} bits.",
        )
    q, v, joint = worst
    outcome: dict = {}
    for (_, o), p in joint.items():
        outcome[o] = outcome.get(o, 0.0) + p
    h_out = entropy_reference(outcome)
    name, hint = None, "Information = H(answer) - H(answer | secret pair)."
    if abs(v - h_out) < 1e-9:
        name, hint = (
            "answer entropy",
            (
                "You computed how unpredictable the answer is, H(answer). Part of that stays "
                "unpredictable even "
                "once the secret is known (the answerer's hand, the 1/2 choice), and tells nothing about the "
                "secret: subtract H(answer | secret pair)."
            ),
        )
    elif abs(v - q.info * math.log(2)) < 1e-9:
        name, hint = "natural log", "You used the natural logarithm: bits need log2."
    return Check(
        ex,
        "wrong",
        "\n".join(
            [
                f"Not quite: asking {pos.names[q.target]} about {q.face.symbol} {q.number.symbol}, you get "
                f"{v:.4f} bits; the advisor {q.info:.4f}.",
                "Hint: " + hint,
                f"The engine's arithmetic: H(answer) = {h_out:.4f} bits, "
                f"H(answer | pair) = {h_out - q.info:.4f}, "
                f"information = {h_out:.4f} - {h_out - q.info:.4f} = {q.info:.4f} bits.",
            ]
        ),
        name,
    )


def student_bot(
    information: Callable[[Mapping], float], entropy: Callable[[Any], float], seed: int | None = None
):
    """A Five Sons bot made of a student's functions: it asks the question whose ``information``
    (of the engine's joint law) is largest, claims when ``entropy`` of its exact posterior is 0,
    and shows a random card when it holds both. It reads only its seat's observation."""
    from ..engine.bots import FunctionBot
    from ..games.five_sons import Ask, Claim, NoClaim
    from ..games.five_sons.knowledge import knowledge_of

    rng = random.Random(seed)

    def act(obs: Mapping) -> Any:
        if obs["phase"] == "ask":
            k = knowledge_of(obs)
            targets = sorted({a.target for a in obs["legal"]})
            scored = [(float(information(law)), key) for key, law in question_joints(k, targets).items()]
            best = max(s for s, _ in scored)
            t, f, n = rng.choice([key for s, key in scored if s >= best - 1e-12])
            return Ask(t, f, n)
        if obs["phase"] == "claim":
            post = knowledge_of(obs).posterior()
            if float(entropy(post)) < 1e-9:
                return Claim(*max(post, key=post.get))
            return NoClaim()
        return rng.choice(obs["legal"])

    return FunctionBot(act, name="student's asker")


# --------------------------------------------------------------------------------------
# the known mistakes, by exercise (answer keys and tests feed them to the checkers)
# --------------------------------------------------------------------------------------
def _every_deal_counted(pos: Position) -> dict[Pair, int]:
    out: dict[Pair, int] = {}
    for deal in all_deals(pos):
        out[deal["secret"]] = out.get(deal["secret"], 0) + 1
    return out


def _half_rule_forgotten(pos: Position) -> dict[Pair, float]:
    counts = counts_reference(pos)
    total = sum(counts.values())
    return {p: c / total for p, c in counts.items()}


def _entropy_natural_log(probs: Any) -> float:
    values = probs.values() if isinstance(probs, Mapping) else probs
    return sum(-p * math.log(p) for p in values if p > 0)


def _answer_entropy(joint: Mapping[tuple[Any, Any], float]) -> float:
    outcome: dict = {}
    for (_, o), v in joint.items():
        outcome[o] = outcome.get(o, 0.0) + v
    return entropy_reference(outcome)


#: exercise -> mistake -> a function making it; each checker names the mistake it recognises
MISTAKES: dict[str, dict[str, Callable]] = {
    "cross_out": {name: fn for name, (fn, _) in CROSS_OUT_MISTAKES.items()},
    "possible": {name: fn for name, (fn, _) in _lesson06_possible_mistakes(False).items()},
    "sizes": {name: fn for name, (fn, _) in _lesson06_possible_mistakes(True).items()},
    "counts": {"no facts": _every_deal_counted},
    "posterior": {"1/2 rule forgotten": _half_rule_forgotten, "not normalised": counts_reference},
    "entropy": {"natural log": _entropy_natural_log},
    "information": {"answer entropy": _answer_entropy},
}

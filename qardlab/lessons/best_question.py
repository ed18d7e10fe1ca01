"""Lesson 08 (Build it: the best question): entropy and the information of a question, their mutations, the
two checkers, and the student's bot.

The student writes ``entropy(probs)`` (bits) and ``information(joint)`` (the expected information of a
question
about the secret, from the joint law of (secret pair, what the asker sees)). :func:`check_entropy` runs the
first on a few laws and a posterior of the small variant; :func:`check_information` the second on every
question
of lesson 08's small position against the advisor (``Knowledge.questions()``). Every mutation of
:data:`MUTATIONS` (natural log, a sign, H(answer) alone...) differs there, and is refused and named;
equivalent
rewrites (H(pair) - H(pair | answer), the sum of p log p / (p p)) pass. :func:`student_bot` turns the
student's
functions into a Five Sons bot for the full game (:func:`question_joints`: the joint laws by exact counting).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from ..cards import Card
from ..deduction.knowledge import Knowledge
from .checking import Mutation, function_check, mutation_fn, name_mistake, run
from .counting_deals import REFERENCE, all_deals, mini_position
from .exercises import Exercise, Reply, right, wrong
from .position import Position

__all__ = [
    "entropy_reference",
    "information_reference",
    "answer_joint",
    "question_joints",
    "LESSON08_SEED",
    "MUTATIONS",
    "mistake",
    "check_entropy",
    "check_information",
    "student_bot",
    "EXERCISES",
]

Pair = tuple[Card, Card]
LESSON = "08-build-best-question"
LESSON08_SEED = 8  # the small position lesson 08 scores every question of (seat 0, 6 questions)


def entropy_reference(probs: Mapping[Any, float] | list) -> float:
    """Shannon entropy in bits: sum of p log2(1/p) over the outcomes with p > 0."""
    values = probs.values() if isinstance(probs, Mapping) else probs
    return sum(-p * math.log2(p) for p in values if p > 0)


def information_reference(joint: Mapping[tuple[Any, Any], float]) -> float:
    """Expected information (bits) a question gives about the secret, from the joint law
    ``{(pair, outcome): probability}``: H(outcome) - H(outcome | pair), the entropy of the answer less what
    stays unpredictable once the secret is known."""
    h_outcome = entropy_reference(_outcomes(joint))
    h_given = 0.0
    for laws in _given(joint).values():
        chance = sum(laws.values())
        if chance > 0:
            h_given += chance * entropy_reference([v / chance for v in laws.values()])
    return h_outcome - h_given


def answer_joint(pos: Position, target: int, face: Card, number: Card) -> dict[tuple[Pair, Any], float]:
    """The joint law of (secret pair, what the asker sees) for one question, by listing every deal of the
    small variant (weights as in lesson 07's posterior); the outcome is the card shown or None for "neither";
    an answerer holding both shows each with probability 1/2."""
    face, number = Card.parse(face), Card.parse(number)
    joint: dict = {}
    total = 0.0
    for deal in all_deals(pos):
        if not REFERENCE.agrees(pos, deal):
            continue
        w = REFERENCE.weight(pos, deal)
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
    ``{(pair, outcome): probability}`` the advisor works from (RULES.md's model), computed by the engine's
    exact counting rather than by listing deals (the full game has too many)."""
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


# -- mistakes a student makes ----------------------------------------------------------------------------


def _values(probs: Any) -> list[float]:
    return list(probs.values() if isinstance(probs, Mapping) else probs)


def _outcomes(joint: Mapping) -> dict:
    out: dict = {}
    for (_, o), v in joint.items():
        out[o] = out.get(o, 0.0) + v
    return out


def _given(joint: Mapping) -> dict:
    """pair -> {outcome: chance}, in one pass (a scan per pair would be quadratic)."""
    given: dict = {}
    for (p, o), v in joint.items():
        given.setdefault(p, {})[o] = given.get(p, {}).get(o, 0.0) + v
    return given


def _h_given_unweighted(joint: Mapping) -> float:
    laws = [law for law in _given(joint).values() if sum(law.values()) > 0]
    return sum(entropy_reference([v / sum(law.values()) for v in law.values()]) for law in laws) / len(laws)


def _h_pairs(joint: Mapping) -> float:
    return entropy_reference([sum(law.values()) for law in _given(joint).values()])


MUTATIONS: dict[str, list[Mutation]] = {
    "entropy": [
        Mutation(
            "natural log",
            lambda ps: sum(-p * math.log(p) for p in _values(ps) if p > 0),
            "Bits need the logarithm in base 2: which logarithm does your function take?",
        ),
        Mutation(
            "log base 10",
            lambda ps: sum(-p * math.log10(p) for p in _values(ps) if p > 0),
            "Bits need the logarithm in base 2: which logarithm does your function take?",
        ),
        Mutation(
            "sign",
            lambda ps: sum(p * math.log2(p) for p in _values(ps) if p > 0),
            "Your figures are negative: log2 of a chance below 1 is negative. Look at the sign of each term.",
        ),
        Mutation(
            "unweighted",
            lambda ps: sum(-math.log2(p) for p in _values(ps) if p > 0),
            "Each outcome's surprise, log2(1/p), counts as often as the outcome happens: look at what you "
            "multiply it by.",
        ),
        Mutation(
            "zero not skipped",
            lambda ps: sum(-p * math.log2(p) for p in _values(ps)),
            "A chance of 0 adds nothing (0 log 0 counts as 0), but log2(0) is undefined: look at the "
            "outcomes "
            "of chance 0.",
        ),
    ],
    "information": [
        Mutation(
            "answer entropy",
            lambda j: entropy_reference(_outcomes(j)),
            "You computed how unpredictable the answer is, H(answer). Part of that would stay unpredictable "
            "even if the secret were known: look at H(answer | pair).",
        ),
        Mutation(
            "natural log",
            lambda j: information_reference(j) * math.log(2),
            "Bits need the logarithm in base 2.",
        ),
        Mutation(
            "unweighted average",
            lambda j: entropy_reference(_outcomes(j)) - _h_given_unweighted(j),
            "H(answer | pair) is an average over the pairs weighed by their chances: look at how you "
            "average.",
        ),
        Mutation(
            "added",
            lambda j: (
                entropy_reference(_outcomes(j)) + (entropy_reference(_outcomes(j)) - information_reference(j))
            ),
            "Information is H(answer) less what stays unpredictable: look at the sign of H(answer | pair).",
        ),
        Mutation(
            "secret entropy",
            _h_pairs,
            "You computed how uncertain the secret is, H(pair): the question removes only part of that. Look "
            "at what the answer tells.",
        ),
    ],
}


def mistake(exercise: str, name: str) -> Callable[..., Any]:
    """The function of the named mistake of ``exercise`` (the answer keys' wrong answers are these)."""
    return mutation_fn(MUTATIONS, exercise, name)


# -- the checkers ------------------------------------------------------------------------------------------

EXERCISES = {"entropy": Exercise(LESSON, "entropy"), "information": Exercise(LESSON, "information")}


def _entropy_cases() -> list[tuple[str, Any, float]]:
    pos = mini_position(LESSON08_SEED)
    return [
        ("a fair coin", [0.5, 0.5], 1.0),
        ("8 equally likely pairs", [1 / 8] * 8, 3.0),
        ("a certain outcome", [1.0, 0.0], 0.0),
        ("odds of 0.7 / 0.2 / 0.1", [0.7, 0.2, 0.1], entropy_reference([0.7, 0.2, 0.1])),
        ("the posterior of the small position", pos.knowledge.posterior(), pos.knowledge.entropy()),
    ]


def _judge_entropy(fn: Callable) -> Reply:
    mine: list[Any] = []
    cases = _entropy_cases()
    for what, law, _want in cases:
        arg = dict(law) if isinstance(law, dict) else list(law)
        value, error = run(fn, arg)
        if error:
            mine.append(("error", error))
            continue
        if value is None:
            return Reply("empty", ("Write your answer first: entropy(probs) still returns None.",))
        try:
            mine.append(round(float(value), 9))
        except (TypeError, ValueError):
            return wrong(
                f"on {what}, entropy must be a number of bits, not {value!r}.", key=("shape", repr(value))
            )
    bad = [i for i, ((_, _, want), got) in enumerate(zip(cases, mine)) if got != round(want, 9)]
    if not bad:
        pos = mini_position(LESSON08_SEED)
        return right(
            "a fair coin is 1 bit, 8 equal pairs 3 bits, a certainty 0, and the small position's posterior "
            f"{pos.knowledge.entropy():.3f} bits, as the engine says (as uncertain as "
            f"{pos.knowledge.effective_candidates():.1f} equally likely pairs).",
        )
    found = name_mistake([mine], [None], MUTATIONS["entropy"], lambda f, _p: _entropy_answers(f, cases))
    what, law, want = cases[bad[0]]
    got = mine[bad[0]]
    said = f"your function raised {got[1]}" if isinstance(got, tuple) else f"you get {got:.4f} bits"
    lines = [
        f"on {what} {said}.",
        "Hint: " + (found.hint if found else "H = the sum over the outcomes of p x log2(1/p)."),
    ]
    solution = [
        f"On {what} the entropy is {want:.4f} bits: H = sum of p x log2(1/p) over the outcomes with p > 0."
    ]
    return wrong(*lines, solution=solution, mistake=found.name if found else None, key=repr(mine))


def _entropy_answers(fn: Callable, cases: list) -> list[Any]:
    out: list[Any] = []
    for _what, law, _want in cases:
        value, error = run(fn, dict(law) if isinstance(law, dict) else list(law))
        out.append(("error", error) if error else round(float(value), 9))
    return out


@lru_cache(maxsize=1)
def _lesson08() -> tuple[Position, list, list]:
    """Lesson 08's small position, the advisor's questions on it and each question's joint law (listed once a
    session: the check runs more than once in the lesson)."""
    pos = mini_position(LESSON08_SEED)
    advisor = pos.knowledge.questions()
    return pos, advisor, [answer_joint(pos, q.target, q.face, q.number) for q in advisor]


def _information_answers(fn: Callable) -> list[Any]:
    _pos, _advisor, joints = _lesson08()
    out: list[Any] = []
    for joint in joints:
        value, error = run(fn, dict(joint))  # a copy: the student's function may change what it is given
        if error:
            out.append(("error", error))
            continue
        try:
            out.append(round(float(value), 9))
        except (TypeError, ValueError):
            out.append(("shape", repr(value)))
    return out


def _judge_information(fn: Callable) -> Reply:
    pos, advisor, joints = _lesson08()
    first, error = run(fn, dict(joints[0]))
    if not error and first is None:
        return Reply("empty", ("Write your answer first: information(joint) still returns None.",))
    mine = _information_answers(fn)
    bad = [i for i, (q, got) in enumerate(zip(advisor, mine)) if got != round(q.info, 9)]
    if not bad:
        best = advisor[0]
        return right(
            f"your figures equal the advisor's on all {len(advisor)} questions. The best is to ask "
            f"{pos.names[best.target]} about {best.face.symbol} {best.number.symbol}, {best.info:.3f} bits.",
        )
    found = name_mistake([mine], [None], MUTATIONS["information"], lambda f, _p: _information_answers(f))
    i = bad[0]
    q, got, joint = advisor[i], mine[i], joints[i]
    asked = f"asking {pos.names[q.target]} about {q.face.symbol} {q.number.symbol}"
    if isinstance(got, tuple):
        said = f"your function raised {got[1]}" if got[0] == "error" else f"your function returned {got[1]}"
    else:
        said = f"you get {got:.4f} bits"
    h_out = entropy_reference(_outcomes(joint))
    lines = [
        f"{asked}, {said}.",
        "Hint: " + (found.hint if found else "information = H(answer) - H(answer | secret pair)."),
    ]
    solution = [
        f"The engine's arithmetic for {asked}: H(answer) = {h_out:.4f} bits, H(answer | pair) = "
        f"{h_out - q.info:.4f}, information = {h_out:.4f} - {h_out - q.info:.4f} = {q.info:.4f} bits.",
    ]
    return wrong(*lines, solution=solution, mistake=found.name if found else None, key=repr(mine))


def check_entropy(fn: Any) -> Reply:
    """Check ``fn(probabilities) -> bits`` on a few laws and on a posterior of the small variant."""
    return function_check(EXERCISES["entropy"], fn, _judge_entropy)


def check_information(fn: Any) -> Reply:
    """Check ``fn(joint) -> bits`` on every question of lesson 08's small position against the advisor."""
    return function_check(EXERCISES["information"], fn, _judge_information)


def student_bot(
    information: Callable[[Mapping], float], entropy: Callable[[Any], float], seed: int | None = None
):
    """A Five Sons bot made of a student's functions: it asks the question whose ``information`` (of the
    engine's joint law) is largest, claims when ``entropy`` of its exact posterior is 0, and shows a random
    card
    when it holds both. It reads only its seat's observation."""
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

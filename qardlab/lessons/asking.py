"""Lesson 04 (asking good questions): what an answer's unpredictability is, what it tells, and an experiment.

- :func:`answer_entropy`: how unpredictable a question's answer is, H(answer), in bits, from the advisor's
  outcome probabilities;
- :func:`answer_entropy_given_secret`: what stays unpredictable once the secret is known, H(answer | secret),
  computed directly: for each secret pair still possible, the engine's answer probabilities with that pair
  added to the seat's facts, weighed by the pair's probability;
- the information a question gives about the secret (the advisor's ``info``) is the difference of the two:
  I(secret; answer) = H(answer) - H(answer | secret). An answer can be unpredictable because of the other
  players' hands, which the asker does not care about; only the part that depends on the secret informs.
- :func:`questions_to_certainty` and :func:`run_experiment`: the lesson's experiment, Alice asking in one of
  four ways (:data:`STRATEGIES`) while the others ask at random, counting her questions until she is certain.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from ..deduction import SECRET, Fact, Knowledge
from ..deduction.advise import Question
from ..games.five_sons import Ask, FiveSons, NoClaim, phrase
from ..games.five_sons.knowledge import knowledge_of

__all__ = ["answer_entropy", "answer_entropy_given_secret", "most_unpredictable", "question_lines",
           "STRATEGIES", "questions_to_certainty", "run_experiment"]


def answer_entropy(q: Question) -> float:
    """H(answer) in bits: how unpredictable the answer the asker will see is (face shown, number shown,
    neither), from the advisor's outcome probabilities."""
    return max(0.0, -sum(p * math.log2(p) for p in q.outcomes.values() if p > 0))


def _with_secret(k: Knowledge, face: Any, number: Any) -> Knowledge:
    """A copy of ``k`` that also knows the secret pair is (face, number)."""
    return k.with_facts(Fact.has(SECRET, face), Fact.has(SECRET, number))


def answer_entropy_given_secret(k: Knowledge, q: Question) -> float:
    """H(answer | secret) in bits, computed directly (see the module docstring): what would stay
    unpredictable about the answer if the asker knew the secret pair."""
    total = 0.0
    for (face, number), p in k.posterior().items():
        known = _with_secret(k, face, number)
        same = next(x for x in known.questions([q.target]) if (x.face, x.number) == (q.face, q.number))
        total += p * answer_entropy(same)
    return total


def most_unpredictable(questions: list[Question]) -> Question:
    """The question whose answer is hardest to predict (highest H(answer)): the one whose answers are
    closest to even chances."""
    return max(questions, key=answer_entropy)


def question_lines(q: Question, names: Mapping[int, str] | list[str],
                   k: Knowledge | None = None) -> list[str]:
    """A question, the chances of its answers and its bits, as lines to print. With ``k`` also the split
    information = H(answer) - H(answer | secret), the second term computed directly."""
    who = names[q.target]
    out = [f"Ask {who}: {phrase(q.face, q.number)}"]
    for card, p in q.outcomes.items():
        what = f"shows the {card.symbol}" if card is not None else "has neither"
        out.append(f"   {p:6.1%}  {who} {what}")
    h = answer_entropy(q)
    if k is None:
        out.append(f"   answer unpredictable by {h:.2f} bits; information about the secret {q.info:.3f} bits")
    else:
        rest = answer_entropy_given_secret(k, q)
        out.append(f"   H(answer) = {h:.3f} bits, H(answer | secret) = {rest:.3f} bits: "
                   f"information = {h:.3f} - {rest:.3f} = {h - rest:.3f} bits (advisor: {q.info:.3f})")
    return out


# -- the experiment ------------------------------------------------------------------------------------


def _random_question(k: Knowledge, obs: dict, rng: random.Random) -> Any:
    return rng.choice(obs["legal"])


def _possible_pair_question(k: Knowledge, obs: dict, rng: random.Random) -> Any:
    face, number = rng.choice(sorted(k.candidates()))
    return Ask(rng.choice(sorted({a.target for a in obs["legal"]})), face, number)


def _advisor_question(k: Knowledge, obs: dict, rng: random.Random) -> Any:
    q = k.questions()[0]
    return Ask(q.target, q.face, q.number)


#: way of playing -> (how Alice asks, how she counts the pairs still possible)
STRATEGIES: dict[str, tuple[Callable[..., Any], Callable[[Knowledge], int]]] = {
    "random questions, crossing out": (_random_question, lambda k: len(k.naive_candidates())),
    "random questions, full logic": (_random_question, lambda k: len(k.candidates())),
    "possible pairs, full logic": (_possible_pair_question, lambda k: len(k.candidates())),
    "advisor, full logic": (_advisor_question, lambda k: len(k.candidates())),
}


def questions_to_certainty(seed: int, ask: Callable[..., Any], count: Callable[[Knowledge], int],
                           cap: int = 30, seat: int = 0) -> int | None:
    """``seat``'s own questions until it is certain of the pair (None: not within ``cap``).

    Nobody claims; the other seats ask at random, and an answerer holding both named cards shows one at
    random (forced answers are played at once, so the random draws go only to real choices).
    """
    g = FiveSons.new(players=4, seed=seed)
    rng = random.Random(seed)
    asked = 0
    while True:
        s = g.to_move
        if g.phase == "claim":
            g.apply(NoClaim())
            continue
        obs = g.observation(s)
        if s == seat and g.phase == "ask":
            k = knowledge_of(obs)
            if count(k) == 1:
                return asked
            if asked == cap:
                return None
            g.play(ask(k, obs, rng))  # the forced answers at once: rng draws only for choices
            asked += 1
        else:
            g.play(rng.choice(obs["legal"]))


def run_experiment(games: int, cap: int = 30, first_seed: int = 1000,
                   progress: Callable[[], None] | None = None) -> dict[str, list[int | None]]:
    """Each way of playing of :data:`STRATEGIES` on ``games`` seeded games: questions to certainty."""
    results: dict[str, list[int | None]] = {}
    for name, (ask, count) in STRATEGIES.items():
        results[name] = []
        for i in range(games):
            results[name].append(questions_to_certainty(first_seed + i, ask, count, cap))
            if progress is not None:
                progress()
    return results

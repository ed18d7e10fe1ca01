"""The probability bot: asks the most informative question, claims when it is sure enough.

It sees only its seat's observation, builds its :class:`~qardlab.deduction.Knowledge`
from it, asks the question with the most expected information about the secret pair
(:mod:`qardlab.deduction.pair_advisor`; ties broken by its own seeded RNG), and claims the most
probable pair once that pair's exact posterior reaches ``threshold`` (1.0 by default:
it claims only when certain). Holding both named cards, it shows one at random; a forced
answer it gives as its single legal action.
"""

from __future__ import annotations

import random
from typing import Any

from ...engine import Observation, forced_in
from ...engine.game import check_seed
from .actions import Ask, Claim, NoClaim
from .knowledge import SeatKnowledge

__all__ = ["ProbabilityBot"]

#: posteriors within this of the threshold count as reaching it (float rounding)
_EPS = 1e-9


class ProbabilityBot:
    """Best question by expected information; claims when the top pair's probability >= threshold."""

    level = "probability"

    def __init__(self, seed: int | None = None, threshold: float = 1.0) -> None:
        number = isinstance(threshold, (int, float)) and not isinstance(threshold, bool)
        if not number or not 0.0 < threshold <= 1.0:
            raise ValueError(f"threshold must be a number in (0, 1], got {threshold!r}")
        self.rng = random.Random(check_seed(seed))
        self.threshold = threshold
        #: the seat's knowledge, read from each observation's new events only
        self.knowledge = SeatKnowledge()

    def candidates(self, obs: Observation) -> set:
        return set(self.knowledge(obs).candidates())

    def act(self, obs: Observation) -> Any:
        forced = forced_in(obs)
        if forced is not None:  # a forced answer: the single legal action, and no draw
            return forced
        phase = obs["phase"]
        legal = obs["legal"]
        if phase == "ask":
            from ...deduction.pair_advisor import best_questions

            targets = sorted({a.target for a in legal})
            # the questions with the most information (within 1e-12 bits), in the advisor's order
            q = self.rng.choice(best_questions(self.knowledge(obs), targets))
            return Ask(q.target, q.face, q.number)
        if phase == "claim":
            post = self.knowledge(obs).posterior()
            pair, p = max(post.items(), key=lambda kv: kv[1])
            if p >= self.threshold - _EPS:
                return Claim(*pair)
            return NoClaim()
        return self.rng.choice(legal)

    def __repr__(self) -> str:
        return f"ProbabilityBot(threshold={self.threshold})"

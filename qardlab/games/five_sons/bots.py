"""Five Sons bots. Each sees only its seat's observation (the engine's ``Bot`` protocol).

- :class:`RandomAsker` asks random legal questions, shows a random card when it has a
  choice, and claims only when crossing out the cards it has seen leaves one pair.
- :class:`ReasoningBot` asks only about pairs that full logic (``Knowledge.candidates()``)
  still allows, and claims when one pair is left.

Both answer every question put to them: a forced answer is their single legal action, given
without a draw. Both draw every choice from their own seeded RNG, so a game of bots replays exactly. Either
may be given a memory limit (RULES.md, "notes or memory"): with ``memory=k`` the bot reasons
from the deal and the last ``k`` questions only, as a player without notes might.
"""

from __future__ import annotations

import random
from typing import Any

from ...engine import Observation, forced_in
from ...engine.game import check_seed
from .actions import Ask, Claim, NoClaim
from .knowledge import SeatKnowledge

__all__ = ["RandomAsker", "ReasoningBot"]


class RandomAsker:
    """Random questions; claims when its naive candidates (seen cards crossed out) leave one pair."""

    level = "naive"

    def __init__(self, seed: int | None = None, memory: int | None = None) -> None:
        if memory is not None and (isinstance(memory, bool) or not isinstance(memory, int) or memory < 0):
            raise ValueError(f"memory must be a number of questions (0 or more) or None, not {memory!r}")
        self.rng = random.Random(check_seed(seed))
        self.memory = memory
        #: the seat's knowledge, read from each observation's new events only
        self.knowledge = SeatKnowledge()

    def remembered(self, obs: Observation) -> Observation:
        """The observation as this bot remembers it: the deal and its last ``memory`` questions."""
        if self.memory is None:
            return obs
        asks = [e["step"] for e in obs["events"] if e["kind"] == "ask"]
        if len(asks) <= self.memory:
            return obs
        cutoff = asks[len(asks) - self.memory] if self.memory else obs["step"]
        events = [e for e in obs["events"] if e["kind"] == "deal" or e["step"] >= cutoff]
        return Observation({**obs, "events": events})

    def candidates(self, obs: Observation) -> set:
        return set(self.knowledge(self.remembered(obs)).naive_candidates())

    def act(self, obs: Observation) -> Any:
        forced = forced_in(obs)
        if forced is not None:  # a forced answer: the single legal action, and no draw
            return forced
        if obs["phase"] == "claim":
            return self._claim_or_pass(obs)
        return self.rng.choice(obs["legal"])

    def _claim_or_pass(self, obs: Observation) -> Any:
        left = self.candidates(obs)
        if len(left) == 1:
            face, number = next(iter(left))
            return Claim(face, number)
        return NoClaim()

    def __repr__(self) -> str:
        memory = "" if self.memory is None else f"memory={self.memory}"
        return f"{type(self).__name__}({memory})"


class ReasoningBot(RandomAsker):
    """Asks about a random pair still logically possible; claims when only one is left."""

    level = "logic"

    def candidates(self, obs: Observation) -> set:
        return set(self.knowledge(self.remembered(obs)).candidates())

    def act(self, obs: Observation) -> Any:
        if obs["phase"] == "ask":
            legal = obs["legal"]
            targets = sorted({a.target for a in legal})
            pairs = sorted(self.candidates(obs))
            if not pairs:  # pragma: no cover - the secret pair is always a candidate
                return self.rng.choice(legal)
            face, number = self.rng.choice(pairs)
            return Ask(self.rng.choice(targets), face, number)
        return super().act(obs)

"""What a seat can know about where the cards are: facts, exact counting, explanations, advice.

:class:`Knowledge` (built by a game's adapter from one seat's observation) carries the
facts and exposes the reasoning as methods: ``naive_candidates()``, ``candidates()``,
``posterior()``, ``entropy()``, ``grid(level)``, ``explain(card, holder)``,
``questions()``. The work is done in :mod:`.solve` (exact counting), :mod:`.explain`
(grid and explanations), :mod:`.advise` (expected information of questions) and
:mod:`.history` (candidates after each step of a game).
"""

from .knowledge import PLAYED, SECRET, Fact, Holder, Knowledge

__all__ = ["Knowledge", "Fact", "Holder", "SECRET", "PLAYED"]

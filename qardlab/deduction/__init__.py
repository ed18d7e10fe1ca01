"""What a seat can know about where the cards are: facts, exact counting, explanations, advice.

:class:`Knowledge` (built by a game's adapter from one seat's observation) carries the
facts and exposes the reasoning as methods: ``naive_candidates()``, ``candidates()``,
``posterior()``, ``entropy()``, ``grid(level)``, ``explain(card, holder)``,
``questions()``. The work is done in :mod:`.solve` (exact counting), :mod:`.explain`
(grid and explanations), :mod:`.advise` (expected information of questions) and
:mod:`.history` (candidates after each step of a game).
"""

# The solver (and numpy, ~60 ms of CPU to import) is loaded with the package, not at the first
# question a lesson asks of it: a first click then waits only for the counting (issue 14).
from . import solve as _solve  # noqa: F401  (imported for its side effect: loaded now)
from .knowledge import PLAYED, SECRET, Fact, Holder, Knowledge

__all__ = ["Knowledge", "Fact", "Holder", "SECRET", "PLAYED"]

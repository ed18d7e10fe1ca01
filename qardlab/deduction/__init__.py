"""What a seat can know about where the cards are: facts, exact counting, explanations, advice.

A :class:`Knowledge` (built by a game's adapter from one seat's observation) is a value
holding the facts; it exposes the reasoning as methods: ``naive_candidates()``,
``candidates()``, ``posterior()``, ``entropy()``, ``grid(level)``, ``cell(card, holder)``,
``explain(card, holder)``, ``questions()``. More facts make a new value:
``k.with_facts(Fact.has(1, "QC"))``, ``k + fact``, ``k.upto(step)``. The work is done in
:mod:`.solve` (exact counting), :mod:`.explain` (grid and explanations), :mod:`.pair_advisor`
(expected information of questions) and :mod:`.history` (candidates after each step of a
game); the value types they share are in :mod:`.facts`. Nothing here knows a game.

The adapter contract: what a game supplies
-------------------------------------------
A game joins the deduction engine with one function of its own, ``knowledge_of(obs) ->
Knowledge``, reading one seat's observation only (and ``Game.knowledge(seat)`` calling it).
It returns ``Knowledge(seat, cards, holders, sizes, game=..., names=..., facts=...,
secret=..., words=...)`` with:

- ``cards``: every card whose place matters; ``holders``: the seats (ints ``0..n-1``) and
  any places (strings, e.g. ``"secret"``, ``"played"``); ``sizes``: cards per holder now
  (adding up to ``len(cards)``);
- ``facts``: :class:`Fact` values (``Fact.has``, ``has_not``, ``one_of``, ``shown``,
  ``none_of``, ``void``, ``exactly``, ``not_both``), each with its ``step`` and the
  ``text`` a student reads, phrased for the seat;
- ``secret`` (games with a secret): a :class:`SecretSpec` -- the groups the secret takes
  ``picks`` cards of, its holder, a noun per group, and its :class:`QuestionModel` (the
  event kind of a question, the event kinds that add no fact, ``mode`` "chosen" or
  "pass_left"); its rules become facts;
- ``names`` (how the seats are called, "you" for the seat itself) and ``words``: a
  :class:`PlaceWords` for each place ("the secret pair", "{card} is in the secret pair").

Then ``candidates()`` / ``posterior()`` are over tuples of the secret's cards, group by group;
``grid``, ``explain`` and :func:`~qardlab.deduction.history.candidate_history` work for any
such game; the advisor (``questions()``) for a secret of two groups of one card.
"""

# The solver (and numpy, ~60 ms of CPU to import) is loaded with the package, not at the first
# question a lesson asks of it: a first click then waits only for the counting (issue 14).
from . import solve as _solve  # noqa: F401  (imported for its side effect: loaded now)
from .facts import PLAYED, SECRET, Fact, PlaceWords, QuestionModel, SecretSpec
from .knowledge import Knowledge

__all__ = ["Knowledge", "Fact", "SECRET", "PLAYED", "SecretSpec", "QuestionModel", "PlaceWords"]

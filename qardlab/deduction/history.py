"""How one seat's candidate secrets shrink over a game, at three levels.

``candidate_history(record_or_game, seat)`` gives one row per step at which the seat
learned something (the deal, each answer, each wrong claim...): the naive count (seen
cards crossed out), the logic count (candidates with a consistent deal), the effective
count (2 ** entropy of the exact posterior) and the entropy in bits. Widgets and lessons
chart it. :class:`SeatHistory` gives the same counts position by position, computed
incrementally, for a table that steps through a record (or whose record grows in live play).

Nothing here knows a game: the seat's knowledge comes from the game's adapter
(``game.knowledge(seat)``), and the question model of its secret
(:class:`~qardlab.deduction.facts.QuestionModel`) says which event kind starts a question
(the turn numbers) and which event kinds add no fact (the rows a table can reuse).

The seat's knowledge is built once, from its final observation; the knowledge at an
earlier step is the same knowledge restricted to the facts of that step or before (every
fact carries its step), so the game is not replayed per step. Holders whose facts did
not change between two steps reuse their zeta transforms (solve.py's cache); early steps,
where some cards are named by no fact, take solve.py's ranked count over the named cards.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Sequence, Union

from ..engine import Game, Record
from .facts import KnowledgeLike, QuestionModel

__all__ = ["HistoryRow", "candidate_history", "knowledge_at", "counts_row", "SeatHistory"]


@dataclass(frozen=True)
class HistoryRow:
    """The seat's candidates after ``step`` (``turn``: the question number, 0 before any)."""

    step: int
    turn: int
    naive: int
    logic: int
    effective: float
    entropy: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def knowledge_at(k: Any, step: int) -> Any:
    """The knowledge restricted to facts from ``step`` or before (rules always kept): ``k.upto(step)``."""
    return k.upto(step)


def counts_row(k: Any) -> dict[str, Any]:
    """``{"naive", "logic", "effective", "entropy"}`` of a Knowledge with a secret."""
    entropy = k.entropy()
    return {
        "naive": len(k.naive_candidates()),
        "logic": len(k.candidates()),
        "effective": 2.0**entropy,
        "entropy": entropy,
    }


def _questions(k: KnowledgeLike) -> QuestionModel | None:
    """The secret's question model (None: nobody asks about the secret, so no turn is a question's)."""
    if k.secret is None:
        raise ValueError(f"{k.game or 'this game'} has no secret: there are no candidates to count")
    return k.secret.questions


def _game_of(source: Union[Game, Record]) -> Game:
    if isinstance(source, Record):
        return source.replay()
    if isinstance(source, Game):
        return source
    raise ValueError(f"expected a game or a record, got {type(source).__name__}")


def candidate_history(source: Union[Game, Record], seat: int) -> list[HistoryRow]:
    """One row per step at which ``seat`` learned something; see the module docstring."""
    game = _game_of(source)
    if not hasattr(game, "knowledge"):
        raise ValueError(f"{game.name or type(game).__name__} has no knowledge adapter")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
        raise ValueError(f"seat {seat!r} is not a seat of this game (0..{game.players - 1})")
    final = game.knowledge(seat)
    model = _questions(final)
    ask = None if model is None else model.event
    steps = sorted({f.step for f in final.facts if f.step is not None})
    # question numbers by step, from the seat's own view of the log
    turn_at: dict[int, int] = {}
    turn = 0
    for ev in game.events.view(seat):
        if ev["kind"] == ask:
            turn = ev.get("turn", turn + 1)
        turn_at[ev["step"]] = turn
    rows = []
    for s in steps:
        rows.append(HistoryRow(step=s, turn=turn_at.get(s, 0), **counts_row(final.upto(s))))
    return rows


class SeatHistory:
    """Rows ``{"step", "turn", "naive", "logic", "effective", "entropy"}`` for one seat of a record,
    one per position, computed incrementally (``turn``: the question number, as in
    :class:`HistoryRow`; the tables chart against it).

    A table steps one position at a time and, in live play, its record only grows; so the
    rows are kept and only new positions are computed. A seat's knowledge changes only when
    it sees a new fact, so a step whose events are all quiet (the question model's
    ``quiet`` kinds) keeps the previous row without building the knowledge, and a position
    whose knowledge equals the previous one's (:attr:`Knowledge.key`) reuses its row: the
    solver runs once per answer, not once per step.
    """

    def __init__(self, record: Record, seat: int, steps: Sequence[Any] | None = None) -> None:
        self.record = record
        self.seat = seat
        #: every step of the history, forced answers included (positions count these)
        self.steps = list(record.replay().history if steps is None else steps)
        self._game = record.replay(0)
        self._pos = 0
        self._key: tuple | None = None
        self._row: dict[str, Any] | None = None
        self._quiet: frozenset[str] = frozenset()
        self._ask: str | None = None  # the event kind that starts a question (the question model's)
        self._turn = 0
        self.rows: list[dict[str, Any]] = []  # one per position 0.._pos - 1 that had a deal

    def upto(self, position: int) -> list[dict[str, Any]]:
        """The rows for positions 1..position (position 0 is before the deal)."""
        steps = self.steps
        while self._pos < min(position, len(steps)):
            g = self._game
            g.apply(steps[self._pos])
            self._pos += 1
            self.rows.append(self._row_now())
        return [r for r in self.rows if r["step"] <= position]

    def _row_now(self) -> dict[str, Any]:
        g = self._game
        # the kinds of this step's events the seat saw: the log's tail, not a scan of it all
        new: set[str] = set()
        for e in reversed(g.events):
            if e.step != self._pos - 1:
                break
            if e.visible_to(self.seat):
                new.add(e.kind)
                if e.kind == self._ask:
                    self._turn = int(e.public.get("turn", self._turn + 1))
        if self._row is not None and new <= self._quiet:
            # nothing that could change the counts
            return {"step": self._pos, "turn": self._turn, **self._row}
        k = g.knowledge(self.seat)
        model = _questions(k)
        if model is not None:
            self._quiet, self._ask = model.quiet, model.event
        if k.key != self._key or self._row is None:
            self._row = counts_row(k)
            self._key = k.key
        return {"step": self._pos, "turn": self._turn, **self._row}

"""The candidate counts of one seat after each step, computed incrementally for a table.

A table steps one position at a time and, in live play, its record only grows; so the
rows are kept and only new positions are computed. A seat's knowledge changes only when
it sees a new fact, so a position whose facts equal the previous one's reuses its row:
the solver runs once per answer, not once per step.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..engine import Record

__all__ = ["SeatHistory"]

#: events that add no fact about where the cards are (a question carries no information, per
#: RULES.md; a pass on claiming neither); a step with only these keeps the previous counts
_NO_NEWS = frozenset({"ask", "no_claim"})


class SeatHistory:
    """Rows ``{"step", "naive", "logic", "effective", "entropy"}`` for one seat of a record."""

    def __init__(self, record: Record, seat: int, steps: Sequence[Any] | None = None) -> None:
        self.record = record
        self.seat = seat
        #: every step of the history, forced answers included (positions count these)
        self.steps = list(record.replay().history if steps is None else steps)
        self._game = record.replay(0)
        self._pos = 0
        self._key: tuple | None = None
        self._row: dict[str, Any] | None = None
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
        if self._row is not None and new <= _NO_NEWS:
            return {"step": self._pos, **self._row}  # nothing that could change the counts
        k = g.knowledge(self.seat)
        key = (tuple((f.kind, f.holder, f.cards, f.count) for f in k.facts),
               tuple(sorted((str(h), n) for h, n in k.sizes.items())))
        if key != self._key or self._row is None:
            entropy = k.entropy()
            self._row = {"naive": len(k.naive_candidates()), "logic": len(k.candidates()),
                         "effective": 2.0 ** entropy, "entropy": entropy}
            self._key = key
        return {"step": self._pos, **self._row}

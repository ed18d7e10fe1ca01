"""How one seat's candidate secret pairs shrink over a Five Sons game, at three levels.

``candidate_history(record_or_game, seat)`` gives one row per step at which the seat
learned something (the deal, each answer, each wrong claim...): the naive count (seen
cards crossed out), the logic count (pairs with a consistent deal), the effective count
(2 ** entropy of the exact posterior) and the entropy in bits. Widgets and lessons chart
it.

The seat's knowledge is built once, from its final observation; the knowledge at an
earlier step is the same knowledge restricted to the facts of that step or before (every
fact carries its step), so the game is not replayed per step. Holders whose facts did
not change between two steps reuse their zeta transforms (solve.py's cache); early steps,
where some cards are named by no fact, take solve.py's ranked count over the named cards.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Union

from ..engine import Game, Record
from .knowledge import Knowledge

__all__ = ["HistoryRow", "candidate_history", "knowledge_at"]


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


def knowledge_at(k: Knowledge, step: int) -> Knowledge:
    """The knowledge restricted to facts from ``step`` or before (rules always kept)."""
    return Knowledge(
        seat=k.seat, cards=k.cards, holders=k.holders, sizes=dict(k.sizes), game=k.game,
        names=k.names, facts=[f for f in k.facts if f.step is None or f.step <= step], extra=dict(k.extra),
    )


def _game_of(source: Union[Game, Record]) -> Game:
    if isinstance(source, Record):
        return source.replay()
    if isinstance(source, Game):
        return source
    raise ValueError(f"expected a Five Sons game or record, got {type(source).__name__}")


def candidate_history(source: Union[Game, Record], seat: int) -> list[HistoryRow]:
    """One row per step at which ``seat`` learned something; see the module docstring."""
    game = _game_of(source)
    if not hasattr(game, "knowledge"):
        raise ValueError(f"{game.name or type(game).__name__} has no knowledge adapter")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
        raise ValueError(f"seat {seat!r} is not a seat of this game (0..{game.players - 1})")
    final = game.knowledge(seat)
    steps = sorted({f.step for f in final.facts if f.step is not None})
    # question numbers by step, from the seat's own view of the log
    turn_at: dict[int, int] = {}
    turn = 0
    for ev in game.events.view(seat):
        if ev["kind"] == "ask":
            turn = ev.get("turn", turn + 1)
        turn_at[ev["step"]] = turn
    rows = []
    for s in steps:
        k = knowledge_at(final, s)
        entropy = k.entropy()
        rows.append(HistoryRow(step=s, turn=turn_at.get(s, 0), naive=len(k.naive_candidates()),
                               logic=len(k.candidates()), effective=2.0 ** entropy, entropy=entropy))
    return rows

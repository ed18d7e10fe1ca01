"""ipywidgets views over games: tables, a stepper, deduction grids and charts.

``table(g, seat=None)`` gives the game's table (seat None: the teacher's view);
``five_sons_app()`` and ``hearts_app()`` a whole game against bots in one cell.
No game rules live here: widgets render states and pass clicks to ``apply()``.
"""

from __future__ import annotations

from typing import Any

from .base import GameTable
from .cards import HandView
from .grid import DeductionGrid
from .stepper import Stepper

__all__ = ["table", "five_sons_app", "hearts_app", "GameTable", "HandView", "DeductionGrid", "Stepper"]


def table(g: Any, seat: int | None = None, **kwargs: Any) -> GameTable:
    """The table widget of ``g`` (a game or a Record), from ``seat``'s view (None: teacher)."""
    name = getattr(g, "name", None) or getattr(g, "game", None)
    if name == "five_sons":
        from .five_sons import FiveSonsTable

        return FiveSonsTable(g, seat, **kwargs)
    if name == "hearts":
        from .hearts import HeartsTable

        return HeartsTable(g, seat, **kwargs)
    raise ValueError(f"no table widget for game {name!r} (known: 'five_sons', 'hearts')")


def five_sons_app(**kwargs: Any) -> Any:
    """A complete Five Sons game against bots, in one cell (Voila-ready).

    Locked to the player's seat: no control shows another seat's cards. ``teacher=True``
    (only for a teacher's screen) adds the teacher's view. See :class:`~.apps.FiveSonsApp`.
    """
    from .apps import FiveSonsApp

    return FiveSonsApp(**kwargs)


def hearts_app(**kwargs: Any) -> Any:
    """A complete Hearts match against bots, in one cell (Voila-ready).

    Locked to the player's seat; ``teacher=True`` adds the teacher's view (see
    :class:`~.apps.HeartsApp`).
    """
    from .apps import HeartsApp

    return HeartsApp(**kwargs)

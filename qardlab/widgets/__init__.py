"""ipywidgets views over games: tables, a stepper, deduction grids and charts.

``table(g, seat=None)`` gives the game's table (seat None: the teacher's view), found by the game's
name (each game class names its table; a game that names none gets the generic table);
``app(name)`` a whole game against bots in one cell, for any game (``five_sons_app()`` and ``hearts_app()``
the two games' own).
No game rules live here: widgets render states and pass clicks to ``apply()``.
"""

from __future__ import annotations

from typing import Any

from .base import GameTable
from .cards import HandView
from .finder import table_class
from .grid import DeductionGrid
from .stepper import Stepper

__all__ = [
    "table",
    "table_class",
    "app",
    "five_sons_app",
    "hearts_app",
    "GameTable",
    "HandView",
    "DeductionGrid",
    "Stepper",
]


def table(g: Any, seat: int | None = None, **kwargs: Any) -> GameTable:
    """The table widget of ``g``, from ``seat``'s view (None: teacher).

    ``g`` is a game, a Record, a Source, or a game's name (``"five_sons"``, ``"hearts"``, any game
    registered by import): a name deals a new game, ``find_game(name).new(players=..., seed=...)``,
    with ``players`` and ``seed`` taken from ``kwargs`` if given (else the game's defaults); the rest
    goes to the table. See :func:`table_class`.
    """
    cls = table_class(g)
    if isinstance(g, str):
        from ..engine.registry import find_game

        game_cls = find_game(g)
        new = {k: kwargs.pop(k) for k in ("players", "seed") if k in kwargs}
        g = game_cls.new(**new)
    return cls(g, seat, **kwargs)


def app(game: Any, **kwargs: Any) -> Any:
    """A complete game against bots, in one cell (Voila-ready), for any game: ``game`` a game class or its
    registry name (``"five_sons"``, ``"hearts"``, any game registered by import).

    Its players, bot levels and their words come from the game class (``player_counts()``, ``bot_levels``,
    ``bot_level_titles``), its table from ``table_class``: a game with no app of its own gets
    :class:`~.apps.GameApp` over its table (the generic one for a game that names none). Locked to the
    player's seat; ``teacher=True`` (only for a teacher's screen) adds the teacher's view. ``kwargs`` are
    the app class's (``players``, ``seed``, ``level``, ``charts``, ``teacher``, ...).
    """
    from .apps import GameApp, app_class

    cls = app_class(game)
    return cls(game, **kwargs) if cls is GameApp else cls(**kwargs)


def five_sons_app(**kwargs: Any) -> Any:
    """A complete Five Sons game against bots, in one cell (Voila-ready): ``app("five_sons")``.

    Locked to the player's seat: no control shows another seat's cards. ``teacher=True``
    (only for a teacher's screen) adds the teacher's view. See :class:`~.apps.FiveSonsApp`.
    """
    return app("five_sons", **kwargs)


def hearts_app(**kwargs: Any) -> Any:
    """A complete Hearts match against bots, in one cell (Voila-ready): ``app("hearts")``.

    Locked to the player's seat; ``teacher=True`` adds the teacher's view (see
    :class:`~.apps.HeartsApp`).
    """
    return app("hearts", **kwargs)

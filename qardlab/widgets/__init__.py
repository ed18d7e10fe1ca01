"""ipywidgets views over games: tables, a stepper, deduction grids and charts.

``table(g, seat=None)`` gives the game's table (seat None: the teacher's view), found by the game's
name (each game class names its table; a game that names none gets the generic table);
``five_sons_app()`` and ``hearts_app()`` a whole game against bots in one cell.
No game rules live here: widgets render states and pass clicks to ``apply()``.
"""

from __future__ import annotations

from typing import Any

from ..engine import Game
from .base import GameTable
from .cards import HandView
from .grid import DeductionGrid
from .stepper import Stepper

__all__ = [
    "table",
    "table_class",
    "five_sons_app",
    "hearts_app",
    "GameTable",
    "HandView",
    "DeductionGrid",
    "Stepper",
]


def _game_name(x: Any) -> Any:
    """The game name of a name, a game, a Record or a Timeline (``game``), or a Source (``game_name``)."""
    if isinstance(x, str):
        return x
    if isinstance(x, Game):
        return x.name
    for attr in ("game_name", "game"):
        value = getattr(x, attr, None)
        if isinstance(value, (str, Game)):
            return _game_name(value)
    return None


def table_class(game: Any) -> type[GameTable]:
    """The table widget class of ``game`` (a game, a Record, a Source, a game class or a game's name).

    Found by the game's name (:func:`qardlab.engine.registry.find_game`): the game class names its table
    as ``table_widget = "module:Class"`` (imported only now, so engines and games never import
    ipywidgets); a game that names none gets :class:`~.generic.GenericTable`, drawn from its
    observations alone. ValueError naming an unknown game.
    """
    from ..engine.registry import find_game, import_object

    if isinstance(game, type) and issubclass(game, Game):
        cls = game
    else:
        name = _game_name(game)
        try:
            cls = find_game(name)
        except ValueError as e:
            raise ValueError(f"no table widget for {e}") from None
    if cls.table_widget:
        return import_object(cls.table_widget)
    from .generic import GenericTable

    return GenericTable


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

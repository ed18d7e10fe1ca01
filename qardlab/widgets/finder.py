"""Which table draws a game: ``table_class`` (a module of its own, so that the apps and the replays find a
game's table without importing the package's ``__init__``, which imports them)."""

from __future__ import annotations

from typing import Any

from ..engine import Game
from .base import GameTable

__all__ = ["table_class"]


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

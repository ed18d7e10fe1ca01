"""The games by name, and the lazy references between layers.

A game joins qardlab by being imported: its :class:`~qardlab.engine.game.Game` subclass registers itself
here by its ``name`` (``Game.__init_subclass__`` calls :func:`register`). :func:`find_game` finds a game by
that name, importing ``qardlab.games.<name>`` on first use, so that a record (``record.py``) can name its
game without this module, or the record module, importing ``game.py``: the engine's modules import one
way (``game`` -> ``record`` -> ``registry``), with no circle.

:func:`import_object` resolves the ``"module:name"`` strings by which the lower layers name the upper ones
(a game's knowledge adapter, table widget and bots).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Any

__all__ = ["GAMES", "register", "find_game", "package_games", "game_names", "import_object"]

#: the registered games by name (``Game.registry`` is this same dict); records look games up here
GAMES: dict[str, type] = {}


def register(cls: type) -> None:
    """Register the game class ``cls`` under its ``name``; ValueError when another class holds the name (two
    games under one name, or one module imported under two names: records would replay as either)."""
    old = GAMES.get(cls.name)  # type: ignore[attr-defined]
    where = f"{cls.__module__}.{cls.__qualname__}"
    if old is not None and f"{old.__module__}.{old.__qualname__}" != where:
        raise ValueError(
            f"game name {cls.name!r} of {where} is taken by {old.__module__}.{old.__qualname__}"  # type: ignore[attr-defined]
        )
    GAMES[cls.name] = cls  # type: ignore[attr-defined]


def find_game(name: Any) -> type:
    """The game class registered as ``name``: a game joins by being imported (its ``Game`` subclass
    registers itself by its ``name``), and a game of the package, ``qardlab.games.<name>``, is
    imported here on first use. ValueError naming an unknown game and listing the known ones.
    """
    if isinstance(name, str) and name not in GAMES and re.fullmatch(r"[a-z][a-z0-9_]*", name):
        try:
            importlib.import_module(f"qardlab.games.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"qardlab.games.{name}":
                raise
    cls = GAMES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown game {name!r}; known: {sorted(GAMES)}")
    return cls


def package_games() -> tuple[str, ...]:
    """The names of the games of the package (each folder of ``qardlab/games`` is the game of its name,
    as :func:`find_game` looks it up), none of them imported."""
    from .. import games

    return tuple(sorted(m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg))


def game_names() -> tuple[str, ...]:
    """The names of the games of the package (:func:`package_games`), imported and registered."""
    return tuple(sorted(find_game(name).name for name in package_games()))


def import_object(path: str) -> Any:
    """The object that ``"package.module:name"`` names, imported now (lazy references between layers)."""
    module, _, attr = path.partition(":")
    if not module or not attr:
        raise ValueError(f"{path!r} is not a 'module:name' reference")
    return getattr(importlib.import_module(module), attr)

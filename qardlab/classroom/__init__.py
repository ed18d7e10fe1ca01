"""Classroom tables: a server holding each table's one game, each seat sent only its own observations.

``qardlab serve`` runs the server (:mod:`qardlab.classroom.server`, logic in
:mod:`qardlab.classroom.tables`, storage in :mod:`qardlab.classroom.store`); the protocol is
in ``docs/classroom.md``. Importing this package imports neither Tornado nor ipywidgets, nor the
server's tables: ``BOT_LEVELS`` (every game's bot levels, so every game imported) is loaded at its
first use, so a notebook that only joins a table loads no game it does not play.
"""

from typing import Any

__all__ = ["BOT_LEVELS", "RemoteSource", "JoinRefused", "join"]

from .client import JoinRefused, RemoteSource
from .join import join


def __getattr__(name: str) -> Any:
    if name == "BOT_LEVELS":
        from .tables import BOT_LEVELS

        return BOT_LEVELS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

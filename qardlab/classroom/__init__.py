"""Classroom tables: a server holding each table's one game, each seat sent only its own observations.

``qardlab serve`` runs the server (:mod:`qardlab.classroom.server`, logic in
:mod:`qardlab.classroom.tables`, storage in :mod:`qardlab.classroom.store`); the protocol is
in ``docs/classroom.md``. Importing this package imports neither Tornado nor ipywidgets.
"""

__all__ = ["BOT_LEVELS", "RemoteSource", "JoinRefused", "join"]

from .client import JoinRefused, RemoteSource
from .join import join
from .tables import BOT_LEVELS

"""The teacher's side of a classroom server, for a notebook: start a server, create tables, hand out the
codes, read the tables. One place to import from (``from qardlab.classroom.teacher import ...``); each
part lives in the module of its concern:

- :class:`LocalServer` (``qardlab serve`` in a subprocess: the teacher's laptop, or a lesson run alone under
  nbval) and :class:`ThreadServer` (the same server in a thread of this process: lesson 09's practice
  table), in :mod:`qardlab.classroom.local`;
- :class:`Teacher`: the teacher's HTTP requests with the token, in :mod:`qardlab.classroom.api`;
- :func:`join_sheet`, :func:`join_sheet_view`, :func:`codes_html`, :func:`join_link`: what is handed to
  students (seats' codes only),
  in :mod:`qardlab.classroom.sheets`;
- :func:`side_by_side`: a finished table's record at every seat's view at once, in
  :mod:`qardlab.classroom.replay`.
"""

from __future__ import annotations

from .api import Teacher, TeacherError, seat_names
from .local import LocalServer, ThreadServer
from .replay import side_by_side
from .sheets import codes_html, join_link, join_sheet, join_sheet_view

__all__ = [
    "LocalServer",
    "ThreadServer",
    "Teacher",
    "TeacherError",
    "side_by_side",
    "codes_html",
    "join_sheet",
    "join_link",
    "join_sheet_view",
    "seat_names",
]

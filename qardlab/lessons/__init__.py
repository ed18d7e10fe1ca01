"""Helpers for the lessons: positions in plain terms, the build-it-yourself checkers, the notepad grid.

Modules (imported one by one, so that a lesson loads only what it uses):

- :mod:`qardlab.lessons.position`: a seat's view as plain lists a student can read
  (:class:`~qardlab.lessons.position.Position`), from a game or from a short history in words;
- :mod:`qardlab.lessons.build`: the checkers and the small variant of lessons 06-08;
- :mod:`qardlab.lessons.notepad`: the printable notepad grid (``python -m qardlab.lessons.notepad out.svg``).
"""

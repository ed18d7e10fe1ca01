"""Helpers for the lessons in notebooks/: what a lesson needs but a student should not have to read.

Each module serves one or a few lessons (the checking of exercises, the experiments, the search for the
moment a rule bites); the lessons import them by module, e.g. ``from qardlab.lessons.exercises import check``:

- :mod:`qardlab.lessons.exercises`: reading what a person types and replying to an answer;
- :mod:`qardlab.lessons.position`: a seat's view as plain lists a student can read
  (:class:`~qardlab.lessons.position.Position`), from a game or from a short history in words;
- :mod:`qardlab.lessons.build`: the checkers and the small variant of the build-it-yourself lessons 06-08;
- :mod:`qardlab.lessons.notepad`: the printable notepad grid (``python -m qardlab.lessons.notepad out.svg``).
"""

"""Helpers for the lessons in notebooks/: what a lesson needs but a student should not have to read.

Each module serves one or a few lessons (the checking of exercises, the experiments, the search for the
moment a rule bites); the lessons import them by module, e.g. ``from qardlab.lessons.exercises import check``.
"""

"""Helpers for the lessons in notebooks/: what a lesson needs but a student should not have to read.

A lesson's check cells call one module of its own (their logic lives here, their source is hidden in the
notebook); the shared parts are:

- :mod:`qardlab.lessons.exercises`: reading what a person types, replying to an answer (a hint first, the
  worked answer after a second wrong answer or a click), recording the progress, the answer keys;
- :mod:`qardlab.lessons.checking`: what the build-it checkers share (running a student's function, naming its
  mistake, choosing the positions by search);
- :mod:`qardlab.lessons.position`: a seat's view as plain lists a student can read
  (:class:`~qardlab.lessons.position.Position`), from a game or from a short history in words;
- :mod:`qardlab.lessons.progress`: a class's collected notebooks read into a table of progress;
- :mod:`qardlab.lessons.notepad`: the printable notepad grid (``python -m qardlab.lessons.notepad out.svg``).

One module per lesson: 01 :mod:`~qardlab.lessons.first_game`, 02 :mod:`~qardlab.lessons.answer_tells`,
03 :mod:`~qardlab.lessons.three_ways`, 04 :mod:`~qardlab.lessons.asking`, 05 :mod:`~qardlab.lessons.memory`,
06 :mod:`~qardlab.lessons.crossing_out`, 07 :mod:`~qardlab.lessons.counting_deals`,
08 :mod:`~qardlab.lessons.best_question`, 09 :mod:`~qardlab.lessons.together` (the practice table) and
:mod:`~qardlab.lessons.table_review` (its exercises), 10 :mod:`~qardlab.lessons.first_hand`,
11 :mod:`~qardlab.lessons.card_counting`, 12 :mod:`~qardlab.lessons.hearts_compare`; 10 and 11 share
:mod:`~qardlab.lessons.hearts_hand` (one hand and its moments), 01 and 03 :mod:`~qardlab.lessons.pairs`.
"""

"""Lesson 09 (Play together): the two exercises about the student's own table, once its game is over.

:class:`TableReview` reads a finished table's record (the server gives it to anyone once the game is over) and
counts, for every seat after every answer, the pairs its own observation still holds possible by full logic,
as that seat's grid does. The exercises ask about the student's own game, so their answers differ from table
to table and are computed here:

1. ``table-fewest``: after question 7 (or the game's last question, if it ended sooner), whose grid had the
   fewest pairs left? (:func:`check_fewest`; ties: any of them.)
2. ``table-biggest``, the transfer to the student's own seat and another moment: which of those answers took
   the most pairs out of *your* grid? (:func:`check_biggest`; a question number.)

:meth:`TableReview.replay` shows the game side by side from its first step: the student moves the slider to
answer; nothing printed gives the answers away.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import Record, Timeline
from ..games.five_sons.knowledge import knowledge_of
from .exercises import Exercise, Reply, read_name, read_number, right, wrong
from .together import LESSON_QUESTION, questions, record_of

__all__ = ["TableReview", "review", "check_fewest", "check_biggest", "EXERCISES"]

LESSON = "09-play-together"
EXERCISES = {"fewest": Exercise(LESSON, "table-fewest"), "biggest": Exercise(LESSON, "table-biggest")}


@dataclass
class TableReview:
    """A finished game's pair counts, seat by seat and answer by answer (see the module); ``seat`` is the
    student's own."""

    record: Record
    seat: int
    names: list[str] = field(init=False)
    #: counts[k][s]: seat s's pairs still possible by logic after the answer to question k (k = 0: before
    #: the first answer); before[k][s]: the same just before the answer to question k
    counts: list[list[int]] = field(init=False)
    before: list[list[int]] = field(init=False)

    def __post_init__(self) -> None:
        tl = Timeline(self.record)
        first = tl.state_at(0)
        self.names = [first.seat_name(s) for s in range(self.record.players)]
        qs = questions(self.record)
        players = range(self.record.players)

        def count(position: int) -> list[int]:
            g = tl.state_at(position)
            return [len(knowledge_of(g.observation_json(s)).candidates()) for s in players]

        self.counts = [count(qs[0].step - 1) if qs else count(tl.last)]
        self.before = [self.counts[0]]
        for q in qs:
            self.before.append(count(q.step - 1))
            self.counts.append(count(q.step))

    @property
    def questions(self) -> int:
        """How many questions were answered."""
        return len(self.counts) - 1

    def question(self, wanted: int = LESSON_QUESTION) -> int:
        """The question the exercises ask about: ``wanted``, or the last one if the game ended sooner."""
        return max(1, min(wanted, self.questions))

    def fewest(self, k: int) -> list[int]:
        """The seats with the fewest pairs left after question ``k``."""
        low = min(self.counts[k])
        return [s for s, c in enumerate(self.counts[k]) if c == low]

    def removed(self, k: int, seat: int) -> int:
        """How many pairs the answer to question ``k`` took out of ``seat``'s grid."""
        return self.before[k][seat] - self.counts[k][seat]

    def biggest(self, k: int, seat: int) -> list[int]:
        """The questions 1..k whose answer took the most pairs out of ``seat``'s grid."""
        most = max(self.removed(j, seat) for j in range(1, k + 1))
        return [j for j in range(1, k + 1) if self.removed(j, seat) == most]

    def key(self, exercise: str) -> tuple[Any, list[Any]]:
        """This table's right answer and two wrong ones for ``exercise`` (the test suite types them)."""
        k = self.question()
        if exercise == "table-fewest":
            good = self.fewest(k)
            bad = [self.names[s] for s in range(len(self.names)) if s not in good]
            return self.names[good[0]], bad[:2] if len(bad) >= 2 else bad * 2
        good = self.biggest(k, self.seat)
        bad = [j for j in range(1, k + 1) if j not in good] + [k + 1, k + 2]
        return good[0], bad[:2]

    def replay(self) -> Any:
        """Every seat side by side, from the first step (move the slider to read the grids)."""
        from ..classroom.teacher import side_by_side

        return side_by_side(self.record, at=0)


def review(url: str, table: int | None, seat: int) -> TableReview | None:
    """The review of table ``table`` at ``url`` from ``seat``'s chair, or None (saying why) while the game is
    not over or the table is not known."""
    if table is None:
        print("Set TABLE to your table's number (your teacher has it) to review your game.")
        return None
    try:
        record = record_of(url, table)
    except OSError as e:
        print(f"Your table's game is not over yet (the server says: {e}); run this cell again when it is.")
        return None
    return TableReview(record, seat)


def _pairs(n: int) -> str:
    return f"{n} pair" if n == 1 else f"{n} pairs"


def _not_ready() -> Reply:
    return Reply(
        "empty",
        ("Your table's game is not over yet: run the review cell again once it is, then this one.",),
    )


def check_fewest(answer: Any, rev: TableReview | None) -> Reply:
    """Exercise 1: whose grid had the fewest pairs left after question 7 (or the last question)."""
    if rev is None:
        return _not_ready()
    k = rev.question()
    good = rev.fewest(k)
    counts = ", ".join(f"{rev.names[s]} {c}" for s, c in enumerate(rev.counts[k]))
    solution = [
        f"After question {k}: {counts} pairs still possible by logic.",
        "Fewest: " + " and ".join(rev.names[s] for s in good) + ".",
    ]

    def judge(seat: int) -> Reply:
        if seat in good:
            return right(
                f"after question {k}, {rev.names[seat]}'s grid had the fewest pairs left, "
                f"{rev.counts[k][seat]}.",
                *solution,
            )
        return wrong(
            f"{rev.names[seat]}'s grid did not have the fewest pairs after question {k}.",
            f"Hint: move the replay's slider to the step just after the answer to question {k}: each column "
            "says how many pairs that seat still holds possible by logic. Compare the columns.",
            solution=solution,
        )

    return EXERCISES["fewest"].check(
        answer,
        read_name({n: s for s, n in enumerate(rev.names)}),
        judge,
        example=f'"{rev.key("table-fewest")[1][0]}"',  # a name at the table, never the answer
    )


def check_biggest(answer: Any, rev: TableReview | None) -> Reply:
    """Exercise 2: which answer, among questions 1..7, took the most pairs out of the student's own grid."""
    if rev is None:
        return _not_ready()
    k = rev.question()
    me = rev.names[rev.seat]
    good = rev.biggest(k, rev.seat)
    steps = [f"question {j}: {rev.before[j][rev.seat]} -> {rev.counts[j][rev.seat]}" for j in range(1, k + 1)]
    solution = [f"Your ({me}'s) pairs, before and after each answer: " + "; ".join(steps) + "."]

    def judge(value: Any) -> Reply:
        if not (isinstance(value, int) and 1 <= value <= k):
            return wrong(
                f"{value} is not one of questions 1 to {k}.",
                "Hint: give the number of the question whose answer it was.",
                solution=solution,
            )
        if value in good:
            return right(
                f"the answer to question {value} took {_pairs(rev.removed(value, rev.seat))} out of your "
                "grid, the most.",
                *solution,
            )
        return wrong(
            f"the answer to question {value} took {_pairs(rev.removed(value, rev.seat))} out of your "
            "grid; another took more.",
            f"Hint: in your own column ({me}'s view), step the slider from each question to the next and "
            "watch the count of pairs: where does it drop most? A card shown to you drops it most.",
            solution=solution,
        )

    example = str(rev.key("table-biggest")[1][0])  # a question's number, never the answer
    return EXERCISES["biggest"].check(answer, read_number, judge, example=example)

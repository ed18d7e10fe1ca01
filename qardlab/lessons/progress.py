"""A class's progress, read from their saved notebooks.

Every check of a lesson records, in the metadata of the reply it shows (``{"qardlab": {...}}``, saved in
the notebook with the output), the exercise, its verdict, the tries, the wrong answers so far and whether the
worked answer was shown (:meth:`qardlab.lessons.exercises.Exercise.record`). A teacher who collects the
class's notebooks (by hand, from a learning platform, or with nbgrader or otter-grader: see
``docs/teacher/collecting-progress.md``) reads them all at once::

    python -m qardlab.lessons.progress submitted/            # a table, one line per student and exercise
    python -m qardlab.lessons.progress submitted/ --csv progress.csv

A student is named by the folder of their notebook (nbgrader's ``submitted/<student>/<assignment>/``, or one
folder per student); when all the notebooks share one folder, by the file's name. The record is what the
student's kernel saw: a restarted kernel counts again from zero, and a notebook saved before a check was run
has no record of it.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Record", "read_notebook", "collect", "summary", "main"]

#: folder names of nbgrader's steps: the student's folder comes after one of them
_NBGRADER_STEPS = ("submitted", "autograded", "feedback")


@dataclass(frozen=True)
class Record:
    """One student's last recorded check of one exercise."""

    student: str
    notebook: str
    lesson: str
    exercise: str
    verdict: str
    right: bool
    tries: int
    wrong: tuple[str, ...]
    solution_shown: bool
    mistake: str = ""

    def row(self) -> dict[str, Any]:
        return {
            "student": self.student,
            "notebook": self.notebook,
            "lesson": self.lesson,
            "exercise": self.exercise,
            "verdict": self.verdict,
            "right": self.right,
            "tries": self.tries,
            "wrong answers": " | ".join(self.wrong),
            "solution shown": self.solution_shown,
            "last mistake": self.mistake,
        }


def read_notebook(path: Path, student: str = "") -> list[Record]:
    """The records of one notebook: for each exercise, the last check's progress (in the cells' order)."""
    try:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read the notebook {path}: {e}") from None
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            p = out.get("metadata", {}).get("qardlab")
            if isinstance(p, dict) and {"lesson", "exercise", "verdict"} <= set(p):
                found[p["lesson"], p["exercise"]] = p
    return [
        Record(
            student=student or Path(path).stem,
            notebook=Path(path).name,
            lesson=str(p["lesson"]),
            exercise=str(p["exercise"]),
            verdict=str(p["verdict"]),
            right=bool(p.get("right", False)),
            tries=int(p.get("tries", 0)),
            wrong=tuple(str(w) for w in p.get("wrong", [])),
            solution_shown=bool(p.get("solution_shown", False)),
            mistake=str(p.get("mistake", "")),
        )
        for p in found.values()
    ]


def _notebooks(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(q for q in p.rglob("*.ipynb") if ".ipynb_checkpoints" not in q.parts)
        elif p.suffix == ".ipynb" and p.exists():
            out.append(p)
        else:
            raise ValueError(f"{p} is neither a notebook nor a folder of notebooks")
    return out


def _student(path: Path, shared_folder: bool) -> str:
    parts = path.parts
    for step in _NBGRADER_STEPS:
        if step in parts and parts.index(step) + 1 < len(parts) - 1:
            return parts[parts.index(step) + 1]
    return path.stem if shared_folder else path.parent.name


def collect(paths: Iterable[str | Path]) -> list[Record]:
    """Every record of every notebook under ``paths`` (notebooks or folders, searched recursively)."""
    books = _notebooks(paths)
    shared = len({b.parent for b in books}) == 1 and len(books) > 1
    return [r for b in books for r in read_notebook(b, _student(b, shared))]


def summary(records: Sequence[Record]) -> list[str]:
    """One line per exercise: how many students checked it, how many are right (and how many of those without
    the worked answer), the median tries, and the commonest wrong answers."""
    lines = []
    by: dict[tuple[str, str], list[Record]] = {}
    for r in records:
        by.setdefault((r.lesson, r.exercise), []).append(r)
    for (lesson, exercise), rs in sorted(by.items()):
        done = [r for r in rs if r.right]
        alone = [r for r in done if not r.solution_shown]
        wrongs: dict[str, int] = {}
        for r in rs:
            for w in r.wrong:
                wrongs[w] = wrongs.get(w, 0) + 1
        common = ", ".join(f"{w} ({n})" for w, n in sorted(wrongs.items(), key=lambda kv: -kv[1])[:3])
        tries = statistics.median(r.tries for r in rs) if rs else 0
        lines.append(
            f"{lesson} / {exercise}: {len(rs)} checked, {len(done)} right ({len(alone)} without the worked "
            f"answer), median {tries:g} tries" + (f"; commonest wrong: {common}" if common else "")
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m qardlab.lessons.progress",
        description="A class's progress, read from their notebooks.",
    )
    parser.add_argument("paths", nargs="+", help="notebooks, or folders of notebooks (searched recursively)")
    parser.add_argument("--csv", metavar="FILE", help="write one row per student and exercise to FILE")
    args = parser.parse_args(argv)
    try:
        records = collect(args.paths)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not records:
        print("No checked exercise in these notebooks (were they saved after the checks ran?).")
        return 1
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=list(records[0].row()))
            writer.writeheader()
            writer.writerows(r.row() for r in records)
        print(f"wrote {len(records)} rows to {args.csv}")
    for r in records:
        state = "right" if r.right else r.verdict
        extra = " (worked answer shown)" if r.solution_shown else ""
        print(f"{r.student:<16} {r.lesson} / {r.exercise}: {state}, {r.tries} tries{extra}")
    print()
    print("\n".join(summary(records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Time a run through each lesson, for the teacher's kit (docs/teacher/README.md, "Timings").

For every lesson notebook: Run All in a fresh kernel (timed), then count what a student reads (the words of
every text cell and every printed output), the widgets there are to explore (tables, grids, charts, buttons)
and the exercises. The minutes the kit gives are

    reading (words / WORDS_A_MINUTE) + widgets x WIDGET_MINUTES + exercises x EXERCISE_MINUTES + Run All,

the last three constants being a teacher's rule of thumb (not measured here: a class's pace differs); the
first line of the output says which figures are measured and which assumed.

    python scripts/lesson_timings.py                # every lesson, a Markdown table
    python scripts/lesson_timings.py 01 05          # some
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
#: a class reads a lesson's text (cards, numbers, tables) slower than prose
WORDS_A_MINUTE = 120
#: stepping through a table, clicking cells, switching a view
WIDGET_MINUTES = 2.0
#: reading the question, a first try, the hint, a second try
EXERCISE_MINUTES = 5.0
#: a build-it exercise: writing a few lines of Python, a check, a fix
FUNCTION_MINUTES = 10.0


def _words(text: str) -> int:
    return len(re.findall(r"[\w♠♥♦♣]+", text))


def measure(path: Path) -> dict[str, float]:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    os.environ["PYTHONPATH"] = str(ROOT)
    t0 = time.perf_counter()
    client.execute()
    run_all = time.perf_counter() - t0
    words = widgets = 0
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            words += _words(cell.source)
            continue
        for out in cell.get("outputs", []):
            if out.output_type == "stream":
                words += _words(out.text)
            elif "application/vnd.jupyter.widget-view+json" in out.get("data", {}):
                widgets += 1
            elif "text/plain" in out.get("data", {}) and "image/png" not in out.get("data", {}):
                words += _words(out.data["text/plain"])
    answers = {
        m
        for c in nb.cells
        if c.cell_type == "code"
        for m in re.findall(r"^(answer\w*) = None", c.source, re.M)
    }
    functions = path.name[:2] in ("06", "07", "08")
    minutes = (
        words / WORDS_A_MINUTE
        + widgets * WIDGET_MINUTES
        + len(answers) * (FUNCTION_MINUTES if functions else EXERCISE_MINUTES)
        + run_all / 60
    )
    return {
        "run_all": run_all,
        "words": words,
        "widgets": widgets,
        "exercises": len(answers),
        "minutes": minutes,
    }


def main(which: list[str]) -> None:
    books = sorted(NOTEBOOKS.glob("[0-1][0-9]-*.ipynb"))
    books = [b for b in books if b.name[:2] != "00" and (not which or b.name[:2] in which)]
    print(
        f"measured: Run All, words read, widgets, exercises; assumed: {WORDS_A_MINUTE} words a minute, "
        f"{WIDGET_MINUTES:g} min a widget, {EXERCISE_MINUTES:g} min an exercise ({FUNCTION_MINUTES:g} to "
        "write a function)"
    )
    print("| lesson | Run All (s) | words | widgets | exercises | minutes |")
    print("|---|---|---|---|---|---|")
    total = 0.0
    for b in books:
        m = measure(b)
        total += m["minutes"]
        print(
            f"| {b.stem} | {m['run_all']:.1f} | {m['words']:.0f} | {m['widgets']:.0f} | "
            f"{m['exercises']:.0f} | {m['minutes']:.0f} |"
        )
    print(f"| all | | | | | {total:.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Every lesson's exercises, answered as a class answers them (LESSONS.md, "Exercises"; issue 28).

One kernel per lesson: the notebook runs once top to bottom as stored (every answer empty: Run All). Then, in
the same kernel, each exercise's answer line is set to its first wrong answer, its second (different) wrong
answer and its right answer from the answer keys (qardlab/lessons/answer_keys.json), and its check cell run
after each. The replies must say "Write your answer first" (empty), "Not quite:" and the step missed but not
the worked answer (first wrong), the worked answer (second wrong), "Right:" and why (right). No output
anywhere in the notebook, above or below, and no text cell may show an exercise's spoilers under Run All or
after its first wrong answer; each check records its progress in its output's metadata.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import nbformat
import pytest

from qardlab.lessons.exercises import EMPTY, WORKED, answer_keys

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
KEYS = answer_keys()
LESSONS = sorted({k["lesson"] for k in KEYS})
#: the lessons that must have two exercises or more (issue 28: 01-05 and 09-12; the build-it lessons have
#: three and two functions to write)
TWO_OR_MORE = [lesson for lesson in LESSONS if lesson[:2] not in ("06", "07", "08")]


def _tagged(cell: nbformat.NotebookNode) -> bool:
    return "exercise" in cell.metadata.get("tags", [])


def _answer_line(variable: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(variable)} = .*$", re.M)


def _cells(nb: nbformat.NotebookNode, variable: str) -> tuple[int, int]:
    """(answer cell, check cell) of the exercise whose answer is ``variable``."""
    line = _answer_line(variable)
    found = [
        i for i, c in enumerate(nb.cells) if c.cell_type == "code" and line.search(c.source) and _tagged(c)
    ]
    assert len(found) == 1, f"{len(found)} tagged cells assign {variable!r}"
    answer = found[0]
    check = next(i for i in range(answer + 1, len(nb.cells)) if nb.cells[i].cell_type == "code")
    assert _tagged(nb.cells[check]), f"the check cell after {variable!r} is not tagged exercise"
    return answer, check


def _text(cell: nbformat.NotebookNode, html: bool = False) -> str:
    """A cell's outputs as text (its plain text; with ``html`` its HTML and Markdown too)."""
    parts = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            parts.append(out.text)
        elif out.output_type in ("execute_result", "display_data"):
            parts.append(out.data.get("text/plain", ""))
            if html:
                parts += [out.data.get("text/html", ""), out.data.get("text/markdown", "")]
        elif out.output_type == "error":
            parts.append(f"ERROR {out.ename}: {out.evalue}")
    return "".join(parts)


def _everything(nb: nbformat.NotebookNode) -> str:
    """What a student can read in the notebook: every text cell and every output, plain and HTML."""
    return "\n".join(c.source if c.cell_type == "markdown" else _text(c, html=True) for c in nb.cells)


def _progress(cell: nbformat.NotebookNode) -> dict[str, Any]:
    for out in cell.get("outputs", []):
        if "qardlab" in out.get("metadata", {}):
            return dict(out.metadata["qardlab"])
    return {}


@dataclass
class Run:
    """One lesson answered as a class answers it."""

    run_all: str = ""
    replies: dict[tuple[str, str], str] = field(default_factory=dict)
    seen_after_first_wrong: dict[str, str] = field(default_factory=dict)
    progress: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)


@cache
def run(lesson: str) -> Run:
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOKS / f"{lesson}.ipynb", as_version=4)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    out = Run()
    # the kernel imports the qardlab of this checkout (an editable install may point at another one)
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), saved) if p)
    try:
        with client.setup_kernel():
            _answer_all(client, nb, lesson, out)
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved
    return out


def _answer_all(client: Any, nb: nbformat.NotebookNode, lesson: str, out: Run) -> None:
    for i, cell in enumerate(nb.cells):
        client.execute_cell(cell, i)
    out.run_all = _everything(nb)
    for key in answer_keys(lesson):
        ex = key["exercise"]
        answer, check = _cells(nb, key["variable"])
        out.replies[ex, "empty"] = _text(nb.cells[check])
        stored = nb.cells[answer].source
        for variant, typed in (
            ("first wrong", key["wrong"][0]),
            ("second wrong", key["wrong"][1]),
            ("right", key["right"]),
        ):
            line = f"{key['variable']} = {typed}"
            nb.cells[answer].source = _answer_line(key["variable"]).sub(lambda _m, x=line: x, stored, count=1)
            client.execute_cell(nb.cells[answer], answer)
            client.execute_cell(nb.cells[check], check)
            out.replies[ex, variant] = _text(nb.cells[check])
            out.progress[ex, variant] = _progress(nb.cells[check])
            if variant == "first wrong":
                out.seen_after_first_wrong[ex] = _everything(nb)
        example = re.search(r"\(for example (.+?)\):", out.replies[ex, "empty"])
        if example:  # the example the empty reply quotes, typed as an answer (after the right one)
            line = f"{key['variable']} = {example.group(1)}"
            nb.cells[answer].source = _answer_line(key["variable"]).sub(lambda _m, x=line: x, stored, count=1)
            client.execute_cell(nb.cells[answer], answer)
            client.execute_cell(nb.cells[check], check)
            out.replies[ex, "example"] = _text(nb.cells[check])
        nb.cells[answer].source = stored  # the exercise left as stored (empty) for the next one
        client.execute_cell(nb.cells[answer], answer)
        client.execute_cell(nb.cells[check], check)


CASES = [(k["lesson"], k["exercise"]) for k in KEYS]


@pytest.mark.parametrize("lesson, exercise", CASES)
def test_an_empty_answer_is_asked_for(lesson: str, exercise: str) -> None:
    key = next(k for k in answer_keys(lesson) if k["exercise"] == exercise)
    text = run(lesson).replies[exercise, "empty"]
    assert text.startswith(EMPTY) and "Right" not in text and "Not quite" not in text, text
    assert not [w for w in key.get("spoilers", []) if w in text], f"the empty reply gives it away: {text}"


@pytest.mark.parametrize("lesson, exercise", CASES)
def test_a_first_wrong_answer_gets_the_step_missed_not_the_answer(lesson: str, exercise: str) -> None:
    key = next(k for k in answer_keys(lesson) if k["exercise"] == exercise)
    text = run(lesson).replies[exercise, "first wrong"]
    assert "ERROR" not in text and "Traceback" not in text, text
    assert text.startswith("Not quite:"), f"{key['wrong'][0]} was not refused:\n{text}"
    assert WORKED not in text, f"a first wrong answer got the worked answer:\n{text}"
    for words in key.get("wrong_mentions", []):
        assert words in text, f"the first wrong reply does not say {words!r}:\n{text}"


@pytest.mark.parametrize("lesson, exercise", CASES)
def test_a_second_wrong_answer_gets_the_worked_answer(lesson: str, exercise: str) -> None:
    key = next(k for k in answer_keys(lesson) if k["exercise"] == exercise)
    text = run(lesson).replies[exercise, "second wrong"]
    assert text.startswith("Not quite:") and WORKED in text, f"{key['wrong'][1]}:\n{text}"
    for words in key.get("solution_mentions", []):
        assert words in text, f"the worked answer does not say {words!r}:\n{text}"


@pytest.mark.parametrize("lesson, exercise", CASES)
def test_a_right_answer_says_why(lesson: str, exercise: str) -> None:
    key = next(k for k in answer_keys(lesson) if k["exercise"] == exercise)
    text = run(lesson).replies[exercise, "right"]
    assert text.startswith("Right:"), f"{key['right']} was not accepted:\n{text}"
    for words in key.get("right_mentions", []):
        assert words in text, f"the right reply does not say {words!r}:\n{text}"


SPOILED = [(k["lesson"], k["exercise"]) for k in KEYS if k.get("spoilers")]


@pytest.mark.parametrize("lesson, exercise", SPOILED)
def test_nothing_in_the_notebook_answers_an_exercise_under_run_all(lesson: str, exercise: str) -> None:
    """Under Run All no output, above or below the exercise, and no text cell shows its spoilers."""
    key = next(k for k in answer_keys(lesson) if k["exercise"] == exercise)
    shown = [w for w in key["spoilers"] if w in run(lesson).run_all]
    assert not shown, f"{lesson}: {shown} readable under Run All, before {exercise!r} is answered"


@pytest.mark.parametrize("lesson, exercise", SPOILED)
def test_nothing_in_the_notebook_answers_an_exercise_after_its_first_wrong_answer(
    lesson: str, exercise: str
) -> None:
    key = next(k for k in answer_keys(lesson) if k["exercise"] == exercise)
    shown = [w for w in key["spoilers"] if w in run(lesson).seen_after_first_wrong[exercise]]
    assert not shown, f"{lesson}: {shown} readable after the first wrong answer to {exercise!r}"
    replies = run(lesson).replies
    said = replies[exercise, "right"] + replies[exercise, "second wrong"]
    assert any(w in said for w in key["spoilers"]), (
        f"{lesson}: no spoiler of {exercise!r} is in its answer either"
    )


@pytest.mark.parametrize("lesson, exercise", CASES)
def test_each_check_records_its_progress_in_the_notebook(lesson: str, exercise: str) -> None:
    """The metadata of the check's output: what a teacher's collection reads (qardlab.lessons.progress)."""
    progress = run(lesson).progress
    first, done = progress[exercise, "first wrong"], progress[exercise, "right"]
    assert first["lesson"] == lesson and first["exercise"] == exercise
    assert first["verdict"] == "wrong" and first["tries"] == 1 and not first["solution_shown"]
    assert done["verdict"] == "right" and done["right"] and done["tries"] == 3 and done["solution_shown"]
    assert len(done["wrong"]) == 2


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_exercise_is_tagged_keyed_and_its_check_hidden(lesson: str) -> None:
    """Each answer line is stored empty, its cells carry the tag `exercise`, the check cell's source is hidden
    (`jupyter.source_hidden`) and calls the package, and the keys cover every exercise."""
    nb = nbformat.read(NOTEBOOKS / f"{lesson}.ipynb", as_version=4)
    variables = {
        m.group(1)
        for c in nb.cells
        if c.cell_type == "code" and _tagged(c)
        for m in re.finditer(r"^(answer\w*) = (.*)$", c.source, re.M)
    }
    keyed = {k["variable"] for k in KEYS if k["lesson"] == lesson}
    assert variables, f"{lesson} has no tagged exercise"
    assert variables == keyed, f"{lesson}: answers in the notebook {variables}, in the keys {keyed}"
    for variable in variables:
        answer, check = _cells(nb, variable)
        assert re.search(rf"^{variable} = None\b", nb.cells[answer].source, re.M), (
            f"{lesson}: {variable} is not stored empty (None)"
        )
        cell = nb.cells[check]
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, (
            f"{lesson}: {variable}'s check shows"
        )
        assert len(cell.source.strip().splitlines()) <= 3 and "def " not in cell.source, (
            f"{lesson}: {variable}'s check keeps its logic in the notebook:\n{cell.source}"
        )
    untagged = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and not _tagged(c) and re.search(r"^answer\w* = ", c.source, re.M)
    ]
    assert not untagged, f"{lesson}: cells {untagged} assign an answer but are not tagged exercise"


@pytest.mark.parametrize("lesson", TWO_OR_MORE)
def test_two_exercises_or_more(lesson: str) -> None:
    """Issue 28: at least two exercises in each of lessons 01-05 and 09-12, the second a transfer."""
    assert len(answer_keys(lesson)) >= 2


@pytest.mark.parametrize("lesson", LESSONS)
def test_no_minus_zero_anywhere(lesson: str) -> None:
    """Issue 28: lesson 04 printed "-0.000 bits"; no output of any lesson writes a negative zero."""
    text = run(lesson).run_all + "".join(run(lesson).replies.values())
    assert not re.search(r"-0\.0+\b(?!\d)", text), re.findall(r".{40}-0\.0+\b", text)


@pytest.mark.parametrize("lesson, exercise", CASES)
def test_the_empty_replys_example_is_not_the_answer(lesson: str, exercise: str) -> None:
    """Issue 28: lesson 09's empty reply said 'for example "Carol"', and Carol was the answer."""
    replies = run(lesson).replies
    if (exercise, "example") in replies:  # a function exercise quotes no example
        assert not replies[exercise, "example"].startswith("Right:"), replies[exercise, "example"]

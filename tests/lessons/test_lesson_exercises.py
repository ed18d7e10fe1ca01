"""Every lesson's exercises, answered three ways: right, wrong and empty (LESSONS.md, "Exercises").

One kernel per lesson: the notebook runs once top to bottom as stored (every answer empty), then, in the same
kernel, each exercise's answer line is replaced by the right and then the wrong answer of the answer keys
(qardlab/lessons/answer_keys.json) and its check cell run again. The replies must say "Write your answer
first" (empty), "Right:" and why (right), "Not quite:" with the explanation and the missed step (wrong).
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import nbformat
import pytest

from qardlab.lessons.exercises import EMPTY, answer_keys

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
KEYS = answer_keys()
LESSONS = sorted({k["lesson"] for k in KEYS})
# the lessons revised for issue 13 must each have keys; a new lesson adds its own
REVISED = [
    "01-five-sons-first-game",
    "02-what-an-answer-tells-whom",
    "03-three-ways-to-reason",
    "04-asking-good-questions",
    "05-play-from-memory",
    "06-build-crossing-out",
    "07-build-counting-deals",
    "08-build-best-question",
    "09-play-together",
    "10-first-hand-of-hearts",
    "11-counting-cards-in-hearts",
    "12-hearts-experiments",
]


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


def _text(cell: nbformat.NotebookNode) -> str:
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            parts.append(out.text)
        elif out.output_type in ("execute_result", "display_data"):
            parts.append(out.data.get("text/plain", ""))
        elif out.output_type == "error":
            parts.append(f"ERROR {out.ename}: {out.evalue}")
    return "".join(parts)


@cache
def replies(lesson: str) -> dict[tuple[str, str], str]:
    """(exercise, "empty" | "right" | "wrong") -> the check cell's reply, from one kernel; (exercise, "above")
    -> every output above the exercise's answer cell, as the stored notebook prints it."""
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOKS / f"{lesson}.ipynb", as_version=4)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    out: dict[tuple[str, str], str] = {}
    # the kernel imports the qardlab of this checkout (an editable install may point at another one)
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), saved) if p)
    try:
        with client.setup_kernel():
            _run(client, nb, lesson, out)
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved
    return out


def _run(client: Any, nb: nbformat.NotebookNode, lesson: str, out: dict[tuple[str, str], str]) -> None:
    """Run the notebook as stored, then each exercise right and wrong, in the client's kernel."""
    for i, cell in enumerate(nb.cells):
        client.execute_cell(cell, i)
    for key in answer_keys(lesson):
        answer, check = _cells(nb, key["variable"])
        out[key["exercise"], "empty"] = _text(nb.cells[check])
        out[key["exercise"], "above"] = "".join(_text(c) for c in nb.cells[:answer] if c.cell_type == "code")
        stored = nb.cells[answer].source
        for variant in ("right", "wrong"):
            line = f"{key['variable']} = {key[variant]}"
            pattern = _answer_line(key["variable"])
            nb.cells[answer].source = pattern.sub(lambda _m, x=line: x, stored, count=1)
            client.execute_cell(nb.cells[answer], answer)
            client.execute_cell(nb.cells[check], check)
            out[key["exercise"], variant] = _text(nb.cells[check])
        nb.cells[answer].source = stored


CASES = [(k["lesson"], k["exercise"], v) for k in KEYS for v in ("empty", "right", "wrong")]


@pytest.mark.parametrize("lesson, exercise, variant", CASES)
def test_exercise_replies(lesson: str, exercise: str, variant: str) -> None:
    """The check replies as LESSONS.md asks: empty -> write first, right -> why, wrong -> the missed step."""
    key = next(k for k in answer_keys(lesson) if k["exercise"] == exercise)
    text = replies(lesson)[exercise, variant]
    assert "ERROR" not in text and "Traceback" not in text, text
    if variant == "empty":
        assert text.startswith(EMPTY), text
        assert "Right" not in text and "Not quite" not in text, text
        assert not any(w in text for w in key.get("spoilers", [])), f"the empty reply gives it away: {text}"
    elif variant == "right":
        assert text.startswith("Right:"), f"{key['right']} was not accepted:\n{text}"
        for words in key.get("right_mentions", []):
            assert words in text, f"the right reply does not say {words!r}:\n{text}"
    else:
        assert text.startswith("Not quite:"), f"{key['wrong']} was not refused:\n{text}"
        for words in key.get("wrong_mentions", []):
            assert words in text, f"the wrong reply does not say {words!r}:\n{text}"


SPOILED = [(k["lesson"], k["exercise"]) for k in KEYS if k.get("spoilers")]


@pytest.mark.parametrize("lesson, exercise", SPOILED)
def test_no_output_above_an_exercise_answers_it(lesson: str, exercise: str) -> None:
    """Under Run All, nothing printed above the answer cell gives the answer away (the key's `spoilers`:
    the words that would)."""
    key = next(k for k in answer_keys(lesson) if k["exercise"] == exercise)
    above = replies(lesson)[exercise, "above"]
    for words in key["spoilers"]:
        assert words not in above, f"{lesson}: {words!r} is printed above the exercise {exercise!r}"
    assert replies(lesson)[exercise, "right"].startswith("Right:")  # and the reply does say it
    assert any(
        w in replies(lesson)[exercise, "right"] + replies(lesson)[exercise, "wrong"] for w in key["spoilers"]
    ), f"{lesson}: no spoiler of {exercise!r} is in its replies either"


@pytest.mark.parametrize("lesson", REVISED)
def test_every_exercise_is_tagged_and_keyed(lesson: str) -> None:
    """Each answer line is stored empty, its cells carry the tag `exercise`, and the keys cover them all."""
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
        answer, _check = _cells(nb, variable)
        assert re.search(rf"^{variable} = None\b", nb.cells[answer].source, re.M), (
            f"{lesson}: {variable} is not stored empty (None)"
        )
    untagged = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and not _tagged(c) and re.search(r"^answer\w* = ", c.source, re.M)
    ]
    assert not untagged, f"{lesson}: cells {untagged} assign an answer but are not tagged exercise"

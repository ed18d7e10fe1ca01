"""qardlab.lessons.progress: a class's collected notebooks read into one table (issue 28 item 6)."""

from __future__ import annotations

import csv

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from qardlab.lessons.exercises import Exercise, read_number, right, wrong
from qardlab.lessons.progress import collect, main, read_notebook, summary


def _judge(v):
    return right("54.") if v == 54 else wrong(f"{v} is not it.", "Hint: look again.", solution=["54."])


def _notebook(path, answers):
    """A saved lesson notebook as a student's kernel leaves it: each check's reply with its metadata."""
    ex = Exercise("01-five-sons-first-game", "bob-pairs")
    ex.reset()
    cells = [new_markdown_cell("# 01")]
    for a in answers:
        reply = ex.check(a, read_number, _judge)
        out = new_output(
            "display_data", data={"text/plain": reply.text}, metadata={"qardlab": dict(reply.progress)}
        )
        cells.append(new_code_cell("first_game.check_bob_pairs(answer, game, BOB, TURN)", outputs=[out]))
    ex.reset()
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=cells), path)
    return path


def test_the_last_check_of_each_exercise_is_read(tmp_path):
    book = _notebook(tmp_path / "ann" / "01.ipynb", ["56", "60", "54"])
    (record,) = read_notebook(book, "ann")
    assert (record.student, record.exercise, record.verdict, record.right) == (
        "ann",
        "bob-pairs",
        "right",
        True,
    )
    assert record.tries == 3 and record.wrong == ("'56'", "'60'") and record.solution_shown


def test_a_class_in_nbgraders_folders_and_a_summary(tmp_path):
    """nbgrader collects to submitted/<student>/<assignment>/<notebook>.ipynb: the student is that folder."""
    root = tmp_path / "course" / "submitted"
    _notebook(root / "ann" / "lesson01" / "01-five-sons-first-game.ipynb", ["54"])
    _notebook(root / "bo" / "lesson01" / "01-five-sons-first-game.ipynb", ["56", "56", "52"])
    _notebook(root / "cy" / "lesson01" / "01-five-sons-first-game.ipynb", [None])
    records = collect([tmp_path / "course"])
    by = {r.student: r for r in records}
    assert set(by) == {"ann", "bo", "cy"}
    assert by["ann"].right and by["ann"].tries == 1
    assert by["bo"].verdict == "wrong" and by["bo"].tries == 2 and by["bo"].solution_shown
    assert by["cy"].verdict == "empty" and by["cy"].tries == 0
    (line,) = summary(records)
    assert "3 checked, 1 right (1 without the worked answer)" in line and "'56' (1)" in line


def test_notebooks_in_one_folder_are_named_by_file_and_the_csv(tmp_path, capsys):
    _notebook(tmp_path / "class" / "ann.ipynb", ["54"])
    _notebook(tmp_path / "class" / "bo.ipynb", ["60"])
    out = tmp_path / "progress.csv"
    assert main([str(tmp_path / "class"), "--csv", str(out)]) == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert {r["student"] for r in rows} == {"ann", "bo"}
    assert {r["right"] for r in rows} == {"True", "False"}
    assert "wrote 2 rows" in capsys.readouterr().out


def test_bad_paths_and_notebooks_without_checks_say_so(tmp_path, capsys):
    assert main([str(tmp_path / "nonesuch.txt")]) == 2
    assert "neither a notebook nor a folder" in capsys.readouterr().err
    nbformat.write(new_notebook(cells=[new_code_cell("1 + 1")]), tmp_path / "empty.ipynb")
    assert main([str(tmp_path / "empty.ipynb")]) == 1
    (tmp_path / "broken.ipynb").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read the notebook"):
        read_notebook(tmp_path / "broken.ipynb")

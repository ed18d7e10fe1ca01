"""docs/teacher: a page per revised lesson (01-05, 10-12): objectives, timing, discussion, and the answer keys
from the data file the exercise tests run (scripts/make_teacher_keys.py keeps them in step)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from qardlab.lessons.exercises import answer_key_markdown, answer_keys

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_teacher_keys", ROOT / "scripts" / "make_teacher_keys.py")
assert _spec is not None and _spec.loader is not None
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

# the lessons whose pages carry the generated key section (06-08 have pages of their own making)
REVISED = [
    "01-five-sons-first-game",
    "02-what-an-answer-tells-whom",
    "03-three-ways-to-reason",
    "04-asking-good-questions",
    "05-play-from-memory",
    "09-play-together",
    "10-first-hand-of-hearts",
    "11-counting-cards-in-hearts",
    "12-hearts-experiments",
]


@pytest.mark.parametrize("lesson", REVISED)
def test_teacher_page_exists_with_its_sections(lesson: str) -> None:
    path = ROOT / "docs" / "teacher" / f"{lesson}.md"
    assert path.exists(), f"no teacher's page {path.relative_to(ROOT)}"
    text = path.read_text(encoding="utf-8")
    for heading in ("## Objectives", "## Timing", "## Answer key", "## Discussion questions"):
        assert heading in text, f"{path.name} has no {heading!r}"
    assert f"notebooks/{lesson}.ipynb" in text and (ROOT / "notebooks" / f"{lesson}.ipynb").exists()
    assert make.START in text and make.END in text


@pytest.mark.parametrize("lesson", sorted(make.pages()))
def test_teacher_page_answer_keys_are_up_to_date(lesson: str) -> None:
    """The page's key section is exactly what the data file gives (run scripts/make_teacher_keys.py)."""
    text = make.pages()[lesson].read_text(encoding="utf-8")
    assert make.filled(text, lesson) == text, f"run python scripts/make_teacher_keys.py ({lesson} is stale)"
    for key in answer_keys(lesson):
        assert key["key"] in text
        if not key.get("varies"):  # an answer about the student's own table is its key's words only
            assert f"{key['variable']} = {key['right']}" in text
    assert answer_key_markdown(lesson).strip() in text

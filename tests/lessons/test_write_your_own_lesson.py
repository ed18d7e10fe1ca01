"""docs/write-your-own-lesson.md: its Python code blocks run, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "write-your-own-lesson.md"


def blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_the_page_has_examples():
    assert len(blocks()) >= 6


def test_every_code_block_runs(capsys):
    namespace: dict = {"__name__": "write_your_own_lesson"}
    for i, code in enumerate(blocks(), start=1):
        exec(compile(code, f"{DOC.name}, block {i}", "exec"), namespace)  # noqa: S102 - our own docs
    out = capsys.readouterr().out
    assert "You are Alice" in out and "wins after" in out

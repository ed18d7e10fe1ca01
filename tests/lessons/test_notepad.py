"""The printable notepad grid: generated, parsed, and the committed docs/teacher/notepad.svg up to date."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from qardlab.games.five_sons.deck import five_sons_deck
from qardlab.lessons.notepad import main, notepad_svg

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter(f"{SVG}text") if e.get("class") == cls]


@pytest.mark.parametrize("players", [4, 5])
def test_cards_as_rows_players_and_the_secret_as_columns(players):
    svg = notepad_svg(players)
    root = ET.fromstring(svg)
    assert root.get("viewBox") == "0 0 210 297" and root.get("width") == "210mm"  # one A4 page
    rows = _texts(svg, "qard-notepad-card")
    assert [e.get("data-card") for e in rows] == [c.code for c in five_sons_deck()]
    assert [e.text for e in rows] == [c.symbol for c in five_sons_deck()]
    cols = [e.text for e in _texts(svg, "qard-notepad-col")]
    assert cols == [f"player {i}" for i in range(1, players + 1)] + ["Secret"]
    assert f"Each player holds {20 // players} cards" in svg
    ys = [float(e.get("y")) for e in rows]
    assert max(ys) < 297 and ys == sorted(ys)


def test_names_label_the_columns_and_are_escaped():
    svg = notepad_svg(4, ["Ann", "Bo", "Cy", "D<e>"])
    assert [e.text for e in _texts(svg, "qard-notepad-col")] == ["Ann", "Bo", "Cy", "D<e>", "Secret"]


def test_bad_input_is_refused_naming_it():
    with pytest.raises(ValueError, match="not 3"):
        notepad_svg(3)
    with pytest.raises(ValueError, match="4 strings"):
        notepad_svg(4, ["Ann"])


def test_the_command_line_writes_it(tmp_path, capsys):
    out = tmp_path / "pad.svg"
    assert main([str(out), "--players", "5", "--names", "A,B,C,D,E"]) == 0
    assert out.read_text(encoding="utf-8") == notepad_svg(5, ["A", "B", "C", "D", "E"])
    assert "wrote" in capsys.readouterr().out


def test_committed_notepad_is_the_generated_one():
    """Regenerate it with `python -m qardlab.lessons.notepad docs/teacher/notepad.svg`."""
    assert (ROOT / "docs" / "teacher" / "notepad.svg").read_text(encoding="utf-8") == notepad_svg(4)

"""Golden playthroughs of every game, in one format written by one tool (``scripts/make_goldens.py``).

Every ``golden_cases.py`` under ``tests/`` is found by its folder (Five Sons', Hearts', and those of
the games in ``tests/fixtures/``); each stored playthrough must replay under the rules to a
finished game with the same record, the same words (the teacher's transcript) and the same result
(``Game.summary()``), and the same seed and bots must still play it byte for byte. A change to the
deal, the turn order, the events or their words shows up here first; to refresh after an intended
change, run ``PYTHONPATH=. python scripts/make_goldens.py`` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qardlab.engine.playthrough import check, dumps, find_cases, loads, playthrough

ROOT = Path(__file__).resolve().parents[2]
CASES = list(find_cases(ROOT))


def test_every_game_has_golden_playthroughs() -> None:
    games = {loads(path.read_text(encoding="utf-8"))["game"] for path, _case in CASES}
    assert {"five_sons", "hearts"} <= games
    assert len(CASES) >= 6


@pytest.mark.parametrize("path,case", CASES, ids=[str(p.relative_to(ROOT / "tests")) for p, _c in CASES])
def test_golden_playthrough(path: Path, case) -> None:
    game = check(path, case.play)
    assert loads(path.read_text(encoding="utf-8"))["how"] == case.how
    assert dumps(playthrough(game, case.how)) == path.read_text(encoding="utf-8")


def test_a_changed_word_is_caught(tmp_path: Path) -> None:
    """The check is not vacuous: one changed sentence, one changed action, or a changed result fails."""
    path, case = CASES[0]
    text = path.read_text(encoding="utf-8")
    data = loads(text)
    for change in ("transcript", "summary", "record"):
        bad = loads(text)
        if change == "transcript":
            bad["transcript"][1] += " (changed)"
        elif change == "summary":
            bad["summary"] = {**bad["summary"], "extra": 1}
        else:
            bad["record"]["actions"] = bad["record"]["actions"][:-1]
        target = tmp_path / f"{change}.json"
        target.write_text(dumps(bad), encoding="utf-8")
        with pytest.raises(AssertionError):
            check(target)
    assert data["format"] == "qardlab-playthrough"

"""The old golden files (Five Sons' record + transcript, Hearts' JSON) and the new playthroughs say
the same: same records, same words, same results. Kept until the old files are deleted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qardlab.engine import Record
from qardlab.engine.playthrough import loads

HERE = Path(__file__).parent


@pytest.mark.parametrize("stem", ["4p_chosen_seed2", "5p_pass_left_seed34"])
def test_five_sons_old_and_new_agree(stem: str) -> None:
    new = loads((HERE / "five_sons" / "playthroughs" / f"{stem}.json").read_text(encoding="utf-8"))
    old = HERE / "five_sons" / "golden"
    stored = (old / f"{stem}.json").read_text(encoding="utf-8").strip()
    assert Record.from_dict(new["record"]).to_json() == stored
    assert "\n".join(new["transcript"]) + "\n" == (old / f"{stem}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_hearts_old_and_new_agree(n: int) -> None:
    new = loads((HERE / "hearts" / "playthroughs" / f"match_{n}p_seed7.json").read_text(encoding="utf-8"))
    old = json.loads((HERE / "hearts" / "golden" / f"match_{n}p_seed7.json").read_text(encoding="utf-8"))
    assert new["record"] == old["record"]
    assert new["summary"] == {"scores": old["scores"], "winners": old["winners"],
                              "hand_points": old["hand_points"]}
    assert new["transcript"][-6:] == old["last_words"]

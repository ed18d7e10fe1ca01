"""Five Sons' version-1 records of the golden games (see ``golden_cases.py`` and
``tests/games/test_golden.py`` for the playthroughs themselves).

The ``golden/*_v1.json`` files are the golden games as version-1 records (forced answers left
out, written before every answer became the answerer's own step): they must still load and
replay to exactly the game of the playthrough's version-2 record.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qardlab.engine import Record
from qardlab.engine.playthrough import loads

HERE = Path(__file__).parent
STEMS = ["4p_chosen_seed2", "5p_pass_left_seed34"]


@pytest.mark.parametrize("stem", STEMS)
def test_golden_version_1_record_loads_to_the_same_game(stem: str) -> None:
    """A version-1 record (forced answers left out) replays, with the forced answers put back,
    to the game of the version-2 record: same steps, same record, same words."""
    v1 = Record.load(HERE / "golden" / f"{stem}_v1.json")
    data = loads((HERE / "playthroughs" / f"{stem}.json").read_text(encoding="utf-8"))
    v2 = Record.from_dict(data["record"])
    assert v1.version == 1 and v2.version == 2
    assert len(v1.actions) < len(v2.actions)  # v1 left the forced answers out
    g1, g2 = v1.replay(), v2.replay()
    assert g1.history == g2.history and g1.record().to_json() == v2.to_json()
    assert g1.transcript() == g2.transcript() == data["transcript"]
    players = g1.players
    assert [g1.observation(s) for s in range(players)] == [g2.observation(s) for s in range(players)]

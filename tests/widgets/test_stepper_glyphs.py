"""The stepper's buttons draw with the project's font: every glyph is in DejaVu Sans (issue 11: ⏮ and ⏭
rendered as empty boxes in Chromium)."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

from qardlab.engine import Timeline
from qardlab.games.five_sons import FiveSons
from qardlab.widgets.stepper import Stepper


def test_stepper_glyphs_are_in_dejavu_sans():
    path = Path(font_manager.findfont("DejaVu Sans", fallback_to_default=False))
    if "DejaVuSans" not in path.name:
        pytest.skip(f"DejaVu Sans not found (got {path.name})")
    font = FT2Font(str(path))
    s = Stepper(Timeline(FiveSons.new(players=4, seed=1)))
    buttons = (s.first_button, s.previous_button, s.next_button, s.last_button)
    for b in buttons:
        assert b.description, "a stepper button without a label"
        missing = [ch for ch in b.description if font.get_char_index(ord(ch)) == 0]
        assert not missing, f"{b.description!r}: {missing} not in {path.name}"
        assert b.tooltip  # a screen reader's name for the button

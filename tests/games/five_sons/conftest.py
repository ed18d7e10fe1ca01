"""Fixtures for the Five Sons tests: a fixed 4-player deal whose every card's place is known."""

from __future__ import annotations

import pytest

from qardlab.games.five_sons import FiveSons

#: dealer 0, so seat 1 asks first; the secret pair is K♠ and 10♥
HANDS4 = [
    "JC QC KC JD QD",
    "KD JH QH KH JS",
    "QS AH 2H 3H 4H",
    "5H 6H 7H 8H 9H",
]
SECRET = ("KS", "TH")


@pytest.fixture
def game4() -> FiveSons:
    return FiveSons.from_deal(HANDS4, secret=SECRET, dealer=0)

"""A Knowledge shows its grid as an HTML table in a notebook, without any widget (DESIGN.md: _repr_html_)."""

from __future__ import annotations

import re

from qardlab.games.five_sons import Ask, FiveSons
from qardlab.games.hearts import Hearts

HANDS4 = ["JC QC KC JD QD", "KD JH QH KH JS", "QS AH 2H 3H 4H", "5H 6H 7H 8H 9H"]


def _row(html: str, symbol: str) -> str:
    return re.search(rf"<tr><th[^>]*>{re.escape(symbol)}</th>(.*?)</tr>", html).group(1)


def test_five_sons_grid_html_marks_what_the_seat_saw() -> None:
    g = FiveSons.from_deal(HANDS4, secret=("KS", "TH"), dealer=0)
    g.play(Ask(2, "QS", "9H"))  # seat 1 asks seat 2, who must show the Q♠
    html = g.knowledge(1)._repr_html_()
    assert html.count("<tr>") == 1 + 22  # a header, then every card of the deck
    cells = re.findall(r'<td class="qard-(\w+)"', _row(html, "Q♠"))
    # columns: seats 0, 2, 3, then the secret; seat 2 showed the Q♠ to seat 1
    assert cells == ["no", "yes", "no", "no"]


def test_onlooker_grid_html_shows_no_certainty_it_does_not_have() -> None:
    g = FiveSons.from_deal(HANDS4, secret=("KS", "TH"), dealer=0)
    g.play(Ask(2, "QS", "9H"))
    html = g.knowledge(0)._repr_html_()  # seat 0 only saw that a card was shown
    cells = re.findall(r'<td class="qard-(\w+)"', _row(html, "Q♠"))
    assert "yes" not in cells


def test_hearts_grid_html_has_a_column_per_other_holder() -> None:
    g = Hearts.new(players=4, seed=3)
    html = g.knowledge(0)._repr_html_()
    assert html.count("<th>") - html.count("<th></th>") >= 4  # three opponents and "played"
    assert "qard-grid-table" in html

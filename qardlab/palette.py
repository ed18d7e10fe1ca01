"""The colours cards are drawn in: one home for them, so every view draws a suit the same way.

Two decks: the usual two colours (hearts and diamonds red, clubs and spades near-black) and the
colour-blind-safe four-colour deck many tournaments use (clubs green, diamonds blue), where no two
suits share a colour and each suit keeps its own symbol. The choice is one setting for the whole
session, so a class switches every table, hand and grid at once::

    from qardlab import palette
    palette.use("four")          # or "two" (the default)
    with palette.using("four"):  # for one cell
        ...

Anything that colours a suit asks :func:`suit_color` (by suit letter "C", "D", "H", "S", or a
``Suit``/``Card``); nothing else in the package spells a suit's colour. Every other colour of the
package (the felt, the seat boxes, the grid's cells and its one probability shading, the charts'
lines) is named here too, and the one style sheet (:mod:`qardlab.render.style`) is built from these
names: no other module writes a colour literal (``tests/widgets/test_markup.py`` greps for them).
This module imports nothing from the package, so every layer may use it.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Iterator

__all__ = [
    "DECKS",
    "use",
    "using",
    "deck",
    "suit_color",
    "dim_color",
    "HIGHLIGHT",
    "FOCUS",
    "FOCUS_CSS",
    "probability_shade",
    "GRID_YES",
    "GRID_NO",
    "GRID_UNKNOWN",
    "CHART_LEVELS",
    "SEAT_COLORS",
]

#: deck name -> suit letter -> CSS colour
DECKS: dict[str, dict[str, str]] = {
    "two": {"C": "#1a1a1a", "D": "#c8102e", "H": "#c8102e", "S": "#1a1a1a"},
    "four": {"C": "#1b7a32", "D": "#0052b4", "H": "#c8102e", "S": "#1a1a1a"},
}
#: a marked or selected card's outline, the seat to move, the charts' "now" marker
HIGHLIGHT = "#f5b700"
#: keyboard focus on a playable card: a thick ring the projector shows
FOCUS = "#0072b2"
FOCUS_CSS = (
    f".qard-card:focus-visible, .qard-card:focus {{ outline: 3px solid {FOCUS} !important;"
    " outline-offset: 2px; }"
)

# -- the tables -------------------------------------------------------------------------------
INK = "#1a1a1a"  #: text on paper (the two-colour deck's black)
PAPER = "#ffffff"  #: a card's face, a cell with nothing known
FELT_GREEN = "#2e7d4f"  #: the felt
FELT_TEXT = "#e8f5ec"  #: small words on the felt
SHADOW = "#00000088"  #: text shadow on the felt
CARD_EDGE = "#444444"  #: a card's and a card button's border
CARD_SHADOW = "#00000033"  #: a card's drop shadow
BACK = ("#1d4e89", "#2a64a8")  #: a card back's two stripes
SEAT = "#f7f7f2"  #: a seat box
SEAT_EDGE = "#c9c9bd"  #: a seat box's border
SEAT_OUT = "#dddddd"  #: the box of a seat that is out
DEALER = "#333333"  #: the dealer's badge
MUTED = "#555555"  #: quiet words ("(you)", a chart's note)
FAINT = "#777777"  #: fainter words ("no cards", a target line's label)
SUBTLE = "#333333"  #: a seat's info line
ERROR = "#b00020"  #: refused, wrong, out
RIGHT = "#1b7a32"  #: a right claim
WINNER = "#2a9d3a"  #: the winner's box and tag
WINNER_GLOW = "#7be08a"  #: the winner's glow
ASKED = "#1d4e89"  #: the seat being asked
TAKEN = "#6b4e00"  #: the "taken" label
CHIP = "#e4e4e4"  #: a count chip in the log; an illegal card's button
SELECTED = "#fff6c2"  #: a card chosen to pass
STATUS = "#222222"  #: the status line
RULE = "#dddddd"  #: a panel's border
CELL_EDGE = "#cccccc"  #: a grid cell's border
GRID_LINE = "#999999"  #: a printed grid's lines; a chart's target line
PRINT_INK = "#000000"  #: the notepad's strong lines
PRINT_GREY = "#888888"  #: the notepad's quiet words
PRINT_RULE = "#666666"  #: the notepad's column lines
PRINT_LINE = "#bbbbbb"  #: the notepad's writing lines
PRINT_STRIPE = "#f3f3f3"  #: the notepad's every other row

# -- the grid: yes, no, unknown, and one probability shading ----------------------------------
GRID_YES = "#9ee29e"
GRID_NO = "#d6d6d6"
GRID_UNKNOWN = PAPER
#: a probability's cell goes from white (0) to this blue (1)
GRID_SURE = (66, 133, 244)


@lru_cache(maxsize=4096)
def probability_shade(p: float) -> str:
    """The one shading of a probability cell: white at 0 to :data:`GRID_SURE` blue at 1."""
    p = min(1.0, max(0.0, float(p)))
    r, g, b = (int(255 - p * (255 - v)) for v in GRID_SURE)
    return f"#{r:02x}{g:02x}{b:02x}"


# -- the charts ---------------------------------------------------------------------------------
#: a candidates chart's line per level of reasoning
CHART_LEVELS = {"naive": "#9e9e9e", "logic": "#1f77b4", "effective": "#d62728", "entropy": "#2ca02c"}
#: per-seat lines (colour-blind-safe Okabe-Ito colours)
SEAT_COLORS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00")
#: a bar of the best-questions chart
CHART_BAR = CHART_LEVELS["logic"]

_current = "two"


def use(name: str) -> None:
    """Draw cards from now on in deck ``name`` ("two" or "four")."""
    global _current
    if name not in DECKS:
        raise ValueError(f"unknown deck {name!r}; choose one of {sorted(DECKS)}")
    _current = name


def deck() -> str:
    """The deck cards are drawn in now."""
    return _current


@contextmanager
def using(name: str) -> Iterator[None]:
    """Draw in deck ``name`` inside a ``with`` block, then go back to the previous deck."""
    before = _current
    use(name)
    try:
        yield
    finally:
        use(before)


def _letter(suit: Any) -> str:
    if isinstance(suit, str) and suit.upper() in "CDHS" and len(suit) == 1:
        return suit.upper()
    for attr in ("letter",):  # a Suit
        if hasattr(suit, attr):
            return str(getattr(suit, attr))
    if hasattr(suit, "suit"):  # a Card
        return str(suit.suit.letter)
    raise ValueError(f"not a suit: {suit!r} (a letter C, D, H or S, a Suit or a Card)")


def suit_color(suit: Any, name: str | None = None) -> str:
    """The colour of ``suit`` (a letter, a Suit or a Card) in deck ``name`` (default: the current one)."""
    colors = DECKS.get(name or _current)
    if colors is None:
        raise ValueError(f"unknown deck {name!r}; choose one of {sorted(DECKS)}")
    return colors[_letter(suit)]


def dim_color(suit: Any, name: str | None = None, amount: float = 0.55) -> str:
    """The suit's colour faded towards white (an illegal card)."""
    c = suit_color(suit, name).lstrip("#")
    r, g, b = (int(c[i : i + 2], 16) for i in (0, 2, 4))
    fade = [round(v + (255 - v) * amount) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in fade)

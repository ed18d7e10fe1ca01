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
``Suit``/``Card``); nothing else in the package spells a suit's colour. This module imports nothing
from the package, so every layer may use it.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["DECKS", "use", "using", "deck", "suit_color", "dim_color", "HIGHLIGHT", "FOCUS_CSS"]

#: deck name -> suit letter -> CSS colour
DECKS: dict[str, dict[str, str]] = {
    "two": {"C": "#1a1a1a", "D": "#c8102e", "H": "#c8102e", "S": "#1a1a1a"},
    "four": {"C": "#1b7a32", "D": "#0052b4", "H": "#c8102e", "S": "#1a1a1a"},
}
#: a marked or selected card's outline
HIGHLIGHT = "#f5b700"
#: keyboard focus on a playable card: a thick ring the projector shows
FOCUS_CSS = (".qard-card:focus-visible, .qard-card:focus { outline: 3px solid #0072b2 !important;"
             " outline-offset: 2px; }")

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
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    fade = [round(v + (255 - v) * amount) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in fade)

"""The one grid of cells: cards as rows, holders as columns, each cell yes / no / unknown / a probability.

:func:`cell_text` says how a cell reads (✓, ✗, ·, a percentage), :func:`cell_color` gives its one shading
(green yes, grey no, white unknown, white to blue by probability: :func:`qardlab.palette.probability_shade`),
and :func:`grid_table` draws a whole grid as an HTML table: a ``Knowledge`` shows itself so in a notebook
(``_repr_html_``), Hearts' card-counting panel draws its opponents' columns so, and the deduction grid
widget (buttons, clickable) takes its cells' words and colours from here.

This module imports only the cards, the palette and the element helper, so the deduction layer may use it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from .. import palette
from ..cards import Card
from .markup import Child, el, to_html

__all__ = ["settle", "cell_text", "cell_color", "cell_kind", "card_label", "grid_table", "grid_html"]


def settle(value: Any) -> Any:
    """A cell value as "yes", "no", None (unknown) or a probability strictly between 0 and 1."""
    if value is None:
        return None
    if value == "yes" or value is True:
        return "yes"
    if value == "no" or value is False:
        return "no"
    p = float(value)
    if p >= 1 - 1e-12:
        return "yes"
    if p <= 1e-12:
        return "no"
    return p


def _text(v: Any) -> str:
    if v is None:
        return "·"
    if isinstance(v, str):
        return "✓" if v == "yes" else "✗"
    return f"{100 * v:.0f}%" if v >= 0.01 else "<1%"


def _kind(v: Any) -> str:
    return "unknown" if v is None else v if isinstance(v, str) else "prob"


def _color(v: Any) -> str:
    if v is None:
        return palette.GRID_UNKNOWN
    if isinstance(v, str):
        return palette.GRID_YES if v == "yes" else palette.GRID_NO
    return palette.probability_shade(v)


def cell_text(value: Any) -> str:
    """How a cell reads: ✓ yes, ✗ no, · unknown, a probability as a percentage."""
    return _text(settle(value))


def cell_kind(value: Any) -> str:
    """The cell's class word: "yes", "no", "unknown" or "prob"."""
    return _kind(settle(value))


def cell_color(value: Any) -> str:
    """The cell's background: green yes, grey no, white unknown, white to blue by probability."""
    return _color(settle(value))


def card_label(card: Card, *, tag: str = "b") -> Any:
    """A row's label: the card's symbol in its suit's colour, named as a row for a screen reader."""
    return el(
        tag,
        card.symbol,
        style={"color": palette.suit_color(card)},
        title=f"card row: {card.name}",
        aria_label=f"card row: {card.name}",
    )


def grid_table(
    grid: Mapping[Card, Mapping[Any, Any]],
    holders: Sequence[Any],
    names: Mapping[Any, str],
    *,
    caption: Optional[str] = None,
    head: Optional[Mapping[Any, Child]] = None,
    keep: Optional[Callable[[Card, list[Any]], bool]] = None,
    cards: Optional[Iterable[Card]] = None,
) -> Any:
    """The grid as a table element: a header of holders (``names``, with ``head[h]`` below a name), then
    a row per card (``cards``, default the grid's; ``keep(card, values)`` may leave a row out), each cell
    read by :func:`cell_text`, shaded by :func:`cell_color` and classed ``qard-<kind>``."""
    head = head or {}
    top = el("tr", el("th"), [el("th", str(names.get(h, h)), head.get(h)) for h in holders])
    rows = []
    for card in grid if cards is None else cards:
        row = grid.get(card, {})
        values = [row.get(h) for h in holders]
        if keep is not None and not keep(card, values):
            continue
        settled = [settle(v) for v in values]
        cells = [el("td", _text(v), cls=f"qard-{_kind(v)}", style=f"background:{_color(v)}") for v in settled]
        rows.append(el("tr", card_label(card, tag="th"), cells))
    return el("table", el("caption", caption) if caption else None, top, rows, cls="qard-grid-table")


def grid_html(
    grid: Mapping[Card, Mapping[Any, Any]], holders: Sequence[Any], names: Mapping[Any, str], **kw: Any
) -> str:
    """:func:`grid_table` written out as HTML."""
    return to_html(grid_table(grid, holders, names, **kw))

"""The deduction grid: cards as rows, holders as columns, at a chosen level of reasoning.

Each cell says what the seat knows about "this holder holds this card": yes, no, unknown
(levels "naive" and "logic"), or the exact probability (level "probability"), shaded by
value. Clicking a cell (or Enter on it: the arrow keys move through the grid) shows why it holds, in
the deduction engine's own words (``Knowledge.explain``), under the cell's own row. Its cells read and
are shaded as every grid of the package (:mod:`qardlab.render.grid`: one probability shading). The grid
only shows what a :class:`~qardlab.deduction.knowledge.Knowledge` (built from one seat's observation)
says; it never reads the game.

The cells are one widget model (:class:`GridCells`, drawn by ``grid_cells.js`` through anywidget): the
browser builds one model for the grid, not one per cell, and a change of the grid is one message. The
view is an ARIA grid with a roving tabindex (one cell in the Tab order, the arrow keys move), and draws
the explanation under the explained cell's row, scrolled into view.

The teacher's view has no knowledge to show; :meth:`DeductionGrid.show_truth` fills the
cells from the deal instead (yes / no everywhere), labelled as the truth.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Mapping, Sequence

import anywidget
import ipywidgets as widgets
import traitlets

from ..cards import Card
from ..render.grid import card_label, cell_color, cell_kind, cell_text
from ..render.markup import el, to_html
from ..render.style import GRID_CELLS_CSS

__all__ = [
    "DeductionGrid",
    "GridCells",
    "GridCell",
    "Explanation",
    "LEVELS",
    "cell_text",
    "cell_color",
]  # (render.grid's)

#: level value -> label on the selector
LEVELS = {"naive": "crossing out seen cards", "logic": "full logic", "probability": "exact probability"}
#: level value -> what its button's tooltip says
LEVEL_TIPS = {
    "naive": "a cell is certain only when you have seen the card",
    "logic": "every consequence of what you saw and heard",
    "probability": "the exact chance of each cell, from every deal that fits",
}

#: what a screen reader says a cell holds, by its kind (a probability: its percentage)
_SPOKEN = {"yes": "yes", "no": "no", "unknown": "not known"}


class GridCells(anywidget.AnyWidget):
    """Every cell of a deduction grid as one widget model: the browser builds one model for the whole
    grid (a hundred Button models, each with its style, took a lesson's Run All about 0.3 s), and a
    change of the grid is one message.

    ``heads`` are the holders' names (drawn as text), ``labels`` each row's card label (the package's
    markup), ``cells`` each row's cells as ``[text, colour, tooltip, spoken]``, ``columns`` the CSS grid
    columns, ``explanation`` the explanation shown (the package's markup, "" for none) and ``explained``
    the ``[row, column]`` it explains (drawn under that row). The view (``grid_cells.js``) draws an ARIA
    grid, each cell a focusable grid cell; a click on one, or Enter or Space on the focused one, comes back
    as the message ``{"click": [row, column]}`` and is handed to ``on_click(row, column)``.
    """

    _esm = resources.files(__package__).joinpath("grid_cells.js").read_text(encoding="utf-8")
    _css = GRID_CELLS_CSS
    heads = traitlets.List(traitlets.Unicode()).tag(sync=True)
    labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    cells = traitlets.List(traitlets.List()).tag(sync=True)
    columns = traitlets.Unicode("").tag(sync=True)
    explanation = traitlets.Unicode("").tag(sync=True)
    explained = traitlets.List(traitlets.Int()).tag(sync=True)

    def __init__(self, on_click: Callable[[int, int], None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_click = on_click
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A click from the browser: ignored unless it names a cell there is (a page may be stale)."""
        where = content.get("click") if isinstance(content, dict) else None
        if not isinstance(where, list) or len(where) != 2 or not all(type(i) is int for i in where):
            return
        r, c = where
        if 0 <= r < len(self.cells) and 0 <= c < len(self.cells[r]) and self.on_click is not None:
            self.on_click(r, c)


class Explanation:
    """The explanation a :class:`DeductionGrid` shows, as its ``value`` (HTML, "" for none): kept in the
    cells' model (:attr:`GridCells.explanation`), whose view draws it under the explained cell's row."""

    def __init__(self, cells: GridCells) -> None:
        self._cells = cells

    @property
    def value(self) -> str:
        return self._cells.explanation

    @value.setter
    def value(self, html: str) -> None:
        self._cells.explanation = html


@dataclass(frozen=True)
class GridCell:
    """One cell of a :class:`DeductionGrid` as the grid shows it now: its words (``description``), its
    ``tooltip``, its background ``color`` and what a screen reader says (``spoken``); ``click()`` does
    what a click on it in the browser does (shows why)."""

    grid: "DeductionGrid"
    card: Card
    holder: Any
    description: str
    tooltip: str
    color: str
    spoken: str

    def click(self) -> str:
        return self.grid.explain(self.card, self.holder)


class DeductionGrid(widgets.VBox):
    """A grid of clickable cells over ``cards`` x ``holders`` (the cells: one :class:`GridCells`).

    ``update(knowledge)`` redraws from a Knowledge at the selected level; ``show_truth``
    from a mapping card -> holder. ``on_level`` is called when the level changes, so the
    owner can redraw.
    """

    def __init__(
        self, cards: Sequence[Card], level: str = "logic", on_level: Callable[[str], None] | None = None
    ) -> None:
        if not isinstance(level, str) or level not in LEVELS:
            raise ValueError(f"level {level!r} is not one of {list(LEVELS)}")
        #: width of a holder's column (narrower where several grids stand side by side)
        self.cell_width = "5.5em"
        self.cards = tuple(cards)
        # buttons as wide as their words (a fixed width cut "crossing out seen cards")
        self.level = widgets.ToggleButtons(
            options=[(v, k) for k, v in LEVELS.items()],
            value=level,
            tooltips=[LEVEL_TIPS[k] for k in LEVELS],
            style={"button_width": "auto"},
        )
        self.level.add_class("qard-grid-level")
        self.title = widgets.HTML()
        #: each cell's value as last drawn ("yes", "no", None or a probability), by (card, holder)
        self.values: dict[tuple[Card, Any], Any] = {}
        self.holders: tuple[Any, ...] = ()
        self._knowledge: Any = None
        self._names: dict[Any, str] = {}
        self.box = GridCells(on_click=self._clicked)
        self.box.add_class("qard-grid")
        #: the explanation shown (``explanation.value``: its HTML), drawn by the cells' view under its row
        self.explanation = Explanation(self.box)
        self.on_level = on_level
        self.level.observe(self._level_changed, names="value")
        super().__init__([self.level, self.title, self.box])
        self.add_class("qard-deduction-grid")
        self._fill({}, (), {}, "")  # the rows' labels, before any holder

    # -- layout -------------------------------------------------------------------------
    def _columns(self) -> str:
        """The grid's columns: the card label, then cells as wide as ``cell_width``, narrower (to 2.7em, room
        for "99%" at projector size) where the column is narrow."""
        return f"2.6em repeat({len(self.holders)}, minmax(2.7em, {self.cell_width}))"

    def set_cell_width(self, width: str) -> None:
        """Narrower (or wider) holder columns, as where several grids stand side by side."""
        self.cell_width = width
        self.box.columns = self._columns()

    # -- filling ------------------------------------------------------------------------
    def update(
        self, knowledge: Any, holders: Sequence[Any], names: Mapping[Any, str], title: str = ""
    ) -> None:
        """Fill the cells from ``knowledge.grid(level)`` for the given holder columns."""
        self._knowledge = knowledge
        self._names = dict(names)
        grid = knowledge.grid(self.level.value)
        self._fill(grid, holders, names, title)

    def show_truth(
        self,
        truth: Mapping[Card, Any],
        holders: Sequence[Any],
        names: Mapping[Any, str],
        title: str = "The truth (teacher's view)",
    ) -> None:
        """Fill yes/no from where every card really is (teacher only)."""
        self._knowledge = None
        self._names = dict(names)
        grid = {c: {h: ("yes" if truth.get(c) == h else "no") for h in holders} for c in self.cards}
        self._fill(grid, holders, names, title)

    def clear(self, holders: Sequence[Any], names: Mapping[Any, str]) -> None:
        """Empty cells (before the deal no card is anywhere yet, so no cell says yes or no)."""
        self._knowledge = None
        self._names = dict(names)
        self._fill({}, holders, names, "")

    def _fill(
        self,
        grid: Mapping[Card, Mapping[Any, Any]],
        holders: Sequence[Any],
        names: Mapping[Any, str],
        title: str,
    ) -> None:
        """Every cell, head and label in one update of the cells' model (one message to the browser)."""
        self.holders = tuple(holders)
        heads = [str(names.get(h, h)) for h in self.holders]
        values: dict[tuple[Card, Any], Any] = {}
        rows = []
        for c in self.cards:
            row = grid.get(c, {})
            cells = []
            for h, head in zip(self.holders, heads):
                v = values[(c, h)] = row.get(h)
                text, kind = cell_text(v), cell_kind(v)
                # (named as a cell, as a row's label is named "card row: ...": no words a face-up card takes)
                spoken = f"cell: {c.name} with {head}, {_SPOKEN.get(kind, text)}"
                cells.append([text, cell_color(v), f"{c.symbol} with {head}: click for why", spoken])
            rows.append(cells)
        self.values = values
        # (the session's deck may have changed since the last update: the labels are drawn each time)
        labels = [to_html(card_label(c)) for c in self.cards]
        self.title.value = to_html(el("span", title)) if title else ""
        with self.box.hold_sync():  # (the cells' traits that changed, as one message)
            self.box.columns = self._columns()
            self.box.heads = heads
            self.box.labels = labels
            self.box.cells = rows
            self.box.explanation = ""
            self.box.explained = []

    # -- clicks -------------------------------------------------------------------------
    def _clicked(self, row: int, column: int) -> None:
        """A cell clicked in the browser (row and column of a cell drawn: :class:`GridCells` checks)."""
        self.explain(self.cards[row], self.holders[column])

    def explain(self, card: Card | str, holder: Any) -> str:
        """Show (and return) why the cell for ``card`` and ``holder`` holds, in the engine's words."""
        card = Card.parse(card)
        if self._knowledge is None:
            sentences = ["This is the teacher's view: the cells show where the cards really are."]
        else:
            try:
                why = self._knowledge.explain(card, holder)
                sentences = list(getattr(why, "sentences", None) or [str(why)])
            except Exception as e:  # a teaching aid must never break the table
                sentences = [f"(no explanation available: {e})"]
        who = str(self._names.get(holder, holder))
        with self.box.hold_sync():  # the words and where they go, as one message
            self.box.explanation = to_html(
                el(
                    "div",
                    el("b", f"Why {card.symbol} / {who}:"),
                    el("ol", [el("li", s) for s in sentences], style={"margin": 0}),
                )
            )
            shown = card in self.cards and holder in self.holders
            self.box.explained = [self.cards.index(card), self.holders.index(holder)] if shown else []
        return " ".join(sentences)

    def cell(self, card: Card | str, holder: Any) -> GridCell:
        """The cell of ``card`` and ``holder`` as the grid shows it now (KeyError if it shows none)."""
        card = Card.parse(card)
        if card not in self.cards or holder not in self.holders:
            raise KeyError(f"the grid shows no cell for {card.symbol} and holder {holder!r}")
        r, c = self.cards.index(card), self.holders.index(holder)
        text, color, tip, spoken = self.box.cells[r][c]
        return GridCell(self, card, holder, text, tip, color, spoken)

    def _level_changed(self, change: dict) -> None:
        if self.on_level is not None:
            self.on_level(change["new"])

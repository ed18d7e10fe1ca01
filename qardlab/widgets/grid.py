"""The deduction grid: cards as rows, holders as columns, at a chosen level of reasoning.

Each cell says what the seat knows about "this holder holds this card": yes, no, unknown
(levels "naive" and "logic"), or the exact probability (level "probability"), shaded by
value. Clicking a cell shows why it holds, in the deduction engine's own words
(``Knowledge.explain``). Its cells read and are shaded as every grid of the package
(:mod:`qardlab.render.grid`: one probability shading). The grid only shows what a
:class:`~qardlab.deduction.knowledge.Knowledge` (built from one seat's observation) says; it never
reads the game.

The teacher's view has no knowledge to show; :meth:`DeductionGrid.show_truth` fills the
cells from the deal instead (yes / no everywhere), labelled as the truth.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import ipywidgets as widgets
from ipywidgets.widgets.widget_string import HTMLStyle

from .. import palette
from ..cards import Card
from ..render.grid import card_label, cell_color, cell_text
from ..render.markup import el, to_html

__all__ = ["DeductionGrid", "LEVELS", "cell_text", "cell_color"]  # the cells' words and colours: render.grid

#: level value -> label on the selector
LEVELS = {"naive": "crossing out seen cards", "logic": "full logic", "probability": "exact probability"}
#: level value -> what its button's tooltip says
LEVEL_TIPS = {"naive": "a cell is certain only when you have seen the card",
              "logic": "every consequence of what you saw and heard",
              "probability": "the exact chance of each cell, from every deal that fits"}


class DeductionGrid(widgets.VBox):
    """A grid of clickable cells over ``cards`` x ``holders``.

    ``update(knowledge)`` redraws from a Knowledge at the selected level; ``show_truth``
    from a mapping card -> holder. ``on_level`` is called when the level changes, so the
    owner can redraw.
    """

    def __init__(self, cards: Sequence[Card], level: str = "logic",
                 on_level: Callable[[str], None] | None = None) -> None:
        if not isinstance(level, str) or level not in LEVELS:
            raise ValueError(f"level {level!r} is not one of {list(LEVELS)}")
        #: width of a holder's column (narrower where several grids stand side by side)
        self.cell_width = "5.5em"
        self.cards = tuple(cards)
        # buttons as wide as their words (a fixed width cut "crossing out seen cards")
        self.level = widgets.ToggleButtons(options=[(v, k) for k, v in LEVELS.items()], value=level,
                                           tooltips=[LEVEL_TIPS[k] for k in LEVELS],
                                           style={"button_width": "auto"})
        self.level.add_class("qard-grid-level")
        self.title = widgets.HTML()
        self.explanation = widgets.HTML()
        self.explanation.add_class("qard-grid-explanation")
        self.cells: dict[tuple[Card, Any], widgets.Button] = {}
        self.values: dict[tuple[Card, Any], Any] = {}
        self.holders: tuple[Any, ...] = ()
        self._knowledge: Any = None
        self._names: dict[Any, str] = {}
        self._header: list[widgets.HTML] = []
        # the cells share one Layout and a ButtonStyle per colour, the labels one Layout and one style: a
        # grid is then a third of the widget models, which the browser builds much faster
        self._cell_layout = widgets.Layout(width="auto", height="1.9em", padding="0",
                                          border=f"1px solid {palette.CELL_EDGE}")
        self._styles: dict[str, widgets.ButtonStyle] = {}
        self._label_layout = widgets.Layout(width="3em")
        self._html_style = HTMLStyle()
        # a row's label names its card as a row ("card row: ..."), not in the words a face-up card takes
        self._labels = [widgets.HTML(to_html(card_label(c)), layout=self._label_layout,
                                     style=self._html_style) for c in self.cards]
        self._corner: widgets.HTML | None = None
        self.box = widgets.GridBox(layout=widgets.Layout(grid_gap="1px"))
        self.box.add_class("qard-grid")
        self.on_level = on_level
        self.level.observe(self._level_changed, names="value")
        super().__init__([self.level, self.title, self.box, self.explanation])
        self.add_class("qard-deduction-grid")

    # -- layout -------------------------------------------------------------------------
    def _set_holders(self, holders: Sequence[Any], names: Mapping[Any, str]) -> None:
        holders = tuple(holders)
        if holders == self.holders and all(h.value == self._head(names, x)
                                           for h, x in zip(self._header, holders)):
            return
        self.holders = holders
        self._header = [widgets.HTML(self._head(names, h), style=self._html_style) for h in holders]
        if self._corner is None:
            self._corner = widgets.HTML("", style=self._html_style)
        children: list[widgets.Widget] = [self._corner] + self._header
        for i, c in enumerate(self.cards):
            children.append(self._labels[i])
            for h in holders:
                b = self.cells.get((c, h))
                if b is None:
                    b = widgets.Button(layout=self._cell_layout, style=self._style(cell_color(None)))
                    b.add_class("qard-grid-cell")
                    b.on_click(self._make_click(c, h))
                    self.cells[(c, h)] = b
                children.append(b)
        with self.box.hold_sync():
            self.box.layout.grid_template_columns = self._columns()
            self.box.children = children

    def _style(self, color: str) -> widgets.ButtonStyle:
        """The cells' shared style of this background colour (a few hundred at most: 8-bit channels)."""
        style = self._styles.get(color)
        if style is None:
            style = self._styles[color] = widgets.ButtonStyle(button_color=color)
        return style

    def _columns(self) -> str:
        """The grid's columns: the card label, then cells as wide as ``cell_width``, narrower (to 3.2em)
        where the column is narrow."""
        return f"3em repeat({len(self.holders)}, minmax(3.2em, {self.cell_width}))"

    def set_cell_width(self, width: str) -> None:
        """Narrower (or wider) holder columns, as where several grids stand side by side."""
        self.cell_width = width
        self.box.layout.grid_template_columns = self._columns()

    @staticmethod
    def _head(names: Mapping[Any, str], holder: Any) -> str:
        return to_html(el("b", str(names.get(holder, holder))))

    # -- filling ------------------------------------------------------------------------
    def update(self, knowledge: Any, holders: Sequence[Any], names: Mapping[Any, str],
               title: str = "") -> None:
        """Fill the cells from ``knowledge.grid(level)`` for the given holder columns."""
        self._knowledge = knowledge
        self._names = dict(names)
        grid = knowledge.grid(self.level.value)
        self._fill(grid, holders, names, title)

    def show_truth(self, truth: Mapping[Card, Any], holders: Sequence[Any], names: Mapping[Any, str],
                   title: str = "The truth (teacher's view)") -> None:
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

    def _fill(self, grid: Mapping[Card, Mapping[Any, Any]], holders: Sequence[Any],
              names: Mapping[Any, str], title: str) -> None:
        with self.hold_sync():
            self._set_holders(holders, names)
            for label, c in zip(self._labels, self.cards):  # the session's deck may have changed
                markup = to_html(card_label(c))
                if label.value != markup:
                    label.value = markup
            self.title.value = to_html(el("span", title)) if title else ""
            self.explanation.value = ""
            self.values = {}
            for c in self.cards:
                row = grid.get(c, {})
                for h in self.holders:
                    v = row.get(h)
                    self.values[(c, h)] = v
                    b = self.cells[(c, h)]
                    text, color = cell_text(v), cell_color(v)
                    tip = f"{c.symbol} with {names.get(h, h)}: click for why"
                    style = self._style(color)
                    if b.description == text and b.style is style and b.tooltip == tip:
                        continue
                    with b.hold_sync():  # a changed cell is one message
                        if b.description != text:
                            b.description = text
                        if b.style is not style:
                            b.style = style
                        if b.tooltip != tip:
                            b.tooltip = tip

    # -- clicks -------------------------------------------------------------------------
    def _make_click(self, card: Card, holder: Any) -> Callable[[widgets.Button], None]:
        return lambda _b: self.explain(card, holder)

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
        self.explanation.value = to_html(el("div", el("b", f"Why {card.symbol} / {who}:"),
                                            el("ol", [el("li", s) for s in sentences], style={"margin": 0})))
        return " ".join(sentences)

    def cell(self, card: Card | str, holder: Any) -> widgets.Button:
        return self.cells[(Card.parse(card), holder)]

    def _level_changed(self, change: dict) -> None:
        if self.on_level is not None:
            self.on_level(change["new"])

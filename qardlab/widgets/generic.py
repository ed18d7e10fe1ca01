"""``GenericTable``: a table for any game, drawn from its observations alone.

What ``qardlab.widgets.table`` gives a game whose class names no table of its own
(``Game.table_widget``): the seats (names, hand sizes, whose turn, who is out), the viewer's hand
(every hand in the teacher's view), the human's legal actions as buttons (their words from the
game's ``action_text``), the log in the game's words (its ``describe_event``), and the viewer's
deduction grid from the game's knowledge adapter. It reads only the base observation keys
(:data:`~qardlab.engine.game.BASE_OBSERVATION_KEYS`), plus ``hand_sizes``, ``hands`` (the teacher)
and ``out`` / ``eliminated`` where a game gives them: a new game gets a working table with no code
in ``widgets/``. The words and the action codec are the game class's class methods: no game is read,
none is made.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from ..cards import Card
from ..engine import find_game
from ..render.grid import grid_table
from ..render.markup import el, raw, to_html
from .base import GameTable
from .cards import cards_html
from .grid import LEVELS, DeductionGrid

__all__ = ["GenericTable"]


def _hand_row(label: str, codes: Sequence[str]) -> Any:
    """A labelled row of cards (their codes), face up."""
    return el("div", el("b", label), " ", raw(cards_html([Card.parse(c) for c in codes])))


class GenericTable(GameTable):
    """A table for any game (see the module docstring and :class:`~qardlab.widgets.base.GameTable`)."""

    seat_view_log = {"height": "14em"}

    @classmethod
    def seat_view_has_grids(cls, game: str) -> bool:
        return bool(find_game(game).knowledge_adapter)

    @staticmethod
    def seat_view_parts(obs: Mapping[str, Any], seat: int, names: Sequence[str], level: str) -> list[str]:
        """The side-by-side replay's column (see :class:`GameTable`), from the seat's JSON observation alone:
        the seats, the seat's hand and, for a game with a knowledge adapter, its grid at ``level``."""
        parts = [GenericTable._seats_html(obs, seat), to_html(_hand_row("Your hand:", obs["hand"]))]
        game = find_game(obs["game"])
        if game.knowledge_adapter:
            k = game.knowledge_function()(obs)
            holders = [h for h in k.holders if h != seat]
            parts.append(to_html(grid_table(k.grid(level), holders, k.names, caption=LEVELS[level])))
        return parts

    def __init__(
        self,
        source: Any,
        seat: int | None = None,
        *,
        human: int | None = None,
        bots: Mapping[int, Any] | None = None,
        pace: str = "at once",
        charts: bool = True,
        level: str = "logic",
        views: Sequence[int | None] | None = None,
    ) -> None:
        super().__init__(source, seat, human=human, bots=bots, pace=pace, charts=charts, views=views)
        self.title = self._heading(self.game_class.title or self.game_class.name)
        self.seats_view = widgets.HTML()
        self.seats_view.add_class("qard-seats")
        self.hand_view = widgets.HTML()
        self.hand_view.add_class("qard-my-hand")
        self.controls = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.controls.add_class("qard-controls")
        self.log_view = widgets.HTML(layout=widgets.Layout(max_height="14em", overflow="auto", padding="4px"))
        self.log_view.add_class("qard-log")
        self._level = level
        #: the viewer's deduction grid (None until a knowledge gives its cards, or for a game without one)
        self.grid: DeductionGrid | None = None
        self.grid_box = widgets.VBox()
        self._buttons: list[widgets.Button] = []
        self.children = [
            self.css,
            self.title,
            self.toolbar,
            self.stepper,
            self.what_if_box,
            self.seats_view,
            self.hand_view,
            self.controls,
            self.status,
            self._label("Log"),
            self.log_view,
            self.grid_box,
        ]
        self.render()
        if self.human is not None:
            self.run_bots()

    def play_on_options(self) -> dict[str, Any]:
        """The new table played on from here keeps this one's grid level."""
        return {"level": self.grid.level.value if self.grid is not None else self._level}

    # -- drawing ------------------------------------------------------------------------
    def render(self) -> None:
        """Draw the table from the viewpoint's observation (the teacher's: ``observation(None)``)."""
        seat = self.seat
        obs = self.observation(seat)
        with self.hold_sync():
            self.seats_view.value = self._seats_html(obs, seat)
            self.hand_view.value = self._hands_html(obs, seat)
            lines = self.log_lines(obs, seat)
            self.log_view.value = to_html(el("div", [el("div", t, cls="qard-log-line") for t in lines]))
            self._render_controls(obs)
            self._render_grid(obs, seat)
            self._show_play_on(obs)

    @staticmethod
    def _seats_html(obs: Mapping[str, Any], seat: int | None) -> str:
        sizes = obs.get("hand_sizes") or [None] * obs["players"]
        out = set(obs.get("out", obs.get("eliminated", [])))
        boxes = []
        for s, name in enumerate(obs["names"]):
            bits = [f"{sizes[s]} cards"] if sizes[s] is not None else []
            if s in out:
                bits.append("out")
            turn = obs["to_move"] == s and not obs["is_over"]
            boxes.append(
                el(
                    "span",
                    el("span", name + (" (you)" if s == seat else ""), cls="qard-seat-name"),
                    (" · " + " · ".join(bits)) if bits else None,
                    cls=["qard-seat", "qard-turn" if turn else None, "qard-out" if s in out else None],
                    data_seat=s,
                    style={"padding": "2px 6px", "margin_right": "6px"},
                )
            )
        return to_html(el("div", boxes, cls="qard-seats"))

    def _hands_html(self, obs: Mapping[str, Any], seat: int | None) -> str:
        if seat is not None:
            return to_html(_hand_row("Your hand:", obs["hand"]))
        hands = obs.get("hands") or [[] for _ in range(self.players)]
        return to_html(el("div", [_hand_row(f"{n}:", h) for n, h in zip(obs["names"], hands)]))

    def _render_controls(self, obs: Mapping[str, Any]) -> None:
        legal = obs["legal"] if self.human_to_act() and self.seat == self.human else []
        while len(self._buttons) < len(legal):
            b = widgets.Button(layout=widgets.Layout(width="auto"))
            b.add_class("qard-action")
            b.on_click(self._clicked)
            self._buttons.append(b)
        for b, a in zip(self._buttons, legal):
            b.description = self.game_class.action_text(self.game_class.action_from_json(a), self.names)
            b.action = a  # type: ignore[attr-defined]
        self.controls.children = tuple(self._buttons[: len(legal)])

    def _clicked(self, button: widgets.Button) -> None:
        self.act(button.action)  # type: ignore[attr-defined]

    def _render_grid(self, obs: Mapping[str, Any], seat: int | None) -> None:
        if seat is None or not self.game_class.knowledge_adapter:
            self.grid_box.children = ()
            return
        k = self.game_class.knowledge_function()(obs)
        if self.grid is None:
            self.grid = DeductionGrid(k.cards, level=self._level, on_level=lambda _l: self.render())
        holders = [h for h in k.holders if h != seat]
        self.grid.update(k, holders, k.names, title=f"What {self.names[seat]} can know")
        self.grid_box.children = (self.grid,)

    def seat_column(self, seat: int, abreast: int) -> list[widgets.Widget]:
        """The interactive side-by-side column (see :class:`GameTable`): the seats, the seat's hand, its
        deduction grid (where the game has a knowledge adapter), its log."""
        return [self.seats_view, self.hand_view, self.grid_box, self._label("Log"), self.log_view]

    # -- acting -------------------------------------------------------------------------
    def buttons(self) -> dict[str, widgets.Button]:
        """The human's action buttons now, by their words."""
        return {b.description: b for b in self.controls.children}

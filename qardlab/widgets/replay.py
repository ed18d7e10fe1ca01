"""Every seat's view of a finished game next to each other, drawn as HTML: the light side-by-side replay.

One column a seat, each drawn only from that seat's observation at the step (``observation_json(seat)``,
what the classroom server sends that seat): whose view it is, what the seat saw happen at this step, its
own hand, what it could know (Five Sons: its deduction grid at the chosen level; Hearts: its felt and
card-counting grid), and its log, newest first. One slider moves every column to the same step.

A column is one HTML widget, not a whole table of widgets (a Five Sons table is about 300): a class's
projector draws four of them at once, and each slider move sends four strings. The interactive columns
(clickable grid cells that explain why, charts) are whole tables locked to each seat:
:func:`qardlab.classroom.teacher.side_by_side` with ``interactive=True``.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Sequence

import ipywidgets as widgets

from .. import palette
from ..engine import Record, Timeline, find_game
from ..render import style
from ..render.markup import el, to_html, wrapped
from . import felt
from .grid import LEVELS

__all__ = ["SideBySide", "seat_view_html", "check_seats", "check_step", "columns_classes", "LEVELS"]


def _step_words(obs: Mapping[str, Any], seat: int, names: Sequence[str], last: int, describe: Any) -> Any:
    """ "Step k of n: ..." with the events of this step that the seat's observation holds, in its words
    (``describe``: the game's ``describe_event``)."""
    k = obs["step"]
    if k == 0:
        lines = ["Before the deal."]
    else:
        lines = [describe(e, seat, names) for e in obs["events"] if e["step"] == k - 1]
        lines = lines or ["(nothing this seat could see happened)"]
    body = [[el("br") if i else None, line] for i, line in enumerate(lines)]
    return el("div", el("b", f"Step {k} of {last}"), ": ", body, cls="qard-seat-step")


def _log(
    obs: Mapping[str, Any], seat: int, names: Sequence[str], describe: Any, height: str = "14em", **kw: Any
) -> list[str]:
    lines = [describe(e, seat, names) for e in obs["events"]]
    return [
        to_html(el("b", "Log")),
        wrapped(
            felt.log_html(lines, names, **kw),
            cls="qard-log",
            style={"max-height": height, "overflow": "auto"},
        ),
    ]


def _table_of(game: Any) -> Any:
    """The game's table class (:func:`qardlab.widgets.table_class`), which draws a seat's column here
    (``seat_view_parts``; the words are the game class's ``describe_event``); ValueError for a game whose
    table has no such view."""
    from .finder import table_class

    try:
        cls = table_class(game)
    except ValueError:
        cls = None
    if cls is None or getattr(cls, "seat_view_parts", None) is None:
        raise ValueError(f"no side-by-side view of the game {game!r}")
    return cls


def check_seats(seats: Optional[Iterable[int]], players: int) -> list[int]:
    """The seats a side-by-side replay shows, as a list (None: every seat, in order); ValueError naming
    them unless there is at least one, each is a seat ``0..players - 1`` (an int) and none is repeated.
    The light and the interactive view (:func:`qardlab.classroom.teacher.side_by_side`) both check here."""
    top = players - 1
    if seats is None:
        return list(range(players))
    if isinstance(seats, (str, bytes, Mapping)) or not isinstance(seats, Iterable):
        raise ValueError(f"seats {seats!r:.80}: give a list of seats 0..{top}")
    chosen = list(seats)
    bad = [s for s in chosen if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players]
    if bad:
        raise ValueError(f"seats {bad!r:.80}: each must be a seat 0..{top}")
    if not chosen:
        raise ValueError(f"seats []: show at least one seat 0..{top}")
    twice = sorted({s for s in chosen if chosen.count(s) > 1})
    if twice:
        which = ("seat " if len(twice) == 1 else "seats ") + ", ".join(map(str, twice))
        raise ValueError(f"seats {chosen!r:.80}: {which} given more than once; show each seat once")
    return chosen


def check_step(at: Optional[int], last: int) -> None:
    """The step a side-by-side replay shows first: None (the last) or a step ``0..last``; ValueError naming
    anything else. The light and the interactive view both check here."""
    if at is not None and (isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= last):
        raise ValueError(f"at must be a step from 0 to {last}, not {at!r}")


def columns_classes(count: int) -> list[str]:
    """The classes of a side-by-side row of ``count`` columns: the style sheet lays them out as many abreast
    as the output area has room for at about 15em a column (a Five Sons grid and a hand of five cards at
    projector size), else in rows of half as many (two, then one), never scrolled sideways."""
    return ["qard-side-by-side-row", f"qard-columns-{max(1, min(int(count), 6))}"]


def seat_view_html(obs: Mapping[str, Any], seat: int, last: int, *, level: str = "logic") -> str:
    """One seat's column at one step, as HTML, drawn from that seat's JSON observation ``obs`` alone (the
    step, the names and the game are its own keys): ``last`` the game's last step (for "Step k of n"),
    ``level`` the Five Sons grid's level (one of :data:`LEVELS`)."""
    table = _table_of(obs.get("game"))
    if level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of {list(LEVELS)}")
    if obs.get("seat") != seat:
        raise ValueError(f"the observation is seat {obs.get('seat')!r}'s, not seat {seat!r}'s")
    names = list(obs["names"])
    head = to_html(el("h4", f"{names[seat]}'s view", style={"margin": ".2em 0"}))
    describe = find_game(obs["game"]).describe_event
    words = to_html(_step_words(obs, seat, names, last, describe))
    parts = table.seat_view_parts(obs, seat, names, level)
    log = _log(obs, seat, names, describe, **table.seat_view_log)
    return wrapped(head + words + "".join(parts + log), cls="qard-seat-view")


class SideBySide(widgets.VBox):
    """Every seat's view of ``record`` as one HTML column each, one slider (``slider``) stepping them all.

    ``seats`` the seats shown (default all); ``at`` the step shown first (default the last). A replay whose
    columns hold deduction grids (Five Sons, a game with a knowledge adapter) has one level control for
    every grid (``level``). ``columns`` maps a seat to its HTML widget; each column's HTML is
    :func:`seat_view_html` of that seat's observation at the slider's step."""

    def __init__(
        self,
        record: Record,
        seats: Optional[Sequence[int]] = None,
        at: Optional[int] = None,
        level: str = "logic",
    ) -> None:
        if not isinstance(record, Record):
            raise ValueError(f"side by side replays a Record, not {record!r:.80}")
        table = _table_of(record.game)  # (ValueError for a game with no such view)
        if level not in LEVELS:
            raise ValueError(f"level {level!r} is not one of {list(LEVELS)}")
        self.timeline = Timeline(record)
        last = self.timeline.last
        self.seats = check_seats(seats, record.players)
        check_step(at, last)
        #: whether the columns hold deduction grids (Five Sons, a game with a knowledge adapter)
        self.grids = table.seat_view_has_grids(record.game)
        self.slider = widgets.IntSlider(
            value=last if at is None else at,
            min=0,
            max=last,
            description="Step:",
            continuous_update=False,
            layout=widgets.Layout(width="40em", max_width="100%"),
        )
        self.slider.add_class("qard-side-by-side-step")
        self.level = widgets.ToggleButtons(
            options=[(v, k) for k, v in LEVELS.items()],
            value=level,
            style={"button_width": "auto"},
            layout=widgets.Layout(display="" if self.grids else "none"),
        )
        self.level.add_class("qard-grid-level")
        self.columns: dict[int, widgets.HTML] = {}
        for s in self.seats:
            col = widgets.HTML(
                layout=widgets.Layout(padding="0 4px", border_right=f"1px solid {palette.RULE}")
            )
            col.add_class("qard-seat-column")
            self.columns[s] = col
        self.draw()
        self.slider.observe(lambda _c: self.draw(), names="value")
        self.level.observe(lambda _c: self.draw(), names="value")
        note = widgets.HTML(
            "<i>One column per seat, each only what that seat saw and could work out. "
            "Move the slider: every seat moves to the same step.</i>"
        )
        # the columns side by side as wide as the output area allows, in rows of half as many below that
        # (qardlab.render.style: the row's classes)
        row = widgets.HBox(list(self.columns.values()))
        for cls in columns_classes(len(self.seats)):
            row.add_class(cls)
        css = widgets.HTML(style.STYLESHEET, layout=widgets.Layout(display="none"))
        super().__init__([css, self.slider, self.level, note, row])
        self.add_class("qard-side-by-side")

    @property
    def step(self) -> int:
        return int(self.slider.value)

    def column_html(self, seat: int, step: Optional[int] = None) -> str:
        """Seat ``seat``'s column at ``step`` (default the slider's), from its observation there alone."""
        k = self.step if step is None else step
        obs = self.timeline.state_at(k).observation_json(seat)
        return seat_view_html(obs, seat, self.timeline.last, level=self.level.value)

    def draw(self) -> None:
        """Every column at the slider's step (one game state, each seat's observation of it)."""
        g = self.timeline.go_to(self.step)
        level = self.level.value
        with self.hold_sync():
            for s, col in self.columns.items():
                col.value = seat_view_html(g.observation_json(s), s, self.timeline.last, level=level)

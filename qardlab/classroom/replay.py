"""A finished table's record at every seat's view at once, one slider moving them all ("here is what each of
you could have known after question 7"): :func:`side_by_side`."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from .. import palette
from ..engine import Record
from ..render.markup import el, to_html

__all__ = ["side_by_side"]


def side_by_side(
    record: Record,
    seats: Optional[Sequence[int]] = None,
    charts: bool = False,
    at: Optional[int] = None,
    interactive: bool = False,
) -> Any:
    """Every seat's view of a recorded game next to each other, one slider stepping them together.

    One column per seat: whose view it is, what that seat saw happen at this step, its own hand, and
    what it could know (Five Sons: its deduction grid; Hearts: its felt and card-counting grid), then
    its log. ``seats``: the seats shown (default all; ValueError naming them unless each is a seat, given
    once, and there is one: :func:`qardlab.widgets.replay.check_seats`, for both views alike). ``at``: the
    step shown first (default the last).

    By default each column is HTML drawn from that seat's observation at the step alone
    (:class:`qardlab.widgets.replay.SideBySide`: ``box.columns``, one level control for every Five Sons
    grid): light enough for a projector. ``interactive=True`` (or ``charts=True``): each column is part of
    an ordinary table locked to its seat (``box.tables``), its grid cells clickable ("why?"), its charts
    drawn; each table is drawn at ``at`` at once, not at the last step and then again. The table is the
    game's own (:func:`qardlab.widgets.table_class`: the generic table for a game that names none), and
    its ``seat_column`` gives the column, so a new game needs no change here."""
    if not isinstance(interactive, bool) or not isinstance(charts, bool):
        raise ValueError(f"interactive and charts must be True or False, not {interactive!r}, {charts!r}")
    if not (interactive or charts):
        from ..widgets.replay import SideBySide

        return SideBySide(record, seats=seats, at=at)

    import ipywidgets as widgets

    from ..engine import Timeline
    from ..widgets import GameTable, table_class
    from ..widgets.replay import check_seats, check_step, columns_classes

    cls = table_class(record)  # the game's own table (the generic one for a game that names none)
    if cls.seat_column is GameTable.seat_column:
        raise ValueError(
            f"no interactive side-by-side view of the game {record.game!r}: {cls.__name__} has no seat_column"
        )
    seats = check_seats(seats, record.players)
    first = Timeline(record)
    last = first.last
    check_step(at, last)  # (before the other seats' replays)
    timelines = [first, *(Timeline(record) for _ in seats[1:])]
    if at is not None:
        for tl in timelines:
            tl.go_to(at)
    tables = [cls(tl, seat=s, views=(s,), charts=charts) for tl, s in zip(timelines, seats)]
    slider = widgets.IntSlider(
        value=last if at is None else at,
        min=0,
        max=last,
        description="Step:",
        continuous_update=False,
        layout=widgets.Layout(width="40em"),
    )
    slider.add_class("qard-side-by-side-step")

    def moved(change: dict) -> None:
        for t in tables:
            t.timeline.go_to(change["new"])

    slider.observe(moved, names="value")
    columns = []
    for s, t in zip(seats, tables):
        head = widgets.HTML(to_html(el("h4", f"{t.names[s]}'s view", style={"margin": ".2em 0"})))
        col = widgets.VBox(
            [head, t.stepper.text, *t.seat_column(s, len(seats))],
            layout=widgets.Layout(
                width=f"{100 / len(seats):.2f}%",
                min_width="18em",
                padding="0 4px",
                border_right=f"1px solid {palette.RULE}",
            ),
        )
        col.add_class("qard-seat-column")
        columns.append(col)
    row = widgets.HBox(columns)  # as many abreast as the output area has room for (replay.columns_classes)
    for cls in columns_classes(len(seats)):
        row.add_class(cls)
    note = widgets.HTML(
        "<i>One column per seat, each only what that seat saw and could work out. "
        "Move the slider: every seat moves to the same step.</i>"
    )
    box = widgets.VBox([tables[0].css, slider, note, row])
    box.add_class("qard-side-by-side")
    box.tables = tables  # type: ignore[attr-defined]
    box.slider = slider  # type: ignore[attr-defined]
    return box

"""A stepper over a :class:`qardlab.engine.Timeline`, shared by every table.

Buttons for first / previous / next / last, a ``Play`` widget (play and pause) linked to a
slider over the positions, and the current step in words, as the chosen seat saw it
(``game.describe``). The stepper moves the timeline; the table listens to the timeline and
redraws. Every change of several widgets is batched with ``hold_sync()``.
"""

from __future__ import annotations

from typing import Callable

import ipywidgets as widgets
import traitlets

from ..engine import Timeline
from ..render.markup import el, to_html

__all__ = ["Stepper"]


class Stepper(widgets.VBox):
    """Controls over a timeline; ``seat`` (None: teacher) decides how the step is described."""

    def __init__(
        self,
        timeline: Timeline,
        seat: int | None = None,
        describe: Callable[[Timeline, int | None], list[str]] | None = None,
        interval_ms: int = 800,
    ) -> None:
        self.timeline = timeline
        self._seat = seat
        self._describe = describe or (lambda tl, s: tl.describe(s))
        lay = widgets.Layout(width="3em")
        self.first_button = widgets.Button(description="|◀", tooltip="first step", layout=lay)
        self.previous_button = widgets.Button(description="◀", tooltip="previous step", layout=lay)
        self.next_button = widgets.Button(description="▶", tooltip="next step", layout=lay)
        self.last_button = widgets.Button(description="▶|", tooltip="last step", layout=lay)
        self.play = widgets.Play(
            min=0,
            max=timeline.last,
            value=timeline.position,
            interval=interval_ms,
            step=1,
            description="play",
        )
        self.slider = widgets.IntSlider(
            min=0,
            max=timeline.last,
            value=timeline.position,
            description="step",
            continuous_update=False,
            layout=widgets.Layout(width="22em"),
        )
        self.text = widgets.HTML()
        self.text.add_class("qard-step-text")
        for b, name in (
            (self.first_button, "first"),
            (self.previous_button, "previous"),
            (self.next_button, "next"),
            (self.last_button, "last"),
        ):
            b.add_class(f"qard-step-{name}")
        self.first_button.on_click(lambda _: self.timeline.first())
        self.previous_button.on_click(lambda _: self.timeline.previous())
        self.next_button.on_click(lambda _: self.timeline.next())
        self.last_button.on_click(lambda _: self.timeline.end())
        self._link = traitlets.link((self.play, "value"), (self.slider, "value"))
        self.slider.observe(self._slid, names="value")
        self._unsubscribe = timeline.observe(lambda _tl: self.refresh())
        super().__init__(
            [
                widgets.HBox(
                    [
                        self.first_button,
                        self.previous_button,
                        self.play,
                        self.next_button,
                        self.last_button,
                        self.slider,
                    ]
                ),
                self.text,
            ]
        )
        self.add_class("qard-stepper")
        self.refresh()

    def follow(self, timeline: Timeline) -> None:
        """Step through another timeline (a table's new game) with the same controls."""
        self._unsubscribe()
        self.timeline = timeline
        self._unsubscribe = timeline.observe(lambda _tl: self.refresh())
        self.play.playing = False
        self.refresh()  # a timeline starts at its end: the slider moves there, and no step is replayed

    @property
    def seat(self) -> int | None:
        return self._seat

    @seat.setter
    def seat(self, seat: int | None) -> None:
        self._seat = seat
        self.refresh()

    def _slid(self, change: dict) -> None:
        if change["new"] != self.timeline.position:
            self.timeline.go_to(int(change["new"]))

    def refresh(self) -> None:
        """Bring the controls and the words in line with the timeline."""
        tl = self.timeline
        k = tl.position
        with self.hold_sync(), self.slider.hold_sync(), self.play.hold_sync():
            if self.slider.max != tl.last:
                self.slider.max = tl.last
                self.play.max = tl.last
            if self.slider.value != k:
                self.slider.value = k
            self.first_button.disabled = self.previous_button.disabled = k == 0
            self.next_button.disabled = self.last_button.disabled = k == tl.last
            self.text.value = self.words()

    def words(self) -> str:
        """The current step in words, as HTML."""
        tl = self.timeline
        k = tl.position
        if k == 0:
            lines = ["Before the deal."]
        else:
            lines = self._describe(tl, self._seat) or ["(nothing this seat could see happened)"]
        body = [[el("br") if i else None, line] for i, line in enumerate(lines)]
        return to_html(el("span", el("b", f"Step {k} of {tl.last}"), ": ", body))

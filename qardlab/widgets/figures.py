"""Showing matplotlib Figures inside widgets: as PNG bytes in an ``Image`` widget.

An ``Image`` holds its picture as a synced value, so a chart redraws with one message and
is testable without a browser; the Figure itself stays available (``.figure``) for data
checks. Drawing goes through an Agg canvas and PIL (several times faster than
``savefig``), and a chart whose axes stay put can *blit*: the static background is drawn
once and only the artists marked animated are redrawn on each step.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Iterable

import ipywidgets as widgets

from ..charts import NOTHING_YET, chart_text, fit_range
from ..render.markup import el, to_html

if TYPE_CHECKING:  # matplotlib and PIL are imported at the first chart drawn, not with the tables
    from matplotlib.artist import Artist
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

__all__ = ["figure_png", "ChartView", "growing_limit"]

DPI = 90


def _canvas_png(canvas: FigureCanvasAgg) -> bytes:
    from PIL import Image

    w, h = canvas.get_width_height()
    img = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    buf = io.BytesIO()
    img.save(buf, "png", compress_level=1)
    return buf.getvalue()


def figure_png(fig: Figure, dpi: int = DPI) -> bytes:
    """The figure as PNG bytes (fixed layout is drawn as is; constrained layout runs once)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig.set_dpi(dpi)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return _canvas_png(canvas)


def growing_limit(n: float, start: float) -> int:
    """An axis end for a history of ``n`` steps that is still growing: ``start``, then half as much
    again each time the history reaches it (rounded to tens). A chart keeps its axes while the history
    grows inside, so each step redraws only the lines; the axes are drawn anew a few times a game."""
    limit = max(10, int(start))
    while limit < n:
        limit = int(round(limit * 1.5, -1))
    return limit


#: text a screen reader reads but the eye does not see (the chart's text alternative)
_SR_ONLY = (
    "position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;"
    "clip:rect(0 0 0 0);white-space:nowrap;border:0"
)


class ChartView(widgets.VBox):
    """An Image showing one Figure, with the chart's text alternative beside it for screen readers
    (:func:`qardlab.charts.chart_text`, in ``alt_text``); ``figure`` keeps the last Figure for tests.

    (The text is a visually hidden HTML element: ipywidgets' Image has no ``alt``, and its view fails to
    render when a ``tooltip`` is set.)
    """

    def __init__(self, css_class: str = "qard-chart") -> None:
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
        self.caption = widgets.HTML()
        self.caption.add_class("qard-chart-alt")
        super().__init__([self.image, self.caption], layout=widgets.Layout(max_width="100%"))
        self.add_class(css_class)
        self.figure: Figure | None = None
        self._canvas: FigureCanvasAgg | None = None
        self._background = None
        self._bare = None  # the background without the x axes
        self._animated: list[Artist] = []
        self.alt_text = ""

    @property
    def value(self) -> bytes:
        """The PNG shown."""
        return self.image.value

    @value.setter
    def value(self, png: bytes) -> None:
        self.image.value = png

    def _say(self) -> None:
        text = chart_text(self.figure)
        if text != self.alt_text:
            self.alt_text = text
            self.caption.value = (
                to_html(el("span", text, role="img", aria_label=text, style=_SR_ONLY)) if text else ""
            )

    def show(self, fig: Figure | None) -> None:
        """Draw a new figure in full, and its text alternative."""
        self.figure = fig
        self._background = self._bare = None
        self._animated = []
        with self.hold_sync():
            self.value = figure_png(fig) if fig is not None else b""
            self._say()

    def show_blit(self, fig: Figure, animated: Iterable[Artist]) -> None:
        """Draw ``fig`` once without ``animated`` (kept as background), then those artists on top.

        A "nothing yet" figure is drawn in full and not kept for blitting (``blitting`` stays False), so
        the owner builds the real chart at the next step."""
        if fig.get_gid() == NOTHING_YET:
            self.show(fig)
            return
        self.figure = fig
        self._animated = list(animated)
        for a in self._animated:
            a.set_animated(True)
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        fig.set_dpi(DPI)
        self._canvas = FigureCanvasAgg(fig)
        self._draw_background()
        self.redraw()

    def _x_axes(self) -> list[Artist]:
        assert self.figure is not None
        return [a.xaxis for a in self.figure.axes if a.xaxis.get_visible()]

    def _draw_background(self) -> None:
        """Draw the figure without the animated artists and keep it as the background; kept also without
        its x axes (drawn last, over it), so that a new x range draws only them again (:meth:`widen`)."""
        assert self._canvas is not None and self.figure is not None
        xaxes = self._x_axes()
        for x in xaxes:
            x.set_animated(True)
        try:
            self._canvas.draw()
        finally:
            for x in xaxes:
                x.set_animated(False)
        self._bare = self._canvas.copy_from_bbox(self.figure.bbox)
        self._draw_x_axes()

    def _draw_x_axes(self) -> None:
        """The x axes over the background kept without them, kept as the background."""
        assert self._canvas is not None and self.figure is not None
        for x in self._x_axes():
            x.axes.draw_artist(x)
        self._background = self._canvas.copy_from_bbox(self.figure.bbox)

    def widen(self, xlim: tuple[float, float]) -> None:
        """Give every axes of the blitted figure the x range ``xlim`` and show it: only the x axes (the
        question axis of a growing game) are drawn again over the rest of the background, then the animated
        artists. Nothing else of the background depends on the x range."""
        if self.figure is None:
            return
        for a in self.figure.axes:
            a.set_xlim(*xlim)
        if self._bare is None or self._canvas is None:
            if self._background is not None:
                self.show_blit(self.figure, self._animated)
            else:
                self.redraw()
            return
        self._canvas.restore_region(self._bare)
        self._draw_x_axes()
        self.redraw()

    def redraw(self) -> None:
        """Redraw only the animated artists over the saved background (after changing their data)."""
        if self._background is None or self._canvas is None:
            if self.figure is not None:
                self.value = figure_png(self.figure)
            return
        if self._out_of_range():
            # the new data left the axes: widen them and draw the background again
            self.show_blit(self.figure, self._animated)
            return
        self._canvas.restore_region(self._background)
        for a in self._animated:
            a.axes.draw_artist(a) if a.axes is not None else self.figure.draw_artist(a)
        with self.hold_sync():
            self.value = _canvas_png(self._canvas)
            self._say()

    def _out_of_range(self) -> bool:
        """Whether an animated line's data falls outside its axes; if so, the axes are widened to fit."""
        from matplotlib.lines import Line2D

        widened = False
        for a in self._animated:
            if not isinstance(a, Line2D) or a.axes is None or a.get_gid() == "current":
                continue
            ys = [float(v) for v in a.get_ydata()]
            xs = [float(v) for v in a.get_xdata()]
            lo, hi = a.axes.get_ylim()
            if ys and (min(ys) < lo or max(ys) > hi):
                a.axes.set_ylim(*fit_range(ys, (lo, hi)))
                widened = True
            x0, x1 = a.axes.get_xlim()
            if xs and max(xs) > x1:
                a.axes.set_xlim(x0, max(xs))
                widened = True
        return widened

    @property
    def blitting(self) -> bool:
        return self._background is not None

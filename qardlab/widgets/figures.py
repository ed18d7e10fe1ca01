"""Showing matplotlib Figures inside widgets: as PNG bytes in an ``Image`` widget.

An ``Image`` holds its picture as a synced value, so a chart redraws with one message and
is testable without a browser; the Figure itself stays available for data checks.
"""

from __future__ import annotations

import io

import ipywidgets as widgets
from matplotlib.figure import Figure

__all__ = ["figure_png", "ChartView"]


def figure_png(fig: Figure, dpi: int = 72) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


class ChartView(widgets.Image):
    """An Image showing one Figure; ``figure`` keeps the last Figure for tests."""

    def __init__(self, css_class: str = "qard-chart") -> None:
        super().__init__(format="png", layout=widgets.Layout(max_width="100%"))
        self.add_class(css_class)
        self.figure: Figure | None = None

    def show(self, fig: Figure | None) -> None:
        self.figure = fig
        self.value = figure_png(fig) if fig is not None else b""

"""Five Sons' own charts: the 120 secret pairs shaded by probability, and the advisor's best questions.

Pure functions returning a matplotlib ``Figure``, made with the shared :mod:`qardlab.charts` helpers
(matplotlib is imported only when a chart is drawn). Only the widgets and the lessons load this module:
nothing of the game's rules imports it (``tests/test_import_graph.py`` checks), so the game still runs
without matplotlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

import numpy as np

from ... import palette
from ...cards import Card
from ...charts import axes_title, figure
from .deck import FACE_CARDS, NUMBER_CARDS

if TYPE_CHECKING:  # the type only; the game's folder names no front end (tests/test_packaging.py)
    from ...charts import Figure

__all__ = ["pair_grid", "pair_grid_chart", "advisor_chart"]


def pair_grid(posterior: Mapping[tuple[Card, Card], float]) -> np.ndarray:
    """The posterior as a 12 x 10 array: rows FACE_CARDS, columns NUMBER_CARDS."""
    grid = np.zeros((len(FACE_CARDS), len(NUMBER_CARDS)))
    fi = {c: i for i, c in enumerate(FACE_CARDS)}
    ni = {c: j for j, c in enumerate(NUMBER_CARDS)}
    for (face, number), p in posterior.items():
        grid[fi[Card.parse(face)], ni[Card.parse(number)]] = p
    return grid


def pair_grid_chart(
    posterior: Mapping[tuple[Card, Card], float],
    candidates: Iterable[tuple[Card, Card]] | None = None,
    *,
    title: str = "",
    figsize: tuple[float, float] = (5.2, 4.6),
) -> Figure:
    """The 120 secret pairs (face cards by number cards) shaded by posterior probability.

    Pairs outside ``candidates`` (or with probability 0 when no candidates are given) are
    crossed out. The image's array is :func:`pair_grid` of the posterior.
    """
    grid = pair_grid(posterior)
    fig = figure(figsize=figsize, layout="constrained")
    ax = fig.add_subplot()
    im = ax.imshow(grid, cmap="Reds", vmin=0, vmax=max(float(grid.max()), 1e-9), aspect="auto")
    im.set_label("pairs")  # what a cell is, for the chart's text alternative (qardlab.charts.chart_text)
    ax.set_xticks(range(len(NUMBER_CARDS)), [c.symbol for c in NUMBER_CARDS])
    ax.set_yticks(range(len(FACE_CARDS)), [c.symbol for c in FACE_CARDS])
    if candidates is not None:
        alive = {(Card.parse(f), Card.parse(n)) for f, n in candidates}
    else:
        alive = {
            (f, n) for i, f in enumerate(FACE_CARDS) for j, n in enumerate(NUMBER_CARDS) if grid[i, j] > 0
        }
    xs, ys = [], []
    for i, f in enumerate(FACE_CARDS):
        for j, n in enumerate(NUMBER_CARDS):
            if (f, n) not in alive:
                xs.append(j)
                ys.append(i)
    crosses = ax.scatter(xs, ys, marker="x", color=palette.MUTED, s=40, lw=1)
    crosses.set_gid("crossed")
    fig.colorbar(im, ax=ax, label="probability")
    axes_title(ax, title or f"Secret pairs: {len(alive)} possible")
    return fig


def _question_label(q: Any) -> str:
    """A bar's label: a string as is, a question (target, face, number) as "seat t: face number"."""
    if isinstance(q, str):
        return q
    try:
        t, f, n = q.target, q.face, q.number
    except AttributeError:
        return str(q)
    return f"seat {t}: {Card.parse(f).symbol} {Card.parse(n).symbol}"


def advisor_chart(
    advice: Sequence[Any],
    top: int = 8,
    *,
    names: Sequence[str] | None = None,
    title: str = "",
    figsize: tuple[float, float] = (6.0, 3.4),
) -> Figure:
    """The best questions as horizontal bars of expected information (bits), best on top.

    ``advice`` is a best-first sequence of ``(question, bits)`` pairs or of objects with
    ``target``/``face``/``number`` and ``info`` (or ``bits``), as the advisor returns them.
    """
    labels, bits = [], []
    for item in list(advice)[:top]:
        if isinstance(item, tuple) and len(item) == 2:
            q, b = item
        else:
            q = getattr(item, "question", item)
            b = next(
                (
                    getattr(item, a)
                    for a in ("bits", "info", "information")
                    if getattr(item, a, None) is not None
                ),
                None,
            )
            if b is None:
                raise ValueError(f"advice item {item!r} has no expected information (bits)")
        label = _question_label(q)
        if names is not None and hasattr(q, "target"):
            label = f"{names[q.target]}: {Card.parse(q.face).symbol} {Card.parse(q.number).symbol}"
        labels.append(label)
        bits.append(float(b))
    fig = figure(figsize=figsize, layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(bits))[::-1]
    bars = ax.barh(y, bits, color=palette.CHART_BAR, label="advice")
    for bar in bars:
        bar.set_gid("advice")
    ax.set_yticks(y, labels)
    ax.set_xlabel("expected information (bits)")
    axes_title(ax, title or "Best questions")
    return fig

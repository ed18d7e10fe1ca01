"""Charts as pure functions: data in, a matplotlib ``Figure`` out.

Nothing here calls ``plt.show`` or touches pyplot's global state: figures are built with
``matplotlib.figure.Figure`` directly, so they show once in a notebook (through their own
``_repr_png_``), draw into a widget's ``Output``, and test by their plotted data (line
``ydata``, image arrays, bar heights) rather than pixels.

What a game draws of its own shapes lives with the game and is made with :func:`figure` and
:func:`axes_title` (Five Sons' grid of secret pairs and its advisor's bars:
``qardlab.games.five_sons.charts``, which only widgets and lessons load).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

import numpy as np

from . import palette

if TYPE_CHECKING:  # matplotlib is imported when a chart is drawn (figure), not with this module
    from matplotlib.figure import Figure

__all__ = [
    "candidates_chart",
    "seats_chart",
    "hearts_totals_chart",
    "history_columns",
    "has_history",
    "nothing_yet",
    "fit_range",
    "chart_text",
    "figure",
    "axes_title",
    "LEVEL_LABELS",
    "SEAT_COLORS",
]

#: how each level is named on the charts
LEVEL_LABELS = {
    "naive": "crossing out seen cards",
    "logic": "full logic",
    "effective": "probability (2^entropy)",
}
_COLORS = palette.CHART_LEVELS
#: lines drawn widest first, so that a line that coincides with another still shows around it
_STYLES = {
    "naive": dict(ls="-", lw=5.0, alpha=0.55),
    "logic": dict(ls="-", lw=2.6),
    "effective": dict(ls="--", lw=1.6),
}
#: per-seat styles (colour-blind-safe Okabe-Ito colours, decreasing widths, distinct dashes and markers)
SEAT_COLORS = palette.SEAT_COLORS
_SEAT_DASHES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (1, 1)))
_SEAT_MARKERS = ("o", "s", "^", "D", "v", "P")
#: the compact chart size (inches at the widgets' 90 dpi: 576 x 270 px), legend below the axes
COMPACT = (6.4, 3.0)
#: x columns a candidate history may be charted against, and how the axis is named
X_LABELS = {"turn": "questions asked", "step": "step"}
#: the gid of the figure drawn when there is nothing to chart yet
NOTHING_YET = "nothing-yet"


def figure(**kwargs: Any) -> Figure:
    """A new ``matplotlib.figure.Figure``: matplotlib (about a third of a second to import) is loaded
    at the first chart drawn, so a table or lesson that draws none never waits for it. A game's own
    charts (``qardlab.games.five_sons.charts``) make their figures with it too."""
    from matplotlib.figure import Figure

    return Figure(**kwargs)


def _integer_ticks(ax: Any) -> None:
    """Ticks at whole numbers only, on both axes (questions and pairs are counted), and a few of them
    (at most about six: calm on a projector, and each tick is several artists to make and draw)."""
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))


def axes_title(ax: Any, text: str) -> None:
    """The axes' title, just above it. Given its place (``y=1``, where matplotlib would put it: no chart
    here has ticks or labels above its axes), the title is not placed anew at every draw, which measures
    every tick label of the axes (a fifth of drawing a small chart)."""
    ax.set_title(text, y=1.0)


def _get(row: Any, name: str) -> Any:
    if isinstance(row, Mapping):
        return row[name]
    return getattr(row, name)


def history_columns(
    history: Any,
    names: Sequence[str] = ("step", "turn", "naive", "logic", "effective", "entropy"),
) -> dict[str, np.ndarray]:
    """Columns of a candidate history: a list of rows (dicts or objects) or a dict of lists.

    Missing columns are left out, so a history without ``effective`` still charts.
    """
    out: dict[str, np.ndarray] = {}
    if isinstance(history, Mapping):
        for n in names:
            if n in history:
                out[n] = np.asarray(history[n], dtype=float)
        return out
    rows = list(history)
    for n in names:
        try:
            out[n] = np.asarray([_get(r, n) for r in rows], dtype=float)
        except (KeyError, AttributeError):
            continue
    return out


def x_column(cols: Mapping[str, np.ndarray], x: str | None = None) -> str:
    """The column to chart against: ``x`` if given, else "turn" (questions) when present, else "step"."""
    if x is not None:
        if x not in cols:
            raise ValueError(f"x column {x!r} is not in the history (columns: {sorted(cols)})")
        return x
    return "turn" if "turn" in cols else "step"


def has_history(history: Any, x: str | None = None) -> bool:
    """Whether a candidate history has something to chart: rows at two or more points of its x axis (the
    deal and a later question; rows that all sit at question 0 are "nothing yet")."""
    cols = history_columns(history)
    name = x_column(cols, x) if cols else "step"
    if name not in cols:  # no x column at all: the rows' order is the axis
        return bool(cols) and len(next(iter(cols.values()))) >= 2
    return len(set(cols[name].tolist())) >= 2


def nothing_yet(text: str, *, title: str = "", figsize: tuple[float, float] = (6.4, 1.2)) -> Figure:
    """A small figure that says there is nothing to chart yet (gid :data:`NOTHING_YET`), no empty axes
    drawn."""
    fig = figure(figsize=figsize)
    fig.set_gid(NOTHING_YET)
    # one empty axes, switched off: callers that walk ``fig.axes[0].lines`` find no line
    fig.add_axes((0, 0, 1, 1)).set_axis_off()
    if title:
        fig.text(0.5, 0.78, title, ha="center", va="center", fontsize="large", fontweight="bold")
    fig.text(
        0.5,
        0.38 if title else 0.5,
        text,
        ha="center",
        va="center",
        color=palette.MUTED,
        wrap=True,
        gid=NOTHING_YET,
    )
    return fig


def fit_range(
    values: Iterable[float], limit: float | tuple[float, float] | None = None, floor_share: float = 0.45
) -> tuple[float, float]:
    """A y range that fits ``values``: from 0 when the smallest is under ``floor_share`` of the largest,
    else from a little under the smallest; ``limit`` (a top, or a (bottom, top) pair) is widened to fit."""
    vals = np.asarray([v for v in values if np.isfinite(v)], dtype=float)
    if vals.size == 0:
        lo, hi = 0.0, 1.0
    else:
        lo, hi = float(vals.min()), float(vals.max())
    span = max(hi - lo, 1.0)
    top = hi + max(0.08 * span, 0.5)
    bottom = 0.0 if lo <= floor_share * hi else max(0.0, lo - max(0.15 * span, 1.0))
    if isinstance(limit, tuple):
        bottom, top = min(bottom, limit[0]), max(top, limit[1])
    elif limit is not None:
        top = max(top, float(limit))
    return bottom, top


def _same_as(ys: Mapping[str, np.ndarray], labels: Mapping[str, str]) -> dict[str, str]:
    """key -> the label of an earlier line it coincides with everywhere (for a note in the legend)."""
    out: dict[str, str] = {}
    keys = list(ys)
    for i, k in enumerate(keys):
        for j in range(i):
            other = keys[j]
            if len(ys[k]) == len(ys[other]) and np.allclose(ys[k], ys[other]):
                out[k] = labels[other]
                break
    return out


def _legend_below(fig: Figure, ax: Any, handles: list, fixed_layout: bool) -> Any:
    """The legend in one row (or two) under the axes, never on the lines."""
    chars = sum(len(str(h.get_label())) + 6 for h in handles)
    ncols = len(handles) if chars <= 95 else (len(handles) + 1) // 2
    if fixed_layout:
        leg = ax.legend(
            handles=handles,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.27),
            ncols=ncols,
            fontsize="small",
            frameon=False,
        )
    else:
        leg = fig.legend(
            handles=handles, loc="outside lower center", ncols=ncols, fontsize="small", frameon=False
        )
    leg.set_gid("legend")
    return leg


def candidates_chart(
    history: Any,
    current: int | None = None,
    *,
    title: str = "",
    levels: Sequence[str] = ("naive", "logic", "effective"),
    entropy: bool = True,
    figsize: tuple[float, float] = COMPACT,
    xlim: tuple[float, float] | None = None,
    ylim: float | tuple[float, float] | None = None,
    entropy_max: float | tuple[float, float] | None = None,
    fixed_layout: bool = False,
    x: str | None = None,
) -> Figure:
    """Candidate secret pairs after each question at each level, the entropy on a second axis.

    ``history`` rows have ``turn`` (questions asked) and/or ``step``, the counts named in ``levels``
    (and ``entropy``); the x axis counts questions when rows have ``turn`` (else steps; ``x`` chooses),
    with integer ticks. ``current`` (in the same unit) is marked by a vertical line. Lines carry the level
    as ``gid``. ``xlim``/``ylim`` (a top or a (bottom, top) pair; widened to fit the values)/``entropy_max``
    fix the axes (a table keeps them still while stepping); ``fixed_layout`` uses set margins instead of
    the slower constrained layout. With fewer than two rows (nothing has happened yet) the figure is
    :func:`nothing_yet`, saying what the deal left.
    """
    cols = history_columns(history)
    heading = title or "Candidate secret pairs"
    if not has_history(cols, x):
        if cols and len(next(iter(cols.values()))):
            said = [f"{int(cols[lv][0])} by {LEVEL_LABELS[lv]}" for lv in ("naive", "logic") if lv in cols]
            text = (
                f"After the deal: {' and '.join(said)} pairs possible. The lines start with the first answer."
            )
        else:
            text = "Nothing to chart yet: the cards are not dealt."
        return nothing_yet(text, title=heading)
    xname = x_column(cols, x)
    fig = figure(figsize=figsize, layout=None if fixed_layout else "constrained")
    if fixed_layout:
        fig.subplots_adjust(left=0.1, right=0.88, bottom=0.33, top=0.9)
    ax = fig.add_subplot()
    xs = cols[xname] if xname in cols else np.arange(len(next(iter(cols.values()))), dtype=float)
    shown = [lv for lv in levels if lv in cols]
    labels = {lv: LEVEL_LABELS.get(lv, lv) for lv in shown}
    same = {} if fixed_layout else _same_as({lv: cols[lv] for lv in shown}, labels)
    handles = []
    for z, level in enumerate(shown):
        style = _STYLES.get(level, dict(ls="-", lw=2.0))
        label = labels[level] + (f" (= {same[level]})" if level in same else "")
        (line,) = ax.plot(
            xs,
            cols[level],
            drawstyle="steps-post",
            color=_COLORS.get(level),
            label=label,
            zorder=2 + z,
            **style,
        )
        line.set_gid(level)
        handles.append(line)
    ax.set_xlabel(X_LABELS.get(xname, xname))
    _integer_ticks(ax)
    if xlim is not None:
        ax.set_xlim(*xlim)
    else:
        ax.set_xlim(float(xs.min()), max(float(xs.max()), float(xs.min()) + 1))
    ax.set_ylabel("candidate pairs")
    ax.set_ylim(*fit_range(np.concatenate([cols[lv] for lv in shown]) if shown else [], ylim))
    if entropy and "entropy" in cols:
        ax2 = ax.twinx()
        (line,) = ax2.plot(
            xs, cols["entropy"], color=_COLORS["entropy"], ls=":", lw=1.5, label="entropy (bits, right axis)"
        )
        line.set_gid("entropy")
        handles.append(line)
        ax2.set_ylabel("entropy (bits)", color=_COLORS["entropy"])
        ax2.set_ylim(*fit_range(cols["entropy"], entropy_max))
    if current is not None:
        marker = ax.axvline(current, color=palette.HIGHLIGHT, lw=2)
        marker.set_gid("current")
        marker.set_label("_current")
    _legend_below(fig, ax, handles, fixed_layout)
    axes_title(ax, heading)
    return fig


def seats_chart(
    histories: Mapping[str, Any],
    current: int | None = None,
    *,
    level: str = "logic",
    title: str = "",
    xlim: tuple[float, float] | None = None,
    ylim: float | tuple[float, float] | None = None,
    figsize: tuple[float, float] = COMPACT,
    fixed_layout: bool = False,
    x: str | None = None,
) -> Figure:
    """Candidate pairs of every seat at one level, one line per seat (``gid`` ``seat:<name>``).

    ``histories`` maps a seat's name to its history rows (as :func:`candidates_chart`, whose x axis,
    ``current``, ``ylim`` and nothing-yet figure this shares). Seats have distinct colours, dashes and
    widths, so seats that know the same stay visible.
    """
    heading = title or "Candidate secret pairs, seat by seat"
    all_cols = {name: history_columns(h) for name, h in histories.items()}
    if not any(has_history(c, x) for c in all_cols.values()):
        return nothing_yet("Nothing to chart yet: the lines start with the first answer.", title=heading)
    fig = figure(figsize=figsize, layout=None if fixed_layout else "constrained")
    if fixed_layout:
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.33, top=0.9)
    ax = fig.add_subplot()
    plotted = {name: c for name, c in all_cols.items() if level in c}
    same = (
        {} if fixed_layout else _same_as({n: c[level] for n, c in plotted.items()}, {n: n for n in plotted})
    )
    handles, values, xname = [], [], "step"
    for i, (name, cols) in enumerate(plotted.items()):
        xname = x_column(cols, x)
        label = name + (f" (= {same[name]})" if name in same else "")
        xs = cols[xname] if xname in cols else np.arange(len(cols[level]), dtype=float)
        (line,) = ax.plot(
            xs,
            cols[level],
            drawstyle="steps-post",
            label=label,
            color=SEAT_COLORS[i % len(SEAT_COLORS)],
            ls=_SEAT_DASHES[i % len(_SEAT_DASHES)],
            lw=max(1.2, 4.0 - 0.7 * i),
            zorder=2 + i,
        )
        line.set_gid(f"seat:{name}")
        handles.append(line)
        values.extend(cols[level])
    if current is not None:
        ax.axvline(current, color=palette.HIGHLIGHT, lw=2).set_gid("current")
    if xlim is not None:
        ax.set_xlim(*xlim)
    _integer_ticks(ax)
    ax.set_ylim(*fit_range(values, ylim))
    ax.set_xlabel(X_LABELS.get(xname, xname))
    ax.set_ylabel("candidate pairs")
    _legend_below(fig, ax, handles, fixed_layout)
    axes_title(ax, heading)
    return fig


def hearts_totals_chart(
    hand_points: Sequence[Sequence[int]],
    names: Sequence[str],
    *,
    target: int | None = None,
    title: str = "",
    figsize: tuple[float, float] = COMPACT,
) -> Figure:
    """Running match totals after each hand, one line per seat (x = hands played, from 0).

    ``hand_points[h][seat]`` is what the seat scored in hand ``h``; each line's ydata is the
    cumulative sum, starting at 0. ``target`` draws the match's end line. Seats have distinct
    colours, markers (nested sizes) and dashes, and a seat whose line is another's is named in
    the legend ("Carol (= Bob)"): after a moon three lines coincide.
    """
    pts = np.asarray(hand_points, dtype=float).reshape(-1, len(names))
    totals = np.vstack([np.zeros(len(names)), np.cumsum(pts, axis=0)])
    fig = figure(figsize=figsize, layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(totals.shape[0])
    same = _same_as({name: totals[:, s] for s, name in enumerate(names)}, {n: n for n in names})
    handles = []
    for seat, name in enumerate(names):
        label = name + (f" (= {same[name]})" if name in same else "")
        (line,) = ax.plot(
            x,
            totals[:, seat],
            label=label,
            color=SEAT_COLORS[seat % len(SEAT_COLORS)],
            marker=_SEAT_MARKERS[seat % len(_SEAT_MARKERS)],
            ms=max(4.0, 11.0 - 2.0 * seat),
            ls=_SEAT_DASHES[seat % len(_SEAT_DASHES)],
            lw=max(1.2, 3.5 - 0.6 * seat),
            zorder=2 + seat,
        )
        line.set_gid(f"seat{seat}")
        handles.append(line)
    values = list(totals.ravel())
    if target is not None:
        ax.axhline(target, color=palette.GRID_LINE, ls="--", lw=1).set_gid("target")
        ax.annotate(
            f"match ends at {target}",
            (0, target),
            xytext=(2, 2),
            textcoords="offset points",
            fontsize="small",
            color=palette.FAINT,
        )
        values.append(target)
    ax.set_xlabel("hands played")
    ax.set_ylabel("points")
    ax.set_xticks(x)
    ax.set_ylim(0, fit_range(values)[1])
    _legend_below(fig, ax, handles, fixed_layout=False)
    axes_title(ax, title or "Running totals")
    return fig


def chart_text(fig: Figure | None) -> str:
    """A text alternative for a chart (a screen reader's reading): its title and, for each line, its
    label and first and last values; for bars, each bar's label and length."""
    if fig is None:
        return ""
    if fig.get_gid() == NOTHING_YET:
        return " ".join(t.get_text() for t in fig.texts)
    parts: list[str] = []
    for ax in fig.axes:
        if ax.get_title():
            parts.append(ax.get_title() + ".")
        for ln in ax.lines:
            label = str(ln.get_label())
            ys = np.asarray(ln.get_ydata(), dtype=float)
            if label.startswith("_") or ys.size == 0 or ln.get_gid() in ("current", "target"):
                continue
            parts.append(f"{label}: {ys[0]:g} to {ys[-1]:g}." if ys.size > 1 else f"{label}: {ys[0]:g}.")
        bars = [p for p in ax.patches if p.get_gid() == "advice"]
        if bars:
            ticks = [t.get_text() for t in ax.get_yticklabels()]
            ys = list(ax.get_yticks())
            for b in bars:
                y = b.get_y() + b.get_height() / 2
                i = int(np.argmin([abs(t - y) for t in ys])) if ys else -1
                name = ticks[i] if 0 <= i < len(ticks) else ""
                parts.append(f"{name} {b.get_width():.2f} bits.")
        if ax.images:  # a grid of probabilities; its label names what a cell is (default "cells")
            image = ax.images[0]
            arr = image.get_array()
            label = str(image.get_label())
            noun = "cells" if not label or label.startswith("_") else label
            parts.append(
                f"{int(np.count_nonzero(arr))} {noun} with a probability above zero; "
                f"the likeliest {float(np.max(arr)):.0%}."
            )
    return " ".join(parts)

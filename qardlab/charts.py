"""Charts as pure functions: data in, a matplotlib ``Figure`` out.

Nothing here calls ``plt.show`` or touches pyplot's global state: figures are built with
``matplotlib.figure.Figure`` directly, so they show once in a notebook (through their own
``_repr_png_``), draw into a widget's ``Output``, and test by their plotted data (line
``ydata``, image arrays, bar heights) rather than pixels.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from .cards import FACE_CARDS, NUMBER_CARDS, Card

__all__ = [
    "candidates_chart",
    "seats_chart",
    "pair_grid_chart",
    "advisor_chart",
    "hearts_totals_chart",
    "history_columns",
    "LEVEL_LABELS",
]

#: how each level is named on the charts
LEVEL_LABELS = {
    "naive": "crossing out seen cards",
    "logic": "full logic",
    "effective": "probability (2^entropy)",
}
_COLORS = {"naive": "#9e9e9e", "logic": "#1f77b4", "effective": "#d62728", "entropy": "#2ca02c"}


def _get(row: Any, name: str) -> Any:
    if isinstance(row, Mapping):
        return row[name]
    return getattr(row, name)


def history_columns(history: Any, names: Sequence[str] = ("step", "naive", "logic", "effective", "entropy"),
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


def candidates_chart(history: Any, current: int | None = None, *, title: str = "",
                     levels: Sequence[str] = ("naive", "logic", "effective"),
                     entropy: bool = True, figsize: tuple[float, float] = (6.4, 3.4),
                     xlim: tuple[float, float] | None = None, ylim: float | None = None,
                     entropy_max: float | None = None, fixed_layout: bool = False) -> Figure:
    """Candidate secret pairs after each turn at each level, the entropy on a second axis.

    ``history`` rows have ``step`` and the counts named in ``levels`` (and ``entropy``);
    ``current`` (a step) is marked by a vertical line. Lines carry the level as ``gid``.
    ``xlim``/``ylim``/``entropy_max`` fix the axes (a table keeps them still while stepping);
    ``fixed_layout`` uses set margins instead of the slower constrained layout.
    """
    cols = history_columns(history)
    fig = Figure(figsize=figsize, layout=None if fixed_layout else "constrained")
    if fixed_layout:
        fig.subplots_adjust(left=0.1, right=0.88, bottom=0.15, top=0.9)
    ax = fig.add_subplot()
    x = cols.get("step", np.arange(len(next(iter(cols.values()), []))))
    for level in levels:
        if level in cols:
            (line,) = ax.plot(x, cols[level], drawstyle="steps-post", color=_COLORS.get(level),
                              label=LEVEL_LABELS.get(level, level), lw=2)
            line.set_gid(level)
    ax.set_xlabel("step")
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_ylabel("candidate pairs")
    ax.set_ylim(bottom=0, top=ylim)
    if entropy and "entropy" in cols:
        ax2 = ax.twinx()
        (line,) = ax2.plot(x, cols["entropy"], color=_COLORS["entropy"], ls=":", lw=1.5,
                           label="entropy (bits)")
        line.set_gid("entropy")
        ax2.set_ylabel("entropy (bits)", color=_COLORS["entropy"])
        ax2.set_ylim(bottom=0, top=entropy_max)
    if current is not None:
        marker = ax.axvline(current, color="#f5b700", lw=2)
        marker.set_gid("current")
        marker.set_label("_current")
    ax.legend(loc="upper right", fontsize="small")
    ax.set_title(title or "Candidate secret pairs")
    return fig


def seats_chart(histories: Mapping[str, Any], current: int | None = None, *, level: str = "logic",
                title: str = "", xlim: tuple[float, float] | None = None, ylim: float | None = None,
                figsize: tuple[float, float] = (6.4, 3.4), fixed_layout: bool = False) -> Figure:
    """Candidate pairs of every seat at one level, one line per seat (``gid`` ``seat:<name>``).

    ``histories`` maps a seat's name to its history rows (as :func:`candidates_chart`).
    """
    fig = Figure(figsize=figsize, layout=None if fixed_layout else "constrained")
    if fixed_layout:
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.15, top=0.9)
    ax = fig.add_subplot()
    for name, history in histories.items():
        cols = history_columns(history)
        if level in cols:
            (line,) = ax.plot(cols["step"], cols[level], drawstyle="steps-post", lw=2, label=name)
            line.set_gid(f"seat:{name}")
    if current is not None:
        ax.axvline(current, color="#f5b700", lw=2).set_gid("current")
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_ylim(bottom=0, top=ylim)
    ax.set_xlabel("step")
    ax.set_ylabel(f"candidate pairs ({LEVEL_LABELS.get(level, level)})")
    ax.legend(loc="upper right", fontsize="small")
    ax.set_title(title or "Candidate secret pairs, seat by seat")
    return fig


def pair_grid(posterior: Mapping[tuple[Card, Card], float]) -> np.ndarray:
    """The posterior as a 12 x 10 array: rows FACE_CARDS, columns NUMBER_CARDS."""
    grid = np.zeros((len(FACE_CARDS), len(NUMBER_CARDS)))
    fi = {c: i for i, c in enumerate(FACE_CARDS)}
    ni = {c: j for j, c in enumerate(NUMBER_CARDS)}
    for (face, number), p in posterior.items():
        grid[fi[Card.parse(face)], ni[Card.parse(number)]] = p
    return grid


def pair_grid_chart(posterior: Mapping[tuple[Card, Card], float],
                    candidates: Iterable[tuple[Card, Card]] | None = None, *, title: str = "",
                    figsize: tuple[float, float] = (5.2, 4.6)) -> Figure:
    """The 120 secret pairs (face cards by number cards) shaded by posterior probability.

    Pairs outside ``candidates`` (or with probability 0 when no candidates are given) are
    crossed out. The image's array is :func:`pair_grid` of the posterior.
    """
    grid = pair_grid(posterior)
    fig = Figure(figsize=figsize, layout="constrained")
    ax = fig.add_subplot()
    im = ax.imshow(grid, cmap="Reds", vmin=0, vmax=max(float(grid.max()), 1e-9), aspect="auto")
    ax.set_xticks(range(len(NUMBER_CARDS)), [c.symbol for c in NUMBER_CARDS])
    ax.set_yticks(range(len(FACE_CARDS)), [c.symbol for c in FACE_CARDS])
    if candidates is not None:
        alive = {(Card.parse(f), Card.parse(n)) for f, n in candidates}
    else:
        alive = {(f, n) for i, f in enumerate(FACE_CARDS) for j, n in enumerate(NUMBER_CARDS)
                 if grid[i, j] > 0}
    xs, ys = [], []
    for i, f in enumerate(FACE_CARDS):
        for j, n in enumerate(NUMBER_CARDS):
            if (f, n) not in alive:
                xs.append(j)
                ys.append(i)
    crosses = ax.scatter(xs, ys, marker="x", color="#555", s=40, lw=1)
    crosses.set_gid("crossed")
    fig.colorbar(im, ax=ax, label="probability")
    ax.set_title(title or f"Secret pairs: {len(alive)} possible")
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


def advisor_chart(advice: Sequence[Any], top: int = 8, *, names: Sequence[str] | None = None,
                  title: str = "", figsize: tuple[float, float] = (6.0, 3.4)) -> Figure:
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
            b = next((getattr(item, a) for a in ("bits", "info", "information")
                      if getattr(item, a, None) is not None), None)
            if b is None:
                raise ValueError(f"advice item {item!r} has no expected information (bits)")
        label = _question_label(q)
        if names is not None and hasattr(q, "target"):
            label = f"{names[q.target]}: {Card.parse(q.face).symbol} {Card.parse(q.number).symbol}"
        labels.append(label)
        bits.append(float(b))
    fig = Figure(figsize=figsize, layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(bits))[::-1]
    bars = ax.barh(y, bits, color="#1f77b4", label="advice")
    for bar in bars:
        bar.set_gid("advice")
    ax.set_yticks(y, labels)
    ax.set_xlabel("expected information (bits)")
    ax.set_title(title or "Best questions")
    return fig


def hearts_totals_chart(hand_points: Sequence[Sequence[int]], names: Sequence[str], *,
                        target: int | None = None, title: str = "",
                        figsize: tuple[float, float] = (6.0, 3.2)) -> Figure:
    """Running match totals after each hand, one line per seat (x = hands played, from 0).

    ``hand_points[h][seat]`` is what the seat scored in hand ``h``; each line's ydata is the
    cumulative sum, starting at 0. ``target`` draws the match's end line.
    """
    pts = np.asarray(hand_points, dtype=float).reshape(-1, len(names))
    totals = np.vstack([np.zeros(len(names)), np.cumsum(pts, axis=0)])
    fig = Figure(figsize=figsize, layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(totals.shape[0])
    for seat, name in enumerate(names):
        (line,) = ax.plot(x, totals[:, seat], marker="o", label=name)
        line.set_gid(f"seat{seat}")
    if target is not None:
        ax.axhline(target, color="#999", ls="--", lw=1).set_gid("target")
    ax.set_xlabel("hands played")
    ax.set_ylabel("points")
    ax.set_xticks(x)
    ax.legend(fontsize="small", loc="upper left")
    ax.set_title(title or "Running totals")
    return fig

"""The printable notepad grid for a class playing Five Sons with a physical deck.

One A4 page, as SVG: the 22 cards as rows (face cards, then A-10 of hearts), the players
plus the secret pair as columns, each cell left blank for the player to mark (✓ holds,
✗ does not, a small note otherwise), and a strip for the questions heard. It is the
deduction grid of the widgets on paper (Neller's Clue notepad).

    python -m qardlab.lessons.notepad out.svg [--players 4|5] [--names Alice,Bob,Carol,Dave]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Sequence

from .. import palette
from ..games.five_sons.deck import five_sons_deck
from ..render.markup import el, to_xml

__all__ = ["notepad_svg", "write_notepad", "main"]

#: A4 in millimetres; the SVG's user unit is one millimetre
WIDTH, HEIGHT = 210.0, 297.0


def _text(x: float, y: float, size: float, words: str, **attrs: Any) -> Any:
    return el("text", words, x=x, y=y, font_size=size, **attrs)


def _line(x1: float, y1: float, x2: float, y2: float, color: str, width: float) -> Any:
    return el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=color, stroke_width=width)


def notepad_svg(
    players: int = 4, names: Sequence[str] | None = None, title: str = "Five Sons notepad"
) -> str:
    """The notepad as an SVG document (one A4 page). ``names`` label the player columns
    (blank lines to write names on when omitted). Built with the package's element helper
    (:mod:`qardlab.render.markup`), its colours the palette's (the cards' in the session's deck)."""
    if isinstance(players, bool) or players not in (4, 5):
        raise ValueError(f"The King of Hearts has Five Sons is for 4 or 5 players, not {players!r}")
    if names is not None and (len(names) != players or not all(isinstance(n, str) for n in names)):
        raise ValueError(f"names must be {players} strings, one per player, not {names!r}")
    cards = five_sons_deck()
    columns = list(names) if names is not None else [""] * players
    columns.append("Secret")
    left, top = 15.0, 44.0
    label_w = 26.0
    col_w = (WIDTH - 2 * left - label_w) / len(columns)
    row_h = 8.2
    out: list[Any] = [
        el("title", title),
        el("rect", width="100%", height="100%", fill=palette.PAPER),
        _text(left, 16, 7, title, font_weight="bold"),
        _text(
            left,
            23,
            3.4,
            'Mark each cell: ✓ holds it, ✗ does not; write small notes ("1 of Q♣ 8♥", '
            "turn numbers) in the rest.",
        ),
        _text(
            left,
            28,
            3.4,
            f"The secret is one face card and one number card. Each player holds {20 // players} cards.",
        ),
    ]
    # the header: a name line per player, then the secret
    y0 = top
    out.append(_text(left, y0 - 2, 3.6, "Card", font_weight="bold"))
    for j, name in enumerate(columns):
        x = left + label_w + j * col_w
        if name:
            out.append(
                _text(
                    x + col_w / 2,
                    y0 - 2,
                    3.6,
                    name,
                    text_anchor="middle",
                    font_weight="bold",
                    cls="qard-notepad-col",
                )
            )
        else:
            out.append(_line(x + 2, y0 - 1.5, x + col_w - 2, y0 - 1.5, palette.PRINT_GREY, 0.25))
            out.append(
                _text(
                    x + col_w / 2,
                    y0 - 8,
                    2.6,
                    f"player {j + 1}",
                    text_anchor="middle",
                    fill=palette.PRINT_GREY,
                    cls="qard-notepad-col",
                )
            )
    for i, card in enumerate(cards):
        y = y0 + i * row_h
        if i == 12:  # a gap line between the face cards and the number cards
            out.append(_line(left, y, WIDTH - left, y, palette.PRINT_INK, 0.6))
        out.append(
            el(
                "rect",
                x=left,
                y=y,
                width=WIDTH - 2 * left,
                height=row_h,
                fill=palette.PRINT_STRIPE if i % 2 else palette.PAPER,
                stroke=palette.GRID_LINE,
                stroke_width=0.2,
            )
        )
        out.append(
            _text(
                left + 2,
                y + row_h * 0.7,
                4.4,
                card.symbol,
                fill=palette.suit_color(card),
                cls="qard-notepad-card",
                data_card=card.code,
            )
        )
    bottom = y0 + len(cards) * row_h
    for j in range(len(columns) + 1):
        x = left + label_w + j * col_w
        out.append(_line(x, y0, x, bottom, palette.PRINT_RULE, 0.3))
    out.append(
        el(
            "rect",
            x=left,
            y=y0,
            width=WIDTH - 2 * left,
            height=bottom - y0,
            fill="none",
            stroke=palette.PRINT_INK,
            stroke_width=0.5,
        )
    )
    # the questions heard
    qy = bottom + 8
    out.append(
        _text(
            left, qy, 3.6, "Questions heard (who asked whom, the two cards, the answer)", font_weight="bold"
        )
    )
    y = qy + 7
    while y < HEIGHT - 10:
        out.append(_line(left, y, WIDTH - left, y, palette.PRINT_LINE, 0.25))
        y += 7
    out.append(
        _text(
            WIDTH - left,
            HEIGHT - 5,
            2.4,
            "qardlab · python -m qardlab.lessons.notepad",
            text_anchor="end",
            fill=palette.PRINT_GREY,
        )
    )
    svg = el(
        "svg",
        out,
        xmlns="http://www.w3.org/2000/svg",
        width=f"{WIDTH:g}mm",
        height=f"{HEIGHT:g}mm",
        viewBox=f"0 0 {WIDTH:g} {HEIGHT:g}",
        font_family="DejaVu Sans, Arial, sans-serif",
        cls="qard-notepad",
    )
    # one element a line, as the file was written before (diffable, readable)
    return to_xml(svg).replace("><", ">\n<") + "\n"


def write_notepad(path: str | Path, players: int = 4, names: Sequence[str] | None = None) -> Path:
    """Write the notepad SVG to ``path``; returns the path."""
    path = Path(path)
    path.write_text(notepad_svg(players, names), encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m qardlab.lessons.notepad",
        description="Write the printable Five Sons notepad grid (SVG, one A4 page).",
    )
    parser.add_argument("out", help="the SVG file to write")
    parser.add_argument("--players", type=int, default=4, choices=(4, 5))
    parser.add_argument("--names", help="player names, comma-separated (default: blank lines to write on)")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    try:
        path = write_notepad(args.out, args.players, names)
    except ValueError as e:
        parser.error(str(e))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

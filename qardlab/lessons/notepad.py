"""The printable notepad grid for a class playing Five Sons with a physical deck.

One A4 page, as SVG: the 22 cards as rows (face cards, then A-10 of hearts), the players
plus the secret pair as columns, each cell left blank for the player to mark (✓ holds,
✗ does not, a small note otherwise), and a strip for the questions heard. It is the
deduction grid of the widgets on paper (Neller's Clue notepad).

    python -m qardlab.lessons.notepad out.svg [--players 4|5] [--names Alice,Bob,Carol,Dave]
"""

from __future__ import annotations

import argparse
import html
from pathlib import Path
from typing import Sequence

from ..cards import five_sons_deck

__all__ = ["notepad_svg", "write_notepad", "main"]

#: A4 in millimetres; the SVG's user unit is one millimetre
WIDTH, HEIGHT = 210.0, 297.0


def notepad_svg(players: int = 4, names: Sequence[str] | None = None,
                title: str = "Five Sons notepad") -> str:
    """The notepad as an SVG document (one A4 page). ``names`` label the player columns
    (blank lines to write names on when omitted)."""
    if isinstance(players, bool) or players not in (4, 5):
        raise ValueError(f"The King of Hearts has Five Sons is for 4 or 5 players, not {players!r}")
    if names is not None and (len(names) != players or not all(isinstance(n, str) for n in names)):
        raise ValueError(f"names must be {players} strings, one per player, not {names!r}")
    cards = five_sons_deck()
    columns = [html.escape(n) for n in names] if names is not None else [""] * players
    columns.append("Secret")
    left, top = 15.0, 44.0
    label_w = 26.0
    col_w = (WIDTH - 2 * left - label_w) / len(columns)
    row_h = 8.2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:g}mm" height="{HEIGHT:g}mm" '
           f'viewBox="0 0 {WIDTH:g} {HEIGHT:g}" font-family="DejaVu Sans, Arial, sans-serif" '
           f'class="qard-notepad">',
           f'<title>{html.escape(title)}</title>',
           '<rect width="100%" height="100%" fill="#fff"/>',
           f'<text x="{left:g}" y="16" font-size="7" font-weight="bold">{html.escape(title)}</text>',
           f'<text x="{left:g}" y="23" font-size="3.4">Mark each cell: ✓ holds it, ✗ does not; write small '
           'notes ("1 of Q♣ 8♥", turn numbers) in the rest.</text>',
           f'<text x="{left:g}" y="28" font-size="3.4">The secret is one face card and one number card. '
           f'Each player holds {20 // players} cards.</text>']
    # the header: a name line per player, then the secret
    y0 = top
    out.append(f'<text x="{left:g}" y="{y0 - 2:g}" font-size="3.6" font-weight="bold">Card</text>')
    for j, name in enumerate(columns):
        x = left + label_w + j * col_w
        if name:
            out.append(f'<text x="{x + col_w / 2:g}" y="{y0 - 2:g}" font-size="3.6" text-anchor="middle" '
                       f'font-weight="bold" class="qard-notepad-col">{name}</text>')
        else:
            out.append(f'<line x1="{x + 2:g}" y1="{y0 - 1.5:g}" x2="{x + col_w - 2:g}" y2="{y0 - 1.5:g}" '
                       'stroke="#888" stroke-width="0.25"/>')
            out.append(f'<text x="{x + col_w / 2:g}" y="{y0 - 8:g}" font-size="2.6" text-anchor="middle" '
                       f'fill="#888" class="qard-notepad-col">player {j + 1}</text>')
    for i, card in enumerate(cards):
        y = y0 + i * row_h
        if i == 12:  # a gap line between the face cards and the number cards
            out.append(f'<line x1="{left:g}" y1="{y:g}" x2="{WIDTH - left:g}" y2="{y:g}" stroke="#000" '
                       'stroke-width="0.6"/>')
        shade = "#f3f3f3" if i % 2 else "#fff"
        out.append(f'<rect x="{left:g}" y="{y:g}" width="{WIDTH - 2 * left:g}" height="{row_h:g}" '
                   f'fill="{shade}" stroke="#999" stroke-width="0.2"/>')
        color = "#c8102e" if card.red else "#1a1a1a"
        out.append(f'<text x="{left + 2:g}" y="{y + row_h * 0.7:g}" font-size="4.4" fill="{color}" '
                   f'class="qard-notepad-card" data-card="{card.code}">{card.symbol}</text>')
    bottom = y0 + len(cards) * row_h
    for j in range(len(columns) + 1):
        x = left + label_w + j * col_w
        out.append(f'<line x1="{x:g}" y1="{y0:g}" x2="{x:g}" y2="{bottom:g}" stroke="#666" '
                   'stroke-width="0.3"/>')
    out.append(f'<rect x="{left:g}" y="{y0:g}" width="{WIDTH - 2 * left:g}" height="{bottom - y0:g}" '
               'fill="none" stroke="#000" stroke-width="0.5"/>')
    # the questions heard
    qy = bottom + 8
    out.append(f'<text x="{left:g}" y="{qy:g}" font-size="3.6" font-weight="bold">Questions heard '
               '(who asked whom, the two cards, the answer)</text>')
    y = qy + 7
    while y < HEIGHT - 10:
        out.append(f'<line x1="{left:g}" y1="{y:g}" x2="{WIDTH - left:g}" y2="{y:g}" stroke="#bbb" '
                   'stroke-width="0.25"/>')
        y += 7
    out.append(f'<text x="{WIDTH - left:g}" y="{HEIGHT - 5:g}" font-size="2.4" text-anchor="end" fill="#888">'
               'qardlab · python -m qardlab.lessons.notepad</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_notepad(path: str | Path, players: int = 4, names: Sequence[str] | None = None) -> Path:
    """Write the notepad SVG to ``path``; returns the path."""
    path = Path(path)
    path.write_text(notepad_svg(players, names), encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qardlab.lessons.notepad",
                                     description="Write the printable Five Sons notepad grid "
                                                 "(SVG, one A4 page).")
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

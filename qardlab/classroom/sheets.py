"""What the teacher hands out: join sheets (a card per student seat: the table, the seat, its code, a link and
a QR code) and the codes as a table. Only the seats' codes: a teacher's code (every hand and the secret) is on
nothing meant for students."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from .. import palette
from ..render.markup import el, raw, to_html

__all__ = ["codes_html", "join_sheet", "join_link", "join_sheet_view"]


def codes_html(created: Sequence[dict], url: str = "") -> str:
    """The seats' join codes of some tables as an HTML table, one row a table, to show (or print) for the
    class. The teachers' codes (every hand and the secret) are not on it."""
    width = max((len(t["seats"]) for t in created), default=0)
    head = el("tr", el("th"), [el("th", f"seat {s}") for s in range(width)])
    rows = [
        el(
            "tr",
            el("th", f"table {t['table']}"),
            [
                el("td", el("code", s["code"])) if s["code"] else el("td", f"bot: {s['bot']}")
                for s in t["seats"]
            ],
        )
        for t in created
    ]
    table = to_html(el("table", head, rows, cls="qard-codes"))
    return (to_html(el("p", "Server: ", el("code", url))) if url else "") + table


def join_link(app_url: str, server_url: str, code: str) -> str:
    """The address of the student's join page with the server and the code filled in."""
    from urllib.parse import urlencode

    return f"{app_url.rstrip('?')}?{urlencode({'server': server_url, 'code': code})}"


def _qr_svg(text: str) -> str:
    """A QR code of ``text`` as inline SVG, or "" when no light QR library (segno) is installed."""
    try:
        import segno
    except ImportError:
        return ""
    return segno.make(text, error="m").svg_inline(scale=3, border=2)


def join_sheet(created: Sequence[dict], server_url: str, app_url: Optional[str] = None) -> str:
    """The join codes of some tables as HTML, one card per student seat: the table, the seat's name, the
    code, and (with ``app_url``, the address of the Voila page ``app-classroom.ipynb`` as the students
    reach it) a link that opens the page with the code filled in, and its QR code when segno is
    installed (``pip install qardlab[classroom]``)."""
    cards = []
    for t in created:
        for s in t["seats"]:
            if not s["code"]:
                continue
            name = f"{s['name']} (seat {s['seat']})" if s.get("name") else f"seat {s['seat']}"
            link = join_link(app_url, server_url, s["code"]) if app_url else ""
            qr = _qr_svg(link) if link else ""
            cards.append(
                el(
                    "div",
                    el("b", f"table {t['table']}"),
                    f" · {name}",
                    el("br"),
                    el("code", s["code"], style={"font-size": "1.1em"}),
                    [el("br"), el("a", "open my seat", href=link, target="_blank")] if link else None,
                    el("br"),
                    raw(qr) if qr else None,
                    cls="qard-join-card",
                    style={
                        "display": "inline-block",
                        "border": f"1px solid {palette.GRID_LINE}",
                        "border-radius": "6px",
                        "padding": "6px",
                        "margin": "4px",
                        "text-align": "center",
                        "vertical-align": "top",
                    },
                )
            )
    where = el(
        "p", "Server: ", el("code", server_url), [" · join page: ", el("code", app_url)] if app_url else None
    )
    return to_html(el("div", where, cards, cls="qard-join-sheet"))


@functools.cache
def _private_html() -> type:
    import ipywidgets as widgets

    class PrivateHTML(widgets.HTML):
        """An HTML widget whose text form (what a notebook file keeps of a widget's output, beside the
        widget's id) says nothing of its contents."""

        def __repr__(self) -> str:
            return f"{type(self).__name__}(shown in the notebook only)"

    return PrivateHTML


def join_sheet_view(
    created: Sequence[dict],
    server_url: str,
    app_url: Optional[str] = None,
    file: Union[str, Path, None] = None,
) -> Any:
    """:func:`join_sheet` as a widget to show in the teacher's notebook, and (with ``file``) as a page to
    print, written there readable by its owner only.

    A notebook file keeps of a widget only its id and its text form, which here names no code; its
    contents stay out of the file unless JupyterLab's "Save Widget State Automatically" is on. (An
    ``HTML(...)`` output, or an ipywidgets HTML's text form, would put the codes in the file.)"""
    sheet = join_sheet(created, server_url, app_url)
    if file is not None:
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f'<!doctype html>\n<meta charset="utf-8">\n<title>Join codes</title>\n{sheet}\n')
    return _private_html()(sheet)

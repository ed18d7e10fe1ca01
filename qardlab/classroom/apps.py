"""The classroom pages' widgets: a student's join form (``notebooks/app-classroom.ipynb``, a Voila page)
and the teacher's live watch of every table.

:class:`JoinApp` asks for the server's address and a join code, then shows the seat's table (what
:func:`qardlab.classroom.join` returns). Served by Voila, its fields are filled from the page's address
(``.../app-classroom.ipynb?server=http://HOST:8765&code=CODE``, the links and QR codes of the teacher's
join sheet), so a student only clicks Join.
"""

from __future__ import annotations

import asyncio
import html
import os
from typing import Any, Optional, Sequence
from urllib.parse import parse_qs

import ipywidgets as widgets

from .. import palette
from .client import JoinRefused
from .join import join

__all__ = ["JoinApp", "watch_tables", "DEFAULT_SERVER"]

#: the server a join form offers first (``$QARDLAB_SERVER``, else a server on this machine)
DEFAULT_SERVER = "http://127.0.0.1:8765"


def _query() -> dict[str, str]:
    """The page's query (Voila gives the kernel ``QUERY_STRING``): ``server`` and ``code``."""
    q = parse_qs(os.environ.get("QUERY_STRING", ""))
    return {k: v[0] for k, v in q.items() if v}


class JoinApp(widgets.VBox):
    """A join form and, once joined, the seat's table. ``await app.join_now()`` joins from code."""

    def __init__(self, server: Optional[str] = None, code: Optional[str] = None) -> None:
        q = _query()
        server = server or q.get("server") or os.environ.get("QARDLAB_SERVER") or DEFAULT_SERVER
        self.server = widgets.Text(
            value=server,
            description="Server:",
            placeholder="http://HOST:8765",
            layout=widgets.Layout(width="26em"),
        )
        self.server.add_class("qard-join-server")
        self.code = widgets.Text(
            value=code or q.get("code", ""),
            description="Join code:",
            placeholder="the code your teacher gave you",
            layout=widgets.Layout(width="26em"),
        )
        self.code.add_class("qard-join-code")
        self.join_button = widgets.Button(description="Join my table", button_style="primary")
        self.join_button.add_class("qard-join")
        self.join_button.on_click(lambda _b: self._start())
        self.message = widgets.HTML()
        self.message.add_class("qard-join-status")
        self.form = widgets.HBox([self.server, self.code, self.join_button])
        self.table_box = widgets.Box()
        self.table: Any = None
        self._task: Optional[asyncio.Future] = None
        intro = widgets.HTML(
            "<h2 style='margin:.2em 0'>Play together: your seat at a class table</h2>"
            "<p>Type your class's server address and the join code your teacher gave you, then click "
            "<b>Join my table</b>. You see your own cards and the backs of everyone else's; your grid below "
            "the table is worked out from what <i>you</i> have seen and heard, nothing more.</p>"
        )
        super().__init__([intro, self.form, self.message, self.table_box])
        self.add_class("qard-join-app")

    def _say(self, text: str, error: bool = False) -> None:
        color = palette.ERROR if error else palette.STATUS
        self.message.value = f'<span style="color:{color}">{text}</span>'

    def _start(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self._task = asyncio.ensure_future(self.join_now())

    async def join_now(self) -> Any:
        """Join with the form's server and code; the table (or None, with the reason on show)."""
        url, code = self.server.value.strip(), self.code.value.strip()
        if not code:
            self._say("Type the join code your teacher gave you, then click Join.", error=True)
            return None
        self.join_button.disabled = True
        self._say(f"Joining the table at {html.escape(url)}...")
        try:
            table = await join(url, code)
        except JoinRefused as e:
            self._say(
                f"The server does not know this code ({html.escape(str(e))}). Check it with your teacher.",
                error=True,
            )
            return None
        except (TimeoutError, OSError, ValueError) as e:
            self._say(
                f"Cannot reach a classroom server at {html.escape(url)}: {html.escape(str(e))}", error=True
            )
            return None
        finally:
            self.join_button.disabled = False
        old, self.table = self.table, table
        self.table_box.children = (table,)
        if old is not None:
            old.close()
        seat = table.remote.seat
        who = (
            "the teacher's view (every card)"
            if seat is None
            else (f"<b>{html.escape(table.names[seat])}</b> (seat {seat}); your cards are at the bottom")
        )
        self._say(f"Joined: you are {who}.")
        return table

    def close(self) -> None:
        if self.comm is None:
            return
        if self.table is not None:
            self.table.close()
        super().close()


async def watch_tables(url: str, created: Sequence[dict], charts: bool = False) -> widgets.Tab:
    """The teacher's view of every table in ``created`` (``Teacher.create_tables``'s answer), live: one tab
    per table, each the table widget of the table's teacher code. ``tab.tables`` lists them."""
    tables = [await join(url, t["teacher"], charts=charts) for t in created]
    tab = widgets.Tab(children=tables, titles=[f"table {t['table']}" for t in created])
    tab.add_class("qard-watch")
    tab.tables = tables  # type: ignore[attr-defined]
    return tab

"""The teacher's HTTP requests to a classroom server (``POST /api/tables`` and the rest of
docs/classroom.md), with the teacher's token: :class:`Teacher`."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from typing import Any, Mapping, Optional, Sequence

from ..engine import Record

__all__ = ["Teacher", "TeacherError", "seat_names"]


def seat_names(game: str, players: int, options: Mapping[str, Any]) -> list[str]:
    """The seats' names of a table of ``game`` (its ``names`` option, else the game's own)."""
    from ..engine import find_game

    try:
        g = find_game(game)._blank(players, dict(options), None)
        return [g.seat_name(s) for s in range(players)]
    except (KeyError, ValueError, TypeError):
        return [f"seat {s}" for s in range(players)]


class TeacherError(RuntimeError):
    """The server refused a teacher's request (its error text)."""


class Teacher:
    """The teacher's requests to a server at ``url`` with ``token`` (see docs/classroom.md)."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url.rstrip("/"), token

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Authorization": f"token {self.token}"}
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raise TeacherError(json.loads(e.read()).get("error", str(e))) from None

    def create_table(
        self,
        game: str = "five_sons",
        players: int = 4,
        seed: Optional[int] = None,
        options: Optional[dict] = None,
        deal: Optional[dict] = None,
        bots: Optional[Mapping[int, str]] = None,
        pace: Optional[float] = None,
        orders: Optional[dict] = None,
        name: Optional[str] = None,
        grace: Optional[float] = None,
        stand_in: Optional[str] = None,
    ) -> dict:
        """A new table: ``{"table": id, "name", "seats": [{"seat", "code", "bot", "name"}], "teacher": code}``
        (the server's answer, with each seat's name added). ``orders``: the standing orders every student
        starts with (default: the game's recommended ones; ``{}``: none). ``name``: the table's name on the
        server; when a table of that name is there already (this notebook run again, after a restart of the
        server too), that table is the answer (``"existing": true``) and no new one is made. TeacherError
        when that table plays another game or another number of players. ``grace``: seconds a student who
        has been at the table may be away before a bot (of level ``stand_in``, default the game's middle one)
        plays their turns, until they are back (None: the table waits for them)."""
        body: dict[str, Any] = {
            "game": game,
            "players": players,
            "seed": seed,
            "options": options or {},
            "bots": {str(s): level for s, level in (bots or {}).items()},
        }
        if deal is not None:
            body["deal"] = deal
        if pace is not None:
            body["pace"] = pace
        if orders is not None:
            body["orders"] = orders
        if name is not None:
            body["name"] = name
        if grace is not None:
            body["grace"] = grace
        if stand_in is not None:
            body["stand_in"] = stand_in
        answer = self._request("POST", "/api/tables", body)
        names = seat_names(game, players, options or {})
        for seat in answer.get("seats", []):  # the seats' names, for the join sheet (students know them)
            seat.setdefault("name", names[seat["seat"]] if seat["seat"] < len(names) else None)
        return answer

    def create_tables(
        self,
        count: int,
        game: str = "five_sons",
        players: int = 4,
        seed: Optional[int] = None,
        bots: Optional[Mapping[int, str]] = None,
        name: Optional[str] = None,
        **kwargs: Any,
    ) -> list[dict]:
        """``count`` tables alike (table k seeded ``seed + k`` when a seed is given). ``name``: the tables are
        named ``"NAME 1"``, ``"NAME 2"``...; run again (Run All, after the server restarted), the call finds
        the tables of those names instead of making a second set."""
        return [
            self.create_table(
                game,
                players,
                None if seed is None else seed + k,
                bots=bots,
                name=None if name is None else f"{name} {k + 1}",
                **kwargs,
            )
            for k in range(count)
        ]

    def tables(self) -> list[dict]:
        return self._request("GET", "/api/tables")["tables"]

    def record(self, table: int) -> Record:
        """A table's record (the engine's), to step through locally."""
        return Record.from_dict(self._request("GET", f"/api/tables/{int(table)}/record"))

    def set_bot(self, table: int, seat: int, level: Optional[str]) -> dict:
        """Hand a seat to a bot of ``level``, or back to a student (``None``: a new join code)."""
        return self._request("POST", f"/api/tables/{int(table)}/seats/{int(seat)}", {"bot": level})

    async def wait_over(self, tables: Sequence[int], timeout: float = 300.0, every: float = 0.2) -> None:
        """Wait (without blocking a notebook's event loop) until every table in ``tables`` is over."""
        end = time.monotonic() + timeout
        wanted = {int(t) for t in tables}
        while True:
            over = {t["table"] for t in self.tables() if t["is_over"]}
            if wanted <= over:
                return
            if time.monotonic() > end:
                raise TimeoutError(f"tables {sorted(wanted - over)} are not over after {timeout} s")
            await asyncio.sleep(every)

"""The classroom's database: every table and every accepted step, in SQLite (WAL mode).

A table is its set-up (game, players, options, seed), its join codes, its bots and pace; its
game is the list of steps applied to the blank game, chance (the deal) included, one row per
step. A step is committed before anyone is told of it, so a server killed at any moment
restarts on the same file with every table exactly where it was: replaying the stored steps
rebuilds each game.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

__all__ = ["Store", "TableRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER,
    teacher TEXT NOT NULL UNIQUE,
    seats TEXT NOT NULL,
    bots TEXT NOT NULL,
    pace REAL NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS steps (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    seat INTEGER,
    accepted REAL NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


@dataclass
class TableRow:
    """One table as stored: its set-up, codes (seat -> code, None for a bot's seat) and bots."""

    id: int
    game: str
    players: int
    options: dict[str, Any]
    seed: Optional[int]
    teacher: str
    seats: list[Optional[str]]
    bots: dict[int, str]
    pace: float
    steps: list[Any] = field(default_factory=list)


class Store:
    """The SQLite file of a classroom server (one connection, used from the server's one thread)."""

    def __init__(self, path: Union[str, Path], synchronous: str = "FULL") -> None:
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None)
        mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if self.path != ":memory:" and mode.lower() != "wal":
            raise RuntimeError(f"SQLite could not put {self.path} in WAL mode (got {mode!r})")
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    def add_table(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        seed: Optional[int],
        teacher: str,
        seats: list[Optional[str]],
        bots: dict[int, str],
        pace: float,
        first_steps: list[Any],
    ) -> int:
        """Store a new table with its first steps (the deal) in one transaction; return its id."""
        with self.db:
            self.db.execute("BEGIN")
            cur = self.db.execute(
                "INSERT INTO tables (game, players, options, seed, teacher, seats, bots, pace, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    players,
                    json.dumps(options),
                    seed,
                    teacher,
                    json.dumps(seats),
                    json.dumps({str(k): v for k, v in bots.items()}),
                    pace,
                    time.time(),
                ),
            )
            table_id = int(cur.lastrowid)
            now = time.time()
            self.db.executemany(
                "INSERT INTO steps (table_id, n, action, seat, accepted) VALUES (?, ?, ?, NULL, ?)",
                [(table_id, n, json.dumps(a), now) for n, a in enumerate(first_steps)],
            )
        return table_id

    def add_steps(self, steps: list[tuple[int, int, Any, Optional[int], float]]) -> None:
        """Commit steps ``(table id, step number, action, seat, time accepted)`` in one transaction (one
        sync of the file for all of them: a group commit); they are durable when this returns."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT INTO steps (table_id, n, action, seat, accepted) VALUES (?, ?, ?, ?, ?)",
                [(t, n, json.dumps(a), seat, at) for t, n, a, seat, at in steps],
            )

    def set_seats(self, table_id: int, seats: list[Optional[str]], bots: dict[int, str]) -> None:
        self.db.execute(
            "UPDATE tables SET seats = ?, bots = ? WHERE id = ?",
            (json.dumps(seats), json.dumps({str(k): v for k, v in bots.items()}), table_id),
        )

    def tables(self) -> list[TableRow]:
        """Every stored table with its steps, in the order they were created and applied."""
        rows = self.db.execute(
            "SELECT id, game, players, options, seed, teacher, seats, bots, pace FROM tables ORDER BY id"
        ).fetchall()
        steps: dict[int, list[Any]] = {}
        for table_id, action in self.db.execute("SELECT table_id, action FROM steps ORDER BY table_id, n"):
            steps.setdefault(table_id, []).append(json.loads(action))
        return [
            TableRow(
                r[0],
                r[1],
                r[2],
                json.loads(r[3]),
                r[4],
                r[5],
                json.loads(r[6]),
                {int(k): v for k, v in json.loads(r[7]).items()},
                r[8],
                steps.get(r[0], []),
            )
            for r in rows
        ]

    def accepted_times(self, table_id: int) -> list[tuple[int, Optional[int], float]]:
        """(step number, seat or None, time accepted) of every step of a table (for measurements)."""
        return self.db.execute(
            "SELECT n, seat, accepted FROM steps WHERE table_id = ? ORDER BY n", (table_id,)
        ).fetchall()

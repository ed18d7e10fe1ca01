"""The classroom's database: every table and every accepted step, in SQLite (WAL mode).

A table is its set-up (game, players, options, seed), its join codes, its bots and pace; its
game is the list of steps applied to the blank game, chance (the deal) included, one row per
step. A step is committed before anyone is told of it, so a server killed at any moment
restarts on the same file with every table exactly where it was: replaying the stored steps
rebuilds each game.

The file is checked before it is used, and refused with a :class:`StoreError` that names it and says
what to do: a file that is not SQLite, another program's SQLite file (it is not even opened for
writing, so it is left exactly as it was), a read-only file. A qardlab file is marked as such
(``PRAGMA application_id``) and created readable by its owner only (it holds the join codes). One
malformed table is left out (``Store.tables`` says which and why), never the whole file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union
from urllib.parse import quote

__all__ = ["Store", "StoreError", "StoreBusy", "TableRow", "APPLICATION_ID", "SCHEMA_VERSION"]

#: ``PRAGMA application_id`` of a qardlab classroom file ("qard")
APPLICATION_ID = 0x71617264
#: ``PRAGMA user_version``: 2 added ``seed_text`` (a seed of any size: the server's are 128 bits); 3 the
#: ``settings`` table (the teacher's token, kept across restarts) and a table's ``name``
SCHEMA_VERSION = 3
#: how long a commit waits for another program's lock before it fails (and is retried later, off
#: the event loop's back): a table never waits on SQLite for longer than this
BUSY_MS = 20
#: how long opening the file waits for another program's lock
OPEN_BUSY_S = 5.0

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
    created REAL NOT NULL,
    seed_text TEXT,
    name TEXT
);
CREATE TABLE IF NOT EXISTS steps (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    seat INTEGER,
    accepted REAL NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
#: what version 3 adds to a file of an older version
_TO_V3 = (
    "ALTER TABLE tables ADD COLUMN name TEXT",
    "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
#: the columns of a qardlab file before the schema had a version (``user_version`` 0)
_V1_TABLES = {"id", "game", "players", "options", "seed", "teacher", "seats", "bots", "pace", "created"}
_V1_STEPS = {"table_id", "n", "action", "seat", "accepted"}


class StoreError(RuntimeError):
    """A database file the server will not use (or can no longer use); the text names it and says what
    to do."""


class StoreBusy(sqlite3.OperationalError):
    """Another program holds the file's write lock: nothing was written; try again shortly."""


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
    #: the teacher's name for the table (``POST /api/tables`` with a ``name``), None when it has none
    name: Optional[str] = None


def _busy(error: BaseException) -> bool:
    text = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def _header(path: Path) -> bytes:
    with open(path, "rb") as f:
        return f.read(100)


class Store:
    """The SQLite file of a classroom server (one connection, used from the server's one thread).

    StoreError (naming the file and what to do) for a file it will not use; nothing is written to
    such a file. A new file is created readable and writable by its owner only."""

    def __init__(self, path: Union[str, Path], synchronous: str = "FULL") -> None:
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.path = str(path)
        self.synchronous = synchronous.upper()
        self.memory = self.path == ":memory:"
        #: (device, inode) of the file this store writes to (None in memory): see :meth:`moved`
        self.identity: Optional[tuple[int, int]] = None
        #: tables left out by the last :meth:`tables` (id or None, what was wrong)
        self.skipped: list[tuple[Optional[int], str]] = []
        version = self._check() if not self.memory else None
        self.db = self._open(version)

    # -- opening --------------------------------------------------------------------
    def _check(self) -> Optional[int]:
        """Look at the file before opening it for writing: None for a new (or empty) file, else its
        schema version (0: a qardlab file from before the versions). StoreError for a file refused."""
        p = Path(self.path)
        folder = p.parent  # (Path("x.db").parent is Path("."))
        if p.is_dir():
            raise StoreError(f"{self.path} is a folder, not a database file: give --db a file name")
        if not p.exists():
            if not os.access(folder, os.W_OK):
                raise StoreError(
                    f"cannot create the database file {self.path}: its folder is not writable. "
                    "Give --db a file in a folder you can write to"
                )
            return None
        st = p.stat()
        if not st.st_mode & stat.S_IWUSR or not os.access(p, os.W_OK):
            raise StoreError(
                f"the database file {self.path} is read-only: the server could not store a single move. "
                f"Make it writable (chmod u+w {self.path}) or give --db another file"
            )
        if not os.access(folder, os.W_OK):
            raise StoreError(
                f"the folder of the database file {self.path} is read-only (SQLite keeps its journal "
                "beside the file): make the folder writable, or give --db a file in another folder"
            )
        if st.st_size == 0:
            return None
        head = _header(p)
        if not head.startswith(b"SQLite format 3\x00"):
            raise StoreError(
                f"{self.path} is not an SQLite database (not a qardlab classroom file); it was left as it "
                "was. Give --db another file name"
            )
        # the mark and version as SQLite reads them (the file's header may be behind its journal)
        uri = f"file:{quote(os.path.abspath(self.path))}?mode=ro"
        try:
            ro = sqlite3.connect(uri, uri=True, timeout=OPEN_BUSY_S)
            try:
                app_id = ro.execute("PRAGMA application_id").fetchone()[0]
                user_version = ro.execute("PRAGMA user_version").fetchone()[0]
                names = {r[0] for r in ro.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                cols = {
                    n: {r[1] for r in ro.execute(f"PRAGMA table_info({n})")}
                    for n in names & {"tables", "steps"}
                }
            finally:
                ro.close()
        except sqlite3.DatabaseError as e:
            if _busy(e):
                raise StoreError(
                    f"the database file {self.path} is locked by another program (a database browser, a "
                    "backup?): close it and start the server again"
                ) from None
            raise StoreError(
                f"cannot read {self.path} as an SQLite database ({e}); it was left as it was. Give --db "
                "another file"
            ) from None
        if app_id == APPLICATION_ID:
            if user_version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer qardlab (schema {user_version}; this one knows "
                    f"{SCHEMA_VERSION}): upgrade qardlab, or give --db another file"
                )
            return user_version
        if not names:
            return None
        if (
            app_id == 0
            and names == {"tables", "steps"}
            and cols["tables"] >= _V1_TABLES
            and cols["steps"] == _V1_STEPS
        ):
            return 0
        raise StoreError(
            f"{self.path} is another program's SQLite database (tables {sorted(names)}), not a qardlab "
            "classroom file: the server will not change it. Give --db another file name"
        )

    def _open(self, version: Optional[int]) -> sqlite3.Connection:
        if version is None and not self.memory and not os.path.exists(self.path):
            # created by its owner only: the file holds every join code and the teacher's
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        elif not self.memory:
            mode = stat.S_IMODE(os.stat(self.path).st_mode)
            if mode & 0o077:  # an older server made it readable by others: the codes are the owner's only
                os.chmod(self.path, 0o600)
        db = sqlite3.connect(self.path, isolation_level=None, timeout=OPEN_BUSY_S)
        try:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if not self.memory and mode.lower() != "wal":
                raise StoreError(f"SQLite could not put {self.path} in WAL mode (got {mode!r})")
            db.execute(f"PRAGMA synchronous={self.synchronous}")
            with db:
                db.execute("BEGIN IMMEDIATE")
                if version is None:
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                else:
                    if version < 2:
                        db.execute("ALTER TABLE tables ADD COLUMN seed_text TEXT")
                    if version < 3:
                        for statement in _TO_V3:
                            db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")  # a write: a read-only file fails here
        except sqlite3.OperationalError as e:
            db.close()
            if _busy(e):
                raise StoreError(
                    f"the database file {self.path} is locked by another program (a database browser, a "
                    "backup?): close it and start the server again"
                ) from None
            raise StoreError(
                f"cannot write to the database file {self.path} ({e}): check that it is writable and that "
                "its disk has room, or give --db another file"
            ) from None
        db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        if not self.memory:
            st = os.stat(self.path)
            self.identity = (st.st_dev, st.st_ino)
        return db

    def close(self) -> None:
        self.db.close()

    # -- a file deleted or replaced while the server runs ------------------------------
    def moved(self) -> Optional[str]:
        """Why the file at ``path`` is no longer the one this store writes to (deleted, replaced), or
        None while it is."""
        if self.identity is None:
            return None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return "deleted"
        except OSError as e:
            return f"unreachable ({e})"
        if (st.st_dev, st.st_ino) != self.identity:
            return "replaced by another file"
        return None

    def restore(self) -> None:
        """Write every table back to ``path`` (the file was deleted or replaced while the server ran):
        a copy of the open database, made beside it and moved into place, then written to from now on.
        OSError / sqlite3.Error when that cannot be done (the folder is gone): the store is unchanged and
        still writes to the open (deleted) file."""
        tmp = f"{self.path}.restoring"
        for stale in (tmp, f"{tmp}-journal"):
            if os.path.exists(stale):
                os.remove(stale)
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        copy = sqlite3.connect(tmp)
        try:
            self.db.backup(copy)
        finally:
            copy.close()
        old = self.db
        if os.path.exists(self.path):  # replaced by someone else's file: keep it, beside
            os.replace(self.path, f"{self.path}.replaced-{int(time.time())}")
        for side in ("-wal", "-shm"):  # the deleted file's journal, if its names are still there
            if os.path.exists(self.path + side):
                os.remove(self.path + side)
        os.replace(tmp, self.path)
        old.close()
        self.db = self._open(SCHEMA_VERSION)

    # -- writing ---------------------------------------------------------------------
    def _write(self, statements: Any) -> Any:
        """Run ``statements(db)`` in one transaction. StoreBusy when another program holds the lock (after
        ``BUSY_MS``): nothing was written."""
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                return statements(self.db)
        except sqlite3.OperationalError as e:
            if _busy(e):
                raise StoreBusy(f"the database file {self.path} is locked by another program") from e
            raise

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
        name: Optional[str] = None,
    ) -> int:
        """Store a new table with its first steps (the deal) in one transaction; return its id."""

        def write(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO tables (game, players, options, seed, teacher, seats, bots, pace, created, "
                "seed_text, name) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    players,
                    json.dumps(options),
                    teacher,
                    json.dumps(seats),
                    json.dumps({str(k): v for k, v in bots.items()}),
                    pace,
                    time.time(),
                    None if seed is None else str(seed),
                    name,
                ),
            )
            table_id = int(cur.lastrowid)
            now = time.time()
            db.executemany(
                "INSERT INTO steps (table_id, n, action, seat, accepted) VALUES (?, ?, ?, NULL, ?)",
                [(table_id, n, json.dumps(a), now) for n, a in enumerate(first_steps)],
            )
            return table_id

        return self._write(write)

    def add_steps(self, steps: list[tuple[int, int, Any, Optional[int], float]]) -> None:
        """Commit steps ``(table id, step number, action, seat, time accepted)`` in one transaction (one
        sync of the file for all of them: a group commit); they are durable when this returns."""
        rows = [(t, n, json.dumps(a), seat, at) for t, n, a, seat, at in steps]
        self._write(
            lambda db: db.executemany(
                "INSERT INTO steps (table_id, n, action, seat, accepted) VALUES (?, ?, ?, ?, ?)", rows
            )
        )

    def set_seats(self, table_id: int, seats: list[Optional[str]], bots: dict[int, str]) -> None:
        data = (json.dumps(seats), json.dumps({str(k): v for k, v in bots.items()}), table_id)
        self._write(lambda db: db.execute("UPDATE tables SET seats = ?, bots = ? WHERE id = ?", data))

    def setting(self, key: str) -> Optional[str]:
        """A value kept with the tables (``settings``: the teacher's token), or None."""
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_setting(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` in the file (replacing the old one), committed when this returns."""
        self._write(
            lambda db: db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        )

    # -- reading ---------------------------------------------------------------------
    def tables(self) -> list[TableRow]:
        """Every stored table with its steps, in the order they were created and applied. A table whose
        row or steps do not read is left out, and said in ``skipped`` (id, what is wrong)."""
        self.skipped = []
        rows = self.db.execute(
            "SELECT id, game, players, options, seed, teacher, seats, bots, pace, seed_text, name "
            "FROM tables ORDER BY id"
        ).fetchall()
        steps: dict[Any, list[Any]] = {}
        bad_steps: dict[Any, str] = {}
        for table_id, n, action in self.db.execute(
            "SELECT table_id, n, action FROM steps ORDER BY table_id, n"
        ):
            if table_id in bad_steps:
                continue
            try:
                steps.setdefault(table_id, []).append(json.loads(action))
            except (TypeError, ValueError, RecursionError) as e:
                bad_steps[table_id] = f"step {n} is not JSON ({e})"
        out = []
        for r in rows:
            try:
                if r[0] in bad_steps:
                    raise ValueError(bad_steps[r[0]])
                out.append(_row(r, steps.get(r[0], [])))
            except (TypeError, ValueError, AttributeError, RecursionError) as e:
                self.skipped.append((r[0] if isinstance(r[0], int) else None, str(e)))
        return out


def _row(r: tuple, steps: list[Any]) -> TableRow:
    """A stored row as a TableRow; ValueError / TypeError naming what does not read."""
    table_id, game, players, options, seed, teacher, seats, bots, pace, seed_text, name = r

    def load(text: Any, what: str) -> Any:  # (what is wrong, never the text: the seats hold codes)
        if not isinstance(text, str):
            raise ValueError(f"its {what} are of type {type(text).__name__}, not JSON text")
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as e:
            raise ValueError(
                f"its {what} are not JSON ({type(e).__name__} at character {getattr(e, 'pos', '?')})"
            ) from None

    options, seats, bots = load(options, "options"), load(seats, "seats"), load(bots, "bots")
    if not isinstance(options, dict) or not isinstance(seats, list) or not isinstance(bots, dict):
        raise ValueError("its options, seats or bots are not of the right shape")
    if seed_text is not None:
        seed = int(seed_text)
    if not (seed is None or isinstance(seed, int)) or not isinstance(players, int):
        raise ValueError(f"its seed {seed!r} or players {players!r} is not an integer")
    if not isinstance(game, str) or not isinstance(teacher, str) or not isinstance(pace, (int, float)):
        raise ValueError("its game, teacher code or pace is not of the right type")
    if not all(c is None or isinstance(c, str) for c in seats):
        raise ValueError("its seats are not all codes (or null)")
    if name is not None and not isinstance(name, str):
        raise ValueError("its name is not text")
    return TableRow(
        table_id,
        game,
        players,
        options,
        seed,
        teacher,
        seats,
        {int(k): v for k, v in bots.items()},
        pace,
        steps,
        name,
    )


def read_setting(path: Union[str, Path], key: str) -> Optional[str]:
    """A value kept in a classroom file (``qardlab token --db FILE``), read without writing anything (the
    server may be running on it). StoreError naming the file when it is not a qardlab file or has no such
    value."""
    p = Path(path)
    if not p.is_file():
        raise StoreError(f"no database file {path}: give --db the file the server runs on")
    uri = f"file:{quote(os.path.abspath(p))}?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=OPEN_BUSY_S)
        try:
            if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                raise StoreError(f"{path} is not a qardlab classroom file")
            row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as e:
        raise StoreError(
            f"cannot read {path} ({e}): a server of this qardlab writes it when it starts"
        ) from None
    if row is None:
        raise StoreError(f"{path} keeps no {key.replace('_', ' ')}: start `qardlab serve --db {path}` once")
    return row[0]

"""How an accepted step reaches the disk before anyone hears of it, and what a fault of the disk does.

A mixin of :class:`~qardlab.classroom.tables.Classroom`: ``accept`` applies a step on a copy of the table's
game; every step accepted meanwhile is committed in one transaction (a group commit) by ``_flush``, and only
then are the table's windows told (``windows.py``) and what is due next scheduled. A commit the store refuses
is kept and tried again (:data:`RETRY_FAULT`, or :data:`RETRY_BUSY` while another program holds the file's
lock); after the last try its steps are undone, their tables told, and what was due there comes again
(``_lost``). A database file deleted or replaced while the server runs is written back (``check_file``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Optional

from ..engine import Game
from .store import Store, StoreBusy

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["Commits", "RETRY_FAULT", "RETRY_BUSY", "LOST_PAUSE", "LOST_PAUSE_MAX"]

log = logging.getLogger("qardlab.classroom")

#: seconds between attempts to commit steps the store refused; given up (the steps undone, the tables
#: told, what was due scheduled again) after the last: quickly for a fault (a full disk), longer while
#: another program holds the file's lock (a database browser, a backup)
RETRY_FAULT = (0.05, 0.2, 0.5)
RETRY_BUSY = (0.02, 0.05, 0.1, 0.2) + (0.25,) * 38

#: after steps are undone for good, what was due at their tables is scheduled again after this pause
#: times the refused commits in a row, at most ``LOST_PAUSE_MAX`` seconds
LOST_PAUSE = 0.5
LOST_PAUSE_MAX = 5.0


class Commits:
    """The committing half of a classroom (see the module docstring)."""

    store: Store
    timings: Optional[list]
    file_problem: Optional[str]
    _unsaved: list
    _failures: int
    _flush_due: Optional[asyncio.Handle]
    _retry_due: Optional[asyncio.TimerHandle]

    # -- steps ------------------------------------------------------------------------
    def accept(self, table: Table, seat: Optional[int], action: Any) -> None:
        """Apply one step on a copy of the table's game; it is committed, then told, by ``_flush``.

        IllegalAction (nothing changed) if the rules refuse it. The new game is the table's at once
        (the next message is checked against it), but no client hears of it before it is on disk:
        clients are sent ``table.told``, the game as last committed.
        """
        old = table.game
        new = old.copy()
        new.apply(action)
        row = (table.id, old.step, new.action_to_json(new.history[-1]), seat, time.time())
        self._unsaved.append((table, old, new, row))
        table.game = new
        if self._flush_due is None and self._retry_due is None:
            try:
                self._flush_due = asyncio.get_running_loop().call_soon(self._flush)
            except RuntimeError:  # no event loop (a direct call): commit now
                self._flush()

    def _flush(self) -> None:
        """Commit every step accepted since the last commit in one transaction, then tell.

        A group commit: one sync of the file for every table's steps accepted meanwhile. It runs in
        the event loop itself (handing it to a thread was measured slower here: each hand-over waits
        for the other thread to be scheduled, on a machine whose two cores are busy), but never waits
        on SQLite for long: a file locked by another program fails after ``store.BUSY_MS``, and the
        commit is tried again later (``_refused``) while the loop serves everyone else.
        """
        self._flush_due = self._retry_due = None
        if not self._unsaved:
            return
        batch = self._unsaved
        try:
            self.store.add_steps([row for *_rest, row in batch])
        except Exception as e:  # noqa: BLE001 - whatever the store says, the tables go on
            self._refused(e)
        else:
            self._unsaved = []
            if self._failures:
                log.warning("%s: stored again after %s refused commits", self.store.path, self._failures)
                self._failures = 0
                self._file_problem(None)
            self._written(batch)

    def _refused(self, error: BaseException) -> None:
        """The store refused the steps waiting (all kept): try again shortly; after the last try, undo them
        (``_lost``). A file deleted or replaced meanwhile is written back first (``check_file``)."""
        self._failures += 1
        busy = isinstance(error, StoreBusy)
        delays = RETRY_BUSY if busy else RETRY_FAULT
        try:
            loop: Optional[asyncio.AbstractEventLoop] = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if not busy and self.check_file():  # the file was deleted and is written back: try again at once
            self._failures = 0
            if loop is not None:
                self._retry_due = loop.call_later(0, self._flush)
            else:
                self._flush()
            return
        problem = (
            f"{self.store.path} is locked by another program (a database browser, a backup?): moves wait "
            "until it lets go; close that program"
            if busy
            else f"cannot store moves in {self.store.path} ({error}): is its disk full, or the file "
            "read-only? Moves are undone until it can be written again"
        )
        self._file_problem(problem)
        if self._failures <= len(delays) and loop is not None:
            self._retry_due = loop.call_later(delays[self._failures - 1], self._flush)
            return
        batch, self._unsaved = self._unsaved, []
        self._lost(batch, error)

    def check_file(self) -> bool:
        """Whether the database file is still the one written to; if it was deleted or replaced, say so
        and write every table back to it (True when that was done). Called every few seconds and after a
        refused commit."""
        moved = self.store.moved()
        if moved is None:
            if self.file_problem and "deleted" in self.file_problem:
                self._file_problem(None)
            return False
        try:
            self.store.restore()
        except Exception as e:  # noqa: BLE001 - the folder is gone, the disk is full...
            self._file_problem(
                f"the database file {self.store.path} was {moved} while the server ran, and it could not be "
                f"written back ({e}): the tables are served from memory and will be lost when the server "
                "stops; make its folder writable"
            )
            return False
        log.error(
            "the database file %s was %s while the server ran: every table was written back to it "
            "(nothing was lost)",
            self.store.path,
            moved,
        )
        self._file_problem(None)
        return True

    def _file_problem(self, problem: Optional[str]) -> None:
        """Say what is wrong with the file, once when it starts (not at every refused commit)."""
        if problem == self.file_problem:
            return
        if problem is not None:
            log.error("%s", problem)
        self.file_problem = problem

    def _written(self, batch: list) -> None:
        """The batch is on disk: tell every client of its tables, let their bots move."""
        latest: dict[int, tuple[Table, Game]] = {}
        for table, _old, new, _row in batch:
            latest[id(table)] = (table, new)
        told: dict[int, float] = {}
        for table, new in latest.values():
            table.told = new
            self._broadcast(table)
            told[table.id] = time.time()
            self._schedule(table)
        if self.timings is not None:  # (benchmarks) when each step was accepted, and when it was told
            self.timings.extend(
                (table_id, n, accepted, told[table_id])
                for _t, _o, _n, (table_id, n, _a, _s, accepted) in batch
            )

    def _lost(self, batch: list, error: BaseException) -> None:
        """The batch could not be stored: undo its steps at those tables, tell their clients, and let
        whatever was due there (a bot's move, a deal) come again at the table's pace."""
        tables = {id(t): t for t, *_rest in batch}
        log.error(
            "could not store %s steps of tables %s in %s (%s); they were undone",
            len(batch),
            sorted(t.id for t in tables.values()),
            self.store.path,
            error,
        )
        for table in tables.values():
            table.game = table.told
            for conns in table.clients.values():
                for conn in list(conns):
                    self._tell(
                        conn,
                        {
                            "type": "error",
                            "message": "the server could not store the last "
                            "move; it was undone: play it again",
                        },
                    )
        try:
            loop: Optional[asyncio.AbstractEventLoop] = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        # what was due comes again, after a pause that grows while the fault lasts (a full disk must not
        # turn a bot at pace 0 into a loop of refused commits)
        pause = min(LOST_PAUSE_MAX, LOST_PAUSE * self._failures)
        for table in tables.values():
            if loop is None:
                self._schedule(table)
            else:
                loop.call_later(pause, self._schedule, table)

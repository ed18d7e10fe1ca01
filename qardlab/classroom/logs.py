"""The classroom server's log, kept small whatever happens: :class:`LogLimit`."""

from __future__ import annotations

import logging
import time

__all__ = ["LogLimit"]


class LogLimit(logging.Filter):
    """A log that a flood cannot fill: each message (its logger and its text) passes
    ``burst`` times, then once every ``every`` seconds, with the count of those left out meanwhile; and
    at most ``total`` records a second in all."""

    def __init__(self, burst: int = 5, every: float = 10.0, total: float = 50.0) -> None:
        super().__init__()
        self.burst, self.every, self.total = burst, every, total
        self.seen: dict[tuple[str, str], list[float]] = {}  # key -> [first of window, passed, left out]
        self.second, self.in_second, self.dropped = 0.0, 0, 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        try:
            text = record.getMessage()[:200]
        except Exception:  # noqa: BLE001 - a record that does not format is logging's to report
            text = str(record.msg)[:200]
        key = (record.name, text)
        entry = self.seen.get(key)
        if entry is None or now - entry[0] >= self.every:
            left_out = int(entry[2]) if entry is not None else 0
            entry = self.seen[key] = [now, 0, 0]
            if len(self.seen) > 10_000:  # many different messages: forget the old windows
                self.seen = {key: entry}
        else:
            left_out = 0
        if entry[1] >= self.burst:
            entry[2] += 1
            return False
        if int(now) != self.second:
            self.second, self.in_second = int(now), 0
        if self.in_second >= self.total:
            self.dropped += 1
            return False
        entry[1] += 1
        self.in_second += 1
        if left_out or self.dropped:
            note = f"[{left_out + self.dropped} similar log lines were left out] "
            record.msg = note + str(record.msg)
            self.dropped = 0
        return True

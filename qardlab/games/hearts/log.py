"""The Hearts event log, built lazily so that the hot path of a hand creates no dicts.

The game records what happens through the log's methods (:meth:`HeartsLog.deal`,
:meth:`~HeartsLog.pass_choice`, :meth:`~HeartsLog.passed`, :meth:`~HeartsLog.start_plays`,
:meth:`~HeartsLog.hand_over`); each keeps a raw entry (a plain tuple, a tag first) that
:meth:`~HeartsLog._flush` turns into Events on the first read. Plays are not logged one by one
at all: while a hand is played, ``_open`` is ``[first step, seat to play it, open trick]``, and the
"play" events and, after every trick's last card, the "trick" events are built from the game's
history (where every play is a Card) when read. Every read goes through ``_flush`` (see
:class:`~qardlab.engine.events.EventLog`); the result is exactly the log an eager version would
have written.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...cards import _CARDS, Card
from ...engine.events import Event, EventLog
from .rules import POINTS, trick_winner
from .values import codes_of

__all__ = ["HeartsLog"]

_CODES = tuple(c.code for c in _CARDS)


class HeartsLog(EventLog):
    """The Hearts event log (see the module docstring): raw entries now, Events when read."""

    __slots__ = ("players", "_history", "_done", "_open", "_seen")

    def __init__(self, players: int, history: list, events: Sequence[Any] = ()) -> None:
        self._events = [*events]  # (EventLog.__init__, inlined: a log is made with every game)
        self.players = players
        self._history = history  # the game's history: the plays are read from it
        self._done = 0  # entries before this index are Events
        self._open: list | None = None  # the plays being made: [next step, its seat, open trick]
        # what the reads below have made of the Events so far (Events never change once built, and
        # only truncate removes any): by viewer, [events read, its view, its pass]
        self._seen: dict[Any, list] = {}

    # -- recording (the game's API) -------------------------------------------------------------
    def deal(
        self, step: int, hand_no: int, dealer: int, direction: str, masks: Sequence[int], sizes: Sequence[int]
    ) -> None:
        """A hand is dealt at history ``step``: each seat sees its own cards (``masks``)."""
        self._raw(("deal", step, hand_no, dealer, direction, masks, sizes))

    def pass_choice(self, step: int, seat: int, cards: Sequence[Card]) -> None:
        """``seat`` chooses ``cards`` to pass: everyone sees how many, the seat which."""
        self._events.append(("choice", step, seat, cards))  # type: ignore[arg-type]  (no plays are open)

    def passed(self, step: int, direction: str, offset: int, chosen: Sequence[int]) -> None:
        """The chosen cards (``chosen``: each seat's mask) change hands, each ``offset`` seats on."""
        self._raw(("pass", step, direction, offset, tuple(chosen)))

    def start_plays(self, step: int, leader: int) -> None:
        """Plays begin at history ``step``, ``leader`` first: they are logged from the history."""
        self._close()
        self._open = [step, leader, ()]

    def hand_over(
        self,
        step: int,
        raw: Sequence[int],
        final: Sequence[int],
        shooter: int | None,
        mode: str | None,
        scores: Sequence[int],
        winners: Sequence[int] | None,
    ) -> None:
        """The hand is scored (``winners`` when the match is over with it)."""
        self._raw(("over", step, raw, final, shooter, mode, tuple(scores), winners))

    def append(self, kind: str, step: int, public: Any, private: Any = None, hidden: Any = None) -> Event:
        self._close()
        return super().append(kind, step, public, private, hidden)

    def _raw(self, entry: tuple) -> None:
        if self._open is not None:
            self._close()
        self._events.append(entry)  # type: ignore[arg-type]

    def _close(self) -> None:
        """The hand's plays are over: keep them as a raw entry (before the next event)."""
        op = self._open
        if op is not None:
            self._events.append(("plays", op[0], len(self._history), op[1], op[2]))  # type: ignore[arg-type]
            self._open = None

    # -- reading ---------------------------------------------------------------------------------
    def _flush(self) -> None:
        op = self._open
        events = self._events
        if self._done == len(events) and (op is None or op[0] == len(self._history)):
            return
        out = events[: self._done]
        for e in events[self._done :]:
            if type(e) is tuple:
                self._build(out, e)
            else:
                out.append(e)
        if op is not None:
            op[1], op[2] = self._plays(out, op[0], len(self._history), op[1], op[2])
            op[0] = len(self._history)
        self._events = out
        self._done = len(out)

    def _build(self, out: list, e: tuple) -> None:
        """Append the Events of one raw entry to ``out``."""
        tag, step = e[0], e[1]
        if tag == "plays":
            self._plays(out, step, e[2], e[3], e[4])
        elif tag == "deal":
            _, _, hand_no, dealer, direction, masks, sizes = e
            public = {"hand": hand_no, "dealer": dealer, "pass_direction": direction, "sizes": list(sizes)}
            private = {s: {"cards": codes_of(m)} for s, m in enumerate(masks)}
            out.append(Event("deal", step, public, private))
        elif tag == "choice":
            _, _, seat, cards = e
            codes = [c.code for c in cards]
            public = {"seat": seat, "count": len(cards)}
            out.append(Event("pass_choice", step, public, {seat: {"cards": codes}}))
        elif tag == "pass":
            _, _, direction, off, chosen = e
            n = len(chosen)
            codes = [codes_of(c) for c in chosen]
            private = {
                i: {
                    "passed": codes[i],
                    "to": (i + off) % n,
                    "received": codes[(i - off) % n],
                    "from": (i - off) % n,
                }
                for i in range(n)
            }
            out.append(Event("pass", step, {"direction": direction}, private))
        elif tag == "over":
            _, _, raw, final, shooter, mode, scores, winners = e
            public = {"raw": raw, "points": final, "moon": shooter, "moon_mode": mode, "scores": list(scores)}
            if winners is not None:
                public["winners"] = list(winners)
            out.append(Event("hand_over", step, public))
        else:  # pragma: no cover - every raw entry is one of the above
            raise AssertionError(f"unknown raw Hearts event {tag!r}")

    def _plays(self, out: list, start: int, end: int, seat: int, trick: Sequence) -> tuple[int, tuple]:
        """Append the play and trick events of history steps ``start..end-1``; return the next
        seat and the open trick (``(seat, card index)`` pairs)."""
        n = self.players
        history = self._history
        trick = list(trick)
        for step in range(start, end):
            idx = history[step].index
            out.append(Event("play", step, {"seat": seat, "card": _CODES[idx]}))
            trick.append((seat, idx))
            if len(trick) < n:
                seat = seat + 1 if seat + 1 < n else 0
                continue
            seat = trick_winner([1 << i for _, i in trick], trick[0][0], n)
            public = {
                "winner": seat,
                "cards": [[t, _CODES[i]] for t, i in trick],
                "points": sum(POINTS[i] for _, i in trick),
            }
            out.append(Event("trick", step, public))
            trick = []
        return seat, tuple(trick)

    # -- a seat's view, read again and again (every decision of a bot reads it) -------------------
    def _seen_by(self, seat: Any) -> list:
        """``[events read, the seat's view of them, its pass]`` for a seat (or PUBLIC), brought up to
        date with the Events built since the last read: each Event is viewed once. The pass is
        ``[chosen, passed, passed_to, received, received_from]`` of the hand being played, as the
        seat saw it (the last deal resets it)."""
        self._flush()
        entry = self._seen.get(seat)
        if entry is None:
            entry = self._seen[seat] = [0, [], [[], [], None, [], None]]
        events = self._events
        start = entry[0]
        if start < len(events):
            view, mine = entry[1], entry[2]
            for i in range(start, len(events)):
                e = events[i]
                own = e.private.get(seat)
                if not (e.public or own):  # (Event.visible_to, for a seat)
                    continue
                view.append(e.seen_by(seat))
                kind = e.kind
                if kind == "deal":
                    mine = entry[2] = [[], [], None, [], None]
                elif own is None:  # (the public view, or another seat's part: no one's pass of its own)
                    continue
                elif kind == "pass_choice":
                    mine[0].extend(own["cards"])
                elif kind == "pass":
                    mine[1:] = own["passed"], own["to"], own["received"], own["from"]
            entry[0] = len(events)
        return entry

    def view(self, seat: Any) -> list[dict[str, Any]]:
        """Every event the seat can see, as the seat saw it (see :meth:`EventLog.view`): fresh dicts
        each call, made from the seat's view kept since the last read (the teacher's: built anew)."""
        if seat is None:
            return super().view(seat)
        return list(map(dict, self._seen_by(seat)[1]))

    def pass_seen(self, seat: Any) -> tuple[list[str], list[str], int | None, list[str], int | None]:
        """The seat's pass of the hand being played, from its view: (cards it chose, cards passed,
        to whom, cards received, from whom); empty lists and None where it has not happened (a
        teacher or a watcher: only what their view holds)."""
        if seat is None:
            chosen: list[str] = []
            return chosen, [], None, [], None
        chosen, passed, to, received, giver = self._seen_by(seat)[2]
        return list(chosen), list(passed), to, list(received), giver

    # -- copies ------------------------------------------------------------------------------------
    def copy_for(self, history: list) -> HeartsLog:
        """This log, unflushed, for a copy of its game (whose history is ``history``)."""
        new = HeartsLog(self.players, history)
        new._events = list(self._events)
        new._done = self._done
        new._open = None if self._open is None else list(self._open)
        # each seat's view so far goes along (its events are the copy's too): a copy's observation views
        # only the events that come after, as the original's would (a classroom server copies its game at
        # every step)
        new._seen = {
            seat: [n, list(view), [list(m[0]), list(m[1]), m[2], list(m[3]), m[4]]]
            for seat, (n, view, m) in self._seen.items()
        }
        return new

    def copy(self) -> HeartsLog:
        """A detached copy: every event so far, built; later plays of the game are not in it."""
        self._flush()
        new = HeartsLog(self.players, self._history, self._events)
        new._done = len(new._events)
        return new

    def __deepcopy__(self, memo: dict) -> HeartsLog:
        return self.copy()

    def truncate(self, length: int) -> None:
        """Keep the first ``length`` events (of a detached copy: the log no longer follows a game)."""
        super().truncate(length)
        self._done = len(self._events)
        self._open = None
        self._seen = {}

"""The event log: what happened, and who may see each part of it.

Every event has a *public* part that every seat sees, an optional *private* part per
seat (a card shown to the asker, the hand dealt to a seat), and an optional *hidden*
part that no seat sees (the secret pair as it is put aside). A seat's view of the game is
nothing but a filter of this log, so a view cannot leak what it never contained.

``EventLog.view(seat)`` gives the events as that seat saw them; ``view(None)`` is the
teacher's view, with every private and hidden part merged in.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterator, Mapping, NamedTuple, Optional, Sequence

__all__ = ["Event", "EventLog", "TEACHER"]

#: The viewpoint that sees everything (the teacher at the projector).
TEACHER = None

_EMPTY: Mapping = MappingProxyType({})


class Event(NamedTuple):
    """One thing that happened.

    ``kind`` names it ("deal", "ask", "answer", "play", ...); ``step`` is the number of
    actions applied before it (so the events of one action share a step); ``public``,
    ``private`` and ``hidden`` hold the data as described in the module docstring.
    """

    kind: str
    step: int
    public: Mapping[str, Any]
    private: Mapping[int, Mapping[str, Any]] = _EMPTY
    hidden: Mapping[str, Any] = _EMPTY

    def seen_by(self, seat: Optional[int]) -> dict[str, Any]:
        """The event's data as ``seat`` saw it (``None``: the teacher, who sees all).

        Private data of several seats (a deal) is merged under ``"private"`` for the
        teacher, keyed by seat; a seat gets its own private data merged at top level.
        """
        data = dict(self.public)
        if seat is None:
            if self.private:
                data["private"] = {s: dict(p) for s, p in self.private.items()}
            data.update(self.hidden)
        else:
            mine = self.private.get(seat)
            if mine:
                data.update(mine)
        return data

    def visible_to(self, seat: Optional[int]) -> bool:
        """Whether the seat learns anything from this event (public or its own private part)."""
        return seat is None or bool(self.public) or seat in self.private


class EventLog(Sequence[Event]):
    """An append-only list of events.

    A game may keep a lazy log (Hearts builds its play events from the history only when they
    are read): a subclass records its raw entries through its own methods and overrides
    :meth:`_flush`, which every read calls first, to turn them into Events. Nothing outside the
    log's class touches its list.
    """

    __slots__ = ("_events",)

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self._events: list[Event] = list(events)

    def append(
        self,
        kind: str,
        step: int,
        public: Mapping[str, Any],
        private: Optional[Mapping[int, Mapping[str, Any]]] = None,
        hidden: Optional[Mapping[str, Any]] = None,
    ) -> Event:
        event = Event(kind, step, public, private or _EMPTY, hidden or _EMPTY)
        self._events.append(event)
        return event

    def _flush(self) -> None:
        """Make every event recorded so far an Event in the list (a lazy log's hook; eager: nothing)."""

    def __getitem__(self, i):  # type: ignore[override]
        self._flush()
        return self._events[i]

    def __len__(self) -> int:
        self._flush()
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        self._flush()
        return iter(self._events)

    def view(self, seat: Optional[int]) -> list[dict[str, Any]]:
        """Every event the seat can see, as the seat saw it, with ``kind`` and ``step``."""
        self._flush()
        out = []
        for e in self._events:
            if e.visible_to(seat):
                d = e.seen_by(seat)
                d["kind"] = e.kind
                d["step"] = e.step
                out.append(d)
        return out

    def copy(self) -> "EventLog":
        self._flush()
        return EventLog(self._events)

    def __deepcopy__(self, memo: dict) -> "EventLog":
        # Events are immutable once logged (their empty parts are read-only mapping proxies,
        # which deepcopy cannot copy), so a copied game shares them: copies stay cheap.
        self._flush()
        return EventLog(self._events)

    def truncate(self, length: int) -> None:
        """Keep the first ``length`` events."""
        self._flush()
        del self._events[length:]

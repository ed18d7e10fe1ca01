"""The event log: what happened, and who may see each part of it.

Every event has a *public* part that every seat sees, an optional *private* part per
seat (a card shown to the asker, the hand dealt to a seat), and an optional *hidden*
part that no seat sees (the secret pair as it is put aside). A seat's view of the game is
nothing but a filter of this log, so a view cannot leak what it never contained.

``EventLog.view(viewer)`` gives the events as that viewer saw them, each in the one shape every viewer
gets (:meth:`Event.seen_by`): the public keys with ``kind`` and ``step``, the hidden keys too for the
teacher (``view(None)``), and ``private``, the private parts the viewer may see keyed by seat (as a
string, as JSON keys are): a seat's own, every seat's for the teacher, none for the public view. The
same shape in Python and on the wire, so a game's words and every reader handle one shape.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterator, Mapping, NamedTuple, Optional, Sequence

__all__ = ["Event", "EventLog", "TEACHER", "part_of"]

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

    def seen_by(self, seat: Any) -> dict[str, Any]:
        """The event as ``seat`` saw it: one event of ``observation(seat)["events"]`` (``None``: the teacher,
        who sees all; :data:`~qardlab.engine.game.PUBLIC`: someone at no seat).

        One shape for every viewer: the public keys, ``kind`` and ``step``; the hidden keys for the teacher;
        and ``private``, the private parts the viewer may see by seat (a string: JSON's keys), present only
        when there is one: the teacher's every seat's, a seat's its own (``{"2": {...}}``), the public
        view's none. :func:`part_of` reads one seat's part.
        """
        data = dict(self.public)
        if seat is None:
            if self.private:
                data["private"] = {str(s): dict(p) for s, p in self.private.items()}
            data.update(self.hidden)
        else:
            mine = self.private.get(seat)
            if mine:
                data["private"] = {str(seat): dict(mine)}
        data["kind"] = self.kind
        data["step"] = self.step
        return data

    def visible_to(self, seat: Optional[int]) -> bool:
        """Whether the seat learns anything from this event (public or its own private part)."""
        return seat is None or bool(self.public) or seat in self.private


def part_of(event: Mapping[str, Any], seat: Any) -> Mapping[str, Any]:
    """The private part of ``seat`` in ``event``, one event of an observation (Python or JSON alike), or an
    empty mapping: the seat had none, or the observation's viewer may not see it."""
    return (event.get("private") or _EMPTY).get(str(seat), _EMPTY)


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
        """Every event the seat can see, as the seat saw it (:meth:`Event.seen_by`)."""
        self._flush()
        return [e.seen_by(seat) for e in self._events if e.visible_to(seat)]

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

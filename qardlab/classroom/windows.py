"""What each window of a classroom table is sent: its viewer's observation, whole or as what changed.

A mixin of :class:`~qardlab.classroom.tables.Classroom` (which seats the windows and plays the tables): after
each committed change of a table (``commits.py``) every window is sent its viewer's whole observation (a
window of the protocol's first form, ``frames=full``) or a change frame (``frames=changes``, made with
:mod:`.frames`), each computed once per viewer; a change of who is here is a change frame of its own. What a
viewer's ``changes`` windows hold is kept in ``Table.sent``: the observation but its events, and the log's
length then, so that a frame views only the events logged since (``Game.observation_since``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional

from ..engine import Game
from ..engine.game import _code_of
from .frames import observation_changes

if TYPE_CHECKING:
    from .tables import Connection, Table

__all__ = ["Windows"]


class Windows:
    """The sending half of a classroom (see the module docstring)."""

    def _presence(self, table: Table) -> None:
        """A seat's connected flag changed: every ``changes`` window of the table gets a change frame of it
        (a ``full`` window sees it in its next observation)."""
        flags = table.connected()
        for viewer, conns in list(table.clients.items()):
            held = table.sent.get(viewer)
            if not conns or held is None or held[0].get("connected") == flags:
                continue
            sent = held[0]
            sent["connected"] = flags
            text = json.dumps(
                {
                    "type": "change",
                    "seat": viewer,
                    "step": sent["step"],
                    "set": {"connected": flags},
                    "add": {},
                },
                separators=(",", ":"),
            )
            for conn in list(conns):
                if getattr(conn, "frames", "full") == "changes":
                    conn.send(text)

    @staticmethod
    def _observe(
        game: Game, viewer: Optional[int], flags: list[bool], events_from: int = 0
    ) -> dict[str, Any]:
        """What a viewer's windows hold: ``game.observation_json(viewer)`` (as its raw values: cards become
        codes when it is written) and each seat's ``connected`` flag; ``events_from``: its events only
        those logged after the first ``events_from`` (``Game.observation_since``)."""
        obs = dict(game.observation_since(viewer, events_from) if events_from else game.observation(viewer))
        legal = obs.get("legal")
        if legal:
            obs["legal"] = [game.action_to_json(a) for a in legal]
        obs["connected"] = flags
        return obs

    @staticmethod
    def _full_text(viewer: Optional[int], obs: dict[str, Any]) -> str:
        return json.dumps(
            {"type": "observation", "seat": viewer, "observation": obs},
            default=_code_of,
            separators=(",", ":"),
        )

    def _send_full(self, conn: Connection, table: Table, viewer: Optional[int]) -> None:
        """The whole observation to one window (on connecting, or asked for); a ``changes`` window's next
        change frames are computed from it."""
        game = table.told
        obs = self._observe(game, viewer, table.connected())
        if getattr(conn, "frames", "full") == "changes":
            table.sent[viewer] = ({k: v for k, v in obs.items() if k != "events"}, len(game.events))
        conn.send(self._full_text(viewer, obs))

    def _broadcast(self, table: Table) -> None:
        """The table's game changed: every window is sent its viewer's observation (``full``) or what changed
        in it since the last frame (``changes``), each computed once per viewer."""
        flags = table.connected()
        game = table.told
        for viewer, conns in list(table.clients.items()):
            if not conns:
                continue
            full = change = None
            for conn in list(conns):
                if getattr(conn, "frames", "full") == "changes":
                    if change is None:
                        change = self._change_text(table, viewer, game, flags)
                    conn.send(change)
                else:
                    if full is None:
                        full = self._full_text(viewer, self._observe(game, viewer, flags))
                    conn.send(full)

    def _change_text(self, table: Table, viewer: Optional[int], game: Game, flags: list[bool]) -> str:
        """The change frame from what ``viewer``'s windows hold to its observation of ``game`` (which they
        hold from now on). Its events are not viewed again: only those logged since the last frame are
        (``Game.observation_since``), which late in a Hearts match is a few of several hundred."""
        held = table.sent.get(viewer)
        logged = len(game.events)
        if held is None or held[1] > logged:  # (cannot happen: a window gets the whole observation first,
            # and a told game's log only grows) the whole one again
            obs = self._observe(game, viewer, flags)
            table.sent[viewer] = ({k: v for k, v in obs.items() if k != "events"}, logged)
            return self._full_text(viewer, obs)
        old, was_logged = held
        obs = self._observe(game, viewer, flags, was_logged)
        new_events = obs.pop("events")
        table.sent[viewer] = (obs, logged)
        changed, added, dropped = observation_changes(old, obs)
        if new_events:
            added["events"] = new_events
        frame: dict[str, Any] = {
            "type": "change",
            "seat": viewer,
            "step": obs["step"],
            "set": changed,
            "add": added,
        }
        if dropped:
            frame["drop"] = dropped
        return json.dumps(frame, default=_code_of, separators=(",", ":"))

    @staticmethod
    def _tell(conn: Connection, message: dict[str, Any]) -> None:
        conn.send(json.dumps(message))

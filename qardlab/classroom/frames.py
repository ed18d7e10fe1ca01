"""The classroom's frames: what a window is sent after each change of its table.

A window that connects with ``/ws?code=C&frames=changes`` (the package's own client) is sent its viewer's
whole observation first, then, after each change, only what changed in it: a ``change`` frame (``set``: keys
and their new values; ``add``: the items that grew at the end of a list, such as the events that just
happened; ``drop``: keys gone). A window of the protocol's first form (``frames=full``, the default) is sent
the whole observation every time. Its own module so that a student's client (``client.py``) applies frames
without loading the server's tables.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FRAME_MODES", "observation_changes", "apply_changes"]

#: what a connection is sent after each change (``/ws?code=C&frames=...``): ``full`` observations (the
#: protocol's first form, for old clients), or the first observation and then ``change`` frames
FRAME_MODES = ("full", "changes")


def observation_changes(
    old: dict[str, Any], new: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, list], list[str]]:
    """What changed from observation ``old`` to ``new``, as a change frame says it: ``set`` (key -> its new
    value), ``add`` (a list key -> the items that grew at its end: a trick taken), ``drop`` (keys gone).
    Applied in that order to ``old`` (:func:`apply_changes`): ``new``. (A window's events are not compared
    here: ``windows.py`` adds those logged since its last frame, ``Game.observation_since``'s.)"""
    changed: dict[str, Any] = {}
    added: dict[str, list] = {}
    for key, value in new.items():
        if key not in old:
            changed[key] = value
            continue
        was = old[key]
        if type(value) is list and type(was) is list and len(value) != len(was):
            n = len(was)
            if 0 < n < len(value) and value[:n] == was:
                added[key] = value[n:]
            else:
                changed[key] = value
        elif was != value:
            changed[key] = value
    return changed, added, [key for key in old if key not in new]


def apply_changes(obs: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """The observation a change frame makes of the one its window held: a new dict (and a new list for each
    key that grew), so that whoever kept the old one (a table drawing what changed) still has it as it was."""
    new = {k: v for k, v in obs.items() if k not in frame.get("drop", ())}
    new.update(frame.get("set", {}))
    for key, items in frame.get("add", {}).items():
        new[key] = new[key] + items
    return new

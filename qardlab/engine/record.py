"""Game records as JSON: save, load, validate, replay.

A record is the game's name, player count, options, seed and every step of the history,
chance (the deals) and forced steps (a Five Sons answer the cards force) included, in the
games' own JSON codec::

    {"format": "qardlab-record", "version": 2, "game": "five_sons", "players": 4,
     "options": {...}, "seed": 7, "actions": [...]}

Version 2 replays each action as one step (``Game.apply``). Version 1 records left the
forced steps out; they still load, each action replayed with ``Game.play`` (the step,
then the steps the rules force after it), and give the same game.

Loading validates the shape (plain JSON, nested at most :data:`MAX_DEPTH` deep), then
replays every action; a record that names an unknown game, has a wrong field, or holds an
action the rules refuse raises :class:`RecordError` saying which field or which action
(by number) is wrong. Saving is canonical (sorted keys, fixed separators), so the same
game gives the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from .registry import GAMES, find_game

if TYPE_CHECKING:  # typing only: game.py imports this module (Game.record), never the other way round
    from .game import Game

__all__ = ["Record", "RecordError", "FORMAT", "VERSION", "VERSIONS", "MAX_DEPTH"]

FORMAT = "qardlab-record"
#: the version written; every version in VERSIONS loads
VERSION = 2
VERSIONS = (1, 2)
#: how deeply a record's JSON may nest (a Five Sons deal nests 4 deep); deeper is refused, not recursed
MAX_DEPTH = 32
_FIELDS = ("format", "version", "game", "players", "options", "seed", "actions")


class RecordError(ValueError):
    """A record that is malformed or does not replay under the rules."""


def _check_json(value: Any, where: str) -> None:
    """RecordError unless ``value`` is plain JSON data (str keys) nested at most MAX_DEPTH deep.

    Walks with an explicit stack, so a deeply nested value is refused, never recursed into.
    """
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"record {where} is nested more than {MAX_DEPTH} deep")
        if v is None or isinstance(v, (str, bool, int)):
            continue
        if isinstance(v, float):
            if v != v or v in (float("inf"), float("-inf")):
                raise RecordError(f"record {where} holds {v!r}, which is not JSON")
            continue
        if isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise RecordError(f"record {where} has the key {k!r}; JSON keys are strings")
                stack.append((x, depth + 1))
        else:
            raise RecordError(f"record {where} holds {v!r} ({type(v).__name__}), which is not JSON")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class Record:
    """One game's record; the fields are checked on construction (RecordError naming a bad one)."""

    game: str
    players: int
    options: dict[str, Any]
    seed: Optional[int]
    actions: list[Any] = field(default_factory=list)
    version: int = VERSION

    def __post_init__(self) -> None:
        if not isinstance(self.game, str):
            raise RecordError(f"record field 'game' must be a game's name, got {self.game!r}")
        if not _int(self.players):
            raise RecordError(f"record field 'players' must be an integer, got {self.players!r}")
        if not isinstance(self.options, dict):
            raise RecordError(f"record field 'options' must be an object, got {self.options!r}")
        _check_json(self.options, "field 'options'")
        if self.seed is not None and not _int(self.seed):
            raise RecordError(f"record field 'seed' must be an integer or null, got {self.seed!r}")
        if not isinstance(self.actions, list):
            raise RecordError(f"record field 'actions' must be a list, got {self.actions!r}")
        for i, a in enumerate(self.actions):
            _check_json(a, f"action #{i}")
        if not _int(self.version) or self.version not in VERSIONS:
            raise RecordError(
                f"record version {self.version!r} is not supported (expected one of {VERSIONS})"
            )

    @classmethod
    def of(cls, game: "Game") -> "Record":
        """The record of ``game``: every step of its history, forced steps included (version 2)."""
        rec = object.__new__(cls)  # a game's own codec writes plain JSON: no need to walk it again
        rec.__dict__.update(
            game=game.name,
            players=game.players,
            options=_jsonable_options(game.options),
            seed=game.seed,
            actions=[game.action_to_json(a) for a in game.history],
            version=VERSION,
        )
        return rec

    # -- JSON -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": self.version,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "actions": self.actions,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def save(self, path: Union[str, Path]) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, text: Any) -> "Record":
        """Read a record from JSON text; RecordError (never RecursionError) for anything else."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise RecordError(f"a record is JSON text, not {type(text).__name__} {text!r:.80}")
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RecordError(f"record is not valid JSON: {e}") from None
        except RecursionError:
            raise RecordError("record is not valid JSON: it is nested too deeply") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: Union[str, Path]) -> "Record":
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        if not isinstance(data, dict):
            raise RecordError(f"record must be a JSON object, got {type(data).__name__}")
        fmt = data.get("format")
        if not isinstance(fmt, str) or fmt != FORMAT:
            raise RecordError(f"record format is {fmt!r}, expected {FORMAT!r}")
        version = data.get("version")
        if not _int(version) or version not in VERSIONS:
            raise RecordError(f"record version {version!r} is not supported (expected one of {VERSIONS})")
        game = data.get("game")
        try:
            find_game(game)
        except ValueError:
            raise RecordError(f"record names unknown game {game!r}; known: {sorted(GAMES)}") from None
        unknown = [k for k in data if k not in _FIELDS]
        if unknown:
            raise RecordError(f"record has unknown fields {sorted(map(repr, unknown))}")
        return cls(
            game, data.get("players"), data.get("options", {}), data.get("seed"), data.get("actions"), version
        )

    # -- replay -----------------------------------------------------------------------
    def replay(self, upto: Optional[int] = None) -> "Game":
        """The game after the first ``upto`` actions (all by default), every one checked.

        Version 2: each action is one step (``apply``); version 1: each action is followed
        by the steps the rules force (``play``), which version 1 left out.
        """
        if upto is not None and (not _int(upto) or upto < 0):
            raise RecordError(f"upto must be a number of actions (0 or more) or None, not {upto!r}")
        try:
            cls = find_game(self.game)
        except ValueError:
            known = sorted(GAMES)
            raise RecordError(f"record names unknown game {self.game!r}; known: {known}") from None
        try:
            game = cls._blank(self.players, dict(self.options), self.seed)
        except ValueError as e:
            raise RecordError(f"record cannot set up {self.game}: {e}") from None
        step = game.apply if self.version >= 2 else game.play
        for i, raw in enumerate(self.actions[:upto]):
            try:
                step(game.action_from_json(raw))
            except (ValueError, TypeError, KeyError) as e:
                raise RecordError(f"record action #{i} {raw!r} does not replay: {e}") from None
        return game


def _jsonable_options(options: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in options.items():
        if hasattr(v, "to_dict"):
            v = v.to_dict()
        elif isinstance(v, tuple):
            v = list(v)
        out[k] = v
    return out

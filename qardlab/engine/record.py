"""Game records as JSON: save, load, validate, replay.

A record is the game's name, player count, options, seed and every action chosen,
chance (the deals) included, in the games' own JSON codec (actions the rules force are
left out: replay forces them again)::

    {"format": "qardlab-record", "version": 1, "game": "five_sons", "players": 4,
     "options": {...}, "seed": 7, "actions": [...]}

Loading validates the shape, then replays every action through ``apply``; a record
that names an unknown game, has a wrong field, or holds an action the rules refuse
raises :class:`RecordError` saying which field or which action (by number) is wrong.
Saving is canonical (sorted keys, fixed separators), so the same game gives the same
bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from .game import Game, IllegalAction

__all__ = ["Record", "RecordError", "FORMAT", "VERSION"]

FORMAT = "qardlab-record"
VERSION = 1


class RecordError(ValueError):
    """A record that is malformed or does not replay under the rules."""


@dataclass
class Record:
    game: str
    players: int
    options: dict[str, Any]
    seed: Optional[int]
    actions: list[Any] = field(default_factory=list)

    @classmethod
    def of(cls, game: Game) -> "Record":
        return cls(
            game=game.name,
            players=game.players,
            options=_jsonable_options(game.options),
            seed=game.seed,
            actions=[game.action_to_json(a) for a in game.history if not game.is_forced(a)],
        )

    # -- JSON -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
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
    def from_json(cls, text: str) -> "Record":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"record is not valid JSON: {e}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: Union[str, Path]) -> "Record":
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        if not isinstance(data, dict):
            raise RecordError(f"record must be a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise RecordError(f"record format is {data.get('format')!r}, expected {FORMAT!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not supported (expected {VERSION})")
        game = data.get("game")
        if game not in Game.registry:
            raise RecordError(f"record names unknown game {game!r}; known: {sorted(Game.registry)}")
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError(f"record field 'players' must be an integer, got {players!r}")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError(f"record field 'options' must be an object, got {options!r}")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError(f"record field 'seed' must be an integer or null, got {seed!r}")
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise RecordError(f"record field 'actions' must be a list, got {actions!r}")
        unknown = set(data) - {"format", "version", "game", "players", "options", "seed", "actions"}
        if unknown:
            raise RecordError(f"record has unknown fields {sorted(unknown)}")
        return cls(game, players, options, seed, actions)

    # -- replay -----------------------------------------------------------------------
    def replay(self, upto: Optional[int] = None) -> Game:
        """The game after the first ``upto`` actions (all by default), every one checked."""
        cls = Game.registry[self.game]
        try:
            game = cls._blank(self.players, dict(self.options), self.seed)
        except ValueError as e:
            raise RecordError(f"record cannot set up {self.game}: {e}") from None
        for i, raw in enumerate(self.actions[:upto]):
            try:
                action = game.action_from_json(raw)
                game.apply(action)
            except (IllegalAction, ValueError, TypeError, KeyError) as e:
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

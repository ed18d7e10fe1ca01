"""Golden playthroughs (after OpenSpiel's): one format for every game, written and checked by one tool.

A playthrough is a whole seeded game stored as JSON text with the facts a regression test pins:

- ``record``: the game's record (:class:`~qardlab.engine.record.Record`, every step, the deal
  included), so the file replays under the rules without its seed;
- ``transcript``: every event in words as the teacher saw it (``Game.transcript()``);
- ``summary``: the result (``Game.summary()``: scores, winners, the secret...);
- ``how``: one line saying how the game was played (the seed, the bots), for a reader.

:func:`check` asserts that the stored record replays to a finished game with the same record,
words and result, and that the same seed and bots (``play``, a function that plays the game
again) still give that game byte for byte. The file is laid out one action and one sentence per
line, so a change shows up in a diff as the lines it changes. ``scripts/make_goldens.py`` writes
(``--check``: checks) every case of every ``golden_cases.py`` under ``tests/``.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Union

from .game import Game
from .record import Record

__all__ = ["FORMAT", "VERSION", "Case", "playthrough", "dumps", "loads", "write", "check", "find_cases"]

FORMAT = "qardlab-playthrough"
VERSION = 1
_KEYS = ("format", "version", "game", "how", "summary", "transcript", "record")


@dataclass(frozen=True)
class Case:
    """One golden playthrough: its file name (without ``.json``), how it is played, and in words."""

    stem: str
    play: Callable[[], Game]
    how: str


def playthrough(game: Game, how: str = "") -> dict[str, Any]:
    """The playthrough of ``game`` as it stands, as JSON data (see the module docstring)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "how": how,
        "summary": _plain(game.summary()),
        "transcript": game.transcript(None),
        "record": game.record().to_dict(),
    }


def _one(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def dumps(data: dict[str, Any]) -> str:
    """The playthrough as text: JSON, one action and one sentence per line."""
    record = dict(data["record"])
    actions = record.pop("actions")
    head = _one(record)[:-1]  # the record's fields, its actions below one per line
    lines = ["{"]
    for key in ("format", "version", "game", "how", "summary"):
        lines.append(f'"{key}": {_one(data[key])},')
    lines.append('"transcript": [')
    lines += [f"  {_one(t)}," for t in data["transcript"]]
    if data["transcript"]:
        lines[-1] = lines[-1][:-1]
    lines.append("],")
    lines.append(f'"record": {head}{"," if record else ""}"actions":[')
    lines += [f"  {_one(a)}," for a in actions]
    if actions:
        lines[-1] = lines[-1][:-1]
    lines.append("]}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def loads(text: str) -> dict[str, Any]:
    """A playthrough read from its text; ValueError naming what is not a playthrough."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        fmt = data.get("format") if isinstance(data, dict) else data
        raise ValueError(f"not a {FORMAT} file (format {fmt!r})")
    if data.get("version") != VERSION:
        raise ValueError(f"{FORMAT} version {data.get('version')!r} is not supported (expected {VERSION})")
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise ValueError(f"playthrough lacks {missing}")
    return data


def write(path: Union[str, Path], game: Game, how: str = "") -> None:
    """Write ``game``'s playthrough to ``path``."""
    Path(path).write_text(dumps(playthrough(game, how)), encoding="utf-8")


def check(path: Union[str, Path], play: Callable[[], Game] | None = None) -> Game:
    """Assert the stored playthrough at ``path`` holds today (see the module docstring); return the
    replayed game. ``play`` plays the game again from its seed and bots (skipped when None)."""
    text = Path(path).read_text(encoding="utf-8")
    data = loads(text)
    record = Record.from_dict(data["record"])
    game = record.replay()
    assert game.is_over, f"{path}: the stored record does not play to the end"
    assert game.name == data["game"]
    assert game.record().to_dict() == data["record"], f"{path}: the record replays to another record"
    assert game.transcript(None) == data["transcript"], f"{path}: the words differ: {_diff(game, data)}"
    assert _plain(game.summary()) == data["summary"], f"{path}: the result differs: {game.summary()}"
    assert dumps(data) == text, f"{path}: not laid out as dumps() writes it (regenerate)"
    if play is not None:
        again = play()
        assert again.record().to_json() == record.to_json(), f"{path}: the same seed and bots play otherwise"
    return game


def find_cases(root: Union[str, Path], under: str = "tests") -> Iterator[tuple[Path, Case]]:
    """(file, case) of every case of every ``golden_cases.py`` below ``root/under``, in a stable order.

    A game's cases are found by its folder alone: each ``golden_cases.py`` lists ``CASES``, and a
    case's file is ``playthroughs/<stem>.json`` beside it. The modules are imported by their dotted
    path from ``root`` (which must be on ``sys.path``), so they may import their folder's helpers.
    """
    root = Path(root)
    for path in sorted((root / under).rglob("golden_cases.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for case in importlib.import_module(module).CASES:
            yield path.parent / "playthroughs" / f"{case.stem}.json", case


def _diff(game: Game, data: dict[str, Any]) -> str:
    for i, (a, b) in enumerate(zip(game.transcript(None), data["transcript"])):
        if a != b:
            return f"line {i}: now {a!r}, stored {b!r}"
    return f"now {len(game.transcript(None))} lines, stored {len(data['transcript'])}"


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False))

"""The two engine calls the classroom server makes for a table's game, in one place.

The server applies exactly one step per accepted action (``Game.apply``: a Five Sons answer,
forced or chosen, is the answerer's own step, sent by that seat or by its bot at the bots'
pace, never applied by the server on its own) and sends each seat
``game.observation_json(seat)``, the teacher ``observation_json(None)``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Optional

from ..engine import Game

__all__ = ["step", "observation_json", "observation_text"]


def step(game: Game, action: Any) -> None:
    """Apply one step of ``to_move`` (IllegalAction, nothing changed, if the rules refuse it)."""
    game.apply(action)


def observation_json(game: Game, seat: Optional[int]) -> dict[str, Any]:
    """What ``seat`` may know now as plain JSON data (``None``: the teacher's, the whole game)."""
    return game.observation_json(seat)


def _default(value: Any) -> Any:
    """What ``json.dumps`` cannot write itself, as ``observation_json`` writes it."""
    if isinstance(value, Mapping):  # a read-only mapping of an event's parts
        return dict(value)
    code = getattr(value, "code", None)
    if isinstance(code, str):  # a Card
        return code
    raise TypeError(f"not JSON data: {value!r}")


def observation_text(game: Game, seat: Optional[int]) -> str:
    """``json.dumps(game.observation_json(seat))``, written by the C encoder in one pass.

    The same JSON (the tests compare every frame with ``observation_json``) at a third of the cost:
    the server writes one for every seat after every step.
    """
    obs = game.observation(seat)
    legal = obs.get("legal") or []
    if legal:
        obs = {**obs, "legal": [game.action_to_json(a) for a in legal]}
    return json.dumps(obs, default=_default, separators=(",", ":"))

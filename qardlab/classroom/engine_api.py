"""The two engine calls the classroom server makes for a table's game, in one place.

The server applies exactly one step per accepted action (``Game.apply``: a Five Sons answer,
forced or chosen, is the answerer's own step, sent by that seat or by its bot at the bots'
pace, never applied by the server on its own) and sends each seat
``game.observation_json(seat)``, the teacher ``observation_json(None)``.
"""

from __future__ import annotations

from typing import Any, Optional

from ..engine import Game

__all__ = ["step", "observation_json"]


def step(game: Game, action: Any) -> None:
    """Apply one step of ``to_move`` (IllegalAction, nothing changed, if the rules refuse it)."""
    game.apply(action)


def observation_json(game: Game, seat: Optional[int]) -> dict[str, Any]:
    """What ``seat`` may know now as plain JSON data (``None``: the teacher's, the whole game)."""
    return game.observation_json(seat)

"""The few engine calls the classroom server makes, in one place.

The server applies exactly one step per accepted action (a Five Sons answer, forced or
chosen, is the answerer's own step, sent by that seat or by its bot at the bots' pace) and
sends each seat ``game.observation_json(seat)``, the teacher ``observation_json(None)``.
"""

from __future__ import annotations

from typing import Any, Optional

from ..engine import Game

__all__ = ["step", "observation_json"]


def step(game: Game, action: Any) -> None:
    """Apply one step of ``to_move`` (IllegalAction, nothing changed, if the rules refuse it)."""
    if hasattr(game, "observation_json"):
        game.apply(action)
    else:  # TEMPORARY until engine-secrecy is merged: the old apply forced answers after a step
        game.apply_step(action)


def observation_json(game: Game, seat: Optional[int]) -> dict[str, Any]:
    """What ``seat`` may know now as plain JSON data (``None``: the teacher's, the whole game)."""
    if hasattr(game, "observation_json"):
        return game.observation_json(seat)
    return _old_observation_json(game, seat)  # TEMPORARY until engine-secrecy is merged


def _old_observation_json(game: Game, seat: Optional[int]) -> dict[str, Any]:
    import json

    if seat is None:
        obs = dict(game.observation(0))
        obs.update(seat=None, hand=[], legal=[], events=game.events.view(None),
                   hands=[[c.code for c in game.hand(s)] for s in range(game.players)])
        if getattr(game, "secret", None) is not None:
            obs["secret"] = [c.code for c in game.secret]
    else:
        obs = dict(game.observation(seat))
    obs["legal"] = [a if isinstance(a, str) else game.action_to_json(a) for a in obs["legal"]]
    return json.loads(json.dumps(obs))

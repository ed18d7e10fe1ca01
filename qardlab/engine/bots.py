"""The one small interface every bot follows, and bots playing a game to its end.

A bot sees a seat's :class:`~qardlab.engine.game.Observation` (never the game state)
and returns an action. A step the rules force (a Five Sons answer from a seat holding one
named card, or neither) is the seat's own step too: its observation's ``legal`` is then that
single forced action, which a bot returns. ``play`` and ``play_turn`` are the seat driver
(:class:`~qardlab.engine.seats.Seats`) with a bot in every seat, at once: it deals at chance nodes
and lets the bot of the seat to move act.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional, Protocol, runtime_checkable

from .game import Game, Observation, check_seed
from .seats import Seats

__all__ = ["Bot", "RandomBot", "FunctionBot", "forced_in", "play", "play_turn"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``act(observation) -> action``."""

    def act(self, obs: Observation) -> Any: ...


def forced_in(obs: Observation) -> Any:
    """The forced action of ``obs`` (its single legal action, marked forced), or None."""
    legal = obs["legal"]
    if len(legal) == 1 and Game.is_forced(legal[0]):
        return legal[0]
    return None


class RandomBot:
    """Picks uniformly among ``obs.legal`` with its own seeded RNG (a forced step: no draw)."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = random.Random(check_seed(seed))

    def act(self, obs: Observation) -> Any:
        forced = forced_in(obs)
        if forced is not None:  # no choice, so no draw: the bot's later choices stay as they were
            return forced
        return self.rng.choice(obs["legal"])

    def __repr__(self) -> str:
        return "RandomBot()"


class FunctionBot:
    """A bot made from a function of the observation (``fn(obs) -> action``): how a student's
    reasoning, or any quick experiment, takes a seat without writing a class."""

    def __init__(self, fn: Callable[[Observation], Any], name: Optional[str] = None) -> None:
        if not callable(fn):
            raise TypeError(f"FunctionBot needs a function of the observation, not {fn!r}")
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "function")

    def act(self, obs: Observation) -> Any:
        return self.fn(obs)

    def __repr__(self) -> str:
        return f"FunctionBot({self.name})"


def _driver(game: Game, bots: "Sequence[Bot] | Mapping[int, Bot]") -> Seats:
    if not isinstance(bots, (Mapping, list, tuple)):
        raise ValueError(f"bots must map seats to bots (or list them by seat), not {bots!r:.80}")
    if not isinstance(bots, Mapping):  # a list by seat may hold more (one for the most players): unused
        bots = bots[: game.players]
    return Seats(type(game), game.players, bots)


def play_turn(game: Game, bots: "Sequence[Bot] | Mapping[int, Bot]") -> Any:
    """Let the seat to move act (or deal, at a chance node): one step; return the action applied.
    ``bots`` maps seats to bots, or lists them by seat (a longer list's extra bots are not used).
    ValueError when no bot plays the seat to move (or the game is over)."""
    seats = _driver(game, bots)
    due = seats.due(game)
    if not due.automatic:
        what = "the game is over" if due.kind == "over" else f"no bot for seat {due.seat}"
        raise ValueError(f"{what} in {bots!r:.80}")
    action = seats.decision(game, due)()
    game.apply(action)
    return action


def play(game: Game, bots: "Sequence[Bot] | Mapping[int, Bot]", max_steps: int = 100_000) -> Game:
    """Play until the game is over (or ``max_steps`` actions); returns the game. ValueError when a seat
    to move has no bot."""
    if isinstance(max_steps, bool) or not isinstance(max_steps, int):
        raise ValueError(f"max_steps must be a number of steps, not {max_steps!r}")
    seats = _driver(game, bots)
    max_steps = max(0, max_steps)
    done = seats.run(game, max_steps=max_steps)
    due = seats.due(game)
    if done < max_steps and due.kind == "person":
        raise ValueError(f"no bot for seat {due.seat} in {bots!r:.80}")
    return game

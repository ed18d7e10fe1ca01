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
from .seats import _NOTHING, Seats

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


#: ``play_turn``'s last driver: (the bots given, game class, players, Seats). A loop of ``play_turn`` calls
#: with the same bots (a hand played step by step) asks one driver, made at its first call, instead of making
#: and checking a new one at every step; other bots, or the same list changed, make a new one. The driver is
#: never changed after it is made (no orders, no set_bot), so sharing it is safe.
_last_driver: "tuple[tuple[Any, ...], type, int, Seats] | None" = None


def _turn_driver(game: Game, bots: "Sequence[Bot] | Mapping[int, Bot]") -> Seats:
    """The seat driver of ``play_turn``: the last one when the game class, the players and every bot are
    the same as at the last call, else a new one. The bots are compared with ``==``, which is ``is`` for a
    bot whose class keeps ``object``'s equality: the driver is kept only for such bots (a bot equal to
    another, a dataclass's, gets a new driver at every call, so an equal bot never stands in for it)."""
    global _last_driver
    kind = type(bots)
    if kind is list or kind is tuple:
        given: Any = tuple(bots)
    elif isinstance(bots, Mapping):
        given = tuple(bots.items())
    else:
        return _driver(game, bots)  # (ValueError naming them)
    last = _last_driver
    if last is not None and last[0] == given and last[1] is type(game) and last[2] == game.players:
        return last[3]
    seats = _driver(game, bots)
    held = given if kind is list or kind is tuple else [b for _, b in given]
    if all(type(b).__eq__ is object.__eq__ for b in held):
        _last_driver = (given, type(game), game.players, seats)
    return seats


def play_turn(game: Game, bots: "Sequence[Bot] | Mapping[int, Bot]") -> Any:
    """Let the seat to move act (or deal, at a chance node): one step; return the action applied.
    ``bots`` maps seats to bots, or lists them by seat (a longer list's extra bots are not used).
    ValueError when no bot plays the seat to move (or the game is over)."""
    seats = _turn_driver(game, bots)
    action = seats._action(game)
    if (
        action is _NOTHING
    ):  # the driver plays nothing here (its pace deals at once): the end, or a person's seat
        due = seats.due(game)
        what = "the game is over" if due.kind == "over" else f"no bot for seat {due.seat}"
        raise ValueError(f"{what} in {bots!r:.80}")
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

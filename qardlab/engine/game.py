"""The Game protocol every qardlab game follows, and what the games share.

A game is a state machine over *actions*. Chance is part of the history (as in
OpenSpiel): the deal is applied as an action of the chance player, so a record holds
every deal and replays exactly without its seed. A game:

- says whose turn it is (``to_move``: a seat, ``CHANCE`` while a deal is due, or
  ``None`` once the game is over) and which actions are legal (``legal_actions()``);
- applies one action at a time (``apply()``): an illegal action raises
  :class:`IllegalAction` and leaves the game exactly as it was;
- logs what happened in an :class:`~qardlab.engine.events.EventLog` whose events say
  who may see them, so ``observation(seat)`` is a filter of the log plus the seat's
  own hand;
- draws every random choice from its own seeded ``random.Random``.

Subclasses implement ``_validate(action)`` (return the normalised action or raise
IllegalAction, touching nothing), ``_do(action)`` (change the state, log events; it
is only given validated actions and must not fail), and the JSON codec of their
actions. ``apply`` is the one place that orders the two, so "a rejected action changes
nothing" holds for every game by construction.
"""

from __future__ import annotations

import copy as _copy
import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Optional, Sequence

from .events import EventLog

if TYPE_CHECKING:  # only for the annotation of Game.record(); record.py imports this module
    from .record import Record

__all__ = ["Game", "IllegalAction", "CHANCE", "Observation"]

#: ``to_move`` while chance (a shuffle and deal) is due.
CHANCE = -1


class IllegalAction(ValueError):
    """An action the rules do not allow now. The message says what was wrong and what is legal."""


class Observation(dict):
    """What one seat knows: a plain dict (JSON-friendly) built only from that seat's view.

    Keys every game provides: ``game``, ``seat``, ``players``, ``step``, ``to_move``,
    ``is_over``, ``hand`` (the seat's cards, as codes), ``events`` (the log as the seat saw
    it), and ``legal`` (the seat's legal actions when it is to move, else ``[]``).
    Games add their own public keys (hand sizes, scores, phase...).
    """

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Game(ABC):
    """Base class of the games. See the module docstring for the contract."""

    #: registry name used in records ("five_sons", "hearts")
    name: ClassVar[str] = ""
    #: the games by name, filled by ``__init_subclass__``; records look games up here
    registry: ClassVar[dict[str, type["Game"]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.name:
            Game.registry[cls.name] = cls

    def __init__(self, players: int, options: dict[str, Any], seed: Optional[int]) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.rng = random.Random(seed)
        self.events = EventLog()
        self.history: list[Any] = []  # every applied action, chance included, normalised

    # -- the protocol -----------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> Optional[int]:
        """The seat to act, ``CHANCE`` when a deal is due, ``None`` when over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """The legal actions of ``to_move``, in a stable order (empty once over)."""

    @abstractmethod
    def _validate(self, action: Any) -> Any:
        """Return the normalised action, or raise IllegalAction. Must not change state."""

    @abstractmethod
    def _do(self, action: Any) -> None:
        """Apply a validated action: change the state and log its events."""

    def _forced(self) -> Any:
        """The action the rules force now, if any (None by default).

        ``apply`` applies forced actions itself, each as its own step of the history, so
        that a move that is sometimes a choice and sometimes forced (a Five Sons answer)
        takes one step either way: how many steps a game has never tells a seat whether
        someone had a choice. Forced actions are marked ``forced`` and left out of records,
        since replay forces them again.
        """
        return None

    def chance_outcome(self) -> Any:
        """At a chance node (``to_move == CHANCE``), draw the outcome from the game's RNG."""
        raise IllegalAction("no chance event is due now")

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows now, built from its view of the log and its own hand."""

    @abstractmethod
    def action_to_json(self, action: Any) -> Any: ...

    @abstractmethod
    def action_from_json(self, data: Any) -> Any: ...

    @classmethod
    @abstractmethod
    def _blank(cls, players: int, options: dict[str, Any], seed: Optional[int]) -> "Game":
        """A game before its first action: what a record replays from."""

    # -- shared behaviour -------------------------------------------------------------
    def apply(self, action: Any) -> "Game":
        """Apply one action of ``to_move``, then every action the rules force after it.

        IllegalAction (nothing changed) if ``action`` is not allowed.
        """
        self.apply_step(action)
        forced = self._forced()
        while forced is not None:
            self.history.append(forced)
            self._do(forced)
            forced = self._forced()
        return self

    def apply_step(self, action: Any) -> "Game":
        """Apply exactly one step of the history (a forced action included), forcing nothing after it.

        This is how a :class:`~qardlab.engine.timeline.Timeline` stops between an action and
        the forced actions that follow it. Validation is the same as ``apply``'s.
        """
        if self.is_over:
            raise IllegalAction(f"the game is over; {action!r} cannot be played")
        normalised = self._validate(action)
        self.history.append(normalised)
        self._do(normalised)
        return self

    @staticmethod
    def is_forced(action: Any) -> bool:
        """Whether a history entry was forced by the rules (and so is not saved in records)."""
        return getattr(action, "forced", False) is True

    def why_illegal(self, action: Any) -> Optional[str]:
        """The reason the rules refuse ``action`` now (the IllegalAction text), or None if it is legal.

        Asks without playing: validation never changes the game. Views use it to dim a
        card and say why, without knowing any rule themselves.
        """
        if self.is_over:
            return f"the game is over; {action!r} cannot be played"
        try:
            self._validate(action)
        except IllegalAction as e:
            return str(e)
        return None

    @property
    def step(self) -> int:
        """Number of actions applied so far (chance included)."""
        return len(self.history)

    def copy(self) -> "Game":
        """An independent copy (same state, same RNG state)."""
        return _copy.deepcopy(self)

    def record(self) -> "Record":
        from .record import Record

        return Record.of(self)

    @classmethod
    def replay(cls, actions: Sequence[Any], players: int, options: Optional[dict] = None,
               seed: Optional[int] = None) -> "Game":
        game = cls._blank(players, dict(options or {}), seed)
        for a in actions:
            game.apply(a)
        return game

    def log(self, kind: str, public: dict, private: Optional[dict] = None,
            hidden: Optional[dict] = None) -> None:
        """Log an event of the action being applied (call from ``_do``)."""
        self.events.append(kind, len(self.history) - 1, public, private, hidden)

    def describe(self, event: Any, seat: Optional[int] = None) -> str:
        """One event in words, as ``seat`` saw it (games override)."""
        return f"{event.kind}"

    def seat_name(self, seat: int) -> str:
        """The name a student reads for ``seat``: the game's option ``names``, else ``DEFAULT_NAMES``."""
        names = self.options.get("names")
        return names[seat] if names else DEFAULT_NAMES[seat]


DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")

"""Step-through: a cursor over the states of a recorded game.

Position ``k`` is the game after the first ``k`` steps of its history (0 is before the
deal; the last is the game as recorded). A step is one action, a forced one included
(a Five Sons answer forced by the cards held is a step of its own, as a chosen answer
is), so a seat stepping through a game never learns from the count of steps who had a
choice; ``extend`` adds exactly one step, like ``Game.apply``. States are rebuilt by
replay and cached at regular checkpoints, so any position is reached by replaying at most
``checkpoint_every`` steps from a cached copy; moving one step forward from the current
position replays exactly one step.

The timeline keeps the *live* game, the one at its end with its random generator as play
left it: a state rebuilt by replay has a fresh generator, so a deal drawn there would
repeat the first shuffle. ``chance_outcome()`` draws the next deal from the live game.
Listeners are told of every move; inside ``with timeline.batch():`` they are told once,
at the end (bots' moves then redraw a table once, not once per move).
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

from .game import CHANCE, Game, check_seed
from .record import Record, _jsonable_options

__all__ = ["Timeline"]


class Timeline:
    """A cursor over positions ``0..len(self) - 1`` of a game's history."""

    def __init__(self, source: "Game | Record", checkpoint_every: int = 16) -> None:
        if isinstance(checkpoint_every, bool) or not isinstance(checkpoint_every, int):
            raise ValueError(f"checkpoint_every must be a number of steps, not {checkpoint_every!r}")
        if isinstance(source, Game):
            final = source.copy()
        elif isinstance(source, Record):
            final = source.replay()
        else:
            raise ValueError(f"a Timeline follows a Game or a Record, not {source!r:.80}")
        # a version-1 record is not kept: the timeline's record holds every step (version 2)
        keep = isinstance(source, Record) and source.version >= 2
        self._record: Optional[Record] = source if keep else None
        self._final_record_of = final
        self.checkpoint_every = max(1, checkpoint_every)
        self._steps: list[Any] = list(final.history)
        self._checkpoints: dict[int, Game] = {0: self._blank_of(final)}
        self._position = len(self._steps)
        self._current: Game = final
        self._live: Game = final  # the game at the end, with the live RNG
        self._listeners: list[Callable[["Timeline"], None]] = []
        self._batching = 0
        self._pending = False

    @staticmethod
    def _blank_of(game: Game) -> Game:
        return type(game)._blank(game.players, _jsonable_options(game.options), game.seed)

    @property
    def record(self) -> Record:
        """The record (version 2: every step) of the whole timeline, built when first asked for."""
        if self._record is None:
            self._record = self._final_record_of.record()
        return self._record

    # -- positions --------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._steps) + 1

    @property
    def position(self) -> int:
        return self._position

    @property
    def last(self) -> int:
        return len(self._steps)

    @property
    def steps(self) -> tuple[Any, ...]:
        """Every step of the history, forced ones included (what positions count)."""
        return tuple(self._steps)

    @property
    def game(self) -> Game:
        """The game at the current position (do not mutate it; use ``extend``)."""
        return self._current

    @property
    def final(self) -> Game:
        """The game at the end of the timeline, wherever the cursor is (do not mutate it)."""
        return self._live

    def state_at(self, k: int) -> Game:
        """A fresh copy of the game after ``k`` steps."""
        return self._build(self._check(k)).copy()

    def go_to(self, k: int) -> Game:
        k = self._check(k)
        if k == self._position:
            return self._current
        if k == self.last:
            self._current = self._live
        elif k == self._position + 1:
            nxt = self._current.copy()
            nxt.apply(self._steps[k - 1])
            self._current = nxt
            if k % self.checkpoint_every == 0:
                self._checkpoints.setdefault(k, nxt.copy())
        else:
            self._current = self._build(k)
        self._position = k
        self._notify()
        return self._current

    def first(self) -> Game:
        return self.go_to(0)

    def previous(self) -> Game:
        return self.go_to(max(0, self._position - 1))

    def next(self) -> Game:
        return self.go_to(min(self.last, self._position + 1))

    def end(self) -> Game:
        return self.go_to(self.last)

    # -- growing ----------------------------------------------------------------------
    def extend(self, action: Any) -> Game:
        """Apply one new step at the end: IllegalAction (nothing changed) for an action the rules refuse.

        The cursor must be at the end: elsewhere a plain ValueError naming both positions (a misuse of
        the timeline, not an illegal move; a table's ``LocalSource.act`` refuses a move there first, as
        IllegalAction). Exactly one step, as ``Game.apply``: a forced step that falls due after it is the
        next ``extend`` (a table gives it on the bots' clock).
        """
        if self._position != self.last:
            raise ValueError(f"the timeline is at step {self._position}, not at its end ({self.last})")
        nxt = self._live.copy()
        nxt.apply(action)  # raises IllegalAction with nothing changed
        self._record = None
        self._final_record_of = nxt
        self._steps.append(nxt.history[-1])
        self._current = self._live = nxt
        self._position = self.last
        if self._position % self.checkpoint_every == 0:
            self._checkpoints.setdefault(self._position, nxt.copy())
        self._notify()
        return nxt

    def play_on(self, step: int, seed: Optional[int] = None) -> Game:
        """A new live game at ``step`` with the same cards: "play on from here" (Hanabi-Live's hypotheticals).

        The first ``step`` steps of the history are replayed into a fresh game of the same class, players,
        options and seed, so its cards (hands, Five Sons' secret), its history and its log up to ``step``
        are the recorded ones. A deal the record holds right at ``step`` is applied too: the new game
        starts after it, with the same cards (from step 0 of Five Sons, the recorded deal; between two
        hands of Hearts, the next hand as it was dealt). What the game draws after that (a later hand of
        a Hearts match) comes from a new generator: ``seed`` (a lesson's tool), or, by default, the
        system's entropy, so nothing drawn in the new game repeats or foretells a deal of this one.

        The timeline is not changed (nor its cursor). ValueError naming the step for a step outside
        ``0..last``, or one at which the game is over (nothing to play on).
        """
        k = self._check(step)
        seed = check_seed(seed)
        game = self._build(k).copy()
        while game.to_move == CHANCE and not game.is_over and k < self.last:
            game.apply(self._steps[k])  # the deal the record holds here: the same cards
            k += 1
        if game.is_over:
            raise ValueError(f"the game is over at step {step}: there is nothing to play on from there")
        game.rng = random.Random(seed)  # (None: seeded from the system's entropy)
        return game

    def chance_outcome(self) -> Any:
        """The next chance outcome (a deal), drawn from the live game's RNG at the end.

        The RNG moves on, so the next draw differs, however the cursor moved in between.
        IllegalAction when no chance event is due at the end.
        """
        return self._live.chance_outcome()

    def sync(self, game: Game) -> None:
        """Follow a live game: take its history and move to its end."""
        if not isinstance(game, Game):
            raise ValueError(f"a Timeline follows a Game, not {game!r:.80}")
        self._record = None
        self._final_record_of = game.copy()
        self._steps = list(game.history)
        self._checkpoints = {0: self._blank_of(game)}
        self._current = self._live = game.copy()
        self._position = self.last
        self._notify()

    # -- listeners --------------------------------------------------------------------
    def observe(self, callback: Callable[["Timeline"], None]) -> Callable[[], None]:
        """Call ``callback(timeline)`` after every move; returns the function that stops it."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    @contextmanager
    def batch(self) -> Iterator["Timeline"]:
        """Defer the listeners: every move inside is told once, at the end (nested batches: the
        outermost's end). Nothing is told if nothing moved."""
        self._batching += 1
        try:
            yield self
        finally:
            self._batching -= 1
            if self._batching == 0 and self._pending:
                self._pending = False
                self._notify()

    def _notify(self) -> None:
        if self._batching:
            self._pending = True
            return
        for cb in list(self._listeners):
            cb(self)

    # -- internals --------------------------------------------------------------------
    def _check(self, k: Any) -> int:
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= self.last:
            raise ValueError(f"step {k!r} is outside the timeline (0..{self.last})")
        return k

    def _build(self, k: int) -> Game:
        base = max(c for c in self._checkpoints if c <= k)
        game = self._checkpoints[base].copy()
        for i in range(base, k):
            game.apply(self._steps[i])
            if (i + 1) % self.checkpoint_every == 0 and (i + 1) not in self._checkpoints:
                self._checkpoints[i + 1] = game.copy()
        return game

    def describe(self, seat: Optional[int] = None) -> list[str]:
        """The events of the current step, in words, as ``seat`` saw them."""
        g = self._current
        if seat is not None:
            g._check_seat(seat)
        k = self._position
        return [g.describe(e, seat) for e in g.events if e.step == k - 1 and e.visible_to(seat)]

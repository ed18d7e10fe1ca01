"""Play on from here: a new live game at any step of a recorded one, with the same cards, and who plays it.

Hanabi-Live's hypotheticals are the model: at any step of a replay a person takes a seat and plays on, bots
in the other seats, with the cards as they were dealt ("what if Alice had asked Carol instead?").
:meth:`Timeline.play_on <qardlab.engine.timeline.Timeline.play_on>` makes the game (the history up to the
step replayed into a fresh game); :func:`what_if` adds its seat driver (:class:`~qardlab.engine.seats.Seats`):
the person at ``seat``, with the game's recommended standing orders as a new table starts, and a bot in
every other seat:

- ``bots`` a level of the game's ``bot_levels``: a new bot of that level in each other seat;
- ``bots`` None, the table's own: a copy of the bot each seat had in ``driver`` (the old table's seat
  driver: the same class and settings, its own state from then on), and for a seat that had none (a
  person's, or every seat of a table nobody played) a new bot of the game's strongest level;
- ``bots`` a mapping seat -> bot: those, and the strongest level in any other seat but the person's.

Secrecy: the new game holds the real hidden cards of the old one, and its bots' moves show them. That is
fine in a lesson or after the game; whether a table may offer it is the table's decision
(``GameTable.may_play_on``): never to a person's seat before the game is over, never at a classroom seat
(its game is the server's, and a joined seat has no timeline to play on from).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, NamedTuple, Optional, Union

from .game import Game, check_seed
from .record import Record
from .seats import Pace, Seats, orders_class
from .timeline import Timeline

__all__ = ["WhatIf", "what_if", "level_of"]


class WhatIf(NamedTuple):
    """A game played on from a step of another: ``game`` the new live game, ``driver`` who plays its seats,
    ``seat`` the person's seat, ``step`` the step of the old game it was played on from."""

    game: Game
    driver: Seats
    seat: int
    step: int


def level_of(game_class: type[Game], bot: Any) -> Optional[str]:
    """The bot level of ``game_class`` (its ``bot_levels``) whose class ``bot`` is, or None."""
    for level, maker in game_class.bot_makers().items():
        if type(bot) is maker:
            return level
    return None


def _copy_bot(bot: Any, seat: int) -> Any:
    try:
        return copy.deepcopy(bot)
    except Exception as e:  # a bot holding a lock, a socket, a generator...
        raise ValueError(
            f"the bot of seat {seat} ({type(bot).__name__}) cannot be copied into a new game ({e}); "
            "give a bot level instead"
        ) from None


def what_if(
    source: Union[Timeline, Record, Game],
    step: int,
    seat: int,
    *,
    bots: Union[str, Mapping[int, Any], None] = None,
    driver: Optional[Seats] = None,
    seed: Optional[int] = None,
    pace: Optional[Pace] = None,
) -> WhatIf:
    """Play on from ``step`` of ``source`` (a timeline, a record or a game's history) as ``seat``: the new
    game (:meth:`Timeline.play_on <qardlab.engine.timeline.Timeline.play_on>`) and its seat driver (see the
    module docstring for ``bots`` and ``driver``). ``seed`` seeds the new game's later draws and the new bots
    (None: the system's entropy); ``pace`` the new driver's (default ``driver``'s, else at once).

    ValueError naming the bad value, with nothing changed anywhere: a step outside the game or at its end,
    a seat that is not one, an unknown level, bots that are not bots of other seats, a driver of another
    game.
    """
    timeline = source if isinstance(source, Timeline) else Timeline(source)
    players = timeline.game.players
    cls = type(timeline.game)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat {seat!r} is not a seat of this {players}-player game (0..{players - 1})")
    seed = check_seed(seed)
    makers = cls.bot_makers()
    if isinstance(bots, str) and bots not in makers:
        raise ValueError(f"bot level {bots!r} is not one of {cls.__name__}'s levels {list(makers)}")
    if not (bots is None or isinstance(bots, (str, Mapping))):
        raise ValueError(f"bots must be a bot level, a mapping of seats to bots or None, not {bots!r:.80}")
    given = dict(bots) if isinstance(bots, Mapping) else {}
    bad = [s for s in given if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players]
    if bad or seat in given:
        raise ValueError(
            f"bots {sorted(map(repr, bad or [seat]))}: each must be another seat than the person's "
            f"({seat}), of 0..{players - 1}"
        )
    if driver is not None and not (
        isinstance(driver, Seats) and driver.game_class is cls and driver.players == players
    ):
        raise ValueError(
            f"driver must be a Seats of this {players}-player {cls.name} game, not {driver!r:.80}"
        )
    if pace is not None and not isinstance(pace, Pace):
        raise ValueError(f"pace must be a Pace, not {pace!r:.80}")
    game = timeline.play_on(step, seed)  # ValueError for a bad step, before any bot is made

    strongest = list(makers)[-1]
    old = driver.bots if driver is not None and bots is None else {}
    seated: dict[int, Any] = {}
    for s in range(players):
        if s == seat:
            continue
        if s in given:
            seated[s] = given[s]
        elif s in old:
            seated[s] = _copy_bot(old[s], s)
        else:
            level = bots if isinstance(bots, str) else strongest
            seated[s] = makers[level](None if seed is None else seed * 100 + s)
    new = Seats(
        cls,
        players,
        seated,
        pace=pace or (driver.pace if driver is not None else None),
        orders={seat: dict(orders_class(cls).recommended)},
    )
    return WhatIf(game, new, seat, step)

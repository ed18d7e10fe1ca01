"""A session of Five Sons: the draw for seats and first dealer, hands in turn, a tally of wins.

The seating ceremony (RULES.md): each player draws a card from a shuffled 52-card deck,
Ace high; players whose cards tie redraw among themselves (from the same deck) until the
order is settled. The highest card deals first and seats follow in the order of the
cards drawn, highest first, so seat 0 is the first dealer. Each later hand the deal moves
one seat clockwise. Every random choice comes from the session's seeded RNG, and each hand
gets its own seed drawn from it, so a session replays from its seed.
"""

from __future__ import annotations

import random
from typing import Any, Sequence, Union

from ...cards import Card, standard_deck
from ...engine.game import DEFAULT_NAMES, check_names, check_seed
from .game import FiveSons, _check_options

__all__ = ["FiveSonsSession", "draw_for_seats"]


Draws = list[list[tuple[str, Card]]]


def draw_for_seats(names: Sequence[str], rng: random.Random) -> tuple[list[str], Draws]:
    """The seating ceremony: return the names in seat order and every round of draws.

    Rounds: the first has every player; each later round is a redraw among players who tied.
    """
    deck = standard_deck()
    rng.shuffle(deck)
    rounds: list[list[tuple[str, Card]]] = []

    def order(group: list[str]) -> list[str]:
        draws = [(name, deck.pop()) for name in group]
        rounds.append(draws)
        by_rank: dict[int, list[str]] = {}
        for name, card in draws:
            by_rank.setdefault(card.rank, []).append(name)
        out: list[str] = []
        for rank in sorted(by_rank, reverse=True):  # Ace (14) high
            tied = by_rank[rank]
            out.extend(tied if len(tied) == 1 else order(tied))
        return out

    return order(list(names)), rounds


class FiveSonsSession:
    """A series of hands with the deal moving clockwise and a tally of wins per seat.

    ``players`` is a count (default names are used) or a list of names. With
    ``ceremony=True`` the names are seated by the draw; otherwise they sit in the given
    order and seat 0 deals first.
    """

    def __init__(
        self,
        players: Union[int, Sequence[str]] = 4,
        seed: int | None = 7,
        *,
        ceremony: bool = True,
        **options: Any,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, (int, list, tuple)):
            raise ValueError(f"players must be a count (4 or 5) or a list of names, not {players!r}")
        if isinstance(players, int):
            names = list(DEFAULT_NAMES[:players])
        else:
            names = check_names(players, len(players))
        if "names" in options:
            raise ValueError("give the names as `players`, not as an option of a session")
        _check_options(len(names) if not isinstance(players, int) else players, options)
        self.rng = random.Random(check_seed(seed))
        self.seed = seed
        self.options = options
        self.draws: list[list[tuple[str, Card]]] = []
        if ceremony:
            self.names, self.draws = draw_for_seats(names, self.rng)
        else:
            self.names = names
        self.players = len(self.names)
        self.first_dealer = 0
        self.games: list[FiveSons] = []
        self.next_hand()

    @property
    def current(self) -> FiveSons:
        return self.games[-1]

    @property
    def dealer(self) -> int:
        """The dealer of the current hand: the first dealer, moved one seat clockwise per hand."""
        return (self.first_dealer + len(self.games) - 1) % self.players

    def next_hand(self) -> FiveSons:
        """Deal the next hand, the deal one seat on; ValueError if the current hand is not over."""
        if self.games:
            if not self.current.is_over:
                raise ValueError(f"hand {len(self.games)} is not over yet (phase {self.current.phase!r})")
        dealer = (self.first_dealer + len(self.games)) % self.players
        game = FiveSons.new(
            self.players, seed=self.rng.randrange(2**32), dealer=dealer, names=self.names, **self.options
        )
        self.games.append(game)
        return game

    @property
    def tally(self) -> list[int]:
        """Wins per seat over the finished hands (the current one counted once it is over)."""
        tally = [0] * self.players
        for g in self.games:
            if g.is_over and g.winner is not None:
                tally[g.winner] += 1
        return tally

    def __repr__(self) -> str:
        return f"FiveSonsSession({self.names}, hands={len(self.games)}, tally={self.tally})"

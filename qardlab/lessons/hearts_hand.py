"""Lessons 10 and 11 (a first hand of Hearts, counting cards): one hand of rule bots, and its moments.

Lesson 10 walks one hand and stops where each rule first bites (:func:`find_moments`,
:func:`hand_with_every_rule`); its exercise asks about a later moment where a rule bars a card
(:func:`barred_moment`). Lesson 11 follows one seat's knowledge through a hand (:class:`SeatReplay`) and
looks for the moment a void turns a one-in-three guess into a certainty (:func:`void_moment`,
:func:`hand_with_void_moment`). Every moment is found by asking the game itself what was legal and the
deduction engine what the seat knew; nothing is typed in.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..cards import Card, Suit
from ..deduction import PLAYED, Knowledge
from ..engine import Timeline
from ..games.hearts import Hearts
from ..games.hearts.bots import RuleBot

__all__ = [
    "play_hand",
    "RULES",
    "find_moments",
    "hand_with_every_rule",
    "Moment",
    "barred_moment",
    "SeatReplay",
    "still_out",
    "void_moment",
    "hand_with_void_moment",
    "unknown_places",
    "count_moment",
]

QS = Card.parse("QS")
#: the rules lesson 10 stops at, in the order they usually bite
RULES = (
    "passing",
    "the 2 of clubs leads",
    "following suit",
    "the first-trick rule",
    "the Queen of spades",
    "the Queen's trick",
    "hearts breaking",
    "a heart is led",
    "the score",
)


def play_hand(seed: int) -> Hearts:
    """One hand of four rule bots, dealt from ``seed`` (bot seeds ``10 * seed + seat``)."""
    game = Hearts.new(players=4, seed=seed)
    bots = {s: RuleBot(seed=10 * seed + s) for s in range(4)}
    while game.phase in ("pass", "play"):
        game.apply(bots[game.to_move].act(game.observation(game.to_move)))
    return game


def _states(game: Hearts) -> Iterator[tuple[int, Any, Any]]:
    """(position, state before the action, action) for every action of the hand."""
    state = Timeline(game).state_at(0)
    for k, action in enumerate(game.history):
        yield k, state, action
        state.apply(action)


def find_moments(game: Hearts) -> tuple[dict[str, tuple[int, str]], tuple[int, int] | None]:
    """rule -> (position, words), in the order of the hand, and (seat, position) of the first-trick rule.

    The hand is replayed once; at every step the game says what was legal.
    """
    names = [game.seat_name(s) for s in range(game.players)]
    moments: dict[str, tuple[int, str]] = {}
    first_trick = None
    e = next(e for e in game.events if e.kind == "pass")
    moments["passing"] = (e.step + 1, game.describe(e, None))
    e = next(e for e in game.events if e.kind == "play")
    moments["the 2 of clubs leads"] = (e.step + 1, game.describe(e, None))
    for k, state, action in _states(game):
        if state.phase != "play":
            continue
        seat, trick = state.to_move, state.trick
        hand, legal = list(state.hand(seat)), set(state.legal_actions())
        led = trick[0][1].suit if trick else None
        if led is not None and "following suit" not in moments and any(c.suit == led for c in hand):
            moments["following suit"] = (k, f"{names[seat]} holds {led.name.lower()} and must play one.")
        if state.first_trick and led is not None and first_trick is None:
            banned = [c for c in hand if c not in legal]
            if banned and not any(c.suit == led for c in hand):
                moments["the first-trick rule"] = (
                    k,
                    f"{names[seat]} has no {led.name.lower()}, but may not throw "
                    f"{' '.join(c.symbol for c in banned)} on the first trick.",
                )
                first_trick = (seat, k)
        if action == QS:
            moments["the Queen of spades"] = (k + 1, f"{names[seat]} plays the Q♠.")
        if isinstance(action, Card) and action.suit == Suit.HEARTS:
            if "hearts breaking" not in moments:
                moments["hearts breaking"] = (
                    k + 1,
                    f"{names[seat]} plays the first heart, the {action.symbol}: hearts are broken.",
                )
            elif not trick and "a heart is led" not in moments:
                moments["a heart is led"] = (k, f"Hearts are broken, so {names[seat]} may lead one now.")
    e = next(e for e in game.events if e.kind == "trick" and e.public["points"] >= 13)
    moments["the Queen's trick"] = (e.step + 1, game.describe(e, None))
    moments["the score"] = (Timeline(game).last, game.describe(game.events[-1], None))
    return dict(sorted(moments.items(), key=lambda kv: kv[1][0])), first_trick


def hand_with_every_rule(
    seed: int, tries: int = 50
) -> tuple[int, Hearts, dict[str, tuple[int, str]], tuple[int, int]]:
    """The first hand from ``seed`` on in which every rule of :data:`RULES` bites: (seed, game, moments,
    first-trick (seat, position))."""
    for s in range(seed, seed + tries):
        game = play_hand(s)
        moments, first_trick = find_moments(game)
        if set(moments) == set(RULES) and first_trick is not None:
            return s, game, moments, first_trick
    raise ValueError(f"no hand from seed {seed} to {seed + tries - 1} shows every rule")


@dataclass(frozen=True)
class Moment:
    """A position where the seat to move holds cards the rules bar: ``rule`` says which rule."""

    position: int
    seat: int
    rule: str  # "hearts may not be led" | "following suit"
    hand: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    barred: tuple[Card, ...]


def barred_moment(game: Hearts) -> Moment:
    """After the first trick, the first lead where hearts are not broken and the leader holds hearts and
    other cards; failing that, the first time after the first trick a player must follow suit while holding
    other suits. The hand and the trick are what a student needs to reason; ``barred`` is the answer."""
    follow = None
    for k, state, _action in _states(game):
        if state.phase != "play" or state.first_trick:
            continue
        seat = state.to_move
        hand = tuple(state.hand(seat))
        legal = set(state.legal_actions())
        barred = tuple(c for c in hand if c not in legal)
        if not barred:
            continue
        trick = tuple((s, c) for s, c in state.trick)
        if not trick:
            return Moment(k, seat, "hearts may not be led", hand, trick, barred)
        if follow is None:
            follow = Moment(k, seat, "following suit", hand, trick, barred)
    if follow is None:
        raise ValueError("no moment after the first trick bars a card")
    return follow


# -- lesson 11: one seat's knowledge through a hand ------------------------------------------------------


def still_out(k: Knowledge, seat: int) -> list[Card]:
    """The cards out for ``seat``: in somebody else's hand, neither its own nor played."""
    grid = k.grid("logic")
    return [c for c in grid if grid[c][seat] == "no" and grid[c][PLAYED] == "no"]


class SeatReplay:
    """One seat's knowledge at every position of a played hand, from the start of the play."""

    def __init__(self, game: Hearts, seat: int) -> None:
        self.game, self.seat = game, seat
        self.timeline = Timeline(game)
        self.names = [game.seat_name(s) for s in range(game.players)]
        self.opponents = [s for s in range(game.players) if s != seat]
        self.start = next(p for p in range(self.timeline.last) if self.timeline.state_at(p).phase == "play")
        self._known: dict[int, Knowledge] = {}

    def knowledge_at(self, position: int) -> Knowledge:
        """What the seat knows at ``position`` (cached)."""
        if position not in self._known:
            self._known[position] = self.timeline.state_at(position).knowledge(self.seat)
        return self._known[position]

    def voids_at(self, position: int) -> set[tuple[int, Suit]]:
        """(holder, suit) of every void the seat has noted by ``position``."""
        return {(f.holder, f.suit) for f in self.knowledge_at(position).facts if f.kind == "void"}

    def positions(self) -> range:
        return range(self.start, self.timeline.last)


def void_moment(replay: SeatReplay) -> tuple[Card, int, int, int] | None:
    """(card, holder, first position where each opponent had it with about one chance in three, position it
    became certain with the others void in its suit), or None when no void settles such a guess."""
    even: dict[Card, int] = {}
    for position in replay.positions():
        grid = replay.knowledge_at(position).grid("probability")
        voids = replay.voids_at(position)
        for card, row in grid.items():
            if all(0.2 < row[o] < 0.5 for o in replay.opponents):
                even.setdefault(card, position)
            for holder in replay.opponents:
                others_void = all((o, card.suit) in voids for o in replay.opponents if o != holder)
                if card in even and row[holder] > 0.999 and others_void:
                    return card, holder, even[card], position
    return None


def hand_with_void_moment(
    seed: int, seat: int, tries: int = 50
) -> tuple[int, SeatReplay, tuple[Card, int, int, int]]:
    """The first hand from ``seed`` on with a :func:`void_moment` for ``seat``: (seed, replay, moment)."""
    for s in range(seed, seed + tries):
        replay = SeatReplay(play_hand(s), seat)
        found = void_moment(replay)
        if found is not None:
            return s, replay, found
    raise ValueError(f"no hand from seed {seed} to {seed + tries - 1} has a void that settles a guess")


def unknown_places(k: Knowledge, seat: int) -> dict[int, tuple[int, list[Card]]]:
    """For each other seat: (cards it holds now, the cards of them ``seat`` knows it holds, such as the cards
    ``seat`` passed it). The rest of its hand are unknown places: with no void to tell the suits apart, a
    card still out is in each hand with probability unknown places / all unknown places."""
    grid = k.grid("logic")
    return {
        h: (k.sizes[h], [c for c in grid if grid[c][h] == "yes"])
        for h in k.holders
        if isinstance(h, int) and h != seat
    }


def count_moment(replay: SeatReplay) -> tuple[int, Card]:
    """A position to count at, before any void: the first start of a trick (after the first) at which a
    seat has already played a card the replay's seat passed it, else the last trick start before the first
    void; and a card still out that the seat cannot place. (position, card)."""
    starts = []
    for position in replay.positions():
        if replay.voids_at(position):
            break
        state = replay.timeline.state_at(position)
        if state.phase == "play" and not state.trick and not state.first_trick:
            starts.append(position)
    if not starts:
        raise ValueError("the first void comes before the second trick")
    chosen = starts[-1]
    for position in starts:
        places = unknown_places(replay.knowledge_at(position), replay.seat)
        if any(0 < len(known) < 3 for _size, known in places.values()):
            chosen = position
            break
    k = replay.knowledge_at(chosen)
    grid = k.grid("logic")
    card = next(c for c in still_out(k, replay.seat) if all(grid[c][o] is None for o in replay.opponents))
    return chosen, card

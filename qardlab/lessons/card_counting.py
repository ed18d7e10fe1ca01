"""Lesson 11 (Counting cards in Hearts): the two exercises, both "count like the engine".

Before any void, a card Alice cannot place is in each other hand with probability *unknown places of that
hand / all unknown places*, where a hand's unknown places are its cards less those Alice knows are there
(the cards she passed it, until they are played). :func:`check_chance` asks for that chance:

1. ``count-places``: at the start of the second trick, that Bob (who received Alice's pass) holds a card;
2. ``count-places-2``, the transfer to a later moment (:func:`later_moment`): that Bob holds another card,
   a trick later, when every hand holds one card fewer.

The diagnoses match the likely slip: a third each, a figure copied from an earlier moment (section 4's was
printed when every hand held 13 cards), the passed cards left in or taken out once played. A figure is right
within one percentage point, or nearer when a slip's figure is that close (a copied figure is refused).
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from .exercises import Exercise, Reply, read_number, right, wrong
from .hearts_hand import SeatReplay, still_out, unknown_places

__all__ = ["later_moment", "check_chance", "EXERCISES"]

LESSON = "11-counting-cards-in-hearts"
EXERCISES = {"first": Exercise(LESSON, "count-places"), "second": Exercise(LESSON, "count-places-2")}


def later_moment(replay: SeatReplay, after: int) -> tuple[int, Card]:
    """The next start of a trick after ``after`` at which the seat has noted no void yet, and a card still out
    that it cannot place (another than at ``after``): (position, card)."""
    for position in replay.positions():
        if position <= after:
            continue
        if replay.voids_at(position):
            break
        state = replay.timeline.state_at(position)
        if state.phase == "play" and not state.trick and not state.first_trick:
            k = replay.knowledge_at(position)
            grid = k.grid("logic")
            out = [c for c in still_out(k, replay.seat) if all(grid[c][o] is None for o in replay.opponents)]
            return position, out[len(out) // 2]
    raise ValueError(f"no trick starts after step {after} before the first void")


def check_chance(
    answer: Any,
    replay: SeatReplay,
    position: int,
    card: Card,
    holder: int,
    exercise: str,
    earlier: int | None = None,
) -> Reply:
    """The chance, for the replay's seat at ``position``, that ``holder`` holds ``card``: a percentage (25,
    "25%", "29,4 %") or a fraction ("3/8", 0.25). ``earlier``: the step whose chances the lesson printed
    before
    (a copied figure gets its own diagnosis)."""
    k = replay.knowledge_at(position)
    names = replay.names
    who = names[holder]
    places = unknown_places(k, replay.seat)
    total = sum(size - len(known) for size, known in places.values())
    exact = k.grid("probability")[card][holder]
    size, known = places[holder]
    steps = [
        f"{names[o]}: {s} cards, {len(kn)} known ({' '.join(c.symbol for c in kn) or 'none'}): "
        f"{s - len(kn)} unknown places"
        for o, (s, kn) in places.items()
    ]
    share = f"{size - len(known)}/{total}"
    arithmetic = (
        f"{who}'s share: {share} = {(size - len(known)) / total:.1%} (the engine's exact probability: "
        f"{exact:.1%})."
    )
    solution = [*steps, arithmetic]
    before = None
    if earlier is not None:
        before = replay.knowledge_at(earlier).grid("probability")
    passed = replay.timeline.state_at(replay.start).observation(replay.seat)
    sent = [Card.parse(c) for c in passed["passed"]] if passed["passed_to"] == holder else []
    played_since = [c for c in sent if c not in known]

    def judge(value: float) -> Reply:
        percent = value * 100 if value <= 1 else value
        slips: list[tuple[float, str]] = [
            (
                100 / 3,
                "a third each would be right if the three hands were equally unknown. Are they, for Alice?",
            ),
        ]
        if before is not None and earlier is not None:
            then = replay.knowledge_at(earlier).sizes[holder]
            slips.append(
                (
                    100 * before[card][holder],
                    f"that is the chance at step {earlier}, printed earlier, when every hand held {then} "
                    f"cards. At step {position} every hand holds {size}: count the unknown places again.",
                )
            )
        if known:
            slips.append(
                (
                    100 * size / (total + len(known)),
                    f"that is the share of a hand with no known card. Alice knows some of {who}'s cards (she "
                    "passed them): they are not unknown places.",
                )
            )
        if played_since:
            slips.append(
                (
                    100 * (size - len(sent)) / (total - len(played_since)),
                    f"{len(played_since)} of the cards Alice passed to {who} has been played since: a card "
                    f"played no longer fills a place in {who}'s hand.",
                )
            )
        # right within one point, or nearer when a slip's figure is that close to the right one
        tolerance = min(1.0, 0.5 * min(abs(v - exact * 100) for v, _ in slips))
        if abs(percent - exact * 100) <= tolerance:
            return right(
                f"{exact:.1%}. No void yet, so every card Alice cannot place is spread over the unknown "
                "places:",
                *solution,
            )
        near = min(slips, key=lambda slip: abs(percent - slip[0]))
        if abs(percent - near[0]) <= 1.0:
            hint = near[1]
        else:
            hint = (
                "count the unknown places of each hand: the cards it holds now, less the cards Alice knows "
                f"are there. {who}'s share is {who}'s places over all of them."
            )
        return wrong(f"{percent:.1f}% is not it.", f"Hint: {hint[0].upper()}{hint[1:]}", solution=solution)

    return EXERCISES[exercise].check(answer, read_number, judge, example='"3/8"')

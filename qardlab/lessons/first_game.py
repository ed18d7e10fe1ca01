"""Lesson 01 (A first game of Five Sons): its two exercises.

1. ``bob-pairs``: how many secret pairs were still possible for Bob, by full logic, after question 9 of the
   lesson's game (his line is left out of the chart, his facts are printed): crossing out, then each "one of"
   fact that takes out a pair crossing out keeps (:func:`check_bob_pairs`).
2. ``dave-first-answer``, the transfer to another seat and moment: right after the first answer of the game
   (Carol shows Bob a card), how many pairs can Dave still hold possible? He did not see the card: he heard a
   "one of" (:func:`check_dave_first`).

Both are counted by :func:`qardlab.lessons.pairs.pair_count` from the seat's knowledge, as a student would.
"""

from __future__ import annotations

from typing import Any

from ..deduction.history import candidate_history, knowledge_at
from .exercises import Exercise, Reply, read_number, right, wrong
from .pairs import PairCount, pair_count

__all__ = ["bob_then", "check_bob_pairs", "check_dave_first", "EXERCISES"]

LESSON = "01-five-sons-first-game"
EXERCISES = {"bob": Exercise(LESSON, "bob-pairs"), "dave": Exercise(LESSON, "dave-first-answer")}


def bob_then(game: Any, seat: int, turn: int) -> Any:
    """What ``seat`` knew right after question ``turn`` had been answered (its knowledge at that step)."""
    step = max(r.step for r in candidate_history(game, seat) if r.turn <= turn)
    return knowledge_at(game.knowledge(seat), step)


def _diagnose(n: int, count: PairCount, one_of: int, who: str) -> str:
    """The step a wrong count missed, matched to the likely slip (never the count itself)."""
    if n == count.naive and count.ruled_out:
        return (
            f'You crossed out the cards {who} has seen, and stopped there. Now look at each "showed ... one '
            f'of" '
            f"fact {who} heard: which pair does it rule out, and is that pair still in your count?"
        )
    if count.ruled_out and n == count.naive - one_of and one_of != len(count.ruled_out):
        return (
            f'A "one of" fact takes out its own pair only if that pair is still in the count: look at the '
            f'"one of" facts whose cards {who} has already crossed out.'
        )
    if n > count.naive:
        return (
            f"You crossed out too few cards. Besides {who}'s own hand, which cards were shown to {who}? "
            "A card someone else was shown does not count: only the ones " + who + " saw."
        )
    if n == (count.faces_left + len(count.faces_seen)) * count.numbers_left or n == count.faces_left * (
        count.numbers_left + len(count.numbers_seen)
    ):
        return "Cross out both kinds: count the face cards and the number cards seen, multiply what is left."
    return (
        f"Count as {who} would: the face cards {who} has seen, the number cards {who} has seen, multiply "
        f"what "
        'is left; then take out each pair a "one of" fact rules out.'
    )


def check_bob_pairs(answer: Any, game: Any, seat: int, turn: int) -> Reply:
    """Exercise 1: the count of pairs still possible for ``seat`` after question ``turn``, by full logic."""
    k = bob_then(game, seat, turn)
    count = pair_count(k)
    one_of = sum(1 for f in k.facts if f.kind == "one_of")
    who = game.seat_name(seat)

    def judge(n: Any) -> Reply:
        if n == count.logic:
            return right(
                f"{count.logic} pairs were still possible for {who} after question {turn}.", *count.lines()
            )
        return wrong(
            f"{n} is not {who}'s count after question {turn}.",
            "Hint: " + _diagnose(n, count, one_of, who),
            solution=count.lines(),
        )

    return EXERCISES["bob"].check(answer, read_number, judge, example="60")


def check_dave_first(answer: Any, first: Any, seat: int) -> Reply:
    """Exercise 2: the pairs ``seat`` (an onlooker) still holds possible right after the first answer of
    ``first`` (the game after its first question)."""
    k = first.knowledge(seat)
    count = pair_count(k)
    who = first.seat_name(seat)
    ask = next(e for e in first.events if e.kind == "ask")
    asker, answerer = first.seat_name(ask.public["asker"]), first.seat_name(ask.public["target"])

    def judge(n: Any) -> Reply:
        if n == count.logic:
            return right(
                f"{count.logic} pairs are still possible for {who}. {who} did not see the card: the answer "
                f"tells "
                f"{who} only that {answerer} holds one of the two, which rules out one pair.",
                *count.lines(),
            )
        if n == count.naive:
            hint = (
                f"You crossed out {who}'s own cards, right. {who} also heard that {answerer} showed {asker} "
                f"a "
                "card: can the two cards of that question both be in the secret?"
            )
        elif n < count.naive - 1:
            hint = (
                f"{who} did not see the card {answerer} showed: only {asker} did. What does {who} learn from "
                '"shows a card"?'
            )
        else:
            hint = _diagnose(n, count, 1, who)
        return wrong(
            f"{n} is not {who}'s count right after the first answer.", "Hint: " + hint, solution=count.lines()
        )

    return EXERCISES["dave"].check(answer, read_number, judge, example="60")

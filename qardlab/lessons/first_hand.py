"""Lesson 10 (A first hand of Hearts): the rule buttons, and the two exercises.

- :func:`jumps`: one button per step of the hand at which rules first bite (two rules that bite at the same
  step share a button, so no two buttons go to the same step);
- ``barred-card`` (:func:`check_barred`): at a later moment where a rule bars cards (usually a lead before
  hearts are broken, :func:`qardlab.lessons.hearts_hand.barred_moment`), name a card the player may not play;
- ``allowed-count`` (:func:`check_allowed_count`), the transfer to another moment and the other rule: at the
  next moment a player must follow suit (:func:`follow_moment`), how many of their cards may they play?

Both ask the game itself what is legal.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..engine import IllegalAction, Timeline
from .exercises import Exercise, Reply, read_card, read_number, right, wrong
from .hearts_hand import Moment, _states

__all__ = ["jumps", "follow_moment", "check_barred", "check_allowed_count", "EXERCISES"]

LESSON = "10-first-hand-of-hearts"
EXERCISES = {"barred": Exercise(LESSON, "barred-card"), "count": Exercise(LESSON, "allowed-count")}


def jumps(moments: dict[str, tuple[int, str]]) -> list[tuple[int, list[str], str]]:
    """(step, rules, words) for each step at which rules first bite, in the order of the hand: the rules of
    one
    step share one button."""
    by_step: dict[int, tuple[list[str], list[str]]] = {}
    for rule, (position, words) in moments.items():
        rules, said = by_step.setdefault(position, ([], []))
        rules.append(rule)
        said.append(words)
    return [(p, rules, " ".join(said)) for p, (rules, said) in sorted(by_step.items())]


def follow_moment(game: Any, after: int) -> Moment:
    """The first position after ``after`` (and after the first trick) where the player to move must follow the
    suit led while holding other suits: the rules bar every card of theirs but the led suit."""
    for k, state, _action in _states(game):
        if k <= after or state.phase != "play" or state.first_trick or not state.trick:
            continue
        hand = tuple(state.hand(state.to_move))
        legal = set(state.legal_actions())
        barred = tuple(c for c in hand if c not in legal)
        if barred and len(legal) > 1:
            trick = tuple((s, c) for s, c in state.trick)
            return Moment(k, state.to_move, "following suit", hand, trick, barred)
    raise ValueError(f"no moment after step {after} bars cards by following suit")


def _words(cards: Any) -> str:
    return " ".join(c.symbol for c in cards)


def check_barred(answer: Any, game: Any, moment: Moment, moments: dict[str, tuple[int, str]]) -> Reply:
    """Exercise 1: a card of the player's hand at ``moment`` that the rules bar (the game says which)."""
    state = Timeline(game).state_at(moment.position)
    who = game.seat_name(moment.seat)
    barred = moment.barred[0]
    try:
        state.copy().apply(barred)
        said = ""
    except IllegalAction as err:
        said = str(err)
    solution = [
        f"What the game says of the {barred.symbol}: {said}.",
        f"The rule: {moment.rule}. Every card it bars here: {_words(moment.barred)}.",
    ]
    if moment.rule == "hearts may not be led":
        solution.append(f"Hearts break at step {moments['hearts breaking'][0]}, after this lead.")

    def judge(card: Card) -> Reply:
        if card not in moment.hand:
            return wrong(
                f"{who} does not hold the {card.symbol} at step {moment.position}.",
                f"Hint: the cards printed under the exercise are {who}'s hand then; name one of them.",
                solution=solution,
            )
        try:
            state.copy().apply(card)
        except IllegalAction as err:
            return right(
                f"the game refuses the {card.symbol}: {err}.",
                f"The rule: {moment.rule}. Every card it bars here: {_words(moment.barred)}.",
            )
        if moment.rule == "hearts may not be led":
            hint = (
                f"{who} leads this trick. Which rule of section 4 limits what a player may lead? Section 2's "
                "list of moments says when it stops applying."
            )
        else:
            hint = f"Look at the card led to this trick: does {who} hold that suit?"
        return wrong(
            f"the {card.symbol} is allowed at step {moment.position}: the game accepts it.",
            "Hint: " + hint,
            solution=solution,
        )

    return EXERCISES["barred"].check(answer, read_card, judge, example='"KD"')


def check_allowed_count(answer: Any, game: Any, moment: Moment) -> Reply:
    """Exercise 2: how many cards of their hand the player to move at ``moment`` may play."""
    state = Timeline(game).state_at(moment.position)
    legal = sorted(state.legal_actions(), key=lambda c: (c.suit, c.rank))
    who = game.seat_name(moment.seat)
    led = moment.trick[0][1].suit
    suit = led.name.lower()
    solution = [
        f"{suit.capitalize()} were led, and {who} holds {len(legal)}: {_words(legal)}. "
        f"{who} must play one of them; the other {len(moment.barred)} cards are barred.",
    ]

    def judge(n: Any) -> Reply:
        if n == len(legal):
            return right(f"{len(legal)}: {_words(legal)}.", *solution)
        if n == len(moment.hand):
            hint = (
                "Every card? Look at the card led to this trick: what must a player who holds that suit do?"
            )
        elif n == 1:
            hint = f"One card only? {who} may play any card of the suit led, not just the highest or lowest."
        elif n == len(moment.barred):
            hint = "You counted the cards the rule bars. The question is how many may be played."
        else:
            hint = f"Which suit was led? Count {who}'s cards of that suit."
        return wrong(f"{n} is not how many {who} may play.", "Hint: " + hint, solution=solution)

    return EXERCISES["count"].check(answer, read_number, judge, example="5")

"""Lesson 02 (What an answer tells whom): its two exercises, both "who else can tell which card was shown?".

1. ``who-else-knows``: Carol asks Dave about K♠ and 5♥ and Dave shows her a card. An onlooker holding one of
   the two named cards knows the answerer showed the other (:func:`check_who_else`).
2. ``nobody-can-tell``, the transfer to another answer: Alice asks Bob about K♥ and 4♥, both in Bob's hand.
Bob
   chose which to show; no onlooker can rule either card out of his hand, so nobody else can tell
   (:func:`check_who_else` again, on that answer: the answer "nobody" is read).

Who can tell is asked of the deduction engine, from each onlooker's own knowledge: an onlooker can tell when
its
full logic rules one of the two named cards out of the answerer's hand.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from .exercises import NOBODY, Exercise, Reply, read_name, right, wrong

__all__ = ["who_can_tell", "check_who_else", "EXERCISES"]

LESSON = "02-what-an-answer-tells-whom"
EXERCISES = {
    "who-else-knows": Exercise(LESSON, "who-else-knows"),
    "nobody-can-tell": Exercise(LESSON, "nobody-can-tell"),
}


def _last_question(game: Any) -> tuple[int, int, Card, Card]:
    ask = [e for e in game.events if e.kind == "ask"][-1]
    p = ask.public
    return p["asker"], p["target"], Card.parse(p["face"]), Card.parse(p["number"])


def who_can_tell(game: Any) -> list[int]:
    """The onlookers of ``game``'s last question (neither asker nor answerer) who can tell, by full logic from
    their own knowledge, which card was shown: those that rule one of the two named cards out of the
    answerer's hand."""
    asker, answerer, face, number = _last_question(game)
    out = []
    for seat in range(game.players):
        if seat in (asker, answerer):
            continue
        logic = game.knowledge(seat).grid("logic")
        if logic[face][answerer] == "no" or logic[number][answerer] == "no":
            out.append(seat)
    return out


def check_who_else(answer: Any, game: Any, exercise: str) -> Reply:
    """Who else (besides the asker and the answerer) can tell which card the answerer of ``game``'s last
    question showed: a name, or "nobody"."""
    asker, answerer, face, number = _last_question(game)
    names = [game.seat_name(s) for s in range(game.players)]
    knew = who_can_tell(game)
    b = names[answerer]
    both = f"{face.symbol} and {number.symbol}"
    nor = f"{face.symbol} nor {number.symbol}"

    def why(seat: int) -> str:
        shown = number if face in game.hand(seat) else face
        return game.knowledge(seat).explain(shown, answerer).text

    def solution() -> list[str]:
        lines = []
        for s in range(game.players):
            if s in (asker, answerer):
                continue
            holds = [c.symbol for c in (face, number) if c in game.hand(s)]
            if holds:
                lines.append(
                    f"{names[s]} holds {holds[0]}, so {b} cannot have shown it: {names[s]} can tell. "
                    f"In the engine's words: {why(s)}"
                )
            else:
                lines.append(
                    f'{names[s]} holds neither {nor}: for {names[s]} the answer only says "{b} holds at '
                    f"least "
                    'one of the two".'
                )
        if not knew:
            lines.append(f"{b} holds both {both} and chose which to show, so nobody else can tell.")
        return lines

    def judge(value: Any) -> Reply:
        if value is not NOBODY and value in (asker, answerer):
            return wrong(
                f"{names[value]} {'asked' if value == asker else 'answered'}, so {names[value]} saw the "
                f"card. The "
                "question is about the others at the table.",
                "Hint: look at the two players who neither asked nor answered, and at the cards they hold.",
                solution=solution(),
            )
        if value is NOBODY:
            if not knew:
                return right(
                    f"nobody else can tell. {b} holds both {both} and chose which one to show; no onlooker "
                    f"can rule "
                    f"either out of {b}'s hand.",
                    *solution()[:-1],
                )
            return wrong(
                f"somebody else can tell which card {b} showed.",
                f"Hint: an onlooker who holds one of the two named cards knows {b} did not show that one. "
                f"Who "
                "holds what? (Section 1 lists the hands.)",
                solution=solution(),
            )
        if value in knew:
            return right(
                f"{names[value]} can tell: {names[value]} holds one of the two named cards, so {b} showed "
                f"the other.",
                f"In the engine's words: {why(value)}",
            )
        if knew:
            hint = (
                f"{names[value]} heard the same words as everyone, but holds neither {nor}: for "
                f"{names[value]}, {b} holds at least one of them, that is all. Find the onlooker who holds "
                f"one of "
                "the two named cards."
            )
        else:
            hint = (
                f"{names[value]} holds neither {nor}. Could {names[value]} rule either card out of {b}'s "
                f"hand? "
                f"Look at what {b} holds: could {b} have shown either one?"
            )
        return wrong(
            f"{names[value]} cannot tell which card {b} showed.", "Hint: " + hint, solution=solution()
        )

    return EXERCISES[exercise].check(
        answer, read_name({n: s for s, n in enumerate(names)}, nobody=NOBODY), judge, example='"Bob"'
    )

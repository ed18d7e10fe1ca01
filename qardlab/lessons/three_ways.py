"""Lesson 03 (Three ways to reason): its two exercises.

1. ``two-fact-cell``: find a cell of Alice's grid that is certain by logic, not by crossing out, and whose
reason
   needs two facts or more (:func:`check_two_fact_cell`).
2. ``chain-card``, the transfer to another seat and other cards: Dave has heard three answers, written out in
   words (:func:`chain_position`); which card does he now know to be in Alice's hand? Three facts in a chain
   (:func:`check_chain_card`).

Both are checked by the deduction engine (its logic and naive grids, and the length of its explanation,
:func:`qardlab.lessons.pairs.chain_length`).
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..deduction import SECRET, Knowledge
from .exercises import Exercise, Reply, read_card, read_cell, right, wrong
from .pairs import chain_length
from .position import Position, position

__all__ = ["two_fact_cells", "check_two_fact_cell", "chain_position", "check_chain_card", "EXERCISES"]

LESSON = "03-three-ways-to-reason"
EXERCISES = {"cell": Exercise(LESSON, "two-fact-cell"), "chain": Exercise(LESSON, "chain-card")}


def two_fact_cells(k: Knowledge) -> list[tuple[Card, Any]]:
    """The cells certain by logic, open by crossing out, whose explanation cites two statements or more."""
    naive, logic = k.grid("naive"), k.grid("logic")
    return [
        (card, holder)
        for card in logic
        for holder in logic[card]
        if holder != k.seat
        and logic[card][holder] is not None
        and naive[card][holder] is None
        and chain_length(k.explain(card, holder)) >= 2
    ]


def check_two_fact_cell(answer: Any, k: Knowledge, names: list[str]) -> Reply:
    """Exercise 1: a cell (card, place) of ``k``'s grid certain by logic alone that needs two facts or more;
    ``names`` the seats' names."""
    me = names[k.seat]
    places = {name: seat for seat, name in enumerate(names)} | {"secret": SECRET}
    naive, logic = k.grid("naive"), k.grid("logic")
    good = two_fact_cells(k)

    def solution() -> list[str]:
        card, holder = good[0]
        why = k.explain(card, holder)
        return [
            f"One such cell: {card.symbol} / {k.name(holder)}. It needs {chain_length(why)} statements "
            f"together:",
            *(f"  {s}" for s in why.sentences),
            f"All {len(good)} cells of this kind: "
            + ", ".join(f"{c.symbol}/{k.name(h)}" for c, h in good)
            + ".",
        ]

    def judge(cell: tuple[Card, Any]) -> Reply:
        card, place = cell
        where = f"{card.symbol} / {k.name(place)}"
        if place == k.seat:
            return wrong(
                f"that is {me}'s own column: she knows her own hand by looking.",
                "Hint: pick another player, or the secret.",
                solution=solution(),
            )
        why = k.explain(card, place)
        if naive[card][place] is not None:
            return wrong(
                f"{where} is certain, but {me} fills it by crossing out what she saw.",
                "Hint: look for a cell crossing out leaves open and logic fills: it comes from what she "
                "heard, "
                "not from what she saw.",
                solution=solution(),
            )
        if logic[card][place] is None:
            return wrong(
                f"{where} is not certain: some deal that agrees with every fact puts it one way, some the "
                f"other.",
                "Hint: a certain cell needs every deal that agrees with the facts to agree on it. Switch the "
                "grid to full logic: which cells are filled there and empty under crossing out?",
                solution=solution(),
            )
        if chain_length(why) < 2:
            return wrong(
                f"{where} is certain by logic, but from a single fact: {why.text}",
                'Hint: look for a second fact about the same answerer, such as a "showed one of" answer '
                "whose "
                'other card a later "neither" rules out.',
                solution=solution(),
            )
        return right(
            f"{where} is certain by logic alone, and it needs {chain_length(why)} statements together:",
            *(f"  {s}" for s in why.sentences),
        )

    return EXERCISES["cell"].check(answer, read_cell(places), judge, example='("JS", "Bob")')


#: the three answers of exercise 2, as Dave heard them, and his hand
CHAIN_HISTORY = (
    "Alice asks Carol: JD 6H -> shows a card",
    "Bob asks Alice: QD 6H -> shows a card",
    "Bob asks Carol: JD 3H -> neither",
)
CHAIN_SEAT, CHAIN_HAND, CHAIN_HOLDER = "Dave", "QC QS KS 2H TH", 0


def chain_position() -> Position:
    """Exercise 2's position: Dave's, after the three answers of :data:`CHAIN_HISTORY`."""
    return position(*CHAIN_HISTORY, seat=CHAIN_SEAT, hand=CHAIN_HAND)


def check_chain_card(answer: Any, pos: Position, holder: int = CHAIN_HOLDER) -> Reply:
    """Exercise 2: which card the seat of ``pos`` now knows to be in ``holder``'s hand, by logic."""
    k = pos.knowledge
    logic = k.grid("logic")
    who, me = pos.names[holder], pos.names[pos.seat]
    sure = [c for c in logic if logic[c][holder] == "yes"]

    def solution() -> list[str]:
        out = []
        named = sorted({c for o in (*pos.one_of, *pos.neither) for c in (o.face, o.number)})
        for c in named:  # the steps on the way: cards placed with another seat
            for h in pos.others:
                if h != holder and logic[c][h] == "yes":
                    out += [
                        f"First {pos.names[h]}'s answers:",
                        *(f"  {s}" for s in k.explain(c, h).sentences),
                    ]
        for c in sure:
            out += [f"Then {who}'s:", *(f"  {s}" for s in k.explain(c, holder).sentences)]
        return out

    def judge(card: Card) -> Reply:
        if card in sure:
            return right(
                f"{me} knows {who} holds {card.symbol}, from three answers together:",
                *(f"  {s}" for s in k.explain(card, holder).sentences),
            )
        if card in pos.hand:
            return wrong(
                f"{me} holds {card.symbol} himself.",
                "Hint: the card is one of those the answers name.",
                solution=solution(),
            )
        named = {c for o in (*pos.one_of, *pos.neither) for c in (o.face, o.number)}
        if card not in named:
            return wrong(
                f"no answer {me} heard names {card.symbol}.",
                f"Hint: look at the answer {who} gave, and at the two cards it names.",
                solution=solution(),
            )
        if logic[card][holder] == "no":
            return wrong(
                f"{me} knows {who} does not hold {card.symbol}.",
                f"Hint: start with the other player whose answers name a card {who} named too: what do that "
                "player's two answers say together? Then come back to " + who + ".",
                solution=solution(),
            )
        return wrong(
            f"{who} may or may not hold {card.symbol}, as far as {me} can tell.",
            f"Hint: {who} showed someone one of two cards. Can {who} hold the other one? Look at who else's "
            "answers name it.",
            solution=solution(),
        )

    return EXERCISES["chain"].check(answer, read_card, judge, example='"KC"')

"""What one Hearts seat knows about where the cards are, from its observation only.

``knowledge_of(obs)`` turns a seat's observation into a
:class:`qardlab.deduction.knowledge.Knowledge` over the cards in play, with holders
every seat plus ``"played"`` (cards on the table or taken in tricks). The facts, each
with the game step it comes from and a sentence a student can read:

- the seat's own hand (``has``);
- every card played this hand (``has`` of ``"played"``);
- the cards the seat passed, held by the receiver until seen played (``has``);
- voids: a seat that did not follow suit holds none of that suit (``void``); a seat
  that led a heart before hearts were broken holds only hearts; a seat that threw a
  point card on the first trick (with ``no_pts_on_first_trick``) held nothing else
  (so no diamonds, and no spade but the Queen).

Hearts has no secret (``secret`` is None); the played cards' column is spoken of in
:data:`WORDS`.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...cards import SUIT_MASKS, Card, Suit, cards_of_mask
from ...deduction.facts import PLAYED, Fact, PlaceWords
from ...deduction.knowledge import Knowledge
from ...engine.events import part_of
from .rules import HeartsRules, break_mask, deck_mask, discard_mask, lead_mask

__all__ = ["knowledge_of", "WORDS"]

#: how explanations speak of the cards out of play
WORDS = {
    PLAYED: PlaceWords("played", "The played cards", "{card} has been played", "{card} has not been played")
}


def _this_hand(events: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    start = max((i for i, e in enumerate(events) if e["kind"] == "deal"), default=0)
    return events[start:]


def knowledge_of(obs: Mapping[str, Any]) -> Knowledge:
    """The seat's knowledge of the current hand, built from its observation alone."""
    seat: int = obs["seat"]
    n: int = obs["players"]
    names = dict(enumerate(obs.get("names") or [f"seat {s}" for s in range(n)]))
    names[PLAYED] = "played"
    cards = tuple(cards_of_mask(deck_mask(n)))
    in_play = set(cards)
    events = _this_hand(list(obs["events"]))
    sizes: dict[Any, int] = {s: obs["hand_sizes"][s] for s in range(n)}
    sizes[PLAYED] = len(cards) - sum(sizes[s] for s in range(n))
    facts: list[Fact] = []
    add = facts.append
    rules = HeartsRules.from_dict(obs.get("rules") or {})
    breaks = break_mask(rules)
    first_discard = discard_mask(True, rules)  # what a void seat may throw on the first trick
    unbroken_lead = lead_mask(False, False, n, rules)  # what may be led before hearts are broken
    name = names.__getitem__

    hand = [Card.parse(c) for c in obs["hand"]]
    deal_step = events[0]["step"] if events else None
    for c in hand:
        add(Fact.has(seat, c, step=deal_step, text=f"{c.symbol} is in your hand."))

    played: set[Card] = set()
    void: set[tuple[int, Suit]] = set()
    passed: list[tuple[Card, int, int]] = []
    trick: list[tuple[int, Card]] = []
    first_trick = True
    broken = False
    for e in events:
        kind = e["kind"]
        if kind == "pass" and "passed" in part_of(e, seat):
            mine = part_of(e, seat)
            passed = [(Card.parse(c), mine["to"], e["step"]) for c in mine["passed"]]
        elif kind == "play":
            who, card, step = e["seat"], Card.parse(e["card"]), e["step"]
            played.add(card)
            add(Fact.has(PLAYED, card, step=step, text=f"{name(who)} played {card.symbol}."))
            if trick:
                lead = trick[0][1].suit
                if card.suit != lead and (who, lead) not in void:
                    void.add((who, lead))
                    add(
                        Fact.void(
                            who,
                            lead,
                            step=step,
                            text=(
                                f"{name(who)} played {card.symbol} on a {lead.title[:-1].lower()} lead, "
                                f"so holds no {lead.title.lower()}."
                            ),
                        )
                    )
                # the rules kernel: a void seat throws a card the discard mask bars only when it
                # holds nothing else
                if first_trick and card.suit != lead and not card.bit & first_discard:
                    _only_points(add, cards, who, card, step, void, name, first_discard, lead)
            elif not first_trick and not broken and not card.bit & unbroken_lead:
                # a lead the lead mask bars (a heart before hearts are broken): nothing else held
                for suit in Suit:
                    if unbroken_lead & SUIT_MASKS[suit] and (who, suit) not in void:
                        void.add((who, suit))
                        add(
                            Fact.void(
                                who,
                                suit,
                                step=step,
                                text=(
                                    f"{name(who)} led {card.symbol} before hearts were broken, so held only "
                                    f"hearts: no {suit.title.lower()}."
                                ),
                            )
                        )
            if card.bit & breaks:
                broken = True
            trick.append((who, card))
        elif kind == "trick":
            trick = []
            first_trick = False
    for card, to, step in passed:
        if card not in played and card in in_play:
            text = f"You passed {card.symbol} to {name(to)}, who has not played it."
            add(Fact.has(to, card, step=step, text=text))
    return Knowledge(
        seat, cards, (*range(n), PLAYED), sizes, game="hearts", names=names, facts=facts, words=WORDS
    )


def _only_points(
    add, cards: tuple[Card, ...], who: int, card: Card, step: int, void: set, name, allowed: int, led: Suit
) -> None:
    """A first-trick card the kernel's discard mask bars (with no_pts_on_first_trick, a point card):
    the seat, void in the suit ``led``, held none of the ``allowed`` cards: a void in each suit
    wholly allowed, and not each allowed card of the others (the spades but the Queen)."""
    why = f"{name(who)} threw {card.symbol} on the first trick, so held nothing but point cards"
    for suit in Suit:
        if suit == led or not SUIT_MASKS[suit] & allowed:
            continue
        if SUIT_MASKS[suit] & allowed == SUIT_MASKS[suit]:
            if (who, suit) not in void:
                void.add((who, suit))
                add(Fact.void(who, suit, step=step, text=why + f": no {suit.title.lower()}."))
            continue
        for c in cards:
            if c.suit == suit and c.bit & allowed:
                add(Fact.has_not(who, c, step=step, text=why + f": not {c.symbol}."))

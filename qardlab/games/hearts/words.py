"""Hearts in English: the sentences a student reads for each event and for each refused card.

``event_words`` turns one event of an observation (its one shape, whoever views it:
:meth:`~qardlab.engine.events.Event.seen_by`) into a sentence for its viewer: what
``Hearts.describe_event`` says, which the tables, the replays and the transcripts call;
``why_illegal`` says why the rules refuse a card. No rule is decided here: the callers pass what
the rules kernel found.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...cards import Card, Suit
from ...engine.events import part_of

__all__ = ["event_words", "symbols", "and_list", "why_illegal", "names_card"]


def symbols(codes: Sequence[str]) -> str:
    """Card codes as the symbols a reader sees: ``["QS", "TH"]`` -> ``"Q♠ 10♥"``."""
    return " ".join(Card.parse(c).symbol for c in codes)


def and_list(words: Sequence[str]) -> str:
    """``["Ann"]`` -> ``"Ann"``; ``["Ann", "Ben", "Cy"]`` -> ``"Ann, Ben and Cy"``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def event_words(event: Mapping[str, Any], seat: Any, names: Sequence[str]) -> str:
    """One event (as ``seat`` saw it; None: the teacher; a seat is "you") in words; ``names`` the seats'
    names. Reads only the event: a seat's cards, chosen, passed and received, are its private part."""
    name = names.__getitem__
    kind = event["kind"]
    parts: Mapping[str, Mapping[str, Any]] = event.get("private") or {}
    mine = part_of(event, seat) if seat is not None else {}
    if kind == "deal":
        dealer, direction = name(event["dealer"]), event["pass_direction"]
        passing = "no cards are passed" if direction == "none" else f"the pass is {direction}"
        text = f"Hand {event['hand'] + 1}: {dealer} deals; {passing}."
        if "cards" in mine:
            text += f" You get {symbols(mine['cards'])}."
        return text
    if kind == "pass_choice":
        s = event["seat"]
        if seat == s:
            return f"You choose to pass {symbols(mine['cards'])}."
        if seat is None:
            return f"{name(s)} chooses to pass {symbols(parts[str(s)]['cards'])}."
        count = event["count"]
        return f"{name(s)} chooses " + ("a card" if count == 1 else f"{count} cards") + " to pass."
    if kind == "pass":
        if seat is None:
            passes = [
                f"{name(int(s))} passes {symbols(p['passed'])} to {name(p['to'])}" for s, p in parts.items()
            ]
            return f"The cards are passed {event['direction']}: " + "; ".join(passes) + "."
        if "passed" not in mine:  # the public view: nobody's cards
            return f"The cards are passed {event['direction']}."
        passed = symbols(mine["passed"])
        received = symbols(mine["received"])
        to, giver = name(mine["to"]), name(mine["from"])
        return f"You pass {passed} to {to} and receive {received} from {giver}."
    if kind == "play":
        return f"{name(event['seat'])} plays the {Card.parse(event['card']).name}."
    if kind == "trick":
        pts = event["points"]
        return f"{name(event['winner'])} takes the trick" + (f" ({_count(pts, 'point')})." if pts else ".")
    if kind == "hand_over":
        pts = ", ".join(f"{name(s)} {p}" for s, p in enumerate(event["points"]))
        text = f"The hand is over: {pts}."
        if event.get("moon") is not None:
            text = f"{name(event['moon'])} shoots the moon! " + text
        if "winners" in event:
            winners = event["winners"]
            verb = "wins" if len(winners) == 1 else "win"
            text += f" The match is over; {and_list([name(s) for s in winners])} {verb}."
        return text
    return kind


#: the words of each refusal of :func:`why_illegal`, by the reason the rules found
_WHY_ILLEGAL = {
    "elsewhere": "{card} is not in {who}'s hand (seat {seat}, to play)",
    "played": "{card} is not in {who}'s hand (it has been played)",
    "removed": "{card} is not in play with {players} players",
    "opening": "the holder of {opening} must lead it to the first trick",
    "unbroken": "hearts may not be led until a heart has been played (or {who} holds only hearts)",
    "follow": "{who} must follow suit ({led} were led)",
    "first_trick": "a heart or the Queen of spades may not be played on the first trick while {who} holds "
    "another card",
}


def names_card(reason: str) -> bool:
    """Whether the words of refusal ``reason`` name the card refused (else they are the same for
    every card refused for that reason)."""
    return "{card}" in _WHY_ILLEGAL[reason]


def why_illegal(
    reason: str,
    card: Card,
    who: str,
    seat: int,
    legal: Sequence[str],
    *,
    players: int = 0,
    opening: Card | None = None,
    led: Suit | None = None,
) -> str:
    """Why ``who`` (seat ``seat``) may not play ``card`` now, and what is legal.

    ``reason`` is what the rules found: ``"elsewhere"`` (in another seat's hand, never named: that is
    the other seat's secret), ``"played"``,
    ``"removed"`` (not in play with ``players``), ``"opening"`` (the holder of ``opening`` leads it),
    ``"unbroken"`` (no heart led yet), ``"follow"`` (``led`` must be followed) or ``"first_trick"``
    (no point card on the first trick)."""
    suit = led.title.lower() if led is not None else "a suit"
    why = _WHY_ILLEGAL[reason].format(
        card=card, who=who, seat=seat, players=players, opening=opening, led=suit
    )
    return f"{why}; legal: {' '.join(legal)}"

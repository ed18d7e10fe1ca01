"""Hearts in English: the sentences a student reads for each event and for each refused card.

``describe_event`` turns one event, as a seat saw it, into a sentence (``Hearts.describe`` and
the tables, from an observation's events, both use it); ``why_illegal`` says why the rules
refuse a card. No rule is decided here: the callers pass what the rules kernel found.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...cards import Card, Suit

__all__ = ["describe_event", "symbols", "and_list", "why_illegal", "names_card"]


def symbols(codes: Sequence[str]) -> str:
    """Card codes as the symbols a reader sees: ``["QS", "TH"]`` -> ``"Q♠ 10♥"``."""
    return " ".join(Card.parse(c).symbol for c in codes)


def and_list(words: Sequence[str]) -> str:
    """``["Ann"]`` -> ``"Ann"``; ``["Ann", "Ben", "Cy"]`` -> ``"Ann, Ben and Cy"``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def describe_event(kind: str, data: Mapping[str, Any], seat: int | None, names: Sequence[str]) -> str:
    """One event (its data as ``seat`` saw it; None: the teacher) in words; ``names`` the seats' names."""
    name = names.__getitem__
    if kind == "deal":
        dealer, direction = name(data["dealer"]), data["pass_direction"]
        passing = "no cards are passed" if direction == "none" else f"the pass is {direction}"
        text = f"Hand {data['hand'] + 1}: {dealer} deals; {passing}."
        if seat is not None and "cards" in data:
            text += f" You get {symbols(data['cards'])}."
        return text
    if kind == "pass_choice":
        s = data["seat"]
        if seat == s:
            return f"You choose to pass {symbols(data['cards'])}."
        if seat is None:
            cards = data["private"][s]["cards"]
            return f"{name(s)} chooses to pass {symbols(cards)}."
        count = data["count"]
        return f"{name(s)} chooses " + ("a card" if count == 1 else f"{count} cards") + " to pass."
    if kind == "pass":
        if seat is None:
            parts = [
                f"{name(s)} passes {symbols(p['passed'])} to {name(p['to'])}"
                for s, p in data["private"].items()
            ]
            return f"The cards are passed {data['direction']}: " + "; ".join(parts) + "."
        passed = symbols(data["passed"])
        received = symbols(data["received"])
        to, giver = name(data["to"]), name(data["from"])
        return f"You pass {passed} to {to} and receive {received} from {giver}."
    if kind == "play":
        return f"{name(data['seat'])} plays the {Card.parse(data['card']).name}."
    if kind == "trick":
        pts = data["points"]
        return f"{name(data['winner'])} takes the trick" + (f" ({_count(pts, 'point')})." if pts else ".")
    if kind == "hand_over":
        pts = ", ".join(f"{name(s)} {p}" for s, p in enumerate(data["points"]))
        text = f"The hand is over: {pts}."
        if data.get("moon") is not None:
            text = f"{name(data['moon'])} shoots the moon! " + text
        if "winners" in data:
            winners = data["winners"]
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

"""Five Sons in English: the sentence a viewer reads for each event.

``event_words`` is what :meth:`FiveSons.describe_event <qardlab.games.five_sons.game.FiveSons.describe_event>`
says: one event of an observation (its one shape, :meth:`~qardlab.engine.events.Event.seen_by`), in its
viewer's words. It reads only the event, so it says nothing the viewer did not see: a seat's own hand and a
card shown to it are its private part, the teacher's event holds every seat's part and the secret pair.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...cards import Card
from ...engine.events import part_of
from .actions import phrase

__all__ = ["event_words"]


def _cards_text(codes: Sequence[str]) -> str:
    return " ".join(Card.parse(c).symbol for c in codes)


def _said(face: str, number: str) -> str:
    words = phrase(face, number)
    return f"{words[0].lower()}{words[1:]}"


def event_words(event: Mapping[str, Any], seat: Any, names: Sequence[str]) -> str:
    """The words for one event as ``seat`` saw it (None: the teacher; a seat is "you"), from the event."""
    kind = event["kind"]
    parts: Mapping[str, Mapping[str, Any]] = event.get("private") or {}
    if kind == "deal":
        dealer = names[event["dealer"]]
        each = event["sizes"][0]
        if seat is None:
            hands = "; ".join(f"{names[int(s)]}: {_cards_text(p['hand'])}" for s, p in sorted(parts.items()))
            secret = _cards_text(event.get("secret", []))
            return f"{dealer} deals {each} cards each and puts the secret pair aside ({secret}). {hands}."
        mine = part_of(event, seat)
        if "hand" not in mine:
            return f"{dealer} deals {each} cards each."
        return f"{dealer} deals {each} cards each; you get {_cards_text(mine['hand'])}."
    if kind == "ask":
        asker, target = names[event["asker"]], names[event["target"]]
        return f"{asker} asks {target}: {_said(event['face'], event['number'])}."
    if kind == "answer":
        who, asker = names[event["answerer"]], names[event["asker"]]
        if not event["shown"]:
            return f"{who} has neither."
        card = next((p["card"] for p in parts.values() if "card" in p), None)
        if card is not None:
            return f"{who} shows {asker} the {Card.parse(card).symbol}."
        return f"{who} shows {asker} a card."
    if kind == "claim":
        who = names[event["seat"]]
        said = f"{who} claims: {_said(event['face'], event['number'])}."
        if event["right"]:
            return f"{said} Right: that is the secret pair."
        text = f"{said} Wrong: {who} may no longer ask or claim."
        secret = next((p["secret"] for p in parts.values() if "secret" in p), None)
        if secret is not None:
            text += f" {who} sees the secret pair: {_cards_text(secret)}."
        return text
    if kind == "no_claim":
        return f"{names[event['seat']]} does not claim."
    if kind == "over":
        secret = _cards_text(event["secret"])
        if event["winner"] is None:
            return f"Everyone has made a wrong claim: no winner. The secret pair was {secret}."
        return f"{names[event['winner']]} wins. The secret pair was {secret}."
    return kind

"""Five Sons hooks for the generic contract, written from RULES.md rather than from the game's events.

- :func:`seat_can_see` says, from the true hands and the actions, what a seat is entitled to
  see by the rules: each answer (who answered, shown or neither), the card shown when the
  seat asked, the rightness of every claim, and the secret once the seat may know it.
- :func:`alternatives` builds other deals that agree with all of that (random exchanges of
  cards between other holders), replays the same actions on them, and returns those games.
- :func:`hidden_cards` lists the cards whose place the seat cannot know and which were never
  named aloud.

Whether an answerer held both named cards (and so chose which to show) is the answerer's
alone to know: every answer is one step of the history, chosen or forced, and the
alternatives vary it freely.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from qardlab.cards import Card
from qardlab.engine import IllegalAction, forced_in
from qardlab.games.five_sons import Ask, Claim, Deal, FiveSons, Neither, NoClaim, Show
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS, five_sons_deck

__all__ = ["seat_can_see", "alternatives", "hidden_cards", "ClaimSometimes", "make_game", "make_bots"]


def _askers(game: FiveSons) -> list[int]:
    return [e.public["asker"] for e in game.events if e.kind == "ask"]


def _claimants(game: FiveSons) -> list[int]:
    return [e.public["seat"] for e in game.events if e.kind == "claim"]


def _answers(
    hands: list[frozenset], asker: int, ask: Ask, show: Show | None, players: int, ask_mode: str
) -> list[tuple[int, Card | None, bool]]:
    """The chain of (answerer, card shown or None, held both) for one question, by the rules."""
    out = []
    answerer = ask.target
    while True:
        held = [c for c in ask.cards if c in hands[answerer]]
        if len(held) == 2:
            out.append((answerer, show.card if show else None, True))
            return out
        if len(held) == 1:
            out.append((answerer, held[0], False))
            return out
        out.append((answerer, None, False))
        answerer = (answerer + 1) % players
        if ask_mode != "pass_left" or answerer == asker:
            return out


def _show_after(history: list, i: int) -> Show | None:
    """The card shown in answer to the question asked at step ``i`` (None if nobody showed one)."""
    for a in history[i + 1 :]:
        if isinstance(a, Show):
            return a
        if not isinstance(a, Neither):
            return None
    return None


def seat_can_see(game: FiveSons, deal: Deal, seat: int) -> tuple:
    """What ``seat`` is entitled to see by the rules if the deal were ``deal`` (same actions)."""
    hands = [frozenset(h) for h in deal.hands]
    secret = tuple(deal.secret)
    askers = _askers(game)
    claimants = _claimants(game)
    history = game.history
    seen: list[Any] = [tuple(sorted(hands[seat]))]
    q = c = 0
    secret_known = game.is_over
    for i, a in enumerate(history):
        if isinstance(a, Ask):
            asker = askers[q]
            q += 1
            chain = _answers(hands, asker, a, _show_after(history, i), game.players, game.options["ask_mode"])
            seen.append(
                tuple(
                    (who, card if seat in (asker, who) else card is not None, both and who == seat)
                    for who, card, both in chain
                )
            )
        elif isinstance(a, Claim):
            who = claimants[c]
            c += 1
            right = a.pair == secret
            seen.append(("claim", who, right))
            if right or who == seat:
                secret_known = True
        elif isinstance(a, NoClaim):
            c += 0
    if secret_known:
        seen.append(("secret", secret))
    return tuple(seen)


def _swap_layout(deal: Deal) -> dict[Card, Any]:
    where: dict[Card, Any] = {}
    for s, h in enumerate(deal.hands):
        for card in h:
            where[card] = s
    where[deal.secret[0]] = "face"
    where[deal.secret[1]] = "number"
    return where


def _deal_of(where: dict[Card, Any], players: int, dealer: int) -> Deal:
    hands = [[c for c, w in where.items() if w == s] for s in range(players)]
    face = next(c for c, w in where.items() if w == "face")
    number = next(c for c, w in where.items() if w == "number")
    return Deal(dealer, (face, number), tuple(tuple(h) for h in hands))


def alternatives(game: FiveSons, seat: int, rng: random.Random, tries: int = 30) -> Iterable[FiveSons]:
    """Games with another deal that ``seat`` cannot tell apart from ``game`` (same actions)."""
    if not game.history:
        return []
    deal: Deal = game.history[0]
    want = seat_can_see(game, deal, seat)
    mine = set(deal.hands[seat])
    found: dict[str, FiveSons] = {}
    for _ in range(tries):
        where = _swap_layout(deal)
        for _ in range(rng.choice((1, 1, 2, 3))):
            a, b = rng.sample([c for c in where if c not in mine], 2)
            if where[a] == where[b]:
                continue
            if (where[a] in ("face", "number") or where[b] in ("face", "number")) and a.is_face != b.is_face:
                continue
            where[a], where[b] = where[b], where[a]
        alt = _deal_of(where, game.players, deal.dealer)
        if alt == deal or seat_can_see(game, alt, seat) != want:
            continue
        try:
            other = FiveSons._blank(game.players, game.options, game.seed)
            for step in (alt, *game.history[1:]):  # every step, answers included, as they were seen
                other.apply(step)
        except IllegalAction:
            continue
        found[repr(alt)] = other
    return list(found.values())


def hidden_cards(game: FiveSons, seat: int) -> list[Card]:
    """Cards whose place ``seat`` has not seen and that nobody has named aloud."""
    if not game.history:
        return []
    deal: Deal = game.history[0]
    known = set(deal.hands[seat])
    askers = _askers(game)
    hands = [frozenset(h) for h in deal.hands]
    named: set[Card] = set()
    q = 0
    secret_known = game.is_over
    claimants = _claimants(game)
    c = 0
    for i, a in enumerate(game.history):
        if isinstance(a, Ask):
            named.update(a.cards)
            asker = askers[q]
            q += 1
            show = _show_after(game.history, i)
            if asker == seat:
                for _, card, _ in _answers(hands, asker, a, show, game.players, game.options["ask_mode"]):
                    if card is not None:
                        known.add(card)
        elif isinstance(a, Claim):
            named.update(a.pair)
            if a.pair == deal.secret or claimants[c] == seat:
                secret_known = True
            c += 1
    if secret_known:
        known.update(deal.secret)
    return [card for card in five_sons_deck() if card not in known and card not in named]


class ClaimSometimes:
    """A test bot: random questions and shows; claims a random pair now and then (else passes)."""

    def __init__(self, seed: int, p: float = 0.03) -> None:
        self.rng = random.Random(seed)
        self.p = p

    def act(self, obs):
        forced = forced_in(obs)
        if forced is not None:  # a forced answer: the single legal action, no draw
            return forced
        if obs["phase"] == "claim":
            if self.rng.random() < self.p:
                return Claim(self.rng.choice(FACE_CARDS), self.rng.choice(NUMBER_CARDS))
            return NoClaim()
        return self.rng.choice(obs["legal"])


def make_game(players: int, **options: Any):
    """A factory ``seed -> dealt game`` for the contract."""

    def make(seed: int) -> FiveSons:
        return FiveSons.new(players, seed=seed, dealer=seed % players, **options)

    return make


def make_bots(players: int, p: float = 0.03):
    def make(seed: int) -> list[ClaimSometimes]:
        return [ClaimSometimes(seed * 31 + s, p) for s in range(players)]

    return make

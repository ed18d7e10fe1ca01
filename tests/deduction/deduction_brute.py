"""An independent brute-force reference for the deduction engine (slow; small positions only).

It enumerates every deal of the cards a seat cannot place, checks every fact on the full
hands directly (no masks, no transforms), weighs a deal by 1/m for each "shown" fact
whose holder held m of the named cards, and derives from the list of deals the candidates,
posterior, grid and the advisor's expected information. Also a tiny Five Sons simulator
over smaller decks that records each seat's facts as the game's adapter would.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

from qardlab.cards import Card
from qardlab.deduction import SECRET, Fact, Knowledge, QuestionModel, SecretSpec
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS


def _holds(hand: frozenset, f) -> bool:
    """Whether a full hand satisfies a fact about its holder."""
    k = f.kind
    if k in ("has", "shown"):
        return f.cards[0] in hand
    if k == "has_not":
        return f.cards[0] not in hand
    if k == "one_of":
        return any(c in hand for c in f.cards)
    if k == "none_of":
        return not any(c in hand for c in f.cards)
    if k == "void":
        return not any(c.suit == f.suit for c in hand)
    if k == "exactly":
        return sum(c in hand for c in f.cards) == f.count
    if k == "not_both":
        return not all(c in hand for c in f.cards)
    raise AssertionError(k)


def deals(k: Knowledge) -> list[tuple[dict, float]]:
    """Every consistent deal as ({holder: frozenset(cards)}, weight).

    Cards named by a "has" fact are placed first (a card seen in a hand, played, or
    passed); every other card is enumerated over the holders with room left.
    """
    fixed: dict = {}
    for f in k.facts:
        if f.kind == "has":
            fixed.setdefault(f.holder, set()).add(f.cards[0])
    placed = {c for cs in fixed.values() for c in cs}
    rest = [c for c in k.cards if c not in placed]
    holders = [h for h in k.holders if k.sizes[h] - len(fixed.get(h, ())) > 0]
    sizes = [k.sizes[h] - len(fixed.get(h, ())) for h in holders]
    if any(k.sizes[h] < len(fixed.get(h, ())) for h in k.holders):
        return []
    out = []
    # every fact is about one holder: check a holder's facts as soon as its hand is chosen
    # (pruning only; each complete deal is still checked against every fact of every holder)
    about = {h: [f for f in k.facts if f.holder == h] for h in k.holders}
    final = [h for h in k.holders if h not in holders]

    def ok(h, hand: frozenset) -> bool:
        return all(_holds(hand, f) for f in about[h])

    if not all(ok(h, frozenset(fixed.get(h, ()))) for h in final):
        return []

    def rec(i: int, left: list, hands: dict) -> None:
        if i == len(holders):
            full = {h: frozenset(fixed.get(h, ())) | hands.get(h, frozenset()) for h in k.holders}
            w = 1.0
            for f in k.facts:
                hand = full[f.holder]
                if not _holds(hand, f):  # pragma: no cover - pruned already
                    return
                if f.kind == "shown":
                    w /= sum(c in hand for c in f.cards)
            out.append((full, w))
            return
        h = holders[i]
        base = frozenset(fixed.get(h, ()))
        for combo in itertools.combinations(left, sizes[i]):
            hand = base | frozenset(combo)
            if not ok(h, hand):
                continue
            cs = set(combo)
            hands[h] = frozenset(combo)
            rec(i + 1, [c for c in left if c not in cs], hands)
        hands.pop(h, None)

    rec(0, rest, {})
    return out


def candidates(k: Knowledge, ds=None) -> set:
    ds = deals(k) if ds is None else ds
    return {_pair(d[SECRET]) for d, _ in ds}


def _pair(secret: frozenset) -> tuple:
    a, b = sorted(secret, key=lambda c: (not c.is_face, c.index))
    return (a, b)


def posterior(k: Knowledge, ds=None) -> dict:
    ds = deals(k) if ds is None else ds
    tot = sum(w for _, w in ds)
    out: dict = {}
    for d, w in ds:
        p = _pair(d[SECRET])
        out[p] = out.get(p, 0.0) + w / tot
    return out


def grid_prob(k: Knowledge, ds=None) -> dict:
    ds = deals(k) if ds is None else ds
    tot = sum(w for _, w in ds)
    out = {c: {h: 0.0 for h in k.holders} for c in k.cards}
    for d, w in ds:
        for h, hand in d.items():
            for c in hand:
                out[c][h] += w / tot
    return out


def grid_logic(k: Knowledge, ds=None) -> dict:
    ds = deals(k) if ds is None else ds
    out = {}
    for c in k.cards:
        out[c] = {}
        for h in k.holders:
            n = sum(1 for d, _ in ds if c in d[h])
            out[c][h] = "no" if n == 0 else ("yes" if n == len(ds) else None)
    return out


def assert_grids_agree(k: Knowledge, ds) -> None:
    """The solver's probability grid equals enumeration's to 1e-9, and its logic grid exactly."""
    import pytest

    gp, rp = k.grid("probability"), grid_prob(k, ds)
    for c in k.cards:
        for h in k.holders:
            assert gp[c][h] == pytest.approx(rp[c][h], abs=1e-9), (c, h)
    assert k.grid("logic") == grid_logic(k, ds)


def mutual_information(joint: dict) -> float:
    """Mutual information (bits) of the two parts of ``(pair, outcome) -> probability``."""
    pp: dict = {}
    po: dict = {}
    for (p, o), v in joint.items():
        pp[p] = pp.get(p, 0.0) + v
        po[o] = po.get(o, 0.0) + v
    return sum(v * math.log2(v / (pp[p] * po[o])) for (p, o), v in joint.items() if v > 0)


def question_info(k: Knowledge, target: int, face: Card, number: Card, ds=None) -> float:
    """Mutual information (bits) between the secret pair and what the asker would see."""
    return mutual_information(question_law(k, target, face, number, ds))


def question_outcomes(k: Knowledge, target: int, face: Card, number: Card, ds=None) -> dict:
    """The probability of each outcome the asker may see: the face, the number, or None (neither)."""
    out = {face: 0.0, number: 0.0, None: 0.0}
    for (_p, o), v in question_law(k, target, face, number, ds).items():
        out[o] += v
    return out


def question_law(k: Knowledge, target: int, face: Card, number: Card, ds=None) -> dict:
    """``(pair, outcome) -> probability`` for the question (ask mode "chosen")."""
    ds = deals(k) if ds is None else ds
    tot = sum(w for _, w in ds)
    joint: dict = {}
    for d, w in ds:
        p = _pair(d[SECRET])
        hand = d[target]
        hf, hn = face in hand, number in hand
        if hf and hn:
            outs = [(face, 0.5), (number, 0.5)]
        elif hf:
            outs = [(face, 1.0)]
        elif hn:
            outs = [(number, 1.0)]
        else:
            outs = [(None, 1.0)]
        for o, q in outs:
            joint[(p, o)] = joint.get((p, o), 0.0) + w * q / tot
    return joint


def pass_order(k: Knowledge, start: int) -> list:
    """ask_mode "pass_left": the seats a question to ``start`` reaches, in order (leftwards,
    stopping before the asker)."""
    players = len([h for h in k.holders if isinstance(h, int)])
    order, s = [], start
    while s != k.seat:
        order.append(s)
        s = (s + 1) % players
    return order


def pass_left_outcomes(k: Knowledge, start: int, face: Card, number: Card, ds=None) -> dict:
    """ask_mode "pass_left": joint law of (pair, what the asker sees), by enumeration.

    The question goes to ``start``, then on leftwards after each "neither" until it comes
    back to the asker; the asker sees who showed which card (``(seat, card)``), or None when
    no seat the question reached held either card. A seat holding both shows either, 1/2 each.
    """
    ds = deals(k) if ds is None else ds
    tot = sum(w for _, w in ds)
    order = pass_order(k, start)
    joint: dict = {}
    for d, w in ds:
        p = _pair(d[SECRET])
        outs = [(None, 1.0)]
        for seat in order:
            hand = d[seat]
            hf, hn = face in hand, number in hand
            if hf and hn:
                outs = [((seat, face), 0.5), ((seat, number), 0.5)]
            elif hf or hn:
                outs = [((seat, face if hf else number), 1.0)]
            else:
                continue
            break
        for o, q in outs:
            joint[(p, o)] = joint.get((p, o), 0.0) + w * q / tot
    return joint


def pass_left_info(k: Knowledge, start: int, face: Card, number: Card, ds=None) -> float:
    """Mutual information (bits) between the pair and what the asker sees, in pass_left mode."""
    return mutual_information(pass_left_outcomes(k, start, face, number, ds))


# --------------------------------------------------------------------------------------
# a small Five Sons, simulated independently of the game module
# --------------------------------------------------------------------------------------
@dataclass
class MiniGame:
    players: int
    faces: tuple
    numbers: tuple
    hands: list
    secret: tuple
    knowledge: list  # one Knowledge per seat


def mini_game(
    rng: random.Random,
    players: int,
    n_faces: int,
    n_numbers: int,
    turns: int,
    claim_rate: float = 0.05,
    sizes: list | None = None,
    ask_mode: str = "chosen",
) -> MiniGame:
    """Deal a smaller Five Sons deck and play ``turns`` random questions (and rare wrong claims).

    ``ask_mode="pass_left"``: each question goes to the asker's left neighbour and on leftwards
    after each "neither" (every seat hears every answer), and the knowledge says so.
    """
    faces = tuple(FACE_CARDS[:n_faces])
    numbers = tuple(NUMBER_CARDS[:n_numbers])
    cards = faces + numbers
    secret = (rng.choice(faces), rng.choice(numbers))
    rest = [c for c in cards if c not in secret]
    rng.shuffle(rest)
    if sizes is None:
        sizes = [len(rest) // players + (1 if i < len(rest) % players else 0) for i in range(players)]
    hands, at = [], 0
    for s in sizes:
        hands.append(frozenset(rest[at : at + s]))
        at += s
    holder_sizes = {i: sizes[i] for i in range(players)}
    holder_sizes[SECRET] = 2
    spec = SecretSpec(
        groups=(faces, numbers), questions=QuestionModel(event="ask", mode=ask_mode, quiet={"ask"})
    )
    ks: list[list] = []  # each seat's facts, made into a Knowledge at the end
    for seat in range(players):
        ks.append(
            [Fact.exactly(SECRET, faces, 1), Fact.exactly(SECRET, numbers, 1)]
            + [Fact.has(seat, c, step=0) for c in sorted(hands[seat])]
        )
    eliminated: set = set()
    for step in range(1, turns + 1):
        askers = [s for s in range(players) if s not in eliminated]
        if not askers:
            break
        asker = rng.choice(askers)
        f, n = rng.choice(faces), rng.choice(numbers)
        if ask_mode == "pass_left":
            reached = [(asker + d) % players for d in range(1, players)]
        else:
            reached = [rng.choice([s for s in range(players) if s != asker])]
        for target in reached:
            held = [c for c in (f, n) if c in hands[target]]
            shown = rng.choice(held) if held else None
            for seat, k in enumerate(ks):
                if seat == target:
                    continue
                if shown is None:
                    k.append(Fact.none_of(target, (f, n), step=step))
                elif seat == asker:
                    k.append(Fact.shown(target, shown, (f, n), step=step))
                else:
                    k.append(Fact.one_of(target, (f, n), step=step))
            if shown is not None:
                break
        if rng.random() < claim_rate:
            claimant = rng.choice(askers)
            cf, cn = rng.choice(faces), rng.choice(numbers)
            if (cf, cn) != secret:
                eliminated.add(claimant)
                for seat, k in enumerate(ks):
                    if seat == claimant:
                        if not any(f.kind == "has" and f.holder == SECRET for f in k):
                            k.append(Fact.has(SECRET, secret[0], step=step))
                            k.append(Fact.has(SECRET, secret[1], step=step))
                    else:
                        k.append(Fact.not_both(SECRET, (cf, cn), step=step))
    knowledge = [
        Knowledge(
            seat,
            cards,
            tuple(range(players)) + (SECRET,),
            dict(holder_sizes),
            "five_sons",
            facts=facts,
            extra={"ask_mode": ask_mode},
            secret=spec,
        )
        for seat, facts in enumerate(ks)
    ]
    return MiniGame(players, faces, numbers, hands, secret, knowledge)

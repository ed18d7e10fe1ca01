"""The deduction grid and why each of its cells holds.

``grid(k, level)`` fills, for every card and holder, a cell at one of three levels of
reasoning (naive: only cards seen in hands; logic: what every consistent deal agrees
on; probability: the exact share of weighted deals). ``explain(k, card, holder)``
finds a short set of facts that alone forces a logic cell, by deletion: drop facts
(half of them at a time, then fewer), re-check with the exact solver that the cell is
still forced, keep them dropped if so. What is left is a chain a student can follow,
said in the facts' own sentences and closed by the conclusion. Places that are not seats
(a secret, the played cards) are spoken of in the words the game's adapter gave the
knowledge (:class:`~qardlab.deduction.facts.PlaceWords`); nothing here knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from .facts import Fact, Holder
from .facts import KnowledgeLike as Knowledge
from .solve import Inconsistent, build_model, exact_marginals, forced, holder_marginals

__all__ = ["grid", "explain", "Explanation", "fact_text"]


def _seen(k: Knowledge) -> dict[Card, Holder]:
    """Cards whose holder a fact names outright (own hand, shown, played, passed)."""
    out: dict[Card, Holder] = {}
    for f in k.facts:
        if f.kind in ("has", "shown"):
            out.setdefault(f.cards[0], f.holder)
    return out


def grid(k: Knowledge, level: str) -> dict[Card, dict[Holder, Any]]:
    """See :meth:`Knowledge.grid`."""
    if level == "naive":
        seen = _seen(k)
        out: dict[Card, dict[Holder, Any]] = {}
        naive_pairs = None
        secret = k.secret.holder if k.secret is not None else None
        if secret is not None:
            naive_pairs = k.naive_candidates()
            in_naive = {c for p in naive_pairs for c in p}
        for c in k.cards:
            row: dict[Holder, Any] = {}
            for h in k.holders:
                if c in seen:
                    row[h] = "yes" if seen[c] == h else "no"
                elif h == k.seat:
                    # a seat knows its whole hand
                    row[h] = "no"
                elif h == secret and naive_pairs is not None and c not in in_naive:
                    row[h] = "no"
                else:
                    row[h] = None
            out[c] = row
        return out
    model = k.model()
    weighted = level == "probability"
    # one exact weighted count serves both levels (Five Sons); else today's two solvers
    exact = exact_marginals(model)
    marg, total = holder_marginals(model, weighted) if exact is None else exact
    if total <= 0:
        raise Inconsistent("no deal agrees with these facts")
    out = {}
    for c in k.cards:
        row = {}
        for h in k.holders:
            w = marg[c][h]
            if weighted:
                row[h] = float(w / total)
            else:
                row[h] = "no" if w == 0 else ("yes" if w == total else None)
        out[c] = row
    return out


# --------------------------------------------------------------------------------------
# explanations
# --------------------------------------------------------------------------------------
def _cards_text(cards) -> str:
    syms = [c.symbol for c in cards]
    if len(syms) <= 1:
        return "".join(syms)
    return ", ".join(syms[:-1]) + " and " + syms[-1]


def _is_place(k: Knowledge, h: Holder) -> bool:
    """A holder that is not a seat (a secret, the played cards): spoken of in its own words."""
    return not isinstance(h, int)


def _who(k: Knowledge, h: Holder) -> str:
    if h == k.seat:
        return "You"
    if _is_place(k, h):
        return k.place_words(h).subject
    return k.name(h)


def _count_word(n: int | None) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n)) if n is not None else "?"


def fact_text(k: Knowledge, f: Fact) -> str:
    """The fact's own sentence, or a plain one made from its fields."""
    if f.text:
        return f.text
    who = _who(k, f.holder)
    you = f.holder == k.seat
    hold = "hold" if you else "holds"
    if f.kind == "has":
        if _is_place(k, f.holder):
            return k.place_words(f.holder).holds.format(card=f.cards[0].symbol) + "."
        return f"{who} {hold} {f.cards[0].symbol}."
    if f.kind == "shown":
        return f"{who} showed you {f.cards[0].symbol} when asked for {_cards_text(f.cards)}."
    if f.kind == "has_not":
        if _is_place(k, f.holder):
            return k.place_words(f.holder).holds_not.format(card=f.cards[0].symbol) + "."
        return f"{who} {'do' if you else 'does'} not hold {f.cards[0].symbol}."
    if f.kind == "one_of":
        return f"{who} {hold} at least one of {_cards_text(f.cards)}."
    if f.kind == "none_of":
        return f"{who} {hold} none of {_cards_text(f.cards)}."
    if f.kind == "void":
        return f"{who} {'have' if you else 'has'} no {f.suit.title.lower()} left."
    if f.kind == "exactly":
        spec = k.secret
        if spec is not None and f.holder == spec.holder and spec.kinds:
            group = next((i for i, g in enumerate(spec.groups) if set(g) == set(f.cards)), None)
            if group is not None:
                kind = spec.kinds[group] + ("" if f.count == 1 else "s")
                return f"{who} {hold} exactly {_count_word(f.count)} {kind}."
        return f"{who} {hold} exactly {f.count} of {_cards_text(f.cards)}."
    if f.kind == "not_both":
        if _is_place(k, f.holder):
            refuted = k.place_words(f.holder).refuted
            return f"{who} is not {_cards_text(f.cards)}{' ' + refuted if refuted else ''}."
        return f"{who} {'do' if you else 'does'} not hold all of {_cards_text(f.cards)}."
    return f"{who}: {f.kind} {_cards_text(f.cards)}."


def _conclusion(k: Knowledge, card: Card, holder: Holder, value: str) -> str:
    yes = value == "yes"
    if _is_place(k, holder):
        w = k.place_words(holder)
        return "So " + (w.holds if yes else w.holds_not).format(card=card.symbol) + "."
    if holder == k.seat:
        return f"So you {'hold' if yes else 'do not hold'} {card.symbol}."
    return f"So {k.name(holder)} {'holds' if yes else 'does not hold'} {card.symbol}."


def _not_there(k: Knowledge, holder: Holder) -> str:
    if _is_place(k, holder):
        return "and " + k.place_words(holder).holds_not.format(card="it")
    if holder == k.seat:
        return "not you"
    return f"not {k.name(holder)}"


@dataclass
class Explanation:
    """Why a grid cell holds: the facts that force it and the sentences to read."""

    card: Card
    holder: Holder
    value: Any  # "yes" | "no" | None (not forced)
    facts: list[Fact] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)
    probability: float | None = None

    @property
    def text(self) -> str:
        return " ".join(self.sentences)

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        from ..render.markup import el, to_html

        return to_html(el("ol", [el("li", s) for s in self.sentences], cls="qard-explanation"))


def _still_forced(k: Knowledge, facts: list[Fact], card: Card, holder: Holder, value: str) -> bool:
    model = build_model(k, facts)
    try:
        return forced(model, card, holder) == value
    except (Inconsistent, ValueError):
        return False


def _minimise(
    k: Knowledge, fixed: list[Fact], items: list[Fact], card: Card, holder: Holder, value: str
) -> list[Fact]:
    """A subset of ``items`` that, with ``fixed``, still forces the cell; no single fact of it
    can be dropped. Divide and conquer (as in QuickXplain): try to drop a whole half at
    once, so a chain of a few facts among a hundred costs a few dozen solver calls. The
    first items are the ones it prefers to drop."""

    def rec(part: list[Fact], others: list[Fact], check: bool) -> list[Fact]:
        if not part:
            return []
        if check and _still_forced(k, fixed + others, card, holder, value):
            return []
        if len(part) == 1:
            return part
        mid = len(part) // 2
        first, second = part[:mid], part[mid:]
        keep_second = rec(second, others + first, True)
        keep_first = rec(first, others + keep_second, True)
        return keep_first + keep_second

    return rec(items, [], False)


def explain(k: Knowledge, card: Card, holder: Holder) -> Explanation:
    """See :meth:`Knowledge.explain`.

    The seat's own hand always stays among the facts (a student knows their hand) and is
    said only where it resolves an "at least one of"; every other fact is a candidate for
    deletion (:func:`_minimise`, later facts dropped first, so the chain uses the earliest
    facts that suffice). A "no" cell that no fact rules out directly says where the card
    is instead, or that the holder's hand is full. A cell logic leaves open says so, with
    its exact probability (counting gives the probability; it does not settle the cell).
    """
    if holder not in k.holders:
        raise ValueError(f"unknown holder {holder!r}; holders are {k.holders}")
    if card not in k.cards:
        raise ValueError(f"card {card} is not among the cards of this knowledge")
    value = k.cell(card, holder, "logic")
    if value is None:
        p = k.cell(card, holder, "probability")
        if _is_place(k, holder):
            what = "whether " + k.place_words(holder).holds.format(card=card.symbol)
        elif holder == k.seat:
            what = f"whether you hold {card.symbol}"
        else:
            what = f"whether {k.name(holder)} holds {card.symbol}"
        msg = (
            f"Logic alone does not settle {what}: some consistent deals say yes and some say no. "
            f"Counting the deals that agree with the facts gives its probability, {p:.1%}; "
            "it stays uncertain."
        )
        return Explanation(card, holder, None, [], [msg], probability=p)
    facts = list(k.facts)
    # the seat always knows its own hand: those facts stay, and are said only where they matter
    own = [f for f in facts if f.kind == "has" and f.holder == k.seat]
    rest = [f for f in facts if not (f.kind == "has" and f.holder == k.seat)]
    # prefer dropping later facts (and the rules last), so the chain uses the earliest facts
    rest.sort(key=lambda f: (f.step is None, -(f.step or 0)))
    keep = _minimise(k, own, rest, card, holder, value)
    keep.sort(key=lambda f: (f.step is not None, f.step or 0))
    # own cards worth saying: those that resolve an "at least one of" (or a claim, a count)
    named = {c for f in keep if f.kind in ("one_of", "not_both", "exactly") for c in f.cards} | {card}
    said_own = (
        [f for f in own if f.cards[0] in named]
        if holder != k.seat
        else [f for f in own if f.cards[0] == card]
    )
    sentences = [fact_text(k, f) for f in said_own + keep]
    if holder == k.seat and value == "no":
        sentences.append(f"Your hand is {_cards_text(sorted(f.cards[0] for f in own))}.")
    elif not keep and not said_own:
        sentences.append("The hand sizes alone settle it.")
    elsewhere = None
    if value == "no" and not any(
        f.holder == holder and f.kind in ("none_of", "has_not", "void") for f in keep
    ):
        # no fact rules the card out directly: either the same facts put it elsewhere ...
        elsewhere = next(
            (
                g
                for g in k.holders
                if g != holder
                and k.cell(card, g, "logic") == "yes"
                and _still_forced(k, own + keep, card, g, "yes")
            ),
            None,
        )
        # ... or the holder's hand is full of other cards
        if elsewhere is None and isinstance(holder, int) and holder != k.seat:
            n = k.sizes[holder]
            sentences.append(f"{k.name(holder)} holds only {n} card{'s' if n != 1 else ''}.")
    if elsewhere is not None:
        sentences.append(_conclusion(k, card, elsewhere, "yes")[:-1] + ", " + _not_there(k, holder) + ".")
    else:
        sentences.append(_conclusion(k, card, holder, value))
    keep = own + keep
    return Explanation(card, holder, value, keep, sentences, probability=1.0 if value == "yes" else 0.0)

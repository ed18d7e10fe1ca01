"""Counting a Five Sons seat's secret pairs by hand, the way a student would (lessons 01 and 03).

:func:`pair_count` splits the count of pairs still possible into the steps a student can follow: the face and
number cards the seat has seen (crossing out leaves ``faces x numbers`` pairs), then each pair that full logic
takes out besides, with the fact that takes it out. The lesson's check cells print it as the arithmetic a
wrong answer missed. :func:`chain_length` says how many statements an explanation of a grid cell needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..deduction import SECRET, Knowledge
from ..deduction.explain import Explanation, fact_text

__all__ = ["PairCount", "pair_count", "chain_length"]


@dataclass(frozen=True)
class PairCount:
    """The pairs still possible for one seat, step by step."""

    faces_seen: tuple[Card, ...]
    numbers_seen: tuple[Card, ...]
    faces_left: int
    numbers_left: int
    refuted: int  # pairs crossed out by wrong claims, besides the seen cards
    naive: int  # pairs left by crossing out seen cards
    logic: int  # pairs left by full logic
    #: (face, number, why) for every pair crossing out keeps and full logic takes out
    ruled_out: tuple[tuple[Card, Card, str], ...]

    def lines(self) -> list[str]:
        """The count as a student would write it down."""
        faces = " ".join(c.symbol for c in self.faces_seen) or "none"
        numbers = " ".join(c.symbol for c in self.numbers_seen) or "none"
        product = self.faces_left * self.numbers_left
        out = [
            f"Face cards seen: {faces} ({len(self.faces_seen)}), so {self.faces_left} are left.",
            f"Number cards seen: {numbers} ({len(self.numbers_seen)}), so {self.numbers_left} are left.",
            f"Crossing out: {self.faces_left} x {self.numbers_left} = {product} pairs"
            + (f", less {self.refuted} refuted by wrong claims: {self.naive}." if self.refuted else "."),
        ]
        if self.ruled_out:
            out.append(f"Full logic takes out {len(self.ruled_out)} more:")
            out += [f"  {f.symbol} + {n.symbol}: {why}" for f, n, why in self.ruled_out]
        out.append(
            f"{self.naive} - {len(self.ruled_out)} = {self.logic} pairs still possible."
            if self.ruled_out
            else f"Full logic takes out no more: {self.logic} pairs."
        )
        return out


def _why_out(k: Knowledge, face: Card, number: Card) -> str:
    """Why full logic rules the pair (face, number) out, in the facts' words."""
    for f in k.facts:
        if f.kind in ("one_of", "shown") and set(f.cards) == {face, number}:
            return f"{fact_text(k, f)} So they are not both in the secret pair."
        if f.kind == "not_both" and f.holder == SECRET and set(f.cards) == {face, number}:
            return fact_text(k, f)
    logic = k.grid("logic")
    for card in (face, number):
        if logic[card][SECRET] == "no":
            return k.explain(card, SECRET).text
    return "no whole deal agrees with every fact and every hand size together."


def pair_count(k: Knowledge) -> PairCount:
    """The seat's pairs still possible, split into crossing out and what full logic adds (see the module)."""
    naive, logic = k.naive_candidates(), k.candidates()
    seen = sorted(
        {c for f in k.facts if f.kind in ("has", "shown") and isinstance(f.holder, int) for c in f.cards[:1]}
    )
    all_faces = sorted({c for c in k.cards if c.is_face})
    all_numbers = sorted({c for c in k.cards if not c.is_face})
    faces_seen = tuple(c for c in seen if c.is_face)
    numbers_seen = tuple(c for c in seen if not c.is_face)
    faces_left = len([c for c in all_faces if c not in faces_seen])
    numbers_left = len([c for c in all_numbers if c not in numbers_seen])
    refuted = faces_left * numbers_left - len(naive)
    out = tuple((f, n, _why_out(k, f, n)) for f, n in sorted(naive - logic))
    return PairCount(faces_seen, numbers_seen, faces_left, numbers_left, refuted, len(naive), len(logic), out)


def chain_length(explanation: Explanation) -> int:
    """How many statements an explanation needs before its conclusion: the facts it cites and, where hand
    sizes settle the cell, the hand size (lesson 03 asks for cells that need two or more)."""
    return max(0, len(explanation.sentences) - 1)

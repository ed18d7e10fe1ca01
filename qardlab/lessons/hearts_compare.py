"""Lesson 12 (Hearts experiments): comparing two bots the right way, on the same deals.

:func:`paired_comparison` deals ``hands`` hands and plays each one twice: once with bot A in a chair, once
with bot B in the same chair, the three other chairs held by the same rule bots with the same seeds. The
difference of A's and B's points on each deal is one number per deal; its average and its own 95 % interval
(normal approximation, 1.96 standard errors) say how much better one bot is, with the luck of the deal (a hand
full of hearts) taken out, since it hits both bots alike. The two bots' own averages and intervals come with
it, to show that their overlap is not the test.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..games.hearts import Hearts, HeartsRules
from ..games.hearts.bots import RuleBot, play_hand

__all__ = ["Estimate", "Paired", "estimate", "paired_comparison"]


@dataclass(frozen=True)
class Estimate:
    """An average of ``n`` numbers with the half-width of its 95 % interval."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:6.2f}  95% interval [{self.low:.2f}, {self.high:.2f}]"


def estimate(values: Sequence[float]) -> Estimate:
    """Mean and 95 % interval half-width (1.96 standard errors; sample standard deviation)."""
    n = len(values)
    if n < 2:
        raise ValueError(f"an interval needs at least two values, got {n}")
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, 1.96 * math.sqrt(var / n), n)


@dataclass(frozen=True)
class Paired:
    """Two bots on the same deals: each one's points per deal, and the paired difference A - B."""

    name_a: str
    name_b: str
    points_a: tuple[int, ...]
    points_b: tuple[int, ...]

    @property
    def a(self) -> Estimate:
        return estimate(self.points_a)

    @property
    def b(self) -> Estimate:
        return estimate(self.points_b)

    @property
    def difference(self) -> Estimate:
        """A's points less B's, deal by deal: negative means A takes fewer points (better)."""
        return estimate([x - y for x, y in zip(self.points_a, self.points_b)])

    def lines(self) -> list[str]:
        d = self.difference
        return [
            f"{self.name_a:>10}: {self.a}",
            f"{self.name_b:>10}: {self.b}",
            f"difference {self.name_a} - {self.name_b}, deal by deal: {d}",
        ]


def _play(deal_seed: int, rules: HeartsRules, chair: int, bot: Any, hand: int) -> int:
    game = Hearts.new(players=4, seed=deal_seed, rules=rules)
    bots = [bot if s == chair else RuleBot(seed=10 * hand + s) for s in range(4)]
    return play_hand(game, bots).hand_points[chair]


def paired_comparison(
    a: tuple[str, Callable[[int], Any]],
    b: tuple[str, Callable[[int], Any]],
    hands: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Paired:
    """Bots ``a`` and ``b`` ((name, factory seed -> bot)) on the same ``hands`` deals (see the module).

    Deal ``h`` is dealt from ``seed * 1_000_003 + h``, passes by the rules' cycle (left, right, across, none)
    and puts the bot under test in chair ``h % 4``.
    """
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 2:
        raise ValueError(f"a paired comparison needs at least two hands, not {hands!r}")
    cycle = HeartsRules().cycle_for(4)
    points: dict[str, list[int]] = {"a": [], "b": []}
    for h in range(hands):
        rules = HeartsRules(pass_cycle=(cycle[h % len(cycle)],))
        deal_seed = seed * 1_000_003 + h
        for side, (_name, make) in (("a", a), ("b", b)):
            points[side].append(_play(deal_seed, rules, h % 4, make(seed * 1000 + h), h))
        if progress is not None:
            progress(h + 1)
    return Paired(a[0], b[0], tuple(points["a"]), tuple(points["b"]))

"""Lesson 12 (Hearts experiments): comparing two bots the right way, on the same deals.

:func:`paired_comparison` deals ``hands`` hands and plays each one twice: once with bot A in a chair, once
with bot B in the same chair, the three other chairs held by the same rule bots with the same seeds. The
difference of A's and B's points on each deal is one number per deal; its average and its own 95 % interval
(normal approximation, 1.96 standard errors) say how much better one bot is, with the luck of the deal (a hand
full of hearts) taken out, since it hits both bots alike. The two bots' own averages and intervals come with
it, to show that their overlap is not the test.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import Card
from ..games.hearts import Hearts, HeartsRules
from ..games.hearts.bots import RuleBot, play_hand
from .exercises import Exercise, Reply, read_choice, read_number, right, wrong

QS = Card.parse("QS")

__all__ = [
    "Estimate",
    "Paired",
    "estimate",
    "paired_comparison",
    "PLACES",
    "queen_takers",
    "Passing",
    "passing",
    "stored_passing",
    "interval_sentences",
    "check_interval",
    "check_deals",
    "EXERCISES",
]


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

    @property
    def correlation(self) -> float:
        """How alike the two bots' points are on the same deal (Pearson's r): the paired difference removes
        the luck they share, more of it the nearer this is to 1."""
        import statistics

        return statistics.correlation([float(x) for x in self.points_a], [float(y) for y in self.points_b])

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


# -- what passing does: who takes the Queen of spades -----------------------------------------------------

#: the places counted from the seat dealt the Q♠, clockwise
PLACES = ("dealt the Q♠", "left (gets the pass)", "across", "right")
#: where lesson 12's stored run of the passing experiment is
PASSING_DATA = Path(__file__).with_name("passing_queen.json")


def queen_takers(direction: str, hands: int, first_seed: int = 1000, start: int = 0) -> list[int]:
    """For hands ``start .. hands - 1`` dealt from ``first_seed + h`` and played by four rule bots passing in
    ``direction``: who took the Q♠, counted clockwise from the seat dealt her (0 that seat, 1 its left
    neighbour, who receives its pass to the left, 2 across, 3 right). The same deal for every direction."""
    rules = HeartsRules(pass_cycle=(direction,))
    takers = []
    for h in range(start, hands):
        deal = Hearts.new(4, seed=first_seed + h).history[0]
        game = Hearts.from_deal(deal.hands, pass_direction=direction, rules=rules)
        dealt = next(s for s in range(4) if QS in game.hand(s))
        play_hand(game, [RuleBot(seed=h * 10 + s) for s in range(4)])
        taker = next(s for s in range(4) if QS in game.taken(s))
        takers.append((taker - dealt) % 4)
    return takers


@dataclass(frozen=True)
class Passing:
    """A run of the passing experiment: per direction, who took the Q♠, hand by hand (queen_takers)."""

    hands: int
    first_seed: int
    takers: dict[str, tuple[int, ...]]

    def shares(self, direction: str) -> list[Estimate]:
        """The share of hands in which each place took the Q♠, with its 95 % interval (normal approx.)."""
        n = len(self.takers[direction])
        out = []
        for place in range(4):
            p = sum(1 for t in self.takers[direction] if t == place) / n
            out.append(Estimate(p, 1.96 * math.sqrt(p * (1 - p) / n), n))
        return out

    def difference(self, direction: str, a: int, b: int) -> Estimate:
        """Place ``a``'s share less place ``b``'s, with its 95 % interval (two shares of one multinomial)."""
        n = len(self.takers[direction])
        pa = sum(1 for t in self.takers[direction] if t == a) / n
        pb = sum(1 for t in self.takers[direction] if t == b) / n
        return Estimate(pa - pb, 1.96 * math.sqrt((pa + pb - (pa - pb) ** 2) / n), n)

    def change(self, place: int, before: str, after: str) -> Estimate:
        """How much ``place``'s share changes from passing ``before`` to passing ``after``, on the same deals:
        the average of the hand-by-hand difference of "took the Q♠", with its 95 % interval."""
        return estimate(
            [(b == place) - (a == place) for a, b in zip(self.takers[before], self.takers[after])]
        )


def passing(
    directions: Sequence[str] = ("none", "left"), hands: int = 3000, first_seed: int = 1000
) -> Passing:
    """Run the passing experiment (a few seconds a hundred hands)."""
    return Passing(hands, first_seed, {d: tuple(queen_takers(d, hands, first_seed)) for d in directions})


def stored_passing() -> Passing:
    """The lesson's run, stored in :data:`PASSING_DATA` (``python -m qardlab.lessons.hearts_compare`` makes it
    again): too long for Run All, and the same numbers the test suite checks against a fresh run of its first
    hands."""
    data = json.loads(PASSING_DATA.read_text(encoding="utf-8"))
    return Passing(
        data["hands"], data["first_seed"], {d: tuple(int(c) for c in s) for d, s in data["takers"].items()}
    )


# -- the exercises ---------------------------------------------------------------------------------------

LESSON = "12-hearts-experiments"
EXERCISES = {
    "interval": Exercise(LESSON, "what-the-interval-says"),
    "deals": Exercise(LESSON, "deals-for-a-third"),
}
_LETTERS = "abcd"
#: which of :func:`interval_sentences` is right
RIGHT_SENTENCE = 2


def interval_sentences(paired: Paired) -> list[str]:
    """Four readings of the paired difference's 95 % interval, one right (:data:`RIGHT_SENTENCE`)."""
    d = paired.difference
    a, b, n = paired.name_a, paired.name_b, d.n
    span = f"[{d.low:.2f}, {d.high:.2f}]"
    return [
        f"On about 95 % of deals, {a} takes between {d.low:.2f} and {d.high:.2f} points more than {b}.",
        f"If {a} and {b} played another {n} deals, their average difference would fall in {span} with "
        "probability 95 %.",
        f"Made again and again on fresh sets of {n} deals, intervals made this way would catch the long-run "
        f"average difference about 95 times in 100; this one, {span}, lies wholly above 0, so the run tells "
        f"the two bots apart: {b} takes fewer points.",
        f"There is a 95 % chance that {a} takes more points than {b} on the next deal.",
    ]


def check_interval(answer: Any, paired: Paired) -> Reply:
    """Exercise 1: which of the four sentences about the paired interval is right (a letter)."""
    sentences = interval_sentences(paired)
    n = paired.difference.n
    why = [
        "(a) is about single deals: an interval for an average says nothing about them. Most deals land far "
        f"outside it (single deals spread √{n} = {math.sqrt(n):.0f} times wider).",
        "(b) is about the next average, which varies around the long-run average as this one did: it falls "
        "in this interval less often than 95 times in 100 (a prediction needs an interval about √2 times "
        "wider).",
        "(c) is what the 95 % is about: the recipe, used again and again, not this one interval.",
        "(d) is about one deal again, and the chance of doing better on a deal is another question: the "
        "interval is about the average.",
    ]

    def judge(choice: int) -> Reply:
        if choice == RIGHT_SENTENCE:
            return right(f"({_LETTERS[choice]}). {why[choice]}", why[0], why[1], why[3])
        hint = {
            0: 'What is the 95 % interval about: single deals, or their average? Reread "Reading the chart" '
            "in section 2.",
            1: 'Reread "Reading the chart" in section 2: is the 95 % a promise about this one interval, or '
            "about the recipe that made it?",
            3: "A deal's points are one number; the interval is about an average of many. Which sentence "
            "talks about the average?",
        }[choice]
        return wrong(f"({_LETTERS[choice]}) is not the right reading.", "Hint: " + hint, solution=why)

    return EXERCISES["interval"].check(answer, read_choice(sentences), judge, example='"a"')


def check_deals(answer: Any, paired: Paired, narrower: int = 3) -> Reply:
    """Exercise 2: how many deals in all would make the paired interval ``narrower`` times narrower."""
    n = paired.difference.n
    need = n * narrower**2
    work = [
        "A half-width is 1.96 standard errors, and a standard error is the spread of single deals divided "
        f"by the square root of the number of deals. To make it {narrower} times narrower the square root "
        f"must grow {narrower} times, so the number of deals {narrower}² = {narrower**2} times: "
        f"{n} x {narrower**2} = {need} deals.",
    ]

    def judge(value: float) -> Reply:
        if abs(value - need) <= 0.05 * need:
            return right(f"about {need} deals.", *work)
        if abs(value - n * narrower) <= 0.05 * n * narrower:
            hint = (
                "the width does not fall in proportion to the number of deals: it falls with its square root."
            )
        elif value in (narrower, narrower**2):
            hint = f"that is a factor; the question asks how many deals in all (the lesson played {n})."
        elif abs(value - (need - n)) <= 0.05 * need:
            hint = "that is how many more deals; the question asks how many in all."
        elif value < n:
            hint = "fewer deals make the interval wider, not narrower."
        else:
            hint = "how does a standard error depend on the number of deals?"
        return wrong(f"{value:g} deals is not it.", "Hint: " + hint[0].upper() + hint[1:], solution=work)

    return EXERCISES["deals"].check(answer, read_number, judge, example="500")


if __name__ == "__main__":  # python -m qardlab.lessons.hearts_compare [hands]: store the passing experiment
    import sys

    run = passing(("none", "left", "right", "across"), hands=int(sys.argv[1]) if len(sys.argv) > 1 else 10000)
    PASSING_DATA.write_text(
        json.dumps(
            {
                "about": "lesson 12's passing experiment: per direction, who took the Q♠ hand by hand, "
                "counted clockwise from the seat dealt her (qardlab.lessons.hearts_compare.queen_takers)",
                "hands": run.hands,
                "first_seed": run.first_seed,
                "takers": {d: "".join(map(str, t)) for d, t in run.takers.items()},
            },
            indent=1,
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    for d in run.takers:
        print(
            d,
            "  ".join(f"{place} {e.mean:.1%} ±{e.half_width:.1%}" for place, e in zip(PLACES, run.shares(d))),
        )

"""Hearts speed: full random 4-player hands per second, OpenSpiel vs qardlab, in one run.

A hand is the deal, the pass, 52 plays and scoring. Every engine is driven through its public
API by the same kind of loop, a uniformly random legal action at every decision:

- ``openspiel``: ``pyspiel.load_game("hearts", {"qs_breaks_hearts": False})`` once, then per
  hand ``new_initial_state()`` and ``apply_action(choice(legal_actions()))`` until terminal:
  the pass-direction chance action (so a quarter of its hands have no pass), 52 deal chance
  actions, 12 pass actions (card by card), 52 plays; scoring happens inside the engine.
- ``step``: a fresh game per hand, ``Hearts.new(4, seed=...)`` (its options checked, its own
  ``random.Random`` seeded, the deal drawn from it), then for each seat
  ``apply(tuple(sample(legal_actions(), 3)))`` (the first hand of a match always passes left),
  then ``apply(choice(legal_actions()))`` 52 times, every play validated and logged; the last
  play scores the hand.
- ``step, matches``: the same per hand, but hands are dealt by ``next_hand()`` within matches to
  100 points (a new ``Hearts.new`` when a match ends), so the pass cycles left, right, across,
  none: the like-for-like counterpart of OpenSpiel's one ``load_game`` and a new state per hand.
- ``step, from_deal``: the issue's own wording of the loop: per hand the benchmark shuffles a
  deck of Cards with its own ``random.Random`` (as OpenSpiel draws its deal by chance actions),
  deals it in four runs of 13 and sets the hand up with ``Hearts.from_deal(hands, direction)``
  (the deal validated), the pass direction cycling left, right, across, none (like OpenSpiel's
  random direction, a quarter of the hands have no pass); then passes and plays as ``step``.
- ``batch``: ``qardlab.games.hearts.batch.simulate(batch)`` called repeatedly: deal, random
  passes, 52 uniformly random legal plays and scoring for every hand, in numpy.

One core: BLAS and OpenMP threads are held to one. Rounds alternate between engines so that
load on a shared machine hits all alike; the figure is the median round, and beside it the best
round of each engine and its ratio to OpenSpiel's best (as ``timeit`` advises: other load only ever
slows a round, so the fastest is the closest to the code's own speed; on a shared virtual machine
rounds here vary by 30% and more, so many short rounds, ``--seconds 0.5 --rounds 15``, say more).
Time is this process's CPU time (``time.process_time``), so that other jobs on a shared machine
distort less.

``--baseline REF`` also runs the four qardlab loops on commit ``REF``'s code (``git archive``) and
on this tree's, each in a fresh child process, once per round between the others, so that today's
figures and the old ones come from the same run and are measured alike (``@this tree`` against
``@REF``; the main process's own figures, measured after OpenSpiel's, can differ by a few per cent).

    python benchmarks/hearts.py [--seconds 2] [--rounds 3] [--batch 10000] [--baseline REF]
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")


def _clock() -> float:
    """CPU time of this process: on a shared machine, others' load counts less than in wall time."""
    return time.process_time()


def openspiel_rate(seconds: float, seed: int) -> float:
    """Random hands/s of OpenSpiel's Hearts (default params, qs_breaks_hearts=False)."""
    import pyspiel

    game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
    rng = random.Random(seed)
    choice = rng.choice
    hands = 0
    start = _clock()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        hands += 1
        elapsed = _clock() - start
        if elapsed >= seconds:
            return hands / elapsed


def _random_hand(game: Any, choice: Any, sample: Any) -> None:
    """Play ``game``'s hand out through its public API: each seat passes 3 random cards of its
    ``legal_actions()``, then a random legal card at every play (the last play scores the hand)."""
    while game.phase == "pass":
        game.apply(tuple(sample(game.legal_actions(), 3)))
    while game.phase == "play":
        game.apply(choice(game.legal_actions()))


def step_rate(seconds: float, seed: int, match: bool = False) -> float:
    """Random hands/s of qardlab's step engine through its public API.

    ``match=False``: a fresh ``Hearts.new`` per hand (its setup counted); ``match=True``:
    whole matches to 100 points, ``next_hand()`` between hands.
    """
    from qardlab.games.hearts import Hearts, HeartsRules

    rules = HeartsRules() if match else HeartsRules(target=10**9)
    rng = random.Random(seed)
    choice, sample = rng.choice, rng.sample
    hands = 0
    game = Hearts.new(4, seed=seed, rules=rules)
    start = _clock()
    while True:
        if hands:
            if match and game.phase == "hand_over":
                game.next_hand()
            else:
                game = Hearts.new(4, seed=seed + hands, rules=rules)
        _random_hand(game, choice, sample)
        hands += 1
        elapsed = _clock() - start
        if elapsed >= seconds:
            return hands / elapsed


def from_deal_rate(seconds: float, seed: int) -> float:
    """Random hands/s of the step engine with a fresh ``Hearts.from_deal`` per hand (the deal shuffled by
    the benchmark's own RNG, the pass direction cycling), passing and playing through the public API."""
    from qardlab.cards import standard_deck
    from qardlab.games.hearts import Hearts

    rng = random.Random(seed)
    choice, sample, shuffle = rng.choice, rng.sample, rng.shuffle
    deck = standard_deck()
    directions = ("left", "right", "across", "none")
    hands = 0
    start = _clock()
    while True:
        shuffle(deck)
        game = Hearts.from_deal([deck[0:13], deck[13:26], deck[26:39], deck[39:52]], directions[hands & 3])
        _random_hand(game, choice, sample)
        hands += 1
        elapsed = _clock() - start
        if elapsed >= seconds:
            return hands / elapsed


def batch_rate(seconds: float, seed: int, batch: int) -> float:
    """Random hands/s of the numpy batch simulator."""
    from qardlab.games.hearts.batch import simulate

    rng_seed = seed
    hands = 0
    simulate(64, seed=rng_seed)  # warm up
    start = _clock()
    while True:
        rng_seed += 1
        hands += len(simulate(batch, seed=rng_seed).points)
        elapsed = _clock() - start
        if elapsed >= seconds:
            return hands / elapsed


def main() -> None:
    from _baseline import parser

    ap = parser(__doc__.splitlines()[0], rounds=3, seed=1, baseline="code runs the same loops")
    ap.add_argument("--seconds", type=float, default=2.0, help="per engine per round")
    ap.add_argument("--batch", type=int, default=10_000, help="hands per batch-simulator call")
    args = ap.parse_args()
    if args.child:  # the baseline's loops (run by _baseline.measure, the old qardlab first on sys.path)
        print(
            json.dumps(
                {
                    "step": step_rate(args.seconds, args.seed),
                    "step, matches": step_rate(args.seconds, args.seed, match=True),
                    "step, from_deal": from_deal_rate(args.seconds, args.seed),
                    "batch": batch_rate(args.seconds, args.seed, args.batch),
                }
            )
        )
        return
    try:
        from threadpoolctl import threadpool_limits

        limiter = threadpool_limits(1)
    except ImportError:  # pragma: no cover
        limiter = None
    try:
        import pyspiel  # noqa: F401

        have_os = True
    except ImportError:
        have_os = False
        print("pyspiel is not installed: OpenSpiel figures skipped (pip install open-spiel)")
    rates: dict[str, list[float]] = {
        "openspiel": [],
        "step": [],
        "step, matches": [],
        "step, from_deal": [],
        "batch": [],
    }
    for r in range(args.rounds):
        seed = args.seed + 1000 * r
        if have_os:
            rates["openspiel"].append(openspiel_rate(args.seconds, seed))
        rates["step"].append(step_rate(args.seconds, seed))
        rates["step, matches"].append(step_rate(args.seconds, seed, match=True))
        rates["step, from_deal"].append(from_deal_rate(args.seconds, seed))
        rates["batch"].append(batch_rate(args.seconds, seed, args.batch))
        if args.baseline:
            from _baseline import ROOT, checkout, measure

            # both codes alike, each in a fresh child process that imports qardlab from its own
            # folder: this process (OpenSpiel and numpy loaded, the batch's arrays freed) is not
            # quite the same setting, so today's code is compared with the old child to child
            child_args = (
                __file__,
                "--seconds",
                str(args.seconds),
                "--seed",
                str(seed),
                "--batch",
                str(args.batch),
            )
            for label, path in (("this tree", ROOT), (args.baseline[:8], checkout(args.baseline))):
                for k, v in measure(path, *child_args).items():
                    rates.setdefault(f"{k} @{label}", []).append(v)
    med = {k: statistics.median(v) for k, v in rates.items() if v}
    best = {k: max(v) for k, v in rates.items() if v}
    print(
        f"random 4-player Hearts hands per second (median of {args.rounds} rounds of {args.seconds:g} s, "
        "one core; best: the fastest round, which other load slows least)"
    )
    for k, v in med.items():
        ratio = best_ratio = ""
        if "openspiel" in med:
            ratio = f"  {v / med['openspiel']:6.2f}x OpenSpiel"
            best_ratio = f"  best {best[k]:10,.0f} {best[k] / best['openspiel']:5.2f}x"
        spread = ", ".join(f"{x:,.0f}" for x in rates[k])
        print(f"  {k:28s} {v:12,.0f}{ratio}{best_ratio}   (rounds: {spread})")
    if limiter is not None:
        limiter.unregister() if hasattr(limiter, "unregister") else None


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()

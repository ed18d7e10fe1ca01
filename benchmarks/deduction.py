"""Deduction speed and what each level of reasoning leaves, measured.

Speed (default): positions from seeded Five Sons games of random questions after 0, 5,
10, 20, 40 and 80 turns, 4 and 5 players, seen by the seat about to ask. For each: milliseconds
of ``posterior()``, ``grid("probability")`` and the full advisor (``questions()``),
each on a fresh Knowledge with the zeta cache emptied (cold: the worst case). Brute-force
enumeration is run where it enumerates at most ``--brute-limit`` deals and
the ratio reported. Then the Hearts grid at every trick of seeded hands (3 to 6 players).
BLAS is held to one thread. Times are this process's CPU time (``time.process_time``) so
that other jobs on a shared machine distort less.

Levels (``--games N``): from N seeded 4-player games of random questions, the candidates
left after 10, 20 and 40 questions at each level (naive, logic, effective = 2^entropy),
medians over seats; and the median number of questions a game takes when every seat
plays one level's bot (RandomAsker: naive claims; ReasoningBot: logic; ProbabilityBot).

    python benchmarks/deduction.py [--positions 12] [--brute-limit 300000] [--games 200]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "deduction"))

from qardlab.deduction import Knowledge, solve  # noqa: E402
from qardlab.engine import play, play_turn  # noqa: E402
from qardlab.games.five_sons import FiveSons  # noqa: E402
from qardlab.games.five_sons.bots import RandomAsker, ReasoningBot  # noqa: E402
from qardlab.games.five_sons.probability_bot import ProbabilityBot  # noqa: E402

clock = time.process_time


def fresh(k: Knowledge) -> Knowledge:
    """A copy with no cached results, and the shared zeta cache emptied."""
    solve._ZETA_CACHE.clear()
    return Knowledge(k.seat, k.cards, k.holders, dict(k.sizes), k.game, k.names, list(k.facts), dict(k.extra))


def raw_deals(k: Knowledge) -> int:
    """How many deals the brute force enumerates (every way to place the unplaced cards)."""
    m = k.model()
    out = math.factorial(m.n)
    for h in k.holders:
        out //= math.factorial(m.rem[h])
    return out


def timed(fn) -> tuple[float, object]:
    t = clock()
    out = fn()
    return (clock() - t) * 1000.0, out


def five_sons_positions(players: int, turns: int, count: int):
    """Knowledge of the seat to ask after ``turns`` questions, from seeded random games."""
    out = []
    seed = 0
    while len(out) < count and seed < count * 5:
        g = FiveSons.new(players=players, seed=1000 + seed)
        bots = [RandomAsker(seed * 11 + i) for i in range(players)]
        seed += 1
        while not g.is_over and not (g.turn >= turns and g.phase == "ask"):
            play_turn(g, bots)
        if g.is_over:
            continue
        while g.phase != "ask":  # pragma: no cover - defensive
            play_turn(g, bots)
        out.append(g.knowledge(g.to_move))
    return out


def speed(positions: int, brute_limit: int) -> None:
    import deduction_brute as brute

    print("Five Sons (ms, cold; median / worst over positions; seat to ask)")
    print(f"{'players':>7} {'turn':>4} {'n':>3} {'posterior':>15} {'grid(prob)':>15} {'advisor':>15}"
          f" {'brute ms (n)':>16} {'ratio':>8}")
    for players in (4, 5):
        for turns in (0, 5, 10, 20, 40, 80):
            ks = five_sons_positions(players, turns, positions)
            post, grid, adv, ratios, brute_ms = [], [], [], [], []
            for k in ks:
                t, _ = timed(lambda k=k: fresh(k).posterior())
                post.append(t)
                t, _ = timed(lambda k=k: fresh(k).grid("probability"))
                grid.append(t)
                t, _ = timed(lambda k=k: fresh(k).questions())
                adv.append(t)
                if raw_deals(k) <= brute_limit:
                    tb, ref = timed(lambda k=k: brute.posterior(k))
                    brute_ms.append(tb)
                    ratios.append(tb / max(post[-1], 1e-3))
                    mine = k.posterior()
                    assert all(abs(mine.get(p, 0.0) - v) < 1e-9 for p, v in ref.items())

            def mw(xs):
                return f"{statistics.median(xs):6.1f} / {max(xs):6.1f}"

            b = f"{statistics.median(brute_ms):8.0f} ({len(brute_ms)})" if brute_ms else f"{'-':>8} (0)"
            r = f"{statistics.median(ratios):7.0f}x" if ratios else f"{'-':>8}"
            print(f"{players:>7} {turns:>4} {len(ks):>3} {mw(post):>15} {mw(grid):>15} {mw(adv):>15}"
                  f" {b:>16} {r}")
    per_deal = brute_cost()
    for players in (4, 5):
        k = five_sons_positions(players, 0, 1)[0]
        n = raw_deals(k)
        print(f"brute force at a {players}-player opening: {n:,} deals x {per_deal:.1f} us = "
              f"{n * per_deal / 1e6 / 60:,.0f} min (estimated)")
    hearts_speed()


def brute_cost() -> float:
    """Microseconds per enumerated deal of the brute force, measured on a small position."""
    import deduction_brute as brute

    k = min(five_sons_positions(4, 80, 6), key=raw_deals)
    t, _ = timed(lambda: brute.deals(k))
    return t * 1000.0 / raw_deals(k)


def hearts_speed() -> None:
    from qardlab.games.hearts import Hearts
    from qardlab.games.hearts.bots import RuleBot

    print("\nHearts grid('probability') at every trick of a hand (ms, cold; seat to play)")
    print(f"{'players':>7} {'positions':>9} {'median':>8} {'worst':>8}")
    for players in (3, 4, 5, 6):
        times = []
        for seed in range(4):
            g = Hearts.new(players=players, seed=seed)
            bots = [RuleBot(seed * 10 + i) for i in range(players)]
            while g.phase in ("pass", "play"):
                if g.phase == "play" and not g.trick:
                    k = g.knowledge(g.to_move)
                    t, _ = timed(lambda k=k: fresh(k).grid("probability"))
                    times.append(t)
                seat = g.to_move
                g.apply(bots[seat].act(g.observation(seat)))
        print(f"{players:>7} {len(times):>9} {statistics.median(times):8.1f} {max(times):8.1f}")


def levels(games: int) -> None:
    print(f"\nCandidates left after N questions, random questions, 4 players, {games} games "
          "(median over games and seats: naive / logic / effective)")
    marks = (10, 20, 40)
    rows: dict[int, list[tuple[int, int, float]]] = {m: [] for m in marks}
    for seed in range(games):
        g = FiveSons.new(players=4, seed=5000 + seed)
        bots = [RandomAsker(seed * 13 + i) for i in range(4)]
        for m in marks:
            while not g.is_over and not (g.turn >= m and g.phase == "ask"):
                play_turn(g, bots)
            if g.is_over:
                break
            for seat in range(4):
                k = g.knowledge(seat)
                rows[m].append((len(k.naive_candidates()), len(k.candidates()), k.effective_candidates()))
    for m in marks:
        xs = rows[m]
        if not xs:
            continue
        med = [statistics.median(x[i] for x in xs) for i in range(3)]
        print(f"  after {m:>2} questions ({len(xs):>4} seat-positions): "
              f"naive {med[0]:5.1f}  logic {med[1]:5.1f}  effective {med[2]:5.1f}")
    print(f"\nQuestions until someone wins, every seat one level's bot, 4 players, {games} games (median)")
    for name, make in (("naive (RandomAsker)", RandomAsker), ("logic (ReasoningBot)", ReasoningBot),
                       ("probability (ProbabilityBot)", ProbabilityBot)):
        turns, won = [], 0
        for seed in range(games):
            g = FiveSons.new(players=4, seed=7000 + seed)
            play(g, [make(seed * 17 + i) for i in range(4)])
            turns.append(g.turn)
            won += g.winner is not None
        print(f"  {name:<28} median {statistics.median(turns):6.1f} questions "
              f"(a winner in {won}/{games})")
    solo(games)


def solo(games: int) -> None:
    """One bot of a level at seat 0 against three RandomAskers: its wins, and its own questions."""
    print("\nThe bot at seat 0 against three RandomAskers, 4 players "
          "(median over its wins: questions in the game / its own questions)")
    for name, make in (("logic (ReasoningBot)", ReasoningBot),
                       ("probability (ProbabilityBot)", ProbabilityBot)):
        turns, own, wins = [], [], 0
        for seed in range(games):
            g = FiveSons.new(players=4, seed=9000 + seed)
            play(g, [make(seed)] + [RandomAsker(seed * 19 + i) for i in range(1, 4)])
            if g.winner == 0:
                wins += 1
                turns.append(g.turn)
                own.append(sum(1 for e in g.events if e.kind == "ask" and e.public.get("asker") == 0))
        med = statistics.median(turns) if turns else float("nan")
        med_own = statistics.median(own) if own else float("nan")
        print(f"  {name:<28} median {med:6.1f} questions, {med_own:5.1f} of its own (won {wins}/{games})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=12, help="positions per (players, turns)")
    ap.add_argument("--brute-limit", type=int, default=300000,
                    help="run brute force where it enumerates at most this many deals")
    ap.add_argument("--games", type=int, default=0, help="also the levels report over this many games")
    ap.add_argument("--no-speed", action="store_true", help="skip the timings")
    args = ap.parse_args()
    from qardlab.deduction.advise import single_thread

    with single_thread():
        if not args.no_speed:
            speed(args.positions, args.brute_limit)
        if args.games:
            levels(args.games)


if __name__ == "__main__":
    random.seed(0)
    main()

"""Hearts tournaments: hands per second on 1, 2 and all workers, and the counting bot's time per decision.

- ``tournament``: ``qardlab.games.hearts.bots.tournament`` of lesson 08's bots (random, rules,
  counting, counting), ``--hands`` hands, wall time (workers are other processes), for
  ``n_jobs`` 1, 2 and -1 (every core joblib sees); the progress bar off; joblib's workers started
  once before the rounds (loky keeps them between calls). The tables must be
  identical whatever the number of workers: the script checks it and says so.
- ``counting bot``: CPU time of ``CountingBot.act`` per decision (passes and plays) over every
  decision of ``--decision-hands`` seeded hands played by four counting bots, the observations
  built beforehand; ``per play`` counts the play decisions alone (a pass costs almost nothing).

``--baseline REF`` measures the counting bot and a one-worker tournament of commit ``REF``
(e.g. the commit before issue 14's work) in a child process, round by round with today's code,
so both figures come from the same run on the same machine.

    python benchmarks/tournament.py [--hands 80] [--rounds 3] [--baseline REF]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")


def entries():
    from qardlab.engine import RandomBot
    from qardlab.games.hearts.bots import CountingBot, RuleBot

    return [("random", RandomBot), ("rules", RuleBot), ("counting", CountingBot), ("counting-2", CountingBot)]


def tournament_rate(hands: int, seed: int, n_jobs: int | None) -> tuple[float, list]:
    """Hands per second (wall time) of one tournament, and its table."""
    from qardlab.games.hearts.bots import tournament

    kwargs = {}
    params = inspect.signature(tournament).parameters
    if "n_jobs" in params:
        kwargs = {"n_jobs": n_jobs, "bar": False}
    start = time.perf_counter()
    rows = tournament(entries(), hands=hands, seed=seed, **kwargs)
    elapsed = time.perf_counter() - start
    return hands / elapsed, [(r.name, r.hands, r.mean, r.half_width) for r in rows]


def decision_times(hands: int) -> tuple[float, float]:
    """CountingBot.act: CPU ms per decision, and per play decision, over seeded 4-player hands."""
    from qardlab.games.hearts import Hearts
    from qardlab.games.hearts.bots import CountingBot

    positions = []
    for h in range(hands):
        game = Hearts.new(4, seed=1000 + h)
        bots = [CountingBot(seed=h * 10 + s) for s in range(4)]
        while game.phase in ("pass", "play"):
            s = game.to_move
            obs = game.observation(s)
            positions.append((s, obs))
            game.apply(bots[s].act(obs))
    bot = CountingBot(seed=1)
    plays = [obs for _, obs in positions if obs["phase"] == "play"]
    start = time.process_time()
    for _, obs in positions:
        bot.act(obs)
    every = (time.process_time() - start) / len(positions) * 1e3
    bot = CountingBot(seed=1)
    start = time.process_time()
    for obs in plays:
        bot.act(obs)
    per_play = (time.process_time() - start) / len(plays) * 1e3
    return every, per_play


def child(args: argparse.Namespace) -> None:
    """The baseline's figures (run by ``_baseline.measure`` with the old qardlab on sys.path)."""
    every, per_play = decision_times(args.decision_hands)
    rate, _ = tournament_rate(args.hands, args.seed, 1)
    print(json.dumps({"every": every, "per_play": per_play, "rate": rate}))


def main() -> None:
    from _baseline import parser

    ap = parser(__doc__.splitlines()[0], rounds=3, seed=8, baseline="code is measured")
    ap.add_argument("--hands", type=int, default=80, help="hands per tournament")
    ap.add_argument("--decision-hands", type=int, default=12, help="hands of counting-bot decisions")
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    from qardlab.games.hearts.parallel import _workers, have_joblib

    every_core = _workers(-1, None) if have_joblib() else 1
    jobs = [1, 2, -1] if have_joblib() else [1]
    rates: dict[str, list[float]] = {f"n_jobs={j}": [] for j in jobs}
    tables: dict[int, list] = {}
    decisions: list[tuple[float, float]] = []
    base: list[dict] = []
    if have_joblib():  # start joblib's workers once (loky keeps them): their start-up is not a hand's cost
        from qardlab.games.hearts.bots import TOURNAMENT_CHUNK, tournament

        tournament(entries(), hands=2 * TOURNAMENT_CHUNK, seed=0, n_jobs=-1, bar=False)
    for _ in range(args.rounds):
        decisions.append(decision_times(args.decision_hands))
        for j in jobs:
            rate, table = tournament_rate(args.hands, args.seed, j)
            rates[f"n_jobs={j}"].append(rate)
            tables[j] = table
        if args.baseline:
            from _baseline import checkout, measure

            base.append(
                measure(
                    checkout(args.baseline),
                    __file__,
                    "--hands",
                    str(args.hands),
                    "--decision-hands",
                    str(args.decision_hands),
                    "--seed",
                    str(args.seed),
                )
            )
    same = all(t == tables[1] for t in tables.values())
    print(
        f"Hearts tournament, lesson 08's bots (random, rules, counting x2), {args.hands} hands, "
        f"median of {args.rounds} rounds, {os.cpu_count()} cores ({every_core} workers for n_jobs=-1)"
    )
    if base:
        b = statistics.median(x["rate"] for x in base)
        print(f"  baseline {args.baseline[:12]:12s} one process  {b:8.1f} hands/s")
    for k, v in rates.items():
        spread = ", ".join(f"{x:.1f}" for x in v)
        print(f"  {k:25s}  {statistics.median(v):8.1f} hands/s   (rounds: {spread})")
    print(f"  tables identical for every worker count: {'yes' if same else 'NO'}")
    every = statistics.median(d[0] for d in decisions)
    per_play = statistics.median(d[1] for d in decisions)
    print(f"CountingBot time per decision (CPU), {args.decision_hands} hands of 4 counting bots; target 1 ms")
    if base:
        b_every = statistics.median(x["every"] for x in base)
        b_play = statistics.median(x["per_play"] for x in base)
        print(
            f"  baseline {args.baseline[:12]:12s} {b_every:6.2f} ms per decision, {b_play:6.2f} ms per play"
        )
        print(
            f"  {'now':21s} {every:6.2f} ms per decision, {per_play:6.2f} ms per play "
            f"({b_every / every:.1f}x faster)"
        )
    else:
        print(f"  {every:.2f} ms per decision, {per_play:.2f} ms per play")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()

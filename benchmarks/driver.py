"""The seat driver's cost: bots playing whole games through ``engine.bots.play`` / ``play_turn``.

Since the one seat driver (``qardlab.engine.seats``), ``play`` and ``play_turn`` ask it what is due at each
step. This prints the CPU time of the same seeded games played by the same bots, per step: Five Sons
(logic bots, ``play``) and Hearts hands (random bots, one ``play_turn`` per step, the loop the deduction
and widget benchmarks use); ``--baseline REF`` plays them on commit ``REF``'s code too, round by round in
one run (``benchmarks/_baseline.py``), and prints the ratio.

    PYTHONPATH=. python benchmarks/driver.py [--rounds 5] [--games 20] [--baseline REF]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def run(games: int) -> dict[str, float]:
    """CPU microseconds per step, by workload."""
    from qardlab.engine import RandomBot, play, play_turn
    from qardlab.games.five_sons import FiveSons
    from qardlab.games.five_sons.bots import ReasoningBot
    from qardlab.games.hearts import Hearts

    out: dict[str, float] = {}
    steps, spent = 0, 0.0
    for s in range(games):
        g = FiveSons.new(4, seed=s)
        bots = [ReasoningBot(s * 10 + i) for i in range(4)]
        c0 = time.process_time()
        play(g, bots)
        spent += time.process_time() - c0
        steps += g.step
    out["five_sons play"] = spent / steps * 1e6
    steps, spent = 0, 0.0
    for s in range(games * 5):
        g = Hearts.new(4, seed=s)
        bots = [RandomBot(s * 10 + i) for i in range(4)]
        c0 = time.process_time()
        while g.phase in ("pass", "play"):  # one hand
            play_turn(g, bots)
        spent += time.process_time() - c0
        steps += g.step
    out["hearts play_turn"] = spent / steps * 1e6
    return out


def main() -> None:
    from _baseline import ROOT, checkout, measure, parser

    ap = parser(__doc__.splitlines()[0], rounds=5, baseline="code plays the same games")
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run(args.games)))
        return
    trees = [("this tree", ROOT)] + ([(args.baseline[:8], checkout(args.baseline))] if args.baseline else [])
    rows: dict[str, dict[str, list[float]]] = {label: {} for label, _ in trees}
    for _ in range(args.rounds):  # alternate: each round runs every tree once
        for label, path in trees:
            for kind, us in measure(path, __file__, "--games", str(args.games)).items():
                rows[label].setdefault(kind, []).append(us)
    print(
        f"CPU us per step, median of {args.rounds} rounds "
        f"({args.games} Five Sons games, {args.games * 5} Hearts hands)"
    )
    for label, kinds in rows.items():
        print(f"  {label}: " + ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in kinds.items()))
    if args.baseline:
        new, old = rows["this tree"], rows[args.baseline[:8]]
        ratios = ", ".join(f"{k} {statistics.median(new[k]) / statistics.median(old[k]):.2f}x" for k in new)
        print(f"  this tree / {args.baseline[:8]}: {ratios}")


if __name__ == "__main__":
    main()

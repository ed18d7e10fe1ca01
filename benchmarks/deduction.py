"""Deduction speed (issue 14) and what each level of reasoning leaves, measured.

Speed (default), on 5-player Five Sons positions from seeded games of random questions
(``--speed-games`` games, seeds 1000.., positions after 0, 5, 10 and 20 questions, every
seat): milliseconds of process CPU time of ``posterior()``, ``grid()`` (its default level,
which computes the logic and the probability levels) and the advisor (``questions()``),
each on a fresh Knowledge with the shared zeta cache emptied (cold: nothing carried over
from another position), in a warm process (imports and one call done first). The same
positions in ask_mode "pass_left" for the advisor there. Median, p95 (nearest rank) and
worst; the peak extra memory of one call (tracemalloc, numpy's arrays included); and the
first ``posterior()`` in a fresh process, five questions into each game (imports done,
warm-up included), CPU and wall time.

Every figure is measured twice in the same run on the same positions (serialised once):
for this checkout and for the code at commit 5085d92 (before issue 14), each in a
subprocess, the old one from ``git archive 5085d92 qardlab`` in a temporary folder; the
table prints both and new/old. Old "pass_left" advice counted the first answer only (a
lower bound); the new one is exact, a different and larger computation. The brute force
(tests/deduction/deduction_brute.py) is timed on small decks where it is feasible (5
players, 6 face and 5 number cards) against the same calls, and estimated for a full
5-player opening. Then the Hearts grid at every trick of seeded hands (3 to 6 players).
BLAS is held to one thread.

Levels (``--games N``): from N seeded 4-player games of random questions, the candidates
left after 10, 20 and 40 questions at each level (naive, logic, effective = 2^entropy),
medians over seats; and the median number of questions a game takes when every seat
plays one level's bot (RandomAsker: naive claims; ReasoningBot: logic; ProbabilityBot).

    python benchmarks/deduction.py [--speed-games 8] [--reference 5085d92] [--games 200]
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
#: the checkout measured: this one, or (in a worker) the folder named by QARDLAB_BENCH_ROOT
CODE = Path(os.environ.get("QARDLAB_BENCH_ROOT", ROOT))
sys.path.insert(0, str(CODE))
sys.path.insert(1, str(ROOT / "tests" / "deduction"))

from qardlab.cards import Card  # noqa: E402
from qardlab.deduction import Fact, Knowledge  # noqa: E402
from qardlab.engine import play, play_turn  # noqa: E402
from qardlab.games.five_sons import FiveSons  # noqa: E402
from qardlab.games.five_sons.bots import RandomAsker, ReasoningBot  # noqa: E402
from qardlab.games.five_sons.probability_bot import ProbabilityBot  # noqa: E402

clock = time.process_time
REFERENCE = "5085d92"
MARKS = (0, 5, 10, 20)


def fresh(k: Knowledge) -> Knowledge:
    """A copy with no cached results, and the shared caches (zeta transforms, results by value) emptied."""
    # not at import: a first call in a fresh process imports them
    from qardlab.deduction import knowledge, solve

    solve._ZETA_CACHE.clear()
    if hasattr(k, "replace"):  # a Knowledge value (this checkout)
        knowledge.clear_results()
        return k.replace()
    return Knowledge(k.seat, k.cards, k.holders, dict(k.sizes), k.game, k.names, list(k.facts), dict(k.extra))


# -- positions, serialised so that both checkouts measure exactly the same ones ----------
def to_json(k: Knowledge) -> dict:
    return {
        "seat": k.seat,
        "cards": [c.code for c in k.cards],
        "holders": list(k.holders),
        "sizes": [[h, k.sizes[h]] for h in k.holders],
        "game": k.game,
        "names": [[h, k.names[h]] for h in k.names],
        "extra": dict(k.extra),
        "facts": [
            {
                "kind": f.kind,
                "holder": f.holder,
                "cards": [c.code for c in f.cards],
                "count": f.count,
                "step": f.step,
                "text": f.text,
            }
            for f in k.facts
        ],
        "secret": _spec_json(getattr(k, "secret", None)),
        "words": [
            [h, [w.name, w.subject, w.holds, w.holds_not, w.refuted]]
            for h, w in getattr(k, "words", {}).items()
        ],
    }


def _spec_json(spec) -> dict | None:
    if spec is None:
        return None
    q = spec.questions
    return {
        "groups": [[c.code for c in g] for g in spec.groups],
        "picks": list(spec.picks),
        "holder": spec.holder,
        "kinds": list(spec.kinds),
        "questions": None if q is None else [q.mode, q.event, sorted(q.quiet)],
    }


def new_fields(d: dict) -> dict:
    """The keyword arguments of a Knowledge beyond the eight fields every checkout has (secret, words)."""
    try:
        from qardlab.deduction.facts import PlaceWords, QuestionModel, SecretSpec
    except ImportError:  # a checkout from before the SecretSpec: its secret is read from the facts
        return {}
    sp = d.get("secret")
    spec = (
        None
        if sp is None
        else SecretSpec(
            groups=tuple(tuple(Card.parse(c) for c in g) for g in sp["groups"]),
            picks=tuple(sp["picks"]),
            holder=sp["holder"],
            kinds=tuple(sp["kinds"]),
            questions=None
            if sp["questions"] is None
            else QuestionModel(
                mode=sp["questions"][0], event=sp["questions"][1], quiet=frozenset(sp["questions"][2])
            ),
        )
    )
    return {"secret": spec, "words": {h: PlaceWords(*w) for h, w in d.get("words", [])}}


def from_json(d: dict) -> Knowledge:
    facts = [
        Fact(
            f["kind"],
            f["holder"],
            tuple(Card.parse(c) for c in f["cards"]),
            None,
            f["count"],
            f["step"],
            f["text"],
        )
        for f in d["facts"]
    ]
    return Knowledge(
        d["seat"],
        tuple(Card.parse(c) for c in d["cards"]),
        tuple(d["holders"]),
        {h: n for h, n in d["sizes"]},
        d["game"],
        {h: n for h, n in d["names"]},
        facts,
        dict(d["extra"]),
        **new_fields(d),
    )


def game_positions(players: int, games: int, mode: str = "chosen") -> list[Knowledge]:
    """Every seat's knowledge after 0, 5, 10 and 20 questions of seeded random games."""
    out = []
    for seed in range(games):
        g = FiveSons.new(players=players, seed=1000 + seed, ask_mode=mode)
        bots = [RandomAsker(seed * 11 + i) for i in range(players)]
        for m in MARKS:
            while not g.is_over and not (g.turn >= m and g.phase == "ask"):
                play_turn(g, bots)
            if g.is_over:
                break
            out.extend(g.knowledge(seat) for seat in range(players))
    return out


def small_positions(count: int) -> list[Knowledge]:
    """Positions small enough for the brute force: 5 players, 6 face and 5 number cards."""
    from deduction_brute import mini_game

    rng = random.Random(14)
    out = []
    for i in range(count):
        mode = "pass_left" if i % 2 else "chosen"
        game = mini_game(rng, 5, 6, 5, rng.randrange(1, 6), claim_rate=0.05, ask_mode=mode)
        out.append(game.knowledge[rng.randrange(5)])
    return out


# -- measuring (in a worker: this checkout or the reference) ------------------------------
def _times(ks: list[Knowledge], call) -> list[float]:
    out = []
    for k in ks:
        kk = fresh(k)
        t = clock()
        call(kk)
        out.append((clock() - t) * 1000.0)
    return out


def _peak(ks: list[Knowledge], call) -> float:
    """The largest extra memory (MiB) one call allocated at its peak, over ``ks``."""
    import tracemalloc

    worst = 0
    tracemalloc.start()
    try:
        for k in ks:
            kk = fresh(k)
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            call(kk)
            worst = max(worst, tracemalloc.get_traced_memory()[1] - base)
    finally:
        tracemalloc.stop()
    return worst / 2**20


CALLS = {
    "posterior": lambda k: k.posterior(),
    "grid": lambda k: k.grid(),
    "advisor": lambda k: k.questions(),
}


def worker(spec_path: str) -> None:
    """Measure every call on the serialised positions; print the figures as JSON."""
    from qardlab.deduction.pair_advisor import single_thread

    spec = json.loads(Path(spec_path).read_text())
    sets = {name: [from_json(d) for d in spec[name]] for name in ("chosen", "pass_left", "small")}
    out: dict = {}
    with single_thread():
        for call in CALLS.values():  # warm: one call of each first
            call(fresh(sets["chosen"][1]))
        for name, call in CALLS.items():
            out[name] = _times(sets["chosen"], call)
            out[name + " MiB"] = _peak(sets["chosen"][::4], call)
        out["advisor pass_left"] = _times(sets["pass_left"], CALLS["advisor"])
        out["advisor pass_left MiB"] = _peak(sets["pass_left"][::4], CALLS["advisor"])
        for name in ("posterior", "grid"):
            out["small " + name] = _times(sets["small"], CALLS[name])
    import qardlab

    out["package"] = qardlab.__file__
    print(json.dumps(out))


def first_positions(games: int) -> list[Knowledge]:
    """The seat to ask, five questions into each seeded game."""
    out = []
    for seed in range(games):
        g = FiveSons.new(players=5, seed=1000 + seed)
        bots = [RandomAsker(seed * 11 + i) for i in range(5)]
        while not (g.turn >= 5 and g.phase == "ask"):
            play_turn(g, bots)
        out.append(g.knowledge(g.to_move))
    return out


#: run as ``python -c`` in a fresh process (this module imports qardlab, so it cannot be the one
#: timed): import the game and deduction packages (timed: ``import``), then the first
#: posterior() of one serialised position, every warm-up (and any import it does) included
FIRST_CALL = (
    """
import json, sys, time
cpu = time.process_time()
import qardlab.deduction
import qardlab.games.five_sons
from qardlab.cards import Card
from qardlab.deduction import Fact, Knowledge
imported = (time.process_time() - cpu) * 1000.0
d = json.load(open(sys.argv[1]))["first"][int(sys.argv[2])]
facts = [Fact(f["kind"], f["holder"], tuple(Card.parse(c) for c in f["cards"]), None, f["count"], f["step"],
              f["text"]) for f in d["facts"]]
"""
    + inspect.getsource(new_fields)
    + """
k = Knowledge(d["seat"], tuple(Card.parse(c) for c in d["cards"]), tuple(d["holders"]), dict(d["sizes"]),
              d["game"], dict(d["names"]), facts, dict(d["extra"]), **new_fields(d))
wall, cpu = time.perf_counter(), time.process_time()
k.posterior()
print(json.dumps({"cpu": (time.process_time() - cpu) * 1000.0, "wall": (time.perf_counter() - wall) * 1000.0,
                  "import": imported}))
"""
)


def _first_call(code: Path, spec_path: Path, i: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(code))
    res = subprocess.run(
        [sys.executable, "-c", FIRST_CALL, str(spec_path), str(i)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=str(code),
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def _run(code: Path, *args: str) -> dict:
    env = dict(os.environ, QARDLAB_BENCH_ROOT=str(code), PYTHONPATH=str(code))
    res = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def _reference(commit: str, into: Path) -> Path:
    """The qardlab package at ``commit``, unpacked into ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "qardlab"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[max(0, math.ceil(q * len(xs)) - 1)]


def speed(games: int, commit: str) -> None:
    import deduction_brute as brute

    chosen = game_positions(5, games)
    spec = {
        "chosen": [to_json(k) for k in chosen],
        "pass_left": [to_json(k) for k in game_positions(5, games, "pass_left")],
        "small": [to_json(k) for k in small_positions(12)],
        "first": [to_json(k) for k in first_positions(games)],
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "positions.json"
        path.write_text(json.dumps(spec))
        ref = _reference(commit, Path(tmp) / "ref")
        results = {}
        for label, code in (("old", ref), ("new", CODE)):
            results[label] = _run(code, "--worker", str(path))
            if not results[label]["package"].startswith(str(code)):  # pragma: no cover - a setup error
                raise RuntimeError(f"the {label} worker imported {results[label]['package']}, not {code}")
            firsts = [_first_call(code, path, i) for i in range(games)]
            results[label]["first cpu"] = [f["cpu"] for f in firsts]
            results[label]["first wall"] = [f["wall"] for f in firsts]
            results[label]["import + first"] = [f["import"] + f["cpu"] for f in firsts]
    old, new = results["old"], results["new"]
    print(
        f"Five Sons, 5 players: {len(spec['chosen'])} positions ({games} games x after {MARKS} questions "
        f"x every seat), ms of CPU, cold (zeta cache emptied), warm process; old = {commit}, new = this "
        "checkout, same positions, same run"
    )
    print(f"{'call':<24} {'':>6} {'median':>8} {'p95':>8} {'worst':>8} {'peak MiB':>9}   target")
    targets = {
        "posterior": "p95 <= 10, worst <= 25",
        "grid": "p95 <= 30",
        "advisor": "",
        "advisor pass_left": "p95 <= 60 (exact now)",
        "first cpu": "<= 50",
        "first wall": "",
        "import + first": "",
    }
    names = ("posterior", "grid", "advisor", "advisor pass_left", "first cpu", "first wall", "import + first")
    for name in names:
        label = {
            "first cpu": "first posterior (CPU)",
            "first wall": "first posterior (wall)",
            "import + first": "import + first (CPU)",
        }.get(name, name)
        for tag, res in (("old", old), ("new", new)):
            xs = res[name]
            mem = res.get(name + " MiB")
            m = f"{mem:9.1f}" if mem is not None else f"{'':>9}"
            print(
                f"{label if tag == 'old' else '':<24} {tag:>6} {statistics.median(xs):8.1f} "
                f"{pct(xs, 0.95):8.1f} {max(xs):8.1f} {m}   {targets[name] if tag == 'new' else ''}"
            )
        a, b = new[name], old[name]
        r = [statistics.median(a) / statistics.median(b), pct(a, 0.95) / pct(b, 0.95), max(a) / max(b)]
        print(f"{'':<24} {'new/old':>6} {r[0]:7.2f}x {r[1]:7.2f}x {r[2]:7.2f}x")
    # brute force on small decks, against the same calls
    small = [from_json(d) for d in spec["small"]]
    tb = [timed(lambda k=k: brute.posterior(k, brute.deals(k)))[0] for k in small]
    print(
        f"\nBrute force on {len(small)} small positions (5 players, 6 face + 5 number cards): median "
        f"{statistics.median(tb):.0f} ms a position (enumerating the deals)"
    )
    for name in ("posterior", "grid"):
        for tag, res in (("old", old), ("new", new)):
            ratio = statistics.median(b / max(x, 1e-3) for b, x in zip(tb, res["small " + name]))
            print(
                f"  {name:<10} {tag}: median {statistics.median(res['small ' + name]):6.2f} ms, "
                f"brute force / this = {ratio:,.0f}x (median over positions)"
            )
    per_deal = statistics.median(t * 1000.0 / max(1, raw_deals(k)) for t, k in zip(tb, small))
    k0 = chosen[0]
    n = raw_deals(k0)
    print(
        f"  a full 5-player opening: {n:,} deals x {per_deal:.1f} us = {n * per_deal / 1e6 / 3600:,.0f} h "
        f"(estimated) against a posterior() of {new['posterior'][0]:.1f} ms"
    )
    hearts_speed()


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
    print(
        f"\nCandidates left after N questions, random questions, 4 players, {games} games "
        "(median over games and seats: naive / logic / effective)"
    )
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
        print(
            f"  after {m:>2} questions ({len(xs):>4} seat-positions): "
            f"naive {med[0]:5.1f}  logic {med[1]:5.1f}  effective {med[2]:5.1f}"
        )
    print(f"\nQuestions until someone wins, every seat one level's bot, 4 players, {games} games (median)")
    for name, make in (
        ("naive (RandomAsker)", RandomAsker),
        ("logic (ReasoningBot)", ReasoningBot),
        ("probability (ProbabilityBot)", ProbabilityBot),
    ):
        turns, won = [], 0
        for seed in range(games):
            g = FiveSons.new(players=4, seed=7000 + seed)
            play(g, [make(seed * 17 + i) for i in range(4)])
            turns.append(g.turn)
            won += g.winner is not None
        print(f"  {name:<28} median {statistics.median(turns):6.1f} questions (a winner in {won}/{games})")
    solo(games)


def solo(games: int) -> None:
    """One bot of a level at seat 0 against three RandomAskers: its wins, and its own questions."""
    print(
        "\nThe bot at seat 0 against three RandomAskers, 4 players "
        "(median over its wins: questions in the game / its own questions)"
    )
    for name, make in (
        ("logic (ReasoningBot)", ReasoningBot),
        ("probability (ProbabilityBot)", ProbabilityBot),
    ):
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
    ap.add_argument("--speed-games", type=int, default=8, help="seeded games the positions come from")
    ap.add_argument("--reference", default=REFERENCE, help="the commit measured as today's code")
    ap.add_argument("--games", type=int, default=0, help="also the levels report over this many games")
    ap.add_argument("--no-speed", action="store_true", help="skip the timings")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker)
    from qardlab.deduction.pair_advisor import single_thread

    with single_thread():
        if not args.no_speed:
            speed(args.speed_games, args.reference)
        if args.games:
            levels(args.games)


if __name__ == "__main__":
    random.seed(0)
    main()

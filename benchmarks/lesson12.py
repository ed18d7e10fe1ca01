"""Lesson 12 (Hearts experiments) cell by cell in this process: what Run All waits for in the kernel.

Runs the code cells of ``notebooks/12-hearts-experiments.ipynb`` in order in one namespace (matplotlib's
Agg backend, widgets built without a front end, IPython's ``display`` printing nothing), timing each cell
(wall and CPU); prints the cells that take over 20 ms, the sum, and the text the experiments print (so a
change of results shows). Joblib's workers are not started beforehand: the tournament cell pays for them
if it starts them, as in a fresh kernel.

``--baseline REF`` runs the notebook and the ``qardlab`` package of commit ``REF`` the same way in a child
process, round by round with today's, so both figures come from the same run on the same machine (the
browser's Run All, with rendering, is ``benchmarks/browser.py --only lessons --lesson 12``).

    PYTHONPATH=. python benchmarks/lesson12.py [--rounds 3] [--baseline REF]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/12-hearts-experiments.ipynb"


def cell_times(notebook: Path) -> tuple[list[dict], str]:
    """Each code cell's (index, first line, wall ms, CPU ms), and everything the cells printed."""
    import matplotlib

    matplotlib.use("Agg")
    cells = json.loads(notebook.read_text())["cells"]
    namespace: dict = {"__name__": "__lesson__"}
    out = io.StringIO()
    times = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        code = "\n".join(line for line in source.splitlines() if not line.startswith("%"))
        wall, cpu = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"<cell {i}>", "exec"), namespace)
        times.append(
            {
                "cell": i,
                "line": source.splitlines()[0][:50] if source else "",
                "wall": (time.perf_counter() - wall) * 1e3,
                "cpu": (time.process_time() - cpu) * 1e3,
            }
        )
    return times, out.getvalue()


def child(args: argparse.Namespace) -> None:
    """The baseline's figures (run with the old qardlab first on sys.path, on the old notebook)."""
    times, printed = cell_times(Path(args.notebook))
    print(json.dumps({"times": times, "printed": printed}))


def baseline(ref: str, rounds: int) -> list[dict]:
    """``rounds`` runs of REF's notebook on REF's package, each in a fresh child process."""
    from _baseline import checkout

    tree = checkout(ref)
    nb = Path(tempfile.mkdtemp(prefix="qardlab-lesson12-")) / "lesson.ipynb"
    nb.write_text(
        subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{ref}:{NOTEBOOK}"], check=True, capture_output=True, text=True
        ).stdout
    )
    env = dict(os.environ, PYTHONPATH=str(tree), QARDLAB_BASELINE="1")
    out = []
    for _ in range(rounds):
        run = subprocess.run(
            [sys.executable, __file__, "--child", "--notebook", str(nb)],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            cwd=str(tree),
        ).stdout
        out.append(json.loads(run.strip().splitlines()[-1]))
    return out


def main() -> None:
    from _baseline import parser

    ap = parser(__doc__.splitlines()[0], rounds=3, baseline="notebook and code are measured")
    ap.add_argument("--notebook", default=str(ROOT / NOTEBOOK), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    runs, base = [], []
    for _ in range(args.rounds):  # each round in a fresh process: a first run, as in a fresh kernel
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        run = subprocess.run(
            [sys.executable, __file__, "--child", "--notebook", str(ROOT / NOTEBOOK)],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            cwd=str(ROOT),
        ).stdout
        runs.append(json.loads(run.strip().splitlines()[-1]))
        if args.baseline:
            base.extend(baseline(args.baseline, 1))

    def medians(rs: list[dict]) -> dict[int, tuple[str, float, float]]:
        cells = {t["cell"]: t["line"] for t in rs[0]["times"]}
        return {
            c: (
                line,
                statistics.median(t["wall"] for r in rs for t in r["times"] if t["cell"] == c),
                statistics.median(t["cpu"] for r in rs for t in r["times"] if t["cell"] == c),
            )
            for c, line in cells.items()
        }

    now = medians(runs)
    old = medians(base) if base else {}
    print(
        f"Lesson 12, code cells in one process (ms, median of {args.rounds} fresh processes; "
        "cells over 20 ms)"
    )
    head = f"  {'cell':4s} {'first line':50s} {'wall':>7s} {'cpu':>7s}"
    print(head + (f" {'base wall':>10s} {'base cpu':>9s}" if old else ""))
    for c, (line, wall, cpu) in now.items():
        b = old.get(c)
        if wall < 20 and (b is None or b[1] < 20):
            continue
        extra = f" {b[1]:10.0f} {b[2]:9.0f}" if b else ""
        print(f"  {c:4d} {line:50s} {wall:7.0f} {cpu:7.0f}{extra}")
    total = sum(w for _, w, _ in now.values())
    line = f"  {'sum':4s} {'':50s} {total:7.0f} {sum(c for *_, c in now.values()):7.0f}"
    if old:
        line += f" {sum(w for _, w, _ in old.values()):10.0f} {sum(c for *_, c in old.values()):9.0f}"
    print(line)
    if base:
        same = all(r["printed"] == base[0]["printed"] for r in runs + base)
        print(f"  the experiments print the same text as {args.baseline[:12]}: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # (_baseline, beside this script)
    main()

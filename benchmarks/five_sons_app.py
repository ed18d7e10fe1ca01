"""The Five Sons app's clicks on the kernel side: what ``benchmarks/browser.py`` clicks, without a browser.

The app (``FiveSonsApp``, seed 1, 4 players, the strongest bots at pace "at once", charts on) is driven
through its own widgets the way a click drives them (``Button.click()``: the handler, the bots' replies,
the one redraw): the builder's question, "no claim" after the player's own question (auto-pass is on),
a card to show, and after four "no claim" clicks the wrong claim the browser benchmark makes (a face
card of the player's own hand with A♥, so the player is out and the bots finish the game). Each click's
CPU time (``time.process_time``: other jobs on a shared machine distort it less than wall time) is
printed, median over the rounds, by kind; ``--baseline REF`` plays the same clicks on commit ``REF``'s
code in a child process, round by round with this tree's, so both columns come from one run. Widget
messages are built but not sent (no kernel): what the browser then does is ``browser.py``'s part.

    PYTHONPATH=. python benchmarks/five_sons_app.py [--rounds 5] [--seed 1] [--baseline REF]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def _shown(w: Any) -> bool:
    return w.layout.display != "none"


def play(seed: int, claim_after: int = 4) -> list[tuple[str, float]]:
    """One game of the app by clicking: (kind, CPU ms) per click."""
    from qardlab.widgets import five_sons_app

    app = five_sons_app(seed=seed)
    t = app.table
    out: list[tuple[str, float]] = []
    no_claims = 0
    for _ in range(80):
        obs = t.observation(0)
        if obs["is_over"]:
            break
        claim_row = (
            _shown(t.controls)
            and _shown(t.claim_row)
            and _shown(t.no_claim_button)
            and t.no_claim_button.description == "No claim"
        )
        if claim_row and no_claims >= claim_after and "wrong claim" not in {k for k, _ in out}:
            faces = sorted(c for c in obs["hand"] if c[0] in "JQK")
            numbers = sorted(c for c in obs["hand"] if c[1] == "H" and c[0] in "A23456789T")
            t.claim_face.value, t.claim_number.value = (faces[0], "AH") if faces else ("JC", numbers[0])
            if hasattr(t, "confirm_button"):  # (a claim asks once to confirm: the click that makes it)
                t.claim_button.click()
                kind, button = "wrong claim", t.confirm_button
            else:  # (older code: the claim button made it)
                kind, button = "wrong claim", t.claim_button
        elif claim_row:
            kind, button = "no claim", t.no_claim_button
            no_claims += 1
        elif _shown(t.controls) and _shown(t.ask_row):
            kind, button = "ask", t.ask_button
        elif obs["phase"] == "answer" and t.human_to_act() and _shown(getattr(t, "answer_row", t.ask_row)):
            kind, button = "neither", t.neither_button  # (every answer is the player's click now)
        elif obs["phase"] == "answer" and t.human_to_act():
            kind = "show"
            button = next(c for c in t.hands[0].children if "qard-illegal" not in c._dom_classes)
        else:
            raise RuntimeError(f"nothing to click at step {obs['step']} ({obs['phase']})")
        c0 = time.process_time()
        button.click()
        out.append((kind, (time.process_time() - c0) * 1000))
    for other in (100, 101):  # then New deal, with another seed each time (as browser.py does)
        app.seed.value = seed + other
        c0 = time.process_time()
        app.new_button.click()
        out.append(("new deal", (time.process_time() - c0) * 1000))
    return out


def main() -> None:
    from _baseline import ROOT, checkout, measure, parser

    ap = parser(__doc__.splitlines()[0], rounds=5, seed=1, baseline="code plays the same clicks")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(play(args.seed)))
        return

    trees = [("this tree", ROOT)] + ([(args.baseline[:8], checkout(args.baseline))] if args.baseline else [])
    runs: dict[str, list[list[tuple[str, float]]]] = {label: [] for label, _ in trees}
    script = str(Path(__file__).resolve())
    for _ in range(args.rounds):
        for label, path in trees:
            runs[label].append([tuple(x) for x in measure(path, script, "--seed", str(args.seed))])
    print(f"Five Sons app, seed {args.seed}, kernel-side CPU ms per click, median of {args.rounds} rounds")
    for label, games in runs.items():
        kinds = [k for k, _ in games[0]]
        if any([k for k, _ in g] != kinds for g in games):
            sys.exit(f"{label}: the rounds clicked differently (the game is seeded: a bug)")
        per = [statistics.median(g[i][1] for g in games) for i in range(len(kinds))]
        by: dict[str, list[float]] = {}
        for k, v in zip(kinds, per):
            by.setdefault(k, []).append(v)
        print(
            f"  {label}: "
            + ", ".join(f"{k} {' / '.join(f'{v:.0f}' for v in vs)}" for k, vs in by.items())
            + f"; the game's {sum(k != 'new deal' for k in kinds)} clicks "
            f"{sum(v for k, v in zip(kinds, per) if k != 'new deal'):.0f}"
        )


if __name__ == "__main__":
    main()

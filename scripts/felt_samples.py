"""Draw the felts of both games (3 to 6 players, several moments, several viewers) into one HTML page
and screenshot it in headless Chromium at a desk's and a projector's size.

    python scripts/felt_samples.py [--out artifacts/felt]

Writes ``felt-samples.html`` and ``felt-<width>x<height>-<n>.png`` (one screenshot per sample) under
``--out``. The felts are :mod:`qardlab.widgets.felt`'s, from the engine's ``observation_json``.
"""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qardlab.cards import Card  # noqa: E402
from qardlab.engine import part_of  # noqa: E402
from qardlab.games.five_sons import Claim, FiveSons  # noqa: E402
from qardlab.games.five_sons.bots import ReasoningBot  # noqa: E402
from qardlab.games.hearts import Hearts  # noqa: E402
from qardlab.games.hearts.bots import RuleBot  # noqa: E402
from qardlab.widgets.cards import cards_html  # noqa: E402
from qardlab.widgets.felt import FELT_CSS, five_sons_felt, hearts_felt, log_html  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _obs(g: Any, seat: Any) -> dict:
    """``observation_json`` with the table fields a newer engine adds (scoring cards, shown cards)."""
    o = g.observation_json(seat)
    if g.name == "hearts":
        for t in o["tricks"]:
            t.setdefault("scoring", [c for _s, c in t["cards"] if g.scores_points(Card.parse(c))])
    elif "shown" not in o:
        shown: list[list[str]] = [[] for _ in range(g.players)]
        secret = None
        for e in o["events"]:
            card = next((p["card"] for p in (e.get("private") or {}).values() if "card" in p), None)
            if e["kind"] == "answer" and e.get("shown") and card and e["answerer"] != seat:
                if card not in shown[e["answerer"]]:
                    shown[e["answerer"]].append(card)
            secret = e.get("secret") or part_of(e, seat).get("secret") or secret
        o["shown"] = shown
        o["secret"] = o.get("secret") or secret
    return o


def _run(g: Any, bots: list, until: Callable[[Any], bool]) -> Any:
    while not g.is_over and not until(g):
        if g.to_move is None or g.to_move < 0:
            g.play(g.chance_outcome())
            continue
        g.apply(bots[g.to_move].act(g.observation(g.to_move)))  # one step: a forced answer is one too
    return g


def samples() -> list[tuple[str, str]]:
    """(caption, HTML) of each sample felt."""
    out = []
    for n in (3, 4, 5, 6):
        g = Hearts.new(n, seed=7)
        bots = [RuleBot(s) for s in range(n)]
        _run(
            g,
            bots,
            lambda g, n=n: (
                g.phase == "play"
                and len(g.observation(0)["tricks"]) == 3
                and len(g.observation(0)["trick"]) == n - 1
            ),
        )
        o = _obs(g, 0)
        hand = cards_html([Card.parse(c) for c in o["hand"]])
        out.append(
            (
                f"Hearts {n} players, Alice's view, trick 4 nearly full",
                hearts_felt(o, human=0) + f"<div class='hand-strip'>{hand}</div>",
            )
        )
    g = Hearts.new(4, seed=7)
    strip = cards_html([Card.parse(c) for c in g.observation_json(0)["hand"]])
    out.append(
        (
            "Hearts 4 players, the pass (Alice to pass)",
            hearts_felt(_obs(g, 0), human=0) + f"<div class='hand-strip'>{strip}</div>",
        )
    )
    g = Hearts.new(4, seed=7)
    _run(g, [RuleBot(s) for s in range(4)], lambda g: g.phase == "hand_over")
    out.append(("Hearts 4 players, hand over, Alice's view", hearts_felt(_obs(g, 0), human=0)))
    g = Hearts.new(5, seed=3)
    _run(
        g,
        [RuleBot(s) for s in range(5)],
        lambda g: (
            g.phase == "play" and len(g.observation(0)["tricks"]) == 5 and not g.observation(0)["trick"]
        ),
    )
    out.append(
        (
            "Hearts 5 players, teacher's view, between tricks",
            hearts_felt(_obs(g, None), human=0, viewer_hand=True),
        )
    )
    for n in (4, 5):
        g = FiveSons.new(n, seed=7)
        bots = [ReasoningBot(s) for s in range(n)]
        _run(g, bots, lambda g: g.step >= 40 and g.phase == "answer")
        o = _obs(g, 0)
        hand = cards_html([Card.parse(c) for c in o["hand"]])
        out.append(
            (
                f"Five Sons {n} players, Alice's view, an answer due",
                five_sons_felt(o, human=0) + f"<div class='hand-strip'>{hand}</div>",
            )
        )
    g = FiveSons.new(4, seed=7)
    _run(g, [ReasoningBot(s) for s in range(4)], lambda g: False)
    o = _obs(g, 0)
    out.append(("Five Sons 4 players, game over, Alice's view", five_sons_felt(o, human=0, viewer_hand=True)))
    lines = [g.describe(e, 0) for e in g.events if e.visible_to(0)]
    log = log_html(lines, [g.seat_name(s) for s in range(4)], limit=12)
    out.append(("Five Sons log, newest first, folded", f"<div class='log'>{log}</div>"))
    g = FiveSons.new(4, seed=7)
    bots = [ReasoningBot(s) for s in range(4)]
    _run(g, bots, lambda g: g.phase == "claim" and g.to_move == 0 and g.step > 20)
    g.apply(Claim("KS", "AH"))
    _run(g, bots, lambda g: g.phase == "ask")
    out.append(("Five Sons 4 players, Alice's wrong claim", five_sons_felt(_obs(g, 0), human=0)))
    g = FiveSons.new(5, seed=11)
    _run(g, [ReasoningBot(s) for s in range(5)], lambda g: g.step >= 30 and g.phase == "claim")
    out.append(
        ("Five Sons 5 players, teacher's view", five_sons_felt(_obs(g, None), human=0, viewer_hand=True))
    )
    h = Hearts.new(4, seed=7)
    _run(h, [RuleBot(s) for s in range(4)], lambda g: g.phase == "play")
    lines = [h.describe(e, 0) for e in h.events if e.visible_to(0)]
    log = log_html(lines, [h.seat_name(s) for s in range(4)])
    out.append(("Hearts log after the pass", f"<div class='log'>{log}</div>"))
    return out


def page(items: list[tuple[str, str]]) -> str:
    body = "".join(f"<section><h3>{html.escape(c)}</h3>{h}</section>" for c, h in items)
    return (
        f"<!doctype html><html><head><meta charset='utf-8'>{FELT_CSS}<style>"
        "body{font-family:'DejaVu Sans',sans-serif;font-size:14px;margin:8px}"
        "section{margin:0 0 24px 0} .hand-strip{background:#2e7d4f;max-width:100%;width:60em;"
        "margin:0 auto;padding:6px;box-sizing:border-box;text-align:center}"
        ".log{width:40em;border:1px solid #ddd;padding:4px}</style></head>"
        f"<body>{body}</body></html>"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "felt")
    parser.add_argument("--no-shots", action="store_true")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    items = samples()
    path = args.out / "felt-samples.html"
    path.write_text(page(items), encoding="utf-8")
    print(path)
    if args.no_shots:
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
        for w, h in ((1280, 900), (1024, 768)):
            ctx = browser.new_context(viewport={"width": w, "height": h})
            ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
            pg = ctx.new_page()
            errors: list[str] = []
            pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            pg.goto(path.as_uri())
            for i, sec in enumerate(pg.locator("section").all()):
                shot = args.out / f"felt-{w}x{h}-{i}.png"
                sec.screenshot(path=str(shot))
            print(f"{w}x{h}: {i + 1} shots, errors {errors}")
            ctx.close()
        browser.close()


if __name__ == "__main__":
    main()

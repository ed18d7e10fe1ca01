"""Every felt laid out by Chromium at the widths a class meets (issue 29): no seat off the felt, nothing cut
by its box, no piece of the felt on another, no type under 12 px.

A page holds the felts of both games for every number of players, in the teacher's view (every hand face
up) and a seat's, at the moments that fill a seat most (a trick in play, the pass, the hand over, a seat
that took every point with three-digit scores, a game won with the verdicts said), each in a box as wide
as a notebook's output area at 1280 x 900 (848 px) and at 1024 x 768 with JupyterLab's file browser open
(592 px), and as a side-by-side column (420 and 300 px: the felt laid out flat). The page is plain HTML
with the package's one style sheet, at JupyterLab's 13 px: no server, so every layout is checked in a
second. The lessons and apps themselves are checked in JupyterLab and Voila by test_browser_lessons.py and
test_browser_apps.py with the same :func:`browser_harness.layout_faults`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_harness import MIN_TEXT_PX, SCREENSHOTS, layout_faults

from qardlab.games.five_sons import Claim, FiveSons
from qardlab.games.five_sons.bots import ReasoningBot
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot
from qardlab.render import style
from qardlab.render.markup import el, to_html
from qardlab.widgets import felt

pytestmark = pytest.mark.browser

#: a notebook's output area at 1280 x 900 and at 1024 x 768 with the file browser open; two side-by-side
#: columns
WIDTHS = (848, 592, 420, 300)


def _play(g: Any, until: Callable[[Any], bool]) -> Any:
    bots = [(RuleBot if g.name == "hearts" else ReasoningBot)(s) for s in range(g.players)]
    while not g.is_over and not until(g):
        forced = g.forced_action() if g.name == "five_sons" else None
        g.apply(forced if forced is not None else bots[g.to_move].act(g.observation(g.to_move)))
    return g


def _wrong_claim_game(n: int) -> Any:
    """A Five Sons game in which seat 0 claims a wrong pair at its first chance (its verdict, the longest
    words its box holds), then the bots play on to the end."""
    g = FiveSons.new(n, seed=7)
    bots = [ReasoningBot(s) for s in range(n)]
    claimed = False
    while not g.is_over:
        if g.phase == "claim" and g.to_move == 0 and not claimed:
            secret = {c.code for c in g.secret}
            face = next(c.code for c in g.hand(1) if c.code[0] in "JQK" and c.code not in secret)
            g.apply(Claim(face, "AH" if "AH" not in secret else "2H"))
            claimed = True
            continue
        forced = g.forced_action()
        g.apply(forced if forced is not None else bots[g.to_move].act(g.observation(g.to_move)))
    return g


def _moon(n: int) -> dict:
    """A Hearts hand over in which one seat took every point, with three-digit scores: the longest taken
    cards and counts a seat box holds."""
    g = _play(Hearts.new(n, seed=7), lambda g: g.phase == "hand_over")
    o = g.observation_json(None)
    for t in o["tricks"]:
        t["winner"] = 1
        t["scoring"] = [c for _s, c in t["cards"] if c[1] == "H" or c == "QS"]
    o["points_taken"] = [0, 26] + [0] * (n - 2)
    o["scores"] = [126, 100, 98, 104, 111, 99][:n]
    return o


def felts() -> list[tuple[str, str]]:
    """(name, felt HTML) of every case."""
    out = []
    for n in FiveSons.player_counts():
        g = _play(FiveSons.new(n, seed=7), lambda g: g.step >= 30 and g.phase == "answer")
        for seat in (None, 0, 1):
            out.append(
                (f"five-sons-{n}-answer-{seat}", felt.five_sons_felt(g.observation_json(seat), human=0))
            )
        g = _wrong_claim_game(n)
        for seat in (None, 0, 1):
            out.append((f"five-sons-{n}-over-{seat}", felt.five_sons_felt(g.observation_json(seat), human=0)))
    for n in Hearts.player_counts():
        g = Hearts.new(n, seed=7)
        out.append((f"hearts-{n}-pass-0", felt.hearts_felt(g.observation_json(0), human=0)))
        g = _play(
            Hearts.new(n, seed=7),
            lambda g, n=n: g.phase == "play" and len(g.observation(0)["trick"]) == n - 1,
        )
        for seat in (None, 0):
            out.append((f"hearts-{n}-trick-{seat}", felt.hearts_felt(g.observation_json(seat), human=0)))
        g = _play(Hearts.new(n, seed=7), lambda g: g.phase == "hand_over")
        out.append((f"hearts-{n}-over-None", felt.hearts_felt(g.observation_json(None), human=0)))
        out.append((f"hearts-{n}-moon-None", felt.hearts_felt(_moon(n), human=0)))
    return out


@pytest.fixture(scope="module")
def felt_page(browser: Any) -> Any:
    """One page with every felt at every width, at JupyterLab's 13 px."""
    cases = felts()
    body = [
        el(
            "div",
            el("div", cls="qard-case-felt"),  # (the felt's HTML goes here)
            id=f"{name}-{w}",
            cls="qard-case",
            style={"width": f"{w}px", "margin": "8px 0"},
        )
        for name, _html in cases
        for w in WIDTHS
    ]
    page = browser.new_page(viewport={"width": max(WIDTHS) + 40, "height": 900})
    page.set_content(
        "<html><body style='font-size:13px;font-family:sans-serif'>"
        + style.STYLESHEET
        + "".join(to_html(b) for b in body)
        + "</body></html>"
    )
    for name, html in cases:  # the package's own markup, as a table's HTML widget shows it
        page.evaluate(
            "([name, html]) => document.querySelectorAll(`[id^='${name}-'] .qard-case-felt`)"
            ".forEach((e) => { e.innerHTML = html; })",
            [name, html],
        )
    page.cases = [name for name, _ in cases]
    yield page
    page.close()


def test_every_felt_fits_at_every_width(felt_page: Any) -> None:
    faults = {}
    for name in felt_page.cases:
        for w in WIDTHS:
            found = layout_faults(felt_page, f"#{name}-{w}", MIN_TEXT_PX)
            if found:
                faults[f"{name} at {w} px"] = found[:4]
    if faults:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        felt_page.screenshot(path=str(SCREENSHOTS / "FAILED-felt-fit.png"), full_page=True)
    assert not faults, "\n".join(f"{k}: {v}" for k, v in faults.items())


def test_the_seats_stand_round_the_felt_down_to_a_narrow_notebook(felt_page: Any) -> None:
    """At 592 px (1024 x 768, the file browser open) the felt is round, not flat: every seat inside it, the
    viewer's at the bottom, and a seat on each side of the middle."""
    for name in ("five-sons-4-answer-None", "hearts-4-trick-None", "hearts-6-trick-0"):
        boxes = felt_page.evaluate(
            """(id) => {
              const ring = document.querySelector(`#${id} .qard-felt-ring`).getBoundingClientRect();
              const box = (s) => { const r = s.getBoundingClientRect();
                                   return [r.left, r.right, r.top, r.bottom, s.matches('.qard-seat-mine')]; };
              return {ring: [ring.left, ring.right, ring.top, ring.bottom],
                      seats: [...document.querySelectorAll(`#${id} .qard-seat`)].map(box)}; }""",
            f"{name}-592",
        )
        left, right, top, bottom = boxes["ring"]
        assert right - left == pytest.approx(592, abs=1), boxes["ring"]
        seats = boxes["seats"]
        assert all(left <= s[0] and s[1] <= right and top <= s[2] and s[3] <= bottom for s in seats), seats
        mine = next(s for s in seats if s[4])
        assert mine[3] == max(s[3] for s in seats)  # the viewer's box lowest
        middle = (left + right) / 2
        assert any(s[1] < middle for s in seats) and any(s[0] > middle for s in seats), seats

"""Lesson 09 run alone: the practice table's seat is played for the student by the table's own buttons (its
forced answers too: a click, as every answer), with a class table's standing orders; then its replay, every
seat side by side."""

from __future__ import annotations

import asyncio
import concurrent.futures

from qardlab.classroom import join
from qardlab.engine import Timeline
from qardlab.lessons.together import LESSON_QUESTION, autoplay, my_replay, practice, questions, record_of
from qardlab.widgets.replay import SideBySide, seat_view_html


def _run(coro):
    # a thread of its own: the browser tests' Playwright keeps an event loop in the main thread
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_autoplay_clicks_every_answer_and_leaves_the_claims_to_the_standing_orders():
    """Nothing is sent for the seat but its clicks: autoplay acts only when the table waits for the seat,
    answers "neither" and a forced card by a click (counted as its moves), and the practice table's standing
    order ("pass on claims unless I claim", a class table's default) passes the seat's claim chances after
    the others' questions, so autoplay claims or passes only after its own."""
    p = practice(seed=9)
    try:

        async def play() -> tuple[int, dict, dict]:
            table = await join(p.url, p.code, charts=False)
            try:
                orders = table.remote.orders(table.human)  # (known with the first observation)
                moves = await autoplay(table, seed=9, timeout=30.0)
                return moves, table.observation(table.human), orders
            finally:
                table.close()

        moves, obs, orders = _run(play())
        assert obs["is_over"] and orders["pass_claims"] is True
        events = obs["events"]
        # the seat held neither named card at least once, and answered it itself
        assert any(e["kind"] == "answer" and e["answerer"] == 0 and e["shown"] is False for e in events)
        mine = sum(
            e["kind"] in ("ask", "answer", "claim", "no_claim")
            and (e.get("asker") if e["kind"] == "ask" else e.get("answerer", e.get("seat"))) == 0
            for e in events
        )
        passed_by_order = mine - moves
        assert moves > 0 and passed_by_order > 0  # some no-claims of seat 0 were its standing order's
        record = record_of(p.url, p.table["table"])
        # the replay of this table (the lesson's next cell): every seat's column just after question 7, each
        # drawn from that seat's observation of the server's record alone
        view = my_replay(p.url, p.table["table"])
        step = questions(record)[LESSON_QUESTION - 1].step
        assert isinstance(view, SideBySide) and view.slider.value == step
        game = Timeline(record).state_at(step)
        for seat in range(4):
            seen = game.observation_json(seat)
            assert view.columns[seat].value == seat_view_html(seen, seat, view.slider.max)
    finally:
        p.stop()

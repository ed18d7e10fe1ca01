"""Lesson 09 run alone: the practice table's seat is played for the student, its forced answers at once;
then its replay, every seat side by side."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

from qardlab.classroom import join
from qardlab.classroom.client import ws_url
from qardlab.engine import Timeline
from qardlab.lessons import together
from qardlab.lessons.together import LESSON_QUESTION, autoplay, my_replay, practice, questions, record_of
from qardlab.widgets.replay import SideBySide, seat_view_html


def _run(coro):
    # a thread of its own: the browser tests' Playwright keeps an event loop in the main thread
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_autoplay_gives_a_practice_seats_forced_answers_at_once():
    """The joined table would wait 60 s before each forced answer (its secrecy pause); at a practice table
    started here (bots in every other seat) autoplay answers at once, so the game ends in seconds; a seat of
    any other server is not a practice seat (its pause stays)."""
    p = practice(seed=9)
    try:
        assert ws_url(p.url, p.code) in together._PRACTICE_SEATS
        assert ws_url("http://192.168.1.20:8765", p.code) not in together._PRACTICE_SEATS

        async def play() -> tuple[int, dict]:
            table = await join(p.url, p.code, charts=False, forced_delay=60.0)
            try:
                moves = await autoplay(table, seed=9, timeout=30.0)
                return moves, table.observation(table.human)
            finally:
                table.close()

        t0 = time.monotonic()
        moves, obs = _run(play())
        assert obs["is_over"] and time.monotonic() - t0 < 60  # no 60 s pause was waited for
        # the seat held neither named card at least once: a forced answer, given without the pause
        assert any(
            e["kind"] == "answer" and e["answerer"] == 0 and e["shown"] is False for e in obs["events"]
        )
        assert moves > 0 and obs["step"] > moves  # the bots' steps and the seat's forced ones are not moves
        # the replay of this table (the lesson's next cell): every seat's column just after question 7, each
        # drawn from that seat's observation of the server's record alone
        view = my_replay(p.url, p.table["table"])
        record = record_of(p.url, p.table["table"])
        step = questions(record)[LESSON_QUESTION - 1].step
        assert isinstance(view, SideBySide) and view.slider.value == step
        game = Timeline(record).state_at(step)
        for seat in range(4):
            seen = game.observation_json(seat)
            assert view.columns[seat].value == seat_view_html(seen, seat, view.slider.max)
    finally:
        p.stop()

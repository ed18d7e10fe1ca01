"""Who is here, on a class table in the browser (issue 27 item 8): Alice joins a Five Sons table from the
Voila join page, Bob's window is open (seat 3 a bot, seat 2's student not come yet); each seat's mark by its
name says here or away, in shape and in words for a screen reader; when Bob's window closes, Alice's felt
shows him away. The page fits 1024 x 768 and 1280 x 900 (browser_harness.check_fit), and its screenshots go
to artifacts/screenshots/ (``classroom-presence-*``)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from browser_harness import NOTEBOOKS, assert_rendered, fit_report, local_only, voila_errors

from qardlab.classroom.teacher import LocalServer, Teacher

pytestmark = pytest.mark.browser
websocket = pytest.importorskip("websocket")

VIEWPORT = {"width": 1024, "height": 768}


def _marks(page: Any) -> dict[str, str]:
    """Each seat's presence mark on the page's felt: its words (aria-label) -> its classes."""
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.qard-felt-ring .qard-presence')]"
        ".map(e => [e.getAttribute('aria-label'), e.className]))"
    )


def _wait_marks(page: Any, want: dict[str, str], timeout_s: float = 30) -> dict[str, str]:
    deadline = time.monotonic() + timeout_s
    marks: dict[str, str] = {}
    while time.monotonic() < deadline:
        marks = _marks(page)
        if all(any(words in k and kind in v for k, v in marks.items()) for words, kind in want.items()):
            return marks
        page.wait_for_timeout(100)
    raise AssertionError(f"the felt's marks are {marks}, not {want}")


def test_a_class_table_shows_who_is_here(browser: Any, voila: Any, tmp_path: Path, fit: Any) -> None:
    server = LocalServer(db=str(tmp_path / "class.db"))
    try:
        table = Teacher(server.url, server.token).create_table("five_sons", 4, bots={3: "logic"}, pace=0.3)
        app_nb = tmp_path / "app" / "app-classroom.ipynb"
        app_nb.parent.mkdir()
        shutil.copy(NOTEBOOKS / "app-classroom.ipynb", app_nb)
        app = voila(app_nb)
        # Alice joins on the join page; Bob's window is a plain websocket (a page of his that closes closes
        # it: a Voila kernel left behind would keep it open until it is culled, which item 4 sees to)
        context = browser.new_context(viewport=VIEWPORT)
        local_only(context)
        alice = context.new_page()
        alice.set_default_timeout(60_000)
        alice.goto(app.base + "/", wait_until="load", timeout=180_000)
        assert_rendered(alice, (".qard-join-app", ".qard-join-code"), timeout_ms=90_000)
        alice.locator(".qard-join-server input").fill(server.url)
        alice.locator(".qard-join-code input").fill(table["seats"][0]["code"])
        alice.locator("button.qard-join").click()
        alice.locator(".qard-table").first.wait_for(state="visible", timeout=60_000)
        ws_url = server.url.replace("http://", "ws://")
        bob = websocket.create_connection(f"{ws_url}/ws?code={table['seats'][1]['code']}&frames=changes")
        marks = _wait_marks(
            alice,
            {
                "Alice is here": "qard-here",
                "Bob is here": "qard-here",
                "Carol is away: not connected": "qard-away",
                "Dave is here": "qard-here",  # a bot is always here
            },
        )
        assert len(marks) == 4, marks
        alice.wait_for_timeout(300)
        faults = fit(alice, "classroom-presence-alice")
        assert not faults, f"the class table with its marks does not fit:\n{fit_report(faults)}"
        bob.close()  # Bob's window closes: Alice's felt shows him away
        _wait_marks(alice, {"Bob is away: not connected": "qard-away", "Alice is here": "qard-here"})
        alice.wait_for_timeout(300)
        faults = fit(alice, "classroom-presence-bob-away")
        assert not faults, f"the class table with its marks does not fit:\n{fit_report(faults)}"
        assert not voila_errors(alice)
    finally:
        server.stop()

"""The teacher's notebook helpers: a local server, tables created and watched over HTTP, a finished
table's record side by side at every seat's view, one slider moving every seat's table."""

from __future__ import annotations

import pytest
from conftest import run_async

from qardlab.classroom.teacher import (
    LocalServer,
    Teacher,
    TeacherError,
    ThreadServer,
    codes_html,
    side_by_side,
)
from qardlab.engine import Timeline

widget_walk = pytest.importorskip("tests.widgets.widget_walk")
tree_state = widget_walk.tree_state


def test_teacher_creates_watches_and_replays_tables() -> None:
    with LocalServer(token="t0ken") as server:
        assert server.url.startswith("http://127.0.0.1:") and server.token == "t0ken"
        teacher = Teacher(server.url, server.token)
        created = teacher.create_tables(
            2,
            "five_sons",
            players=4,
            seed=40,
            pace=0,
            bots={0: "random", 1: "logic", 2: "random", 3: "probability"},
        )
        hearts = teacher.create_table(
            "hearts",
            4,
            seed=3,
            options={"single": True},
            pace=0,
            bots={1: "rules", 2: "counting", 3: "random"},
        )
        html = codes_html([*created, hearts], server.url)
        assert hearts["seats"][0]["code"] in html and "bot: counting" in html
        with pytest.raises(TeacherError, match="game must be one of"):
            teacher.create_table("chess")
        with pytest.raises(TeacherError, match="teacher's token"):
            Teacher(server.url, "wrong").tables()
        teacher.set_bot(hearts["table"], 0, "rules")  # the student left: a bot plays on
        ids = [t["table"] for t in [*created, hearts]]
        run_async(teacher.wait_over(ids, timeout=120))
        listed = {t["table"]: t for t in teacher.tables()}
        assert all(listed[i]["is_over"] for i in ids)
        records = [teacher.record(i) for i in ids]
        assert records[0].seed == 40 and records[1].seed == 41
        view = side_by_side(records[0], interactive=True)  # whole tables, one a seat
        assert len(view.tables) == 4 and [t.seat for t in view.tables] == [0, 1, 2, 3]
        assert all(t.views == (t.seat,) for t in view.tables)  # each locked to its own seat
        view.slider.value = 7
        assert {t.timeline.position for t in view.tables} == {7}
        # drawn at step 7 at once: the same columns as the last step's moved back to 7
        at = side_by_side(records[0], at=7, interactive=True)
        assert at.slider.value == 7 and {t.timeline.position for t in at.tables} == {7}
        for a, b in zip(at.tables, view.tables):
            assert tree_state(a.grid) == tree_state(b.grid)
            assert (a.log_view.value, a.stepper.text.value) == (b.log_view.value, b.stepper.text.value)
        at.slider.value = 9  # and the slider moves them as before
        assert {t.timeline.position for t in at.tables} == {9}
        with pytest.raises(ValueError, match="at must be a step"):
            side_by_side(records[0], at=10_000)
        with pytest.raises(ValueError, match="at must be a step"):
            side_by_side(records[0], at=10_000, interactive=True)
        hearts_view = side_by_side(records[2], at=20)  # the light view of Hearts
        assert hearts_view.slider.value == 20 and "Card counting" in hearts_view.columns[1].value
        assert Timeline(records[2]).game.is_over
    assert server.proc.poll() is not None  # stopped at the end of the block


def test_local_server_starts_without_waiting_and_syncs_normal_only_on_its_own_file(tmp_path) -> None:
    """``LocalServer(wait=False)`` returns once the process is started, ``ready()`` waits for its address;
    its own temporary file (removed at stop) is synced "normal", a file the caller names "full"."""
    own = LocalServer(wait=False)
    named = LocalServer(db=str(tmp_path / "kept.db"), wait=False)
    try:
        assert own.token == "" and own.proc.poll() is None  # started, not waited for
        args = {s: s.proc.args for s in (own, named)}
        assert args[own][args[own].index("--sync") + 1] == "normal"
        assert args[named][args[named].index("--sync") + 1] == "full"
        assert own.ready() is own and own.url.startswith("http://127.0.0.1:") and own.token
        assert own.ready() is own  # at once the second time
        assert Teacher(own.url, own.token).tables() == []
    finally:
        own.stop()
        named.stop()
    assert own.proc.poll() is not None and named.proc.poll() is not None


def test_thread_server_serves_in_this_process_and_keeps_its_log(capfd) -> None:
    """``ThreadServer``: the same server in a thread of this process (a lesson's practice table): tables
    made and read over HTTP as from ``LocalServer``, a refused request logged into ``log`` (not printed
    under a notebook's cell), and at ``stop()`` the thread ends and its temporary file is gone."""
    import json
    import os
    import urllib.error
    import urllib.request

    with ThreadServer() as server:
        assert server.running and server.url.startswith("http://127.0.0.1:") and server.token
        teacher = Teacher(server.url, server.token)
        made = teacher.create_table("five_sons", 4, seed=5, pace=0, bots={s: "logic" for s in range(4)})
        run_async(teacher.wait_over([made["table"]], timeout=60))
        assert teacher.record(made["table"]).seed == 5
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.url}/api/tables/99/record", timeout=10)
        assert "no table" in json.loads(refused.value.read()).get("error", "")
        db = server.db
        assert os.path.exists(db)
    assert not server.running and not os.path.exists(db)
    assert any("404" in line for line in server.log), server.log
    out, err = capfd.readouterr()
    assert "404" not in out + err and "WARNING" not in out + err

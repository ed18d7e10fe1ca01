"""``qardlab.classroom.join``: a seat of a table on a server subprocess as the game's ordinary table widget.

Moves are played by the widgets' public methods (the builder's ``ask``, a card's click, the buttons),
the other seats' moves arrive from the server, refusals show in the status line, and the seat's
widget tree holds nothing it may not know: it is identical, value for value, under two deals the seat
cannot tell apart (the live-secrecy deals A and B: Bob's Q♣ answer chosen in A, forced in B).
"""

from __future__ import annotations

import asyncio
import html
import re

import pytest
from conftest import ServerProcess, free_port, run_async

from qardlab.classroom import JoinRefused, RemoteSource, join
from qardlab.engine import Game, Record
from qardlab.render.markup import el, to_html
from qardlab.widgets.five_sons import FiveSonsTable
from qardlab.widgets.hearts import HeartsTable

widget_walk = pytest.importorskip("tests.widgets.widget_walk")
tree_state, all_text = widget_walk.tree_state, widget_walk.all_text

# tests/widgets/test_widget_live_secrecy.py's deals: they differ only in where the 8♥ and 9♥ lie
A = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "8H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "9H"],
]
B = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "9H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "8H"],
]
SECRET = ["KS", "TH"]


def deal(hands: list[list[str]]) -> dict:
    return {"hands": hands, "secret": SECRET, "dealer": 3}  # dealer 3: Alice (seat 0) asks first


async def until(predicate, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def settle(*tables, step: int, timeout: float = 15.0) -> None:
    """Wait until every table's source has the observation of ``step``."""
    for t in tables:
        await t.remote.wait(lambda o: o["step"] >= step, timeout)


@pytest.fixture
def srv(tmp_path):
    s = ServerProcess(tmp_path / "join.db", port=free_port())
    yield s
    s.stop()


def test_join_five_sons_plays_by_the_widgets_and_shows_refusals(srv) -> None:
    table = srv.create(game="five_sons", players=4, deal=deal(A), pace=0, bots={"2": "logic", "3": "logic"})
    codes = {s["seat"]: s["code"] for s in table["seats"]}

    async def main() -> None:
        alice = await join(srv.url, codes[0])
        bob = await join(srv.url, codes[1])
        watch = await join(srv.url, table["teacher"])
        assert type(alice) is FiveSonsTable and type(watch) is FiveSonsTable
        assert (alice.human, alice.views, alice.seat) == (0, (0,), 0) and watch.views == (None,)
        assert alice.timeline is None and alice.viewpoint not in alice.toolbar.children  # no other view
        assert "Your turn to ask." in alice.prompt.value and "Waiting" in bob.prompt.value
        # out of turn: refused at once, in the status line
        bob.no_claim_button.click()  # hidden, but a click that comes anyway is refused
        assert "Not allowed: it is not your turn" in bob.status.value
        # refused by the server (the engine's own text), shown when it arrives; nothing changed
        local = Game.registry["five_sons"]._blank(4, {}, None)
        local.apply(local.action_from_json({"type": "deal", **deal(A)}))
        claim = local.action_from_json({"type": "claim", "face": "KS", "number": "TH"})
        why = local.why_illegal(claim)
        assert why and alice.act(claim) is True  # sent: only the server can say no
        await until(lambda: alice.status.value != "")
        # the status line in the error colour of the one style sheet (the engine's words, escaped)
        assert alice.status.value == to_html(el("span", "Not allowed: " + why, cls="qard-status-error"))
        assert alice.observation(0)["step"] == 1 and alice.remote.errors == [why]
        # Alice asks Bob by the question builder; Bob holds both named cards and chooses by a click
        assert alice.ask(1, "QC", "8H") and alice.status.value == ""
        await settle(alice, bob, watch, step=2)
        assert (
            "You hold both cards" in bob.prompt.value
            and "Bob to choose a card to show" not in alice.felt_view.value
        )
        bob.hands[1].click("QC")
        await settle(alice, bob, watch, step=3)
        assert "Bob shows Alice the Q♣." in alice.log_view.value  # the asker sees which card
        alice.no_claim_button.click()
        # Bob asks, then the bots at seats 2 and 3: their moves arrive at every window
        await settle(alice, bob, watch, step=4)
        assert "Claim the secret pair" in bob.prompt.value  # Bob may claim first: he passes
        bob.no_claim_button.click()
        await bob.remote.wait(lambda o: o["phase"] == "ask" and o["to_move"] == 1)  # the bots pass too
        assert bob.ask(2, "KD", "5H")
        await bob.remote.wait(lambda o: o["to_move"] in (0, 1) and o["phase"] == "ask" or o["is_over"])
        seen = alice.observation(0)
        assert seen["step"] > 6 and len(alice.log_view.value) > 200
        # the grid and its explanations are computed here from Alice's observation alone, and are what a
        # local table of the same game draws
        rec = Record.from_dict(srv.get(f"/api/tables/{table['table']}/record")[1])
        same = FiveSonsTable(rec, seat=0, views=(0,), human=0, charts=False)
        same.timeline.go_to(seen["step"])
        # (the joined felt marks who is here, a class table's fact a local table has not)
        assert 'aria-label="Carol is here"' in alice.felt_view.value
        joined_felt = re.sub(r'<span class="qard-presence [^>]*></span>', "", alice.felt_view.value)
        assert same.log_view.value == alice.log_view.value and same.felt_view.value == joined_felt
        assert tree_state(same.grid) == tree_state(alice.grid)
        assert same.grid_note.value == alice.grid_note.value
        assert "pairs by crossing out" in all_text(alice.grid)
        # the teacher's window sees every hand; Alice's never a card of Bob's she was not shown
        assert all(f'data-card="{c}"' in all_text(watch.felt) for c in A[1])
        text = all_text(alice.felt) + all_text(alice.log_view)
        assert 'data-card="8H"' not in text and 'data-card="QD"' not in text
        for t in (alice, bob, watch):
            t.close()
        assert not alice.remote.connected  # closing the table closed its connection
        # a wrong code is refused
        with pytest.raises(JoinRefused, match="unknown or stale"):
            await join(srv.url, "no-such-code")

    run_async(main())


def test_joined_seat_tree_is_identical_under_deals_it_cannot_tell_apart(srv) -> None:
    """Alice (the asker) and Carol (an onlooker) cannot tell deal A (Bob chooses to show the Q♣) from
    deal B (Bob must show it): their joined tables' whole widget trees are equal at every step."""
    tables = {
        k: srv.create(game="five_sons", players=4, deal=deal(h), pace=0) for k, h in (("A", A), ("B", B))
    }

    async def main() -> None:
        # every answer waits for its student's click: the comparison at step 2 is made before it is sent
        seats = {k: [await join(srv.url, s["code"]) for s in t["seats"]] for k, t in tables.items()}
        teachers = {k: await join(srv.url, t["teacher"]) for k, t in tables.items()}

        def compare(step: int) -> None:
            for viewer in (0, 2):
                a, b = seats["A"][viewer], seats["B"][viewer]
                assert a.observation(viewer)["step"] == b.observation(viewer)["step"] == step
                assert tree_state(a) == tree_state(b), f"seat {viewer} tells A from B at step {step}"

        compare(1)
        for k in "AB":
            seats[k][0].ask(1, "QC", "8H")
        everyone = [*seats["A"], *seats["B"], *teachers.values()]
        await settle(*everyone, step=2)
        compare(2)
        # Bob's prompt does differ (he alone knows), and so does the teacher's view: the test has teeth
        assert tree_state(seats["A"][1]) != tree_state(seats["B"][1])
        seats["A"][1].hands[1].click("QC")  # chosen in A
        assert "Click the card you hold" in seats["B"][1].prompt.value
        # forced in B: nothing is sent for Bob (the server never plays a student's step), until he clicks
        await asyncio.sleep(0.3)
        assert seats["B"][1].observation(1)["step"] == 2
        seats["B"][1].hands[1].click("QC")
        await settle(*everyone, step=3)
        compare(3)
        assert tree_state(teachers["A"]) != tree_state(teachers["B"])
        for k in "AB":
            seats[k][0].no_claim_button.click()
        await settle(*everyone, step=4)
        compare(4)
        for t in [*everyone]:
            t.close()

    run_async(main())


def test_join_hearts_plays_a_hand_against_the_servers_bots(srv) -> None:
    table = srv.create(
        game="hearts",
        players=4,
        seed=5,
        options={"single": True},
        pace=0,
        bots={"1": "rules", "2": "rules", "3": "counting"},
    )

    async def main() -> None:
        me = await join(srv.url, table["seats"][0]["code"])
        assert type(me) is HeartsTable and me.next_hand_button.layout.display == "none"
        watch = await join(srv.url, table["teacher"])
        obs = me.observation(0)
        assert obs["phase"] == "pass"
        hidden = {c for h in watch.observation(None)["hands"][1:] for c in h}
        assert len(hidden) == 39 and all(f'data-card="{c}"' in all_text(watch) for c in hidden)
        mine = all_text(me)
        assert not [c for c in hidden if f'data-card="{c}"' in mine]  # no other seat's card anywhere
        for c in obs["hand"][:3]:
            assert me.play(c)
        me.pass_button.click()
        await me.remote.wait(lambda o: o["phase"] == "play" and (o["to_move"] == 0 or o["trick"]))
        others, tried_refused = set(), False
        for _ in range(60):
            o = await me.remote.wait(lambda o: o["to_move"] == 0 or o["is_over"] or o["phase"] != "play")
            if o["phase"] != "play":
                break
            others.update(s for s, _c in o["trick"] if s != 0)
            refused = next(iter(o["refused"]), None)
            if refused is not None and not tried_refused:  # a dimmed card clicked: the server refuses it
                tried_refused = True
                assert me.play(refused)  # sent
                await until(lambda: "Not allowed" in me.status.value)
                assert html.escape(o["refused"][refused]) in me.status.value
                assert me.observation(0)["step"] == o["step"]
            assert me.play(o["legal"][0]), me.status.value
            await me.remote.wait(lambda o2, k=o["step"]: o2["step"] > k)
        final = me.observation(0)
        assert final["phase"] == "hand_over" and others == {1, 2, 3} and tried_refused
        assert "The hand is over" in me.log_view.value
        assert me.next_hand_button.layout.display == "none"
        me.close()
        watch.close()

    run_async(main())


def test_remote_source_wait_times_out_with_the_step(srv) -> None:
    table = srv.create(game="five_sons", players=4, deal=deal(A), pace=0)

    async def main() -> None:
        src = await RemoteSource.open(srv.url, table["seats"][1]["code"])
        with pytest.raises(TimeoutError, match="at step 1"):
            await src.wait(lambda o: o["step"] > 1, timeout=0.3)
        src.close()

    run_async(main())


def test_join_page_form_sheet_and_watch(srv) -> None:
    """The join page's form (a wrong code, then the right one), the teacher's join sheet (codes, links that
    fill the form in, QR codes) and the live watch of every table; a server restart shows in the status
    line and clears when the seat is back."""
    from urllib.parse import parse_qs, urlparse

    from qardlab.classroom.apps import JoinApp, watch_tables
    from qardlab.classroom.teacher import join_sheet

    table = srv.create(game="five_sons", players=4, deal=deal(A), pace=0, bots={"3": "logic"})
    codes = [s["code"] for s in table["seats"][:3]]
    sheet = join_sheet([table], srv.url, "http://teacher:8866/")
    assert all(f'<code style="font-size:1.1em">{c}</code>' in sheet for c in codes) and "bot" not in sheet
    links = [h.replace("&amp;", "&") for h in re.findall(r'href="([^"]+)"', sheet)]
    assert [parse_qs(urlparse(u).query) for u in links] == [{"server": [srv.url], "code": [c]} for c in codes]
    try:
        import segno  # noqa: F401

        assert sheet.count("<svg") == 3
    except ImportError:
        assert "<svg" not in sheet
    assert "href" not in join_sheet([table], srv.url)  # without the page's address: codes only

    async def main() -> None:
        app = JoinApp(server=srv.url, code="not-a-code")
        assert await app.join_now() is None and "does not know this code" in app.message.value
        app.code.value = codes[2]
        t = await app.join_now()
        assert t is app.table and app.table_box.children == (t,) and "Carol" in app.message.value
        assert type(t) is FiveSonsTable and t.human == 2
        watch = await watch_tables(srv.url, [table])
        assert [w.views for w in watch.tables] == [(None,)] and watch.titles == (f"table {table['table']}",)
        srv.kill()
        await until(lambda: "reconnecting" in t.status.value)
        srv.start()
        await t.remote.wait(lambda o: t.remote.connected, 15)
        await until(lambda: t.status.value == "")
        again = await app.join_now()  # joining again replaces (and closes) the old table
        assert t.comm is None and again is app.table and not t.remote.connected
        app.close()
        for w in watch.tables:
            w.close()
        assert app.table.comm is None

    run_async(main())

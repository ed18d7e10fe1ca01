"""Tables drawn from a source of observations: the local source, and a source that is only the protocol."""

from __future__ import annotations

import json
from typing import Any, Callable, Optional

import pytest

from qardlab.engine import IllegalAction, Pace, RandomBot, Seats
from qardlab.games.five_sons import FiveSons
from qardlab.games.hearts import Hearts
from qardlab.widgets.five_sons import FiveSonsTable
from qardlab.widgets.hearts import HeartsTable
from qardlab.widgets.source import LocalSource, Source


class ServerLike:
    """What a remote source looks like to a table: the protocol and nothing else (no game, no timeline).

    Behind it a local game plays as a server would: its seat driver plays the bots after each accepted
    action (a Hearts deal waits), and the observers are told once per change. Only ``viewpoints`` may be
    observed.
    """

    def __init__(self, game: Any, seat: int, bots: dict[int, Any]) -> None:
        deal = None if game.name == "hearts" else 0.0
        self._local = LocalSource(game, driver=Seats(type(game), game.players, bots, pace=Pace(deal=deal)))
        self.game_name = self._local.game_name
        self.players = self._local.players
        self.names = list(self._local.names)
        self.viewpoints = (seat,)
        self._callbacks: list[Callable[[Any], None]] = []
        self.sent: list[Any] = []
        self._run_bots()

    @property
    def live(self) -> bool:
        return True

    def observation(self, seat: Optional[int]) -> dict[str, Any]:
        if seat not in self.viewpoints:
            raise ValueError(f"viewpoint {seat!r} is not this seat's")
        obs = self._local.observation(seat)
        return json.loads(json.dumps(obs))  # what came over the wire

    def act(self, seat: int, action: Any) -> None:
        json.dumps(action)  # a table sends the record encoding: plain JSON
        self.sent.append(action)
        self._local.act(seat, action)
        self._run_bots()
        for cb in list(self._callbacks):
            cb(self)

    def observe(self, callback: Callable[[Any], None]) -> Callable[[], None]:
        self._callbacks.append(callback)
        return lambda: self._callbacks.remove(callback)

    def _run_bots(self) -> None:
        self._local.advance_all()

    def waits_for(self, seat: int) -> bool:
        return seat in self.viewpoints and self._local.waits_for(seat)

    def orders(self, seat: int) -> dict[str, Any]:
        return self._local.orders(seat)

    def set_orders(self, seat: int, orders: Any) -> None:
        self._local.set_orders(seat, orders)
        for cb in list(self._callbacks):
            cb(self)


def test_local_source_follows_the_protocol():
    src = LocalSource(FiveSons.new(4, seed=3))
    assert isinstance(src, Source) and src.game_name == "five_sons" and src.players == 4
    obs = src.observation(1)
    assert json.loads(json.dumps(obs)) == obs and obs["legal"][0]["type"] == "ask"
    told = []
    stop = src.observe(lambda s: told.append(s.timeline.last))
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        src.act(2, obs["legal"][0])
    with pytest.raises(IllegalAction, match="not an action"):
        src.act(1, {"type": "teleport"})
    assert told == []  # refused: nothing changed, nobody told
    src.act(1, obs["legal"][0])
    assert told == [2] and src.observation(None)["phase"] == "answer"
    stop()
    locked = LocalSource(FiveSons.new(4, seed=3), viewpoints=(2,))
    with pytest.raises(ValueError, match="viewpoint None"):
        locked.observation(None)
    with pytest.raises(ValueError, match="viewpoints"):
        LocalSource(FiveSons.new(4, seed=3), viewpoints=(9,))


def test_hearts_table_plays_a_hand_from_a_protocol_only_source():
    """Driven by observations alone (no game in reach), the table plays a whole hand by clicks and
    draws what a local table of the same game draws."""
    bots = {s: RandomBot(s) for s in (1, 2, 3)}
    remote = ServerLike(Hearts.new(4, seed=8), 0, bots)
    t = HeartsTable(remote, seat=0, human=0, views=(0,), charts=False)
    with pytest.raises(AttributeError, match="no game"):
        _ = t.game
    for _ in range(100):
        obs = t.observation(0)
        if obs["phase"] != "pass" and obs["phase"] != "play":
            break
        if obs["phase"] == "pass":
            for c in obs["hand"][:3]:
                assert t.play(c)
            t.pass_button.click()
        else:
            assert t.play(obs["legal"][0])
    assert t.observation(0)["phase"] == "hand_over"
    assert "The hand is over" in t.log_view.value
    assert all(isinstance(a, (str, list)) for a in remote.sent)  # the record encoding went out
    # the same game drawn by a local table locked to seat 0 looks the same
    local = HeartsTable(remote._local.timeline.game.copy(), seat=0, human=0, views=(0,), charts=False)
    assert local.log_view.value == t.log_view.value
    assert local.hands[0]._html.value == t.hands[0]._html.value
    assert local.felt_view.value == t.felt_view.value  # every seat round the felt
    assert local.score_sheet.value == t.score_sheet.value


def test_five_sons_table_plays_from_a_protocol_only_source():
    bots = {s: RandomBot(s) for s in (1, 2, 3)}
    remote = ServerLike(FiveSons.new(4, seed=4, dealer=3), 0, bots)
    t = FiveSonsTable(remote, seat=0, human=0, views=(0,), charts=False)
    assert t.stepper.layout.display == "none" and t.show_charts.layout.display == "none"
    turns = 0
    while not t.observation(0)["is_over"] and turns < 60:
        obs = t.observation(0)
        if obs["phase"] == "ask":
            assert t.ask(obs["legal"][0]["target"], "QC", "8H")
        elif obs["phase"] == "claim":
            t.no_claim_button.click()
        elif obs["legal"] == [{"type": "neither"}]:  # the person's own answer, forced or not
            assert t.answer_row.layout.display == "" and t.answer()
        else:
            card = obs["legal"][0]["card"]
            t.hands[0].click(card)
        turns += 1
    assert turns > 3 and all(isinstance(a, dict) for a in remote.sent)
    local = FiveSonsTable(remote._local.timeline.game.copy(), seat=0, human=0, views=(0,), charts=False)
    assert local.log_view.value == t.log_view.value
    assert local.felt_view.value == t.felt_view.value  # seats, secret pair, question, verdicts
    assert [h._html.value for h in local.hands] == [h._html.value for h in t.hands]
    with pytest.raises(ValueError, match="bots are the server's"):
        FiveSonsTable(remote, seat=0, human=0, views=(0,), bots=bots)

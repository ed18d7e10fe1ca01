"""The shared engine on a tiny game of its own: Game protocol, EventLog, Record, Timeline, bots.

``Race`` is a toy: chance deals each of two seats a secret number 1..9 (private), then the seats
alternately add 1 or 2 to a public total; whoever reaches 10 wins, and the secrets are then
shown. It is small enough to check every engine behaviour by hand, and it is not Five Sons, so
these tests hold the engine to its game-neutral contract.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Optional

import pytest

from qardlab.engine import (
    CHANCE,
    EventLog,
    Game,
    IllegalAction,
    Observation,
    RandomBot,
    Record,
    RecordError,
    Timeline,
    play,
    play_turn,
)
from qardlab.engine.events import TEACHER, part_of


class Race(Game):
    name = "race_engine_test"

    def __init__(self, players: int, options: dict, seed: Optional[int]) -> None:
        if players != 2:
            raise ValueError(f"Race is for 2 players, not {players!r}")
        super().__init__(players, options, seed)
        self.total = 0
        self.secrets: Optional[tuple[int, int]] = None
        self.turn = 0
        self.winner: Optional[int] = None

    @classmethod
    def _blank(cls, players: int, options: dict, seed: Optional[int]) -> "Race":
        return cls(players, options, seed)

    @property
    def to_move(self) -> Optional[int]:
        if self.secrets is None:
            return CHANCE
        return None if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def chance_outcome(self) -> Any:
        return ("deal", self.rng.randint(1, 9), self.rng.randint(1, 9))

    def legal_actions(self) -> list:
        return [] if self.to_move in (None, CHANCE) else [1, 2]

    def _validate(self, action: Any) -> Any:
        if self.secrets is None:
            if not (isinstance(action, tuple) and len(action) == 3 and action[0] == "deal"):
                raise IllegalAction(f"a deal is due, not {action!r}")
            return action
        if action not in (1, 2) or isinstance(action, bool):
            raise IllegalAction(f"add 1 or 2, not {action!r}")
        return action

    def _do(self, action: Any) -> None:
        if isinstance(action, tuple):
            self.secrets = (action[1], action[2])
            self.log("deal", {}, private={0: {"secret": action[1]}, 1: {"secret": action[2]}})
            return
        self.total += action
        self.log("add", {"seat": self.turn, "n": action, "total": self.total})
        if self.total >= 10:
            self.winner = self.turn
            self.log("over", {"winner": self.turn, "secrets": list(self.secrets)})
        else:
            self.turn = 1 - self.turn

    def observation(self, seat: int) -> Observation:
        return Observation(
            game=self.name,
            seat=seat,
            players=2,
            step=self.step,
            to_move=self.to_move,
            is_over=self.is_over,
            hand=[],
            events=self.events.view(seat),
            legal=self.legal_actions() if self.to_move == seat else [],
            total=self.total,
        )

    @classmethod
    def action_to_json(cls, action: Any) -> Any:
        return list(action) if isinstance(action, tuple) else action

    @classmethod
    def action_from_json(cls, data: Any) -> Any:
        return tuple(data) if isinstance(data, list) else data

    @classmethod
    def describe_event(cls, event: Any, seat: Any, names: Any) -> str:
        if event["kind"] == "add":
            return f"{names[event['seat']]} adds {event['n']}: {event['total']}."
        return event["kind"]


def new_race(seed: int = 1) -> Race:
    g = Race(2, {}, seed)
    g.apply(g.chance_outcome())
    return g


def played(seed: int = 1, moves=(1, 2, 2, 1, 2, 2)) -> Race:
    g = new_race(seed)
    for m in moves:
        if g.is_over:
            break
        g.apply(m)
    return g


# -- Game -----------------------------------------------------------------------------------
def test_game_apply_validates_first_and_changes_nothing_when_refused() -> None:
    g = new_race()
    before = g.record().to_json(), g.step, len(g.events)
    with pytest.raises(IllegalAction, match="add 1 or 2, not 3"):
        g.apply(3)
    assert (g.record().to_json(), g.step, len(g.events)) == before
    assert isinstance(IllegalAction("x"), ValueError)


def test_game_over_refuses_actions_and_step_counts_actions() -> None:
    g = played()
    assert g.is_over and g.to_move is None and g.winner == 1 and g.step == 7
    with pytest.raises(IllegalAction, match="over"):
        g.apply(1)


def test_game_copy_is_independent() -> None:
    g = new_race()
    c = g.copy()
    c.apply(2)
    assert g.total == 0 and c.total == 2 and len(g.events) == 1 and len(c.events) == 2
    assert copy.deepcopy(g).record().to_json() == g.record().to_json()


def test_game_registry_and_replay() -> None:
    assert Game.registry["race_engine_test"] is Race
    g = played()
    again = Race.replay(g.history, 2, {}, 1)
    assert again.record().to_json() == g.record().to_json()


def test_game_default_names() -> None:
    assert new_race().seat_name(0) == "Alice"


# -- EventLog -------------------------------------------------------------------------------
def test_eventlog_views_filter_private_and_hidden() -> None:
    log = EventLog()
    hands = {0: {"hand": ["QS"]}, 1: {"hand": ["2C"]}}
    log.append("deal", 0, {"n": 2}, private=hands, hidden={"secret": "AH"})
    log.append("peek", 1, {}, private={1: {"saw": "QS"}})
    log.append("say", 2, {"text": "hi"})
    # one shape for every viewer: the public keys, kind and step; the private parts the viewer sees under
    # "private" by seat (a string, as in JSON); the hidden keys for the teacher alone
    assert log.view(0) == [
        {"n": 2, "private": {"0": {"hand": ["QS"]}}, "kind": "deal", "step": 0},
        {"text": "hi", "kind": "say", "step": 2},
    ]
    assert [e["kind"] for e in log.view(1)] == ["deal", "peek", "say"]
    assert log.view(1)[1] == {"private": {"1": {"saw": "QS"}}, "kind": "peek", "step": 1}
    teacher = log.view(TEACHER)
    assert teacher[0] == {
        "n": 2,
        "private": {"0": {"hand": ["QS"]}, "1": {"hand": ["2C"]}},
        "secret": "AH",
        "kind": "deal",
        "step": 0,
    }
    assert [e["kind"] for e in log.view("public")] == ["deal", "say"] and log.view("public")[0] == {
        "n": 2,
        "kind": "deal",
        "step": 0,
    }
    for viewer in (0, 1, TEACHER, "public"):  # the same in Python and as JSON
        assert json.loads(json.dumps(log.view(viewer))) == log.view(viewer)
    assert part_of(log.view(0)[0], 0) == {"hand": ["QS"]} and part_of(log.view(0)[0], 1) == {}
    assert "secret" not in json.dumps(log.view(0)) and "2C" not in json.dumps(log.view(0))
    assert not log[1].visible_to(0) and log[1].visible_to(1) and log[1].visible_to(None)


def test_eventlog_sequence_copy_truncate() -> None:
    log = EventLog()
    for i in range(4):
        log.append("e", i, {"i": i})
    assert len(log) == 4 and log[2].public == {"i": 2} and [e.step for e in log] == [0, 1, 2, 3]
    c = log.copy()
    log.truncate(2)
    assert len(log) == 2 and len(c) == 4
    d = copy.deepcopy(c)
    assert list(d) == list(c) and d is not c


def test_game_events_and_observation_hide_the_other_secret() -> None:
    g = played(moves=(1, 2))
    s0, s1 = g.secrets
    obs0 = g.observation(0)
    assert obs0["events"][0] == {"private": {"0": {"secret": s0}}, "kind": "deal", "step": 0}
    assert part_of(g.observation(1)["events"][0], 1)["secret"] == s1
    end = played()
    assert end.observation(0)["events"][-1]["secrets"] == list(end.secrets)


# -- Record ---------------------------------------------------------------------------------
def test_record_json_is_canonical_and_round_trips(tmp_path) -> None:
    g = played()
    text = g.record().to_json()
    data = json.loads(text)
    assert data["format"] == "qardlab-record" and data["version"] == 2 and data["game"] == "race_engine_test"
    assert data["players"] == 2 and data["seed"] == 1 and len(data["actions"]) == 7
    assert text == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    path = tmp_path / "race.json"
    g.record().save(path)
    loaded = Record.load(path)
    assert loaded.to_json() == text and loaded.replay().record().to_json() == text
    assert loaded.replay(3).step == 3 and loaded.replay(0).step == 0


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=3), "version 3"),
        (lambda d: d.update(version=True), "version True"),
        (lambda d: d.update(version=1.0), "version 1.0"),
        (lambda d: d.update(version="2"), "version '2'"),
        (lambda d: d.update(game="chess"), "unknown game 'chess'"),
        (lambda d: d.update(players="2"), "players"),
        (lambda d: d.update(players=True), "players"),
        (lambda d: d.update(options=[]), "options"),
        (lambda d: d.update(seed="7"), "seed"),
        (lambda d: d.update(seed=False), "seed"),
        (lambda d: d.update(actions={}), "actions"),
        (lambda d: d.pop("actions"), "actions"),
        (lambda d: d.update(extra=1), "unknown fields"),
    ],
)
def test_record_malformed_refused_naming_the_field(change, message) -> None:
    data = json.loads(played().record().to_json())
    change(data)
    with pytest.raises(RecordError, match=message):
        Record.from_dict(data)


def test_record_not_json_or_not_an_object() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.from_json('{"format": ')
    with pytest.raises(RecordError, match="JSON object"):
        Record.from_json("[1, 2]")


def test_record_inconsistent_actions_refused_by_number() -> None:
    data = json.loads(played().record().to_json())
    data["actions"][4] = 5
    with pytest.raises(RecordError, match=r"action #4 5 does not replay: add 1 or 2, not 5"):
        Record.from_dict(data).replay()
    data = json.loads(played().record().to_json())
    data["actions"].append(1)  # an action after the end
    with pytest.raises(RecordError, match="action #7"):
        Record.from_dict(data).replay()
    data = json.loads(played().record().to_json())
    data["players"] = 3
    with pytest.raises(RecordError, match="not 3"):
        Record.from_dict(data).replay()


# -- Timeline -------------------------------------------------------------------------------
def test_timeline_moves_over_every_position() -> None:
    g = played()
    tl = Timeline(g, checkpoint_every=2)
    assert len(tl) == 8 and tl.last == 7 and tl.position == 7
    assert tl.game.record().to_json() == g.record().to_json()
    assert tl.first().step == 0 and tl.position == 0 and tl.game.to_move == CHANCE
    assert tl.previous().step == 0  # stays at the start
    for k in range(1, 8):
        assert tl.next().step == k
        expected = Record.from_json(g.record().to_json()).replay(k)
        assert tl.game.record().to_json() == expected.record().to_json()
    assert tl.next().step == 7  # stays at the end
    assert tl.previous().step == 6
    for k in (5, 0, 7, 3, 4, 1):
        assert tl.go_to(k).step == k and tl.position == k
        assert tl.game.total == Record.of(g).replay(k).total
    assert tl.end().step == 7


def test_timeline_state_at_is_a_copy_and_bad_steps_refused() -> None:
    tl = Timeline(played())
    s = tl.state_at(3)
    assert s.step == 3 and s is not tl.game
    for bad in (-1, 8, "3", 2.0, True):
        with pytest.raises(ValueError, match="outside the timeline"):
            tl.go_to(bad)


def test_timeline_observers_called_on_each_move() -> None:
    tl = Timeline(played())
    seen: list[int] = []
    tl.observe(lambda t: seen.append(t.position))
    tl.first()
    tl.next()
    tl.go_to(5)
    tl.go_to(5)  # no move, no call
    tl.end()
    assert seen == [0, 1, 5, 7]


def test_timeline_extend_and_sync_for_live_play() -> None:
    g = new_race()
    tl = Timeline(g)
    tl.extend(2)
    assert tl.last == 2 and tl.position == 2 and tl.game.total == 2
    with pytest.raises(IllegalAction):
        tl.extend(7)
    assert tl.last == 2
    tl.first()
    with pytest.raises(ValueError, match=r"the timeline is at step 0, not at its end \(2\)") as misuse:
        tl.extend(1)
    assert not isinstance(misuse.value, IllegalAction), "a misuse of the timeline, not an illegal move"
    assert (tl.last, tl.position, tl.game.total) == (2, 0, 0)  # nothing changed
    g.apply(1)
    g.apply(1)
    tl.sync(g)
    assert tl.last == 3 and tl.position == 3 and tl.game.total == 2


def test_timeline_describes_the_current_step_as_each_seat_saw_it() -> None:
    tl = Timeline(played())
    tl.go_to(3)  # position 3: after the third action (deal, Alice adds 1, Bob adds 2)
    assert tl.describe(0) == ["Bob adds 2: 3."]
    tl.go_to(1)
    assert tl.describe(0) == ["deal"] and tl.describe(None) == ["deal"]


# -- bots -----------------------------------------------------------------------------------
def test_random_bot_and_play_loop() -> None:
    g = Race(2, {}, 4)
    play(g, [RandomBot(1), RandomBot(2)])
    assert g.is_over and g.history[0][0] == "deal" and all(a in (1, 2) for a in g.history[1:])
    h = Race(2, {}, 4)
    play(h, [RandomBot(1), RandomBot(2)])
    assert h.record().to_json() == g.record().to_json()
    k = Race(2, {}, 4)
    assert play_turn(k, {}) == k.history[0]  # chance needs no bot
    assert repr(RandomBot()) == "RandomBot()"


# -- why_illegal and forced steps ------------------------------------------------------------
def test_why_illegal_asks_without_playing() -> None:
    g = new_race()
    before = g.record().to_json()
    assert g.why_illegal(2) is None
    assert g.why_illegal(3) == "add 1 or 2, not 3"
    assert g.record().to_json() == before
    assert "over" in played().why_illegal(1)


class ForcedTwo(int):
    """A move of 2 that the rules force (marked as the engine marks forced steps)."""

    forced = True


class ForcedRace(Race):
    """Race where a total of exactly 7 forces the next seat to add 2: a forced step."""

    name = "forced_race_engine_test"

    def _forced(self) -> Any:
        return ForcedTwo(2) if self.total == 7 and not self.is_over else None

    @classmethod
    def action_from_json(cls, data: Any) -> Any:
        return tuple(data) if isinstance(data, list) else data


def test_forced_steps_are_steps_of_their_own_given_by_the_seat_and_kept_in_records() -> None:
    """``apply`` is one step and never applies a forced step after it; ``play`` does; version-2
    records keep every step, version-1 records (forced steps left out) still replay the same."""
    g = ForcedRace(2, {}, 1)
    g.apply(g.chance_outcome())
    for m in (2, 2, 2, 1):  # total 7: the next seat is forced to add 2
        g.apply(m)
    assert g.total == 7 and g.step == 5 and g.to_move == 0  # the forced step waits for its seat
    assert g.forced_action() == 2 and Game.is_forced(g.forced_action())
    assert g.apply_forced() == [2] and g.apply_forced() == []
    assert g.total == 9 and g.history[-1] == 2 and Game.is_forced(g.history[-1])
    assert g.step == 6  # deal, four moves, the forced one
    rec = g.record()
    assert rec.version == 2 and len(rec.actions) == 6  # every step is saved
    again = rec.replay()
    assert again.total == 9 and again.step == 6 and again.history == g.history
    assert rec.replay(5).total == 7 and rec.replay(5).to_move == 0  # a prefix stops before it
    h = ForcedRace(2, {}, 1)
    h.apply(h.chance_outcome())
    for m in (2, 2, 2):
        h.apply(m)
    h.play(1)  # the move, then the forced step
    assert h.history == g.history and h.record().to_json() == rec.to_json()
    v1 = Record.from_dict({**rec.to_dict(), "version": 1, "actions": rec.actions[:5]})
    assert v1.replay().history == g.history  # version 1 left the forced step out: play puts it back
    t = Timeline(g)
    assert len(t) == 7  # positions count the forced step
    assert t.go_to(5).total == 7 and t.game.to_move == 0  # stopped before the forced step
    assert t.go_to(6).total == 9
    live = Timeline(ForcedRace(2, {}, 1))
    live.extend(live.game.chance_outcome())
    for m in (2, 2, 2, 1):
        live.extend(m)
    assert live.game.total == 7 and live.last == 5  # extend is one step, like apply
    live.extend(live.game.forced_action())
    assert live.game.total == 9 and live.record.to_json() == rec.to_json()

"""The teacher's observation (seat None) and the JSON observation a classroom server sends, for both games."""

from __future__ import annotations

import json

import pytest

from qardlab.engine import Game, RandomBot, play
from qardlab.games.five_sons import Ask, FiveSons, ReasoningBot, Show
from qardlab.games.hearts import Hearts


def _games() -> list[Game]:
    five = FiveSons.new(4, seed=3)
    play(five, [ReasoningBot(s) for s in range(4)], max_steps=25)
    hearts = Hearts.new(4, seed=3)
    play(hearts, [RandomBot(s) for s in range(4)], max_steps=30)
    return [five, hearts, FiveSons.new(5, seed=1), Hearts.new(3, seed=2)]


@pytest.mark.parametrize("game", _games(), ids=["five_sons", "hearts", "five_sons_start", "hearts_start"])
def test_teacher_observation_has_a_seats_keys_plus_every_hand(game: Game) -> None:
    """``observation(None)``: built from the whole log like a seat's, the same keys, plus ``hands``
    (and Five Sons' ``secret``); its ``hand`` is empty and ``legal`` is the mover's."""
    teacher = game.observation(None)
    seat = game.observation(0)
    extra = {"hands", "secret"} if game.name == "five_sons" else {"hands"}
    assert set(teacher) == set(seat) | extra
    assert teacher["seat"] is None and teacher["hand"] == []
    assert teacher["events"] == game.events.view(None)
    assert teacher["hands"] == [game.observation(s)["hand"] for s in range(game.players)]
    mover = game.to_move
    assert teacher["legal"] == (game.observation(mover)["legal"] if mover is not None and mover >= 0 else [])
    if game.name == "five_sons":
        assert teacher["secret"] == [c.code for c in game.secret]
    for key in ("step", "to_move", "phase", "is_over", "players", "names"):
        assert teacher[key] == seat[key]


@pytest.mark.parametrize("game", _games(), ids=["five_sons", "hearts", "five_sons_start", "hearts_start"])
def test_observation_json_is_plain_json_with_actions_in_the_record_encoding(game: Game) -> None:
    """What a server sends: plain JSON data (round-trips through json), ``legal`` as record actions."""
    for seat in [None, *range(game.players)]:
        data = game.observation_json(seat)
        assert json.loads(json.dumps(data)) == data
        obs = game.observation(seat)
        assert data["legal"] == [game.action_to_json(a) for a in obs["legal"]]
        assert [game.action_to_json(game.action_from_json(a)) for a in data["legal"]] == data["legal"]
        assert {k: v for k, v in data.items() if k != "legal"}.keys() == {k for k in obs if k != "legal"}


def test_observation_json_of_a_forced_answer_is_a_plain_show() -> None:
    """The forced mark stays in Python (the answerer's own business); on the wire a forced answer
    is the same Show a chosen one is."""
    hands = ["JC KC JD AH 2H", "QC 9H QD 3H 4H", "KD JH QH 5H 6H", "KH JS QS 7H 8H"]
    g = FiveSons.from_deal(hands, secret=("KS", "TH"), dealer=3)
    g.apply(Ask(1, "QC", "8H"))
    assert g.observation(1)["legal"] == [Show("QC")] and g.observation(1)["legal"][0].forced
    assert g.observation_json(1)["legal"] == [{"type": "show", "card": "QC"}]
    assert g.observation_json(2)["legal"] == [] and g.observation_json(None)["legal"] == [
        {"type": "show", "card": "QC"}
    ]


@pytest.mark.parametrize("game", _games(), ids=["five_sons", "hearts", "five_sons_start", "hearts_start"])
def test_observation_since_is_the_observation_with_the_new_events_only(game: Game) -> None:
    """``observation_since(viewer, n)``, what a classroom server's change frame is made from: the same
    observation with only the events logged after the first ``n`` (the contract's check, for every viewer
    and the log's whole length, none of it and its last step), and a bad count refused by name."""
    from qardlab.engine.contract import check_observation_since

    check_observation_since(game)
    with pytest.raises(ValueError, match="-1"):
        game.observation_since(0, -1)


def test_an_observation_since_that_drops_an_event_fails_the_contract() -> None:
    """The contract's check has teeth: a Hearts whose ``observation_since`` skips one event more is caught."""
    from qardlab.engine.contract import check_observation_since

    class Skips(Hearts):
        def observation_since(self, seat, events_from):  # type: ignore[no-untyped-def]
            return super().observation_since(seat, events_from + 1 if events_from else 0)

    game = Skips.new(4, seed=3)
    play(game, [RandomBot(s) for s in range(4)], max_steps=30)
    with pytest.raises(AssertionError, match="not the end of its view"):
        check_observation_since(game)

"""The one event shape on the wire, and the client reading the shape of the version before for one version.

A server of this version sends each seat its events in the one shape (its private part under ``private``,
keyed by the seat); the server before put a seat's own private fields at the top of the event. A
:class:`~qardlab.classroom.client.RemoteSource` of this version turns such a frame into the one shape on
arrival (``one_shape``), so a student whose kernel is newer than the teacher's server still reads every
event: checked on every seat's observation at every step of a Five Sons game (to its end, a wrong claim
included) and a Hearts hand (the pass included)."""

from __future__ import annotations

import copy
import json
from typing import Any

from qardlab.classroom.client import RemoteSource, one_shape
from qardlab.engine import PUBLIC, Game, part_of, play
from qardlab.games.five_sons import Claim, FiveSons
from qardlab.games.five_sons.bots import ReasoningBot
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot


def old_shape(obs: dict[str, Any]) -> dict[str, Any]:
    """A seat's observation as the server before this version sent it: the seat's own private part at the
    top of each event (the teacher's and the public view's were as they are)."""
    old = copy.deepcopy(obs)
    seat = old["seat"]
    if type(seat) is int:
        for e in old["events"]:
            mine = part_of(e, seat)
            e.pop("private", None)
            e.update(mine)
    return old


def frames(game: Game) -> list[dict[str, Any]]:
    return [json.loads(json.dumps(game.observation_json(v))) for v in (None, *range(game.players), PUBLIC)]


def games() -> list[Game]:
    five = FiveSons.new(4, seed=3)
    bots = [ReasoningBot(s) for s in range(4)]
    out: list[Game] = []
    steps = 0
    while not five.is_over:
        if five.phase == "claim" and five.to_move == 1 and 1 not in five.eliminated and steps > 10:
            five.apply(Claim("JC", "AH") if five.secret != (Claim("JC", "AH").pair) else Claim("QC", "AH"))
        else:
            play(five, bots, max_steps=1)
        steps += 1
        out.append(five.copy())
    hearts = Hearts.new(4, seed=3)
    rule = [RuleBot(s) for s in range(4)]
    while hearts.phase in ("pass", "play"):
        play(hearts, rule, max_steps=1)
        out.append(hearts.copy())
    return out


def test_the_client_reads_the_old_shape_as_the_one_shape_and_leaves_the_new_as_it_is() -> None:
    moved = 0
    wrong_claim = False
    for g in games():
        for obs in frames(g):
            new = json.loads(json.dumps(obs))
            assert one_shape(new) == obs  # a frame of this version: unchanged
            old = old_shape(obs)
            if old != obs:
                moved += 1
            assert one_shape(old) == obs, (g.name, g.step, obs["seat"])
            wrong_claim |= any(
                e["kind"] == "claim" and not e["right"] and "private" in e for e in obs["events"]
            )
    assert moved > 100 and wrong_claim


def test_a_remote_source_turns_an_old_frame_into_the_one_shape_on_arrival() -> None:
    g = Hearts.new(4, seed=1)
    play(g, [RuleBot(s) for s in range(4)], max_steps=20)  # the pass made
    obs = json.loads(json.dumps(g.observation_json(2)))
    src = RemoteSource("http://127.0.0.1:1", "code")
    src._receive(json.dumps({"type": "observation", "seat": 2, "observation": old_shape(obs)}))
    got = src.observation(2)
    assert got == obs and part_of(got["events"][0], 2)["cards"]  # its dealt cards, where a reader looks
    words = [Hearts.describe_event(e, 2, got["names"]) for e in got["events"]]
    assert words == g.transcript(2) and any(w.startswith("You pass") for w in words)

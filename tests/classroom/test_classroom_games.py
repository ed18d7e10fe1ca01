"""Whole games over the wire: 4 and 5 websocket clients at one table of each game, against a server
in a subprocess. Every observation a seat receives is exactly the engine's ``observation_json(seat)``
at that step of a local replay of the server's record; the record matches a local game played with
the same actions; and no frame to a seat holds a card that seat may not know (RULES.md: each player
sees only their own hand, the cards shown to them, and what is said aloud)."""

from __future__ import annotations

import json
import random
import re

import pytest
from conftest import Client, five_sons_policy, play_out, random_policy

from qardlab.engine import CHANCE, Game, Record, Timeline

observation_json = Game.observation_json
step = Game.apply

CODE = re.compile(r'"([2-9TJQKA][CDHS])"')


def local_game(kind: str, players: int, options: dict, seed: int, sent: list) -> Game:
    """The same table played locally: the seeded deals, then the clients' actions in order."""
    g = Game.registry[kind]._blank(players, dict(options), seed)
    actions = iter(sent)
    while not g.is_over:
        step(g, g.chance_outcome() if g.to_move == CHANCE else g.action_from_json(next(actions)))
    assert next(actions, None) is None
    return g


def five_sons_known(g: Game, seat: int) -> set[str]:
    """Cards seat may know of at state ``g``: its hand, cards said aloud, cards shown to it, the secret
    once a claim or the end shows it to it (read from the events' meaning, not from the seat's view)."""
    known: set[str] = set()
    for e in g.events:
        p = e.public
        if e.kind == "deal":
            known |= set(e.private[seat]["hand"])
        elif e.kind in ("ask", "claim"):
            known |= {p["face"], p["number"]}
            if e.kind == "claim" and (p["right"] or p["seat"] == seat):
                known |= {c.code for c in g.secret}
        elif e.kind == "answer" and seat in (p["asker"], p["answerer"]) and p["shown"]:
            known.add(e.private[seat]["card"])
        elif e.kind == "over":
            known |= {c.code for c in g.secret}
    return known


def hearts_known_by_step(record: Record, seat: int) -> list[set[str]]:
    """For each step k, the cards seat may know of: its hands as dealt and received, its own pass
    choices, every card played, and what the rules make public (the cards out of the deck, the cards
    that score)."""
    g = Game.registry["hearts"]._blank(record.players, dict(record.options), record.seed)
    first = g.observation(seat)
    # public by the rules: the cards taken out of the deck, the cards that score points
    known = set(first["removed"]) | {str(c) for c in first.get("point_cards", [])}
    out = [set(known)]
    for raw in record.actions:
        phase, mover = g.phase, g.to_move
        action = g.action_from_json(raw)
        step(g, action)
        if phase == "pass" and mover == seat:
            known |= {c.code for c in ([action] if not isinstance(action, tuple) else action)}
        elif phase == "play":
            known.add(action.code if hasattr(action, "code") else str(action))
        known |= {c.code for c in g.hand(seat)}  # dealt, or received once the pass is done
        out.append(set(known))
    return out


def check_frames(clients: dict[int, Client], teacher: Client, record: Record) -> int:
    """Every observation frame equals the local replay's observation_json at its step; no frame
    holds a card its seat may not know. Returns the number of frames checked."""
    timeline = Timeline(record)
    hearts_known = {s: hearts_known_by_step(record, s) for s in clients} if record.game == "hearts" else {}
    checked = 0
    for seat, c in [*clients.items(), (None, teacher)]:
        changes = sent_bytes = whole_bytes = 0
        assert len(c.states) == len(c.frames)
        for text, state in zip(c.frames, c.states):
            msg = json.loads(text)
            assert msg["type"] in ("observation", "change"), msg
            if msg["type"] == "change":  # (a client of the first form is sent whole observations only)
                assert set(msg) <= {"type", "seat", "step", "set", "add", "drop"} and msg["seat"] == seat
                changes += 1
                sent_bytes += len(text)
                whole_bytes += len(json.dumps(state, separators=(",", ":")))
            else:
                assert set(msg) == {"type", "seat", "observation"} and msg["seat"] == seat
        assert changes == 0 if c.mode is None else changes == len(c.frames) - 1  # the first is whole
        assert c.mode is None or sent_bytes < whole_bytes, (seat, sent_bytes, whole_bytes)  # not the whole
        for state in c.states:  # what the client holds after each frame: the engine's observation_json
            held = dict(state)
            flags = held.pop("connected")
            assert len(flags) == record.players and all(isinstance(f, bool) for f in flags)
            k = held["step"]
            g = timeline.state_at(k)
            assert held == observation_json(g, seat), (seat, k)
            if seat is not None:
                known = hearts_known[seat][k] if hearts_known else five_sons_known(g, seat)
                # the legal actions may name any card a question or a claim can name; a card to show
                # or to play must be the seat's own
                legal = held.pop("legal")
                leaked = set(CODE.findall(json.dumps(held))) - known
                assert not leaked, f"seat {seat} at step {k} was sent {sorted(leaked)}"
                own = set(held["hand"])
                for a in legal:
                    if isinstance(a, str) or a["type"] == "show":
                        assert (a if isinstance(a, str) else a["card"]) in own, (seat, k, a)
                    else:
                        assert a["type"] in ("ask", "claim", "no_claim", "neither"), a
            checked += 1
    # the scan bites: the teacher's first frame names cards seat 0 may not know
    first = json.loads(teacher.frames[0])["observation"]
    g = timeline.state_at(first["step"])
    known0 = hearts_known[0][first["step"]] if hearts_known else five_sons_known(g, 0)
    assert set(CODE.findall(json.dumps(first))) - known0
    return checked


GAMES = [
    ("five_sons", 4, {}, 11),
    ("five_sons", 5, {"ask_mode": "pass_left"}, 12),
    ("hearts", 4, {"rules": {"target": 30}}, 13),  # a short match: hands dealt by the server between
    ("hearts", 5, {"single": True}, 14),
]


@pytest.mark.parametrize("frames", [None, "changes"], ids=["whole", "changes"])
@pytest.mark.parametrize("kind,players,options,seed", GAMES, ids=[f"{g}-{n}" for g, n, _, _ in GAMES])
def test_whole_game_over_the_wire(server, connect, kind, players, options, seed, frames) -> None:
    """Both forms of the protocol: whole observations (an old client), and change frames after the first
    (issue 27 item 7): after every frame, what the client holds is the engine's observation_json."""
    table = server.create(game=kind, players=players, seed=seed, options=options, pace=0)
    assert [s["seat"] for s in table["seats"]] == list(range(players))
    codes = [s["code"] for s in table["seats"]]
    # codes of three groups of four characters with no look-alikes (docs/classroom.md)
    assert len(set(codes)) == players and all(
        re.fullmatch(r"([2-9A-HJKMNP-TV-Z]{4}-){2}[2-9A-HJKMNP-TV-Z]{4}", c) for c in codes
    )
    clients = {s: connect(codes[s], frames) for s in range(players)}
    teacher = connect(table["teacher"], frames)
    for c in [*clients.values(), teacher]:
        c.wait_step(1)
    rng = random.Random(seed)
    policy = five_sons_policy(rng) if kind == "five_sons" else random_policy(rng)
    sent = play_out(clients, [teacher], policy)
    assert all(c.obs["is_over"] for c in clients.values()) and teacher.obs["is_over"]

    status, data = server.get(f"/api/tables/{table['table']}/record", token=None)  # anyone, once over
    assert status == 200
    record = Record.from_dict(data)
    mine = local_game(kind, players, options, seed, sent)
    assert data == mine.record().to_dict()
    assert Timeline(record).game.is_over
    assert check_frames(clients, teacher, record) > players * len(sent) // 2
    assert not any(c.errors for c in clients.values())

"""Secrecy at the wire (DESIGN.md, "Secrecy is a property of every moment"): under two deals that a
seat cannot tell apart, every frame that seat receives is the same, byte for byte.

Deal A and deal B differ only in where 8H and 9H are: in A seat 2 holds QC and 8H, so when seat 1
asks it about QC and 8H it *chooses* to show QC; in B it holds QC but not 8H, so showing QC is
*forced*. Later seat 0 asks seat 2 about QH and 9H: forced in A, chosen in B. RULES.md: the asker
alone sees the card shown, and nobody else may learn whether the answerer had a choice. Seats 0 and
1 never see 8H or 9H in either deal, so their frames must match exactly; seat 2's and the teacher's
differ (the deals really are different)."""

from __future__ import annotations

import json

from conftest import ask

A = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QD", "KD", "JH", "3H", "4H"],
    ["QC", "8H", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "9H"],
]
B = [A[0], A[1], ["QC", "9H", "QH", "5H", "6H"], ["KH", "JS", "QS", "7H", "8H"]]
NO = {"type": "no_claim"}
# (seat, action) in order: the same script is legal under both deals
SCRIPT = [
    (1, ask(2, "QC", "8H")),
    (2, {"type": "show", "card": "QC"}),
    (1, NO),
    (2, NO),
    (3, NO),
    (0, NO),
    (2, ask(3, "JS", "7H")),
    (3, {"type": "show", "card": "JS"}),
    (2, NO),
    (3, NO),
    (0, NO),
    (1, NO),
    (3, ask(0, "JC", "2H")),
    (0, {"type": "show", "card": "2H"}),
    (3, NO),
    (0, NO),
    (1, NO),
    (2, NO),
    (0, ask(2, "QH", "9H")),
    (2, {"type": "show", "card": "QH"}),
    (0, {"type": "claim", "face": "KS", "number": "9H"}),
    (1, NO),
    (2, NO),
    (3, NO),
    (1, ask(3, "KH", "AH")),
    (3, {"type": "show", "card": "KH"}),
]


def play_script(server, connect, hands) -> dict:
    table = server.create(
        game="five_sons", players=4, pace=0, deal={"hands": hands, "secret": ["KS", "TH"], "dealer": 0}
    )
    clients = {s["seat"]: connect(s["code"]) for s in table["seats"]}
    teacher = connect(table["teacher"])
    for c in [*clients.values(), teacher]:
        c.wait_step(1)
    for k, (seat, action) in enumerate(SCRIPT, start=1):
        assert clients[seat].obs["to_move"] == seat, (k, seat, clients[seat].obs["to_move"])
        clients[seat].act(action, step=k)
        for c in [*clients.values(), teacher]:
            c.wait_step(k + 1)
    assert not any(c.errors for c in clients.values())
    return {**{s: c.frames for s, c in clients.items()}, None: teacher.frames}


def test_a_seat_receives_the_same_frames_under_deals_it_cannot_tell_apart(server, connect) -> None:
    a = play_script(server, connect, A)
    b = play_script(server, connect, B)
    for seat in (0, 1):
        assert len(a[seat]) == len(SCRIPT) + 1
        assert a[seat] == b[seat], f"seat {seat} can tell the deals apart"
    assert a[2] != b[2] and a[None] != b[None]
    # in A seat 2 had a choice at step 1 and none at step 19; in B the other way round: only it knew
    legal = [json.loads(f)["observation"]["legal"] for f in (a[2][1], b[2][1], a[2][19], b[2][19])]
    assert [len(x) for x in legal] == [2, 1, 1, 2]
    # and seat 3, which holds 8H or 9H, sees its own hand change, nothing of seat 2's choice
    assert a[3] != b[3]


def hearts_deal(swap: bool) -> list[list[str]]:
    """Clubs dealt so that the first two tricks are all clubs; seat 2's last card (a heart) and seat 3's
    first diamond, cards seats 0 and 1 never see in those tricks, trade places in the swapped deal."""
    clubs = [["2C", "6C", "TC", "AC"], ["3C", "7C", "JC"], ["4C", "8C", "QC"], ["5C", "9C", "KC"]]
    rest = [f"{r}{s}" for s in "DSH" for r in "23456789TJQKA"]
    hands = [list(c) for c in clubs]
    for card in rest:
        min(hands, key=len).append(card)
    assert hands[2][-1][1] == "H" and hands[3][3][1] == "D"
    if swap:
        hands[2][-1], hands[3][3] = hands[3][3], hands[2][-1]
    return hands


def test_hearts_seat_frames_are_the_same_under_deals_it_cannot_tell_apart(server, connect) -> None:
    plays = [(0, "2C"), (1, "3C"), (2, "4C"), (3, "5C"), (3, "9C"), (0, "6C"), (1, "7C"), (2, "8C")]
    runs = []
    for swap in (False, True):
        hands = hearts_deal(swap)
        table = server.create(
            game="hearts", players=4, pace=0, deal={"hands": hands, "pass_direction": "none"}
        )
        clients = {s["seat"]: connect(s["code"]) for s in table["seats"]}
        teacher = connect(table["teacher"])
        for c in [*clients.values(), teacher]:
            c.wait_step(1)
        for k, (seat, card) in enumerate(plays, start=1):
            clients[seat].act(card, step=k)
            for c in [*clients.values(), teacher]:
                c.wait_step(k + 1)
        assert not any(c.errors for c in clients.values())
        runs.append({**{s: c.frames for s, c in clients.items()}, None: teacher.frames})
    a, b = runs
    for seat in (0, 1):
        assert len(a[seat]) == len(plays) + 1 and a[seat] == b[seat], f"seat {seat} can tell the deals apart"
    assert a[2] != b[2] and a[3] != b[3] and a[None] != b[None]

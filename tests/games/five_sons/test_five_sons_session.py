"""Sessions: the seating ceremony, the deal moving clockwise, the tally of wins."""

from __future__ import annotations

import random

import pytest

from qardlab.cards import Card
from qardlab.engine import RandomBot, play
from qardlab.games.five_sons import FiveSons, FiveSonsSession, NoClaim, draw_for_seats


class StackedRng(random.Random):
    """A Random whose deck shuffle leaves a given order (last card drawn first)."""

    def __init__(self, draws: list[str]) -> None:
        super().__init__(0)
        self.draws = [Card.parse(c) for c in draws]

    def shuffle(self, x: list) -> None:
        rest = [c for c in x if c not in self.draws]
        x[:] = rest + list(reversed(self.draws))


def test_rule_seating_highest_card_deals_and_seats_follow_the_draw() -> None:
    rng = StackedRng(["5C", "KD", "AS", "9H"])
    order, rounds = draw_for_seats(["Ann", "Ben", "Cat", "Dan"], rng)
    assert rounds == [
        [
            ("Ann", Card.parse("5C")),
            ("Ben", Card.parse("KD")),
            ("Cat", Card.parse("AS")),
            ("Dan", Card.parse("9H")),
        ]
    ]
    assert order == ["Cat", "Ben", "Dan", "Ann"]  # Ace high: Cat deals first, seat 0


def test_rule_seating_ties_redraw_among_the_tied() -> None:
    rng = StackedRng(["QC", "QH", "3D", "QS", "2C", "7D", "7S", "4H", "AS"])
    order, rounds = draw_for_seats(["Ann", "Ben", "Cat", "Dan"], rng)
    # first round: Ann Q, Ben Q, Cat 3, Dan Q; Ann, Ben, Dan redraw: 2, 7, 7; Ben, Dan redraw: 4, A
    assert [n for n, _ in rounds[1]] == ["Ann", "Ben", "Dan"]
    assert [n for n, _ in rounds[2]] == ["Ben", "Dan"]
    assert rounds[2] == [("Ben", Card.parse("4H")), ("Dan", Card.parse("AS"))]
    assert len(rounds) == 3
    assert order == ["Dan", "Ben", "Ann", "Cat"]


def test_rule_seating_ceremony_in_a_session() -> None:
    s = FiveSonsSession(["Ann", "Ben", "Cat", "Dan", "Eve"], seed=4)
    assert sorted(s.names) == ["Ann", "Ben", "Cat", "Dan", "Eve"]
    first = {name: card for name, card in s.draws[0]}
    ranks = [first[n].rank for n in s.names]
    # the order follows the first draw's ranks where they differ
    assert all(a >= b for a, b in zip(ranks, ranks[1:]))
    assert s.current.dealer == 0 and s.current.players == 5
    assert s.current.observation(0)["names"] == s.names


def test_rule_deal_moves_one_seat_clockwise_and_tally_counts_wins() -> None:
    s = FiveSonsSession(4, seed=9, ceremony=False)
    assert s.names == ["Alice", "Bob", "Carol", "Dave"] and s.draws == []
    dealers, winners = [], []
    for hand in range(5):
        g = s.current
        dealers.append(g.dealer)
        assert g.to_move == (g.dealer + 1) % 4
        play(g, [RandomBot(hand * 4 + k) for k in range(4)])
        winners.append(g.winner)
        if hand < 4:
            s.next_hand()
    assert dealers == [0, 1, 2, 3, 0]
    expected = [winners.count(seat) for seat in range(4)]
    assert s.tally == expected and len(s.games) == 5


def test_session_refuses_next_hand_before_the_end() -> None:
    s = FiveSonsSession(4, seed=1)
    with pytest.raises(ValueError, match="not over"):
        s.next_hand()
    with pytest.raises(ValueError, match="4 or 5 players"):
        FiveSonsSession(6)
    with pytest.raises(ValueError, match="names"):
        FiveSonsSession(4, names=["a", "b", "c", "d"])


def test_session_replays_from_its_seed() -> None:
    a, b = FiveSonsSession(5, seed=21), FiveSonsSession(5, seed=21)
    assert a.names == b.names and a.current.record().to_json() == b.current.record().to_json()
    a.current.apply(a.current.legal_actions()[0])
    assert a.current.phase in ("claim", "answer")
    if a.current.phase == "claim":
        a.current.apply(NoClaim())
    assert isinstance(a.current, FiveSons)

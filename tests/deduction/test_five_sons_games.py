"""The deduction engine on real seeded Five Sons games (full deck, 4 and 5 players)."""

from __future__ import annotations

import pytest

from qardlab.deduction import SECRET
from qardlab.deduction.history import candidate_history
from qardlab.deduction.solve import build_model, forced
from qardlab.engine import play, play_turn
from qardlab.games.five_sons import Ask, FiveSons
from qardlab.games.five_sons.bots import RandomAsker
from qardlab.games.five_sons.probability_bot import ProbabilityBot


def _game(players: int, seed: int, turns: int) -> FiveSons:
    g = FiveSons.new(players=players, seed=seed)
    bots = [RandomAsker(seed * 7 + i) for i in range(players)]
    while not g.is_over and g.turn < turns:
        play_turn(g, bots)
    return g


@pytest.mark.parametrize("players", [4, 5])
def test_levels_nest_and_keep_the_secret(players):
    for seed in range(3):
        g = _game(players, seed, 25)
        for seat in range(players):
            k = g.knowledge(seat)
            naive, logic, post = k.naive_candidates(), k.candidates(), k.posterior()
            assert tuple(g.secret) in logic
            assert logic <= naive
            assert set(post) == logic
            assert sum(post.values()) == pytest.approx(1.0, abs=1e-12)
            assert 1.0 <= k.effective_candidates() <= len(logic) + 1e-9
            grid = k.grid("probability")
            for c in k.cards:
                assert sum(grid[c].values()) == pytest.approx(1.0, abs=1e-9)
            for c in g.hand(seat):
                assert grid[c][seat] == 1.0


def test_deduction_sees_no_hidden_cards():
    """Two deals the seat cannot tell apart give it the same candidates, posterior and grids."""
    g1 = FiveSons.from_deal(
        ["JC QC KC JD KD", "QD JH QH KH AH", "2H 3H 4H 5H 6H", "7H 8H 9H JS QS"],
        secret=("KS", "TH"),
        dealer=3,
    )
    g2 = FiveSons.from_deal(
        ["JC QC KC JD KD", "2H 3H QH 8H AH", "QD JH KH 5H 6H", "7H 4H TH JS KS"],
        secret=("QS", "9H"),
        dealer=3,
    )
    # seat 0 asks seat 1 about KD (its own card) and 7H: both deals answer "neither"
    for g in (g1, g2):
        g.play(Ask(1, "KD", "7H"))
    k1, k2 = g1.knowledge(0), g2.knowledge(0)
    assert k1.candidates() == k2.candidates()
    assert k1.posterior() == k2.posterior()
    assert k1.grid("probability") == k2.grid("probability")
    assert k1.grid("logic") == k2.grid("logic")


def test_explanations_on_a_real_game_force_their_cells():
    g = _game(4, 5, 30)
    k = g.knowledge(2)
    logic = k.grid("logic")
    done = 0
    for c in k.cards:
        for h in k.holders:
            if logic[c][h] is not None and h != k.seat and done < 12:
                e = k.explain(c, h)
                assert forced(build_model(k, e.facts), c, h) == logic[c][h]
                done += 1
    assert done == 12


def test_candidate_history_shrinks():
    g = _game(5, 2, 40)
    for seat in (0, 3):
        rows = candidate_history(g, seat)
        assert rows[0].turn == 0 and rows[0].step == 0
        for r in rows:
            assert 1 <= r.logic <= r.naive
            assert r.effective <= r.logic + 1e-9
            assert r.entropy >= 0.0
        for a, b in zip(rows, rows[1:]):
            assert b.naive <= a.naive and b.logic <= a.logic
    assert candidate_history(g.record(), 3) == candidate_history(g, 3)
    with pytest.raises(ValueError, match="seat 7"):
        candidate_history(g, 7)


def test_seat_history_has_one_home_driven_by_the_question_model():
    """The tables' incremental SeatHistory lives in deduction.history (one home: the widgets' old shim
    module is gone); its quiet steps are the adapter's question model's, and its rows agree with
    candidate_history."""
    import importlib.util

    from qardlab.deduction.history import SeatHistory

    assert importlib.util.find_spec("qardlab.widgets.history") is None
    g = _game(5, 2, 40)
    spec = g.knowledge(1).secret
    assert spec.questions.event == "ask" and spec.questions.quiet == {"ask", "no_claim"}
    h = SeatHistory(g.record(), 1)
    rows = {r["step"]: r for r in h.upto(len(h.steps))}
    assert len(rows) == len(h.steps)
    for row in candidate_history(g, 1):
        mine = rows[row.step + 1]  # an event at step s is seen at position s + 1
        assert (mine["naive"], mine["logic"]) == (row.naive, row.logic)
        assert mine["entropy"] == pytest.approx(row.entropy, abs=1e-9)


@pytest.mark.parametrize("players", [4, 5])
def test_probability_bot_plays_and_wins_often(players):
    wins = 0
    for seed in range(3):
        g = FiveSons.new(players=players, seed=100 + seed)
        bots = [ProbabilityBot(seed)] + [RandomAsker(seed * 10 + i) for i in range(1, players)]
        play(g, bots)
        assert g.is_over
        wins += g.winner == 0
    assert wins >= 2


def test_probability_bot_threshold_checked():
    with pytest.raises(ValueError, match="1.5"):
        ProbabilityBot(threshold=1.5)


def test_secret_known_after_game_over():
    g = FiveSons.new(players=4, seed=9)
    play(g, [ProbabilityBot(i) for i in range(4)])
    assert g.is_over
    k = g.knowledge(1)
    assert k.candidates() == {tuple(g.secret)}
    assert k.grid("logic")[g.secret[0]][SECRET] == "yes"


def test_probability_bot_in_pass_left_mode_asks_its_left_neighbour():
    g = FiveSons.new(players=4, seed=21, ask_mode="pass_left")
    bots = [ProbabilityBot(i) for i in range(4)]
    play(g, bots)
    assert g.is_over and g.winner is not None
    for e in g.events:
        if e.kind == "ask":
            assert e.public["target"] == (e.public["asker"] + 1) % 4


def test_advisor_prefers_informative_questions():
    """At the opening, a question naming two of the asker's own cards tells nothing."""
    g = FiveSons.new(players=4, seed=3)
    k = g.knowledge(g.to_move)
    own = list(g.hand(g.to_move))
    faces = [c for c in own if c.is_face]
    numbers = [c for c in own if not c.is_face]
    qs = k.questions()
    assert qs[0].info > 0.05
    if faces and numbers:
        useless = [q for q in qs if q.face == faces[0] and q.number == numbers[0]]
        assert useless and all(q.info == pytest.approx(0.0, abs=1e-12) for q in useless)

"""The exact solver agrees with brute-force enumeration on many random small positions.

Candidates (equal sets), posterior and grid probabilities (1e-9), logic grid cells, and
the advisor's expected information (1e-9), for 4 and 5 players on smaller decks; in
ask_mode "pass_left" too (every answer along the pass).
"""

from __future__ import annotations

import random

import pytest

from qardlab.deduction import SECRET, Fact

from .deduction_brute import (
    assert_grids_agree,
    candidates,
    deals,
    mini_game,
    pass_left_info,
    pass_left_outcomes,
    posterior,
    question_info,
    question_outcomes,
)

CONFIGS = [  # (players, faces, numbers, turns)
    (4, 4, 4, 3),
    (4, 5, 5, 6),
    (4, 5, 4, 12),
    (5, 5, 5, 4),
    (5, 6, 5, 8),
]


def _positions(seed: int, count: int):
    rng = random.Random(seed)
    for i in range(count):
        players, nf, nn, turns = CONFIGS[i % len(CONFIGS)]
        game = mini_game(rng, players, nf, nn, rng.randrange(turns + 1), claim_rate=0.08)
        seat = rng.randrange(players)
        yield game, game.knowledge[seat]


def _check(k) -> None:
    ds = deals(k)
    assert ds, "the true deal is always consistent"
    assert k.candidates() == candidates(k, ds)
    post, ref = k.posterior(), posterior(k, ds)
    assert set(post) == set(ref)
    for p, v in ref.items():
        assert post[p] == pytest.approx(v, abs=1e-9)
    assert_grids_agree(k, ds)


def test_candidates_posterior_grid_agree_with_enumeration():
    for _game, k in _positions(1, 15):
        _check(k)


def test_secret_pair_always_a_candidate_and_grid_sums():
    for game, k in _positions(2, 40):
        assert game.secret in k.candidates()
        assert game.secret in k.naive_candidates()
        assert k.candidates() <= k.naive_candidates()
        assert sum(k.posterior().values()) == pytest.approx(1.0, abs=1e-12)
        g = k.grid("probability")
        for c in k.cards:
            assert sum(g[c].values()) == pytest.approx(1.0, abs=1e-9)
        for h in k.holders:
            assert sum(g[c][h] for c in k.cards) == pytest.approx(k.sizes[h], abs=1e-9)


def test_advisor_information_agrees_with_enumeration():
    for game, k in _positions(3, 5):
        ds = deals(k)
        qs = k.questions()
        assert len(qs) == (game.players - 1) * len(game.faces) * len(game.numbers)
        assert all(a.info >= b.info - 1e-12 for a, b in zip(qs, qs[1:])), "best first"
        for q in qs:
            assert q.info == pytest.approx(question_info(k, q.target, q.face, q.number, ds), abs=1e-9)
            assert sum(q.outcomes.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.slow
def test_agreement_many_positions_slow():
    for _game, k in _positions(11, 150):
        _check(k)
    for _game, k in _positions(12, 30):
        ds = deals(k)
        for q in k.questions()[::7]:
            assert q.info == pytest.approx(question_info(k, q.target, q.face, q.number, ds), abs=1e-9)


def test_wrong_claim_position():
    """A wrong claim: the pair is out for everyone else, and the claimant knows the secret."""
    rng = random.Random(5)
    game = mini_game(rng, 4, 5, 5, 0)
    secret = game.secret
    wrong = next((f, n) for f in game.faces for n in game.numbers if (f, n) != secret)
    for seat, k in enumerate(game.knowledge):
        if seat == 0:
            game.knowledge[seat] = k + [Fact.has(SECRET, c, step=1) for c in secret]
        else:
            game.knowledge[seat] = k + Fact.not_both(SECRET, wrong, step=1)
    claimant = game.knowledge[0]
    assert claimant.candidates() == {secret}
    assert claimant.naive_candidates() == {secret}
    assert claimant.posterior() == {secret: 1.0}
    assert claimant.entropy() == 0.0
    assert claimant.grid("logic")[secret[0]][SECRET] == "yes"
    for k in game.knowledge[1:]:
        assert wrong not in k.candidates()
        assert wrong not in k.naive_candidates()
        assert wrong not in k.posterior()
        _check(k)


def _pass_left_positions(seed: int, count: int):
    rng = random.Random(seed)
    for i in range(count):
        players, nf, nn, turns = CONFIGS[i % len(CONFIGS)]
        game = mini_game(
            rng, players, nf, nn, rng.randrange(turns + 1), claim_rate=0.08, ask_mode="pass_left"
        )
        seat = rng.randrange(players)
        yield game, game.knowledge[seat]


def test_pass_left_advisor_agrees_with_enumeration():
    """ask_mode pass_left: every answer's probability (who shows which card, or nobody) and the
    expected information agree with enumeration to 1e-9, also for a pass that starts further on."""
    for game, k in _pass_left_positions(4, 6):
        ds = deals(k)
        left = (k.seat + 1) % game.players
        qs = k.questions()
        assert {q.target for q in qs} == {left}, "the rules allow only the left neighbour"
        assert len(qs) == len(game.faces) * len(game.numbers)
        assert all(a.info >= b.info - 1e-12 for a, b in zip(qs, qs[1:])), "best first"
        for start in (left, (k.seat + 2) % game.players):
            for q in k.questions([start]):
                assert q.info == pytest.approx(pass_left_info(k, start, q.face, q.number, ds), abs=1e-9)
                ref = pass_left_outcomes(k, start, q.face, q.number, ds)
                seen: dict = {}
                for (_pair, o), v in ref.items():
                    seen[o] = seen.get(o, 0.0) + v
                assert set(seen) <= set(q.answers)
                for o, v in q.answers.items():
                    assert v == pytest.approx(seen.get(o, 0.0), abs=1e-9), o
                assert sum(q.answers.values()) == pytest.approx(1.0, abs=1e-12)
                assert q.outcomes[q.face] == pytest.approx(
                    sum(v for o, v in q.answers.items() if o and o[1] == q.face), abs=1e-12
                )


def test_pass_left_information_at_least_the_first_answer():
    """Hearing the whole pass tells at least as much as the first answer alone (the old bound)."""
    for _game, k in _pass_left_positions(5, 4):
        ds = deals(k)
        for q in k.questions()[::5]:
            assert q.info >= question_info(k, q.target, q.face, q.number, ds) - 1e-9


def test_float_fallback_agrees_with_enumeration(monkeypatch):
    """Where the exact integer counts could overflow, the float solvers of before answer instead."""
    from qardlab.deduction import solve

    monkeypatch.setattr(solve, "exact_fits", lambda model: False)
    for _game, k in _positions(6, 6):
        assert solve.exact_solver(k.model()) is None
        _check(k)


def test_ranked_count_agrees_with_enumeration(monkeypatch):
    """The ranked count over the cards some fact names (free cards counted, not enumerated),
    forced on small decks too: the same candidates and posterior as enumeration."""
    from qardlab.deduction import solve

    monkeypatch.setattr(solve, "RANKED_MIN_BITS", 0)
    used = 0
    for _game, k in _positions(7, 20):
        used += solve.ranked_pair_weights(k.model()) is not None
        _check(k)
    assert used >= 5


def test_ranked_count_gives_the_exact_solvers_integers():
    """On real 5-player positions the ranked count and the full exact solver give the same ints."""
    from qardlab.deduction import solve
    from qardlab.engine import play_turn
    from qardlab.games.five_sons import FiveSons
    from qardlab.games.five_sons.bots import RandomAsker

    used = 0
    for seed in range(2):
        g = FiveSons.new(players=5, seed=1000 + seed)
        bots = [RandomAsker(seed * 11 + i) for i in range(5)]
        for mark in (0, 5, 10):
            while not g.is_over and not (g.turn >= mark and g.phase == "ask"):
                play_turn(g, bots)
            for seat in (0, 3):
                model = g.knowledge(seat).model()
                ranked = solve.ranked_pair_weights(model)
                if ranked is None:
                    continue
                used += 1
                full = solve.pair_weights(model, True, solver=solve.exact_solver(model))
                assert {p: w for p, w in ranked.items() if w} == {p: int(w) for p, w in full.items() if w}
    assert used >= 4


def test_ranked_advice_agrees_with_enumeration(monkeypatch):
    """The advisor counted over the cards some fact names (ask mode "chosen": the free cards counted, not
    enumerated, pair_advisor._ranked_sums), forced on small decks too: every question's information and
    outcome probabilities agree with enumeration to 1e-9."""
    from qardlab.deduction import pair_advisor, solve

    monkeypatch.setattr(pair_advisor, "RANKED_FREE_FOR_ADVICE", 0)
    monkeypatch.setattr(pair_advisor, "RANKED_MIN_BITS", 0)
    used = 0
    for game, k in _positions(8, 6):
        used += solve.ranked_count(k.model()) is not None
        ds = deals(k)
        qs = k.questions()
        assert len(qs) == (game.players - 1) * len(game.faces) * len(game.numbers)
        for q in qs:
            assert q.info == pytest.approx(question_info(k, q.target, q.face, q.number, ds), abs=1e-9)
            ref = question_outcomes(k, q.target, q.face, q.number, ds)
            for o, v in q.outcomes.items():
                assert v == pytest.approx(ref[o], abs=1e-9), o
    assert used >= 5


def test_ranked_advice_gives_the_full_solvers_questions(monkeypatch):
    """On real 4- and 5-player positions (the deal, and some questions in) the advisor over the named cards
    gives the questions of the full mask solver: the same order, the numbers to 1e-12."""
    from qardlab.deduction import knowledge, pair_advisor, solve
    from qardlab.engine import play_turn
    from qardlab.games.five_sons import FiveSons
    from qardlab.games.five_sons.bots import RandomAsker

    used = 0
    for players, seed in ((4, 1000), (5, 1001)):
        g = FiveSons.new(players=players, seed=seed)
        bots = [RandomAsker(seed + i) for i in range(players)]
        for mark in (0, 3, 6):
            while not g.is_over and not (g.turn >= mark and g.phase == "ask"):
                play_turn(g, bots)
            k = g.knowledge(g.to_move)
            model = k.model()
            rc = solve.ranked_count(model)
            if rc is None or rc.b > model.n - pair_advisor.RANKED_FREE_FOR_ADVICE:
                continue
            used += 1
            ranked = pair_advisor.questions(k)
            monkeypatch.setattr(pair_advisor, "RANKED_FREE_FOR_ADVICE", 99)
            knowledge.clear_results()
            full = pair_advisor.questions(k.replace())
            monkeypatch.undo()
            assert [(q.target, q.face, q.number) for q in ranked] == [
                (q.target, q.face, q.number) for q in full
            ]
            for a, b in zip(ranked, full):
                assert a.info == pytest.approx(b.info, abs=1e-12)
                for o, v in a.outcomes.items():
                    assert v == pytest.approx(b.outcomes[o], abs=1e-12)
    assert used >= 4

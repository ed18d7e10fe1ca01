"""``pair_advisor.best_question``: the first of ``questions()``, the same numbers, ties broken the same way;
and ``pair_advisor.best_questions``: the questions tied with the best (within ``within`` bits), in
``questions()``' order and with the same numbers: what the probability bot chooses among."""

from __future__ import annotations

import random

import pytest

from qardlab.deduction import pair_advisor
from qardlab.games.five_sons import FiveSons, NoClaim


def _positions(seed: int, ask_mode: str, every: int = 3, turns: int = 12):
    """A seeded game of random questions (nobody claims): the asker's knowledge every few questions."""
    g = FiveSons.new(players=4, seed=seed, ask_mode=ask_mode)
    rng = random.Random(seed)
    while g.turn < turns and not g.is_over:
        if g.phase == "claim":
            g.apply(NoClaim())
            continue
        if g.phase == "ask" and g.turn % every == 0:
            yield g.knowledge(g.to_move)
        g.play(rng.choice(g.legal_actions()))


def _fields(qs: list[pair_advisor.Question]) -> list[tuple]:
    return [(q.target, q.face, q.number, q.info, q.outcomes, q.answers) for q in qs]


def _same(a: pair_advisor.Question, b: pair_advisor.Question) -> bool:
    return _fields([a]) == _fields([b])


@pytest.mark.parametrize("ask_mode", ["chosen", "pass_left"])
def test_best_question_is_the_first_question(ask_mode: str) -> None:
    seen = 0
    for seed in (1, 2, 5):
        for k in _positions(seed, ask_mode):
            qs = pair_advisor.questions(k)
            assert _same(pair_advisor.best_question(k), qs[0])
            others = [h for h in k.holders if isinstance(h, int) and h != k.seat]
            if ask_mode == "chosen":  # one target at a time too (the probability bot's legal targets)
                assert _same(
                    pair_advisor.best_question(k, others[1:]), pair_advisor.questions(k, others[1:])[0]
                )
            seen += 1
    assert seen >= 9
    # at the deal many questions tie (no card named yet): the tie is broken as questions() breaks it
    k = FiveSons.new(players=4, seed=3).knowledge(0)
    qs = pair_advisor.questions(k)
    assert sum(1 for q in qs if round(q.info, 12) == round(qs[0].info, 12)) > 1
    assert _same(pair_advisor.best_question(k), qs[0])


def test_best_question_refuses_what_questions_refuses() -> None:
    k = FiveSons.new(players=4, seed=3).knowledge(0)
    with pytest.raises(ValueError, match="is not another seat"):
        pair_advisor.best_question(k, [0])


def _reference(k, targets=None, within: float = 1e-12) -> list[pair_advisor.Question]:
    qs = pair_advisor.questions(k, targets)
    return [q for q in qs if q.info >= qs[0].info - within]


@pytest.mark.parametrize("ask_mode", ["chosen", "pass_left"])
def test_best_questions_are_the_tied_head_of_questions(ask_mode: str) -> None:
    seen = 0
    for seed in (1, 2):
        for k in _positions(seed, ask_mode):
            assert _fields(pair_advisor.best_questions(k)) == _fields(_reference(k))
            others = [h for h in k.holders if isinstance(h, int) and h != k.seat]
            if ask_mode == "chosen":  # the probability bot's legal targets: some seats only
                assert _fields(pair_advisor.best_questions(k, others[1:])) == _fields(
                    _reference(k, others[1:])
                )
            seen += 1
    assert seen >= 6


def test_ties_at_the_deal_come_in_the_order_of_questions() -> None:
    """At the deal no card is named yet: many questions tie, and their order is questions()' order."""
    k = FiveSons.new(players=4, seed=3).knowledge(0)
    got = pair_advisor.best_questions(k)
    assert len(got) > 1 and _fields(got) == _fields(_reference(k))
    # a wider margin takes in more questions, still in that order
    wide = pair_advisor.best_questions(k, within=0.05)
    assert len(wide) > len(got) and _fields(wide) == _fields(_reference(k, within=0.05))


def test_best_questions_refuses_what_questions_refuses() -> None:
    k = FiveSons.new(players=4, seed=3).knowledge(0)
    with pytest.raises(ValueError, match="is not another seat"):
        pair_advisor.best_questions(k, [0])


def test_seats_nothing_is_known_of_get_the_numbers_each_would_get_alone() -> None:
    """Early in a game the advisor computes the questions to interchangeable seats (nothing known of them
    but their hand size) once: each seat's questions are those it gets asked about alone, bit for bit."""
    positions = [FiveSons.new(players=p, seed=seed).knowledge(0) for p, seed in ((4, 3), (5, 8))]
    positions += list(_positions(4, "chosen", every=1, turns=3))
    reused = 0
    for k in positions:
        together = pair_advisor.questions(k)
        others = [h for h in k.holders if isinstance(h, int) and h != k.seat]
        alone = sorted(
            (q for t in others for q in pair_advisor.questions(k, [t])),
            key=lambda q: pair_advisor._rank(q, {c: i for i, c in enumerate(k.cards)}),
        )
        assert _fields(together) == _fields(alone)
        model = k.model()
        solver = pair_advisor.solver_for(model, weighted=True)
        reused += sum(1 for t in others if t in solver.free and not model.known[t]) > 1
    assert reused >= 2  # the deal's positions: every other seat is such a seat

"""``advise.best_question``: the first of ``questions()``, the same numbers, ties broken the same way."""

from __future__ import annotations

import random

import pytest

from qardlab.deduction import advise
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


def _same(a: advise.Question, b: advise.Question) -> bool:
    return (a.target, a.face, a.number, a.info, a.outcomes, a.answers) == \
        (b.target, b.face, b.number, b.info, b.outcomes, b.answers)


@pytest.mark.parametrize("ask_mode", ["chosen", "pass_left"])
def test_best_question_is_the_first_question(ask_mode: str) -> None:
    seen = 0
    for seed in (1, 2, 5):
        for k in _positions(seed, ask_mode):
            qs = advise.questions(k)
            assert _same(advise.best_question(k), qs[0])
            others = [h for h in k.holders if isinstance(h, int) and h != k.seat]
            if ask_mode == "chosen":  # one target at a time too (the probability bot's legal targets)
                assert _same(advise.best_question(k, others[1:]), advise.questions(k, others[1:])[0])
            seen += 1
    assert seen >= 9
    # at the deal many questions tie (no card named yet): the tie is broken as questions() breaks it
    k = FiveSons.new(players=4, seed=3).knowledge(0)
    qs = advise.questions(k)
    assert sum(1 for q in qs if round(q.info, 12) == round(qs[0].info, 12)) > 1
    assert _same(advise.best_question(k), qs[0])


def test_best_question_refuses_what_questions_refuses() -> None:
    k = FiveSons.new(players=4, seed=3).knowledge(0)
    with pytest.raises(ValueError, match="is not another seat"):
        advise.best_question(k, [0])

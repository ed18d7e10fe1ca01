"""Hearts' rules are written once, in the kernel (``qardlab.games.hearts.rules``), and every hot path
calls it: the step engine, the counting bot's rollouts and the batch simulator have no rule of their
own. Each test changes or watches a kernel function where the hot path reads it and shows the path
follows: a second copy of the rule would not."""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np
import pytest

from qardlab.cards import Card, mask_of
from qardlab.games.hearts import Hearts, HeartsRules
from qardlab.games.hearts import batch as batch_module
from qardlab.games.hearts import bots as bots_module
from qardlab.games.hearts import game as game_module
from qardlab.games.hearts import rules as K
from qardlab.games.hearts import views as views_module
from qardlab.games.hearts.batch import simulate
from qardlab.games.hearts.bots import _View

from .helpers import make_deal, play_random
from .test_hearts_bots import play_positions


def test_rule_legal_cards_of_the_step_engine_are_the_kernels_playable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rule (play): a kernel whose ``playable`` lets a seat void in the suit led throw anything (no
    "no points on the first trick") makes the step engine's legal cards, its fused step and its general
    path follow it: the engine asks the kernel at every decision and keeps no copy of the rule."""
    calls: list[int] = []

    def anything_when_void(hand: int, must: int, may: int) -> int:
        calls.append(hand)
        return hand & must or hand

    monkeypatch.setattr(game_module, "playable", anything_when_void)
    # seat 1 holds no club: on the first trick it may now throw a heart or the Queen
    hands = make_deal(4, {1: ["QS", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "2D", "3D", "4D", "5D"]})
    g = Hearts.from_deal(hands, "none")
    g.apply(g.legal_actions()[0])  # the two of clubs
    legal = g.legal_actions()
    assert mask_of(legal) == g.hand_mask(1) and calls[-1] == g.hand_mask(1)
    g.apply("AH")  # a code: the general path, which validates with the kernel too
    assert g.trick[-1] == (1, Card.parse("AH")) and g.hearts_broken
    before = len(calls)
    play_random(g, random.Random(3))
    assert len(calls) - before == 50  # one kernel call per decision left (a lead's legal cards too)


def test_rule_refusals_in_words_are_the_kernels_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule (play): why the mover may not play a card it holds is the kernel's ``refusal``; the words the
    table shows for each refused card say what the kernel says."""
    seen: list[str] = []

    def watched(hand: int, follow: int, first_trick: bool) -> str:
        seen.append(K.refusal(hand, follow, first_trick))
        return seen[-1]

    monkeypatch.setattr(views_module, "refusal", watched)
    g = Hearts.new(4, seed=5)
    while g.phase != "play":
        g.apply(tuple(g.legal_actions()[:3]))
    refused = g.observation(g.to_move)["refused"]
    assert refused and seen == ["opening"] and all("2C" in why or "club" in why for why in refused.values())


def test_rule_counting_bot_rollouts_play_by_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules (play, trick, scoring): every card a rollout plays is one of the kernel's ``playable`` for
    its seat, every trick is taken as the kernel's ``trick_winner`` says, and the points a rollout
    returns are the kernel's ``points_of`` of the cards this seat took."""
    legal_calls: list[tuple[int, int]] = []
    tricks: list[tuple[list[int], int, int]] = []
    counted: list[int] = []

    def playable(hand: int, must: int, may: int) -> int:
        legal = K.playable(hand, must, may)
        legal_calls.append((hand, legal))
        return legal

    def trick_winner(bits: Any, leader: int, players: int, union: int = 0, led: int = 0) -> int:
        w = K.trick_winner(bits, leader, players, union, led)
        tricks.append((list(bits), leader, w))
        return w

    def points_of(mask: int) -> int:
        counted.append(mask)
        return K.points_of(mask)

    for name, fn in (("playable", playable), ("trick_winner", trick_winner), ("points_of", points_of)):
        monkeypatch.setattr(bots_module, name, fn)
    checked = 0
    for g, _seat, obs in play_positions(range(4), random.Random(2)):
        view = _View(obs)
        deal = view.sample_masks(random.Random(g.step))
        if deal is None or not obs["legal"]:
            continue
        for code in obs["legal"]:
            legal_calls.clear(), tricks.clear(), counted.clear()
            points = view.rollout(Card.parse(code).index, deal)
            # every card after this seat's own (the open trick's earlier ones were on the table) was
            # played out of the kernel's legal cards of its seat...
            played = [b for bits, _, _ in tricks for b in bits][len(obs["trick"]) + 1 :]
            assert len(legal_calls) == len(played)
            assert all(legal & card == card for (_, legal), card in zip(legal_calls, played))
            # ...and the seat took the points of the kernel's count of the tricks the kernel gave it
            mine = sum(sum(bits) for bits, _, w in tricks if w == view.seat)
            assert points == K.points_of(mine) and sum(map(K.points_of, counted)) == points
            checked += 1
    assert checked > 40


def test_rule_batch_reads_its_rules_from_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Option qs_breaks_hearts and option moon, read from the kernel: a kernel whose break mask holds the
    Queen of spades makes the batch simulator play as with ``qs_breaks_hearts`` (its hands replay under
    that option, through the step engine), and a kernel that scores a moon by subtracting makes it
    score so; the simulator reads neither option itself. (It reads the kernel once per table: the
    cache of its readings is emptied as the kernel changes here, and after.)"""
    plain = simulate(400, 4, seed=21)
    read = batch_module._rules_of
    monkeypatch.setattr(batch_module, "_rules_of", functools.lru_cache(maxsize=1)(read.__wrapped__))
    monkeypatch.setattr(batch_module, "break_mask", lambda rules=K.DEFAULT_RULES: K.HEARTS_MASK | K.QS_BIT)
    queen = simulate(400, 4, seed=21)
    assert not np.array_equal(plain.plays, queen.plays)  # the Queen now breaks hearts for a lead
    rules = HeartsRules(qs_breaks_hearts=True)
    for i in range(len(queen)):
        assert queen.replay(i, rules).hand_points == queen.points[i].tolist()
    monkeypatch.setattr(batch_module, "moon_points", lambda mode: (-K.MOON_POINTS, 0))
    batch_module._rules_of.cache_clear()
    sub = simulate(3000, 4, seed=5)
    moons = np.flatnonzero((sub.raw == K.MOON_POINTS).any(axis=1))
    assert len(moons) and all(sorted(sub.points[i].tolist()) == [-26, 0, 0, 0] for i in moons)

"""The generic game contract (qardlab.engine.contract) on Five Sons: 4 and 5 players, both ask modes."""

from __future__ import annotations

import json

import pytest

from qardlab.cards import Card
from qardlab.engine.contract import check_contract
from qardlab.games.five_sons import Ask, Claim, Deal, FiveSons, NoClaim, Show

from .helpers import alternatives, hidden_cards, make_bots, make_game


def bad_actions(game: FiveSons) -> list:
    """Five Sons actions that are wrong in the current state, whatever it is."""
    bad: list = [Deal(0, ("QC", "8H"), ()), Ask(0, "QC", "QD"), Claim("8H", "QC"), Show("2C")]
    if game.phase == "ask":
        bad += [
            NoClaim(),
            Claim("KH", "5H"),
            Ask(game.asker, "KH", "5H"),
            Ask(9, "KH", "5H"),
            Ask((game.asker + 1) % game.players, "2H", "5H"),
            Show("KH"),
        ]
    elif game.phase == "claim":
        bad += [Ask((game.to_move + 1) % game.players, "KH", "5H"), Claim("KH", "KD"), Show("KH")]
    elif game.phase == "answer":
        q = game.question
        other = next(c for c in (Card.parse("JC"), Card.parse("QC")) if c not in q.cards)
        bad += [NoClaim(), Show(other), Show("AH" if q.number != Card.parse("AH") else "2H")]
    return bad


CONFIGS = [(4, "chosen"), (5, "chosen"), (4, "pass_left"), (5, "pass_left")]


@pytest.mark.parametrize("players,mode", CONFIGS)
def test_contract_five_sons(players: int, mode: str) -> None:
    """Legal actions, refused actions, replay, determinism and hidden information, on a few seeds."""
    stats = check_contract(
        make_game(players, ask_mode=mode),
        make_bots(players),
        range(2),
        bad_actions=bad_actions,
        alternatives=alternatives,
        hidden_cards=hidden_cards,
    )
    assert stats.finished == 2
    assert stats.illegal_checked > 30
    assert stats.alternatives > 10, "the indistinguishability check found too few other deals to compare"
    assert stats.hidden_scans == stats.positions * players
    # the live check followed other deals call by call, some where the answerer was forced in
    # one deal and had a choice in the other
    assert stats.live_alternatives > 10 and stats.live_calls > 200
    assert stats.live_forced_vs_chosen > 0, "no live comparison of a forced answer with a chosen one"


@pytest.mark.slow
@pytest.mark.parametrize("players,mode", CONFIGS)
def test_contract_five_sons_many_seeds(players: int, mode: str) -> None:
    """The same contract over more seeds, plus a claim-happy variant whose games end early."""
    stats = check_contract(
        make_game(players, ask_mode=mode),
        make_bots(players),
        range(100, 106),
        bad_actions=bad_actions,
        alternatives=alternatives,
        hidden_cards=hidden_cards,
        positions=2,
        check_every=15,
    )
    assert stats.finished == 6
    stats = check_contract(
        make_game(players, ask_mode=mode),
        make_bots(players, p=0.3),
        range(200, 212),
        bad_actions=bad_actions,
        alternatives=alternatives,
        hidden_cards=hidden_cards,
        positions=2,
    )
    assert stats.finished == 12 and stats.alternatives > 0


def test_contract_catches_a_leak() -> None:
    """The contract is not vacuous: an observation that leaks another hand is caught."""

    class Leaky(FiveSons):
        name = ""  # not registered

        def observation(self, seat):
            obs = super().observation(seat)
            if isinstance(seat, int):
                obs["peek"] = [c.code for c in self.hand((seat + 1) % self.players)]
            return obs

    g = Leaky(4, {}, 5)
    g.apply(g.chance_outcome())
    from qardlab.engine.contract import check_indistinguishable, check_no_hidden_codes

    with pytest.raises(AssertionError):
        check_no_hidden_codes(g, 0, hidden_cards(g, 0))
    import random

    others = list(alternatives(g, 0, random.Random(1)))
    assert others
    leaky_others = []
    for o in others:
        lo = Leaky(4, {}, 5)
        lo.apply(o.history[0])
        leaky_others.append(lo)
    with pytest.raises(AssertionError):
        check_indistinguishable(g, 0, leaky_others)


def test_contract_catches_a_refusal_that_changes_the_game() -> None:
    """The contract is not vacuous: a game that changes its state while refusing is caught."""
    from qardlab.engine.contract import check_illegal_changes_nothing

    class Sloppy(FiveSons):
        name = ""  # not registered

        def _validate(self, action):
            self.turn += 1  # a bug: touches the state before refusing
            return super()._validate(action)

    g = Sloppy(4, {}, 5)
    g.apply(g.chance_outcome())
    with pytest.raises(AssertionError, match="changed"):
        check_illegal_changes_nothing(g, [NoClaim()])


def test_contract_catches_the_old_live_leak() -> None:
    """Not vacuous: an engine whose ``apply`` gives a forced answer itself, inside the ask (the old
    leak of issue 9), fails the contract's live check, over ordinary bot games."""
    import random

    from qardlab.engine.contract import LiveTrace, check_live, play_checked

    class OldEngine(FiveSons):
        name = ""  # not registered

        def apply(self, action):
            super().apply(action)
            while self.forced_action() is not None:
                super().apply(self.forced_action())
            return self

    def make(seed: int) -> FiveSons:
        g = OldEngine(4, {}, seed)
        g._next_dealer = seed % 4
        g.apply(g.chance_outcome())
        return g

    caught = 0
    for seed in range(3):
        trace = LiveTrace()
        play_checked(make(seed), make_bots(4)(seed), trace=trace)
        try:
            check_live(trace, alternatives, random.Random(seed))
        except AssertionError as e:
            assert str(e).startswith("live: seat ") and "can tell apart" in str(e)
            caught += 1
    assert caught == 3
    for seed in range(3):  # the same games on today's engine pass
        trace = LiveTrace()
        play_checked(make_game(4)(seed), make_bots(4)(seed), trace=trace)
        assert check_live(trace, alternatives, random.Random(seed)).live_forced_vs_chosen > 0


def test_public_view_says_only_what_is_said_aloud() -> None:
    """The public view (a watcher at no seat) holds no hand and no private part of any event: at the deal
    it names no card at all (every hand and the secret are hidden from it), after an answer it has the
    answer's public part only; and the contract catches a public view that leaks."""
    from qardlab.engine import PUBLIC
    from qardlab.engine.contract import check_public_view

    g = FiveSons.new(4, seed=5)
    check_public_view(g)
    text = json.dumps(g.observation_json(PUBLIC))
    assert not any(c.code in text for s in range(4) for c in g.hand(s)) and g.secret[0].code not in text
    asker = g.to_move
    g.play(g.legal_actions()[0])  # a question, and its answer (shown to the asker only, or "neither")
    pub = g.public_observation()
    answer = [e for e in pub["events"] if e["kind"] == "answer"][-1]
    assert "card" not in answer and pub["hand"] == [] and pub["seat"] == PUBLIC
    assert any(e["kind"] == "answer" for e in g.observation(asker)["events"])

    class LeakyPublic(FiveSons):
        name = ""  # not registered

        def observation(self, seat):
            obs = super().observation(seat)
            if seat == PUBLIC:
                obs["events"] = [{**e.seen_by(None), "kind": e.kind, "step": e.step} for e in self.events]
            return obs

    leaky = LeakyPublic(4, {}, 5)
    leaky.apply(leaky.chance_outcome())
    with pytest.raises(AssertionError, match="not the log's public parts"):
        check_public_view(leaky)

"""Five Sons bots: they act on observations only, ask and claim as their level says, and replay exactly."""

from __future__ import annotations

import pytest

from qardlab.deduction.knowledge import Knowledge
from qardlab.engine import Bot, play
from qardlab.games.five_sons import Ask, Claim, FiveSons, NoClaim
from qardlab.games.five_sons.bots import RandomAsker, ReasoningBot
from qardlab.games.five_sons.knowledge import knowledge_of

pytestmark = pytest.mark.skipif(
    not hasattr(Knowledge, "candidates") or not hasattr(Knowledge, "naive_candidates"),
    reason="the bots need Knowledge.candidates() and naive_candidates() from qardlab.deduction",
)


class Watch:
    """Wraps a bot, checking each decision against the seat's own knowledge."""

    def __init__(self, bot, log: list) -> None:
        self.bot, self.log = bot, log

    def act(self, obs):
        action = self.bot.act(obs)
        assert action in obs["legal"], f"{self.bot!r} chose {action!r}, not a legal action"
        k = knowledge_of(obs)
        self.log.append((obs["seat"], obs["phase"], action, k))
        return action


def test_bots_follow_the_bot_protocol() -> None:
    assert isinstance(RandomAsker(1), Bot) and isinstance(ReasoningBot(1), Bot)


@pytest.mark.parametrize("players", [4, 5])
def test_reasoning_bot_asks_about_candidates_and_claims_only_when_sure(players: int) -> None:
    for seed in range(1):
        log: list = []
        g = FiveSons.new(players, seed=seed)
        play(g, [Watch(ReasoningBot(seed * 7 + s), log) for s in range(players)], max_steps=5000)
        assert g.is_over and g.winner is not None and not g.eliminated  # logic never claims wrongly
        for _seat, _phase, action, k in log:
            if isinstance(action, Ask):
                assert (action.face, action.number) in k.candidates()
            elif isinstance(action, Claim):
                assert k.candidates() == {action.pair}
                assert action.pair == g.secret
            elif isinstance(action, NoClaim):
                assert len(k.candidates()) > 1


def test_random_asker_claims_only_on_one_naive_candidate() -> None:
    log: list = []
    g = FiveSons.new(4, seed=3)
    bots = [
        Watch(RandomAsker(1), log),
        Watch(ReasoningBot(2), log),
        Watch(RandomAsker(3), log),
        Watch(RandomAsker(4), log),
    ]
    play(g, bots, max_steps=5000)
    assert g.is_over
    for seat, _phase, action, k in log:
        if seat == 1:
            continue
        if isinstance(action, Claim):
            assert k.naive_candidates() == {action.pair} and action.pair == g.secret
        elif isinstance(action, NoClaim):
            assert len(k.naive_candidates()) > 1
    asks = [a for s, _, a, _ in log if s != 1 and isinstance(a, Ask)]
    assert len({(a.face, a.number) for a in asks}) > 5  # random questions, not one repeated


def test_random_asker_claims_when_naive_is_certain() -> None:
    """Seat 1 alone asks (the others made wrong claims) and sees every other card; then it claims."""
    hands = ["JC QC KC JD QD", "KD JH QH AH 2H", "KH JS QS 3H 4H", "5H 6H 7H 8H 9H"]
    g = FiveSons.from_deal(hands, secret=("KS", "TH"), dealer=0)
    bot = RandomAsker(5)
    g.play(Ask(3, "KS", "TH"))
    assert bot.act(g.observation(1)) == NoClaim()
    g.apply(NoClaim())
    for _ in range(3):
        g.apply(Claim("KH", "5H"))  # seats 2, 3, 0 are out
    to_see = [(s, c) for s, h in enumerate(hands) if s != 1 for c in h.split()]
    for seat, card in to_see:
        assert g.to_move == 1 and g.phase == "ask"
        ask = Ask(seat, card, "AH") if card[-1] != "H" or card[0] in "JQK" else Ask(seat, "KD", card)
        g.play(ask)
        assert g.phase == "claim"
        action = bot.act(g.observation(1))
        if (seat, card) != to_see[-1]:
            assert action == NoClaim()
            g.apply(action)
    assert action == Claim("KS", "TH")
    g.apply(action)
    assert g.winner == 1


def test_bots_replay_exactly() -> None:
    texts = []
    for _ in range(2):
        g = FiveSons.new(4, seed=11)
        play(g, [ReasoningBot(s) for s in range(4)], max_steps=5000)
        texts.append(g.record().to_json())
    assert texts[0] == texts[1]


def test_bot_memory_limit_forgets_old_questions_but_stays_sound() -> None:
    """A bot with memory=k reasons from the deal and its last k questions; it never claims wrongly."""
    g = FiveSons.new(4, seed=4)
    log: list = []
    forgetful = ReasoningBot(1, memory=3)
    play(
        g,
        [
            Watch(ReasoningBot(0), log),
            Watch(forgetful, log),
            Watch(ReasoningBot(2), log),
            Watch(ReasoningBot(3), log),
        ],
        max_steps=5000,
    )
    assert g.is_over and not g.eliminated
    obs = g.observation(1)
    kept = forgetful.remembered(obs)
    asks = [e for e in kept["events"] if e["kind"] == "ask"]
    assert len(asks) == 3 and kept["events"][0]["kind"] == "deal"
    assert forgetful.candidates(obs) >= knowledge_of(obs).candidates()
    blank = ReasoningBot(1, memory=0).remembered(obs)
    assert [e["kind"] for e in blank["events"]] == ["deal"]
    with pytest.raises(ValueError, match="-1"):
        RandomAsker(1, memory=-1)
    assert repr(forgetful) == "ReasoningBot(memory=3)"

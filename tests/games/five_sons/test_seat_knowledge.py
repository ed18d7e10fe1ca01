"""``SeatKnowledge``: a bot's knowledge read from each observation's new events only is exactly
``knowledge_of(obs)``, for a game as it goes on, and read anew for an observation that does not go on."""

from __future__ import annotations

import random

from qardlab.games.five_sons import Claim, FiveSons
from qardlab.games.five_sons.bots import RandomAsker
from qardlab.games.five_sons.knowledge import SeatKnowledge, knowledge_of


def _same(a, b) -> bool:
    return a == b and a.facts == b.facts and dict(a.extra) == dict(b.extra) and dict(a.sizes) == dict(b.sizes)


def test_read_step_by_step_it_is_knowledge_of_at_every_step() -> None:
    checked = 0
    for seed in range(4):
        g = FiveSons.new(4 + seed % 2, seed=seed)
        seats = {s: SeatKnowledge() for s in range(g.players)}
        rng = random.Random(seed)
        while True:
            for s in range(g.players):
                o = g.observation(s)
                assert _same(seats[s](o), knowledge_of(o)), (seed, s, g.step)
                checked += 1
            if g.is_over:  # its "over" event (the secret shown) read too
                break
            legal = g.legal_actions()
            # random questions and answers; a claim (most likely wrong: the claimer is out) now and then
            claims = [a for a in legal if isinstance(a, Claim)]
            g.play(
                rng.choice(claims)
                if claims and rng.random() < 0.1
                else rng.choice([a for a in legal if not isinstance(a, Claim)] or legal)
            )
    assert checked > 300


def test_an_observation_that_does_not_go_on_is_read_from_its_start() -> None:
    g = FiveSons.new(4, seed=2)
    bot = RandomAsker(5)
    while g.turn < 3:
        g.play(bot.act(g.observation(g.to_move)))
    assert not g.is_over
    late = g.observation(1)
    other = FiveSons.new(4, seed=9)
    sk = SeatKnowledge()
    assert _same(sk(late), knowledge_of(late))
    # another game, another seat, an earlier step of the same game: each read anew, each right
    for o in (other.observation(1), g.observation(2), FiveSons.new(4, seed=2).observation(1), late):
        assert _same(sk(o), knowledge_of(o))
    # a forgetting bot's memory window slides: its remembered observations are no prefix of each other
    forgetful = RandomAsker(1, memory=1)
    for _ in range(2):
        g.play(forgetful.act(g.observation(g.to_move)))
    rem = forgetful.remembered(g.observation(0))
    assert _same(forgetful.knowledge(rem), knowledge_of(rem))


def test_bots_choose_as_from_knowledge_of() -> None:
    """The bots read their knowledge incrementally: a game of them is the game they played reading
    ``knowledge_of`` anew each turn (the same seeded moves)."""
    from qardlab.games.five_sons.bots import ReasoningBot
    from qardlab.games.five_sons.probability_bot import ProbabilityBot

    class Fresh:
        """A bot whose knowledge is read from the whole observation at every turn."""

        def __init__(self, bot) -> None:
            self.bot = bot

        def act(self, obs):
            self.bot.knowledge = lambda o: knowledge_of(o)
            return self.bot.act(obs)

    for make in (ReasoningBot, ProbabilityBot):
        moves = []
        for wrap in (lambda b: b, Fresh):
            g = FiveSons.new(4, seed=4)
            bots = {s: wrap(make(40 + s)) for s in range(4)}
            while not g.is_over:
                g.play(bots[g.to_move].act(g.observation(g.to_move)))
            moves.append(list(g.history))
        assert moves[0] == moves[1] and len(moves[0]) > 10

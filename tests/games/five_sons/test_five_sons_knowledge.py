"""The Knowledge adapter: built only from a seat's observation, with the right facts and texts."""

from __future__ import annotations

import random

import pytest

from qardlab.cards import Card
from qardlab.deduction import SECRET, Knowledge
from qardlab.games.five_sons import Ask, Claim, FiveSons, NoClaim, Show
from qardlab.games.five_sons.bots import RandomAsker
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from qardlab.games.five_sons.knowledge import knowledge_of

from .conftest import HANDS4
from .conftest import SECRET as SECRET_PAIR
from .helpers import alternatives, make_bots, make_game

needs_solver = pytest.mark.skipif(
    not hasattr(Knowledge, "candidates"),
    reason="Knowledge.candidates() (qardlab.deduction) is not written yet",
)


def C(code: str) -> Card:
    return Card.parse(code)


def kinds(k: Knowledge) -> list[tuple]:
    return [(f.kind, f.holder, tuple(c.code for c in f.cards)) for f in k.facts]


def test_knowledge_holders_sizes_and_rule_facts(game4: FiveSons) -> None:
    k = game4.knowledge(0)
    assert k.seat == 0 and k.game == "five_sons"
    assert k.holders == (0, 1, 2, 3, SECRET)
    assert k.sizes == {0: 5, 1: 5, 2: 5, 3: 5, SECRET: 2}
    assert len(k.cards) == 22
    exactly = [f for f in k.facts if f.kind == "exactly"]
    assert {tuple(f.cards) for f in exactly} == {FACE_CARDS, NUMBER_CARDS}
    assert all(f.count == 1 and f.holder == SECRET for f in exactly)
    has = [f for f in k.facts if f.kind == "has"]
    assert {f.cards[0].code for f in has} == set(HANDS4[0].split()) and all(f.holder == 0 for f in has)
    assert has[0].step == 0 and has[0].text.startswith("You were dealt the ")


def test_knowledge_answers_seen_by_asker_answerer_and_onlookers(game4: FiveSons) -> None:
    game4.play(Ask(2, "QS", "9H"))  # seat 2 must show QS to seat 1 (play: the forced answer at once)
    game4.apply(NoClaim())
    game4.apply(NoClaim())
    game4.apply(NoClaim())
    game4.apply(NoClaim())
    game4.play(Ask(0, "JH", "9H"))  # seat 2 asks seat 0: neither
    asker, answerer, onlooker = game4.knowledge(1), game4.knowledge(2), game4.knowledge(3)
    assert ("shown", 2, ("QS", "9H")) in kinds(asker)
    shown = next(f for f in asker.facts if f.kind == "shown")
    assert shown.text == "Turn 1: Carol showed you the Q♠ (you asked about Q♠ and 9♥)."
    assert ("one_of", 2, ("QS", "9H")) in kinds(onlooker)
    one_of = next(f for f in onlooker.facts if f.kind == "one_of")
    # step 1 asks, step 2 answers (an answer is a step of its own, forced or chosen)
    assert one_of.text == "Turn 1: Carol showed Bob one of Q♠ and 9♥." and one_of.step == 2
    assert not any(f.kind in ("shown", "one_of") for f in answerer.facts)  # own card: nothing new
    for k in (asker, answerer, onlooker):
        assert ("none_of", 0, ("JH", "9H")) in kinds(k)
    none = next(f for f in onlooker.facts if f.kind == "none_of")
    assert none.text == "Turn 2: Alice had neither J♥ nor 9♥ (Carol asked)."
    assert not any(f.kind == "none_of" for f in game4.knowledge(0).facts)  # one's own "neither"


def test_knowledge_wrong_claims(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(Claim("KH", "5H"))  # seat 1 wrong
    mine = game4.knowledge(1)
    assert [(f.kind, f.cards[0].code) for f in mine.facts if f.holder == SECRET and f.kind == "has"] == [
        ("has", "KS"),
        ("has", "TH"),
    ]
    other = game4.knowledge(2)
    assert ("not_both", SECRET, ("KH", "5H")) in kinds(other)
    assert not any(f.kind == "has" and f.holder == SECRET for f in other.facts)


def test_knowledge_end_of_game_reveals_the_secret(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(Claim("KS", "TH"))
    for seat in range(4):
        k = game4.knowledge(seat)
        assert {f.cards[0] for f in k.facts if f.kind == "has" and f.holder == SECRET} == {C("KS"), C("TH")}


def test_knowledge_choice_shown_card() -> None:
    g = FiveSons.from_deal(HANDS4, secret=SECRET_PAIR)
    g.apply(Ask(2, "QS", "AH"))
    g.apply(Show("AH"))
    assert ("shown", 2, ("AH", "QS")) in kinds(g.knowledge(1))
    assert ("one_of", 2, ("QS", "AH")) in kinds(g.knowledge(0))


def test_knowledge_is_built_from_the_observation_only() -> None:
    """Games a seat cannot tell apart give it the same facts (the same texts, steps and sizes)."""
    rng = random.Random(3)
    for players in (4, 5):
        make, bots = make_game(players), make_bots(players)
        for seed in range(3):
            g = make(seed)
            bs = bots(seed)
            for _ in range(60):
                if g.is_over:
                    break
                g.apply(bs[g.to_move].act(g.observation(g.to_move)))
            for seat in range(players):
                mine = g.knowledge(seat)
                for other in alternatives(g, seat, rng, tries=10):
                    theirs = other.knowledge(seat)
                    assert theirs.facts == mine.facts and theirs.sizes == mine.sizes


def test_knowledge_refuses_other_games() -> None:
    with pytest.raises(ValueError, match="hearts"):
        knowledge_of({"game": "hearts"})


@needs_solver
@pytest.mark.parametrize("players", [4, 5])
def test_knowledge_secret_always_a_candidate(players: int) -> None:
    """Soundness end to end: whatever a seat saw, the true pair stays among its candidates."""
    make, bots = make_game(players), make_bots(players, p=0.0)
    for seed in range(2):
        g = make(seed)
        bs = bots(seed)
        for _ in range(40):
            g.apply(bs[g.to_move].act(g.observation(g.to_move)))
        for seat in range(players):
            k = g.knowledge(seat)
            assert g.secret in k.candidates()
            assert k.candidates() <= k.naive_candidates()


@pytest.mark.parametrize("seed", [3, 11])
def test_knowledge_feed_equals_knowledge_of_at_every_step(seed: int) -> None:
    """KnowledgeFeed, fed a seat's first observation and then only the events since (as the seat saw them),
    gives the very Knowledge knowledge_of gives of the whole observation, at every step, for every seat,
    claims (right and wrong) included; an event fed twice is refused by its step, the feed unchanged."""
    from qardlab.games.five_sons.knowledge import KnowledgeFeed

    game = FiveSons.new(players=5 if seed % 2 else 4, seed=seed)
    bots = {s: RandomAsker(seed=seed * 10 + s) for s in range(game.players)}
    rng = random.Random(seed)
    feeds = {s: KnowledgeFeed() for s in range(game.players)}
    read = 0
    while True:
        for s, feed in feeds.items():
            obs = game.observation(s)
            if read:
                obs = dict(
                    obs,
                    events=[
                        {**e.seen_by(s), "kind": e.kind, "step": e.step}
                        for e in game.events[read:]
                        if e.visible_to(s)
                    ],
                )
            assert feed.feed(obs) == knowledge_of(game.observation(s))
        read = len(game.events)
        if game.is_over:
            break
        if game.phase == "claim" and rng.random() < 0.04:  # now and then a claim, mostly a wrong one
            game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Claim)]))
        else:
            game.apply(bots[game.to_move].act(game.observation(game.to_move)))
    facts = list(feeds[0].facts)
    with pytest.raises(ValueError, match="step"):
        feeds[0].feed(game.observation(0))
    assert feeds[0].facts == facts
    assert False in {e.public["right"] for e in game.events if e.kind == "claim"}  # a wrong claim was read
    assert game.events[-1].kind == "over"  # and the secret shown at the end

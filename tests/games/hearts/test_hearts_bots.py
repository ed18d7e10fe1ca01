"""Hearts bots: legal play from observations only, their rules of thumb, sampling, tournaments."""

from __future__ import annotations

import random

import pytest

from qardlab.cards import Card, Suit
from qardlab.engine import play
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import CountingBot, RandomBot, RuleBot, _View, format_table, tournament

from .helpers import PLAYERS, make_deal, random_pass


def play_positions(seeds: range, rng: random.Random):
    """Every play position of random 4-player hands (one per seed): yields (game, seat, its observation),
    then plays a random legal card."""
    for seed in seeds:
        g = Hearts.new(4, seed=seed)
        random_pass(g, rng)
        while g.phase == "play":
            yield g, g.to_move, g.observation(g.to_move)
            g.apply(rng.choice(g.legal_actions()))


class Spy:
    """Wraps a bot and checks that it is only ever given an observation."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.calls = 0

    def act(self, obs):
        assert isinstance(obs, dict) and obs["game"] == "hearts" and "events" in obs
        self.calls += 1
        return self.bot.act(obs)


@pytest.mark.parametrize("n", PLAYERS)
def test_bots_play_legal_hands(n: int) -> None:
    """Random, rule and counting bots play whole matches legally for 3 to 6 players."""
    kinds = [RandomBot, RuleBot, CountingBot]
    bots = [Spy(kinds[s % 3](s)) for s in range(n)]
    g = Hearts.from_deal(make_deal(n, seed=n), "left")
    play(g, bots)
    assert g.is_over and sum(b.calls for b in bots) == n * 3 + len(make_deal(n)[0]) * n


def test_rule_bot_passes_the_queen_and_dumps_it() -> None:
    """RuleBot passes the Queen of spades when short of spades, and dumps it when void in the suit led."""
    hands = make_deal(4, {0: ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "2D", "3D", "4D", "5D", "QS", "6D"]})
    g = Hearts.from_deal(hands, "left")
    bot = RuleBot(0)
    first = bot.act(g.observation(0))
    assert first == "QS"
    # dumping: find a position where the rule bot holds the Queen and cannot follow
    for g, _, obs in play_positions(range(200), random.Random(3)):
        if (
            obs["trick"]
            and "QS" in obs["legal"]
            and not g.first_trick
            and all(Card.parse(c).suit != Card.parse(obs["trick"][0][1]).suit for c in obs["legal"])
        ):
            assert RuleBot(0).act(obs) == "QS"
            return
    raise AssertionError("no position to dump the Queen found")


def test_rule_bot_ducks() -> None:
    """RuleBot plays its highest card below the one winning the trick."""
    checked = 0
    for _, _, obs in play_positions(range(40), random.Random(5)):
        legal = [Card.parse(c) for c in obs["legal"]]
        if obs["trick"] and len(legal) > 1 and not RuleBot().moon_threat(obs):
            lead = Card.parse(obs["trick"][0][1]).suit
            win = max(Card.parse(c) for _, c in obs["trick"] if Card.parse(c).suit == lead)
            below = [c for c in legal if c.suit == lead and c < win]
            if below:
                assert Card.parse(RuleBot().act(obs)) == max(below)
                checked += 1
    assert checked > 50


def test_rule_bot_notices_a_moon_attempt() -> None:
    """When one opponent has every point so far (the Queen and 3 hearts or more), RuleBot says so."""
    obs = {"points_taken": [0, 17, 0, 0], "seat": 0}
    assert RuleBot().moon_threat(obs) == 1
    assert RuleBot().moon_threat({"points_taken": [1, 17, 0, 0], "seat": 0}) is None
    assert RuleBot().moon_threat({"points_taken": [0, 13, 0, 0], "seat": 0}) is None


def test_counting_bot_samples_consistent_deals() -> None:
    """Sampled deals respect hand sizes, observed voids and the cards the bot passed."""
    checked = 0
    for g, seat, obs in play_positions(range(30), random.Random(2)):
        view = _View(obs)
        deal = view.sample(random.Random(g.seed))
        if deal is not None and any(view.void[s] for s in range(4)):
            for s in range(4):
                if s == seat:
                    continue
                assert len(deal[s]) == len(g.hand(s))
                assert not any(i // 13 in view.void[s] for i in deal[s])
                for i, holder in view.known.items():
                    assert i in deal[holder]
                # the true hands satisfy the same constraints the sampler used
                assert not any(c.suit in {Suit(v) for v in view.void[s]} for c in g.hand(s))
            checked += 1
    assert checked > 100


def test_tournament_table() -> None:
    """A short tournament: one row per entry, averages near the 26 points a hand gives out."""
    entries = [
        ("random", RandomBot(1)),
        ("rule", RuleBot(2)),
        ("counting", CountingBot(3, samples=8)),
        ("rule-b", RuleBot),
    ]
    rows = tournament(entries, hands=12, seed=4)
    assert [r.name for r in rows] == ["random", "rule", "counting", "rule-b"]
    assert all(r.hands == 12 and r.low <= r.mean <= r.high for r in rows)
    assert 20 <= sum(r.mean for r in rows) <= 26 * 3
    assert "points/hand" in format_table(rows)
    with pytest.raises(ValueError, match="4 entries"):
        tournament([("x", RuleBot())], hands=1)
    with pytest.raises(ValueError, match="not 0"):  # no hands: no averages to divide out
        tournament(entries, hands=0)


QS_INDEX = Card.parse("QS").index


def _plain_rollout(view: _View, card: int, deal: list[list[int]]) -> int:
    """The counting bot's playout restated on lists: every seat ducks under the winning card as high as it
    can (else plays its lowest card of the suit led); void, it dumps the Queen of spades, else its highest
    heart, else its highest card (the lowest suit among equal ranks; no point card on the first trick when
    no_pts_on_first_trick); a trick's winner leads its lowest card, hearts only once broken (RULES.md)."""
    n, me = view.n, view.seat
    hands = [sorted(h) for h in deal]
    hands[me] = [i for i in view.hand if i != card]
    trick = [*view.trick, (me, card)]
    first, broken, taken = view.first_trick and view.rules.no_pts_on_first_trick, view.broken, 0
    seat = (me + 1) % n
    while True:
        while len(trick) < n:
            lead = trick[0][1] // 13
            hand = hands[seat]
            follow = [i for i in hand if i // 13 == lead]
            win = max(i for _, i in trick if i // 13 == lead)
            if follow:
                below = [i for i in follow if i < win]
                c = max(below) if below else min(follow)
            else:
                options = [i for i in hand if not (i // 13 == 2 or i == QS_INDEX)] if first else hand
                options = options or hand
                hearts = [i for i in options if i // 13 == 2]
                top = max(options, key=lambda i: (i % 13, -i))
                c = QS_INDEX if QS_INDEX in options else max(hearts) if hearts else top
            hand.remove(c)
            trick.append((seat, c))
            seat = (seat + 1) % n
        lead = trick[0][1] // 13
        winner = max((t for t in trick if t[1] // 13 == lead), key=lambda t: t[1])[0]
        pts = sum(1 if i // 13 == 2 else 13 if i == QS_INDEX else 0 for _, i in trick)
        broken = broken or any(i // 13 == 2 for _, i in trick)
        taken += pts if winner == me else 0
        if not hands[winner]:
            return taken
        options = hands[winner] if broken else ([i for i in hands[winner] if i // 13 != 2] or hands[winner])
        c = min(options, key=lambda i: (i % 13, i))
        hands[winner].remove(c)
        trick, first, seat = [(winner, c)], False, (winner + 1) % n


def test_counting_bot_rollout_matches_a_plain_restatement() -> None:
    """The bit-mask playout of the counting bot gives the points of the plain list version, card by card."""
    checked = 0
    for g, _seat, obs in play_positions(range(12), random.Random(5)):
        view = _View(obs)
        masks = view.sample_masks(random.Random(g.step))
        if masks is None:
            continue
        lists = [[i for i in range(52) if m >> i & 1] for m in masks]
        assert [sum(1 << i for i in h) for h in lists] == masks
        for code in obs["legal"]:
            card = Card.parse(code).index
            assert view.rollout(card, masks) == _plain_rollout(view, card, lists), (obs["trick"], code)
            checked += 1
    assert checked > 500


def test_rule_bot_passes_its_most_dangerous_card() -> None:
    """The rule bot passes, card by card, the legal card of the highest ``pass_danger`` (the highest card
    among equals), at every pass decision of seeded hands (its counts made once per decision)."""
    checked = 0
    for seed in range(30):
        g = Hearts.new(4, seed=seed)
        bot = RuleBot(seed)
        while g.phase == "pass":
            obs = g.observation(g.to_move)
            hand = [Card.parse(c).index for c in obs["hand"]]
            legal = [Card.parse(c).index for c in obs["legal"]]
            best = max(legal, key=lambda i: (bot.pass_danger(i, hand), i))
            choice = bot.act(obs)
            assert Card.parse(choice).index == best
            g.apply(choice)
            checked += 1
    assert checked == 30 * 12


def test_counting_bot_choice_is_the_least_total_of_its_rollouts() -> None:
    """The counting bot's choice (rollouts cut short once a card cannot win) is exactly the legal card of
    the least sum of full rollouts over the sampled deals, the highest rank among equals, the first in
    order among those; the open trick finished and played out is the full rollout."""
    checked = 0
    for g, _seat, obs in play_positions(range(10), random.Random(8)):
        legal = [Card.parse(c).index for c in obs["legal"]]
        if len(legal) < 2:
            continue
        view = _View(obs)
        rng = random.Random(g.step)
        deals = [d for d in (view.sample_masks(rng) for _ in range(6)) if d is not None]
        if not deals:
            continue
        full = {i: sum(view.rollout(i, d) for d in deals) for i in legal}
        assert view.best_card(legal, deals) == min(legal, key=lambda i: (full[i], -(i % 13)))
        for i in legal:
            taken, hands, leader, broken = view.finish_trick(i, deals[0])
            rest = 0 if hands is None else view.play_out(hands, leader, broken)
            assert taken + rest == view.rollout(i, deals[0])
        checked += 1
    assert checked > 200


def test_counting_bot_twins_take_the_same_points() -> None:
    """Two legal cards the counting bot calls twins (one suit, nothing still in play between them, no card
    of its hand in another suit of a rank between) take the same points in every rollout, so only the
    higher one is played out."""
    twins = 0
    for g, _seat, obs in play_positions(range(12), random.Random(9)):
        legal = [Card.parse(c).index for c in obs["legal"]]
        view = _View(obs)
        deal = view.sample_masks(random.Random(g.step))
        if deal is None:
            continue
        for a, b in zip(legal, legal[1:]):
            if view.twins(a, b):
                assert view.rollout(a, deal) == view.rollout(b, deal), (obs["trick"], a, b)
                twins += 1
    assert twins > 50

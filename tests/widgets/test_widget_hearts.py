"""The Hearts table driven from Python: passing and playing by clicks, illegal clicks, no leaks."""

from __future__ import annotations

import random

from widget_walk import all_widgets, tree_state

from qardlab.cards import Card
from qardlab.engine import RandomBot, play_turn
from qardlab.games.hearts import Hearts
from qardlab.widgets import table
from qardlab.widgets.hearts import HeartsTable


def play_hand_by_clicks(t: HeartsTable, rng: random.Random) -> None:
    """The human passes and plays its hand by clicking cards, choosing among legal ones."""
    for _ in range(500):
        g = t.game
        if g.phase not in ("pass", "play"):
            return
        assert g.to_move == t.human
        hand = t.hands[t.human]
        if g.phase == "pass":
            for c in rng.sample(list(g.hand(t.human)), 3):
                hand.click(c)
            assert len(t.selected) == 3 and not t.pass_button.disabled
            t.pass_button.click()
        else:
            legal = [c for c in g.hand(t.human) if "qard-illegal" not in hand.button_for(c)._dom_classes]
            assert set(legal) == set(g.legal_actions())
            hand.click(rng.choice(legal))
        assert t.game.step > g.step, t.status.value


def test_rule_follow_suit_illegal_click_is_dimmed_refused_and_explained():
    """A card that does not follow suit is dimmed with the game's reason; clicking it changes nothing."""
    rng = random.Random(2)
    g = Hearts.new(4, seed=3)
    bots = {s: RandomBot(s) for s in range(1, 4)}
    t = HeartsTable(g, seat=0, human=0, bots=bots, charts=False)
    # pass, then play until the human has an illegal card in hand
    for _ in range(60):
        game = t.game
        if game.phase == "play" and game.to_move == 0 and set(game.hand(0)) != set(game.legal_actions()):
            break
        if game.phase == "pass":
            for c in list(game.hand(0))[:3]:
                t.hands[0].click(c)
            t.pass_button.click()
        else:
            t.hands[0].click(rng.choice(game.legal_actions()))
    game = t.game
    bad = next(c for c in game.hand(0) if c not in game.legal_actions())
    button = t.hands[0].button_for(bad)
    assert "qard-illegal" in button._dom_classes
    reason = button.tooltip.split(": ", 1)[1]
    assert reason
    before = t.timeline.record.to_json()
    button.click()
    assert t.timeline.record.to_json() == before
    assert "Not allowed" in t.status.value
    assert t.play(bad) is False  # the table's own click API says it was refused
    assert t.timeline.record.to_json() == before
    assert t.play(game.legal_actions()[0]) is True


def test_full_hand_and_match_played_through_the_widgets():
    rng = random.Random(5)
    g = Hearts.new(4, seed=11)
    t = table(g, seat=0, human=0, bots={s: RandomBot(s) for s in range(1, 4)}, charts=True)
    assert isinstance(t, HeartsTable)
    hands = 0
    while not t.game.is_over and hands < 3:
        play_hand_by_clicks(t, rng)
        assert t.game.phase in ("hand_over", "match_over")
        hands += 1
        assert t.score_sheet.value.count("<tr>") == hands + 2
        fig = t.figures["totals"]
        ys = [ln.get_ydata() for ln in fig.axes[0].lines if str(ln.get_gid()).startswith("seat")]
        assert [y[-1] for y in ys] == t.game.scores
        if t.game.phase == "hand_over":
            t.next_hand_button.click()
            assert t.game.phase in ("pass", "play")
    assert hands == 3


def test_pass_selection_toggles_and_3_player_table():
    g = Hearts.new(3, seed=4)
    t = HeartsTable(g, seat=0, human=0, bots={1: RandomBot(1), 2: RandomBot(2)}, charts=False)
    cards = list(t.game.hand(0))
    t.hands[0].click(cards[0])
    t.hands[0].click(cards[0])
    assert t.selected == []
    for c in cards[:4]:
        t.hands[0].click(c)
    assert t.selected == cards[:3] and "chosen 3" in t.status.value
    assert t.pass_button.description.startswith("Pass")


def test_stepper_and_last_trick():
    g = Hearts.new(5, seed=2)
    bots = [RandomBot(s) for s in range(5)]
    while g.phase in ("pass", "play"):
        play_turn(g, bots)
    t = HeartsTable(g, seat=None, charts=False)
    t.stepper.first_button.click()
    n = 0
    while not t.stepper.next_button.disabled:
        t.stepper.next_button.click()
        n += 1
    assert n == t.timeline.last
    t.timeline.go_to(t.timeline.last - 3)
    t.last_trick_toggle.value = True
    assert "taken by" in t.last_trick.value


def _twin(g: Hearts, seat: int, rng: random.Random) -> Hearts | None:
    """The same hand with two unplayed, unpassed same-suit cards swapped between two opponents."""
    deal = g.history[0]
    later = g.history[1:]
    hands = [list(h) for h in deal.hands]
    used = set()
    for a in later:
        for c in a if isinstance(a, tuple) else (a,):
            if isinstance(c, Card):
                used.add(c)
    opp = [s for s in range(g.players) if s != seat]
    pairs = [
        (s1, c1, s2, c2)
        for s1 in opp
        for s2 in opp
        if s1 < s2
        for c1 in hands[s1]
        for c2 in hands[s2]
        if c1.suit == c2.suit and c1 not in used and c2 not in used
    ]
    rng.shuffle(pairs)
    want = g.observation(seat)
    for s1, c1, s2, c2 in pairs[:50]:
        new = [list(h) for h in hands]
        new[s1][new[s1].index(c1)] = c2
        new[s2][new[s2].index(c2)] = c1
        try:
            twin = Hearts.replay([type(deal)(new)] + list(later), g.players, g.options, g.seed)
        except ValueError:
            continue
        if twin.observation(seat) == want:
            return twin
    return None


def test_seat_view_leaks_nothing_in_any_widget_value():
    """Two deals seat 1 cannot tell apart give identical widget trees in seat 1's view."""
    g = Hearts.new(4, seed=8)
    bots = [RandomBot(s) for s in range(4)]
    for _ in range(20):
        play_turn(g, bots)
    twin = _twin(g, 1, random.Random(1))
    assert twin is not None
    a, b = HeartsTable(g, seat=1, charts=True), HeartsTable(twin, seat=1, charts=True)
    assert tree_state(a) == tree_state(b)
    a.seat = b.seat = None
    assert tree_state(a) != tree_state(b)


def test_seat_view_shows_backs_for_other_hands():
    g = Hearts.new(6, seed=1)
    t = HeartsTable(g, seat=2, charts=False)
    own = {f'data-card="{c.code}"' for c in g.hand(2)}
    for s in range(6):
        if s == 2:  # the viewer's own hand, below the felt
            assert all(x in t.hands[2]._html.value for x in own)
        else:  # the others' boxes on the felt, and no other hand view holds cards
            v = t.seat_html(s)
            assert "data-card" not in v and v.count("qard-card-back") == len(g.hand(s))
            assert t.hands[s]._html.value == ""
    assert all(w is not None for w in all_widgets(t))


def test_counting_grid_marks_voids_and_shows_probabilities():
    """Rule: a seat that did not follow suit is void; the counting grid marks it and gives 0 there."""
    g = Hearts.new(4, seed=3)
    bots = [RandomBot(i) for i in range(4)]
    for _ in range(40):
        play_turn(g, bots)
    t = HeartsTable(g, seat=1, charts=False)
    k = g.knowledge(1)
    voids = [(f.holder, f.suit) for f in k.facts if f.kind == "void"]
    assert voids, "this seeded position has a void"
    v = t.counting.value
    assert "qard-void" in v and "%" in v
    holder, suit = voids[0]
    grid = k.grid("probability")
    assert all(grid[c][holder] == 0 for c in grid if c.suit == suit)
    t.seat = None
    assert "Choose a seat" in t.counting.value


def test_rule_passing_marks_chosen_then_received_cards_in_the_seat_view():
    """Rule (passing): a seat sees the cards it chose, then the cards it received; never another's."""
    g = Hearts.new(4, seed=3)
    bots = [RandomBot(i) for i in range(4)]
    while g.to_move == 0:  # seat 0 chooses its three cards, one at a time
        play_turn(g, bots)
    t = HeartsTable(g, seat=0, charts=False)
    assert t.hands[0]._html.value.count("qard-marked") == 3
    t.seat = 1
    assert "qard-marked" not in t.hands[0]._html.value + t.hands[1]._html.value
    while g.phase == "pass":
        play_turn(g, bots)
    t = HeartsTable(g, seat=2, charts=False)
    received = g.observation(2)["received"]
    marked = t.hands[2]._html.value.split("qard-marked")[1:]
    assert len(marked) == 3 and all(any(f'data-card="{c}"' in m[:400] for c in received) for m in marked)


def test_replay_stepper_hidden_while_the_human_plays_live():
    t = HeartsTable(
        Hearts.new(4, seed=3), seat=0, human=0, bots={s: RandomBot(s) for s in (1, 2, 3)}, charts=False
    )
    assert t.stepper.layout.display == "none" and t.replay in t.toolbar.children
    t.replay.value = True
    assert t.stepper.layout.display == ""
    t.replay.value = False
    assert t.stepper.layout.display == "none"
    assert HeartsTable(Hearts.new(4, seed=3), charts=False).stepper.layout.display == ""  # nobody plays

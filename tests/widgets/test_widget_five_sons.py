"""The Five Sons table driven from Python: clicks, a whole game, the stepper, and no leaks."""

from __future__ import annotations

import itertools
import random

import pytest
from widget_walk import all_text, all_widgets, tree_state

from qardlab.cards import Card
from qardlab.engine import Record, part_of, play
from qardlab.games.five_sons import Ask, Claim, FiveSons, NoClaim
from qardlab.games.five_sons.bots import RandomAsker, ReasoningBot
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from qardlab.widgets import felt, table
from qardlab.widgets.five_sons import FiveSonsTable

HANDS = ["JC QC KC AH 2H", "JD QD KD 3H 4H", "JH QH KH 5H 6H", "JS QS 7H 9H TH"]


def bot_game(seed: int, players: int = 4, bots=ReasoningBot, steps: int = 100_000) -> FiveSons:
    g = FiveSons.new(players, seed=seed)
    return play(g, [bots(seed * 10 + s) for s in range(players)], max_steps=steps)


def test_table_dispatch_and_teacher_view_shows_every_hand():
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"))
    t = table(g)
    assert isinstance(t, FiveSonsTable) and t.seat is None
    text = all_text(t)
    for h in HANDS:
        for code in h.split():
            assert f'data-card="{code}"' in text
    assert 'data-card="KS"' in text and 'data-card="8H"' in text  # the secret, face up for the teacher
    assert "qard-table" in t._dom_classes


def test_seat_view_shows_own_hand_and_backs_only():
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"))
    t = table(g, seat=1)
    html_own = t.hands[1]._html.value
    assert all(f'data-card="{c}"' in html_own for c in HANDS[1].split())
    for s in (0, 2, 3):  # the other seats' boxes on the felt
        v = t.seat_html(s)
        assert "data-card" not in v and v.count("qard-card-back") == 5
        assert t.hands[s]._html.value == ""  # only the bottom seat's hand view holds cards
    secret = felt.part(t.felt_view.value, cls="qard-secret")
    assert secret.count("qard-card-back") == 2 and "data-card" not in secret


def test_human_asks_through_the_question_builder_and_the_answer_is_logged():
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"), dealer=3)  # seat 0 asks first
    # (every other seat a bot's: a seat nobody plays here would wait for its person, forced or not)
    t = FiveSonsTable(g, seat=0, human=0, bots={s: ReasoningBot(s) for s in (1, 2, 3)}, charts=False)
    assert t.ask_row.layout.display == "" and t.claim_row.layout.display == "none"
    t.target.value = 2
    t.face.value = "QH"
    t.number.value = "2H"
    assert "The Queen of Hearts has two sons" in t.phrase.value
    t.ask_button.click()
    g2 = t.game
    assert g2.phase == "claim" and g2.question == Ask(2, "QH", "2H")
    assert "Carol shows Alice the Q♥." in t.log_view.value
    # the claim's cards start empty: Claim with no pair chosen says so and plays nothing
    assert (t.claim_face.value, t.claim_number.value) == (None, None)
    assert t.claim_row.layout.display == "" and t.confirm_row.layout.display == "none"
    assert not t.claim() and "Choose the face card" in t.status.value
    # the human claims wrongly, after one confirmation: public, the human is out and now sees the secret
    assert t.claim("JC", "AH")
    assert t.game.phase == "claim" and 0 not in t.game.eliminated  # asked, not made
    assert t.confirm_row.layout.display == "" and t.claim_row.layout.display == "none"
    assert "Claim J♣ A♥ now?" in t.confirm_text.value
    t.confirm_button.click()
    assert 0 in t.game.eliminated
    assert 'data-card="KS"' in felt.part(t.felt_view.value, cls="qard-secret")


def test_illegal_action_changes_nothing_and_says_why():
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"), dealer=3)
    t = FiveSonsTable(g, seat=0, human=0, charts=False)
    before = t.timeline.record.to_json()
    # two face cards: the game refuses, the status says why, nothing changed
    t.face.options = t.face.options  # the builder only offers faces; force a bad value through act()
    assert not t.act(Ask(1, "QC", "KD"))
    assert "Not allowed" in t.status.value and "KD" in t.status.value
    assert t.timeline.record.to_json() == before
    # not the human's turn to show: the hand is not clickable, a click elsewhere says so
    assert t.hands[0].mode == "html"


def test_show_choice_buttons_dim_the_cards_not_named():
    # seat 1 asks seat 0 about QC and AH; seat 0 (human) holds both and must choose
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"), dealer=0)
    g.apply(Ask(0, "QC", "AH"))
    assert g.phase == "answer" and g.to_move == 0
    t = FiveSonsTable(g, seat=0, human=0, charts=False)
    assert t.hands[0].mode == "buttons"
    kc = t.hands[0].button_for("KC")
    assert "qard-illegal" in kc._dom_classes and kc.tooltip.startswith("King of Clubs:")
    reason = kc.tooltip.split(": ", 1)[1]
    before = t.timeline.record.to_json()
    kc.click()  # illegal: refused with the game's own reason
    assert t.timeline.record.to_json() == before
    assert reason.split()[0] in t.status.value
    t.hands[0].click("AH")
    ev = [e for e in t.game.events if e.kind == "answer"][-1]
    assert ev.private[1]["card"] == "AH"


@pytest.mark.slow
@pytest.mark.parametrize("players,seed", [(4, 1), (5, 2)])
def test_full_game_played_through_the_widgets(players, seed):
    """The human seat plays by setting dropdowns and clicking; bots play the rest."""
    g = FiveSons.new(players, seed=seed)
    bots = {s: ReasoningBot(seed + s) for s in range(1, players)}
    t = FiveSonsTable(g, seat=0, human=0, bots=bots, charts=False)
    rng = random.Random(seed)
    for _ in range(2000):
        game = t.game
        if game.is_over:
            break
        assert game.to_move == 0
        k = game.knowledge(0)
        cands = sorted(k.candidates(), key=lambda p: (p[0].index, p[1].index))
        if game.phase == "ask":
            face, number = rng.choice(cands)
            t.target.value = rng.choice([o[1] for o in t.target.options])
            t.face.value, t.number.value = face.code, number.code
            t.ask_button.click()
        elif game.phase == "answer":  # every answer is the human's click, forced or not
            held = [c for c in game.question.cards if c in game.hand(0)]
            if held:
                t.hands[0].click(rng.choice(held))
            else:
                assert t.answer_row.layout.display == ""
                t.neither_button.click()
        elif game.phase == "claim":
            if len(cands) == 1:
                t.claim_face.value, t.claim_number.value = cands[0][0].code, cands[0][1].code
                t.claim_button.click()
                t.confirm_button.click()
            else:
                t.no_claim_button.click()
        assert t.game.step > game.step, t.status.value  # every click did something
    assert t.game.is_over
    assert "wins" in t.log_view.value or "no winner" in t.log_view.value
    # the record the table built replays to the same end
    rec = Record.from_json(t.timeline.record.to_json())
    assert rec.replay().winner == t.game.winner


def test_stepper_reaches_every_step_and_back():
    g = bot_game(5)
    t = FiveSonsTable(g, seat=2, charts=False)
    last = t.timeline.last
    t.stepper.first_button.click()
    seen = [t.timeline.position]
    texts = set()
    while not t.stepper.next_button.disabled:
        t.stepper.next_button.click()
        seen.append(t.timeline.position)
        texts.add(t.stepper.text.value)
        assert t.stepper.slider.value == t.timeline.position
    assert seen == list(range(last + 1))
    assert len(texts) > last // 2  # the words change as the game goes on
    while not t.stepper.previous_button.disabled:
        t.stepper.previous_button.click()
    assert t.timeline.position == 0 and "Before the deal" in t.stepper.text.value
    t.stepper.slider.value = 7
    assert t.timeline.position == 7 and t.game.step == 7
    t.stepper.play.value = 9  # the Play widget drives the slider
    assert t.stepper.slider.value == 9 and t.timeline.position == 9
    t.stepper.last_button.click()
    assert t.timeline.position == last


def test_grid_levels_and_explanations():
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"), dealer=3)
    g.play(Ask(2, "QH", "2H"))  # Carol must show the Q♥ to Alice
    t = FiveSonsTable(g, seat=0, charts=False)
    assert t.grid.values[(Card.parse("QH"), 2)] == "yes"
    assert t.grid.cell("QH", 2).description == "✓"
    t.grid.cell("QH", 2).click()
    assert "Q♥" in t.grid.explanation.value
    t.grid.level.value = "probability"
    v = t.grid.values[(Card.parse("KS"), "secret")]
    assert 0 < v < 1
    assert t.grid.cell("KS", "secret").description.endswith("%")
    t.grid.level.value = "naive"
    assert t.grid.values[(Card.parse("JC"), 1)] == "no"  # Alice holds J♣: crossing out seen cards


def test_notes_off_hides_the_human_grid():
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"), dealer=3, notes=False)
    t = FiveSonsTable(g, seat=0, human=0, charts=True)
    assert t.grid.layout.display == "none" and "memory" in t.grid_note.value
    assert t.chart_tabs.layout.display == "none"
    t.seat = None
    assert t.grid.layout.display == ""


def test_charts_show_the_seat_history_up_to_the_current_step():
    g = bot_game(3)
    t = FiveSonsTable(g, seat=1, charts=True)
    t.timeline.go_to(30)
    fig = t.figures["candidates"]
    lines = {ln.get_gid(): ln for a in fig.axes for ln in a.lines}
    # issue 11: the chart counts questions, as the text and the exercises do: the marker at the question
    # of step 30, the x axis to the game's last question
    turn = t.timeline.state_at(30).turn
    assert 0 < turn < 30 and list(lines["current"].get_xdata()) == [turn, turn]
    assert max(lines["logic"].get_xdata()) == turn
    assert fig.axes[0].get_xlim() == (0, t.timeline.state_at(t.timeline.last).turn)
    assert fig.axes[0].get_xlabel() == "questions asked"
    k = t.timeline.state_at(30).knowledge(1)
    assert lines["logic"].get_ydata()[-1] == len(k.candidates())
    assert lines["naive"].get_ydata()[-1] == len(k.naive_candidates())
    assert lines["entropy"].get_ydata()[-1] == pytest.approx(k.entropy())
    assert t.chart_views[0].value  # a PNG was drawn
    t.chart_tabs.selected_index = 1
    im = t.figures["pairs"].axes[0].images[0].get_array()
    assert im.shape == (12, 10) and im.sum() == pytest.approx(1.0)
    t.chart_tabs.selected_index = 2
    assert t.figures["advice"].axes[0].patches


def test_a_table_nobody_plays_fits_its_question_axis_to_the_game_it_shows():
    """Issue 29: lesson 02's table (no person, no bots) over a game of two questions drew an axis to 20
    questions. A table that only steps through an unfinished game fits the axis to its questions; one that
    bots play on keeps a growing axis until the game is over."""
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"), dealer=3)
    g.play(Ask(2, "QC", "8H"))
    while g.phase == "claim":
        g.apply(NoClaim())
    g.play(Ask(2, "QC", "9H"))
    while g.phase == "claim":
        g.apply(NoClaim())
    t = FiveSonsTable(g, seat=3, charts=True)
    assert t.figures["candidates"].axes[0].get_xlim() == (0, 2)
    t.seat = None  # the teacher's chart of every seat: the same axis
    assert t.figures["seats"].axes[0].get_xlim() == (0, 2)
    # bots that play on at this table: the axis is fixed ahead of the game, so a step redraws only lines
    bots = {s: RandomAsker(s) for s in range(4)}
    watched = FiveSonsTable(g.copy(), seat=3, charts=True, bots=bots, pace="fast (0.4 s)")
    assert not watched.timeline.final.is_over
    assert watched.figures["candidates"].axes[0].get_xlim() == (0, 20)


# -- nothing leaks ------------------------------------------------------------------------
def _swap_twins(g: FiveSons, seat: int, rng: random.Random, tries: int = 400):
    """Another game the seat cannot tell from ``g``: two unseen cards swapped, same actions."""
    deal = g.history[0]
    actions = g.history[1:]
    holders = {c: s for s, h in enumerate(deal.hands) for c in h}
    holders.update({c: "secret" for c in deal.secret})
    unseen = [c for c in holders if holders[c] != seat]
    pairs = [(a, b) for a, b in itertools.combinations(unseen, 2) if holders[a] != holders[b]]
    rng.shuffle(pairs)
    want = g.observation(seat)
    for a, b in pairs[:tries]:
        new = dict(holders)
        new[a], new[b] = holders[b], holders[a]
        secret = sorted((c for c in new if new[c] == "secret"), key=lambda c: c.is_face, reverse=True)
        if not (secret[0] in FACE_CARDS and secret[1] in NUMBER_CARDS):
            continue
        hands = [[c for c in new if new[c] == s] for s in range(g.players)]
        try:
            twin = FiveSons.from_deal(hands, secret=tuple(secret), dealer=deal.dealer)
            for act in actions:  # every step as it was seen, answers included (chosen or forced)
                twin.apply(act)
        except ValueError:
            continue
        if twin.observation(seat) == want:
            return twin
    return None


@pytest.mark.slow
@pytest.mark.parametrize("seed,players,upto", [(11, 4, 12), (12, 5, 20), (13, 4, 40)])
def test_seat_view_leaks_nothing_in_any_widget_value(seed, players, upto):
    """A seat's whole widget tree is identical for two deals the seat cannot tell apart."""
    g = bot_game(seed, players, RandomAsker, steps=upto)
    rng = random.Random(seed)
    found = 0
    for seat in range(players):
        if found == 2:
            break
        twin = _swap_twins(g, seat, rng)
        if twin is None:
            continue
        found += 1
        a = FiveSonsTable(g, seat=seat, charts=True)
        b = FiveSonsTable(twin, seat=seat, charts=True)
        a.chart_tabs.selected_index = b.chart_tabs.selected_index = 1
        assert tree_state(a) == tree_state(b)
        # and the test has teeth: the teacher sees the difference
        a.seat = b.seat = None
        assert tree_state(a) != tree_state(b)
    assert found >= 2


def test_seat_view_never_names_cards_it_has_not_seen():
    g = bot_game(21, 4, RandomAsker, steps=25)
    t = FiveSonsTable(g, seat=3, charts=False)
    obs = t.game.observation(3)
    seen = set(obs["hand"]) | {part_of(e, 3)["card"] for e in obs["events"] if "card" in part_of(e, 3)}
    for e in obs["events"]:
        seen.update(e.get("secret", []), part_of(e, 3).get("secret", []))
    hidden = {c.code for c in FACE_CARDS + NUMBER_CARDS} - seen
    # outside the grid rows and the question/claim choices (which list every card), no hidden card appears
    skip = {id(w) for w in all_widgets(t.grid)} | {id(w) for w in all_widgets(t.controls)}
    text = "\n".join(str(w.get_state()) for w in all_widgets(t) if id(w) not in skip)
    for code in hidden:
        c = Card.parse(code)
        assert f'data-card="{code}"' not in text
        assert f"the {c.symbol}." not in text  # "Bob shows Alice the 8♥." only for the asker


def test_bots_on_a_clock_play_one_move_per_tick():
    g = FiveSons.new(4, seed=4)
    t = FiveSonsTable(
        g, seat=0, human=None, bots={s: RandomAsker(s) for s in range(4)}, pace="fast (0.4 s)", charts=False
    )
    t.run_bots()
    assert not t.clock.playing  # not on a page yet: a timer started now would never tick
    t.clock._view_count = 1  # the browser shows the clock
    assert t.clock.playing
    moves = len(t.timeline.record.actions)
    t.clock.value += 1  # one tick of the browser's timer
    assert len(t.timeline.record.actions) == moves + 1  # one bot move (a forced answer may follow it)


def test_table_of_a_record_and_history_agrees_with_the_deduction_engine():
    """The table's incremental history equals deduction.history.candidate_history at every row."""
    from qardlab.deduction.history import candidate_history

    g = bot_game(6, 4, RandomAsker, steps=60)
    rec = Record.from_json(g.record().to_json())
    t = table(rec, seat=2)
    assert isinstance(t, FiveSonsTable) and t.timeline.last == g.step
    mine = {r["step"]: r for r in t._history(2)}
    theirs = candidate_history(rec, 2)
    assert theirs
    for row in theirs:
        m = mine[row.step + 1]  # an event at step s is seen at position s + 1
        assert (m["naive"], m["logic"]) == (row.naive, row.logic)
        assert m["entropy"] == pytest.approx(row.entropy, abs=1e-9)


def test_unknown_game_and_bad_seat_are_refused():
    with pytest.raises(ValueError, match="no table widget"):
        table(object())
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"))
    with pytest.raises(ValueError, match="seat 7"):
        table(g, seat=7)


def test_teacher_chart_shows_every_seat_logic_count():
    g = bot_game(7, 4, RandomAsker, steps=30)
    t = FiveSonsTable(g, seat=None, charts=True)
    t.timeline.go_to(20)
    fig = t.figures["seats"]
    lines = {ln.get_gid(): ln for ln in fig.axes[0].lines}
    turn = t.timeline.state_at(20).turn  # the x axis counts questions (issue 11)
    assert 0 < turn < 20 and list(lines["current"].get_xdata()) == [turn, turn]
    for s, name in enumerate(t.names):
        k = t.timeline.state_at(20).knowledge(s)
        assert lines[f"seat:{name}"].get_ydata()[-1] == len(k.candidates())
    t.chart_tabs.selected_index = 1
    assert "pairs" not in t.figures  # the pair grid is a seat's; the teacher has none


def test_unknown_pace_is_refused_by_name():
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"))
    with pytest.raises(ValueError, match="'warp'"):
        FiveSonsTable(g, pace="warp", charts=False)


def test_grid_before_the_deal_is_empty_not_all_no():
    """Before the deal no card is anywhere: the teacher's grid has neither yes nor no in any cell."""
    t = FiveSonsTable(FiveSons.new(4, seed=2), seat=None, charts=False)
    t.timeline.go_to(0)
    assert set(t.grid.values.values()) == {None}
    t.timeline.go_to(1)  # dealt: now the teacher sees where every card is
    assert "yes" in set(t.grid.values.values())


# -- issue 11: the app makes the player work less, and shows what matters -------------------------


def _claim_chances(t: FiveSonsTable) -> list[bool]:
    """For each claim step of the human in the record: whether it followed the human's own question."""
    g = FiveSons.new(4, seed=2, dealer=3)
    out, asker = [], None
    for a in t.timeline.game.history:
        if type(a).__name__ == "Deal":  # dealt by FiveSons.new already
            continue
        if g.phase == "ask":
            asker = g.to_move
        if g.phase == "claim" and g.to_move == 0:
            out.append(asker == 0)
        g.apply(a)
    return out


def test_auto_pass_passes_the_humans_claims_after_others_questions_on_the_bots_clock():
    """With "pass on claims unless I claim", the human clicks No claim only after its own questions."""
    g = FiveSons.new(4, seed=2, dealer=3)
    t = FiveSonsTable(
        g, seat=0, human=0, bots={s: ReasoningBot(s) for s in (1, 2, 3)}, charts=False, auto_pass=True
    )
    assert t.auto_pass.value and t.auto_pass in t.controls.children
    clicks = 0
    for _ in range(200):
        obs = t.observation(0)
        if obs["is_over"] or 0 in obs["eliminated"]:
            break
        assert t.human_to_act(), "the table waits only for the human's own steps"
        if obs["phase"] == "ask":
            target = obs["legal"][0]["target"]
            assert t.ask(target, "QC", "8H")
        elif obs["phase"] == "claim":
            assert obs["question"]["asker"] == 0  # its own question was just answered
            assert "Your question is answered" in t.prompt.value
            t.no_claim_button.click()
            clicks += 1
        elif obs["legal"] == [{"type": "neither"}]:
            t.neither_button.click()
        else:
            t.hands[0].click(obs["legal"][0]["card"])
    chances = _claim_chances(t)
    assert len(chances) > clicks >= 1  # the other chances were passed by the table
    assert clicks == sum(chances)


def test_auto_pass_a_claim_chosen_beforehand_is_made_at_the_next_chance():
    g = FiveSons.new(4, seed=2, dealer=0)  # Bob asks first: the human's first chance follows his question
    t = FiveSonsTable(
        g,
        seat=0,
        human=0,
        bots={s: ReasoningBot(s) for s in (1, 2, 3)},
        charts=False,
        auto_pass=True,
        pace="slow (1.2 s)",
    )
    assert t.claim_row.layout.display == ""  # a claim may be chosen at any time
    assert t.claim_button.description == "Claim at my next chance"
    secret = [c.code for c in t.game.secret]
    before = len(t.timeline.steps)
    assert t.claim(*secret) and "at your next chance?" in t.confirm_text.value
    assert len(t.timeline.steps) == before and t.armed is None  # asked, not yet kept
    assert t.confirm_claim()
    assert len(t.timeline.steps) == before  # nothing played now: the claim waits for its chance
    assert "You will claim" in t.prompt.value and t.no_claim_button.description == "Cancel my claim"
    assert "You will claim" not in t.status.value  # said once, by the prompt
    for _ in range(40):  # the bots' clock ticks (the browser would)
        if t.observation(0)["is_over"]:
            break
        t.clock.value += 1
    obs = t.observation(0)
    assert obs["is_over"] and obs["winner"] == 0 and t.armed is None
    assert "right! You win." in felt.part(t.felt_view.value, cls="qard-verdict")
    # cancelled, a chosen claim is forgotten
    t2 = FiveSonsTable(
        FiveSons.new(4, seed=2, dealer=0),
        seat=0,
        human=0,
        charts=False,
        auto_pass=True,
        bots={s: ReasoningBot(s) for s in (1, 2, 3)},
        pace="slow (1.2 s)",
    )
    t2.claim("JC", "AH")
    t2.confirm_button.click()
    assert t2.armed == Claim("JC", "AH")
    t2.no_claim_button.click()
    assert t2.armed is None and t2.no_claim_button.layout.display == "none"


def test_without_auto_pass_every_claim_chance_waits_for_the_human():
    t = FiveSonsTable(
        FiveSons.new(4, seed=2, dealer=0),
        seat=0,
        human=0,
        charts=False,
        bots={s: ReasoningBot(s) for s in (1, 2, 3)},
    )
    obs = t.observation(0)
    assert not t.auto_pass.value and (obs["phase"], obs["to_move"]) == ("claim", 0)
    assert obs["question"]["asker"] == 1 and t.claim_row.layout.display == ""
    assert t.claim_button.description == "Claim"


def test_replay_stepper_hidden_during_live_play_shown_on_demand_and_at_the_end():
    t = FiveSonsTable(
        FiveSons.new(4, seed=2, dealer=3),
        seat=0,
        human=0,
        charts=False,
        bots={s: ReasoningBot(s) for s in (1, 2, 3)},
    )
    assert t.stepper.layout.display == "none" and t.replay in t.toolbar.children
    t.replay.value = True
    assert t.stepper.layout.display == ""
    t.replay.value = False
    assert t.stepper.layout.display == "none"
    assert t.ask(1, "QC", "8H")
    t.claim(*[c.code for c in t.game.secret])
    assert t.confirm_claim()
    assert t.observation(0)["is_over"] and t.stepper.layout.display == ""
    # a table nobody plays (a lesson's replay) always shows its stepper
    assert FiveSonsTable(FiveSons.new(4, seed=2), charts=False).stepper.layout.display == ""


def test_grid_sits_beside_the_felt_and_controls_and_counts_pairs_in_words():
    g = FiveSons.from_deal(HANDS, secret=("KS", "8H"), dealer=3)
    t = FiveSonsTable(g, seat=0, human=0, bots={}, charts=False)
    row = next(w for w in t.children if t.play_column in getattr(w, "children", ()))
    assert row.children == (t.play_column, t.grid_column)
    assert t.felt in t.play_column.children and t.controls in t.play_column.children
    assert t.grid in t.grid_column.children
    assert "pairs by crossing out" in t.grid.title.value and " 1 pairs" not in t.grid.title.value
    assert felt.count_words(1, "pair") == "1 pair"

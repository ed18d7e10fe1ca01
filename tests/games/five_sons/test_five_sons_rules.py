"""Every rule of RULES.md's Five Sons section, each test named after the rule it checks."""

from __future__ import annotations

import pytest

from qardlab.cards import Card
from qardlab.engine import CHANCE, Game, IllegalAction
from qardlab.games.five_sons import TITLE, Ask, Claim, Deal, FiveSons, Neither, NoClaim, Show, phrase
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS, five_sons_deck

from .conftest import HANDS4, SECRET


def C(code: str) -> Card:
    return Card.parse(code)


def pass_round(g: FiveSons) -> None:
    """Every seat still in passes its chance to claim."""
    while g.phase == "claim":
        g.apply(NoClaim())


def test_rule_deck_is_22_cards_faces_and_hearts_ace_to_ten() -> None:
    deck = five_sons_deck()
    assert len(deck) == 22 == len(set(deck))
    assert {c.code for c in FACE_CARDS} == {r + s for r in "JQK" for s in "CDHS"}
    assert [c.code for c in NUMBER_CARDS] == ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"]
    assert deck[:12] == list(FACE_CARDS) and deck[12:] == list(NUMBER_CARDS)  # the deck's order: faces first
    assert all(c.is_face for c in FACE_CARDS) and not any(c.is_face for c in NUMBER_CARDS)


@pytest.mark.parametrize("players", [4, 5])
def test_rule_players_four_or_five(players: int) -> None:
    g = FiveSons.new(players, seed=1)
    assert g.players == players and g.phase == "ask"


@pytest.mark.parametrize("players", [0, 3, 6, "4", True, None])
def test_rule_players_other_counts_refused(players) -> None:
    with pytest.raises(ValueError, match=repr(players).replace("(", r"\(")):
        FiveSons.new(players, seed=1)


@pytest.mark.parametrize("players", [4, 5])
def test_rule_deal_secret_is_one_face_one_number_and_hands_are_even(players: int) -> None:
    for seed in range(40):
        g = FiveSons.new(players, seed=seed)
        face, number = g.secret
        assert face in FACE_CARDS and number in NUMBER_CARDS
        hands = [set(g.hand(s)) for s in range(players)]
        assert all(len(h) == 20 // players for h in hands)  # 5 each with 4 players, 4 each with 5
        assert set().union(*hands) | {face, number} == set(five_sons_deck())


def test_rule_deal_secret_pairs_cover_all_120() -> None:
    pairs = {FiveSons.new(4, seed=s).secret for s in range(3000)}
    assert len(pairs) == 120


class _NoShuffle:
    """An RNG stub whose shuffles leave the piles in deck order."""

    def shuffle(self, items: list) -> None:
        pass


@pytest.mark.parametrize("dealer", [0, 2, 3])
def test_rule_deal_split_piles_then_one_at_a_time_from_dealers_left(dealer: int) -> None:
    g = FiveSons(4, {}, None)
    g._next_dealer = dealer
    g.rng = _NoShuffle()
    deal = g.chance_outcome()
    assert deal.secret == (FACE_CARDS[-1], NUMBER_CARDS[-1])  # the top card of each pile is put aside
    rest = [*FACE_CARDS[:-1], *NUMBER_CARDS[:-1]]
    for i, card in enumerate(rest):
        assert card in deal.hands[(dealer + 1 + i) % 4]
    g.apply(deal)
    assert g.dealer == dealer


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_rule_turns_player_left_of_dealer_asks_first_then_clockwise(dealer: int) -> None:
    g = FiveSons.from_deal(HANDS4, secret=SECRET, dealer=dealer)
    first = (dealer + 1) % 4
    assert g.to_move == first and g.phase == "ask"
    g.play(Ask((first + 1) % 4, "KS", "TH"))  # nobody holds the secret: "neither"
    pass_round(g)
    assert g.to_move == (first + 1) % 4 and g.phase == "ask"


def test_rule_ask_any_other_player_one_face_one_number(game4: FiveSons) -> None:
    legal = game4.legal_actions()
    assert len(legal) == 3 * 12 * 10
    assert {a.target for a in legal} == {0, 2, 3}
    assert all(a.face in FACE_CARDS and a.number in NUMBER_CARDS for a in legal)
    assert Ask(1, "JC", "AH") not in legal


def test_rule_ask_may_name_own_cards(game4: FiveSons) -> None:
    # seat 1 holds KD; asking about it is allowed
    game4.play(Ask(2, "KD", "AH"))
    assert game4.phase == "claim"
    assert game4.events[-1].kind == "answer" and game4.events[-1].public["shown"] is True


def test_rule_answer_both_named_cards_answerer_chooses(game4: FiveSons) -> None:
    game4.apply(Ask(2, "QS", "AH"))  # seat 2 holds both
    assert game4.phase == "answer" and game4.to_move == 2
    assert game4.legal_actions() == [Show("QS"), Show("AH")]
    game4.apply(Show("AH"))
    ev = game4.events[-1]
    assert ev.kind == "answer" and ev.private[1] == {"card": "AH"}
    assert game4.phase == "claim" and game4.to_move == 1


def test_rule_answer_one_named_card_is_shown_by_force(game4: FiveSons) -> None:
    """RULES.md, answering: holding one named card, the answerer must show it. Live, the answer
    is still the answerer's own step: after the ask it is to move, with that Show as its only
    legal action (marked forced); anything else is refused with nothing changed."""
    step = game4.step
    game4.apply(Ask(2, "QS", "9H"))  # seat 2 holds QS only
    assert game4.step == step + 1 and game4.phase == "answer" and game4.to_move == 2
    assert game4.legal_actions() == [Show("QS")] and Game.is_forced(game4.legal_actions()[0])
    assert game4.forced_action() == Show("QS") and game4.observation(2)["legal"] == [Show("QS")]
    before = game4.record().to_json()
    for bad in (Show("9H"), Neither(), NoClaim(), Show("2C")):
        with pytest.raises(IllegalAction):
            game4.apply(bad)
    assert game4.record().to_json() == before
    game4.apply(Show("QS"))  # given as a plain Show: the engine marks it forced
    assert game4.step == step + 2 and game4.phase == "claim"
    assert game4.history[-1] == Show("QS") and game4.history[-1].forced
    assert game4.record().to_dict()["actions"][-1] == {"type": "show", "card": "QS"}  # v2 saves every step
    ev = game4.events[-1]
    assert ev.kind == "answer" and ev.public["answerer"] == 2 and ev.public["shown"]
    assert ev.private[1] == {"card": "QS"}
    again = FiveSons.from_deal(HANDS4, secret=SECRET, dealer=0).play(Ask(2, "QS", "9H"))
    assert again.history == game4.history and again.record().to_json() == game4.record().to_json()


def test_rule_answer_neither_is_said_aloud(game4: FiveSons) -> None:
    game4.apply(Ask(3, "JC", "AH"))
    assert game4.phase == "answer" and game4.to_move == 3 and game4.legal_actions() == [Neither()]
    with pytest.raises(IllegalAction, match="neither"):
        game4.apply(Show("JC"))
    assert game4.apply_forced() == [Neither()] and game4.phase == "claim"
    ev = game4.events[-1]
    assert ev.kind == "answer" and ev.public["shown"] is False and not ev.private
    for seat in range(4):
        assert game4.describe(ev, seat) == "Dave has neither."


def test_rule_shown_card_seen_by_asker_alone(game4: FiveSons) -> None:
    game4.play(Ask(2, "QS", "9H"))
    ev = game4.events[-1]
    assert game4.describe(ev, 1) == "Carol shows Bob the Q♠."
    assert game4.describe(ev, 2) == "Carol shows Bob the Q♠."  # the answerer knows what they showed
    for onlooker in (0, 3):
        assert game4.describe(ev, onlooker) == "Carol shows Bob a card."
        seen = game4.observation(onlooker)["events"][-1]
        assert "private" not in seen and seen["shown"] is True  # (QS was named by the question)
    assert game4.observation(1)["events"][-1]["private"] == {"1": {"card": "QS"}}  # Bob's part alone
    assert game4.observation(None)["events"][-1]["private"] == {"1": {"card": "QS"}, "2": {"card": "QS"}}


def test_rule_claim_round_after_each_answer_clockwise_from_asker(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    order = []
    while game4.phase == "claim":
        order.append(game4.to_move)
        game4.apply(NoClaim())
    assert order == [1, 2, 3, 0]
    assert game4.phase == "ask" and game4.to_move == 2


def test_rule_claim_right_wins_at_once(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(NoClaim())  # seat 1 passes
    game4.apply(Claim("KS", "TH"))  # seat 2 is right
    assert game4.is_over and game4.winner == 2 and game4.phase == "over" and game4.to_move is None
    assert game4.legal_actions() == []
    last = game4.observation(0)["events"][-1]
    assert last["kind"] == "over" and last["winner"] == 2 and last["secret"] == ["KS", "TH"]


def test_rule_claim_wrong_is_public_eliminates_and_shows_claimant_the_secret(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(Claim("KH", "5H"))  # seat 1, wrong
    ev = next(e for e in reversed(game4.events) if e.kind == "claim")
    assert ev.public == {"seat": 1, "face": "KH", "number": "5H", "right": False}
    assert ev.private == {1: {"secret": ["KS", "TH"]}}
    assert game4.eliminated == {1}
    assert game4.observation(1)["events"][-1]["private"] == {"1": {"secret": ["KS", "TH"]}}
    for other in (0, 2, 3):
        seen = game4.observation(other)["events"][-1]
        assert seen["right"] is False and "secret" not in seen and "private" not in seen
    assert not game4.is_over and game4.to_move == 2  # the round goes on


def test_rule_eliminated_player_may_not_ask_or_claim_again(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(Claim("KH", "5H"))  # seat 1 out
    pass_round(game4)
    # seat 2 asks, and in the claim rounds seat 1 is skipped
    game4.play(Ask(3, "JC", "AH"))
    order = []
    while game4.phase == "claim":
        order.append(game4.to_move)
        game4.apply(NoClaim())
    assert order == [2, 3, 0]
    with pytest.raises(IllegalAction, match="wrong claim"):
        game4.act(1, Ask(0, "JC", "AH"))


def test_rule_eliminated_players_are_skipped_as_askers(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(NoClaim())  # 1
    game4.apply(Claim("KH", "5H"))  # 2 out
    pass_round(game4)
    assert game4.to_move == 3  # 2 is skipped
    game4.play(Ask(0, "JC", "AH"))
    pass_round(game4)
    assert game4.to_move == 0
    game4.play(Ask(1, "JC", "AH"))
    pass_round(game4)
    assert game4.to_move == 1


def test_rule_eliminated_player_still_answers(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(NoClaim())  # 1
    game4.apply(Claim("KH", "5H"))  # 2 out
    pass_round(game4)
    assert 2 in {a.target for a in game4.legal_actions()}  # eliminated players can still be asked
    game4.play(Ask(2, "KD", "AH"))  # seat 2 holds AH: forced to show it
    ev = game4.events[-1]
    assert ev.kind == "answer" and ev.public["answerer"] == 2 and ev.private[3] == {"card": "AH"}


def test_rule_everyone_eliminated_no_winner_and_secret_shown(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    for _ in range(4):
        game4.apply(Claim("KH", "5H"))
    assert game4.is_over and game4.winner is None and game4.eliminated == {0, 1, 2, 3}
    last = game4.events[-1]
    assert last.kind == "over" and last.public["secret"] == ["KS", "TH"]
    for seat in range(4):
        assert game4.observation(seat)["events"][-1]["secret"] == ["KS", "TH"]
        assert "no winner" in game4.describe(last, seat)


def test_rule_ask_mode_pass_left_passes_on_neither_until_a_card_is_shown() -> None:
    g = FiveSons.from_deal(HANDS4, secret=SECRET, dealer=0, ask_mode="pass_left")
    assert {a.target for a in g.legal_actions()} == {2}  # only the left neighbour
    with pytest.raises(IllegalAction, match="left neighbour"):
        g.apply(Ask(3, "JC", "9H"))
    g.apply(Ask(2, "JC", "9H"))  # seat 2 has neither, seat 3 holds 9H: two answers, one step each
    assert (g.phase, g.to_move, g.legal_actions()) == ("answer", 2, [Neither()])
    g.apply(Neither())
    assert (g.phase, g.to_move, g.legal_actions()) == ("answer", 3, [Show("9H")])
    g.apply(Show("9H"))
    answers = [e for e in g.events if e.kind == "answer"]
    assert [(e.public["answerer"], e.public["shown"]) for e in answers] == [(2, False), (3, True)]
    assert answers[-1].private[1] == {"card": "9H"}
    assert g.phase == "claim" and g.to_move == 1


def test_rule_ask_mode_pass_left_stops_when_back_at_the_asker() -> None:
    g = FiveSons.from_deal(HANDS4, secret=SECRET, dealer=0, ask_mode="pass_left")
    g.play(Ask(2, "KS", "TH"))  # the secret: nobody holds either
    answers = [e.public["answerer"] for e in g.events if e.kind == "answer"]
    assert answers == [2, 3, 0]
    assert g.phase == "claim" and g.to_move == 1


def test_rule_ask_mode_pass_left_chooser_when_holding_both() -> None:
    g = FiveSons.from_deal(HANDS4, secret=SECRET, dealer=0, ask_mode="pass_left")
    g.apply(Ask(2, "QS", "2H"))
    assert g.phase == "answer" and g.to_move == 2
    g.apply(Show("2H"))
    assert g.phase == "claim"


def test_rule_notes_option_default_on_and_stored() -> None:
    assert FiveSons.new(4, seed=1).options["notes"] is True
    g = FiveSons.new(4, seed=1, notes=False)
    assert g.options["notes"] is False and g.observation(0)["options"]["notes"] is False
    with pytest.raises(ValueError, match="notes"):
        FiveSons.new(4, seed=1, notes="no")
    with pytest.raises(ValueError, match="ask_mode"):
        FiveSons.new(4, seed=1, ask_mode="sideways")
    with pytest.raises(ValueError, match="colour"):
        FiveSons.new(4, seed=1, colour="red")


def test_rule_phrase_of_questions_and_the_title() -> None:
    assert phrase("QC", "8H") == "The Queen of Clubs has eight sons"
    assert phrase("JS", "AH") == "The Jack of Spades has one son"
    assert phrase(C("KD"), "TH") == "The King of Diamonds has ten sons"
    assert TITLE == "The King of Hearts has five sons"
    with pytest.raises(ValueError, match="QS"):
        phrase("KH", "QS")


def test_rule_describe_each_event_as_each_seat_saw_it() -> None:
    hands = ["KH QH AH 2H 3H", "QC 8H JC KC 4H", "JD QD KD JH 5H", "JS QS 6H 7H 9H"]
    g = FiveSons.from_deal(hands, secret=("KS", "TH"), dealer=3)  # Alice (0) asks first
    g.apply(Ask(1, "QC", "8H"))  # Bob holds both
    ask = g.events[-1]
    assert g.describe(ask, 2) == "Alice asks Bob: the Queen of Clubs has eight sons."
    g.apply(Show("8H"))
    ans = g.events[-1]
    assert g.describe(ans, 0) == "Bob shows Alice the 8♥."
    assert g.describe(ans, 2) == "Bob shows Alice a card."
    assert g.describe(ans, None) == "Bob shows Alice the 8♥."
    deal = g.events[0]
    assert g.describe(deal, 0) == "Dave deals 5 cards each; you get Q♥ K♥ A♥ 2♥ 3♥."
    assert "K♠" in g.describe(deal, None) and "K♠" not in g.describe(deal, 0)
    g.apply(Claim("KS", "TH"))
    assert g.describe(g.events[-2], 1) == (
        "Alice claims: the King of Spades has ten sons. Right: that is the secret pair."
    )
    assert g.describe(g.events[-1], 1) == "Alice wins. The secret pair was K♠ 10♥."


def test_rule_names_option_used_in_words() -> None:
    g = FiveSons.from_deal(HANDS4, secret=SECRET, names=["Ann", "Ben", "Cat", "Dan"])
    g.play(Ask(3, "JC", "AH"))
    assert g.describe(g.events[-2], 0) == "Ben asks Dan: the Jack of Clubs has one son."
    with pytest.raises(ValueError, match="names"):
        FiveSons.from_deal(HANDS4, secret=SECRET, names=["Ann"])


def test_rule_chance_is_an_action_in_the_history() -> None:
    g = FiveSons(4, {}, 3)
    assert g.to_move == CHANCE and g.phase == "deal" and g.legal_actions() == []
    deal = g.chance_outcome()
    assert isinstance(deal, Deal)
    g.apply(deal)
    assert g.history[0] == deal and g.record().actions[0]["type"] == "deal"
    assert FiveSons.new(4, seed=3).record().to_json() == g.record().to_json()


def test_rule_hand_shows_itself_as_cards(game4: FiveSons) -> None:
    h = game4.hand(2)
    assert str(h) == "QS AH 2H 3H 4H"
    assert h._repr_html_().count("qard-card") == 5


def test_transcript_in_words_per_seat(game4: FiveSons) -> None:
    game4.play(Ask(2, "QS", "9H"))
    assert game4.transcript(3)[1:] == [
        "Bob asks Carol: the Queen of Spades has nine sons.",
        "Carol shows Bob a card.",
    ]
    assert game4.transcript(1)[-1] == "Carol shows Bob the Q♠."
    assert game4.transcript()[-1] == "Carol shows Bob the Q♠."
    with pytest.raises(IllegalAction, match="seat 9"):
        game4.transcript(9)


def test_rule_only_the_answerer_knows_it_had_a_choice() -> None:
    """RULES.md, answering: everyone but the asker sees only *that* a card was shown.

    Holding both named cards (a choice) or one (forced) must look the same to every other
    seat: same steps, same phases, same observations, live (each step as it is applied) and
    position by position when stepping through.
    """
    from qardlab.engine import Timeline

    both = FiveSons.from_deal(HANDS4, secret=SECRET, dealer=0)  # seat 2 holds QS and AH
    one = FiveSons.from_deal(
        ["JC QC KC JD QD", "KD JH QH KH JS", "QS 9H 2H 3H 4H", "5H 6H 7H 8H AH"], secret=SECRET, dealer=0
    )  # seat 2 holds QS only; seat 3 has AH
    for g in (both, one):
        g.apply(Ask(2, "QS", "AH"))
        assert g.phase == "answer" and g.to_move == 2
    assert set(both.legal_actions()) == {Show("QS"), Show("AH")}
    assert one.legal_actions() == [Show("QS")]
    for seat in (0, 1):  # live, between the ask and the answer (seat 3 holds AH in one deal only)
        assert both.observation(seat) == one.observation(seat)
    both.apply(Show("QS"))
    one.apply(Show("QS"))  # forced, given as the answerer's own step
    for seat in (0, 1):
        assert both.observation(seat) == one.observation(seat)
    assert both.step == one.step
    tb, to = Timeline(both), Timeline(one)
    assert len(tb) == len(to)
    for k in range(len(tb)):
        gb, go = tb.go_to(k), to.go_to(k)
        assert gb.observation(1) == go.observation(1)  # the asker: sees QS either way
        assert gb.observation(0) == go.observation(0)  # an onlooker
        assert (gb.phase, gb.to_move) == (go.phase, go.to_move)

"""qardlab.lessons.position: a seat's view in plain lists, from a game's observation or a history in words.
RULES.md, "What a seat knows": a shown card is seen by the asker alone; everyone else learns "one of"."""

from __future__ import annotations

import pytest

from qardlab.cards import Card
from qardlab.games.five_sons import Ask, FiveSons, NoClaim, Show
from qardlab.lessons.position import position, position_of

HANDS = [
    ["JS", "KD", "2H", "3H", "4H"],
    ["QC", "8H", "JC", "5H", "6H"],
    ["QD", "JD", "7H", "9H", "TH"],
    ["KS", "KC", "QH", "QS", "JH"],
]
SECRET = ("KH", "AH")
LINES = [
    "Alice asks Bob: QC 8H -> shows QC",
    "Bob asks Dave: KS 2H -> shows KS",
    "Carol asks Alice: JD 7H -> neither",
]


def _play(game, questions, shown):
    """Each question (the answerer's chosen card when it holds both), then every seat passes its claim."""
    for (target, face, number), card in zip(questions, shown):
        game.play(Ask(target, face, number))
        if game.phase == "answer":  # both named cards held: the answerer's choice
            game.play(Show(card))
        while game.phase == "claim":
            game.play(NoClaim())


@pytest.fixture
def game():
    g = FiveSons.from_deal(HANDS, secret=SECRET, dealer=3)  # Alice (0) asks first
    _play(g, [(1, "QC", "8H"), (3, "KS", "2H"), (0, "JD", "7H")], ["QC", None, None])
    return g


@pytest.mark.parametrize("seat", range(4))
def test_a_history_in_words_gives_the_games_knowledge(game, seat):
    lines = [line.replace("shows QC", "shows QC" if seat in (0, 1) else "shows a card") for line in LINES]
    lines = [line.replace("shows KS", "shows KS" if seat in (1, 3) else "shows a card") for line in lines]
    mine = position(*lines, seat=["alice", "BOB", "Carol", "dave"][seat], hand=HANDS[seat])
    theirs = position_of(game, seat)
    assert mine.hand == theirs.hand == frozenset(Card.parse(c) for c in HANDS[seat])
    assert mine.knowledge.candidates() == theirs.knowledge.candidates() == game.knowledge(seat).candidates()
    assert mine.knowledge.posterior() == pytest.approx(theirs.knowledge.posterior())


def test_the_asker_sees_the_card_and_an_onlooker_only_one_of():
    alice = position(*LINES, seat="Alice", hand=HANDS[0])
    carol = position(LINES[0], seat="Carol", hand=HANDS[2])  # the card in the line is not Carol's to see
    assert [(s.seat, s.card.code, s.other.code) for s in alice.shown] == [(1, "QC", "8H")]
    assert carol.shown == []
    assert [(o.seat, o.face.code, o.number.code) for o in carol.one_of] == [(1, "QC", "8H")]
    assert [(o.seat, o.face.code) for o in alice.one_of] == [(3, "KS")]


def test_position_of_an_observation_reads_only_that_seat(game):
    obs = game.observation(2)
    pos = position_of(obs)
    assert pos == position_of(game, 2)
    assert pos.secret_seen is None and all(s.seat != 2 for s in pos.shown)
    assert "QC" not in pos.describe().split("hold")[1].split(".")[0]  # Bob's Q♣ is not Carol's to see


@pytest.mark.parametrize(
    "line, words",
    [
        ("Alice asks Alice: QC 8H -> neither", "themself"),
        ("Alice asks Bob: 8H QC -> neither", "face card, then a number card"),
        ("Alice asks Zed: QC 8H -> neither", "Zed"),
        ("Alice asks Bob: QC 8H -> shows a card", "you saw which card"),
        ("Alice asks Bob: QC 8H -> shows KS", "was not named"),
        ("Bob asks Alice: KD 8H -> neither", "cannot say neither"),
        ("Carol claims KH 5H -> right", "wrong"),
        ("Alice wonders", "cannot read"),
    ],
)
def test_lines_no_seat_could_have_seen_are_refused(line, words):
    with pytest.raises(ValueError, match=words):
        position(line, seat="Alice", hand=HANDS[0])


def test_a_hand_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="5 distinct cards"):
        position(seat="Alice", hand="JS KD 2H")

"""Cards: parsing, codes and names, bits and masks, the decks, and how cards show themselves."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qardlab.cards import (
    Card,
    Hand,
    Suit,
    as_cards,
    back_html,
    card_of_index,
    cards_of_mask,
    hand_html,
    mask_of,
    standard_deck,
)


def test_card_parse_codes_and_spellings() -> None:
    qs = Card.parse("QS")
    assert str(qs) == "QS" and qs.code == "QS" and qs.symbol == "Q♠" and qs.name == "Queen of Spades"
    for text in ("qs", "Q♠", "q♠", " QS ", "Q♤"):
        assert Card.parse(text) is qs
    ten = Card.parse("10H")
    assert ten is Card.parse("TH") is Card.parse("th") and ten.symbol == "10♥" and ten.code == "TH"
    assert Card.parse("AH").name == "Ace of Hearts" and Card.parse("2C").rank == 2
    assert Card.parse(qs) is qs


@pytest.mark.parametrize("bad", ["", "Q", "QX", "1H", "11S", "ZZ", "QSS", "♠Q"])
def test_card_parse_refuses_with_the_input_named(bad: str) -> None:
    with pytest.raises(ValueError, match=repr(bad).replace("[", r"\[")):
        Card.parse(bad)


@pytest.mark.parametrize("bad", [None, 12, 3.5, ["QS"]])
def test_card_parse_refuses_non_text(bad) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(bad)


def test_card_identity_index_bit_and_order() -> None:
    deck = standard_deck()
    assert len(deck) == 52 == len(set(deck))
    for i, card in enumerate(deck):
        assert card.index == i and card.bit == 1 << i and card_of_index(i) is card
        assert hash(card) == i
    assert Card.parse("2C").index == 0 and Card.parse("AS").index == 51
    assert Card.parse("QS").index == 3 * 13 + 10
    assert sorted([Card.parse("AS"), Card.parse("2C"), Card.parse("KD")]) == [
        Card.parse("2C"),
        Card.parse("KD"),
        Card.parse("AS"),
    ]
    assert Card.parse("QS") == Card(Suit.SPADES, 12)
    assert Card.parse("QS") != "QS"


@pytest.mark.parametrize("bad", [-1, 52])
def test_card_of_index_refuses_out_of_range_with_the_index_named(bad: int) -> None:
    with pytest.raises(ValueError, match=f"card index {bad}"):
        card_of_index(bad)


def test_card_is_frozen_and_stays_interned() -> None:
    qs = Card.parse("QS")
    with pytest.raises(AttributeError):
        qs.rank = 3  # type: ignore[misc]
    assert copy.copy(qs) is qs and copy.deepcopy(qs) is qs and pickle.loads(pickle.dumps(qs)) is qs


def test_suits() -> None:
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert Suit.HEARTS.red and Suit.DIAMONDS.red and not Suit.SPADES.red and not Suit.CLUBS.red
    assert Suit.parse("spade") is Suit.SPADES and Suit.parse("♡") is Suit.HEARTS
    with pytest.raises(ValueError, match="'X'"):
        Suit.parse("X")


@given(st.integers(0, (1 << 52) - 1))
def test_masks_round_trip(mask: int) -> None:
    cards = cards_of_mask(mask)
    assert mask_of(cards) == mask
    assert cards == sorted(cards) and len(cards) == bin(mask).count("1")


def test_the_shared_module_holds_the_standard_deck_and_no_games_deck() -> None:
    """Issue 26, item 5: ``qardlab.cards`` is what every game shares; Five Sons' deck lives in its folder
    (``qardlab.games.five_sons.deck``, tested with its rules)."""
    import qardlab.cards as cards

    deck = standard_deck()
    assert len(deck) == 52 == len(set(deck)) and deck == sorted(deck)
    assert [c.code for c in deck[:2]] == ["2C", "3C"] and deck[-1].code == "AS"
    assert not {"FACE_CARDS", "NUMBER_CARDS", "five_sons_deck"} & set(dir(cards))


def test_hand_value_and_text() -> None:
    h = Hand(["QS", "10h", Card.parse("2C")])
    assert str(h) == "QS TH 2C" and repr(h) == "Hand('QS TH 2C')"
    assert h.mask == mask_of(["QS", "TH", "2C"]) and isinstance(h, tuple) and h[0] is Card.parse("QS")
    with pytest.raises(ValueError, match="'XX'"):
        Hand(["QS", "XX"])
    with pytest.raises(ValueError, match="single value"):
        as_cards("QS")


def test_html_cards_red_suits_red_and_css_class() -> None:
    red = Card.parse("QH")._repr_html_()
    black = Card.parse("QS")._repr_html_()
    assert 'class="qard-card"' in red and 'data-card="QH"' in red and "#c8102e" in red and "♥" in red
    assert "#c8102e" not in black and "♠" in black
    assert "Queen of Hearts" in red  # the hover title
    ten = Card.parse("TH")._repr_html_()
    assert "<span>10</span>" in ten
    hand = Hand(["QS", "TH"])._repr_html_()
    assert hand.count('class="qard-card"') == 2 and "qard-hand" in hand
    assert "no cards" in hand_html([])
    assert "qard-card-back" in back_html() and "data-card" not in back_html()

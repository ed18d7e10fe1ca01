"""Issue 11: one palette (two- and four-colour decks), a text alternative for every card, keyboard play."""

from __future__ import annotations

import re

import pytest

from qardlab import palette
from qardlab.cards import ALL_CARDS, Card, Hand, back_html, card_html, hand_html
from qardlab.widgets.cards import HandView, card_option, card_options, cards_html
from qardlab.widgets.grid import DeductionGrid


def _color(markup: str) -> str:
    return re.search(r"color:(#[0-9a-f]{6})", markup).group(1)


def test_four_colour_deck_gives_each_suit_its_own_colour():
    two = {s: _color(card_html(Card.parse("Q" + s), deck="two")) for s in "CDHS"}
    four = {s: _color(card_html(Card.parse("Q" + s), deck="four")) for s in "CDHS"}
    assert two["H"] == two["D"] and two["C"] == two["S"] and two["H"] != two["S"]
    assert len(set(four.values())) == 4
    assert four["C"] == palette.DECKS["four"]["C"] and four["D"] == palette.DECKS["four"]["D"]
    assert four["H"] == two["H"] and four["S"] == two["S"]


def test_the_session_deck_switches_every_view_and_comes_back():
    assert palette.deck() == "two"
    with palette.using("four"):
        assert _color(Card.parse("2C")._repr_html_()) == palette.DECKS["four"]["C"]
        assert palette.DECKS["four"]["D"] in cards_html([Card.parse("5D")])
        h = HandView()
        h.show_playable([Card.parse("2C")], {})
        assert h.button_for("2C").text_color == palette.DECKS["four"]["C"]
        assert palette.DECKS["four"]["D"] in DeductionGrid([Card.parse("JD")]).box.labels[0]
    assert palette.deck() == "two"
    assert _color(Card.parse("2C")._repr_html_()) == palette.DECKS["two"]["C"]
    with pytest.raises(ValueError, match="'three'"):
        palette.use("three")
    with pytest.raises(ValueError, match="'X'"):
        palette.suit_color("X")
    assert palette.deck() == "two"


def test_every_card_has_a_text_alternative():
    for c in ALL_CARDS:
        markup = card_html(c)
        assert f'aria-label="{c.name}"' in markup and 'role="img"' in markup and f'title="{c.name}"' in markup
    assert 'aria-label="Ace of Spades: you must follow suit"' in card_html(
        Card.parse("AS"), title="you must follow suit"
    )
    assert 'aria-label="hidden card"' in back_html()
    assert 'aria-label="Queen of Spades, Ten of Hearts"' in hand_html(Hand(["QS", "TH"]))
    dimmed = cards_html([Card.parse("KC")], dim={Card.parse("KC"): "not your turn"})
    assert 'aria-label="King of Clubs: not your turn"' in dimmed


def test_keyboard_walks_legal_cards_only():
    """Playable cards are buttons in a toolbar (Enter plays the focused one); the keyboard walks the legal
    cards only (``legal``, in the model: the view's roving tabindex skips the others), and an illegal card
    comes back into the walk when it becomes legal (test_browser_keyboard.py presses the keys)."""
    played = []
    h = HandView(on_card=played.append)
    cards = [Card.parse(c) for c in ("2C", "TH", "AS")]
    h.show_playable(cards, {Card.parse("AS"): "you must follow suit"})
    assert h.button_for("AS").legal is False
    assert h.button_for("2C").legal is True and h.button_for("TH").legal is True
    assert [row[5] for row in h.playable.cards] == [True, True, False]
    h.button_for("TH").click()  # what Enter on a focused card does
    assert played == [Card.parse("TH")]
    h.show_playable(cards, {Card.parse("2C"): "not your turn"})
    assert h.button_for("AS").legal is True and h.button_for("2C").legal is False


def test_card_options_are_short():
    """ "J♣ Jack of Clu" was cut: the option says the symbol and the rank only."""
    assert card_option(Card.parse("JC")) == "J♣ Jack"
    assert card_option(Card.parse("TH")) == "10♥ Ten"
    opts = card_options([Card.parse("QS"), Card.parse("8H")])
    assert opts == [("Q♠ Queen", "QS"), ("8♥ Eight", "8H")]
    assert max(len(card_option(c)) for c in ALL_CARDS) <= 8

"""Card widgets and the stepper, on their own."""

from __future__ import annotations

import pytest

from qardlab.cards import Card
from qardlab.engine import Timeline, play
from qardlab.games.five_sons import FiveSons
from qardlab.games.five_sons.bots import RandomAsker
from qardlab.widgets.cards import HandView, backs_html, cards_html
from qardlab.widgets.stepper import Stepper


def test_faces_red_and_black_and_backs():
    html = cards_html([Card.parse("QH"), Card.parse("QS")])
    assert 'class="qard-hand"' in html and html.count('class="qard-card"') == 2
    assert "#c8102e" in html and "#1a1a1a" in html
    assert backs_html(3).count("qard-card-back") == 3 and "data-card" not in backs_html(3)


def test_hand_view_buttons_click_and_reuse():
    clicked = []
    h = HandView(on_card=clicked.append)
    assert "qard-hand" in h._dom_classes and h.playable is None  # (made when a hand is first playable)
    cards = [Card.parse(c) for c in ("2C", "TH", "AS")]
    h.show_playable(cards, {Card.parse("AS"): "you must follow suit"})
    model = h.playable
    assert h.children == (model,) and [row[1] for row in model.cards] == ["2♣", "10♥", "A♠"]
    assert [h.button_for(c).description for c in cards] == ["2♣", "10♥", "A♠"]
    assert h.button_for("AS").tooltip == "Ace of Spades: you must follow suit"
    assert "qard-illegal" in h.button_for("AS").classes and "qard-illegal" not in h.button_for("TH").classes
    assert h.button_for("TH").text_color == "#c8102e"
    h.click("TH")
    assert clicked == [Card.parse("TH")]
    h.playable._message(None, {"play": 0}, [])  # a click in the browser: the card's index
    h.playable._message(None, {"play": 7}, [])  # a stale page's index: ignored
    h.playable._message(None, {"play": True}, [])
    assert clicked == [Card.parse("TH"), Card.parse("2C")]
    h.show_playable(cards[:2], {})
    assert h.playable is model and len(model.cards) == 2  # one model, reused
    with pytest.raises(KeyError, match="AS is not a clickable card"):
        h.button_for("AS")
    h.show_backs(2)
    assert h.mode == "html" and h.children == (h._html,)
    assert model.cards == []  # off screen, the model holds no card


def test_stepper_buttons_and_words():
    g = play(FiveSons.new(4, seed=9), [RandomAsker(s) for s in range(4)], max_steps=12)
    tl = Timeline(g)
    st = Stepper(tl, seat=0)
    assert st.next_button.disabled and not st.previous_button.disabled
    st.first_button.click()
    assert tl.position == 0 and st.first_button.disabled and "Before the deal" in st.text.value
    st.next_button.click()
    assert "you get" in st.text.value  # the deal, as seat 0 saw it
    st.seat = None
    assert "secret pair aside" in st.text.value  # the teacher sees the secret
    st.last_button.click()
    assert st.slider.value == tl.last == st.play.max

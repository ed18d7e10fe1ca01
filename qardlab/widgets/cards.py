"""Card faces, card backs and hands as ipywidgets.

Two kinds of card on screen:

- a *display* card (someone else's hand, a trick, a log line) is HTML from
  :func:`qardlab.cards.card_html` / :func:`~qardlab.cards.back_html`, which carries the CSS
  classes ``qard-card`` / ``qard-card-back`` in its markup;
- a *playable* card (the human seat's hand when it is to act) is an ipywidgets ``Button``
  with the class ``qard-card`` added by ``add_class``. An illegal card stays clickable but is
  dimmed, and its tooltip carries the reason the game gives; clicking it passes the action
  to the game anyway, which refuses it with that same reason and changes nothing.

Keyboard play: the playable cards are real buttons, so Tab walks them and Enter (or Space) plays
the focused one; an illegal card is taken out of the Tab order (``tabbable=False``), so Tab walks
the legal cards only. Every card has a text alternative (its name, in the markup's
``aria-label``/``title`` or the button's tooltip). Suit colours come from :mod:`qardlab.palette`
(the two- or four-colour deck).

No rule lives here: which cards are legal, and why not, comes from the caller (which asks
the game).
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

import ipywidgets as widgets

from .. import palette
from ..cards import RANK_NAMES, Card, hand_html

__all__ = [
    "HandView",
    "clear_hands",
    "cards_html",
    "backs_html",
    "card_label",
    "card_option",
    "card_options",
    "RED",
    "BLACK",
]

#: the two-colour deck's red and black (kept for callers; colours are :func:`qardlab.palette.suit_color`)
RED = palette.DECKS["two"]["H"]
BLACK = palette.DECKS["two"]["S"]


def card_label(card: Card) -> str:
    """What a card button shows: rank and suit symbol ("10♥")."""
    return card.symbol


def card_option(card: Card) -> str:
    """A card in a dropdown, short enough not to be cut: symbol and rank name ("J♣ Jack", "10♥ Ten");
    the suit is in the symbol."""
    return f"{card.symbol} {RANK_NAMES[card.rank]}"


def card_options(cards: Iterable[Card]) -> list[tuple[str, str]]:
    """``(label, code)`` options for a Dropdown of cards (see :func:`card_option`)."""
    return [(card_option(c), c.code) for c in cards]


def cards_html(
    cards: Iterable[Card], *, dim: Mapping[Card, str] | None = None, mark: Iterable[Card] = ()
) -> str:
    """A row of card faces as one HTML string; ``dim`` maps a card to the reason it is dimmed
    (the package's one row of cards: :func:`qardlab.cards.hand_element`)."""
    return hand_html(cards, dim=dim, mark=mark)


def backs_html(count: int) -> str:
    """``count`` card backs in a wrapping row: a hand the viewer may not see."""
    return hand_html([], backs=count)


class HandView(widgets.Box):
    """One hand on the table: faces, backs, or clickable cards.

    ``show_faces(cards)``, ``show_backs(n)`` and ``show_known(cards, n)`` render a hand as
    HTML; ``show_playable`` renders Buttons (reused between updates, so a step does not build
    new widgets). A click calls ``on_card(card)``; the view never decides legality itself.
    """

    def __init__(self, on_card: Callable[[Card], None] | None = None) -> None:
        self._html = widgets.HTML()
        super().__init__(
            [self._html],
            layout=widgets.Layout(display="flex", flex_flow="row wrap", align_items="center"),
        )
        self.add_class("qard-hand")
        self.on_card = on_card
        self._buttons: list[widgets.Button] = []
        self._cards: list[Card] = []
        self.mode = "faces"

    # -- display modes ----------------------------------------------------------------
    def show_faces(self, cards: Sequence[Card], *, mark: Iterable[Card] = ()) -> None:
        """The cards face up, not clickable."""
        self._set_html(cards_html(cards, mark=mark))

    def show_backs(self, count: int) -> None:
        """``count`` backs: the viewer knows only how many cards there are."""
        self._set_html(backs_html(count))

    def show_known(self, known: Sequence[Card], count: int) -> None:
        """A hand of ``count`` cards of which the viewer has seen ``known`` (shown to it): those
        face up, the rest as backs."""
        self._set_html(hand_html(known, backs=count - len(known), title="shown to you"))

    def clear(self) -> None:
        """Hold no card at all (a hand view not on show: a detached widget is still synced)."""
        if self.mode != "html" or self._html.value:
            self._set_html("")

    def _set_html(self, value: str) -> None:
        if self.mode == "buttons":
            self._blank(self._buttons)
        self.mode = "html"
        self._cards = []
        with self.hold_sync():
            self._html.value = value
            if self.children != (self._html,):
                self.children = (self._html,)

    def show_playable(
        self, cards: Sequence[Card], reasons: Mapping[Card, str], selected: Iterable[Card] = ()
    ) -> None:
        """Clickable buttons: cards in ``reasons`` are dimmed with the reason as tooltip."""
        chosen = set(selected)
        while len(self._buttons) < len(cards):
            b = widgets.Button(
                layout=widgets.Layout(
                    width="3.1em",
                    height="4.3em",
                    margin="2px",
                    padding="0",
                    border=f"1px solid {palette.CARD_EDGE}",
                )
            )
            b.add_class("qard-card")
            b.on_click(self._clicked)
            self._buttons.append(b)
        self.mode = "buttons"
        self._cards = list(cards)
        shown = self._buttons[: len(cards)]
        for b, c in zip(shown, cards):
            reason = reasons.get(c)
            with b.hold_sync():
                b.description = card_label(c)
                b.style.font_weight = "bold"
                b.style.font_size = "1.15em"
                if reason is None:
                    b.style.text_color = palette.suit_color(c)
                    b.style.button_color = palette.SELECTED if c in chosen else palette.PAPER
                    b.tooltip = f"{c.name}: {'selected' if c in chosen else 'click to choose'}"
                    b.tabbable = None  # a button: in the Tab order
                    b.remove_class("qard-illegal")
                else:
                    b.style.text_color = palette.dim_color(c)
                    b.style.button_color = palette.CHIP
                    b.tooltip = f"{c.name}: {reason}"
                    b.tabbable = False  # Tab skips it; a click still asks the game, which says why not
                    b.add_class("qard-illegal")
                if c in chosen:
                    b.add_class("qard-selected")
                else:
                    b.remove_class("qard-selected")
                b.layout.border = (
                    f"3px solid {palette.HIGHLIGHT}" if c in chosen else f"1px solid {palette.CARD_EDGE}"
                )
        self._blank(self._buttons[len(cards) :])
        with self.hold_sync():
            if tuple(self.children) != tuple(shown):
                self.children = tuple(shown)

    @staticmethod
    def _blank(buttons: list[widgets.Button]) -> None:
        """Clear buttons no longer shown: a detached widget is still synced, so it must hold no card."""
        for b in buttons:
            if b.description or b.tooltip:
                with b.hold_sync():
                    b.description = ""
                    b.tooltip = ""

    # -- clicks -----------------------------------------------------------------------
    def _clicked(self, button: widgets.Button) -> None:
        if self.mode != "buttons" or self.on_card is None:
            return
        i = self._buttons.index(button)
        if i < len(self._cards):
            self.on_card(self._cards[i])

    def button_for(self, card: Card | str) -> widgets.Button:
        """The button showing ``card`` (for tests and notebooks); KeyError if not shown."""
        card = Card.parse(card)
        if self.mode == "buttons":
            for b, c in zip(self._buttons, self._cards):
                if c == card:
                    return b
        raise KeyError(f"{card} is not a clickable card in this hand")

    def click(self, card: Card | str) -> None:
        """Click a card as a user would."""
        self.button_for(card).click()


def clear_hands(hands: Sequence[HandView], shown: int) -> None:
    """Clear every hand view but ``hands[shown]`` (the one on the table): none holds a card off screen,
    so switching the viewpoint leaves nothing of the last view's hand on the wire."""
    for i, h in enumerate(hands):
        if i != shown:
            h.clear()

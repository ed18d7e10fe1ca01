"""Card faces, card backs and hands as ipywidgets.

Two kinds of card on screen:

- a *display* card (someone else's hand, a trick, a log line) is HTML from
  :func:`qardlab.cards.card_html` / :func:`~qardlab.cards.back_html`, which carries the CSS
  classes ``qard-card`` / ``qard-card-back`` in its markup;
- a *playable* card (the human seat's hand when it is to act) is a button of class ``qard-card``
  drawn by :class:`HandCards` (one anywidget model for the whole hand, its view ``hand_cards.js``).
  An illegal card stays clickable but is dimmed, and its tooltip carries the reason the game gives;
  clicking it passes the action to the game anyway, which refuses it with that same reason and
  changes nothing.

Keyboard play: the hand is a toolbar with a roving tabindex. Tab enters it on one legal card, the
arrow keys move to the next or previous legal card (Home and End to the first and last), and Enter
(or Space) plays the focused one; an illegal card is never focused by the keyboard. Every card has a
text alternative (its name, in the markup's ``aria-label``/``title`` or the button's). Suit colours
come from :mod:`qardlab.palette` (the two- or four-colour deck).

No rule lives here: which cards are legal, and why not, comes from the caller (which asks
the game).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Iterable, Mapping, Sequence

import anywidget
import ipywidgets as widgets
import traitlets

from .. import palette
from ..cards import RANK_NAMES, Card, hand_html
from ..render.style import HAND_CARDS_CSS

__all__ = [
    "HandView",
    "HandCards",
    "PlayableCard",
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


class HandCards(anywidget.AnyWidget):
    """A hand of playable cards as one widget model: each card ``[code, label, colour, background, words,
    legal, chosen]`` in ``cards``, the group's name in ``label``. Its view (``hand_cards.js``) draws a
    toolbar of buttons of class ``qard-card`` (``qard-illegal``, ``qard-selected``) with a roving tabindex;
    a click, or Enter or Space on the focused card, comes back as ``{"play": index}`` and is handed to
    ``on_play(index)``."""

    _esm = resources.files(__package__).joinpath("hand_cards.js").read_text(encoding="utf-8")
    _css = HAND_CARDS_CSS
    cards = traitlets.List(traitlets.List()).tag(sync=True)
    label = traitlets.Unicode("your cards").tag(sync=True)

    def __init__(self, on_play: Callable[[int], None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_play = on_play
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A click from the browser: ignored unless it names a card shown (a page may be stale)."""
        i = content.get("play") if isinstance(content, dict) else None
        if type(i) is int and 0 <= i < len(self.cards) and self.on_play is not None:
            self.on_play(i)


@dataclass(frozen=True)
class PlayableCard:
    """One playable card as its hand shows it now: its ``description`` (the button's words), ``tooltip``
    (its name, and why not when illegal), ``text_color`` and ``button_color``, whether it is ``legal``
    (in the keyboard's walk) and ``selected``, its ``classes``; ``click()`` does what a click on it in the
    browser does."""

    hand: "HandView"
    card: Card
    description: str
    tooltip: str
    text_color: str
    button_color: str
    legal: bool
    selected: bool

    @property
    def classes(self) -> tuple[str, ...]:
        return (
            ("qard-card",)
            + (() if self.legal else ("qard-illegal",))
            + (("qard-selected",) if self.selected else ())
        )

    #: (as an ipywidgets Button names its classes)
    _dom_classes = classes

    def click(self) -> None:
        self.hand.click(self.card)


class HandView(widgets.Box):
    """One hand on the table: faces, backs, or clickable cards.

    ``show_faces(cards)``, ``show_backs(n)`` and ``show_known(cards, n)`` render a hand as
    HTML; ``show_playable`` draws clickable cards (one :class:`HandCards` model, made when first needed
    and reused). A click calls ``on_card(card)``; the view never decides legality itself.
    """

    def __init__(self, on_card: Callable[[Card], None] | None = None) -> None:
        self._html = widgets.HTML()
        super().__init__(
            [self._html],
            layout=widgets.Layout(display="flex", flex_flow="row wrap", align_items="center"),
        )
        self.add_class("qard-hand")
        self.on_card = on_card
        #: the playable cards' model (None until a hand is first playable)
        self.playable: HandCards | None = None
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
        if self.playable is not None and self.playable.cards:
            self.playable.cards = []  # (off screen: it holds no card)
        self.mode = "html"
        self._cards = []
        with self.hold_sync():
            self._html.value = value
            if self.children != (self._html,):
                self.children = (self._html,)

    def show_playable(
        self, cards: Sequence[Card], reasons: Mapping[Card, str], selected: Iterable[Card] = ()
    ) -> None:
        """Clickable cards: cards in ``reasons`` are dimmed with the reason as tooltip."""
        chosen = set(selected)
        if self.playable is None:
            self.playable = HandCards(on_play=self._played)
        rows = []
        for c in cards:
            reason = reasons.get(c)
            if reason is None:
                color = palette.suit_color(c)
                background = palette.SELECTED if c in chosen else palette.PAPER
                tip = f"{c.name}: {'selected' if c in chosen else 'click to choose'}"
            else:
                color, background, tip = palette.dim_color(c), palette.CHIP, f"{c.name}: {reason}"
            rows.append([c.code, card_label(c), color, background, tip, reason is None, c in chosen])
        self.mode = "buttons"
        self._cards = list(cards)
        with self.hold_sync():
            if self.playable.cards != rows:
                self.playable.cards = rows
            if self.children != (self.playable,):
                self.children = (self.playable,)

    # -- clicks -----------------------------------------------------------------------
    def _played(self, i: int) -> None:
        if self.mode == "buttons" and self.on_card is not None and i < len(self._cards):
            self.on_card(self._cards[i])

    def button_for(self, card: Card | str) -> PlayableCard:
        """The playable card ``card`` as shown now (for tests and notebooks); KeyError if not shown."""
        card = Card.parse(card)
        if self.mode == "buttons" and self.playable is not None:
            for c, row in zip(self._cards, self.playable.cards):
                if c == card:
                    _code, label, color, background, tip, legal, chosen = row
                    return PlayableCard(self, c, label, tip, color, background, legal, chosen)
        raise KeyError(f"{card} is not a clickable card in this hand")

    def click(self, card: Card | str) -> None:
        """Click a card as a user would."""
        card = Card.parse(card)
        self.button_for(card)  # (KeyError if it is not shown)
        self._played(self._cards.index(card))


def clear_hands(hands: Sequence[HandView], shown: int) -> None:
    """Clear every hand view but ``hands[shown]`` (the one on the table): none holds a card off screen,
    so switching the viewpoint leaves nothing of the last view's hand on the wire."""
    for i, h in enumerate(hands):
        if i != shown:
            h.clear()

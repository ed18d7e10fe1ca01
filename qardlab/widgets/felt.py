"""The felt of a card table, drawn from one observation (its JSON form) as HTML and CSS.

Pure functions, no widgets: ``hearts_felt(obs)`` and ``five_sons_felt(obs)`` give the felt of
either game (the seats around it, the viewer at the bottom and the others clockwise, the trick
or the secret pair in the middle), ``log_html(lines)`` the log newest first with repeated lines
folded, ``count_words(1, "pair")`` "1 pair". A table widget puts the felt in an ``HTML`` widget
and the viewer's own hand (clickable when it is to act) just below it.

The markup is built as a tree of elements (:func:`qardlab.render.markup.el`, as python-chess builds
its SVG) and written out once, so every piece is a function returning an element: one seat box,
one dealer badge, one turn highlight and one prompt serve both games. Everything drawn comes from
the observation the viewer was given, so a seat's felt cannot show what its observation does not
hold. Sizes are fixed through a hand (each seat box, each hand's slot, the felt's height): nothing on
the table moves or changes size as cards are played.

The felt takes the width its container gives it, up to its full width (``HEARTS_SIZE``,
``FIVE_SONS_SIZE``): the seats keep their size and their places round the felt, placed from the felt's
sides (:func:`felt_layout`: against a side, or in the middle), and the trick keeps its size round the
middle, so a felt narrows from 60em to about 45em (1024 x 768 with JupyterLab's file browser open) with
nothing cut and no type smaller than 12 px. Narrower still (a side-by-side column), a CSS container query
lays the same pieces out one under another (:data:`qardlab.render.style.FELT_CSS`).

CSS classes (public, like every ``qard-*`` class): ``qard-felt-ring`` the felt, ``qard-seat`` a seat
box (``data-seat``), with ``qard-turn`` on the seat to move, ``qard-dealer`` the dealer badge,
``qard-you``, ``qard-out``, ``qard-winner``, ``qard-asked``, ``qard-presence`` (``qard-here``,
``qard-away``: a class table's seat here or away); ``qard-seat-hand``, ``qard-seat-info``,
``qard-taken`` (and ``qard-taken-label``); ``qard-trick`` the trick, ``qard-trick-card`` one card
of it (``data-seat``), ``qard-last-trick`` the trick just taken; ``qard-secret`` the secret pair,
``qard-question``; ``qard-felt-info``; ``qard-felt-prompt`` (``qard-prompt-yours`` when the viewer
is to act); ``qard-log-list``, ``qard-log-count``, ``qard-log-newest``.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any, Mapping, Optional, Sequence

from .. import palette
from ..cards import Card, Suit, back_element, card_element, hand_element
from ..engine.events import part_of
from ..render import style
from ..render.markup import Child, el, raw, to_html

__all__ = [
    "el",
    "raw",
    "to_html",
    "FELT_CSS",
    "HEARTS_SIZE",
    "hearts_size",
    "FIVE_SONS_SIZE",
    "seat_order",
    "seat_spots",
    "felt_layout",
    "trick_spots",
    "trick_middle",
    "seat_left",
    "seat_box",
    "presence_mark",
    "dealer_badge",
    "prompt",
    "hearts_felt",
    "hearts_seat",
    "five_sons_felt",
    "five_sons_seat",
    "verdict",
    "part",
    "fold_log",
    "log_html",
    "count_words",
]

# -- colours and styles ------------------------------------------------------------------------


def _suit_color(letter: str) -> str:
    """The suit's colour in the session's deck (two or four colours, :mod:`qardlab.palette`)."""
    return palette.suit_color(letter)


HIGHLIGHT = palette.HIGHLIGHT
FELT_GREEN = palette.FELT_GREEN

#: the felt's full width and its height per game (CSS lengths): the felt takes the width its container
#: gives it up to ``width``; its height is fixed (by players for Hearts: :func:`hearts_size`), so the
#: table never jumps during a hand
HEARTS_SIZE = {"width": "60em", "height": "33em"}
FIVE_SONS_SIZE = {"width": "50em", "height": "27em"}
#: the Hearts felt's height by players: two seats on a side, and the trick's cards between them, need more
_HEARTS_HEIGHT = {5: "38em", 6: "40em"}
#: a seat box's size (width, height) per game, and the viewer's own (its hand lies below the felt): a
#: Five Sons seat holds five cards face up in a row (the teacher's view), a Hearts seat two lines of
#: cards written short, two of its counts and two of the cards it took
SEAT_SIZE = {"hearts": ("13.5em", "10.6em"), "five_sons": ("15em", "7em")}
MY_SEAT_SIZE = {"hearts": ("24em", "5.9em"), "five_sons": ("26em", "6em")}
#: room kept between a seat box and the felt's side (em)
SEAT_MARGIN = 0.5

#: the felt's style sheet (a part of the one style sheet, :data:`qardlab.render.style.STYLESHEET`)
FELT_CSS = style.FELT_CSS


# -- seats around the felt -----------------------------------------------------------------------


def seat_order(players: int, viewer: int) -> list[int]:
    """The seats from the viewer round the table clockwise (the viewer first, at the bottom)."""
    if not 0 <= viewer < players:
        raise ValueError(f"viewer {viewer!r} is not a seat of a {players}-player table")
    return [(viewer + k) % players for k in range(players)]


def _angles(players: int) -> list[float]:
    """Screen angles (degrees, y down) of the seats from the viewer's: 90 is the bottom, and a growing
    angle goes clockwise on screen (bottom, left, top, right)."""
    if not 2 <= players <= 8:
        raise ValueError(f"a felt seats 2 to 8 players, not {players!r}")
    return [90.0 + 360.0 * k / players for k in range(players)]


def seat_spots(players: int, rx: float = 38.0, ry: float = 37.0) -> list[tuple[float, float]]:
    """Each place's centre (left %, top %) on an ellipse round the felt's middle (radii ``rx``, ``ry`` in
    % of the felt), from the viewer's (bottom) clockwise."""
    out = []
    for a in _angles(players):
        r = math.radians(a)
        out.append((round(50 + rx * math.cos(r), 2), round(50 + ry * math.sin(r), 2)))
    return out


def _em(length: str) -> float:
    return float(length.removesuffix("em"))


def felt_layout(
    players: int, felt: Mapping[str, str], seat: tuple[str, str], mine: tuple[str, str]
) -> list[tuple[float, float]]:
    """The seats' places on a felt of height ``felt["height"]``, from the viewer's (bottom) clockwise: each
    ``(side, top)``, ``top`` the centre's height in % of the felt's, ``side`` where it stands across: -1
    against the left side, 0 in the middle, 1 against the right side (:func:`seat_left` puts it there at
    any width of the felt). The others' boxes (size ``seat``) go round an ellipse that keeps them inside
    the felt, pushed out to the sides (so a narrow felt keeps its middle free), the viewer's box (size
    ``mine``) at the bottom edge."""
    fh = _em(felt["height"])
    half_h = 50 * _em(seat[1]) / fh
    out = []
    for a in _angles(players):
        r = math.radians(a)
        side = max(-1.0, min(1.0, 1.6 * math.cos(r)))
        out.append((round(side, 3), round(50 + (50 - half_h - 1.2) * math.sin(r), 2)))
    out[0] = (0.0, round(100 - 50 * _em(mine[1]) / fh - 1.5, 2))
    return out


def seat_left(side: float, width: str) -> str:
    """The CSS ``left`` of a box ``width`` wide whose centre stands at ``side`` across the felt (-1 against
    its left side, 0 the middle, 1 against its right side; :func:`felt_layout`), at any width of the felt."""
    if side == 0:
        return "50%"
    return f"calc(50% + {side:g} * (50% - {_em(width) / 2 + SEAT_MARGIN:g}em))"


def hearts_size(players: int) -> dict[str, str]:
    """The Hearts felt's full width and height for ``players`` (:data:`HEARTS_SIZE`, taller for five or
    six)."""
    return {**HEARTS_SIZE, "height": _HEARTS_HEIGHT.get(players, HEARTS_SIZE["height"])}


#: the trick's radii (em of a trick card) across and down by players: each card before its player, none
#: on another (six need room between the two on each side)
_TRICK_R = {3: (3.6, 3.0), 4: (3.4, 2.8), 5: (3.6, 4.6), 6: (3.6, 5.4)}
#: the trick's middle (% of the felt's height) by players
_TRICK_MIDDLE = {3: 47.0, 4: 51.0, 5: 48.0, 6: 51.0}


def trick_spots(players: int) -> list[tuple[float, float]]:
    """Where each place's card of the trick lies, from the viewer's (bottom) clockwise: ``(across, down)``
    in em of a trick card from the trick's middle (:func:`trick_middle`), before its player, so the trick
    keeps one size whatever the felt's width."""
    rx, ry = _TRICK_R.get(players, (3.6, 3.6))
    out = []
    for a in _angles(players):
        r = math.radians(a)
        out.append((round(rx * math.cos(r), 2), round(ry * math.sin(r), 2)))
    return out


def trick_middle(players: int) -> float:
    """The height of the trick's middle on the felt, in % of the felt's height."""
    return _TRICK_MIDDLE.get(players, 45.0)


def _pos(spot: tuple[float, float]) -> dict[str, str]:
    return {"left": f"{spot[0]}%", "top": f"{spot[1]}%"}


def dealer_badge() -> ET.Element:
    """The dealer's mark: a round "D"."""
    return el("span", "D", cls="qard-dealer", title="dealer", aria_label="dealer")


def prompt(text: str, *more: str, yours: bool = False) -> ET.Element:
    """The felt's line saying who is to act (highlighted when it is the viewer's own turn); ``more``
    lines below it."""
    return el(
        "div",
        text,
        [el("div", m) for m in more],
        cls=["qard-felt-prompt", "qard-prompt-yours" if yours else None],
        role="status",
    )


def presence_mark(present: bool, name: str) -> ET.Element:
    """Whether a seat's player is here, as a small mark by their name (``qard-presence``, with ``qard-here``
    or ``qard-away``): a filled green dot, or a hollow grey ring; the words ("Ann is here", "Ann is away: not
    connected") for a screen reader and as its tooltip, so the mark is never colour alone."""
    words = f"{name} is here" if present else f"{name} is away: not connected"
    return el(
        "span",
        cls=["qard-presence", "qard-here" if present else "qard-away"],
        role="img",
        aria_label=words,
        title=words,
        style={
            "display": "inline-block",
            "flex": "none",
            "width": ".6em",
            "height": ".6em",
            "box-sizing": "border-box",
            "border-radius": "50%",
            "margin-right": ".25em",
            "background": palette.RIGHT if present else "transparent",
            "border": f".15em solid {palette.RIGHT if present else palette.FAINT}",
        },
    )


def _present(obs: Mapping[str, Any], seat: int) -> Optional[bool]:
    """A seat's connected flag from a class table's observation (``connected``), None where there is none."""
    flags = obs.get("connected")
    return bool(flags[seat]) if isinstance(flags, list) and seat < len(flags) else None


def seat_box(
    seat: int,
    name: str,
    *,
    spot: tuple[float, float],
    size: tuple[str, str],
    you: bool = False,
    dealer: bool = False,
    turn: bool = False,
    mine: bool = False,
    tags: Sequence[tuple[str, str]] = (),
    hand: Optional[ET.Element] = None,
    info: Child = None,
    extra: Child = None,
    present: Optional[bool] = None,
) -> ET.Element:
    """One seat at the felt, the same for every game, at ``spot`` (``(side, top)``: :func:`felt_layout`):
    the name with the dealer's badge, "(you)" and the game's tags (``(kind, text)``: "out", "winner",
    "asked", "turn"), the hand's slot, an info line and whatever else the game adds (``extra``). ``turn``
    highlights the box of the seat to move; ``mine`` marks the viewer's own box (``qard-seat-mine``).
    ``present`` (a class table's seats: the observation's ``connected``) puts a small mark before the name:
    a filled dot for a seat that is here, a hollow one for one that is away, each with its words for a
    screen reader (:func:`presence_mark`); None (a local table): no mark."""
    kinds = {k for k, _t in tags}
    head = el(
        "div",
        presence_mark(present, name) if present is not None else None,
        el("span", name, cls="qard-seat-name", title=name),
        dealer_badge() if dealer else None,
        el("span", "(you)", cls="qard-you") if you else None,
        [el("span", text, cls=["qard-tag", f"qard-tag-{kind}"]) for kind, text in tags],
        cls="qard-seat-head",
    )
    return el(
        "div",
        head,
        el("div", hand, cls="qard-seat-hand") if hand is not None else None,
        el("div", info, cls="qard-seat-info") if info is not None else None,
        extra,
        cls=[
            "qard-seat",
            "qard-seat-mine" if mine else None,
            "qard-turn" if turn else None,
            "qard-out" if "out" in kinds else None,
            "qard-winner" if "winner" in kinds else None,
        ],
        data_seat=seat,
        style={
            "left": seat_left(spot[0], size[0]),
            "top": f"{spot[1]}%",
            "width": size[0],
            "height": size[1],
        },
        aria_label=f"{name}'s seat",
    )


def _backs(count: int, *, fan: bool) -> ET.Element:
    """``count`` cards face down (overlapping when ``fan``): the package's one row of cards."""
    return hand_element([], backs=count, fan=fan, empty="", label=count_words(count, "hidden card"))


def _faces(codes: Sequence[str], backs: int = 0, title: Optional[str] = None) -> ET.Element:
    """Cards face up (then ``backs`` face down), in a row: the package's one row of cards."""
    return hand_element([Card.parse(c) for c in codes], backs=backs, title=title, empty="")


def _short(codes: Sequence[str], cls: str) -> ET.Element:
    """Cards written short in one line, by suit ("♥ Q J 8  ♠ Q"), each card a span a screen reader names."""
    cards = [Card.parse(c) for c in codes]
    parts = []
    for suit in sorted({c.suit for c in cards}, reverse=True):
        color = _suit_color(Suit(suit).letter)
        mine = sorted((c for c in cards if c.suit == suit), key=lambda c: -c.rank)
        ranks = [
            el(
                "span",
                _rank(c),
                cls="qard-card-short",
                data_card=c.code,
                title=c.name,
                role="img",
                aria_label=c.name,
            )
            for c in mine
        ]
        parts.append(el("span", Suit(suit).symbol, ranks, cls="qard-short-suit", style={"color": color}))
    return el("span", parts, cls=cls)


def _pair(codes: Sequence[str], cls: str, *, named: bool = False) -> ET.Element:
    """Cards written short in the order given ("K♦ 9♥"), each in its suit's colour. ``named``: cards a
    question or a claim names, which nobody has shown: marked ``data-named``, never as a card seen
    (``data-card``, a name as title), so nothing on the page reads as where they are."""
    cards = [Card.parse(c) for c in codes]
    spans = []
    for i, c in enumerate(cards):
        seen = {} if named else {"data_card": c.code, "title": c.name, "role": "img", "aria_label": c.name}
        spans.append(
            el(
                "span",
                c.symbol,
                " " if i < len(cards) - 1 else None,
                cls="qard-card-short",
                data_named=c.code if named else None,
                style={"color": _suit_color(c.suit.letter)},
                **seen,
            )
        )
    return el("span", spans, cls=cls)


def _suit_rows(codes: Sequence[str]) -> ET.Element:
    """A hand face up written short, by suit ("♠ A K 7  ♥ 9 8"), wrapping: a whole hand in a small seat."""
    return _short(codes, cls="qard-suit-rows") if codes else el("i", "no cards", cls="qard-suit-rows")


def _rank(card: Card) -> str:
    return card.symbol[:-1]


def count_words(n: int, noun: str, plural: Optional[str] = None) -> str:
    """``n`` and the noun, singular for one: "1 pair", "0 pairs", "3 pairs"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def _names(obs: Mapping[str, Any], names: Optional[Sequence[str]]) -> list[str]:
    if names is not None:
        return list(names)
    if obs.get("names"):
        return list(obs["names"])
    return [f"Seat {s}" for s in range(obs["players"])]


def _viewer(obs: Mapping[str, Any], viewer: Optional[int], human: Optional[int]) -> int:
    """Who sits at the bottom: the given viewer, else the observation's seat, else the human, else 0."""
    for v in (viewer, obs.get("seat"), human):
        if v is not None:
            return int(v)
    return 0


def _felt(size: Mapping[str, str], label: str, *children: Child, players: int) -> ET.Element:
    """The felt: as wide as its container lets it, up to ``size["width"]``; ``size["height"]`` high. The
    box round it is the container the style sheet's queries measure (a narrow column lays it out flat)."""
    ring = el(
        "div",
        *children,
        cls=["qard-felt-ring", f"qard-players-{players}"],
        role="group",
        aria_label=label,
        style={"max-width": size["width"], "height": size["height"]},
    )
    return el("div", ring, cls="qard-felt-box")


# -- Hearts --------------------------------------------------------------------------------------

_PASS_WORDS = {
    "left": "left ←",
    "right": "right →",
    "across": "across ↑",
    "none": "no pass",
    "keep": "no pass",
}


def hearts_seat(
    obs: Mapping[str, Any],
    seat: int,
    spot: tuple[float, float],
    *,
    names: Sequence[str],
    viewer: int,
    human: Optional[int] = None,
    hand: bool = True,
) -> ET.Element:
    """One Hearts seat: its hand as the observation shows it (the viewer's own and the teacher's faces,
    the others' backs), cards left, points this hand and in the match, and the cards it took."""
    phase = obs["phase"]
    size = obs["hand_sizes"][seat]
    turn = obs["to_move"] == seat and phase in ("pass", "play")
    shown: Optional[ET.Element] = None
    if hand:
        if obs.get("seat") is None and obs.get("hands") is not None:  # the teacher: every hand
            shown = _suit_rows(obs["hands"][seat])
        elif seat == obs.get("seat"):
            shown = _suit_rows(obs["hand"])
        else:
            shown = _backs(size, fan=True)
    taken = [t for t in obs["tricks"] if t["winner"] == seat]
    scoring = [c for t in taken for c in t.get("scoring", ())]
    pts = obs["points_taken"][seat]
    tricks = count_words(len(taken), "trick")
    said = _short(scoring, cls="qard-taken-cards") if scoring else el("span", tricks if taken else "nothing")
    extra = el(
        "div",
        el("span", "taken", cls="qard-taken-label"),
        said,
        cls="qard-taken",
        title=f"taken: {tricks}, {count_words(pts, 'point')}",
        aria_label=f"taken: {tricks}, {count_words(pts, 'point')}",
    )
    if size:
        left = count_words(size, "card")
    else:  # before a match's first deal no hand is empty yet
        left = "not dealt yet" if obs["hand_no"] < 0 else "no cards left"
    # each count kept whole, the line wrapping between them ("score 15" never cut to "score 1")
    counts = [left, count_words(pts, "pt"), f"score {obs['scores'][seat]}"]
    info = [[" · " if i else None, el("span", c, cls="qard-count")] for i, c in enumerate(counts)]
    tags = [("turn", "to pass" if phase == "pass" else "to play")] if turn else []
    size_ = SEAT_SIZE["hearts"] if hand else MY_SEAT_SIZE["hearts"]
    return seat_box(
        seat,
        names[seat],
        spot=spot,
        size=size_,
        you=seat == human,
        dealer=seat == obs["dealer"],
        turn=turn,
        mine=seat == viewer,
        tags=tags,
        hand=shown,
        info=info,
        extra=extra,
        present=_present(obs, seat),
    )


def _hearts_trick(obs: Mapping[str, Any], order: list[int], names: Sequence[str]) -> ET.Element:
    """The trick in play, each card before its player round the trick's middle (:func:`trick_spots`, in em:
    the trick keeps its size on a narrow felt); between tricks, the one just taken, faded."""
    spots = dict(zip(order, trick_spots(len(order))))
    cards, last = obs["trick"], False
    if not cards and obs["tricks"] and obs["phase"] in ("play", "hand_over", "match_over"):
        cards, last = obs["tricks"][-1]["cards"], True
    return el(
        "div",
        [
            el(
                "div",
                card_element(Card.parse(c)),
                el("span", names[s], cls="qard-trick-name", title=names[s]),
                cls="qard-trick-card",
                data_seat=s,
                style={"left": f"{spots[s][0]:g}em", "top": f"{spots[s][1]:g}em"},
            )
            for s, c in cards
        ],
        cls=["qard-trick", "qard-last-trick" if last else None],
        style={"top": f"{trick_middle(len(order)):g}%"},
        aria_label="the trick just taken" if last else "the trick in play",
    )


def _hearts_prompt(
    obs: Mapping[str, Any], names: Sequence[str], viewer: int, human: Optional[int]
) -> ET.Element:
    phase, to_move = obs["phase"], obs["to_move"]
    yours = human is not None and to_move == human and viewer == human
    if phase == "match_over":
        won = obs.get("winners") or []
        return prompt(
            "Match over: " + " and ".join(names[s] for s in won) + (" win" if len(won) != 1 else " wins")
        )
    if obs["hand_no"] < 0:  # a match before its first deal (a stepper at step 0): no hand is over yet
        return prompt("not dealt yet")  # (the words of the Five Sons felt)
    if phase == "hand_over":
        return prompt(f"Hand {obs['hand_no'] + 1} over")
    if to_move is None or to_move < 0:
        return prompt("")
    if phase == "pass":
        k = obs["cards_to_pass"]
        way = _PASS_WORDS.get(obs["pass_direction"], str(obs["pass_direction"]))
        if yours:
            return prompt(f"Your turn: choose {count_words(k, 'card')} to pass {way}", yours=True)
        return prompt(f"{names[to_move]} to pass {way}")
    if not obs["trick"] and obs["tricks"]:
        t = obs["tricks"][-1]
        pts = f" ({count_words(t['points'], 'pt')})" if t["points"] else ""
        took = f"{names[t['winner']]} took it{pts}"
        return prompt(took, "Your lead" if yours else f"{names[to_move]} to lead", yours=yours)
    return prompt("Your turn: play a card" if yours else f"{names[to_move]} to play", yours=yours)


def hearts_felt(
    obs: Mapping[str, Any],
    *,
    names: Optional[Sequence[str]] = None,
    viewer: Optional[int] = None,
    human: Optional[int] = None,
    viewer_hand: bool = False,
) -> str:
    """The Hearts felt for 3 to 6 players from ``obs`` (``observation_json(seat)``; seat None the
    teacher's): the viewer at the bottom (``viewer``, default the observation's seat, else ``human``,
    else seat 0) and the others clockwise, the trick in the middle with each card before its player,
    the hand's number, the pass and whether hearts are broken in a lower corner, whose turn above the
    viewer's box. Five or six players sit at a taller felt (:func:`hearts_size`).

    The viewer's own hand is left to the table (it is clickable there) unless ``viewer_hand``.
    """
    names = _names(obs, names)
    me = _viewer(obs, viewer, human)
    order = seat_order(obs["players"], me)
    mine = SEAT_SIZE["hearts"] if viewer_hand else MY_SEAT_SIZE["hearts"]
    size = hearts_size(obs["players"])
    spots = felt_layout(obs["players"], size, SEAT_SIZE["hearts"], mine)
    seats = [
        hearts_seat(obs, s, spot, names=names, viewer=me, human=human, hand=viewer_hand or s != me)
        for s, spot in zip(order, spots)
    ]
    way = _PASS_WORDS.get(obs["pass_direction"], str(obs["pass_direction"]))
    broken = "♥ broken" if obs["hearts_broken"] else "♥ not broken"
    if obs["hand_no"] < 0:  # before the first deal: no hand, no pass yet
        info = el("div", el("b", "Before the deal"), cls="qard-felt-info")
    else:
        info = el(
            "div",
            el("b", f"Hand {obs['hand_no'] + 1}"),
            el("div", f"pass {way}"),
            el("div", broken, cls="qard-hearts-broken" if obs["hearts_broken"] else None),
            cls="qard-felt-info",
        )
    felt = _felt(
        size,
        "the Hearts table",
        info,
        _hearts_trick(obs, order, names),
        _hearts_prompt(obs, names, me, human),
        seats,
        players=obs["players"],
    )
    return to_html(felt)


# -- Five Sons -----------------------------------------------------------------------------------


def five_sons_seat(
    obs: Mapping[str, Any],
    seat: int,
    spot: tuple[float, float],
    *,
    names: Sequence[str],
    viewer: int,
    human: Optional[int] = None,
    hand: bool = True,
) -> ET.Element:
    """One Five Sons seat: its cards as the observation shows them (own or teacher's faces; an
    opponent's backs, with the cards it has shown this seat face up), and out / winner / asked."""
    dealt = obs["phase"] != "deal"
    size = obs["hand_sizes"][seat] if dealt else 0
    over = obs["is_over"]
    turn = dealt and not over and obs["to_move"] == seat
    shown_el: Optional[ET.Element] = None
    if hand and dealt:
        if obs.get("seat") is None and obs.get("hands") is not None:
            shown_el = _faces(obs["hands"][seat])
        elif seat == obs.get("seat"):
            shown_el = _faces(obs["hand"])
        else:
            known = list((obs.get("shown") or [[]] * obs["players"])[seat])
            shown_el = _faces(known, backs=max(0, size - len(known)), title="shown to you")
    tags: list[tuple[str, str]] = []
    if seat in obs["eliminated"]:
        tags.append(("out", "out"))
    if obs.get("winner") == seat:
        tags.append(("winner", "winner"))
    q = obs.get("question")
    if q and obs["phase"] == "answer" and q["target"] == seat and not turn:
        tags.append(("asked", "asked"))
    if turn:
        tags.append(
            (
                "turn",
                {"ask": "to ask", "answer": "to answer", "claim": "may claim"}.get(obs["phase"], "to move"),
            )
        )
    info = count_words(size, "card") if dealt else "not dealt yet"
    size_ = SEAT_SIZE["five_sons"] if hand else MY_SEAT_SIZE["five_sons"]
    return seat_box(
        seat,
        names[seat],
        spot=spot,
        size=size_,
        you=seat == human,
        dealer=dealt and seat == obs["dealer"],
        turn=turn,
        mine=seat == viewer,
        tags=tags,
        hand=shown_el,
        info=info,
        extra=None if hand else verdict(obs, seat, names, you=seat == obs.get("seat")),
        present=_present(obs, seat),
    )


def verdict(obs: Mapping[str, Any], seat: int, names: Sequence[str], *, you: bool = False) -> ET.Element:
    """The verdict of ``seat``'s claim, as the observation's log tells it ("Your claim K♠ A♥: wrong,
    you are out; the secret pair is K♦ 9♥"), or an empty line of the same height when it has not claimed:
    the viewer's own seat box carries it, so it is on screen the moment the claim is judged."""
    claim = next((e for e in reversed(obs["events"]) if e["kind"] == "claim" and e.get("seat") == seat), None)
    if claim is None:
        return el("div", cls="qard-verdict")
    whose = "Your claim" if you else f"{names[seat]}'s claim"
    secret = claim.get("secret") or part_of(claim, seat).get("secret")
    pair = _pair([claim["face"], claim["number"]], cls="qard-verdict-cards", named=True)
    if claim.get("right"):
        return el(
            "div",
            whose,
            " ",
            pair,
            ": right! ",
            "You win." if you else "Wins.",
            cls=["qard-verdict", "qard-verdict-right"],
            role="status",
        )
    tail = [" The secret pair is ", _pair(secret, cls="qard-verdict-cards"), "."] if secret else []
    return el(
        "div",
        whose,
        " ",
        pair,
        ": wrong, ",
        "you are out." if you else "out.",
        tail,
        cls=["qard-verdict", "qard-verdict-wrong"],
        role="status",
    )


def _five_sons_prompt(
    obs: Mapping[str, Any], names: Sequence[str], viewer: int, human: Optional[int]
) -> ET.Element:
    to_move, phase = obs["to_move"], obs["phase"]
    if phase == "deal":
        return prompt("not dealt yet")
    if obs["is_over"]:
        w = obs.get("winner")
        return prompt(f"{names[w]} wins" if w is not None else "Game over: no winner")
    if to_move is None or to_move < 0:
        return prompt("")
    yours = human is not None and to_move == human and viewer == human
    who = "You" if yours else names[to_move]
    if phase == "answer":
        # "to answer" for every other viewer: only the answerer (and the teacher) may know it has a choice
        choose = len(obs.get("legal") or ()) > 1
        words = "choose a card to show" if choose else "answer"
        return prompt(f"{who} to {words}" if not yours else f"Your turn: {words}", yours=yours and choose)
    words = {"ask": "ask", "claim": "claim or pass"}.get(phase, phase)
    if yours:
        return prompt(f"Your turn: {words}", yours=True)
    return prompt(f"{who} to {words}" if phase != "claim" else f"{who} may claim")


def _secret(obs: Mapping[str, Any]) -> ET.Element:
    """The secret pair: face down, face up once the viewer has seen it (the teacher always)."""
    secret = obs.get("secret") or []
    cards = [card_element(Card.parse(c)) for c in secret] if secret else [back_element() for _ in range(2)]
    label = "secret pair" if secret else "secret pair (face down)"
    return el(
        "div",
        cards,
        el("span", label, cls="qard-secret-label"),
        cls=["qard-secret", "qard-secret-box"],
        aria_label=label,
    )


def _question(obs: Mapping[str, Any], names: Sequence[str]) -> Optional[ET.Element]:
    q = obs.get("question")
    if not q or obs["phase"] not in ("answer", "claim") or obs["is_over"]:
        return None
    return el(
        "div",
        f"{names[q['asker']]} asked {names[q['target']]}: ",
        _pair([q["face"], q["number"]], cls="qard-question-cards", named=True),
        cls="qard-question",
    )


def five_sons_felt(
    obs: Mapping[str, Any],
    *,
    names: Optional[Sequence[str]] = None,
    viewer: Optional[int] = None,
    human: Optional[int] = None,
    viewer_hand: bool = False,
) -> str:
    """The Five Sons felt from ``obs`` (``observation_json(seat)``; seat None the teacher's): the seats
    around it (the viewer at the bottom, the others clockwise), the secret pair in the middle with the
    last question asked, whose turn, who is out and who won. The viewer's own hand is left to the table
    unless ``viewer_hand``."""
    names = _names(obs, names)
    me = _viewer(obs, viewer, human)
    order = seat_order(obs["players"], me)
    mine = SEAT_SIZE["five_sons"] if viewer_hand else MY_SEAT_SIZE["five_sons"]
    spots = felt_layout(obs["players"], FIVE_SONS_SIZE, SEAT_SIZE["five_sons"], mine)
    seats = [
        five_sons_seat(obs, s, spot, names=names, viewer=me, human=human, hand=viewer_hand or s != me)
        for s, spot in zip(order, spots)
    ]
    felt = _felt(
        FIVE_SONS_SIZE,
        "the card table",
        _secret(obs),
        _question(obs, names),
        _five_sons_prompt(obs, names, me, human),
        seats,
        players=obs["players"],
    )
    return to_html(felt)


def part(markup: str, *, seat: Optional[int] = None, cls: Optional[str] = None) -> str:
    """One part of a felt's HTML: the box of ``seat`` or the first element of class ``cls`` ("" if none)."""
    for e in ET.fromstring(markup).iter():
        classes = (e.get("class") or "").split()
        if (seat is not None and "qard-seat" in classes and e.get("data-seat") == str(seat)) or (
            cls is not None and cls in classes
        ):
            return to_html(e)
    return ""


# -- the log ------------------------------------------------------------------------------------

#: repeated lines that fold into one: the line's end after the name -> (one seat, several seats);
#: ``{who}`` the seat(s), ``{n}`` how many times each
_FOLDS: dict[str, tuple[str, str]] = {
    "does not claim.": ("{who} does not claim.", "{who} do not claim."),
    "chooses a card to pass.": ("{who} chooses {n} to pass.", "{who} each choose {n} to pass."),
}


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def fold_log(lines: Sequence[str], names: Sequence[str] = ()) -> list[tuple[str, int]]:
    """The log's lines (oldest first) with runs folded: each item ``(text, count)``, ``count`` the lines
    it stands for. A run of "<name> does not claim." becomes "Bob, Carol and Dave do not claim."; a run
    of "<name> chooses a card to pass." "Bob and Carol each choose 3 cards to pass."; any other line
    repeated at once is kept once with its count."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(f"^({alternatives}) (.*)$" if names else r"^(\S+) (.*)$")
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(lines):
        m = pattern.match(lines[i])
        end = m.group(2) if m else None
        if end in _FOLDS:
            who: dict[str, int] = {}
            j = i
            while j < len(lines):
                mj = pattern.match(lines[j])
                if not mj or mj.group(2) != end:
                    break
                who[mj.group(1)] = who.get(mj.group(1), 0) + 1
                j += 1
            one, many = _FOLDS[end]
            counts = set(who.values())
            if len(counts) == 1:
                n = counts.pop()
                text = (one if len(who) == 1 else many).format(
                    who=_and(list(who)), n="a card" if n == 1 else f"{n} cards"
                )
            else:  # unequal counts: say each
                text = " ".join(
                    one.format(who=w, n="a card" if k == 1 else f"{k} cards") for w, k in who.items()
                )
            out.append((text, j - i))
            i = j
            continue
        j = i + 1
        while j < len(lines) and lines[j] == lines[i]:
            j += 1
        out.append((lines[i], j - i))
        i = j
    return out


def log_html(
    lines: Sequence[str],
    names: Sequence[str] = (),
    *,
    limit: Optional[int] = None,
    empty: str = "nothing yet",
) -> str:
    """The log newest first, repeated lines folded (:func:`fold_log`), the newest line bold; at most
    ``limit`` items (the newest), with a note of how many earlier ones are left out."""
    items = fold_log(lines, names)
    if not items:
        return to_html(el("i", empty))
    left_out = 0
    if limit is not None and len(items) > limit:
        left_out = sum(n for _t, n in items[:-limit])
        items = items[-limit:]
    lis = []
    for k, (text, n) in enumerate(reversed(items)):
        lis.append(
            el(
                "li",
                text,
                el("span", f"×{n}", cls="qard-log-count", title=f"{n} lines")
                if n > 1 and text in lines
                else None,
                cls="qard-log-newest" if k == 0 else None,
            )
        )
    if left_out:
        lis.append(el("li", el("i", f"… {count_words(left_out, 'earlier line')}")))
    return to_html(el("ul", lis, cls="qard-log-list", aria_label="the log, newest first"))

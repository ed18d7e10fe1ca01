"""The felt renderers (qardlab.widgets.felt), tested by the structure of what they draw: each seat's
place and card count, the trick's cards before their players, fixed sizes, the dealer's badge and
the turn, taken cards, out / winner marks, what each seat may see, and the log's folding."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any, Callable

import pytest

from qardlab.cards import Card
from qardlab.engine import part_of
from qardlab.games.five_sons import Claim, FiveSons
from qardlab.games.five_sons.bots import ReasoningBot
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot
from qardlab.widgets import felt
from qardlab.widgets.felt import (
    count_words,
    el,
    five_sons_felt,
    fold_log,
    hearts_felt,
    log_html,
    seat_order,
    to_html,
    trick_spots,
)

# -- helpers ---------------------------------------------------------------------------------------


def _obs(g: Any, seat: Any) -> dict:
    """The engine's JSON observation, with the table fields a newer engine adds filled in where missing
    (a trick's scoring cards, the cards shown to this seat, the secret once seen)."""
    o = g.observation_json(seat)
    if g.name == "hearts":
        for t in o["tricks"]:
            t.setdefault("scoring", [c for _s, c in t["cards"] if g.scores_points(Card.parse(c))])
    elif "shown" not in o:
        shown: list[list[str]] = [[] for _ in range(g.players)]
        for e in o["events"]:
            card = next((p["card"] for p in (e.get("private") or {}).values() if "card" in p), None)
            if e["kind"] == "answer" and e.get("shown") and card and e["answerer"] != seat:
                if card not in shown[e["answerer"]]:
                    shown[e["answerer"]].append(card)
            secret = e.get("secret") or part_of(e, seat).get("secret")
            if secret and seat is not None:
                o["secret"] = secret
        o["shown"] = shown
        o.setdefault("secret", None)
    return o


def _run(g: Any, until: Callable[[Any], bool], bots: Any = None) -> Any:
    bots = bots or [(RuleBot if g.name == "hearts" else ReasoningBot)(s) for s in range(g.players)]
    while not g.is_over and not until(g):
        g.apply(bots[g.to_move].act(g.observation(g.to_move)))  # one step (a forced answer is one too)
    return g


def _tree(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def _classes(e: ET.Element) -> set[str]:
    return set((e.get("class") or "").split())


def _all(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in _classes(e)]


def _one(root: ET.Element, cls: str) -> ET.Element:
    found = _all(root, cls)
    assert len(found) == 1, f"{len(found)} elements of class {cls}"
    return found[0]


def _style(e: ET.Element) -> dict[str, str]:
    return dict(p.split(":", 1) for p in (e.get("style") or "").split(";") if p)


_SIDE = re.compile(r"calc\(50% \+ (-?[\d.]+) \* \(50% - ([\d.]+)em\)\)")


def _ring(root: ET.Element) -> ET.Element:
    return _one(root, "qard-felt-ring")


def _size(root: ET.Element) -> tuple[float, float]:
    """The felt's full width and its height, in em."""
    st = _style(_ring(root))
    return float(st["max-width"].removesuffix("em")), float(st["height"].removesuffix("em"))


def _spot(e: ET.Element, width: float = 60.0) -> tuple[float, float]:
    """A seat box's centre (left %, top %) on a felt ``width`` em wide: its ``left`` is "50%" or
    "calc(50% + side * (50% - half em))" (felt.seat_left)."""
    s = _style(e)
    left, top = s["left"], float(s["top"].rstrip("%"))
    if left == "50%":
        return 50.0, top
    m = _SIDE.fullmatch(left)
    assert m, left
    side, half = float(m[1]), float(m[2])
    return round(50 + side * (50 - 100 * half / width), 6), top


def _trick_spot(e: ET.Element) -> tuple[float, float]:
    """A trick card's place (across, down) in em of a trick card from the trick's middle."""
    s = _style(e)
    return float(s["left"].removesuffix("em")), float(s["top"].removesuffix("em"))


def _seats(root: ET.Element) -> dict[int, ET.Element]:
    return {int(e.get("data-seat")): e for e in _all(root, "qard-seat")}


def _cards(e: ET.Element) -> list[str]:
    return [x.get("data-card") for x in e.iter() if x.get("data-card")]


def _named(e: ET.Element) -> list[str]:
    return [x.get("data-named") for x in e.iter() if x.get("data-named")]


def _text(e: ET.Element) -> str:
    return "".join(e.itertext())


def _clockwise_from_bottom(spots: list[tuple[float, float]]) -> bool:
    """Screen angles (y down) growing from the bottom place: bottom, left, top, right."""
    angles = [(math.degrees(math.atan2(y - 50, x - 50)) - 90) % 360 for x, y in spots]
    return (angles[0] < 1e-6 or angles[0] > 359.9) and sorted(angles[1:]) == angles[1:]


# -- the element helper --------------------------------------------------------------------------


def test_el_builds_attributes_classes_text_and_children() -> None:
    e = el(
        "div",
        "a",
        el("b", "bold"),
        "tail",
        None,
        [el("i", "x"), "end"],
        cls=["one", None, "two"],
        style={"width": "3em", "top": None},
        data_seat=2,
        hidden=True,
        title=None,
    )
    assert e.get("class") == "one two" and e.get("style") == "width:3em"
    assert e.get("data-seat") == "2" and e.get("hidden") == "" and "title" not in e.attrib
    assert e.text == "a" and e[0].tail == "tail" and e[1].tail == "end" and _text(e) == "aboldtailxend"
    # empty elements are written open and closed (an HTML parser reads <span/> as an open tag)
    assert to_html(el("span", cls="x")) == '<span class="x"></span>'
    assert to_html(el("p", "<&>")) == "<p>&lt;&amp;&gt;</p>"


def test_count_words() -> None:
    assert count_words(1, "pair") == "1 pair"
    assert count_words(0, "pair") == "0 pairs" and count_words(7, "pair") == "7 pairs"
    assert count_words(2, "trick") == "2 tricks" and count_words(3, "mouse", "mice") == "3 mice"


def test_seat_order_is_clockwise_from_the_viewer() -> None:
    assert seat_order(4, 2) == [2, 3, 0, 1]
    assert seat_order(6, 0) == [0, 1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="viewer 4"):
        seat_order(4, 4)


# -- Hearts --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_hearts_seats_round_the_felt_with_their_card_counts(n: int) -> None:
    g = _run(Hearts.new(n, seed=7), lambda g: g.phase == "play" and len(g.observation(0)["trick"]) == n - 1)
    for viewer in range(n):
        o = _obs(g, viewer)
        root = _tree(hearts_felt(o, human=0))
        seats = _seats(root)
        assert sorted(seats) == list(range(n))
        order = seat_order(n, viewer)
        spots = [_spot(seats[s], _size(root)[0]) for s in order]
        # the viewer at the bottom, in the middle; the others clockwise round the felt
        assert spots[0][0] == 50 and spots[0][1] == max(y for _x, y in spots)
        assert _clockwise_from_bottom(spots)
        if n >= 4:  # the seat after the viewer sits on its left (the pass "left" goes there)
            assert spots[1][0] < 50
        for s, box in seats.items():
            backs = [x for x in box.iter() if "qard-card-back" in _classes(x)]
            if s == viewer:
                assert not backs and not _all(box, "qard-seat-hand")  # the table draws the viewer's hand
            else:
                assert len(backs) == o["hand_sizes"][s], (n, viewer, s)
            assert count_words(o["hand_sizes"][s], "card") in _text(_one(box, "qard-seat-info"))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_hearts_trick_cards_lie_before_their_players(n: int) -> None:
    g = _run(Hearts.new(n, seed=7), lambda g: g.phase == "play" and len(g.observation(0)["trick"]) == n - 1)
    viewer = 1
    o = _obs(g, viewer)
    root = _tree(hearts_felt(o))
    trick = _one(root, "qard-trick")
    assert "qard-last-trick" not in _classes(trick)
    placed = {int(c.get("data-seat")): c for c in _all(trick, "qard-trick-card")}
    assert sorted(placed) == sorted(s for s, _c in o["trick"])
    seats = _seats(root)
    places = dict(zip(seat_order(n, viewer), trick_spots(n)))
    width, height = _size(root)
    middle = float(_style(trick)["top"].rstrip("%"))
    for s, card in placed.items():
        assert _cards(card) == [dict((p, c) for p, c in o["trick"])[s]]
        assert _trick_spot(card) == places[s]
        # seen from the trick's middle, in the direction of its own player rather than of any other, on
        # the felt at its full width and at its narrowest round one (44em: narrower, the style sheet lays
        # the felt out flat)
        for w in (width, 44.0):
            dx, dy = _trick_spot(card)  # (em of a trick card: 1.05em of the felt's)
            mx, my = w / 2, height * middle / 100
            toward = math.atan2(dy, dx)
            off = {}
            for t, box in seats.items():
                bx, by = _spot(box, w)
                a = math.atan2(height * by / 100 - my, w * bx / 100 - mx)
                off[t] = abs((a - toward + math.pi) % (2 * math.pi) - math.pi)
            assert min(off, key=off.get) == s, (w, s, off)


def test_hearts_between_tricks_shows_the_trick_just_taken_faded_and_who_took_it() -> None:
    g = _run(
        Hearts.new(4, seed=7),
        lambda g: (
            g.phase == "play" and len(g.observation(0)["tricks"]) == 2 and not g.observation(0)["trick"]
        ),
    )
    o = _obs(g, 0)
    root = _tree(hearts_felt(o))
    trick = _one(root, "qard-trick")
    last = o["tricks"][-1]
    assert "qard-last-trick" in _classes(trick)
    assert sorted(_cards(trick)) == sorted(c for _s, c in last["cards"])
    assert f"{o['names'][last['winner']]} took it" in _text(_one(root, "qard-felt-prompt"))


def test_hearts_before_the_first_deal_says_so_and_no_hand_is_over() -> None:
    # a stepper at step 0 (lesson 12's sample hand) shows the match before its deal: it used to say
    # "Hand 0 over" and "no cards left"
    blank = Hearts(4, {}, 7)  # the match before its first deal (Hearts.new deals at once)
    for seat in (0, None):
        root = _tree(hearts_felt(_obs(blank, seat)))
        assert _text(_one(root, "qard-felt-prompt")) == "not dealt yet"  # as the Five Sons felt says
        assert _text(_one(root, "qard-felt-info")) == "Before the deal"
        text = _text(root)
        assert "over" not in text and "Hand 0" not in text and "no cards left" not in text
        assert text.count("not dealt yet") == 5  # the prompt and the four seats
    dealt = _tree(hearts_felt(_obs(Hearts.new(4, seed=7), 0)))  # once dealt: the hand's number and pass
    assert "Hand 1" in _text(_one(dealt, "qard-felt-info")) and "Before" not in _text(dealt)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_hearts_felt_and_seats_keep_one_size_through_a_hand(n: int) -> None:
    g = Hearts.new(n, seed=11)
    sizes: set[tuple] = set()
    bots = [RuleBot(s) for s in range(n)]
    moments = 0
    while g.phase in ("pass", "play"):
        root = _tree(hearts_felt(_obs(g, 0), human=0))
        st = _style(_ring(root))
        boxes = _seats(root)
        sizes.add(
            (
                st["max-width"],
                st["height"],
                tuple((_style(b)["width"], _style(b)["height"], _spot(b)) for _s, b in sorted(boxes.items())),
            )
        )
        moments += 1
        g.play(bots[g.to_move].act(g.observation(g.to_move)))
    root = _tree(hearts_felt(_obs(g, 0), human=0))  # the hand over
    st = _style(_ring(root))
    sizes.add(
        (
            st["max-width"],
            st["height"],
            tuple(
                (_style(b)["width"], _style(b)["height"], _spot(b)) for _s, b in sorted(_seats(root).items())
            ),
        )
    )
    assert moments > 20 and len(sizes) == 1, sizes
    assert st["max-width"].endswith("em") and st["height"].endswith("em") and "width" not in st


def test_hearts_taken_cards_are_labelled_with_their_point_cards() -> None:
    g = _run(Hearts.new(4, seed=7), lambda g: g.phase == "hand_over")
    o = _obs(g, 2)
    root = _tree(hearts_felt(o))
    seats = _seats(root)
    for s, box in seats.items():
        taken = _one(box, "qard-taken")
        assert _text(_one(taken, "qard-taken-label")) == "taken"
        mine = [t for t in o["tricks"] if t["winner"] == s]
        want = sorted(c for t in mine for c in t["scoring"])
        assert sorted(_cards(taken)) == want
        assert count_words(o["points_taken"][s], "pt") in _text(_one(box, "qard-seat-info"))
        assert (
            taken.get("title") == f"taken: {count_words(len(mine), 'trick')}, "
            f"{count_words(o['points_taken'][s], 'point')}"
        )
        if mine and not want:
            assert count_words(len(mine), "trick") in _text(taken)
        elif not mine:
            assert "nothing" in _text(taken)
        assert "no cards left" in _text(box)
    assert any(_cards(_one(b, "qard-taken")) for b in seats.values())  # some points were taken


def test_hearts_dealer_badge_and_turn_highlight_on_exactly_their_seats() -> None:
    g = _run(Hearts.new(5, seed=3), lambda g: g.phase == "play" and len(g.observation(0)["trick"]) == 2)
    o = _obs(g, 0)
    root = _tree(hearts_felt(o, human=0))
    seats = _seats(root)
    assert [s for s, b in seats.items() if _all(b, "qard-dealer")] == [o["dealer"]]
    assert [s for s, b in seats.items() if "qard-turn" in _classes(b)] == [o["to_move"]]
    assert o["names"][o["to_move"]] + " to play" in _text(_one(root, "qard-felt-prompt"))
    # the human's own turn is said to it, highlighted
    g2 = Hearts.new(4, seed=7)
    o2 = _obs(g2, 0)
    p = _one(_tree(hearts_felt(o2, human=0)), "qard-felt-prompt")
    assert "qard-prompt-yours" in _classes(p) and "choose 3 cards to pass left" in _text(p)
    p = _one(_tree(hearts_felt(_obs(g2, 1), human=0)), "qard-felt-prompt")  # Bob's view: Alice to pass
    assert "qard-prompt-yours" not in _classes(p) and "Alice to pass" in _text(p)
    info = _one(_tree(hearts_felt(o2)), "qard-felt-info")
    assert "Hand 1" in _text(info) and "pass left" in _text(info) and "not broken" in _text(info)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_hearts_a_seat_sees_only_its_own_cards_and_the_public_ones(n: int) -> None:
    g = Hearts.new(n, seed=5)
    bots = [RuleBot(s) for s in range(n)]
    while not g.is_over and g.phase != "hand_over":
        for seat in range(n):
            o = _obs(g, seat)
            public = {c for t in o["tricks"] for _s, c in t["cards"]} | {c for _s, c in o["trick"]}
            shown = set(_cards(_tree(hearts_felt(o, viewer_hand=True))))
            assert shown <= set(o["hand"]) | public, (seat, shown - set(o["hand"]) - public)
            assert set(o["hand"]) <= shown
        g.play(bots[g.to_move].act(g.observation(g.to_move)))
    # the teacher sees every hand
    g = _run(Hearts.new(4, seed=5), lambda g: g.phase == "play")
    t = _obs(g, None)
    root = _tree(hearts_felt(t, human=0, viewer_hand=True))
    for s, box in _seats(root).items():
        assert sorted(_cards(_one(box, "qard-seat-hand"))) == sorted(t["hands"][s])


# -- Five Sons -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [4, 5])
def test_five_sons_seats_secret_and_turn(n: int) -> None:
    g = _run(FiveSons.new(n, seed=7), lambda g: g.step >= 30 and g.phase == "answer")
    for viewer in range(n):
        o = _obs(g, viewer)
        root = _tree(five_sons_felt(o, human=0))
        seats = _seats(root)
        assert sorted(seats) == list(range(n))
        spots = [_spot(seats[s], _size(root)[0]) for s in seat_order(n, viewer)]
        assert spots[0] == (50.0, max(y for _x, y in spots)) and _clockwise_from_bottom(spots)
        assert spots[1][0] < 50
        for s, box in seats.items():
            if s == viewer:
                assert not _all(box, "qard-seat-hand")  # the table draws the viewer's own hand
                continue
            backs = [x for x in box.iter() if "qard-card-back" in _classes(x)]
            faces = _cards(_one(box, "qard-seat-hand"))
            assert faces == o["shown"][s] and len(backs) + len(faces) == o["hand_sizes"][s]
        assert [s for s, b in seats.items() if "qard-turn" in _classes(b)] == [o["to_move"]]
        assert [s for s, b in seats.items() if _all(b, "qard-dealer")] == [o["dealer"]]
        secret = _one(root, "qard-secret")
        assert len([x for x in secret.iter() if "qard-card-back" in _classes(x)]) == 2 and not _cards(secret)
        q = o["question"]
        question = _one(root, "qard-question")  # named in public: not as cards seen
        assert not _cards(question) and _named(question) == [q["face"], q["number"]]
        words = _text(_one(root, "qard-felt-prompt"))
        who = o["names"][o["to_move"]]
        # the answerer alone may learn it has a choice; everybody else reads "to answer"
        if viewer == o["to_move"] == 0:  # the human's own answer
            assert words.startswith("Your turn: ")
        else:
            assert words == (
                f"{who} to answer"
                if viewer != o["to_move"] or len(o["legal"]) < 2
                else f"{who} to choose a card to show"
            )


def test_five_sons_teacher_sees_every_hand_and_the_secret() -> None:
    g = _run(FiveSons.new(4, seed=7), lambda g: g.step >= 10 and g.phase == "ask")
    t = _obs(g, None)
    root = _tree(five_sons_felt(t, human=0, viewer_hand=True))
    for s, box in _seats(root).items():
        assert _cards(_one(box, "qard-seat-hand")) == t["hands"][s]
    assert _cards(_one(root, "qard-secret")) == t["secret"]


def test_five_sons_a_seat_sees_nothing_it_was_not_shown() -> None:
    g = FiveSons.new(5, seed=3)
    bots = [ReasoningBot(s) for s in range(5)]
    while not g.is_over:
        for seat in range(5):
            o = _obs(g, seat)
            allowed = set(o["hand"]) | {c for cs in o["shown"] for c in cs} | set(o["secret"] or ())
            markup = five_sons_felt(o, viewer_hand=True)
            shown = set(_cards(_tree(markup)))
            assert shown <= allowed, (seat, shown - allowed)
            if not g.is_over and o["secret"] is None:
                assert not {c.code for c in g.secret} & shown
            for c in {c.code for c in FACE_CARDS + NUMBER_CARDS} - allowed:  # no seen form of an unseen card
                name = Card.parse(c).name
                assert f'title="{name}' not in markup and f'aria-label="{name}' not in markup
        g.apply(
            bots[g.to_move].act(g.observation(g.to_move)) if g.forced_action() is None else g.forced_action()
        )


def test_five_sons_out_and_winner_marks() -> None:
    g = FiveSons.new(4, seed=7)
    bots = [ReasoningBot(s) for s in range(4)]
    wrong_made = False
    while not g.is_over:
        if g.phase == "claim" and g.to_move == 3 and not wrong_made:
            right = set(g.secret)
            face = next(a for a in ("KS", "KC", "KH", "KD", "QS", "QC") if Card.parse(a) not in right)
            g.play(Claim(face, next(c for c in ("AH", "2H", "3H") if Card.parse(c) not in right)))
            wrong_made = True
            continue
        g.play(bots[g.to_move].act(g.observation(g.to_move)))
    o = _obs(g, 0)
    assert 3 in o["eliminated"] and o["winner"] is not None
    root = _tree(five_sons_felt(o, human=0))
    seats = _seats(root)
    assert "qard-out" in _classes(seats[3]) and "out" in [_text(x) for x in _all(seats[3], "qard-tag-out")]
    w = o["winner"]
    assert "qard-winner" in _classes(seats[w]) and _all(seats[w], "qard-tag-winner")
    assert [s for s, b in seats.items() if _all(b, "qard-tag-winner")] == [w]
    assert not [s for s, b in seats.items() if "qard-turn" in _classes(b)]  # nobody's turn at the end
    assert _text(_one(root, "qard-felt-prompt")) == f"{o['names'][w]} wins"
    assert _cards(_one(root, "qard-secret")) == [c.code for c in g.secret]


def test_five_sons_verdict_of_the_players_own_claim_is_in_its_seat_box() -> None:
    g = _run(FiveSons.new(4, seed=7), lambda g: g.phase == "claim" and g.to_move == 0 and g.step > 20)
    g.apply(Claim("KS", "AH"))  # wrong: the secret is K♦ 9♥
    mine = _seats(_tree(five_sons_felt(_obs(g, 0), human=0)))[0]
    v = _one(mine, "qard-verdict")
    assert "qard-verdict-wrong" in _classes(v) and "qard-out" in _classes(mine)
    assert _text(v).startswith("Your claim") and "wrong, you are out" in _text(v)
    assert _named(v) == ["KS", "AH"]  # the claim names its pair: cards not seen
    assert _cards(v) == [c.code for c in g.secret]  # the claimant has seen the secret
    # another seat reads the claim and its verdict, never the secret
    bob_view = _seats(_tree(five_sons_felt(_obs(g, 1), viewer=0)))[0]
    v = _one(bob_view, "qard-verdict")
    assert _text(v).startswith("Alice's claim") and _named(v) == ["KS", "AH"] and not _cards(v)
    # a seat that has not claimed keeps an empty line of the same height
    assert _text(_one(_seats(_tree(five_sons_felt(_obs(g, 1))))[1], "qard-verdict")) == ""
    g2 = _run(FiveSons.new(4, seed=7), lambda g: g.phase == "claim" and g.to_move == 0 and g.step > 20)
    g2.apply(Claim(*[c.code for c in g2.secret]))
    v = _one(_seats(_tree(five_sons_felt(_obs(g2, 0), human=0)))[0], "qard-verdict")
    assert "qard-verdict-right" in _classes(v) and "right! You win." in _text(v)


def test_five_sons_felt_keeps_one_size() -> None:
    g = FiveSons.new(5, seed=2)
    bots = [ReasoningBot(s) for s in range(5)]
    seen = set()
    while not g.is_over:
        root = _tree(five_sons_felt(_obs(g, 0), human=0))
        seen.add((root.get("style"), tuple(_seats(root)[s].get("style") for s in range(5))))
        g.play(bots[g.to_move].act(g.observation(g.to_move)))
    assert len(seen) == 1


# -- the log -------------------------------------------------------------------------------------

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def test_fold_log_folds_runs_of_no_claims_and_pass_choices() -> None:
    lines = [
        "Bob asks Dave: the Queen of Clubs has nine sons.",
        "Dave has neither.",
        "Bob does not claim.",
        "Carol does not claim.",
        "Dave does not claim.",
        "Alice does not claim.",
        "Carol asks Alice: the Queen of Clubs has two sons.",
    ]
    assert fold_log(lines, NAMES) == [
        (lines[0], 1),
        (lines[1], 1),
        ("Bob, Carol, Dave and Alice do not claim.", 4),
        (lines[-1], 1),
    ]
    passing = (
        ["You choose to pass Q♥."]
        + ["Bob chooses a card to pass."] * 3
        + ["Carol chooses a card to pass."] * 3
        + ["Dave chooses a card to pass."] * 3
    )
    assert fold_log(passing, NAMES) == [
        ("You choose to pass Q♥.", 1),
        ("Bob, Carol and Dave each choose 3 cards to pass.", 9),
    ]
    assert fold_log(["Bob chooses a card to pass."] * 3, NAMES) == [("Bob chooses 3 cards to pass.", 3)]
    assert fold_log(["Bob chooses a card to pass."] * 2 + ["Carol chooses a card to pass."], NAMES) == [
        ("Bob chooses 2 cards to pass. Carol chooses a card to pass.", 3)
    ]
    assert fold_log(["Bob does not claim."], NAMES) == [("Bob does not claim.", 1)]
    # any other line said twice at once is kept once, with its count; apart, both stay
    assert fold_log(["x happens.", "x happens.", "y.", "x happens."]) == [
        ("x happens.", 2),
        ("y.", 1),
        ("x happens.", 1),
    ]


def test_log_html_shows_the_newest_first_and_counts_repeats() -> None:
    lines = ["Hand 1: Alice deals.", "Bob does not claim.", "Carol does not claim.", "x.", "x.", "Last line."]
    root = _tree(log_html(lines, NAMES))
    items = [_text(li) for li in root.iter("li")]
    assert items[0] == "Last line." and "qard-log-newest" in _classes(next(root.iter("li")))
    assert items[1] == "x.×2" and items[2] == "Bob and Carol do not claim." and items[-1] == lines[0]
    assert _text(_one(root, "qard-log-count")) == "×2"
    short = _tree(log_html(lines, NAMES, limit=2))
    assert [_text(li) for li in short.iter("li")] == ["Last line.", "x.×2", "… 3 earlier lines"]
    assert "nothing yet" in log_html([], NAMES)


def test_log_of_a_whole_five_sons_game_is_much_shorter_folded() -> None:
    g = _run(FiveSons.new(4, seed=7), lambda g: False)
    lines = [g.describe(e, 0) for e in g.events if e.visible_to(0)]
    folded = fold_log(lines, [g.seat_name(s) for s in range(4)])
    assert sum(n for _t, n in folded) == len(lines)
    assert len(folded) < 0.55 * len(lines)  # a question's four no-claims are one line
    assert not any(t.endswith("does not claim.") and n > 1 for t, n in folded)
    assert folded[-1][0] == lines[-1]


def test_part_finds_a_seat_box_or_a_class() -> None:
    o = _obs(FiveSons.new(4, seed=7), 0)
    markup = five_sons_felt(o)
    bob = felt.part(markup, seat=1)
    assert _tree(bob).get("data-seat") == "1" and bob.count("qard-card-back") == 5
    assert "qard-secret" in felt.part(markup, cls="qard-secret") and felt.part(markup, cls="nothing") == ""


def test_felt_css_is_one_style_element() -> None:
    assert felt.FELT_CSS.startswith("<style>") and felt.FELT_CSS.count("<style>") == 1
    for cls in (
        "qard-felt-ring",
        "qard-seat",
        "qard-turn",
        "qard-dealer",
        "qard-trick-card",
        "qard-felt-prompt",
        "qard-taken-label",
        "qard-log-count",
    ):
        assert f".{cls}" in felt.FELT_CSS

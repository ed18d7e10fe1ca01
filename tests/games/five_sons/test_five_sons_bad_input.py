"""Bad input gets a clear error naming the bad value, and leaves the game exactly as it was."""

from __future__ import annotations

import json

import pytest

from qardlab.engine import IllegalAction, Record, RecordError
from qardlab.engine.contract import snapshot
from qardlab.games.five_sons import Ask, Claim, Deal, FiveSons, NoClaim, Show

from .conftest import HANDS4, SECRET


def refused(game: FiveSons, action, match: str) -> None:
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=match):
        game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize("players", [3, 6])
def test_bad_player_count_named(players: int) -> None:
    with pytest.raises(ValueError, match=f"4 or 5 players, not {players}"):
        FiveSons.new(players, seed=1)
    hands = [["JC"]] * players
    with pytest.raises(ValueError, match=f"not {players}"):
        FiveSons.from_deal(hands, secret=SECRET)


def test_bad_unknown_card_named() -> None:
    with pytest.raises(ValueError, match="'ZZ'"):
        Ask(1, "ZZ", "8H")
    with pytest.raises(ValueError, match="'1H'"):
        Claim("QC", "1H")
    with pytest.raises(ValueError, match="'XX'"):
        Show("XX")


def test_bad_card_not_in_the_five_sons_deck(game4: FiveSons) -> None:
    refused(game4, Ask(2, "2C", "8H"), "2C is not a face card")
    refused(game4, Ask(2, "QC", "QD"), "QD is not a number card")
    refused(game4, Ask(2, "QC", "8S"), "8S is not a number card")


def test_bad_asking_yourself(game4: FiveSons) -> None:
    refused(game4, Ask(1, "QC", "8H"), "cannot ask themself")
    refused(game4, Ask(7, "QC", "8H"), "target 7 is not a seat")


def test_bad_two_face_cards_or_two_numbers(game4: FiveSons) -> None:
    refused(game4, Ask(2, "QC", "KD"), "KD is not a number card")
    refused(game4, Ask(2, "8H", "9H"), "8H is not a face card")
    refused(game4, Ask(2, "8H", "QC"), "8H is not a face card")  # the order is face, then number


def test_bad_show_card_not_held_or_not_named(game4: FiveSons) -> None:
    game4.apply(Ask(2, "QS", "AH"))  # seat 2 holds both
    refused(game4, Show("JC"), "JC was not named")
    refused(game4, Show("9H"), "9H was not named")
    refused(game4, NoClaim(), "must show QS or AH")
    refused(game4, Ask(3, "QS", "AH"), "must show")


def test_bad_acting_out_of_turn(game4: FiveSons) -> None:
    before = snapshot(game4)
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        game4.act(2, Ask(3, "QC", "8H"))
    assert snapshot(game4) == before
    refused(game4, NoClaim(), "must ask a question")
    refused(game4, Claim("KS", "TH"), "must ask a question")
    refused(game4, Show("QS"), "must ask a question")
    game4.play(Ask(3, "JC", "AH"))
    refused(game4, Ask(2, "JC", "AH"), "chance to claim")
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        game4.act(0, NoClaim())


def test_bad_claiming_when_eliminated(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(Claim("KH", "5H"))  # seat 1 is out
    before = snapshot(game4)
    with pytest.raises(IllegalAction, match="seat 1 made a wrong claim"):
        game4.act(1, Claim("KS", "TH"))
    assert snapshot(game4) == before
    assert game4.observation(1)["legal"] == []


def test_bad_claim_shape(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    refused(game4, Claim("KH", "KD"), "number card second")
    refused(game4, Claim("5H", "KD"), "face card first")


def test_bad_action_after_the_end(game4: FiveSons) -> None:
    game4.play(Ask(3, "JC", "AH"))
    game4.apply(Claim("KS", "TH"))
    refused(game4, NoClaim(), "over")
    with pytest.raises(IllegalAction, match="over"):
        game4.act(0, NoClaim())


def test_bad_deals_refused() -> None:
    with pytest.raises(IllegalAction, match="dealt twice"):
        FiveSons.from_deal(["JC QC KC JD QD", "JC JH QH KH JS", "QS AH 2H 3H 4H", "5H 6H 7H 8H 9H"], SECRET)
    with pytest.raises(IllegalAction, match="must get 5 cards"):
        FiveSons.from_deal(["JC QC KC JD", "KD JH QH KH JS QD", "QS AH 2H 3H 4H", "5H 6H 7H 8H 9H"], SECRET)
    with pytest.raises(IllegalAction, match="face card"):
        FiveSons.from_deal(HANDS4, ("TH", "KS"))
    with pytest.raises(IllegalAction, match="2C"):
        FiveSons.from_deal(["JC QC KC JD 2C", "KD JH QH KH JS", "QS AH 2H 3H 4H", "5H 6H 7H 8H 9H"], SECRET)
    with pytest.raises(ValueError, match="dealer 4"):
        FiveSons.from_deal(HANDS4, SECRET, dealer=4)
    with pytest.raises(ValueError, match="secret"):
        Deal(0, ("KS",), ())
    g = FiveSons.from_deal(HANDS4, SECRET)
    refused(g, Deal(0, SECRET, tuple(HANDS4)), "already been dealt")


def test_bad_show_and_deal_from_json_refused(game4: FiveSons) -> None:
    refused(game4, {"type": "fly"}, "unknown Five Sons action type 'fly'")
    refused(game4, {"type": "ask", "target": 2}, "fields")


def _record_text() -> str:
    g = FiveSons.new(4, seed=5)
    g.apply(Ask((g.asker + 1) % 4, "KS", "TH"))
    while g.phase == "answer":
        g.apply(g.legal_actions()[0])
    g.apply(NoClaim())
    return g.record().to_json()


def test_bad_truncated_record() -> None:
    text = _record_text()
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.from_json(text[: len(text) // 2])
    with pytest.raises(RecordError):
        Record.from_json("")


def test_bad_tampered_record() -> None:
    data = json.loads(_record_text())
    # a card dealt twice
    bad = json.loads(json.dumps(data))
    bad["actions"][0]["hands"][0][0] = bad["actions"][0]["hands"][1][0]
    with pytest.raises(RecordError, match=r"action #0 .*dealt twice"):
        Record.from_dict(bad).replay()
    # a question to oneself
    bad = json.loads(json.dumps(data))
    asker = (bad["actions"][0]["dealer"] + 1) % 4
    bad["actions"][1]["target"] = asker
    with pytest.raises(RecordError, match="action #1"):
        Record.from_dict(bad).replay()
    # an unknown card, a wrong player count, an unknown option, a missing field
    bad = json.loads(json.dumps(data))
    bad["actions"][1]["face"] = "ZZ"
    with pytest.raises(RecordError, match="'ZZ'"):
        Record.from_dict(bad).replay()
    bad = dict(data, players=6)
    with pytest.raises(RecordError, match="not 6"):
        Record.from_dict(bad).replay()
    bad = dict(data, options={"ask_mode": "sideways"})
    with pytest.raises(RecordError, match="sideways"):
        Record.from_dict(bad).replay()
    bad = {k: v for k, v in data.items() if k != "actions"}
    with pytest.raises(RecordError, match="actions"):
        Record.from_dict(bad)
    bad = dict(data, game="chess")
    with pytest.raises(RecordError, match="chess"):
        Record.from_dict(bad)
    # an action of the wrong kind at its place
    bad = json.loads(json.dumps(data))
    bad["actions"].insert(1, {"type": "no_claim"})
    with pytest.raises(RecordError, match="action #1"):
        Record.from_dict(bad).replay()


@pytest.mark.parametrize("seat", [-1, 4, "0"])
def test_bad_seat_in_holds_and_hand_named(game4: FiveSons, seat) -> None:
    """A seat outside 0..3 is refused by name, never read as another seat (-1 is not seat 3)."""
    with pytest.raises(ValueError, match=f"seat {seat!r} is not a seat"):
        game4.holds(seat, "QC")
    with pytest.raises(ValueError, match=f"seat {seat!r} is not a seat"):
        game4.hand(seat)

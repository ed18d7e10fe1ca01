"""qardlab.lessons.exercises: readers accept what a person types; check() gives the four verdicts."""

from __future__ import annotations

import pytest

from qardlab.cards import Card
from qardlab.lessons.exercises import (
    EMPTY,
    Reply,
    Unreadable,
    answer_keys,
    check,
    read_card,
    read_cell,
    read_name,
    read_number,
    read_question,
    right,
    wrong,
)

NAMES = {"Alice": 0, "Bob": 1, "secret": "secret"}


@pytest.mark.parametrize(
    "typed, value",
    [
        (54, 54),
        ("54", 54),
        (" 54 ", 54),
        ("54.0", 54.0),
        ("0.5", 0.5),
        ("50%", 0.5),
        (2.5, 2.5),
        ("9/36", 0.25),
    ],
)
def test_read_number_accepts_numbers_and_text(typed, value) -> None:
    assert read_number(typed) == value


@pytest.mark.parametrize("typed", ["fifty", True, [54], "5 4", "1/0"])
def test_read_number_refuses_what_is_not_a_number(typed) -> None:
    with pytest.raises(Unreadable):
        read_number(typed)


@pytest.mark.parametrize("typed", ["QC", "qc", " Qc ", "Q♣", Card.parse("QC")])
def test_read_card_as_the_engine_parses(typed) -> None:
    assert read_card(typed) == Card.parse("QC")


def test_read_card_ten_and_bad_code() -> None:
    assert read_card("10h") == Card.parse("TH")
    with pytest.raises(Unreadable, match="card code"):
        read_card("XX")


def test_names_in_any_case_and_the_secret() -> None:
    read = read_name(NAMES)
    assert read("bob") == read("BOB ") == 1
    assert read("The secret pair") == read("secret") == "secret"
    with pytest.raises(Unreadable, match="'Alice'"):
        read("Carol")


def test_cells_and_questions_as_tuples_or_text() -> None:
    assert read_cell(NAMES)(("js", "bob")) == read_cell(NAMES)("JS, Bob") == (Card.parse("JS"), 1)
    assert read_cell(NAMES)("7H the secret") == (Card.parse("7H"), "secret")
    q = read_question(NAMES)
    assert q(("Bob", "QC", "8H")) == q("bob 8h qc") == (1, Card.parse("QC"), Card.parse("8H"))
    with pytest.raises(Unreadable, match="one face card"):
        q("Bob QC KC")


def test_check_gives_four_verdicts() -> None:
    def judge(v: int) -> Reply:
        return right("54 it is.") if v == 54 else wrong(f"{v} is not 54.", "8 x 7 = 56, minus 2.")

    empty = check(None, read_number, judge)
    assert empty.verdict == "empty" and empty.text.startswith(EMPTY)
    assert check("", read_number, judge).verdict == "empty"
    assert check("lots", read_number, judge).verdict == "unreadable"
    assert check("54", read_number, judge).ok and check("54", read_number, judge).text.startswith("Right:")
    bad = check(56, read_number, judge)
    assert bad.verdict == "wrong" and bad.text.startswith("Not quite:") and "8 x 7" in bad.text


def test_a_judge_must_return_a_reply() -> None:
    with pytest.raises(TypeError, match="Reply"):
        check(1, read_number, lambda v: "yes")


def test_answer_keys_have_their_fields() -> None:
    for k in answer_keys():
        for name in ("lesson", "exercise", "variable", "prompt", "right", "wrong", "key", "checked"):
            assert name in k, f"{k.get('lesson')}/{k.get('exercise')}: no {name!r}"

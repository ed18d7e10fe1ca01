"""qardlab.lessons.exercises: readers accept what a person types; a check gives the four verdicts; an exercise
gives the step missed first and the worked answer only after a second different wrong answer (or a click), and
records its progress in its output's metadata."""

from __future__ import annotations

import pytest

from qardlab.cards import Card
from qardlab.lessons.exercises import (
    EMPTY,
    LATER,
    NOBODY,
    WORKED,
    Exercise,
    Reply,
    Unreadable,
    answer_key,
    answer_keys,
    check,
    number_text,
    read_card,
    read_cell,
    read_choice,
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
        ("0,88", 0.88),  # a decimal comma
        ("29,4%", 0.294),
        ("29,4 %", 0.294),
        ("3/8", 0.375),
        ("about 0.9", 0.9),
        ("54 pairs", 54),
        ("0,81 bits", 0.81),
        ("1,234.5", 1234.5),  # thousands, then a point
        ("1.234,5", 1234.5),  # the other way round
        ("20,000,000", 20000000),
        ("−3", -3),  # a typographic minus
    ],
)
def test_read_number_accepts_what_a_person_types(typed, value) -> None:
    assert read_number(typed) == pytest.approx(value)


@pytest.mark.parametrize("typed", ["fifty", True, [54], "5 4 x", "1/0", "1,2,3"])
def test_read_number_refuses_what_is_not_a_number(typed) -> None:
    with pytest.raises(Unreadable):
        read_number(typed)


def test_an_ambiguous_comma_is_asked_about_not_guessed() -> None:
    """ "1,750" is 1.75 with a decimal comma and 1750 with a thousands comma: the reply names both."""
    with pytest.raises(Unreadable, match=r"1\.750 or 1750"):
        read_number("1,750")
    assert read_number("0,750") == pytest.approx(0.75)  # no thousands group starts with 0


@pytest.mark.parametrize(
    "typed", ["QC", "qc", " Qc ", "Q♣", Card.parse("QC"), "queen of clubs", "the Q♣", '"QC"']
)
def test_read_card_as_the_engine_parses_and_in_words(typed) -> None:
    assert read_card(typed) == Card.parse("QC")


@pytest.mark.parametrize("typed", ["1H", "1h", "1♥", "AH", "ace of hearts", "one of hearts"])
def test_the_ace_reads_as_1H_too(typed) -> None:
    """Five Sons counts the Ace as one: "1H" is the Ace of hearts."""
    assert read_card(typed) == Card.parse("AH")


def test_read_card_ten_words_and_bad_code() -> None:
    assert read_card("10h") == read_card("ten of hearts") == read_card("10 of hearts") == Card.parse("TH")
    with pytest.raises(Unreadable, match="card code"):
        read_card("XX")


def test_names_in_any_case_the_secret_and_nobody() -> None:
    read = read_name(NAMES)
    assert read("bob") == read("BOB ") == read('"Bob".') == 1
    assert read("The secret pair") == read("secret") == "secret"
    with pytest.raises(Unreadable, match="'Alice'"):
        read("Carol")
    with pytest.raises(Unreadable):  # "nobody" only where nobody is an answer
        read("nobody")
    who = read_name(NAMES, nobody=NOBODY)
    for typed in ("nobody", "Nobody", "no one", "No-one", "noone", "none", "nobody else"):
        assert who(typed) is NOBODY, typed


def test_cells_and_questions_as_tuples_or_text() -> None:
    assert read_cell(NAMES)(("js", "bob")) == read_cell(NAMES)("JS, Bob") == (Card.parse("JS"), 1)
    assert read_cell(NAMES)("7H the secret") == (Card.parse("7H"), "secret")
    q = read_question(NAMES)
    assert (
        q(("Bob", "QC", "8H"))
        == q("bob 8h qc")
        == q("Bob, QC, 8H")
        == (1, Card.parse("QC"), Card.parse("8H"))
    )
    with pytest.raises(Unreadable, match="one face card"):
        q("Bob QC KC")


def test_read_choice_letters_numbers_and_the_sentence() -> None:
    read = read_choice(["red", "green", "blue"])
    assert read("b") == read("(B)") == read("b)") == read(2) == read("2") == read("Green") == 1
    with pytest.raises(Unreadable, match="'a', 'b', 'c'"):
        read("d")


def test_number_text_never_writes_minus_zero() -> None:
    assert number_text(-1e-12) == "0.000" and number_text(-0.0) == "0.000"
    assert number_text(-0.0004) == "0.000" and number_text(-0.0006) == "-0.001"
    assert number_text(0.4615, 2) == "0.46"


def _judge(v: int) -> Reply:
    if v == 54:
        return right("54 it is.")
    return wrong(f"{v} is not it.", "Hint: look at the one-of facts.", solution=["8 x 7 = 56, less 2: 54."])


def test_check_gives_four_verdicts_and_hides_the_worked_answer() -> None:
    empty = check(None, read_number, _judge)
    assert empty.verdict == "empty" and empty.text.startswith(EMPTY)
    assert check("", read_number, _judge).verdict == "empty"
    assert check("lots", read_number, _judge).verdict == "unreadable"
    assert check("54", read_number, _judge).ok and check("54", read_number, _judge).text.startswith("Right:")
    bad = check(56, read_number, _judge)
    assert bad.verdict == "wrong" and bad.text.startswith("Not quite:") and "Hint:" in bad.text
    assert "54" not in bad.text and bad.solution == ("8 x 7 = 56, less 2: 54.",)  # behind the button only


def test_an_exercise_gives_the_hint_first_and_the_worked_answer_after_a_second_different_wrong_answer() -> (
    None
):
    ex = Exercise("test-lesson", "q1", keyed=False)
    ex.reset()
    assert ex.check(None, read_number, _judge).verdict == "empty"
    assert ex.check("lots", read_number, _judge).verdict == "unreadable"  # no try counted
    first = ex.check("56", read_number, _judge)
    assert (
        first.verdict == "wrong"
        and LATER in first.lines
        and WORKED not in first.text
        and "54" not in first.text
    )
    again = ex.check(
        56, read_number, _judge
    )  # the same answer again (as typed or as a number) is not a new try
    assert WORKED not in again.text and again.progress["tries"] == 1
    second = ex.check("60", read_number, _judge)
    assert WORKED in second.text and "54" in second.text and second.solved
    assert second.progress == {
        "lesson": "test-lesson",
        "exercise": "q1",
        "verdict": "wrong",
        "tries": 2,
        "wrong": ["'56'", "'60'"],
        "right": False,
        "solution_shown": True,
    }
    done = ex.check("54", read_number, _judge)
    assert (
        done.ok and done.progress["tries"] == 3 and done.progress["right"] and done.progress["solution_shown"]
    )
    ex.reset()
    assert ex.check("56", read_number, _judge).progress["tries"] == 1


def test_a_reply_records_its_progress_in_its_outputs_metadata() -> None:
    """In a notebook a reply is a display with text and HTML whose metadata carries the progress; a wrong
    reply whose worked answer is not shown yet adds a button, and only a click puts the worked answer on
    the page."""
    from IPython.core.interactiveshell import InteractiveShell

    shown: list[tuple] = []
    ex = Exercise("test-lesson", "q2", keyed=False)
    ex.reset()
    reply = ex.check("56", read_number, _judge)
    import IPython.display as d

    real = d.display
    try:
        d.display = lambda *objs, **kw: shown.append((objs, kw))
        InteractiveShell.instance()
        reply._ipython_display_()
    finally:
        d.display = real
    (bundle,), kw = shown[0]
    assert bundle["text/plain"] == reply.text and "qard-reply-wrong" in bundle["text/html"]
    assert kw["metadata"] == {"qardlab": reply.progress} and kw["raw"]
    (button_box,), _ = shown[1]
    assert repr(button_box) == "[button: Show the worked answer]"
    button, page = button_box.children
    assert "54" not in page.value  # nothing of the worked answer before the click
    button.click()
    assert "8 x 7 = 56, less 2: 54." in page.value and button.layout.display == "none"
    assert ex.tries.solution_shown  # and the next check records it


def test_a_judge_must_return_a_reply() -> None:
    with pytest.raises(TypeError, match="Reply"):
        check(1, read_number, lambda v: "yes")


def test_an_exercise_must_have_a_key_unless_told_otherwise() -> None:
    with pytest.raises(KeyError, match="no exercise 'nonesuch'"):
        Exercise("01-five-sons-first-game", "nonesuch")


def test_answer_keys_have_their_fields() -> None:
    for k in answer_keys():
        where = f"{k.get('lesson')}/{k.get('exercise')}"
        for name in ("lesson", "exercise", "variable", "prompt", "right", "wrong", "key", "checked"):
            assert name in k, f"{where}: no {name!r}"
        assert isinstance(k["wrong"], list) and len(set(k["wrong"])) >= 2, (
            f"{where}: two different wrong answers"
        )
        assert k["right"] not in k["wrong"], where
        assert answer_key(k["lesson"], k["exercise"]) == k

"""Checking a student's answer in a lesson: read what a person types, and reply in one of four ways.

A lesson's check cell calls :func:`check` with the student's ``answer``, a *reader* that turns what a person
types into a value (:func:`read_number`, :func:`read_card`, :func:`read_name`, :func:`read_cell`,
:func:`read_question`) and a *judge* that returns :func:`right` or :func:`wrong` with the reasons. The
:class:`Reply` it returns shows itself as text in the notebook and carries a ``verdict`` the test suite reads:

- ``"empty"``: nothing written yet (``None``, ``""``, ``...``): "Write your answer first", nothing graded;
- ``"unreadable"``: written, but not something the reader understands; says what was expected;
- ``"right"``: says why it is right;
- ``"wrong"``: gives the engine's explanation and the step or arithmetic the student missed.

Readers accept what a person types: ``"54"`` as well as ``54``, names in any case, card codes as
:meth:`qardlab.cards.Card.parse` reads them (``"qc"``, ``"10h"``, ``"Q♣"``), pairs written as a tuple or as
one string (``"JS Bob"``, ``"JS, Bob"``).

The answer keys of every lesson's exercises live in one data file, ``answer_keys.json`` next to this module
(read by :func:`answer_keys`); the test suite runs each exercise with its right, wrong and empty answers, and
the teacher's kit prints the keys from it (:func:`answer_key_markdown`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..cards import Card

__all__ = [
    "EMPTY",
    "Reply",
    "Unreadable",
    "check",
    "right",
    "wrong",
    "is_empty",
    "read_number",
    "read_card",
    "read_name",
    "read_cell",
    "read_question",
    "answer_keys",
    "answer_key",
    "answer_key_markdown",
    "ANSWER_KEYS",
]

#: The reply to an empty answer (its first words).
EMPTY = "Write your answer first"
#: The data file of answer keys.
ANSWER_KEYS = Path(__file__).with_name("answer_keys.json")


@dataclass(frozen=True)
class Reply:
    """What a check says: a verdict ("empty", "unreadable", "right", "wrong") and the lines to read."""

    verdict: str
    lines: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.verdict not in ("empty", "unreadable", "right", "wrong"):
            raise ValueError(f"unknown verdict {self.verdict!r}")

    @property
    def ok(self) -> bool:
        """True for a right answer."""
        return self.verdict == "right"

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # IPython's plain-text display
        p.text(self.text)


class Unreadable(ValueError):
    """An answer a reader cannot understand; its message says what was expected."""


def right(*lines: str) -> Reply:
    """A right answer: the first line starts with "Right:", the rest say why."""
    return Reply("right", ("Right: " + lines[0], *lines[1:]) if lines else ("Right.",))


def wrong(*lines: str) -> Reply:
    """A wrong answer: the first line starts with "Not quite:", the rest give the explanation and the step."""
    return Reply("wrong", ("Not quite: " + lines[0], *lines[1:]) if lines else ("Not quite.",))


def is_empty(answer: Any) -> bool:
    """Nothing written: None, an empty or blank string, ``...``, or an empty tuple or list."""
    if answer is None or answer is Ellipsis:
        return True
    if isinstance(answer, str):
        return not answer.strip()
    if isinstance(answer, (tuple, list)):
        return len(answer) == 0 or all(is_empty(a) for a in answer)
    return False


def check(
    answer: Any, read: Callable[[Any], Any], judge: Callable[[Any], Reply], *, example: str = ""
) -> Reply:
    """Read ``answer`` and judge it; an empty answer is not graded, an unreadable one says why.

    ``example`` is a sample answer quoted in the "write your answer first" reply.
    """
    hint = f" (for example {example})" if example else ""
    if is_empty(answer):
        return Reply("empty", (f"{EMPTY}{hint}: replace None on the answer line and run this cell again.",))
    try:
        value = read(answer)
    except Unreadable as err:
        return Reply(
            "unreadable",
            (f"I cannot read {answer!r}: {err}.", f"Write your answer{hint} and run this cell again."),
        )
    reply = judge(value)
    if not isinstance(reply, Reply):
        raise TypeError(f"a judge returns a Reply (right(...) or wrong(...)), not {reply!r}")
    return reply


# -- readers ----------------------------------------------------------------------------------------------


def read_number(answer: Any) -> int | float:
    """A number, typed as one or as text: ``54``, ``"54"``, ``" 54 "``, ``"54.0"``, ``"0.5"``, ``"50%"``,
    ``"9/31"`` (a fraction, as a float)."""
    if isinstance(answer, bool):
        raise Unreadable("expected a number, not True or False")
    if isinstance(answer, (int, float)):
        return answer
    if isinstance(answer, str):
        text = answer.strip().replace(",", "").replace("_", "")
        percent = text.endswith("%")
        text = text.rstrip("%").strip()
        if text.count("/") == 1:
            top, _, bottom = text.partition("/")
            try:
                value = float(top) / float(bottom)
            except (ValueError, ZeroDivisionError):
                raise Unreadable("expected a number such as 54 or a fraction such as 9/31") from None
            return value / 100 if percent else value
        try:
            value = float(text)
        except ValueError:
            raise Unreadable("expected a number such as 54") from None
        if percent:
            return value / 100
        return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value
    raise Unreadable("expected a number such as 54")


def read_card(answer: Any) -> Card:
    """A card, as :meth:`Card.parse` reads it: ``"QC"``, ``"qc"``, ``"10h"``, ``"Q♣"``."""
    if isinstance(answer, Card):
        return answer
    try:
        return Card.parse(answer.strip() if isinstance(answer, str) else answer)
    except ValueError:
        raise Unreadable(
            'expected a card code such as "QC" (Queen of clubs) or "8H" (eight of hearts)'
        ) from None


def _key(text: str) -> str:
    return " ".join(text.strip().lower().split())


def read_name(names: Mapping[str, Any]) -> Callable[[Any], Any]:
    """A reader of a name among ``names`` (name -> value), in any case and spacing; "the secret" reads as
    "secret" when "secret" is one of the names."""
    table = {_key(n): v for n, v in names.items()}
    if "secret" in table:
        table.setdefault("the secret", table["secret"])
        table.setdefault("the secret pair", table["secret"])
        table.setdefault("secret pair", table["secret"])

    def read(answer: Any) -> Any:
        if not isinstance(answer, str) or _key(answer) not in table:
            raise Unreadable("expected one of " + ", ".join(repr(n) for n in names))
        return table[_key(answer)]

    return read


def _parts(answer: Any, n: int) -> list[Any]:
    """Split an answer into ``n`` parts: a tuple or list as it is, a string at commas, slashes or spaces."""
    if isinstance(answer, (tuple, list)):
        parts = list(answer)
    elif isinstance(answer, str):
        parts = [p for p in re.split(r"[,/;]\s*|\s+", answer.strip()) if p]
        if len(parts) > n:  # "the secret" and other names of several words
            parts = parts[: n - 1] + [" ".join(parts[n - 1 :])]
    else:
        raise Unreadable(f"expected {n} parts")
    if len(parts) != n:
        raise Unreadable(f"expected {n} parts, got {len(parts)}")
    return parts


def read_cell(names: Mapping[str, Any]) -> Callable[[Any], tuple[Card, Any]]:
    """A reader of a grid cell: a card and a place, as ``("JS", "Bob")`` or ``"JS Bob"``."""
    place = read_name(names)

    def read(answer: Any) -> tuple[Card, Any]:
        card, where = _parts(answer, 2)
        return read_card(card), place(where)

    return read


def read_question(names: Mapping[str, Any]) -> Callable[[Any], tuple[Any, Card, Card]]:
    """A reader of a Five Sons question: a player, a face card and a number card, as ``("Bob", "QC", "8H")``
    or ``"Bob QC 8H"``; the two cards may come in either order."""
    player = read_name(names)

    def read(answer: Any) -> tuple[Any, Card, Card]:
        if isinstance(answer, str):
            words = answer.split()
            if len(words) < 3:
                raise Unreadable("expected a player, a face card and a number card")
            who, cards = " ".join(words[:-2]), words[-2:]
        else:
            who, *cards = _parts(answer, 3)
        a, b = read_card(cards[0]), read_card(cards[1])
        if a.is_face == b.is_face:
            raise Unreadable("expected one face card and one number card")
        face, number = (a, b) if a.is_face else (b, a)
        return player(who), face, number

    return read


# -- answer keys ------------------------------------------------------------------------------------------


@cache
def _load() -> tuple[dict[str, Any], ...]:
    data = json.loads(ANSWER_KEYS.read_text(encoding="utf-8"))
    return tuple(data["exercises"])


def answer_keys(lesson: str | None = None) -> list[dict[str, Any]]:
    """Every exercise's key (or one lesson's, by its file stem such as "01-five-sons-first-game").

    Each key: ``lesson``, ``exercise`` (an id), ``variable`` (the answer's name in the notebook: its cell
    holds the line ``<variable> = None``, tagged ``exercise`` like the check cell after it), ``title``,
    ``prompt``, ``right`` (an answer the check accepts) and ``wrong`` (one it refuses), both as Python
    expressions written on the answer line as they are (``'"54"'``, ``'("4H", "Carol")'``), ``key`` (the
    answer with its reasoning, for the teacher), ``common_wrong`` (``answer`` / ``reveals``: answers students
    give and what they reveal), ``checked`` (how the check decides), ``wrong_mentions`` /
    ``right_mentions`` (words each reply must contain; tests/lessons checks them), ``spoilers`` (optional:
    words that would give the answer away, which no output above the exercise may contain).
    """
    keys = [dict(k) for k in _load()]
    if lesson is None:
        return keys
    found = [k for k in keys if k["lesson"] == lesson]
    if not found:
        lessons = sorted({k["lesson"] for k in keys})
        raise KeyError(f"no answer keys for lesson {lesson!r}; lessons: {lessons}")
    return found


def answer_key(lesson: str, exercise: str) -> dict[str, Any]:
    """One exercise's key."""
    for k in answer_keys(lesson):
        if k["exercise"] == exercise:
            return k
    raise KeyError(f"lesson {lesson!r} has no exercise {exercise!r}")


def answer_key_markdown(lesson: str) -> str:
    """The answer keys of one lesson as Markdown, for the teacher's kit."""
    out: list[str] = []
    for i, k in enumerate(answer_keys(lesson), 1):
        out.append(f"### Exercise {i}: {k['title']}" if k.get("title") else f"### Exercise {i}")
        out.append("")
        out.append(f"*Asked:* {k['prompt']}")
        out.append("")
        out.append(f"*Answer:* `{k['variable']} = {k['right']}`. {k['key']}")
        if k.get("also_right"):
            out.append("")
            out.append("*Also accepted:* " + "; ".join(k["also_right"]))
        if k.get("common_wrong"):
            out.append("")
            out.append("*Common wrong answers and what they reveal:*")
            out.append("")
            for w in k["common_wrong"]:
                out.append(f"- `{w['answer']}`: {w['reveals']}")
        out.append("")
        out.append(f"*How it is checked:* {k['checked']}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"

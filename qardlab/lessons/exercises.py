"""Checking a student's answer in a lesson: read what a person types, give a hint first and the worked answer
later.

A lesson's check cell calls one :class:`Exercise`'s :meth:`~Exercise.check` with the student's ``answer``, a
*reader* that turns what a person types into a value (:func:`read_number`, :func:`read_card`,
:func:`read_name`,
:func:`read_cell`, :func:`read_question`, :func:`read_choice`) and a *judge* that returns :func:`right` or
:func:`wrong`. The :class:`Reply` it returns shows itself in the notebook and carries a ``verdict`` the test
suite
reads:

- ``"empty"``: nothing written yet (``None``, ``""``, ``...``): "Write your answer first", nothing graded;
- ``"unreadable"``: written, but not something the reader understands; says what was expected, counts no try;
- ``"right"``: says why it is right;
- ``"wrong"``: the **first** wrong answer gets the step the student missed (where to look), never the answer.
  The worked answer (the judge's ``solution``) comes with a second, different wrong answer, or at once behind
  the reply's "Show the worked answer" button (made only when clicked, so nothing of it is in the notebook
  before).

Each check records, in the metadata of its output (``{"qardlab": {...}}``, saved with the notebook), the
exercise, the verdict, the tries, the wrong answers so far and whether the worked answer was shown: a teacher
collects a class's notebooks and reads them with :mod:`qardlab.lessons.progress`.

Readers accept what a person types: ``"54"`` as well as ``54``, a decimal comma (``"0,88"``, ``"29,4 %"``),
names in any case and "nobody" / "no one" where nobody is an answer, card codes as
:meth:`qardlab.cards.Card.parse` reads them (``"qc"``, ``"10h"``, ``"Q♣"``) and also ``"1H"`` (the Ace counts
one in Five Sons) and words (``"queen of clubs"``), pairs written as a tuple or as one string (``"JS Bob"``).

The answer keys of every lesson's exercises live in one data file, ``answer_keys.json`` next to this module
(read by :func:`answer_keys`); the test suite runs each exercise with its right, wrong and empty answers, and
the teacher's kit prints the keys from it (:func:`answer_key_markdown`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..cards import RANK_NAMES, Card, Suit

__all__ = [
    "EMPTY",
    "NOBODY",
    "Reply",
    "Unreadable",
    "Exercise",
    "check",
    "right",
    "wrong",
    "is_empty",
    "read_number",
    "read_card",
    "read_name",
    "read_cell",
    "read_question",
    "read_choice",
    "number_text",
    "answer_keys",
    "answer_key",
    "answer_key_markdown",
    "ANSWER_KEYS",
]

#: The reply to an empty answer (its first words).
EMPTY = "Write your answer first"
#: The data file of answer keys.
ANSWER_KEYS = Path(__file__).with_name("answer_keys.json")
#: The line a first wrong answer ends with.
LATER = "Try again: after a second wrong answer (or with the button below) you get the worked answer."
#: The heading of the worked answer.
WORKED = "The worked answer:"


class _Nobody:
    """The value "nobody" reads as (a name reader given ``nobody=NOBODY``)."""

    def __repr__(self) -> str:
        return "NOBODY"


#: What "nobody", "no one", "none" read as where nobody is a possible answer.
NOBODY = _Nobody()


@dataclass(frozen=True)
class Reply:
    """What a check says: a ``verdict`` ("empty", "unreadable", "right", "wrong") and the lines to read.

    ``solution`` is the worked answer of a wrong reply: shown in ``lines`` only once the exercise has had two
    different wrong answers, else behind the "Show the worked answer" button. ``mistake`` names the known
    mistake a wrong answer matches; ``progress`` is what the check records in its output's metadata.
    """

    verdict: str
    lines: tuple[str, ...] = field(default_factory=tuple)
    solution: tuple[str, ...] = field(default_factory=tuple)
    mistake: str | None = None
    #: a wrong answer's identity: two wrong answers with the same ``key`` are one try
    key: Hashable = None
    progress: Mapping[str, Any] = field(default_factory=dict)
    #: whether ``lines`` already hold the worked answer
    solved: bool = False

    def __post_init__(self) -> None:
        if self.verdict not in ("empty", "unreadable", "right", "wrong"):
            raise ValueError(f"unknown verdict {self.verdict!r}")

    @property
    def ok(self) -> bool:
        """True for a right answer."""
        return self.verdict == "right"

    # the names the build-it checkers' replies had (status / passed / message)
    @property
    def status(self) -> str:
        return self.verdict

    @property
    def passed(self) -> bool:
        return self.ok

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    message = text

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # IPython's plain text, outside a notebook
        p.text(self.text)

    def _repr_html_(self) -> str:
        return _reply_html(self.verdict, self.lines)

    def _ipython_display_(self) -> None:
        """The reply as text and HTML, its progress in the output's metadata; a wrong reply whose worked
        answer is not shown yet gets a button that shows it."""
        from IPython.display import display

        bundle = {"text/plain": self.text, "text/html": self._repr_html_()}
        display(bundle, raw=True, metadata={"qardlab": dict(self.progress)} if self.progress else None)
        if self.verdict == "wrong" and self.solution and not self.solved:
            display(_solution_button(self))


def _reply_html(verdict: str, lines: Sequence[str]) -> str:
    from ..palette import ERROR, MUTED, RIGHT
    from ..render.markup import el, to_html

    colour = {"right": RIGHT, "wrong": ERROR}.get(verdict, MUTED)
    rows = [
        el("div", line.strip(), style={"margin-left": "1.5em"} if line.startswith(" ") else None)
        for line in lines
    ]
    return to_html(
        el(
            "div",
            *rows,
            cls=f"qard-reply qard-reply-{verdict}",
            style={"border-left": f"4px solid {colour}", "padding": "2px 0 2px 10px", "line-height": "1.45"},
        )
    )


def _solution_button(reply: Reply) -> Any:
    """A "Show the worked answer" button: the worked answer is made into the page only when clicked."""
    import ipywidgets as widgets

    class SolutionButton(widgets.VBox):
        def __repr__(self) -> str:  # the notebook's plain-text form of the button
            return "[button: Show the worked answer]"

    button = widgets.Button(description="Show the worked answer", layout=widgets.Layout(width="auto"))
    button.add_class("qard-show-solution")
    shown = widgets.HTML()
    box = SolutionButton([button, shown])

    def show(_b: Any) -> None:
        shown.value = _reply_html("wrong", (WORKED, *reply.solution))
        button.layout.display = "none"
        exercise = reply.progress.get("exercise") if reply.progress else None
        if exercise:
            _STATE.setdefault((reply.progress["lesson"], exercise), _Tries()).solution_shown = True

    button.on_click(show)
    return box


class Unreadable(ValueError):
    """An answer a reader cannot understand; its message says what was expected."""


def right(*lines: str) -> Reply:
    """A right answer: the first line starts with "Right:", the rest say why."""
    return Reply("right", ("Right: " + lines[0], *lines[1:]) if lines else ("Right.",))


def wrong(
    *lines: str, solution: Sequence[str] = (), mistake: str | None = None, key: Hashable = None
) -> Reply:
    """A wrong answer: the first line starts with "Not quite:", the rest give the step missed (where to look,
    never the answer). ``solution``: the worked answer, shown after a second wrong answer or on a click;
    ``mistake``: the name of the mistake it matches; ``key``: the answer's identity, for counting tries (the
    read value by default)."""
    return Reply(
        "wrong",
        ("Not quite: " + lines[0], *lines[1:]) if lines else ("Not quite.",),
        solution=tuple(solution),
        mistake=mistake,
        key=key,
    )


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
    """Read ``answer`` and judge it, with no record of earlier tries: a wrong answer gets its hint, and its
    worked answer only behind the button. (A lesson's checks use :meth:`Exercise.check`, which counts
    tries.)"""
    reply = _judged(answer, read, judge, example=example)
    if reply.verdict == "wrong" and reply.solution:
        reply = replace(reply, lines=(*reply.lines, "The button below shows the worked answer."))
    return reply


def _judged(
    answer: Any, read: Callable[[Any], Any], judge: Callable[[Any], Reply], *, example: str, empty: str = ""
) -> Reply:
    hint = f" (for example {example})" if example else ""
    if is_empty(answer):
        return Reply(
            "empty",
            (empty or f"{EMPTY}{hint}: replace None on the answer line and run this cell again.",),
        )
    try:
        value = read(answer)
    except Unreadable as err:
        return Reply(
            "unreadable",
            (f"I cannot read {_shown(answer)}: {err}.", f"Write your answer{hint} and run this cell again."),
        )
    reply = judge(value)
    if not isinstance(reply, Reply):
        raise TypeError(f"a judge returns a Reply (right(...) or wrong(...)), not {reply!r}")
    if reply.verdict == "wrong" and reply.key is None:
        reply = replace(reply, key=_hashable(value))
    return reply


def _shown(answer: Any) -> str:
    text = repr(answer)
    return text if len(text) <= 80 else text[:77] + "..."


def _hashable(value: Any) -> Hashable:
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)


@dataclass
class _Tries:
    """One exercise's record in this kernel."""

    wrong: list[Hashable] = field(default_factory=list)  # the different wrong answers, in order
    answers: list[str] = field(default_factory=list)  # the same, as typed
    tries: int = 0  # graded answers (right or wrong), repeats of a wrong answer not counted
    right: bool = False
    solution_shown: bool = False


#: (lesson, exercise) -> its tries in this kernel (a restarted kernel starts again)
_STATE: dict[tuple[str, str], _Tries] = {}


class Exercise:
    """One exercise of a lesson, with its tries in this kernel: :meth:`check` gives the first wrong answer
    its hint and the second different one the worked answer, and records the progress (see the module).

    ``lesson`` is the notebook's stem (``"01-five-sons-first-game"``) and ``exercise`` the key's id in
    ``answer_keys.json``; ``keyed=False`` makes an exercise with no key there (for a lesson of your own).
    """

    def __init__(self, lesson: str, exercise: str, *, keyed: bool = True) -> None:
        if keyed:
            answer_key(lesson, exercise)  # a KeyError naming the lesson's exercises, if there is no key
        self.lesson, self.exercise = lesson, exercise

    def __repr__(self) -> str:
        return f"Exercise({self.lesson!r}, {self.exercise!r})"

    @property
    def tries(self) -> _Tries:
        return _STATE.setdefault((self.lesson, self.exercise), _Tries())

    def reset(self) -> None:
        """Forget this exercise's tries (as a restarted kernel does)."""
        _STATE.pop((self.lesson, self.exercise), None)

    def check(
        self,
        answer: Any,
        read: Callable[[Any], Any],
        judge: Callable[[Any], Reply],
        *,
        example: str = "",
        empty: str = "",
    ) -> Reply:
        """Read and judge ``answer`` (see the module); ``example`` is quoted in the "write your answer
        first" reply, ``empty`` replaces that reply altogether."""
        reply = _judged(answer, read, judge, example=example, empty=empty)
        return self.record(reply, answer)

    def record(self, reply: Reply, answer: Any = None, *, label: str | None = None) -> Reply:
        """Count ``reply`` to ``answer`` as a try of this exercise: a second different wrong answer gets its
        worked answer in its lines; the reply carries the progress to record, where a wrong answer is listed
        as typed (or as ``label``, e.g. the name of a function's mistake)."""
        t = self.tries
        if reply.verdict == "right":
            t.tries += 1
            t.right = True
        elif reply.verdict == "wrong":
            if reply.key not in t.wrong:
                t.wrong.append(reply.key)
                t.answers.append(label if label is not None else _shown(answer))
                t.tries += 1
            if len(t.wrong) >= 2 and reply.solution:
                reply = replace(reply, lines=(*reply.lines, WORKED, *reply.solution), solved=True)
                t.solution_shown = True
            elif reply.solution:
                reply = replace(reply, lines=(*reply.lines, LATER))
        progress = {
            "lesson": self.lesson,
            "exercise": self.exercise,
            "verdict": reply.verdict,
            "tries": t.tries,
            "wrong": list(t.answers),
            "right": t.right,
            "solution_shown": t.solution_shown,
        }
        if reply.mistake:
            progress["mistake"] = reply.mistake
        return replace(reply, progress=progress)


# -- readers ----------------------------------------------------------------------------------------------

_ABOUT = re.compile(r"^(about|approximately|approx\.?|around|roughly|~|≈|=)\s*", re.I)
_UNIT = re.compile(r"\s*(bits?|pairs?|deals?|points?|questions?|cards?|hands?|percent|per cent)\s*$", re.I)


def read_number(answer: Any) -> int | float:
    """A number, typed as one or as text: ``54``, ``"54"``, ``"54.0"``, ``"0.5"``, ``"50%"``, ``"9/31"`` (a
    fraction, as a float), with a decimal comma (``"0,88"``, ``"29,4 %"``), ``"about 0.9"``, ``"54 pairs"``.

    A comma is a decimal comma, except in thousands written as such (``"20,000"``, ``"1,234.5"``); ``"1,750"``
    alone could be either, and is refused with a question."""
    if isinstance(answer, bool):
        raise Unreadable("expected a number, not True or False")
    if isinstance(answer, (int, float)):
        return answer
    if not isinstance(answer, str):
        raise Unreadable("expected a number such as 54")
    text = _ABOUT.sub("", answer.strip()).replace("−", "-").replace("_", "").replace("\u202f", " ")
    text = _UNIT.sub("", text)
    percent = text.endswith("%")
    text = text.rstrip("%").strip()
    if text.count("/") == 1:
        top, _, bottom = text.partition("/")
        try:
            value = float(_decimal(top.strip())) / float(_decimal(bottom.strip()))
        except (ValueError, ZeroDivisionError):
            raise Unreadable("expected a number such as 54 or a fraction such as 9/31") from None
        return value / 100 if percent else value
    text = _decimal(text.replace(" ", ""))
    try:
        value = float(text)
    except ValueError:
        raise Unreadable("expected a number such as 54") from None
    if percent:
        return value / 100
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def _decimal(text: str) -> str:
    """``text`` with its comma read: a decimal comma becomes a point, thousands commas go."""
    if "," not in text:
        return text
    if "." in text:  # both: the one that comes last is the decimal mark
        if text.rfind(",") < text.rfind("."):
            return text.replace(",", "")  # 1,234.5
        return text.replace(".", "").replace(",", ".")  # 1.234,5
    head, *groups = text.split(",")
    if len(groups) > 1:
        if all(len(g) == 3 and g.isdigit() for g in groups):
            return text.replace(",", "")  # 1,234,567
        raise Unreadable(f"{text!r} has several commas: write the number with one decimal point")
    tail = groups[0]
    if len(tail) == 3 and tail.isdigit() and head.lstrip("-").isdigit() and head.lstrip("-") not in ("", "0"):
        raise Unreadable(
            f"{text!r} could be {head}.{tail} or {head}{tail}: write it with a point ({head}.{tail}) "
            f"or without the comma ({head}{tail})"
        )
    return f"{head}.{tail}"  # 0,88 and 29,4


_RANK_WORDS = {name.lower(): rank for rank, name in RANK_NAMES.items()}
_RANK_WORDS.update({str(r): r for r in range(2, 11)})
_RANK_WORDS.update({"one": 14, "1": 14, "ace": 14})
_CARD_WORDS = re.compile(r"^(?:the\s+)?(\w+)\s+of\s+(\w+)$", re.I)


def read_card(answer: Any) -> Card:
    """A card, as :meth:`Card.parse` reads it (``"QC"``, ``"qc"``, ``"10h"``, ``"Q♣"``), also ``"1H"`` /
    ``"1♥"`` for the Ace (it counts one in Five Sons) and words: ``"queen of clubs"``, ``"the 3 of
    hearts"``."""
    if isinstance(answer, Card):
        return answer
    if not isinstance(answer, str):
        raise Unreadable('expected a card code such as "QC" (Queen of clubs) or "8H" (eight of hearts)')
    text = answer.strip().strip("\"'.").strip()
    if text.lower().startswith("the "):
        text = text[4:].strip()
    if len(text) == 2 and text[0] == "1":
        text = "A" + text[1]
    try:
        return Card.parse(text)
    except ValueError:
        pass
    m = _CARD_WORDS.match(text)
    if m and m[1].lower() in _RANK_WORDS:
        rank = _RANK_WORDS[m[1].lower()]
        try:
            return Card(Suit.parse(m[2]), rank)
        except ValueError:
            pass
    raise Unreadable('expected a card code such as "QC" (Queen of clubs) or "8H" (eight of hearts)')


def _key(text: str) -> str:
    return " ".join(text.strip().strip("\"'.!?").strip().lower().replace("-", " ").split())


_NOBODY_WORDS = ("nobody", "no one", "noone", "none", "nobody else", "no one else", "no player", "not anyone")


def read_name(names: Mapping[str, Any], *, nobody: Any = None) -> Callable[[Any], Any]:
    """A reader of a name among ``names`` (name -> value), in any case and spacing; "the secret" reads as
    "secret" when "secret" is one of the names. With ``nobody`` given (e.g. :data:`NOBODY`), "nobody", "no
    one",
    "none" and the like read as that value."""
    table = {_key(n): v for n, v in names.items()}
    if "secret" in table:
        table.setdefault("the secret", table["secret"])
        table.setdefault("the secret pair", table["secret"])
        table.setdefault("secret pair", table["secret"])
    shown = [repr(n) for n in names]
    if nobody is not None:
        for word in _NOBODY_WORDS:
            table.setdefault(word, nobody)
        shown.append("'nobody'")

    def read(answer: Any) -> Any:
        if answer is nobody and nobody is not None:
            return nobody
        if not isinstance(answer, str) or _key(answer) not in table:
            raise Unreadable("expected one of " + ", ".join(shown))
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
            words = answer.replace(",", " ").split()
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


def read_choice(options: Sequence[str]) -> Callable[[Any], int]:
    """A reader of one of ``options`` (sentences lettered a, b, c, ...): a letter in any case (``"c"``,
    ``"(C)"``, ``"c)"``), its number (``3``) or the sentence itself. The value is the option's index."""
    letters = "abcdefghij"[: len(options)]

    def read(answer: Any) -> int:
        if isinstance(answer, int) and not isinstance(answer, bool) and 1 <= answer <= len(options):
            return answer - 1
        if isinstance(answer, str):
            text = answer.strip().strip("\"'.").strip().lower()
            m = re.fullmatch(r"\(?([a-j])\)?", text)
            if m and m[1] in letters:
                return letters.index(m[1])
            if text.isdigit() and 1 <= int(text) <= len(options):
                return int(text) - 1
            for i, option in enumerate(options):
                if _key(option) == _key(text):
                    return i
        raise Unreadable(f"expected one of the letters {', '.join(repr(c) for c in letters)}")

    return read


def number_text(x: float, digits: int = 3) -> str:
    """``x`` with ``digits`` decimals, and never "-0.000": a value that rounds to zero is written 0."""
    if abs(x) < 0.5 * 10**-digits:
        x = 0.0
    return f"{x:.{digits}f}"


# -- answer keys ------------------------------------------------------------------------------------------


@cache
def _load() -> tuple[dict[str, Any], ...]:
    data = json.loads(ANSWER_KEYS.read_text(encoding="utf-8"))
    return tuple(data["exercises"])


def answer_keys(lesson: str | None = None) -> list[dict[str, Any]]:
    """Every exercise's key (or one lesson's, by its file stem such as "01-five-sons-first-game").

    Each key: ``lesson``, ``exercise`` (an id), ``variable`` (the answer's name in the notebook: its cell
    holds the line ``<variable> = None``, tagged ``exercise`` like the check cell after it), ``title``,
    ``prompt``, ``right`` (an answer the check accepts) and ``wrong`` (a list of two or more different answers
    it refuses), as Python expressions written on the answer line as they are (``'"54"'``,
    ``'("4H", "Carol")'``), ``key`` (the answer with its reasoning, for the teacher), ``common_wrong``
    (``answer`` / ``reveals``: answers students give and what they reveal), ``checked`` (how the check
    decides), ``wrong_mentions`` / ``right_mentions`` (words the first wrong reply / the right reply must
    contain), ``solution_mentions`` (words the worked answer must contain), ``spoilers`` (words that give
    the answer away: no output anywhere in the notebook may contain them under Run All or after the first
    wrong answer). An exercise about the student's own game (lesson 09) has ``varies``: its ``right`` and
    ``wrong`` are expressions evaluated in the lesson's kernel, and its key says how to find the answer.
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
    keys = answer_keys(lesson)
    for k in keys:
        if k["exercise"] == exercise:
            return k
    raise KeyError(f"lesson {lesson!r} has no exercise {exercise!r}; it has {[k['exercise'] for k in keys]}")


def answer_key_markdown(lesson: str) -> str:
    """The answer keys of one lesson as Markdown, for the teacher's kit."""
    out: list[str] = []
    for i, k in enumerate(answer_keys(lesson), 1):
        out.append(f"### Exercise {i}: {k['title']}" if k.get("title") else f"### Exercise {i}")
        out.append("")
        out.append(f"*Asked:* {k['prompt']}")
        out.append("")
        if k.get("varies"):
            out.append(f"*Answer:* it depends on the student's own game. {k['key']}")
        else:
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

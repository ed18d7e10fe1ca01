"""Lesson 09's helpers (Play together): a practice table when no teacher's server is given, the seat played
for you when the lesson runs alone, a record's questions, and who could tell which card was shown (the class
game's discussion; the exercises about the student's own table are in :mod:`qardlab.lessons.table_review`).

Everything a seat knows is computed from that seat's observation (``knowledge_of``), as its own table draws
it; the teacher's record is only opened after the game, when the server gives it to anyone.
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from typing import Any, Optional

from ..cards import Card
from ..engine import Record, Timeline
from ..engine.events import part_of
from ..games.five_sons import FiveSons
from ..games.five_sons.knowledge import knowledge_of

__all__ = [
    "Practice",
    "practice",
    "autoplay",
    "record_of",
    "questions",
    "Question",
    "lesson_record",
    "who_could_tell",
    "question_text",
    "my_replay",
    "LESSON_SEED",
    "LESSON_QUESTION",
]

#: the lesson's own game (the same for the whole class): four logic bots, this seed
LESSON_SEED = 28
#: the question the exercise asks about
LESSON_QUESTION = 7


@dataclass
class Practice:
    """A practice server on this computer with bots in the other seats (stop it with ``stop()``)."""

    server: Any
    teacher: Any
    table: dict

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def code(self) -> str:
        return self.table["seats"][0]["code"]

    def stop(self) -> None:
        self.server.stop()


def practice(seed: int = 9, players: int = 4, level: str = "logic", pace: float = 0.0) -> Practice:
    """Start a classroom server here (127.0.0.1, a free port; in a thread of this kernel:
    :class:`~qardlab.classroom.teacher.ThreadServer`) with one Five Sons table whose seats other than seat 0
    are bots of ``level``; seat 0's code is ``.code``. The seat joins it over a websocket as in class, with
    a class table's standing orders ("pass on claims unless I claim")."""
    from ..classroom.teacher import Teacher, ThreadServer
    from ..widgets import table_class

    table_class("five_sons")  # the table the lesson joins next (and the game the server's table plays)
    server = ThreadServer(wait=False)
    try:
        server.ready()
    except BaseException:
        server.stop()
        raise
    teacher = Teacher(server.url, server.token)
    table = teacher.create_table(
        "five_sons", players, seed, bots={s: level for s in range(1, players)}, pace=pace
    )
    return Practice(server, teacher, table)


async def autoplay(table: Any, seed: int = 0, timeout: float = 120.0) -> int:
    """Play the joined ``table``'s seat until the game is over, through the widget's public methods (the
    question builder, a card's click, the Neither button, the claim buttons and their confirmation),
    choosing from the seat's observation alone: a seeded random question, the first card it may show (the
    only one, when the cards force it), a claim once logic leaves one pair. It acts only when the table
    waits for the seat (the seat's standing orders pass its other claim chances). Returns the moves made.
    For a lesson that runs alone: in class, the student plays. The table is drawn every
    :data:`AUTOPLAY_FRAME` seconds meanwhile, and at the end."""
    import random

    with table.drawing_every(AUTOPLAY_FRAME):  # the bots' steps come at once: a few frames, not each
        return await _autoplay(table, random.Random(seed), timeout)


#: seconds between two drawings of the table while :func:`autoplay` plays (the newest state each time): the
#: practice game takes about half a second, so it is drawn as it starts and as it ends (each drawing of the
#: joined table is ~35 ms here and more in the browser); a slower game still shows its progress
AUTOPLAY_FRAME = 0.5


async def _autoplay(table: Any, rng: Any, timeout: float) -> int:
    src, seat, moves = table.remote, table.human, 0
    while True:
        obs = await src.wait(lambda o: o["is_over"] or src.waits_for(seat), timeout)
        if obs["is_over"]:
            return moves
        if obs["phase"] == "ask":
            a = rng.choice(obs["legal"])
            table.ask(a["target"], a["face"], a["number"])
        elif obs["phase"] == "answer":
            first = obs["legal"][0]  # (the one legal answer when the cards force it)
            table.answer(None if first["type"] == "neither" else first["card"])
        else:
            left = knowledge_of(obs).candidates()
            if len(left) == 1:
                face, number = next(iter(left))
                table.claim(face, number)
                table.confirm_button.click()
            else:
                table.no_claim_button.click()
        moves += 1
        await src.wait(lambda o, k=obs["step"]: o["step"] > k, timeout)


def record_of(url: str, table: int) -> Record:
    """A finished table's record from the server (anyone may read it once the game is over)."""
    with urllib.request.urlopen(f"{url.rstrip('/')}/api/tables/{int(table)}/record", timeout=30) as r:
        return Record.from_dict(json.loads(r.read()))


@dataclass(frozen=True)
class Question:
    """The k-th question of a game (1-based) and its answer."""

    number: int
    step: int  # the timeline position just after the answer
    asker: int
    answerer: int
    face: Card
    card: Card  # the number card
    shown: Optional[Card]  # None: "neither"


def questions(record: Record) -> list[Question]:
    """Every answered question of a Five Sons record, in order, from the teacher's observation."""
    tl = Timeline(record)
    events = tl.state_at(tl.last).observation(None)["events"]
    out = []
    for e in events:
        if e["kind"] == "answer":
            shown = part_of(e, e["asker"])["card"] if e["shown"] else None
            out.append(
                Question(
                    len(out) + 1,
                    e["step"] + 1,
                    e["asker"],
                    e["answerer"],
                    Card.parse(e["face"]),
                    Card.parse(e["number"]),
                    None if shown is None else Card.parse(shown),
                )
            )
    return out


def lesson_record(seed: int = LESSON_SEED, players: int = 4) -> Record:
    """The lesson's game: four logic bots, seeded (the same for everyone)."""
    from ..games.five_sons.bots import ReasoningBot

    g = FiveSons.new(players, seed=seed)
    bots = [ReasoningBot(seed * 100 + s) for s in range(players)]
    while not g.is_over:
        if g.to_move == -1:
            g.play(g.chance_outcome())
        else:
            g.play(bots[g.to_move].act(g.observation(g.to_move)))
    return g.record()


def who_could_tell(record: Record, number: int) -> list[int]:
    """The onlookers of question ``number`` (neither asker nor answerer) who could tell, right after the
    answer, which card was shown: by logic from their own observation, the answerer surely lacks the
    other named card."""
    q = questions(record)[number - 1]
    if q.shown is None:
        return []
    other = q.card if q.shown == q.face else q.face
    g = Timeline(record).state_at(q.step)
    out = []
    for s in range(record.players):
        if s in (q.asker, q.answerer):
            continue
        grid = knowledge_of(g.observation_json(s)).grid("logic")
        if grid[other].get(q.answerer) == "no":
            out.append(s)
    return out


def question_text(record: Record, number: int) -> str:
    """The hands as dealt and question ``number`` as everyone at the table heard it (not which card)."""
    names = _names(record)
    q = questions(record)[number - 1]
    hands = Timeline(record).state_at(1).observation(None)["hands"]
    lines = [f"{names[s]:6} holds " + " ".join(Card.parse(c).symbol for c in h) for s, h in enumerate(hands)]
    said = (
        f"{names[q.answerer]} shows {names[q.asker]} a card."
        if q.shown is not None
        else f"{names[q.answerer]} has neither."
    )
    lines += [
        "",
        f"Question {number}: {names[q.asker]} asks {names[q.answerer]} about "
        f"{q.face.symbol} and {q.card.symbol}. {said}",
    ]
    return "\n".join(lines)


def _names(record: Record) -> list[str]:
    g = Timeline(record).state_at(0)
    return [g.seat_name(s) for s in range(record.players)]


def my_replay(url: str, table: Optional[int], question: int = LESSON_QUESTION) -> Any:
    """Your table's game, every seat side by side, at the step after ``question`` (once the game is over);
    or a note saying why not yet."""
    from IPython.display import HTML

    from ..classroom.teacher import side_by_side
    from ..render.markup import el, to_html

    if table is None:
        return HTML(
            to_html(el("i", "Set TABLE to your table's number (your teacher has it) to replay your game."))
        )
    try:
        record = record_of(url, table)
    except OSError as e:
        return HTML(
            to_html(
                el(
                    "i",
                    f"Your table's game is not over yet (the server says: {e}); run "
                    "this cell again when it is.",
                )
            )
        )
    qs = questions(record)
    return side_by_side(record, at=qs[question - 1].step if len(qs) >= question else None)

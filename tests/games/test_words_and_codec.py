"""Issue 26, item 4: one words function and one codec per game, class methods read by every view, and one
event shape whoever views it.

Each game class gives ``describe_event(event, seat, names)`` (one event of an observation, in the viewer's
words) and ``action_to_json`` / ``action_from_json`` as class methods, so a table, a replay and a remote seat
put events in words and encode clicks without any game, blank or not. Checked on the syntax tree of the
views (widgets, the classroom's client, the lessons): none reads a game module's words or codec functions
directly, and none makes a blank game for them; the check is shown to catch both in planted modules.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from qardlab.engine import PUBLIC, Game, part_of, play
from qardlab.games.five_sons import FiveSons
from qardlab.games.five_sons.bots import ReasoningBot
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import RuleBot

ROOT = Path(__file__).resolve().parents[2]
#: the views: they read observations and send actions, through the game class only
VIEWS = [
    *sorted((ROOT / "qardlab" / "widgets").glob("*.py")),
    ROOT / "qardlab" / "classroom" / "client.py",
    ROOT / "qardlab" / "classroom" / "join.py",
    ROOT / "qardlab" / "classroom" / "replay.py",
    *sorted((ROOT / "qardlab" / "lessons").glob("*.py")),
]
#: a game module's words and codec functions: reached through the game class, never imported by a view
GAME_FUNCTIONS = {"describe_event", "event_words", "action_to_json", "action_from_json", "seat_keys"}


def problems(source: str, filename: str) -> list[str]:
    """Where ``source`` (a view's module) imports a game's words or codec function, or makes a blank game."""
    found = []
    for node in ast.walk(ast.parse(source)):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom) and ".games." in f".{node.module or ''}.":
            for alias in node.names:
                if alias.name in GAME_FUNCTIONS:
                    found.append(f"{where} imports {alias.name} from {node.module} (use the game class's)")
        if isinstance(node, ast.Attribute) and node.attr == "_blank":
            found.append(f"{where} makes a blank game (the words and the codec are class methods)")
    return found


def test_no_view_reads_a_games_words_or_codec_but_through_its_class() -> None:
    found = [p for path in VIEWS for p in problems(path.read_text(encoding="utf-8"), path.name)]
    assert found == []


def test_the_check_catches_a_planted_import_and_a_blank_game() -> None:
    planted = (
        "from ..games.five_sons.game import action_to_json\n"
        "from ..games.hearts.words import event_words\n"
        "codec = find_game(name)._blank(4, {}, None)\n"
    )
    found = problems(planted, "planted.py")
    assert len(found) == 3 and "imports action_to_json" in found[0] and "blank game" in found[2]


@pytest.mark.parametrize("game_class", [FiveSons, Hearts])
def test_words_and_codec_are_class_methods_of_every_game(game_class: type[Game]) -> None:
    """On the class, no game made: the codec round-trips every legal action of a game in play, and the words
    of each JSON event are the transcript's, for every viewer."""
    g = game_class.new(4, seed=5)
    bots = [(ReasoningBot if game_class is FiveSons else RuleBot)(s) for s in range(4)]
    for _ in range(30):
        play(g, bots, max_steps=1)
    for action in g.legal_actions():
        data = game_class.action_to_json(action)
        assert game_class.action_to_json(game_class.action_from_json(json.loads(json.dumps(data)))) == data
    names = g.seat_names()
    for viewer in (None, 0, 1, PUBLIC):
        events = json.loads(json.dumps(g.observation_json(viewer)["events"]))
        assert [game_class.describe_event(e, viewer, names) for e in events] == g.transcript(viewer)


@pytest.mark.parametrize("game_class", [FiveSons, Hearts])
def test_one_event_shape_for_every_viewer(game_class: type[Game]) -> None:
    """A seat's event is the teacher's with the other seats' private parts and the hidden keys left out, and
    the public view's the same with its own part left out too: one shape, three filters of it."""
    g = game_class.new(4, seed=8)
    bots = [(ReasoningBot if game_class is FiveSons else RuleBot)(s) for s in range(4)]
    play(g, bots, max_steps=400 if game_class is FiveSons else 40)  # a Five Sons game to its end
    assert g.is_over or game_class is Hearts
    teacher = {(e["step"], e["kind"]): e for e in g.observation_json(None)["events"]}
    hidden_of = {(e.step, e.kind): set(e.hidden) for e in g.events}
    private_seen = 0
    for seat in (0, 1, 2, 3, PUBLIC):
        for e in g.observation_json(seat)["events"]:
            whole = teacher[(e["step"], e["kind"])]
            mine = {} if seat == PUBLIC else {str(seat): part_of(whole, seat)} if part_of(whole, seat) else {}
            hidden = hidden_of[(e["step"], e["kind"])]
            expected = {k: v for k, v in whole.items() if k not in hidden and k != "private"}
            if mine:
                expected["private"] = mine
                private_seen += 1
            assert e == expected
    assert private_seen >= 4  # every seat's deal at least

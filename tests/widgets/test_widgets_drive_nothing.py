"""Nothing in ``qardlab/widgets/`` decides who moves next or plays a seat: that is the engine's seat driver
(``qardlab.engine.seats``), which a table reaches only through its source (``waits_for``, ``advance``,
``deal``, ``orders``). Checked on the syntax tree of every module of the folder, and the check is shown to
catch each thing it looks for in a planted module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WIDGETS = Path(__file__).resolve().parents[2] / "qardlab" / "widgets"

#: attributes of a game (or of the engine) that say or decide who moves: a widget never reads or calls them
GAME_DRIVING = {
    "chance_outcome": "draws a deal",
    "forced_action": "finds a forced step to give",
    "apply_forced": "gives forced steps",
    "_forced": "finds a forced step to give",
    "legal_actions": "reads the live game's moves",
    "to_move": "reads whose turn it is from a game",
    "apply": "applies a step to a game",
    "bot_step": "plays a bot",
}
#: names from the engine that play seats (the driver is reached through a source, never imported to play)
PLAYING_IMPORTS = {"play", "play_turn", "CHANCE", "Seats"}
#: the only receivers of ``.act(...)`` in a widget: the table itself (a person's click) and its source
ACT_RECEIVERS = {"self", "self.source", "source", "src"}
#: the one place a person's action enters a local game (``LocalSource.act``: one ``Timeline.extend``)
EXTEND_ALLOWED = {("source.py", "act")}
#: the local source holds its table's driver (it makes one, every seat a person's, when given none)
IMPORT_ALLOWED = {("source.py", "Seats")}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return type(node).__name__


def problems(source: str, filename: str) -> list[str]:
    """What ``source`` (a module of the widgets folder) does that only the seat driver may do."""
    tree = ast.parse(source)
    found: list[str] = []
    function_of: dict[int, str] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(fn):
                function_of.setdefault(id(inner), fn.name)
    for node in ast.walk(tree):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Attribute) and node.attr in GAME_DRIVING:
            found.append(f"{where} .{node.attr} ({GAME_DRIVING[node.attr]})")
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] in (
            "engine",
            "bots",
            "seats",
        ):
            bad = [
                a.name
                for a in node.names
                if a.name in PLAYING_IMPORTS and (filename, a.name) not in IMPORT_ALLOWED
            ]
            if bad:
                found.append(f"{where} imports {bad} from {node.module}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = _name(node.func.value)
            if node.func.attr == "act" and receiver not in ACT_RECEIVERS:
                found.append(f"{where} {receiver}.act(...) (plays a seat: a bot's move)")
            if node.func.attr == "extend" and receiver.split(".")[-1] in ("timeline", "tl"):
                if (filename, function_of.get(id(node))) not in EXTEND_ALLOWED:
                    found.append(f"{where} {receiver}.extend(...) (a step not from the person's click)")
    return found


def test_no_widget_decides_who_moves_or_plays_a_seat() -> None:
    modules = sorted(WIDGETS.rglob("*.py"))
    assert len(modules) > 10 and WIDGETS / "base.py" in modules
    found = [p for m in modules for p in problems(m.read_text(encoding="utf-8"), m.name)]
    assert found == []


@pytest.mark.parametrize(
    "planted,words",
    [
        ("g.apply(g.chance_outcome())", ".chance_outcome"),
        ("f = game.forced_action()", ".forced_action"),
        ("if self.game.to_move == self.human: pass", ".to_move"),
        ("self.bots[seat].act(obs)", "Subscript.act(...)"),
        ("bot.act(obs)", "bot.act(...)"),
        ("self.timeline.extend(action)", "self.timeline.extend"),
        ("from ..engine import play_turn", "imports ['play_turn']"),
        ("from ..engine.seats import Seats", "imports ['Seats']"),
    ],
)
def test_the_check_catches_what_it_looks_for(planted: str, words: str) -> None:
    found = problems(f"def f(self, g, game, bot, obs, seat, action):\n    {planted}\n", "base.py")
    assert found and any(words in p for p in found), found


def test_the_tables_ask_the_source_what_the_driver_says() -> None:
    """The positive side: a table's turn and its bots come from its source (the driver behind it)."""
    base = (WIDGETS / "base.py").read_text(encoding="utf-8")
    for call in ("waits_for(self.source, ", "self.source.advance()", "self.source.advance_all()"):
        assert call in base
    assert "self.source.deal()" in (WIDGETS / "hearts.py").read_text(encoding="utf-8")
    assert "self.set_orders(" in (WIDGETS / "five_sons.py").read_text(encoding="utf-8")
    assert "set_orders(self.source, " in base

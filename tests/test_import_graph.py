"""The package's import graph has no circle (issue 26, item 5: ``engine.game`` <-> ``engine.record`` was one).

Every import of every module of ``qardlab/`` counts, at the top of a module or inside a function (an
import made at first use is still an arrow between the two modules), except those under ``if
TYPE_CHECKING:``, which never run. ``from package import name`` is an arrow to ``package.name`` when that
is a module, else to the package. A package's ``__init__`` importing its own submodules is not a circle
with them: a submodule's import of its parent package is not counted unless it is written out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(root: Path, package: str = "qardlab") -> dict[str, tuple[Path, bool]]:
    """Every module of ``package`` under ``root``: dotted name -> (file, whether it is a package)."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str, path: Path, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports (anywhere in it, TYPE_CHECKING blocks aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _type_checking(node)
        for n in ast.walk(node)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                full = f"{module}.{alias.name}"
                if full in known:
                    out.add(full)
                elif module in known:
                    out.add(module)
    out.discard(name)
    return out


def import_graph(root: Path, package: str = "qardlab") -> dict[str, set[str]]:
    mods = modules(root, package)
    return {m: imports_of(m, path, is_package, set(mods)) for m, (path, is_package) in mods.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each a circle of imports), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):  # Tarjan's algorithm, iteratively (no recursion limit to meet)
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_package_imports_in_no_circle() -> None:
    graph = import_graph(ROOT)
    assert {"qardlab.engine.game", "qardlab.engine.record", "qardlab.engine.registry"} <= set(graph)
    assert "qardlab.engine.record" in graph["qardlab.engine.game"], "Game.record() imports the record module"
    assert "qardlab.engine.game" not in graph["qardlab.engine.record"]
    found = circles(graph)
    assert not found, (
        "modules import each other in a circle (break it, e.g. by moving what both need): "
        + "; ".join(" <-> ".join(c) for c in found)
    )


def test_a_circle_is_found(tmp_path: Path) -> None:
    """The check is not vacuous: a circle through a function-level import and a relative ``from . import``
    is found; a TYPE_CHECKING import and a package's __init__ importing its submodule are not circles."""
    pkg = tmp_path / "demo"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .. import c\n")
    (pkg / "c.py").write_text("from demo.a import x\n")
    (pkg / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import e\n")
    (pkg / "e.py").write_text("from . import d\n")
    graph = import_graph(tmp_path, "demo")
    assert graph["demo.sub.b"] == {"demo.c"} and graph["demo"] == {"demo.a"} and graph["demo.d"] == set()
    assert circles(graph) == [["demo.a", "demo.c", "demo.sub.b"]]


def test_a_games_charts_are_loaded_only_by_widgets_and_lessons() -> None:
    """docs/architecture.md, section 1: the rules never import a front end. A game's own charts module
    (``qardlab.games.<name>.charts``: Five Sons' grid of pairs and advisor bars) is the one module of a game
    that imports the shared ``qardlab.charts``; only widgets and lessons import it, so the game (its package,
    its rules, its bots) loads and plays without matplotlib."""
    graph = import_graph(ROOT)
    rules = ("qardlab.cards", "qardlab.engine", "qardlab.deduction", "qardlab.games")
    game_charts = {m for m in graph if m.startswith("qardlab.games.") and m.endswith(".charts")}
    assert "qardlab.games.five_sons.charts" in game_charts
    wrong = sorted(
        m
        for m, imported in graph.items()
        if m.startswith(rules) and m not in game_charts and "qardlab.charts" in imported
    )
    assert not wrong, f"rules import the shared charts: {wrong}"
    importers = sorted(m for m, imported in graph.items() if imported & game_charts)
    assert importers and all(m.startswith(("qardlab.widgets", "qardlab.lessons")) for m in importers), (
        importers
    )

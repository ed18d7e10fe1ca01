"""``docs/architecture.md`` stays true: every module, name, file and link it names exists.

The document describes the code as it is; a rename or a move that it does not follow fails here, naming
what is missing. Checked: each dotted name ``qardlab.x.y`` or ``qardlab.x.y:attr`` in backticks (the
module imported, the rest read with ``getattr``); each path ``qardlab/...``, ``tests/...``,
``benchmarks/...`` or ``scripts/...`` in backticks (the file or folder exists; a ``*`` must match one);
each name in a row of a table headed ``| file |`` (an attribute of that row's module); each relative
Markdown link (the file exists); a number in brackets after a name (its value). The README links to
the document.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"

_CODE = re.compile(r"`([^`\n]+)`")
_DOTTED = re.compile(r"(?<![\w./-])qardlab(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?")
_PATH = re.compile(r"(?<![\w./-])(?:qardlab|tests|benchmarks|scripts)/[\w.*/-]*")
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _spans(text: str) -> list[str]:
    """The text of every inline code span (fenced blocks hold a diagram, not names)."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return _CODE.findall(prose)


def _resolve(name: str) -> Any:
    """The object a dotted name (or ``module:attr``) names; AttributeError or ImportError naming it."""
    if ":" in name:
        module, attrs = name.split(":", 1)
        obj: Any = importlib.import_module(module)
        rest = attrs.split(".")
    else:
        parts = name.split(".")
        for i in range(len(parts), 0, -1):  # the longest prefix that is a module
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ModuleNotFoundError as e:
                if e.name is not None and not ".".join(parts[:i]).startswith(e.name):
                    raise  # a module that exists but imports something missing
                continue
            rest = parts[i:]
            break
        else:
            raise ImportError(f"no module in {name!r}")
    for attr in rest:
        obj = getattr(obj, attr)
    return obj


def test_names_in_backticks_exist() -> None:
    """Each ``qardlab.x.y[:attr]`` the document names imports and has that attribute."""
    names = sorted({m for span in _spans(DOC.read_text(encoding="utf-8")) for m in _DOTTED.findall(span)})
    assert names, "the document names no qardlab module"
    missing = []
    for name in names:
        try:
            _resolve(name)
        except (ImportError, AttributeError) as e:
            missing.append(f"{name} ({type(e).__name__}: {e})")
    assert not missing, "docs/architecture.md names what does not exist: " + "; ".join(missing)


def test_numbers_after_names_are_their_values() -> None:
    """A number in brackets after a name in backticks, "`qardlab.x.LIMIT` (12)", is that name's value."""
    pairs = re.findall(r"`(qardlab[\w.:]+)` \((\d+)\)", DOC.read_text(encoding="utf-8"))
    wrong = [f"{name} is {_resolve(name)!r}, not {n}" for name, n in pairs if _resolve(name) != int(n)]
    assert not wrong, "docs/architecture.md gives values the code does not have: " + "; ".join(wrong)


def test_paths_in_backticks_exist() -> None:
    """Each ``qardlab/...``, ``tests/...``, ``benchmarks/...`` or ``scripts/...`` path exists."""
    paths = sorted({m for span in _spans(DOC.read_text(encoding="utf-8")) for m in _PATH.findall(span)})
    assert paths, "the document names no file"
    missing = [p for p in paths if not (any(ROOT.glob(p.rstrip("/"))) if "*" in p else (ROOT / p).exists())]
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


def test_file_tables_name_what_each_file_holds() -> None:
    """In a table headed ``| file |``, each name in backticks in a row (``Name``, ``name(args)`` or
    ``Name.attr``) is an attribute of the row's module (one of them, where the row names two)."""
    missing = []
    header = False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "file":
            header = True
            continue
        if not header or set(cells[0]) <= set("-: "):
            continue
        modules = [
            importlib.import_module(f.removesuffix(".py").replace("/", "."))
            for f in re.findall(r"`(qardlab/[\w/]+\.py)`", cells[0])
        ]
        assert modules, f"a row of a file table names no module: {line}"
        for span in _CODE.findall(" | ".join(cells[1:])):
            m = re.fullmatch(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\(.*\))?", span)
            if m is None:
                continue
            if not any(_has(mod, m.group(1)) for mod in modules):
                missing.append(f"{m.group(1)} in {', '.join(mod.__name__ for mod in modules)}")
    assert not missing, "docs/architecture.md's file tables name what the files do not hold: " + "; ".join(
        missing
    )


def _has(obj: Any, dotted: str) -> bool:
    try:
        for attr in dotted.split("."):
            obj = getattr(obj, attr)
    except AttributeError:
        return False
    return True


def test_relative_links_exist() -> None:
    """Each relative link of the document points to an existing file."""
    links = _LINK.findall(DOC.read_text(encoding="utf-8"))
    local = [t for t in links if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]
    assert local, "the document links to no other page"
    missing = [t for t in local if not (DOC.parent / t.split("#", 1)[0]).exists()]
    assert not missing, f"docs/architecture.md links to files that do not exist: {missing}"


def test_readme_links_the_document() -> None:
    """The README lists the document with the other docs."""
    assert "(docs/architecture.md)" in (ROOT / "README.md").read_text(encoding="utf-8")

"""The project's wiring: dependencies, layering, the README's two commands, CI, the contents, lint."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
README = (ROOT / "README.md").read_text(encoding="utf-8")


def notebook_names() -> list[str]:
    return sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def test_runtime_dependencies_stay_light() -> None:
    """qardlab needs only ipywidgets (with anywidget, for the grid's one-model view), matplotlib and numpy at
    run time; the rest sits in extras."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[<>=!\[ ;]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    assert names == {"ipywidgets", "anywidget", "matplotlib", "numpy"}
    assert {"test", "check", "lab"} <= set(project["optional-dependencies"])


def _imports(path: Path) -> set[str]:
    """Top-level names of every module imported by a Python file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", ["cards.py", "engine", "deduction", "games"])
def test_rules_never_import_widgets_or_matplotlib(layer: str) -> None:
    """The arrows point one way: cards, engine, deduction and games run without ipywidgets or matplotlib."""
    base = ROOT / "qardlab" / layer
    files = [base] if base.is_file() else sorted(base.rglob("*.py"))
    offenders = {
        str(f.relative_to(ROOT)): sorted(_imports(f) & {"ipywidgets", "matplotlib", "IPython"}) for f in files
    }
    offenders = {f: mods for f, mods in offenders.items() if mods}
    assert not offenders, f"rules import a front end: {offenders}"


def test_readme_gives_the_two_commands() -> None:
    """The README shows exactly the two commands, and .ci/run calls the test one."""
    assert "./run lab" in README and "./run test" in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in ci
    commands = [ln.strip() for ln in ci.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert commands[-1] == "./run test", commands


def test_run_script_is_valid_bash() -> None:
    """./run parses, is executable, and rejects an unknown command with its usage."""
    run = ROOT / "run"
    assert run.stat().st_mode & 0o111, "./run must be executable"
    subprocess.run(["bash", "-n", str(run)], check=True)
    proc = subprocess.run(["bash", str(run), "nonsense"], capture_output=True, text=True)
    assert proc.returncode == 2 and "usage" in proc.stderr


def test_readme_lists_every_notebook_and_its_picture() -> None:
    """Every lesson and app in notebooks/ is in the README, and the lesson picture is committed and small."""
    for name in notebook_names():
        assert f"notebooks/{name}" in README, f"README does not list {name}"
    pictures = re.findall(r"!\[[^\]]*\]\((docs/[^)]+\.png)\)", README)
    assert pictures, "README shows no picture of a lesson"
    for pic in pictures:
        path = ROOT / pic
        assert path.exists(), f"README shows {pic}, which is missing"
        assert path.stat().st_size < 400_000, f"{pic} is {path.stat().st_size} bytes: keep it small"


def test_readme_binder_badges() -> None:
    """Binder badges: the lessons in JupyterLab and each app in Voila."""
    links = re.findall(r"\((https://mybinder\.org/v2/gh/[^)]+)\)", README)
    assert any("urlpath=lab" in u for u in links), links
    for app in ("app-five-sons.ipynb", "app-hearts.ipynb"):
        assert any("urlpath=voila" in u and app in u for u in links), f"no Voila badge for {app}"


def test_start_here_links_every_notebook() -> None:
    """00-start-here has a link to every lesson and app (relative links, so they work in JupyterLab)."""
    nb = json.loads((NOTEBOOKS / "00-start-here.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    targets = set(re.findall(r"\]\(([^)#]+\.ipynb)\)", text))
    for name in notebook_names():
        if name != "00-start-here.ipynb":
            assert name in targets, f"00-start-here.ipynb does not link to {name}"
    assert all("/" not in t for t in targets), f"links must be relative to notebooks/: {targets}"


def test_notebooks_are_stored_without_errors() -> None:
    """Stored notebooks carry no error outputs (a lesson must run clean) and a python3 kernel spec."""
    for name in notebook_names():
        nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
        kernel = nb["metadata"].get("kernelspec", {}).get("name")
        assert kernel == "python3", f"{name}: kernelspec is {kernel!r}, not python3"
        for i, cell in enumerate(nb["cells"]):
            for out in cell.get("outputs", []):
                assert out.get("output_type") != "error", f"{name} cell {i} is stored with an error output"


def _ruff() -> str:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e .[test])")
    return ruff


def test_ruff_clean() -> None:
    """The whole tree (package, tests, benchmarks, scripts and the notebooks) is ruff clean with the
    project's settings (pyproject.toml): the same command a maintainer runs, ``ruff check .``."""
    proc = subprocess.run(
        [_ruff(), "check", "--output-format", "concise", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_ruff_formatted() -> None:
    """The whole tree is laid out by ``ruff format`` (one formatting decision, applied everywhere): run
    ``ruff format .`` after editing."""
    proc = subprocess.run([_ruff(), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]

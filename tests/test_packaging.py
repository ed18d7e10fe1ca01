"""The project's wiring: dependencies, layering, the README's two commands, CI, the contents, lint."""

from __future__ import annotations

import ast
import hashlib
import json
import os
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


# -- ./run's commands, with a stand-in .venv ---------------------------------------------------------

FAKE_PYTHON = r"""#!/usr/bin/env bash
# a stand-in for .venv/bin/python: logs each call (its folder and arguments) and does what ./run needs
log="$(dirname "$0")/../calls.log"
printf '%s\t%s\n' "$PWD" "$*" >>"$log"
if [ "$1" = "-c" ]; then
    case "$2" in
        *hashlib*) exec python3 "$@" ;;
        *) exit 0 ;;  # import pip, import qardlab
    esac
fi
exit 0  # -m pip install ..., -m qardlab serve ..., -m voila ..., -m jupyterlab ...
"""


@pytest.fixture
def fake_clone(tmp_path: Path) -> Path:
    """A copy of the files ./run reads (itself, pyproject.toml, share/, jupyter-config/, notebooks/) with a
    .venv whose python only logs its calls."""
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in ("run", "pyproject.toml"):
        shutil.copy2(ROOT / name, clone / name)
    for name in ("share", "jupyter-config"):
        shutil.copytree(ROOT / name, clone / name)
    (clone / "notebooks").mkdir()
    python = clone / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return clone


def _run(clone: Path, *args: str, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run the clone's ./run with ``args``; its result and the calls its python got (folder TAB args)."""
    log = clone / ".venv" / "calls.log"
    log.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    proc = subprocess.run(
        ["bash", str(clone / "run"), *args], cwd=cwd or clone, env=env, capture_output=True, text=True
    )
    return proc, log.read_text().splitlines()


def _installs(calls: list[str]) -> list[str]:
    return [c.split("\t")[1] for c in calls if "-m pip install" in c]


def test_run_installs_only_what_a_command_needs_once(fake_clone: Path) -> None:
    """Each command installs its own extra the first time only; another command adds its extra; a changed
    pyproject.toml installs again."""
    proc, calls = _run(fake_clone, "serve")
    assert proc.returncode == 0, proc.stderr
    assert [i.split()[-1] for i in _installs(calls)] == [".[classroom]"], calls
    proc, calls = _run(fake_clone, "serve", "--port", "0")
    assert proc.returncode == 0 and _installs(calls) == [], calls
    proc, calls = _run(fake_clone, "app", "hearts")
    assert [i.split()[-1] for i in _installs(calls)] == [".[app]"], calls
    proc, calls = _run(fake_clone, "serve")
    assert _installs(calls) == [], calls
    with open(fake_clone / "pyproject.toml", "a") as f:
        f.write("\n# changed\n")
    proc, calls = _run(fake_clone, "serve")
    assert [i.split()[-1] for i in _installs(calls)] == [".[classroom]"], calls
    # a stamp of the former kind (one for several extras) still counts
    digest = hashlib.sha256((fake_clone / "pyproject.toml").read_bytes()).hexdigest()
    (fake_clone / ".venv" / ".qardlab-installed-test-check-lab").write_text(digest + "\n")
    proc, calls = _run(fake_clone, "lab")
    assert proc.returncode == 0 and _installs(calls) == [], calls


def test_run_links_the_jupyter_files_into_the_venv(fake_clone: Path) -> None:
    """Every file of share/ and jupyter-config/ is linked where pyproject.toml's data-files would install it
    (an editable install leaves them out), so the environment's Voila finds qardlab's template and configs."""
    proc, _calls = _run(fake_clone, "app", "five-sons")
    assert proc.returncode == 0, proc.stderr
    venv = fake_clone / ".venv"
    template = "share/jupyter/voila/templates/qardlab"
    expected = {
        venv / template / "index.html.j2": f"{template}/index.html.j2",
        venv / template / "conf.json": f"{template}/conf.json",
        venv / "etc/jupyter/voila.json": "jupyter-config/voila.json",
    }
    for link, source in expected.items():
        assert link.is_symlink() and link.resolve() == (fake_clone / source).resolve(), link
    # and the same mapping is what pyproject.toml installs from a wheel (pip install ., Binder)
    tomllib = pytest.importorskip("tomllib")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    installed = {f"{folder}/{Path(src).name}": src for folder, files in data.items() for src in files}
    files = sorted(
        str(p.relative_to(ROOT)) for d in ("share", "jupyter-config") for p in (ROOT / d).rglob("*")
    )
    files = [f for f in files if (ROOT / f).is_file()]
    assert sorted(installed.values()) == files, (
        "pyproject.toml's data-files must list every file of share/ and jupyter-config/"
    )
    for target, src in installed.items():
        rel = target.replace("etc/jupyter/", "jupyter-config/", 1) if target.startswith("etc/") else target
        assert rel == src, f"{src} installs to {target}, not where ./run links it"


def test_nothing_the_package_installs_turns_xsrf_off() -> None:
    """The Jupyter files qardlab installs into an environment (its data-files: share/, jupyter-config/) and
    Binder's configs leave every server's XSRF check on: a library must not weaken a security setting of
    the whole environment (the join page's unload message gets its _xsrf cookie from qardlab's template;
    tests/browser/test_browser_join_kernels.py checks the running Voila)."""
    files = [p for d in ("share", "jupyter-config", "binder") for p in (ROOT / d).rglob("*") if p.is_file()]
    assert any(p.name == "voila.json" for p in files)
    offenders = [str(p.relative_to(ROOT)) for p in files if "disable_check_xsrf" in p.read_text().lower()]
    assert not offenders, f"these files turn the XSRF check off: {offenders}"
    config = json.loads((ROOT / "jupyter-config" / "voila.json").read_text())
    assert "tornado_settings" not in json.dumps(config) and "xsrf" not in json.dumps(config).lower(), config


def test_run_serve_and_app_pass_their_arguments(fake_clone: Path, tmp_path: Path) -> None:
    """./run serve runs `qardlab serve` with the arguments given, in the caller's folder; ./run app runs
    Voila on the app's notebook in notebooks/ with a default port and address, each only where the command
    line has none, and says where to open it; an unknown app is refused by name."""
    here = tmp_path / "elsewhere"
    here.mkdir()
    proc, calls = _run(
        fake_clone, "serve", "--host", "0.0.0.0", "--port", "8765", "--db", "class.db", cwd=here
    )
    assert proc.returncode == 0, proc.stderr
    assert calls[-1] == f"{here}\t-m qardlab serve --host 0.0.0.0 --port 8765 --db class.db", calls
    assert ":8765/" in proc.stderr, proc.stderr
    proc, calls = _run(fake_clone, "app", "join")
    assert (
        calls[-1]
        == f"{fake_clone / 'notebooks'}\t-m voila app-classroom.ipynb --Voila.ip=0.0.0.0 --port=8866"
    )
    assert "http://127.0.0.1:8866/" in proc.stderr, proc.stderr
    proc, calls = _run(fake_clone, "app", "hearts", "--port=9000", "--no-browser")
    assert calls[-1].endswith("-m voila app-hearts.ipynb --Voila.ip=127.0.0.1 --port=9000 --no-browser"), (
        calls
    )
    assert "http://127.0.0.1:9000/" in proc.stderr and "--Voila.ip=0.0.0.0" in proc.stderr, proc.stderr
    proc, calls = _run(fake_clone, "app", "five-sons", "--Voila.ip=0.0.0.0")
    assert calls[-1].endswith("-m voila app-five-sons.ipynb --port=8866 --Voila.ip=0.0.0.0"), calls
    proc, calls = _run(fake_clone, "app", "poker")
    assert (
        proc.returncode != 0
        and "no app 'poker'" in proc.stderr
        and "five-sons, hearts and join" in proc.stderr
    )
    assert not [c for c in calls if "voila" in c], calls


def test_run_lab_opens_lesson_00_with_the_venv_on_path(fake_clone: Path) -> None:
    """./run lab starts JupyterLab on notebooks/ with lesson 00 as the URL it prints and opens."""
    proc, calls = _run(fake_clone, "lab", "--no-browser")
    assert proc.returncode == 0, proc.stderr
    where, last = calls[-1].split("\t")
    assert last.startswith("-m jupyterlab ") and f"--ServerApp.root_dir={fake_clone}/notebooks" in last
    assert "--LabApp.default_url=/lab/tree/00-start-here.ipynb" in last and last.endswith("--no-browser")
    # its terminal: a shell that keeps the PATH it is given (no login shell), in notebooks/
    assert where == str(fake_clone / "notebooks")
    shell = re.search(r'--ServerApp.terminado_settings=\{"shell_command": \["([^"]+)"\]\}', last)
    assert shell and not shell.group(1).endswith("-l") and os.access(shell.group(1), os.X_OK), last


def test_run_test_installs_every_command_s_extras(fake_clone: Path) -> None:
    """./run test installs the extras of lab, serve and app too (the suite runs those commands), so that
    none of them installs anything while the suite runs; and runs pytest with the clone's arguments."""
    if not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists():
        pytest.skip("./run test would install the DejaVu fonts first (apt-get)")
    # QARDLAB_CHROMIUM stands in for Chromium (a command that exists), so ./run installs none
    # (and QARDLAB_CHP for JupyterHub's proxy, so that it installs none from npm)
    saved = {name: os.environ.get(name) for name in ("QARDLAB_CHROMIUM", "QARDLAB_CHP")}
    os.environ["QARDLAB_CHROMIUM"] = os.environ["QARDLAB_CHP"] = "true"
    try:
        proc, calls = _run(fake_clone, "test", "tests/engine", "-x")
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
    assert proc.returncode == 0, proc.stderr
    installs = _installs(calls)
    assert len(installs) == 1 and installs[0].endswith(".[test,check,cluster,lab,classroom,app,hub]"), calls
    assert calls[-1].split("\t")[1] == "-m pytest --nbval-lax --nbval-current-env tests/engine -x", calls
    for command in (("lab",), ("serve",), ("app", "join")):
        _proc, calls = _run(fake_clone, *command)
        assert _installs(calls) == [], (command, calls)

"""The next best thing to Binder: a fresh virtual environment built ONLY from binder/ runs every notebook.

Binder cannot be reached from here, so this does what Binder does with our repository: install
binder/requirements.txt into a new environment, run binder/postBuild from (a copy of) the repository root,
then run every notebook with a kernel of that environment. It catches a dependency that the package
imports but the Binder pins forget, a postBuild that fails, and widget packages that do not match.

The environment is cached under .binder-venv/<hash of binder/ files> (or $QARDLAB_BINDER_CACHE), so a
second run only reinstalls qardlab itself; a fresh clone (CI) builds it once, in a minute or two.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [pytest.mark.binder, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
CACHE = Path(os.environ.get("QARDLAB_BINDER_CACHE", ROOT / ".binder-venv"))
COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    ".binder-venv",
    "artifacts",
    "__pycache__",
    "*.egg-info",
    "build",
    "dist",
    ".pytest_cache",
    ".hypothesis",
    ".ipynb_checkpoints",
)

# Runs inside the Binder environment: executes one notebook with nbclient (which voila brings along),
# after a first cell that reports where Python and qardlab come from.
RUNNER = r"""
import json, sys, time
from pathlib import Path
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

path = Path(sys.argv[1])
nb = nbformat.read(path, as_version=4)
nb.cells.insert(0, nbformat.v4.new_code_cell(
    "import json, sys, qardlab; print(json.dumps([sys.prefix, qardlab.__file__]))"))
start = time.monotonic()
result = {"notebook": path.name}
try:
    NotebookClient(nb, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    result["where"] = json.loads(nb.cells[0].outputs[0]["text"])
    result["ok"] = True
except CellExecutionError as exc:
    result["ok"] = False
    result["error"] = str(exc)[-3000:]
result["seconds"] = round(time.monotonic() - start, 1)
result["runner_prefix"] = sys.prefix
print("RESULT " + json.dumps(result))
"""


def binder_digest() -> str:
    """A hash of every file in binder/ and of the Python version: the key of the cached environment."""
    h = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for path in sorted(p for p in BINDER.rglob("*") if p.is_file()):
        h.update(path.relative_to(BINDER).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    """Run a command; on failure raise with its output, so the test says what went wrong."""
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        output = f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        raise AssertionError(f"{' '.join(cmd)} exited {proc.returncode}:\n{output}")
    return proc


def binder_env_vars(venv: Path, scratch: Path) -> dict[str, str]:
    """Environment for commands in the Binder venv: its bin first on PATH, private Jupyter folders."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH")}
    env["PATH"] = str(venv / "bin") + os.pathsep + env.get("PATH", "")
    env["VIRTUAL_ENV"] = str(venv)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        (scratch / var.lower()).mkdir(parents=True, exist_ok=True)
        env[var] = str(scratch / var.lower())
    env["MPLBACKEND"] = "Agg"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@contextlib.contextmanager
def binder_environment(scratch: Path) -> Iterator[tuple[Path, Path, dict[str, str]]]:
    """(venv, repository copy, environment): requirements installed (cached), postBuild just run in a
    copy of the repository under ``scratch``.

    A file lock serialises runs that share the cache (several people testing in one work tree).
    """
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        venv = CACHE / binder_digest()
        env = binder_env_vars(venv, scratch)
        if not (venv / "complete").exists():
            shutil.rmtree(venv, ignore_errors=True)
            run([sys.executable, "-m", "venv", str(venv)], env=env, cwd=scratch)
            pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
            run([*pip, "-r", str(BINDER / "requirements.txt")], env=env, cwd=scratch)
            (venv / "complete").write_text(binder_digest())
        # what Binder does next: postBuild, from the repository's root (here a fresh copy of it)
        repo = scratch / "repo"
        shutil.copytree(ROOT, repo, ignore=COPY_IGNORE)
        subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "uninstall", "-q", "-y", "qardlab"],
            env=env,
            cwd=scratch,
            capture_output=True,
        )
        run(["bash", str(repo / "binder" / "postBuild")], env=env, cwd=repo)
        yield venv, repo, env


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, dict[str, str]]]:
    """(venv, repository copy, environment) of :func:`binder_environment`."""
    with binder_environment(tmp_path_factory.mktemp("binder")) as built:
        yield built


def test_binder_files_are_complete() -> None:
    """binder/ pins what the lessons need, postBuild stops on error and installs the package."""
    pins = {}
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"binder/requirements.txt: {line!r} is not pinned with =="
            pins[name.lower().replace("_", "-")] = version
    for needed in ("jupyterlab", "ipywidgets", "jupyterlab-widgets", "matplotlib", "numpy", "voila"):
        assert needed in pins, f"binder/requirements.txt does not pin {needed}"
    post = (BINDER / "postBuild").read_text()
    assert "set -e" in post and "pip install" in post and "--no-deps" in post
    assert os.access(BINDER / "postBuild", os.X_OK), "binder/postBuild must be executable"


def test_binder_pins_match_the_package() -> None:
    """Every runtime dependency of qardlab is pinned in binder/requirements.txt (postBuild uses --no-deps)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = (BINDER / "requirements.txt").read_text().lower().replace("_", "-")
    for dep in deps:
        name = dep.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower().replace("_", "-")
        assert f"\n{name}==" in "\n" + pinned, f"runtime dependency {name} is not pinned in binder/"


def test_binder_env_has_widgets_and_voila(binder_env: tuple[Path, Path, dict[str, str]]) -> None:
    """The widget front end is enabled in JupyterLab, Voila is a server extension, qardlab is installed."""
    venv, repo, env = binder_env
    labext = run([str(venv / "bin" / "jupyter"), "labextension", "list"], env=env, cwd=repo)
    listing = labext.stdout + labext.stderr
    assert "@jupyter-widgets/jupyterlab-manager" in listing and "enabled" in listing, listing
    server = run([str(venv / "bin" / "jupyter"), "server", "extension", "list"], env=env, cwd=repo)
    assert "voila" in server.stdout + server.stderr, server.stdout + server.stderr
    where = run(
        [str(venv / "bin" / "python"), "-c", "import qardlab; print(qardlab.__file__)"],
        env=env,
        cwd=repo / "notebooks",
    ).stdout.strip()
    assert where.startswith(str(venv)), f"qardlab imported from {where}, not from the Binder environment"


def test_binder_server_culls_kernels_without_a_page(binder_env: tuple[Path, Path, dict[str, str]]) -> None:
    """postBuild gave the Jupyter server binder/jupyter_server_config.json's kernel culling, and the
    environment has qardlab's Voila template and voila.json (from the package's data-files)."""
    venv, repo, env = binder_env
    shown = run([str(venv / "bin" / "jupyter"), "server", "--show-config"], env=env, cwd=repo)
    text = shown.stdout + shown.stderr
    wanted = json.loads((BINDER / "jupyter_server_config.json").read_text())["MappingKernelManager"]
    for key, value in wanted.items():
        found = re.search(rf"\.{key} = {value!r}", text)
        assert found, f"the server has no {key} = {value!r}:\n{text[-2000:]}"
    assert (venv / "etc/jupyter/voila.json").is_file()
    assert (venv / "share/jupyter/voila/templates/qardlab/index.html.j2").is_file()


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_in_binder_env(name: str, binder_env: tuple[Path, Path, dict[str, str]]) -> None:
    """The notebook runs top to bottom with a kernel of the Binder environment."""
    venv, repo, env = binder_env
    proc = subprocess.run(
        [str(venv / "bin" / "python"), "-c", RUNNER, str(repo / "notebooks" / name)],
        cwd=repo / "notebooks",
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"runner failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    result = json.loads(lines[-1][len("RESULT ") :])
    assert result["ok"], f"{name} failed in the Binder environment:\n{result.get('error')}"
    prefix, qardlab_file = result["where"]
    assert Path(prefix) == venv, f"the kernel ran in {prefix}, not in the Binder environment {venv}"
    assert qardlab_file.startswith(str(venv)), f"the kernel imported qardlab from {qardlab_file}"

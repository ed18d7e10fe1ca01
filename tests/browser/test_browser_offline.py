"""A classroom without internet: Voila pages ask nothing of any host but their own, from every install the
project makes, and the icon font (Font Awesome, which ipywidgets' Play and Button icons use) still loads,
from Voila itself.

Voila 0.5's own "lab" template links Font Awesome from a CDN; qardlab's Voila template
(share/jupyter/voila/templates/qardlab, selected by the configs in jupyter-config/) drops those links,
since the page's bundle already carries the font. The pages are served exactly as a user's environment
serves them: the harness adds no Jupyter path, so the template and configs are found where the install
put them. Three installs (issue 27):

- the editable install ``./run`` makes (``pip install -e``, which leaves data-files out: ``./run`` links
  them into .venv): Voila on its own, and Voila inside JupyterLab (``/voila/render/...``);
- a plain ``pip install .[app]`` into a new virtual environment (slow: marked ``slow``);
- Binder's, built from binder/ only (its requirements, then postBuild's ``pip install .``): Voila inside
  the Jupyter server, at the Binder badge's address (marked ``binder`` and ``slow``).

Every request the page makes is recorded in the browser; one to a host other than 127.0.0.1 fails.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_harness import NOTEBOOKS, ROOT, LabServer, VoilaServer, assert_rendered, voila_errors

pytestmark = pytest.mark.browser

LOCAL = re.compile(r"^(https?|wss?)://(127\.0\.0\.1|localhost)(:\d+)?/|^(data|blob|about):")

JS_ICON_FONT = """async () => {
  await document.fonts.load('900 16px "Font Awesome 5 Free"');
  await document.fonts.ready;
  const faces = [...document.fonts].filter((f) => f.family.includes('Font Awesome'));
  const icons = [...document.querySelectorAll('i.fa')].filter((e) => e.offsetParent !== null);
  return {
    loaded: faces.filter((f) => f.status === 'loaded').map((f) => f.family),
    check: document.fonts.check('900 16px "Font Awesome 5 Free"'),
    icons: icons.length,
    iconFonts: icons.slice(0, 5).map((e) => getComputedStyle(e, '::before').fontFamily),
    iconWidths: icons.slice(0, 5).map((e) => e.getBoundingClientRect().width),
  };
}"""


def test_template_and_config_are_in_the_package_data() -> None:
    """The template that drops the CDN links, and the config that selects it, are installed."""
    text = (ROOT / "pyproject.toml").read_text()
    for path in (
        "share/jupyter/voila/templates/qardlab/index.html.j2",
        "share/jupyter/voila/templates/qardlab/conf.json",
        "jupyter-config/voila.json",
    ):
        assert (ROOT / path).is_file(), path
        assert path in text, f"{path} is not in pyproject.toml's data-files"


def copy_notebooks(tmp_path: Path) -> Path:
    copy = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return copy


def asks_only_its_own_host(page: Any, url: str) -> list[str]:
    """Open an app's page at ``url``; check that it drew, that the icon font is loaded and used, and that
    every request the page made went to 127.0.0.1. The requests, for the caller's own checks."""
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url, wait_until="load", timeout=180_000)
    assert not voila_errors(page), voila_errors(page)
    assert_rendered(page, (".qard-app", ".qard-table"), timeout_ms=90_000)
    # the replay stepper (whose Play widget draws four icons) is hidden in live play: ask for it
    page.locator(".qard-replay-toggle").first.click()
    page.locator(".qard-stepper .widget-play").first.wait_for(state="visible", timeout=30_000)
    fonts = page.evaluate(JS_ICON_FONT)
    page.wait_for_timeout(300)
    elsewhere = sorted({u for u in requests if not LOCAL.match(u)})
    assert requests and not elsewhere, f"requests that left 127.0.0.1: {elsewhere}"
    assert fonts["check"] and any("Font Awesome 5 Free" in f for f in fonts["loaded"]), fonts
    assert fonts["icons"] > 0, "no visible icon on the page (the replay stepper's Play widget has four)"
    assert all("Font Awesome" in f for f in fonts["iconFonts"]), fonts
    assert all(w > 4 for w in fonts["iconWidths"]), f"icons drawn empty: {fonts}"
    assert not page.watch.errors, page.watch.errors
    return requests


@pytest.mark.parametrize("name", ["app-five-sons.ipynb", "app-hearts.ipynb"])
def test_app_asks_nothing_of_the_internet(name: str, voila: Any, page: Any, tmp_path: Path) -> None:
    """The editable install ./run makes: Voila on its own (as `./run app` runs it)."""
    server = voila(copy_notebooks(tmp_path) / name)
    asks_only_its_own_host(page, server.base + "/")


def test_voila_inside_jupyterlab_asks_nothing_of_the_internet(lab: LabServer, page: Any) -> None:
    """The editable install ./run makes: Voila inside JupyterLab (its *Render with Voila* button, and the
    address Binder's badges open), selected by the server's config."""
    asks_only_its_own_host(page, f"{lab.base}/voila/render/app-hearts.ipynb?token={lab.token}")


# -- a plain `pip install .` ------------------------------------------------------------------------

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
)


@pytest.fixture(scope="module")
def pip_installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The python of a new virtual environment with ``pip install .[app]`` (not editable) of a copy of
    this checkout (so the build's files land in the copy)."""
    where = tmp_path_factory.mktemp("pip-install")
    repo = where / "repo"
    shutil.copytree(ROOT, repo, ignore=COPY_IGNORE)
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    proc = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", f"{repo}[app]"],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    shutil.rmtree(repo)  # nothing may come from the copy now: only what pip installed
    yield python


@pytest.mark.slow
def test_pip_installed_voila_asks_nothing_of_the_internet(
    pip_installed: Path, page: Any, tmp_path: Path
) -> None:
    """``pip install .[app]``: the data-files put the template and its config in the environment, and the
    environment's own voila command serves the app without a CDN."""
    prefix = pip_installed.parent.parent
    assert (prefix / "etc/jupyter/voila.json").is_file()
    assert (prefix / "share/jupyter/voila/templates/qardlab/index.html.j2").is_file()
    where = subprocess.run(
        [str(pip_installed), "-c", "import qardlab; print(qardlab.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout.strip()
    assert where.startswith(str(prefix)), f"qardlab comes from {where}, not from the new environment"
    server = VoilaServer.start(
        copy_notebooks(tmp_path) / "app-five-sons.ipynb",
        tmp_path / "voila",
        timeout=120,
        python=str(pip_installed),
        checkout=False,
    )
    try:
        asks_only_its_own_host(page, server.base + "/")
    finally:
        server.stop()


# -- Binder ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def binder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(venv, repository copy) of the environment tests/test_binder.py builds from binder/ only."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from test_binder import binder_environment
    finally:
        sys.path.remove(str(ROOT / "tests"))
    with binder_environment(tmp_path_factory.mktemp("binder")) as (venv, repo, _env):
        yield venv, repo


@pytest.mark.binder
@pytest.mark.slow
def test_binder_voila_asks_nothing_of_the_internet(
    binder: tuple[Path, Path], page: Any, tmp_path: Path
) -> None:
    """Binder's environment: JupyterLab from it, and Voila inside it at the Binder badge's address."""
    venv, repo = binder
    lab = LabServer.start(
        tmp_path / "lab", source=repo / "notebooks", python=str(venv / "bin" / "python"), checkout=False
    )
    try:
        asks_only_its_own_host(page, f"{lab.base}/voila/render/app-five-sons.ipynb?token={lab.token}")
    finally:
        lab.shutdown_kernels()
        lab.stop()

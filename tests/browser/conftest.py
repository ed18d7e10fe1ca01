"""Fixtures for the browser tests: Chromium, one JupyterLab server per session, Voila per app, pages.

Without Chromium (or Playwright) these tests skip with a reason on a developer's machine, and FAIL when
the CI variable is set: in CI the browser tests must run.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# the helpers (browser_harness, interactions) are plain modules beside this file, importable whatever the
# import mode or package layout of tests/
sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_harness import (  # noqa: E402
    SCREENSHOTS,
    LabServer,
    PageWatch,
    VoilaServer,
    find_chromium,
    local_only,
)

VIEWPORT = {"width": 1280, "height": 900}
_screenshots_taken: list[Path] = []


def _unavailable(reason: str) -> None:
    """Skip, or fail when CI is set."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI is set, so the browser tests must run", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of Debian's Chromium (or $QARDLAB_CHROMIUM)."""
    path = find_chromium()
    if path is None:
        _unavailable("no Chromium found (apt-get install chromium, or set QARDLAB_CHROMIUM)")
    return path


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    """One headless Chromium for the session, launched by Playwright from the system's binary."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e .[check])")
    from browser_harness import CHROMIUM_ARGS

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
    except Exception as exc:  # a broken browser install: same policy as a missing one
        pw.stop()
        _unavailable(f"Chromium at {chromium_path} did not start: {exc}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture(scope="session")
def lab(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """One JupyterLab server for the session, serving a temporary copy of notebooks/."""
    server = LabServer.start(tmp_path_factory.mktemp("jupyterlab"))
    yield server
    server.stop()


def _shoot_if_failed(request: pytest.FixtureRequest, pg: Any, failed_before: int) -> None:
    """If the test failed, save a screenshot named after it under artifacts/screenshots/."""
    if request.session.testsfailed <= failed_before or pg.is_closed():
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    path = SCREENSHOTS / f"FAILED-{name}.png"
    try:
        pg.screenshot(path=str(path))
        _screenshots_taken.append(path)
    except Exception:  # the page may be gone; the failure itself is what matters
        pass


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh browser page (own context, local requests only); `page.watch.errors` lists JS errors.

    When the test fails, a screenshot named after it is saved under artifacts/screenshots/.
    """
    context = browser.new_context(viewport=VIEWPORT)
    local_only(context)
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.watch = PageWatch().attach(pg)
    failed_before = request.session.testsfailed
    yield pg
    _shoot_if_failed(request, pg, failed_before)
    context.close()


@pytest.fixture
def lab_page(page: Any, lab: LabServer, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page for JupyterLab; the kernels it started are shut down afterwards (after any failure shot)."""
    failed_before = request.session.testsfailed
    yield page
    _shoot_if_failed(request, page, failed_before)
    page.close()
    lab.shutdown_kernels()


@pytest.fixture
def voila(tmp_path: Path) -> Iterator[Callable[[Path], VoilaServer]]:
    """Start Voila on a notebook: `server = voila(path)`; every server started is stopped afterwards."""
    started: list[VoilaServer] = []

    def start(notebook: Path) -> VoilaServer:
        server = VoilaServer.start(notebook, tmp_path / "voila")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def shot() -> Callable[[Any, str], Path]:
    """Take a screenshot into artifacts/screenshots/ and remember it for the summary."""
    from browser_harness import screenshot

    def take(pg: Any, name: str) -> Path:
        path = screenshot(pg, name)
        _screenshots_taken.append(path)
        return path

    return take


@pytest.fixture
def fit() -> Callable[..., dict[str, list[str]]]:
    """Check the page at both screens (browser_harness.check_fit): returns the faults by size, and keeps
    the screenshots for the summary."""
    from browser_harness import check_fit

    def check(pg: Any, stem: str, **kw: Any) -> dict[str, list[str]]:
        faults, paths = check_fit(pg, stem, **kw)
        _screenshots_taken.extend(paths)
        return faults

    return check


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print where the screenshots went."""
    if _screenshots_taken:
        terminalreporter.write_sep("-", "browser screenshots")
        terminalreporter.write_line(f"{len(_screenshots_taken)} screenshots in {SCREENSHOTS}")
        for path in _screenshots_taken:
            terminalreporter.write_line(f"  {path.name}")

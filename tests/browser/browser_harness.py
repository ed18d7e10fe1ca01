"""Servers and page helpers for the browser tests: JupyterLab and Voila driven by headless Chromium.

The recipe is the one in the project's browser-testing notes: Debian's Chromium launched by Playwright
(never `playwright install`), JupyterLab on a temporary copy of the notebooks with its own config, data
and runtime folders, every request that does not go to 127.0.0.1 aborted, and the kernel's readiness read
from `window.jupyterapp` rather than from the toolbar.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

# what a widget that failed to render shows instead of itself
WIDGET_ERROR_TEXTS = ("Error displaying widget", "Failed to display Jupyter Widget", "Error creating view")


def find_chromium() -> str | None:
    """The Chromium to drive: $QARDLAB_CHROMIUM, else chromium, chromium-browser or google-chrome on PATH."""
    explicit = os.environ.get("QARDLAB_CHROMIUM")
    if explicit and shutil.which(explicit):
        return shutil.which(explicit)
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float, log: Path) -> None:
    """Wait until something accepts connections on `port`; fail early if `proc` died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before listening:\n{tail(log)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listened on port {port} after {timeout:.0f} s:\n{tail(log)}")


def tail(path: Path, lines: int = 40) -> str:
    """The last lines of a server log, for error messages."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def isolated_env(base: Path, python: str = sys.executable, checkout: bool = True) -> dict[str, str]:
    """An environment whose Jupyter and IPython folders are temporary, with the environment of ``python``
    (this venv's, by default) first on PATH and, with ``checkout``, this checkout first on PYTHONPATH.

    The kernel spec that ipykernel installs runs `python` from PATH, so the venv's bin folder goes first:
    the kernels then run in the same environment as the server. Without ``checkout`` the environment's own
    installed qardlab is used (a ``pip install .`` or Binder's, tested as a user has it).
    """
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        folder = base / var.lower()
        folder.mkdir(parents=True, exist_ok=True)
        env[var] = str(folder)
    # no Jupyter path of the harness's own: Voila and JupyterLab find qardlab's template and configs where
    # the install put them (sys.prefix/share/jupyter and sys.prefix/etc/jupyter), as in a user's environment
    for var in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "VIRTUAL_ENV"):
        env.pop(var, None)
    env["PATH"] = str(Path(python).parent) + os.pathsep + env.get("PATH", "")
    if checkout:
        # the kernels import this checkout's qardlab (a worktree's), not whatever the venv installed
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def stop(proc: subprocess.Popen) -> None:
    """Stop a server started in its own process group, with its kernels."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)


@dataclass
class LocalServer:
    """A server this harness started on 127.0.0.1 in its own process group, with its log."""

    port: int
    proc: subprocess.Popen
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        stop(self.proc)


@dataclass
class LabServer(LocalServer):
    """A JupyterLab server on a temporary copy of notebooks/, for one test session."""

    root: Path
    token: str

    @classmethod
    def start(
        cls,
        workdir: Path,
        source: Path = NOTEBOOKS,
        timeout: float = 90,
        record_timing: bool = False,
        python: str = sys.executable,
        checkout: bool = True,
    ) -> LabServer:
        """``record_timing``: JupyterLab writes each cell's execution times into its metadata (the
        kernel's own timestamps), which :data:`JS_KERNEL_TIME` reads. ``python``: the environment to run
        JupyterLab from (this venv's by default); ``checkout``: this checkout's qardlab first on the
        path (see :func:`isolated_env`)."""
        root = workdir / "notebooks"
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        settings = workdir / "user-settings"
        tracker: dict[str, Any] = {"windowingMode": "none"}
        if record_timing:
            tracker["recordTiming"] = True
        for rel, data in {
            "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
                "fetchNews": "false",
                "checkForUpdates": False,
            },
            "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": tracker,
        }.items():
            path = settings / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(data))
        token = uuid.uuid4().hex
        port = free_port()
        log = workdir / "jupyterlab.log"
        cmd = [
            python,
            "-m",
            "jupyterlab",
            "--allow-root",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
            "--expose-app-in-browser",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            f"--LabApp.user_settings_dir={settings}",
            f"--LabApp.workspaces_dir={workdir / 'workspaces'}",
        ]
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                cmd,
                cwd=workdir,
                env=isolated_env(workdir, python, checkout),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        server = cls(root=root, port=port, token=token, proc=proc, log=log)
        try:
            server.wait_ready(timeout)
        except BaseException:
            stop(proc)
            raise
        return server

    def wait_ready(self, timeout: float) -> None:
        """Wait until /api/status answers 200."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {self.proc.returncode}:\n{tail(self.log)}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/status?token={self.token}", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.25)
        raise RuntimeError(f"JupyterLab not ready after {timeout:.0f} s:\n{tail(self.log)}")

    def api(self, method: str, path: str) -> Any:
        """Call the server's REST API; returns the decoded JSON (None for an empty answer)."""
        req = urllib.request.Request(
            f"{self.base}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Shut down every session's kernel, so that lessons do not pile up kernels."""
        for session in self.api("GET", "/api/sessions") or []:
            try:
                self.api("DELETE", f"/api/sessions/{session['id']}")
            except urllib.error.URLError:
                pass

    def notebook_url(self, name: str) -> str:
        """The URL that opens `name` in a fresh workspace (so earlier notebooks are not reopened)."""
        return f"{self.base}/lab/workspaces/t{uuid.uuid4().hex[:10]}/tree/{name}?token={self.token}"


@dataclass
class VoilaServer(LocalServer):
    """Voila serving one notebook at its root URL."""

    notebook: Path

    @classmethod
    def start(
        cls,
        notebook: Path,
        workdir: Path,
        timeout: float = 60,
        python: str = sys.executable,
        checkout: bool = True,
        options: tuple[str, ...] = (),
    ) -> VoilaServer:
        """Voila as its own command would run it in the environment of ``python`` (this venv's by
        default), with no Jupyter path added: the template and configs are the ones that environment
        installed. ``checkout``: see :func:`isolated_env`; ``options``: more command-line options."""
        port = free_port()
        workdir.mkdir(parents=True, exist_ok=True)
        log = workdir / f"voila-{notebook.stem}.log"
        cmd = [
            python,
            "-m",
            "voila",
            str(notebook),
            "--no-browser",
            "--Voila.ip=127.0.0.1",
            f"--port={port}",
            "--VoilaConfiguration.show_tracebacks=True",
            *options,
        ]
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                cmd,
                cwd=notebook.parent,
                env=isolated_env(workdir, python, checkout),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            wait_for_port(port, proc, timeout, log)  # no status endpoint; polling / would run the notebook
        except BaseException:
            stop(proc)
            raise
        return cls(notebook=notebook, port=port, proc=proc, log=log)


@dataclass
class PageWatch:
    """JavaScript errors seen on a page; assert on these rather than on console lines."""

    errors: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> PageWatch:
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        return self


def local_only(context: Any) -> None:
    """Abort every request that is not to 127.0.0.1 (Voila's page asks a CDN for an icon font)."""

    def route(r: Any) -> None:
        if re.match(
            r"^(https?|wss?)://(127\.0\.0\.1|localhost)(:\d+)?/", r.request.url
        ) or r.request.url.startswith(("data:", "blob:", "about:")):
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)


# -- JupyterLab page helpers ------------------------------------------------------------------------

JS_KERNEL_READY = """(path) => {
  const app = window.jupyterapp;
  const w = app && app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext) return false;
  const s = w.sessionContext.session;
  const k = s && s.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""

JS_RUN_ALL = """async (ms) => {
  const run = window.jupyterapp.commands.execute('notebook:run-all-cells');
  const late = new Promise((resolve) => setTimeout(() => resolve('timeout'), ms));
  return await Promise.race([run, late]);
}"""

#: the kernel's own time for the notebook's cells, from the timestamps JupyterLab records with
#: ``recordTiming`` (LabServer.start(record_timing=True)): ``busy`` the sum over cells of execute_input to
#: execute_reply (ms), ``cells`` how many carried timing
JS_KERNEL_TIME = """() => {
  const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
  let busy = 0, timed = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type !== 'code') continue;
    const ex = c.getMetadata('execution');
    if (!ex || !ex['iopub.execute_input'] || !ex['shell.execute_reply']) continue;
    busy += Date.parse(ex['shell.execute_reply']) - Date.parse(ex['iopub.execute_input']);
    timed += 1;
  }
  return {busy, cells: timed};
}"""

JS_CELL_REPORT = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const cells = w.content.model.cells;
  const report = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type !== 'code') continue;
    const outs = c.outputs.toJSON();
    report.push({
      index: i,
      count: c.executionCount,
      source: c.sharedModel.getSource().slice(0, 80),
      errors: outs.filter((o) => o.output_type === 'error')
                  .map((o) => `${o.ename}: ${o.evalue}`),
    });
  }
  return report;
}"""

JS_KERNEL_IDLE = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle';
}"""


def open_notebook(page: Any, lab: LabServer, name: str, timeout_ms: int = 90_000) -> None:
    """Open `name` in JupyterLab and wait until its kernel is connected and idle."""
    page.goto(lab.notebook_url(name), wait_until="domcontentloaded", timeout=timeout_ms)
    page.wait_for_function(JS_KERNEL_READY, arg=name, timeout=timeout_ms, polling=250)


def run_all(page: Any, timeout_ms: int = 600_000) -> list[dict[str, Any]]:
    """Run every cell; return one report per code cell (index, execution count, errors).

    Raises AssertionError naming the cells that raised or never ran.
    """
    result = page.evaluate(JS_RUN_ALL, timeout_ms)
    report = page.evaluate(JS_CELL_REPORT)
    errors = [f"cell {c['index']} ({c['source']!r}): {e}" for c in report for e in c["errors"]]
    assert not errors, "cells raised:\n" + "\n".join(errors)
    assert result is True, f"Run All did not finish cleanly (result {result!r})"
    not_run = [c["index"] for c in report if c["count"] is None and c["source"].strip()]
    assert not not_run, f"code cells never ran: {not_run}"
    page.wait_for_function(JS_KERNEL_IDLE, timeout=timeout_ms, polling=250)
    return report


def widget_error_texts(page: Any) -> list[str]:
    """Texts of widgets that failed to render (shown in place of the widget)."""
    found = []
    for text in WIDGET_ERROR_TEXTS:
        loc = page.locator(f".jp-OutputArea-output:has-text('{text}'), .jupyter-widgets:has-text('{text}')")
        if loc.count():
            found.append(text)
    return found


#: the second screenshot size: a classroom projector
PROJECTOR = {"width": 1024, "height": 768}
#: a laptop's screen (the pages' first size)
LAPTOP = {"width": 1280, "height": 900}
#: the screens every lesson and app is checked at (issue 29): the projector first, where JupyterLab opens
#: with its file browser open, then the laptop
SCREENS = (PROJECTOR, LAPTOP)


def screenshot(page: Any, name: str, projector: bool = True) -> Path:
    """Save a full-page screenshot under artifacts/screenshots/ and return its path; with ``projector``
    also one at 1024 x 768 (``<name>-1024x768.png``), the viewport put back afterwards."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    size = page.viewport_size
    if projector and size and size != PROJECTOR:
        page.set_viewport_size(PROJECTOR)
        try:
            page.wait_for_timeout(250)  # the layout reflows; the widgets do not redraw
            page.screenshot(
                path=str(SCREENSHOTS / f"{name}-{PROJECTOR['width']}x{PROJECTOR['height']}.png"),
                full_page=True,
            )
        finally:
            page.set_viewport_size(size)
    return path


def cut_labels(page: Any, scope: str = "body") -> list[str]:
    """The words under ``scope`` that their box is too narrow to show whole (issue 11: "Teacher (all ca",
    "probability (best ques", "J♣ Jack of Clu", "crossing out seen ca..."): a dropdown's chosen words,
    measured in the select's own font, and the words of a button or a widget's description (ipywidgets
    cuts both with an ellipsis), wider than their box. Hidden elements are left out."""
    return page.evaluate(
        """(scope) => {
        const out = [], c = document.createElement('canvas').getContext('2d');
        for (const s of document.querySelectorAll(scope + ' select')) {
            c.font = getComputedStyle(s).font;
            const o = s.options[s.selectedIndex];
            if (o && s.offsetParent !== null && c.measureText(o.text).width > s.clientWidth - 18)
                out.push(o.text);
        }
        for (const b of document.querySelectorAll(scope + ' button, ' + scope + ' .widget-label')) {
            const text = b.textContent.trim();
            if (text && b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1) out.push(text);
        }
        return out;
      }""",
        scope,
    )


def assert_rendered(page: Any, selectors: tuple[str, ...], timeout_ms: int = 30_000) -> None:
    """Each selector matches at least one element (the widgets rendered), and no widget failed."""
    for sel in selectors:
        page.locator(sel).first.wait_for(state="attached", timeout=timeout_ms)
    failed = widget_error_texts(page)
    assert not failed, f"widgets failed to render: {failed}"


def _state_of(page: Any, selector: str, attribute: str | None) -> str:
    """What 'a visible change' compares: an attribute, else the inner HTML of every match."""
    loc = page.locator(selector)
    if attribute:
        return "\n".join(str(loc.nth(i).get_attribute(attribute)) for i in range(loc.count()))
    return "\n".join(loc.evaluate_all("els => els.map(e => e.innerHTML)"))


def perform(page: Any, interaction: Any, timeout_ms: int = 30_000) -> None:
    """Click as the interaction says and check its visible effect (see interactions.Interaction)."""
    target = page.locator(interaction.click)
    assert target.count(), f"nothing to click: no element matches {interaction.click!r}"
    target = target.last if interaction.nth == -1 else target.nth(interaction.nth)
    changes = interaction.changes or interaction.click
    page.locator(changes).first.wait_for(state="attached", timeout=timeout_ms)
    before = _state_of(page, changes, interaction.attribute)
    target.scroll_into_view_if_needed()
    target.click()
    deadline = time.monotonic() + timeout_ms / 1000
    after = before
    while time.monotonic() < deadline:
        after = _state_of(page, changes, interaction.attribute)
        if after != before and (
            interaction.expect_text is None
            or interaction.expect_text in " ".join(page.locator(changes).all_inner_texts())
        ):
            break
        page.wait_for_timeout(100)
    assert after != before, f"clicking {interaction.click!r} changed nothing in {changes!r}"
    if interaction.expect_text is not None:
        texts = " ".join(page.locator(changes).all_inner_texts())
        assert interaction.expect_text in texts, f"{interaction.expect_text!r} not in {changes!r}: {texts!r}"
    if interaction.expect_visible:
        page.locator(interaction.expect_visible).first.wait_for(state="visible", timeout=timeout_ms)
    page.locator(changes).first.scroll_into_view_if_needed()
    if interaction.script is not None:
        interaction.script(page)


def voila_errors(page: Any) -> list[str]:
    """Error outputs on a Voila page. Voila renders a raised exception as stderr text with its traceback
    (we start it with show_tracebacks) and stops running the notebook there; warnings carry no traceback."""
    stderr = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    texts = page.locator(stderr).all_inner_texts()
    return [t[-300:] for t in texts if "Traceback" in t or "There was an error when executing cell" in t]


# -- what a class sees: every table fits its output area, nothing cut, type a projector shows ---------

#: the roots of what a class reads on a page: a table, a side-by-side replay, an app, the join page
TABLE_ROOTS = ".qard-table, .qard-side-by-side, .qard-app, .qard-join-app"
#: the smallest type a class reads on a projector (px)
MIN_TEXT_PX = 12.0

JS_LAYOUT_FAULTS = """([roots, minPx]) => {
  const faults = [];
  const say = (e) => {
    const cls = [...e.classList].filter((c) => c.startsWith('qard-')).join('.') || e.tagName.toLowerCase();
    const text = (e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return text ? `${cls} "${text}"` : cls;
  };
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  // text for screen readers only (clipped to nothing): not drawn, so not measured
  const unseen = (e) => {
    for (let a = e; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.clip !== 'auto' && s.clip !== '' || s.clipPath !== 'none') return true;
    }
    return false;
  };
  const cuts = (v) => v === 'hidden' || v === 'clip';
  const r1 = (x) => Math.round(x);
  const tops = [...document.querySelectorAll(roots)].filter(
    (r) => !(r.parentElement && r.parentElement.closest(roots)));
  for (const root of tops) {
    if (!shown(root)) continue;
    const area = root.closest('.jp-OutputArea-output');
    const box = area ? area.getBoundingClientRect()
                     : {left: 0, right: document.documentElement.clientWidth};
    if (area && area.scrollWidth > area.clientWidth + 1)
      faults.push(`the output area scrolls sideways (${area.scrollWidth} > ${area.clientWidth} px)`);
    for (const e of [root, ...root.querySelectorAll('*')]) {
      if (!shown(e) || unseen(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.width < 1 && r.height < 1) continue;
      const s = getComputedStyle(e);
      // 1. nothing of a table beyond the output area's sides
      if (r.right > box.right + 1 || r.left < box.left - 1)
        faults.push(`${say(e)} overflows the output area (${r1(r.left)}..${r1(r.right)} px, the area ` +
                    `${r1(box.left)}..${r1(box.right)})`);
      // 2. a box narrower or lower than what it holds: cut, or scrolled sideways
      if (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
        faults.push(`${say(e)} cuts or scrolls its content sideways ` +
                    `(${e.scrollWidth} > ${e.clientWidth} px)`);
      if (cuts(s.overflowY) && e.scrollHeight > e.clientHeight + 1)
        faults.push(`${say(e)} cuts its content (${e.scrollHeight} > ${e.clientHeight} px high)`);
      // 3. type a projector shows
      const text = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (text && parseFloat(s.fontSize) < minPx - 0.05)
        faults.push(`${say(e)} is ${parseFloat(s.fontSize).toFixed(1)} px type (at least ${minPx})`);
      // 4. a card or a text wholly inside every box that cuts (above and to the left too, which the
      //    scroll sizes do not count); a box that scrolls up and down (a log) may hide its lower lines
      if (!text && !e.matches('.qard-card, .qard-card-back')) continue;
      for (let a = e.parentElement; a && a !== root.parentElement; a = a.parentElement) {
        const sa = getComputedStyle(a);
        const x = sa.overflowX !== 'visible', y = cuts(sa.overflowY);
        if (!x && !y) continue;
        const b = a.getBoundingClientRect();
        const x0 = b.left + a.clientLeft, y0 = b.top + a.clientTop;
        const inX = r.left >= x0 - 1 && r.right <= x0 + a.clientWidth + 1;
        const inY = r.top >= y0 - 1 && r.bottom <= y0 + a.clientHeight + 1;
        if ((x && !inX) || (y && !inY)) {
          faults.push(`${say(e)} is cut by ${say(a).slice(0, 60)}`);
          break;
        }
      }
    }
    // 5. the felt's pieces (seats, the trick's cards, the middle's words) lie on none other
    for (const ring of root.querySelectorAll('.qard-felt-ring')) {
      const pieces = [...ring.querySelectorAll(':scope > *, .qard-trick-card')].filter(
        (e) => shown(e) && !e.matches('.qard-trick') && e.textContent.trim() + e.innerHTML.trim() !== '');
      const boxes = pieces.map((e) => e.getBoundingClientRect());
      for (let i = 0; i < pieces.length; i++) {
        for (let j = i + 1; j < pieces.length; j++) {
          const a = boxes[i], b = boxes[j];
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 1 && h > 1) faults.push(`${say(pieces[i])} lies on ${say(pieces[j])}`);
        }
      }
    }
  }
  return [...new Set(faults)];
}"""


def layout_faults(page: Any, roots: str = TABLE_ROOTS, min_px: float = MIN_TEXT_PX) -> list[str]:
    """What a class would see wrong in the tables on the page as it is laid out now (issue 29), each fault
    in words: an element of a table beyond its output area's sides (Dave's seat off the felt at 1024 x 768
    with the file browser open), a box that cuts what it holds or scrolls it sideways (a seat's cards cut to
    their bottom half, "score 15" cut to "score 1"), a card or a text outside a box that cuts it, and text
    under ``min_px`` (the trick's names at 9.6 px), and pieces of a felt lying on each other (a seat on the
    trick). Hidden elements, and text for screen readers only, are left out; a log that scrolls up and down
    may hide its older lines."""
    return page.evaluate(JS_LAYOUT_FAULTS, [roots, min_px])


def size_name(size: dict[str, int]) -> str:
    """ "1024x768" """
    return f"{size['width']}x{size['height']}"


JS_FILE_BROWSER = """() => {
  const fb = document.querySelector('.jp-FileBrowser');
  if (!fb || fb.offsetParent === null) return 0;
  return fb.getBoundingClientRect().width;
}"""


def file_browser_width(page: Any) -> float:
    """How wide JupyterLab's file browser is on the page (0 when it is closed or there is none)."""
    return float(page.evaluate(JS_FILE_BROWSER))


def check_fit(
    page: Any, stem: str, screens: tuple[dict[str, int], ...] = SCREENS, roots: str = TABLE_ROOTS
) -> tuple[dict[str, list[str]], list[Path]]:
    """The page at each of ``screens`` in turn (laid out again, the widgets not redrawn): its
    :func:`layout_faults` and a screenshot as a class sees it, ``<stem>-1024x768.png`` (full page where
    the page scrolls, as Voila's does; JupyterLab's notebook scrolls inside the window). Returns the faults
    by size (only sizes with faults) and the screenshots' paths; the viewport is left at the last size."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    faults: dict[str, list[str]] = {}
    paths = []
    for size in screens:
        if page.viewport_size != size:
            page.set_viewport_size(size)
            page.wait_for_timeout(400)  # the layout reflows (container queries included)
        found = layout_faults(page, roots)
        if found:
            faults[size_name(size)] = found
        path = SCREENSHOTS / f"{stem}-{size_name(size)}.png"
        page.screenshot(path=str(path), full_page=True)
        paths.append(path)
    return faults, paths


def fit_report(faults: dict[str, list[str]], limit: int = 12) -> str:
    """The faults of :func:`check_fit` in words, at most ``limit`` a size."""
    return "\n".join(
        f"at {size}: {len(found)} faults\n  " + "\n  ".join(found[:limit]) for size, found in faults.items()
    )

"""A class of thirty on one laptop: a join page's kernel goes when its page goes, and with it the seat's
connection to the classroom server (issue 27), so the teacher sees who left and kernels do not pile up.

The join page (``notebooks/app-classroom.ipynb``) runs in Voila as ``./run app join`` runs it, with the
configuration the install gives it (jupyter-config/voila.json and qardlab's Voila template, found where
the install put them; the harness adds no path). Two ways a page goes:

- its tab is closed (or reloaded): the page's unload message shuts its kernel down at once. Voila's own
  message carries the ``_xsrf`` cookie's value, and the server's XSRF check (left on) accepts it because
  qardlab's template sets that cookie, which the voila command never does; the template's own message at
  ``pagehide`` covers browsers that fire no ``beforeunload`` (tablets, phones);
- it vanishes without a word (a laptop's lid shut, a crashed tab, a tablet that drops off the network):
  the kernel manager culls a kernel that no page is connected to once it has been idle for
  ``cull_idle_timeout`` seconds, checked every ``cull_interval`` seconds (voila.json's figures).

Either way the classroom server sees the seat's connection close, and the other students' kernels stay.
And the XSRF check is on: a shutdown without the cookie and the same value in its body is refused.
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_harness import NOTEBOOKS, ROOT, assert_rendered, local_only, voila_errors

from qardlab.classroom.teacher import LocalServer, Teacher, join_link

pytestmark = pytest.mark.browser

psutil = pytest.importorskip("psutil")

CONFIG = json.loads((ROOT / "jupyter-config" / "voila.json").read_text())
CULL = CONFIG["MappingKernelManager"]


def kernel_pids(voila_pid: int, launcher: str = "-m qardlab.voila_kernel ") -> dict[str, int]:
    """The kernels Voila runs now: kernel id -> process id (from each kernel's connection file name), each
    started by ``launcher`` (qardlab.voila_kernel: voila.json's page kernels, without a debugger)."""
    found = {}
    try:
        children = psutil.Process(voila_pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return found
    for child in children:
        try:
            if child.status() == psutil.STATUS_ZOMBIE:
                continue
            cmd = " ".join(child.cmdline())
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
        if launcher in cmd and "kernel-" in cmd:
            found[cmd.split("kernel-", 1)[1].split(".json", 1)[0]] = child.pid
    return found


def connected(teacher: Teacher, table: int) -> list[int]:
    """How many windows each seat of ``table`` has open at the server."""
    row = next(t for t in teacher.tables() if t["table"] == table)
    return [s["connected"] for s in row["seats"]]


def wait_until(check: Any, timeout: float, what: str) -> float:
    """Poll ``check()`` until true; the seconds it took (AssertionError naming ``what`` after ``timeout``)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if check():
            return time.monotonic() - start
        time.sleep(0.5)
    raise AssertionError(f"{what} not within {timeout:.0f} s")


def join(browser: Any, url: str) -> tuple[Any, Any, str]:
    """A student's own browser context on the join link: (context, page, the page's kernel id)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    local_only(context)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, wait_until="load", timeout=180_000)
    assert_rendered(page, (".qard-join-app", ".qard-join-code"), timeout_ms=90_000)
    page.locator("button.qard-join").click()
    page.locator(".qard-table").first.wait_for(state="visible", timeout=60_000)
    assert not voila_errors(page), voila_errors(page)
    kernel = page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
    )
    return context, page, kernel


@pytest.fixture
def table(tmp_path: Path) -> Any:
    """A classroom server with one Five Sons table: seats 0 and 1 students, 2 and 3 bots."""
    server = LocalServer(db=str(tmp_path / "class.db"))
    try:
        teacher = Teacher(server.url, server.token)
        created = teacher.create_table("five_sons", 4, seed=5, bots={2: "logic", 3: "logic"}, pace=0.3)
        yield server, teacher, created
    finally:
        server.stop()


@pytest.fixture
def join_page(voila: Any, tmp_path: Path) -> Any:
    nb = tmp_path / "app" / "app-classroom.ipynb"
    nb.parent.mkdir()
    shutil.copy(NOTEBOOKS / "app-classroom.ipynb", nb)
    return voila(nb)


def test_closing_a_join_page_shuts_its_kernel_and_frees_the_seat(
    browser: Any, table: Any, join_page: Any
) -> None:
    server, teacher, created = table
    codes = [s["code"] for s in created["seats"][:2]]
    alice = join(browser, join_link(join_page.base + "/", server.url, codes[0]))
    bob = join(browser, join_link(join_page.base + "/", server.url, codes[1]))
    kernels = kernel_pids(join_page.proc.pid)
    assert {alice[2], bob[2]} <= set(kernels), (alice[2], bob[2], kernels)
    wait_until(lambda: connected(teacher, created["table"])[:2] == [1, 1], 30, "both seats connected")
    alice[1].close(run_before_unload=True)  # Alice closes her tab
    took = wait_until(lambda: alice[2] not in kernel_pids(join_page.proc.pid), 20, "Alice's kernel gone")
    wait_until(lambda: connected(teacher, created["table"])[0] == 0, 20, "the server sees Alice's seat leave")
    print(f"closed tab: kernel gone after {took:.1f} s")
    assert bob[2] in kernel_pids(join_page.proc.pid), "Bob's kernel went too"
    assert connected(teacher, created["table"])[1] == 1, "Bob's seat lost its connection"
    log = join_page.log.read_text(errors="replace")
    assert "403 POST /voila/api/shutdown" not in log, log[-2000:]
    assert f"Kernel shutdown: {alice[2]}" in log, log[-2000:]
    assert "Kernel does not exist" not in log, "the page sent its shutdown twice: " + log[-2000:]
    for context, _page, _kernel in (alice, bob):
        context.close()


@pytest.mark.slow
def test_a_vanished_join_page_has_its_kernel_culled(browser: Any, table: Any, join_page: Any) -> None:
    """A page that goes without a word (no unload message): its kernel is culled within voila.json's
    ``cull_idle_timeout`` + ``cull_interval`` (plus the few seconds a shutdown takes), and the server sees
    the seat's connection close."""
    server, teacher, created = table
    alice = join(browser, join_link(join_page.base + "/", server.url, created["seats"][0]["code"]))
    assert alice[2] in kernel_pids(join_page.proc.pid)
    wait_until(lambda: connected(teacher, created["table"])[0] == 1, 30, "Alice's seat connected")
    # the page goes without a word, as a crashed tab or a laptop shut: the beacons it would send on its way
    # out (Voila's shutdown message at beforeunload, the template's at pagehide) go nowhere (a route
    # does not stop a beacon, and the closing page's own listeners run whatever a test adds)
    alice[1].evaluate("() => { navigator.sendBeacon = () => true; }")
    alice[0].close()
    limit = CULL["cull_idle_timeout"] + CULL["cull_interval"] + 20
    took = wait_until(
        lambda: alice[2] not in kernel_pids(join_page.proc.pid), limit, "the orphan kernel culled"
    )
    wait_until(lambda: connected(teacher, created["table"])[0] == 0, 20, "the server sees Alice's seat leave")
    print(f"vanished page: kernel culled after {took:.1f} s (idle timeout {CULL['cull_idle_timeout']} s)")
    assert "Culling 'idle' kernel" in join_page.log.read_text(errors="replace")


def shutdown_status(base: str, kernel: str, cookie: str | None, field: str | None) -> int:
    """The HTTP status of the page's shutdown message for ``kernel``, sent with an ``_xsrf`` cookie and an
    ``_xsrf`` field in a urlencoded body (None: left out), as a browser on the page would send it."""
    body = b"" if field is None else f"_xsrf={field}".encode()
    req = urllib.request.Request(f"{base}/voila/api/shutdown/{kernel}", data=body, method="POST")
    req.add_header("Content-Type", "application/x-www-form-urlencoded")
    req.add_header("Origin", base)
    if cookie is not None:
        req.add_header("Cookie", f"_xsrf={cookie}")
    try:
        with urllib.request.urlopen(req, timeout=30) as reply:
            return reply.status
    except urllib.error.HTTPError as e:
        return e.code


def test_the_installed_voila_refuses_a_shutdown_without_its_xsrf_pair(join_page: Any) -> None:
    """What the install configures leaves Voila's XSRF check on: another site's page, which can neither
    read nor set this server's cookies, cannot shut a student's kernel down. A shutdown with no ``_xsrf``
    (Voila's own message before qardlab's template set the cookie), or with a value that is not the
    cookie's, is refused with a 403 and the kernel stays; the page's pair (cookie and the same value)
    shuts it down."""
    with urllib.request.urlopen(join_page.base + "/", timeout=180) as reply:
        html = reply.read().decode()
    kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', html).group(1)
    assert kernel in kernel_pids(join_page.proc.pid)
    token = secrets.token_hex(16)
    assert shutdown_status(join_page.base, kernel, None, None) == 403
    assert shutdown_status(join_page.base, kernel, token, None) == 403
    assert shutdown_status(join_page.base, kernel, None, token) == 403
    assert shutdown_status(join_page.base, kernel, token, secrets.token_hex(16)) == 403
    assert kernel in kernel_pids(join_page.proc.pid), "a refused shutdown stopped the kernel"
    assert shutdown_status(join_page.base, kernel, token, token) == 204
    wait_until(lambda: kernel not in kernel_pids(join_page.proc.pid), 20, "the kernel gone")


def test_a_page_hidden_without_beforeunload_shuts_its_kernel(
    browser: Any, table: Any, join_page: Any
) -> None:
    """A browser that fires only ``pagehide`` when a tab goes (Safari on an iPad, Chrome on Android):
    the template's own message shuts the kernel down, and the server sees the seat leave. Here the page
    gets a ``pagehide`` with no ``beforeunload`` before it, as such a browser sends it."""
    server, teacher, created = table
    alice = join(browser, join_link(join_page.base + "/", server.url, created["seats"][0]["code"]))
    assert alice[2] in kernel_pids(join_page.proc.pid)
    wait_until(lambda: connected(teacher, created["table"])[0] == 1, 30, "Alice's seat connected")
    cookie = {c["name"]: c for c in alice[0].cookies()}.get("_xsrf")
    assert cookie and re.fullmatch(r"[0-9a-f]{32}", cookie["value"]), cookie
    assert cookie["sameSite"] == "Strict" and cookie["path"] == "/", cookie
    # (Playwright's sync API lets the page's requests through local_only's route only while it waits)
    with alice[1].expect_response(lambda r: "/voila/api/shutdown/" in r.url) as sent:
        alice[1].evaluate(
            "() => window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: false}))"
        )
    assert sent.value.status == 204 and sent.value.request.post_data == f"_xsrf={cookie['value']}"
    wait_until(lambda: alice[2] not in kernel_pids(join_page.proc.pid), 20, "Alice's kernel gone")
    wait_until(lambda: connected(teacher, created["table"])[0] == 0, 20, "the server sees Alice's seat leave")
    log = join_page.log.read_text(errors="replace")
    assert f"Kernel shutdown: {alice[2]}" in log and "403 POST" not in log, log[-2000:]
    alice[0].close()

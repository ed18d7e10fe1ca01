"""The classroom server as a JupyterHub managed service, with a real hub on 127.0.0.1 (issue 27 item 6).

The hub (``python -m jupyterhub``: its dummy authenticator, the local process spawner) starts
``qardlab serve`` as a managed service and its proxy, ``configurable-http-proxy`` from npm (``./run test``
installs it into ``.venv/node``), sends ``/services/qardlab/`` to it. Through the hub's public address only:
the service answers under its prefix, a table is created with the classroom's token, a student's websocket
(the package's own client, as lesson 09's ``join`` uses it) plays, the teacher signs in through the hub's
OAuth and may then use the API with the hub's cookie, and a student signed in to the hub may not.
Skipped when JupyterHub or the proxy is missing, except under CI, where it fails.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why}, and CI is set: the JupyterHub test must run in CI (./run test installs it)")
    pytest.skip(why)


def _proxy() -> Optional[str]:
    for candidate in (
        os.environ.get("QARDLAB_CHP"),
        str(ROOT / ".venv" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"),
        shutil.which("configurable-http-proxy"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CONFIG = """
import sys
c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.should_start = True
c.JupyterHub.db_url = "sqlite:///{folder}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{folder}/cookie_secret"
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allowed_users = {{"teacher", "student"}}
c.JupyterHub.spawner_class = "simple"
c.JupyterHub.services = [
    {{
        "name": "qardlab",
        "url": "http://127.0.0.1:{service_port}",
        "command": [
            sys.executable, "-m", "qardlab", "serve", "--db", "{folder}/classroom.db", "--sync", "normal"
        ],
        "environment": {{"PYTHONPATH": {root!r}}},
        "oauth_no_confirm": True,
    }}
]
c.JupyterHub.load_roles = [
    {{"name": "qardlab-teachers", "users": ["teacher"], "scopes": ["access:services!service=qardlab"]}}
]
"""


class Hub:
    """A JupyterHub on 127.0.0.1 with qardlab as a managed service; ``url`` its public address."""

    def __init__(self, folder: Path, proxy: str) -> None:
        self.folder = folder
        self.port = _free_port()
        ports = {
            "port": self.port,
            "hub_port": _free_port(),
            "proxy_api": _free_port(),
            "service_port": _free_port(),
        }
        (folder / "jupyterhub_config.py").write_text(
            CONFIG.format(folder=folder, proxy=proxy, root=str(ROOT), **ports)
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self.service = f"{self.url}/services/qardlab"
        self.log = open(folder / "hub.log", "w")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTERHUB_", "QARDLAB_TOKEN"))}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(folder / "jupyterhub_config.py")],
            cwd=folder,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env,
        )

    def wait_ready(self, timeout: float = 90) -> None:
        import requests

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.logs()
            try:
                r = requests.get(f"{self.service}/api/status", timeout=2)
                if r.status_code == 200 and r.json().get("status") == "ready":
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise AssertionError(f"the hub's qardlab service did not answer within {timeout} s:\n{self.logs()}")

    def logs(self) -> str:
        self.log.flush()
        return (self.folder / "hub.log").read_text()[-4000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


def _sign_in(hub: Hub, user: str) -> Any:
    """A browser's session signed in to the hub as ``user`` (the dummy authenticator takes any password)."""
    import requests

    session = requests.Session()
    page = session.get(f"{hub.url}/hub/login", timeout=10)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.text)
    form = {"username": user, "password": "any"}
    if xsrf:
        form["_xsrf"] = xsrf.group(1)
    r = session.post(f"{hub.url}/hub/login", data=form, timeout=10, allow_redirects=False)
    # signed in: the hub set its login cookie and sends the browser on (a refused login answers the form
    # again, with no cookie; where it sends a signed-in user, their own server, is not this test's business)
    signed_in = any(c.name.startswith("jupyterhub-hub-login") for c in session.cookies)
    assert r.status_code == 302 and signed_in, (r.status_code, r.headers.get("Location"), r.text[:200])
    return session


@pytest.fixture(scope="module")
def hub(tmp_path_factory) -> Any:
    try:
        import jupyterhub  # noqa: F401
        import requests  # noqa: F401
    except ImportError:
        _missing("the jupyterhub package is not installed (pip install qardlab[hub])")
    proxy = _proxy()
    if proxy is None:
        _missing("configurable-http-proxy (npm) is not installed")
    started = time.monotonic()
    h = Hub(tmp_path_factory.mktemp("hub"), proxy)
    try:
        h.wait_ready()
        h.started_in = time.monotonic() - started
        yield h
    finally:
        h.stop()


def test_the_hub_starts_the_service_under_its_prefix(hub) -> None:
    import requests

    r = requests.get(f"{hub.service}/api/status", timeout=10)
    assert r.status_code == 200 and r.json()["status"] == "ready"
    assert requests.get(f"{hub.service}/", timeout=10).json()["status"] == "ready"  # the prefix itself
    # every route is under the prefix: the same path without it is the hub's, not the service's
    assert requests.get(f"{hub.url}/api/status", timeout=10).status_code == 404


def _token(hub: Hub) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "qardlab", "token", "--db", str(hub.folder / "classroom.db")],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_table_made_through_the_proxy_and_a_student_plays_over_its_websocket(hub) -> None:
    from qardlab.classroom import RemoteSource
    from qardlab.classroom.api import Teacher

    teacher = Teacher(hub.service, _token(hub))  # the token the service keeps in its file
    table = teacher.create_table("hearts", 4, bots={1: "random", 2: "random", 3: "random"}, pace=0)
    assert [t["table"] for t in teacher.tables()] == [table["table"]]

    async def student() -> dict:
        src = await RemoteSource.open(hub.service, table["seats"][0]["code"])  # through the hub's proxy
        try:
            assert src.url.startswith(f"ws://127.0.0.1:{hub.port}/services/qardlab/ws?code=")
            obs = await src.wait(lambda o: o["to_move"] == 0 and o["legal"])
            await src.act_async(0, obs["legal"][0])  # a pass's first card, played over the websocket
            return await src.wait(lambda o: o["step"] > obs["step"])
        finally:
            src.close()

    # (in a thread of its own: after the browser tests, Playwright keeps an event loop in the main thread)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        after = pool.submit(asyncio.run, student()).result()
    assert after["seat"] == 0 and after["connected"][0] is True
    record = teacher.record(table["table"])
    assert len(record.actions) >= 2  # the deal and the student's card


def test_the_teacher_signs_in_through_the_hub_and_a_student_does_not(hub) -> None:
    token = _token(hub)
    browser = _sign_in(hub, "teacher")
    page = browser.get(f"{hub.service}/teacher", timeout=20)  # the hub's OAuth: authorize, callback, back
    assert page.status_code == 200, (page.status_code, page.url, hub.logs())
    assert "Signed in through JupyterHub as teacher" in page.text and token in page.text
    tables = browser.get(f"{hub.service}/api/tables", timeout=20)  # the hub's cookie is the teacher's key
    assert tables.status_code == 200 and "tables" in tables.json()
    # a change needs more than the cookie (JupyterHub's own check: a page elsewhere cannot make the teacher's
    # browser act); the token the page showed does it
    body = json.dumps({"game": "five_sons", "bots": {"3": "logic"}})
    forged = browser.post(f"{hub.service}/api/tables", data=body, timeout=20)
    assert forged.status_code == 403, forged.text
    made = browser.post(
        f"{hub.service}/api/tables", data=body, headers={"Authorization": f"token {token}"}, timeout=20
    )
    assert made.status_code == 201, made.text
    pupil = _sign_in(hub, "student")
    refused = pupil.get(f"{hub.service}/teacher", timeout=20)
    assert refused.status_code == 403 and token not in refused.text
    api = pupil.get(f"{hub.service}/api/tables", timeout=20)
    assert api.status_code == 403 and "qardlab token --db" in api.json()["error"]
    print(f"the hub and its service started in {hub.started_in:.1f} s")

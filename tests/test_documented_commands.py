"""Every command the documents give works as written, from a fresh shell (issue 27).

The commands are read out of the documents a teacher or a student follows: README.md, lesson 00, the
teacher's notebook (its Markdown) and the teacher's kit for lesson 09. A command is an inline code span,
or a line of a fenced block, that starts with ``./run``, ``../run``, ``qardlab`` or ``voila`` and has no
placeholder in it (``...``, ``ARGS``, ``NAME``): so a document that drifts from the commands fails here.

Each runs in a clean environment: no ``.venv/bin`` on PATH, no VIRTUAL_ENV, no PYTHONPATH, private
Jupyter folders. ``./run ...`` is this clone's script; ``../run``, ``qardlab`` and ``voila`` are typed in
JupyterLab's terminal, as the documents say: there ``.venv/bin`` is on PATH and the terminal opens in
``notebooks/`` (the lab test below checks that it does). What changes from the text: the port (the
machine is shared, so each command gets a free one, or 0 where the server picks one itself),
``--no-browser`` for the servers that would open a browser, ``--co -q`` for ``./run test`` (it collects
the suite instead of running it inside itself), and the folder a server runs in (a scratch folder, so a
``--db`` file lands there).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
DOCUMENTS = (
    "README.md",
    "notebooks/00-start-here.ipynb",
    "notebooks/classroom-teacher.ipynb",
    "docs/teacher/09-play-together.md",
)
STARTS = ("./run ", "../run ", "qardlab ", "voila ")
PLACEHOLDER = re.compile(r"\.\.\.|\b(ARGS|NAME|HOST|CODE|PORT|FILE)\b")


def _markdown(path: str) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    if path.endswith(".ipynb"):
        cells = json.loads(text)["cells"]
        return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return text


def commands_in(text: str) -> list[str]:
    """The commands of a Markdown text: code spans and fenced lines that start like one (comments cut)."""
    found: list[str] = []
    fences = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)
    for block in fences:
        for line in block.splitlines():
            line = line.split(" #", 1)[0].strip()
            if line.startswith(STARTS):
                found.append(line)
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    for span in re.findall(r"`([^`\n]+)`", prose):
        span = span.strip()
        if span.startswith(STARTS):
            found.append(span)
    return [c for c in found if not PLACEHOLDER.search(c)]


def documented() -> dict[str, list[str]]:
    """Each command, with the documents that give it."""
    out: dict[str, list[str]] = {}
    for doc in DOCUMENTS:
        for cmd in commands_in(_markdown(doc)):
            out.setdefault(cmd, [])
            if doc not in out[cmd]:
                out[cmd].append(doc)
    return out


COMMANDS = documented()


def test_the_documents_give_the_commands_a_class_needs() -> None:
    """The parse finds what each document must give (so the test below cannot pass on nothing)."""
    by_doc = {doc: {c for c, docs in COMMANDS.items() if doc in docs} for doc in DOCUMENTS}
    readme = by_doc["README.md"]
    assert {"./run lab", "./run test", "./run app join"} <= readme, readme
    assert any(c.startswith("./run serve --host 0.0.0.0") for c in readme), readme
    assert any(c.startswith("./run app hearts") for c in by_doc["notebooks/00-start-here.ipynb"])
    for doc in ("notebooks/classroom-teacher.ipynb", "docs/teacher/09-play-together.md"):
        assert any(c.startswith("./run serve --host 0.0.0.0 --port 8765") for c in by_doc[doc]), by_doc[doc]
        assert "./run app join" in by_doc[doc] or "../run app join" in by_doc[doc], by_doc[doc]
    # the old spellings, which fail in a fresh shell, are gone
    for cmd in COMMANDS:
        assert not cmd.startswith("voila notebooks/"), f"{cmd!r}: voila is not on a fresh shell's PATH"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env(scratch: Path, terminal: bool) -> dict[str, str]:
    """A fresh shell's environment (or JupyterLab's terminal's, with ``terminal``)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME") and not k.startswith("JUPYTER")
    }
    venv_bins = {str(VENV_BIN), str(Path(sys.executable).parent), str(Path(sys.prefix) / "bin")}
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and p not in venv_bins]
    if terminal:
        path.insert(0, str(VENV_BIN))
        env["VIRTUAL_ENV"] = str(ROOT / ".venv")
    env["PATH"] = os.pathsep.join(path)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        (scratch / var.lower()).mkdir(parents=True, exist_ok=True)
        env[var] = str(scratch / var.lower())
    return env


def with_port(argv: list[str], port: int, style: str) -> list[str]:
    """``argv`` with its port option set to ``port`` (added when it has none)."""
    out, i, done = [], 0, False
    names = ("--port", "--Voila.port", "--ServerApp.port")
    while i < len(argv):
        a = argv[i]
        if a in names and i + 1 < len(argv):
            out += [a, str(port)]
            i, done = i + 2, True
            continue
        if a.split("=", 1)[0] in names and "=" in a:
            out.append(f"{a.split('=', 1)[0]}={port}")
            done = True
        else:
            out.append(a)
        i += 1
    if not done:
        out.append(f"{style}={port}")
    return out


class Started:
    """A command started in its own process group, its output in a file."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str], log: Path) -> None:
        self.log = log
        self.out = open(log, "wb")
        self.proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=self.out, stderr=subprocess.STDOUT, start_new_session=True
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout: float) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.search(pattern, self.text())
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(
            f"no {pattern!r} in the output (exit {self.proc.poll()}):\n{self.text()[-3000:]}"
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 10)):
                try:
                    os.killpg(self.proc.pid, sig)
                    self.proc.wait(timeout=wait)
                    break
                except ProcessLookupError:
                    break
                except subprocess.TimeoutExpired:
                    continue
        self.out.close()


def get(url: str, timeout: float = 10) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read().decode("utf-8", "replace")


def wait_get(url: str, timeout: float, started: Started) -> tuple[int, str]:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if started.proc.poll() is not None:
            break
        try:
            return get(url, timeout=max(5.0, deadline - time.monotonic()))
        except OSError as e:
            last = e
            time.sleep(0.5)
    raise AssertionError(f"{url} did not answer ({last}):\n{started.text()[-3000:]}")


def terminal_says(base: str, token: str, line: str, timeout: float = 60) -> str:
    """Type ``line`` in a new JupyterLab terminal; what it prints up to a marker."""
    websocket = pytest.importorskip("websocket")
    req = urllib.request.Request(
        f"{base}/api/terminals", method="POST", headers={"Authorization": f"token {token}"}, data=b"{}"
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        name = json.load(r)["name"]
    ws = websocket.create_connection(
        f"{base.replace('http', 'ws', 1)}/terminals/websocket/{name}?token={token}", timeout=timeout
    )
    try:
        # the marker is computed by the shell, so the echo of the typed line does not contain it
        ws.send(json.dumps(["stdin", f"{line}; echo END-OF-ANSWER-$((6*7))\r"]))
        seen, deadline = "", time.monotonic() + timeout
        while time.monotonic() < deadline and "END-OF-ANSWER-42" not in seen:
            msg = json.loads(ws.recv())
            if msg[0] == "stdout":
                seen += msg[1]
        return seen
    finally:
        ws.close()


@pytest.mark.parametrize("command", sorted(COMMANDS), ids=lambda c: c.replace(" ", "_")[:60])
def test_documented_command_starts(command: str, tmp_path: Path) -> None:
    """The command starts and answers: the classroom server its /api/status, Voila its page (with no link
    to another host), JupyterLab its /api/status at the URL it prints, which opens lesson 00, and its
    terminal finds qardlab's commands; ./run test collects the suite."""
    argv = shlex.split(command)
    terminal = not argv[0].startswith("./run")
    env = clean_env(tmp_path, terminal)
    scratch = tmp_path / "cwd"
    (scratch / "notebooks").mkdir(parents=True)  # stands for the clone: --token-file notebooks/... lands here
    if argv[0] == "./run":
        argv[0] = str(ROOT / "run")
    kind = argv[1] if argv[0].endswith("run") else argv[0]
    if kind == "qardlab":
        kind = "serve" if argv[1:2] == ["serve"] else "qardlab"
    # where it runs: the servers in a scratch folder (their files land there); Voila and ../run in
    # notebooks/, where JupyterLab's terminal opens
    cwd = ROOT / "notebooks" if argv[0] in ("../run", "voila") else scratch
    port = free_port()
    if kind == "test":
        argv += ["--co", "-q"]
        proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        assert re.search(r"\d+ tests? collected", proc.stdout), proc.stdout[-500:]
        return
    if kind == "serve":  # port 0: the server picks a free one and says which
        argv = with_port(argv, 0, "--port")
    elif kind in ("app", "voila"):
        argv = with_port(argv, port, "--port") + ["--no-browser"]
    elif kind == "lab":  # port 0: JupyterLab picks a free one itself (no race with other servers)
        argv = with_port(argv, 0, "--ServerApp.port") + ["--no-browser"]
    else:
        pytest.fail(f"{command!r}: no check for this kind of command ({kind})")
    started = Started(argv, cwd, env, tmp_path / "output.log")
    try:
        if kind == "serve":
            port = int(started.wait_for(r"qardlab classroom server at http://[^ ]+:(\d+)/", 300).group(1))
            status, body = wait_get(f"http://127.0.0.1:{port}/api/status", 30, started)
            assert status == 200 and json.loads(body)["status"] == "ready", body
            if argv[0].endswith("run"):  # ./run says where to open it before the server starts
                assert "[run] the classroom server" in started.text(), started.text()
        elif kind in ("app", "voila"):
            started.wait_for(rf"running at:\s+http://[^ ]+:{port}/", 300)
            status, body = wait_get(f"http://127.0.0.1:{port}/", 240, started)
            assert status == 200 and "voila" in body.lower(), body[:500]
            assert "cdn.jsdelivr" not in body, "the Voila page links a CDN"
            if argv[0].endswith("run"):
                assert f"http://127.0.0.1:{port}/" in started.text(), started.text()[:1000]
        elif kind == "lab":
            m = started.wait_for(r"(http://127\.0\.0\.1:(\d+)/(\S*)\?token=(\w+))", 300)
            url, port, path, token = m.group(1), int(m.group(2)), m.group(3), m.group(4)
            assert path == "lab/tree/00-start-here.ipynb", f"the URL JupyterLab prints opens {path!r}"
            assert wait_get(url, 60, started)[0] == 200
            status, body = get(f"http://127.0.0.1:{port}/api/status?token={token}")
            assert status == 200, body
            said = terminal_says(f"http://127.0.0.1:{port}", token, "command -v qardlab voila; pwd")
            assert f"{VENV_BIN}/qardlab" in said and f"{VENV_BIN}/voila" in said, said
            assert str(ROOT / "notebooks") in said, said
    finally:
        started.stop()

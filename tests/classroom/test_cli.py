"""The ``qardlab`` command: declared as the package's console script, ``python -m qardlab serve``
refuses bad arguments with its usage, prints its address and token, and stops cleanly on SIGTERM
(and a restart on the same file finds the tables it had)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from conftest import ROOT, ServerProcess

tomllib = pytest.importorskip("tomllib")


def test_console_script_is_declared() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"] == {"qardlab": "qardlab.classroom.cli:main"}
    assert "tornado>=6.2" in project["optional-dependencies"]["classroom"]


def test_bad_arguments_are_refused_with_the_usage() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in (["serve", "--port", "eighty"], ["teach"], []):
        proc = subprocess.run(
            [sys.executable, "-m", "qardlab", *args], capture_output=True, text=True, env=env, timeout=60
        )
        assert proc.returncode == 2 and "usage: qardlab" in proc.stderr, (args, proc.stderr)


def test_sigterm_stops_the_server_and_a_restart_finds_its_tables(tmp_path) -> None:
    server = ServerProcess(tmp_path / "cli.db", token="given-token")
    try:
        assert "teacher token: given-token" in "".join(server.lines)
        server.create(game="hearts", players=3, seed=2)
        status, body = server.request("POST", "/api/tables", raw=b"{" + b" " * 70_000 + b"}")
        assert status == 400 and "over the limit" in body["error"]
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(15) == 0
        server.start()
        assert "1 table)" in "".join(server.lines)
        assert [t["game"] for t in server.get("/api/tables")[1]["tables"]] == ["hearts"]
    finally:
        server.stop()

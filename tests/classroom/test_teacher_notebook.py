"""The teacher's notebook keeps the token and the join codes out of its saved file (issue 29 item 5), and
deals no table from a seed unless the teacher sets one (issue 25 section 1).

The notebook is run as JupyterLab runs it (widget state not saved into the file, JupyterLab's default) in a
copy of its folder, with a practice server, and then against a running ``qardlab serve --token-file``; the
file as it would be saved is searched for the token and every code, in every form. The join sheet is in the
file beside it (readable by its owner only), which git ignores.
"""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT, ServerProcess

nbclient = pytest.importorskip("nbclient")

NOTEBOOK = ROOT / "notebooks" / "classroom-teacher.ipynb"
REVEAL = """import json
from qardlab.engine import Record
print(json.dumps({
    "token": TOKEN,
    "codes": [c for t in created for c in [t["teacher"], *(s["code"] for s in t["seats"] if s["code"])]],
    "teachers": [t["teacher"] for t in created],
    "seeds": [teacher.record(t["table"]).seed for t in created],
}))"""


def run_notebook(folder: Path, settings: str = "") -> tuple[dict, str]:
    """Run the notebook in ``folder`` (``settings`` appended to its settings cell); what the last, added
    cell printed (the secrets to look for), and the notebook's file as saved without that cell."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    if settings:
        nb.cells[1].source += "\n" + settings
    nb.cells.append(nbformat.v4.new_code_cell(REVEAL))
    client = nbclient.NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(folder)}},
        store_widget_state=False,
    )
    client.execute()
    revealed = json.loads(nb.cells[-1].outputs[0]["text"])
    nb.cells.pop()
    saved = folder / "classroom-teacher.ipynb"
    nbformat.write(nb, saved)
    return revealed, saved.read_text()


def forms(code: str) -> set[str]:
    return {code, code.lower(), code.replace("-", ""), code.replace("-", "").lower()}


def check_saved(folder: Path, revealed: dict, saved: str) -> None:
    assert revealed["token"] and len(revealed["codes"]) >= 4
    leaked = [f for c in [revealed["token"], *revealed["codes"]] for f in forms(c) if f in saved]
    assert not leaked, f"the saved notebook holds {leaked}"
    sheet = folder / "classroom-join-sheet.html"
    text = sheet.read_text()
    students = [c for c in revealed["codes"] if c not in revealed["teachers"]]
    assert all(c in text for c in students) and not any(c in text for c in revealed["teachers"])
    assert stat.S_IMODE(sheet.stat().st_mode) == 0o600
    # no seed set: every table dealt from 128 bits the server drew
    assert all(s.bit_length() > 64 for s in revealed["seeds"])


def test_practice_run_saves_no_secret(tmp_path) -> None:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    revealed, saved = run_notebook(folder)
    check_saved(folder, revealed, saved)
    assert "qard-join-sheet" not in saved  # the sheet is in a widget (not saved) and in its file
    # the files that hold secrets, where the notebook writes them in the repository, are ignored by git
    for name in ("notebooks/classroom-token.txt", "notebooks/classroom-join-sheet.html", "class.db"):
        assert subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT).returncode == 0, name


def test_a_class_server_run_reads_the_token_from_its_file(tmp_path) -> None:
    """The documented way: ``qardlab serve --token-file notebooks/classroom-token.txt`` writes the token,
    the notebook reads it from there; the saved notebook holds neither it nor a code."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    token_file = folder / "classroom-token.txt"
    server = ServerProcess(tmp_path / "class.db", token="", args=("--token-file", str(token_file)))
    try:
        revealed, saved = run_notebook(folder, f"SERVER_URL = {server.url!r}")
        assert revealed["token"] == token_file.read_text().strip() == server.token
        check_saved(folder, revealed, saved)
    finally:
        server.stop()
    shutil.rmtree(folder)


def test_run_all_again_after_a_restart_finds_the_tables(tmp_path) -> None:
    """Issue 27 item 2: the server restarted (SIGKILL) on its file, the notebook run again from the top finds
    its tables (the same ids and codes) with the same token, and makes no second set."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    token_file = folder / "classroom-token.txt"
    server = ServerProcess(tmp_path / "class.db", token="", args=("--token-file", str(token_file)))
    try:
        first, _saved = run_notebook(folder, f"SERVER_URL = {server.url!r}")
        server.kill()
        token_file.unlink()  # a lost token file too: the server keeps the token in its database file
        server.token = ""
        server.start()
        second, _saved = run_notebook(folder, f"SERVER_URL = {server.url!r}")
        assert second["token"] == first["token"] == server.token
        assert second["codes"] == first["codes"]
        status, listing = server.get("/api/tables")
        assert status == 200 and len(listing["tables"]) == 2  # TABLES, once
    finally:
        server.stop()

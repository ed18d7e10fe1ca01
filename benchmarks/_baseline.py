"""Run a benchmark's own loop on an older qardlab in the same run: ``--baseline REF``.

``checkout(ref)`` extracts the ``qardlab`` package of a git commit (``git archive``) into a
temporary folder; ``measure(path, script, arg)`` runs this benchmark file again in a child
process with that folder first on ``sys.path`` and returns what the child printed as JSON. The
child imports ``qardlab`` from the old tree, so both codes run the very same loop, one round
after the other, on the same loaded machine.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_TREES: dict[str, Path] = {}


def checkout(ref: str) -> Path:
    """The folder holding commit ``ref``'s ``qardlab`` package (extracted once per run)."""
    if ref in _TREES:
        return _TREES[ref]
    folder = Path(tempfile.mkdtemp(prefix="qardlab-baseline-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "qardlab"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    _TREES[ref] = folder
    return folder


def measure(path: Path, script: str, *args: str) -> dict:
    """Run ``script --child ARGS`` with ``path`` first on sys.path; its last stdout line, as JSON."""
    env = dict(os.environ, PYTHONPATH=str(path), QARDLAB_BASELINE="1")
    out = subprocess.run([sys.executable, script, "--child", *args], env=env, check=True,
                         capture_output=True, text=True, cwd=str(path)).stdout
    return json.loads(out.strip().splitlines()[-1])

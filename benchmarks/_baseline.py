"""Run a benchmark's own loop on an older qardlab in the same run: ``--baseline REF``.

``checkout(ref)`` extracts the ``qardlab`` package of a git commit (``git archive``) into a
temporary folder; ``measure(path, script, arg)`` runs this benchmark file again in a child
process with that folder first on ``sys.path`` and returns what the child printed as JSON. The
child imports ``qardlab`` from the old tree, so both codes run the very same loop, one round
after the other, on the same loaded machine. ``parser(...)`` gives such a benchmark its shared
options (``--rounds``, ``--seed``, ``--baseline`` and the hidden ``--child``).
"""

from __future__ import annotations

import argparse
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
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "qardlab"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    _TREES[ref] = folder
    return folder


def measure(path: Path, script: str, *args: str) -> dict:
    """Run ``script --child ARGS`` with ``path`` first on sys.path; its last stdout line, as JSON."""
    env = dict(os.environ, PYTHONPATH=str(path), QARDLAB_BASELINE="1")
    out = subprocess.run(
        [sys.executable, script, "--child", *args],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=str(path),
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def parser(description: str, rounds: int, baseline: str, seed: int | None = None) -> argparse.ArgumentParser:
    """A benchmark's argument parser with the options every ``--baseline`` benchmark has: ``--rounds``,
    ``--seed`` (where ``seed`` is given, its default), ``--baseline`` (``baseline``: what the old code is
    measured on) and ``--child`` (hidden: the run :func:`measure` makes)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--rounds", type=int, default=rounds)
    if seed is not None:
        ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--baseline", help=f"a git commit whose {baseline} in the same run")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return ap

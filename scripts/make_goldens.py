"""Write (or, with ``--check``, check) every golden playthrough of every game: the one tool.

Each ``golden_cases.py`` under ``tests/`` (a game's test folder, or the folder of a game that lives
under ``tests/fixtures/``) lists its ``CASES`` (:class:`qardlab.engine.playthrough.Case`); each
case's file is ``playthroughs/<stem>.json`` beside it. Run from the repository's root:
``PYTHONPATH=. python scripts/make_goldens.py [--check] [name-filter]``; review the diff after
writing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from qardlab.engine.playthrough import check, find_cases, write  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="check the stored files instead of writing them")
    ap.add_argument("only", nargs="?", default="", help="only files whose path contains this")
    args = ap.parse_args(argv)
    for path, case in find_cases(ROOT):
        if args.only not in str(path):
            continue
        if args.check:
            check(path, case.play)
            print(f"ok     {path.relative_to(ROOT)}")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            write(path, case.play(), case.how)
            print(f"wrote  {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

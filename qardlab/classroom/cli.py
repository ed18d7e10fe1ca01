"""The ``qardlab`` command: ``qardlab serve`` runs a classroom table server (``python -m qardlab serve``)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Optional, Sequence

__all__ = ["main"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="qardlab", description="qardlab's command line")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run a classroom table server (see docs/classroom.md)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    serve.add_argument(
        "--db",
        default="qardlab-classroom.db",
        help="SQLite file of the tables (default qardlab-classroom.db; created readable by you only); "
        "restarting on the same file resumes every table",
    )
    serve.add_argument(
        "--token",
        default=None,
        help="the teacher's token (shows in the process list: prefer --token-file or $QARDLAB_TOKEN); "
        "default: --token-file, else $QARDLAB_TOKEN, else a random one, printed",
    )
    serve.add_argument(
        "--token-file",
        default=None,
        help="a file holding the teacher's token; a new random token is written to it (readable by you "
        "only) when it does not exist",
    )
    serve.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite synchronous mode: full (default) also survives a power cut, normal "
        "survives a killed server",
    )
    serve.add_argument("--log", default="warning", help="log level (default warning)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from .server import run
    from .store import StoreError
    from .tokens import read_token

    try:
        token, _whence = read_token(args.token, args.token_file)
    except ValueError as e:
        print(f"qardlab serve: {e}", file=sys.stderr)
        return 2
    try:
        run(args.host, args.port, args.db, token, synchronous=args.sync)
    except StoreError as e:
        print(f"qardlab serve: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0

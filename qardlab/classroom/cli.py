"""The ``qardlab`` command: ``qardlab serve`` runs a classroom table server (``python -m qardlab serve``)."""

from __future__ import annotations

import argparse
import logging
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
        help="SQLite file of the tables (default qardlab-classroom.db); restarting on the "
        "same file resumes every table",
    )
    serve.add_argument("--token", default=None, help="the teacher's token (default: a random one, printed)")
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

    try:
        run(args.host, args.port, args.db, args.token, synchronous=args.sync)
    except KeyboardInterrupt:
        pass
    return 0

"""The ``qardlab`` command: ``qardlab serve`` runs a classroom table server (``python -m qardlab serve``);
``qardlab token --db FILE`` prints the teacher's token a server keeps in its database file."""

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
    serve.add_argument(
        "--host",
        default=None,
        help="address to listen on (default 127.0.0.1; a hub service: the host of $JUPYTERHUB_SERVICE_URL)",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=None,
        help="port (default 8765, or the port of $JUPYTERHUB_SERVICE_URL; 0 picks a free one)",
    )
    serve.add_argument(
        "--base-url",
        default=None,
        help="the prefix of every route, e.g. /services/qardlab/ (default: $JUPYTERHUB_SERVICE_PREFIX or /)",
    )
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
        "default: --token-file, else $QARDLAB_TOKEN, else the one kept in --db (a restart keeps it), else a "
        "random one; printed, and kept in --db",
    )
    serve.add_argument(
        "--token-file",
        default=None,
        help="a file holding the teacher's token; when it does not exist it is made (readable by you "
        "only) with the token kept in --db, or a new random one",
    )
    serve.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite synchronous mode: full (default) also survives a power cut, normal "
        "survives a killed server",
    )
    serve.add_argument("--log", default="warning", help="log level (default warning)")
    token = sub.add_parser("token", help="print the teacher's token a server keeps in its database file")
    token.add_argument("--db", default="qardlab-classroom.db", help="the server's --db file")
    args = parser.parse_args(argv)
    if args.command == "token":
        from .store import StoreError, read_setting
        from .tokens import TOKEN_SETTING

        try:
            print(read_setting(args.db, TOKEN_SETTING))
        except StoreError as e:
            print(f"qardlab token: {e}", file=sys.stderr)
            return 1
        return 0
    logging.basicConfig(level=args.log.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from .hub import service_address
    from .server import run
    from .store import StoreError

    try:
        hub_host, hub_port = service_address() or ("127.0.0.1", 8765)
    except ValueError as e:
        print(f"qardlab serve: {e}", file=sys.stderr)
        return 2
    host = hub_host if args.host is None else args.host
    port = hub_port if args.port is None else args.port
    try:
        run(
            host,
            port,
            args.db,
            args.token,
            token_file=args.token_file,
            synchronous=args.sync,
            base_url=args.base_url,
        )
    except StoreError as e:
        print(f"qardlab serve: {e}", file=sys.stderr)
        return 1
    except ValueError as e:  # a token file or token that cannot be used
        print(f"qardlab serve: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0

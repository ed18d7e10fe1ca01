"""The teacher's token of a classroom server: where it comes from (``--token``, ``--token-file``, the
environment variable :data:`TOKEN_ENV`, the server's database file, or a new random one), and what a
refused request is told about it. Its own module so that the server and the servers a notebook starts
(``local.py``) read the same name without importing each other.

The token is kept in the database file (:data:`TOKEN_SETTING`), beside the tables it guards: a server
restarted on the same ``--db`` takes the same token, so a teacher's notebook keeps working across a
restart. A token given another way (``--token-file``, ``$QARDLAB_TOKEN``, ``--token``) replaces the kept one.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Optional

__all__ = ["TOKEN_ENV", "TOKEN_SETTING", "read_token", "token_help"]

#: the environment variable that gives ``qardlab serve`` the teacher's token (``--token`` shows in the
#: process list)
TOKEN_ENV = "QARDLAB_TOKEN"
#: the key under which the database file keeps the teacher's token
TOKEN_SETTING = "teacher_token"


def _check(text: str, where: str) -> str:
    if not text or any(c.isspace() for c in text):
        raise ValueError(f"the teacher's token {where} must be the token alone, on one line, without spaces")
    return text


def read_token(
    token: Optional[str] = None, token_file: Optional[str] = None, stored: Optional[str] = None
) -> tuple[str, str]:
    """The teacher's token and where it came from: ``token`` as given, else the file ``token_file``, else
    the environment variable ``QARDLAB_TOKEN``, else ``stored`` (the one the database file keeps), else a
    new random one. A ``token_file`` that does not exist is created readable by its owner only, holding
    ``stored`` when there is one (so a restart keeps the token), else a new one. ValueError naming the file
    when it cannot be used.

    Where it came from is one of ``"given"``, ``"file"``, ``"new file"``, ``"environment"``, ``"stored"``,
    ``"new"`` (:func:`token_help` says it in words)."""
    if token:
        return _check(token, "given with --token"), "given"
    if token_file:
        path = Path(token_file)
        if not path.exists():
            new = stored or secrets.token_hex(24)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except OSError as e:
                raise ValueError(f"cannot create the token file {token_file}: {e.strerror}") from None
            with os.fdopen(fd, "w") as f:
                f.write(new + "\n")
            return new, "new file"
        try:
            text = path.read_text().strip()
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError(f"cannot read the token file {token_file}: {e}") from None
        if not text or any(c.isspace() for c in text):
            raise ValueError(f"the token file {token_file} must hold the token alone, on one line")
        return text, "file"
    env = os.environ.get(TOKEN_ENV, "").strip()
    if env:
        return _check(env, f"in ${TOKEN_ENV}"), "environment"
    if stored:
        return stored, "stored"
    return secrets.token_hex(24), "new"


def token_help(whence: str, db: str, token_file: Optional[str] = None) -> str:
    """Where a teacher finds this server's token, in words (a refused request's error says it)."""
    file = token_file
    source = {
        "given": "the one given to `qardlab serve --token`",
        "file": f"the one in the file {file}",
        "new file": f"the one in the file {file}",
        "environment": f"the one in the environment variable {TOKEN_ENV} of the server's terminal",
        "stored": "the one printed when the server started ('teacher token: ...')",
        "new": "the one printed when the server started ('teacher token: ...')",
    }.get(whence, "the one printed when the server started")
    return (
        f"This server's token is {source}. It is kept in the server's database file {db} "
        f"and stays the same when the server restarts on that file: `qardlab token --db {db}` prints it"
    )

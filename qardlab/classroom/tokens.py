"""The teacher's token of a classroom server: where it comes from (``--token``, ``--token-file``, the
environment variable :data:`TOKEN_ENV`, or a new random one). Its own module so that the server and the
servers a notebook starts (``local.py``) read the same name without importing each other."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Optional

__all__ = ["TOKEN_ENV", "read_token"]

#: the environment variable that gives ``qardlab serve`` the teacher's token (``--token`` shows in the
#: process list)
TOKEN_ENV = "QARDLAB_TOKEN"


def read_token(token: Optional[str] = None, token_file: Optional[str] = None) -> tuple[str, str]:
    """The teacher's token and where it came from: ``token`` as given, else the file ``token_file`` (made
    with a new random token, readable by its owner only, when it does not exist), else the environment
    variable ``QARDLAB_TOKEN``, else a new random one. ValueError naming the file when it cannot be used."""
    if token:
        return token, "given"
    if token_file:
        path = Path(token_file)
        if not path.exists():
            new = secrets.token_hex(24)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except OSError as e:
                raise ValueError(f"cannot create the token file {token_file}: {e.strerror}") from None
            with os.fdopen(fd, "w") as f:
                f.write(new + "\n")
            return new, f"new, written to {token_file}"
        try:
            text = path.read_text().strip()
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError(f"cannot read the token file {token_file}: {e}") from None
        if not text or any(c.isspace() for c in text):
            raise ValueError(f"the token file {token_file} must hold the token alone, on one line")
        return text, f"from {token_file}"
    env = os.environ.get(TOKEN_ENV, "").strip()
    if env:
        return env, f"from ${TOKEN_ENV}"
    return secrets.token_hex(24), "new"

"""``qardlab serve`` as a JupyterHub managed service: its routes under a prefix, and the teacher signed in
through the hub (OAuth).

JupyterHub starts a managed service with its address and prefix in the environment
(``JUPYTERHUB_SERVICE_URL``, ``JUPYTERHUB_SERVICE_PREFIX``, e.g. ``/services/qardlab/``) and its proxy
sends every request under ``/services/qardlab/`` to it, the prefix kept. So the server puts every route
(the HTTP API, the websocket, its pages) under that prefix (:func:`service_prefix`; ``--base-url`` sets it
anywhere else) and listens where the hub says (:func:`service_address`).

Students need no hub account for the classroom: their join code is their key, as without the hub, so a
student joins from their own hub server (lesson 09's ``join(url, code)``) or the join page, through the
hub's proxy. The teacher may sign in with the hub instead of carrying the token: with the ``hub`` extra
(``pip install qardlab[hub]``, JupyterHub's ``HubOAuth``), a hub user the hub lets use this service (the
scope ``access:services!service=NAME``, granted by a role) is the teacher. Such a user may call the API
with the hub's cookie (after signing in at ``PREFIX/teacher``, which also shows the classroom's token to
paste into a notebook) or with a hub API token of theirs that has that scope (``Authorization: token
HUB_TOKEN``). ``docs/jupyterhub.md`` gives the hub's configuration.
"""

from __future__ import annotations

import html
import logging
import os
import secrets
from typing import Any, Optional
from urllib.parse import urlparse

import tornado.web

__all__ = ["service_prefix", "service_address", "hub_oauth_available", "hub_routes", "hub_teacher"]

log = logging.getLogger("qardlab.classroom")


def service_prefix(base_url: Optional[str] = None) -> str:
    """The prefix of every route: ``base_url`` (``--base-url``), else ``$JUPYTERHUB_SERVICE_PREFIX`` (a hub
    managed service's), else ``/``; always with one leading and one trailing slash. ValueError for a prefix
    with a query, a host or characters a path does not hold."""
    given = base_url if base_url is not None else os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/")
    text = given.strip()
    parts = urlparse(text)
    if parts.scheme or parts.netloc or parts.query or parts.fragment or not text.isprintable() or " " in text:
        raise ValueError(f"the base URL is a path such as /services/qardlab/, not {given!r}")
    path = "/" + "/".join(p for p in text.split("/") if p)
    return path if path == "/" else path + "/"


def service_address() -> Optional[tuple[str, int]]:
    """(host, port) of ``$JUPYTERHUB_SERVICE_URL`` (where a hub managed service is to listen), or None."""
    url = os.environ.get("JUPYTERHUB_SERVICE_URL")
    if not url:
        return None
    parts = urlparse(url)
    if not parts.hostname or parts.port is None:
        raise ValueError(f"JUPYTERHUB_SERVICE_URL {url!r} names no host and port")
    return parts.hostname, parts.port


def hub_oauth_available() -> bool:
    """Whether this process runs as a hub service (``$JUPYTERHUB_API_TOKEN`` and ``$JUPYTERHUB_API_URL``) with
    JupyterHub's OAuth helpers installed (the ``hub`` extra)."""
    if not (os.environ.get("JUPYTERHUB_API_TOKEN") and os.environ.get("JUPYTERHUB_API_URL")):
        return False
    try:
        import jupyterhub.services.auth  # noqa: F401
    except ImportError:
        log.warning(
            "running as a JupyterHub service without the jupyterhub package: the teacher cannot sign in "
            "through the hub (pip install qardlab[hub]); the teacher's token works as ever"
        )
        return False
    return True


def _mixin() -> Any:
    from jupyterhub.services.auth import HubOAuthenticated

    return HubOAuthenticated


async def hub_teacher(handler: tornado.web.RequestHandler) -> Optional[str]:
    """The name of the hub user (or service) behind ``handler``'s request whom the hub lets use this service
    (the hub's cookie, or a hub token in ``Authorization``), or None. Asks the hub (its answer is cached)."""
    auth = handler.settings.get("hub_auth")
    if auth is None:
        return None
    try:
        model = await auth.get_user(handler, sync=False)
    except Exception as e:  # noqa: BLE001 - the hub unreachable: the teacher's token still works
        log.warning("could not ask the hub who the teacher is: %s", e)
        return None
    if not model:
        return None
    scopes = auth.access_scopes
    if scopes and not auth.check_scopes(scopes, model):
        return None
    return str(model.get("name"))


def hub_routes(prefix: str, classroom: Any) -> tuple[list[Any], dict[str, Any]]:
    """The routes and application settings of the hub's sign-in: ``PREFIX/oauth_callback`` (JupyterHub's
    own handler) and ``PREFIX/teacher`` (sign in through the hub; the page names the classroom's token)."""
    from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler

    auth = HubOAuth(cache_max_age=60)
    page = type("TeacherPage", (_mixin(), _TeacherPage), {})
    routes = [
        (prefix + "oauth_callback", HubOAuthCallbackHandler),
        (prefix + "teacher", page, {"classroom": classroom, "prefix": prefix}),
    ]
    settings = {"hub_auth": auth, "cookie_secret": secrets.token_bytes(32), "hub_prefix": prefix}
    return routes, settings


class _TeacherPage(tornado.web.RequestHandler):
    """``PREFIX/teacher``: sign in through the hub (a redirect to the hub's login when not signed in); a hub
    user the hub lets use this service sees the classroom's token and how to use it."""

    def initialize(self, classroom: Any, prefix: str) -> None:
        self.classroom, self.prefix = classroom, prefix

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")

    @tornado.web.authenticated
    def get(self) -> None:
        user = self.current_user  # (HubOAuthenticated: a user the hub lets use this service)
        name = html.escape(str(user.get("name")))
        token = html.escape(self.classroom.token)
        host = self.request.host
        base = html.escape(f"{self.request.protocol}://{host}{self.prefix}".rstrip("/"))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(
            "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>qardlab: the teacher</title>"
            "</head><body style='font-family: sans-serif; max-width: 44em; margin: 2em auto'>"
            f"<h1>Signed in through JupyterHub as {name}</h1>"
            f"<p class='qard-hub-teacher'>You are this classroom server's teacher. Its address: "
            f"<code>{base}</code>. Its teacher token, for a notebook:</p>"
            f"<p><code class='qard-hub-token'>{token}</code></p>"
            "<p>Save it in <code>classroom-token.txt</code> beside the teacher's notebook (never in a cell), "
            "or call the server with a hub token of yours that may use this service. This browser may also "
            f"call the API as the teacher: <a href='{base}/api/tables'>the tables</a>.</p></body></html>"
        )

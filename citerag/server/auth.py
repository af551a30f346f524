"""Bearer-token access: a token file maps tokens to users and groups; an ASGI middleware
rejects every request without a known token, except a few public paths.

The token file's format and the lookups are :mod:`citerag.core.identity` (shared with the
Agent Server's auth). Token file (JSON, or TOML with ``[[users]]`` tables)::

    {"users": [
        {"user": "alice", "token": "<at least 16 characters>", "groups": []},
        {"user": "bob", "token_sha256": "<hex sha256 of the token>", "groups": ["board"]},
        {"user": "ops", "token": "...", "groups": [], "admin": true}
    ]}

``token_sha256`` lets the file hold only hashes. Keys starting with ``_`` are comments. The
file is re-read when it changes (revoking a token needs no restart); a broken edit is logged
and the previous tokens stay in force.

The groups a request may read come **only** from its token: the middleware stores the
:class:`Identity` in the ASGI scope, and the ``/rag`` routes copy its groups into the graph
input server-side.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

# Identity, LABEL_RE and TokenStore are the server's names too (routes and deps import them here)
from citerag.core.identity import LABEL_RE as LABEL_RE
from citerag.core.identity import Identity as Identity
from citerag.core.identity import TokenStore as TokenStore

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Cookie the playground login sets (only honoured under ``/rag/``).
PLAYGROUND_COOKIE = "citerag_playground"
#: Cookie the viewer page's sign-in sets (only honoured on the paths the app lists for it:
#: ``/rag/invoke`` and the viewer's document API).
VIEWER_COOKIE = "citerag_viewer"
#: Header the web app sends with every request that changes something (any value): a
#: cookie-authenticated POST or DELETE without it is refused (see :class:`AuthMiddleware`).
CSRF_HEADER = "X-Citerag-Page"
#: ``scope["state"]`` key holding the authenticated :class:`Identity`.
IDENTITY_KEY = "citerag_identity"


def bearer_token(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """Extract the token of an ``Authorization: Bearer <token>`` header, if any."""
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return None
    return None


def _path_matches(path: str, pattern: str) -> bool:
    """``pattern`` ending in ``/`` is a prefix (``/app/api/``); any other is the path itself
    (``/rag/stream`` accepts ``/rag/stream``, not ``/rag/stream_events``)."""
    return path.startswith(pattern) if pattern.endswith("/") else path == pattern


def cookie_value(headers: Iterable[tuple[bytes, bytes]], name: str) -> str | None:
    """Return a cookie's value from the request headers, if present."""
    for key, value in headers:
        if key.lower() != b"cookie":
            continue
        for part in value.decode("latin-1").split(";"):
            k, _, v = part.strip().partition("=")
            if k == name and v:
                return v
    return None


def identity_of(scope: Scope) -> Identity | None:
    """The identity the middleware stored for this request (``None`` on public paths)."""
    state = scope.get("state") or {}
    ident = state.get(IDENTITY_KEY)
    return ident if isinstance(ident, Identity) else None


class AuthMiddleware:
    """Reject requests without a known bearer token with 401, except on public paths."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        tokens: TokenStore,
        public_paths: Iterable[str] = ("/health", "/ready"),
        public_prefixes: Iterable[str] = (),
        cookie_prefix: str | None = None,
        cookies: Iterable[tuple[str, Iterable[str]]] = (),
        csrf_cookies: Iterable[str] = (),
    ) -> None:
        """Wrap an ASGI app.

        A request without an ``Authorization`` header may authenticate with a cookie, but
        only on the paths that cookie is listed for (all such cookies are set HttpOnly and
        ``SameSite=Strict`` by their login routes, so other sites cannot send them).

        Args:
            app: The application.
            tokens: Where tokens are looked up.
            public_paths: Exact paths served without a token.
            public_prefixes: Path prefixes served without a token.
            cookie_prefix: Paths under this prefix also accept the playground cookie
                (``None``: the cookie is never accepted).
            cookies: ``(cookie name, path prefixes)`` pairs: further cookies holding a token
                and the path prefixes where each is accepted.
            csrf_cookies: Cookies that authenticate a request other than GET/HEAD only with
                the :data:`CSRF_HEADER` header (which a page of another site cannot send
                without a CORS preflight this server never allows): a second guard
                besides ``SameSite=Strict``.
        """
        self.csrf_cookies = frozenset(csrf_cookies)
        self.app = app
        self.tokens = tokens
        self.public_paths = frozenset(public_paths)
        self.public_prefixes = tuple(public_prefixes)
        self.cookie_prefix = cookie_prefix
        self.cookies: list[tuple[str, tuple[str, ...]]] = [
            (name, tuple(prefixes)) for name, prefixes in cookies
        ]
        if cookie_prefix:
            self.cookies.insert(0, (PLAYGROUND_COOKIE, (cookie_prefix,)))

    def _cookie_token(
        self, path: str, headers: Iterable[tuple[bytes, bytes]]
    ) -> tuple[str, str] | None:
        """The name and token of the first cookie accepted on this path that the request
        carries."""
        for name, prefixes in self.cookies:
            if any(_path_matches(path, p) for p in prefixes):
                token = cookie_value(headers, name)
                if token:
                    return name, token
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Authenticate HTTP requests; pass everything else through."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if path in self.public_paths or path.startswith(self.public_prefixes):
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers") or []
        token = bearer_token(headers)
        if token is None:
            by_cookie = self._cookie_token(path, headers)
            if by_cookie is not None:
                name, token = by_cookie
                unsafe = scope.get("method", "GET") not in ("GET", "HEAD", "OPTIONS")
                if unsafe and name in self.csrf_cookies and not _has_header(headers, CSRF_HEADER):
                    await _send_json(
                        send,
                        403,
                        f"requests signed in by cookie must send the {CSRF_HEADER} header",
                    )
                    return
        identity = self.tokens.lookup(token)
        if identity is None:
            detail = "missing bearer token" if token is None else "unknown or revoked token"
            await _send_401(scope, send, detail)
            return
        scope.setdefault("state", {})[IDENTITY_KEY] = identity
        await self.app(scope, receive, send)


def _has_header(headers: Iterable[tuple[bytes, bytes]], name: str) -> bool:
    want = name.lower().encode("latin-1")
    return any(key.lower() == want and value for key, value in headers)


async def _send_json(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _send_401(scope: Scope, send: Send, detail: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"detail": f"{detail}: send 'Authorization: Bearer <token>'"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"www-authenticate", b'Bearer realm="citerag"'),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})

"""Bearer-token access: a token file maps tokens to users and groups; an ASGI middleware
rejects every request without a known token, except a few public paths.

Token file (JSON, or TOML with ``[[users]]`` tables)::

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

import hashlib
import json
import logging
import os
import re
import threading
import time
import tomllib
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Shortest plain-text token accepted in a token file.
MIN_TOKEN_CHARS = 16
#: Group/label names: what an access label may look like.
LABEL_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
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


@dataclass(frozen=True)
class Identity:
    """Who is calling, as the token file says.

    Attributes:
        user: User name (recorded as the uploader of documents).
        groups: Access labels this user may read besides ``public``.
        admin: May see and delete every uploaded document.
    """

    user: str
    groups: tuple[str, ...] = ()
    admin: bool = False

    def can_read(self, label: str) -> bool:
        """Whether a document with this access label is visible to the user."""
        return label == "public" or label in self.groups


def hash_token(token: str) -> str:
    """Return the hex sha256 of a token (what ``token_sha256`` holds)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _parse_tokens(raw: Any, path: Path) -> dict[str, Identity]:
    if not isinstance(raw, dict) or not isinstance(raw.get("users"), list):
        raise ValueError(f"{path}: expected an object with a 'users' list")
    extra = [k for k in raw if k != "users" and not k.startswith("_")]
    if extra:
        raise ValueError(f"{path}: unknown top-level keys {extra}")
    out: dict[str, Identity] = {}
    for i, entry in enumerate(raw["users"]):
        where = f"{path}: users[{i}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where} must be an object")
        unknown = [
            k
            for k in entry
            if k not in ("user", "token", "token_sha256", "groups", "admin")
            and not k.startswith("_")
        ]
        if unknown:
            raise ValueError(f"{where}: unknown keys {unknown}")
        user = entry.get("user")
        if not isinstance(user, str) or not user.strip():
            raise ValueError(f"{where}: 'user' must be a non-empty string")
        groups = entry.get("groups", [])
        if not isinstance(groups, list) or not all(
            isinstance(g, str) and LABEL_RE.match(g) for g in groups
        ):
            raise ValueError(
                f"{where}: 'groups' must be a list of label names ({LABEL_RE.pattern})"
            )
        admin = entry.get("admin", False)
        if not isinstance(admin, bool):
            raise ValueError(f"{where}: 'admin' must be true or false")
        token, digest = entry.get("token"), entry.get("token_sha256")
        if (token is None) == (digest is None):
            raise ValueError(f"{where}: give exactly one of 'token' and 'token_sha256'")
        if token is not None:
            if not isinstance(token, str) or len(token) < MIN_TOKEN_CHARS or token != token.strip():
                raise ValueError(
                    f"{where}: 'token' must be a string of at least {MIN_TOKEN_CHARS} characters "
                    "without surrounding spaces"
                )
            digest = hash_token(token)
        if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest.lower()):
            raise ValueError(f"{where}: 'token_sha256' must be 64 hex digits")
        digest = digest.lower()
        if digest in out:
            raise ValueError(f"{where}: the same token is listed twice")
        out[digest] = Identity(user.strip(), tuple(dict.fromkeys(groups)), admin)
    return out


def read_token_file(path: Path) -> dict[str, Identity]:
    """Read a token file.

    Args:
        path: JSON (``.json``) or TOML (``.toml``) token file.

    Returns:
        Token sha256 -> identity.

    Raises:
        FileNotFoundError: The file does not exist.
        ValueError: The file is malformed.
    """
    text = path.read_text(encoding="utf-8")
    try:
        raw = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: cannot parse token file: {exc}") from None
    return _parse_tokens(raw, path)


class TokenStore:
    """Token -> identity lookups from a token file, re-read when the file changes."""

    #: Seconds between checks of the file's modification time.
    CHECK_INTERVAL = 1.0

    def __init__(self, path: Path) -> None:
        """Load the file.

        Args:
            path: The token file.

        Raises:
            FileNotFoundError: The file does not exist.
            ValueError: The file is malformed.
        """
        self.path = path
        self._lock = threading.Lock()
        self._stamp = self._file_stamp()
        self._tokens = read_token_file(path)
        self._checked = time.monotonic()
        if not self._tokens:
            log.warning("token file %s lists no users: every request will get 401", path)

    def _file_stamp(self) -> tuple[int, int, int]:
        st = os.stat(self.path)
        return st.st_mtime_ns, st.st_size, st.st_ino

    def _maybe_reload(self) -> None:
        now = time.monotonic()
        if now - self._checked < self.CHECK_INTERVAL:
            return
        with self._lock:
            if now - self._checked < self.CHECK_INTERVAL:
                return
            self._checked = now
            try:
                stamp = self._file_stamp()
                if stamp == self._stamp:
                    return
                tokens = read_token_file(self.path)
            except (OSError, ValueError) as exc:
                log.error(
                    "token file %s not reloaded, keeping the previous tokens: %s", self.path, exc
                )
                return
            self._tokens, self._stamp = tokens, stamp
            log.info("token file %s reloaded: %d users", self.path, len(tokens))

    def lookup(self, token: str | None) -> Identity | None:
        """Return the identity for a token, or ``None`` if the token is unknown."""
        if not token:
            return None
        self._maybe_reload()
        return self._tokens.get(hash_token(token))

    def __len__(self) -> int:
        return len(self._tokens)


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

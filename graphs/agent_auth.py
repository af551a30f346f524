"""Authentication and authorization for the LangGraph Agent Server (``langgraph dev``).

``langgraph.json`` points its ``auth`` at :data:`auth`. The token file is the one
``citerag serve`` reads (``$CITERAG_TOKENS``; format in :mod:`citerag.core.identity`, loaded with
its :class:`~citerag.core.identity.TokenStore`, re-read when it changes):

* **authenticate** — ``Authorization: Bearer <token>`` must name a user of the token file, else
  401. The user's identity is the file's ``user`` and its ``groups`` travel with it; the graph
  reads groups from the authenticated user only (``config["configurable"]
  ["langgraph_auth_user"]``, see :func:`graphs.server_graph.auth_groups`), never from the
  input or from ``configurable``.
* **threads** (and runs on them, and crons) — owned by their creator: creating one stamps
  ``metadata.owner`` with the caller's identity (overwriting any owner the client sent), and
  every read, search, update, delete or run is filtered on it, so another user's thread is a
  404.
* **assistants** — the graph's assistants may be read and searched; creating, changing or
  deleting one is refused (403): an assistant's config would otherwise let a client choose the
  answering model or lower the gate.
* **store** — only namespaces starting with the caller's identity.

Studio's own authentication ("x-auth-scheme: langsmith", which ``langgraph dev`` would accept
without a token) is disabled in ``langgraph.json`` (``"disable_studio_auth": true``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from pathlib import Path
from typing import Any

from langgraph_sdk import Auth

from citerag.core.identity import Identity, TokenStore

log = logging.getLogger(__name__)

#: Environment variable naming the token file (the same as ``citerag serve``).
TOKENS_ENV = "CITERAG_TOKENS"
#: Thread metadata key holding the creator's identity.
OWNER_KEY = "owner"

auth = Auth()

_store: TokenStore | None = None
_store_lock = threading.Lock()


def token_store() -> TokenStore:
    """The token file's store, loaded once (blocking file I/O: call it off the event loop).

    Raises:
        RuntimeError: ``$CITERAG_TOKENS`` is not set.
        FileNotFoundError: The file does not exist.
        ValueError: The file is malformed.
    """
    global _store
    with _store_lock:
        if _store is None:
            path = os.environ.get(TOKENS_ENV)
            if not path:
                raise RuntimeError(f"set {TOKENS_ENV} to the token file (see citerag serve)")
            _store = TokenStore(Path(path))
        return _store


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header value, if any."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def user_dict(identity: Identity) -> dict[str, Any]:
    """What the server keeps as the authenticated user (``langgraph_auth_user``)."""
    return {
        "identity": identity.user,
        "display_name": identity.user,
        "is_authenticated": True,
        "groups": list(identity.groups),
        "permissions": [],
    }


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    """Map a bearer token of the token file to its user and groups (else 401)."""
    token = bearer(authorization)
    if token is None:
        raise Auth.exceptions.HTTPException(
            status_code=401, detail="missing bearer token: send 'Authorization: Bearer <token>'"
        )
    try:
        identity = await asyncio.to_thread(token_store().lookup, token)
    except (OSError, RuntimeError, ValueError) as exc:
        log.error("token file unusable: %s", exc)
        raise Auth.exceptions.HTTPException(
            status_code=401, detail="authentication is not configured"
        ) from None
    if identity is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown or revoked token")
    return user_dict(identity)  # type: ignore[return-value]


def _stamp_owner(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    owner = {OWNER_KEY: ctx.user.identity}
    if isinstance(value, dict):
        metadata = value.get("metadata")
        if not isinstance(metadata, dict):
            metadata = {}
            value["metadata"] = metadata
        metadata.update(owner)
    return owner


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType:
    """Threads, runs and crons: stamp the creator as owner and filter every access on it."""
    return _stamp_owner(ctx, value)


@auth.on.assistants
async def assistants_read_only(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """The graph's assistants may be read and searched, never created, changed or deleted."""
    if ctx.action in ("read", "search"):
        return True
    raise Auth.exceptions.HTTPException(status_code=403, detail="assistants are read-only")


@auth.on.store()
async def own_namespace(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Store items only under the caller's own namespace."""
    namespace = tuple(value.get("namespace") or ()) if isinstance(value, dict) else ()
    if not namespace or namespace[0] != ctx.user.identity:
        raise Auth.exceptions.HTTPException(
            status_code=403, detail="store namespaces must start with your identity"
        )
    return True

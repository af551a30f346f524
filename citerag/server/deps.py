"""What route handlers share: the server's objects on ``app.state`` and ``Depends`` getters.

:func:`attach` stores the settings, engine, document registry, index worker and token store
on the application once (:func:`citerag.server.app.create_app` does it); handlers declare
what they need with the ``Annotated`` aliases below, e.g.::

    @router.get("/documents")
    def list_documents(who: Caller, registry: Registry) -> dict[str, Any]: ...

The getters are plain functions of the request, so code that LangServe calls with a
request (the per-request config modifier) can use them directly.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.security import HTTPBearer

from citerag.server.auth import Identity, TokenStore, identity_of
from citerag.server.engine import Engine, Snapshot
from citerag.server.settings import ServerSettings
from citerag.server.worker import IndexWorker
from citerag.stores.registry import Registry as AnyRegistry

#: The bearer scheme as OpenAPI shows it (the :class:`~citerag.server.auth.AuthMiddleware`
#: does the checking); routers that need a token list ``Security(bearer)``.
bearer = HTTPBearer(auto_error=False, description="A token from the server's token file.")


def attach(
    app: FastAPI,
    *,
    settings: ServerSettings,
    engine: Engine,
    registry: AnyRegistry,
    worker: IndexWorker,
    tokens: TokenStore,
) -> None:
    """Store the server's shared objects on ``app.state``.

    Args:
        app: The application.
        settings: Validated settings.
        engine: Holds the served graph and index snapshot.
        registry: Uploaded documents and their status.
        worker: The single index writer.
        tokens: Bearer token lookups.
    """
    app.state.settings = settings
    app.state.engine = engine
    app.state.registry = registry
    app.state.worker = worker
    app.state.tokens = tokens


def get_settings(request: Request) -> ServerSettings:
    """The server's settings."""
    settings: ServerSettings = request.app.state.settings
    return settings


def get_engine(request: Request) -> Engine:
    """The engine serving the current index build."""
    engine: Engine = request.app.state.engine
    return engine


def get_registry(request: Request) -> AnyRegistry:
    """The uploaded-document registry."""
    registry: AnyRegistry = request.app.state.registry
    return registry


def get_worker(request: Request) -> IndexWorker:
    """The background index writer."""
    worker: IndexWorker = request.app.state.worker
    return worker


def get_tokens(request: Request) -> TokenStore:
    """The token store."""
    tokens: TokenStore = request.app.state.tokens
    return tokens


def current_identity(request: Request) -> Identity:
    """Who is calling, as the auth middleware established from the bearer token.

    Raises:
        HTTPException: 401 if there is no identity (the middleware answers 401 first on
            protected routes, so this only guards against wiring mistakes).
    """
    who = identity_of(request.scope)
    if who is None:
        raise HTTPException(401, "missing bearer token", headers={"WWW-Authenticate": "Bearer"})
    return who


def current_snapshot(request: Request) -> Snapshot:
    """The index build being served.

    Raises:
        HTTPException: 503 with ``Retry-After`` while no index is loaded.
    """
    engine = get_engine(request)
    snap = engine.current()
    if snap is None:
        raise HTTPException(
            503, f"no index loaded yet ({engine.state})", headers={"Retry-After": "2"}
        )
    return snap


Settings = Annotated[ServerSettings, Depends(get_settings)]
EngineDep = Annotated[Engine, Depends(get_engine)]
Registry = Annotated[AnyRegistry, Depends(get_registry)]
Worker = Annotated[IndexWorker, Depends(get_worker)]
Tokens = Annotated[TokenStore, Depends(get_tokens)]
Caller = Annotated[Identity, Depends(current_identity)]
CurrentSnapshot = Annotated[Snapshot, Depends(current_snapshot)]

"""The FastAPI application: LangServe routes for the graph, a documents API, health probes.

Routes (one router module each, under :mod:`citerag.server.routes`):

* ``/rag/invoke``, ``/rag/batch``, ``/rag/stream``, ``/rag/stream_events``,
  ``/rag/stream_log``, ``/rag/input_schema``, ``/rag/output_schema``,
  ``/rag/config_schema`` (LangServe); ``/rag/playground/`` and ``/playground/login`` when
  enabled (:mod:`~citerag.server.routes.rag`).
* ``POST /documents`` (multipart, field ``file``, optional ``access``) -> 202 with an id;
  ``GET /documents``, ``GET /documents/{id}``, ``DELETE /documents/{id}`` -> 202
  (:mod:`~citerag.server.routes.documents`).
* ``GET /index/documents``: every document of the served build the caller may see (CLI
  ingests and uploads), with status and counts (:mod:`~citerag.server.routes.index`).
* ``/health`` (process up) and ``/ready`` (index loaded): public
  (:mod:`~citerag.server.routes.probes`).
* ``/app/``: the web app (public) and its document API under ``/app/api/``
  (token or the viewer's cookie) (:mod:`~citerag.server.routes.viewer`); the cookie is
  also accepted on ``/documents``, ``/index/documents`` and the feedback route, so the page
  uploads, lists and deletes under the same rules as the API.
* ``/``: browsers are redirected to ``/app/``, API clients get JSON (public,
  :mod:`~citerag.server.routes.home`).
* ``/app/api/conversation``: each user's conversation in the page, kept server-side
  (:mod:`~citerag.server.routes.conversation`).
* ``POST /app/api/feedback``, ``GET /feedback``, ``GET /feedback/export`` (admin):
  votes on answers (:mod:`~citerag.server.routes.feedback`).
* ``GET /metrics`` (admin): Prometheus metrics (:mod:`~citerag.server.routes.operators`,
  :mod:`citerag.server.observe`).

Every other path needs ``Authorization: Bearer <token>`` (see :mod:`citerag.server.auth`).
JSON bodies are checked strictly before any handler reads them
(:mod:`citerag.server.hardening`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import FastAPI

import citerag
from citerag.embeddings import EmbeddingModel
from citerag.server import deps
from citerag.server.auth import VIEWER_COOKIE, AuthMiddleware, TokenStore
from citerag.server.conversations import CONVERSATIONS_FILE, ConversationStore
from citerag.server.engine import Engine
from citerag.server.feedback import open_feedback_store
from citerag.server.hardening import StrictJSONMiddleware
from citerag.server.observe import MetricsMiddleware, Observer, tracer_provider_from_env
from citerag.server.routes import (
    conversation,
    documents,
    feedback,
    home,
    index,
    operators,
    probes,
    rag,
    viewer,
)
from citerag.server.runnable import question_model
from citerag.server.settings import SETTINGS_JSON_ENV, ServerSettings, settings_from_json
from citerag.server.worker import IndexWorker, worker_for
from citerag.stores.dispatch import backend_for
from citerag.stores.registry import Registry

log = logging.getLogger(__name__)

_DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/openapi.json", "/redoc")


def _cancel_generations_on_exit() -> None:
    """Chain SIGTERM/SIGINT to :func:`chains.watchdog.cancel_generations`, so requests
    waiting on a stalled model (answer, follow-up rewrite or support judge) end ``failed`` at
    once when the server is told to stop, and later model calls of an open request fail at
    once too (uvicorn waits for open requests before it exits). Only in the main thread, where
    uvicorn installed its own handlers; a server run in a thread (tests) keeps them."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    from chains.watchdog import cancel_generations

    for sig in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue

        def handler(signum: int, frame: Any, previous: Any = previous) -> None:
            woken = cancel_generations("the server is shutting down", lasting=True)
            if woken:
                log.info("shutting down: %d answer(s) waiting on the model abandoned", woken)
            previous(signum, frame)

        signal.signal(sig, handler)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the index worker (which loads the model and the index); stop it on shutdown."""
    from citerag.stores.location import describe

    worker: IndexWorker = app.state.worker
    settings: ServerSettings = app.state.settings
    _cancel_generations_on_exit()
    worker.start()
    log.info(
        "citerag server (pid %d): index %s, data %s, %d token(s)",
        os.getpid(),
        describe(settings.location),
        settings.data_dir,
        len(app.state.tokens),
    )
    try:
        yield
    finally:
        await anyio.to_thread.run_sync(worker.stop)
        app.state.engine.close()
        app.state.registry.close()
        app.state.feedback.close()
        app.state.conversations.close()


def _open_tokens(settings: ServerSettings) -> TokenStore:
    if settings.tokens_file is None:
        raise ValueError(
            "no token file configured: set [paths] tokens in the config file, $CITERAG_TOKENS "
            "or --tokens (see examples/tokens.json)"
        )
    if not settings.tokens_file.is_file():
        raise FileNotFoundError(f"token file not found: {settings.tokens_file}")
    return TokenStore(settings.tokens_file)


def create_app(
    settings: ServerSettings,
    *,
    embedding_model: EmbeddingModel | None = None,
    warmup: bool = True,
    watch_interval: float | None = None,
    tracer_provider: Any | None = None,
) -> FastAPI:
    """Build the application (the model and index load in the background on startup).

    Args:
        settings: Validated settings.
        embedding_model: An already loaded embedding model to reuse (tests).
        warmup: Run one query through each new graph before serving it.
        watch_interval: Seconds between checks for index builds published by others
            (``None``: ``settings.watch_interval``).
        tracer_provider: An OpenTelemetry tracer provider for per-node spans (``None``: as
            ``$CITERAG_OTEL_EXPORTER`` says, off by default; see :mod:`citerag.server.observe`).

    Returns:
        The FastAPI app; run it with uvicorn. With an index directory, one of any number of
        processes sharing the index and the data directory, one of which writes (see
        :class:`~citerag.server.worker.IndexWorker`, coordinated); with
        ``settings.read_only`` any number of processes answering from its published build;
        with a PostgreSQL store (``settings.store``) any number of processes, on any
        machines.

    Raises:
        ValueError: No token file is configured, or it or the registry is malformed.
        FileNotFoundError: The token file does not exist.
        psycopg.OperationalError: The PostgreSQL store cannot be reached.
    """
    tokens = _open_tokens(settings)
    if watch_interval is None:
        watch_interval = settings.watch_interval
    backend = backend_for(settings.location)
    registry: Registry = backend.registry(settings.data_dir, read_only=settings.read_only)
    engine = Engine(
        settings.location,
        embedding_model=settings.embedding_model,
        model=embedding_model,
        warmup=warmup,
    )
    worker: IndexWorker = worker_for(
        engine, registry, backend, read_only=settings.read_only, watch_interval=watch_interval
    )

    app = FastAPI(
        title="citerag",
        version=citerag.__version__,
        description="Answers with citations, or 'no evidence'. Send `Authorization: Bearer "
        "<token>` on every route except /health and /ready.",
        lifespan=_lifespan,
        docs_url="/docs",
        redoc_url="/redoc",
    )
    deps.attach(
        app, settings=settings, engine=engine, registry=registry, worker=worker, tokens=tokens
    )
    observer = Observer(tracer_provider or tracer_provider_from_env())
    app.state.observer = observer
    worker.on_ingest = observer.ingest
    app.state.feedback = open_feedback_store(settings.data_dir, settings.store)
    app.state.conversations = ConversationStore(settings.data_dir / CONVERSATIONS_FILE)

    app.include_router(home.router)
    app.include_router(probes.router)
    app.include_router(documents.router)
    app.include_router(index.router)
    app.include_router(rag.rag_router(engine, settings, observe=observer.answer))
    app.include_router(feedback.router)
    app.include_router(conversation.router)
    app.include_router(operators.router)
    if settings.playground:
        app.include_router(rag.playground_router)
    app.include_router(viewer.viewer_router())

    # Middleware added last runs first: authentication, then the strict JSON check, so an
    # unauthenticated request is refused before its body is read.
    app.add_middleware(
        StrictJSONMiddleware,
        max_body_bytes=settings.max_request_bytes,
        max_batch=settings.max_batch,
        langserve_prefix=rag.RAG_PATH,
        input_model=question_model(settings.max_question_chars),
    )
    public_paths = [
        "/",
        "/health",
        "/ready",
        *viewer.PUBLIC_PATHS,
        *(_DOCS_PATHS if settings.public_docs else []),
    ]
    public_prefixes = [*viewer.PUBLIC_PREFIXES]
    if settings.playground:
        public_prefixes.append(f"{rag.RAG_PATH}/playground/")
    if settings.playground:
        public_paths.append("/playground/login")
    app.add_middleware(
        AuthMiddleware,
        tokens=tokens,
        public_paths=public_paths,
        public_prefixes=public_prefixes,
        cookie_prefix=f"{rag.RAG_PATH}/" if settings.playground else None,
        cookies=[(VIEWER_COOKIE, viewer.COOKIE_PATHS)],
        csrf_cookies=[VIEWER_COOKIE],
    )
    app.add_middleware(MetricsMiddleware, observer=observer)
    return app


def app_from_env() -> FastAPI:
    """The app factory uvicorn's worker processes call (``citerag serve --workers N``).

    The parent puts its validated settings in ``$CITERAG_SERVER_SETTINGS_JSON``
    (:func:`~citerag.server.settings.settings_to_json`), so every worker serves exactly
    what the parent was configured with, whatever the config file, environment and flags.

    Raises:
        RuntimeError: The variable is not set.
    """
    raw = os.environ.get(SETTINGS_JSON_ENV)
    if not raw:
        raise RuntimeError(f"${SETTINGS_JSON_ENV} is not set (citerag serve --workers sets it)")
    settings = settings_from_json(raw)
    level = getattr(logging, settings.log_level.upper(), logging.INFO)
    for name in ("citerag", "graphs", "chains", "loaders"):
        logging.getLogger(name).setLevel(level)
    return create_app(settings)

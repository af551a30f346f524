"""The FastAPI application: LangServe routes for the graph, a documents API, health probes.

Routes:

* ``/rag/invoke``, ``/rag/batch``, ``/rag/stream``, ``/rag/stream_events``,
  ``/rag/stream_log``, ``/rag/input_schema``, ``/rag/output_schema``,
  ``/rag/config_schema`` (LangServe); ``/rag/playground/`` when enabled.
* ``POST /documents`` (multipart, field ``file``, optional ``access``) -> 202 with an id;
  ``GET /documents``, ``GET /documents/{id}``, ``DELETE /documents/{id}`` -> 202.
* ``GET /index/documents``: every document of the served build the caller may see (CLI
  ingests and uploads), with status and counts.
* ``/health`` (process up) and ``/ready`` (index loaded): public.

Every other path needs ``Authorization: Bearer <token>`` (see :mod:`citerag.server.auth`).
"""

from __future__ import annotations

import html
import logging
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import APIRouter, FastAPI, HTTPException, Request, Security
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.security import HTTPBearer
from langserve import add_routes
from langserve.server import EndpointName

import citerag
from citerag.embeddings import EmbeddingModel
from citerag.server.auth import (
    LABEL_RE,
    PLAYGROUND_COOKIE,
    AuthMiddleware,
    Identity,
    TokenStore,
    identity_of,
)
from citerag.server.documents import (
    ID_RE,
    UPLOADS_DIR,
    DocumentRegistry,
    make_record,
    may_delete,
    visible,
)
from citerag.server.engine import Engine
from citerag.server.runnable import (
    SERVER_GROUPS_KEY,
    SERVER_KEYS,
    SERVER_USER_KEY,
    ServerSerializer,
    build_served_runnable,
)
from citerag.server.settings import ServerSettings
from citerag.server.uploads import UploadError, receive_upload, stored_name
from citerag.server.worker import IndexWorker

log = logging.getLogger(__name__)

#: LangServe endpoints served under /rag (the playground is added when enabled).
RAG_ENDPOINTS: tuple[EndpointName, ...] = (
    "invoke",
    "batch",
    "stream",
    "stream_log",
    "stream_events",
    "input_schema",
    "output_schema",
    "config_schema",
)
#: Public explanations of not being ready (no server paths or error texts: see the log).
_NOT_READY = {
    "no_index": "no index has been built yet: upload a document or run `citerag ingest`",
    "error": "the index could not be loaded; see the server log",
}
_DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/openapi.json", "/redoc")
_bearer = HTTPBearer(auto_error=False, description="A token from the server's token file.")


def _who(request: Request) -> Identity:
    who = identity_of(request.scope)
    if who is None:  # the middleware guarantees this never happens on protected routes
        raise HTTPException(401, "missing bearer token", headers={"WWW-Authenticate": "Bearer"})
    return who


def create_app(
    settings: ServerSettings,
    *,
    embedding_model: EmbeddingModel | None = None,
    warmup: bool = True,
    watch_interval: float = 2.0,
) -> FastAPI:
    """Build the application (the model and index load in the background on startup).

    Args:
        settings: Validated settings.
        embedding_model: An already loaded embedding model to reuse (tests).
        warmup: Run one query through each new graph before serving it.
        watch_interval: Seconds between checks for index builds published by others.

    Returns:
        The FastAPI app; run it with uvicorn (one worker process: the index writer and the
        loaded graph live in the process).

    Raises:
        ValueError: No token file is configured, or it or the registry is malformed.
        FileNotFoundError: The token file does not exist.
    """
    if settings.tokens_file is None:
        raise ValueError(
            "no token file configured: set [paths] tokens in the config file, $CITERAG_TOKENS "
            "or --tokens (see examples/tokens.json)"
        )
    if not settings.tokens_file.is_file():
        raise FileNotFoundError(f"token file not found: {settings.tokens_file}")
    tokens = TokenStore(settings.tokens_file)
    registry = DocumentRegistry(settings.data_dir)
    engine = Engine(
        settings.index_dir,
        embedding_model=settings.embedding_model,
        model=embedding_model,
        warmup=warmup,
    )
    worker = IndexWorker(engine, registry, watch_interval=watch_interval)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        worker.start()
        log.info(
            "citerag server: index %s, data %s, %d token(s)",
            settings.index_dir,
            settings.data_dir,
            len(tokens),
        )
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(worker.stop)

    public_docs = settings.public_docs
    app = FastAPI(
        title="citerag",
        version=citerag.__version__,
        description="Answers with citations, or 'no evidence'. Send `Authorization: Bearer "
        "<token>` on every route except /health and /ready.",
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url="/redoc",
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.registry = registry
    app.state.worker = worker
    app.state.tokens = tokens

    # -- probes ----------------------------------------------------------------------------

    @app.get("/health", tags=["probes"])
    def health() -> dict[str, Any]:
        """The process is up (no authentication)."""
        return {"status": "ok", "version": citerag.__version__}

    @app.get("/ready", tags=["probes"])
    def ready() -> JSONResponse:
        """The index is loaded: build id and counts (no authentication, no names)."""
        snap = engine.current()
        uploads = {
            "pending": registry.count("pending"),
            "deleting": registry.count("deleting"),
            "indexing_now": worker.busy.is_set(),
        }
        if snap is None:
            return JSONResponse(
                {
                    "ready": False,
                    "state": engine.state,
                    "reason": _NOT_READY.get(engine.state, "loading"),
                    "uploads": uploads,
                },
                status_code=503,
                headers={"Retry-After": "2"},
            )
        return JSONResponse(
            {
                "ready": True,
                "manifest_id": snap.build_id,
                "loaded_at": snap.loaded_at,
                "embedding_model": engine.model.name,
                **snap.counts(),
                "uploads": uploads,
            }
        )

    # -- documents -------------------------------------------------------------------------

    docs_router = APIRouter(
        prefix="/documents", tags=["documents"], dependencies=[Security(_bearer)]
    )

    @docs_router.post("", status_code=202)
    async def upload_document(request: Request) -> Response:
        """Upload one file (multipart field ``file``; optional field ``access``).

        Answers 202 with the document; indexing runs in the background. Poll
        ``GET /documents/{id}`` until ``status`` is ``indexed`` or ``failed``.
        """
        who = _who(request)
        if registry.count("pending") >= settings.max_pending_uploads:
            return JSONResponse(
                {"detail": "too many uploads waiting to be indexed; retry later"},
                status_code=503,
                headers={"Retry-After": "10"},
            )
        try:
            up = await receive_upload(
                request.headers,
                request.stream(),
                tmp_dir=registry.incoming,
                max_bytes=settings.max_upload_bytes,
                allowed=settings.allowed_types,
            )
        except UploadError as exc:
            log.info("upload by %s refused (%d): %s", who.user, exc.status, exc.detail)
            return JSONResponse({"detail": exc.detail}, status_code=exc.status)
        try:
            access = up.fields.get("access") or "public"
            if not LABEL_RE.match(access):
                raise UploadError(422, f"invalid access label {access!r}")
            if not who.can_read(access):
                raise UploadError(
                    403,
                    f"you may only label uploads 'public' or with one of your "
                    f"groups {list(who.groups)}, not {access!r}",
                )
            doc_id = uuid.uuid4().hex
            stored = stored_name(up.name, up.suffix)
            folder = registry.uploads / doc_id
            folder.mkdir(parents=True)
            os.replace(up.path, folder / stored)
        except UploadError as exc:
            up.path.unlink(missing_ok=True)
            return JSONResponse({"detail": exc.detail}, status_code=exc.status)
        except BaseException:
            up.path.unlink(missing_ok=True)
            raise
        rec = make_record(doc_id, up.name, stored, access, up.size, up.sha256, who.user)
        registry.add(rec)
        worker.submit("add", doc_id)
        log.info(
            "upload %s (%s, %d bytes, access %s) by %s queued",
            doc_id,
            up.name,
            up.size,
            access,
            who.user,
        )
        return JSONResponse(
            rec.public(), status_code=202, headers={"Location": f"/documents/{doc_id}"}
        )

    @docs_router.get("")
    def list_documents(request: Request, status: str | None = None) -> dict[str, Any]:
        """Uploaded documents you may see (label public or one of your groups)."""
        who = _who(request)
        recs = [r for r in registry.all() if visible(r, who)]
        if status:
            recs = [r for r in recs if r.status == status]
        return {"documents": [r.public() for r in recs]}

    def _visible_record(request: Request, doc_id: str) -> tuple[Identity, Any]:
        who = _who(request)
        rec = registry.get(doc_id) if ID_RE.match(doc_id) else None
        if rec is None or not visible(rec, who):
            raise HTTPException(404, "no such document")
        return who, rec

    @docs_router.get("/{doc_id}")
    def get_document(request: Request, doc_id: str) -> dict[str, Any]:
        """One document's status: ``pending``, ``indexed``, ``failed`` or ``deleting``."""
        _, rec = _visible_record(request, doc_id)
        return rec.public()

    @docs_router.delete("/{doc_id}", status_code=202)
    def delete_document(request: Request, doc_id: str) -> JSONResponse:
        """Remove a document's chunks from every index (in the background).

        Answers 202 with status ``deleting``; once the new build is served the document is
        gone and ``GET /documents/{id}`` answers 404.
        """
        who, rec = _visible_record(request, doc_id)
        if not may_delete(rec, who):
            raise HTTPException(403, "only the uploader or an admin may delete this document")
        if rec.status != "deleting":
            rec = registry.update(doc_id, status="deleting", reason="")
        worker.submit("delete", doc_id)  # again if a previous attempt did not apply
        log.info("delete of %s requested by %s", doc_id, who.user)
        return JSONResponse(
            rec.public() if rec else {"id": doc_id, "status": "deleting"}, status_code=202
        )

    app.include_router(docs_router)

    # -- what the served index holds -------------------------------------------------------

    index_router = APIRouter(prefix="/index", tags=["index"], dependencies=[Security(_bearer)])

    @index_router.get("/documents")
    def index_documents(request: Request, status: str | None = None) -> JSONResponse:
        """Every document of the served build you may see, however it was ingested.

        Includes documents ingested with ``citerag ingest`` (``origin: ingest``) as well as
        uploads (``origin: upload``, with ``upload_id``), their status (``indexed`` or
        ``failed`` with a reason), chunk and page counts. Server paths are never returned.
        Only uploads can be deleted over HTTP (``DELETE /documents/{upload_id}``).
        """
        who = _who(request)
        snap = engine.current()
        if snap is None:
            raise HTTPException(
                503, f"no index loaded yet ({engine.state})", headers={"Retry-After": "2"}
            )
        docs = []
        for d in snap.manifest.to_json().get("documents", {}).values():
            access = str(d.get("access") or "public")
            if not who.can_read(access) or (status and d.get("status") != status):
                continue
            source = str(d.get("source") or "")
            parts = source.split("/")
            upload = len(parts) >= 3 and parts[0] == UPLOADS_DIR and ID_RE.match(parts[1])
            docs.append(
                {
                    "doc_id": d.get("doc_id"),
                    "doc_name": d.get("doc_name"),
                    "source": source,
                    "title": d.get("title"),
                    "file_type": d.get("file_type"),
                    "access": access,
                    "status": d.get("status"),
                    "reason": d.get("reason") or "",
                    "chunks": d.get("chunks"),
                    "pages": d.get("pages"),
                    "ingested_at": d.get("ingested_at"),
                    "origin": "upload" if upload else "ingest",
                    "upload_id": parts[1] if upload else None,
                }
            )
        docs.sort(key=lambda x: str(x["source"]))
        return JSONResponse({"manifest_id": snap.build_id, "documents": docs})

    app.include_router(index_router)

    # -- the graph (LangServe) -------------------------------------------------------------

    def per_request(config: dict[str, Any], request: Request) -> dict[str, Any]:
        """Put the token's groups into ``configurable``, overwriting anything a client sent."""
        who = _who(request)
        if engine.current() is None:
            raise HTTPException(
                503, f"no index loaded yet ({engine.state})", headers={"Retry-After": "2"}
            )
        conf = {
            k: v for k, v in dict(config.get("configurable") or {}).items() if k not in SERVER_KEYS
        }
        conf[SERVER_GROUPS_KEY] = list(who.groups)
        conf[SERVER_USER_KEY] = who.user
        return {**config, "configurable": conf}

    runnable = build_served_runnable(
        engine,
        max_question_chars=settings.max_question_chars,
        client_keys=settings.client_config_keys,
        server_defaults=settings.graph_defaults(),
    )
    endpoints: list[EndpointName] = list(RAG_ENDPOINTS)
    if settings.playground:
        endpoints.append("playground")
    rag_router = APIRouter(max_body_size=settings.max_request_bytes)
    add_routes(
        rag_router,
        runnable,
        path="/rag",
        per_req_config_modifier=per_request,
        enabled_endpoints=endpoints,
        enable_feedback_endpoint=False,
        enable_public_trace_link_endpoint=False,
        serializer=ServerSerializer(),
    )
    app.include_router(rag_router)

    if settings.playground:
        _add_playground_login(app, tokens, settings)

    public_paths = ["/health", "/ready", *(_DOCS_PATHS if public_docs else [])]
    public_prefixes = ["/rag/playground/"] if settings.playground else []
    if settings.playground:
        public_paths.append("/playground/login")
    app.add_middleware(
        AuthMiddleware,
        tokens=tokens,
        public_paths=public_paths,
        public_prefixes=public_prefixes,
        cookie_prefix="/rag/" if settings.playground else None,
    )
    return app


_LOGIN_FORM = """<!doctype html><html><head><meta charset="utf-8"><title>citerag playground
</title></head><body style="font-family:sans-serif;max-width:32em;margin:4em auto">
<h1>citerag playground</h1><p>{message}</p>
<form method="post" action="/playground/login">
<label>Token <input type="password" name="token" autocomplete="off" size="40"></label>
<button type="submit">Open the playground</button></form></body></html>"""


def _add_playground_login(app: FastAPI, tokens: TokenStore, settings: ServerSettings) -> None:
    """``/playground/login``: trade a token for an HttpOnly cookie valid under ``/rag/``.

    LangServe's playground cannot send an ``Authorization`` header; the cookie stands in
    for it on ``/rag/*`` only (``SameSite=Strict``, so other sites cannot use it).
    """

    @app.get("/playground/login", include_in_schema=False)
    def login_form() -> HTMLResponse:
        return HTMLResponse(_LOGIN_FORM.format(message="Enter your access token."))

    @app.post("/playground/login", include_in_schema=False, max_body_size=4096)
    async def login(request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=4, max_part_size=1024)
        token = str(form.get("token") or "").strip()
        who = tokens.lookup(token)
        if who is None:
            msg = html.escape("Unknown token. Try again.")
            return HTMLResponse(_LOGIN_FORM.format(message=msg), status_code=401)
        resp = RedirectResponse("/rag/playground/", status_code=303)
        resp.set_cookie(
            PLAYGROUND_COOKIE,
            token,
            max_age=8 * 3600,
            path="/rag/",
            httponly=True,
            samesite="strict",
            secure=settings.cookie_secure,
        )
        log.info("playground login by %s", who.user)
        return resp

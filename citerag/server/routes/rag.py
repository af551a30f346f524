"""The answering graph over HTTP: LangServe's ``/rag/*`` routes and the playground login.

``/rag/invoke``, ``/rag/batch``, ``/rag/stream``, ``/rag/stream_events``, ``/rag/stream_log``
and the schema routes come from LangServe's ``add_routes``; the per-request config modifier
copies the caller's groups from the bearer token into ``configurable`` (overwriting anything
a client sent there). ``/playground/login`` trades a token for the cookie LangServe's
playground authenticates with.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from langserve import add_routes
from langserve.server import EndpointName

from citerag.server.auth import PLAYGROUND_COOKIE
from citerag.server.deps import Settings, Tokens, current_identity, get_engine
from citerag.server.engine import Engine
from citerag.server.invoke import FastInvokeHandler
from citerag.server.runnable import (
    SERVER_GROUPS_KEY,
    SERVER_KEYS,
    SERVER_USER_KEY,
    CiteragAnswer,
    ServerSerializer,
    build_served_runnable,
)
from citerag.server.settings import ServerSettings
from graphs.config import knobs, unknown_keys_message

log = logging.getLogger(__name__)

#: Where the LangServe routes are mounted.
RAG_PATH = "/rag"
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


def per_request(config: dict[str, Any], request: Request) -> dict[str, Any]:
    """Put the token's groups into ``configurable``, overwriting anything a client sent.

    Args:
        config: The config LangServe assembled from the request (already validated).
        request: The HTTP request (its scope holds the caller's identity).

    Returns:
        The config the graph runs with.

    Raises:
        HTTPException: 401 without an identity; 503 while no index is loaded.
    """
    who = current_identity(request)
    engine = get_engine(request)
    if engine.current() is None:
        raise HTTPException(
            503, f"no index loaded yet ({engine.state})", headers={"Retry-After": "2"}
        )
    conf = {k: v for k, v in dict(config.get("configurable") or {}).items() if k not in SERVER_KEYS}
    conf[SERVER_GROUPS_KEY] = list(who.groups)
    conf[SERVER_USER_KEY] = who.user
    return {**config, "configurable": conf}


def refused_keys(body: Any, client_keys: Sequence[str]) -> str | None:
    """Why a request body's ``config.configurable`` cannot be run as sent, or ``None``.

    A key that is no knob (a typo such as ``kk``) or a knob clients may not set here (such as
    ``model``) would otherwise be dropped silently and the default answer returned.

    Args:
        body: The parsed JSON body (``config`` may be one mapping or, for ``/batch``, a list).
        client_keys: The knobs clients may set on this server.
    """
    if not isinstance(body, dict):
        return None
    configs = body.get("config")
    for config in configs if isinstance(configs, list) else [configs]:
        conf = config.get("configurable") if isinstance(config, dict) else None
        if not isinstance(conf, dict):
            continue
        unknown = [k for k in conf if k not in knobs()]
        if unknown:
            return unknown_keys_message([str(k) for k in unknown], client_keys)
        forbidden = [k for k in conf if k not in client_keys]
        if forbidden:
            return (
                f"knob{'s' if len(forbidden) > 1 else ''} {', '.join(map(repr, forbidden))} "
                "may not be set by clients of this server (it is the server's setting; "
                f"clients may set: {', '.join(client_keys)})"
            )
    return None


def checked_per_request(
    client_keys: Sequence[str],
) -> Callable[[dict[str, Any], Request], Awaitable[dict[str, Any]]]:
    """:func:`per_request` behind a check of the raw body's ``configurable`` (422 naming the
    key: LangServe's config model would drop it silently)."""

    async def modifier(config: dict[str, Any], request: Request) -> dict[str, Any]:
        if request.method == "POST":
            try:
                body = await request.json()  # already read and cached by LangServe
            except Exception:  # not JSON: LangServe has answered that already
                body = None
            why = refused_keys(body, client_keys)
            if why is not None:
                raise HTTPException(422, why)
        return per_request(config, request)

    return modifier


def rag_router(
    engine: Engine,
    settings: ServerSettings,
    observe: Callable[[dict[str, Any], str], dict[str, Any]] | None = None,
) -> APIRouter:
    """The LangServe routes for the served graph.

    Args:
        engine: Supplies the current graph (taken once per request); its question
            embedding (batching, cache) is configured from ``settings`` here.
        settings: Limits, client-tunable knobs, server-side graph defaults, playground,
            question batching.
        observe: Called with every answer (metrics, spans, the trace id).

    Returns:
        A router with ``/rag/*``; request bodies are capped at ``max_request_kb``.
    """
    from citerag.embeddings import auto_threads

    # The engine was built before the routes; its graphs load when the worker starts.
    engine.configure_queries(
        batching=settings.query_batching,
        wait_ms=settings.query_batch_wait_ms,
        cache=settings.query_cache,
        threads=settings.embedding_threads or auto_threads(max(1, settings.workers)),
        precision=settings.embedding_precision,
        traced=settings.traced_queries,
    )
    runnable = build_served_runnable(
        engine,
        max_question_chars=settings.max_question_chars,
        client_keys=settings.client_config_keys,
        server_defaults=settings.graph_defaults(),
        observe=observe,
    )
    modifier = checked_per_request(tuple(settings.client_config_keys))
    endpoints: list[EndpointName] = list(RAG_ENDPOINTS)
    if settings.playground:
        endpoints.append("playground")
    router = APIRouter(max_body_size=settings.max_request_bytes)
    serializer = ServerSerializer()
    if settings.fast_invoke:
        # Registered before LangServe's routes, so it answers POST /rag/invoke; LangServe's
        # own (documented) route stays in the schema.
        fast = FastInvokeHandler(
            runnable,
            output_model=CiteragAnswer,
            path=RAG_PATH,
            per_req_config_modifier=modifier,
            serializer=serializer,
        )

        @router.post(f"{RAG_PATH}/invoke", include_in_schema=False)
        async def invoke(request: Request) -> Response:
            """The graph's answer (LangServe's contract; see :mod:`citerag.server.invoke`)."""
            return await fast.invoke(request)

    add_routes(
        router,
        runnable,
        path=RAG_PATH,
        per_req_config_modifier=modifier,
        enabled_endpoints=endpoints,
        enable_feedback_endpoint=False,
        enable_public_trace_link_endpoint=False,
        serializer=serializer,
    )
    return router


_LOGIN_FORM = """<!doctype html><html><head><meta charset="utf-8"><title>citerag playground
</title></head><body style="font-family:sans-serif;max-width:32em;margin:4em auto">
<h1>citerag playground</h1><p>{message}</p>
<form method="post" action="/playground/login">
<label>Token <input type="password" name="token" autocomplete="off" size="40"></label>
<button type="submit">Open the playground</button></form></body></html>"""

#: ``/playground/login``: trade a token for an HttpOnly cookie valid under ``/rag/``.
#: LangServe's playground cannot send an ``Authorization`` header; the cookie stands in for
#: it on ``/rag/*`` only (``SameSite=Strict``, so other sites cannot use it). Included only
#: when the playground is enabled.
playground_router = APIRouter(include_in_schema=False)


@playground_router.get("/playground/login")
def login_form() -> HTMLResponse:
    """The login form."""
    return HTMLResponse(_LOGIN_FORM.format(message="Enter your access token."))


@playground_router.post("/playground/login", max_body_size=4096)
async def login(request: Request, tokens: Tokens, settings: Settings) -> Response:
    """Check the posted token; on success set the cookie and redirect to the playground."""
    form = await request.form(max_files=0, max_fields=4, max_part_size=1024)
    token = str(form.get("token") or "").strip()
    who = tokens.lookup(token)
    if who is None:
        msg = html.escape("Unknown token. Try again.")
        return HTMLResponse(_LOGIN_FORM.format(message=msg), status_code=401)
    resp = RedirectResponse(f"{RAG_PATH}/playground/", status_code=303)
    resp.set_cookie(
        PLAYGROUND_COOKIE,
        token,
        max_age=8 * 3600,
        path=f"{RAG_PATH}/",
        httponly=True,
        samesite="strict",
        secure=settings.cookie_secure,
    )
    log.info("playground login by %s", who.user)
    return resp

"""``GET /metrics``: Prometheus metrics (text format), for admin tokens only."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, HTTPException, Request, Security
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from citerag.server.deps import Caller, Registry, Worker, bearer
from citerag.server.feedback import FeedbackStore
from citerag.server.observe import Observer
from citerag.stores.registry import STATUSES

router = APIRouter(tags=["operators"], dependencies=[Security(bearer)])


@router.get("/metrics")
async def metrics(request: Request, who: Caller, registry: Registry, worker: Worker) -> Response:
    """Requests, latency per route and per graph node, answer statuses, gate outcomes, the
    ingest queue, uploaded documents by status, feedback votes and seconds per ingest stage
    (admin tokens only)."""
    if not who.admin:
        raise HTTPException(403, "metrics are for admin tokens")
    observer: Observer = request.app.state.observer
    store: FeedbackStore = request.app.state.feedback

    def collect() -> bytes:
        observer.refresh(
            queue=worker.pending_jobs,
            counts=registry.count,
            statuses=STATUSES,
            votes=store.counts,
        )
        return generate_latest(observer.registry)

    body = await anyio.to_thread.run_sync(collect)
    return Response(body, media_type=CONTENT_TYPE_LATEST)

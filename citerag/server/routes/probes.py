"""Health probes: ``/health`` (process up) and ``/ready`` (index loaded). Both are public
and return no names or paths."""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

import citerag
from citerag.server.deps import EngineDep, Registry, Worker

#: Public explanations of not being ready (no server paths or error texts: see the log).
NOT_READY = {
    "no_index": "no index has been built yet: upload a document or run `citerag ingest`",
    "error": "the index could not be loaded; see the server log",
}

router = APIRouter(tags=["probes"])


@router.get("/health")
def health() -> dict[str, Any]:
    """The process is up (no authentication)."""
    return {"status": "ok", "version": citerag.__version__}


@router.get("/ready")
def ready(engine: EngineDep, registry: Registry, worker: Worker) -> JSONResponse:
    """The index is loaded: build id and counts (no authentication, no names)."""
    snap = engine.current()
    uploads = {
        "pending": registry.count("pending"),
        "deleting": registry.count("deleting"),
        "indexing_now": worker.busy.is_set(),
    }
    if registry.shared:  # several processes: whether this one applies everyone's uploads
        uploads["writer"] = worker.is_writer
    if worker.read_only:  # answers from the published build only
        uploads["read_only"] = True
    if snap is None:
        return JSONResponse(
            {
                "ready": False,
                "state": engine.state,
                "reason": NOT_READY.get(engine.state, "loading"),
                "uploads": uploads,
                "process": os.getpid(),
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
            "process": os.getpid(),  # which of several worker processes answered
        }
    )

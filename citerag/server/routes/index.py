"""``GET /index/documents``: what the served index build holds, however it got there."""

from __future__ import annotations

from fastapi import APIRouter, Security
from fastapi.responses import JSONResponse

from citerag.server.deps import Caller, CurrentSnapshot, bearer
from citerag.server.documents import upload_id_of

router = APIRouter(prefix="/index", tags=["index"], dependencies=[Security(bearer)])


@router.get("/documents")
def index_documents(who: Caller, snap: CurrentSnapshot, status: str | None = None) -> JSONResponse:
    """Every document of the served build you may see, however it was ingested.

    Includes documents ingested with ``citerag ingest`` (``origin: ingest``) as well as
    uploads (``origin: upload``, with ``upload_id``), their status (``indexed`` or
    ``failed`` with a reason), chunk and page counts. Server paths are never returned.
    Only uploads can be deleted over HTTP (``DELETE /documents/{upload_id}``).
    """
    docs = snap.manifest.public_records(
        readable=who.can_read, status=status, upload_id_of=upload_id_of
    )
    return JSONResponse({"manifest_id": snap.build_id, "documents": docs})

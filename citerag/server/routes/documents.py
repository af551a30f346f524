"""The documents API: upload (``POST /documents``), list, status, delete, re-ingest.

The same bytes uploaded twice make one document: a second upload whose sha256 matches a
document the caller can see (not ``failed`` or ``deleting``) answers 200 with that document
and ``duplicate: true`` instead of queueing another copy. ``DELETE`` and ``/reingest``
take an upload's id or the index document id ``GET /index/documents`` lists for it; a
document ingested with ``citerag ingest`` answers 409 saying how to remove it.

Uploads are streamed to disk (never read into memory), stored under a generated id and
indexed by the background :class:`~citerag.server.worker.IndexWorker`; statuses live in the
registry (:class:`~citerag.stores.faiss.registry.SharedDocumentRegistry`, or with a
PostgreSQL store :class:`~citerag.stores.postgres.registry.PgDocumentRegistry`, which also
keeps the bytes, so any serving process accepts uploads and the writer process indexes them).
"""

from __future__ import annotations

import functools
import logging
import uuid
from typing import Any

import anyio
from fastapi import APIRouter, HTTPException, Request, Security
from fastapi.responses import JSONResponse, Response

from citerag.core.identity import label_problem
from citerag.server.auth import Identity
from citerag.server.deps import (
    Caller,
    EngineDep,
    Registry,
    Settings,
    Worker,
    bearer,
)
from citerag.server.documents import (
    find_duplicate,
    may_delete,
    served_view,
    upload_id_of,
    visible,
)
from citerag.server.engine import Engine
from citerag.server.uploads import UploadError, receive_upload, stored_name
from citerag.server.worker import READ_ONLY_DETAIL
from citerag.stores.registry import ID_RE, DocumentRecord, PendingLimitError, make_record
from citerag.stores.registry import Registry as AnyRegistry

log = logging.getLogger(__name__)

router = APIRouter(prefix="/documents", tags=["documents"], dependencies=[Security(bearer)])


#: The upload's body in the OpenAPI document: the handler streams it itself (to refuse a large
#: file before it is read), so FastAPI cannot derive it from a parameter.
_UPLOAD_BODY = {
    "required": True,
    "content": {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "required": ["file"],
                "properties": {
                    "file": {"type": "string", "format": "binary"},
                    "access": {"type": "string", "description": "public (default) or a group"},
                },
            }
        }
    },
}
_UPLOAD_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "The same bytes are already a document you may see: nothing queued"},
    400: {"description": "An invalid Content-Length"},
    403: {"description": "The access label is not one of the uploader's groups"},
    405: {"description": "A read-only server"},
    413: {"description": "Larger than max_upload_mb (refused while streaming)"},
    415: {"description": "Not multipart/form-data, or a file type not accepted"},
    422: {"description": "A malformed form, no file, an empty file or a bad label"},
    503: {"description": "max_pending_uploads uploads already wait for indexing"},
}


@router.post(
    "",
    status_code=202,
    openapi_extra={"requestBody": _UPLOAD_BODY},
    responses=_UPLOAD_RESPONSES,
)
async def upload_document(
    request: Request, who: Caller, settings: Settings, registry: Registry, worker: Worker
) -> Response:
    """Upload one file (multipart field ``file``; optional field ``access``).

    Answers 202 with the document; indexing runs in the background. Poll
    ``GET /documents/{id}`` until ``status`` is ``indexed`` or ``failed``. A read-only
    server answers 405 before reading the body.
    """
    if settings.read_only:
        return _read_only()
    # checked before reading the body (cheap), and again atomically with the addition
    if await anyio.to_thread.run_sync(registry.count, "pending") >= settings.max_pending_uploads:
        return _queue_full()
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
        # a field sent empty ("-F access=$LABEL" with LABEL unset) is refused, never public
        access = up.fields.get("access", "public")
        problem = label_problem(access)
        if problem:
            raise UploadError(422, problem)
        if not who.can_read(access):
            raise UploadError(
                403,
                f"you may only label uploads 'public' or with one of your "
                f"groups {list(who.groups)}, not {access!r}",
            )
        same = await anyio.to_thread.run_sync(find_duplicate, registry.all(), up.sha256, who)
        if same is not None:
            up.path.unlink(missing_ok=True)
            log.info("upload by %s is a duplicate of %s", who.user, same.id)
            return JSONResponse(
                {
                    **same.public(),
                    "duplicate": True,
                    "detail": f"already {same.status} as {same.name!r} (id {same.id})",
                },
                status_code=200,
                headers={"Location": f"/documents/{same.id}"},
            )
        doc_id = uuid.uuid4().hex
        stored = stored_name(up.name, up.suffix)
        rec = make_record(doc_id, up.name, stored, access, up.size, up.sha256, who.user)
        await anyio.to_thread.run_sync(
            functools.partial(
                registry.add_upload, rec, up.path, max_pending=settings.max_pending_uploads
            )
        )
    except UploadError as exc:
        up.path.unlink(missing_ok=True)
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)
    except PendingLimitError:
        up.path.unlink(missing_ok=True)
        log.info(
            "upload by %s refused (503): %d uploads pending", who.user, settings.max_pending_uploads
        )
        return _queue_full()
    except BaseException:
        up.path.unlink(missing_ok=True)
        raise
    worker.submit("add", doc_id)
    log.info(
        "upload %s (%s, %d bytes, access %s) by %s queued",
        doc_id,
        up.name,
        up.size,
        access,
        who.user,
    )
    return JSONResponse(rec.public(), status_code=202, headers={"Location": f"/documents/{doc_id}"})


def _queue_full() -> JSONResponse:
    """503 while ``max_pending_uploads`` uploads wait for indexing."""
    return JSONResponse(
        {"detail": "too many uploads waiting to be indexed; retry later"},
        status_code=503,
        headers={"Retry-After": "10"},
    )


def _read_only() -> JSONResponse:
    """405 from a read-only server (``read_only = true``), saying how to add documents."""
    return JSONResponse({"detail": READ_ONLY_DETAIL}, status_code=405, headers={"Allow": "GET"})


def _as_served(registry: AnyRegistry, engine: Engine, rec: DocumentRecord) -> DocumentRecord:
    """The record as this process serves it (several processes: see ``served_view``)."""
    if not registry.shared:
        return rec
    snap = engine.current()
    return served_view(rec, snap.manifest.documents if snap is not None else None)


@router.get("")
def list_documents(
    who: Caller, registry: Registry, engine: EngineDep, status: str | None = None
) -> dict[str, Any]:
    """Uploaded documents you may see (label public or one of your groups)."""
    recs = [_as_served(registry, engine, r) for r in registry.all() if visible(r, who)]
    if status:
        recs = [r for r in recs if r.status == status]
    return {"documents": [r.public() for r in recs]}


def _visible_record(registry: AnyRegistry, who: Identity, doc_id: str) -> DocumentRecord:
    """The record if the caller may see it.

    Raises:
        HTTPException: 404 for a malformed id, an unknown one or one the caller may not see
            (the same answer, so ids of hidden documents cannot be probed).
    """
    rec = registry.get(doc_id) if ID_RE.match(doc_id) else None
    if rec is None or not visible(rec, who):
        raise HTTPException(404, "no such document")
    return rec


def _resolve(engine: Engine, who: Identity, doc_id: str, *, deleting: bool = False) -> str:
    """An upload id for ``doc_id``, which may be the index document id of an upload.

    Args:
        engine: Serves the manifest the index document ids are looked up in.
        who: The caller.
        doc_id: An upload id or an index document id.
        deleting: For a delete: an e-mail attachment's document is refused (it is read
            from its message's upload, so deleting "its" upload would delete the message
            and every other attachment).

    Raises:
        HTTPException: 409 for a document ingested with ``citerag ingest`` (it has no upload
            to delete) or, when ``deleting``, for an e-mail attachment; 404 for an id that
            is neither (or one the caller may not see).
    """
    if ID_RE.match(doc_id):
        return doc_id
    snap = engine.current()
    snap_docs = snap.manifest.documents if snap is not None else {}
    rec = snap_docs.get(doc_id) if len(doc_id) <= 128 else None
    if rec is None or not who.can_read(str(rec.get("access") or "public")):
        raise HTTPException(404, "no such document")
    upload = upload_id_of(str(rec.get("source") or ""))
    if deleting and rec.get("root_source"):
        message = str(rec.get("root_source")).rsplit("/", 1)[-1]
        raise HTTPException(
            409,
            f"{rec.get('attachment_name') or rec.get('doc_name')} is an attachment of the "
            f"e-mail {message!r}: it is indexed and deleted with its message, so delete "
            "the message (or upload the message again without it)",
        )
    if upload is not None:
        return upload
    raise HTTPException(
        409,
        f"{rec.get('doc_name') or doc_id} was ingested with `citerag ingest` "
        f"(source {rec.get('source')!r}), not uploaded: remove the file from the ingested "
        "folder and run `citerag ingest` again, which drops documents whose files are gone",
    )


@router.get("/{doc_id}")
def get_document(doc_id: str, who: Caller, registry: Registry, engine: EngineDep) -> dict[str, Any]:
    """One document's status: ``pending``, ``indexed``, ``failed`` or ``deleting``."""
    return _as_served(registry, engine, _visible_record(registry, who, doc_id)).public()


@router.delete("/{doc_id}", status_code=202)
def delete_document(
    doc_id: str,
    who: Caller,
    settings: Settings,
    registry: Registry,
    worker: Worker,
    engine: EngineDep,
) -> JSONResponse:
    """Remove a document's chunks from every index (in the background).

    ``doc_id`` is an upload's id or the index document id ``GET /index/documents`` lists.
    Answers 202 with status ``deleting``; once the new build is served the document is
    gone and ``GET /documents/{id}`` answers 404. A document ingested with ``citerag
    ingest`` answers 409 (remove its file and ingest again), as does an e-mail attachment's
    document (delete its message). A read-only server answers 405.
    """
    if settings.read_only:
        return _read_only()
    doc_id = _resolve(engine, who, doc_id, deleting=True)
    rec = _visible_record(registry, who, doc_id)
    if not may_delete(rec, who):
        raise HTTPException(403, "only the uploader or an admin may delete this document")
    now = registry.request_delete(doc_id)
    worker.submit("delete", doc_id)  # again if a previous attempt did not apply
    log.info("delete of %s requested by %s", doc_id, who.user)
    return JSONResponse(
        now.public() if now else {"id": doc_id, "status": "deleting"}, status_code=202
    )


@router.post("/{doc_id}/reingest", status_code=202)
def reingest_document(
    doc_id: str,
    who: Caller,
    settings: Settings,
    registry: Registry,
    worker: Worker,
    engine: EngineDep,
) -> JSONResponse:
    """Index an uploaded document again from its stored file (after a failure, or after the
    server's parsing settings changed).

    Answers 202 with status ``pending``; 409 while it is pending or being deleted, or for a
    document ingested with ``citerag ingest``. Only its uploader or an admin may.
    """
    if settings.read_only:
        return _read_only()
    doc_id = _resolve(engine, who, doc_id)
    rec = _visible_record(registry, who, doc_id)
    if not may_delete(rec, who):
        raise HTTPException(403, "only the uploader or an admin may re-ingest this document")
    now = registry.update(
        doc_id, only_if=("indexed", "failed"), status="pending", reason="", chunks=None
    )
    if now is None:
        raise HTTPException(409, f"the document is {rec.status}; re-ingest it once it settles")
    worker.submit("add", doc_id)
    log.info("re-ingest of %s requested by %s", doc_id, who.user)
    return JSONResponse(now.public(), status_code=202)

"""The citation viewer: a small web page at ``/app/`` and the document API it reads.

Page and sign-in (public: they hold no data):

* ``GET /app/``: the page (``static/index.html`` with its CSS and JS under ``/app/static/``).
* ``POST /app/login`` ``{"token": "..."}``: checks the token and sets the HttpOnly,
  ``SameSite=Strict`` viewer cookie (:data:`~citerag.server.auth.VIEWER_COOKIE`), which the
  auth middleware accepts on ``/rag/invoke``, ``/rag/stream`` and ``/app/api/*`` only.
  ``POST /app/logout`` clears it.

Document API (bearer token or the viewer cookie):

* ``GET /app/api/me``: who is signed in.
* ``GET /app/api/documents/{doc_id}/text[?start=&end=]``: the canonical text (or, for a very
  long document, a window of it around the range), with its sections.
* ``GET /app/api/documents/{doc_id}/review``: the parsing review (each page's text and
  blocks, empty and short pages, warnings; :mod:`citerag.server.review`).
* ``GET /app/api/documents/{doc_id}/pages/{page}/image[?scale=]``: a PDF page as PNG.
* ``GET /app/api/documents/{doc_id}/pages/{page}/highlight?start=&end=``: where
  ``canonical[start:end]`` sits on that page (rectangles as fractions of the page).

Documents are addressed by the id in the served build's manifest, never by path. A document
the caller may not read answers 404, exactly like one that does not exist: the rule is the
retrieval filter's (:func:`loaders.access.allowed_labels` of the token's groups), so the
viewer opens exactly the documents the answering graph may cite for this caller.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, HTTPException, Query, Security
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from citerag.server.auth import VIEWER_COOKIE
from citerag.server.deps import (
    Caller,
    CurrentSnapshot,
    EngineDep,
    Registry,
    Settings,
    Tokens,
    bearer,
)
from citerag.server.documents import upload_id_of
from citerag.server.engine import Snapshot
from citerag.server.review import parsing_review
from citerag.server.viewer import (
    DEFAULT_SCALE,
    MAX_SCALE,
    MIN_SCALE,
    DocumentViews,
    ViewerError,
    check_range,
    section_at,
)
from citerag.stores.registry import Registry as AnyRegistry
from loaders.access import allowed_labels

log = logging.getLogger(__name__)

#: Where the page lives.
APP_PATH = "/app"
#: Paths the viewer cookie is accepted on (one ending in ``/`` is a prefix, any other the path
#: itself): the page asks through ``/rag/stream`` (``/rag/invoke`` kept for scripts of it).
COOKIE_PATHS = (
    "/rag/invoke",
    "/rag/stream",
    f"{APP_PATH}/api/",
    "/documents",
    "/documents/",
    "/index/documents",
)
#: Paths served without a token: the page, its assets and the sign-in routes.
PUBLIC_PATHS = (APP_PATH, f"{APP_PATH}/", f"{APP_PATH}/login", f"{APP_PATH}/logout")
PUBLIC_PREFIXES = (f"{APP_PATH}/static/",)
#: Longest canonical text sent whole; longer documents are sent as a window around the range.
MAX_TEXT_CHARS = 1_000_000
#: Session length of the viewer cookie (seconds).
COOKIE_MAX_AGE = 8 * 3600

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
_ASSETS = {"viewer.js": "text/javascript", "viewer.css": "text/css", "favicon.svg": "image/svg+xml"}
#: Sent with the page: nothing but this origin, no framing, no inline script.
_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
#: Document data: never kept in a browser cache (a later user of the same browser may not
#: be allowed to read it).
_PRIVATE = {"Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff"}


class Login(BaseModel):
    """``POST /app/login`` body."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=512)


def readable_record(snap: Snapshot, who: Caller, doc_id: str) -> dict[str, Any]:
    """The manifest record of an indexed document the caller may read.

    Args:
        snap: The served build.
        who: The caller.
        doc_id: A document id from a citation.

    Returns:
        The record (holds the server-side path: never send it to the client).

    Raises:
        HTTPException: 404 for an unknown id, a document that is not indexed, and a document
            whose access label the caller's groups do not allow (the same answer for all).
    """
    rec = snap.manifest.documents.get(doc_id) if len(doc_id) <= 128 else None
    if (
        rec is None
        or rec.get("status") != "indexed"
        or str(rec.get("access") or "public") not in allowed_labels(list(who.groups))
    ):
        raise HTTPException(404, "no such document")
    return rec


def suggestion(snap: Snapshot, who: Caller) -> str:
    """A placeholder question naming a document the caller may read ('' if none).

    The newest indexed readable document's title (or file name) is chosen, so the
    suggestion follows the corpus, never a hard-coded example.
    """
    labels = allowed_labels(list(who.groups))
    docs = [
        d
        for d in snap.manifest.documents.values()
        if d.get("status") == "indexed" and str(d.get("access") or "public") in labels
    ]
    if not docs:
        return ""
    doc = max(docs, key=lambda d: (str(d.get("ingested_at") or ""), str(d.get("doc_id"))))
    name = " ".join(str(doc.get("title") or doc.get("doc_name") or "").split())
    if len(name) > 48:
        name = name[:47].rstrip() + "…"
    return f"Ask about “{name}”…" if name else ""


def local_record(registry: AnyRegistry, rec: dict[str, Any]) -> dict[str, Any]:
    """The record with a path this process can read.

    With a PostgreSQL store an upload was parsed from the writer's copy of its bytes, which
    may be another process's (or machine's) file: a process without it writes its own copy
    from the database (the viewer then checks its sha256 as for any file).
    """
    upload_id = upload_id_of(str(rec.get("source") or ""))
    raw_path = rec.get("path")
    if not registry.shared or upload_id is None or (raw_path and Path(str(raw_path)).is_file()):
        return rec
    upload = registry.get(upload_id)
    if upload is None:
        return rec
    try:
        return {**rec, "path": str(registry.file_path(upload))}
    except FileNotFoundError:
        return rec  # deleted meanwhile: the viewer answers 410


def _fail(exc: ViewerError) -> HTTPException:
    return HTTPException(exc.status, exc.detail)


def viewer_router() -> APIRouter:
    """The page, the sign-in routes and the document API (one document cache per app).

    Returns:
        A router with ``/app/*``.
    """
    views = DocumentViews()
    router = APIRouter(include_in_schema=False)
    api = APIRouter(prefix=f"{APP_PATH}/api", tags=["viewer"], dependencies=[Security(bearer)])

    @router.get(APP_PATH)
    def app_redirect() -> RedirectResponse:
        """``/app`` -> ``/app/``."""
        return RedirectResponse(f"{APP_PATH}/", status_code=308)

    @router.get(f"{APP_PATH}/")
    def page() -> FileResponse:
        """The viewer page."""
        return FileResponse(
            STATIC_DIR / "index.html", media_type="text/html", headers=_PAGE_HEADERS
        )

    @router.get(f"{APP_PATH}/static/{{name}}")
    def asset(name: str) -> FileResponse:
        """The page's CSS and JavaScript (a fixed list: no other file is reachable)."""
        media = _ASSETS.get(name)
        if media is None:
            raise HTTPException(404, "no such file")
        return FileResponse(STATIC_DIR / name, media_type=media, headers=_PAGE_HEADERS)

    @router.post(f"{APP_PATH}/login", max_body_size=4096)
    def login(body: Login, tokens: Tokens, settings: Settings) -> Response:
        """Trade a token for the viewer cookie (HttpOnly, ``SameSite=Strict``)."""
        token = body.token.strip()
        who = tokens.lookup(token)
        if who is None:
            return JSONResponse({"detail": "unknown or revoked token"}, status_code=401)
        resp = JSONResponse({"user": who.user, "groups": list(who.groups)})
        resp.set_cookie(
            VIEWER_COOKIE,
            token,
            max_age=COOKIE_MAX_AGE,
            path="/",
            httponly=True,
            samesite="strict",
            secure=settings.cookie_secure,
        )
        log.info("viewer sign-in by %s", who.user)
        return resp

    @router.post(f"{APP_PATH}/logout")
    def logout(settings: Settings) -> Response:
        """Clear the viewer cookie."""
        resp = JSONResponse({"signed_out": True})
        resp.delete_cookie(
            VIEWER_COOKIE, path="/", httponly=True, samesite="strict", secure=settings.cookie_secure
        )
        return resp

    @api.get("/me")
    def me(who: Caller, engine: EngineDep) -> dict[str, Any]:
        """Who is signed in, and a question to suggest from the documents they may read."""
        snap = engine.current()
        return {
            "user": who.user,
            "groups": list(who.groups),
            "admin": who.admin,
            "suggestion": suggestion(snap, who) if snap is not None else "",
        }

    @api.get("/documents/{doc_id}/text")
    async def document_text(
        doc_id: str,
        who: Caller,
        snap: CurrentSnapshot,
        registry: Registry,
        start: Annotated[int | None, Query(ge=0)] = None,
        end: Annotated[int | None, Query(ge=0)] = None,
    ) -> JSONResponse:
        """The document's canonical text, its sections and the section at ``start``.

        ``text`` starts at character ``offset`` of the canonical text; it is the whole text
        unless the document is longer than :data:`MAX_TEXT_CHARS`, when it is a window
        around ``start``-``end``. ``text[start - offset:end - offset]`` is the cited range.
        """
        rec = readable_record(snap, who, doc_id)
        rec = await anyio.to_thread.run_sync(local_record, registry, rec)
        try:
            opened = await anyio.to_thread.run_sync(views.canonical, rec)
            text = opened.parsed.text
            if (start is None) != (end is None):
                raise ViewerError(422, "give both start and end, or neither")
            if start is not None and end is not None:
                check_range(text, start, end)
        except ViewerError as exc:
            raise _fail(exc) from None
        offset, stop = 0, len(text)
        if len(text) > MAX_TEXT_CHARS:
            centre = ((start or 0) + (end or 0)) // 2
            offset = max(0, min(centre - MAX_TEXT_CHARS // 2, len(text) - MAX_TEXT_CHARS))
            stop = offset + MAX_TEXT_CHARS
        sections = [
            {"start": s.start, "end": s.end, "section": s.section, "page": s.page}
            for s in opened.parsed.segments
            if s.end > offset and s.start < stop
        ]
        return JSONResponse(
            {
                "doc_id": doc_id,
                "doc_name": rec.get("doc_name"),
                "title": rec.get("title"),
                "file_type": rec.get("file_type"),
                "pages": rec.get("pages"),
                "length": len(text),
                "offset": offset,
                "text": text[offset:stop],
                "section": section_at(opened.parsed, start) if start is not None else "",
                "sections": sections,
            },
            headers=_PRIVATE,
        )

    @api.get("/documents/{doc_id}/review")
    async def document_review(
        doc_id: str, who: Caller, snap: CurrentSnapshot, registry: Registry
    ) -> JSONResponse:
        """The parsing review: each page's extracted text and blocks, empty and short
        pages, the loader's warnings (:mod:`citerag.server.review`); for a PDF each page's
        ``image`` URL (the rendered page)."""
        rec = readable_record(snap, who, doc_id)
        rec = await anyio.to_thread.run_sync(local_record, registry, rec)
        try:
            opened = await anyio.to_thread.run_sync(views.canonical, rec)
        except ViewerError as exc:
            raise _fail(exc) from None
        body = parsing_review(opened.parsed)
        base = f"{APP_PATH}/api/documents/{doc_id}/pages"
        for page in body["pages"]:
            is_pdf = opened.parsed.file_type == "pdf" and page["page"]
            page["image"] = f"{base}/{page['page']}/image" if is_pdf else None
        body.update(
            doc_id=doc_id,
            doc_name=rec.get("doc_name"),
            access=rec.get("access") or "public",
            chunks=rec.get("chunks"),
        )
        return JSONResponse(body, headers=_PRIVATE)

    @api.get("/documents/{doc_id}/pages/{page}/image")
    async def page_image(
        doc_id: str,
        page: int,
        who: Caller,
        snap: CurrentSnapshot,
        registry: Registry,
        scale: Annotated[float, Query(ge=MIN_SCALE, le=MAX_SCALE)] = DEFAULT_SCALE,
    ) -> Response:
        """One page of a PDF rendered to PNG by the server (pdfium)."""
        rec = readable_record(snap, who, doc_id)
        rec = await anyio.to_thread.run_sync(local_record, registry, rec)
        try:
            png = await anyio.to_thread.run_sync(views.page_png, rec, page, round(scale, 2))
        except ViewerError as exc:
            raise _fail(exc) from None
        return Response(png, media_type="image/png", headers=_PRIVATE)

    @api.get("/documents/{doc_id}/pages/{page}/highlight")
    async def page_highlight(
        doc_id: str,
        page: int,
        who: Caller,
        snap: CurrentSnapshot,
        registry: Registry,
        start: Annotated[int, Query(ge=0)],
        end: Annotated[int, Query(ge=0)],
    ) -> JSONResponse:
        """Where ``canonical[start:end]`` sits on a PDF page, with the image's URL."""
        rec = readable_record(snap, who, doc_id)
        rec = await anyio.to_thread.run_sync(local_record, registry, rec)
        try:
            hl = await anyio.to_thread.run_sync(views.page_highlight, rec, page, start, end)
        except ViewerError as exc:
            raise _fail(exc) from None
        body = hl.to_json()
        body.update(
            doc_id=doc_id,
            doc_name=rec.get("doc_name"),
            title=rec.get("title"),
            image=f"{APP_PATH}/api/documents/{doc_id}/pages/{page}/image",
        )
        return JSONResponse(body, headers=_PRIVATE)

    router.include_router(api)
    return router

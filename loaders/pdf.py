"""PDF loader built on LangChain's ``PyPDFLoader`` (pypdf), page by page, 1-based pages.

This module is the only place that imports ``langchain_community``'s PDF loader.

The canonical text of a PDF is its pages' extracted text joined by a blank line; each page is
one segment carrying its 1-based ``page`` number, so chunks never cross pages and a citation
can link ``#page=N`` (PDF Open Parameters). AES-encrypted PDFs that open with an empty
password (common for "copy-protected" filings) are decrypted with ``cryptography``; PDFs that
need a real password fail with a clear reason. A PDF whose pages carry no text layer is
reported as needing OCR instead of being indexed as empty.
"""

from __future__ import annotations

import logging
import re
import warnings
from pathlib import Path

from loaders.base import DocumentLoadError, ParsedDocument, Segment

log = logging.getLogger(__name__)

#: A page with fewer non-whitespace characters than this is reported as (near-)empty.
NEAR_EMPTY_CHARS = 20
PAGE_SEPARATOR = "\n\n"
#: Lines looked at on each edge of a page when detecting running headers and footers.
EDGE_LINES = 3
#: Share of pages an edge line must appear on (digits ignored) to count as running.
RUNNING_SHARE = 0.5


def _norm_line(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split())).lower()


def running_lines(pages: list[str]) -> set[str]:
    """Find running headers/footers: edge lines repeated on most pages (digits ignored).

    Args:
        pages: Page texts.

    Returns:
        Normalised lines (see ``_norm_line``) that are running headers or footers.
    """
    if len(pages) < 3:
        return set()
    counts: dict[str, int] = {}
    for body in pages:
        lines = [ln for ln in body.split("\n") if ln.strip()]
        edge = {_norm_line(ln) for ln in lines[:EDGE_LINES] + lines[-EDGE_LINES:]}
        for norm in edge:
            counts[norm] = counts.get(norm, 0) + 1
    need = max(3, int(len(pages) * RUNNING_SHARE + 0.999))
    return {norm for norm, n in counts.items() if n >= need and len(norm) <= 120}


def trim_running(body: str, running: set[str]) -> tuple[int, int]:
    """Return ``(start, end)`` inside ``body`` that excludes running lines at its edges."""
    start, end = 0, len(body)
    for _ in range(EDGE_LINES):
        nl = body.find("\n", start)
        line = body[start : (nl if nl >= 0 else end)]
        if not line.strip() or _norm_line(line) not in running or nl < 0:
            break
        start = nl + 1
    for _ in range(EDGE_LINES):
        nl = body.rfind("\n", start, end)
        line = body[nl + 1 : end]
        if not line.strip() or _norm_line(line) not in running or nl < 0:
            break
        end = nl
    return start, end


def _classify(exc: Exception, name: str) -> DocumentLoadError:
    """Map a pypdf/loader exception to a ledger reason."""
    import pypdf.errors as pe

    msg = str(exc) or type(exc).__name__
    if isinstance(exc, pe.DependencyError) or "cryptography" in msg.lower():
        return DocumentLoadError(
            f"{name}: AES-encrypted PDF and the 'cryptography' package is not installed",
            kind="encrypted",
        )
    if isinstance(exc, pe.FileNotDecryptedError) or "password" in msg.lower():
        return DocumentLoadError(
            f"{name}: encrypted PDF that needs a password ({msg})", kind="encrypted"
        )
    if isinstance(exc, pe.EmptyFileError):
        return DocumentLoadError(f"{name}: the file is empty", kind="empty")
    return DocumentLoadError(
        f"{name}: unreadable PDF ({type(exc).__name__}: {msg})", kind="corrupt"
    )


def load_pdf(path: Path, data: bytes, password: str | None = None) -> ParsedDocument:
    """Load a PDF page by page.

    Args:
        path: The file's path (``PyPDFLoader`` reads it from disk).
        data: The file's bytes, used for quick sanity checks.
        password: Password for encrypted files; ``None`` lets pypdf try the empty password.

    Returns:
        The parsed document with one segment per non-empty page.

    Raises:
        DocumentLoadError: Empty, corrupt or password-protected file, or no text layer.
    """
    from langchain_community.document_loaders import PyPDFLoader
    from pypdf import __version__ as pypdf_version

    if not data.strip():
        raise DocumentLoadError(f"{path.name}: the file is empty", kind="empty")
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise DocumentLoadError(f"{path.name}: not a PDF (no %PDF header)", kind="corrupt")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pages = list(PyPDFLoader(str(path), password=password, mode="page").lazy_load())
    except DocumentLoadError:
        raise
    except Exception as exc:  # pypdf raises many exception types on damaged files
        raise _classify(exc, path.name) from exc
    if not pages:
        raise DocumentLoadError(f"{path.name}: the PDF has no pages", kind="empty")

    parts: list[str] = []
    segments: list[Segment] = []
    empty: list[int] = []
    pos = 0
    bodies = [p.page_content.replace("\r\n", "\n").replace("\r", "\n") for p in pages]
    running = running_lines(bodies)
    for i, (page, body) in enumerate(zip(pages, bodies, strict=True)):
        number = int(page.metadata.get("page", i)) + 1
        if len("".join(body.split())) < NEAR_EMPTY_CHARS:
            empty.append(number)
        if i:
            parts.append(PAGE_SEPARATOR)
            pos += len(PAGE_SEPARATOR)
        parts.append(body)
        # Running headers/footers stay in the canonical text but outside the segment, so
        # they are neither embedded nor quoted.
        start, end = trim_running(body, running)
        if body[start:end].strip():
            segments.append(Segment(pos + start, pos + end, page=number))
        pos += len(body)
    text = "".join(parts)
    if len(empty) == len(pages):
        raise DocumentLoadError(
            f"{path.name}: no text layer on any of its {len(pages)} page(s); "
            "it looks scanned and needs OCR before it can be indexed",
            kind="needs_ocr",
        )
    meta = pages[0].metadata
    pdf_title = str(meta.get("title") or "").strip()
    title = pdf_title or path.stem.replace("_", " ")
    warn = []
    if running:
        warn.append(f"running header/footer lines left out of chunks: {sorted(running)[:10]}")
    if empty:
        warn.append(f"{len(empty)} of {len(pages)} pages have no or almost no text: {empty[:20]}")
    return ParsedDocument(
        text=text,
        segments=segments,
        title=title,
        file_type="pdf",
        title_source="pdf_title" if pdf_title else "file_name",
        pages=len(pages),
        empty_pages=empty,
        parser=f"langchain_community.PyPDFLoader (pypdf {pypdf_version}, plain)",
        warnings=warn,
    )

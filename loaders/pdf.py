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
import warnings
from pathlib import Path

from loaders.base import DocumentLoadError, ParsedDocument, Segment

log = logging.getLogger(__name__)

#: A page with fewer non-whitespace characters than this is reported as (near-)empty.
NEAR_EMPTY_CHARS = 20
PAGE_SEPARATOR = "\n\n"


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
        return DocumentLoadError(f"{name}: encrypted PDF that needs a password ({msg})",
                                 kind="encrypted")
    if isinstance(exc, pe.EmptyFileError):
        return DocumentLoadError(f"{name}: the file is empty", kind="empty")
    return DocumentLoadError(f"{name}: unreadable PDF ({type(exc).__name__}: {msg})",
                             kind="corrupt")


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
    for i, page in enumerate(pages):
        body = page.page_content.replace("\r\n", "\n").replace("\r", "\n")
        number = int(page.metadata.get("page", i)) + 1
        if len("".join(body.split())) < NEAR_EMPTY_CHARS:
            empty.append(number)
        if i:
            parts.append(PAGE_SEPARATOR)
            pos += len(PAGE_SEPARATOR)
        parts.append(body)
        if body.strip():
            segments.append(Segment(pos, pos + len(body), page=number))
        pos += len(body)
    text = "".join(parts)
    if len(empty) == len(pages):
        raise DocumentLoadError(
            f"{path.name}: no text layer on any of its {len(pages)} page(s); "
            "it looks scanned and needs OCR before it can be indexed",
            kind="needs_ocr",
        )
    meta = pages[0].metadata
    title = str(meta.get("title") or "").strip() or path.stem.replace("_", " ")
    warn = []
    if empty:
        warn.append(f"{len(empty)} of {len(pages)} pages have no or almost no text: {empty[:20]}")
    return ParsedDocument(
        text=text,
        segments=segments,
        title=title,
        file_type="pdf",
        pages=len(pages),
        empty_pages=empty,
        parser=f"langchain_community.PyPDFLoader (pypdf {pypdf_version}, plain)",
        warnings=warn,
    )

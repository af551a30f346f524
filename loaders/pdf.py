"""PDF loader built on LangChain's ``PyPDFLoader`` (pypdf), page by page, 1-based pages.

This module is the only place that imports ``langchain_community``'s PDF loader.

The canonical text of a PDF is its pages' extracted text joined by a blank line; each page is
one segment carrying its 1-based ``page`` number, so chunks never cross pages and a citation
can link ``#page=N`` (PDF Open Parameters). AES-encrypted PDFs that open with an empty
password (common for "copy-protected" filings) are decrypted with ``cryptography``; PDFs that
need a real password fail with a clear reason. A PDF whose pages carry no text layer is
reported as needing OCR instead of being indexed as empty.

Text a reader never sees is not indexed: text drawn in an invisible render mode (``3 Tr``,
neither filled nor stroked; ``7 Tr``, clipping only) is a classic carrier of planted
instructions. Each page's operators are watched while LangChain's loader extracts it (a
``visitor_operand_before`` that only notes the render modes); a page that used an invisible
mode is extracted again from its content stream with those strings blanked
(``split_invisible``), and the left-out characters are counted (``hidden_chars``). The one
exception is an OCR text layer: a page whose visible text is (almost) empty and that draws an
image keeps its invisible text, since that text *is* what the reader sees in the scan.
"""

from __future__ import annotations

import logging
import re
import warnings
from pathlib import Path
from typing import Any

from loaders.base import DocumentLoadError, ParsedDocument, Segment

log = logging.getLogger(__name__)

#: A page with fewer non-whitespace characters than this is reported as (near-)empty.
NEAR_EMPTY_CHARS = 20
PAGE_SEPARATOR = "\n\n"
#: Lines looked at on each edge of a page when detecting running headers and footers.
EDGE_LINES = 3
#: Share of pages an edge line must appear on (digits ignored) to count as running.
RUNNING_SHARE = 0.5
#: Text render modes that paint nothing (PDF 32000-1, 9.3.6): 3 invisible, 7 clip only.
INVISIBLE_RENDER_MODES = frozenset({3, 7})
#: Operators that show text, and the index of the operand holding the string(s).
_SHOW_TEXT = {b"Tj": 0, b"TJ": 0, b"'": 0, b'"': 2}


class RenderModeProbe:
    """A pypdf ``visitor_operand_before`` noting whether a page set an invisible render mode.

    pypdf calls it for every operator while it extracts a page's text (form XObjects
    included); ``take()`` returns the flag for the page just extracted and resets it.
    """

    def __init__(self) -> None:
        self.invisible = False

    def __call__(self, operator: bytes, operands: list[Any], cm: Any, tm: Any) -> None:
        if operator == b"Tr" and operands and _mode(operands[0]) in INVISIBLE_RENDER_MODES:
            self.invisible = True

    def take(self) -> bool:
        """Return whether the page extracted since the last call used an invisible mode."""
        seen, self.invisible = self.invisible, False
        return seen


def _mode(operand: Any) -> int | None:
    try:
        return int(operand)
    except (TypeError, ValueError):
        return None


def _blank(operator: bytes, operands: list[Any]) -> list[Any]:
    """The operands of a text-showing operator with its text removed (positioning kept)."""
    from pypdf.generic import ArrayObject, ByteStringObject

    out = list(operands)
    i = _SHOW_TEXT[operator]
    if i < len(out):
        out[i] = ArrayObject() if operator == b"TJ" else ByteStringObject(b"")
    return out


def split_invisible(page: Any, reader: Any) -> tuple[str, str]:
    """Extract a page's visible text and its invisible text separately.

    The page's content stream is walked once, tracking the text render mode through the
    graphics-state stack (``q`` / ``Q``); two copies of the stream are extracted with pypdf,
    one with the invisible strings blanked, one with the visible strings (and form XObjects)
    blanked. Text inside form XObjects is not split: it stays in the visible copy.

    Args:
        page: A pypdf ``PageObject``.
        reader: Its ``PdfReader``.

    Returns:
        ``(visible, invisible)``, each stripped like LangChain's page text.
    """
    from pypdf import PageObject
    from pypdf.generic import ContentStream, NameObject

    contents = page.get_contents()
    if contents is None:
        return "", ""
    ops = ContentStream(contents, reader).operations
    visible_ops: list[tuple[list[Any], bytes]] = []
    hidden_ops: list[tuple[list[Any], bytes]] = []
    mode, stack = 0, []
    for operands, operator in ops:
        if operator == b"q":
            stack.append(mode)
        elif operator == b"Q":
            mode = stack.pop() if stack else 0
        elif operator == b"Tr" and operands:
            mode = _mode(operands[0]) or 0
        if operator in _SHOW_TEXT:
            invisible = mode in INVISIBLE_RENDER_MODES
            visible_ops.append((_blank(operator, operands) if invisible else operands, operator))
            hidden_ops.append((operands if invisible else _blank(operator, operands), operator))
        elif operator == b"Do":  # a form's text is not split: it counts as visible
            visible_ops.append((operands, operator))
        else:
            visible_ops.append((operands, operator))
            hidden_ops.append((operands, operator))

    texts = []
    for new_ops in (visible_ops, hidden_ops):
        stream = ContentStream(None, reader)
        stream.operations = new_ops
        copy = PageObject(pdf=reader)
        for key in ("/Resources", "/MediaBox", "/CropBox", "/Rotate"):
            if key in page:
                copy[NameObject(key)] = page[key]
        copy.replace_contents(stream)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            texts.append(copy.extract_text(extraction_mode="plain").strip())
    return texts[0], texts[1]


def draws_image(page: Any) -> bool:
    """Whether a page has an image to draw (an image XObject or an inline image)."""
    try:
        xobjects = page["/Resources"].get_object().get("/XObject")
        if xobjects is not None:
            for ref in xobjects.get_object().values():
                if ref.get_object().get("/Subtype") == "/Image":
                    return True
        data = page.get_contents()
        return data is not None and re.search(rb"(^|\s)BI\s", data.get_data()) is not None
    except Exception:  # a damaged resource dictionary: no evidence of an image
        return False


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
    probe = RenderModeProbe()
    loader = PyPDFLoader(
        str(path),
        password=password,
        mode="page",
        extraction_kwargs={"visitor_operand_before": probe},
    )
    pages = []
    flagged: list[int] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for i, page in enumerate(loader.lazy_load()):
                pages.append(page)
                if probe.take():
                    flagged.append(i)
    except DocumentLoadError:
        raise
    except Exception as exc:  # pypdf raises many exception types on damaged files
        raise _classify(exc, path.name) from exc
    if not pages:
        raise DocumentLoadError(f"{path.name}: the PDF has no pages", kind="empty")
    bodies = [p.page_content.replace("\r\n", "\n").replace("\r", "\n") for p in pages]
    hidden_chars, ocr_pages = _drop_invisible(path, password, bodies, flagged)

    parts: list[str] = []
    segments: list[Segment] = []
    empty: list[int] = []
    pos = 0
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
    if len(empty) == len(pages) and hidden_chars:
        raise DocumentLoadError(
            f"{path.name}: all of its text is invisible (render mode 3 or 7, "
            f"{hidden_chars} characters): nothing a reader sees is left to index",
            kind="empty",
        )
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
    if hidden_chars:
        warn.append(f"left out {hidden_chars} characters of invisible text (render mode 3 or 7)")
    if ocr_pages:
        warn.append(
            f"kept the invisible text layer of {len(ocr_pages)} scanned page(s) as their OCR "
            f"text: {ocr_pages[:20]}"
        )
    return ParsedDocument(
        text=text,
        segments=segments,
        title=title,
        file_type="pdf",
        title_source="pdf_title" if pdf_title else "file_name",
        pages=len(pages),
        empty_pages=empty,
        parser=f"langchain_community.PyPDFLoader (pypdf {pypdf_version}, plain; no invisible text)",
        warnings=warn,
        hidden_chars=hidden_chars,
    )


def _drop_invisible(
    path: Path, password: str | None, bodies: list[str], flagged: list[int]
) -> tuple[int, list[int]]:
    """Replace, in place, the text of each flagged page by its visible text.

    Args:
        path: The PDF.
        password: As for ``load_pdf``.
        bodies: Page texts as LangChain extracted them (modified in place).
        flagged: 0-based indexes of pages that set an invisible render mode.

    Returns:
        ``(hidden characters left out, 1-based pages whose invisible text was kept as an OCR
        text layer)``.
    """
    if not flagged:
        return 0, []
    from pypdf import PdfReader

    hidden, ocr = 0, []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reader = PdfReader(str(path), password=password)
        for i in flagged:
            page = reader.pages[i]
            try:
                visible, invisible = split_invisible(page, reader)
            except Exception as exc:  # a content stream pypdf reads but cannot rewrite
                log.warning("%s page %d: invisible text not split (%s)", path.name, i + 1, exc)
                continue
            if not invisible:
                continue
            if len("".join(visible.split())) < NEAR_EMPTY_CHARS and draws_image(page):
                ocr.append(i + 1)
                continue
            bodies[i] = visible.replace("\r\n", "\n").replace("\r", "\n")
            hidden += len(" ".join(invisible.split()))
    if hidden:
        log.info("%s: left out %d characters of invisible text", path.name, hidden)
    return hidden, ocr

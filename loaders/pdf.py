"""PDF loader built on LangChain's ``PyPDFLoader`` (pypdf), page by page, 1-based pages.

This module is the only place that imports ``langchain_community``'s PDF loader.

The canonical text of a PDF is its pages' extracted text joined by a blank line; each page is
one segment carrying its 1-based ``page`` number (cut further at the section headings a reader
sees, :mod:`loaders.headings`), so chunks never cross pages and a citation can link
``#page=N`` (PDF Open Parameters). AES-encrypted PDFs that open with an empty
password (common for "copy-protected" filings) are decrypted with ``cryptography``; PDFs that
need a real password fail with a clear reason. Scanned pages (no text layer, an image drawn)
are OCR'd (:mod:`loaders.pdf_ocr`); with OCR off or not installed, a PDF whose pages carry no
text layer is reported as needing OCR instead of being indexed as empty.

Text a reader never sees is not indexed: text drawn in an invisible render mode (``3 Tr``,
neither filled nor stroked; ``7 Tr``, clipping only) is a classic carrier of planted
instructions. Each page's content bytes, and its forms', are scanned for such a ``Tr``
(``uses_invisible_mode``); only a flagged page is extracted again from its content stream
with those strings blanked (``split_invisible``), so every other page keeps exactly the text
LangChain's loader gave it, and the left-out characters are counted (``hidden_chars``). The
one exception is a scan's OCR text layer (``PageSplit.is_ocr_layer``): invisible text over a
drawn image covering at least half the page, and longer than the page's visible text, is
what the reader sees in the scan, so it is kept.
"""

from __future__ import annotations

import itertools
import logging
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loaders.base import DocumentLoadError, ParsedDocument, Segment
from loaders.blocks import Table
from loaders.headings import split_at_headings
from loaders.layout_tables import pdf_tables
from loaders.metadata import file_title, is_meaningful_title, names_only_the_file, opening_title
from loaders.ocr import DEFAULT_DPI, LOW_CONFIDENCE, OcrEngine, low_confidence
from loaders.pdf_ocr import PdfOcr, ocr_empty_pages
from loaders.pdf_tables import norm_line

log = logging.getLogger(__name__)

#: A page with fewer non-whitespace characters than this is reported as (near-)empty.
NEAR_EMPTY_CHARS = 20
PAGE_SEPARATOR = "\n\n"
#: Lines looked at on each edge of a page when detecting running headers and footers.
EDGE_LINES = 3
#: ... in a document of two pages, where a running line must be on both: a header and a
#: footer drawn before the page's text (two lines each) come first in its extracted text.
TWO_PAGE_EDGE_LINES = 5
#: Share of pages an edge line must appear on (digits ignored) to count as running.
RUNNING_SHARE = 0.5
#: Text render modes that paint nothing (PDF 32000-1, 9.3.6): 3 invisible, 7 clip only.
INVISIBLE_RENDER_MODES = frozenset({3, 7})
#: Operators that show text, and the index of the operand holding the string(s).
_SHOW_TEXT = {b"Tj": 0, b"TJ": 0, b"'": 0, b'"': 2}


#: A ``Tr`` operator and its operand as written in a content stream (comments between them
#: allowed: ``3 %c`` newline ``Tr``).
_TR = re.compile(rb"([^\s\[\]()<>{}/%]+)\s*(?:%[^\r\n]*[\r\n]+\s*)*Tr(?![^\s\[\]()<>{}/%])")
#: A page whose invisible text lies over a page image covering at least this share of the
#: page, and is longer than its visible text, keeps it as an OCR text layer.
OCR_IMAGE_SHARE = 0.5
#: Form XObjects nested deeper than this are not followed.
MAX_FORM_DEPTH = 8


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


def _xobjects(resources: Any) -> dict[str, Any]:
    """A resource dictionary's XObjects by name, resolved (``{}`` when there are none)."""
    try:
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        return (
            {}
            if xobjects is None
            else {k: v.get_object() for k, v in xobjects.get_object().items()}
        )
    except Exception:  # a damaged resource dictionary: nothing to follow
        return {}


def _sets_invisible(data: bytes) -> bool:
    # The substring test (C speed) spares the pattern on the streams with no "Tr" at all.
    if b"Tr" not in data:
        return False
    for m in _TR.finditer(data):
        try:
            mode = float(m[1])  # "03", "+3", "3.0" are mode 3, as pypdf reads them
        except ValueError:
            continue
        if mode == int(mode) and int(mode) in INVISIBLE_RENDER_MODES:
            return True
    return False


def _content_bytes(page: Any) -> list[bytes]:
    """The decoded bytes of each stream of a page's ``/Contents`` (no operator parsing)."""
    from pypdf.generic import ArrayObject

    contents = page.get("/Contents")
    if contents is None:
        return []
    contents = contents.get_object()
    streams = contents if isinstance(contents, ArrayObject) else [contents]
    return [s.get_object().get_data() for s in streams]


def uses_invisible_mode(page: Any) -> bool:
    """Whether a page, or a form XObject it can draw, sets an invisible text render mode.

    A scan of the raw content bytes for ``3 Tr`` / ``7 Tr`` (no parsing): cheap enough for
    every page, and a false alarm only costs the exact split (:func:`split_invisible`).
    """
    try:
        if any(_sets_invisible(data) for data in _content_bytes(page)):
            return True
    except Exception:  # unreadable content: LangChain's extraction reports it
        return False
    seen: set[int] = set()
    todo = [(page.get("/Resources"), 0)]
    while todo:
        resources, depth = todo.pop()
        for xobject in _xobjects(resources).values():
            if xobject.get("/Subtype") != "/Form" or id(xobject) in seen:
                continue
            seen.add(id(xobject))
            try:
                if _sets_invisible(xobject.get_data()):
                    return True
            except Exception:
                continue
            if depth < MAX_FORM_DEPTH:
                todo.append((xobject.get("/Resources"), depth + 1))
    return False


@dataclass
class PageSplit:
    """A page's text split by visibility.

    Attributes:
        visible: The text a reader sees (stripped like LangChain's page text).
        invisible: The text drawn in an invisible render mode.
        image_share: The largest share of the page's area one drawn image covers.
    """

    visible: str
    invisible: str
    image_share: float

    def is_ocr_layer(self) -> bool:
        """Invisible text over a page image, longer than the visible text: a scan's OCR."""
        return (
            bool(self.invisible)
            and self.image_share >= OCR_IMAGE_SHARE
            and len(self.invisible) > len(self.visible)
        )


def _extract(ops: list[tuple[list[Any], bytes]], resources: Any, page: Any, reader: Any) -> str:
    """pypdf's plain text of ``ops`` drawn with ``resources`` on a detached copy of ``page``."""
    from pypdf import PageObject
    from pypdf.generic import ContentStream, NameObject

    stream = ContentStream(None, reader)
    stream.operations = ops
    copy = PageObject(pdf=reader)
    for key in ("/MediaBox", "/CropBox", "/Rotate"):
        if key in page:
            copy[NameObject(key)] = page[key]
    if resources is not None:
        copy[NameObject("/Resources")] = resources
    copy.replace_contents(stream)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return str(copy.extract_text(extraction_mode="plain")).strip()


Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _matrix(operands: Any) -> Matrix:
    """A ``cm`` operand list or a form's ``/Matrix`` as six numbers (identity if unreadable)."""
    try:
        values = [float(x) for x in list(operands)[:6]]
    except (TypeError, ValueError):
        return _IDENTITY
    return (
        (values[0], values[1], values[2], values[3], values[4], values[5])
        if len(values) == 6
        else _IDENTITY
    )


def _times(m: Matrix, n: Matrix) -> Matrix:
    """``m`` × ``n`` (PDF's row-vector convention: ``cm`` sets CTM = M × CTM)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (
        a * p + b * r,
        a * q + b * s,
        c * p + d * r,
        c * q + d * s,
        e * p + f * r + t,
        e * q + f * s + u,
    )


def _image_share(ctm: Matrix, box: tuple[float, float, float, float]) -> float:
    """The share of the page box that the unit square drawn under ``ctm`` covers."""
    a, b, c, d, e, f = ctm
    xs = [e, a + e, c + e, a + c + e]
    ys = [f, b + f, d + f, b + d + f]
    x0, y0, x1, y1 = box
    width = max(0.0, min(max(xs), x1) - max(min(xs), x0))
    height = max(0.0, min(max(ys), y1) - max(min(ys), y0))
    area = (x1 - x0) * (y1 - y0)
    return width * height / area if area > 0 else 0.0


def split_invisible(page: Any, reader: Any) -> PageSplit:
    """Extract a page's visible text and its invisible text separately.

    The content stream is walked once, tracking the text render mode and the transformation
    matrix through the graphics-state stack (``q`` / ``Q``; a ``Q``
    with nothing saved changes nothing, as viewers do); each form XObject drawn is walked the
    same way with the state it inherits, and each image drawn records the share of the page
    it covers. Two copies of the stream are extracted with pypdf, one with the invisible
    strings blanked, one with the visible strings blanked; a form's texts follow its page's.

    Args:
        page: A pypdf ``PageObject``.
        reader: Its ``PdfReader``.

    Returns:
        The split (:class:`PageSplit`).
    """
    from pypdf.generic import ContentStream

    try:
        x0, y0, x1, y1 = (float(v) for v in page.get("/CropBox") or page.get("/MediaBox"))
        box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    except (TypeError, ValueError):
        box = (0.0, 0.0, 612.0, 792.0)
    image_share = 0.0
    active: set[int] = set()  # forms being walked (a form drawing itself is not followed)

    def walk(stream: Any, resources: Any, mode: int, ctm: Matrix, depth: int) -> tuple[str, str]:
        nonlocal image_share
        # Strings stay bytes, for the fonts to decode them as LangChain's extraction does.
        ops = ContentStream(stream, reader, "bytes").operations
        xobjects = _xobjects(resources)
        visible_ops: list[tuple[list[Any], bytes]] = []
        hidden_ops: list[tuple[list[Any], bytes]] = []
        extra_visible: list[str] = []
        extra_hidden: list[str] = []
        stack: list[tuple[int, Matrix]] = []
        for operands, operator in ops:
            if operator == b"q":
                stack.append((mode, ctm))
            elif operator == b"Q":
                if stack:
                    mode, ctm = stack.pop()
            elif operator == b"Tr" and operands:
                mode = _mode(operands[0]) or 0
            elif operator == b"cm":
                ctm = _times(_matrix(operands), ctm)
            if operator in _SHOW_TEXT:
                invisible = mode in INVISIBLE_RENDER_MODES
                visible_ops.append(
                    (_blank(operator, operands) if invisible else operands, operator)
                )
                hidden_ops.append((operands if invisible else _blank(operator, operands), operator))
                continue
            if operator == b"INLINE IMAGE":
                image_share = max(image_share, _image_share(ctm, box))
            elif operator == b"Do" and operands:
                xobject = xobjects.get(str(operands[0]))
                subtype = None if xobject is None else xobject.get("/Subtype")
                if subtype == "/Image":
                    image_share = max(image_share, _image_share(ctm, box))
                elif (
                    subtype == "/Form"
                    and xobject is not None
                    and id(xobject) not in active
                    and depth < MAX_FORM_DEPTH
                ):
                    matrix = xobject.get("/Matrix")
                    inner = _times(_matrix(matrix), ctm) if matrix is not None else ctm
                    own = xobject.get("/Resources")
                    active.add(id(xobject))
                    try:
                        v, h = walk(
                            xobject, own if own is not None else resources, mode, inner, depth + 1
                        )
                    finally:
                        active.discard(id(xobject))
                    extra_visible.append(v)
                    extra_hidden.append(h)
                continue  # forms are split above; images carry no text
            visible_ops.append((operands, operator))
            hidden_ops.append((operands, operator))
        texts = []
        for new_ops, extra in ((visible_ops, extra_visible), (hidden_ops, extra_hidden)):
            parts = [_extract(new_ops, resources, page, reader), *extra]
            texts.append("\n".join(p for p in parts if p))
        return texts[0], texts[1]

    contents = page.get_contents()
    if contents is None:
        return PageSplit("", "", 0.0)
    visible, invisible = walk(contents, page.get("/Resources"), 0, _IDENTITY, 0)
    return PageSplit(visible, invisible, image_share)


def unix_newlines(text: str) -> str:
    """``text`` with CR LF and lone CR line ends as LF (pypdf emits all three)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def running_lines(pages: list[str]) -> set[str]:
    """Find running headers/footers: edge lines repeated on most pages (digits ignored),
    whose numbers are the same on every page, count the pages or number their section.

    A line is compared with its digits as ``#`` (``Page 3 of 10`` and ``Page 4 of 10`` are
    one line); it is running when it is on an edge of at least half the pages (and three; in
    a document of two pages, on an edge of both, an edge there being
    :data:`TWO_PAGE_EDGE_LINES` lines) and each of its numbers either never changes (``©
    2025 Northwind``, ``of 10``), counts the pages (``Page 3``, ``F-12``) or numbers their
    section (``Item 8``; :func:`_numbers_run`). A line whose numbers change otherwise is the
    pages' content in a repeated layout, kept: one payslip per page ends ``Net pay: 2,310.40
    GBP`` with another amount on each. (A figure these rules cannot tell from a page or
    section number — the same amount on every page, or one rising in steps — still reads as
    running.)

    Args:
        pages: Page texts.

    Returns:
        Normalised lines (see ``norm_line``) that are running headers or footers.
    """
    if len(pages) < 2:
        return set()
    seen: dict[str, list[tuple[int, tuple[int, ...]]]] = {}
    reach = edge_lines(len(pages))
    for index, body in enumerate(pages):
        lines = [ln for ln in body.split("\n") if ln.strip()]
        edge: dict[str, tuple[int, ...]] = {}
        for ln in lines[:reach] + lines[-reach:]:
            edge.setdefault(norm_line(ln), tuple(int(d) for d in re.findall(r"\d+", ln)))
        for norm, numbers in edge.items():
            seen.setdefault(norm, []).append((index, numbers))
    # two pages: on the edges of both (a manual's header and footer); else half, and three
    need = 2 if len(pages) == 2 else max(3, int(len(pages) * RUNNING_SHARE + 0.999))
    return {
        norm
        for norm, found in seen.items()
        if len(found) >= need and len(norm) <= 120 and _numbers_run(found)
    }


def _numbers_run(found: list[tuple[int, tuple[int, ...]]]) -> bool:
    """Whether a repeated line's numbers (per page: its index and the line's numbers) are
    each the same on every page, count the pages, or number the section the pages are in
    (:func:`running_lines`).

    A number counts the pages when, from one page the line is on to the next, it grows by
    as many pages as lie between them, for at least half of those steps: a numbering that
    restarts (an exhibit's ``1`` after page ``112``) is still a page number. A number names
    the pages' section (``Item 7`` over several pages, then ``Item 8``) when it never
    decreases and holds each value over two pages on average. Anything else (one
    payslip's net pay per page) is the pages' content.
    """
    for j in range(len(found[0][1])):
        values = [numbers[j] for _, numbers in found]
        if len(set(values)) == 1:
            continue
        steps = list(itertools.pairwise(found))
        counted = sum(b[1][j] - a[1][j] == b[0] - a[0] for a, b in steps)
        if 2 * counted >= len(steps):
            continue
        if values == sorted(values) and 2 * len(set(values)) <= len(values):
            continue
        return False
    return True


def edge_lines(pages: int) -> int:
    """How many lines on each edge of a page may be running lines, for a document of
    ``pages`` pages (:data:`EDGE_LINES`, :data:`TWO_PAGE_EDGE_LINES`)."""
    return TWO_PAGE_EDGE_LINES if pages == 2 else EDGE_LINES


def trim_running(body: str, running: set[str], reach: int = EDGE_LINES) -> tuple[int, int]:
    """Return ``(start, end)`` inside ``body`` that excludes running lines at its edges
    (up to ``reach`` lines on each, :func:`edge_lines`)."""
    start, end = 0, len(body)
    for _ in range(reach):
        nl = body.find("\n", start)
        line = body[start : (nl if nl >= 0 else end)]
        if not line.strip() or norm_line(line) not in running or nl < 0:
            break
        start = nl + 1
    for _ in range(reach):
        nl = body.rfind("\n", start, end)
        line = body[nl + 1 : end]
        if not line.strip() or norm_line(line) not in running or nl < 0:
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


def load_pdf(
    path: Path, data: bytes, password: str | None = None, ocr_engine: OcrEngine | None = None
) -> ParsedDocument:
    """Load a PDF page by page; scanned pages without text are OCR'd (:mod:`loaders.pdf_ocr`).

    Args:
        path: The file's path (``PyPDFLoader`` reads it from disk).
        data: The file's bytes, used for quick sanity checks.
        password: Password for encrypted files; ``None`` lets pypdf try the empty password.
        ocr_engine: The OCR engine for scanned pages; ``None`` takes the default
            (:func:`loaders.ocr.default_engine`: Tesseract unless ``CITERAG_OCR=0``).

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
    bodies = [unix_newlines(p.page_content) for p in pages]
    invisible = _drop_invisible(path, password, bodies)
    blank = [
        i + 1 for i, body in enumerate(bodies) if len("".join(body.split())) < NEAR_EMPTY_CHARS
    ]
    ocr = ocr_empty_pages(path, blank, password=password, engine=ocr_engine)
    for number, result in list(ocr.pages.items()):
        # as few characters as an empty page's: a signature or a logo, not text to index
        if len("".join(result.text.split())) < NEAR_EMPTY_CHARS:
            ocr.blank.append(ocr.pages.pop(number).page)
        else:
            bodies[number - 1] = result.text

    parts: list[str] = []
    segments: list[Segment] = []
    empty: list[int] = []
    pos = 0
    offsets: list[int] = []
    running = running_lines(bodies)
    for i, (page, body) in enumerate(zip(pages, bodies, strict=True)):
        number = int(page.metadata.get("page", i)) + 1
        if len("".join(body.split())) < NEAR_EMPTY_CHARS:
            empty.append(number)
        if i:
            parts.append(PAGE_SEPARATOR)
            pos += len(PAGE_SEPARATOR)
        offsets.append(pos)
        parts.append(body)
        # Running headers/footers stay in the canonical text but outside the segment, so
        # they are neither embedded nor quoted.
        start, end = trim_running(body, running, edge_lines(len(pages)))
        if body[start:end].strip():
            segments.append(Segment(pos + start, pos + end, page=number))
        pos += len(body)
    text = "".join(parts)
    emphasised: dict[int, set[str]] = {}
    tables = (
        []
        if len(empty) == len(pages)
        else pdf_tables(
            path,
            bodies,
            offsets,
            running,
            password=password,
            ocr_pages=ocr.pages,
            emphasised=emphasised,
        )
    )
    tables = _inside_segments(tables, segments)
    # a line the table reader took into a table's title is the table's (its rows carry it),
    # however large its type: a statement's title stays where it is
    for table in tables:
        if table.page in emphasised:
            emphasised[table.page] = {
                line for line in emphasised[table.page] if line not in table.title
            }
    if len(empty) == len(pages) and invisible.hidden_chars:
        raise DocumentLoadError(
            f"{path.name}: all of its text is invisible (render mode 3 or 7, "
            f"{invisible.hidden_chars} characters): nothing a reader sees is left to index",
            kind="empty",
        )
    if len(empty) == len(pages):
        if ocr.blank and not ocr.reason:
            ocr.reason = f"OCR found no text on its {len(ocr.blank)} scanned page(s)"
        why = f" ({ocr.reason})" if ocr.reason else ""
        raise DocumentLoadError(
            f"{path.name}: no text layer on any of its {len(pages)} page(s); "
            f"it looks scanned and needs OCR before it can be indexed{why}",
            kind="needs_ocr",
        )
    meta = pages[0].metadata
    pdf_title = str(meta.get("title") or "").strip()
    if names_only_the_file(pdf_title, path.name):
        pdf_title = ""  # a scanner's or converter's /Title: the file name again
    # no title of its own (none, or an accession number): the first page's title line, when
    # the file name agrees
    opening = (
        None
        if is_meaningful_title(pdf_title)
        else opening_title(_first_page(text, segments), path.name)
    )
    title = opening or pdf_title or file_title(path.name)
    # section headings cut the pages into sections (never inside a table the reader found)
    segments, headings = split_at_headings(
        text,
        segments,
        skip=[(t.start, t.end) for t in tables],
        title=opening or "",
        emphasised=emphasised,
    )
    warn = []
    if running:
        warn.append(f"running header/footer lines left out of chunks: {sorted(running)[:10]}")
    if empty:
        warn.append(f"{len(empty)} of {len(pages)} pages have no or almost no text: {empty[:20]}")
    if invisible.hidden_chars:
        warn.append(
            f"left out {invisible.hidden_chars} characters of invisible text (render mode 3 or 7)"
        )
    if invisible.ocr_pages:
        warn.append(
            f"kept the invisible text layer of {len(invisible.ocr_pages)} scanned page(s) as "
            f"their OCR text: {invisible.ocr_pages[:20]}"
        )
    warn += _ocr_warnings(ocr)
    if invisible.unsplit_pages:
        warn.append(
            "pages that draw invisible text but could not be split, kept as extracted: "
            f"{invisible.unsplit_pages[:20]}"
        )
    parser = f"langchain_community.PyPDFLoader (pypdf {pypdf_version}, plain; no invisible text)"
    placed = {n: r.placed(offsets[n - 1]) for n, r in ocr.pages.items()}
    if placed:
        engine = next(iter(placed.values())).engine
        parser += f"; OCR {engine} at {DEFAULT_DPI} dpi ({len(placed)} pages)"
    return ParsedDocument(
        text=text,
        segments=segments,
        title=title,
        file_type="pdf",
        title_source="first_heading" if opening else "pdf_title" if pdf_title else "file_name",
        first_heading=opening,
        pages=len(pages),
        empty_pages=empty,
        parser=parser,
        warnings=warn,
        hidden_chars=invisible.hidden_chars,
        tables=tables,
        headings=[(h.start, h.end) for h in headings],
        ocr_pages=placed,
    )


def _first_page(text: str, segments: list[Segment]) -> str:
    """The text of the first page with text (its running lines left out)."""
    return text[segments[0].start : segments[0].end] if segments else ""


def _ocr_warnings(ocr: PdfOcr) -> list[str]:
    """The parsing review's lines about OCR: pages read, low confidence, skipped, failed."""
    warn = []
    if ocr.pages:
        warn.append(f"OCR read {len(ocr.pages)} scanned page(s): {sorted(ocr.pages)[:20]}")
    low = low_confidence(ocr.pages)
    if low:
        shown = {n: ocr.pages[n].confidence for n in low[:20]}
        warn.append(
            f"low OCR confidence (below {LOW_CONFIDENCE:.0%}) on {len(low)} page(s): {shown}"
        )
    if ocr.blank:
        warn.append(
            f"OCR found no text (under {NEAR_EMPTY_CHARS} characters) on {len(ocr.blank)} "
            f"scanned page(s), left empty: {ocr.blank[:20]}"
        )
    if ocr.skipped:
        warn.append(
            f"{len(ocr.skipped)} scanned page(s) not OCR'd, {ocr.reason}: {ocr.skipped[:20]}"
        )
    if ocr.failed:
        warn.append(
            f"OCR failed on {len(ocr.failed)} page(s): {dict(list(ocr.failed.items())[:5])}"
        )
    return warn


def _inside_segments(tables: list[Table], segments: list[Segment]) -> list[Table]:
    """The tables with only their rows inside a segment (a running line is never a row)."""
    out = []
    for table in tables:
        rows = [
            r for r in table.rows if any(s.start <= r.start and r.end <= s.end for s in segments)
        ]
        if len(rows) >= 2:
            table.rows = rows
            table.start, table.end = rows[0].start, rows[-1].end
            out.append(table)
    return out


@dataclass
class InvisibleText:
    """What the invisible-text rule did to a PDF.

    Attributes:
        hidden_chars: Characters of invisible text left out.
        ocr_pages: 1-based pages whose invisible text was kept as a scan's OCR layer.
        unsplit_pages: 1-based pages that set an invisible mode but could not be split
            (their text is kept as LangChain extracted it).
    """

    hidden_chars: int = 0
    ocr_pages: list[int] = field(default_factory=list)
    unsplit_pages: list[int] = field(default_factory=list)


def _drop_invisible(path: Path, password: str | None, bodies: list[str]) -> InvisibleText:
    """Replace, in place, the text of each page that drew invisible text by its visible text.

    Args:
        path: The PDF.
        password: As for ``load_pdf``.
        bodies: Page texts as LangChain extracted them (modified in place).

    Returns:
        What was left out and kept (:class:`InvisibleText`).
    """
    from pypdf import PdfReader

    out = InvisibleText()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            reader = PdfReader(str(path), password=password)
            pages = list(reader.pages)
        except Exception as exc:  # LangChain's reader opened it; this one must too
            log.warning("%s: not checked for invisible text (%s)", path.name, exc)
            return out
        for i, page in enumerate(pages[: len(bodies)]):
            if not uses_invisible_mode(page):
                continue
            try:
                split = split_invisible(page, reader)
            except Exception as exc:  # a content stream pypdf reads but cannot rewrite
                log.warning("%s page %d: invisible text not split (%s)", path.name, i + 1, exc)
                out.unsplit_pages.append(i + 1)
                continue
            if not split.invisible:
                continue
            if split.is_ocr_layer():
                out.ocr_pages.append(i + 1)
                continue
            bodies[i] = unix_newlines(split.visible)
            out.hidden_chars += len(" ".join(split.invisible.split()))
    if out.hidden_chars:
        log.info("%s: left out %d characters of invisible text", path.name, out.hidden_chars)
    return out

"""Opening a citation: a document's canonical text, its PDF pages as images, and where the
cited quote sits on the page.

A citation carries ``doc_id``, ``start``/``end`` in the document's canonical text and, for
PDFs, its 1-based ``page``. This module turns that into what the viewer page shows:

* **Text, Markdown, HTML**: the canonical text itself (:meth:`DocumentViews.canonical`).
  It is re-read from the file the manifest records with :func:`loaders.registry.load_file`
  (the loader ingest used), after checking that the file's sha256 and the text's length are
  still those of the indexed build, so ``text[start:end]`` is exactly the cited range.
* **PDF**: the page rendered to PNG by pdfium (:meth:`DocumentViews.page_png`) and the
  quote's rectangles on it (:meth:`DocumentViews.page_highlight`). pypdf (which built the
  canonical text) and pdfium extract text slightly differently, so the quote
  ``canonical[start:end]`` is looked up in pdfium's text of that page
  (:func:`locate_quote`): first with whitespace runs collapsed, then ignoring whitespace and
  soft hyphens altogether, then as the best fuzzy match (:data:`MIN_FUZZY_SCORE`). When the
  quote occurs more than once, the occurrence nearest the quote's relative position inside
  the page's segment wins. The matched characters' line rectangles (pdfium's own selection
  rectangles) are mapped to fractions of the rendered page through pdfium's page-to-device
  transform (crop box and ``/Rotate`` included), and each rectangle's text is read back
  from the characters inside it, so a client can check what is highlighted.
* **Scanned pages and images** (read by OCR at ingest): the loader's re-read OCRs the page
  again (deterministic: one Tesseract thread), and the quote's words are marked with their
  own OCR boxes (:func:`ocr_highlight`); an image's page is its frame as PNG.
* **E-mail attachments** (documents of their own, see :mod:`citerag.index.attached`): the
  record's ``path`` is the message file, checked against its sha256 as for any file; the
  attachment's bytes are read from it by the record's ``attachment_positions``
  (:func:`loaders.attachments.read_attachment`) and loaded by the loader for its name, and
  a PDF or image attachment's pages are rendered from those bytes.

pdfium is not thread-safe: every call into it holds :data:`PDFIUM_LOCK`.
"""

from __future__ import annotations

import ctypes
import hashlib
import io
import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from citerag.core.lru import LRU
from loaders.base import DocumentLoadError, ParsedDocument, Segment
from loaders.image import upright_rgb
from loaders.ocr import OcrPage, PageWord, words_in_range

log = logging.getLogger(__name__)

#: Serialises every pdfium call in the process (the library is not thread-safe).
PDFIUM_LOCK = threading.Lock()
#: Lowest share of the quote's characters a fuzzy match must align to count as found.
MIN_FUZZY_SCORE = 0.75
#: Default and allowed render scales (1.0 = 72 pixels per inch).
DEFAULT_SCALE = 2.0
MIN_SCALE, MAX_SCALE = 0.5, 4.0
#: Largest rendered image (pixels); the scale is lowered for very large pages.
MAX_PIXELS = 12_000_000
#: Characters dropped before the whitespace-insensitive match (soft hyphen, pdfium's
#: generated line-end hyphen marker, zero-width space).
_IGNORABLE = frozenset("\u00ad\u0002\u200b")
_WS = re.compile(r"\s")
#: Device size used to express rectangles as fractions of the rendered page.
_DEVICE = 100_000


class ViewerError(Exception):
    """A document or page cannot be shown; carries the HTTP status and a detail."""

    def __init__(self, status: int, detail: str) -> None:
        """Record the status and the detail."""
        super().__init__(detail)
        self.status = status
        self.detail = detail


# -- locating the quote in pdfium's page text (pure) -----------------------------------------


@dataclass(frozen=True)
class QuoteMatch:
    """Where a quote was found in a page's text.

    Attributes:
        start: First character index (pdfium text-page index) of the match.
        end: One past the last matched character.
        method: ``exact`` (whitespace runs collapsed), ``spacing`` (whitespace and soft
            hyphens ignored) or ``fuzzy`` (best approximate alignment).
        score: Share of the quote's characters matched (1.0 unless fuzzy).
    """

    start: int
    end: int
    method: str
    score: float = 1.0


def fold(text: str, *, drop_spaces: bool) -> tuple[str, list[int]]:
    """Normalise text for matching and keep a map back to the original indices.

    Every character is NFKC-normalised (ligatures such as ``ﬁ`` become ``fi``). With
    ``drop_spaces`` whitespace and soft hyphens are removed; without it each whitespace run
    becomes one space and leading/trailing whitespace is dropped.

    Args:
        text: The text.
        drop_spaces: Remove whitespace entirely instead of collapsing it.

    Returns:
        ``(folded, origin)`` where ``origin[i]`` is the index in ``text`` of the character
        that produced ``folded[i]``.
    """
    out: list[str] = []
    origin: list[int] = []
    pending_space = -1
    for i, ch in enumerate(text):
        if ch in _IGNORABLE:
            continue
        if _WS.match(ch):
            if not drop_spaces and out and pending_space < 0:
                pending_space = i
            continue
        if pending_space >= 0:
            out.append(" ")
            origin.append(pending_space)
            pending_space = -1
        for part in unicodedata.normalize("NFKC", ch):
            out.append(part)
            origin.append(i)
    return "".join(out), origin


def _occurrences(haystack: str, needle: str) -> list[int]:
    found, at = [], haystack.find(needle)
    while at >= 0:
        found.append(at)
        at = haystack.find(needle, at + 1)
    return found


def _nearest(positions: Sequence[int], total: int, hint: float | None) -> int:
    if hint is None or len(positions) == 1:
        return positions[0]
    return min(positions, key=lambda p: abs(p / max(total, 1) - hint))


def _fuzzy(haystack: str, needle: str) -> tuple[int, int, float] | None:
    """Best window of ``haystack`` aligning with ``needle``: ``(start, end, score)``."""
    blocks = [
        b
        for b in SequenceMatcher(None, haystack, needle, autojunk=False).get_matching_blocks()
        if b.size
    ]
    if not blocks:
        return None
    span = len(needle)
    best: tuple[int, int, float] | None = None
    for anchor in blocks:
        lo = anchor.a - anchor.b  # where the needle would start if this block is in place
        hi = lo + span
        inside = [b for b in blocks if b.a >= lo - span // 4 and b.a + b.size <= hi + span // 4]
        matched = sum(b.size for b in inside)
        score = matched / span
        if best is None or score > best[2]:
            start = min(b.a for b in inside)
            end = max(b.a + b.size for b in inside)
            best = (start, end, score)
    return best


def locate_quote(
    page_text: str,
    quote: str,
    hint: float | None = None,
    *,
    min_score: float = MIN_FUZZY_SCORE,
) -> QuoteMatch | None:
    """Find a quote (from the canonical text) in a page's text as another extractor read it.

    Args:
        page_text: The page's text (pdfium's, indices are text-page character indices).
        quote: The cited text, ``canonical[start:end]``.
        hint: The quote's relative position (0..1) in its page, used to pick among several
            occurrences; ``None`` takes the first.
        min_score: Lowest fuzzy score accepted.

    Returns:
        The match, or ``None`` when even the best fuzzy alignment is below ``min_score``
        (or the quote is blank).
    """
    for method, drop in (("exact", False), ("spacing", True)):
        hay, origin = fold(page_text, drop_spaces=drop)
        needle, _ = fold(quote, drop_spaces=drop)
        if not needle:
            return None
        hits = _occurrences(hay, needle)
        if hits:
            at = _nearest(hits, len(hay), hint)
            return QuoteMatch(origin[at], origin[at + len(needle) - 1] + 1, method)
    hay, origin = fold(page_text, drop_spaces=True)
    needle, _ = fold(quote, drop_spaces=True)
    best = _fuzzy(hay, needle) if hay else None
    if best is None or best[2] < min_score:
        return None
    start, end, score = best
    return QuoteMatch(origin[start], origin[end - 1] + 1, "fuzzy", round(min(score, 1.0), 3))


# -- canonical ranges and pages (pure) --------------------------------------------------------


def page_segments(doc: ParsedDocument, page: int) -> list[Segment]:
    """The segments of a 1-based page (PDF loaders emit at most one per page)."""
    return [s for s in doc.segments if s.page == page]


def position_on_page(doc: ParsedDocument, page: int, start: int, end: int) -> float:
    """Relative position (0..1) of a canonical range inside its page's segment.

    Args:
        doc: The parsed PDF.
        page: 1-based page number.
        start: First character of the range in the canonical text.
        end: One past its last character.

    Returns:
        ``(start - segment.start) / segment length``.

    Raises:
        ViewerError: 422 when the range does not lie inside that page.
    """
    for seg in page_segments(doc, page):
        if seg.start <= start < end <= seg.end:
            return (start - seg.start) / max(seg.end - seg.start, 1)
    raise ViewerError(422, f"characters {start}-{end} are not on page {page}")


def check_range(text: str, start: int, end: int) -> None:
    """Refuse a character range that is empty or outside the text.

    Raises:
        ViewerError: 422 naming the text's length.
    """
    if not 0 <= start < end <= len(text):
        raise ViewerError(
            422, f"need 0 <= start < end <= {len(text)} (the document's length), got {start}-{end}"
        )


def section_at(doc: ParsedDocument, start: int) -> str:
    """The section path of the segment holding ``start`` ('' when there is none)."""
    for seg in doc.segments:
        if seg.start <= start < seg.end:
            return seg.section
    return ""


@dataclass(frozen=True)
class Box:
    """A rectangle as fractions of the rendered page (origin top left).

    Attributes:
        left: Distance from the left edge / page width.
        top: Distance from the top edge / page height.
        width: Width / page width.
        height: Height / page height.
        text: The characters inside the rectangle, as pdfium reads them.
    """

    left: float
    top: float
    width: float
    height: float
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        """Rounded for the wire."""
        return {
            "left": round(self.left, 5),
            "top": round(self.top, 5),
            "width": round(self.width, 5),
            "height": round(self.height, 5),
            "text": self.text,
        }


def box_from_corners(
    corners: Sequence[tuple[float, float]], device: float = _DEVICE, pad: float = 0.0
) -> Box:
    """A :class:`Box` from a rectangle's corners in device units (``device`` = full page).

    Args:
        corners: The rectangle's corners mapped to device coordinates (y down).
        device: The device size the corners were mapped with (both axes).
        pad: Padding added on every side, as a fraction of the page.

    Returns:
        The box, clamped to the page.
    """
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    left = max(min(xs) / device - pad, 0.0)
    top = max(min(ys) / device - pad, 0.0)
    right = min(max(xs) / device + pad, 1.0)
    bottom = min(max(ys) / device + pad, 1.0)
    return Box(left, top, max(right - left, 0.0), max(bottom - top, 0.0))


def fit_scale(width_pt: float, height_pt: float, scale: float) -> float:
    """Lower ``scale`` so the rendered image stays under :data:`MAX_PIXELS`."""
    pixels = width_pt * height_pt * scale * scale
    if pixels <= MAX_PIXELS:
        return scale
    return float((MAX_PIXELS / max(width_pt * height_pt, 1.0)) ** 0.5)


# -- pdfium ------------------------------------------------------------------------------------


@dataclass
class PageHighlight:
    """What the viewer draws over a rendered page.

    Attributes:
        page: 1-based page number.
        pages: Pages in the document.
        width: Rendered page width in points (crop box, rotation applied).
        height: Rendered page height in points.
        quote: The cited text (``canonical[start:end]``).
        boxes: The quote's rectangles (empty when it was not found).
        text: The highlighted characters as pdfium reads them ('' when not found).
        method: How the quote was found (:class:`QuoteMatch`), or ``none``.
        score: Share of the quote matched.
        note: Human-readable remark (set when the match is fuzzy or missing).
    """

    page: int
    pages: int
    width: float
    height: float
    quote: str
    boxes: list[Box] = field(default_factory=list)
    text: str = ""
    method: str = "none"
    score: float = 0.0
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The JSON the viewer route returns."""
        return {
            "page": self.page,
            "pages": self.pages,
            "width": round(self.width, 2),
            "height": round(self.height, 2),
            "quote": self.quote,
            "boxes": [b.to_json() for b in self.boxes],
            "text": self.text,
            "method": self.method,
            "score": self.score,
            "note": self.note,
        }


def _open_pdf(path: Path | bytes) -> Any:
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(path if isinstance(path, bytes) else str(path))
    except pdfium.PdfiumError as exc:
        raise ViewerError(409, f"pdfium cannot open this PDF ({exc})") from exc


def _page(pdf: Any, page: int) -> Any:
    if not 1 <= page <= len(pdf):
        raise ViewerError(404, f"no page {page} (the document has {len(pdf)})")
    return pdf[page - 1]


def _device_mapper(page: Any) -> Callable[[float, float], tuple[float, float]]:
    """Page space -> device space of a :data:`_DEVICE`-square rendering (as render() maps)."""
    import pypdfium2.raw as raw

    def to_device(x: float, y: float) -> tuple[float, float]:
        dx, dy = ctypes.c_int(), ctypes.c_int()
        raw.FPDF_PageToDevice(
            page.raw, 0, 0, _DEVICE, _DEVICE, 0, x, y, ctypes.byref(dx), ctypes.byref(dy)
        )
        return float(dx.value), float(dy.value)

    return to_device


def render_page_png(path: Path | bytes, page: int, scale: float) -> bytes:
    """Render one page of a PDF to PNG bytes.

    Args:
        path: The PDF (a file, or its bytes).
        page: 1-based page number.
        scale: Pixels per point (lowered for very large pages, see :func:`fit_scale`).

    Returns:
        The PNG image.

    Raises:
        ViewerError: 404 for a page the document does not have; 409 if pdfium cannot open it.
    """
    with PDFIUM_LOCK:
        pdf = _open_pdf(path)
        try:
            pg = _page(pdf, page)
            width, height = pg.get_size()
            bitmap = pg.render(scale=fit_scale(width, height, scale), may_draw_forms=True)
            image = bitmap.to_pil()
        finally:
            pdf.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def highlight_on_page(
    path: Path | bytes, page: int, quote: str, hint: float | None
) -> PageHighlight:
    """Find a quote on a PDF page and return its rectangles as fractions of the page.

    Args:
        path: The PDF.
        page: 1-based page number.
        quote: The cited text.
        hint: The quote's relative position in the page (see :func:`position_on_page`).

    Returns:
        The highlight; ``boxes`` is empty and ``note`` explains when the quote was not found.

    Raises:
        ViewerError: 404 for a page the document does not have; 409 if pdfium cannot open it.
    """
    with PDFIUM_LOCK:
        pdf = _open_pdf(path)
        try:
            pg = _page(pdf, page)
            width, height = pg.get_size()
            out = PageHighlight(page, len(pdf), width, height, quote)
            textpage = pg.get_textpage()
            page_text = textpage.get_text_range()
            match = locate_quote(page_text, quote, hint)
            if match is None:
                out.note = (
                    "The quote could not be located in this page's text layer (the PDF's "
                    "text reads differently here); the page is shown without a highlight."
                )
                return out
            to_device = _device_mapper(pg)
            count = textpage.count_rects(match.start, match.end - match.start)
            boxes = []
            for i in range(count):
                left, bottom, right, top = textpage.get_rect(i)
                corners = [to_device(left, top), to_device(right, bottom)]
                box = box_from_corners(corners, pad=0.002)
                text = textpage.get_text_bounded(left, bottom, right, top)
                boxes.append(Box(box.left, box.top, box.width, box.height, text))
            out.boxes = boxes
            out.text = textpage.get_text_range(match.start, match.end - match.start)
            out.method, out.score = match.method, match.score
            if match.method == "fuzzy":
                out.note = (
                    f"Approximate match ({match.score:.0%} of the quote's characters): the "
                    "PDF's text layer reads slightly differently from the indexed text."
                )
            return out
        finally:
            pdf.close()


# -- OCR pages (scans and images: the recognised words' own boxes) ---------------------------


def ocr_highlight(ocr: OcrPage, pages: int, text: str, start: int, end: int) -> PageHighlight:
    """The rectangles of ``text[start:end]`` on a page read by OCR, from its words' boxes.

    The page has no text layer for pdfium to search: the words OCR recognised carry their
    canonical character ranges and their boxes in points (:class:`loaders.ocr.OcrPage`), so
    the words overlapping the range are marked, one rectangle per line.

    Args:
        ocr: The page's OCR result, placed in the canonical text.
        pages: Pages in the document.
        text: The canonical text.
        start: First character of the quote.
        end: One past its last character.

    Returns:
        The highlight (``method`` ``ocr``).
    """
    out = PageHighlight(ocr.page, pages, ocr.width, ocr.height, text[start:end])
    words = words_in_range(ocr, start, end)
    if not words or ocr.width <= 0 or ocr.height <= 0:
        out.note = "The quote's words were not found among this scanned page's OCR words."
        return out
    lines: list[list[PageWord]] = [[words[0]]]
    for word in words[1:]:
        if "\n" in text[lines[-1][-1].end : word.start]:
            lines.append([word])
        else:
            lines[-1].append(word)
    pad = 0.002
    for line in lines:
        left = max(min(w.box[0] for w in line) / ocr.width - pad, 0.0)
        top = max(min(w.box[1] for w in line) / ocr.height - pad, 0.0)
        right = min(max(w.box[2] for w in line) / ocr.width + pad, 1.0)
        bottom = min(max(w.box[3] for w in line) / ocr.height + pad, 1.0)
        said = " ".join(text[w.start : w.end] for w in line)
        out.boxes.append(Box(left, top, right - left, bottom - top, said))
    out.text = " ".join(b.text for b in out.boxes)
    out.method, out.score = "ocr", 1.0
    out.note = (
        f"This page is a scan read by OCR (confidence {ocr.confidence:.0%}): the highlight "
        "marks the recognised words; check the quote against the image."
    )
    return out


def render_image_png(path: Path | bytes, page: int) -> bytes:
    """One page (frame) of an image file as PNG, shrunk under :data:`MAX_PIXELS`.

    Raises:
        ViewerError: 404 for a frame the file does not have; 409 if it cannot be decoded.
    """
    from PIL import Image

    try:
        with Image.open(io.BytesIO(path) if isinstance(path, bytes) else path) as image:
            frames = int(getattr(image, "n_frames", 1) or 1)
            if not 1 <= page <= frames:
                raise ViewerError(404, f"no page {page} (the image has {frames})")
            image.seek(page - 1)
            frame = upright_rgb(image).convert("RGB")
    except ViewerError:
        raise
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise ViewerError(409, f"the image cannot be decoded ({exc})") from exc
    if frame.width * frame.height > MAX_PIXELS:
        ratio = (MAX_PIXELS / (frame.width * frame.height)) ** 0.5
        frame = frame.resize((int(frame.width * ratio), int(frame.height * ratio)))
    buf = io.BytesIO()
    frame.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


# -- documents -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenedDocument:
    """A document re-read for viewing.

    Attributes:
        doc_id: The document id.
        path: Where the file is (server side only, never sent to clients).
        parsed: The loader's result; ``parsed.text`` is the canonical text.
        member: An e-mail attachment's own bytes (``path`` is then its message file).
    """

    doc_id: str
    path: Path
    parsed: ParsedDocument
    member: bytes | None = None

    @property
    def pages_from(self) -> Path | bytes:
        """What its pages are rendered from: the attachment's bytes, else the file."""
        return self.member if self.member is not None else self.path


class DocumentViews:
    """Re-reads indexed documents for the viewer, with small per-process caches.

    Canonical texts are cached by ``(doc_id, sha256)`` and rendered pages by
    ``(doc_id, sha256, page, scale)``; least recently used entries are dropped.
    """

    def __init__(self, *, max_documents: int = 8, max_images: int = 32) -> None:
        """Create empty caches.

        Args:
            max_documents: Canonical texts kept in memory.
            max_images: Rendered PNG pages kept in memory.

        Raises:
            ValueError: A size is not an integer >= 0.
        """
        for name, value in (("max_documents", max_documents), ("max_images", max_images)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
        self.max_documents = max_documents
        self.max_images = max_images
        self._docs: LRU[tuple[str, str], OpenedDocument] = LRU(max_documents)
        self._images: LRU[tuple[str, str, int, float], bytes] = LRU(max_images)

    def canonical(self, record: dict[str, Any]) -> OpenedDocument:
        """Re-read an indexed document exactly as ingest read it.

        Args:
            record: The document's manifest record (``doc_id``, ``path``, ``sha256``,
                ``characters``; an attachment's link fields).

        Returns:
            The opened document.

        Raises:
            ViewerError: 410 when the file is gone; 409 when it changed since it was
                indexed (other bytes, or the loader now reads it to a different length).
        """
        from loaders.attachments import read_attachment
        from loaders.pipeline import AttachedTo
        from loaders.registry import load_attachment, load_file

        doc_id = str(record.get("doc_id") or "")
        sha = str(record.get("sha256") or "")
        hit = self._docs.get((doc_id, sha))
        if hit is not None:
            return hit
        raw_path = record.get("path")
        path = Path(str(raw_path)) if raw_path else None
        if path is None or not path.is_file():
            raise ViewerError(
                410, "the document's file is no longer where it was ingested from; re-ingest it"
            )
        data = path.read_bytes()
        if sha and hashlib.sha256(data).hexdigest() != sha:
            raise ViewerError(
                409, "the document's file changed after it was indexed; re-ingest it to cite it"
            )
        member: bytes | None = None
        attached = AttachedTo.from_record(record)
        try:
            if attached is None:
                parsed = load_file(path, data)
            else:
                name, member = read_attachment(data, attached.positions)
                parsed = load_attachment(name, member)
        except DocumentLoadError as exc:
            raise ViewerError(409, f"the document can no longer be read: {exc.reason}") from exc
        chars = record.get("characters")
        if isinstance(chars, int) and chars != len(parsed.text):
            raise ViewerError(
                409,
                "the loader now reads this document differently from when it was indexed "
                f"({len(parsed.text)} characters, indexed {chars}); re-ingest it",
            )
        opened = OpenedDocument(doc_id, path, parsed, member)
        self._docs.put((doc_id, sha), opened)
        log.info("viewer: opened %s (%d characters)", record.get("doc_name"), len(parsed.text))
        return opened

    def page_png(self, record: dict[str, Any], page: int, scale: float) -> bytes:
        """One PDF page as PNG (see :func:`render_page_png`), cached.

        Raises:
            ViewerError: 422 for a document that is not a PDF; as :meth:`canonical` and
                :func:`render_page_png`.
        """
        opened = self._pdf(record)
        key = (opened.doc_id, str(record.get("sha256") or ""), page, scale)
        hit = self._images.get(key)
        if hit is not None:
            return bytes(hit)
        if opened.parsed.file_type == "image":
            png = render_image_png(opened.pages_from, page)
        else:
            png = render_page_png(opened.pages_from, page, scale)
        self._images.put(key, png)
        return png

    def page_highlight(
        self, record: dict[str, Any], page: int, start: int, end: int
    ) -> PageHighlight:
        """The rectangles of ``canonical[start:end]`` on a PDF page.

        Raises:
            ViewerError: 422 for a document that is not a PDF or a range that is not on
                that page; as :meth:`canonical` and :func:`highlight_on_page`.
        """
        opened = self._pdf(record)
        pages = opened.parsed.pages or 0
        if not 1 <= page <= pages:
            raise ViewerError(404, f"no page {page} (the document has {pages})")
        text = opened.parsed.text
        check_range(text, start, end)
        hint = position_on_page(opened.parsed, page, start, end)
        ocr = opened.parsed.ocr_pages.get(page)
        if ocr is not None:
            return ocr_highlight(ocr, pages, text, start, end)
        return highlight_on_page(opened.pages_from, page, text[start:end], hint)

    def _pdf(self, record: dict[str, Any]) -> OpenedDocument:
        if record.get("file_type") not in ("pdf", "image"):
            raise ViewerError(422, "this document has no pages: open its text instead")
        return self.canonical(record)

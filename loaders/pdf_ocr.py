"""OCR for the pages of a PDF that carry no text layer (scanned pages).

:func:`ocr_empty_pages` is called by :func:`loaders.pdf.load_pdf` with each page's extracted
text. A page with (almost) no text that draws an image is rendered by pdfium at
:data:`loaders.ocr.DEFAULT_DPI` and read by the OCR engine; its text then replaces the empty
extraction, so the page is a segment like any other and offsets hold. Pages without an image
(a blank separator page) are not OCR'd. At most ``CITERAG_OCR_MAX_PAGES`` pages are read per
document (:func:`loaders.ocr.max_pages`); the others are reported, as are pages left unread
because OCR is off or not installed. A progress bar shows on a terminal from
:data:`PROGRESS_MIN_PAGES` pages on; each document's OCR time is logged.
"""

from __future__ import annotations

import logging
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from loaders.ocr import DEFAULT_DPI, OcrEngine, OcrPage, default_engine, max_pages, ocr_image

log = logging.getLogger(__name__)

#: More pages to OCR than this shows a progress bar.
PROGRESS_MIN_PAGES = 5
#: Most pixels a page is rendered to for OCR (as :data:`loaders.image.MAX_IMAGE_PIXELS`): a
#: larger page (a poster, a scan saved at a low resolution; PDF pages may be 200 inches
#: square) is rendered at a lower resolution instead of to gigabytes of bitmap.
MAX_RENDER_PIXELS = 40_000_000


def render_scale(width_pt: float, height_pt: float, dpi: int) -> float:
    """The scale (pixels per point) to render a page at: ``dpi / 72``, lowered so the image
    has at most :data:`MAX_RENDER_PIXELS` pixels.

    Args:
        width_pt: The page's width in points.
        height_pt: Its height in points.
        dpi: The wanted resolution.

    Returns:
        The scale.
    """
    scale = dpi / 72
    area = max(1.0, width_pt) * max(1.0, height_pt)
    if area * scale * scale > MAX_RENDER_PIXELS:
        scale = (MAX_RENDER_PIXELS / area) ** 0.5 * 0.999
    return scale


@dataclass
class PdfOcr:
    """What OCR did to a PDF.

    Attributes:
        pages: 1-based page -> its OCR result (ranges relative to the page's text).
        skipped: Scanned pages not read (over the cap, or OCR off/unavailable).
        reason: Why pages were skipped ('' when none were).
        failed: Pages the engine failed on, with the error.
        blank: Pages OCR found (almost) no text on; the loader moves them here from
            ``pages`` (a signature or a logo reads as a few stray characters).
    """

    pages: dict[int, OcrPage] = field(default_factory=dict)
    blank: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    reason: str = ""
    failed: dict[int, str] = field(default_factory=dict)


def _has_image(page: object) -> bool:
    import pypdfium2.raw as raw

    objects = page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=2)  # type: ignore[attr-defined]
    return next(iter(objects), None) is not None


def ocr_empty_pages(
    path: Path,
    empty: list[int],
    password: str | None = None,
    engine: OcrEngine | None = None,
    dpi: int = DEFAULT_DPI,
) -> PdfOcr:
    """OCR the scanned pages among a PDF's pages without text.

    Args:
        path: The PDF.
        empty: 1-based numbers of the pages with no or almost no extracted text.
        password: As for :func:`loaders.pdf.load_pdf`.
        engine: The OCR engine; ``None`` takes :func:`loaders.ocr.default_engine` (which
            is ``None`` when OCR is off or not installed).
        dpi: Rendering resolution.

    Returns:
        The OCR'd pages and the pages skipped with the reason.
    """
    out = PdfOcr()
    if not empty:
        return out
    import pypdfium2 as pdfium
    from tqdm import tqdm

    reason = ""
    if engine is None:
        engine, reason = default_engine()
    try:
        pdf = pdfium.PdfDocument(str(path), password=password)
    except Exception as exc:  # pypdf read it; pdfium failing only costs the OCR
        log.warning("%s: not rendered for OCR (%s)", path.name, exc)
        out.skipped, out.reason = list(empty), f"pdfium cannot render it ({exc})"
        return out
    try:
        scanned = [n for n in empty if n <= len(pdf) and _has_image(pdf[n - 1])]
        if not scanned:
            out.reason = "none of those pages draws an image to read"
            return out
        if engine is None:
            out.skipped, out.reason = scanned, reason
            return out
        cap = max_pages()
        todo, out.skipped = scanned[:cap], scanned[cap:]
        if out.skipped:
            out.reason = f"over the cap of {cap} OCR pages per document (CITERAG_OCR_MAX_PAGES)"
        bar = tqdm(
            todo,
            desc=f"OCR {path.name}",
            unit="page",
            leave=False,
            disable=len(todo) < PROGRESS_MIN_PAGES or not sys.stderr.isatty(),
        )
        t0 = time.perf_counter()
        for number in bar:
            page = pdf[number - 1]
            scale = render_scale(page.get_width(), page.get_height(), dpi)
            if scale < dpi / 72:
                log.warning(
                    "%s page %d: rendered at %.0f dpi, not %d (over %d pixels)",
                    path.name,
                    number,
                    scale * 72,
                    dpi,
                    MAX_RENDER_PIXELS,
                )
            image = page.render(scale=scale).to_pil()
            try:
                out.pages[number] = ocr_image(
                    image,
                    engine,
                    page=number,
                    dpi=max(1, round(scale * 72)),
                    points_per_pixel=1 / scale,
                )
            except RuntimeError as exc:
                log.warning("%s page %d: OCR failed (%s)", path.name, number, exc)
                out.failed[number] = str(exc)
            finally:
                image.close()
        log.info("%s: OCR'd %d page(s) in %.1f s", path.name, len(todo), time.perf_counter() - t0)
    finally:
        pdf.close()
    return out

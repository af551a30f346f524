"""Image loader: a scan or photo of text (``.png .jpg .jpeg .tif .tiff``) read by OCR.

Each image is one page (each frame of a multi-frame TIFF is a page, at most
``CITERAG_OCR_MAX_PAGES`` of them). The canonical text is the pages' OCR text joined by a
blank line, one segment per page, as for a PDF; each page's words keep their character
ranges and boxes (:class:`loaders.ocr.OcrPage`).

Size is checked before any pixel is decoded: :func:`PIL.Image.open` reads only the header,
so an image over :data:`MAX_IMAGE_PIXELS` (per frame) is refused with ``too_large`` at no
cost, and Pillow's own decompression-bomb guard is turned into the same failure. With OCR
off or not installed, an image fails ``needs_ocr``.
"""

from __future__ import annotations

import io
import logging
import re
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from loaders.base import DocumentLoadError, ParsedDocument, Segment
from loaders.layout_tables import ocr_tables
from loaders.metadata import file_title, opening_title
from loaders.ocr import (
    DEFAULT_DPI,
    LOW_CONFIDENCE,
    OcrEngine,
    OcrPage,
    default_engine,
    low_confidence,
    max_pages,
    ocr_image,
)

log = logging.getLogger(__name__)

#: Suffixes this loader reads.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
#: Largest frame accepted (pixels): an A4 page at 600 dpi is 34.8 million.
MAX_IMAGE_PIXELS = 40_000_000
PAGE_SEPARATOR = "\n\n"
#: A page whose OCR text has fewer non-whitespace characters is left out as empty (a few
#: stray characters read from a logo or a photo are not text to index), as in a PDF —
#: unless OCR read it confidently (:data:`~loaders.ocr.LOW_CONFIDENCE` or more) and it has a
#: word of three letters or digits: a photographed sign, ``FIRE EXIT`` or ``Gate code:
#: 4417``, is the image's whole text (:func:`has_text`).
MIN_PAGE_CHARS = 20
#: The EXIF tag saying how a stored image is turned for display.
_ORIENTATION = 0x0112
#: Resolutions outside this range in a file's header are ignored (Tesseract's own bounds).
_DPI_RANGE = (70, 2400)


def upright_rgb(image: Any) -> Any:
    """The current frame as a reader sees it: turned by its EXIF orientation, transparency
    laid on white, in RGB (or grey).

    A phone stores an upright photo sideways and says so in its EXIF ``Orientation``; a
    logo's black text on a transparent background reads as black on black once the alpha
    channel is dropped. OCR and the viewer's page image both read this version, so the
    words' boxes and the image shown agree.

    Args:
        image: A Pillow image, seeked to the frame.
    """
    from PIL import Image, ImageOps

    frame = ImageOps.exif_transpose(image) if image.getexif().get(_ORIENTATION, 1) != 1 else image
    if frame.mode in ("RGBA", "LA", "PA") or (frame.mode == "P" and "transparency" in frame.info):
        rgba = frame.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("RGB")
    return frame.convert("RGB") if frame.mode not in ("L", "RGB") else frame


def _dpi(info: Mapping[Any, Any]) -> int | None:
    """The image's resolution from its header, when it states a plausible one."""
    raw = info.get("dpi")
    try:
        value = round(float(raw[0]))  # type: ignore[index]
    except (TypeError, ValueError, IndexError):
        return None
    return value if _DPI_RANGE[0] <= value <= _DPI_RANGE[1] else None


def _too_large(name: str, width: int, height: int, frame: int) -> DocumentLoadError:
    where = f" (frame {frame})" if frame else ""
    return DocumentLoadError(
        f"{name}: image of {width} x {height} pixels{where} is over the limit of "
        f"{MAX_IMAGE_PIXELS:,} pixels per image; scan it at a lower resolution",
        kind="too_large",
    )


def load_image(path: Path, data: bytes, ocr_engine: OcrEngine | None = None) -> ParsedDocument:
    """OCR an image file into a parsed document, one page per frame.

    Args:
        path: The file's path (its name is used in reasons and as the title).
        data: The file's bytes.
        ocr_engine: The OCR engine; ``None`` takes :func:`loaders.ocr.default_engine`.

    Returns:
        The parsed document (``file_type`` ``image``).

    Raises:
        DocumentLoadError: ``empty`` or ``corrupt`` files, ``too_large`` images (checked
            from the header, before decoding), ``needs_ocr`` when OCR is off or missing.
    """
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise DocumentLoadError(f"{path.name}: the file is empty", kind="empty")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise DocumentLoadError(
            f"{path.name}: refused as a decompression bomb ({exc})", kind="too_large"
        ) from exc
    except (UnidentifiedImageError, OSError) as exc:
        raise DocumentLoadError(f"{path.name}: not a readable image ({exc})", "corrupt") from exc
    with image:
        width, height = image.size
        if width * height > MAX_IMAGE_PIXELS:
            raise _too_large(path.name, width, height, 0)
        engine, reason = (ocr_engine, "") if ocr_engine is not None else default_engine()
        if engine is None:
            raise DocumentLoadError(
                f"{path.name}: an image needs OCR to be indexed and {reason}", kind="needs_ocr"
            )
        frames = int(getattr(image, "n_frames", 1) or 1)
        cap = max_pages()
        pages: dict[int, OcrPage] = {}
        for i in range(min(frames, cap)):
            try:
                image.seek(i)
                if image.width * image.height > MAX_IMAGE_PIXELS:
                    raise _too_large(path.name, image.width, image.height, i + 1)
                dpi = _dpi(image.info)
                with warnings.catch_warnings():
                    warnings.simplefilter("error", Image.DecompressionBombWarning)
                    frame = upright_rgb(image)
                    frame.load()
            except DocumentLoadError:
                raise
            except (Image.DecompressionBombWarning, OSError, ValueError, EOFError) as exc:
                raise DocumentLoadError(
                    f"{path.name}: frame {i + 1} cannot be decoded ({exc})", kind="corrupt"
                ) from exc
            try:
                pages[i + 1] = ocr_image(
                    frame,
                    engine,
                    page=i + 1,
                    dpi=dpi or DEFAULT_DPI,
                    points_per_pixel=72 / (dpi or DEFAULT_DPI),
                )
            except RuntimeError as exc:
                raise DocumentLoadError(f"{path.name}: OCR failed ({exc})", kind="corrupt") from exc
    return _document(path, pages, frames, cap)


def has_text(page: OcrPage) -> bool:
    """Whether an image's OCR'd page is text to index (see :data:`MIN_PAGE_CHARS`)."""
    if len("".join(page.text.split())) >= MIN_PAGE_CHARS:
        return True
    return page.confidence >= LOW_CONFIDENCE and bool(_WORD.search(page.text))


#: A word of three letters or digits or more.
_WORD = re.compile(r"[^\W_]{3,}")


def _document(path: Path, pages: dict[int, OcrPage], frames: int, cap: int) -> ParsedDocument:
    """Join the OCR'd pages into the canonical text with one segment per page."""
    parts: list[str] = []
    segments: list[Segment] = []
    placed: dict[int, OcrPage] = {}
    empty: list[int] = []
    pos = 0
    for number, page in sorted(pages.items()):
        if parts:
            parts.append(PAGE_SEPARATOR)
            pos += len(PAGE_SEPARATOR)
        parts.append(page.text)
        if has_text(page):
            segments.append(Segment(pos, pos + len(page.text), page=number))
            placed[number] = page.placed(pos)
        else:
            empty.append(number)
        pos += len(page.text)
    warn = [f"OCR read {len(pages)} page(s)"]
    low = low_confidence(placed)
    if low:
        shown = {n: placed[n].confidence for n in low[:20]}
        warn.append(
            f"low OCR confidence (below {LOW_CONFIDENCE:.0%}) on {len(low)} page(s): {shown}"
        )
    if frames > cap:
        warn.append(
            f"{frames - cap} of {frames} frames not OCR'd: over the cap of {cap} OCR pages "
            "per document (CITERAG_OCR_MAX_PAGES)"
        )
    if empty:
        warn.append(
            f"{len(empty)} of {len(pages)} pages have no text OCR could read (under "
            f"{MIN_PAGE_CHARS} characters, or fewer read with low confidence): {empty[:20]}"
        )
    engine = next(iter(pages.values())).engine if pages else ""
    text = "".join(parts)
    # the image's first lines, when its file name agrees ("Wholesale price list 2027")
    first = text[segments[0].start : segments[0].end] if segments else ""
    opening = opening_title(first, path.name)
    return ParsedDocument(
        text=text,
        segments=segments,
        title=opening or file_title(path.name),
        title_source="first_heading" if opening else "file_name",
        first_heading=opening,
        file_type="image",
        pages=len(pages),
        empty_pages=empty,
        parser=f"OCR {engine}",
        warnings=warn,
        ocr_pages=placed,
        tables=ocr_tables(placed, text),
    )

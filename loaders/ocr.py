"""Optical character recognition for pages that carry no text layer (scans, images).

An :class:`OcrEngine` reads one image into :class:`OcrWord` s (text, pixel box, confidence,
block and line numbers). :func:`ocr_page` turns those words into a page's text (words of a
line joined by a space, lines by a newline, blocks by a blank line) and keeps, for every
word, its character range in that text and its box in PDF points (origin top left), so a
quote cut from the text can be drawn back on the page image (:func:`words_in_range`).

The engine is Tesseract (Debian's ``tesseract-ocr`` + ``tesseract-ocr-eng``), run as a
subprocess with TSV output; it was chosen by measurement (``benchmarks/ocr_engines.py``,
``docs/ocr.md``). Nothing is imported or started at import time: :func:`default_engine`
looks for the binary on first use.

Switches (read at load time, so ingest and the viewer's re-read agree):

* ``CITERAG_OCR=0`` (or ``false``/``off``/``no``) turns OCR off; pages without text are then
  reported ``needs_ocr`` as before. ``citerag ingest --no-ocr`` sets it.
* ``CITERAG_OCR_MAX_PAGES`` (default :data:`DEFAULT_MAX_PAGES`) caps the pages OCR'd per
  document; the rest stay empty and are listed in the document's warnings.
* ``CITERAG_OCR_CACHE`` is where recognised words are kept by page image
  (:func:`recognize_cached`; default ``~/.cache/citerag/ocr``, ``off`` to keep none).
* ``CITERAG_OCR_PSM`` sets Tesseract's page segmentation mode (default :data:`DEFAULT_PSM`;
  ``3`` for documents set in several columns of prose).
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PIL.Image import Image

log = logging.getLogger(__name__)

#: Resolution pages are rendered at for OCR (pixels per inch).
DEFAULT_DPI = 200
#: Pages OCR'd per document unless ``CITERAG_OCR_MAX_PAGES`` says otherwise.
DEFAULT_MAX_PAGES = 50
#: A page whose confidence is below this is listed as a low-confidence OCR page.
LOW_CONFIDENCE = 0.80
#: Tesseract's page segmentation mode: 4, "a single column of text of variable sizes", reads
#: a statement's rows across its columns (mode 3, automatic layout, read the label column
#: and then each number column: 68% CER on the benchmark statement, 0% with mode 4); the
#: cost is that text set in two columns is read across both (``docs/ocr.md``).
DEFAULT_PSM = 4
#: Tesseract's binarisation (``thresholding_method``): 2 is Sauvola's local threshold. Its
#: default, Otsu's one threshold for the whole image, turns a photo's dark surround (a sheet
#: pinned on a cork board, a table top) into black areas, and the words next to them are
#: dropped as part of a picture: a photographed price list lost its whole price column
#: (12.5 % CER on rendered photos at every text size and dpi tried; 0-4 % with Sauvola).
#: Clean renders read the same with both (``docs/ocr.md``).
DEFAULT_THRESHOLDING = 2
#: Seconds one page may take in the OCR engine before it is given up.
PAGE_TIMEOUT_S = 120.0
_OFF = frozenset({"0", "false", "off", "no"})


@dataclass(frozen=True)
class OcrWord:
    """One recognised word, as the engine returns it.

    Attributes:
        text: The word.
        left: Left edge in image pixels.
        top: Top edge in image pixels.
        right: Right edge in image pixels.
        bottom: Bottom edge in image pixels.
        confidence: The engine's confidence, 0..1.
        block: Block (paragraph) number; words of a block are read together.
        line: Line number inside the block.
    """

    text: str
    left: float
    top: float
    right: float
    bottom: float
    confidence: float
    block: int = 0
    line: int = 0


class OcrEngine(Protocol):
    """Reads an image into words with boxes and confidences."""

    name: str

    def version(self) -> str:
        """The engine's name and version, for the build manifest."""
        ...

    def settings(self) -> str:
        """Everything besides the image that decides the output (for the OCR cache key)."""
        ...

    def recognize(self, image: Image, dpi: int) -> list[OcrWord]:
        """The image's words in reading order (``dpi`` is the image's resolution)."""
        ...


@dataclass(frozen=True)
class PageWord:
    """A word of an OCR page, placed in the page's text and on the page.

    Attributes:
        start: First character in the page's text (canonical once the page is placed).
        end: One past its last character.
        box: ``(left, top, right, bottom)`` in PDF points from the page's top-left corner.
        confidence: The engine's confidence, 0..1.
    """

    start: int
    end: int
    box: tuple[float, float, float, float]
    confidence: float

    def shifted(self, offset: int) -> PageWord:
        """The same word with its character range moved by ``offset``."""
        return PageWord(self.start + offset, self.end + offset, self.box, self.confidence)


@dataclass
class OcrPage:
    """The OCR result of one page.

    Attributes:
        page: 1-based page number.
        text: The page's text.
        words: Its words with character ranges into ``text`` (into the canonical text once
            the loader has placed the page, see :meth:`placed`) and boxes in points.
        confidence: Characters-weighted mean word confidence, 0..1 (0.0 with no words).
        width: Page width in points.
        height: Page height in points.
        engine: Engine name and version.
    """

    page: int
    text: str
    words: list[PageWord] = field(default_factory=list)
    confidence: float = 0.0
    width: float = 0.0
    height: float = 0.0
    engine: str = ""

    def placed(self, offset: int) -> OcrPage:
        """This page with its word ranges shifted to where its text starts in the document."""
        return OcrPage(
            self.page,
            self.text,
            [w.shifted(offset) for w in self.words],
            self.confidence,
            self.width,
            self.height,
            self.engine,
        )


def ocr_enabled() -> bool:
    """Whether OCR is on (``CITERAG_OCR`` is not ``0``/``false``/``off``/``no``)."""
    return os.environ.get("CITERAG_OCR", "1").strip().lower() not in _OFF


def max_pages() -> int:
    """Pages OCR'd per document (``CITERAG_OCR_MAX_PAGES``, default 50).

    Raises:
        ValueError: When the variable is set to something other than a positive integer.
    """
    raw = os.environ.get("CITERAG_OCR_MAX_PAGES", "").strip()
    if not raw:
        return DEFAULT_MAX_PAGES
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"CITERAG_OCR_MAX_PAGES must be a positive integer, got {raw!r}")
    return value


class TesseractEngine:
    """Tesseract through its command line (``tesseract stdin stdout tsv``).

    One subprocess per image, with OpenMP held to one thread (deterministic output, and no
    oversubscription when several documents are loaded in parallel).
    """

    name = "tesseract"

    def __init__(
        self,
        binary: str = "tesseract",
        language: str = "eng",
        psm: int = DEFAULT_PSM,
        timeout: float = PAGE_TIMEOUT_S,
        thresholding: int = DEFAULT_THRESHOLDING,
    ) -> None:
        """Find the binary.

        Args:
            binary: Executable name or path.
            language: Tesseract language code(s), such as ``eng`` or ``eng+deu``.
            psm: Tesseract page segmentation mode (:data:`DEFAULT_PSM`; 3 is Tesseract's
                own automatic layout analysis).
            timeout: Seconds one image may take.
            thresholding: Tesseract's ``thresholding_method``: 0 Otsu (global), 1 Leptonica's
                adaptive Otsu, 2 Sauvola (:data:`DEFAULT_THRESHOLDING`).

        Raises:
            FileNotFoundError: When ``binary`` is not on the PATH.
            ValueError: For an empty language, an unknown mode or a timeout that is not
                positive.
        """
        path = shutil.which(binary)
        if path is None:
            raise FileNotFoundError(f"tesseract binary {binary!r} not found on the PATH")
        if not language:
            raise ValueError("language must be a Tesseract language code, got ''")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        if psm not in range(14):
            raise ValueError(f"psm must be a Tesseract page segmentation mode 0..13, got {psm}")
        if thresholding not in (0, 1, 2):
            raise ValueError(f"thresholding must be 0, 1 or 2, got {thresholding}")
        self.binary = path
        self.thresholding = thresholding
        self.psm = psm
        self.language = language
        self.timeout = timeout
        self._version: str | None = None

    def _env(self) -> dict[str, str]:
        return {**os.environ, "OMP_THREAD_LIMIT": "1"}

    def version(self) -> str:
        """``tesseract <version>`` as the binary reports it."""
        if self._version is None:
            out = subprocess.run(
                [self.binary, "--version"],
                capture_output=True,
                text=True,
                timeout=30,
                env=self._env(),
                check=False,
            )
            first = (out.stdout or out.stderr).strip().splitlines()
            self._version = first[0] if first else "tesseract (unknown version)"
        return self._version

    def settings(self) -> str:
        """Version, language, page segmentation mode and binarisation."""
        base = f"{self.version()}|lang={self.language}|psm={self.psm}"
        return base if self.thresholding == 0 else f"{base}|thresholding={self.thresholding}"

    def recognize(self, image: Image, dpi: int) -> list[OcrWord]:
        """Run Tesseract on one image and parse its TSV (see :func:`parse_tsv`).

        Raises:
            RuntimeError: When Tesseract fails or times out.
        """
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        cmd = [self.binary, "stdin", "stdout", "-l", self.language, "--dpi", str(dpi)]
        cmd += ["--psm", str(self.psm), "-c", f"thresholding_method={self.thresholding}", "tsv"]
        try:
            out = subprocess.run(
                cmd,
                input=buf.getvalue(),
                capture_output=True,
                timeout=self.timeout,
                env=self._env(),
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise RuntimeError(f"tesseract took more than {self.timeout:g} s") from exc
        if out.returncode != 0:
            err = out.stderr.decode("utf-8", "replace").strip()[-300:]
            raise RuntimeError(f"tesseract exited {out.returncode}: {err}")
        return parse_tsv(out.stdout.decode("utf-8", "replace"))


def parse_tsv(tsv: str) -> list[OcrWord]:
    """Words of Tesseract's TSV output (level 5 rows with text), in its reading order.

    Args:
        tsv: The TSV, header line first.

    Returns:
        The words; ``block`` numbers paragraphs across blocks (``block * 1000 + par``).
    """
    lines = tsv.splitlines()
    if not lines:
        return []
    head = lines[0].split("\t")
    col = {name: i for i, name in enumerate(head)}
    words = []
    for row in lines[1:]:
        cells = row.split("\t")
        if len(cells) < len(head) or cells[col["level"]] != "5":
            continue
        text = cells[col["text"]].strip()
        conf = float(cells[col["conf"]])
        if not text or conf < 0:
            continue
        left, top = float(cells[col["left"]]), float(cells[col["top"]])
        words.append(
            OcrWord(
                text=text,
                left=left,
                top=top,
                right=left + float(cells[col["width"]]),
                bottom=top + float(cells[col["height"]]),
                confidence=max(0.0, min(conf / 100.0, 1.0)),
                block=int(cells[col["block_num"]]) * 1000 + int(cells[col["par_num"]]),
                line=int(cells[col["line_num"]]),
            )
        )
    return words


def psm_setting() -> int:
    """Tesseract's page segmentation mode from ``CITERAG_OCR_PSM`` (default 4).

    Raises:
        ValueError: When the variable is not a mode 0..13.
    """
    raw = os.environ.get("CITERAG_OCR_PSM", "").strip()
    if not raw:
        return DEFAULT_PSM
    if not raw.isdigit() or int(raw) > 13:
        raise ValueError(f"CITERAG_OCR_PSM must be a Tesseract page segmentation mode, got {raw!r}")
    return int(raw)


@lru_cache(maxsize=4)
def _tesseract(psm: int) -> TesseractEngine | None:
    try:
        engine = TesseractEngine(psm=psm)
    except FileNotFoundError:
        return None
    log.info("OCR engine: %s", engine.version())
    return engine


def default_engine() -> tuple[OcrEngine | None, str]:
    """The OCR engine to use now, or ``None`` with the reason there is none.

    Returns:
        ``(engine, '')`` when OCR is on and Tesseract is installed, else ``(None, reason)``.
    """
    if not ocr_enabled():
        return None, "OCR is turned off (CITERAG_OCR=0 or --no-ocr)"
    engine = _tesseract(psm_setting())
    if engine is None:
        return None, "no OCR engine is installed (Debian package tesseract-ocr)"
    return engine, ""


def ocr_fingerprint() -> dict[str, Any] | str:
    """What decides OCR output now, for ingest's settings fingerprint (``"off"`` without
    OCR): a change (OCR turned on, another engine, mode or page cap) re-processes every
    document, so pages read or not read before are read again."""
    engine, _ = default_engine()
    if engine is None:
        return "off"
    return {"engine": engine.settings(), "dpi": DEFAULT_DPI, "max_pages": max_pages()}


#: A Tesseract paragraph break inside one of its blocks is kept when the new paragraph's first
#: line is indented by more than this many line heights from the block's left edge...
PARAGRAPH_INDENT = 1.0
#: ... or when the line before it stops short of the block's right edge by more than this
#: share of the block's width (a paragraph's last line); otherwise the line wrapped and the
#: paragraph goes on (:func:`paragraph_breaks`).
PARAGRAPH_SHORT_LINE = 0.2


def _lines(words: list[OcrWord]) -> list[list[OcrWord]]:
    """Words grouped into the engine's lines, in reading order."""
    lines: list[list[OcrWord]] = []
    for word in words:
        if lines and (lines[-1][0].block, lines[-1][0].line) == (word.block, word.line):
            lines[-1].append(word)
        else:
            lines.append([word])
    return lines


def paragraph_breaks(lines: list[list[OcrWord]]) -> list[bool]:
    """Whether each line starts a new paragraph (the first line does).

    Tesseract's blocks are separated by blank space; inside a block its paragraph finder
    splits on line lengths and indents, and on a scan (speckle, a slight turn) it splits a
    paragraph whose lines merely wrap, cutting a sentence in two ("... licensing scheme for
    houses" / "in multiple occupation comes into force on 1 February 2027"). A new block
    is a new paragraph; a new Tesseract paragraph inside a block is one only when its
    first line is indented (:data:`PARAGRAPH_INDENT`) or the line before it ends short of
    the block's right edge (:data:`PARAGRAPH_SHORT_LINE`), as a paragraph's last line does.

    Args:
        lines: The engine's lines in reading order (:func:`_lines`).
    """
    extent: dict[int, tuple[float, float]] = {}
    for line in lines:
        region = line[0].block // 1000
        left, right = extent.get(region, (line[0].left, line[-1].right))
        extent[region] = (min(left, line[0].left), max(right, line[-1].right))
    out: list[bool] = []
    for i, line in enumerate(lines):
        if i == 0 or line[0].block // 1000 != lines[i - 1][0].block // 1000:
            out.append(True)
            continue
        if line[0].block == lines[i - 1][0].block:
            out.append(False)
            continue
        left, right = extent[line[0].block // 1000]
        height = max(w.bottom - w.top for w in line)
        indented = line[0].left - left > PARAGRAPH_INDENT * height
        short = right - lines[i - 1][-1].right > PARAGRAPH_SHORT_LINE * (right - left)
        out.append(indented or short)
    return out


def assemble(words: Iterable[OcrWord]) -> tuple[str, list[tuple[int, int, OcrWord]]]:
    """Join words into a page text: a space inside a line, a newline between the lines of a
    paragraph, a blank line between paragraphs (:func:`paragraph_breaks`).

    Args:
        words: Words in reading order.

    Returns:
        ``(text, placed)`` where each placed word is ``(start, end, word)`` in ``text``.
    """
    lines = _lines(list(words))
    parts: list[str] = []
    placed: list[tuple[int, int, OcrWord]] = []
    pos = 0
    for i, (line, new_paragraph) in enumerate(zip(lines, paragraph_breaks(lines), strict=True)):
        for j, word in enumerate(line):
            sep = " " if j else ("" if i == 0 else ("\n\n" if new_paragraph else "\n"))
            parts.append(sep)
            pos += len(sep)
            parts.append(word.text)
            placed.append((pos, pos + len(word.text), word))
            pos += len(word.text)
    return "".join(parts), placed


def cache_dir() -> Path | None:
    """Where OCR results are kept: ``CITERAG_OCR_CACHE``, else ``$XDG_CACHE_HOME/citerag/ocr``
    (``~/.cache/citerag/ocr``); ``None`` when the variable is ``off`` (or ``0``)."""
    raw = os.environ.get("CITERAG_OCR_CACHE", "").strip()
    if raw.lower() in _OFF:
        return None
    if raw:
        return Path(raw)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "citerag" / "ocr"


def recognize_cached(image: Image, engine: OcrEngine, dpi: int) -> list[OcrWord]:
    """``engine.recognize(image, dpi)``, kept on disk by the image's pixels and the settings.

    The viewer re-reads a document to show a citation (:mod:`citerag.server.viewer`); with
    the words cached, a scanned page is OCR'd once, not on every re-read, and the re-read
    yields exactly the indexed text. The key is the SHA-256 of the pixels, size, mode, dpi
    and :meth:`OcrEngine.settings`; a cache that cannot be read or written is skipped.
    """
    folder = cache_dir()
    if folder is None:
        return engine.recognize(image, dpi)
    digest = hashlib.sha256()
    for part in (engine.settings(), str(dpi), image.mode, str(image.size)):
        digest.update(part.encode() + b"\0")
    digest.update(image.tobytes())
    path = folder / f"{digest.hexdigest()}.json"
    try:
        return [OcrWord(**w) for w in json.loads(path.read_text(encoding="utf-8"))]
    except FileNotFoundError:
        pass
    except (OSError, ValueError, TypeError) as exc:
        log.warning("OCR cache entry %s unreadable (%s): OCR again", path.name, exc)
    words = engine.recognize(image, dpi)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps([asdict(w) for w in words]), encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        log.warning("OCR cache not written (%s)", exc)
    return words


def ocr_image(
    image: Image, engine: OcrEngine, *, page: int, dpi: int, points_per_pixel: float
) -> OcrPage:
    """OCR one image into an :class:`OcrPage`.

    Args:
        image: The page image.
        engine: The engine.
        page: 1-based page number.
        dpi: The image's resolution, passed to the engine.
        points_per_pixel: Scale from pixels to PDF points (``72 / dpi`` for a rendered page).

    Returns:
        The page's text, words with boxes in points, and its confidence.
    """
    if image.mode not in ("L", "RGB"):
        image = image.convert("RGB")
    text, placed = assemble(recognize_cached(image, engine, dpi))
    s = points_per_pixel
    words = [
        PageWord(
            start,
            end,
            (
                round(w.left * s, 2),
                round(w.top * s, 2),
                round(w.right * s, 2),
                round(w.bottom * s, 2),
            ),
            w.confidence,
        )
        for start, end, w in placed
    ]
    chars = sum(w.end - w.start for w in words)
    confidence = sum(w.confidence * (w.end - w.start) for w in words) / chars if chars else 0.0
    return OcrPage(
        page=page,
        text=text,
        words=words,
        confidence=round(confidence, 4),
        width=image.width * s,
        height=image.height * s,
        engine=engine.version(),
    )


def words_in_range(page: OcrPage, start: int, end: int) -> list[PageWord]:
    """The words of a placed OCR page that overlap the canonical range ``[start, end)``."""
    return [w for w in page.words if w.start < end and start < w.end]


def ocr_summary(pages: dict[int, OcrPage]) -> dict[str, Any]:
    """Manifest figures for a document's OCR pages: ``{page: confidence}`` and the engine."""
    engines = sorted({p.engine for p in pages.values()})
    return {
        "ocr_pages": {str(n): p.confidence for n, p in sorted(pages.items())},
        "ocr_engine": engines[0] if len(engines) == 1 else engines,
    }


def low_confidence(pages: dict[int, OcrPage], threshold: float = LOW_CONFIDENCE) -> list[int]:
    """Pages whose OCR confidence is below ``threshold``."""
    return sorted(n for n, p in pages.items() if p.confidence < threshold)

"""Scanned documents for the OCR tests: text PDFs rendered to images, and those images wrapped
in an image-only PDF, so the words on the page are known."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.pdfs import Line, write_pdf


def require_tesseract() -> None:
    """Skip without Debian's tesseract, except under ``CI=true``: fail (.ci/run installs it)."""
    if shutil.which("tesseract") is not None:
        return
    reason = "no tesseract binary (apt-get install -y tesseract-ocr tesseract-ocr-eng)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {reason}: .ci/run installs it before `make test`")
    pytest.skip(reason)


def render_pages(pdf: Path, dpi: int = 200) -> list[Any]:
    """Every page of ``pdf`` as a greyscale PIL image at ``dpi`` (pdfium)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [page.render(scale=dpi / 72).to_pil().convert("L") for page in doc]
    finally:
        doc.close()


def text_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A text PDF whose pages draw these lines (Helvetica 11 pt, from the top)."""
    return write_pdf(path, [[Line(t) for t in lines] for lines in pages])


def scanned_pdf(path: Path, pages: list[list[str]], dpi: int = 200) -> Path:
    """An image-only PDF: each page of a text PDF rendered at ``dpi`` and saved as a page
    image (no text layer), as a scanner writes it."""
    source = text_pdf(path.with_suffix(".text.pdf"), pages)
    images = render_pages(source, dpi)
    source.unlink()
    images[0].save(path, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return path

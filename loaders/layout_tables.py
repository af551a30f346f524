"""A page's tables from its word boxes: statements and word-column tables, PDF or OCR.

Two readers look at a page's lines of positioned words: :mod:`loaders.pdf_tables` finds
value columns of right-aligned numbers (a financial statement), then
:mod:`loaders.text_tables` finds tables whose columns are separated by whitespace gutters
(a schedule, a price list) among the lines the first left alone. Each table's rows are
placed verbatim in the page's canonical text (:func:`loaders.pdf_tables.locate_rows`).

The words come from pdfium for a born-digital PDF page (:func:`pdf_tables`) and from the
OCR engine for a scanned page or an image (:func:`ocr_tables`, and the OCR'd pages of
:func:`pdf_tables`), so a scan of a table is read as the original would be.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from loaders.blocks import Table
from loaders.ocr import OcrPage
from loaders.page_columns import column_blocks
from loaders.pdf_tables import (
    MAX_HEADER_LINES,
    Line,
    emphasised_lines,
    join_wrapped_rows,
    locate_rows,
    page_rule_lines,
    page_words,
    read_tables,
    rule_breaks,
)
from loaders.text_tables import ocr_lines, read_text_tables

log = logging.getLogger(__name__)

#: Lines above a statement left to it (its header and title), never read as another table.
HEADER_REACH = MAX_HEADER_LINES + 2


def page_tables(
    lines: list[Line],
    body: str,
    offset: int,
    running: set[str],
    page: int,
    source: str,
    taken: list[tuple[int, int]] | None = None,
) -> list[Table]:
    """The tables of one page's lines, their rows placed in its canonical text.

    Args:
        lines: The page's lines of positioned words, top to bottom.
        body: The page's canonical text.
        offset: Where ``body`` starts in the document's canonical text.
        running: Normalised running header/footer lines.
        page: 1-based page number.
        source: How the words were read (``pdf-layout``, ``ocr-layout``).
        taken: Spans (document offsets) already claimed by the rows of the page's other
            blocks of lines (its other text column); updated.

    Returns:
        Tables with at least two rows found, statements first.
    """
    tables: list[Table] = []
    taken = [] if taken is None else taken
    statements = read_tables(lines, running)
    # a statement's lines, and the lines just above it (its header, wrapped over lines that
    # the statement reader may not have claimed), are not another table's
    used = {
        k
        for raw in statements
        for k in range(max(0, raw.lines.start - HEADER_REACH), raw.lines.stop)
    }
    for raw in [*statements, *read_text_tables(lines, running, used)]:
        rows = locate_rows(raw, body, offset, taken)
        if len(rows) < 2:
            continue
        rows.sort(key=lambda r: r.start)
        tables.append(
            Table(rows[0].start, rows[-1].end, raw.title, raw.columns, rows, page, source)
        )
    return tables


def pdf_tables(
    path: Path,
    bodies: list[str],
    offsets: list[int],
    running: set[str],
    password: str | None = None,
    ocr_pages: Mapping[int, OcrPage] | None = None,
    emphasised: dict[int, set[str]] | None = None,
) -> list[Table]:
    """Read the tables of a PDF and place their rows in its canonical text.

    Args:
        path: The PDF.
        bodies: Each page's canonical text (as :mod:`loaders.pdf` joined it).
        offsets: Where each page's text starts in the canonical text.
        running: Normalised running lines (:func:`loaders.pdf.running_lines`).
        password: As for :func:`loaders.pdf.load_pdf`.
        ocr_pages: 1-based page -> its OCR result (word ranges into that page's body): those
            pages are read from the OCR words instead of pdfium's.
        emphasised: When given, filled with 1-based page -> the lines of the born-digital
            page set in a larger type (:func:`loaders.pdf_tables.emphasised_lines`), read
            from the same words at no extra cost, for the heading rule.

    Returns:
        Tables with at least two rows found, in page order. A page pdfium cannot read is
        skipped (logged): its text stays ordinary paragraphs. Every page is read (pdfium's
        character boxes cost about 7 ms a page on this machine's 2 cores, against ~30 ms
        per chunk to embed).
    """
    import pypdfium2

    ocr_pages = ocr_pages or {}
    tables: list[Table] = []
    try:
        pdf = pypdfium2.PdfDocument(str(path), password=password)
    except Exception as exc:  # pypdf read it; a pdfium failure only costs the tables
        log.warning("%s: tables not read (%s)", path.name, exc)
        return tables
    try:
        for i, body in enumerate(bodies[: len(pdf)]):
            # a page whose words or tables cannot be read costs its tables, never the document
            try:
                if i + 1 in ocr_pages:
                    blocks = [ocr_lines(ocr_pages[i + 1], body)]
                    source = "ocr-layout"
                else:
                    page = pdf[i]
                    textpage = page.get_textpage()
                    # a page set in columns is read column by column
                    blocks = column_blocks(page_words(textpage))
                    vertical, horizontal = page_rule_lines(page)
                    textpage.close()
                    page.close()
                    source = "pdf-layout"
                    for block in blocks:
                        rule_breaks(block, vertical)
                    if emphasised is not None:
                        emphasised[i + 1] = emphasised_lines([ln for b in blocks for ln in b])
                    # a ruled grid's cells wrapped onto lines: one line per row
                    blocks = [join_wrapped_rows(block, horizontal) for block in blocks]
                taken: list[tuple[int, int]] = []
                for block in blocks:
                    tables += page_tables(block, body, offsets[i], running, i + 1, source, taken)
            except Exception as exc:
                log.warning("%s page %d: tables not read (%s)", path.name, i + 1, exc)
    finally:
        pdf.close()
    return tables


def ocr_tables(pages: Mapping[int, OcrPage], text: str) -> list[Table]:
    """The tables of OCR'd pages placed in a document's canonical text (an image's pages).

    Args:
        pages: 1-based page -> its OCR result, word ranges already into ``text``
            (:meth:`loaders.ocr.OcrPage.placed`).
        text: The document's canonical text.
    """
    tables: list[Table] = []
    for number, page in sorted(pages.items()):
        if not page.words:
            continue
        start = min(w.start for w in page.words)
        end = max(w.end for w in page.words)
        try:
            lines = ocr_lines(page, text)
            tables += page_tables(lines, text[start:end], start, set(), number, "ocr-layout")
        except Exception as exc:  # the page's text stays; only its tables are lost
            log.warning("page %d: tables not read (%s)", number, exc)
    return tables

"""Shared types for document loaders: a parsed document with its canonical text and segments.

A loader turns the bytes of one file into a :class:`ParsedDocument`:

* ``text`` is the document's **canonical text**. Every character range stored anywhere in
  citerag (chunk ``start``/``end``, citation ``#char=`` fragments) indexes into this string.
* ``segments`` cut the canonical text into the units chunking works inside: PDF pages, or
  Markdown/HTML sections with their heading path. Chunks never cross a segment boundary.
* ``blocks`` and ``tables`` are the document's structural model (:class:`Block`,
  :class:`Table`, found by :mod:`loaders.blocks`): typed spans of the canonical text, never a
  change to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loaders.ocr import OcrPage


class DocumentLoadError(Exception):
    """A document could not be turned into searchable text.

    Attributes:
        reason: A short human-readable reason recorded in the failed-document ledger.
        kind: A machine-readable category (``corrupt``, ``encrypted``, ``empty``,
            ``binary``, ``unsupported``, ``needs_ocr``, ``too_large``, ``bad_metadata``;
            for Office files also ``mismatch`` (the content is not what the suffix says)
            and ``unsafe`` (a zip bomb's compression ratio, an XML DTD/entity declaration)).
    """

    def __init__(self, reason: str, kind: str = "corrupt") -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


@dataclass(frozen=True)
class Segment:
    """A contiguous range of the canonical text that chunking treats as one unit.

    Attributes:
        start: First character of the segment's body in the canonical text.
        end: One past the last character of the segment's body.
        page: 1-based page number for paginated documents, else ``None``.
        section: Heading path such as ``"Safety > Working at height"`` ('' when none).
    """

    start: int
    end: int
    page: int | None = None
    section: str = ""


#: Every block type a document can have.
BLOCK_TYPES = (
    "heading",
    "paragraph",
    "list_item",
    "table",
    "table_row",
    "qa_pair",
    "definition",
    "caption",
    "page_header",
    "page_footer",
)
#: Separates the parts of a table row's embedded text.
ROW_SEP = " — "
#: Joins the headings of a section path (``"IT setup guide > Wi-Fi"``).
SECTION_SEP = " > "
#: The section of an e-mail's header block and of its attachments line
#: (:mod:`loaders.eml`): labels of the message, not headings of its text.
HEADER_SECTION = "Headers"
ATTACHMENTS_SECTION = "Attachments"
#: The header lines of an e-mail's header block, in order (:mod:`loaders.eml` writes them;
#: :mod:`chains.non_answers` reads the sender, recipients and date from them), each with the
#: field a question about the message asks for (``None``: the subject, the message's title).
MESSAGE_HEADERS: tuple[tuple[str, str | None], ...] = (
    ("Subject", None),
    ("From", "from"),
    ("To", "to"),
    ("Cc", "to"),
    ("Date", "date"),
)
#: The last heading of an e-mail signature's section path (:mod:`loaders.replies`): a block
#: of records (name, role, address, telephone), each line a sentence of its own.
SIGNATURE_SECTION = "Signature"


def is_signature_section(section: str) -> bool:
    """Whether a section path names a signature block (its last heading is
    :data:`SIGNATURE_SECTION`)."""
    return section.rsplit(SECTION_SEP, 1)[-1] == SIGNATURE_SECTION


@dataclass(frozen=True)
class TableRow:
    """One table row, verbatim in the canonical text.

    Attributes:
        start: First character of the row (its label, else its first cell).
        end: One past its last cell.
        label: The row's label (its first, non-numeric part; '' when none).
        cells: The row's values in column order, as printed.
        columns: Each cell's column name ('' when the column has no header).
        group: The nearest label-only line above it inside the table (a sub-heading such as
            "Cash Flows from Investing Activities"; '' when none).
        number: The row's number in its source (a spreadsheet's row number, a CSV record's
            1-based number counting the header); ``None`` when it has none.
    """

    start: int
    end: int
    label: str
    cells: tuple[str, ...]
    columns: tuple[str, ...]
    group: str = ""
    number: int | None = None

    def describe(self, *, with_group: bool = True) -> str:
        """``group — label — column: cell; column: cell`` (the row with its headers).

        Args:
            with_group: Lead with the row's group (left out where a chunk already states it).
        """
        pairs = "; ".join(
            f"{c}: {v}" if c else v for c, v in zip(self.columns, self.cells, strict=True)
        )
        parts = [p for p in (self.group if with_group else "", self.label, pairs) if p]
        return ROW_SEP.join(parts)


@dataclass
class Table:
    """A table: where it is, what it is called, its column names and its rows.

    Attributes:
        start: First character of its first row.
        end: One past its last row.
        title: The table's title or caption (statement title, ``<caption>``; '' when none).
        columns: Column names of its value columns (from the header lines or cells).
        rows: Its rows in order, each verbatim in the canonical text.
        page: 1-based page (PDF), else ``None``.
        source: How it was read (``pdf-layout``, ``ocr-layout``, ``html``, ``markdown``, ...).
    """

    start: int
    end: int
    title: str
    columns: list[str]
    rows: list[TableRow]
    page: int | None = None
    source: str = ""

    def __post_init__(self) -> None:
        if not self.rows:
            raise ValueError("a table needs at least one row")


@dataclass(frozen=True)
class Block:
    """A typed span of the canonical text.

    Attributes:
        kind: One of :data:`BLOCK_TYPES`.
        start: First character.
        end: One past the last character.
        page: 1-based page (PDF), else ``None``.
        answer_start: For a ``qa_pair``, where the answer begins (the question is
            ``[start, answer_start)``); else ``None``.
    """

    kind: str
    start: int
    end: int
    page: int | None = None
    answer_start: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in BLOCK_TYPES:
            raise ValueError(f"unknown block kind {self.kind!r} (expected one of {BLOCK_TYPES})")
        if not 0 <= self.start <= self.end:
            raise ValueError(f"bad block span {self.start}-{self.end}")


@dataclass
class ParsedDocument:
    """The result of loading one file.

    Attributes:
        text: Canonical text; all character ranges index into it.
        segments: Pages or sections, in document order, covering the useful text.
        title: Display title (from metadata/headings, else the file name).
        file_type: ``pdf``, ``markdown``, ``html``, ``text``, ``docx``, ``pptx``, ``xlsx``,
            ``csv``, ``eml`` or ``image`` (read by OCR).
        title_source: Where ``title`` came from: ``pdf_title``, ``html_title``,
            ``front_matter``, ``first_heading`` or ``file_name`` (the loader's fallback).
        first_heading: The document's first level-1 heading, if it has one.
        front_matter: The Markdown front matter's mapping (``{}`` when there is none).
        body_start: First character of the text to index (after any front matter).
        pages: Number of pages for paginated documents, else ``None``.
        empty_pages: 1-based numbers of pages with no or almost no extractable text.
        parser: Name and version of the parser used, for the build manifest.
        warnings: Non-fatal observations for the parsing review.
        hidden_chars: Characters of content a reader of the rendered document does not see
            (hidden HTML elements, HTML comments, ``<template>``/``<noscript>``; HTML
            comments in Markdown) that were left out of the index (retrieved text is data,
            and what nobody sees must not be able to answer).
        blocks: Typed spans (heading, paragraph, list item, table row, question/answer
            pair, caption, page header/footer) in document order; see :mod:`loaders.blocks`.
        tables: Tables with their title, column names and rows (verbatim spans).
        headings: ``(start, end)`` of the heading lines a loader found in text without
            markup (:mod:`loaders.headings`: plain text, PDF pages), kept outside the
            segments; typed ``heading`` in ``blocks``.
        page_edges: ``(start, end, kind)`` of a web page's own header and footer text
            (``page_header``/``page_footer``, :mod:`loaders.html`): stated once on the page,
            so inside segments of their own and indexed, unlike a PDF's running lines.
        properties: Format-specific document properties copied onto every chunk's metadata
            (an e-mail's ``email_from``, ``email_to``, ``email_date``); strings only.
        units: ``(start, answer_start, end, kind)`` of the question-and-answer pairs
            (``qa_pair``: an HTML ``<details>``' ``<summary>`` and the rest of it) and
            term-and-definition pairs (``definition``: a ``<dt>`` and its ``<dd>``) the
            markup states; typed so in ``blocks`` whatever their words, and each in
            segments of its own.
        ocr_pages: 1-based page -> its OCR result (text, confidence, words with their
            canonical character ranges and boxes in points), for pages read by OCR.
    """

    text: str
    segments: list[Segment]
    title: str
    file_type: str
    title_source: str = "file_name"
    first_heading: str | None = None
    front_matter: dict[str, Any] = field(default_factory=dict)
    body_start: int = 0
    pages: int | None = None
    empty_pages: list[int] = field(default_factory=list)
    parser: str = ""
    warnings: list[str] = field(default_factory=list)
    hidden_chars: int = 0
    blocks: list[Block] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    headings: list[tuple[int, int]] = field(default_factory=list)
    page_edges: list[tuple[int, int, str]] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    ocr_pages: dict[int, OcrPage] = field(default_factory=dict)
    units: list[tuple[int, int, int, str]] = field(default_factory=list)

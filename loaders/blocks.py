"""The structural model of a document: typed blocks and tables, as spans of its canonical text.

Every loader's :class:`~loaders.base.ParsedDocument` carries ``blocks`` (in document order)
and ``tables``. A block never changes the canonical text: it is a typed ``[start, end)``
range of it, so ``canonical[block.start:block.end]`` is the block's verbatim text.

Block types (:data:`BLOCK_TYPES`):

* ``heading`` — a Markdown ``#`` line, an HTML ``<h1>``–``<h6>``, or any text a loader left
  between sections (the section's title);
* ``paragraph`` — a run of non-blank lines (a fenced code block's lines are paragraph
  lines whatever they start with: its ``# comment`` is no heading);
* ``list_item`` — a line opened by a bullet or a number (``-``, ``*``, ``•``, ``1.``, ``a)``);
* ``table`` — a table (with its ``rows`` and their cells in :attr:`ParsedDocument.tables`);
* ``table_row`` — one row of a table: its label and cells, verbatim;
* ``qa_pair`` — a question (a heading or a line ending with ``?``) with the answer text that
  follows it, up to the next heading or question: one unit, the question for context, the
  answer as the quotable part (:attr:`Block.answer_start`); an HTML ``<details>`` is one
  whatever its ``<summary>`` says (:attr:`ParsedDocument.units`);
* ``definition`` — a term with its definition (an HTML ``<dt>`` and its ``<dd>``): one
  unit, the definition from :attr:`Block.answer_start`;
* ``caption`` — a line opened by ``Figure 3``, ``Table 2``, ``Chart``, ``Exhibit`` or
  ``Source:``;
* ``page_header`` / ``page_footer`` — a PDF page's running lines (repeated on most pages,
  digits ignored): kept in the canonical text but out of the segments, hence out of every
  chunk's embedded and quoted text; or a web page's own ``<header>``/``<footer>`` text
  (not its navigation), stated once: in segments of its own, indexed and quotable
  (:attr:`ParsedDocument.page_edges`).

:func:`detect_blocks` finds every type but tables from the canonical text and the segments
alone (so it serves every format); tables come from the loaders (PDF layout in
:mod:`loaders.pdf_tables`, HTML ``<table>`` in :mod:`loaders.html`, Markdown pipe tables
here, :func:`markdown_tables`).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# the records (and BLOCK_TYPES) are loaders.base's; importers of loaders.blocks keep them
from loaders.base import BLOCK_TYPES as BLOCK_TYPES
from loaders.base import Block, Segment, Table, TableRow

_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+•▪◦‣]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])[ \t]+\S")
_CAPTION = re.compile(r"[ \t]*(?:(?:Figure|Fig\.|Table|Chart|Exhibit|Graph)\s+\d+|Source:)", re.I)
_MD_HEADING = re.compile(r"[ \t]{0,3}#{1,6}[ \t]+\S")
_FENCE = re.compile(r" {0,3}(?:```|~~~)")
_MD_TABLE_ROW = re.compile(r"[ \t]*\|.*\|[ \t]*$")
_MD_TABLE_RULE = re.compile(r"[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
#: A question line is at most this many characters (a long line ending "?" is prose).
MAX_QUESTION_CHARS = 200

#: Chunk metadata key, ``True`` on a chunk that continues an FAQ answer begun in an earlier
#: chunk (a pair longer than ``chunk_size``): its first sentence is not the answer's opening,
#: and a heading question is not its own (:func:`chains.non_answers.heading_question`).
PAIR_CONTINUES_KEY = "pair_continues"
#: Chunk metadata key: where a pair's answer (or a term's definition) starts in a chunk
#: that holds its question (or term) too, an index into the chunk's content; the text before
#: it is the question, never quoted as an answer (a ``<summary>`` saying "My boiler has
#: stopped working. Who do I call?" holds a statement).
ANSWER_OFFSET_KEY = "answer_offset"


@dataclass
class TextLine:
    """A non-blank line: its stripped text and its span in the canonical text."""

    start: int
    end: int
    text: str


def text_lines(text: str, start: int, end: int) -> list[TextLine]:
    """The non-blank lines of ``text[start:end]``, stripped, with their spans."""
    out: list[TextLine] = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        raw = text[pos:stop]
        if raw.strip():
            lead = len(raw) - len(raw.lstrip())
            out.append(TextLine(pos + lead, pos + len(raw.rstrip()), raw.strip()))
        pos = stop + 1
    return out


def _run_in_split(
    lines: list[TextLine], inside: list[tuple[int, int, int | None]]
) -> list[TextLine]:
    """Lines cut where a segment starts inside them: a run-in heading (``4.2 Break clause.``,
    :func:`loaders.headings.clause_headings`) is outside its segment, the clause's text
    after it on the same line inside, and each part is typed on its own."""
    starts = sorted(s for s, _, _ in inside)
    out: list[TextLine] = []
    for line in lines:
        k = bisect.bisect_right(starts, line.start)
        while k < len(starts) and starts[k] < line.end:
            cut = starts[k]
            head = line.text[: cut - line.start].rstrip()
            if head:
                out.append(TextLine(line.start, line.start + len(head), head))
            line = TextLine(cut, line.end, line.text[cut - line.start :])
            k += 1
        out.append(line)
    return out


class _Pages:
    """Where a position lies among the segments, by bisection (a scan of every segment per
    line made typing a Markdown file of 20,000 headings take 37 s)."""

    def __init__(self, inside: list[tuple[int, int, int | None]]) -> None:
        """``inside``: the segments as ``(start, end, page)``, sorted."""
        self.inside = inside
        self.starts = [s for s, _, _ in inside]
        self.ends = sorted(e for _, e, _ in inside)
        self.reach: list[int] = []  # the furthest end of any segment up to each one
        for _, end, _ in inside:
            self.reach.append(max(end, self.reach[-1]) if self.reach else end)

    def starts_page(self, text: str, pos: int) -> bool:
        """Whether a line outside the segments opens its page (a header) rather than ends it.

        Between the previous page's segment and a header lies a page break (the blank line
        :mod:`loaders.pdf` joins pages with); between a page's segment and its footer none.
        """
        k = bisect.bisect_right(self.ends, pos) - 1
        return k < 0 or "\n\n" in text[self.ends[k] : pos]

    def page_after(self, pos: int) -> int | None:
        """The page of the first segment starting at or after ``pos`` (a heading's: it
        heads that text)."""
        k = bisect.bisect_left(self.starts, pos)
        return self.inside[k][2] if k < len(self.inside) else None

    def page_near(self, pos: int) -> int | None:
        """The page of the last segment starting at or before ``pos``, else of the next."""
        k = bisect.bisect_right(self.starts, pos) - 1
        if k >= 0 and self.inside[k][2] is not None:
            return self.inside[k][2]
        if k + 1 < len(self.inside):
            return self.inside[k + 1][2]
        return self.inside[k][2] if k >= 0 else None

    def page_of(self, pos: int) -> int | None:
        """The page of the latest-starting segment containing ``pos`` (``None``: none)."""
        k = bisect.bisect_right(self.starts, pos) - 1
        while k >= 0 and self.reach[k] > pos:
            start, end, page = self.inside[k]
            if start <= pos < end:
                return page
            k -= 1
        return None


def is_question(line: str) -> bool:
    """Whether a line reads as a question (ends with ``?``, short, no sentence before it)."""
    line = line.strip().lstrip("#").strip().strip("*_").strip()
    if not line.endswith("?") or len(line) > MAX_QUESTION_CHARS:
        return False
    body = line[:-1]
    # "We asked. Why?" is prose; "Q: Can I ...?" and "1. Can I ...?" are questions.
    return not re.search(r"[.!?]\s+[A-Z]", re.sub(r"^(?:Q|Question)\s*[:.]\s*", "", body))


def markdown_tables(text: str, segments: list[Segment]) -> list[Table]:
    """Pipe tables in Markdown (``| a | b |`` lines; a ``|---|`` rule under the header).

    The header row's cells name the columns (the first column, the row labels', is left
    out); each later row becomes a :class:`TableRow` whose label is its first cell.
    """
    tables: list[Table] = []
    for seg in segments:
        lines = text_lines(text, seg.start, seg.end)
        i = 0
        while i < len(lines):
            if not (
                i + 1 < len(lines)
                and _MD_TABLE_ROW.match(lines[i].text)
                and _MD_TABLE_RULE.match(lines[i + 1].text)
            ):
                i += 1
                continue
            header = _md_cells(lines[i].text)
            j = i + 2
            rows: list[TableRow] = []
            while j < len(lines) and _MD_TABLE_ROW.match(lines[j].text):
                cells = _md_cells(lines[j].text)
                names = [*header[1:], *[""] * len(cells)][: max(0, len(cells) - 1)]
                rows.append(
                    TableRow(lines[j].start, lines[j].end, cells[0], tuple(cells[1:]), tuple(names))
                )
                j += 1
            if rows:
                title = _title_above(text, seg.start, lines[i].start)
                tables.append(
                    Table(
                        rows[0].start, rows[-1].end, title, header[1:], rows, seg.page, "markdown"
                    )
                )
            i = j
    return tables


def _md_cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in inner.split("|")]


def _title_above(text: str, floor: int, pos: int) -> str:
    """The last non-blank line before ``pos`` (not before ``floor``), if it is short and
    reads as a title: a line that does not end a sentence (``Price list``, ``Table 2:
    Fees``, ``Opening hours:``, an FAQ's question). A sentence just above a table (``The
    boiler pressure should be 1.5 bar.``) states a fact of its own: made the table's title,
    it would be stated with every row and outscore itself."""
    before = text_lines(text, max(floor, pos - 400), pos)
    if not before:
        return ""
    last = before[-1].text.lstrip("#").strip()
    if len(last) > 120 or _MD_TABLE_ROW.match(last) or _ENDS_SENTENCE.search(last):
        return ""
    return last


#: A line ending as a sentence ends: two words or more, then ``.`` or ``!`` (maybe a closing
#: quote or bracket). A one-word ``Note.`` and a question stay titles.
_ENDS_SENTENCE = re.compile(r"\w[\w)%]*\s+\S*\w[)\]\"'%]*[.!][)\]\"']*$")


def detect_blocks(
    text: str,
    segments: list[Segment],
    tables: list[Table],
    *,
    body_start: int = 0,
    paginated: bool = False,
    headings: list[tuple[int, int]] | None = None,
    edges: list[tuple[int, int, str]] | None = None,
    units: list[tuple[int, int, int, str]] | None = None,
) -> list[Block]:
    """Type the canonical text: every non-blank line belongs to exactly one block.

    Args:
        text: The canonical text.
        segments: The loader's segments (text outside them is a heading, or on a PDF page a
            running header or footer).
        tables: Tables the loader read (their rows become ``table_row`` blocks).
        body_start: Where the indexed text starts (after front matter).
        paginated: A PDF: text outside the segments is ``page_header``/``page_footer``
            (but for ``headings``).
        headings: Spans of heading lines the loader found (:mod:`loaders.headings`).
        edges: ``(start, end, kind)`` of a page's own header and footer text the loader
            found (:attr:`ParsedDocument.page_edges`): their lines get that type.
        units: ``(start, answer_start, end, kind)`` of the pairs the markup states
            (:attr:`ParsedDocument.units`): each is one block of its kind, its lines typed
            no further.

    Returns:
        Blocks in document order (a ``table`` block precedes its rows).
    """
    blocks: list[Block] = []
    row_spans = sorted((r.start, r.end) for t in tables for r in t.rows)
    table_at = {t.start: t for t in tables}
    captions = {t.title for t in tables if t.title and t.source == "html"}
    emitted: set[int] = set()
    heading_starts = {start for start, _ in headings or ()}
    inside = sorted((s.start, s.end, s.page) for s in segments)
    pages = _Pages(inside)
    edge_spans = sorted(edges or ())
    ei = 0
    lines = _run_in_split(text_lines(text, body_start, len(text)), inside)
    # Which lines are inside a table row, a segment, or outside every segment.
    ri = 0
    si = 0
    para: list[TextLine] = []
    para_page: int | None = None
    pending_q: tuple[int, int | None] | None = None  # (question start, page) awaiting answer
    in_fence = False  # inside a fenced code block (``` or ~~~)

    def flush() -> None:
        nonlocal para, pending_q
        if para:
            start, end = para[0].start, para[-1].end
            if pending_q is not None:
                q_start, _ = pending_q
                blocks.append(Block("qa_pair", q_start, end, para_page, answer_start=start))
                pending_q = None
            else:
                blocks.append(Block("paragraph", start, end, para_page))
        para = []

    unit_at = {u[0]: u for u in units or ()}
    unit_end = -1
    prev_end = body_start
    for line in lines:
        if line.start < unit_end:
            prev_end = max(prev_end, line.end)
            continue  # inside a pair the markup states
        if line.start in unit_at:
            flush()
            pending_q = None
            start, answer, unit_end, kind = unit_at[line.start]
            blocks.append(Block(kind, start, unit_end, pages.page_of(start), answer_start=answer))
            prev_end = max(prev_end, line.end)
            continue
        while ri < len(row_spans) and row_spans[ri][1] <= line.start:
            ri += 1
        while si < len(inside) and inside[si][1] <= line.start:
            si += 1
        in_seg = si < len(inside) and inside[si][0] <= line.start < inside[si][1]
        page = inside[si][2] if in_seg else pages.page_of(line.start)
        gap = text[prev_end : line.start]
        if _BLANK_LINE.search(gap):
            flush()
        prev_end = line.end
        if ri < len(row_spans) and row_spans[ri][0] <= line.start < row_spans[ri][1]:
            flush()
            pending_q = None
            start, end = row_spans[ri]
            if start not in emitted:
                emitted.add(start)
                if start in table_at:
                    t = table_at[start]
                    blocks.append(Block("table", t.start, t.end, t.page))
                blocks.append(Block("table_row", start, end, page))
            prev_end = max(prev_end, end)
            continue
        while ei < len(edge_spans) and edge_spans[ei][1] <= line.start:
            ei += 1
        if ei < len(edge_spans) and edge_spans[ei][0] <= line.start:
            flush()
            pending_q = None
            blocks.append(Block(edge_spans[ei][2], line.start, line.end, page))
            continue
        if not in_seg:
            flush()
            if paginated and line.start not in heading_starts:
                kind = "page_header" if pages.starts_page(text, line.start) else "page_footer"
                blocks.append(Block(kind, line.start, line.end, pages.page_near(line.start)))
                continue
            blocks.append(Block("heading", line.start, line.end, pages.page_after(line.end)))
            pending_q = (line.start, None) if is_question(line.text) else None
            continue
        fence = _FENCE.match(line.text)
        if fence or in_fence:  # fenced code: its `# comment` is no heading, `- x` no item
            in_fence = in_fence != bool(fence)
            if not para:
                para_page = page
            para.append(line)
            continue
        if _MD_HEADING.match(line.text):
            flush()
            blocks.append(Block("heading", line.start, line.end, page))
            pending_q = (line.start, page) if is_question(line.text) else None
            continue
        if _LIST_ITEM.match(line.text):
            flush()
            blocks.append(Block("list_item", line.start, line.end, page))
            continue
        if line.text in captions or (
            _CAPTION.match(line.text) and len(line.text) <= MAX_QUESTION_CHARS
        ):
            flush()
            blocks.append(Block("caption", line.start, line.end, page))
            continue
        if is_question(line.text) and not para:
            flush()
            pending_q = (line.start, page)
            blocks.append(Block("heading", line.start, line.end, page))
            continue
        if not para:
            para_page = page
        para.append(line)
    flush()
    # A question line followed by its answer: fold the question's heading block into the pair.
    pair_starts = {b.start for b in blocks if b.kind == "qa_pair"}
    return [b for b in blocks if not (b.kind == "heading" and b.start in pair_starts)]


def block_counts(blocks: list[Block]) -> dict[str, int]:
    """How many blocks of each type (types with none left out), in :data:`BLOCK_TYPES` order."""
    counts = Counter(b.kind for b in blocks)
    return {k: counts[k] for k in BLOCK_TYPES if counts[k]}


@dataclass
class BlockIndex:
    """Looks up which block types overlap a character range (for chunk metadata).

    Attributes:
        blocks: The document's blocks.
    """

    blocks: list[Block]
    _starts: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.blocks = sorted(self.blocks, key=lambda b: (b.start, b.end))
        self._starts = [b.start for b in self.blocks]

    def kinds(self, start: int, end: int) -> list[str]:
        """Block types overlapping ``[start, end)``, most specific first, no repeats."""
        import bisect

        hi = bisect.bisect_left(self._starts, end)
        found = {
            b.kind
            for b in self.blocks[max(0, hi - 400) : hi]
            if b.end > start and b.start < end and b.kind != "table"
        }
        return [k for k in _PRIORITY if k in found]


#: Which type names a chunk that spans several (the first found wins).
_PRIORITY = (
    "table_row",
    "qa_pair",
    "definition",
    "list_item",
    "caption",
    "paragraph",
    "heading",
    "page_header",
    "page_footer",
)


def table_dict(table: Table) -> dict[str, Any]:
    """A JSON-able summary of a table (for the parsing review)."""
    return {
        "page": table.page,
        "title": table.title,
        "columns": table.columns,
        "rows": len(table.rows),
        "source": table.source,
    }

"""Split a parsed document into chunks that know exactly where they came from.

Each chunk keeps **two texts** (see ``docs/index.md``, "What it does"):

* ``text`` — what is embedded and searched: a contextual header ``title > section path``
  followed by the chunk's own words. The header tells the embedding model what an otherwise
  context-free paragraph is about.
* ``content`` — only the chunk's own words, exactly as they stand in the canonical text.
  This is what is quoted back to users; ``canonical[start:end] == content`` always holds,
  because offsets are *found* in the text, never accumulated from lengths.

Splitting uses LangChain's ``RecursiveCharacterTextSplitter`` inside each segment (a page or
a section), so a chunk never crosses a page or section boundary.

Table rows (:attr:`~loaders.base.ParsedDocument.tables`) are never cut: a table's rows are
chunked by row groups (up to ``chunk_size`` characters of content, or
:data:`TABLE_EMBED_CHARS` of embedded text), each group's embedded text carrying the table's
title and, per row, its column headers (``Total revenue — 2024: 8,214; 2023: 7,961``), while
its ``content`` stays the verbatim span of the rows. Each chunk's ``block_type`` (the most
specific block type it overlaps, see :mod:`loaders.blocks`) is in its metadata.

Row-group chunking is opt-in (``ChunkSettings.table_rows``) except for tables whose
``source`` is in :data:`ROW_TABLE_SOURCES`: a spreadsheet sheet (:mod:`loaders.sheets`) is
nothing but rows, and a row split as plain text would lose the column names that say what
its numbers are. A Markdown pipe table chunked by rows (opt-in) has its header line and
``|---|`` rule start its first group's content, so the header is quoted with its rows
(chunking every pipe table so separated the sentences beside it from it: measured, left
out; docs/concepts/structure.md). A table's
last row never makes a group alone when the group before it can spare one
(:func:`row_groups`). This is decided per table, from the table itself, so neither the settings
nor the ingest fingerprint change and other documents of the same build are chunked as
before. A row group of numbered rows records ``row_start``/``row_end`` (and, for xlsx, its
``sheet``) in its metadata for the citation locator.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_text_splitters import RecursiveCharacterTextSplitter

from loaders.base import SECTION_SEP, ParsedDocument
from loaders.blocks import ANSWER_OFFSET_KEY, PAIR_CONTINUES_KEY, BlockIndex, Table, TableRow
from loaders.row_text import ROW_NUMBERS_KEY, ROW_TEXT_KEY, row_texts

_NON_SPACE = re.compile(r"\S")

#: Separators tried in order: paragraphs, lines, sentence ends, clauses, words, characters.
SEPARATORS = ["\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ", ""]
#: A row group's embedded rows (without the header lines) stop growing at this many
#: characters: the embedding model reads about 256 word pieces, and numbers cost several.
TABLE_EMBED_CHARS = 700
#: Table sources always chunked by row groups, whatever ``ChunkSettings.table_rows`` says.
ROW_TABLE_SOURCES = frozenset({"xlsx", "csv"})


#: Smallest ``chunk_size`` accepted (characters).
MIN_CHUNK_SIZE = 1


@dataclass(frozen=True)
class ChunkSettings:
    """How documents are cut into chunks.

    Attributes:
        chunk_size: Target maximum characters of a chunk's own content.
        chunk_overlap: Characters shared between consecutive chunks of one segment.
        contextual_header: Prefix the embedded text with ``title > section``.
        table_rows: Chunk tables by whole rows with their headers in the embedded text
            (``citerag ingest --table-rows``). Off by default: on the FinanceBench filings it
            found the evidence page no more often than plain splitting (docs/concepts/structure.md);
            the structural model (block types, tables) is recorded either way.
        table_titles: Add the title of the table a chunk overlaps (a statement's
            ``Consolidated Statements of Cash Flows … (Millions)``) to its embedded header, so
            a chunk cut from the middle of a statement still says which statement it is
            from. Only with ``contextual_header``; row groups carry the title either way.
            On by default (``citerag ingest --no-table-titles`` turns it off): paired on
            ``financebench-dev`` (40 filings, 50 questions) it put the evidence page first
            for +10/−1 questions (p = 0.012) and lost none at hit@4 or hit@8
            (docs/benchmarks/retrieval.md, "Table titles").
        qa_pairs: Cut a section before each question-and-answer pair
            (:class:`~loaders.blocks.Block` ``qa_pair``), so that a chunk holds one FAQ
            question with its answer instead of several pairs packed up to ``chunk_size``:
            the pair is one unit, and its chunk's vector is about that question alone. A pair
            longer than ``chunk_size`` is still split inside. On by default
            (``citerag ingest --no-qa-pairs`` turns it off; docs/benchmarks/answering.md,
            "One chunk per FAQ pair").
    """

    chunk_size: int = 600
    chunk_overlap: int = 80
    contextual_header: bool = True
    table_rows: bool = False
    table_titles: bool = True
    qa_pairs: bool = True

    def __post_init__(self) -> None:
        """Refuse sizes the splitter cannot use, before any document is read: each would
        fail every document, and a re-ingest would then drop their chunks (an empty index
        published by ``--chunk-size 10``, whose overlap of 80 was larger)."""
        for name in ("chunk_size", "chunk_overlap"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an integer, not {value!r}")
        if self.chunk_size < MIN_CHUNK_SIZE:
            raise ValueError(
                f"chunk_size must be at least {MIN_CHUNK_SIZE} character, not {self.chunk_size}"
            )
        if not 0 <= self.chunk_overlap < self.chunk_size:
            raise ValueError(
                f"chunk_overlap must be 0 or more and smaller than chunk_size "
                f"({self.chunk_size}), not {self.chunk_overlap}"
            )

    def describe(self) -> dict[str, Any]:
        """Return the settings plus splitter identity for the build manifest.

        ``qa_pairs`` is left out when off, as every build before it was made: an index built
        then and read back with it off (:mod:`citerag.server.engine`) describes the same
        settings, so its documents are not processed again.
        """
        import langchain_text_splitters

        settings = asdict(self)
        if not self.qa_pairs:
            del settings["qa_pairs"]
        return {
            **settings,
            "splitter": "langchain_text_splitters.RecursiveCharacterTextSplitter",
            "splitter_version": getattr(langchain_text_splitters, "__version__", "unknown"),
            "separators": SEPARATORS,
            "length_function": "len (characters)",
        }


@dataclass
class Chunk:
    """One indexed unit with full provenance.

    Attributes:
        chunk_id: Stable id ``<doc_id>:<start>-<end>``.
        text: Embedded/searched text (contextual header + content).
        content: The chunk's own words; ``canonical[start:end] == content``.
        start: First character in the document's canonical text.
        end: One past the last character.
        page: 1-based page for PDFs, else ``None``.
        section: Heading path ('' when none).
        index: Position of the chunk within its document.
        metadata: Document-level metadata copied onto the chunk (doc_id, doc_name, ...).
    """

    chunk_id: str
    text: str
    content: str
    start: int
    end: int
    page: int | None
    section: str
    index: int
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_metadata(self) -> dict[str, Any]:
        """Flatten into the metadata dict stored with the vector (no ``None`` values)."""
        meta = {
            **self.metadata,
            "chunk_id": self.chunk_id,
            "content": self.content,
            "start": self.start,
            "end": self.end,
            "section": self.section,
            "chunk_index": self.index,
        }
        if self.page is not None:
            meta["page"] = self.page
        return meta


def make_header(title: str, section: str) -> str:
    """Build the contextual header ``title > section`` (just ``title`` without a section).

    A section path whose first heading is the title itself (a Markdown page's ``# Title``
    under front matter naming it, a Word document's title line) does not repeat it:
    ``"Media stocks" + "Media stocks > Antibiotics"`` is ``"Media stocks > Antibiotics"``.
    """
    first, sep, rest = section.partition(SECTION_SEP)
    if _same_words(first, title):
        section = rest if sep else ""
    return f"{title} > {section}" if section else title


def _same_words(a: str, b: str) -> bool:
    return a.split() != [] and [w.casefold() for w in a.split()] == [
        w.casefold() for w in b.split()
    ]


def doc_id_for(source: str) -> str:
    """Return the stable document id for a source key (a POSIX path)."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def _candidates(
    body: str, piece: str, prev_start: int, prev_end: int, overlap: int
) -> list[int | None]:
    """Possible starts of the splitter's next piece, given where the previous one lies.

    The splitter keeps every non-whitespace character in order, and a piece overlaps the
    previous one by at most ``overlap`` characters. So a piece starts no earlier than the
    previous one's start and ``prev_end - overlap``, no later than the first non-whitespace
    character after ``prev_end``, and it ends after ``prev_end``. ``None``
    stands for a redundant piece lying wholly inside the previous one (the splitter emits
    one when only whitespace followed the overlap); it adds no text and is dropped.
    """
    nxt = _NON_SPACE.search(body, prev_end)
    latest = nxt.start() if nxt else len(body)
    earliest = max(0, prev_start, prev_end - overlap, prev_end - len(piece) + 1)
    out: list[int | None] = []
    found = body.find(piece, earliest, latest + len(piece))
    while found >= 0:
        out.append(found)
        found = body.find(piece, found + 1, latest + len(piece))
    if prev_start >= 0 and body.find(piece, prev_start, prev_end) >= 0:
        out.append(None)
    return out


def _locate_pieces(body: str, pieces: list[str], overlap: int) -> list[int | None]:
    """Find where each piece starts in ``body`` (``None``: redundant piece, drop it).

    Repeated words make a plain ``find`` ambiguous: a short piece may also occur inside the
    previous piece's overlap, and periodic text ("Dr. Dr. Dr.", dot leaders) matches at
    several starts. A depth-first search picks, for every piece, a start that satisfies the
    constraints of :func:`_candidates` for the whole sequence and leaves no non-whitespace
    character of ``body`` outside every piece.

    Raises:
        AssertionError: If no consistent placement exists (a bug).
    """
    starts: list[int | None] = []
    states = [(-1, 0)]  # (start, end) of the last placed piece, before each piece
    options: list[list[int | None]] = []
    budget = 20 * len(pieces) + 1000
    while True:
        depth = len(starts)
        prev_start, prev_end = states[depth]
        if depth == len(pieces):
            if not _NON_SPACE.search(body, prev_end):
                return starts
            options.append([])  # text left over at the end: backtrack
        elif len(options) == depth:
            options.append(_candidates(body, pieces[depth], prev_start, prev_end, overlap))
        budget -= 1
        if options[depth] and budget > 0:
            choice = options[depth].pop(0)
            starts.append(choice)
            end = prev_end if choice is None else choice + len(pieces[depth])
            states.append((prev_start, prev_end) if choice is None else (choice, end))
            continue
        if depth == 0 or budget <= 0:
            raise AssertionError("chunk not found in canonical text")
        options.pop()
        starts.pop()
        states.pop()


def make_splitter(settings: ChunkSettings) -> RecursiveCharacterTextSplitter:
    """The LangChain splitter every chunk is cut with."""
    return RecursiveCharacterTextSplitter(
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        separators=SEPARATORS,
        keep_separator="end",
        strip_whitespace=True,
    )


def chunk_segment(
    body: str,
    offset: int,
    *,
    header: str,
    page: int | None,
    section: str,
    settings: ChunkSettings,
    doc_meta: dict[str, Any],
    first_index: int = 0,
    splitter: RecursiveCharacterTextSplitter | None = None,
) -> list[Chunk]:
    """Cut one segment's text into chunks.

    Args:
        body: The segment's text, ``canonical[offset : offset + len(body)]``.
        offset: Where it starts in the document's canonical text.
        header: The contextual header of its chunks.
        page: Its page (``None`` when not paginated).
        section: Its heading path.
        settings: Chunk size, overlap and header switch.
        doc_meta: Document-level metadata (with ``doc_id``) copied onto each chunk.
        first_index: The document position of its first chunk.
        splitter: A splitter from :func:`make_splitter` (made when ``None``).

    Returns:
        Its chunks in order, with offsets into the canonical text.

    Raises:
        AssertionError: If a chunk cannot be located in the text (a bug).
    """
    splitter = splitter or make_splitter(settings)
    doc_id = doc_meta["doc_id"]
    chunks: list[Chunk] = []
    pieces = splitter.split_text(body)
    for piece, found in zip(
        pieces, _locate_pieces(body, pieces, settings.chunk_overlap), strict=True
    ):
        if found is None:  # only whitespace was new: the previous chunk has these words
            continue
        start = offset + found
        end = start + len(piece)
        text = f"{header}\n{piece}" if settings.contextual_header else piece
        chunks.append(
            Chunk(
                chunk_id=f"{doc_id}:{start}-{end}",
                text=text,
                content=piece,
                start=start,
                end=end,
                page=page,
                section=section,
                index=first_index + len(chunks),
                metadata=dict(doc_meta),
            )
        )
    return chunks


def chunk_document(
    doc: ParsedDocument, settings: ChunkSettings, doc_meta: dict[str, Any]
) -> list[Chunk]:
    """Cut a parsed document into chunks inside each of its segments.

    Args:
        doc: The parsed document.
        settings: Chunk size, overlap, header and table switches.
        doc_meta: Document-level metadata (must include ``doc_id``) copied onto each chunk.
            Its ``title`` (the document's usable title, see :mod:`loaders.pipeline`) heads
            the embedded text; without one, the parser's ``doc.title`` does.

    Returns:
        Chunks in document order, each with its ``block_type`` in its metadata, and
        ``ocr: True`` with the page's ``ocr_confidence`` when its page was read by OCR,
        ``row_text`` (:func:`loaders.row_text.row_texts`) when table rows lie inside it, and
        ``pair_continues: True`` when it starts inside an FAQ answer begun in an earlier
        chunk (:func:`continues_answer`).

    Raises:
        AssertionError: If a chunk cannot be located in the canonical text (a bug).
    """
    splitter = make_splitter(settings)
    title = str(doc_meta.get("title") or doc.title)
    chunks: list[Chunk] = []
    spans = pair_spans_of(doc)  # the continuation marker, whether or not pairs are cut
    pairs = spans if settings.qa_pairs else []
    # A spreadsheet's table is the whole sheet: chunked by row groups whatever the switch.
    row_tables = [t for t in doc.tables if settings.table_rows or t.source in ROW_TABLE_SOURCES]
    runs = _table_runs(row_tables)
    ri = 0
    for seg in doc.segments:
        header = make_header(title, seg.section)
        pos = seg.start
        while ri < len(runs) and runs[ri][1][0].start < seg.start:
            ri += 1
        while ri < len(runs) and runs[ri][1][-1].end <= seg.end:
            table, rows = runs[ri]
            head = _head_lines_start(doc.text, table, max(pos, seg.start))
            chunks += _text_chunks(
                doc, pos, head, header, seg, settings, doc_meta, chunks, splitter, pairs
            )
            chunks += table_chunks(
                doc.text,
                table,
                rows,
                header=header,
                page=seg.page,
                section=seg.section,
                settings=settings,
                doc_meta=doc_meta,
                first_index=len(chunks),
                head_start=head,
            )
            pos = rows[-1].end
            ri += 1
        chunks += _text_chunks(
            doc, pos, seg.end, header, seg, settings, doc_meta, chunks, splitter, pairs
        )
    if settings.table_titles and settings.contextual_header and doc.tables:
        _add_table_titles(chunks, doc.tables, title)
    index = BlockIndex(doc.blocks)
    for chunk in chunks:
        kinds = index.kinds(chunk.start, chunk.end) if doc.blocks else []
        if chunk.metadata.get("block_type") != "table_row":
            chunk.metadata["block_type"] = kinds[0] if kinds else "paragraph"
        if chunk.metadata["block_type"] == "qa_pair" and continues_answer(spans, chunk.start):
            chunk.metadata[PAIR_CONTINUES_KEY] = True
        if chunk.metadata["block_type"] in ("qa_pair", "definition"):
            asked = answer_offset(spans, chunk.start, chunk.end, doc.text)
            if asked is not None:
                chunk.metadata[ANSWER_OFFSET_KEY] = asked
        described = row_texts(chunk.start, chunk.end, doc.tables) if doc.tables else []
        if described:
            chunk.metadata[ROW_TEXT_KEY] = described
        ocr = doc.ocr_pages.get(chunk.page) if chunk.page is not None else None
        if ocr is not None:
            chunk.metadata["ocr"] = True
            chunk.metadata["ocr_confidence"] = ocr.confidence
    return chunks


#: A table title longer than this is cut (at a word) before it joins an embedded header.
MAX_TITLE_CHARS = 160


def _add_table_titles(chunks: list[Chunk], tables: list[Table], doc_title: str) -> None:
    """Put the title of the first titled table each text chunk overlaps into its header.

    Only the embedded ``text`` changes (``content`` and offsets stay); row-group chunks
    (``block_type == "table_row"``) already carry their table's title.
    """
    titled = sorted((t for t in tables if t.title.strip()), key=lambda t: t.start)
    if not titled:
        return
    starts = [t.start for t in titled]
    for chunk in chunks:
        if chunk.metadata.get("block_type") == "table_row":
            continue
        i = bisect.bisect_left(starts, chunk.end) - 1
        # the latest titled table starting before the chunk ends (tables do not nest; a
        # table starting exactly at the chunk's end does not overlap it)
        if i < 0 or titled[i].end <= chunk.start:
            continue
        table_title = " ".join(titled[i].title.split())
        if len(table_title) > MAX_TITLE_CHARS:
            table_title = table_title[:MAX_TITLE_CHARS].rsplit(" ", 1)[0]
        header = make_header(doc_title, chunk.section)
        chunk.text = f"{header}\n{table_title}\n{chunk.content}"


def _text_chunks(
    doc: ParsedDocument,
    start: int,
    end: int,
    header: str,
    seg: Any,
    settings: ChunkSettings,
    doc_meta: dict[str, Any],
    chunks: list[Chunk],
    splitter: RecursiveCharacterTextSplitter,
    pairs: list[tuple[int, int, int]],
) -> list[Chunk]:
    out: list[Chunk] = []
    cuts = qa_pair_cuts(pairs, start, end)
    for lo, hi in zip([start, *cuts], [*cuts, end], strict=True):
        body = doc.text[lo:hi]
        if not body.strip():
            continue
        out += chunk_segment(
            body,
            lo,
            header=header,
            page=seg.page,
            section=seg.section,
            settings=settings,
            doc_meta=doc_meta,
            first_index=len(chunks) + len(out),
            splitter=splitter,
        )
    return out


def pair_spans_of(doc: ParsedDocument) -> list[tuple[int, int, int]]:
    """``(start, answer_start, end)`` of each question-and-answer pair of the document (and
    each term-and-definition pair), sorted."""
    return sorted(
        (b.start, b.answer_start if b.answer_start is not None else b.start, b.end)
        for b in doc.blocks
        if b.kind in ("qa_pair", "definition")
    )


def continues_answer(spans: list[tuple[int, int, int]], start: int) -> bool:
    """Whether a chunk starting at ``start`` continues an FAQ answer begun in an earlier
    chunk: it starts inside a pair (``spans`` from :func:`pair_spans_of`) after the start of
    that pair's answer. The first chunk of a pair starts at its question, or at its answer
    when the question is the section's heading; a chunk starting after the pair has ended
    (in the text before the next pair) continues nothing."""
    i = bisect.bisect_right(spans, (start, math.inf, math.inf)) - 1
    if i < 0:
        return False
    q_start, answer_start, end = spans[i]
    return q_start < start and answer_start < start < end


def answer_offset(spans: list[tuple[int, int, int]], start: int, end: int, text: str) -> int | None:
    """Where the answer of the pair whose question opens ``[start, end)`` starts, as an
    offset from ``start`` (``None`` when no pair's question opens the chunk, or its answer
    starts at or after ``end``).

    The question must open the chunk (only white space of ``text`` between them): a chunk
    that starts inside a pair's question, or after a heading question the section path
    holds, starts with statements ("1. Check your card number." under "## Problems signing
    in?"), which are never taken for the question.
    """
    i = bisect.bisect_right(spans, (start, math.inf, math.inf)) - 1
    if i < 0:
        return None
    q_start, answer_start, _ = spans[i]
    opens = q_start <= start and not text[q_start:start].strip()
    return answer_start - start if opens and start < answer_start < end else None


def qa_pair_cuts(pairs: list[tuple[int, int, int]], start: int, end: int) -> list[int]:
    """Where ``[start, end)`` is cut so that each question-and-answer pair starts a chunk of
    its own (:attr:`ChunkSettings.qa_pairs`): the starts of the pairs (``pairs`` from
    :func:`pair_spans_of`) strictly inside the range whose answer begins inside it too (a
    question at the foot of a PDF page, its answer on the next page, stays with the text
    before it rather than becoming a chunk of its own)."""
    lo = bisect.bisect_right(pairs, (start, math.inf, math.inf))
    out: list[int] = []
    for q_start, answer_start, _end in pairs[lo:]:
        if q_start >= end:
            break
        if start < q_start and answer_start < end and (not out or out[-1] != q_start):
            out.append(q_start)
    return out


def _table_runs(tables: list[Table]) -> list[tuple[Table, list[TableRow]]]:
    """Each table with its rows, in document order, tables overlapping an earlier one dropped."""
    out: list[tuple[Table, list[TableRow]]] = []
    last_end = -1
    for table in sorted(tables, key=lambda t: t.start):
        rows = sorted(table.rows, key=lambda r: r.start)
        if rows and rows[0].start >= last_end:
            out.append((table, rows))
            last_end = rows[-1].end
    return out


#: A Markdown pipe table's header line or its ``|---|`` rule.
_PIPE_LINE = re.compile(r"^[^\n]*\|[^\n]*$")


def _head_lines_start(text: str, table: Table, floor: int) -> int:
    """Where a Markdown table's header lines (its header row and ``|---|`` rule, just above
    its first row) start; the first row's start for any other table. Not before ``floor``."""
    start = table.rows[0].start if table.rows else table.start
    if table.source != "markdown":
        return start
    pos = start
    for _ in range(2):
        line_start = text.rfind("\n", floor, max(floor, pos - 1)) + 1
        line_start = max(line_start, floor)
        line = text[line_start : max(line_start, pos - 1)]
        if pos <= floor or not _PIPE_LINE.match(line):
            break
        pos = line_start
    return pos


def row_groups(rows: list[TableRow], chunk_size: int) -> list[list[TableRow]]:
    """Rows in groups of up to ``chunk_size`` characters of content and
    :data:`TABLE_EMBED_CHARS` of embedded text, in order; a last row left alone joins the row
    before it in a group of their own when the two fit (a lone last row would be quoted
    without the rows it closes: a table's total, its last entry)."""
    groups: list[list[TableRow]] = []
    for row in rows:
        if groups and _fits(groups[-1], row, chunk_size):
            groups[-1].append(row)
            continue
        groups.append([row])
    if len(groups) > 1 and len(groups[-1]) == 1 and len(groups[-2]) > 1:
        moved = groups[-2][-1]
        if _fits([moved], groups[-1][0], chunk_size):
            groups[-2].pop()
            groups[-1].insert(0, moved)
    return groups


def _fits(group: list[TableRow], row: TableRow, chunk_size: int) -> bool:
    content_len = row.end - group[0].start
    embed_len = len(_describe_rows(group)) + len(row.describe()) + 1
    return content_len <= chunk_size and embed_len <= TABLE_EMBED_CHARS


def _describe_rows(rows: list[TableRow]) -> str:
    """The rows with their headers, one a line; a group name stated once where it starts."""
    lines: list[str] = []
    group = None
    for row in rows:
        if row.group and row.group != group:
            lines.append(row.group)
        group = row.group
        lines.append(row.describe(with_group=False))
    return "\n".join(lines)


def table_chunks(
    text: str,
    table: Table,
    rows: list[TableRow],
    *,
    header: str,
    page: int | None,
    section: str,
    settings: ChunkSettings,
    doc_meta: dict[str, Any],
    first_index: int = 0,
    head_start: int | None = None,
) -> list[Chunk]:
    """Chunk a table by whole rows: groups of rows, the headers repeated in each group.

    A group's ``content`` runs from the end of the previous group (its first row's start for
    the first group) to its last row's end, so the text between rows (sub-headings) is
    quoted where it stands; its embedded text is the contextual header, the table's title and
    one line per row with its column headers (:meth:`~loaders.blocks.TableRow.describe`).

    Args:
        text: The canonical text.
        table: The table.
        rows: Its rows in document order.
        header: The contextual header.
        page: The page (``None`` when not paginated).
        section: The heading path.
        settings: Chunk size (of a group's content) and header switch.
        doc_meta: Document-level metadata copied onto each chunk.
        first_index: The document position of the first chunk.
        head_start: Where the first group's content starts when the table's header lines
            above its first row are quoted with it (a Markdown table's); its first row's
            start when ``None``.

    Returns:
        One chunk per row group, ``text[start:end] == content``.
    """
    doc_id = doc_meta["doc_id"]
    groups = row_groups(rows, settings.chunk_size)
    out: list[Chunk] = []
    prev_end: int | None = head_start
    lead = [header] if settings.contextual_header else []
    if table.title:
        lead.append(table.title)
    for group in groups:
        start = group[0].start if prev_end is None else prev_end
        while start < group[0].start and text[start].isspace():
            start += 1
        end = group[-1].end
        content = text[start:end]
        prev_end = end
        embedded = "\n".join([*lead, _describe_rows(group)])
        meta = dict(doc_meta)
        meta["block_type"] = "table_row"
        if group[0].number is not None and group[-1].number is not None:
            meta["row_start"], meta["row_end"] = group[0].number, group[-1].number
            # each row's own number, so a citation of one row points at it
            meta[ROW_NUMBERS_KEY] = [
                [r.start, r.end, r.number] for r in group if r.number is not None
            ]
            if table.source == "xlsx":
                meta["sheet"] = section
        out.append(
            Chunk(
                chunk_id=f"{doc_id}:{start}-{end}",
                text=embedded,
                content=content,
                start=start,
                end=end,
                page=page,
                section=section,
                index=first_index + len(out),
                metadata=meta,
            )
        )
    return out

"""Split a parsed document into chunks that know exactly where they came from.

Each chunk keeps **two texts** (see the design notes in ``README.md``):

* ``text`` — what is embedded and searched: a contextual header ``title > section path``
  followed by the chunk's own words. The header tells the embedding model what an otherwise
  context-free paragraph is about.
* ``content`` — only the chunk's own words, exactly as they stand in the canonical text.
  This is what is quoted back to users; ``canonical[start:end] == content`` always holds,
  because offsets are *found* in the text, never accumulated from lengths.

Splitting uses LangChain's ``RecursiveCharacterTextSplitter`` inside each segment (a page or
a section), so a chunk never crosses a page or section boundary.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_text_splitters import RecursiveCharacterTextSplitter

from loaders.base import ParsedDocument

_NON_SPACE = re.compile(r"\S")

#: Separators tried in order: paragraphs, lines, sentence ends, clauses, words, characters.
SEPARATORS = ["\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ", ""]


@dataclass(frozen=True)
class ChunkSettings:
    """How documents are cut into chunks.

    Attributes:
        chunk_size: Target maximum characters of a chunk's own content.
        chunk_overlap: Characters shared between consecutive chunks of one segment.
        contextual_header: Prefix the embedded text with ``title > section``.
    """

    chunk_size: int = 600
    chunk_overlap: int = 80
    contextual_header: bool = True

    def describe(self) -> dict[str, Any]:
        """Return the settings plus splitter identity for the build manifest."""
        import langchain_text_splitters

        return {
            **asdict(self),
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
    """Build the contextual header ``title > section`` (just ``title`` without a section)."""
    return f"{title} > {section}" if section else title


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
        settings: Chunk size, overlap and header switch.
        doc_meta: Document-level metadata (must include ``doc_id``) copied onto each chunk.
            Its ``title`` (the document's usable title, see :mod:`loaders.pipeline`) heads
            the embedded text; without one, the parser's ``doc.title`` does.

    Returns:
        Chunks in document order.

    Raises:
        AssertionError: If a chunk cannot be located in the canonical text (a bug).
    """
    splitter = make_splitter(settings)
    title = str(doc_meta.get("title") or doc.title)
    chunks: list[Chunk] = []
    for seg in doc.segments:
        chunks += chunk_segment(
            doc.text[seg.start : seg.end],
            seg.start,
            header=make_header(title, seg.section),
            page=seg.page,
            section=seg.section,
            settings=settings,
            doc_meta=doc_meta,
            first_index=len(chunks),
            splitter=splitter,
        )
    return chunks

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
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_text_splitters import RecursiveCharacterTextSplitter

from loaders.base import ParsedDocument

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


def chunk_document(
    doc: ParsedDocument, settings: ChunkSettings, doc_meta: dict[str, Any]
) -> list[Chunk]:
    """Cut a parsed document into chunks inside each of its segments.

    Args:
        doc: The parsed document.
        settings: Chunk size, overlap and header switch.
        doc_meta: Document-level metadata (must include ``doc_id``) copied onto each chunk.

    Returns:
        Chunks in document order.

    Raises:
        AssertionError: If a chunk cannot be located in the canonical text (a bug).
    """
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        separators=SEPARATORS,
        keep_separator="end",
        strip_whitespace=True,
    )
    doc_id = doc_meta["doc_id"]
    chunks: list[Chunk] = []
    for seg in doc.segments:
        body = doc.text[seg.start : seg.end]
        header = make_header(doc.title, seg.section)
        cursor = 0
        prev_start = -1
        prev_end = 0
        for piece in splitter.split_text(body):
            # The splitter's next piece overlaps the previous one by at most chunk_overlap
            # characters and always ends after it, so an earlier copy of the same words
            # (e.g. a short piece repeating text of the overlap) is not mistaken for it.
            found = body.find(piece, max(cursor, prev_start + 1, prev_end - len(piece) + 1))
            if found < 0:  # overlap may start before the cursor; search from the last start
                found = body.find(piece, prev_start + 1)
            if found < 0:
                raise AssertionError(f"chunk not found in canonical text of {doc_id}")
            start = seg.start + found
            end = start + len(piece)
            prev_start = found
            prev_end = found + len(piece)
            cursor = found + max(1, len(piece) - settings.chunk_overlap)
            text = f"{header}\n{piece}" if settings.contextual_header else piece
            chunks.append(
                Chunk(
                    chunk_id=f"{doc_id}:{start}-{end}",
                    text=text,
                    content=piece,
                    start=start,
                    end=end,
                    page=seg.page,
                    section=seg.section,
                    index=len(chunks),
                    metadata=dict(doc_meta),
                )
            )
    return chunks

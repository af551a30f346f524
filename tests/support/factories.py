"""Tiny factories for the answering pipeline's data: real candidates and passages, no index.

Unit tests of citations, assembly, fusion and reranking build real
:class:`chains.candidates.Candidate` and :class:`chains.assemble.Passage` objects here, with
the metadata the ingest pipeline writes (``content``, ``doc_name``, ``page``, ``start``,
``end``, ...), so they run in milliseconds without an embedding model or FAISS.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from chains.assemble import Passage
from chains.candidates import Candidate


def make_candidate(
    content: str = "Total revenue for 2025 was £412,860.",
    *,
    doc_name: str = "report.md",
    page: int | None = None,
    start: int = 0,
    end: int | None = None,
    section: str | None = None,
    header: str | None = None,
    scores: Mapping[str, float] | None = None,
    ranks: Mapping[str, int] | None = None,
    key: str | None = None,
    access: str = "public",
) -> Candidate:
    """A retrieved chunk as the store returns it.

    Args:
        content: The chunk's own words (what is quoted back).
        doc_name: Document file name.
        page: 1-based PDF page, or ``None`` for documents without pages.
        start: Offset of ``content`` in the document's canonical text.
        end: End offset; defaults to ``start + len(content)``.
        section: Section path, if any.
        header: Contextual header prefixed to the embedded text (``header\\n\\ncontent``);
            without one the embedded text is the content itself.
        scores: Named scores (``dense``, ``bm25``, ``rrf``, ``rerank``, ...).
        ranks: 1-based ranks per list.
        key: Store id; defaults to a hash of document, offset and content.
        access: Access label.

    Returns:
        A real :class:`Candidate`.
    """
    if key is None:
        digest = hashlib.sha1(f"{doc_name}\0{start}\0{content}".encode()).hexdigest()
        key = f"chunk-{digest[:10]}"
    meta: dict[str, Any] = {
        "chunk_id": key,
        "doc_id": f"doc-{doc_name}",
        "doc_name": doc_name,
        "source": doc_name,
        "content": content,
        "start": start,
        "end": start + len(content) if end is None else end,
        "access": access,
    }
    if page is not None:
        meta["page"] = page
    if section is not None:
        meta["section"] = section
    text = f"{header}\n\n{content}" if header else content
    return Candidate(
        key=key,
        document=Document(id=key, page_content=text, metadata=meta),
        scores=dict(scores or {}),
        ranks=dict(ranks or {}),
    )


def chunk_of(canonical: str, start: int, end: int, **kwargs: Any) -> Candidate:
    """A candidate whose content is ``canonical[start:end]``, as ingest records it."""
    return make_candidate(canonical[start:end], start=start, end=end, **kwargs)


def make_passage(
    n: int, content: str = "Total revenue for 2025 was £412,860.", **kwargs: Any
) -> Passage:
    """Passage ``[n]`` over a candidate built by :func:`make_candidate` (same keyword args)."""
    kwargs.setdefault("key", f"k{n}")
    return Passage(n, make_candidate(content, **kwargs))


def make_passages(*contents: str, **kwargs: Any) -> list[Passage]:
    """Passages ``[1]..[n]`` with the given contents (shared keyword args)."""
    return [make_passage(i, c, **kwargs) for i, c in enumerate(contents, start=1)]


class FixedEmbeddings(Embeddings):
    """A test fake of an embedding model: every text has a fixed, hand-written vector.

    Not a model: texts missing from the table raise, so a test notices an unexpected embed.
    ``calls`` records the texts embedded, in order.
    """

    def __init__(self, vectors: Mapping[str, Sequence[float]]) -> None:
        """Create the fake from ``text -> vector``."""
        self.vectors = {k: [float(x) for x in v] for k, v in vectors.items()}
        self.calls: list[str] = []

    def _vector(self, text: str) -> list[float]:
        self.calls.append(text)
        try:
            return list(self.vectors[text])
        except KeyError:
            raise AssertionError(f"unexpected text embedded: {text!r}") from None

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Vectors of the given texts."""
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """Vector of the query."""
        return self._vector(text)

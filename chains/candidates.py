"""The unit that flows through the answering graph: a retrieved chunk with its scores."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langchain_core.documents import Document


@dataclass
class Candidate:
    """A retrieved chunk and how it got here.

    Attributes:
        key: The store's id for the chunk.
        document: The stored document (``page_content`` = embedded text, metadata has
            ``content``, ``doc_name``, ``page``, ``start``, ``end``, ...).
        scores: Named scores, e.g. ``dense`` (cosine), ``bm25``, ``rrf``, ``rerank``.
        ranks: 1-based rank of the chunk in each list it appeared in (``dense``, ``bm25``,
            ``fused``, ``rerank``).
    """

    key: str
    document: Document
    scores: dict[str, float] = field(default_factory=dict)
    ranks: dict[str, int] = field(default_factory=dict)

    @property
    def meta(self) -> dict[str, Any]:
        """The chunk's metadata."""
        return self.document.metadata

    @property
    def content(self) -> str:
        """The chunk's own words (what is quoted), never the contextual header."""
        return str(self.meta.get("content", self.document.page_content))

    @property
    def chunk_id(self) -> str:
        """Stable chunk id."""
        return str(self.meta.get("chunk_id", self.key))

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly record for the trace."""
        m = self.meta
        return {
            "chunk_id": self.chunk_id,
            "doc_id": m.get("doc_id"),
            "doc_name": m.get("doc_name"),
            "source": m.get("source"),
            "page": m.get("page"),
            "section": m.get("section") or None,
            "start": m.get("start"),
            "end": m.get("end"),
            "access": m.get("access"),
            "content": self.content,
            "scores": {k: round(v, 6) for k, v in self.scores.items()},
            "ranks": dict(self.ranks),
            "lists": sorted(k for k in self.ranks if k in ("dense", "bm25")),
            **({"ocr": True, "ocr_confidence": m.get("ocr_confidence")} if m.get("ocr") else {}),
        }

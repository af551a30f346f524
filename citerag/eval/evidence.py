"""Match evidence items to indexed chunks, and find **destroyed** evidence.

:class:`IndexedCorpus` is a read-only view of what an index holds (chunk metadata grouped by
document). For every evidence item it computes, once, the set of chunks that hit it (see
:mod:`citerag.eval.questions` for the rule), independently of any retrieval. An item's
:meth:`IndexedCorpus.status` is one of:

``indexed``
    At least one chunk contains it whole.
``destroyed``
    It is present in the source document's canonical text, but no chunk contains it whole —
    e.g. the answer straddles a chunk boundary. No retriever, reranker or threshold can
    recover it; only re-chunking can.
``not_in_source``
    The needle does not occur in the document's extracted text (or the page has no text):
    the parser lost it, or the question file is wrong.
``doc_not_indexed``
    No chunk of the document is in the index (not ingested, failed, or not accessible to the
    evaluating user's groups).
``source_unavailable``
    No chunk contains it and the source text could not be read to tell ``destroyed`` from
    ``not_in_source``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from chains.citations import normalise_ws
from citerag.eval.questions import Evidence

log = logging.getLogger(__name__)

INDEXED = "indexed"
DESTROYED = "destroyed"
NOT_IN_SOURCE = "not_in_source"
DOC_NOT_INDEXED = "doc_not_indexed"
SOURCE_UNAVAILABLE = "source_unavailable"


@dataclass(frozen=True)
class SourceText:
    """A document's canonical text and its page/section segments.

    Attributes:
        text: The canonical text (what chunk ``start``/``end`` index into).
        pages: ``(page, start, end)`` ranges for paginated documents (empty otherwise).
    """

    text: str
    pages: tuple[tuple[int, int, int], ...] = ()

    def page_text(self, page: int) -> str | None:
        """Text of one 1-based page (``None`` if the document has no such page)."""
        parts = [self.text[s:e] for p, s, e in self.pages if p == page]
        return "\n".join(parts) if parts else None


TextProvider = Callable[[str], SourceText | None]


def source_text_from_file(
    path: Path, attachment_positions: Sequence[int] | None = None
) -> SourceText | None:
    """Load a file with citerag's own loaders and return its canonical text (or ``None``).

    Args:
        path: The file.
        attachment_positions: For an e-mail attachment's document, its positions in the
            message file ``path`` (its record's ``attachment_positions``).
    """
    from loaders.attachments import read_attachment
    from loaders.base import DocumentLoadError
    from loaders.registry import load_attachment, load_file

    try:
        if attachment_positions:
            name, data = read_attachment(path.read_bytes(), tuple(attachment_positions))
            doc = load_attachment(name, data)
        else:
            doc = load_file(path)
    except (OSError, DocumentLoadError) as exc:
        log.warning("cannot read source %s: %s", path, exc)
        return None
    pages = tuple((s.page, s.start, s.end) for s in doc.segments if s.page is not None)
    return SourceText(doc.text, pages)


def _doc_keys(meta: dict[str, Any]) -> set[str]:
    """Every string an evidence ``doc`` may use for this chunk's document."""
    keys: set[str] = set()
    for value in (meta.get("source"), meta.get("doc_name")):
        if not value:
            continue
        value = str(value)
        keys.add(value)
        name = PurePosixPath(value).name
        keys.add(name)
        keys.add(PurePosixPath(name).stem)
    return keys


class IndexedCorpus:
    """What an index holds, for evidence matching (no embedding model needed)."""

    def __init__(
        self,
        chunks: Iterable[tuple[str, dict[str, Any]]],
        texts: TextProvider | None = None,
    ) -> None:
        """Group chunk metadata by document.

        Args:
            chunks: ``(store key, metadata)`` for every chunk the evaluated user can retrieve.
            texts: Returns a document's canonical text by ``doc_id`` (for telling destroyed
                evidence from evidence missing in the source).
        """
        self.by_doc: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        self.chunk_id: dict[str, str] = {}
        self._doc_of: dict[str, set[str]] = {}
        for key, meta in chunks:
            doc_id = str(meta.get("doc_id"))
            self.by_doc.setdefault(doc_id, []).append((key, meta))
            self.chunk_id[key] = str(meta.get("chunk_id", key))
        for doc_id, items in self.by_doc.items():
            for k in _doc_keys(items[0][1]):
                self._doc_of.setdefault(k, set()).add(doc_id)
        self._texts = texts
        self._text_cache: dict[str, SourceText | None] = {}
        self._hits: dict[Evidence, frozenset[str]] = {}
        self._status: dict[Evidence, str] = {}

    @classmethod
    def from_store(
        cls,
        store: Any,
        documents: dict[str, dict[str, Any]] | None = None,
        user_groups: list[str] | None = None,
    ) -> IndexedCorpus:
        """Build from a :class:`~citerag.stores.faiss.store.CiteragStore`.

        Args:
            store: The store (``iter_metadata()``).
            documents: The manifest's ``documents`` (``doc_id`` -> record with ``path``), used
                to read source texts.
            user_groups: Only chunks these groups may read are counted as indexed.
        """
        from loaders.access import allowed_labels

        allowed = set(allowed_labels(list(user_groups or [])))
        chunks = [(k, m) for k, m in store.iter_metadata() if m.get("access", "public") in allowed]
        docs = documents or {}

        def provider(doc_id: str) -> SourceText | None:
            rec = docs.get(doc_id)
            if not rec or not rec.get("path"):
                return None
            return source_text_from_file(Path(rec["path"]), rec.get("attachment_positions"))

        return cls(chunks, provider)

    def __len__(self) -> int:
        return len(self.chunk_id)

    def documents_for(self, doc: str) -> set[str]:
        """``doc_id``s an evidence ``doc`` refers to (source key, file name or stem)."""
        return self._doc_of.get(doc) or self._doc_of.get(PurePosixPath(doc).name) or set()

    def source(self, doc_id: str) -> SourceText | None:
        """Canonical text of a document (cached), if a provider can read it."""
        if doc_id not in self._text_cache:
            self._text_cache[doc_id] = self._texts(doc_id) if self._texts else None
        return self._text_cache[doc_id]

    @staticmethod
    def chunk_matches(ev: Evidence, meta: dict[str, Any], needle: str | None) -> bool:
        """Whether a chunk of the right document hits ``ev`` (page, needle, range)."""
        if ev.page is not None and meta.get("page") != ev.page:
            return False
        if ev.start is not None and ev.end is not None:
            start, end = meta.get("start"), meta.get("end")
            if start is None or end is None or not (start <= ev.start and end >= ev.end):
                return False
        if needle is not None:
            content = str(meta.get("content", ""))
            if needle not in normalise_ws(content):
                return False
        return True

    def hits(self, ev: Evidence) -> frozenset[str]:
        """Store keys of every chunk that hits ``ev`` (computed once)."""
        got = self._hits.get(ev)
        if got is None:
            needle = normalise_ws(ev.needle) if ev.needle else None
            keys = {
                key
                for doc_id in self.documents_for(ev.doc)
                for key, meta in self.by_doc[doc_id]
                if self.chunk_matches(ev, meta, needle)
            }
            got = frozenset(keys)
            self._hits[ev] = got
        return got

    def status(self, ev: Evidence) -> str:
        """``indexed``, ``destroyed``, ``not_in_source``, ``doc_not_indexed`` or
        ``source_unavailable`` (see the module docstring)."""
        got = self._status.get(ev)
        if got is None:
            got = self._compute_status(ev)
            self._status[ev] = got
        return got

    def _compute_status(self, ev: Evidence) -> str:
        if self.hits(ev):
            return INDEXED
        docs = self.documents_for(ev.doc)
        if not docs:
            return DOC_NOT_INDEXED
        if ev.needle is None and ev.start is None:
            # page (or document) level: the document is indexed but that page has no chunk
            return NOT_IN_SOURCE
        needle = normalise_ws(ev.needle) if ev.needle is not None else None
        read_any = False
        for doc_id in docs:
            src = self.source(doc_id)
            if src is None:
                continue
            read_any = True
            if ev.start is not None and ev.end is not None:
                if ev.end <= len(src.text) and (
                    needle is None or needle in normalise_ws(src.text[ev.start : ev.end])
                ):
                    return DESTROYED
                continue
            hay = src.text if ev.page is None else src.page_text(ev.page)
            if hay is not None and needle is not None and needle in normalise_ws(hay):
                return DESTROYED
        if read_any:
            return NOT_IN_SOURCE
        if ev.start is not None and ev.needle is None:
            # a span defined on the canonical text: present by construction
            return DESTROYED
        return SOURCE_UNAVAILABLE

    def chunk_ids(self, keys: Iterable[str]) -> set[str]:
        """Map store keys to chunk ids."""
        return {self.chunk_id.get(k, k) for k in keys}

"""The store contract: what the graph needs from an index at query time (issue 33).

:class:`SearchIndex` is the one interface the retriever, the rerankers, the extractive
answerer and :class:`~graphs.deps.GraphDeps` call; both stores implement it explicitly
(:class:`~citerag.stores.faiss.store.CiteragStore`, FAISS + in-process BM25, and
:class:`~citerag.stores.postgres.store.PostgresStore`, pgvector + BM25 over PostgreSQL lexemes).
Anything else handed to the graph (a plain LangChain ``VectorStore``, a test stand-in) is
wrapped once by :func:`as_search_index` in a :class:`VectorStoreIndex`, which uses the
contract methods the object has and degrades the others in the stated way, with one warning.

Nothing outside this module asks a store what it can do with ``getattr``: callers read
:attr:`SearchIndex.has_keyword_leg` and :attr:`SearchIndex.has_term_statistics` instead.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from citerag.core.filters import Filter

log = logging.getLogger(__name__)

#: Sentence spans (within ``metadata["content"]``) and their vectors, as the rerankers read them.
SentenceVectors = tuple[list[tuple[int, int]], np.ndarray]

#: What the keyword leg's score is when the index does not say.
DEFAULT_KEYWORD_SCORE_TYPE = "Okapi BM25 (k1=1.2, b=0.75), unbounded, higher=better"


@runtime_checkable
class SearchIndex(Protocol):
    """What the graph reads from an index while answering.

    Scores: the dense leg returns the **cosine similarity** of query and chunk embeddings
    (-1..1, higher is closer); the keyword leg returns an **Okapi BM25** score (unbounded,
    positive, higher is better; :attr:`lexical_score_type` says over which tokens). Every
    search applies its ``filter`` (:mod:`citerag.core.filters`: access labels, question
    constraints) *inside* the index, before ranking, so ``k`` allowed results come back when
    ``k`` exist and a forbidden chunk never leaves the store.

    Attributes:
        has_keyword_leg: :meth:`bm25_search` searches a real keyword index (``False``: it
            returns nothing, and hybrid retrieval is dense only).
        has_term_statistics: :meth:`idf` reads the index's document frequencies (``False``:
            every term weighs 1.0, and the extractive answerer weighs focus terms by length).
        concurrent_legs: The keyword leg waits on a server, so hybrid retrieval runs it in a
            worker thread while the dense leg searches (PostgreSQL); ``False`` for legs that
            compute in this process (FAISS, in-process BM25).
        lexical_score_type: What the keyword score means (shown in traces).
    """

    has_keyword_leg: bool
    has_term_statistics: bool
    concurrent_legs: bool
    lexical_score_type: str

    @property
    def embeddings(self) -> Embeddings | None:
        """The embedding model the index was built with (query vectors must come from it)."""
        ...

    def similarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Filter | None = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Dense search by query vector.

        Args:
            embedding: The query vector (need not be normalised).
            k: Most results.
            filter: Metadata filter applied before ranking.

        Returns:
            ``(document, cosine)`` pairs, best first; ``document.id`` is the chunk key.
        """
        ...

    def bm25_search(
        self, query: str, k: int = 4, filter: Filter | None = None
    ) -> list[tuple[Document, float]]:
        """Keyword search over the question's words.

        Args:
            query: Question text (the index tokenises it its own way).
            k: Most results.
            filter: Metadata filter applied before ranking.

        Returns:
            ``(document, BM25 score)`` pairs with a positive score, best first.
        """
        ...

    def idf(self, terms: Iterable[str]) -> dict[str, float]:
        """Inverse document frequency of terms, as the keyword leg weighs them.

        ``idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))`` with ``N`` the chunks indexed and
        ``n(t)`` those holding ``t`` (:mod:`citerag.stores.faiss.bm25`), so a rarer term weighs more
        and every value is positive.

        Args:
            terms: Tokens from :func:`citerag.core.text.tokenize` (lower-case words).

        Returns:
            One entry per term the index holds. A term **missing** from the result occurs in
            no indexed chunk (or is a stop word of the index): no passage can contain it.
            Without term statistics (:attr:`has_term_statistics` false) every term is 1.0.
        """
        ...

    def sentence_vectors_many(self, keys: Sequence[str]) -> dict[str, SentenceVectors]:
        """Sentence spans and vectors computed at ingest for a shortlist of chunks.

        Returns:
            Entries for the keys that have them (a chunk ingested without sentence vectors,
            or an unknown key, is missing: the caller embeds its sentences itself).
        """
        ...

    def cosine_for(self, keys: Sequence[str], query_vector: Sequence[float]) -> dict[str, float]:
        """Cosine similarity of the query to stored chunks by key (unknown keys left out)."""
        ...

    def iter_document_metadata(self) -> Iterable[dict[str, Any]]:
        """The metadata of one chunk per document (document-level fields such as
        ``doc_id``, ``doc_name``, ``company``, ``period``, ``access`` are on every chunk)."""
        ...

    def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        """Stored chunks by key (unknown keys skipped)."""
        ...

    def document_chunks(
        self, doc_id: str, start: int, end: int, filter: Filter | None = None
    ) -> list[Document]:
        """Stored chunks of one document that overlap ``[start, end)`` of its canonical text
        (a matched chunk's neighbours, for parent expansion: :mod:`chains.expand`).

        Args:
            doc_id: The document's ``doc_id``.
            start: First character of the window.
            end: One past its last character.
            filter: Metadata filter (the request's access and constraint filter): a chunk
                it rejects never leaves the store.

        Returns:
            The chunks (``document.id`` the chunk key), in document order (by ``start``).
        """
        ...


class VectorStoreIndex:
    """:class:`SearchIndex` over any object: a plain LangChain ``VectorStore`` or a partial
    stand-in.

    Each contract method the wrapped object has is used as it is; the others degrade:

    * no ``bm25_search``: no keyword leg (hybrid retrieval is dense only; ``bm25`` mode fails);
    * no ``idf`` (nor a ``bm25`` index with one): every term weighs 1.0 in the reranker's
      coverage, and the extractive answerer weighs focus terms by their length;
    * no ``sentence_vectors_many``/``sentence_vectors_for``: none precomputed, the reranker
      and the answerer embed each candidate's sentences per question (slower, same scores);
    * no ``cosine_for``: candidates found by the keyword leg only carry no dense score;
    * no ``iter_document_metadata``/``iter_metadata``: no documents listed, so the
      ``constrain`` node applies no question constraints;
    * no ``document_chunks``: no neighbours, so no passage is expanded (``expand`` knob).

    One warning names what degrades, when the wrapper is made.
    """

    concurrent_legs = False

    def __init__(self, store: Any) -> None:
        """Wrap ``store``.

        Raises:
            ValueError: ``store`` is ``None`` or already a :class:`SearchIndex`.
        """
        if store is None:
            raise ValueError("store must not be None")
        if isinstance(store, SearchIndex):
            raise ValueError(f"{type(store).__name__} already implements SearchIndex")
        self.inner = store
        self._by_vector = getattr(store, "similarity_search_with_score_by_vector", None)
        self._keyword = getattr(store, "bm25_search", None)
        bm25 = getattr(store, "bm25", None)
        self._idf = getattr(store, "idf", None) or getattr(bm25, "idf", None)
        self._many = getattr(store, "sentence_vectors_many", None)
        self._one = getattr(store, "sentence_vectors_for", None)
        self._cosine = getattr(store, "cosine_for", None)
        self._per_doc = getattr(store, "iter_document_metadata", None)
        self._per_chunk = getattr(store, "iter_metadata", None)
        self._neighbours = getattr(store, "document_chunks", None)
        self.has_keyword_leg = self._keyword is not None
        self.has_term_statistics = self._idf is not None
        self.lexical_score_type = str(
            getattr(store, "lexical_score_type", DEFAULT_KEYWORD_SCORE_TYPE)
        )
        missing = [
            what
            for what, present in (
                ("no keyword leg (dense retrieval only)", self.has_keyword_leg),
                ("no term statistics (every idf weight 1.0)", self.has_term_statistics),
                ("no precomputed sentence vectors", self._many or self._one),
                ("no cosine by key", self._cosine),
                ("no document list (no question constraints)", self._per_doc or self._per_chunk),
                ("no chunks by document (no parent expansion)", self._neighbours),
            )
            if not present
        ]
        if missing:
            log.warning(
                "%s does not implement citerag's SearchIndex; it is used with %s",
                type(store).__name__,
                "; ".join(missing),
            )

    @property
    def embeddings(self) -> Embeddings | None:
        """The wrapped store's embedding model (``None`` when it has none)."""
        return getattr(self.inner, "embeddings", None)

    def similarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Filter | None = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """The wrapped store's dense search by vector (its own score type).

        Raises:
            NotImplementedError: The store cannot search by vector with scores.
        """
        if self._by_vector is None:
            raise NotImplementedError(
                f"{type(self.inner).__name__} has no similarity_search_with_score_by_vector:"
                " citerag's dense leg searches by the question's vector"
            )
        hits: list[tuple[Document, float]] = self._by_vector(embedding, k, filter=filter)
        return hits

    def bm25_search(
        self, query: str, k: int = 4, filter: Filter | None = None
    ) -> list[tuple[Document, float]]:
        """The wrapped store's keyword search, or nothing without one."""
        if self._keyword is None:
            return []
        hits: list[tuple[Document, float]] = self._keyword(query, k, filter=filter)
        return hits

    def idf(self, terms: Iterable[str]) -> dict[str, float]:
        """The wrapped store's idf, or 1.0 for every term without term statistics."""
        if self._idf is None:
            return dict.fromkeys(terms, 1.0)
        return dict(self._idf(set(terms)))

    def sentence_vectors_many(self, keys: Sequence[str]) -> dict[str, SentenceVectors]:
        """The wrapped store's precomputed sentence vectors (none without them)."""
        if self._many is not None:
            return dict(self._many(list(keys)))
        if self._one is None:
            return {}
        out = {}
        for key in keys:
            got = self._one(key)
            if got is not None:
                out[key] = got
        return out

    def cosine_for(self, keys: Sequence[str], query_vector: Sequence[float]) -> dict[str, float]:
        """The wrapped store's cosine by key (nothing without one)."""
        if self._cosine is None or not keys:
            return {}
        return dict(self._cosine(keys, query_vector))

    def iter_document_metadata(self) -> Iterable[dict[str, Any]]:
        """One chunk's metadata per document, from the wrapped store's listing (if any)."""
        if self._per_doc is not None:
            yield from self._per_doc()
        elif self._per_chunk is not None:
            yield from first_per_document(meta for _, meta in self._per_chunk())

    def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        """The wrapped store's ``get_by_ids`` (nothing when it cannot)."""
        try:
            docs: list[Document] = self.inner.get_by_ids(ids)
        except (AttributeError, NotImplementedError):
            return []
        return docs

    def document_chunks(
        self, doc_id: str, start: int, end: int, filter: Filter | None = None
    ) -> list[Document]:
        """The wrapped store's chunks of a document in a window (nothing without them)."""
        if self._neighbours is None:
            return []
        docs: list[Document] = self._neighbours(doc_id, start, end, filter=filter)
        return docs


def document_key(meta: dict[str, Any]) -> str:
    """The document a chunk's metadata belongs to (``doc_id``, else ``doc_name``; ``""``)."""
    return str(meta.get("doc_id") or meta.get("doc_name") or "")


def first_per_document(metas: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    """The first metadata seen of each document (chunks of no document are skipped)."""
    seen: set[str] = set()
    for meta in metas:
        doc = document_key(meta)
        if doc and doc not in seen:
            seen.add(doc)
            yield meta


def as_search_index(store: Any) -> SearchIndex:
    """``store`` itself when it implements :class:`SearchIndex`, else a
    :class:`VectorStoreIndex` around it (the one place a store is checked against the
    contract).

    Raises:
        ValueError: ``store`` is ``None``.
    """
    if isinstance(store, SearchIndex):
        return store
    return VectorStoreIndex(store)


if TYPE_CHECKING:  # the wrapper implements the contract (checked by mypy)

    def _implements_search_index(index: VectorStoreIndex) -> SearchIndex:
        return index

"""First-stage retrieval: dense, BM25 or hybrid (reciprocal rank fusion), filtered in-store.

Access control is a metadata filter passed *into* each index, so forbidden chunks are never
ranked and never leave the retriever; ``k`` allowed results come back even when most of the
index is forbidden. The dense side works with any LangChain ``VectorStore`` that accepts a
dict ``filter`` (FAISS through :class:`~citerag.stores.faiss.store.CiteragStore`, PGVector, ...);
the lexical side needs an object with ``bm25_search(query, k, filter)``. The store is read
through :class:`~citerag.stores.contract.SearchIndex` (a plain ``VectorStore`` is wrapped by
:func:`~citerag.stores.contract.as_search_index`, which says what degrades). An index that
declares ``concurrent_legs = True`` (the PostgreSQL store: its legs wait on the database) has
its hybrid keyword leg run in a worker thread while the question is embedded and the dense
leg searches, so hybrid costs about the slower leg instead of their sum.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import VectorStore
from pydantic import Field

from chains.candidates import Candidate
from citerag.core.filters import Filter, combine
from citerag.stores.contract import DEFAULT_KEYWORD_SCORE_TYPE, SearchIndex, as_search_index
from loaders.access import allowed_labels

Mode = Literal["dense", "bm25", "hybrid"]
RRF_K = 60
#: Threads that run keyword legs concurrently with the dense leg (stores that say
#: ``concurrent_legs = True``, i.e. wait on a database rather than compute in process).
LEG_THREADS = 8
_LEG_POOL: ThreadPoolExecutor | None = None
_LEG_POOL_LOCK = threading.Lock()


def _leg_pool() -> ThreadPoolExecutor:
    """The shared executor of concurrent keyword legs (created on first use)."""
    global _LEG_POOL
    with _LEG_POOL_LOCK:
        if _LEG_POOL is None:
            _LEG_POOL = ThreadPoolExecutor(LEG_THREADS, thread_name_prefix="citerag-keyword-leg")
        return _LEG_POOL


class LexicalSearch(Protocol):
    """Anything that can run a filtered BM25 search."""

    def bm25_search(
        self, query: str, k: int = 4, filter: Filter | None = None
    ) -> list[tuple[Document, float]]:
        """Return ``(document, score)`` pairs, best first."""
        ...


def access_filter(user_groups: Sequence[str] | None) -> dict[str, Any]:
    """Filter allowing chunks labelled ``public`` or one of the user's groups."""
    return {"access": {"$in": allowed_labels(list(user_groups or []))}}


def rrf(lists: dict[str, list[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: score = sum over lists of ``1 / (k + rank)``, rank 1-based.

    Args:
        lists: Named ranked key lists.
        k: Smoothing constant (60 in Cormack et al., 2009).

    Returns:
        ``(key, fused score)`` best first; ties keep first-seen order.
    """
    acc: dict[str, float] = {}
    for ranked in lists.values():
        for rank, key in enumerate(ranked, start=1):
            acc[key] = acc.get(key, 0.0) + 1.0 / (k + rank)
    return sorted(acc.items(), key=lambda kv: -kv[1])


@dataclass
class RetrievalResult:
    """Candidates plus what the retriever did.

    Attributes:
        candidates: Fused candidates, best first.
        query_vector: The query embedding (reused by the reranker), if computed.
        filter: The exact filter applied in every index.
        score_types: Meaning of each score name.
    """

    candidates: list[Candidate]
    query_vector: list[float] | None
    filter: dict[str, Any] | None
    score_types: dict[str, str]


class HybridRetriever:
    """Dense, BM25 or hybrid retrieval over a vector store (+ lexical index)."""

    def __init__(
        self,
        store: SearchIndex | VectorStore,
        lexical: LexicalSearch | None = None,
        embeddings: Embeddings | None = None,
    ) -> None:
        """Create a retriever.

        Args:
            store: The index (a plain ``VectorStore`` is wrapped by
                :func:`~citerag.stores.contract.as_search_index`).
            lexical: BM25 search (defaults to the index when it has a keyword leg).
            embeddings: Query embedder (defaults to the index's ``embeddings``).
        """
        self.store: SearchIndex = as_search_index(store)
        own_leg = self.store if self.store.has_keyword_leg else None
        self.lexical: LexicalSearch | None = lexical or own_leg
        emb = embeddings or self.store.embeddings
        if emb is None:
            raise ValueError("the vector store has no embeddings; pass embeddings=")
        self.embeddings = emb

    def retrieve(
        self,
        query: str,
        *,
        mode: Mode = "hybrid",
        k_dense: int = 20,
        k_bm25: int = 20,
        k: int = 20,
        rrf_k: int = RRF_K,
        user_groups: Sequence[str] | None = None,
        metadata_filter: Filter | None = None,
        keyword_query: str | None = None,
    ) -> RetrievalResult:
        """Retrieve candidates.

        Args:
            query: The question.
            mode: ``dense``, ``bm25`` or ``hybrid`` (RRF of both; dense only when the index
                has no keyword leg).
            k_dense: Depth of the dense list.
            k_bm25: Depth of the BM25 list.
            k: Candidates returned after fusion.
            rrf_k: RRF smoothing constant.
            user_groups: The caller's groups; access labels are enforced in-store.
            metadata_filter: Extra filter (e.g. ``{"doc_name": "report.pdf"}``).
            keyword_query: What the keyword (BM25) leg searches for, when it differs from
                ``query`` (an expanded question); ``None``: ``query``.

        Returns:
            The fused, filtered candidates.

        Raises:
            ValueError: ``mode`` is ``bm25`` and there is no keyword leg.
        """
        flt = combine(access_filter(user_groups), metadata_filter)
        lexical_query = keyword_query or query
        by_key: dict[str, Candidate] = {}
        lists: dict[str, list[str]] = {}
        qvec: list[float] | None = None
        lexical_hits: Future[list[tuple[Document, float]]] | None = None
        if mode == "hybrid" and self.lexical is self.store and self.store.concurrent_legs:
            # a keyword leg that waits on a database runs while the question is embedded
            # and the dense leg searches (results are merged in the same order as below)
            assert self.lexical is not None
            lexical_hits = _leg_pool().submit(self.lexical.bm25_search, lexical_query, k_bm25, flt)
        if mode in ("dense", "hybrid"):
            qvec = self.embeddings.embed_query(query)
            hits = self.store.similarity_search_with_score_by_vector(qvec, k_dense, filter=flt)
            lists["dense"] = self._collect(hits, "dense", by_key)
        if mode == "bm25" and self.lexical is None:
            raise ValueError(f"retrieval mode {mode!r} needs a lexical (BM25) index")
        if mode in ("bm25", "hybrid") and self.lexical is not None:
            # hybrid over an index without a keyword leg (a wrapped plain VectorStore,
            # which said so when wrapped) is dense retrieval only
            if lexical_hits is not None:
                hits = lexical_hits.result()
            else:
                hits = self.lexical.bm25_search(lexical_query, k_bm25, filter=flt)
            lists["bm25"] = self._collect(hits, "bm25", by_key)
        fused = rrf(lists, rrf_k)[:k]
        out = []
        for rank, (key, score) in enumerate(fused, start=1):
            cand = by_key[key]
            cand.scores["rrf"] = score
            cand.ranks["fused"] = rank
            out.append(cand)
        missing = [c.key for c in out if "dense" not in c.scores]
        if missing:
            if qvec is None:
                qvec = self.embeddings.embed_query(query)
            for key, cos in self.store.cosine_for(missing, qvec).items():
                by_key[key].scores["dense"] = cos
        return RetrievalResult(
            candidates=out,
            query_vector=qvec,
            filter=flt,
            score_types={
                "dense": "cosine similarity of query and chunk embeddings (-1..1, higher=closer)",
                "bm25": (
                    self.store.lexical_score_type
                    if self.lexical is self.store
                    else DEFAULT_KEYWORD_SCORE_TYPE
                ),
                "rrf": f"reciprocal rank fusion, sum of 1/({rrf_k}+rank)",
            },
        )

    @staticmethod
    def _collect(
        hits: list[tuple[Document, float]], name: str, by_key: dict[str, Candidate]
    ) -> list[str]:
        keys = []
        for rank, (doc, score) in enumerate(hits, start=1):
            key = str(doc.id or doc.metadata.get("chunk_id"))
            cand = by_key.setdefault(key, Candidate(key=key, document=doc))
            cand.scores[name] = float(score)
            cand.ranks[name] = rank
            keys.append(key)
        return keys


class CiteragRetriever(BaseRetriever):
    """LangChain ``BaseRetriever`` adapter, for use outside the citerag graph.

    Returned documents carry ``metadata["scores"]`` and ``metadata["ranks"]``.
    """

    retriever: Any
    mode: Mode = "hybrid"
    k: int = 4
    user_groups: list[str] = Field(default_factory=list)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        result = self.retriever.retrieve(
            query, mode=self.mode, k=self.k, user_groups=self.user_groups
        )
        return [
            Document(
                id=c.key,
                page_content=c.document.page_content,
                metadata={**c.meta, "scores": c.scores, "ranks": c.ranks},
            )
            for c in result.candidates
        ]

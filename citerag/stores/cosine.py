"""The base both stores share: ``add_texts`` through ``add_documents`` and the query-text
searches of a LangChain ``VectorStore`` whose ``similarity_search_with_score_by_vector``
returns ``(document, cosine)`` with the filter applied inside the index
(:class:`~citerag.stores.faiss.store.CiteragStore`,
:class:`~citerag.stores.postgres.store.PostgresStore`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import VectorStore

from citerag.core.filters import Filter


class CosineSearch(VectorStore):
    """What both stores share: ``add_texts`` through ``add_documents``, and the query-text
    searches of a store whose ``similarity_search_with_score_by_vector`` returns
    ``(document, cosine)`` with the filter applied inside the index."""

    _embedding: Embeddings

    def add_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[Any, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        """Embed and add texts (as documents, through ``add_documents``)."""
        docs = [
            Document(page_content=t, metadata=(metadatas[i] if metadatas else {}))
            for i, t in enumerate(texts)
        ]
        return self.add_documents(docs, ids=ids)

    def similarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Filter | None = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Dense search by vector (each store implements it)."""
        raise NotImplementedError

    def similarity_search(
        self, query: str, k: int = 4, filter: Filter | None = None, **kwargs: Any
    ) -> list[Document]:
        """Dense search returning documents."""
        return [d for d, _ in self.similarity_search_with_score(query, k, filter=filter)]

    def similarity_search_with_score(
        self, query: str, k: int = 4, filter: Filter | None = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Dense search; the score is the cosine similarity (higher is closer)."""
        vector = self._embedding.embed_query(query)
        return self.similarity_search_with_score_by_vector(vector, k, filter=filter)

    def _similarity_search_with_relevance_scores(
        self, query: str, k: int = 4, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        return self.similarity_search_with_score(query, k, filter=kwargs.get("filter"))

"""LangChain's standard ``VectorStore`` integration tests on citerag's two stores.

``langchain_tests.integration_tests.VectorStoreIntegrationTests`` (the ``langchain-tests``
package) runs the same add / get / delete / search behaviour every LangChain vector store is
held to, here against a real in-memory FAISS ``CiteragStore`` and a ``PostgresStore`` over a
fresh namespace of the real PostgreSQL (``pg_url``), both with the suite's own deterministic
embeddings (``get_embeddings()``), as the suite prescribes. What citerag does differently by
design is marked in the class with its reason (see docs/reference/store-contract.md).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_core.vectorstores import VectorStore
from langchain_tests.integration_tests import VectorStoreIntegrationTests

from citerag.stores.faiss.store import CiteragStore
from citerag.stores.postgres.db import StoreURL, connect, ensure_schema
from citerag.stores.postgres.store import PostgresStore

pytestmark = pytest.mark.integration


def _dimension(store_tests: VectorStoreIntegrationTests) -> int:
    """The size of the suite's fake embedding vectors."""
    return len(store_tests.get_embeddings().embed_query("dimension"))


class _CiteragExtras:
    """Beyond the standard suite: what LangChain's own stores do that the suite leaves out,
    and the score citerag's stores promise (a cosine)."""

    def test_adds_without_ids_never_overwrite(self, vectorstore: VectorStore) -> None:
        first = vectorstore.add_texts(["alpha", "beta"])
        second = vectorstore.add_texts(["gamma", "delta"])
        assert len(set(first + second)) == 4
        got = vectorstore.get_by_ids(first + second)
        assert [d.page_content for d in got] == ["alpha", "beta", "gamma", "delta"]

    def test_scores_are_cosines(self, vectorstore: VectorStore) -> None:
        vectorstore.add_texts(["alpha", "beta", "gamma"], ids=["a", "b", "c"])
        hits = vectorstore.similarity_search_with_score("beta", k=3)
        assert hits[0][0].id == "b"
        assert hits[0][1] == pytest.approx(1.0, abs=1e-3)  # the same text: cosine 1
        assert all(-1.0 - 1e-6 <= s <= 1.0 + 1e-6 for _, s in hits)
        assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)


class TestFaissStoreStandard(_CiteragExtras, VectorStoreIntegrationTests):
    """``CiteragStore`` (FAISS + BM25), empty and in memory for each test."""

    @pytest.fixture
    def vectorstore(self) -> Iterator[VectorStore]:  # type: ignore[override]
        yield CiteragStore(self.get_embeddings(), _dimension(self), sentence_vectors=False)


class TestPostgresStoreStandard(_CiteragExtras, VectorStoreIntegrationTests):
    """``PostgresStore`` (pgvector + full text) over a namespace of its own for each test."""

    @pytest.fixture
    def vectorstore(self, pg_url: str) -> Iterator[VectorStore]:  # type: ignore[override]
        url = StoreURL.parse(pg_url)
        with connect(url) as conn:
            ensure_schema(conn, url, _dimension(self))
            conn.commit()
        store = PostgresStore(self.get_embeddings(), _dimension(self), url, sentence_vectors=False)
        try:
            yield store
        finally:
            store.close()


class TestFaissStoreRealModel(TestFaissStoreStandard):
    """The same suite with the real embedding model and sentence vectors on, as an ingest
    builds the store (the suite's assertions hold for any embeddings)."""

    @pytest.fixture
    def vectorstore(self, embedding_model) -> Iterator[VectorStore]:  # type: ignore[override]
        yield CiteragStore(embedding_model.embeddings, embedding_model.dimension)


class TestPostgresStoreRealModel(TestPostgresStoreStandard):
    """The PostgreSQL store with the real embedding model and sentence vectors on."""

    @pytest.fixture
    def vectorstore(  # type: ignore[override]
        self, pg_url: str, embedding_model
    ) -> Iterator[VectorStore]:
        url = StoreURL.parse(pg_url)
        with connect(url) as conn:
            ensure_schema(conn, url, embedding_model.dimension)
            conn.commit()
        store = PostgresStore(embedding_model.embeddings, embedding_model.dimension, url)
        try:
            yield store
        finally:
            store.close()

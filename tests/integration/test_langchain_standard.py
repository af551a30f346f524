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

from citerag.index.pg_db import StoreURL, connect, ensure_schema
from citerag.index.pg_store import PostgresStore
from citerag.index.store import CiteragStore

pytestmark = pytest.mark.integration


def _dimension(store_tests: VectorStoreIntegrationTests) -> int:
    """The size of the suite's fake embedding vectors."""
    return len(store_tests.get_embeddings().embed_query("dimension"))


class TestFaissStoreStandard(VectorStoreIntegrationTests):
    """``CiteragStore`` (FAISS + BM25), empty and in memory for each test."""

    @pytest.fixture
    def vectorstore(self) -> Iterator[VectorStore]:  # type: ignore[override]
        yield CiteragStore(self.get_embeddings(), _dimension(self), sentence_vectors=False)


class TestPostgresStoreStandard(VectorStoreIntegrationTests):
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

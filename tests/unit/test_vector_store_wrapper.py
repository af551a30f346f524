"""The store contract's wrapper: a plain LangChain ``VectorStore`` under the graph degrades
as stated, with one warning (no model: LangChain's deterministic fake embedding)."""

from __future__ import annotations

import logging

import pytest
from langchain_community.vectorstores import FAISS
from langchain_core.documents import Document
from langchain_core.embeddings.fake import DeterministicFakeEmbedding

from chains.rerank import SentenceReranker
from chains.retrieval import HybridRetriever
from citerag.stores.contract import SearchIndex, VectorStoreIndex, as_search_index
from citerag.stores.faiss.store import CiteragStore
from graphs.deps import GraphDeps

TEXTS = ["solar arrays need cleaning", "inverter firmware checks", "board secret offer"]
METAS = [
    {"access": "public", "doc_id": "a"},
    {"access": "public", "doc_id": "b"},
    {"access": "board", "doc_id": "c"},
]


@pytest.fixture
def emb() -> DeterministicFakeEmbedding:
    return DeterministicFakeEmbedding(size=8)


@pytest.fixture
def plain(emb: DeterministicFakeEmbedding) -> FAISS:
    """LangChain's own FAISS store: dense search with dict filters, nothing else."""
    return FAISS.from_texts(TEXTS, emb, metadatas=METAS, ids=["1", "2", "3"])


def test_a_plain_vector_store_is_wrapped_with_one_warning(plain: FAISS, caplog) -> None:
    assert not isinstance(plain, SearchIndex)
    with caplog.at_level(logging.WARNING, logger="citerag.stores.contract"):
        index = as_search_index(plain)
    assert isinstance(index, VectorStoreIndex) and isinstance(index, SearchIndex)
    (record,) = caplog.records
    for degraded in ("no keyword leg", "every idf weight 1.0", "no precomputed sentence"):
        assert degraded in record.getMessage()
    assert as_search_index(index) is index  # wrapped once, never twice


def test_the_wrapper_degrades_as_stated(plain: FAISS, emb: DeterministicFakeEmbedding) -> None:
    index = as_search_index(plain)
    assert not index.has_keyword_leg and not index.has_term_statistics
    assert not index.concurrent_legs
    assert index.idf(["solar", "zyx"]) == {"solar": 1.0, "zyx": 1.0}
    assert index.bm25_search("solar", k=3) == []
    assert index.sentence_vectors_many(["1", "2"]) == {}
    assert index.cosine_for(["1"], emb.embed_query("solar")) == {}
    assert list(index.iter_document_metadata()) == []
    assert [d.id for d in index.get_by_ids(["2", "9"])] == ["2"]
    hits = index.similarity_search_with_score_by_vector(
        emb.embed_query(TEXTS[2]), k=3, filter={"access": {"$in": ["public"]}}
    )
    assert {d.metadata["access"] for d, _ in hits} == {"public"} and len(hits) == 2


def test_a_plain_store_under_the_graph_retrieves_dense_only(plain: FAISS) -> None:
    deps = GraphDeps.from_store(plain)
    assert isinstance(deps.store, VectorStoreIndex)
    res = deps.retriever.retrieve(TEXTS[0], mode="hybrid", k=3)
    assert [c.key for c in res.candidates][:1] == ["1"]
    assert all(set(c.ranks) == {"dense", "fused"} for c in res.candidates)
    assert {c.meta["access"] for c in res.candidates} == {"public"}
    with pytest.raises(ValueError, match="needs a lexical"):
        deps.retriever.retrieve(TEXTS[0], mode="bm25")
    assert deps.documents() == []


def test_a_store_without_term_statistics_weighs_every_term_alike(plain: FAISS) -> None:
    reranker = SentenceReranker(DeterministicFakeEmbedding(size=8), plain)
    assert reranker._query_weights("solar inverter firmware") == {
        "solar": 1.0,
        "inverter": 1.0,
        "firmware": 1.0,
    }


def test_citerag_store_implements_the_contract_itself(emb: DeterministicFakeEmbedding) -> None:
    store = CiteragStore(emb, 8)
    store.add_documents(
        [
            Document(page_content=t, metadata={**m, "content": t})
            for t, m in zip(TEXTS, METAS, strict=True)
        ],
        ids=["1", "2", "3"],
    )
    assert isinstance(store, SearchIndex) and as_search_index(store) is store
    assert HybridRetriever(store).store is store
    assert store.idf(["solar", "zyx"]) == store.bm25.idf({"solar"})
    assert set(store.sentence_vectors_many(["1", "3", "9"])) == {"1", "3"}
    assert [m["doc_id"] for m in store.iter_document_metadata()] == ["a", "b", "c"]
    assert store.count_by_doc() == {"a": 1, "b": 1, "c": 1}


def test_the_wrapper_refuses_none_and_a_real_index() -> None:
    with pytest.raises(ValueError, match="None"):
        VectorStoreIndex(None)
    with pytest.raises(ValueError, match="already implements"):
        VectorStoreIndex(CiteragStore(DeterministicFakeEmbedding(size=8), 8))

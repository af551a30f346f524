"""The store contract (:class:`citerag.index.contract.SearchIndex`) on both stores.

Haystack's document-store pattern: one class holds the behaviour the graph relies on, and it
runs on every store through the module-scoped ``sample_location`` fixture (the sample corpus
ingested into a FAISS directory, ids ``[faiss]``, and into a real PostgreSQL namespace, ids
``[postgres]``). A store that passes here can be put under the graph.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from chains.retrieval import access_filter
from citerag.core.text import tokenize
from citerag.index.contract import SearchIndex
from citerag.index.loaded import load_index

pytestmark = pytest.mark.integration

#: In one document (the board minutes), a few chunks.
RARE = "ridgeback"
#: The cooperative's name: in every document.
COMMON = "northwind"
DOC_NAMES = {
    "annual_report_2025.pdf",
    "handbook.md",
    "maintenance_notes.txt",
    "board_minutes_2025.md",
    "safety_policy.html",
}


@pytest.fixture(scope="module")
def index(sample_location: Path | str, embedding_model) -> SearchIndex:
    """The sample index's store, read through the contract."""
    store = load_index(sample_location, embedding_model).store
    assert isinstance(store, SearchIndex)
    return store


class TestSearchIndex:
    """What the graph reads from a store while answering, on each store."""

    def test_declares_its_capabilities(self, index: SearchIndex, embedding_model) -> None:
        assert index.has_keyword_leg and index.has_term_statistics
        assert index.embeddings is not None
        assert "BM25" in index.lexical_score_type

    def test_a_rare_term_weighs_more_than_a_common_one(self, index: SearchIndex) -> None:
        idf = index.idf([RARE, COMMON])
        assert set(idf) == {RARE, COMMON}
        assert idf[RARE] > idf[COMMON] > 0

    def test_a_term_absent_from_the_index_gets_no_entry(self, index: SearchIndex) -> None:
        idf = index.idf(["zyxwvutsq", RARE, "the"])  # "the": a stop word of both stores
        assert set(idf) == {RARE}
        assert index.idf([]) == {}

    def test_idf_takes_the_tokens_of_a_question(self, index: SearchIndex) -> None:
        terms = tokenize("Who owns the Ridgeback Meadow solar farm?")
        idf = index.idf(terms)
        assert RARE in idf and "meadow" in idf
        assert set(idf) <= set(terms)

    def test_dense_search_returns_cosines_best_first(
        self, index: SearchIndex, embedding_model
    ) -> None:
        vec = embedding_model.embeddings.embed_query("How often are the arrays inspected?")
        hits = index.similarity_search_with_score_by_vector(vec, k=8, filter=access_filter([]))
        scores = [s for _, s in hits]
        assert len(hits) == 8 and scores == sorted(scores, reverse=True)
        assert all(-1.0 <= s <= 1.0 for s in scores)
        again = index.cosine_for([d.id for d, _ in hits if d.id], vec)
        for doc, score in hits:
            assert again[str(doc.id)] == pytest.approx(score, abs=1e-3)
        assert index.cosine_for(["no-such-key"], vec) == {}

    def test_keyword_search_returns_positive_scores_best_first(self, index: SearchIndex) -> None:
        hits = index.bm25_search("Brightwater Electrical maintenance contract", k=5)
        scores = [s for _, s in hits]
        assert hits and scores == sorted(scores, reverse=True) and min(scores) > 0
        assert "Brightwater" in hits[0][0].page_content
        assert index.bm25_search("zyxwvutsq", k=5) == []

    @pytest.mark.parametrize("leg", ["dense", "keyword"])
    def test_the_access_filter_holds_in_each_leg(
        self, index: SearchIndex, embedding_model, leg: str
    ) -> None:
        question = "Project Heron Ridgeback Meadow offer"
        vec = embedding_model.embeddings.embed_query(question)

        def search(groups: list[str]) -> set[str]:
            flt = access_filter(groups)
            if leg == "dense":
                hits = index.similarity_search_with_score_by_vector(vec, k=40, filter=flt)
            else:
                hits = index.bm25_search(question, k=40, filter=flt)
            assert hits
            return {str(d.metadata["access"]) for d, _ in hits}

        assert search(["staff"]) == {"public"}
        assert "board" in search(["board"])

    def test_sentence_vectors_for_candidates(self, index: SearchIndex, embedding_model) -> None:
        vec = embedding_model.embeddings.embed_query("insulation resistance testing")
        keys = [str(d.id) for d, _ in index.similarity_search_with_score_by_vector(vec, k=5)]
        got = index.sentence_vectors_many([*keys, "no-such-key"])
        assert set(got) == set(keys)
        for doc in index.get_by_ids(keys):
            spans, vecs = got[str(doc.id)]
            content = doc.metadata["content"]
            assert spans and vecs.shape == (len(spans), embedding_model.dimension)
            assert all(0 <= s < e <= len(content) for s, e in spans)
            norms = np.linalg.norm(np.asarray(vecs, dtype=np.float32), axis=1)
            assert np.allclose(norms, 1.0, atol=1e-2)
        assert index.sentence_vectors_many([]) == {}

    def test_document_metadata_lists_each_document_once(self, index: SearchIndex) -> None:
        metas = list(index.iter_document_metadata())
        names = [Path(str(m["doc_name"])).name for m in metas]
        assert sorted(names) == sorted(DOC_NAMES)
        assert len({m["doc_id"] for m in metas}) == len(metas)
        access = {Path(str(m["doc_name"])).name: m["access"] for m in metas}
        assert access["board_minutes_2025.md"] == "board"
        assert access["handbook.md"] == "public"

    def test_document_chunks_are_a_documents_chunks_in_a_window_in_order(
        self, index: SearchIndex
    ) -> None:
        doc_ids = {
            Path(str(m["doc_name"])).name: str(m["doc_id"]) for m in index.iter_document_metadata()
        }
        report = doc_ids["annual_report_2025.pdf"]
        everything = index.document_chunks(report, 0, 10**9)
        starts = [int(d.metadata["start"]) for d in everything]
        assert len(everything) > 3 and starts == sorted(starts)
        assert {d.metadata["doc_id"] for d in everything} == {report}
        assert all(d.id and d.metadata["content"] for d in everything)
        # a window: exactly the chunks overlapping it (a chunk and its overlapping neighbours)
        mid = everything[len(everything) // 2].metadata
        window = index.document_chunks(report, int(mid["start"]), int(mid["end"]))
        expected = [
            d.id
            for d in everything
            if d.metadata["start"] < mid["end"] and d.metadata["end"] > mid["start"]
        ]
        assert [d.id for d in window] == expected and mid["chunk_id"] in {
            d.metadata["chunk_id"] for d in window
        }
        assert index.document_chunks(report, 10**8, 10**9) == []
        assert index.document_chunks("no-such-document", 0, 10**9) == []

    def test_document_chunks_hold_the_access_filter(self, index: SearchIndex) -> None:
        doc_ids = {
            Path(str(m["doc_name"])).name: str(m["doc_id"]) for m in index.iter_document_metadata()
        }
        minutes = doc_ids["board_minutes_2025.md"]
        assert index.document_chunks(minutes, 0, 10**9, filter=access_filter(["staff"])) == []
        board = index.document_chunks(minutes, 0, 10**9, filter=access_filter(["board"]))
        assert board and {d.metadata["access"] for d in board} == {"board"}
        handbook = doc_ids["handbook.md"]
        assert index.document_chunks(handbook, 0, 10**9, filter=access_filter([])) == (
            index.document_chunks(handbook, 0, 10**9)
        )


def test_both_stores_weigh_unstemmed_terms_alike(
    sample_index: Path, sample_pg_index: str, embedding_model
) -> None:
    """Same chunks, same formula: a word PostgreSQL does not stem weighs the same on both
    stores, so the terms come in the same order; stemming and stop words differ as stated."""
    same = [RARE, "heron", "brightwater", "meadow", "safety", "board", "solar", COMMON]
    faiss, pg = (
        load_index(location, embedding_model).store.idf([*same, "through", "filings"])
        for location in (sample_index, sample_pg_index)
    )
    for term in same:
        assert pg[term] == pytest.approx(faiss[term], rel=1e-9), term
    assert sorted(same, key=lambda t: (-faiss[t], t)) == sorted(same, key=lambda t: (-pg[t], t))
    assert "through" in faiss and "through" not in pg  # a PostgreSQL stop word
    assert "filings" in pg and "filings" not in faiss  # PostgreSQL stems it to 'file'

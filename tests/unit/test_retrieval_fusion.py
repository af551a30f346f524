"""Reciprocal rank fusion, by hand, and how the retriever records it on each candidate."""

from __future__ import annotations

import pytest

from chains.retrieval import RRF_K, HybridRetriever, access_filter, rrf
from tests.support.factories import FixedEmbeddings, make_candidate


def test_rrf_sums_reciprocal_ranks_over_lists():
    fused = dict(rrf({"dense": ["a", "b", "c"], "bm25": ["c", "a", "d"]}))
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["b"] == pytest.approx(1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert fused["d"] == pytest.approx(1 / 63)


def test_rrf_orders_best_first_and_rewards_agreement():
    fused = rrf({"dense": ["a", "b", "c"], "bm25": ["c", "a", "d"]})
    assert [k for k, _ in fused] == ["a", "c", "b", "d"]
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True)
    # second in both lists beats first in one
    assert rrf({"x": ["top", "both"], "y": ["other", "both"]})[0][0] == "both"


def test_rrf_constant_is_60_by_default_and_configurable():
    assert RRF_K == 60
    assert rrf({"dense": ["a"]}) == [("a", pytest.approx(1 / 61))]
    assert rrf({"dense": ["a", "b"]}, k=0) == [("a", 1.0), ("b", 0.5)]


def test_rrf_ties_keep_first_seen_order():
    assert [k for k, _ in rrf({"dense": ["a", "b"], "bm25": ["b", "a"]})] == ["a", "b"]
    assert [k for k, _ in rrf({"dense": ["b", "a"], "bm25": ["a", "b"]})] == ["b", "a"]


def test_rrf_of_nothing_is_empty():
    assert rrf({}) == []
    assert rrf({"dense": [], "bm25": []}) == []


def test_access_filter_always_allows_public():
    assert access_filter(None) == {"access": {"$in": ["public"]}}
    assert access_filter(["board", "public", "board"]) == {"access": {"$in": ["public", "board"]}}


class FakeStore:
    """A vector store and BM25 index over hand-ranked hits (records the filters it got)."""

    def __init__(self, dense, bm25, cosines):
        self.embeddings = FixedEmbeddings({"revenue 2025": [1.0, 0.0]})
        self.dense, self.bm25, self.cosines = dense, bm25, cosines
        self.filters: list[object] = []

    def similarity_search_with_score_by_vector(self, vector, k, filter=None):
        self.filters.append(filter)
        return self.dense[:k]

    def bm25_search(self, query, k=4, filter=None):
        self.filters.append(filter)
        return self.bm25[:k]

    def cosine_for(self, keys, vector):
        return {key: self.cosines[key] for key in keys}


def docs(*keys):
    return {k: make_candidate(f"Passage {k} about revenue.", key=k).document for k in keys}


def test_hybrid_retrieval_records_fused_scores_ranks_and_lists():
    d = docs("a", "b", "c", "d")
    store = FakeStore(
        dense=[(d["a"], 0.9), (d["b"], 0.8), (d["c"], 0.7)],
        bm25=[(d["c"], 12.0), (d["a"], 9.0), (d["d"], 4.0)],
        cosines={"d": 0.42},
    )
    result = HybridRetriever(store).retrieve("revenue 2025", k=3, user_groups=["board"])
    assert [c.key for c in result.candidates] == ["a", "c", "b"]  # d fused 4th, cut by k
    a, c, b = result.candidates
    assert a.scores["rrf"] == pytest.approx(1 / 61 + 1 / 62)
    assert c.ranks == {"dense": 3, "bm25": 1, "fused": 2}
    assert b.ranks == {"dense": 2, "fused": 3} and "bm25" not in b.scores
    assert (a.scores["dense"], a.scores["bm25"]) == (0.9, 9.0)
    assert c.to_trace()["lists"] == ["bm25", "dense"]
    assert result.query_vector == [1.0, 0.0]
    assert store.filters == [{"access": {"$in": ["public", "board"]}}] * 2
    assert result.filter == store.filters[0]


def test_bm25_only_candidates_get_their_cosine_filled_in():
    d = docs("a", "d")
    store = FakeStore(dense=[(d["a"], 0.9)], bm25=[(d["d"], 4.0)], cosines={"d": 0.42})
    result = HybridRetriever(store).retrieve("revenue 2025", metadata_filter={"doc_name": "x"})
    by_key = {c.key: c for c in result.candidates}
    assert by_key["d"].scores["dense"] == 0.42 and "dense" not in by_key["d"].ranks
    assert store.filters[0] == {"$and": [{"access": {"$in": ["public"]}}, {"doc_name": "x"}]}


def test_single_list_modes_fuse_one_list():
    d = docs("a", "b")
    store = FakeStore(dense=[(d["a"], 0.9), (d["b"], 0.5)], bm25=[(d["b"], 3.0)], cosines={})
    dense = HybridRetriever(store).retrieve("revenue 2025", mode="dense")
    assert [c.key for c in dense.candidates] == ["a", "b"]
    assert dense.candidates[1].scores["rrf"] == pytest.approx(1 / 62)
    store.cosines = {"b": 0.5}
    bm25 = HybridRetriever(store).retrieve("revenue 2025", mode="bm25")
    assert [c.key for c in bm25.candidates] == ["b"]
    assert bm25.candidates[0].ranks == {"bm25": 1, "fused": 1}

"""Unit tests for the BM25 index: the docstring formula, deletion, filtering, persistence."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from citerag.core.text import tokenize
from citerag.stores.faiss.bm25 import BM25Index

K1, B = 1.2, 0.75
DOCS = {
    "d1": "Solar panel, solar!",  # tokens: solar panel solar            (|d| = 3)
    "d2": "The wind turbine",  # tokens: wind turbine (the is a stop word)  (|d| = 2)
    "d3": "solar WIND farm maintenance",  # tokens: solar wind farm maintenance (|d| = 4)
}


def _index() -> BM25Index:
    index = BM25Index()
    index.add(list(DOCS), list(DOCS.values()))
    return index


def _term(tf: int, dl: int, avgdl: float, n_docs: int, df: int) -> float:
    idf = math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
    return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avgdl))


def test_tokenize_lowercases_and_drops_stop_words() -> None:
    assert tokenize("The Solar panel, of the ROOF; E-217") == ["solar", "panel", "roof", "e", "217"]


def test_scores_match_hand_computation() -> None:
    index = _index()
    # N = 3, avgdl = (3 + 2 + 4) / 3 = 3, n(solar) = 2:
    #   idf = ln(1 + 1.5 / 2.5) = ln 1.6
    #   d1: tf 2, |d| 3 -> 2 * 2.2 / (2 + 1.2 * 1.0)  = 1.375
    #   d3: tf 1, |d| 4 -> 1 * 2.2 / (1 + 1.2 * 1.25) = 0.88
    hits = dict(index.search("solar", k=10))
    assert set(hits) == {"d1", "d3"}
    assert hits["d1"] == pytest.approx(math.log(1.6) * 1.375)
    assert hits["d3"] == pytest.approx(math.log(1.6) * 0.88)
    assert hits["d1"] == pytest.approx(_term(2, 3, 3.0, 3, 2))
    # A query's score is the sum over its terms; stop words in the query change nothing.
    both = dict(index.search("what is solar wind", k=10))
    assert both["d3"] == pytest.approx(_term(1, 4, 3.0, 3, 2) + _term(1, 4, 3.0, 3, 2))
    assert both["d2"] == pytest.approx(_term(1, 2, 3.0, 3, 2))
    assert [key for key, _ in index.search("solar wind", k=10)] == ["d3", "d1", "d2"]


def test_k_limits_and_unknown_terms() -> None:
    index = _index()
    assert [key for key, _ in index.search("solar", k=1)] == ["d1"]
    assert index.search("hydrogen", k=5) == []
    assert index.search("the of and", k=5) == []
    assert BM25Index().search("solar", k=5) == []


def test_delete_removes_and_rescores() -> None:
    index = _index()
    index.delete(["d1", "missing-key"])
    assert sorted(index.keys()) == ["d2", "d3"]
    assert len(index) == 2
    hits = dict(index.search("solar", k=10))
    assert set(hits) == {"d3"}
    # Statistics are recomputed: N = 2, avgdl = 3, n(solar) = 1.
    assert hits["d3"] == pytest.approx(_term(1, 4, 3.0, 2, 1))


def test_add_replaces_existing_key() -> None:
    index = _index()
    index.add(["d1"], ["wind only"])
    assert "d1" not in dict(index.search("solar", k=10))
    assert "d1" in dict(index.search("wind", k=10))
    assert len(index) == 3


def test_allowed_mask_filters_before_ranking() -> None:
    index = _index()
    order = index.key_order()
    allowed = np.asarray([key != "d1" for key in order])
    assert [key for key, _ in index.search("solar", k=1, allowed=allowed)] == ["d3"]
    none = np.zeros(len(order), dtype=bool)
    assert index.search("solar", k=5, allowed=none) == []
    pos = index.positions(["d3", "nope", "d1"])
    assert [order[i] for i in pos] == ["d3", "d1"]


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    index = _index()
    index.delete(["d2"])
    path = tmp_path / "bm25.jsonl"
    index.save(path)
    loaded = BM25Index.load(path)
    assert sorted(loaded.keys()) == ["d1", "d3"]
    assert (loaded.k1, loaded.b) == (index.k1, index.b)
    got, want = loaded.search("solar wind", k=5), index.search("solar wind", k=5)
    assert [key for key, _ in got] == [key for key, _ in want] == ["d3", "d1"]
    assert [score for _, score in got] == pytest.approx([score for _, score in want])


def test_tokens_are_term_numbers_and_a_deleted_terms_idf_is_gone(tmp_path: Path) -> None:
    from array import array

    index = BM25Index()
    index.add(["a", "b", "c"], ["pump valve seal", "valve gasket", "turbine blade"])
    assert isinstance(index._tokens["a"], array) and index._tokens["a"].itemsize == 4
    before = index.search("valve turbine", 3)
    index.delete(["c"])
    assert index.idf({"turbine"}) == {} and set(index.idf({"valve"})) == {"valve"}
    assert [k for k, _ in index.search("turbine valve", 3)] == ["b", "a"]
    index.add(["c"], ["turbine blade"])
    assert index.search("valve turbine", 3) == before
    index.save(tmp_path / "bm25.jsonl")
    assert "turbine" in (tmp_path / "bm25.jsonl").read_text()
    assert BM25Index.load(tmp_path / "bm25.jsonl").search("valve turbine", 3) == before

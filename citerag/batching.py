"""Embed concurrent queries together: one forward pass for every question waiting at once.

The server answers several questions at a time, and each one's first step is embedding the
question (about 8 ms of a core for all-MiniLM-L6-v2). Run from several threads at once, those
forward passes fight over the same cores (each wants every core for its own matrix products)
and take far longer than they would one after another. :class:`EmbeddingBatcher` wraps a
LangChain ``Embeddings`` so that:

* at most one query forward pass runs at a time; questions that arrive while it runs wait and
  are embedded together in the next pass (the model's ``embed_queries`` of the whole batch
  where it has one, else ``embed_documents``), each caller
  getting back its own vector; each waiting caller sleeps on its own event, so a pass wakes
  only its batch's callers and the next leader (with one shared condition every waiting
  thread woke after every pass: 7 % of the server's GIL time under load in py-spy);
* a leader may wait up to ``max_wait_s`` for more questions before it starts a pass (``0``,
  the default, never waits: batches form only while the model is busy, so a lone request is
  not slowed down);
* recent query vectors are kept in a small LRU cache, so a question embedded twice in one
  run (retrieval, then the extractive answerer scoring sentences) costs one forward pass;
* the second stage's single words (``embed_queries``: a question's words that a candidate
  lacks, for the paraphrase credit) join the same queue and passes, so under load a
  request's words never run a forward pass beside another request's question.

Batching relies on the model embedding a query exactly as it embeds a document: true for the
sentence-transformers models citerag loads (no query prompt or prefix is configured;
``tests/integration/test_batching.py`` checks it for the bundled model). A model with a query
instruction (E5's ``query:``, BGE's instruction) must not be wrapped.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from langchain_core.embeddings import Embeddings

from citerag.core.lru import LRU

log = logging.getLogger(__name__)

#: Most questions embedded in one forward pass.
DEFAULT_MAX_BATCH = 32
#: Query vectors kept in the LRU cache.
DEFAULT_CACHE_SIZE = 1024


@dataclass
class BatcherStats:
    """Counters of an :class:`EmbeddingBatcher` (read them for benchmarks and tests).

    Attributes:
        queries: ``embed_query`` calls.
        cache_hits: Calls answered from the cache.
        passes: Forward passes run for queries (calls on the inner model).
        embedded: Texts embedded by those passes (questions, and the words of
            ``embed_queries``).
        largest: Largest batch seen.
    """

    queries: int = 0
    cache_hits: int = 0
    passes: int = 0
    embedded: int = 0
    largest: int = 0

    def as_dict(self) -> dict[str, float]:
        """The counters and the mean batch size."""
        return {
            "queries": self.queries,
            "cache_hits": self.cache_hits,
            "passes": self.passes,
            "embedded": self.embedded,
            "largest": self.largest,
            "mean_batch": round(self.embedded / self.passes, 2) if self.passes else 0.0,
        }


@dataclass
class _Pending:
    """One caller's question and, once its batch has run, its vector or the error.

    ``wake`` is set once the vector (or error) is there, or when the caller is handed the
    lead (``lead``): only that caller's thread wakes, never every waiting one.
    """

    text: str
    vector: list[float] | None = None
    error: BaseException | None = None
    done: bool = False
    lead: bool = False
    wake: threading.Event = field(default_factory=threading.Event)
    #: Keep the vector in the batcher's cache (a question; a word's caller keeps its own).
    remember: bool = True


@dataclass
class _Queue:
    items: list[_Pending] = field(default_factory=list)
    busy: bool = False


class EmbeddingBatcher(Embeddings):
    """A LangChain ``Embeddings`` that batches concurrent ``embed_query`` calls.

    ``embed_documents`` passes straight through to the inner model.
    """

    def __init__(
        self,
        inner: Embeddings,
        *,
        batching: bool = True,
        max_batch: int = DEFAULT_MAX_BATCH,
        max_wait_s: float = 0.0,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        """Wrap a model.

        Args:
            inner: The model; its query and document embeddings must be the same function.
            batching: Batch concurrent queries (``False``: each call is the inner model's
                own ``embed_query``, so a model with a query prefix may be wrapped; the cache
                still applies).
            max_batch: Most queries in one pass (at least 1).
            max_wait_s: Longest a pass waits for more queries before it starts (0 to 0.05 s).
            cache_size: Query vectors kept (0 disables the cache).

        Raises:
            ValueError: A bound out of range.
        """
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, not {max_batch}")
        if not 0.0 <= max_wait_s <= 0.05:
            raise ValueError(f"max_wait_s must be between 0 and 0.05 s, not {max_wait_s}")
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(f"cache_size must be an integer >= 0, not {cache_size!r}")
        self.inner = inner
        #: A pass over queued questions: the model's own ``embed_queries`` where it has one
        #: (:class:`~citerag.traced_queries.SentenceEmbeddings`: the traced question path),
        #: else ``embed_documents``.
        self._embed_batch = getattr(inner, "embed_queries", None) or inner.embed_documents
        self.batching = batching
        self.max_batch = max_batch
        self.max_wait_s = max_wait_s
        self.cache_size = cache_size
        self.stats = BatcherStats()
        self._cond = threading.Condition()
        self._queue = _Queue()
        self._cache: LRU[str, tuple[float, ...]] = LRU(cache_size)

    # -- the cache -----------------------------------------------------------------------

    def _cached(self, text: str) -> list[float] | None:
        hit = self._cache.get(text)
        if hit is None:
            return None
        with self._cond:
            self.stats.cache_hits += 1
        return list(hit)

    def _remember(self, text: str, vector: list[float]) -> None:
        self._cache.put(text, tuple(vector))

    # -- Embeddings ----------------------------------------------------------------------

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents with the inner model (not batched, not cached)."""
        return self.inner.embed_documents(texts)

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        """Embed several short texts through the questions' queue: the reranker's single
        words (:class:`chains.rerank.SentenceReranker`), in the same passes of the inner
        model's question path as the questions waiting at that moment, so a request's words
        never run a forward pass beside another request's (on the same cores). Not cached
        here (the caller keeps them); not counted as questions.

        Raises:
            Exception: Whatever the inner model raised for a pass holding one of the texts.
        """
        if not texts:
            return []
        if not self.batching:
            return self._embed_batch(list(texts))
        wake = threading.Event()  # one per caller: whichever of its texts is done or leads
        items = [_Pending(t, wake=wake, remember=False) for t in texts]
        with self._cond:
            self._queue.items.extend(items)
            self._cond.notify_all()
            leads = not self._queue.busy
            self._queue.busy = True
        while True:
            if leads:
                self._lead()
            wake.clear()  # then read the state: a later set is never lost
            if all(i.done for i in items):
                break
            leads = self._handed_lead(items)
            if not leads:
                wake.wait()
                leads = self._handed_lead(items)
        for i in items:
            if i.error is not None:
                raise i.error
        return [list(i.vector or ()) for i in items]

    def _handed_lead(self, items: list[_Pending]) -> bool:
        """Whether the lead was handed to one of a caller's waiting texts (taking it)."""
        with self._cond:
            handed = any(i.lead and not i.done for i in items)
            for i in items:
                i.lead = False
        return handed

    def embed_query(self, text: str) -> list[float]:
        """Embed one query, together with any others waiting at the same moment.

        Raises:
            Exception: Whatever the inner model raised for this query's batch.
        """
        with self._cond:
            self.stats.queries += 1
        hit = self._cached(text)
        if hit is not None:
            return hit
        if not self.batching:
            vector = self.inner.embed_query(text)
            with self._cond:
                self.stats.passes += 1
                self.stats.embedded += 1
                self.stats.largest = max(self.stats.largest, 1)
            self._remember(text, vector)
            return list(vector)
        item = _Pending(text)
        with self._cond:
            self._queue.items.append(item)
            self._cond.notify_all()  # a leader waiting to fill its batch counts arrivals
            leads = not self._queue.busy
            self._queue.busy = True
        while not item.done:
            if not leads:
                item.wake.wait()
                if item.done:
                    break
                item.wake.clear()
                leads = item.lead  # handed the lead: this caller's text is the queue's head
            if leads:
                self._lead()
                leads = False
        if item.error is not None:
            raise item.error
        assert item.vector is not None
        return list(item.vector)

    def _lead(self) -> None:
        """Run one pass over the queue's head, then hand the lead on (or end it).

        Called by the one thread holding the lead (``busy``), without the condition held.
        Only the callers of the batch and the next leader are woken.
        """
        q = self._queue
        with self._cond:
            if self.max_wait_s > 0 and len(q.items) < self.max_batch:
                deadline = time.monotonic() + self.max_wait_s
                while len(q.items) < self.max_batch:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._cond.wait(left)
            batch = q.items[: self.max_batch]
            del q.items[: self.max_batch]
        vectors: list[list[float]] | None = None
        error: BaseException | None = None
        try:
            try:
                vectors = self._embed_batch([p.text for p in batch])
                if len(vectors) != len(batch):
                    raise RuntimeError(
                        f"the model returned {len(vectors)} vectors for {len(batch)} texts"
                    )
            except BaseException as exc:  # every caller in the batch gets the error
                error = exc
            if vectors is not None and error is None:
                for p, v in zip(batch, vectors, strict=True):
                    if p.remember:
                        self._remember(p.text, v)
        finally:
            for i, p in enumerate(batch):
                if error is not None or vectors is None:
                    p.error = error or RuntimeError("embedding failed")
                else:
                    p.vector = vectors[i]
                p.done = True
                p.wake.set()
            with self._cond:
                self.stats.passes += 1
                self.stats.embedded += len(batch)
                self.stats.largest = max(self.stats.largest, len(batch))
                if q.items:  # hand the lead to the oldest waiting caller
                    head = q.items[0]
                    head.lead = True
                    head.wake.set()
                else:
                    q.busy = False
                self._cond.notify_all()

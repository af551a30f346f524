"""Single-word embeddings, cached per model and shared by the stages that read a word's meaning.

The second stage's paraphrase credit (:class:`chains.rerank.SentenceReranker`) and the
extractive answerer's focus checks (:class:`chains.answerers.ExtractiveAnswerer`) both compare
single words by their embeddings. They share one cache per embedding model (one reranker and
several answerers are built per index, one answerer per combination of knobs), so a word is
embedded once per process whichever stage meets it first.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
from langchain_core.embeddings import Embeddings

from citerag.core.lru import LRU

#: Single-word embeddings kept per model.
WORD_CACHE = 50_000
#: ``id(model) -> (model, cache)``, the model kept so its id stays its.
_SHARED: dict[int, tuple[Embeddings, LRU[str, np.ndarray]]] = {}
_LOCK = threading.Lock()


def shared_cache(embeddings: Embeddings) -> LRU[str, np.ndarray]:
    """The single-word embedding cache of ``embeddings`` (keyed on the model itself when
    ``embeddings`` wraps it, e.g. in a question cache or the server's batcher)."""
    model = getattr(embeddings, "inner", None) or embeddings
    with _LOCK:
        got = _SHARED.get(id(model))
        if got is None or got[0] is not model:
            got = (model, LRU(WORD_CACHE))
            _SHARED[id(model)] = got
        return got[1]


def word_vectors(embeddings: Embeddings, words: Sequence[str]) -> dict[str, np.ndarray]:
    """The embeddings of single words, those not cached embedded in one call.

    The call is the model's batched question path where it has one (``embed_queries``:
    citerag's traced encoder, half the time of ``encode`` for a few words; the same vectors
    up to float rounding), else ``embed_documents``.

    Args:
        embeddings: The index's embedding model.
        words: The words (repeats allowed).

    Returns:
        One float32 vector per distinct word.
    """
    cache = shared_cache(embeddings)
    known = cache.get_many(words)
    todo = [w for w in dict.fromkeys(words) if w not in known]
    if todo:
        embed = getattr(embeddings, "embed_queries", None) or embeddings.embed_documents
        for w, v in zip(todo, embed(todo), strict=True):
            known[w] = np.asarray(v, dtype=np.float32)
    cache.put_many({w: known[w] for w in dict.fromkeys(words)})  # the recently used stay
    return known

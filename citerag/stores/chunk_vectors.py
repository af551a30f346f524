"""Embed a batch of chunks once: the chunk vectors and each chunk's sentence vectors.

Both stores (:class:`~citerag.stores.faiss.store.CiteragStore` and
:class:`~citerag.stores.postgres.store.PostgresStore`) write what this returns, so the sentence
rules are written once:

* ``contextual`` (the default where the model supports it, :func:`sentence_method`): the
  encoder runs once per chunk; the chunk vector is the usual mean over all its tokens, and
  each sentence's vector is the L2-normalised mean of the chunk's token embeddings inside the
  sentence's characters (:func:`citerag.embeddings.span_pooler`). One text per chunk is
  embedded; only a sentence the model's window truncated away is embedded on its own.
* ``separate``: each sentence is embedded as a text of its own, in the same model call as
  the chunks (about 5.7 texts per chunk on filings).

Under both, a chunk whose own words are a single sentence reuses its chunk vector (which also
covers the contextual header), and a sentence inside a table row is embedded as the row's
described text, headers and table title included (:func:`loaders.row_text.scored_texts`; its
span stays the verbatim row).

**Reuse.** A chunk's vectors are a function of what the model is given, nothing else: its
embedded text and, for its sentence vectors, its own words, its sentence spans and the texts
those sentences are scored as (:func:`vector_inputs`). When an edited document is written
again, a chunk whose inputs equal those of one of the document's stored chunks takes that
chunk's vectors instead of being embedded (``previous``, :class:`VectorLookup`; see
:mod:`citerag.stores.reuse`): an edit of one sentence embeds the chunks that hold it, while
every chunk is written with its new metadata (file hash, offsets, chunk id).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from citerag.embeddings import embed_texts, release_memory, span_pooler
from citerag.stores.contract import SentenceVectors
from loaders.row_text import row_sentence_spans, scored_texts

#: Sentence vectors pooled from the chunk's own encoder pass.
CONTEXTUAL = "contextual"
#: Sentence vectors from embedding each sentence as a text of its own.
SEPARATE = "separate"
SENTENCE_METHODS = (CONTEXTUAL, SEPARATE)
#: The method used where the model supports both (see :func:`sentence_method`).
PREFERRED_METHOD = SEPARATE


_STAGES: ContextVar[defaultdict[str, float] | None] = ContextVar(
    "citerag_ingest_stages", default=None
)


@contextmanager
def recording_stages(into: defaultdict[str, float]) -> Iterator[defaultdict[str, float]]:
    """Add the wall time of each ingest stage run in this context to ``into``.

    :func:`embed_chunks` adds ``split_sentences``, ``embed_chunks``, ``embed_sentences``;
    anything else may add its own with :func:`add_stage`.
    """
    token = _STAGES.set(into)
    try:
        yield into
    finally:
        _STAGES.reset(token)


def add_stage(name: str, seconds: float) -> None:
    """Add ``seconds`` to stage ``name`` when a :func:`recording_stages` context is active."""
    stages = _STAGES.get()
    if stages is not None:
        stages[name] += seconds


def sentence_method(embedding: Embeddings) -> str:
    """The sentence-vector method used with a model (recorded in the manifest).

    Args:
        embedding: The embedding model.

    Returns:
        :data:`CONTEXTUAL` when the model can pool spans from one encoder pass
        (:func:`~citerag.embeddings.span_pooler`), else :data:`SEPARATE`.
    """
    if PREFERRED_METHOD == CONTEXTUAL and span_pooler(embedding) is not None:
        return CONTEXTUAL
    return SEPARATE


def _is_whole(content: str, span: tuple[int, int]) -> bool:
    """Whether a sentence span holds all of a chunk's own words."""
    return content[span[0] : span[1]].strip() == content.strip()


def _content_offset(text: str, content: str) -> int:
    """Where a chunk's own words start in its embedded text (``-1``: not found)."""
    if text.endswith(content):
        return len(text) - len(content)
    return text.find(content)


@dataclass
class EmbeddedChunks:
    """What one embedding pass over a batch of chunks produced.

    Attributes:
        vectors: One float32 row per chunk (the embedded ``page_content``).
        sentences: Per chunk, its sentence spans and vectors (``None`` when sentence vectors
            are off).
        texts_embedded: How many texts went to the model.
        method: The sentence-vector method (:data:`SENTENCE_METHODS`; ``""`` when off).
        seconds: Wall time by stage: ``split_sentences`` (segmentation), ``embed_chunks``
            (the chunks' model call; for ``contextual`` with the span pooling) and
            ``embed_sentences`` (sentences embedded as texts of their own: all of them for
            ``separate``, only those outside the window for ``contextual``).
        reused: Chunks whose vectors were taken from a stored chunk (not embedded).
    """

    vectors: np.ndarray
    sentences: list[SentenceVectors] | None
    texts_embedded: int
    method: str = ""
    seconds: dict[str, float] = field(default_factory=dict)
    reused: int = 0


@dataclass(frozen=True)
class VectorInputs:
    """What a chunk's vectors are computed from, for finding a stored chunk to reuse.

    Attributes:
        key: Hex sha256 of the sentence method, the embedded text and (with sentence
            vectors) the own words, the sentence spans and the texts the sentences are
            scored as. Chunks with the same key have the same vectors (within one index:
            one embedding model).
        spans: The sentence spans (``None`` without sentence vectors): a stored chunk is
            reused only when its stored spans are these.
    """

    key: str
    spans: list[tuple[int, int]] | None


def vector_inputs(document: Document, *, sentence_vectors: bool, method: str) -> VectorInputs:
    """What one chunk's vectors are computed from (see :class:`VectorInputs`).

    Metadata that is not given to the model (file hash, offsets, chunk id, page, access) is
    not part of it, so a chunk that only moved, or whose file changed elsewhere, keeps it.

    Args:
        document: The chunk (stored or new).
        sentence_vectors: Whether sentence vectors are computed.
        method: The sentence-vector method (ignored without sentence vectors).

    Returns:
        The key and the sentence spans.
    """
    parts: list[Any] = [document.page_content]
    spans = None
    if sentence_vectors:
        content = str(document.metadata.get("content", document.page_content))
        spans = row_sentence_spans(content, document.metadata)
        scored = scored_texts(content, spans, document.metadata)
        parts += [method, content, [list(s) for s in spans], list(scored)]
    blob = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return VectorInputs(hashlib.sha256(blob.encode("utf-8")).hexdigest(), spans)


#: A stored chunk's vectors: its chunk vector and (with sentence vectors) its sentences'.
StoredVectors = tuple[np.ndarray, SentenceVectors | None]


class VectorLookup(Protocol):
    """Finds stored vectors for chunks about to be embedded (:mod:`citerag.stores.reuse`)."""

    def __call__(
        self,
        documents: Sequence[Document],
        inputs_of: Callable[[Document], VectorInputs],
    ) -> dict[int, StoredVectors]:
        """The stored vectors of the chunks that have a stored twin, by their position in
        ``documents`` (``inputs_of`` computes a chunk's :class:`VectorInputs`)."""
        ...


def embed_chunks(
    embedding: Embeddings,
    documents: Sequence[Document],
    *,
    sentence_vectors: bool,
    method: str | None = None,
    previous: VectorLookup | None = None,
) -> EmbeddedChunks:
    """Embed chunks (and, optionally, their sentences).

    Args:
        embedding: The embedding model.
        documents: Chunks; ``metadata["content"]`` (own words) is split into sentences.
        sentence_vectors: Also compute each chunk's sentence vectors.
        method: :data:`CONTEXTUAL` or :data:`SEPARATE` (``None``: :func:`sentence_method`).
        previous: Finds stored chunks whose vectors the chunks reuse (``None``: embed all).

    Returns:
        The vectors, in the order of ``documents`` (``reused``: how many were taken from
        ``previous``).

    Raises:
        ValueError: ``method`` is unknown, or ``contextual`` with a model that cannot pool
            spans.
    """
    if method is not None and method not in SENTENCE_METHODS:
        raise ValueError(f"method must be one of {SENTENCE_METHODS}, got {method!r}")
    try:
        if previous is None:
            return _embed_chunks(embedding, documents, sentence_vectors, method)
        return _embed_new(embedding, documents, sentence_vectors, method, previous)
    finally:
        # the forward passes' freed activations go back to the system, batch by batch
        release_memory()


def _embed_new(
    embedding: Embeddings,
    documents: Sequence[Document],
    sentence_vectors: bool,
    method: str | None,
    previous: VectorLookup,
) -> EmbeddedChunks:
    """Take the vectors of chunks with a stored twin from it; embed the others."""
    if sentence_vectors and method is None:
        method = sentence_method(embedding)
    t0 = time.perf_counter()
    found = previous(
        documents,
        lambda d: vector_inputs(d, sentence_vectors=sentence_vectors, method=method or ""),
    )
    add_stage("reuse_vectors", time.perf_counter() - t0)
    if not found:
        return _embed_chunks(embedding, documents, sentence_vectors, method)
    rest = [i for i in range(len(documents)) if i not in found]
    done = (
        _embed_chunks(embedding, [documents[i] for i in rest], sentence_vectors, method)
        if rest
        else None
    )
    dim = next(iter(found.values()))[0].shape[-1]
    vectors = np.zeros((len(documents), dim), dtype=np.float32)
    sentences: list[SentenceVectors] | None = [] if sentence_vectors else None
    made = iter(range(len(rest)))
    for i in range(len(documents)):
        if i in found:
            vector, sents = found[i]
        else:
            assert done is not None
            j = next(made)
            vector = done.vectors[j]
            sents = done.sentences[j] if done.sentences is not None else None
        vectors[i] = vector
        if sentences is not None:
            assert sents is not None
            sentences.append(sents)
    return EmbeddedChunks(
        vectors,
        sentences,
        done.texts_embedded if done is not None else 0,
        (method or "") if sentence_vectors else "",
        done.seconds if done is not None else {},
        reused=len(found),
    )


def _embed_chunks(
    embedding: Embeddings,
    documents: Sequence[Document],
    sentence_vectors: bool,
    method: str | None,
) -> EmbeddedChunks:
    texts = [d.page_content for d in documents]
    if not sentence_vectors:
        t0 = time.perf_counter()
        vectors = embed_texts(embedding, texts)
        return _done(vectors, None, len(texts), "", {"embed_chunks": time.perf_counter() - t0})
    pooler = span_pooler(embedding)
    if method is None:
        method = sentence_method(embedding)
    if method == CONTEXTUAL and pooler is None:
        raise ValueError(f"{type(embedding).__name__} cannot pool contextual sentence vectors")
    t0 = time.perf_counter()
    contents = [str(d.metadata.get("content", d.page_content)) for d in documents]
    metas = [d.metadata for d in documents]
    sent_spans = [row_sentence_spans(c, m) for c, m in zip(contents, metas, strict=True)]
    whole = [
        len(spans) == 1 and _is_whole(c, spans[0])
        for c, spans in zip(contents, sent_spans, strict=True)
    ]
    seconds = {"split_sentences": time.perf_counter() - t0}
    if method == SEPARATE:
        return _separate(embedding, texts, contents, metas, sent_spans, whole, seconds)
    assert pooler is not None
    return _contextual(embedding, pooler, texts, contents, metas, sent_spans, whole, seconds)


def _separate(
    embedding: Embeddings,
    texts: list[str],
    contents: list[str],
    metas: list[dict[str, Any]],
    sent_spans: list[list[tuple[int, int]]],
    whole: list[bool],
    seconds: dict[str, float],
) -> EmbeddedChunks:
    """Chunks, then their sentences, as texts of their own.

    A sentence text that occurs several times in the batch (a statement's column header, a
    running "(in millions)", the overlap of neighbouring chunks: about 10 % of a filing's
    sentences) is embedded once; a sentence's vector depends only on its text.
    """
    sent_texts = [
        text
        for c, spans, alone, meta in zip(contents, sent_spans, whole, metas, strict=True)
        if not alone
        for text in scored_texts(c, spans, meta)
    ]
    unique = list(dict.fromkeys(sent_texts))
    t0 = time.perf_counter()
    chunk_vecs = embed_texts(embedding, texts)
    t1 = time.perf_counter()
    unique_vecs = embed_texts(embedding, unique)
    if len(unique) == len(sent_texts):
        sent_vecs = unique_vecs
    else:
        where = {t: i for i, t in enumerate(unique)}
        sent_vecs = unique_vecs[[where[t] for t in sent_texts]]
    t2 = time.perf_counter()
    seconds.update(embed_chunks=t1 - t0, embed_sentences=t2 - t1)
    sentences: list[SentenceVectors] = []
    row = 0
    for i, spans in enumerate(sent_spans):
        if whole[i]:
            sentences.append((spans, chunk_vecs[i : i + 1].astype(np.float16)))
            continue
        sentences.append((spans, sent_vecs[row : row + len(spans)].astype(np.float16)))
        row += len(spans)
    return _done(chunk_vecs, sentences, len(texts) + len(unique), SEPARATE, seconds)


def _done(
    vectors: np.ndarray,
    sentences: list[SentenceVectors] | None,
    texts: int,
    method: str,
    seconds: dict[str, float],
) -> EmbeddedChunks:
    """The result, its stage times added to the active :func:`recording_stages`."""
    for name, took in seconds.items():
        add_stage(name, took)
    return EmbeddedChunks(vectors, sentences, texts, method, seconds)


def _contextual(
    embedding: Embeddings,
    pooler: object,
    texts: list[str],
    contents: list[str],
    metas: list[dict[str, Any]],
    sent_spans: list[list[tuple[int, int]]],
    whole: list[bool],
    seconds: dict[str, float],
) -> EmbeddedChunks:
    """One encoder pass per chunk; sentence vectors pooled from its token embeddings."""
    assert callable(pooler)
    shifted: list[list[tuple[int, int]]] = []
    for text, content, spans, alone in zip(texts, contents, sent_spans, whole, strict=True):
        off = -1 if alone else _content_offset(text, content)
        shifted.append([] if off < 0 else [(s + off, e + off) for s, e in spans])
    t0 = time.perf_counter()
    chunk_vecs, pooled = pooler(texts, shifted)
    seconds["embed_chunks"] = time.perf_counter() - t0
    # a sentence with no token in the window (truncated away), or in a chunk whose own words
    # were not found in its text, is embedded on its own
    alone_texts: list[str] = []
    alone_at: list[tuple[int, int]] = []
    for i, spans in enumerate(sent_spans):
        if whole[i]:
            continue
        rows = pooled[i]
        scored = scored_texts(contents[i], spans, metas[i])
        for j, (s, e) in enumerate(spans):
            # a table row's sentence is embedded with its headers, on its own
            if j >= len(rows) or not rows[j].any() or scored[j] != contents[i][s:e]:
                alone_texts.append(scored[j])
                alone_at.append((i, j))
    if alone_texts:
        t1 = time.perf_counter()
        extra = embed_texts(embedding, alone_texts)
        seconds["embed_sentences"] = time.perf_counter() - t1
    sentences: list[SentenceVectors] = []
    dim = chunk_vecs.shape[1]
    filled: dict[int, np.ndarray] = {}
    for (i, j), vec in zip(alone_at, extra if alone_texts else [], strict=True):
        if i not in filled:
            rows = pooled[i]
            filled[i] = (
                rows
                if len(rows) == len(sent_spans[i])
                else np.zeros((len(sent_spans[i]), dim), dtype=np.float32)
            )
        filled[i][j] = vec
    for i, spans in enumerate(sent_spans):
        if whole[i]:
            sentences.append((spans, chunk_vecs[i : i + 1].astype(np.float16)))
            continue
        rows = filled.get(i, pooled[i])
        sentences.append((spans, np.asarray(rows, dtype=np.float32).astype(np.float16)))
    return _done(
        np.asarray(chunk_vecs, dtype=np.float32),
        sentences,
        len(texts) + len(alone_texts),
        CONTEXTUAL,
        seconds,
    )

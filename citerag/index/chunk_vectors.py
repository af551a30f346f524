"""Embed a batch of chunks once: the chunk vectors and each chunk's sentence vectors.

Both stores (:class:`~citerag.index.store.CiteragStore` and
:class:`~citerag.index.pg_store.PostgresStore`) write what this returns, so the sentence
rule (a one-sentence chunk reuses its chunk vector) is written once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from loaders.sentences import sentence_spans

#: Sentence spans (within ``metadata["content"]``) and their float16 vectors.
SentenceVectors = tuple[list[tuple[int, int]], np.ndarray]


def _is_whole(content: str, span: tuple[int, int]) -> bool:
    """Whether a sentence span holds all of a chunk's own words."""
    return content[span[0] : span[1]].strip() == content.strip()


@dataclass
class EmbeddedChunks:
    """What one embedding pass over a batch of chunks produced.

    Attributes:
        vectors: One float32 row per chunk (the embedded ``page_content``).
        sentences: Per chunk, its sentence spans and vectors (``None`` when sentence vectors
            are off).
        texts_embedded: How many texts went to the model.
    """

    vectors: np.ndarray
    sentences: list[SentenceVectors] | None
    texts_embedded: int


def embed_chunks(
    embedding: Embeddings, documents: Sequence[Document], *, sentence_vectors: bool
) -> EmbeddedChunks:
    """Embed chunks (and, optionally, their sentences) in one model call.

    A chunk whose own words are a single sentence is not embedded twice: its sentence vector
    is the chunk's vector (which also covers the contextual header).

    Args:
        embedding: The embedding model.
        documents: Chunks; ``metadata["content"]`` (own words) is split into sentences.
        sentence_vectors: Also embed each chunk's sentences.

    Returns:
        The vectors, in the order of ``documents``.
    """
    texts = [d.page_content for d in documents]
    sent_spans: list[list[tuple[int, int]]] = []
    sent_texts: list[str] = []
    whole: list[bool] = []
    if sentence_vectors:
        for d in documents:
            content = str(d.metadata.get("content", d.page_content))
            spans = sentence_spans(content)
            sent_spans.append(spans)
            alone = len(spans) == 1 and _is_whole(content, spans[0])
            whole.append(alone)
            if not alone:
                sent_texts.extend(content[s:e] for s, e in spans)
    vectors = np.asarray(embedding.embed_documents(texts + sent_texts), dtype=np.float32)
    chunk_vecs = vectors[: len(texts)]
    sentences: list[SentenceVectors] | None = None
    if sentence_vectors:
        sentences = []
        row = len(texts)
        for i, spans in enumerate(sent_spans):
            if whole[i]:
                sentences.append((spans, vectors[i : i + 1].astype(np.float16)))
                continue
            sentences.append((spans, vectors[row : row + len(spans)].astype(np.float16)))
            row += len(spans)
    return EmbeddedChunks(chunk_vecs, sentences, len(texts) + len(sent_texts))

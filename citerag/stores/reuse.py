"""Vectors of a document's stored chunks, reused when the document is written again.

LangChain's indexing API keys a chunk by the hash of its text *and* its metadata, so that a
chunk whose metadata changed is written again with the new metadata. Every chunk of an edited
file carries the file's new sha256, and every chunk after an edit new offsets and a new chunk
id: all of them reach the store's ``add_documents`` as new. Their vectors, though, depend only
on what the model is given (:func:`~citerag.stores.chunk_vectors.vector_inputs`).
:class:`PreviousVectors` finds, for each new chunk, a stored chunk of the same document with
the same inputs, and hands its chunk vector and sentence vectors to
:func:`~citerag.stores.chunk_vectors.embed_chunks` instead of embedding the chunk again. The
stored chunk itself is deleted as stale at the end of the run, as before.

Both stores use it the same way: the ingest attaches one to the build's store for a write
(:attr:`~citerag.stores.faiss.store.CiteragStore.previous`), and the store reads the stored
chunks and their vectors through :class:`StoredChunks`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
from langchain_core.documents import Document

from citerag.stores.chunk_vectors import StoredVectors, VectorInputs

log = logging.getLogger(__name__)

#: Stored chunks read at once while a document's keys are computed.
_READ_BATCH = 512


class StoredChunks(Protocol):
    """What :class:`PreviousVectors` reads from a store."""

    def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        """Stored chunks by key (missing keys skipped)."""
        ...

    def stored_vectors(self, keys: Sequence[str]) -> dict[str, StoredVectors]:
        """Chunk vectors and sentence vectors of stored chunks by key (missing keys
        skipped)."""
        ...


class PreviousVectors:
    """Finds the stored twin of each chunk about to be embedded, within its document.

    A document's stored chunks are read once, on the first batch that holds one of its new
    chunks (their keys from the record manager, by the document id), and only their
    :class:`~citerag.stores.chunk_vectors.VectorInputs` keys are kept. A twin is used only when
    it still exists and, with sentence vectors on, has them with the same spans.

    Attributes:
        reused: Chunks given a stored twin's vectors so far.
    """

    def __init__(self, store: StoredChunks, keys_of: Callable[[str], list[str]]) -> None:
        """Look up through a store.

        Args:
            store: The store written into.
            keys_of: The stored chunk keys of a document id (the record manager's keys of
                that group).
        """
        self._store = store
        self._keys_of = keys_of
        self._by_doc: dict[str, dict[str, str]] = {}
        self.reused = 0

    def __call__(
        self,
        documents: Sequence[Document],
        inputs_of: Callable[[Document], VectorInputs],
    ) -> dict[int, StoredVectors]:
        """The vectors of the chunks that have a stored twin, by position in ``documents``.

        Args:
            documents: New chunks (``metadata["doc_id"]`` scopes the search).
            inputs_of: Computes a chunk's vector inputs (the same for stored and new chunks).

        Returns:
            Position -> the twin's chunk vector and sentence vectors.
        """
        wanted: dict[int, tuple[str, VectorInputs]] = {}
        for i, doc in enumerate(documents):
            doc_id = doc.metadata.get("doc_id")
            if not isinstance(doc_id, str):
                continue
            known = self._stored(doc_id, inputs_of)
            if not known:
                continue
            inputs = inputs_of(doc)
            twin = known.get(inputs.key)
            if twin is not None:
                wanted[i] = (twin, inputs)
        if not wanted:
            return {}
        held = self._store.stored_vectors(sorted({twin for twin, _ in wanted.values()}))
        found: dict[int, StoredVectors] = {}
        for i, (twin, inputs) in wanted.items():
            got = held.get(twin)
            if got is None:
                continue
            vector, sentences = got
            if inputs.spans is not None:
                if sentences is None or list(sentences[0]) != inputs.spans:
                    continue
                sentences = (list(sentences[0]), np.array(sentences[1]))
            found[i] = (np.asarray(vector, dtype=np.float32), sentences)
        self.reused += len(found)
        return found

    def _stored(self, doc_id: str, inputs_of: Callable[[Document], VectorInputs]) -> dict[str, str]:
        """Vector-inputs key -> stored chunk key, for one document's stored chunks."""
        known = self._by_doc.get(doc_id)
        if known is None:
            known = {}
            keys = self._keys_of(doc_id)
            for start in range(0, len(keys), _READ_BATCH):
                for doc in self._store.get_by_ids(keys[start : start + _READ_BATCH]):
                    if doc.id is not None:
                        known.setdefault(inputs_of(doc).key, doc.id)
            self._by_doc[doc_id] = known
            log.debug("%s: %d stored chunks to reuse vectors from", doc_id, len(known))
        return known

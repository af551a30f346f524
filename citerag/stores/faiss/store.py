"""``CiteragStore``: one LangChain ``VectorStore`` that keeps FAISS, BM25 and sentence vectors
in step.

LangChain's indexing API (:func:`langchain_core.indexing.index`) writes and deletes through
``add_documents``/``delete``; because this class fans each call out to the dense index, the
BM25 index and the per-sentence vectors, a record-manager-driven sync can never leave the
three disagreeing.

Searches take a metadata ``filter`` (see :mod:`citerag.core.filters`) that is applied
**before** ranking: FAISS searches only the allowed ids (a FAISS ``IDSelector``), BM25 zeroes
disallowed rows, so ``k`` allowed results come back even when most of the index is forbidden.

Document layout: ``page_content`` is the embedded text (contextual header + own words);
``metadata["content"]`` is the chunk's own words, quoted back to users.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from citerag.core.filters import Filter, matches
from citerag.stores.chunk_vectors import StoredVectors, VectorLookup, embed_chunks
from citerag.stores.contract import (
    DEFAULT_KEYWORD_SCORE_TYPE,
    SearchIndex,
    SentenceVectors,
    first_per_document,
)
from citerag.stores.cosine import CosineSearch
from citerag.stores.faiss.bm25 import BM25Index
from citerag.stores.faiss.dense import CompactDocstore, PendingVectors, load_faiss, new_faiss
from citerag.stores.faiss.sentence_table import (
    KEYS_FILE,
    SPANS_FILE,
    VECTORS_FILE,
    SentenceTable,
)
from citerag.stores.location import reading

log = logging.getLogger(__name__)


class CiteragStore(CosineSearch):
    """FAISS (cosine) + BM25 + sentence vectors behind the ``VectorStore`` interface.

    Implements :class:`~citerag.stores.contract.SearchIndex`: dense search in FAISS, keyword
    search and idf from the in-process :class:`~citerag.stores.faiss.bm25.BM25Index`.
    """

    #: The keyword leg is the in-process BM25 index (:meth:`bm25_search`).
    has_keyword_leg = True
    #: :meth:`idf` reads the BM25 index's document frequencies.
    has_term_statistics = True
    #: Both legs compute in this process: the retriever runs them one after the other.
    concurrent_legs = False
    lexical_score_type = DEFAULT_KEYWORD_SCORE_TYPE

    def __init__(
        self,
        embedding: Embeddings,
        dimension: int,
        *,
        sentence_vectors: bool = True,
        dense: Any | None = None,
        bm25: BM25Index | None = None,
        sentences: Mapping[str, SentenceVectors] | None = None,
        spill_dir: Path | None = None,
        writer: bool = False,
    ) -> None:
        """Create a store (empty unless parts are given).

        Args:
            embedding: The embedding model (vectors must be comparable by cosine).
            dimension: Vector dimension.
            sentence_vectors: Also embed each chunk's sentences (for the sentence reranker
                and the extractive answerer).
            dense: An existing LangChain FAISS store.
            bm25: An existing BM25 index.
            sentences: Existing sentence spans and vectors by chunk key (a
                :class:`~citerag.stores.faiss.sentence_table.SentenceTable` is used as it is).
            spill_dir: Where the vectors of sentences added later are kept on disk (the build
                folder; ``None``: the system's temporary folder).
            writer: A build's writer, which adds much and searches little: documents held
                compressed (:class:`~citerag.stores.faiss.dense.CompactDocstore`), new chunk
                vectors queued on disk until the dense index is next used
                (:class:`~citerag.stores.faiss.dense.PendingVectors`).
        """
        self._embedding = embedding
        self.dimension = dimension
        self.sentence_vectors = sentence_vectors
        if dense is None:
            dense = new_faiss(embedding, dimension, compact=writer)
        self._dense = dense
        self._pending = PendingVectors(spill_dir, dimension) if writer else None
        self.bm25 = bm25 if bm25 is not None else BM25Index()
        self._sentences = SentenceTable.of(sentences or {}, dimension, spill_dir)
        self._mask_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._pos_map: dict[str, int] | None = None
        self._by_doc: dict[str, list[tuple[int, int, str]]] | None = None
        self._by_doc_lock = threading.Lock()  # one build of it, however many requests ask
        self.embedded_texts = 0  # texts sent to the embedding model by this instance
        #: Finds stored chunks whose vectors chunks added now reuse (set by the ingest for a
        #: write; ``None``: every chunk added is embedded). See :mod:`citerag.stores.reuse`.
        self.previous: VectorLookup | None = None
        self._stored_pos: dict[str, int] | None = None

    @property
    def sentences(self) -> SentenceTable:
        """Sentence spans and vectors by chunk key (vectors on disk, see
        :mod:`citerag.stores.faiss.sentence_table`)."""
        return self._sentences

    @sentences.setter
    def sentences(self, value: Mapping[str, SentenceVectors]) -> None:
        self._sentences = SentenceTable.of(value, self.dimension, self._sentences.spill_dir)

    # -- VectorStore interface -------------------------------------------------------------

    @property
    def embeddings(self) -> Embeddings:
        """The embedding model."""
        return self._embedding

    def __len__(self) -> int:
        return len(self._dense.index_to_docstore_id)

    def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        """Embed documents once and add them to FAISS, BM25 and the sentence store.

        A chunk whose own words are a single sentence is not embedded twice: its sentence
        vector is the chunk's vector (which also covers the contextual header). A chunk
        :attr:`previous` finds a stored twin for takes the twin's vectors.

        Args:
            documents: Chunks; ``metadata["content"]`` (own words) is used for sentences.
            **kwargs: ``ids`` (required for sync with the record manager; without them each
                document keeps its ``id``, or gets a new UUID, as in LangChain's stores).

        Returns:
            The ids written.
        """
        ids = list(kwargs.get("ids") or [d.id or str(uuid.uuid4()) for d in documents])
        if not documents:
            return []
        replace = [i for i in ids if self._has(i)]
        if replace:
            self.delete(replace)
        texts = [d.page_content for d in documents]
        done = embed_chunks(
            self._embedding,
            documents,
            sentence_vectors=self.sentence_vectors,
            previous=self.previous,
        )
        self.embedded_texts += done.texts_embedded
        if self._pending is not None:
            self._queue(texts, done.vectors, documents, ids)
        else:
            self._dense.add_embeddings(
                list(zip(texts, done.vectors.tolist(), strict=True)),
                metadatas=[dict(d.metadata) for d in documents],
                ids=ids,
            )
        self.bm25.add(ids, texts)
        if done.sentences is not None:
            self.sentences.update(zip(ids, done.sentences, strict=True))
        self._mask_cache.clear()
        self._pos_map = None
        self._by_doc = None
        return ids

    def _queue(
        self, texts: list[str], vectors: np.ndarray, documents: list[Document], ids: list[str]
    ) -> None:
        """What ``FAISS.add_embeddings`` does, with the vectors queued instead of added."""
        import faiss

        if len(set(ids)) != len(ids):
            raise ValueError("Duplicate ids found in the ids list.")
        assert self._pending is not None
        vecs = np.array(vectors, dtype=np.float32)
        faiss.normalize_L2(vecs)
        start = len(self._dense.index_to_docstore_id)
        self._pending.append(vecs)  # first: a failed write leaves no document without a row
        self._dense.docstore.add(
            {
                key: Document(id=key, page_content=text, metadata=dict(doc.metadata))
                for key, text, doc in zip(ids, texts, documents, strict=True)
            }
        )
        self._dense.index_to_docstore_id.update({start + j: key for j, key in enumerate(ids)})

    @property
    def dense(self) -> Any:
        """The LangChain FAISS store (a writer's queued vectors enter its index first; a
        writer is used by one thread, as every store's writes are)."""
        if self._pending is not None and self._pending.rows:
            self._pending.flush_into(self._dense.index)
        return self._dense

    def _has(self, key: str) -> bool:
        """Whether a chunk key is stored (without listing every key: batches stay cheap)."""
        docstore = self._dense.docstore
        if isinstance(docstore, CompactDocstore):
            return key in docstore
        held = getattr(docstore, "_dict", None)
        if isinstance(held, dict):
            return key in held
        return isinstance(self._dense.docstore.search(key), Document)

    def delete(self, ids: list[str] | None = None, **kwargs: Any) -> bool | None:
        """Delete ids from every index (unknown ids are ignored)."""
        if not ids:
            return True
        present = set(self._dense.index_to_docstore_id.values())
        dense_ids = [i for i in ids if i in present]
        if dense_ids:
            self.dense.delete(dense_ids)
        self.bm25.delete(list(ids))
        for key in ids:
            if key in self.sentences:  # not .pop: that would read the rows back from disk
                del self.sentences[key]
        self._stored_pos = None  # a deletion moves the rows after it
        self._mask_cache.clear()
        self._pos_map = None
        self._by_doc = None
        return True

    def stored_vectors(self, keys: Sequence[str]) -> dict[str, StoredVectors]:
        """Chunk vectors (as indexed: L2-normalised) and sentence vectors of stored chunks.

        Args:
            keys: Chunk keys (unknown ones are skipped).

        Returns:
            Key -> its chunk vector and its sentence spans and vectors (``None`` when it has
            none).
        """
        if self._stored_pos is None:  # adds only append rows: kept until a deletion
            self._stored_pos = {k: p for p, k in self._dense.index_to_docstore_id.items()}
        out: dict[str, StoredVectors] = {}
        for key in keys:
            pos = self._stored_pos.get(key)
            if pos is None:
                continue
            index = self._dense.index if pos < self._dense.index.ntotal else self.dense.index
            out[key] = (index.reconstruct(pos), self.sentences.get(key))
        return out

    def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        """Return stored documents by id (missing ids are skipped)."""
        out = []
        for key in ids:
            doc = self._dense.docstore.search(key)
            if isinstance(doc, Document):
                out.append(
                    Document(id=key, page_content=doc.page_content, metadata=dict(doc.metadata))
                )
        return out

    def similarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Filter | None = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Dense search by vector with the filter applied inside FAISS.

        Args:
            embedding: Query vector (normalised here).
            k: Number of results.
            filter: Metadata filter evaluated before ranking.

        Returns:
            ``(document, cosine)`` pairs, best first; ``document.id`` is the store key.
        """
        import faiss

        index = self.dense.index
        if index.ntotal == 0 or k <= 0:
            return []
        q = np.asarray([embedding], dtype=np.float32)
        faiss.normalize_L2(q)
        params = None
        if filter:
            allowed = self._allowed_dense(filter)
            if allowed.size == 0:
                return []
            params = faiss.SearchParameters(sel=faiss.IDSelectorBatch(allowed))  # type: ignore[call-arg]
            k = min(k, int(allowed.size))
        k = min(k, index.ntotal)
        scores, positions = index.search(q, k, params=params)
        out = []
        for score, pos in zip(scores[0], positions[0], strict=True):
            if pos < 0:
                continue
            key = self.dense.index_to_docstore_id[int(pos)]
            doc = self.dense.docstore.search(key)
            out.append(
                (
                    Document(id=key, page_content=doc.page_content, metadata=dict(doc.metadata)),
                    float(score),
                )
            )
        return out

    def bm25_search(
        self, query: str, k: int = 4, filter: Filter | None = None
    ) -> list[tuple[Document, float]]:
        """Lexical BM25 search with the filter applied before ranking.

        Returns:
            ``(document, bm25 score)`` pairs with a positive score, best first.
        """
        allowed = None
        if filter:
            allowed = self._allowed_bm25(filter)
            if not allowed.any():
                return []
        hits = self.bm25.search(query, k, allowed=allowed)
        docs = {d.id: d for d in self.get_by_ids([key for key, _ in hits])}
        return [(docs[key], score) for key, score in hits if key in docs]

    def idf(self, terms: Iterable[str]) -> dict[str, float]:
        """BM25 idf of the terms the index holds (see
        :meth:`citerag.stores.contract.SearchIndex.idf`; unseen terms get no entry)."""
        return self.bm25.idf(set(terms))

    @classmethod
    def from_texts(
        cls,
        texts: list[str],
        embedding: Embeddings,
        metadatas: list[dict[Any, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> CiteragStore:
        """Build a store from texts (dimension probed from the model)."""
        dim = len(embedding.embed_query("dimension probe"))
        store = cls(embedding, dim, sentence_vectors=kwargs.get("sentence_vectors", True))
        store.add_texts(texts, metadatas, ids=ids)
        return store

    # -- helpers ---------------------------------------------------------------------------

    def iter_metadata(self) -> Iterable[tuple[str, dict[str, Any]]]:
        """Yield ``(key, metadata)`` for every stored chunk."""
        for key in self._dense.index_to_docstore_id.values():
            doc = self._dense.docstore.search(key)
            yield key, doc.metadata

    def iter_document_metadata(self) -> Iterable[dict[str, Any]]:
        """The metadata of the first stored chunk of each document."""
        return first_per_document(meta for _, meta in self.iter_metadata())

    def count_by_doc(self) -> dict[str, int]:
        """Chunks held per document id."""
        counts: dict[str, int] = {}
        for _, meta in self.iter_metadata():
            doc = str(meta.get("doc_id"))
            counts[doc] = counts.get(doc, 0) + 1
        return counts

    def _masks(self, flt: Filter) -> tuple[np.ndarray, np.ndarray]:
        cache_key = json.dumps(flt, sort_keys=True, default=str)
        cached = self._mask_cache.get(cache_key)
        if cached is not None:
            return cached
        allowed_keys = {key for key, meta in self.iter_metadata() if matches(meta, flt)}
        dense_pos = np.asarray(
            [pos for pos, key in self.dense.index_to_docstore_id.items() if key in allowed_keys],
            dtype=np.int64,
        )
        bm25_mask = np.asarray([key in allowed_keys for key in self.bm25.key_order()], dtype=bool)
        if len(self._mask_cache) > 256:
            self._mask_cache.clear()
        self._mask_cache[cache_key] = (dense_pos, bm25_mask)
        return dense_pos, bm25_mask

    def _allowed_dense(self, flt: Filter) -> np.ndarray:
        return self._masks(flt)[0]

    def _allowed_bm25(self, flt: Filter) -> np.ndarray:
        return self._masks(flt)[1]

    def cosine_for(self, keys: Sequence[str], query_vector: Sequence[float]) -> dict[str, float]:
        """Cosine similarity of the query to stored chunks by key (any retrieval list)."""
        pos_of = self._position_map()
        q = np.asarray(query_vector, dtype=np.float32)
        q = q / (np.linalg.norm(q) or 1.0)
        out: dict[str, float] = {}
        for key in keys:
            pos = pos_of.get(key)
            if pos is not None:
                out[key] = float(self.dense.index.reconstruct(pos) @ q)
        return out

    def document_chunks(
        self, doc_id: str, start: int, end: int, filter: Filter | None = None
    ) -> list[Document]:
        """Stored chunks of one document overlapping ``[start, end)``, in document order
        (see :meth:`citerag.stores.contract.SearchIndex.document_chunks`; a per-document list
        of chunk offsets is built on first use and dropped on every write)."""
        by_doc = self._by_doc
        if by_doc is None:
            with self._by_doc_lock:
                by_doc = self._by_doc
                if by_doc is None:
                    by_doc = {}
                    for key, meta in self.iter_metadata():
                        if isinstance(meta.get("start"), int) and isinstance(meta.get("end"), int):
                            by_doc.setdefault(str(meta.get("doc_id")), []).append(
                                (meta["start"], meta["end"], key)
                            )
                    for spans in by_doc.values():
                        spans.sort()
                    self._by_doc = by_doc
        keys = [k for s, e, k in by_doc.get(doc_id, []) if s < end and e > start]
        docs = self.get_by_ids(keys)
        return [d for d in docs if not filter or matches(d.metadata, filter)]

    def _position_map(self) -> dict[str, int]:
        held = self._dense.index_to_docstore_id
        if self._pos_map is None or len(self._pos_map) != len(held):
            self._pos_map = {key: pos for pos, key in held.items()}
        return self._pos_map

    def sentence_vectors_for(self, key: str) -> SentenceVectors | None:
        """Return the precomputed sentence spans (within ``content``) and vectors of a chunk."""
        return self.sentences.get(key)

    def sentence_vectors_many(self, keys: Sequence[str]) -> dict[str, SentenceVectors]:
        """Precomputed sentence spans and vectors of the chunks that have them."""
        out: dict[str, SentenceVectors] = {}
        for key in keys:
            got = self.sentences.get(key)
            if got is not None:
                out[key] = got
        return out

    # -- persistence -----------------------------------------------------------------------

    def save(self, folder: Path) -> None:
        """Write all parts into ``folder`` (which must exist)."""
        self.dense.save_local(str(folder), index_name="dense")
        self.bm25.save(folder / "bm25.jsonl")
        self.sentences.save(folder)

    @classmethod
    def load(
        cls,
        folder: Path,
        embedding: Embeddings,
        dimension: int,
        sentence_vectors: bool = True,
        writer: bool = False,
    ) -> CiteragStore:
        """Load a store written by :meth:`save` (sentence vectors memory-mapped; sentences
        added later are kept on disk in ``folder``; ``writer``: see the constructor).

        Raises:
            IndexUnavailableError: A file is damaged (cut short, not what it should be): one
                line naming it.
        """
        with reading(folder, "dense.faiss / dense.pkl"):
            dense = load_faiss(folder, embedding, compact=writer)
        with reading(folder, "bm25.jsonl"):
            bm25 = BM25Index.load(folder / "bm25.jsonl")
        # Only a writer's new sentence rows go to its (temporary) build folder; a reader
        # never writes into a published build.
        spill = folder if writer else None
        with reading(folder, f"{KEYS_FILE} / {VECTORS_FILE} / {SPANS_FILE}"):
            sentences = SentenceTable.load(folder, dimension, spill_dir=spill)
        return cls(
            embedding,
            dimension,
            sentence_vectors=sentence_vectors,
            dense=dense,
            bm25=bm25,
            sentences=sentences,
            spill_dir=spill,
            writer=writer,
        )


if TYPE_CHECKING:  # the store implements the contract (checked by mypy)

    def _implements_search_index(store: CiteragStore) -> SearchIndex:
        return store

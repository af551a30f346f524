"""``PostgresStore``: chunks, keyword search and sentence vectors in PostgreSQL + pgvector.

The PostgreSQL counterpart of :class:`~citerag.stores.faiss.store.CiteragStore`: both implement
:class:`~citerag.stores.contract.SearchIndex` (dense and keyword search, idf, sentence vectors,
cosine by key, document metadata) behind LangChain's ``VectorStore`` interface, so the graph
does not know which store it runs on.

* **Dense**: pgvector cosine distance through the HNSW index, ``hnsw.ef_search`` set per
  query. An HNSW scan filters *after* it walks the graph, so under a selective filter (a
  user allowed 2 % of the rows, a question constrained to one filing) it can return fewer
  than ``k`` rows; the store then repeats the query as an exact scan over the allowed rows,
  which is cheap exactly when the filter is selective. ``k`` allowed results always come
  back when ``k`` exist.
* **Keyword**: Okapi BM25 over PostgreSQL full-text lexemes of the generated ``content_tsv``
  column (GIN), with document frequencies kept by the writer (:mod:`citerag.stores.postgres.keyword`
  says how it differs from the in-process BM25).
* **Filters** (access labels, question constraints) are SQL predicates inside both legs
  (:mod:`citerag.stores.postgres.filters`), never a post-filter.
* **Writes** go through one connection in one transaction when the store is opened for
  writing (:meth:`PostgresStore.for_writing`): LangChain's indexing API adds and deletes
  through it, the ingest commits once per published change, readers see the old state until
  then, and a writer that dies leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from psycopg import sql
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from citerag.core.filters import Filter
from citerag.stores.chunk_vectors import StoredVectors, VectorLookup, embed_chunks
from citerag.stores.contract import SearchIndex, SentenceVectors
from citerag.stores.cosine import CosineSearch
from citerag.stores.postgres.db import HNSW_EF_SEARCH_MAX, StoreURL, add_stats, remove_stats
from citerag.stores.postgres.filters import compile_filter
from citerag.stores.postgres.keyword import (
    SCORE_TYPE,
    question_weights,
    search_sql,
    term_idf,
    tsquery_text,
)

log = logging.getLogger(__name__)

#: What the keyword leg's score is (the trace shows it next to each list).
KEYWORD_SCORE_TYPE = SCORE_TYPE


def _document(row: Sequence[Any]) -> Document:
    """A chunk row (``langchain_id, content, langchain_metadata, ...``) as a document."""
    return Document(id=row[0], page_content=row[1], metadata=dict(row[2]))


def _normalise(vector: Sequence[float]) -> np.ndarray:
    q = np.asarray(vector, dtype=np.float32)
    return q / (np.linalg.norm(q) or 1.0)


class _ReaderPool(ConnectionPool):
    """psycopg's pool, finalisable from one of its own threads.

    ``ConnectionPool.__del__`` waits for the pool's threads, which fails ("cannot join current
    thread") when the garbage collector happens to run in one of them; then the pool is
    closed from a helper thread instead.
    """

    def __del__(self) -> None:
        if threading.current_thread().name.startswith(f"{self.name}-"):
            threading.Thread(target=self.close, name=f"{self.name}-closer", daemon=True).start()
            return
        super().__del__()


#: Reader stores with an open pool (weakly held), for :func:`close_pools`.
_OPEN: weakref.WeakSet[PostgresStore] = weakref.WeakSet()


def close_pools() -> int:
    """Close the connection pool of every reader store (they reopen one when next used).

    For programs that open stores without keeping track of them (tests, notebooks): pools
    closed here never reach psycopg_pool's own finaliser, which cannot run in a pool thread.

    Returns:
        How many pools were closed.
    """
    stores = list(_OPEN)
    for store in stores:
        store.close()
    return len(stores)


class PostgresStore(CosineSearch):
    """Chunks in PostgreSQL: pgvector HNSW (cosine) + full text search + sentence vectors."""

    def __init__(
        self,
        embedding: Embeddings,
        dimension: int,
        url: StoreURL,
        *,
        sentence_vectors: bool = True,
        conn: psycopg.Connection[Any] | None = None,
        pool_size: int = 8,
    ) -> None:
        """Open a store over an index's tables (which must exist: see ``ensure_schema``).

        Args:
            embedding: The embedding model (the one the index was built with).
            dimension: Vector dimension.
            url: The parsed store URL.
            sentence_vectors: Also embed the sentences of chunks added.
            conn: Write through this connection and never commit (the ingest's transaction);
                ``None``: read through a connection pool.
            pool_size: Most pooled connections (reader mode).

        Raises:
            ValueError: ``dimension`` or ``pool_size`` is not positive.
        """
        if dimension <= 0:
            raise ValueError(f"dimension must be positive, not {dimension}")
        if pool_size <= 0:
            raise ValueError(f"pool_size must be positive, not {pool_size}")
        self._embedding = embedding
        self.dimension = dimension
        self.url = url
        self.sentence_vectors = sentence_vectors
        self._conn = conn
        self._pool: Any = None
        self._pool_size = pool_size
        self.embedded_texts = 0
        #: Finds stored chunks whose vectors chunks added now reuse (set by the ingest for a
        #: write; ``None``: every chunk added is embedded). See :mod:`citerag.stores.reuse`.
        self.previous: VectorLookup | None = None
        self.exact_fallbacks = 0  # dense queries repeated exactly because HNSW came back short
        self._chunks = url.table("chunks")
        self._sentences = url.table("sentences")

    @classmethod
    def for_writing(
        cls,
        embedding: Embeddings,
        dimension: int,
        url: StoreURL,
        conn: psycopg.Connection[Any],
        *,
        sentence_vectors: bool = True,
    ) -> PostgresStore:
        """A store whose every read and write goes through ``conn`` (never committed here)."""
        return cls(embedding, dimension, url, sentence_vectors=sentence_vectors, conn=conn)

    # -- connections -----------------------------------------------------------------------

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        if self._conn is not None:
            yield self._conn
            return
        if self._pool is None:
            from pgvector.psycopg import register_vector

            self._pool = _ReaderPool(
                self.url.conninfo,
                min_size=1,
                max_size=self._pool_size,
                configure=register_vector,
                open=True,
                name=f"citerag-{self.url.namespace}",
            )
            _OPEN.add(self)
        with self._pool.connection() as conn:
            yield conn

    def close(self) -> None:
        """Close the reader pool (a writer's connection belongs to its caller).

        Safe from any thread: called from one of the pool's own threads (the garbage
        collector may drop a store anywhere) the pool is closed from a helper thread, since
        a thread cannot wait for itself.
        """
        pool, self._pool = self._pool, None
        _OPEN.discard(self)
        if pool is None:
            return
        if threading.current_thread().name.startswith(f"{pool.name}-"):
            threading.Thread(target=pool.close, name=f"{pool.name}-closer", daemon=True).start()
        else:
            pool.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # interpreter shutdown: nothing left to release
            self.close()

    # -- VectorStore interface -------------------------------------------------------------

    @property
    def embeddings(self) -> Embeddings:
        """The embedding model."""
        return self._embedding

    def __len__(self) -> int:
        with self._connection() as conn:
            row = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(self._chunks)).fetchone()
        return int(row[0]) if row else 0

    def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        """Embed documents once and upsert their rows and sentence vectors (a chunk
        :attr:`previous` finds a stored twin for takes the twin's vectors).

        Args:
            documents: Chunks (``metadata["content"]``: own words, ``access``, ``doc_id``).
            **kwargs: ``ids`` (required for sync with the record manager; without them each
                document keeps its ``id``, or gets a new UUID, as in LangChain's stores).

        Returns:
            The ids written.
        """
        if not documents:
            return []
        ids = list(kwargs.get("ids") or [d.id or str(uuid.uuid4()) for d in documents])
        done = embed_chunks(
            self._embedding,
            documents,
            sentence_vectors=self.sentence_vectors,
            previous=self.previous,
        )
        self.embedded_texts += done.texts_embedded
        rows = [
            (
                key,
                d.page_content,
                _normalise(vec),
                str(d.metadata.get("access", "public")),
                str(d.metadata.get("doc_id", "")),
                Jsonb(dict(d.metadata)),
            )
            for key, d, vec in zip(ids, documents, done.vectors, strict=True)
        ]
        with self._connection() as conn, conn.cursor() as cur:
            remove_stats(conn, self.url, ids)  # rows being replaced leave the statistics
            cur.executemany(
                sql.SQL(
                    "INSERT INTO {} (langchain_id, content, embedding, access, doc_id,"
                    " langchain_metadata) VALUES (%s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (langchain_id) DO UPDATE SET content = EXCLUDED.content,"
                    " embedding = EXCLUDED.embedding, access = EXCLUDED.access,"
                    " doc_id = EXCLUDED.doc_id, langchain_metadata = EXCLUDED.langchain_metadata"
                ).format(self._chunks),
                rows,
            )
            add_stats(conn, self.url, ids)
            cur.execute(
                sql.SQL("DELETE FROM {} WHERE langchain_id = ANY(%s)").format(self._sentences),
                [ids],
            )
            if done.sentences is not None:
                cur.executemany(
                    sql.SQL(
                        "INSERT INTO {} (langchain_id, spans, vectors) VALUES (%s, %s, %s)"
                    ).format(self._sentences),
                    [
                        (key, [x for span in spans for x in span], vecs.astype("<f2").tobytes())
                        for key, (spans, vecs) in zip(ids, done.sentences, strict=True)
                    ],
                )
        return ids

    def delete(self, ids: list[str] | None = None, **kwargs: Any) -> bool | None:
        """Delete chunks (and their sentence vectors) by id; unknown ids are ignored."""
        if not ids:
            return True
        with self._connection() as conn:
            remove_stats(conn, self.url, list(ids))
            conn.execute(
                sql.SQL("DELETE FROM {} WHERE langchain_id = ANY(%s)").format(self._chunks),
                [list(ids)],
            )
        return True

    def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        """Return stored documents by id, in the order asked (missing ids are skipped)."""
        if not ids:
            return []
        with self._connection() as conn:
            rows = conn.execute(
                sql.SQL(
                    "SELECT langchain_id, content, langchain_metadata FROM {}"
                    " WHERE langchain_id = ANY(%s)"
                ).format(self._chunks),
                [list(ids)],
            ).fetchall()
        found = {r[0]: _document(r) for r in rows}
        return [found[key] for key in ids if key in found]

    def document_chunks(
        self, doc_id: str, start: int, end: int, filter: Filter | None = None
    ) -> list[Document]:
        """Stored chunks of one document overlapping ``[start, end)``, in document order
        (see :meth:`citerag.stores.contract.SearchIndex.document_chunks`), the filter in the
        query."""
        where, params = compile_filter(filter)
        with self._connection() as conn:
            rows = conn.execute(
                sql.SQL(
                    "SELECT langchain_id, content, langchain_metadata FROM {} WHERE doc_id = %s"
                    " AND (langchain_metadata ->> 'start')::bigint < %s"
                    " AND (langchain_metadata ->> 'end')::bigint > %s AND {}"
                    " ORDER BY (langchain_metadata ->> 'start')::bigint, langchain_id"
                ).format(self._chunks, where),
                [doc_id, end, start, *params],
            ).fetchall()
        return [_document(r) for r in rows]

    def similarity_search_with_score_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        filter: Filter | None = None,
        *,
        exact: bool = False,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """Dense search by vector, the filter inside the query.

        Args:
            embedding: Query vector (normalised here).
            k: Number of results.
            filter: Metadata filter (a SQL predicate of the same query).
            exact: Scan every allowed row instead of walking the HNSW graph.

        Returns:
            ``(document, cosine)`` pairs, best first; ``document.id`` is the chunk key.
        """
        if k <= 0:
            return []
        q = _normalise(embedding)
        where, params = compile_filter(filter)
        stmt = sql.SQL(
            "SELECT langchain_id, content, langchain_metadata, 1 - (embedding <=> %s) FROM {}"
            " WHERE {} ORDER BY embedding <=> %s LIMIT %s"
        ).format(self._chunks, where)
        args = [q, *params, q, k]
        with self._connection() as conn:
            rows = self._dense_rows(conn, stmt, args, k, exact=exact)
            if not exact and len(rows) < k and (filter or k > HNSW_EF_SEARCH_MAX):
                self.exact_fallbacks += 1
                rows = self._dense_rows(conn, stmt, args, k, exact=True)
        return [(_document(r), float(r[3])) for r in rows]

    def _dense_rows(
        self,
        conn: psycopg.Connection[Any],
        stmt: sql.Composed,
        args: list[Any],
        k: int,
        *,
        exact: bool,
    ) -> list[tuple[Any, ...]]:
        with conn.transaction():
            if exact:
                conn.execute("SET LOCAL enable_indexscan = off")
            else:
                ef = min(max(self.url.hnsw["ef_search"], k), HNSW_EF_SEARCH_MAX)
                conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(ef)))
            return conn.execute(stmt, args).fetchall()

    def bm25_search(
        self, query: str, k: int = 4, filter: Filter | None = None
    ) -> list[tuple[Document, float]]:
        """Keyword search: BM25 over PostgreSQL full-text lexemes, the filter in the query.

        Returns:
            ``(document, BM25 score)`` pairs with a positive score, best first.
        """
        if k <= 0 or not query.strip():
            return []
        where, params = compile_filter(filter)
        with self._connection() as conn:
            lexemes, idf, selective, avg_len = question_weights(conn, self.url, query)
            if not lexemes:
                return []
            rows = conn.execute(
                search_sql(self.url, where),
                [lexemes, idf, avg_len, tsquery_text(selective), *params, k],
            ).fetchall()
        return [(_document(r), float(r[3])) for r in rows if r[3] and r[3] > 0]

    def idf(self, terms: Iterable[str]) -> dict[str, float]:
        """BM25 idf of citerag tokens from the ``<ns>_terms`` table, in one query.

        Tokens are stemmed to PostgreSQL lexemes first (:func:`citerag.stores.postgres.keyword.
        term_idf`); stop words and tokens no chunk holds get no entry.
        """
        wanted = list(terms)
        if not wanted:
            return {}
        with self._connection() as conn:
            return term_idf(conn, self.url, wanted)

    lexical_score_type = KEYWORD_SCORE_TYPE
    #: Both legs wait on the database: the retriever runs them at the same time.
    concurrent_legs = True
    #: The keyword leg is BM25 over PostgreSQL lexemes (:meth:`bm25_search`).
    has_keyword_leg = True
    #: :meth:`idf` reads the ``<ns>_terms`` document frequencies.
    has_term_statistics = True

    @classmethod
    def from_texts(
        cls,
        texts: list[str],
        embedding: Embeddings,
        metadatas: list[dict[Any, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> PostgresStore:
        """Not supported: open an index with ``citerag ingest --store URL`` instead."""
        raise NotImplementedError(
            "PostgresStore is created by `citerag ingest --store URL` (or citerag.stores."
            "postgres.index.open_postgres), which also writes its manifest"
        )

    # -- helpers ---------------------------------------------------------------------------

    def iter_metadata(self) -> Iterable[tuple[str, dict[str, Any]]]:
        """Yield ``(key, metadata)`` for every stored chunk."""
        with self._connection() as conn:
            rows = conn.execute(
                sql.SQL(
                    "SELECT langchain_id, langchain_metadata FROM {} ORDER BY langchain_id"
                ).format(self._chunks)
            ).fetchall()
        for key, meta in rows:
            yield key, dict(meta)

    def iter_document_metadata(self) -> Iterable[dict[str, Any]]:
        """The metadata of one chunk per document (document-level fields are on every chunk).

        One row per document leaves the database, instead of every chunk's metadata.
        """
        with self._connection() as conn:
            rows = conn.execute(
                sql.SQL(
                    "SELECT DISTINCT ON (doc_id) langchain_metadata FROM {} ORDER BY doc_id"
                ).format(self._chunks)
            ).fetchall()
        for (meta,) in rows:
            yield dict(meta)

    def count_by_doc(self) -> dict[str, int]:
        """Chunks held per document id."""
        with self._connection() as conn:
            rows = conn.execute(
                sql.SQL("SELECT doc_id, count(*) FROM {} GROUP BY doc_id").format(self._chunks)
            ).fetchall()
        return {str(d): int(n) for d, n in rows}

    def cosine_for(self, keys: Sequence[str], query_vector: Sequence[float]) -> dict[str, float]:
        """Cosine similarity of the query to stored chunks by key."""
        if not keys:
            return {}
        q = _normalise(query_vector)
        with self._connection() as conn:
            rows = conn.execute(
                sql.SQL(
                    "SELECT langchain_id, 1 - (embedding <=> %s) FROM {}"
                    " WHERE langchain_id = ANY(%s)"
                ).format(self._chunks),
                [q, list(keys)],
            ).fetchall()
        return {r[0]: float(r[1]) for r in rows}

    def sentence_vectors_many(self, keys: Sequence[str]) -> dict[str, SentenceVectors]:
        """Sentence spans and vectors of a shortlist of chunks, in one query."""
        if not keys:
            return {}
        with self._connection() as conn:
            rows = conn.execute(
                sql.SQL(
                    "SELECT langchain_id, spans, vectors FROM {} WHERE langchain_id = ANY(%s)"
                ).format(self._sentences),
                [list(keys)],
            ).fetchall()
        out: dict[str, SentenceVectors] = {}
        for key, flat, blob in rows:
            spans = [(int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2)]
            vecs = np.frombuffer(blob, dtype="<f2").reshape(len(spans), self.dimension)
            out[key] = (spans, vecs)
        return out

    def sentence_vectors_for(self, key: str) -> SentenceVectors | None:
        """Sentence spans (within ``content``) and vectors of one chunk."""
        return self.sentence_vectors_many([key]).get(key)

    def stored_vectors(self, keys: Sequence[str]) -> dict[str, StoredVectors]:
        """Chunk vectors (as stored: L2-normalised) and sentence vectors of stored chunks.

        Args:
            keys: Chunk keys (unknown ones are skipped).

        Returns:
            Key -> its chunk vector and its sentence spans and vectors (``None`` when it has
            none).
        """
        if not keys:
            return {}
        with self._connection() as conn:
            rows = conn.execute(
                sql.SQL(
                    "SELECT langchain_id, embedding FROM {} WHERE langchain_id = ANY(%s)"
                ).format(self._chunks),
                [list(keys)],
            ).fetchall()
        sentences = self.sentence_vectors_many([r[0] for r in rows])
        return {key: (np.asarray(vec, dtype=np.float32), sentences.get(key)) for key, vec in rows}


if TYPE_CHECKING:  # the store implements the contract (checked by mypy)

    def _implements_search_index(store: PostgresStore) -> SearchIndex:
        return store

"""The answering graph the server runs, swapped atomically when a new index build appears.

The embedding model is loaded once. Each (re)load opens the index's current build, compiles a
fresh graph around it, warms it up with one query and only then publishes it as a new
:class:`Snapshot` (a single reference assignment). A request takes the snapshot once when it
starts, so it finishes on the graph it began with; the old store is freed when the last such
request ends.

Every graph embeds its questions through one :class:`~citerag.batching.EmbeddingBatcher`
around the model (unless :meth:`Engine.configure_queries` turns batching and the cache off):
questions of concurrent requests share a forward pass, and a question embedded twice in a
run (retrieval, then the extractive answerer) is embedded once. Ingestion (uploads) uses the
model itself.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from citerag.batching import DEFAULT_CACHE_SIZE, EmbeddingBatcher
from citerag.embeddings import EmbeddingModel, check_precision
from citerag.stores.dispatch import backend_for
from citerag.stores.location import IndexLocation
from citerag.stores.manifest import Manifest
from loaders.chunking import ChunkSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """One loaded index build and the graph compiled around it.

    Attributes:
        graph: The compiled answering graph.
        manifest: The build's manifest.
        build_dir: The build folder (``None`` for a PostgreSQL index).
        loaded_at: ISO time the graph was published.
    """

    graph: Any
    manifest: Manifest
    build_dir: Path | None
    loaded_at: str

    @property
    def build_id(self) -> str:
        """The build id (the manifest id every trace records)."""
        return self.manifest.build_id

    def counts(self) -> dict[str, int]:
        """Document and chunk totals of this build."""
        docs = self.manifest.documents.values()
        return {
            "documents": len(self.manifest.documents),
            "indexed": sum(d.get("status") == "indexed" for d in docs),
            "failed": sum(d.get("status") == "failed" for d in docs),
            "chunks": sum(int(d.get("chunks") or 0) for d in docs),
        }


class Engine:
    """Owns the embedding model and the current graph snapshot."""

    def __init__(
        self,
        index_dir: IndexLocation,
        *,
        embedding_model: str | None = None,
        model: EmbeddingModel | None = None,
        warmup: bool = True,
        query_batching: bool = True,
        query_batch_wait_ms: float = 0.0,
        query_cache: int = DEFAULT_CACHE_SIZE,
        embedding_threads: int | None = None,
        embedding_precision: str | None = None,
    ) -> None:
        """Configure (nothing is loaded until :meth:`load_model`/:meth:`reload`).

        Args:
            index_dir: The index directory, or a PostgreSQL store URL.
            embedding_model: Embedding model name or directory (``None`` = bundled default).
            model: An already loaded embedding model to reuse (tests, notebooks).
            warmup: Run one query through each new graph before publishing it.
            query_batching: Embed concurrent requests' questions in one forward pass.
            query_batch_wait_ms: Longest a pass waits for more questions (0 = never waits).
            query_cache: Recent question vectors kept (0 = no cache).
            embedding_threads: Intra-op threads of the model the engine loads (``None``:
                the library default; 0: every core but one). A model passed in as ``model``
                keeps the caller's setting.
            embedding_precision: ``auto``/``fp32``/``bf16`` for the model the engine loads
                (``None``: ``auto``; see :func:`citerag.embeddings.resolve_precision`).
        """
        self.index_dir = index_dir
        #: The index's backend (:func:`~citerag.stores.dispatch.backend_for`).
        self.backend = backend_for(index_dir)
        if embedding_precision is not None:
            check_precision(embedding_precision)
        self.embedding_precision = embedding_precision
        #: Questions through a traced copy of the encoder (see :meth:`configure_queries`).
        self.traced_queries = True
        self.embedding_model_name = embedding_model
        self._model = model
        self.warmup = warmup
        self._queries: EmbeddingBatcher | None = None
        self.embedding_threads = embedding_threads
        self.configure_queries(
            batching=query_batching, wait_ms=query_batch_wait_ms, cache=query_cache
        )
        self._snapshot: Snapshot | None = None
        self._reader: Any = None  # a reader store kept across reloads (backend.keeps_reader)
        self._lock = threading.Lock()
        self.state = "starting"
        self.error = ""

    @property
    def model(self) -> EmbeddingModel:
        """The embedding model (after :meth:`load_model`)."""
        if self._model is None:
            raise RuntimeError("the embedding model is not loaded yet")
        return self._model

    @property
    def model_loaded(self) -> bool:
        """Whether the embedding model is loaded."""
        return self._model is not None

    def configure_queries(
        self,
        *,
        batching: bool = True,
        wait_ms: float = 0.0,
        cache: int = DEFAULT_CACHE_SIZE,
        threads: int | None = None,
        precision: str | None = None,
        traced: bool | None = None,
    ) -> None:
        """Set how questions are embedded; applies to graphs loaded from now on.

        Args:
            batching: Embed concurrent requests' questions in one forward pass.
            wait_ms: Longest a pass waits for more questions (0 to 50 ms).
            cache: Recent question vectors kept (0 = no cache).
            threads: Intra-op threads of the model the engine loads (``None``: keep the
                current setting; 0: every core but one); before :meth:`load_model` only.
            precision: ``auto``/``fp32``/``bf16`` for the model the engine loads (``None``:
                keep the current setting); before :meth:`load_model` only.
            traced: Questions through a traced copy of the encoder in the model the engine
                loads (``None``: keep the current setting); before :meth:`load_model` only.

        Raises:
            ValueError: A bound out of range.
        """
        if precision is not None:
            self.embedding_precision = check_precision(precision)
        if traced is not None:
            self.traced_queries = traced
        if threads is not None:
            if threads < 0:
                raise ValueError(f"embedding threads must be >= 0, not {threads}")
            self.embedding_threads = threads
        if not 0.0 <= wait_ms <= 50.0:
            raise ValueError(f"query batch wait must be 0-50 ms, not {wait_ms}")
        if cache < 0:
            raise ValueError(f"query cache must be >= 0, not {cache}")
        self.query_batching = batching
        self.query_batch_wait_ms = wait_ms
        self.query_cache = cache
        self._queries = None

    @property
    def query_embedder(self) -> EmbeddingBatcher | None:
        """The batcher questions go through (``None``: batching and cache off, or no model)."""
        return self._queries

    def _query_embeddings(self, model: EmbeddingModel) -> Embeddings | None:
        if not (self.query_batching or self.query_cache):
            return None
        if self._queries is None or self._queries.inner is not model.embeddings:
            self._queries = EmbeddingBatcher(
                model.embeddings,
                batching=self.query_batching,
                max_wait_s=self.query_batch_wait_ms / 1000.0,
                cache_size=self.query_cache,
            )
        return self._queries

    def current(self) -> Snapshot | None:
        """The published snapshot (``None`` before the first successful load)."""
        return self._snapshot

    def load_model(self) -> EmbeddingModel:
        """Load the embedding model once."""
        if self._model is None:
            from citerag.embeddings import auto_threads, load_embedding_model

            self.state = "loading_model"
            t0 = time.perf_counter()
            threads = self.embedding_threads
            if threads == 0:
                threads = auto_threads()
            self._model = load_embedding_model(
                self.embedding_model_name,
                threads=threads,
                precision=self.embedding_precision,
                traced=self.traced_queries,
            )
            log.info(
                "embedding model %s loaded in %.1f s (%s intra-op threads)",
                self._model.name,
                time.perf_counter() - t0,
                threads or "default",
            )
        return self._model

    def index_changed(self) -> bool:
        """Whether the index's published build differs from the served one."""
        snap = self._snapshot
        build_id = self.backend.published_build()
        return build_id is not None and (snap is None or build_id != snap.build_id)

    def reload(self) -> Snapshot | None:
        """Load the current build, compile and warm a graph, then publish it.

        Returns:
            The new snapshot, or ``None`` if the directory has no index yet.

        Raises:
            Exception: Whatever loading raised (the previous snapshot stays published).
        """
        from citerag.stores.loaded import IndexNotFoundError
        from graphs.deps import GraphDeps
        from graphs.rag import build_graph

        with self._lock:
            model = self.load_model()
            t0 = time.perf_counter()
            try:
                if self.backend.keeps_reader:
                    deps = self._reader_deps(model)
                else:
                    deps = GraphDeps.from_index(
                        self.index_dir,
                        embedding_model=model,
                        embeddings=self._query_embeddings(model),
                    )
            except IndexNotFoundError as exc:
                if self._snapshot is None:
                    self.state, self.error = "no_index", str(exc)
                return None
            assert deps.index is not None  # from_index always sets it
            loaded = deps.index
            graph = build_graph(deps)
            if self.warmup:
                try:
                    graph.invoke({"question": "warm-up query", "user_groups": []})
                except Exception:  # a warm-up failure must not keep a consistent build out
                    log.warning(
                        "warm-up query failed on build %s", loaded.manifest_id, exc_info=True
                    )
            snap = Snapshot(
                graph=graph,
                manifest=loaded.manifest,
                build_dir=loaded.build_dir,
                loaded_at=datetime.now(UTC).isoformat(timespec="seconds"),
            )
            self._snapshot = snap  # the atomic swap
            self.state, self.error = "ready", ""
            log.info(
                "serving index build %s (%d chunks) loaded in %.1f s",
                snap.build_id,
                snap.counts()["chunks"],
                time.perf_counter() - t0,
            )
            return snap

    def _reader_deps(self, model: EmbeddingModel) -> Any:
        """Graph dependencies over an index whose reader store serves every build (a
        PostgreSQL index), reusing this engine's reader store.

        ``GraphDeps.from_index`` would open a new store (a new connection pool) per reload;
        a published change needs no new store, only its manifest and calibration, so the
        same store serves every build.
        """
        from citerag.stores.calibration import read_calibration
        from graphs.deps import GraphDeps

        loaded = self.backend.open(model, reader=self._reader)
        self._reader = loaded.store
        deps = GraphDeps.from_store(
            loaded.store,
            embeddings=self._query_embeddings(model) or model.embeddings,
            manifest_id=loaded.manifest_id,
            embedding_model=model.name,
            calibration=read_calibration(self.index_dir),
        )
        deps.index = loaded
        return deps

    def close(self) -> None:
        """Release the reader store's connection pool (a PostgreSQL index)."""
        store, self._reader = self._reader, None
        if store is not None:
            store.close()

    def ingest_settings(self) -> tuple[ChunkSettings, bool]:
        """Chunking and sentence-vector settings matching how the current index was built.

        Using the index's own settings keeps an upload from looking like a settings change
        (which would re-process every document).
        """
        snap = self._snapshot
        if snap is None:
            return ChunkSettings(), True
        ch = snap.manifest.chunking or {}
        defaults = ChunkSettings()
        chunking = ChunkSettings(
            chunk_size=int(ch.get("chunk_size", defaults.chunk_size)),
            chunk_overlap=int(ch.get("chunk_overlap", defaults.chunk_overlap)),
            contextual_header=bool(ch.get("contextual_header", defaults.contextual_header)),
            table_rows=bool(ch.get("table_rows", defaults.table_rows)),
            # an index built before table titles existed was built without them
            table_titles=bool(ch.get("table_titles", False)),
            # and one built before FAQ pairs were cut apart packed them
            qa_pairs=bool(ch.get("qa_pairs", False)),
        )
        return chunking, bool((snap.manifest.index or {}).get("sentence_vectors", True))

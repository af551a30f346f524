"""The records the ingest pipeline and the two backends (FAISS, PostgreSQL) pass each other.

* :class:`LoadedIndex` — an index opened for reading
  (:meth:`citerag.stores.backend.Backend.open`).
* :class:`Build`, :class:`Run` and :class:`IngestTarget` — one ingest phase's build, the run's
  settings, and where a run writes (:mod:`citerag.index.ingest` writes through
  :meth:`citerag.stores.backend.Backend.target`:
  :class:`~citerag.stores.faiss.target.FaissTarget` or
  :class:`~citerag.stores.postgres.index.PostgresTarget`).

They live here, below the backends and the ingest pipeline, so that neither imports the
other's internals and the import graph has no cycle (docs/reference/architecture.md).
"""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from citerag.stores.chunk_vectors import SEPARATE, sentence_method
from citerag.stores.manifest import Manifest
from loaders.chunking import ChunkSettings
from loaders.pipeline import STREAM_MIN_BYTES

if TYPE_CHECKING:
    from citerag.embeddings import EmbeddingModel
    from citerag.stores.faiss.store import CiteragStore
    from citerag.stores.postgres.records import PostgresRecordManager
    from citerag.stores.postgres.store import PostgresStore
    from citerag.stores.record_manager import SQLiteRecordManager

log = logging.getLogger(__name__)

#: Either store (what a :class:`LoadedIndex` or a :class:`Build` holds).
IndexStore: TypeAlias = "CiteragStore | PostgresStore"


@dataclass
class LoadedIndex:
    """A loaded index build.

    Attributes:
        store: The FAISS + BM25 + sentence-vector store, or the PostgreSQL store.
        manifest: The build's manifest.
        build_dir: The build folder it was loaded from (``None`` for PostgreSQL).
        location: Where it was loaded from, as messages show it (a URL's password masked).
    """

    store: IndexStore
    manifest: Manifest
    build_dir: Path | None
    location: str = ""

    @property
    def manifest_id(self) -> str:
        """The build id, recorded in every answer's trace."""
        return self.manifest.build_id


@dataclass
class Build:
    """The build an ingest phase writes into: a copy of the current FAISS build folder, or an
    open transaction on the PostgreSQL index.

    Attributes:
        folder: The temporary build folder (``None`` for PostgreSQL).
        store: Its indexes.
        manifest: Its manifest; ``manifest.documents`` is the ledger the run updates.
        records: Its record manager.
        first: There was no previous build.
        previous_fingerprint: Settings of the previous build, if known.
        force_update: Re-embed chunks the record manager would skip (the sentence-vector
            switch flipped, which chunk hashes do not cover).
    """

    folder: Path | None
    store: IndexStore
    manifest: Manifest
    records: SQLiteRecordManager | PostgresRecordManager
    first: bool
    previous_fingerprint: dict[str, Any] | None
    force_update: bool

    @classmethod
    def of(
        cls,
        folder: Path | None,
        store: IndexStore,
        manifest: Manifest | None,
        records: SQLiteRecordManager | PostgresRecordManager,
        sentence_vectors: bool,
        force_update: bool | None = None,
    ) -> Build:
        """Describe a build from its parts (``manifest`` ``None``: a first build).

        Args:
            folder: The temporary build folder, if any.
            store: The store written into.
            manifest: The current manifest, or ``None`` when nothing was built yet.
            records: The record manager.
            sentence_vectors: Whether this run embeds sentence vectors.
            force_update: Override ``force_update`` (a later phase of a run keeps the first
                phase's, since the first phase's build already records the new setting).
        """
        first = manifest is None
        if manifest is None:
            manifest = Manifest(
                build_id="", created_at="", embedding={}, index={}, chunking={}, software={}
            )
            force = False
        else:
            force = manifest.index.get("sentence_vectors", True) != sentence_vectors
        fingerprint = None if first else manifest.last_run.get("fingerprint")
        if not first and sentence_vectors and not force:
            was = manifest.index.get("sentence_method", SEPARATE)
            now = sentence_method(store.embeddings)
            if was != now:
                log.info(
                    "sentence-vector method changed (%s -> %s): every chunk is embedded again",
                    was,
                    now,
                )
                force = True
        if force_update is not None:
            force = force_update
        return cls(folder, store, manifest, records, first, fingerprint, force)

    def delete_document(self, doc_id: str) -> int:
        """Remove a document's chunks from every index and the record manager.

        Args:
            doc_id: The document id.

        Returns:
            How many chunks were removed.
        """
        keys = self.records.list_keys(group_ids=[doc_id])
        self.store.delete(keys)
        self.records.delete_keys(keys)
        return len(keys)


class IngestTarget(Protocol):
    """Where an ingest run writes: an index directory (FAISS) or a PostgreSQL index."""

    def lock(self) -> AbstractContextManager[None]:
        """Hold the index's single-writer lock for the whole run."""
        ...

    def open(
        self, model: EmbeddingModel, sentence_vectors: bool, force_update: bool | None = None
    ) -> Build:
        """Start one phase's build (a folder copy or a transaction)."""
        ...

    def index_info(self, build: Build, run: Run) -> dict[str, Any]:
        """The manifest's ``index`` block (store kind and settings)."""
        ...

    def publish(self, build: Build) -> None:
        """Make the described build current, atomically."""
        ...

    def abort(self, build: Build | None) -> None:
        """Drop an unpublished build (the current one stays as it was)."""
        ...


@dataclass(frozen=True)
class Run:
    """The settings of one ingest run.

    Attributes:
        model: The embedding model.
        chunking: The chunk settings.
        sentence_vectors: Whether sentences are embedded too.
        workers: Parser processes (``None``: :func:`default_workers`).
        progress: Show a tqdm progress bar.
        batch_size: Chunks per indexing batch.
        started: ``time.perf_counter()`` at the start of the run.
        now: The run's ISO time (recorded per document and as the build time).
        max_chars: Per-document text limit (characters).
        stream_min_bytes: Plain-text files at least this large are streamed.
    """

    model: EmbeddingModel
    chunking: ChunkSettings
    sentence_vectors: bool
    workers: int | None
    progress: bool
    batch_size: int
    started: float
    now: str
    max_chars: int | None = None
    stream_min_bytes: int = STREAM_MIN_BYTES

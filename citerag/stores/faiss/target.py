"""The ingest target of an index directory: a copy of the current FAISS build, published by a
rename and the swap of ``current`` (:mod:`citerag.stores.faiss.builds`).
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citerag.stores.chunk_vectors import add_stage
from citerag.stores.faiss.builds import abort_build, commit_build, start_build, write_lock
from citerag.stores.faiss.dense import DISTANCE, FAISS_INDEX_TYPE
from citerag.stores.faiss.open import RECORDS_FILE, open_build
from citerag.stores.faiss.store import CiteragStore
from citerag.stores.handles import Build, IngestTarget, Run
from citerag.stores.location import reading
from citerag.stores.manifest import MANIFEST_FILE, Manifest
from citerag.stores.record_manager import SQLiteRecordManager

if TYPE_CHECKING:
    from citerag.embeddings import EmbeddingModel


def _open_faiss_build(
    folder: Path,
    model: EmbeddingModel,
    sentence_vectors: bool,
    force_update: bool | None = None,
) -> Build:
    """Open the temporary FAISS build made by :func:`start_build` (empty for a first build).

    Args:
        folder: The temporary build folder.
        model: The embedding model.
        sentence_vectors: Whether this run embeds sentence vectors.
        force_update: See :meth:`Build.of`.

    Returns:
        The build, with its record manager's schema created.
    """
    store: CiteragStore
    manifest: Manifest | None = None
    if (folder / MANIFEST_FILE).exists():
        loaded = open_build(folder, model, sentence_vectors=sentence_vectors, writer=True)
        assert isinstance(loaded.store, CiteragStore)
        store, manifest = loaded.store, loaded.manifest
    else:
        store = CiteragStore(
            model.embeddings,
            model.dimension,
            sentence_vectors=sentence_vectors,
            spill_dir=folder,
            writer=True,
        )
    records = SQLiteRecordManager("citerag", folder / RECORDS_FILE)
    with reading(folder, RECORDS_FILE):  # a damaged copy: one line, not sqlite3's traceback
        records.create_schema()
    return Build.of(folder, store, manifest, records, sentence_vectors, force_update)


@dataclass
class FaissTarget:
    """An index directory of atomically swapped FAISS + BM25 build folders.

    Attributes:
        index_dir: The index directory.
    """

    index_dir: Path
    _tmp: Path | None = field(default=None, init=False)

    def lock(self) -> AbstractContextManager[None]:
        """The directory's file lock."""
        return write_lock(self.index_dir)

    def open(
        self, model: EmbeddingModel, sentence_vectors: bool, force_update: bool | None = None
    ) -> Build:
        """Copy the current build into a temporary folder and open it."""
        self._tmp = start_build(self.index_dir)
        try:
            return _open_faiss_build(self._tmp, model, sentence_vectors, force_update)
        except BaseException:
            self.abort(None)
            raise

    def index_info(self, build: Build, run: Run) -> dict[str, Any]:
        """FAISS type, distance and BM25 constants."""
        assert isinstance(build.store, CiteragStore)
        return {
            "vector_store": "langchain_community FAISS",
            "faiss_index_type": FAISS_INDEX_TYPE,
            "distance": DISTANCE,
            "bm25": {
                "k1": build.store.bm25.k1,
                "b": build.store.bm25.b,
                "tokenizer": "lower-case \\w+ minus English stop words",
            },
            "sentence_vectors": run.sentence_vectors,
            "record_manager": f"SQLite {RECORDS_FILE}, key encoder sha256",
        }

    def publish(self, build: Build) -> None:
        """Save, fsync, rename and swap ``current`` (:func:`commit_build`)."""
        assert build.folder is not None and isinstance(build.store, CiteragStore)
        t0 = time.perf_counter()
        build.store.save(build.folder)
        build.records.close()
        build.manifest.save(build.folder)
        t1 = time.perf_counter()
        commit_build(self.index_dir, build.folder, build.manifest.build_id)
        add_stage("write", t1 - t0)
        add_stage("publish", time.perf_counter() - t1)
        self._tmp = None

    def abort(self, build: Build | None) -> None:
        """Delete the temporary folder."""
        if build is not None:
            build.records.close()
        if self._tmp is not None:
            abort_build(self._tmp)
            self._tmp = None


if TYPE_CHECKING:  # the target implements the ingest's contract (checked by mypy)
    _conforms: type[IngestTarget] = FaissTarget

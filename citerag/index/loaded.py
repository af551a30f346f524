"""Open an index for reading: the store, its manifest and the model check.

An index location is a directory of FAISS builds or a PostgreSQL store URL
(:mod:`citerag.index.location`); :func:`load_index` and :func:`read_manifest` take either.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from citerag.embeddings import EmbeddingModel
from citerag.index.builds import current_build
from citerag.index.location import IndexLocation, is_store_url
from citerag.index.location import IndexNotFoundError as IndexNotFoundError  # re-exported
from citerag.index.manifest import Manifest
from citerag.index.store import CiteragStore

if TYPE_CHECKING:
    from citerag.index.pg_store import PostgresStore

RECORDS_FILE = "records.sqlite"


@dataclass
class LoadedIndex:
    """A loaded index build.

    Attributes:
        store: The FAISS + BM25 + sentence-vector store, or the PostgreSQL store.
        manifest: The build's manifest.
        build_dir: The build folder it was loaded from (``None`` for PostgreSQL).
        location: Where it was loaded from, as messages show it (a URL's password masked).
    """

    store: CiteragStore | PostgresStore
    manifest: Manifest
    build_dir: Path | None
    location: str = ""

    @property
    def manifest_id(self) -> str:
        """The build id, recorded in every answer's trace."""
        return self.manifest.build_id


def open_build(
    build_dir: Path,
    model: EmbeddingModel,
    sentence_vectors: bool | None = None,
    writer: bool = False,
) -> LoadedIndex:
    """Load one build folder, refusing a different embedding model.

    Args:
        build_dir: The build folder.
        model: The configured embedding model.
        sentence_vectors: Embed sentences of chunks added later; ``None`` keeps what the
            build was made with (so a store built without them does not start adding some).
        writer: Open it for writing (see :class:`~citerag.index.store.CiteragStore`).

    Raises:
        IndexMismatchError: Built with another model or dimension.
    """
    manifest = Manifest.load(build_dir)
    manifest.check_embedding(model.name, model.dimension)
    if sentence_vectors is None:
        sentence_vectors = bool(manifest.index.get("sentence_vectors", True))
    store = CiteragStore.load(
        build_dir,
        model.embeddings,
        model.dimension,
        sentence_vectors=sentence_vectors,
        writer=writer,
    )
    return LoadedIndex(store=store, manifest=manifest, build_dir=build_dir, location=str(build_dir))


def load_index(index_dir: IndexLocation, model: EmbeddingModel) -> LoadedIndex:
    """Load the current build of an index directory, or open a PostgreSQL index.

    Args:
        index_dir: An index directory (a path or a string), or a store URL
            (``postgresql+psycopg://user@host/db``).
        model: The configured embedding model.

    Raises:
        IndexNotFoundError: Nothing has been ingested into ``index_dir``.
        IndexMismatchError: Built with another model or dimension.
    """
    if is_store_url(index_dir):
        from citerag.index.pg_index import open_postgres

        return open_postgres(str(index_dir), model)
    index_dir = Path(index_dir)
    build = current_build(index_dir)
    if build is None:
        raise IndexNotFoundError(
            f"no index in {index_dir}: run `citerag ingest PATH --index {index_dir}` first"
        )
    return open_build(build, model)


def read_manifest(index_dir: IndexLocation) -> Manifest:
    """Read the current manifest without loading any model."""
    if is_store_url(index_dir):
        from citerag.index.pg_index import read_pg_manifest

        manifest = read_pg_manifest(str(index_dir))
        if manifest is None:
            raise IndexNotFoundError(f"no index at {index_dir}")
        return manifest
    build = current_build(Path(index_dir))
    if build is None:
        raise IndexNotFoundError(f"no index in {index_dir}")
    return Manifest.load(build)

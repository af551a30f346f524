"""Open an index for reading: the store, its manifest and the model check.

An index location is a directory of FAISS builds or a PostgreSQL store URL
(:mod:`citerag.stores.location`); :func:`load_index`, :func:`read_manifest` and
:func:`check_index` take either and ask its backend (:func:`~citerag.stores.dispatch.
backend_for`). :func:`check_index` reads a location's manifest without loading any model, so
a missing or unreadable index (or an unreachable store) is reported before a model loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citerag.stores.dispatch import backend_for
from citerag.stores.handles import LoadedIndex
from citerag.stores.location import IndexLocation, IndexNotFoundError
from citerag.stores.manifest import IndexMismatchError, Manifest

if TYPE_CHECKING:
    from citerag.embeddings import EmbeddingModel


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
    return backend_for(index_dir).open(model)


def read_manifest(index_dir: IndexLocation) -> Manifest:
    """Read the current manifest without loading any model.

    Raises:
        IndexNotFoundError: Nothing has been ingested into ``index_dir``.
    """
    backend = backend_for(index_dir)
    manifest = backend.read_manifest()
    if manifest is None:
        raise IndexNotFoundError(backend.not_found_message())
    return manifest


def check_index(location: IndexLocation, embedding_model: str | None = None) -> Manifest:
    """Read an index's manifest without loading any model: the check made before one loads.

    Looks for the current build (a directory's ``current`` link, or the store's meta table),
    reads its manifest, checks that the build's files are there and, given the identity of
    the embedding model about to be loaded, that the index was built with it. The error
    messages are one line and say what to do.

    Args:
        location: An index directory or a PostgreSQL store URL.
        embedding_model: The identity of the model that will embed questions (as
            ``citerag.embeddings.model_identity`` gives it); ``None`` = not checked.

    Returns:
        The current build's manifest.

    Raises:
        IndexNotFoundError: Nothing has been ingested at ``location``.
        IndexUnavailableError: The manifest or a build file cannot be read, or the store
            cannot be reached.
        IndexMismatchError: The index was built with another embedding model.
    """
    backend = backend_for(location)
    manifest = backend.check()
    built = manifest.embedding.get("model") if isinstance(manifest.embedding, dict) else None
    if embedding_model is not None and built != embedding_model:
        raise IndexMismatchError(
            f"the index at {backend.describe()} was built with embedding model {built!r} but "
            f"{embedding_model!r} is configured: configure that model (--embedding-model {built}) "
            "or ingest into a new --index directory"
        )
    return manifest

"""Open an index for reading: the store, its manifest and the model check.

An index location is a directory of FAISS builds or a PostgreSQL store URL
(:mod:`citerag.stores.location`); :func:`load_index`, :func:`read_manifest` and
:func:`check_index` take either. :func:`check_index` reads a location's manifest without
loading any model, so a missing or unreadable index (or an unreachable store) is reported
before a model loads.
"""

from __future__ import annotations

import json
from pathlib import Path

from citerag.embeddings import EmbeddingModel
from citerag.stores.faiss.builds import current_build
from citerag.stores.faiss.store import CiteragStore
from citerag.stores.handles import LoadedIndex
from citerag.stores.location import (
    BUILD_FILES,
    IndexLocation,
    IndexNotFoundError,
    IndexUnavailableError,
    describe,
    is_store_url,
)
from citerag.stores.manifest import MANIFEST_FILE, IndexMismatchError, Manifest

RECORDS_FILE = "records.sqlite"


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
        writer: Open it for writing (see :class:`~citerag.stores.faiss.store.CiteragStore`).

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
        from citerag.stores.postgres.index import open_postgres

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
        from citerag.stores.postgres.index import read_pg_manifest

        manifest = read_pg_manifest(str(index_dir))
        if manifest is None:
            raise IndexNotFoundError(f"no index at {index_dir}")
        return manifest
    build = current_build(Path(index_dir))
    if build is None:
        raise IndexNotFoundError(f"no index in {index_dir}")
    return Manifest.load(build)


def _ingest_hint(location: IndexLocation) -> str:
    shown = describe(location)
    target = f"'{shown}'" if is_store_url(location) else shown
    return f"run `citerag ingest PATH --index {target}` first"


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
    manifest = (
        _store_manifest(str(location)) if is_store_url(location) else _dir_manifest(Path(location))
    )
    built = manifest.embedding.get("model") if isinstance(manifest.embedding, dict) else None
    if embedding_model is not None and built != embedding_model:
        raise IndexMismatchError(
            f"the index at {describe(location)} was built with embedding model {built!r} but "
            f"{embedding_model!r} is configured: configure that model (--embedding-model {built}) "
            "or ingest into a new --index directory"
        )
    return manifest


def _dir_manifest(index_dir: Path) -> Manifest:
    build = current_build(index_dir)
    if build is None:
        raise IndexNotFoundError(f"no index in {index_dir}: {_ingest_hint(index_dir)}")
    path = build / MANIFEST_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("not a JSON object")
        manifest = Manifest.from_json(raw)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        reason = f"no {exc} field" if isinstance(exc, KeyError) else str(exc).splitlines()[0]
        raise IndexUnavailableError(
            f"the index in {index_dir} cannot be read ({path}: {reason or type(exc).__name__}); "
            "ingest again into a new --index directory"
        ) from exc
    missing = [name for name in BUILD_FILES if not (build / name).is_file()]
    if missing:
        raise IndexUnavailableError(
            f"the index in {index_dir} cannot be read ({build} has no {', '.join(missing)}); "
            "ingest again into a new --index directory"
        )
    return manifest


def _store_manifest(url: str) -> Manifest:
    import psycopg

    from citerag.stores.postgres.index import read_pg_manifest

    shown = describe(url)
    try:
        manifest = read_pg_manifest(url)
    except psycopg.OperationalError as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise IndexUnavailableError(
            f"cannot connect to the PostgreSQL store {shown} ({reason}): start the server "
            "or check --store / $CITERAG_STORE"
        ) from exc
    except (ValueError, KeyError, TypeError) as exc:
        raise IndexUnavailableError(
            f"the index at {shown} cannot be read (its manifest: {exc!r}); "
            "ingest again under a new namespace"
        ) from exc
    if manifest is None:
        raise IndexNotFoundError(f"no index at {shown}: {_ingest_hint(url)}")
    return manifest

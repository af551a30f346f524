"""Where an index lives: a directory (FAISS, the embedded default) or a PostgreSQL store URL.

Every entry point (``citerag ingest/ask/serve/eval --index``, ``load_index``,
``GraphDeps.from_index``, the server) takes one *index location*; this module is the one
place that tells the two kinds apart, without importing any database driver.
:func:`check_index` reads a location's manifest without loading any model, so a missing or
unreadable index (or an unreachable store) is reported before a model loads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citerag.index.manifest import Manifest

#: URL schemes that name a PostgreSQL store (with any SQLAlchemy driver suffix, e.g.
#: ``postgresql+psycopg://``).
SCHEMES = ("postgresql", "postgres")

#: An index location: a directory path, or a store URL string.
IndexLocation = Path | str


def is_store_url(location: object) -> bool:
    """Whether an index location is a PostgreSQL URL (else it is an index directory)."""
    if not isinstance(location, str) or "://" not in location:
        return False
    scheme = location.split("://", 1)[0].lower()
    return scheme.split("+", 1)[0] in SCHEMES


def describe(location: IndexLocation) -> str:
    """The location as logs and messages show it (a URL's password masked)."""
    if is_store_url(location):
        from citerag.index.pg_db import StoreURL

        return StoreURL.parse(str(location)).redacted()
    return str(location)


#: Files every FAISS build folder holds and a reader opens (besides ``manifest.json``).
BUILD_FILES = ("dense.faiss", "dense.pkl", "bm25.jsonl")


class IndexNotFoundError(FileNotFoundError):
    """No index has been built at this location yet."""


class IndexUnavailableError(RuntimeError):
    """An index that exists but cannot be read, or a store that cannot be reached."""


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
    from citerag.index.manifest import IndexMismatchError

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
    from citerag.index.builds import current_build
    from citerag.index.manifest import MANIFEST_FILE, Manifest

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

    from citerag.index.pg_index import read_pg_manifest

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

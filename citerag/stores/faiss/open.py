"""Open an index directory's builds: load one for reading or writing, read the current manifest.

The layout is :mod:`citerag.stores.faiss.builds` (``current`` -> ``builds/<id>``); the
location-taking functions every backend serves are :mod:`citerag.stores.loaded`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from citerag.stores.faiss.builds import CURRENT, current_build
from citerag.stores.handles import LoadedIndex
from citerag.stores.location import (
    BUILD_FILES,
    IndexNotFoundError,
    IndexUnavailableError,
    unreadable,
)
from citerag.stores.location import not_found_message as location_not_found
from citerag.stores.manifest import MANIFEST_FILE, Manifest

if TYPE_CHECKING:
    from citerag.embeddings import EmbeddingModel

#: The record manager's SQLite file inside each build folder.
RECORDS_FILE = "records.sqlite"


def not_found_message(index_dir: Path) -> str:
    """What to say when ``index_dir`` holds no build: the ingest command, and the index
    directories next to it (``.citerag/demo-index`` beside a mistyped ``.citerag/index``), so
    a user who already has an index is pointed at it rather than told to ingest again.
    """
    siblings = {path.name: str(path) for path in sibling_indexes(index_dir)}
    return location_not_found(f"in {index_dir}", str(index_dir), index_dir.name, siblings)


def sibling_indexes(index_dir: Path) -> list[Path]:
    """Index directories (a current build with its manifest) beside ``index_dir``, sorted."""
    try:
        entries = sorted(index_dir.parent.iterdir())
    except OSError:
        return []
    found = []
    for entry in entries:
        if entry.name == index_dir.name:
            continue
        try:
            if (entry / CURRENT / MANIFEST_FILE).is_file():
                found.append(entry)
        except OSError:
            continue
    return found


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
        IndexUnavailableError: A build file is damaged (cut short, not what it should be).
    """
    from citerag.stores.faiss.store import CiteragStore

    manifest = _load_manifest(build_dir, build_dir)
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


def open_current(index_dir: Path, model: EmbeddingModel) -> LoadedIndex:
    """Load the current build of an index directory.

    Raises:
        IndexNotFoundError: Nothing has been ingested into ``index_dir``.
        IndexMismatchError: Built with another model or dimension.
    """
    build = current_build(index_dir)
    if build is None:
        raise IndexNotFoundError(not_found_message(index_dir))
    return open_build(build, model)


def _load_manifest(where: Path, build: Path) -> Manifest:
    """A build's manifest, or one line naming the file when it cannot be read.

    Raises:
        IndexUnavailableError: ``manifest.json`` is missing, cut short or not a manifest.
    """
    path = build / MANIFEST_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("not a JSON object")
        return Manifest.from_json(raw)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise unreadable(where, path, exc) from exc


def read_current_manifest(index_dir: Path) -> Manifest | None:
    """The current build's manifest (``None``: no build yet).

    Raises:
        IndexUnavailableError: The manifest cannot be read.
    """
    build = current_build(index_dir)
    return None if build is None else _load_manifest(index_dir, build)


def check_current(index_dir: Path) -> Manifest:
    """The current build's manifest, checked readable with its build files present.

    Raises:
        IndexNotFoundError: No build yet.
        IndexUnavailableError: The manifest or a build file cannot be read.
    """
    build = current_build(index_dir)
    if build is None:
        raise IndexNotFoundError(not_found_message(index_dir))
    manifest = _load_manifest(index_dir, build)
    missing = [name for name in BUILD_FILES if not (build / name).is_file()]
    if missing:
        raise IndexUnavailableError(
            f"the index in {index_dir} cannot be read ({build} has no {', '.join(missing)}); "
            "ingest again into a new --index directory"
        )
    return manifest

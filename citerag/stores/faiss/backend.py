"""The :class:`~citerag.stores.backend.Backend` of an index directory (FAISS + BM25 builds)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from citerag.stores.faiss import calibration
from citerag.stores.faiss.builds import published_build_id
from citerag.stores.faiss.coordination import DirectoryCoordination
from citerag.stores.faiss.open import (
    check_current,
    not_found_message,
    open_current,
    read_current_manifest,
)
from citerag.stores.handles import IngestTarget, LoadedIndex
from citerag.stores.manifest import Manifest
from citerag.stores.registry import Registry, SharedRegistry

if TYPE_CHECKING:
    from citerag.embeddings import EmbeddingModel
    from citerag.stores.backend import Backend, Coordination


class FaissBackend:
    """An index directory: ``current`` -> ``builds/<id>`` (:mod:`citerag.stores.faiss.builds`),
    ``calibration.json`` beside it.

    Attributes:
        location: The directory as given.
        directory: The directory as a path.
    """

    keeps_reader = False

    def __init__(self, location: Path | str) -> None:
        """Describe the directory (nothing is read or created)."""
        self.location: Path | str = location
        self.directory: Path | None = Path(location)
        self._dir = Path(location)

    def describe(self) -> str:
        """The directory's path."""
        return str(self.location)

    def open(self, model: EmbeddingModel, *, reader: Any = None) -> LoadedIndex:
        """Load the current build (``reader`` is ignored: each build is opened anew)."""
        return open_current(self._dir, model)

    def read_manifest(self) -> Manifest | None:
        """The current build's manifest (``None``: no build yet)."""
        return read_current_manifest(self._dir)

    def check(self) -> Manifest:
        """The current build's manifest, checked readable with its files present."""
        return check_current(self._dir)

    def not_found_message(self) -> str:
        """The ingest command, and the index directories beside this one."""
        return not_found_message(self._dir)

    def target(self) -> IngestTarget:
        """A :class:`~citerag.stores.faiss.target.FaissTarget` on the directory."""
        from citerag.stores.faiss.target import FaissTarget

        return FaissTarget(self._dir)

    def calibration_place(self) -> str:
        """``INDEX/calibration.json``."""
        return str(calibration.calibration_path(self._dir))

    def read_calibration(self) -> dict[str, Any]:
        """The entries of ``calibration.json``."""
        return calibration.read_file(self._dir)

    def write_calibration(self, entries: dict[str, dict[str, Any]]) -> Path | str:
        """Merge entries into ``calibration.json``; its path."""
        return calibration.merge_into_file(self._dir, entries)

    def reset_calibration(self) -> Path | str | None:
        """Delete ``calibration.json``; its path (``None``: there was none)."""
        return calibration.remove_file(self._dir)

    def published_build(self) -> str | None:
        """The id of the build ``current`` points to (:func:`published_build_id`)."""
        return published_build_id(self._dir)

    def registry(self, data_dir: Path, *, read_only: bool = False) -> Registry:
        """``<data_dir>/documents.json``: only read with ``read_only``; otherwise shared under
        its file lock, whether one process writes or several (so a server started by hand
        on the same ``data_dir`` coordinates with the others instead of overwriting their
        changes)."""
        from citerag.stores.faiss.registry import ReadOnlyRegistry, SharedDocumentRegistry

        return ReadOnlyRegistry(data_dir) if read_only else SharedDocumentRegistry(data_dir)

    def coordination(self, registry: SharedRegistry) -> Coordination:
        """An ``flock`` in the registry's data directory; builds followed through ``current``."""
        return DirectoryCoordination(self._dir, registry.data_dir)


if TYPE_CHECKING:  # the backend implements the contract (checked by mypy)
    _conforms: type[Backend] = FaissBackend

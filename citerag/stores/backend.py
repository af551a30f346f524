"""The backend contract: what the application does with an index *location* (issue 33).

:class:`~citerag.stores.contract.SearchIndex` is what the graph reads from an open index while
answering; :class:`Backend` is everything around it: open the published build, write a new
one, keep the gate calibration, tell which build is published, and, for the server, open the
document registry and coordinate the worker processes that share one index. Two backends
implement it: :class:`~citerag.stores.faiss.backend.FaissBackend` (an index directory) and
:class:`~citerag.stores.postgres.backend.PostgresBackend` (a store URL); mypy checks both
against it (the ``_conforms`` assignments at the end of each module).
:func:`citerag.stores.dispatch.backend_for` picks one for a location.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from citerag.stores.handles import IngestTarget, LoadedIndex
from citerag.stores.location import IndexLocation
from citerag.stores.manifest import Manifest
from citerag.stores.registry import Registry, SharedRegistry

if TYPE_CHECKING:
    from citerag.embeddings import EmbeddingModel


class Coordination(Protocol):
    """How the serving processes that share one index take turns writing it.

    One of them holds the **job lock** and applies everyone's queued uploads and deletes
    (the shared registry's ``pending``/``deleting`` records); the lock is held by the
    process (a file descriptor, a database session), so the operating system or the
    database releases it when the process dies. Every process follows the **published
    build**; where the backend can, :meth:`listen` turns another process's change into a
    wake-up at once instead of at the next poll.
    """

    #: Whether :meth:`listen` delivers wake-ups (``False``: it returns at once, and changes
    #: are seen by polling every watch interval).
    listens: bool
    #: Whether the job lock stays held after a failed worker cycle (``False``: the failure
    #: may have broken what holds it, e.g. a database session; the worker releases it and
    #: tries again next cycle).
    lock_survives_errors: bool

    def try_lock(self) -> bool:
        """Try once, without waiting, to take the job lock; whether it is now held."""
        ...

    def holds_lock(self) -> bool:
        """Whether the job lock taken earlier is still held (a lost connection loses it)."""
        ...

    def release(self) -> None:
        """Give the job lock up (closing what holds it open); nothing when not held."""
        ...

    def published_build(self) -> str | None:
        """The published build id (``None``: nothing ingested yet)."""
        ...

    def listen(self, wake: Callable[[], None], stopping: threading.Event, interval: float) -> None:
        """Call ``wake`` whenever another process changes the queue or publishes a build, until
        ``stopping`` is set (blocks: run it in a thread of its own).

        Args:
            wake: Called for each notification (and once after each reconnection).
            stopping: Set to stop listening.
            interval: Seconds to wait before reconnecting after an error.
        """
        ...


class Backend(Protocol):
    """One index location's backend: the ingest and serving side of a store.

    Attributes:
        location: The location as given (a directory path, or a store URL string).
        directory: The index directory (``None`` for a PostgreSQL store): where files
            beside the index go, such as the calibration plot.
        keeps_reader: A reader store serves every build (PostgreSQL: its connection pool
            stays open across reloads; pass it back to :meth:`open` as ``reader``);
            ``False``: each build is opened anew (FAISS).
    """

    location: IndexLocation
    directory: Path | None
    keeps_reader: bool

    def describe(self) -> str:
        """The location as logs and messages show it (a URL's password masked)."""
        ...

    def open(self, model: EmbeddingModel, *, reader: Any = None) -> LoadedIndex:
        """Open the published build for reading.

        Args:
            model: The configured embedding model.
            reader: A store this backend opened before, to reuse (``keeps_reader``).

        Raises:
            IndexNotFoundError: Nothing has been ingested here.
            IndexMismatchError: Built with another embedding model or dimension.
        """
        ...

    def read_manifest(self) -> Manifest | None:
        """The published build's manifest, without loading any model (``None``: nothing
        ingested yet)."""
        ...

    def check(self) -> Manifest:
        """The published build's manifest, checked readable (its build files present, the
        store reachable), with one-line errors that say what to do.

        Raises:
            IndexNotFoundError: Nothing has been ingested here.
            IndexUnavailableError: The manifest or a build file cannot be read, or the store
                cannot be reached.
        """
        ...

    def not_found_message(self) -> str:
        """What to say when nothing has been ingested here: the ingest command and the
        existing indexes beside this location
        (:func:`citerag.stores.location.not_found_message`)."""
        ...

    def target(self) -> IngestTarget:
        """Where an ingest run writes (created if missing)."""
        ...

    def calibration_place(self) -> str:
        """Where the calibration is kept, as messages show it (a file, or the store)."""
        ...

    def read_calibration(self) -> dict[str, Any]:
        """The stored calibration entries as written (``{}``: none; an unreadable file is
        logged and ignored)."""
        ...

    def write_calibration(self, entries: dict[str, dict[str, Any]]) -> Path | str:
        """Merge entries into the calibration atomically; where they went."""
        ...

    def reset_calibration(self) -> Path | str | None:
        """Remove the calibration; where it was (``None``: there was none)."""
        ...

    def published_build(self) -> str | None:
        """The published build id, read cheaply (``None``: nothing ingested yet)."""
        ...

    def registry(self, data_dir: Path, *, read_only: bool = False) -> Registry:
        """The document registry of a server on this index.

        Args:
            data_dir: The server's data directory.
            read_only: A read-only server's (only read; a directory's registry only).

        Raises:
            psycopg.OperationalError: The PostgreSQL store cannot be reached.
        """
        ...

    def coordination(self, registry: SharedRegistry) -> Coordination:
        """The job lock, published-build check and wake-ups of the processes that share
        ``registry`` (one this backend opened)."""
        ...

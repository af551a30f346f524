"""The :class:`~citerag.stores.backend.Backend` of a PostgreSQL store URL (pgvector + lexemes)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from citerag.stores.handles import IngestTarget, LoadedIndex
from citerag.stores.location import IndexNotFoundError, IndexUnavailableError
from citerag.stores.manifest import Manifest
from citerag.stores.postgres.db import StoreURL
from citerag.stores.registry import Registry, SharedRegistry

if TYPE_CHECKING:
    from citerag.embeddings import EmbeddingModel
    from citerag.stores.backend import Backend, Coordination


class PostgresBackend:
    """An index in PostgreSQL: its tables under the URL's namespace; the manifest, the
    published build id and the calibration are rows of ``<ns>_meta``.

    Attributes:
        location: The store URL as given.
        url: The parsed URL.
    """

    keeps_reader = True
    directory: Path | None = None

    def __init__(self, location: str) -> None:
        """Parse the URL (nothing is connected).

        Raises:
            ValueError: Not a PostgreSQL URL, or a bad ``namespace``/HNSW parameter.
        """
        self.url = StoreURL.parse(location)
        self.location: Path | str = location

    def describe(self) -> str:
        """The URL without its password."""
        return self.url.redacted()

    def open(self, model: EmbeddingModel, *, reader: Any = None) -> LoadedIndex:
        """Open the index (a new reader store, or ``reader`` with its pool)."""
        from citerag.stores.postgres.index import open_postgres

        return open_postgres(self.url, model, store=reader)

    def read_manifest(self) -> Manifest | None:
        """The manifest row (``None``: nothing ingested under this namespace)."""
        from citerag.stores.postgres.index import read_pg_manifest

        return read_pg_manifest(self.url)

    def check(self) -> Manifest:
        """The manifest row, with the connection and its parsing checked."""
        import psycopg

        from citerag.stores.postgres.index import read_pg_manifest

        shown = self.describe()
        try:
            manifest = read_pg_manifest(self.url)
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
            raise IndexNotFoundError(self.not_found_message())
        return manifest

    def not_found_message(self) -> str:
        """The ingest command, and the database's other namespaces holding an index."""
        from citerag.stores.postgres.index import not_found_message

        return not_found_message(self.url)

    def target(self) -> IngestTarget:
        """A :class:`~citerag.stores.postgres.index.PostgresTarget` (tables made on first use)."""
        from citerag.stores.postgres.index import PostgresTarget

        return PostgresTarget(str(self.location))

    def calibration_place(self) -> str:
        """The store's URL (its meta table)."""
        return str(self.location)

    def read_calibration(self) -> dict[str, Any]:
        """The calibration row's entries."""
        from citerag.stores.postgres.index import read_pg_calibration

        return read_pg_calibration(self.url)

    def write_calibration(self, entries: dict[str, dict[str, Any]]) -> Path | str:
        """Merge entries into the calibration row (one transaction); the URL."""
        from citerag.stores.postgres.index import write_pg_calibration

        write_pg_calibration(self.url, entries)
        return str(self.location)

    def reset_calibration(self) -> Path | str | None:
        """Empty the calibration row; the URL (``None``: it had no entries)."""
        from citerag.stores.postgres.index import reset_pg_calibration

        return str(self.location) if reset_pg_calibration(self.url) else None

    def published_build(self) -> str | None:
        """The ``build_id`` meta row (one short row, not the manifest)."""
        from citerag.stores.postgres.index import current_build_id

        return current_build_id(self.url)

    def registry(self, data_dir: Path, *, read_only: bool = False) -> Registry:
        """:class:`~citerag.stores.postgres.registry.PgDocumentRegistry` in the store (shared
        by every serving process; ``data_dir`` holds this process's copies only)."""
        from citerag.stores.postgres.registry import PgDocumentRegistry

        return PgDocumentRegistry(str(self.location), data_dir)

    def coordination(self, registry: SharedRegistry) -> Coordination:
        """The advisory job lock, the build-id row and ``LISTEN`` on the store's channel."""
        from citerag.stores.postgres.coordination import PostgresCoordination

        return PostgresCoordination(self.url)


if TYPE_CHECKING:  # the backend implements the contract (checked by mypy)
    _conforms: type[Backend] = PostgresBackend

"""The one dispatch point from an index location to its backend.

:func:`backend_for` is the only caller of :func:`~citerag.stores.location.is_store_url` in
the project (a unit test checks it): every entry point, the server, the ingest pipeline and
the location-taking functions of :mod:`citerag.stores.loaded` and
:mod:`citerag.stores.calibration` ask the :class:`~citerag.stores.backend.Backend` it
returns instead of telling a directory from a URL themselves. (The PostgreSQL URL parser,
:meth:`~citerag.stores.postgres.db.StoreURL.parse`, validates its scheme with a private
check of its own; it parses, it does not dispatch.)
"""

from __future__ import annotations

from citerag.stores.backend import Backend
from citerag.stores.faiss.backend import FaissBackend
from citerag.stores.location import IndexLocation, is_store_url


def backend_for(location: IndexLocation) -> Backend:
    """The backend of an index location.

    Args:
        location: An index directory (a path, or a string without a scheme) or a PostgreSQL
            store URL (``postgresql+psycopg://user@host/db?namespace=...``).

    Returns:
        A :class:`~citerag.stores.postgres.backend.PostgresBackend` for a store URL, else a
        :class:`~citerag.stores.faiss.backend.FaissBackend` on the directory.

    Raises:
        ValueError: A malformed store URL (bad ``namespace`` or HNSW parameter).
    """
    if is_store_url(location):
        # imported here: the PostgreSQL backend loads the database driver (psycopg), which a
        # directory index never needs
        from citerag.stores.postgres.backend import PostgresBackend

        return PostgresBackend(str(location))
    return FaissBackend(location)

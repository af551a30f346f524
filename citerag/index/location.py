"""Where an index lives: a directory (FAISS, the embedded default) or a PostgreSQL store URL.

Every entry point (``citerag ingest/ask/serve/eval --index``, ``load_index``,
``GraphDeps.from_index``, the server) takes one *index location*; this module is the one
place that tells the two kinds apart, without importing any database driver.
"""

from __future__ import annotations

from pathlib import Path

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

"""A real PostgreSQL 16 + pgvector for the tests, started from the ``pgserver`` wheel.

``pg_server`` starts one server per test session in a temporary folder (a child process
listening on a Unix socket only; no system service) and stops it afterwards. Each test that
asks for ``pg_url`` gets its own namespace (table prefix) in that server, so tests never see
each other's rows. ``store_location`` is the parametrised fixture of the tests that must pass
on both stores: a fresh FAISS index directory, or a fresh PostgreSQL namespace.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


def with_namespace(uri: str, namespace: str) -> str:
    """A store URL for ``uri`` with citerag's ``namespace`` parameter added."""
    joiner = "&" if "?" in uri else "?"
    return f"{uri}{joiner}namespace={namespace}"


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The libpq URI of a PostgreSQL server started for this session (stopped after it)."""
    import pgserver

    folder = tmp_path_factory.mktemp("pgdata")
    server = pgserver.get_server(folder, cleanup_mode="stop")
    try:
        server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
        yield server.get_uri()
    finally:
        server.cleanup()


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """A store URL with a namespace of its own (empty: no tables yet)."""
    return with_namespace(pg_server, f"t{uuid.uuid4().hex[:12]}")


@pytest.fixture(params=["faiss", "postgres"])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """A fresh index location on each store: a directory, or a PostgreSQL URL."""
    if request.param == "faiss":
        return tmp_path / "index"
    server: str = request.getfixturevalue("pg_server")
    return with_namespace(server, f"t{uuid.uuid4().hex[:12]}")

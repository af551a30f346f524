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
def pg_server() -> Iterator[str]:
    """The libpq URI of a PostgreSQL server started for this session (stopped after it).

    Its data directory is a folder of its own under the system's temporary directory, not
    under pytest's ``basetemp``: pytest deletes old ``basetemp`` folders when a later run by
    the same user starts, which would pull the database from under a run still going (a
    unit run beside a full run).
    """
    import shutil
    import tempfile

    import pgserver

    folder = Path(tempfile.mkdtemp(prefix="citerag-pg-"))
    server = pgserver.get_server(folder, cleanup_mode="stop")
    try:
        server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def _close_pg_pools() -> Iterator[None]:
    """Close the PostgreSQL stores' connection pools after each test (stores kept by
    module-scoped fixtures reopen theirs when next used)."""
    yield
    import sys

    if "citerag.stores.postgres.store" in sys.modules:
        sys.modules["citerag.stores.postgres.store"].close_pools()


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


@pytest.fixture(scope="session")
def sample_pg_index(pg_server: str, embedding_model, sample_corpus: Path) -> str:
    """The sample corpus ingested once per session into PostgreSQL; returns its store URL.

    Treat it as read-only, like ``sample_index``.
    """
    from citerag.index.ingest import ingest

    url = with_namespace(pg_server, "sample")
    report = ingest([sample_corpus], url, embedding_model, progress=False)
    assert not report.failed, f"sample corpus failed to ingest: {report.failed}"
    return url


@pytest.fixture(scope="module", params=["faiss", "postgres"])
def sample_location(request: pytest.FixtureRequest) -> Path | str:
    """The sample index on each store: the FAISS directory, then the PostgreSQL URL."""
    if request.param == "faiss":
        return request.getfixturevalue("sample_index")
    return request.getfixturevalue("sample_pg_index")


@pytest.fixture(scope="module")
def sample_deps(sample_location, embedding_model):
    """The graph's dependencies over the sample index on each store (:func:`sample_location`)."""
    from citerag.stores.loaded import load_index
    from graphs.deps import GraphDeps

    loaded = load_index(sample_location, embedding_model)
    return GraphDeps.from_store(
        loaded.store,
        embeddings=embedding_model.embeddings,
        manifest_id=loaded.manifest_id,
        embedding_model=embedding_model.name,
    )


def empty_store(location: Path | str, embedding_model, *, sentence_vectors: bool = False):
    """An empty store of either kind for tests that add chunks by hand.

    A FAISS location gives an in-memory ``CiteragStore``; a PostgreSQL URL gets its tables
    created and a ``PostgresStore`` whose every write commits at once.
    """
    from citerag.stores.dispatch import backend_for
    from citerag.stores.faiss.store import CiteragStore

    if backend_for(location).directory is not None:
        return CiteragStore(
            embedding_model.embeddings, embedding_model.dimension, sentence_vectors=sentence_vectors
        )
    from citerag.stores.postgres.db import StoreURL, connect, ensure_schema
    from citerag.stores.postgres.store import PostgresStore

    url = StoreURL.parse(str(location))
    with connect(url) as conn:
        ensure_schema(conn, url, embedding_model.dimension)
        conn.commit()
    return PostgresStore(
        embedding_model.embeddings,
        embedding_model.dimension,
        url,
        sentence_vectors=sentence_vectors,
    )

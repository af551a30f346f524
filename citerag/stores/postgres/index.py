"""Open, write and watch an index kept in PostgreSQL (``--store postgresql+psycopg://...``).

* :func:`open_postgres` loads an index for reading, refusing a different embedding model
  (the manifest lives in the ``<ns>_meta`` table).
* :class:`PostgresTarget` is the ingest's :class:`~citerag.stores.handles.IngestTarget`: one
  writer at a time (an advisory lock), one transaction per published change.
* :func:`current_build_id` is how a serving process notices a published change.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import psycopg
from psycopg import sql

from citerag.embeddings import EmbeddingModel
from citerag.stores.handles import Build, LoadedIndex, Run
from citerag.stores.location import IndexNotFoundError
from citerag.stores.location import not_found_message as location_not_found
from citerag.stores.manifest import Manifest
from citerag.stores.postgres.db import (
    NAMESPACE_RE,
    TS_CONFIG,
    StoreURL,
    connect,
    ensure_schema,
    read_meta,
    write_meta,
    writer_lock,
)
from citerag.stores.postgres.records import PostgresRecordManager
from citerag.stores.postgres.store import KEYWORD_SCORE_TYPE, PostgresStore

log = logging.getLogger(__name__)

MANIFEST_KEY = "manifest"
#: The published build id on its own (what serving processes poll).
BUILD_ID_KEY = "build_id"
CALIBRATION_KEY = "calibration"


def _url(location: str | StoreURL) -> StoreURL:
    return location if isinstance(location, StoreURL) else StoreURL.parse(location)


def read_pg_manifest(location: str | StoreURL) -> Manifest | None:
    """The index's manifest (``None``: nothing was ingested under this namespace)."""
    url = _url(location)
    with connect(url, autocommit=True) as conn:
        raw = read_meta(conn, url, MANIFEST_KEY)
    return None if raw is None else Manifest.from_json(raw)


def index_namespaces(location: str | StoreURL) -> list[str]:
    """The namespaces of the URL's database holding an index (a ``<ns>_meta`` table, visible
    on the connection's search path, with a manifest row), sorted.

    Raises:
        psycopg.Error: The database cannot be reached or read.
    """
    url = _url(location)
    found: list[str] = []
    with connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT c.relname FROM pg_class c WHERE c.relkind IN ('r', 'p')"
            " AND c.relname LIKE %s AND pg_table_is_visible(c.oid) ORDER BY c.relname",
            ["%\\_meta"],
        ).fetchall()
        for (name,) in rows:
            namespace = str(name).removesuffix("_meta")
            if not NAMESPACE_RE.match(namespace):
                continue
            try:
                if read_meta(conn, replace(url, namespace=namespace), MANIFEST_KEY) is not None:
                    found.append(namespace)
            except psycopg.Error:  # a table of that name that is not an index's
                continue
    return found


def not_found_message(location: str | StoreURL) -> str:
    """What to say when nothing was ingested under a URL's namespace: the ingest command, and
    the database's other namespaces holding an index (the closest names first), as
    :func:`citerag.stores.location.not_found_message` says it for every store."""
    url = _url(location)
    shown = url.redacted()
    try:
        names = index_namespaces(url)
    except psycopg.Error as exc:
        log.debug("cannot list the namespaces of %s: %s", shown, exc)
        names = []
    existing = {ns: url.with_namespace(ns) for ns in names if ns != url.namespace}
    return location_not_found(
        f"at {shown} (namespace {url.namespace!r})", f"'{shown}'", url.namespace, existing
    )


def current_build_id(location: str | StoreURL) -> str | None:
    """The published build id (one short row, not the manifest), ``None`` before the first
    ingest."""
    url = _url(location)
    with connect(url, autocommit=True) as conn:
        raw = read_meta(conn, url, BUILD_ID_KEY)
    return str(raw) if raw else None


def open_postgres(
    location: str | StoreURL,
    model: EmbeddingModel,
    sentence_vectors: bool | None = None,
    *,
    store: PostgresStore | None = None,
) -> LoadedIndex:
    """Open a PostgreSQL index for reading.

    Args:
        location: The store URL.
        model: The configured embedding model.
        sentence_vectors: Accepted for symmetry with FAISS (readers write nothing).
        store: A reader store to reuse (its pool stays open across reloads).

    Raises:
        IndexNotFoundError: Nothing has been ingested under this URL and namespace.
        IndexMismatchError: Built with another model or dimension.
    """
    url = _url(location)
    manifest = read_pg_manifest(url)
    if manifest is None:
        raise IndexNotFoundError(not_found_message(url))
    manifest.check_embedding(model.name, model.dimension)
    if store is None:
        store = PostgresStore(
            model.embeddings,
            model.dimension,
            url,
            sentence_vectors=bool(manifest.index.get("sentence_vectors", True)),
        )
    return LoadedIndex(store=store, manifest=manifest, build_dir=None, location=url.redacted())


def read_pg_calibration(location: str | StoreURL) -> dict[str, Any]:
    """The index's calibration entries (``{}`` when it has none)."""
    url = _url(location)
    with connect(url, autocommit=True) as conn:
        raw = read_meta(conn, url, CALIBRATION_KEY)
    return dict(raw) if isinstance(raw, dict) else {}


def write_pg_calibration(location: str | StoreURL, entries: dict[str, Any]) -> None:
    """Merge calibration entries into the index's meta table (one transaction)."""
    url = _url(location)
    with connect(url) as conn:
        current = read_meta(conn, url, CALIBRATION_KEY)
        data = dict(current) if isinstance(current, dict) else {}
        data.update(entries)
        write_meta(conn, url, CALIBRATION_KEY, data)
        conn.commit()


def reset_pg_calibration(location: str | StoreURL) -> bool:
    """Remove the index's calibration entries; return whether it had any."""
    url = _url(location)
    with connect(url) as conn:
        current = read_meta(conn, url, CALIBRATION_KEY)
        had = isinstance(current, dict) and bool(current)
        write_meta(conn, url, CALIBRATION_KEY, {})
        conn.commit()
    return had


def hnsw_settings(conn: psycopg.Connection[Any], url: StoreURL) -> dict[str, int]:
    """The HNSW index's real build settings (an index built earlier keeps its own ``m`` and
    ``ef_construction``, whatever the URL says now) and the URL's ``ef_search``."""
    row = conn.execute(
        "SELECT reloptions FROM pg_class WHERE relname = %s", [f"{url.namespace}_chunks_hnsw"]
    ).fetchone()
    built = dict(opt.split("=", 1) for opt in (row[0] or [])) if row else {}
    out = dict(url.hnsw)
    for key in ("m", "ef_construction"):
        if str(built.get(key, "")).isdigit():
            out[key] = int(built[key])
    return out


@dataclass
class PostgresTarget:
    """The ingest target for a PostgreSQL index.

    The whole run holds the advisory lock; each phase is one transaction on the lock's
    connection, committed by :meth:`publish` after the manifest row is written, so readers
    (other connections, other processes) switch from the previous state to the new one at
    once, and a writer killed midway leaves the previous state as it was.

    Attributes:
        location: The store URL.
    """

    location: str
    _url: StoreURL = field(init=False)
    _conn: psycopg.Connection[Any] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._url = StoreURL.parse(self.location)

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the single-writer advisory lock (waits for another writer to finish)."""
        with writer_lock(self._url) as conn:
            self._conn = conn
            try:
                yield
            finally:
                self._conn = None

    def open(
        self, model: EmbeddingModel, sentence_vectors: bool, force_update: bool | None = None
    ) -> Build:
        """Start a transaction (creating the tables on a first ingest)."""
        conn = self._conn
        if conn is None:
            raise RuntimeError("PostgresTarget.open outside lock()")
        ensure_schema(conn, self._url, model.dimension)
        raw = read_meta(conn, self._url, MANIFEST_KEY)
        manifest = None if raw is None else Manifest.from_json(raw)
        if manifest is not None:
            manifest.check_embedding(model.name, model.dimension)
        store = PostgresStore.for_writing(
            model.embeddings, model.dimension, self._url, conn, sentence_vectors=sentence_vectors
        )
        records = PostgresRecordManager("citerag", self._url, conn)
        return Build.of(None, store, manifest, records, sentence_vectors, force_update)

    def index_info(self, build: Build, run: Run) -> dict[str, Any]:
        """pgvector HNSW settings, the keyword leg and the record manager."""
        with self._require().cursor() as cur:
            cur.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cur.fetchone()
            cur.execute("SHOW server_version")
            server = cur.fetchone()
        return {
            "vector_store": "PostgreSQL + pgvector (langchain-postgres PGVectorStore table layout)",
            "store_url": self._url.redacted(),
            "namespace": self._url.namespace,
            "postgresql": server[0] if server else "",
            "pgvector": row[0] if row else "",
            "distance": "cosine",
            "hnsw": hnsw_settings(self._require(), self._url),
            "keyword": {"text_search_config": TS_CONFIG, "score": KEYWORD_SCORE_TYPE},
            "sentence_vectors": run.sentence_vectors,
            "record_manager": f"PostgreSQL {self._url.namespace}_records, key encoder sha256",
        }

    def publish(self, build: Build) -> None:
        """Write the manifest row and commit the phase's transaction."""
        conn = self._require()
        write_meta(conn, self._url, MANIFEST_KEY, build.manifest.to_json())
        write_meta(conn, self._url, BUILD_ID_KEY, build.manifest.build_id)
        conn.execute(sql.SQL("NOTIFY {}").format(self._url.channel))  # delivered on commit
        conn.commit()
        log.info("published build %s to %s", build.manifest.build_id, self._url.redacted())

    def abort(self, build: Build | None) -> None:
        """Roll the phase's transaction back."""
        if self._conn is not None and not self._conn.closed:
            self._conn.rollback()

    def _require(self) -> psycopg.Connection[Any]:
        if self._conn is None:
            raise RuntimeError("PostgresTarget used outside lock()")
        return self._conn

"""The PostgreSQL side of an index: store URLs, connections, the schema and the meta table.

An index in PostgreSQL is a set of tables sharing a prefix (the *namespace*, ``citerag`` by
default; ``?namespace=team_a`` in the URL keeps several indexes in one database):

``<ns>_chunks``
    one row per chunk, laid out as ``langchain-postgres``' ``PGVectorStore`` lays out its
    tables (``langchain_id``, ``content``, ``embedding``, ``langchain_metadata``) plus the
    real columns the access rule and document cleanup filter on (``access``, ``doc_id``) and
    a generated ``content_tsv`` for the keyword leg; an HNSW index (cosine) on ``embedding``
    and a GIN index on ``content_tsv``.
``<ns>_sentences``
    sentence spans and float16 vectors per chunk (for the second stage), deleted with it.
``<ns>_records``
    LangChain's indexing-API record manager (:mod:`citerag.stores.postgres.records`).
``<ns>_terms``
    document frequencies of the keyword leg's lexemes, plus the chunk count and total
    length (:mod:`citerag.stores.postgres.keyword`), kept in the writer's transaction.
``<ns>_meta``
    the manifest (embedding model, dimension, chunking, build id, document ledger) and the
    gate calibration, as JSONB.

A store URL is what SQLAlchemy and ``langchain-postgres`` take
(``postgresql+psycopg://user:pass@host:5432/db``); the driver suffix is dropped for psycopg.
"""

from __future__ import annotations

import json
import logging
import re
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from citerag.stores.location import SCHEMES, redact_url

log = logging.getLogger(__name__)

DEFAULT_NAMESPACE = "citerag"
#: Text search configuration of the keyword leg (stemming + English stop words).
TS_CONFIG = "english"
#: Reserved rows of the ``<ns>_terms`` table: N (chunks) and the sum of chunk lengths.
N_ROW, LENGTH_ROW = "#chunks", "#length"

#: HNSW build and search settings, recorded in the manifest. pgvector's defaults (m=16,
#: ef_construction=64, ef_search=40) return 0.66 of exact search's top 20 on the issue-13
#: benchmark's 100,000 chunks (about 21 copies of each; near-identical vectors are HNSW's
#: worst case), these 0.98-0.99 (benchmarks/pg_store.py --hnsw; ef_search 800 gave
#: 0.978-0.983 over two builds, 1000 is pgvector's maximum); at 10,000 real chunks the
#: defaults already reach 0.99. The cost: a slower index build (44 s vs 8 s at 100,000 rows,
#: negligible next to embedding) and dense p50 about 15 ms instead of 3 ms at 100,000 rows,
#: hidden behind the keyword leg, which runs at the same time.
HNSW_M = 48
HNSW_EF_CONSTRUCTION = 200
HNSW_EF_SEARCH = 1000
#: pgvector's largest hnsw.ef_search.
HNSW_EF_SEARCH_MAX = 1000

NAMESPACE_RE = re.compile(r"^[a-z_][a-z0-9_]{0,40}$")


def _is_postgres_url(url: str) -> bool:
    """Whether ``url`` has a PostgreSQL scheme: the URL's own validation, kept private so that
    :func:`citerag.stores.dispatch.backend_for` stays the one caller of
    :func:`~citerag.stores.location.is_store_url` (the one place a location is dispatched)."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    return scheme.split("+", 1)[0] in SCHEMES


@dataclass(frozen=True)
class StoreURL:
    """A parsed PostgreSQL store URL.

    Attributes:
        url: The URL as given (passwords are masked by :meth:`redacted`).
        conninfo: The libpq URL psycopg connects with (driver suffix and citerag's own
            query parameters removed).
        namespace: Table-name prefix of this index.
        hnsw: HNSW settings (``m``, ``ef_construction``, ``ef_search``); ``?ef_search=N`` in
            the URL overrides the search setting.
    """

    url: str
    conninfo: str
    namespace: str = DEFAULT_NAMESPACE
    hnsw: dict[str, int] = field(
        default_factory=lambda: {
            "m": HNSW_M,
            "ef_construction": HNSW_EF_CONSTRUCTION,
            "ef_search": HNSW_EF_SEARCH,
        }
    )

    @classmethod
    def parse(cls, url: str) -> StoreURL:
        """Parse and validate a store URL.

        Raises:
            ValueError: Not a PostgreSQL URL, or a bad ``namespace``/HNSW parameter.
        """
        if not _is_postgres_url(url):
            raise ValueError(f"not a PostgreSQL store URL: {url!r} (expected postgresql://...)")
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        namespace = query.pop("namespace", DEFAULT_NAMESPACE)
        if not NAMESPACE_RE.match(namespace):
            raise ValueError(
                f"namespace {namespace!r} must be lower-case letters, digits and _ "
                "(at most 41 characters, not starting with a digit)"
            )
        hnsw = {"m": HNSW_M, "ef_construction": HNSW_EF_CONSTRUCTION, "ef_search": HNSW_EF_SEARCH}
        for key, lo, hi in (
            ("m", 2, 100),
            ("ef_construction", 4, 1000),
            ("ef_search", 1, HNSW_EF_SEARCH_MAX),
        ):
            if key in query:
                raw = query.pop(key)
                if not raw.isdigit() or not lo <= int(raw) <= hi:
                    raise ValueError(f"{key}={raw!r} in the store URL must be {lo}-{hi}")
                hnsw[key] = int(raw)
        scheme = "postgresql"
        conninfo = urlunsplit((scheme, parts.netloc, parts.path, urlencode(query), ""))
        return cls(url=url, conninfo=conninfo, namespace=namespace, hnsw=hnsw)

    def redacted(self) -> str:
        """The URL without its password (for logs, manifests and traces)."""
        return redact_url(self.url)

    def with_namespace(self, namespace: str) -> str:
        """This URL, password masked, naming another namespace of the same database (how a
        message tells the user to pass that index)."""
        parts = urlsplit(self.redacted())
        query = parse_qsl(parts.query, keep_blank_values=True)
        query = [(k, v) for k, v in query if k != "namespace"] + [("namespace", namespace)]
        return urlunsplit(parts._replace(query=urlencode(query)))

    def table(self, suffix: str) -> sql.Identifier:
        """The identifier of one of this index's tables (``chunks``, ``meta``, ...)."""
        return sql.Identifier(f"{self.namespace}_{suffix}")

    @property
    def channel(self) -> sql.Identifier:
        """The ``LISTEN``/``NOTIFY`` channel on which this index's changes are announced."""
        return sql.Identifier(f"citerag_{self.namespace}")

    @property
    def lock_key(self) -> int:
        """The advisory-lock key of this index's single writer."""
        return zlib.crc32(f"citerag:{self.namespace}".encode()) & 0x7FFFFFFF


def connect(url: StoreURL, *, autocommit: bool = False) -> psycopg.Connection[Any]:
    """Open a connection with the pgvector types registered.

    Raises:
        psycopg.OperationalError: The server cannot be reached.
    """
    from pgvector.psycopg import register_vector

    conn = psycopg.connect(url.conninfo, autocommit=autocommit)
    try:
        register_vector(conn)
    except psycopg.ProgrammingError:  # the extension is not created yet
        conn.rollback()
        with conn.cursor() as cur:
            cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.commit()
        register_vector(conn)
    return conn


def ensure_schema(conn: psycopg.Connection[Any], url: StoreURL, dimension: int) -> None:
    """Create the index's tables and indexes if missing (in the caller's transaction).

    Args:
        conn: An open connection (not committed here).
        url: The store URL (namespace, HNSW settings).
        dimension: The embedding dimension of the ``embedding`` column.
    """
    chunks, sentences = url.table("chunks"), url.table("sentences")
    ns = url.namespace
    hnsw = url.hnsw
    statements = [
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {chunks} ("
            " langchain_id TEXT PRIMARY KEY,"
            " content TEXT NOT NULL,"
            " embedding vector({dim}) NOT NULL,"
            " content_tsv tsvector GENERATED ALWAYS AS (to_tsvector({cfg}, content)) STORED,"
            " access TEXT NOT NULL,"
            " doc_id TEXT NOT NULL,"
            " langchain_metadata JSONB NOT NULL)"
        ).format(chunks=chunks, dim=sql.Literal(dimension), cfg=sql.Literal(TS_CONFIG)),
        sql.SQL(
            "CREATE INDEX IF NOT EXISTS {name} ON {chunks} USING hnsw"
            " (embedding vector_cosine_ops) WITH (m = {m}, ef_construction = {efc})"
        ).format(
            name=sql.Identifier(f"{ns}_chunks_hnsw"),
            chunks=chunks,
            m=sql.Literal(hnsw["m"]),
            efc=sql.Literal(hnsw["ef_construction"]),
        ),
        sql.SQL("CREATE INDEX IF NOT EXISTS {name} ON {chunks} USING gin (content_tsv)").format(
            name=sql.Identifier(f"{ns}_chunks_tsv"), chunks=chunks
        ),
        sql.SQL("CREATE INDEX IF NOT EXISTS {name} ON {chunks} (access)").format(
            name=sql.Identifier(f"{ns}_chunks_access"), chunks=chunks
        ),
        sql.SQL("CREATE INDEX IF NOT EXISTS {name} ON {chunks} (doc_id)").format(
            name=sql.Identifier(f"{ns}_chunks_doc"), chunks=chunks
        ),
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {sentences} ("
            " langchain_id TEXT PRIMARY KEY REFERENCES {chunks} (langchain_id) ON DELETE CASCADE,"
            " spans INT4[] NOT NULL,"
            " vectors BYTEA NOT NULL)"
        ).format(sentences=sentences, chunks=chunks),
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {records} ("
            " namespace TEXT NOT NULL, key TEXT NOT NULL, group_id TEXT,"
            " updated_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (namespace, key))"
        ).format(records=url.table("records")),
        sql.SQL("CREATE INDEX IF NOT EXISTS {name} ON {records} (namespace, group_id)").format(
            name=sql.Identifier(f"{ns}_records_group"), records=url.table("records")
        ),
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {meta} (key TEXT PRIMARY KEY, value JSONB NOT NULL)"
        ).format(meta=url.table("meta")),
    ]
    with conn.cursor() as cur:
        cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
        for stmt in statements:
            cur.execute(stmt)
        if not table_exists(conn, url, "terms"):
            cur.execute(
                sql.SQL(
                    "CREATE TABLE {terms} (lexeme TEXT PRIMARY KEY, df BIGINT NOT NULL)"
                ).format(terms=url.table("terms"))
            )
            add_stats(conn, url, None)  # rows written before the table existed


def table_exists(conn: psycopg.Connection[Any], url: StoreURL, suffix: str) -> bool:
    """Whether one of the index's tables exists."""
    row = conn.execute(
        "SELECT to_regclass(%s) IS NOT NULL", [f"{url.namespace}_{suffix}"]
    ).fetchone()
    return bool(row and row[0])


def read_meta(conn: psycopg.Connection[Any], url: StoreURL, key: str) -> Any | None:
    """One value of the meta table (``None`` when missing or the table does not exist)."""
    if not table_exists(conn, url, "meta"):
        return None
    row = conn.execute(
        sql.SQL("SELECT value FROM {} WHERE key = %s").format(url.table("meta")), [key]
    ).fetchone()
    return None if row is None else row[0]


def write_meta(conn: psycopg.Connection[Any], url: StoreURL, key: str, value: Any) -> None:
    """Upsert one value of the meta table (in the caller's transaction)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {} (key, value) VALUES (%s, %s::jsonb)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
        ).format(url.table("meta")),
        [key, json.dumps(value, ensure_ascii=False, default=str)],
    )


@contextmanager
def writer_lock(url: StoreURL) -> Iterator[psycopg.Connection[Any]]:
    """Hold the index's single-writer advisory lock on a connection of its own.

    The lock is a session-level ``pg_advisory_lock``: a second writer (another process or
    machine) waits until the first releases it; a writer that dies releases it with its
    connection, so a crash never leaves the index locked.

    Yields:
        The connection holding the lock, in transaction mode: the caller's statements form
        one transaction until it calls ``commit()`` or ``rollback()``.
    """
    conn = connect(url, autocommit=True)
    try:
        conn.execute("SELECT pg_advisory_lock(%s)", [url.lock_key])
        conn.autocommit = False
        try:
            yield conn
        finally:
            if not conn.closed:
                conn.rollback()  # anything not committed by the caller
                conn.autocommit = True
                conn.execute("SELECT pg_advisory_unlock(%s)", [url.lock_key])
    finally:
        conn.close()


# The keyword leg's statistics (citerag.stores.postgres.keyword): kept with the schema, since
# ensure_schema backfills them when it creates the terms table.
def _stats_sql(url: StoreURL, ids: Sequence[str] | None, sign: str) -> list[tuple[Any, list[Any]]]:
    chunks, terms = url.table("chunks"), url.table("terms")
    where = sql.SQL("WHERE langchain_id = ANY(%s)") if ids is not None else sql.SQL("")
    args: list[Any] = [list(ids)] if ids is not None else []
    op = sql.SQL(sign)
    return [
        (
            sql.SQL(
                "INSERT INTO {terms} (lexeme, df) SELECT u.lexeme, {op}count(*) FROM {chunks},"
                " unnest(content_tsv) AS u {where} GROUP BY u.lexeme"
                " ON CONFLICT (lexeme) DO UPDATE SET df = {terms}.df + EXCLUDED.df"
            ).format(terms=terms, chunks=chunks, where=where, op=op),
            args,
        ),
        (
            sql.SQL(
                "INSERT INTO {terms} (lexeme, df) SELECT {n}, {op}count(*) FROM {chunks} {where}"
                " UNION ALL SELECT {length}, {op}COALESCE(sum(length(content_tsv)), 0)"
                " FROM {chunks} {where}"
                " ON CONFLICT (lexeme) DO UPDATE SET df = {terms}.df + EXCLUDED.df"
            ).format(
                terms=terms,
                chunks=chunks,
                where=where,
                op=op,
                n=sql.Literal(N_ROW),
                length=sql.Literal(LENGTH_ROW),
            ),
            args + args,
        ),
    ]


def add_stats(conn: psycopg.Connection[Any], url: StoreURL, ids: Sequence[str] | None) -> None:
    """Count the lexemes of chunk rows just written (``None``: every row) into the stats."""
    for stmt, args in _stats_sql(url, ids, ""):
        conn.execute(stmt, args)


def remove_stats(conn: psycopg.Connection[Any], url: StoreURL, ids: Sequence[str]) -> None:
    """Take the lexemes of chunk rows about to be deleted or replaced out of the stats."""
    for stmt, args in _stats_sql(url, ids, "-"):
        conn.execute(stmt, args)
    conn.execute(
        sql.SQL("DELETE FROM {} WHERE df <= 0 AND lexeme NOT IN (%s, %s)").format(
            url.table("terms")
        ),
        [N_ROW, LENGTH_ROW],
    )

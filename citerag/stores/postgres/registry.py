"""The document registry of a PostgreSQL store: rows next to the index's tables.

:class:`PgDocumentRegistry` keeps the tables ``<ns>_documents`` (one row per upload, the
fields of :class:`~citerag.stores.registry.DocumentRecord`) and ``<ns>_uploads`` (its bytes),
so any serving process, on any machine, can accept an upload, report a status or queue a
delete, and whichever process is the writer reads the bytes from the database. The pending
and deleting rows *are* the job queue (see :class:`~citerag.server.worker.IndexWorker` and
:class:`~citerag.stores.postgres.coordination.PostgresCoordination`).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import fields
from pathlib import Path
from typing import Any

from citerag.stores.registry import (
    ID_RE,
    INCOMING_DIR,
    STATUSES,
    UPLOADS_DIR,
    DocumentRecord,
    PendingLimitError,
    now_iso,
)

log = logging.getLogger(__name__)


def advisory_key(url: Any, purpose: str) -> int:
    """An advisory-lock key of the server's own for a store (``purpose``: ``schema``,
    ``jobs``, ``uploads``), distinct from the ingest's writer lock (``StoreURL.lock_key``)."""
    import zlib

    return zlib.crc32(f"citerag-server-{purpose}:{url.namespace}".encode()) & 0x7FFFFFFF


def channel(url: Any) -> Any:
    """The ``LISTEN``/``NOTIFY`` channel of a store's serving processes (an identifier;
    :attr:`~citerag.stores.postgres.db.StoreURL.channel`, where ingest announces its builds too)."""
    return url.channel


#: Record fields stored as ``<ns>_documents`` columns (every :class:`DocumentRecord` field).
_FIELDS = tuple(f.name for f in fields(DocumentRecord))


class PgDocumentRegistry:
    """The registry of a PostgreSQL store: rows in ``<ns>_documents``, bytes in ``<ns>_uploads``.

    The same interface as :class:`DocumentRegistry`. Every method is one short transaction
    on a small connection pool, so several processes (and threads) use it at once; updates
    are single ``UPDATE`` statements, so a status change by one process (a delete request)
    is never lost under another's (the writer settling a build): the writer changes a
    status only while it is still the one it claimed (``only_if``).

    ``data_dir`` holds only this process's copies: received uploads while they stream in
    (a folder of its own, removed on close) and the files the writer materialises from the
    database to parse them (``uploads/<id>/<name>``, removed with the document).

    Besides the record's fields a row has ``version`` (bumped by every change: the writer
    retries a job only when its row changed since the last attempt), ``attempts`` and
    ``claimed_by`` (how often, and by which process, it was handed to an ingest run).
    """

    shared = True

    def __init__(self, store_url: str, data_dir: Path, *, pool_size: int = 4) -> None:
        """Connect and create the tables if missing.

        Args:
            store_url: The PostgreSQL store URL (its namespace prefixes the tables).
            data_dir: This process's folder for received and materialised uploads.
            pool_size: Most pooled connections.

        Raises:
            psycopg.OperationalError: The database cannot be reached.
        """
        from psycopg_pool import ConnectionPool

        from citerag.stores.postgres.db import StoreURL

        self.url = StoreURL.parse(store_url)
        self.data_dir = data_dir
        self.uploads = data_dir / UPLOADS_DIR
        self.uploads.mkdir(parents=True, exist_ok=True)
        self.incoming = Path(tempfile.mkdtemp(prefix=f"{INCOMING_DIR}-", dir=self.uploads))
        self._docs = self.url.table("documents")
        self._bytes = self.url.table("uploads")
        self._pool = ConnectionPool(
            self.url.conninfo,
            min_size=1,
            max_size=pool_size,
            open=True,
            name=f"citerag-documents-{self.url.namespace}",
        )
        self._ensure_tables()

    def _ensure_tables(self) -> None:
        from psycopg import sql

        ns = self.url.namespace
        with self._pool.connection() as conn:
            # Two processes starting at once must not both run CREATE TABLE IF NOT EXISTS.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", [advisory_key(self.url, "schema")])
            conn.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {docs} ("
                    " id TEXT PRIMARY KEY, name TEXT NOT NULL, file TEXT NOT NULL,"
                    " source TEXT NOT NULL, index_doc_id TEXT NOT NULL, access TEXT NOT NULL,"
                    " status TEXT NOT NULL CHECK (status IN ({statuses})),"
                    " reason TEXT NOT NULL DEFAULT '', chunks INTEGER, pages INTEGER,"
                    " size_bytes BIGINT NOT NULL DEFAULT 0, sha256 TEXT NOT NULL DEFAULT '',"
                    " uploaded_by TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT '',"
                    " updated_at TEXT NOT NULL DEFAULT '', build_id TEXT NOT NULL DEFAULT '',"
                    " version BIGINT NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0,"
                    " claimed_by TEXT NOT NULL DEFAULT '')"
                ).format(docs=self._docs, statuses=sql.SQL(", ").join(map(sql.Literal, STATUSES)))
            )
            conn.execute(
                sql.SQL("CREATE INDEX IF NOT EXISTS {} ON {} (status)").format(
                    sql.Identifier(f"{ns}_documents_status"), self._docs
                )
            )
            conn.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {bytes} ("
                    " id TEXT PRIMARY KEY REFERENCES {docs} (id) ON DELETE CASCADE,"
                    " data BYTEA NOT NULL)"
                ).format(bytes=self._bytes, docs=self._docs)
            )

    # -- reading ---------------------------------------------------------------------------

    def _select(self) -> Any:
        from psycopg import sql

        return sql.SQL("SELECT {cols} FROM {docs}").format(
            cols=sql.SQL(", ").join(map(sql.Identifier, _FIELDS)), docs=self._docs
        )

    @staticmethod
    def _record(row: tuple[Any, ...]) -> DocumentRecord:
        return DocumentRecord(**dict(zip(_FIELDS, row, strict=True)))

    def get(self, doc_id: str) -> DocumentRecord | None:
        """One record, or ``None``."""
        from psycopg import sql

        with self._pool.connection() as conn:
            row = conn.execute(
                sql.SQL("{} WHERE id = %s").format(self._select()), [doc_id]
            ).fetchone()
        return None if row is None else self._record(row)

    def all(self) -> list[DocumentRecord]:
        """Every record, oldest first."""
        from psycopg import sql

        with self._pool.connection() as conn:
            rows = conn.execute(
                sql.SQL("{} ORDER BY created_at, id").format(self._select())
            ).fetchall()
        return [self._record(r) for r in rows]

    def count(self, status: str) -> int:
        """How many records have this status."""
        from psycopg import sql

        with self._pool.connection() as conn:
            row = conn.execute(
                sql.SQL("SELECT count(*) FROM {} WHERE status = %s").format(self._docs), [status]
            ).fetchone()
        return int(row[0]) if row else 0

    def jobs(self, limit: int) -> list[tuple[DocumentRecord, int]]:
        """The queue: ``pending`` and ``deleting`` records with their row versions, oldest
        change first."""
        from psycopg import sql

        cols = sql.SQL(", ").join(map(sql.Identifier, (*_FIELDS, "version")))
        with self._pool.connection() as conn:
            rows = conn.execute(
                sql.SQL(
                    "SELECT {cols} FROM {docs} WHERE status IN ('pending', 'deleting')"
                    " ORDER BY updated_at, id LIMIT %s"
                ).format(cols=cols, docs=self._docs),
                [limit],
            ).fetchall()
        return [(self._record(r[:-1]), int(r[-1])) for r in rows]

    def versions(self, ids: Iterable[str]) -> dict[str, tuple[str, int]]:
        """Current status and row version of these records (missing ones are left out)."""
        from psycopg import sql

        with self._pool.connection() as conn:
            rows = conn.execute(
                sql.SQL("SELECT id, status, version FROM {} WHERE id = ANY(%s)").format(self._docs),
                [list(ids)],
            ).fetchall()
        return {str(i): (str(s), int(v)) for i, s, v in rows}

    def claim(self, ids: Iterable[str], by: str) -> None:
        """Record that ``by`` hands these records to an ingest run (``attempts`` + 1)."""
        from psycopg import sql

        with self._pool.connection() as conn:
            conn.execute(
                sql.SQL(
                    "UPDATE {} SET attempts = attempts + 1, claimed_by = %s WHERE id = ANY(%s)"
                ).format(self._docs),
                [by, list(ids)],
            )

    def attempts(self, ids: Iterable[str]) -> dict[str, int]:
        """How many ingest runs each of these records was handed to (missing ones left out)."""
        from psycopg import sql

        wanted = list(ids)
        if not wanted:
            return {}
        with self._pool.connection() as conn:
            rows = conn.execute(
                sql.SQL("SELECT id, attempts FROM {} WHERE id = ANY(%s)").format(self._docs),
                [wanted],
            ).fetchall()
        return {str(i): int(n) for i, n in rows}

    # -- writing ---------------------------------------------------------------------------

    def _insert(self, conn: Any, rec: DocumentRecord) -> None:
        from psycopg import sql

        conn.execute(
            sql.SQL("INSERT INTO {docs} ({cols}) VALUES ({vals})").format(
                docs=self._docs,
                cols=sql.SQL(", ").join(map(sql.Identifier, _FIELDS)),
                vals=sql.SQL(", ").join(sql.Placeholder() * len(_FIELDS)),
            ),
            [getattr(rec, f) for f in _FIELDS],
        )

    def add(self, rec: DocumentRecord) -> None:
        """Add a record (without bytes: :meth:`add_upload` stores both)."""
        with self._pool.connection() as conn:
            self._insert(conn, rec)

    def add_upload(
        self, rec: DocumentRecord, received: Path, *, max_pending: int | None = None
    ) -> None:
        """Store the received bytes and the record in one transaction; drop the temporary file.

        Args:
            rec: The new ``pending`` record.
            received: The temporary file holding the upload.
            max_pending: Refuse when this many records are already ``pending``, counted in
                the same transaction under the store's ``uploads`` advisory lock (so uploads
                to several processes at once cannot pass it together).

        Raises:
            PendingLimitError: ``max_pending`` reached (nothing is stored).
        """
        from psycopg import sql

        try:
            data = received.read_bytes()
            with self._pool.connection() as conn:
                if max_pending is not None:
                    conn.execute(
                        "SELECT pg_advisory_xact_lock(%s)", [advisory_key(self.url, "uploads")]
                    )
                    row = conn.execute(
                        sql.SQL("SELECT count(*) FROM {} WHERE status = 'pending'").format(
                            self._docs
                        )
                    ).fetchone()
                    if row is not None and int(row[0]) >= max_pending:
                        raise PendingLimitError(max_pending)
                self._insert(conn, rec)
                conn.execute(
                    sql.SQL("INSERT INTO {} (id, data) VALUES (%s, %s)").format(self._bytes),
                    [rec.id, data],
                )
                self._notify(conn)
        finally:
            received.unlink(missing_ok=True)

    def update(
        self, doc_id: str, *, only_if: Iterable[str] | None = None, **changes: Any
    ) -> DocumentRecord | None:
        """Change fields of a record and stamp ``updated_at`` (one statement).

        Returns:
            The updated record, or ``None`` if there is no such record (or its status is
            not in ``only_if``).

        Raises:
            ValueError: A change names no record field.
        """
        from psycopg import sql

        bad = [k for k in changes if k not in _FIELDS or k in ("id", "updated_at")]
        if bad:
            raise ValueError(f"cannot update {bad}")
        sets: list[sql.Composable] = [sql.SQL("{} = %s").format(sql.Identifier(k)) for k in changes]
        sets += [sql.SQL("updated_at = %s"), sql.SQL("version = version + 1")]
        params: list[Any] = [*changes.values(), now_iso(), doc_id]
        where = sql.SQL("id = %s")
        if only_if is not None:
            where = sql.SQL("id = %s AND status = ANY(%s)")
            params.append(list(only_if))
        query = sql.SQL("UPDATE {docs} SET {sets} WHERE {where} RETURNING {cols}").format(
            docs=self._docs,
            sets=sql.SQL(", ").join(sets),
            where=where,
            cols=sql.SQL(", ").join(map(sql.Identifier, _FIELDS)),
        )
        with self._pool.connection() as conn:
            row = conn.execute(query, params).fetchone()
        return None if row is None else self._record(row)

    def request_delete(self, doc_id: str) -> DocumentRecord | None:
        """Mark a record ``deleting`` (again: a repeated request makes the writer retry)."""
        rec = self.update(doc_id, status="deleting", reason="")
        self.notify()
        return rec

    def _notify(self, conn: Any) -> None:
        from psycopg import sql

        conn.execute(sql.SQL("NOTIFY {}").format(channel(self.url)))  # sent on commit

    def notify(self) -> None:
        """Wake every serving process of this store now (a job was queued, a build published);
        polling every ``watch_interval`` remains the fallback."""
        with self._pool.connection() as conn:
            self._notify(conn)

    def remove(self, doc_id: str) -> None:
        """Forget a record and its bytes, and drop this process's copy of the file."""
        from psycopg import sql

        if ID_RE.match(doc_id):
            shutil.rmtree(self.uploads / doc_id, ignore_errors=True)
        with self._pool.connection() as conn:
            conn.execute(sql.SQL("DELETE FROM {} WHERE id = %s").format(self._docs), [doc_id])

    def file_path(self, rec: DocumentRecord) -> Path:
        """A local copy of a record's uploaded file (written from the database if missing).

        Raises:
            FileNotFoundError: The database holds no bytes for it (it was deleted).
        """
        import hashlib

        from psycopg import sql

        path = (self.data_dir / rec.file).resolve()
        if path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == rec.sha256:
            return path
        with self._pool.connection() as conn:
            row = conn.execute(
                sql.SQL("SELECT data FROM {} WHERE id = %s").format(self._bytes), [rec.id]
            ).fetchone()
        if row is None:
            raise FileNotFoundError(f"no stored bytes for upload {rec.id}")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(bytes(row[0]))
        os.replace(tmp, path)  # atomic: a process sharing data_dir never reads half a file
        return path

    def prune_local(self) -> int:
        """Drop this process's copies of uploads that no longer exist (deleted through any
        process); returns how many were dropped."""
        local = [p for p in self.uploads.iterdir() if p.is_dir() and ID_RE.match(p.name)]
        if not local:
            return 0
        known = self.versions(p.name for p in local)
        gone = [p for p in local if p.name not in known]
        for folder in gone:
            shutil.rmtree(folder, ignore_errors=True)
        return len(gone)

    def close(self) -> None:
        """Close the pool and drop this process's incoming folder."""
        self._pool.close()
        shutil.rmtree(self.incoming, ignore_errors=True)

"""A record manager for LangChain's indexing API in the index's own PostgreSQL database.

It keeps what ``langchain.indexes.SQLRecordManager`` keeps (key, namespace, group id, update
time) in the ``<ns>_records`` table, but writes through the ingest's connection without
committing: the record manager's changes are part of the same transaction as the chunk
rows and the manifest, so a published change is all-or-nothing. (``SQLRecordManager`` opens
its own SQLAlchemy session and commits after every call, which would let a crash leave
records for chunks that were never committed, or the reverse.) Times come from the
database's clock, so writers on different machines agree on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import sql

from citerag.stores.postgres.db import StoreURL
from citerag.stores.record_manager import SyncRecordManager


class PostgresRecordManager(SyncRecordManager):
    """Record manager over ``<ns>_records`` on one connection (its caller commits)."""

    def __init__(self, namespace: str, url: StoreURL, conn: psycopg.Connection[Any]) -> None:
        """Use the records table of an index.

        Args:
            namespace: Record namespace (LangChain's, not the table prefix).
            url: The store URL (names the table).
            conn: The writer's connection; nothing is committed here.
        """
        super().__init__(namespace)
        self._conn = conn
        self._table = url.table("records")
        self._last_time = 0.0

    def create_schema(self) -> None:
        """Nothing to do: :func:`~citerag.stores.postgres.db.ensure_schema` creates the table."""

    def close(self) -> None:
        """Nothing to close (the connection belongs to the writer)."""

    def get_time(self) -> float:
        """The database's clock (seconds), strictly increasing within this manager."""
        row = self._conn.execute("SELECT extract(epoch FROM clock_timestamp())").fetchone()
        now = max(float(row[0]) if row else 0.0, self._last_time + 1e-6)
        self._last_time = now
        return now

    def update(
        self,
        keys: Sequence[str],
        *,
        group_ids: Sequence[str | None] | None = None,
        time_at_least: float | None = None,
    ) -> None:
        """Upsert keys with their group ids and the current time."""
        group_ids, now = self._stamp(keys, group_ids, time_at_least)
        with self._conn.cursor() as cur:
            cur.executemany(
                sql.SQL(
                    "INSERT INTO {} (namespace, key, group_id, updated_at) VALUES (%s, %s, %s, %s)"
                    " ON CONFLICT (namespace, key) DO UPDATE SET group_id = EXCLUDED.group_id,"
                    " updated_at = EXCLUDED.updated_at"
                ).format(self._table),
                [(self.namespace, k, g, now) for k, g in zip(keys, group_ids, strict=True)],
            )

    def exists(self, keys: Sequence[str]) -> list[bool]:
        """Return for each key whether it is recorded."""
        if not keys:
            return []
        rows = self._conn.execute(
            sql.SQL("SELECT key FROM {} WHERE namespace = %s AND key = ANY(%s)").format(
                self._table
            ),
            [self.namespace, list(keys)],
        ).fetchall()
        found = {r[0] for r in rows}
        return [k in found for k in keys]

    def list_keys(
        self,
        *,
        before: float | None = None,
        after: float | None = None,
        group_ids: Sequence[str] | None = None,
        limit: int | None = None,
    ) -> list[str]:
        """List keys filtered by time window and group ids."""
        parts = [sql.SQL("namespace = %s")]
        args: list[Any] = [self.namespace]
        if before is not None:
            parts.append(sql.SQL("updated_at < %s"))
            args.append(before)
        if after is not None:
            parts.append(sql.SQL("updated_at > %s"))
            args.append(after)
        if group_ids is not None:
            parts.append(sql.SQL("group_id = ANY(%s)"))
            args.append(list(group_ids))
        stmt = sql.SQL("SELECT key FROM {} WHERE {} ORDER BY key").format(
            self._table, sql.SQL(" AND ").join(parts)
        )
        if limit:
            stmt = sql.SQL("{} LIMIT %s").format(stmt)
            args.append(limit)
        return [r[0] for r in self._conn.execute(stmt, args).fetchall()]

    def delete_keys(self, keys: Sequence[str]) -> None:
        """Forget keys."""
        if keys:
            self._conn.execute(
                sql.SQL("DELETE FROM {} WHERE namespace = %s AND key = ANY(%s)").format(
                    self._table
                ),
                [self.namespace, list(keys)],
            )

    def count(self) -> int:
        """Return the number of records in this namespace."""
        row = self._conn.execute(
            sql.SQL("SELECT count(*) FROM {} WHERE namespace = %s").format(self._table),
            [self.namespace],
        ).fetchone()
        return int(row[0]) if row else 0

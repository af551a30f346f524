"""A SQLite record manager for LangChain's indexing API (no SQLAlchemy needed).

Implements :class:`langchain_core.indexing.RecordManager`: for every chunk key written to the
stores it remembers the source document (``group_id``) and when it was last seen, which is
how :func:`langchain_core.indexing.index` skips unchanged chunks and deletes stale ones.
The database file lives inside each index build, so it is swapped atomically with it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

from langchain_core.indexing import RecordManager


class SyncRecordManager(RecordManager):
    """A record manager whose async methods run the sync ones (the ingest is synchronous)."""

    def _stamp(
        self,
        keys: Sequence[str],
        group_ids: Sequence[str | None] | None,
        time_at_least: float | None,
    ) -> tuple[Sequence[str | None], float]:
        """Check an ``update``'s arguments; return its group ids and its time."""
        if group_ids is None:
            group_ids = [None] * len(keys)
        if len(group_ids) != len(keys):
            raise ValueError("keys and group_ids must have the same length")
        now = self.get_time()
        if time_at_least is not None and now < time_at_least:
            raise ValueError(f"time went backwards: {now} < {time_at_least}")
        return group_ids, now

    async def acreate_schema(self) -> None:
        """Async variant of :meth:`create_schema`."""
        self.create_schema()

    async def aget_time(self) -> float:
        """Async variant of :meth:`get_time`."""
        return self.get_time()

    async def aupdate(
        self,
        keys: Sequence[str],
        *,
        group_ids: Sequence[str | None] | None = None,
        time_at_least: float | None = None,
    ) -> None:
        """Async variant of :meth:`update`."""
        self.update(keys, group_ids=group_ids, time_at_least=time_at_least)

    async def aexists(self, keys: Sequence[str]) -> list[bool]:
        """Async variant of :meth:`exists`."""
        return self.exists(keys)

    async def alist_keys(
        self,
        *,
        before: float | None = None,
        after: float | None = None,
        group_ids: Sequence[str] | None = None,
        limit: int | None = None,
    ) -> list[str]:
        """Async variant of :meth:`list_keys`."""
        return self.list_keys(before=before, after=after, group_ids=group_ids, limit=limit)

    async def adelete_keys(self, keys: Sequence[str]) -> None:
        """Async variant of :meth:`delete_keys`."""
        self.delete_keys(keys)


class SQLiteRecordManager(SyncRecordManager):
    """Persistent record manager over a single SQLite file."""

    def __init__(self, namespace: str, path: Path | str) -> None:
        """Open (or create) the database.

        Args:
            namespace: Namespace isolating this index's records.
            path: SQLite file path.
        """
        super().__init__(namespace)
        self.path = str(path)
        self._conn = sqlite3.connect(self.path, check_same_thread=False)
        self._last_time = 0.0

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    def create_schema(self) -> None:
        """Create the records table if missing."""
        with self._conn:
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS records (namespace TEXT NOT NULL, key TEXT NOT NULL,"
                " group_id TEXT, updated_at REAL NOT NULL, PRIMARY KEY (namespace, key))"
            )
            self._conn.execute(
                "CREATE INDEX IF NOT EXISTS records_group ON records (namespace, group_id)"
            )

    def get_time(self) -> float:
        """Return a strictly increasing timestamp (seconds)."""
        now = max(time.time(), self._last_time + 1e-6)
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
        with self._conn:
            self._conn.executemany(
                "INSERT INTO records (namespace, key, group_id, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(namespace, key) DO UPDATE SET group_id=excluded.group_id,"
                " updated_at=excluded.updated_at",
                [(self.namespace, k, g, now) for k, g in zip(keys, group_ids, strict=True)],
            )

    def exists(self, keys: Sequence[str]) -> list[bool]:
        """Return for each key whether it is recorded."""
        found: set[str] = set()
        for i in range(0, len(keys), 500):
            part = list(keys[i : i + 500])
            marks = ",".join("?" * len(part))
            rows = self._conn.execute(
                f"SELECT key FROM records WHERE namespace=? AND key IN ({marks})",
                [self.namespace, *part],
            )
            found.update(r[0] for r in rows)
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
        sql = "SELECT key FROM records WHERE namespace=?"
        args: list[object] = [self.namespace]
        if before is not None:
            sql += " AND updated_at < ?"
            args.append(before)
        if after is not None:
            sql += " AND updated_at > ?"
            args.append(after)
        if group_ids is not None:
            sql += f" AND group_id IN ({','.join('?' * len(group_ids))})"
            args.extend(group_ids)
        sql += " ORDER BY key"
        if limit:
            sql += " LIMIT ?"
            args.append(limit)
        return [r[0] for r in self._conn.execute(sql, args)]

    def delete_keys(self, keys: Sequence[str]) -> None:
        """Forget keys."""
        with self._conn:
            self._conn.executemany(
                "DELETE FROM records WHERE namespace=? AND key=?",
                [(self.namespace, k) for k in keys],
            )

    def count(self) -> int:
        """Return the number of records in this namespace."""
        row = self._conn.execute(
            "SELECT COUNT(*) FROM records WHERE namespace=?", [self.namespace]
        ).fetchone()
        return int(row[0])

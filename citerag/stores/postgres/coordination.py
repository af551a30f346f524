"""The job coordination of the processes serving one PostgreSQL store (on any machines).

* **the job lock** is ``pg_try_advisory_lock`` on the server's job key, on a connection kept
  open; a process that dies (or loses its connection) releases it with its session;
* **published builds** are read from ``<ns>_meta`` (the build id row) on that connection;
* **wake-ups**: accepting an upload or a delete, and publishing a build, send a ``NOTIFY`` on
  the store's channel; :meth:`PostgresCoordination.listen` ``LISTEN`` s on a connection of
  its own and wakes the worker at once, so a change normally reaches every process within
  the time of a reload. Polling every watch interval stays as the bound when a notification
  is lost (a dropped connection) or never sent (``citerag ingest`` publishes without one).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from citerag.stores.postgres.db import StoreURL
from citerag.stores.postgres.registry import advisory_key, channel

log = logging.getLogger(__name__)


class PostgresCoordination:
    """:class:`~citerag.stores.backend.Coordination` through one PostgreSQL store."""

    listens = True
    #: A failed worker cycle may have broken the session: the worker releases the lock, and
    #: takes it again next cycle.
    lock_survives_errors = False

    def __init__(self, url: StoreURL) -> None:
        """Describe it (the connection opens on first use).

        Args:
            url: The store.
        """
        self.url = url
        self._conn: Any = None
        self._held = False

    def _connection(self) -> Any:
        if self._conn is None or self._conn.closed:
            import psycopg

            self._held = False  # a new session holds no lock
            self._conn = psycopg.connect(self.url.conninfo, autocommit=True)
        return self._conn

    def try_lock(self) -> bool:
        """``pg_try_advisory_lock`` on the job key, on the kept connection."""
        key = advisory_key(self.url, "jobs")
        row = self._connection().execute("SELECT pg_try_advisory_lock(%s)", [key]).fetchone()
        self._held = bool(row and row[0])
        return self._held

    def holds_lock(self) -> bool:
        """Whether the lock is held (its session's connection still open)."""
        return self._held and self._conn is not None and not self._conn.closed

    def release(self) -> None:
        """Unlock, then close the connection.

        The unlock is explicit: ending a session releases its locks only once the server's
        backend has seen the connection close, which happens after ``close()`` returns, so
        another process trying the lock at once could still find it held. Closing stays the
        fallback (a broken connection's session ends with it).
        """
        conn, held, self._conn, self._held = self._conn, self._held, None, False
        if conn is None:
            return
        if held and not conn.closed:
            try:
                conn.execute("SELECT pg_advisory_unlock(%s)", [advisory_key(self.url, "jobs")])
            except Exception:
                log.debug("unlocking the job lock failed; closing ends it", exc_info=True)
        try:
            conn.close()
        except Exception:
            log.debug("closing the job connection failed", exc_info=True)

    def published_build(self) -> str | None:
        """The store's published build id, read on the kept connection (the short
        ``build_id`` meta row; the manifest's field for a store written before it existed)."""
        from citerag.stores.postgres.db import read_meta
        from citerag.stores.postgres.index import BUILD_ID_KEY, MANIFEST_KEY

        conn = self._connection()
        raw = read_meta(conn, self.url, BUILD_ID_KEY)
        if raw is None:  # an older store: only the manifest row holds it
            manifest = read_meta(conn, self.url, MANIFEST_KEY)
            raw = manifest.get("build_id") if isinstance(manifest, dict) else None
        return str(raw) if raw else None

    def listen(self, wake: Callable[[], None], stopping: threading.Event, interval: float) -> None:
        """Turn the store channel's notifications into wake-ups (reconnects on errors)."""
        import psycopg
        from psycopg import sql

        while not stopping.is_set():
            try:
                with psycopg.connect(self.url.conninfo, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(channel(self.url)))
                    wake()  # anything missed while disconnected
                    while not stopping.is_set():
                        for _ in conn.notifies(timeout=1.0, stop_after=1):
                            wake()
            except Exception:
                log.debug("notification listener: reconnecting", exc_info=True)
                stopping.wait(interval)

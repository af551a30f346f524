"""One SQLite file a server store opens on first use (feedback, conversations).

The file is not created until something is written: a server whose page is never used
writes nothing beside its index. The connection is shared by the server's threads
(``check_same_thread=False``); callers serialise their use with their own lock.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path


class LazySqlite:
    """A SQLite connection opened, and its schema created, on first use."""

    def __init__(self, path: Path, schema: Sequence[str]) -> None:
        """Remember where the file is and how to create its tables.

        Args:
            path: The SQLite file (its folder is created on first write).
            schema: Statements run once when the connection opens (``CREATE … IF NOT
                EXISTS``).
        """
        self.path = path
        self._schema = tuple(schema)
        self._conn: sqlite3.Connection | None = None

    def get(self, *, create: bool) -> sqlite3.Connection | None:
        """The connection; ``None`` while the file does not exist and ``create`` is false."""
        if self._conn is None:
            if not create and not self.path.exists():
                return None
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(self.path), check_same_thread=False)
            with self._conn:
                for statement in self._schema:
                    self._conn.execute(statement)
        return self._conn

    def close(self) -> None:
        """Close the connection (a later :meth:`get` opens it again)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

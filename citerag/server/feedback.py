"""Answer feedback: thumbs up or down and an optional comment, kept with the run's trace id.

One row per vote, in the store the server's index lives in (:func:`open_feedback_store`):
SQLite (``<data_dir>/feedback.sqlite3``, :class:`SqliteFeedbackStore`) beside an index
directory, the table ``<namespace>_feedback`` (:class:`PgFeedbackStore`) on a PostgreSQL
store, so every serving process of that store shares the votes. Both have the interface of
:class:`FeedbackStore`. The export (:meth:`FeedbackStore.export_questions`) writes the
evaluation question format (:mod:`citerag.eval.questions`) that ``citerag eval`` reads:
every answer voted down becomes a question to review and label, its cited documents as
the evidence to check (``needs_review: true`` until a person has fixed the evidence).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citerag.server.sqlite_file import LazySqlite
from citerag.stores.postgres.registry import advisory_key
from citerag.stores.registry import now_iso

log = logging.getLogger(__name__)

FEEDBACK_FILE = "feedback.sqlite3"
MAX_COMMENT_CHARS = 2000
RATINGS = ("up", "down")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    trace_id TEXT NOT NULL,
    user TEXT NOT NULL,
    rating TEXT NOT NULL,
    comment TEXT NOT NULL DEFAULT '',
    question TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT '',
    answer TEXT NOT NULL DEFAULT '',
    citations TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    UNIQUE (trace_id, user)
)
"""


@dataclass(frozen=True)
class Feedback:
    """One vote on one answer.

    Attributes:
        trace_id: The run's trace id (``trace.trace_id`` of the answer).
        user: Who voted (from their token).
        rating: ``up`` or ``down``.
        comment: Optional free text.
        question: The question as asked.
        status: The answer's status (``answered``, ``no_evidence``, ``failed``).
        answer: The answer's text.
        citations: The answer's citations (``doc_name``, ``page``, ``quote`` are exported).
    """

    trace_id: str
    user: str
    rating: str
    comment: str
    question: str
    status: str = ""
    answer: str = ""
    citations: tuple[dict[str, Any], ...] = ()

    def __post_init__(self) -> None:
        """Check the fields."""
        if self.rating not in RATINGS:
            raise ValueError(f"rating must be one of {RATINGS}, not {self.rating!r}")
        if not self.trace_id or len(self.trace_id) > 128:
            raise ValueError(f"trace_id must be 1-128 characters, not {self.trace_id!r}")
        if not self.question.strip():
            raise ValueError("question must not be empty")
        if len(self.comment) > MAX_COMMENT_CHARS:
            raise ValueError(f"comment longer than {MAX_COMMENT_CHARS} characters")


class FeedbackStore(ABC):
    """Where votes are kept (thread-safe; a later vote of a user on a run replaces theirs)."""

    @abstractmethod
    def add(self, fb: Feedback) -> None:
        """Store a vote (replacing the same user's earlier vote on the same run)."""

    @abstractmethod
    def rows(self, rating: str | None = None) -> list[dict[str, Any]]:
        """Every vote (or those with one rating), oldest first: ``trace_id``, ``user``,
        ``rating``, ``comment``, ``question``, ``status``, ``answer``, ``citations`` (a
        list) and ``created_at``."""

    @abstractmethod
    def counts(self) -> dict[str, int]:
        """Votes per rating (every rating of :data:`RATINGS`)."""

    @abstractmethod
    def close(self) -> None:
        """Release the database."""

    def export_questions(self, rating: str = "down") -> tuple[str, int]:
        """The votes with ``rating`` as an evaluation question file (JSON Lines).

        An answer is exported with its cited documents (and pages) as the evidence to
        check; every line carries ``needs_review``, the comment and the trace id in
        ``feedback``. A vote on an answer without citations (a refusal, a failure) cannot
        name its evidence, so it is left out and counted (see :meth:`rows` for all).

        Returns:
            The file's text and how many votes were left out.
        """
        return export_questions(self.rows(rating))


class SqliteFeedbackStore(FeedbackStore):
    """Votes in one SQLite file (beside an index directory)."""

    def __init__(self, path: Path) -> None:
        """Open (or create) the store.

        Args:
            path: The SQLite file (its folder is created).
        """
        self.path = path
        self._lock = threading.Lock()
        self._sqlite = LazySqlite(path, [_SCHEMA])

    def _db(self, *, create: bool) -> sqlite3.Connection | None:
        """The connection (``None`` before the first vote: see :class:`LazySqlite`)."""
        return self._sqlite.get(create=create)

    def add(self, fb: Feedback) -> None:
        """Store a vote (replacing the same user's earlier vote on the same run)."""
        values = (
            fb.trace_id,
            fb.user,
            fb.rating,
            fb.comment,
            fb.question,
            fb.status,
            fb.answer,
            json.dumps(list(fb.citations)),
            now_iso(),
        )
        with self._lock:
            db = self._db(create=True)
            assert db is not None
            with db:
                db.execute(
                    "INSERT OR REPLACE INTO feedback (trace_id, user, rating, comment, "
                    "question, status, answer, citations, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    values,
                )

    def rows(self, rating: str | None = None) -> list[dict[str, Any]]:
        """Every vote (or those with one rating), oldest first."""
        query = (
            "SELECT trace_id, user, rating, comment, question, status, answer, citations, "
            "created_at FROM feedback"
        )
        args: tuple[str, ...] = ()
        if rating:
            query += " WHERE rating = ?"
            args = (rating,)
        with self._lock:
            db = self._db(create=False)
            if db is None:
                return []
            cur = db.execute(query + " ORDER BY id", args)
            names = [d[0] for d in cur.description]
            out = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        for row in out:
            row["citations"] = json.loads(row["citations"])
        return out

    def counts(self) -> dict[str, int]:
        """Votes per rating."""
        with self._lock:
            db = self._db(create=False)
            rows = db.execute("SELECT rating, COUNT(*) FROM feedback GROUP BY rating") if db else []
            got = dict(rows)
        return {r: int(got.get(r, 0)) for r in RATINGS}

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._sqlite.close()


class PgFeedbackStore(FeedbackStore):
    """Votes in the table ``<namespace>_feedback`` of a PostgreSQL store (shared by every
    serving process of that store)."""

    def __init__(self, store_url: str, *, pool_size: int = 2) -> None:
        """Connect and create the table if missing.

        Args:
            store_url: The PostgreSQL store URL (its namespace prefixes the table).
            pool_size: Most pooled connections.

        Raises:
            ValueError: Not a PostgreSQL store URL.
            psycopg.OperationalError: The database cannot be reached.
        """
        from psycopg import sql
        from psycopg_pool import ConnectionPool

        from citerag.stores.postgres.db import StoreURL

        if pool_size < 1:
            raise ValueError(f"pool_size must be at least 1, not {pool_size}")
        self.url = StoreURL.parse(store_url)
        self.table = self.url.table("feedback")
        self._pool = ConnectionPool(
            self.url.conninfo,
            min_size=1,
            max_size=pool_size,
            open=True,
            name=f"citerag-feedback-{self.url.namespace}",
        )
        with self._pool.connection() as conn:
            # Two processes starting at once must not both run CREATE TABLE IF NOT EXISTS.
            conn.execute(
                "SELECT pg_advisory_xact_lock(%s)", [advisory_key(self.url, "feedback-schema")]
            )
            conn.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {t} ("
                    "id BIGSERIAL PRIMARY KEY, trace_id TEXT NOT NULL, "
                    '"user" TEXT NOT NULL, rating TEXT NOT NULL, '
                    "comment TEXT NOT NULL DEFAULT '', question TEXT NOT NULL, "
                    "status TEXT NOT NULL DEFAULT '', answer TEXT NOT NULL DEFAULT '', "
                    "citations JSONB NOT NULL DEFAULT '[]', created_at TEXT NOT NULL, "
                    'UNIQUE (trace_id, "user"))'
                ).format(t=self.table)
            )

    def add(self, fb: Feedback) -> None:
        """Store a vote (replacing the same user's earlier vote on the same run; the
        replaced vote moves to the end, as in SQLite)."""
        from psycopg import sql
        from psycopg.types.json import Jsonb

        values = (
            fb.trace_id,
            fb.user,
            fb.rating,
            fb.comment,
            fb.question,
            fb.status,
            fb.answer,
            Jsonb(list(fb.citations)),
            now_iso(),
        )
        with self._pool.connection() as conn:
            conn.execute(
                sql.SQL('DELETE FROM {t} WHERE trace_id = %s AND "user" = %s').format(t=self.table),
                [fb.trace_id, fb.user],
            )
            conn.execute(
                sql.SQL(
                    'INSERT INTO {t} (trace_id, "user", rating, comment, question, status, '
                    "answer, citations, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
                    'ON CONFLICT (trace_id, "user") DO UPDATE SET rating = EXCLUDED.rating, '
                    "comment = EXCLUDED.comment, question = EXCLUDED.question, "
                    "status = EXCLUDED.status, answer = EXCLUDED.answer, "
                    "citations = EXCLUDED.citations, created_at = EXCLUDED.created_at"
                ).format(t=self.table),
                values,
            )

    def rows(self, rating: str | None = None) -> list[dict[str, Any]]:
        """Every vote (or those with one rating), oldest first."""
        from psycopg import sql

        query = sql.SQL(
            'SELECT trace_id, "user", rating, comment, question, status, answer, citations, '
            "created_at FROM {t}"
        ).format(t=self.table)
        args: list[str] = []
        if rating:
            query += sql.SQL(" WHERE rating = %s")
            args = [rating]
        with self._pool.connection() as conn:
            cur = conn.execute(query + sql.SQL(" ORDER BY id"), args)
            names = [d.name for d in cur.description or ()]
            return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def counts(self) -> dict[str, int]:
        """Votes per rating."""
        from psycopg import sql

        with self._pool.connection() as conn:
            got: dict[str, int] = dict(
                conn.execute(
                    sql.SQL("SELECT rating, COUNT(*) FROM {t} GROUP BY rating").format(t=self.table)
                ).fetchall()
            )
        return {r: int(got.get(r, 0)) for r in RATINGS}

    def close(self) -> None:
        """Close the connection pool."""
        self._pool.close()


def open_feedback_store(data_dir: Path, store_url: str | None = None) -> FeedbackStore:
    """The feedback store for a server's index location: the store's table on PostgreSQL,
    else ``<data_dir>/feedback.sqlite3``."""
    if store_url is not None:
        return PgFeedbackStore(store_url)
    return SqliteFeedbackStore(data_dir / FEEDBACK_FILE)


def export_questions(rows: list[dict[str, Any]]) -> tuple[str, int]:
    """Votes (as :meth:`FeedbackStore.rows` gives them) as an evaluation question file.

    Returns:
        The JSON Lines text and how many votes were left out (no citations to name).
    """
    lines = []
    skipped = 0
    for n, row in enumerate(rows, start=1):
        evidence = []
        for c in row["citations"]:
            doc = c.get("doc_name") or c.get("doc_id")
            if not doc:
                continue
            item: dict[str, Any] = {"doc": doc}
            if isinstance(c.get("page"), int) and c["page"] >= 1:
                item["page"] = c["page"]
            evidence.append(item)
        q: dict[str, Any] = {
            "id": f"feedback-{n:04d}-{row['trace_id'][:8]}",
            "question": row["question"],
            "needs_review": True,
            "feedback": {
                "rating": row["rating"],
                "comment": row["comment"],
                "trace_id": row["trace_id"],
                "status": row["status"],
                "user": row["user"],
                "at": row["created_at"],
            },
        }
        if not evidence:
            skipped += 1
            continue
        q["evidence"] = evidence
        lines.append(json.dumps(q, ensure_ascii=False))
    return "".join(line + "\n" for line in lines), skipped

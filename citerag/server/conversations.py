"""The web app's conversations, kept per user on the server (SQLite).

Each signed-in user has one current conversation: the turns the page shows (question,
status, answer, reason, the rewritten question, citations, trace id), oldest first. The
page restores it after a reload or on another device and sends it back as the graph's
``chat_history`` for follow-ups; **New conversation** clears it. Stored in
``<data_dir>/conversations.sqlite3``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from citerag.server.sqlite_file import LazySqlite
from citerag.stores.registry import now_iso

CONVERSATIONS_FILE = "conversations.sqlite3"
#: Turns kept per user (older ones are dropped as new ones arrive).
MAX_TURNS = 20

_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user TEXT NOT NULL,
    question TEXT NOT NULL,
    status TEXT NOT NULL,
    answer TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    standalone TEXT NOT NULL DEFAULT '',
    trace_id TEXT NOT NULL DEFAULT '',
    citations TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class Turn:
    """One question and its answer.

    Attributes:
        question: As asked.
        status: ``answered``, ``no_evidence`` or ``failed``.
        answer: The answer's text ('' for a refusal).
        reason: Why it was refused or failed.
        standalone: The rewritten question retrieval used ('' when not rewritten).
        trace_id: The run's trace id.
        citations: The answer's citations.
    """

    question: str
    status: str
    answer: str = ""
    reason: str = ""
    standalone: str = ""
    trace_id: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Check the fields."""
        if not self.question.strip():
            raise ValueError("question must not be empty")
        if self.status not in ("answered", "no_evidence", "failed"):
            raise ValueError(f"status must be answered, no_evidence or failed, not {self.status!r}")


class ConversationStore:
    """Each user's current conversation in one SQLite file (thread-safe)."""

    def __init__(self, path: Path, max_turns: int = MAX_TURNS) -> None:
        """Open (or create) the store.

        Args:
            path: The SQLite file (its folder is created).
            max_turns: Turns kept per user.

        Raises:
            ValueError: ``max_turns`` is below 1.
        """
        if max_turns < 1:
            raise ValueError(f"max_turns must be >= 1, not {max_turns}")
        self.path = path
        self.max_turns = max_turns
        self._lock = threading.Lock()
        self._sqlite = LazySqlite(
            path, [_SCHEMA, "CREATE INDEX IF NOT EXISTS turns_user ON turns (user, id)"]
        )

    def _db(self, *, create: bool) -> sqlite3.Connection | None:
        """The connection (``None`` before the first write: see :class:`LazySqlite`)."""
        return self._sqlite.get(create=create)

    def add(self, user: str, turn: Turn) -> None:
        """Append a turn to the user's conversation (dropping the oldest beyond the cap)."""
        row = asdict(turn)
        values = (
            user,
            row["question"],
            row["status"],
            row["answer"],
            row["reason"],
            row["standalone"],
            row["trace_id"],
            json.dumps(row["citations"]),
            now_iso(),
        )
        with self._lock:
            db = self._db(create=True)
            assert db is not None
            with db:
                db.execute(
                    "INSERT INTO turns (user, question, status, answer, reason, standalone, "
                    "trace_id, citations, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    values,
                )
                db.execute(
                    "DELETE FROM turns WHERE user = ? AND id NOT IN "
                    "(SELECT id FROM turns WHERE user = ? ORDER BY id DESC LIMIT ?)",
                    (user, user, self.max_turns),
                )

    def turns(self, user: str) -> list[dict[str, Any]]:
        """The user's conversation, oldest first."""
        with self._lock:
            db = self._db(create=False)
            if db is None:
                return []
            cur = db.execute(
                "SELECT question, status, answer, reason, standalone, trace_id, citations, "
                "created_at FROM turns WHERE user = ? ORDER BY id",
                (user,),
            )
            names = [d[0] for d in cur.description]
            out = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        for row in out:
            row["citations"] = json.loads(row["citations"])
        return out

    def clear(self, user: str) -> int:
        """Forget the user's conversation; return how many turns were dropped."""
        with self._lock:
            db = self._db(create=False)
            if db is None:
                return 0
            with db:
                return db.execute("DELETE FROM turns WHERE user = ?", (user,)).rowcount

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._sqlite.close()

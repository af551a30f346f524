"""Uploaded documents and their status.

Each upload gets a generated id (32 hex digits) and is indexed under the source key
``uploads/<id>/<safe name>``. The status is ``pending`` (waiting for or being indexed),
``indexed``, ``failed`` (with a reason) or ``deleting``; ``chunks`` is what the index
manifest counted after the build, never a client's figure.

Implementations with one interface, chosen from the settings (:func:`open_registry`):

* :class:`DocumentRegistry`: ``<data_dir>/documents.json``, rewritten atomically on every
  change, and the files at ``<data_dir>/uploads/<id>/<safe name>``, owned by one process (the
  base of the two below). A restart keeps every status (pending work is resumed).
* :class:`SharedDocumentRegistry` (what a writing server on an index directory uses, with one
  worker process or several): the same file and folders, under a file lock, so any number of
  processes share them; the pending and deleting records are the job queue (see
  :class:`~citerag.server.worker.SharedDirectoryWorker`).
* :class:`ReadOnlyRegistry` (``--read-only``): the same file, only read.
* :class:`PgDocumentRegistry` (PostgreSQL store): the tables ``<ns>_documents`` (one row per
  upload, the same fields) and ``<ns>_uploads`` (its bytes), next to the index's tables, so
  any serving process, on any machine, can accept an upload, report a status or queue a
  delete, and whichever process is the writer reads the bytes from the database. The
  pending and deleting rows *are* the job queue (see
  :class:`~citerag.server.worker.SharedIndexWorker`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from citerag.server.auth import Identity
from loaders.chunking import doc_id_for

log = logging.getLogger(__name__)

DOCUMENTS_FILE = "documents.json"
UPLOADS_DIR = "uploads"
INCOMING_DIR = ".incoming"
ID_RE = re.compile(r"^[0-9a-f]{32}$")
STATUSES = ("pending", "indexed", "failed", "deleting")


class PendingLimitError(Exception):
    """An upload refused because ``max_pending`` uploads already wait for indexing (the
    server answers 503 with ``Retry-After``)."""

    def __init__(self, max_pending: int) -> None:
        """Record the limit that was reached."""
        super().__init__(f"{max_pending} uploads are already waiting to be indexed")
        self.max_pending = max_pending


def now_iso() -> str:
    """Current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class DocumentRecord:
    """One uploaded document.

    Attributes:
        id: Generated document id (what the API takes).
        name: Cleaned original file name (shown in citations).
        file: Path of the stored file relative to the data directory.
        source: Source key in the index (``uploads/<id>/<safe name>``).
        index_doc_id: The index's document id for that source key.
        access: Access label (``public`` or a group the uploader holds).
        status: ``pending``, ``indexed``, ``failed`` or ``deleting``.
        reason: Why it failed ('' otherwise).
        chunks: Chunks the index holds for it, counted by the build (``None`` until indexed).
        pages: Pages parsed (PDFs).
        size_bytes: Size of the uploaded file.
        sha256: Hex digest of the uploaded bytes.
        uploaded_by: User name from the uploader's token.
        created_at: When the upload was accepted.
        updated_at: When the status last changed.
        build_id: The index build that settled the status.
    """

    id: str
    name: str
    file: str
    source: str
    index_doc_id: str
    access: str
    status: str
    reason: str = ""
    chunks: int | None = None
    pages: int | None = None
    size_bytes: int = 0
    sha256: str = ""
    uploaded_by: str = ""
    created_at: str = ""
    updated_at: str = ""
    build_id: str = ""

    def public(self) -> dict[str, Any]:
        """The JSON the API returns (no server paths)."""
        out = asdict(self)
        out.pop("file")
        out.pop("index_doc_id")
        return out


def make_record(
    doc_id: str, name: str, stored: str, access: str, size: int, sha256: str, user: str
) -> DocumentRecord:
    """A new ``pending`` record for a stored upload."""
    rel = f"{UPLOADS_DIR}/{doc_id}/{stored}"
    now = now_iso()
    return DocumentRecord(
        id=doc_id,
        name=name,
        file=rel,
        source=rel,
        index_doc_id=doc_id_for(rel),
        access=access,
        status="pending",
        size_bytes=size,
        sha256=sha256,
        uploaded_by=user,
        created_at=now,
        updated_at=now,
    )


class DocumentRegistry:
    """Thread-safe store of :class:`DocumentRecord` s backed by a JSON file."""

    #: Whether several processes share this registry (``False``: this process owns it).
    shared = False

    def __init__(self, data_dir: Path) -> None:
        """Open (or create) the registry.

        Args:
            data_dir: The server's data directory.

        Raises:
            ValueError: ``documents.json`` exists but cannot be read (it is not
                overwritten: fix or move it).
        """
        self.data_dir = data_dir
        self.uploads = data_dir / UPLOADS_DIR
        self.incoming = self.uploads / INCOMING_DIR
        self.path = data_dir / DOCUMENTS_FILE
        self._lock = threading.RLock()
        self._docs: dict[str, DocumentRecord] = {}
        self._prepare()
        if self.path.exists():
            self._docs = self._read()

    def _prepare(self) -> None:
        """Create the uploads folder and clear half-received uploads."""
        self.uploads.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.incoming, ignore_errors=True)  # half-received uploads

    def _read(self) -> dict[str, DocumentRecord]:
        try:
            return self._load(json.loads(self.path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            raise ValueError(f"{self.path}: cannot read the document registry: {exc}") from exc

    def _load(self, raw: Any) -> dict[str, DocumentRecord]:
        """The records of a parsed ``documents.json``."""
        names = {f.name for f in fields(DocumentRecord)}
        docs = {}
        for item in raw.get("documents", []):
            rec = DocumentRecord(**{k: v for k, v in item.items() if k in names})
            if not ID_RE.match(rec.id) or rec.status not in STATUSES:
                raise ValueError(f"bad record {rec.id!r} ({rec.status!r})")
            docs[rec.id] = rec
        return docs

    def _payload(self) -> dict[str, Any]:
        return {"format": 1, "documents": [asdict(r) for r in self._docs.values()]}

    def _write(self) -> None:
        data = self._payload()
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    def add(self, rec: DocumentRecord) -> None:
        """Add a record and persist."""
        with self._lock:
            self._docs[rec.id] = rec
            self._write()

    def add_upload(
        self, rec: DocumentRecord, received: Path, *, max_pending: int | None = None
    ) -> None:
        """Keep a received file as the record's stored file, then add the record.

        Args:
            rec: The new ``pending`` record (:func:`make_record`).
            received: The temporary file (moved into ``uploads/<id>/``).
            max_pending: Refuse when this many records are already ``pending`` (counted and
                added under one lock, so concurrent uploads cannot pass it together).

        Raises:
            PendingLimitError: ``max_pending`` reached (``received`` is left where it is).
        """
        with self._lock:
            if max_pending is not None and self.count("pending") >= max_pending:
                raise PendingLimitError(max_pending)
            target = self.data_dir / rec.file
            target.parent.mkdir(parents=True)
            os.replace(received, target)
            self.add(rec)

    def request_delete(self, doc_id: str) -> DocumentRecord | None:
        """Mark a record ``deleting`` (the writer removes it from the index, then forgets it).

        Returns:
            A copy of the record, or ``None`` if there is no such record.
        """
        with self._lock:
            rec = self.get(doc_id)
            if rec is None or rec.status == "deleting":
                return rec
            return self.update(doc_id, status="deleting", reason="")

    def get(self, doc_id: str) -> DocumentRecord | None:
        """A copy of one record, or ``None``."""
        with self._lock:
            rec = self._docs.get(doc_id)
            return None if rec is None else DocumentRecord(**asdict(rec))

    def all(self) -> list[DocumentRecord]:
        """Copies of every record, oldest first."""
        with self._lock:
            recs = [DocumentRecord(**asdict(r)) for r in self._docs.values()]
        return sorted(recs, key=lambda r: (r.created_at, r.id))

    def update(
        self, doc_id: str, *, only_if: Iterable[str] | None = None, **changes: Any
    ) -> DocumentRecord | None:
        """Change fields of a record, stamp ``updated_at`` and persist.

        Args:
            doc_id: The record.
            only_if: Change it only while its status is one of these (checked atomically).
            **changes: Field values.

        Returns:
            A copy of the updated record, or ``None`` if there is no such record (or its
            status is not in ``only_if``).
        """
        with self._lock:
            rec = self._docs.get(doc_id)
            if rec is None or (only_if is not None and rec.status not in tuple(only_if)):
                return None
            for key, value in changes.items():
                setattr(rec, key, value)
            rec.updated_at = now_iso()
            self._write()
            return DocumentRecord(**asdict(rec))

    def remove(self, doc_id: str) -> None:
        """Delete a record's stored file, then forget the record (so "gone" means both)."""
        if ID_RE.match(doc_id):
            shutil.rmtree(self.uploads / doc_id, ignore_errors=True)
        with self._lock:
            self._docs.pop(doc_id, None)
            self._write()

    def count(self, status: str) -> int:
        """How many records have this status."""
        with self._lock:
            return sum(r.status == status for r in self._docs.values())

    def file_path(self, rec: DocumentRecord) -> Path:
        """Absolute path of a record's stored file."""
        return (self.data_dir / rec.file).resolve()

    def close(self) -> None:
        """Nothing to release (every change is already on disk)."""


class ReadOnlyRegistry(DocumentRegistry):
    """``documents.json`` as a read-only server sees it: read once, never written.

    A read-only server (``read_only = true``; several processes may serve one index
    directory) takes no uploads or deletes, so it neither creates folders nor clears the
    ``incoming`` folder a writing server on the same ``data_dir`` may be using. It lists
    whatever an earlier writing server recorded, as of its start.
    """

    def _prepare(self) -> None:
        """Nothing: ``documents.json`` is only read (if it exists), nothing is created."""

    def _write(self) -> None:
        raise RuntimeError("this server is read-only: the document registry is not written")


class SharedDocumentRegistry(DocumentRegistry):
    """``documents.json`` shared by several processes serving one index directory.

    ``citerag serve --workers N`` on an index directory: every process accepts uploads and
    deletes, and one of them (whichever holds the job lock, see
    :class:`~citerag.server.worker.SharedDirectoryWorker`) applies them. The file keeps its
    format; what changes is how it is used:

    * **Every change is read, changed and written under an exclusive** ``flock`` on
      ``documents.lock`` beside it (and this process's own thread lock), so a change by
      one process is never lost under another's; every read re-reads the file when it was
      written by another process since this one last read it, so all processes see one
      registry. "Written since" is a generation number in ``documents.lock`` itself
      (8 bytes, bumped under the lock by every write), not the file's inode or mtime,
      which can repeat: an inode is reused by the next atomic write but one, and a
      kernel before 6.13 stamps mtime once per clock tick.
    * The pending and deleting records *are* the job queue, as with PostgreSQL; the file
      also keeps, per record, ``version`` (bumped by every change), ``attempts`` and
      ``claimed_by`` under ``"jobs"`` (older readers ignore the key).
    * Each process receives uploads into a folder of its own (``uploads/.incoming-<pid>-*``);
      at start, folders of processes that no longer run are removed, never a live one's.
      The stored files are shared (one data directory on one machine).
    """

    shared = True
    LOCK_FILE = "documents.lock"

    def __init__(self, data_dir: Path) -> None:
        """Open (or create) the shared registry.

        Args:
            data_dir: The data directory every serving process of the index shares.

        Raises:
            ValueError: ``documents.json`` exists but cannot be read.
        """
        self._jobs: dict[str, dict[str, Any]] = {}
        self._seen: tuple[int, int, int] | None = None
        self._generation: int | None = None
        self._depth = 0
        data_dir.mkdir(parents=True, exist_ok=True)
        self._lock_fd = os.open(data_dir / self.LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        super().__init__(data_dir)

    def _prepare(self) -> None:
        """Create the uploads folder and this process's incoming folder; clear dead ones'."""
        self.uploads.mkdir(parents=True, exist_ok=True)
        with self._locked():
            shutil.rmtree(self.uploads / INCOMING_DIR, ignore_errors=True)  # one process's
            for folder in self.uploads.glob(f"{INCOMING_DIR}-*"):
                pid = folder.name.split("-")[1] if folder.name.count("-") >= 2 else ""
                if pid.isdigit() and not _alive(int(pid)):
                    shutil.rmtree(folder, ignore_errors=True)
        self.incoming = Path(
            tempfile.mkdtemp(prefix=f"{INCOMING_DIR}-{os.getpid()}-", dir=self.uploads)
        )

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """This process's thread lock, then the file lock shared with the other processes.

        Re-entrant: a nested call (one method calling another) keeps the file lock until the
        outermost call ends.
        """
        with self._lock:
            if self._lock_fd < 0:
                raise RuntimeError(f"{self.path}: the shared registry is closed")
            outer = self._depth == 0
            if outer:
                fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
            self._depth += 1
            try:
                if outer:
                    self._sync()
                yield
            finally:
                self._depth -= 1
                if outer:
                    fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _read_generation(self) -> int:
        raw = os.pread(self._lock_fd, 8, 0)
        return int.from_bytes(raw, "little") if len(raw) == 8 else 0

    def _sync(self) -> None:
        """Re-read the file if another process wrote it since this one last read it (its
        generation moved, or the file itself changed: one written by something else)."""
        generation = self._read_generation()
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._generation = generation
            return
        seen = (st.st_ino, st.st_mtime_ns, st.st_size)
        if seen != self._seen or generation != self._generation:
            self._docs = self._read()
            self._seen, self._generation = seen, generation

    def _load(self, raw: Any) -> dict[str, DocumentRecord]:
        docs = super()._load(raw)
        jobs = raw.get("jobs") or {}
        if not isinstance(jobs, dict):
            jobs = {}
        self._jobs = {k: dict(v) for k, v in jobs.items() if k in docs and isinstance(v, dict)}
        return docs

    def _payload(self) -> dict[str, Any]:
        self._jobs = {k: v for k, v in self._jobs.items() if k in self._docs}
        return {**super()._payload(), "jobs": self._jobs}

    def _write(self) -> None:
        try:
            super()._write()
        except BaseException:
            self._seen = self._generation = None  # memory may be ahead of disk: re-read
            raise
        generation = self._read_generation() + 1
        os.pwrite(self._lock_fd, generation.to_bytes(8, "little"), 0)
        st = self.path.stat()
        self._seen, self._generation = (st.st_ino, st.st_mtime_ns, st.st_size), generation

    def _bump(self, doc_id: str) -> None:
        job = self._jobs.setdefault(doc_id, {"version": 0, "attempts": 0, "claimed_by": ""})
        job["version"] = int(job.get("version", 0)) + 1

    # -- the interface, each call under the locks ------------------------------------------

    def add(self, rec: DocumentRecord) -> None:
        """Add a record and persist."""
        with self._locked():
            self._docs[rec.id] = rec
            self._bump(rec.id)
            self._write()

    def add_upload(
        self, rec: DocumentRecord, received: Path, *, max_pending: int | None = None
    ) -> None:
        """Keep a received file and add its record; the ``max_pending`` count and the
        addition hold the file lock together (every process's uploads count)."""
        with self._locked():
            super().add_upload(rec, received, max_pending=max_pending)

    def get(self, doc_id: str) -> DocumentRecord | None:
        """A copy of one record as every process sees it now, or ``None``."""
        with self._locked():
            return super().get(doc_id)

    def all(self) -> list[DocumentRecord]:
        """Copies of every record, oldest first."""
        with self._locked():
            return super().all()

    def count(self, status: str) -> int:
        """How many records have this status."""
        with self._locked():
            return super().count(status)

    def update(
        self, doc_id: str, *, only_if: Iterable[str] | None = None, **changes: Any
    ) -> DocumentRecord | None:
        """Change fields of a record (atomically across processes) and persist."""
        with self._locked():
            if doc_id in self._docs and (
                only_if is None or self._docs[doc_id].status in tuple(only_if)
            ):
                self._bump(doc_id)
            return super().update(doc_id, only_if=only_if, **changes)

    def request_delete(self, doc_id: str) -> DocumentRecord | None:
        """Mark a record ``deleting`` (again: a repeated request makes the writer retry)."""
        with self._locked():
            if doc_id not in self._docs:
                return None
            return self.update(doc_id, status="deleting", reason="")

    def remove(self, doc_id: str) -> None:
        """Delete a record's stored file, then forget the record."""
        with self._locked():
            super().remove(doc_id)

    def jobs(self, limit: int) -> list[tuple[DocumentRecord, int]]:
        """The queue: ``pending`` and ``deleting`` records with their versions, oldest change
        first."""
        with self._locked():
            queued = [r for r in self._docs.values() if r.status in ("pending", "deleting")]
            queued.sort(key=lambda r: (r.updated_at, r.id))
            return [
                (DocumentRecord(**asdict(r)), int(self._jobs.get(r.id, {}).get("version", 0)))
                for r in queued[:limit]
            ]

    def versions(self, ids: Iterable[str]) -> dict[str, tuple[str, int]]:
        """Current status and version of these records (missing ones are left out)."""
        with self._locked():
            return {
                i: (self._docs[i].status, int(self._jobs.get(i, {}).get("version", 0)))
                for i in ids
                if i in self._docs
            }

    def claim(self, ids: Iterable[str], by: str) -> None:
        """Record that ``by`` hands these records to an ingest run (``attempts`` + 1)."""
        with self._locked():
            for i in ids:
                if i in self._docs:
                    job = self._jobs.setdefault(i, {"version": 0, "attempts": 0})
                    job["attempts"] = int(job.get("attempts", 0)) + 1
                    job["claimed_by"] = by
            self._write()

    def attempts(self, ids: Iterable[str]) -> dict[str, int]:
        """How many ingest runs each of these records was handed to (missing ones left out)."""
        with self._locked():
            return {
                i: int(self._jobs.get(i, {}).get("attempts", 0)) for i in ids if i in self._docs
            }

    def notify(self) -> None:
        """Nothing to send: the other processes poll (``watch_interval``)."""

    def prune_local(self) -> int:
        """Nothing to prune: the stored files are shared, and ``remove`` deletes them."""
        return 0

    def close(self) -> None:
        """Drop this process's incoming folder and close the lock file (a later call on the
        registry raises instead of locking a closed or reused descriptor)."""
        shutil.rmtree(self.incoming, ignore_errors=True)
        with self._lock:
            fd, self._lock_fd = self._lock_fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)


def _alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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


def open_registry(
    data_dir: Path, store_url: str | None = None, *, read_only: bool = False
) -> DocumentRegistry | PgDocumentRegistry:
    """The registry for a server's settings: in the store when it is PostgreSQL, else the
    JSON file in ``data_dir``: only read, with ``read_only``; otherwise shared under its file
    lock, whether one process writes or several (so a server started by hand on the same
    ``data_dir`` coordinates with the others instead of overwriting their changes)."""
    if store_url is not None:
        return PgDocumentRegistry(store_url, data_dir)
    return ReadOnlyRegistry(data_dir) if read_only else SharedDocumentRegistry(data_dir)


#: Either registry (they share one interface).
Registry = DocumentRegistry | PgDocumentRegistry


def upload_id_of(source: str) -> str | None:
    """The upload id in an index source key ``uploads/<id>/<name>``, or ``None``.

    Documents ingested with ``citerag ingest`` have other source keys (relative to the
    ingest root), so this tells uploads from CLI ingests in a manifest.
    """
    parts = source.split("/")
    if len(parts) >= 3 and parts[0] == UPLOADS_DIR and ID_RE.match(parts[1]):
        return parts[1]
    return None


def served_view(rec: DocumentRecord, served: Mapping[str, Any] | None) -> DocumentRecord:
    """A shared registry's record as the process answering the request serves it.

    With several processes the writer settles ``indexed`` as soon as *it* serves the new
    build; another process loads that build within its watch interval. Until it has, it
    reports such a document ``pending`` (with a reason), so ``indexed`` from any process
    still means "this process answers from it", as with one process.

    Args:
        rec: The record.
        served: The ``documents`` of the manifest this process serves (``None``: none yet).
    """
    if rec.status != "indexed":
        return rec
    held = (served or {}).get(rec.index_doc_id) or {}
    if held.get("status") == "indexed":
        return rec
    return replace(
        rec,
        status="pending",
        reason=f"indexed in build {rec.build_id}; this server has not loaded it yet",
    )


def visible(rec: DocumentRecord, who: Identity) -> bool:
    """Whether a user may see a document (its label is public or one of their groups)."""
    return who.admin or who.can_read(rec.access)


def may_delete(rec: DocumentRecord, who: Identity) -> bool:
    """Whether a user may delete a document (its uploader, or an admin)."""
    return who.admin or (rec.uploaded_by == who.user and who.can_read(rec.access))


def find_duplicate(
    records: Iterable[DocumentRecord], sha256: str, who: Identity
) -> DocumentRecord | None:
    """The document the caller can see with these exact bytes, if any.

    Args:
        records: The registry's records.
        sha256: Hex digest of the new upload.
        who: The uploader (a document they may not see is never revealed as a duplicate).

    Returns:
        The oldest visible record with that digest that is not ``failed`` or ``deleting``.
    """
    if not sha256:
        return None
    for rec in records:
        if rec.sha256 == sha256 and rec.status in ("pending", "indexed") and visible(rec, who):
            return rec
    return None

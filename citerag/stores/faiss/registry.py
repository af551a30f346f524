"""The document registry of a server on an index directory: ``<data_dir>/documents.json``.

* :class:`DocumentRegistry`: ``<data_dir>/documents.json``, rewritten atomically on every
  change, and the files at ``<data_dir>/uploads/<id>/<safe name>``, owned by one process (the
  base of the two below). A restart keeps every status (pending work is resumed).
* :class:`SharedDocumentRegistry` (what a writing server on an index directory uses, with one
  worker process or several): the same file and folders, under a file lock, so any number of
  processes share them; the pending and deleting records are the job queue (see
  :class:`~citerag.server.worker.IndexWorker` and
  :class:`~citerag.stores.faiss.coordination.DirectoryCoordination`).
* :class:`ReadOnlyRegistry` (``--read-only``): the same file, only read.

The records and the contract are :mod:`citerag.stores.registry`; the PostgreSQL store's
registry is :class:`~citerag.stores.postgres.registry.PgDocumentRegistry`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from citerag.stores.registry import (
    DOCUMENTS_FILE,
    ID_RE,
    INCOMING_DIR,
    STATUSES,
    UPLOADS_DIR,
    DocumentRecord,
    PendingLimitError,
    now_iso,
)

log = logging.getLogger(__name__)


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
    :class:`~citerag.stores.faiss.coordination.DirectoryCoordination`) applies them. The file
    keeps its format; what changes is how it is used:

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

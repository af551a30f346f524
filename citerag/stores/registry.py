"""The server's document registry: upload records and the contract every registry implements.

Each upload gets a generated id (32 hex digits) and is indexed under the source key
``uploads/<id>/<safe name>``. The status is ``pending`` (waiting for or being indexed),
``indexed``, ``failed`` (with a reason) or ``deleting``; ``chunks`` is what the index
manifest counted after the build, never a client's figure.

:class:`Registry` is what the server's routes and its index worker use;
:class:`SharedRegistry` adds what a registry several processes share offers (its
``pending``/``deleting`` records are the job queue). Each backend opens its own
(:meth:`citerag.stores.backend.Backend.registry`):

* an index directory: :class:`~citerag.stores.faiss.registry.SharedDocumentRegistry`
  (``<data_dir>/documents.json`` under a file lock), or
  :class:`~citerag.stores.faiss.registry.ReadOnlyRegistry` (``--read-only``);
  :class:`~citerag.stores.faiss.registry.DocumentRegistry` is the one-process base of both;
* a PostgreSQL store: :class:`~citerag.stores.postgres.registry.PgDocumentRegistry` (rows
  next to the index's tables, so any serving process on any machine shares them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from loaders.chunking import doc_id_for

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


@runtime_checkable
class Registry(Protocol):
    """What the server reads and writes of its uploads' records (every registry).

    Attributes:
        shared: Several processes share it (then it is also a :class:`SharedRegistry`).
        data_dir: The server's data directory (received and stored upload files).
        incoming: This process's folder for uploads still being received.
    """

    shared: bool
    data_dir: Path
    incoming: Path

    def add(self, rec: DocumentRecord) -> None:
        """Record a new upload."""
        ...

    def add_upload(
        self, rec: DocumentRecord, received: Path, *, max_pending: int | None = None
    ) -> None:
        """Store a received file and record it, refusing when ``max_pending`` wait
        (:class:`PendingLimitError`)."""
        ...

    def request_delete(self, doc_id: str) -> DocumentRecord | None:
        """Mark a document ``deleting`` (``None``: unknown)."""
        ...

    def get(self, doc_id: str) -> DocumentRecord | None:
        """One record (``None``: unknown)."""
        ...

    def all(self) -> list[DocumentRecord]:
        """Every record, oldest first."""
        ...

    def update(
        self, doc_id: str, *, only_if: Iterable[str] | None = None, **changes: Any
    ) -> DocumentRecord | None:
        """Change fields of a record, only while its status is one of ``only_if``."""
        ...

    def remove(self, doc_id: str) -> None:
        """Forget a record and its stored file."""
        ...

    def count(self, status: str) -> int:
        """Records with this status."""
        ...

    def file_path(self, rec: DocumentRecord) -> Path:
        """Where the upload's bytes are (for the parser)."""
        ...

    def close(self) -> None:
        """Release files, locks and connections."""
        ...


@runtime_checkable
class SharedRegistry(Registry, Protocol):
    """A registry several processes share: its ``pending``/``deleting`` records are the job
    queue of :class:`~citerag.server.worker.IndexWorker` in coordinated mode."""

    def jobs(self, limit: int) -> list[tuple[DocumentRecord, int]]:
        """Queued records (``pending``/``deleting``) with their versions, oldest first."""
        ...

    def versions(self, ids: Iterable[str]) -> dict[str, tuple[str, int]]:
        """Status and version of each known id."""
        ...

    def claim(self, ids: Iterable[str], by: str) -> None:
        """Count one more hand-over of these records to an ingest run by ``by``."""
        ...

    def attempts(self, ids: Iterable[str]) -> dict[str, int]:
        """Hand-overs counted per id."""
        ...

    def notify(self) -> None:
        """Wake the other processes (a build was published)."""
        ...

    def prune_local(self) -> int:
        """Delete this process's local copies of files no longer needed; how many."""
        ...

"""Uploaded documents and their status, persisted to ``<data_dir>/documents.json``.

Each upload gets a generated id (32 hex digits). Its file is kept at
``<data_dir>/uploads/<id>/<safe name>`` and indexed under the source key
``uploads/<id>/<safe name>``. The status is ``pending`` (waiting for or being indexed),
``indexed``, ``failed`` (with a reason) or ``deleting``; ``chunks`` is what the index
manifest counted after the build, never a client's figure. The file is rewritten atomically
on every change, so a restart keeps every status (pending work is resumed).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import threading
from dataclasses import asdict, dataclass, fields
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
        self.uploads.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.incoming, ignore_errors=True)  # half-received uploads
        if self.path.exists():
            self._docs = self._read()

    def _read(self) -> dict[str, DocumentRecord]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            names = {f.name for f in fields(DocumentRecord)}
            docs = {}
            for item in raw.get("documents", []):
                rec = DocumentRecord(**{k: v for k, v in item.items() if k in names})
                if not ID_RE.match(rec.id) or rec.status not in STATUSES:
                    raise ValueError(f"bad record {rec.id!r} ({rec.status!r})")
                docs[rec.id] = rec
            return docs
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            raise ValueError(f"{self.path}: cannot read the document registry: {exc}") from exc

    def _write(self) -> None:
        data = {"format": 1, "documents": [asdict(r) for r in self._docs.values()]}
        tmp = self.path.with_name(f".{self.path.name}.tmp")
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

    def update(self, doc_id: str, **changes: Any) -> DocumentRecord | None:
        """Change fields of a record, stamp ``updated_at`` and persist.

        Returns:
            A copy of the updated record, or ``None`` if there is no such record.
        """
        with self._lock:
            rec = self._docs.get(doc_id)
            if rec is None:
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


def upload_id_of(source: str) -> str | None:
    """The upload id in an index source key ``uploads/<id>/<name>``, or ``None``.

    Documents ingested with ``citerag ingest`` have other source keys (relative to the
    ingest root), so this tells uploads from CLI ingests in a manifest.
    """
    parts = source.split("/")
    if len(parts) >= 3 and parts[0] == UPLOADS_DIR and ID_RE.match(parts[1]):
        return parts[1]
    return None


def visible(rec: DocumentRecord, who: Identity) -> bool:
    """Whether a user may see a document (its label is public or one of their groups)."""
    return who.admin or who.can_read(rec.access)


def may_delete(rec: DocumentRecord, who: Identity) -> bool:
    """Whether a user may delete a document (its uploader, or an admin)."""
    return who.admin or (rec.uploaded_by == who.user and who.can_read(rec.access))

"""The build manifest written beside every index build.

It records how the index was made (loader, splitter, embedding model, distance rule, FAISS
index type) and, per document, what happened to it (status, reason, pages, empty pages, chunks
written as counted by the builder, chunks over the embedding window) and what it is about
(title, company, period, document type, with ``title_source`` and ``attributes_source``
saying where each came from). It is the parsing review (``citerag inspect``) and the
failed-document ledger at once.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MANIFEST_FILE = "manifest.json"
FORMAT = 1


def new_build_id() -> str:
    """Return a sortable unique build id (UTC time to the microsecond, then a random tag).

    Sub-second digits matter: :func:`~citerag.stores.faiss.builds.prune_builds` keeps the
    newest builds by name, and two builds made within one second would otherwise sort by
    their random tag.
    """
    now = time.time()
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now))
    return f"{stamp}.{int(now % 1 * 1_000_000):06d}-{uuid.uuid4().hex[:8]}"


class IndexMismatchError(RuntimeError):
    """The index was built with a different embedding model or dimension."""


@dataclass
class Manifest:
    """An index build's manifest.

    Attributes:
        build_id: Unique id of this build (also the build folder's name).
        created_at: ISO time of the build.
        embedding: Model identity, dimension, normalisation, window.
        index: Dense/lexical index settings (FAISS type, distance, BM25 constants).
        chunking: Splitter identity and settings.
        software: Versions of the parsing and indexing libraries.
        documents: Per-document records keyed by document id.
        last_run: Summary of the ingest run that produced this build.
    """

    build_id: str
    created_at: str
    embedding: dict[str, Any]
    index: dict[str, Any]
    chunking: dict[str, Any]
    software: dict[str, Any]
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    last_run: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Serialise with totals."""
        docs = self.documents.values()
        totals = {
            "documents": len(self.documents),
            "indexed": sum(d["status"] == "indexed" for d in docs),
            "failed": sum(d["status"] == "failed" for d in docs),
            "chunks": sum(d.get("chunks", 0) for d in docs),
            "over_window_chunks": sum(d.get("over_window_chunks", 0) for d in docs),
        }
        return {
            "format": FORMAT,
            "build_id": self.build_id,
            "created_at": self.created_at,
            "embedding": self.embedding,
            "index": self.index,
            "chunking": self.chunking,
            "software": self.software,
            "totals": totals,
            "last_run": self.last_run,
            "documents": self.documents,
        }

    def public_records(
        self,
        *,
        readable: Callable[[str], bool] | None = None,
        status: str | None = None,
        upload_id_of: Callable[[str], str | None] | None = None,
    ) -> list[dict[str, Any]]:
        """Per-document records safe to show a client: no server paths, no build internals.

        Args:
            readable: Whether a caller may see a document with this access label (a missing
                label counts as ``public``); ``None`` shows every document.
            status: Keep only documents with this status (``indexed`` or ``failed``);
                ``None`` or ``""`` keeps all.
            upload_id_of: Maps a document's source key to the id of the upload it came from,
                or ``None`` if it was ingested otherwise; ``None`` treats every document as
                ingested.

        Returns:
            One record per document, sorted by source key: ``doc_id``, ``doc_name``,
            ``source`` (the key relative to the ingest root, never an absolute path),
            ``title``, ``company``, ``period``, ``doc_type``, ``file_type``, ``access``,
            ``status``, ``reason``, ``chunks``,
            ``pages``, ``ingested_at``, ``origin`` (``upload`` or ``ingest``),
            ``upload_id``, and for an e-mail attachment's document ``parent_doc_id`` and
            ``attachment_name`` (``None`` for other documents).
        """
        out: list[dict[str, Any]] = []
        for doc in self.documents.values():
            access = str(doc.get("access") or "public")
            if readable is not None and not readable(access):
                continue
            if status and doc.get("status") != status:
                continue
            source = str(doc.get("source") or "")
            upload_id = upload_id_of(source) if upload_id_of is not None else None
            out.append(
                {
                    "doc_id": doc.get("doc_id"),
                    "doc_name": doc.get("doc_name"),
                    "source": source,
                    "title": doc.get("title"),
                    "company": doc.get("company"),
                    "period": doc.get("period"),
                    "doc_type": doc.get("doc_type"),
                    "file_type": doc.get("file_type"),
                    "access": access,
                    "status": doc.get("status"),
                    "reason": doc.get("reason") or "",
                    "chunks": doc.get("chunks"),
                    "pages": doc.get("pages"),
                    "ingested_at": doc.get("ingested_at"),
                    "origin": "upload" if upload_id else "ingest",
                    "upload_id": upload_id,
                    "parent_doc_id": doc.get("parent_doc_id"),
                    "attachment_name": doc.get("attachment_name"),
                }
            )
        out.sort(key=lambda rec: str(rec["source"]))
        return out

    def save(self, folder: Path) -> None:
        """Write ``manifest.json`` durably."""
        path = folder / MANIFEST_FILE
        with path.open("w", encoding="utf-8") as fh:
            json.dump(self.to_json(), fh, indent=2, sort_keys=False)
            fh.flush()
            os.fsync(fh.fileno())

    @classmethod
    def load(cls, folder: Path) -> Manifest:
        """Read a manifest."""
        return cls.from_json(json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8")))

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Manifest:
        """Rebuild a manifest from :meth:`to_json`'s output."""
        return cls(
            build_id=raw["build_id"],
            created_at=raw["created_at"],
            embedding=raw["embedding"],
            index=raw["index"],
            chunking=raw["chunking"],
            software=raw.get("software", {}),
            documents=raw.get("documents", {}),
            last_run=raw.get("last_run", {}),
        )

    def check_embedding(self, model_name: str, dimension: int) -> None:
        """Refuse to use the index with another embedding model or dimension.

        Raises:
            IndexMismatchError: With both identities in the message.
        """
        built = self.embedding.get("model")
        built_dim = self.embedding.get("dimension")
        if built != model_name or built_dim != dimension:
            raise IndexMismatchError(
                f"this index was built with embedding model {built!r} (dimension {built_dim}) "
                f"but {model_name!r} (dimension {dimension}) is configured; vectors from "
                "different models are not comparable. Re-ingest into a new --index directory "
                "or configure the original model."
            )

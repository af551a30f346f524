"""The build manifest written beside every index build.

It records how the index was made (loader, splitter, embedding model, distance rule, FAISS
index type) and, per document, what happened to it (status, reason, pages, empty pages, chunks
written as counted by the builder, chunks over the embedding window). It is the parsing
review (``citerag inspect``) and the failed-document ledger at once.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MANIFEST_FILE = "manifest.json"
FORMAT = 1


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
        raw = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
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

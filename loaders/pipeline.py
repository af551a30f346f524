"""Turn one file into chunks or a failure record; runs in a worker process during ingest."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loaders.base import DocumentLoadError
from loaders.chunking import Chunk, ChunkSettings, chunk_document, doc_id_for
from loaders.registry import load_file


@dataclass
class SourceFile:
    """A file to ingest and how it is known in the index.

    Attributes:
        path: Where the file is on disk.
        source: Stable source key (POSIX path relative to its ingest root, prefixed by the
            root's name); the document id is derived from it.
        access: Access label.
        doc_name: Display name (defaults to the file name).
    """

    path: Path
    source: str
    access: str = "public"
    doc_name: str = ""

    @property
    def doc_id(self) -> str:
        """Stable document id."""
        return doc_id_for(self.source)


@dataclass
class ProcessedFile:
    """Outcome of loading and chunking one file.

    Attributes:
        source: The input description.
        sha256: Hash of the file's bytes ('' when unreadable).
        status: ``ok`` or ``failed``.
        reason: Why it failed.
        kind: Failure category (see :class:`~loaders.base.DocumentLoadError`).
        chunks: The chunks (empty on failure).
        info: Parsing review figures for the manifest (pages, empty pages, parser, title).
        parse_seconds: Wall time spent parsing and chunking.
    """

    source: SourceFile
    sha256: str
    status: str
    reason: str = ""
    kind: str = ""
    chunks: list[Chunk] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    parse_seconds: float = 0.0


def sha256_file(path: Path) -> str:
    """Return the hex sha256 of a file's bytes."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def document_metadata(src: SourceFile, parsed: Any, sha256: str) -> dict[str, Any]:
    """The document-level metadata every chunk of ``src`` carries (identity and access).

    Args:
        src: The source file.
        parsed: Its loaded document (``title``, ``file_type``).
        sha256: Hex digest of the file's bytes.
    """
    return {
        "doc_id": src.doc_id,
        "doc_name": src.doc_name or src.path.name,
        "source": src.source,
        "title": parsed.title,
        "file_type": parsed.file_type,
        "sha256": sha256,
        "access": src.access,
    }


def process_file(src: SourceFile, settings: ChunkSettings) -> ProcessedFile:
    """Load and chunk one file, never raising for bad input.

    Args:
        src: The file and its identity.
        settings: Chunking settings.

    Returns:
        A :class:`ProcessedFile` with status ``ok`` and chunks, or ``failed`` and a reason.
    """
    t0 = time.perf_counter()
    try:
        data = src.path.read_bytes()
    except OSError as exc:
        return ProcessedFile(src, "", "failed", f"cannot read file: {exc}", "unreadable")
    digest = hashlib.sha256(data).hexdigest()
    try:
        parsed = load_file(src.path, data)
        chunks = chunk_document(parsed, settings, document_metadata(src, parsed, digest))
        if not chunks:
            raise DocumentLoadError(f"{src.path.name}: no text to index", kind="empty")
    except DocumentLoadError as exc:
        return ProcessedFile(
            src, digest, "failed", exc.reason, exc.kind, parse_seconds=time.perf_counter() - t0
        )
    except Exception as exc:  # a loader bug must fail one document, not the run
        return ProcessedFile(
            src,
            digest,
            "failed",
            f"{type(exc).__name__}: {exc}",
            "error",
            parse_seconds=time.perf_counter() - t0,
        )
    info = {
        "title": parsed.title,
        "file_type": parsed.file_type,
        "parser": parsed.parser,
        "pages": parsed.pages,
        "empty_pages": parsed.empty_pages,
        "characters": len(parsed.text),
        "warnings": parsed.warnings,
    }
    return ProcessedFile(
        src, digest, "ok", chunks=chunks, info=info, parse_seconds=time.perf_counter() - t0
    )

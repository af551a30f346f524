"""Document loaders: files in, chunks with full provenance out.

Public entry points:

* :func:`loaders.registry.load_file` — one file to a :class:`~loaders.base.ParsedDocument`.
* :func:`loaders.chunking.chunk_document` — a parsed document to provenance-carrying chunks.
* :func:`loaders.pipeline.process_file` — both, never raising for bad input.
"""

from loaders.base import DocumentLoadError, ParsedDocument, Segment
from loaders.chunking import Chunk, ChunkSettings, chunk_document
from loaders.pipeline import ProcessedFile, SourceFile, process_file
from loaders.registry import is_supported, load_file

__all__ = [
    "Chunk",
    "ChunkSettings",
    "DocumentLoadError",
    "ParsedDocument",
    "ProcessedFile",
    "Segment",
    "SourceFile",
    "chunk_document",
    "is_supported",
    "load_file",
    "process_file",
]

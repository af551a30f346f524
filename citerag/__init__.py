"""citerag: retrieval-augmented generation that cites exactly where it looked.

The public API (docs/reference/architecture.md): everything a program needs to ingest files,
open an index and ask the answering graph, importable from ``citerag`` itself::

    from pathlib import Path
    from citerag import ingest, load_default_graph, load_embedding_model

    ingest([Path("examples/corpus")], ".citerag/index", load_embedding_model())
    graph = load_default_graph(".citerag/index")
    graph.invoke({"question": "What does fault code E-217 mean?", "user_groups": ["staff"]})

``import citerag`` loads nothing heavy (no torch, sentence-transformers or FAISS): each name is
imported from its module on first use (a module-level ``__getattr__``, PEP 562).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> the module that defines it (the one source of each name).
_EXPORTS: dict[str, str] = {
    # the answering graph
    "build_graph": "graphs.rag",
    "load_default_graph": "graphs.rag",
    "checkpoint_serde": "graphs.rag",
    "GraphDeps": "graphs.deps",
    "RAGConfig": "graphs.config",
    "ExtractiveRules": "chains.answer_checks",
    # indexes: build, open, search
    "ingest": "citerag.index.ingest",
    "IngestReport": "citerag.index.ingest",
    "load_index": "citerag.stores.loaded",
    "LoadedIndex": "citerag.stores.handles",
    "SearchIndex": "citerag.stores.contract",
    "as_search_index": "citerag.stores.contract",
    "load_embedding_model": "citerag.embeddings",
    # documents
    "ChunkSettings": "loaders.chunking",
    "load_file": "loaders.registry",
    "process_file": "loaders.pipeline",
}

__all__ = [
    "ChunkSettings",
    "ExtractiveRules",
    "GraphDeps",
    "IngestReport",
    "LoadedIndex",
    "RAGConfig",
    "SearchIndex",
    "__version__",
    "as_search_index",
    "build_graph",
    "checkpoint_serde",
    "ingest",
    "load_default_graph",
    "load_embedding_model",
    "load_file",
    "load_index",
    "process_file",
]

if TYPE_CHECKING:  # for type checkers and IDEs only; at run time see __getattr__
    from chains.answer_checks import ExtractiveRules
    from citerag.embeddings import load_embedding_model
    from citerag.index.ingest import IngestReport, ingest
    from citerag.stores.contract import SearchIndex, as_search_index
    from citerag.stores.handles import LoadedIndex
    from citerag.stores.loaded import load_index
    from graphs.config import RAGConfig
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph, checkpoint_serde, load_default_graph
    from loaders.chunking import ChunkSettings
    from loaders.pipeline import process_file
    from loaders.registry import load_file


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use (and cache it here)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'citerag' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))

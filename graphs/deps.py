"""Heavy dependencies of the graph, injected once by :func:`graphs.rag.build_graph`."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from chains.answerers import Answerer, make_answerer
from chains.rerank import Reranker, make_reranker
from chains.retrieval import HybridRetriever
from graphs.config import RAGConfig


@dataclass
class GraphDeps:
    """Everything the nodes need that is expensive to build.

    Attributes:
        retriever: First-stage retriever over the index.
        embeddings: The index's embedding model.
        store: The vector store (for precomputed sentence vectors).
        manifest_id: Build id of the loaded index, recorded in traces.
        embedding_model: Embedding model identity, recorded in traces.
        answerer: An injected answerer or chat model; overrides ``config.model``.
        rerankers: Injected rerankers by config name (others are built lazily and cached).
        calibration: Gate thresholds calibrated for this index (``INDEX/calibration.json``),
            overriding the packaged defaults per score name.
    """

    retriever: HybridRetriever
    embeddings: Embeddings
    store: Any = None
    manifest_id: str = ""
    embedding_model: str = ""
    answerer: Answerer | BaseChatModel | None = None
    rerankers: dict[str, Reranker] = field(default_factory=dict)
    calibration: dict[str, Any] = field(default_factory=dict)
    _answerers: dict[str, Answerer] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def reranker(self, spec: str) -> Reranker:
        """The reranker for a config name, built once."""
        with self._lock:
            if spec not in self.rerankers:
                self.rerankers[spec] = make_reranker(spec, self.embeddings, self.store)
            return self.rerankers[spec]

    def answerer_for(self, cfg: RAGConfig) -> Answerer:
        """The injected answerer, else the one ``cfg.model`` names, built once."""
        if self.answerer is not None:
            key = "__injected__"
            spec: Any = self.answerer
        else:
            key = f"{cfg.model}@{cfg.temperature}@{cfg.number_check}"
            spec = cfg.model
        with self._lock:
            if key not in self._answerers:
                self._answerers[key] = make_answerer(
                    spec, self.embeddings, self.store, cfg.temperature, cfg.number_check
                )
            return self._answerers[key]

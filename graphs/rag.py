"""Build the answering graph.

::

    retrieve → rerank → gate ─┬─(below threshold)──────────────────────────→ no_evidence
                              └→ assemble → generate ─┬─(error/empty, 1st)→ generate
                                                      ├─(error/empty, 2nd)→ failed
                                                      └→ parse ─┬─(block ok)──────→ validate
                                                                └→ recover_block → validate
        validate ─┬─ valid citations ──────────→ answered
                  ├─ model: insufficient ──────→ no_evidence
                  ├─ none valid, 1st attempt ──→ generate
                  └─ none valid, 2nd attempt ──→ failed

Use :func:`build_graph` with injected parts, or :func:`load_default_graph` for an index
directory with the offline defaults.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.vectorstores import VectorStore
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from chains.answerers import Answerer
from chains.rerank import Reranker
from chains.retrieval import HybridRetriever
from graphs import nodes, routers
from graphs.deps import GraphDeps
from graphs.state import RAGInput, RAGOutput, RAGState

NodeFn = Callable[..., dict[str, Any]]


def _node(fn: NodeFn, name: str, deps: GraphDeps) -> Callable[[RAGState, RunnableConfig], dict]:
    """Bind deps and record the node's wall time in ``timings``."""
    bound = functools.partial(fn, deps=deps)

    def run(state: RAGState, config: RunnableConfig) -> dict[str, Any]:
        t0 = time.perf_counter()
        out = bound(state, config)
        out["timings"] = {name: time.perf_counter() - t0}
        return out

    run.__name__ = name
    run.__doc__ = fn.__doc__
    return run


def build_graph(
    store: VectorStore,
    *,
    embeddings: Any | None = None,
    lexical: Any | None = None,
    model: BaseChatModel | Answerer | None = None,
    rerankers: dict[str, Reranker] | None = None,
    manifest_id: str = "",
    embedding_model: str = "",
    calibration: dict[str, Any] | None = None,
) -> CompiledStateGraph:
    """Compile the answering graph with everything heavy injected.

    Args:
        store: The vector store (a :class:`~citerag.index.store.CiteragStore` gives dense,
            BM25 and sentence vectors; any LangChain ``VectorStore`` with dict filters works
            for dense retrieval).
        embeddings: Query embedder (defaults to ``store.embeddings``).
        lexical: BM25 search (defaults to the store when it has ``bm25_search``).
        model: A chat model or answerer; overrides ``configurable.model``.
        rerankers: Prebuilt rerankers by config name (e.g. a loaded cross-encoder).
        manifest_id: Index build id, recorded in traces.
        embedding_model: Embedding model identity, recorded in traces.
        calibration: Gate thresholds per score name (see ``chains/gate_defaults.json``),
            overriding the packaged defaults.

    Returns:
        The compiled graph: ``invoke({"question": ..., "user_groups": [...]})``.
    """
    emb = embeddings or store.embeddings
    if emb is None:
        raise ValueError("the store has no embedding model: pass embeddings=")
    deps = GraphDeps(
        retriever=HybridRetriever(store, lexical=lexical, embeddings=emb),
        embeddings=emb,
        store=store,
        manifest_id=manifest_id,
        embedding_model=embedding_model,
        answerer=model,
        rerankers=dict(rerankers or {}),
        calibration=dict(calibration or {}),
    )
    g = StateGraph(RAGState, input_schema=RAGInput, output_schema=RAGOutput)
    for name, fn in [
        ("retrieve", nodes.retrieve),
        ("rerank", nodes.rerank),
        ("gate", nodes.gate),
        ("assemble", nodes.assemble_context),
        ("generate", nodes.generate),
        ("parse", nodes.parse),
        ("recover_block", nodes.recover),
        ("validate", nodes.validate_citations),
        ("answered", nodes.finish_answered),
        ("no_evidence", nodes.finish_no_evidence),
        ("failed", nodes.finish_failed),
    ]:
        g.add_node(name, cast(Any, _node(fn, name, deps)))
    g.add_edge(START, "retrieve")
    g.add_edge("retrieve", "rerank")
    g.add_edge("rerank", "gate")
    g.add_conditional_edges("gate", routers.route_after_gate, ["assemble", "no_evidence"])
    g.add_edge("assemble", "generate")
    g.add_conditional_edges(
        "generate", routers.route_after_generate, ["parse", "generate", "failed"]
    )
    g.add_conditional_edges("parse", routers.route_after_parse, ["validate", "recover_block"])
    g.add_edge("recover_block", "validate")
    g.add_conditional_edges(
        "validate", routers.route_after_validate, ["answered", "no_evidence", "generate", "failed"]
    )
    for end in ("answered", "no_evidence", "failed"):
        g.add_edge(end, END)
    return g.compile(name="citerag")


def load_default_graph(
    index_dir: Path | str,
    *,
    model: BaseChatModel | Answerer | None = None,
    embedding_model: str | None = None,
) -> CompiledStateGraph:
    """Load an index directory with the offline defaults and build the graph.

    Args:
        index_dir: Directory written by ``citerag ingest``.
        model: Optional chat model/answerer (default: extractive, or ``configurable.model``).
        embedding_model: Embedding model name/directory (default: bundled MiniLM).
    """
    from citerag.embeddings import load_embedding_model
    from citerag.index.loaded import load_index

    emb = load_embedding_model(embedding_model)
    loaded = load_index(Path(index_dir), emb)
    return build_graph(
        loaded.store,
        embeddings=emb.embeddings,
        model=model,
        manifest_id=loaded.manifest_id,
        embedding_model=emb.name,
        calibration=read_calibration(Path(index_dir)),
    )


CALIBRATION_FILE = "calibration.json"


def read_calibration(index_dir: Path) -> dict[str, Any]:
    """Read ``INDEX/calibration.json`` (written by ``citerag calibrate``), if present.

    Its shape is that of ``chains/gate_defaults.json``: score name (a reranker name such as
    ``sentence-hybrid``, or ``dense``) -> ``{"threshold": float, ...}``.
    """
    import json

    path = index_dir / CALIBRATION_FILE
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if isinstance(v, dict) and "threshold" in v}

"""Build the answering graph.

::

    constrain ─┬─(a named constraint no readable document satisfies)────────→ no_evidence
               └→ retrieve → rerank → gate ─┬─(below threshold)────────────→ no_evidence
                                            └→ assemble → generate ─┬─(error/empty, 1st)→ generate
                                                      ├─(error/empty, 2nd)→ failed
                                                      └→ parse ─┬─(block ok)──────→ validate
                                                                └→ recover_block → validate
        validate ─┬─ valid citations ──────────→ answered
                  ├─ model: insufficient ──────→ no_evidence
                  ├─ none valid, 1st attempt ──→ generate
                  └─ none valid, 2nd attempt ──→ failed

Use :func:`build_graph` with :class:`~graphs.deps.GraphDeps` (``GraphDeps.from_index(dir)``
or ``GraphDeps.from_store(store, ...)``), or :func:`load_default_graph` for an index
directory with the offline defaults. ``build_graph(deps, stop_after="assemble")`` compiles
the graph's prefix (constrain → retrieve → rerank → gate → assemble) for evaluation: the same nodes,
ending before the answerer, returning the full state.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Literal, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.vectorstores import VectorStore
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from chains.answerers import Answerer
from graphs import nodes, routers
from graphs.config import RAGConfig
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
    deps: GraphDeps | VectorStore,
    *,
    stop_after: Literal["assemble"] | None = None,
    **store_kwargs: Any,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the answering graph around its dependencies.

    Args:
        deps: From :meth:`GraphDeps.from_index` or :meth:`GraphDeps.from_store`. A bare
            ``VectorStore`` is accepted as a shorthand for ``GraphDeps.from_store(deps,
            **store_kwargs)``.
        stop_after: ``"assemble"`` compiles only constrain → retrieve → rerank → gate
            (→ assemble when the gate passes) and returns the whole state (candidates, gate
            decision, context): what evaluation and calibration measure. ``None`` = the
            full graph.
        **store_kwargs: With a bare store only: ``embeddings``, ``lexical``, ``model``,
            ``rerankers``, ``manifest_id``, ``embedding_model``, ``calibration``.

    Returns:
        The compiled graph: ``invoke({"question": ..., "user_groups": [...]})``.

    Raises:
        ValueError: Unknown ``stop_after``, or keyword arguments given with ``GraphDeps``.
    """
    if not isinstance(deps, GraphDeps):
        deps = GraphDeps.from_store(deps, **store_kwargs)
    elif store_kwargs:
        raise ValueError(
            f"build_graph(GraphDeps, ...) takes no {sorted(store_kwargs)}: set them on GraphDeps"
        )
    if stop_after not in (None, "assemble"):
        raise ValueError(f"stop_after must be None or 'assemble', not {stop_after!r}")
    prefix = stop_after == "assemble"
    g = StateGraph(
        RAGState,
        context_schema=RAGConfig,
        input_schema=RAGInput,
        output_schema=RAGState if prefix else RAGOutput,
    )
    names = PREFIX_NODES if prefix else NODES
    for fn in names:
        g.add_node(fn.__name__, cast(Any, _node(fn, fn.__name__, deps)))
    g.add_edge(START, "constrain")
    ends: dict[Hashable, str] = {
        "retrieve": "retrieve",
        "no_evidence": END if prefix else "no_evidence",
    }
    g.add_conditional_edges("constrain", routers.route_after_constrain, ends)
    g.add_edge("retrieve", "rerank")
    g.add_edge("rerank", "gate")
    if prefix:
        after_gate: dict[Hashable, str] = {"assemble": "assemble", "no_evidence": END}
        g.add_conditional_edges("gate", routers.route_after_gate, after_gate)
        g.add_edge("assemble", END)
        return g.compile(name="citerag-prefix")
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


#: The nodes, in pipeline order; each function's name is its node's name.
NODES: tuple[NodeFn, ...] = (
    nodes.constrain,
    nodes.retrieve,
    nodes.rerank,
    nodes.gate,
    nodes.assemble,
    nodes.generate,
    nodes.parse,
    nodes.recover_block,
    nodes.validate,
    nodes.answered,
    nodes.no_evidence,
    nodes.failed,
)
#: The nodes of ``build_graph(..., stop_after="assemble")``.
PREFIX_NODES: tuple[NodeFn, ...] = NODES[:5]


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
    return build_graph(
        GraphDeps.from_index(index_dir, model=model, embedding_model=embedding_model)
    )

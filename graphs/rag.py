"""Build the answering graph.

::

    condense (a follow-up → a standalone question)
       ↓
    constrain ─┬─(a named constraint no readable document satisfies)────────→ no_evidence
               └→ retrieve → rerank → gate ─┬─(below threshold)────────────→ no_evidence
                                            └→ assemble → generate ─┬─(error/empty, 1st)→ generate
                                                      ├─(error/empty, 2nd)→ failed
                                                      └→ parse ─┬─(block ok)──────→ validate
                                                                └→ recover_block → validate
        validate ─┬─ valid citations ──────────→ support_check ─┬─ unsupported → no_evidence
                  │                                             └─ otherwise ───→ answered
                  ├─ model: insufficient ──────→ no_evidence
                  ├─ none valid, 1st attempt ──→ generate
                  └─ none valid, 2nd attempt ──→ failed

Use :func:`build_graph` with :class:`~graphs.deps.GraphDeps` (``GraphDeps.from_index(dir)``
or ``GraphDeps.from_store(store, ...)``), or :func:`load_default_graph` for an index
directory with the offline defaults. ``build_graph(deps, stop_after="assemble")`` compiles
the graph's prefix (condense → constrain → retrieve → rerank → gate → assemble) for evaluation:
the same nodes, ending before the answerer, returning the full state.

Conversations: ``messages`` in the input (the earlier turns), or ``build_graph(deps,
checkpointer=InMemorySaver())`` and a ``thread_id`` in ``configurable`` to keep them between
calls; ``condense`` rewrites a follow-up as a standalone question first (:mod:`chains.followup`).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import time
import typing
from collections.abc import AsyncIterator, Callable, Collection, Hashable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.vectorstores import VectorStore
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Checkpointer, Overwrite

from chains.answerers import Answerer
from graphs import nodes, routers
from graphs.config import RAGConfig, check_configurable, knob_default, knobs
from graphs.deps import GraphDeps
from graphs.state import RAGInput, RAGOutput, RAGState

NodeFn = Callable[..., dict[str, Any]]


def context_knobs(context: Any, *, strict: bool = True) -> dict[str, Any]:
    """The knobs of a run's ``context=`` (a :class:`RAGConfig`, a mapping of knobs, or ``None``).

    ``graph.invoke(inputs, context=RAGConfig(k=3))`` and ``context={"k": 3}`` set knobs as
    ``{"configurable": {"k": 3}}`` does (LangGraph turns a mapping into a ``RAGConfig``
    itself, which refuses a key that is no knob with the ``configurable`` path's
    ``ValueError``: :meth:`RAGConfig.__new__`); a ``RAGConfig`` sets the knobs it holds that
    differ from their defaults, so it layers over a graph's ``defaults``. With
    ``strict=False`` (the Agent Server, which adds keys of its own) a mapping's other keys
    are ignored instead of refused.

    Raises:
        ValueError: A mapping with a key that is no knob (``strict``), or a context of
            another type.
    """
    if context is None:
        return {}
    if isinstance(context, RAGConfig):
        return {k: v for k, v in context.to_dict().items() if v != knob_default(k)}
    if isinstance(context, Mapping):
        if strict:
            check_configurable(dict(context))
        return {k: v for k, v in context.items() if k in knobs()}
    raise ValueError(
        f"context must be a RAGConfig or a mapping of knobs, not {type(context).__name__}"
    )


log = logging.getLogger(__name__)

#: Reads the caller's groups from the run config (see ``build_graph(groups_from=...)``).
GroupsFrom = Callable[[RunnableConfig], list[str]]
#: The graph's first node.
FIRST_NODE = "condense"


def _node(
    fn: NodeFn,
    name: str,
    deps: GraphDeps,
    groups_from: GroupsFrom | None = None,
    client_keys: Collection[str] | None = None,
    defaults: Mapping[str, Any] | None = None,
) -> Callable[[RAGState, RunnableConfig], dict]:
    """Bind deps and record the node's wall time in ``timings``.

    The first node refuses a ``configurable`` key that is no knob (:func:`check_configurable`;
    not under ``groups_from``: the Agent Server adds keys of its own). With ``groups_from``,
    every node sees the groups it returns instead of the state's ``user_groups``, and the
    first node writes them into the state. With ``client_keys``,
    knobs of ``configurable`` outside that set are dropped (``defaults``, else the knobs'
    own defaults, apply); ``defaults`` are also used for knobs a run does not set.
    """
    bound = functools.partial(fn, deps=deps)
    dropped = None if client_keys is None else frozenset(knobs()) - frozenset(client_keys)

    def run(
        state: RAGState, config: RunnableConfig, runtime: Runtime[Any] | None = None
    ) -> dict[str, Any]:
        t0 = time.perf_counter()
        context = context_knobs(
            runtime.context if runtime is not None else None, strict=groups_from is None
        )
        if name == FIRST_NODE and groups_from is None:
            check_configurable(config.get("configurable"))
        if context:
            # knobs given as ``context=`` read as ``configurable`` ones (which win on a clash)
            conf = {**context, **(config.get("configurable") or {})}
            config = cast(RunnableConfig, {**config, "configurable": conf})
        if dropped or defaults:
            conf = config.get("configurable") or {}
            kept = {k: v for k, v in conf.items() if not dropped or k not in dropped}
            config = cast(RunnableConfig, {**config, "configurable": {**(defaults or {}), **kept}})
        groups: list[str] | None = None
        if groups_from is not None:
            groups = list(groups_from(config))
            state = cast(RAGState, {**state, "user_groups": groups})
        out = bound(state, config)
        if groups is not None and name == FIRST_NODE:
            out["user_groups"] = groups
        spent = {name: time.perf_counter() - t0}
        previous = out.get("timings")
        out["timings"] = (
            Overwrite({**previous.value, **spent}) if isinstance(previous, Overwrite) else spent
        )
        return out

    run.__name__ = name
    run.__doc__ = fn.__doc__
    return run


def _router(fn: Callable[..., Any]) -> Any:
    """A router for ``add_conditional_edges``, run without a callback run of its own.

    LangGraph wraps a plain routing function in a traced runnable: every routing decision
    (six per answered question) opens and closes a callback run, even with no callback
    handler. The node the router follows is still a run, and its trace records the decision.
    The routing functions stay plain: this only changes how LangGraph calls them. What
    changes for a callback listener (``stream_events``, a LangSmith tracer): no
    ``route_after_*`` runs; a router's error shows as its node's.
    """
    try:
        from langgraph._internal._runnable import RunnableCallable

        return RunnableCallable(fn, name=fn.__name__, trace=False)
    except (ImportError, TypeError):  # pragma: no cover - another LangGraph: traced default
        log.warning("routers run as traced runnables (LangGraph's RunnableCallable moved)")
        return fn


def build_graph(
    deps: GraphDeps | VectorStore,
    *,
    stop_after: Literal["assemble"] | None = None,
    checkpointer: Checkpointer = None,
    groups_from: GroupsFrom | None = None,
    client_keys: Collection[str] | None = None,
    defaults: Mapping[str, Any] | None = None,
    **store_kwargs: Any,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the answering graph around its dependencies.

    Args:
        deps: From :meth:`GraphDeps.from_index` or :meth:`GraphDeps.from_store`. A bare
            ``VectorStore`` is accepted as a shorthand for ``GraphDeps.from_store(deps,
            **store_kwargs)``.
        stop_after: ``"assemble"`` compiles only condense → constrain → retrieve → rerank → gate
            (→ assemble when the gate passes) and returns the whole state (candidates, gate
            decision, context): what evaluation and calibration measure. ``None`` = the
            full graph.
        checkpointer: A LangGraph checkpointer (``InMemorySaver()``, ``SqliteSaver``, ...):
            runs with ``{"configurable": {"thread_id": ...}}`` keep the conversation (and
            the last turn's state) between calls. ``None`` = stateless: send earlier turns
            in ``messages``.
        groups_from: Where the caller's groups come from when not from the input, e.g. the
            authenticated user of the LangGraph Agent Server (:mod:`graphs.server_graph`):
            every node then reads those groups and ``user_groups`` in the input is ignored.
        client_keys: The knobs a run's ``configurable`` may set (e.g.
            ``client_knobs(("yes",))`` for a server whose clients send their own config);
            ``None`` = every knob.
        defaults: Knob values used where a run's ``configurable`` sets none (or may not set
            it, outside ``client_keys``), e.g. a served graph's chat model and its
            settings; checked here.
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
    if defaults:
        check_configurable(dict(defaults))
        RAGConfig(**dict(defaults))  # a bad default fails here, not in every run
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
        g.add_node(
            fn.__name__, cast(Any, _node(fn, fn.__name__, deps, groups_from, client_keys, defaults))
        )
    g.add_edge(START, FIRST_NODE)
    g.add_edge(FIRST_NODE, "constrain")
    ends: dict[Hashable, str] = {
        "retrieve": "retrieve",
        "no_evidence": END if prefix else "no_evidence",
    }
    g.add_conditional_edges("constrain", _router(routers.route_after_constrain), ends)
    g.add_edge("retrieve", "rerank")
    g.add_edge("rerank", "gate")
    if prefix:
        after_gate: dict[Hashable, str] = {"assemble": "assemble", "no_evidence": END}
        g.add_conditional_edges("gate", _router(routers.route_after_gate), after_gate)
        g.add_edge("assemble", END)
        return g.compile(name="citerag-prefix", checkpointer=checkpointer)
    g.add_conditional_edges("gate", _router(routers.route_after_gate), ["assemble", "no_evidence"])
    g.add_edge("assemble", "generate")
    g.add_conditional_edges(
        "generate", _router(routers.route_after_generate), ["parse", "generate", "failed"]
    )
    g.add_conditional_edges(
        "parse", _router(routers.route_after_parse), ["validate", "recover_block"]
    )
    g.add_edge("recover_block", "validate")
    g.add_conditional_edges(
        "validate",
        _router(routers.route_after_validate),
        ["support_check", "no_evidence", "generate", "failed"],
    )
    g.add_conditional_edges(
        "support_check",
        _router(routers.route_after_support_check),
        ["answered", "no_evidence"],
    )
    for end in ("answered", "no_evidence", "failed"):
        g.add_edge(end, END)
    return g.compile(name="citerag", checkpointer=checkpointer)


#: The nodes, in pipeline order; each function's name is its node's name.
NODES: tuple[NodeFn, ...] = (
    nodes.condense,
    nodes.constrain,
    nodes.retrieve,
    nodes.rerank,
    nodes.gate,
    nodes.assemble,
    nodes.generate,
    nodes.parse,
    nodes.recover_block,
    nodes.validate,
    nodes.support_check,
    nodes.answered,
    nodes.no_evidence,
    nodes.failed,
)
#: The nodes of ``build_graph(..., stop_after="assemble")``.
PREFIX_NODES: tuple[NodeFn, ...] = NODES[:6]


def load_default_graph(
    index_dir: Path | str,
    *,
    model: BaseChatModel | Answerer | None = None,
    embedding_model: str | None = None,
    traced_queries: bool = True,
    checkpointer: Checkpointer = None,
) -> CompiledStateGraph:
    """Load an index directory with the offline defaults and build the graph.

    The index is checked first (:func:`~citerag.stores.loaded.check_index`: its manifest
    readable, built with this embedding model), so a missing or unreadable index fails in
    milliseconds, before any model loads.

    Args:
        index_dir: Directory written by ``citerag ingest`` (or a PostgreSQL store URL).
        model: Optional chat model/answerer (default: extractive, or ``configurable.model``).
        embedding_model: Embedding model name/directory (default: bundled MiniLM).
        traced_queries: Send questions through a traced copy of the encoder
            (:mod:`citerag.traced_queries`: ~0.4 s at load, a few ms saved per question);
            ``False`` for a single question, which then goes through ``encode``.
        checkpointer: Keeps conversations per ``thread_id`` (see :func:`build_graph`).

    Raises:
        IndexNotFoundError: Nothing has been ingested into ``index_dir``.
        IndexUnavailableError: Its manifest or files cannot be read, or the store cannot be
            reached.
        IndexMismatchError: The index was built with another embedding model.
    """
    from citerag.embeddings import load_embedding_model, model_identity
    from citerag.stores.loaded import check_index

    started = time.perf_counter()
    check_index(index_dir, model_identity(embedding_model))
    checked = time.perf_counter()
    emb = load_embedding_model(embedding_model, traced=traced_queries)
    loaded = time.perf_counter()
    deps = GraphDeps.from_index(index_dir, embedding_model=emb, model=model)
    opened = time.perf_counter()
    graph = build_graph(deps, checkpointer=checkpointer)
    log.info(
        "graph loaded in %.2f s: index checked %.3f s, embedding model %.2f s, index opened "
        "%.2f s, graph compiled %.3f s",
        time.perf_counter() - started,
        checked - started,
        loaded - checked,
        opened - loaded,
        time.perf_counter() - opened,
    )
    return graph


def checkpoint_types() -> list[tuple[str, str]]:
    """``(module, class)`` of every record type the state holds (the dataclasses of
    :class:`~graphs.state.RAGState` and those nested in them), for a checkpointer's
    msgpack allow-list."""
    seen: dict[type, None] = {}

    def walk(hint: Any) -> None:
        for arg in typing.get_args(hint):
            walk(arg)
        origin = typing.get_origin(hint)
        cls = hint if origin is None else None
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls not in seen:
            seen[cls] = None
            for sub in typing.get_type_hints(cls).values():
                walk(sub)

    for hint in typing.get_type_hints(RAGState, include_extras=True).values():
        walk(hint)
    return [(c.__module__, c.__qualname__) for c in seen]


def checkpoint_serde() -> JsonPlusSerializer:
    """The serializer to give a checkpointer: LangGraph's, allowing the state's own record
    types (``InMemorySaver(serde=checkpoint_serde())``, ``SqliteSaver(conn,
    serde=checkpoint_serde())``); without it LangGraph warns that it deserializes
    unregistered types, and will block them in a future version."""
    return JsonPlusSerializer(allowed_msgpack_modules=checkpoint_types())


#: What :func:`stream_answer` yields: ``("attempt", event)``, ``("token", event)``, and last
#: ``("final", output)``.
AnswerEvent = tuple[Literal["attempt", "token", "final"], dict[str, Any]]


def _answer_event(mode: str, chunk: Any) -> AnswerEvent | None:
    """What one ``stream_mode=["custom", "values"]`` item means to :func:`stream_answer`:
    an attempt or token event, the output so far (``("final", ...)``), or nothing."""
    if mode == "custom":
        if isinstance(chunk, dict) and chunk.get("type") in ("attempt", "token"):
            return chunk["type"], chunk
        return None
    return ("final", chunk) if isinstance(chunk, dict) else None


def stream_answer(
    graph: CompiledStateGraph, graph_input: dict[str, Any], config: RunnableConfig | None = None
) -> Iterator[AnswerEvent]:
    """Run the graph, yielding the answer's text as it is written and then its output.

    Token events are drafts (:mod:`chains.streaming`): an ``attempt`` event means "clear what
    was shown", and only the ``final`` output (status, validated answer, citations) counts.

    Args:
        graph: A compiled answering graph.
        graph_input: Its input (``{"question": ..., "user_groups": [...]}``).
        config: The run's config.

    Yields:
        ``(kind, event)`` pairs; the last one is ``("final", output)``.
    """
    final: dict[str, Any] = {}
    for mode, chunk in graph.stream(graph_input, config, stream_mode=["custom", "values"]):
        event = _answer_event(mode, chunk)
        if event is not None and event[0] == "final":
            final = event[1]
        elif event is not None:
            yield event
    yield "final", final


async def astream_answer(
    graph: CompiledStateGraph, graph_input: dict[str, Any], config: RunnableConfig | None = None
) -> AsyncIterator[AnswerEvent]:
    """:func:`stream_answer` for an event loop (``graph.astream``)."""
    final: dict[str, Any] = {}
    async for mode, chunk in graph.astream(graph_input, config, stream_mode=["custom", "values"]):
        event = _answer_event(mode, chunk)
        if event is not None and event[0] == "final":
            final = event[1]
        elif event is not None:
            yield event
    yield "final", final

"""The runnable served under ``/rag``: a thin wrapper that feeds the graph the caller's groups.

Clients send ``{"question": ..., "filters": ...}``; anything else in the input (for example
``user_groups``) is dropped by the input model. The server's per-request config modifier
writes the token's groups under :data:`SERVER_GROUPS_KEY` in ``configurable``, overwriting
whatever a client sent there; the wrapper reads them from that key only and sets the graph
input's ``user_groups``. The graph receives a ``configurable`` rebuilt from scratch: the
server's defaults plus the knobs clients may tune (validated by the config schema), nothing
else. The server's default trace detail is :data:`SERVER_TRACE_DEFAULT` (``summary``; a
client sends ``{"configurable": {"trace": "full"}}`` for everything, where the server lets
clients set ``trace``, as it does by default).

LangServe awaits the runnable on the event loop. When nothing but LangServe's own event
aggregator listens to the run's callbacks (plain ``/invoke``, ``/batch`` and ``/stream``: the
aggregated events are not returned to clients), the graph runs synchronously in one worker
thread with no callbacks: one thread hop per request instead of one per node, and no
callback events built for a listener that drops them. With any other listener (``stream_log``
and ``stream_events``, a LangSmith tracer) it runs as before, through ``graph.ainvoke`` with
the callbacks, so per-node events still stream.
"""

from __future__ import annotations

import asyncio
import functools
import math
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Annotated, Any, Literal, cast

import orjson
from langchain_core.callbacks import BaseCallbackManager
from langchain_core.runnables import (
    ConfigurableFieldSpec,
    Runnable,
    RunnableConfig,
    RunnableLambda,
    ensure_config,
)
from langserve.callbacks import AsyncEventAggregatorCallback
from langserve.serialization import WellKnownLCSerializer
from pydantic import BaseModel, ConfigDict, Field, field_validator

from chains.citations import LOOKED_AT
from citerag.server.engine import Engine, Snapshot
from graphs.config import RAGConfig, client_knobs, knobs
from graphs.state import BLANK_QUESTION

#: ``configurable`` key the server sets from the bearer token (never from the client).
SERVER_GROUPS_KEY = "__citerag_user_groups"
#: ``configurable`` key with the authenticated user's name (for logs and traces).
SERVER_USER_KEY = "__citerag_user"
SERVER_KEYS = (SERVER_GROUPS_KEY, SERVER_USER_KEY)
#: The ``trace`` detail the server answers with unless ``[rag] trace`` or the client says
#: otherwise: the decisions, ids, scores and timings without passage text or the model
#: request (a ``full`` trace of the sample corpus is several times larger, and encoding it
#: is a measurable share of a request; docs/benchmarks/serving.md).
SERVER_TRACE_DEFAULT = "summary"

#: Most earlier messages a request may carry in ``chat_history``.
MAX_CHAT_HISTORY = 40
#: Longest message of ``chat_history`` (an earlier answer may be longer than a question).
MAX_CHAT_MESSAGE_CHARS = 20_000

_FILTER_OPS = ("$eq", "$ne", "$in", "$nin")
_MAX_FILTER_DEPTH = 5
_MAX_FILTER_NODES = 100


def knob_annotation(name: str) -> Any:
    """The pydantic annotation of one knob, derived from its :class:`~graphs.config.Knob`
    metadata (bounds, choices; clients' narrower choices where a knob has them).
    """
    k = knobs()[name]
    choices = k.client_choices or k.choices
    if choices:
        return Literal[choices]
    if k.kind == "bool":
        return bool
    if k.kind == "int":
        return Annotated[int, Field(strict=True, ge=k.lo, le=k.hi)]
    if k.kind == "float":
        return Annotated[float, Field(ge=k.lo, le=k.hi, allow_inf_nan=False)]
    return str


class CiteragAnswer(BaseModel):
    """What ``/rag`` returns (the graph's output; see :class:`graphs.state.RAGOutput`)."""

    status: Literal["answered", "no_evidence", "failed"] = Field(
        description="answered, no_evidence (nothing you may read supports an answer) or failed."
    )
    answer: str = Field(default="", description="The answer with [n] citation markers.")
    citations: list[dict[str, Any]] = Field(
        default_factory=list,
        description="One per cited passage: index, doc_name, locator, fragment (#page=N, "
        "#slide=N, #sheet=S&rows=a-b, #rows=a-b or #char=a,b), quote, start/end, page, section, "
        "scores.",
    )
    reason: str = Field(default="", description="Why the run ended no_evidence or failed.")
    looked_at: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Where a no_evidence run looked: the passages it read nearest the question "
        f"(at most {LOOKED_AT}), best first, each a citation's record with the whole passage as "
        "quote; no answer was found in them. Empty otherwise.",
    )
    generator: str | None = Field(default=None, description="The answerer that wrote it.")
    trace: dict[str, Any] = Field(default_factory=dict, description="The audit trace.")


def check_filter(flt: Any, depth: int = 0, budget: list[int] | None = None) -> None:
    """Validate a metadata filter in the dict syntax of :mod:`citerag.core.filters`.

    Raises:
        ValueError: Describing what is wrong (the client gets it as a 422).
    """
    budget = budget if budget is not None else [_MAX_FILTER_NODES]
    if depth > _MAX_FILTER_DEPTH:
        raise ValueError(f"filter nested deeper than {_MAX_FILTER_DEPTH} levels")
    if not isinstance(flt, dict):
        raise ValueError("a filter must be an object")
    for key, cond in flt.items():
        budget[0] -= 1
        if budget[0] < 0:
            raise ValueError(f"filter has more than {_MAX_FILTER_NODES} conditions")
        if key in ("$and", "$or"):
            if not isinstance(cond, list) or not cond:
                raise ValueError(f"{key} takes a non-empty list of filters")
            for sub in cond:
                check_filter(sub, depth + 1, budget)
        elif not isinstance(key, str) or not key or key.startswith("$"):
            raise ValueError(f"unsupported filter key {key!r}")
        elif isinstance(cond, dict):
            for op, arg in cond.items():
                if op not in _FILTER_OPS:
                    raise ValueError(f"unsupported operator {op!r} (use {', '.join(_FILTER_OPS)})")
                if op in ("$in", "$nin") and not isinstance(arg, list):
                    raise ValueError(f"{op} takes a list")
        elif isinstance(cond, list):
            raise ValueError(f"use {{'$in': [...]}} to match {key!r} against a list")


class ChatTurn(BaseModel):
    """One earlier message of the conversation (``chat_history``)."""

    model_config = ConfigDict(extra="ignore")

    role: Literal["user", "assistant"] = Field(description="Who wrote it.")
    content: str = Field(max_length=MAX_CHAT_MESSAGE_CHARS, description="What was written.")


def question_model(max_chars: int) -> type[BaseModel]:
    """The client-visible input model: ``question`` (bounded), optional ``filters`` and
    optional ``chat_history`` (earlier messages, oldest first; stateless: the client sends
    them with every request).

    Unknown fields (such as ``user_groups``) are ignored.
    """

    class CiteragQuestion(BaseModel):
        """A question to answer from the documents the caller may read."""

        model_config = ConfigDict(extra="ignore")

        question: str = Field(
            min_length=1,
            max_length=max_chars,
            description=f"The question (at most {max_chars} characters).",
        )
        filters: dict[str, Any] | None = Field(
            default=None,
            description='Extra metadata filter, e.g. {"doc_name": "report.pdf"}; ANDed '
            "with the access filter, so it can only narrow what you may read.",
        )
        chat_history: list[ChatTurn] = Field(
            default_factory=list,
            max_length=MAX_CHAT_HISTORY,
            description="Earlier messages of the conversation, oldest first: "
            '[{"role": "user" | "assistant", "content": "..."}]. A follow-up ("And the year '
            'before?") is rewritten as a standalone question from them; citations always '
            "refer to this request's passages.",
        )

        @field_validator("question")
        @classmethod
        def _not_blank(cls, value: str) -> str:
            if not value.strip():
                raise ValueError(BLANK_QUESTION)
            return value

        @field_validator("filters")
        @classmethod
        def _valid_filter(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
            if value:
                check_filter(value)
            return value or None

    return CiteragQuestion


class _TunableLambda(RunnableLambda):
    """A ``RunnableLambda`` that declares which ``configurable`` keys clients may send, and
    streams the answer's tokens to a plain ``astream`` (``/rag/stream``)."""

    def __init__(
        self,
        func: Callable[..., Any],
        afunc: Callable[..., Any],
        *,
        specs: list[ConfigurableFieldSpec],
        name: str,
        tokens: Callable[[Any, RunnableConfig], AsyncIterator[dict[str, Any]]] | None = None,
    ) -> None:
        super().__init__(func, afunc=afunc, name=name)
        self._specs = specs
        self._tokens = tokens

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """Token events then the answer when only LangServe's aggregator listens (plain
        ``/rag/stream``); otherwise LangChain's own streaming of the lambda (one chunk, with
        the callback events ``stream_events`` and ``stream_log`` need)."""
        if self._tokens is None or not only_langserve_listens(ensure_config(config)):
            async for chunk in super().astream(input, config, **kwargs):
                yield chunk
            return
        async for chunk in self._tokens(input, ensure_config(config)):
            yield chunk

    @property
    def config_specs(self) -> list[ConfigurableFieldSpec]:
        """The client-tunable knobs (LangServe builds the config schema from these)."""
        return list(self._specs)


def _specs(keys: Sequence[str]) -> list[ConfigurableFieldSpec]:
    return [
        ConfigurableFieldSpec(
            id=key,
            annotation=knob_annotation(key) | None,
            name=key,
            description=f"{knobs()[key].description[:1].upper()}{knobs()[key].description[1:]}."
            " Omit for the server default.",
            default=None,
        )
        for key in keys
    ]


def only_langserve_listens(config: RunnableConfig) -> bool:
    """Whether the run's only callback handlers are LangServe's event aggregators.

    Those collect events that ``/invoke``, ``/batch`` and ``/stream`` do not return
    (``include_callback_events`` is off), so such a run may drop its callbacks.
    """
    callbacks = config.get("callbacks")
    if not callbacks:
        return True
    if isinstance(callbacks, BaseCallbackManager):
        handlers = [*callbacks.handlers, *callbacks.inheritable_handlers]
    elif isinstance(callbacks, list):
        handlers = list(callbacks)
    else:
        return False
    return all(isinstance(h, AsyncEventAggregatorCallback) for h in handlers)


def build_served_runnable(
    engine: Engine,
    *,
    max_question_chars: int,
    client_keys: Sequence[str],
    server_defaults: dict[str, Any],
    observe: Callable[[dict[str, Any], str], dict[str, Any]] | None = None,
) -> Runnable:
    """Wrap the engine's current graph for LangServe.

    Args:
        engine: Supplies the current graph snapshot (taken once per request).
        max_question_chars: Longest accepted question.
        client_keys: Graph knobs clients may set in ``configurable``.
        server_defaults: ``configurable`` defaults the server sets for the graph.
        observe: Called with each answer and the caller's user name; returns the answer
            as sent (:meth:`citerag.server.observe.Observer.answer` adds the trace id).

    Returns:
        A runnable with input ``{question, filters?}`` and the graph's output.
    """
    unknown = [k for k in client_keys if k not in client_knobs(("yes", "opt-in"))]
    if unknown:
        raise ValueError(f"knobs {unknown} may not be set by clients")
    keys = list(client_keys)
    # Every RAGConfig field is set explicitly: LangChain merges the parent run's
    # ``configurable`` into the graph's, so a key left out would keep the client's value
    # (for example ``None`` for a knob the client did not set).
    base = RAGConfig(**{"trace": SERVER_TRACE_DEFAULT, **server_defaults}).to_dict()

    def prepare(inp: dict[str, Any], config: RunnableConfig) -> tuple[Snapshot, dict, dict]:
        snap = engine.current()
        if snap is None:
            raise RuntimeError("no index is loaded yet")
        conf = dict(config.get("configurable") or {})
        groups = conf.get(SERVER_GROUPS_KEY)
        if not isinstance(groups, list | tuple) or not all(isinstance(g, str) for g in groups):
            groups = []  # fail closed: public documents only
        knobs = {
            k: v
            for k, v in conf.items()
            if k in keys and v is not None and not (isinstance(v, float) and not math.isfinite(v))
        }
        graph_config: dict[str, Any] = {**config, "configurable": {**base, **knobs}}
        graph_input = {
            "question": inp["question"],
            "filters": inp.get("filters") or None,
            "user_groups": list(groups),
            "messages": _history(inp.get("chat_history")),
        }
        return snap, graph_input, graph_config

    def finish(out: Any, config: RunnableConfig) -> dict[str, Any]:
        answer = _answer(out)
        if observe is None:
            return answer
        user = str((config.get("configurable") or {}).get(SERVER_USER_KEY) or "")
        return observe(answer, user)

    def run(inp: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        snap, graph_input, graph_config = prepare(inp, config)
        return finish(snap.graph.invoke(graph_input, graph_config), config)

    async def arun(inp: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        snap, graph_input, graph_config = prepare(inp, config)
        if only_langserve_listens(config):
            # One hop to a worker thread for the whole (synchronous) graph, without the
            # callbacks: asyncio's executor does not copy the context, so the graph does not
            # inherit the wrapper's callback manager from it either.
            graph_config.pop("callbacks", None)
            loop = asyncio.get_running_loop()
            out = await loop.run_in_executor(
                None, functools.partial(snap.graph.invoke, graph_input, graph_config)
            )
            return finish(out, config)
        return finish(await snap.graph.ainvoke(graph_input, graph_config), config)

    async def tokens(inp: dict[str, Any], config: RunnableConfig) -> AsyncIterator[dict]:
        from graphs.rag import astream_answer

        snap, graph_input, graph_config = prepare(inp, config)
        graph_config.pop("callbacks", None)
        run_config = cast(RunnableConfig, graph_config)
        async for kind, event in astream_answer(snap.graph, graph_input, run_config):
            if kind == "final":
                yield {"type": "final", **finish(event, config)}
            else:
                yield event

    wrapper = _TunableLambda(run, arun, specs=_specs(keys), name="citerag", tokens=tokens)
    return wrapper.with_types(
        input_type=question_model(max_question_chars), output_type=CiteragAnswer
    )


def _history(turns: Any) -> list[dict[str, str]]:
    """``chat_history`` as graph ``messages`` (role and content only)."""
    out = []
    for t in turns or []:
        item = t.model_dump() if isinstance(t, BaseModel) else dict(t)
        out.append({"role": str(item["role"]), "content": str(item["content"])})
    return out


def _answer(out: Any) -> dict[str, Any]:
    """The graph's output without the conversation (clients keep their own history)."""
    answer = dict(out)
    answer.pop("messages", None)
    return answer


def _default(obj: Any) -> Any:
    """JSON fallback for objects in stream events (graph state holds dataclasses, numpy)."""
    if isinstance(obj, BaseModel):
        return obj.model_dump()
    if isinstance(obj, set | frozenset | tuple):
        return list(obj)
    if isinstance(obj, BaseException):
        return {"error": type(obj).__name__}  # like LangServe: no exception text to clients
    return f"<{type(obj).__name__}>"


#: Stream events of the graph's inner runs whose ``data.input`` is the whole graph state.
_STATE_INPUT_EVENTS = frozenset({"on_chain_start", "on_chain_end", "on_chain_stream"})


def bounded_event(event: Any) -> Any:
    """A ``stream_events`` event without the graph state it repeats.

    Every node's start and end event carries the whole state as its input (the passages,
    the candidates, the model request), its end event what it changed, and the graph's own
    stream events the state again: one question sent ~160 KB over the sample corpus even
    without the inputs. An inner run's input, output and chunk become the list of their
    keys: the events show which node ran, when, and what it touched; the root run's input
    (the question) and output (the answer, with the trace that records every decision) stay
    as they are.
    """
    if not isinstance(event, dict) or event.get("event") not in _STATE_INPUT_EVENTS:
        return event
    if not event.get("parent_ids"):
        return event  # the root run: the question and the answer
    data = event.get("data")
    if not isinstance(data, dict):
        return event
    slim = {
        part: {"keys": sorted(map(str, value))} if isinstance(value, dict) else value
        for part, value in data.items()
    }
    return {**event, "data": slim}


class ServerSerializer(WellKnownLCSerializer):
    """LangServe's serializer, tolerant of the graph's internal state in stream events, and
    keeping ``stream_events`` bounded (:func:`bounded_event`).

    Node inputs and outputs (visible through ``stream_events``/``stream_log``) contain
    dataclasses, numpy arrays and dicts with integer keys, which the default serializer
    rejects mid-stream.
    """

    def dumps(self, obj: Any) -> bytes:
        """Dump to JSON bytes."""
        return orjson.dumps(
            bounded_event(obj),
            default=_default,
            option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY,
        )

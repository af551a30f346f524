"""Typed state of the answering graph: its input, internal working keys and output."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

# Imported at run time: LangGraph resolves the state's type hints.
from chains.assemble import AssembledContext
from chains.candidates import Candidate
from chains.citations import ParsedOutput, Validation
from chains.directions import Directions
from chains.followup import Condensed
from chains.gate import GateDecision
from chains.support import SupportCheck
from graphs.records import ConstraintRecord, ModelRequest, RerankRecord, RetrievalRecord

Status = Literal["answered", "no_evidence", "failed"]


def add_timings(a: dict[str, float] | None, b: dict[str, float] | None) -> dict[str, float]:
    """Reducer: add per-node seconds (a node that runs twice accumulates)."""
    out = dict(a or {})
    for key, value in (b or {}).items():
        out[key] = out.get(key, 0.0) + value
    return out


#: Why an empty or whitespace-only question is refused before anything runs: the one wording
#: of ``citerag ask``, the graph's ``condense`` node and the ``/rag`` routes' input check.
BLANK_QUESTION = "the question must not be blank"


class RAGInput(TypedDict, total=False):
    """What a caller sends.

    Attributes:
        question: The user's question (required).
        user_groups: Groups of the caller; chunks labelled ``public`` or one of these are
            searchable. Over HTTP the server sets this from the bearer token, never from the
            request body.
        filters: Extra metadata filter in LangChain dict syntax, e.g.
            ``{"doc_name": "annual_report_2025.pdf"}``.
        messages: The conversation so far (LangChain messages or ``{"role", "content"}``
            dicts; LangGraph's ``add_messages`` reducer). Earlier turns let the ``condense``
            node rewrite a follow-up as a standalone question; with a checkpointer and a
            ``thread_id`` they are kept between calls. A conversation ending with the user's
            message may stand in for ``question``. Each run appends its turn: a
            ``HumanMessage`` (``additional_kwargs["standalone_question"]``) and an
            ``AIMessage`` with the answer (``additional_kwargs``: ``status``, ``citations``,
            ``reason``, ``standalone_question``).
    """

    question: str
    user_groups: list[str]
    filters: dict[str, Any] | None
    messages: Annotated[list[AnyMessage], add_messages]


class RAGOutput(TypedDict, total=False):
    """What a run returns.

    Attributes:
        status: ``answered``, ``no_evidence`` or ``failed``.
        answer: The answer with ``[n]`` markers (a fixed no-evidence sentence otherwise).
        citations: One entry per cited passage: ``index``, ``doc_name``, ``locator``,
            ``fragment`` (``#page=N`` / ``#slide=N`` / ``#sheet=S&rows=a-b`` / ``#rows=a-b``
            / ``#char=a,b``), ``quote``, ``start``/``end`` in the
            document's canonical text, ``page``, ``section``, ``scores``.
        reason: Why the run ended ``no_evidence`` or ``failed`` ('' when answered).
        looked_at: Where a ``no_evidence`` run looked: the passages it read nearest the
            question (at most :data:`chains.citations.LOOKED_AT`, best first;
            :func:`chains.citations.build_looked_at`), each a citation's record with the
            whole passage as its ``quote``, so a reader can open it and judge the refusal;
            the run found no answer in them. Empty when the run answered or failed, and when
            nothing was retrieved (an empty index, filters or a constraint no document
            satisfies).
        generator: Which answerer produced the text (``extractive`` or a model name).
        trace: Everything needed to audit the run (see docs/reference/trace.md).
        messages: The conversation including this turn (see :class:`RAGInput`).
    """

    status: Status
    answer: str
    citations: list[dict[str, Any]]
    reason: str
    looked_at: list[dict[str, Any]]
    generator: str
    trace: dict[str, Any]
    messages: Annotated[list[AnyMessage], add_messages]


class RAGState(RAGInput, RAGOutput, total=False):
    """Full working state.

    Attributes:
        condense: What the ``condense`` node did: the original and the standalone question
            (``question`` holds the standalone one from then on).
        directions: The standalone question split into its ask and its directions to the
            answerer (:mod:`chains.directions`); retrieval, reranking and the extractive
            answerer read the ask.
        constraints: What the question constrains and how it was applied.
        candidates: Candidates after the second stage, best first.
        query_vector: The question's embedding, shared by retrieval and reranking.
        retrieval: What the first stage did (mode, filter, list sizes, score types).
        reranking: What the second stage did (reranker name, score type).
        gate: The gate's decision (score, best, threshold and its source, passed).
        context: The assembled, numbered passages.
        model_messages: The exact chat messages sent to the answering model (the trace's
            ``model_request``; ``messages`` is the conversation), as a record the
            ``messages`` stream does not show.
        attempts: Generation attempts made so far (at most two).
        raw_outputs: Every raw model output, in order.
        errors: Generation errors, in order.
        last_error: The error of the latest generation attempt (``None`` if it succeeded).
        last_error_final: Whether that error is one another attempt cannot fix (a timeout,
            a refused key, a missing package: :data:`chains.models.FINAL_KINDS`).
        parsed: Current parsed output (``ParsedOutput``).
        validation: Citation validation of the current output (``Validation``).
        support: What the support check judged (``SupportCheck``; skipped with a reason for
            the extractive answerer or when ``support_check`` is off).
        events: Ladder events, in order: ``{"node": ..., "event": ..., ...}``.
        timings: Seconds spent per node.
    """

    condense: Condensed
    directions: Directions
    constraints: ConstraintRecord
    candidates: list[Candidate]
    query_vector: list[float] | None
    retrieval: RetrievalRecord
    reranking: RerankRecord
    gate: GateDecision
    context: AssembledContext
    model_messages: ModelRequest
    attempts: int
    raw_outputs: Annotated[list[str], operator.add]
    errors: Annotated[list[str], operator.add]
    last_error: str | None
    last_error_final: bool
    parsed: ParsedOutput
    validation: Validation | None
    support: SupportCheck
    events: Annotated[list[dict[str, Any]], operator.add]
    timings: Annotated[dict[str, float], add_timings]


def to_jsonable(result: dict[str, Any]) -> dict[str, Any]:
    """A run's result as plain JSON data: the conversation's LangChain messages become
    ``{"role", "content", ...}`` dicts (everything else already is plain data).

    Use it before ``json.dumps`` (the CLI does); LangServe and the Agent Server serialise
    messages themselves.
    """
    out = dict(result)
    if "messages" in out:
        out["messages"] = [_message_dict(m) for m in out["messages"] or []]
    return out


def _message_dict(message: Any) -> dict[str, Any]:
    if isinstance(message, dict):
        return dict(message)
    data: dict[str, Any] = {
        "role": getattr(message, "type", "message"),
        "content": getattr(message, "content", str(message)),
    }
    extra = getattr(message, "additional_kwargs", None)
    if extra:
        data["additional_kwargs"] = extra
    return data

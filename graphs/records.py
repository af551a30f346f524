"""Typed records the graph's stages write into the state (and the trace reads).

The gate's record is :class:`chains.gate.GateDecision`; the assembled context is
:class:`chains.assemble.AssembledContext`; parsing and validation are
:class:`chains.citations.ParsedOutput` and :class:`chains.citations.Validation`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage


@dataclass(frozen=True)
class ModelRequest:
    """The exact chat messages sent to the answering model (the trace's ``model_request``).

    A record, not a list of messages in the state: LangGraph's ``messages`` stream (what the
    Agent Server streams) shows every message a node returns, and the prompt (the system
    rules, the passages) is not a turn of the conversation.

    Attributes:
        messages: The system and user messages, in order.
    """

    messages: tuple[BaseMessage, ...]

    def __post_init__(self) -> None:
        # a checkpoint round trip (msgpack) gives the field back as a list
        object.__setattr__(self, "messages", tuple(self.messages))

    def __iter__(self) -> Iterator[BaseMessage]:
        """The messages, in order."""
        return iter(self.messages)


@dataclass(frozen=True)
class RetrievalRecord:
    """What the first stage did.

    Attributes:
        mode: ``dense``, ``bm25`` or ``hybrid``.
        filter: The exact filter applied inside every index (access AND metadata).
        k_dense: Depth of the dense list.
        k_bm25: Depth of the BM25 list.
        rrf_k: Fusion constant.
        found: Candidates returned.
        score_types: Meaning of each score name.
        first_stage: Store keys of the candidates in first-stage order (before the second
            stage), for evaluation; not part of the trace.
    """

    mode: str
    filter: dict[str, Any] | None
    k_dense: int
    k_bm25: int
    rrf_k: int
    found: int
    score_types: dict[str, str]
    first_stage: tuple[str, ...] = field(default=(), repr=False)

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly record (without the first-stage key list)."""
        out = asdict(self)
        out.pop("first_stage")
        return out


@dataclass(frozen=True)
class RerankRecord:
    """What the second stage did.

    Attributes:
        reranker: The reranker's name (e.g. ``sentence-hybrid``).
        score_type: Meaning of its ``rerank`` score.
    """

    reranker: str
    score_type: str

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly record."""
        return asdict(self)


@dataclass(frozen=True)
class ConstraintRecord:
    """What the ``constrain`` node read from the question and how it applied it.

    Attributes:
        enabled: Whether the ``constraints`` knob was on.
        documents: Documents the caller may read that carry any metadata the gazetteer
            uses (0: the index has no document metadata; nothing is applied).
        parsed: :meth:`chains.constraints.QuestionConstraints.to_dict` — each constraint
            with its span and match, unmatched names, the derived filter and boosts.
        filter: The hard metadata filter ANDed into retrieval (``None``: none).
        boosts: ``(field, values)`` preferred when ordering candidates.
        refusal: Why the question is refused before retrieval ('' when it is not).
        recency: For a question naming one company and no period, the period labels of its
            most recent documents (boosted, never required); empty otherwise.
        period_organised: Whether the readable documents are organised by stated period
            (at least two distinct stated periods): only then is a period a filter.
    """

    enabled: bool
    documents: int = 0
    parsed: dict[str, Any] | None = None
    filter: dict[str, Any] | None = None
    boosts: tuple[tuple[str, tuple[str, ...]], ...] = ()
    refusal: str = ""
    recency: tuple[str, ...] = ()
    period_organised: bool = False

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly record."""
        out = asdict(self)
        out["boosts"] = [[f, list(v)] for f, v in self.boosts]
        out["recency"] = list(self.recency)
        return out

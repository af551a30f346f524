"""Build the run trace: everything needed to audit one answer.

How much of it a run returns is the ``trace`` knob (:class:`graphs.config.RAGConfig`):

* ``full`` (the default for Python callers): every section, including each candidate's text
  and the exact messages sent to the model;
* ``summary`` (what ``citerag serve`` returns unless the client asks for ``full``): the
  decisions and their evidence without passage text: status, reason, question, groups,
  filters, index, config, constraints, retrieval, reranking, gate, context (passage numbers
  and chunk ids), generator, prompt id, attempts, errors, block, validation, events and
  timings, and per candidate its ids, location, scores and ranks (no ``content``); the model
  request and raw outputs are left out;
* ``none``: ``{}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig

from chains.prompts import load_prompt
from graphs.config import RAGConfig

if TYPE_CHECKING:
    from graphs.deps import GraphDeps
    from graphs.state import RAGState


def _messages(msgs: Iterable[Any] | None) -> list[dict[str, str]] | None:
    out = [{"role": getattr(m, "type", "message"), "content": str(m.content)} for m in msgs or ()]
    return out or None


def _record(rec: Any) -> dict[str, Any] | None:
    return None if rec is None else dict(rec.to_trace())


#: Candidate fields a ``summary`` trace keeps (ids, location, scores; never the text).
SUMMARY_CANDIDATE_FIELDS = ("chunk_id", "doc_id", "doc_name", "page", "scores", "ranks", "lists")
#: Sections a ``summary`` trace leaves out (passage text and the model's input and output).
SUMMARY_DROPPED = ("model_request", "raw_outputs")


def _summary_candidate(cand: Any) -> dict[str, Any]:
    full = cand.to_trace()
    return {k: full[k] for k in SUMMARY_CANDIDATE_FIELDS if k in full}


def build_trace(
    state: RAGState, config: RunnableConfig, deps: GraphDeps, outcome: dict[str, Any]
) -> dict[str, Any]:
    """Assemble the trace from the state.

    Only candidates that passed the access filter ever enter the state, so the trace cannot
    leak a forbidden chunk. ``config["configurable"]["trace"]`` chooses the detail (module
    docstring); ``none`` returns ``{}`` without reading the state.
    """
    cfg = RAGConfig.from_runnable_config(config)
    if cfg.trace == "none":
        return {}
    summary = cfg.trace == "summary"
    ctx = state.get("context")
    validation = state.get("validation")
    cands = (state.get("candidates") or [])[: cfg.trace_candidates]
    trace = {
        "question": state.get("question"),
        "condense": _record(state.get("condense")),
        "directions": _record(state.get("directions")),
        "user_groups": list(state.get("user_groups") or []),
        "filters": state.get("filters"),
        "index": {"manifest_id": deps.manifest_id, "embedding_model": deps.embedding_model},
        "config": cfg.to_dict(),
        "constraints": _record(state.get("constraints")),
        "retrieval": _record(state.get("retrieval")),
        "reranking": _record(state.get("reranking")),
        "candidates": [_summary_candidate(c) if summary else c.to_trace() for c in cands],
        "gate": _record(state.get("gate")),
        "context": None
        if ctx is None
        else {
            "passages": [
                {
                    "number": p.number,
                    "chunk_id": p.candidate.chunk_id,
                    "label": p.label(),
                    "block_type": p.candidate.meta.get("block_type"),
                    "ocr": bool(p.candidate.meta.get("ocr")),
                    "ocr_confidence": p.candidate.meta.get("ocr_confidence"),
                    "instruction_sentences": len(p.instruction_spans),
                    "expansion": None if p.expansion is None else p.expansion.to_trace(),
                }
                for p in ctx.passages
            ],
            "dropped_duplicates": ctx.dropped_duplicates,
            "dropped_budget": ctx.dropped_budget,
            "estimated_tokens": ctx.tokens,
            "expanded_tokens": ctx.expanded_tokens,
        },
        "generator": state.get("generator")
        or (None if ctx is None else (deps.answerer and getattr(deps.answerer, "name", None))),
        "prompt": load_prompt(cfg.prompt_file).id if ctx is not None else None,
        "model_request": None if summary else _messages(state.get("model_messages")),
        "raw_outputs": None if summary else list(state.get("raw_outputs") or []),
        "attempts": int(state.get("attempts") or 0),
        "errors": list(state.get("errors") or []),
        "block": None
        if state.get("parsed") is None
        else {
            "status": state["parsed"].block_status,
            "fields": state["parsed"].block,
        },
        "validation": None if validation is None else validation.to_trace(),
        "support": _record(state.get("support")),
        "events": list(state.get("events") or []),
        "status": outcome["status"],
        "reason": outcome.get("reason", ""),
        "timings_s": {k: round(v, 6) for k, v in (state.get("timings") or {}).items()},
    }
    if summary:
        for key in SUMMARY_DROPPED:
            trace.pop(key, None)
    return trace

"""Build the run trace: everything needed to audit one answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig

from chains.prompts import load_prompt
from graphs.config import RAGConfig

if TYPE_CHECKING:
    from graphs.deps import GraphDeps
    from graphs.state import RAGState


def _messages(msgs: list[Any] | None) -> list[dict[str, str]] | None:
    if not msgs:
        return None
    return [{"role": getattr(m, "type", "message"), "content": str(m.content)} for m in msgs]


def _record(rec: Any) -> dict[str, Any] | None:
    return None if rec is None else dict(rec.to_trace())


def build_trace(
    state: RAGState, config: RunnableConfig, deps: GraphDeps, outcome: dict[str, Any]
) -> dict[str, Any]:
    """Assemble the trace from the state.

    Only candidates that passed the access filter ever enter the state, so the trace cannot
    leak a forbidden chunk.
    """
    cfg = RAGConfig.from_runnable_config(config)
    ctx = state.get("context")
    validation = state.get("validation")
    cands = state.get("candidates") or []
    return {
        "question": state.get("question"),
        "user_groups": list(state.get("user_groups") or []),
        "filters": state.get("filters"),
        "index": {"manifest_id": deps.manifest_id, "embedding_model": deps.embedding_model},
        "config": cfg.to_dict(),
        "constraints": _record(state.get("constraints")),
        "retrieval": _record(state.get("retrieval")),
        "reranking": _record(state.get("reranking")),
        "candidates": [c.to_trace() for c in cands[: cfg.trace_candidates]],
        "gate": _record(state.get("gate")),
        "context": None
        if ctx is None
        else {
            "passages": [
                {"number": p.number, "chunk_id": p.candidate.chunk_id, "label": p.label()}
                for p in ctx.passages
            ],
            "dropped_duplicates": ctx.dropped_duplicates,
            "dropped_budget": ctx.dropped_budget,
            "estimated_tokens": ctx.tokens,
        },
        "generator": state.get("generator")
        or (None if ctx is None else (deps.answerer and getattr(deps.answerer, "name", None))),
        "prompt": load_prompt(cfg.prompt_file).id if ctx is not None else None,
        "model_request": _messages(state.get("messages")),
        "raw_outputs": list(state.get("raw_outputs") or []),
        "attempts": int(state.get("attempts") or 0),
        "errors": list(state.get("errors") or []),
        "block": None
        if state.get("parsed") is None
        else {
            "status": state["parsed"].block_status,
            "fields": state["parsed"].block,
        },
        "validation": None if validation is None else validation.to_trace(),
        "events": list(state.get("events") or []),
        "status": outcome["status"],
        "reason": outcome.get("reason", ""),
        "timings_s": {k: round(v, 6) for k, v in (state.get("timings") or {}).items()},
    }

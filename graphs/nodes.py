"""Graph nodes: plain functions ``node(state, config, *, deps) -> dict`` returning only the
keys they change. ``deps`` is bound by :func:`graphs.rag.build_graph`.
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from chains.assemble import AssembledContext, assemble, render_passages
from chains.citations import (
    build_citations,
    parse_output,
    recover_block,
    says_insufficient,
    validate,
)
from chains.prompts import load_prompt
from graphs.config import RAGConfig
from graphs.deps import GraphDeps
from graphs.state import RAGState
from graphs.trace import build_trace

log = logging.getLogger(__name__)

#: Rerankers already warned about (no calibrated threshold): warn once per process.
_WARNED_UNCALIBRATED: set[str] = set()

NO_EVIDENCE_ANSWER = (
    "No evidence: the indexed documents you can access do not contain passages that support "
    "an answer to this question."
)


def retrieve(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """First stage: dense, BM25 or hybrid candidates, access-filtered inside each index."""
    cfg = RAGConfig.from_runnable_config(config)
    res = deps.retriever.retrieve(
        state["question"],
        mode=cfg.retrieval_mode,
        k_dense=cfg.k_dense,
        k_bm25=cfg.k_bm25,
        k=cfg.k,
        rrf_k=cfg.rrf_k,
        user_groups=state.get("user_groups") or [],
        metadata_filter=state.get("filters"),
    )
    return {
        "candidates": res.candidates,
        "query_vector": res.query_vector,
        "retrieval": {
            "mode": cfg.retrieval_mode,
            "filter": res.filter,
            "k_dense": cfg.k_dense,
            "k_bm25": cfg.k_bm25,
            "rrf_k": cfg.rrf_k,
            "found": len(res.candidates),
            "score_types": res.score_types,
        },
    }


def rerank(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Second stage: rescore the shortlist, best first."""
    cfg = RAGConfig.from_runnable_config(config)
    reranker = deps.reranker(cfg.reranker)
    ranked = reranker.rerank(
        state["question"], list(state.get("candidates") or []), state.get("query_vector")
    )
    return {
        "candidates": ranked,
        "reranking": {"reranker": reranker.name, "score_type": reranker.score_type},
    }


def gate(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Compare the best candidate's named score with the threshold (no model call)."""
    cfg = RAGConfig.from_runnable_config(config)
    reranker_name = (state.get("reranking") or {}).get("reranker", "none")
    settings = cfg.gate_settings(reranker_name, deps.calibration)
    score_name, threshold = settings["score"], settings["threshold"]
    if settings["note"] and reranker_name not in _WARNED_UNCALIBRATED:
        _WARNED_UNCALIBRATED.add(reranker_name)
        log.warning("%s", settings["note"])
    cands = state.get("candidates") or []
    scores = [c.scores.get(score_name) for c in cands]
    present = [s for s in scores if s is not None]
    best = max(present) if present else None
    passing = sum(1 for s in present if s >= threshold)
    return {
        "gate": {
            "score": score_name,
            "score_of": reranker_name if score_name == "rerank" else "dense",
            "threshold": threshold,
            "threshold_source": settings["source"],
            "note": settings["note"],
            "best": best,
            "passing_candidates": passing,
            "passed": best is not None and best >= threshold,
        }
    }


def assemble_context(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Keep gated candidates, drop near-duplicates, fit the budget, number, render prompt."""
    cfg = RAGConfig.from_runnable_config(config)
    g = state["gate"]
    gated = [
        c
        for c in state.get("candidates") or []
        if c.scores.get(g["score"], float("-inf")) >= g["threshold"]
    ]
    ctx = assemble(
        gated,
        max_passages=cfg.max_passages,
        token_budget=cfg.token_budget,
        dedupe_threshold=cfg.dedupe_threshold,
    )
    prompt = load_prompt(cfg.prompt_file)
    messages: list[BaseMessage] = [
        SystemMessage(content=prompt.system),
        HumanMessage(
            content=prompt.user.format(
                passages=render_passages(ctx.passages), question=state["question"]
            )
        ),
    ]
    return {"context": ctx, "messages": messages}


def generate(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Call the answerer once; errors and empty output are recorded, not raised."""
    cfg = RAGConfig.from_runnable_config(config)
    answerer = deps.answerer_for(cfg)
    attempt = int(state.get("attempts") or 0) + 1
    ctx: AssembledContext = state["context"]
    try:
        raw = answerer.generate(state["question"], ctx.passages, list(state["messages"]))
    except Exception as exc:  # any provider error is a ladder event
        err = f"{type(exc).__name__}: {exc}"
        log.warning("generation attempt %d failed: %s", attempt, err)
        return {
            "attempts": attempt,
            "errors": [err],
            "last_error": err,
            "events": [{"node": "generate", "attempt": attempt, "event": "error", "detail": err}],
        }
    if not raw or not raw.strip():
        err = "empty output"
        return {
            "attempts": attempt,
            "errors": [err],
            "last_error": err,
            "raw_outputs": [raw or ""],
            "events": [{"node": "generate", "attempt": attempt, "event": "empty"}],
        }
    return {
        "attempts": attempt,
        "raw_outputs": [raw],
        "last_error": None,
        "generator": answerer.name,
        "events": [{"node": "generate", "attempt": attempt, "event": "ok"}],
    }


def parse(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Split prose and the ``<summary>`` block; parse the block strictly."""
    parsed = parse_output(state["raw_outputs"][-1])
    return {
        "parsed": parsed,
        "events": [{"node": "parse", "event": f"block_{parsed.block_status}"}],
    }


def recover(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Regex rung: salvage a malformed block or default a missing one, keeping the prose."""
    parsed = recover_block(state["parsed"])
    return {
        "parsed": parsed,
        "events": [{"node": "recover_block", "event": f"block_{parsed.block_status}"}],
    }


def validate_citations(
    state: RAGState, config: RunnableConfig, *, deps: GraphDeps
) -> dict[str, Any]:
    """Resolve every [n], verify every quote; drop and flag what is invented."""
    parsed = state["parsed"]
    if says_insufficient(parsed):
        return {
            "validation": None,
            "events": [{"node": "validate", "event": "model_reported_insufficient_evidence"}],
        }
    v = validate(parsed.prose, state["context"].passages)
    events: list[dict[str, Any]] = [
        {"node": "validate", "event": "ok" if v.ok else "flagged", **v.to_trace()}
    ]
    return {"validation": v, "events": events}


def finish_answered(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Attach server-side citations and end ``answered``."""
    v = state["validation"]
    citations = build_citations(v, state["context"].passages)
    out = {"status": "answered", "answer": v.answer, "citations": citations, "reason": ""}
    return {**out, "trace": build_trace(state, config, deps, out)}


def finish_no_evidence(
    state: RAGState, config: RunnableConfig, *, deps: GraphDeps
) -> dict[str, Any]:
    """End ``no_evidence``: below the gate, or the model said the passages do not answer."""
    g = state.get("gate") or {}
    if not g.get("passed"):
        best = g.get("best")
        best_txt = "no candidates" if best is None else f"best {g['score']} score {best:.3f}"
        reason = f"{best_txt} is below the threshold {g.get('threshold', 0):.3f}"
    else:
        reason = "the model reported that the supplied passages do not answer the question"
        parsed = state.get("parsed")
        why = parsed.block.get("reason") if parsed is not None else None
        if isinstance(why, str) and why.strip():
            reason += f": {why.strip()[:300]}"
    out = {"status": "no_evidence", "answer": NO_EVIDENCE_ANSWER, "citations": [], "reason": reason}
    return {**out, "trace": build_trace(state, config, deps, out)}


def finish_failed(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """End ``failed`` with an honest reason."""
    attempts = int(state.get("attempts") or 0)
    if state.get("last_error"):
        reason = f"generation failed {attempts} time(s); last error: {state['last_error']}"
    else:
        v = state.get("validation")
        problems = v.to_trace() if v is not None else {}
        reason = (
            f"after {attempts} attempt(s) the answer cited no supplied passage validly "
            f"(invalid ids {problems.get('invalid_ids')}, fabricated quotes "
            f"{len(problems.get('fabricated_quotes') or [])})"
        )
    out = {"status": "failed", "answer": "", "citations": [], "reason": reason}
    return {**out, "trace": build_trace(state, config, deps, out)}

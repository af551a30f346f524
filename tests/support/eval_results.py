"""Hand-made evaluation results for tests of metrics, tables, plots and calibration."""

from __future__ import annotations

from citerag.eval.runner import QuestionResult


def result(qid: str, first_hit: int | None, unanswerable: bool = False) -> QuestionResult:
    """A result whose first evidence hit is at ``first_hit`` (``None``: not found)."""
    return QuestionResult(
        id=qid,
        unanswerable=unanswerable,
        evidence_status=[] if unanswerable else ["indexed"],
        item_ranks=[first_hit],
        first_hit=first_hit,
        first_stage_hit=first_hit,
        gate_passed=True,
        gate_score="rerank",
        gate_best=0.7,
        threshold=0.5,
        best_rerank=0.7,
        best_dense=0.5,
        in_context=first_hit is not None and first_hit <= 5,
        attribution="" if unanswerable else "in_context",
        detail="",
    )

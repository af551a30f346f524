"""The threshold gate: the only stage before the answerer that can say "no evidence".

Everything about the gate lives here and is used by the ``gate`` node and nothing else:

* :func:`resolve` decides which score is compared against which threshold, and why
  (request → index calibration → packaged default; a reranker with no calibrated threshold
  gates on the dense cosine instead, with a note);
* :func:`decide` compares the best candidate's score with it (no model call);
* :meth:`GateDecision.cut` keeps the candidates that pass (what assembly may use).

The packaged thresholds are ``chains/gate_defaults.json`` (with their provenance); an index's
own calibration is ``INDEX/calibration.json`` (:mod:`citerag.index.calibration`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from chains.candidates import Candidate

GateScore = Literal["rerank", "dense"]
ThresholdSource = Literal["request", "index calibration", "packaged default"]


@cache
def gate_defaults() -> dict[str, Any]:
    """Calibrated default gate thresholds per score name (``chains/gate_defaults.json``)."""
    text = resources.files("chains").joinpath("gate_defaults.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


@dataclass(frozen=True)
class GateSettings:
    """Which score the gate compares, against which threshold, and where it came from.

    Attributes:
        score: ``rerank`` or ``dense``.
        threshold: Minimum best score to answer.
        source: ``request``, ``index calibration`` or ``packaged default``.
        note: A warning (e.g. an uncalibrated reranker fell back to dense), or ``None``.
    """

    score: GateScore
    threshold: float
    source: ThresholdSource
    note: str | None = None


def resolve(
    *,
    gate_score: str,
    gate_threshold: float | None,
    reranker_name: str,
    calibration: Mapping[str, Any] | None = None,
) -> GateSettings:
    """Decide the gate's score and threshold.

    With ``gate_score="rerank"`` the threshold depends on the reranker (a cross-encoder
    logit is on another scale than a cosine blend). Precedence: ``gate_threshold`` from the
    request (applied to the requested score), then the index's calibration, then the
    packaged defaults. A reranker with no calibrated threshold anywhere gates on the dense
    cosine instead, and ``note`` says so: run ``citerag calibrate`` with that reranker.

    Args:
        gate_score: The requested score (``rerank`` or ``dense``).
        gate_threshold: A threshold from the request, or ``None``.
        reranker_name: Name of the reranker that produced the ``rerank`` scores.
        calibration: Per-index calibration (score name -> ``{"threshold": ...}``).

    Raises:
        ValueError: ``gate_score`` is neither ``rerank`` nor ``dense``.
    """
    if gate_score not in ("rerank", "dense"):
        raise ValueError(f"gate_score must be rerank or dense, not {gate_score!r}")
    calibration = calibration or {}
    packaged = gate_defaults()
    score: GateScore = "rerank" if gate_score == "rerank" else "dense"
    if gate_threshold is not None:
        return GateSettings(score, float(gate_threshold), "request")
    key = reranker_name if score == "rerank" else "dense"
    note = None
    if score == "rerank" and key not in calibration and key not in packaged:
        note = (
            f"no calibrated threshold for reranker {reranker_name!r}: the gate compares "
            "the dense cosine instead; run `citerag calibrate` with this reranker"
        )
        score, key = "dense", "dense"
    if key in calibration:
        return GateSettings(score, float(calibration[key]["threshold"]), "index calibration", note)
    return GateSettings(score, float(packaged[key]["threshold"]), "packaged default", note)


@dataclass(frozen=True)
class GateDecision:
    """The gate's verdict on one question (recorded in the trace).

    Attributes:
        score: Score compared (``rerank`` or ``dense``).
        score_of: What produced it (the reranker name, or ``dense``).
        threshold: The threshold.
        threshold_source: Where the threshold came from.
        note: A warning, or ``None``.
        best: The best candidate's score (``None`` without candidates).
        passing_candidates: Candidates at or above the threshold.
        passed: Whether the question goes on to the answerer.
    """

    score: GateScore
    score_of: str
    threshold: float
    threshold_source: ThresholdSource
    note: str | None
    best: float | None
    passing_candidates: int
    passed: bool

    def passes(self, candidate: Candidate) -> bool:
        """Whether one candidate's gated score reaches the threshold."""
        value = candidate.scores.get(self.score)
        return value is not None and value >= self.threshold

    def cut(self, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The candidates that pass, in their order (what assembly may use)."""
        return [c for c in candidates if self.passes(c)]

    def refusal_reason(self) -> str:
        """Why a question below the threshold is refused."""
        best = "no candidates" if self.best is None else f"best {self.score} score {self.best:.3f}"
        return f"{best} is below the threshold {self.threshold:.3f}"

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly record."""
        return asdict(self)


def decide(
    candidates: Sequence[Candidate], settings: GateSettings, reranker_name: str
) -> GateDecision:
    """Compare the best candidate's gated score with the threshold.

    Args:
        candidates: Candidates after the second stage.
        settings: From :func:`resolve`.
        reranker_name: The reranker that produced ``rerank`` scores (for the record).
    """
    present = [s for c in candidates if (s := c.scores.get(settings.score)) is not None]
    best = max(present) if present else None
    return GateDecision(
        score=settings.score,
        score_of=reranker_name if settings.score == "rerank" else "dense",
        threshold=settings.threshold,
        threshold_source=settings.source,
        note=settings.note,
        best=best,
        passing_candidates=sum(1 for s in present if s >= settings.threshold),
        passed=best is not None and best >= settings.threshold,
    )

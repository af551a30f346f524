"""The threshold gate: the only stage before the answerer that can say "no evidence".

Everything about the gate lives here and is used by the ``gate`` node and nothing else:

* :func:`resolve` decides which score is compared against which threshold, and why
  (request → index calibration → packaged default; a reranker with no calibrated threshold
  gates on the dense cosine instead, with a note);
* :func:`decide` compares the best candidate's score with it (no model call);
* :meth:`GateDecision.cut` keeps the candidates that pass (what assembly may use).

The packaged thresholds are ``chains/gate_defaults.json`` (with their provenance); an index's
own calibration is ``INDEX/calibration.json`` (:mod:`citerag.stores.calibration`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import PurePath
from typing import Any, Literal

import numpy as np

from chains.candidates import Candidate

GateScore = Literal["rerank", "dense", "answerability"]
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
        model: The answerability model (``score == "answerability"`` only).
    """

    score: GateScore
    threshold: float
    source: ThresholdSource
    note: str | None = None
    model: AnswerabilityModel | None = None


def resolve(
    *,
    gate_score: str,
    gate_threshold: float | None,
    reranker_name: str,
    calibration: Mapping[str, Any] | None = None,
    embedding_model: str | None = None,
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
        embedding_model: The index's embedding model. A packaged threshold was calibrated
            with one model (its ``embedding_model``) and checked on those in its
            ``holds_for``; used with another (whose scores may sit on another scale) it still
            applies, and ``note`` says to run ``citerag calibrate``.

    Raises:
        ValueError: ``gate_score`` is neither ``rerank`` nor ``dense``.
    """
    if gate_score not in ("rerank", "dense", "answerability"):
        raise ValueError(f"gate_score must be rerank, dense or answerability, not {gate_score!r}")
    calibration = calibration or {}
    if gate_score == "answerability":
        own = calibration.get("answerability")
        model = AnswerabilityModel.from_dict(own) if own else packaged_answerability()
        if model is not None:
            if gate_threshold is not None:
                return GateSettings("answerability", float(gate_threshold), "request", None, model)
            source: ThresholdSource = "index calibration" if own else "packaged default"
            return GateSettings("answerability", model.threshold, source, None, model)
        gate_score = "rerank"  # no model anywhere: the reranker's calibrated threshold
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
    entry = packaged[key]
    calibrated_with = entry.get("embedding_model")
    holds = [calibrated_with, *entry.get("holds_for", [])]
    if (
        embedding_model
        and calibrated_with
        and not any(same_scale(embedding_model, m) for m in holds)
    ):
        other = (
            f"the packaged {key} threshold was calibrated with {calibrated_with}, not this "
            f"index's {embedding_model}: run `citerag calibrate` on your own questions"
        )
        note = f"{note}; {other}" if note else other
    return GateSettings(score, float(entry["threshold"]), "packaged default", note)


@cache  # called by every gate decision that uses a packaged threshold
def same_scale(model: str, calibrated_with: str) -> bool:
    """Whether ``model`` is ``calibrated_with`` as far as a threshold is concerned.

    The same model — by identity, or a local folder named as the hub model (``.../all-mpnet-
    base-v2`` for ``sentence-transformers/all-mpnet-base-v2``) — or the bundled model's int8
    ONNX export (cosine >= 0.998 with the float vectors, docs/benchmarks/serving.md). An
    entry's ``holds_for`` lists further models its threshold was checked on.
    """
    from citerag.embeddings import DEFAULT_MODEL, INT8_MODEL

    family = {INT8_MODEL: DEFAULT_MODEL}

    def base(name: str) -> str:
        return PurePath(family.get(name, name)).name

    return base(model) == base(calibrated_with)


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
        signals: With the answerability score: the best candidate's signals.
    """

    score: GateScore
    score_of: str
    threshold: float
    threshold_source: ThresholdSource
    note: str | None
    best: float | None
    passing_candidates: int
    passed: bool
    signals: Mapping[str, float] | None = None

    def passes(self, candidate: Candidate) -> bool:
        """Whether one candidate's gated score reaches the threshold."""
        value = candidate.scores.get(self.score)
        return value is not None and value >= self.threshold

    def cut(self, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The candidates that pass, in their order (what assembly may use)."""
        return [c for c in candidates if self.passes(c)]

    def refusal_reason(self) -> str:
        """Why a question below the threshold is refused: the best score against the
        threshold, or, when no candidate has the gated score (nothing was retrieved: an
        empty index, filters nothing matches; or a dense gate over BM25-only candidates),
        a sentence saying so."""
        if self.best is None:
            return (
                f"no passage with a {self.score} score was retrieved, so none reaches the "
                f"threshold {self.threshold:.3f}"
            )
        digits = 3  # enough digits to show the difference: 0.5497 is not "0.550"
        while digits < 6 and round(self.best, digits) >= round(self.threshold, digits):
            digits += 1
        best, threshold = f"{self.best:.{digits}f}", f"{self.threshold:.{digits}f}"
        if best == threshold:  # closer than a millionth: every digit
            best, threshold = repr(self.best), repr(self.threshold)
        return f"best {self.score} score {best} is below the threshold {threshold}"

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly record."""
        out = asdict(self)
        if self.signals is None:
            out.pop("signals")
        else:
            out["signals"] = {k: round(v, 6) for k, v in self.signals.items()}
        return out


def decide(
    candidates: Sequence[Candidate], settings: GateSettings, reranker_name: str
) -> GateDecision:
    """Compare the best candidate's gated score with the threshold.

    Args:
        candidates: Candidates after the second stage.
        settings: From :func:`resolve`.
        reranker_name: The reranker that produced ``rerank`` scores (for the record).
    """
    signals = None
    if settings.score == "answerability" and settings.model is not None:
        best_p = -1.0
        for c in candidates:
            sig = candidate_signals(c)
            p = settings.model.probability(sig)
            c.scores["answerability"] = p
            if p > best_p:
                best_p, signals = p, sig
    present = [s for c in candidates if (s := c.scores.get(settings.score)) is not None]
    best = max(present) if present else None
    return GateDecision(
        score=settings.score,
        score_of={"rerank": reranker_name, "dense": "dense"}.get(
            settings.score, "answerability model"
        ),
        threshold=settings.threshold,
        threshold_source=settings.source,
        note=settings.note,
        best=best,
        passing_candidates=sum(1 for s in present if s >= settings.threshold),
        passed=best is not None and best >= settings.threshold,
        signals=signals,
    )


# ---------------------------------------------------------------------------------------------
# the answerability score: one calibrated combination of the signals the pipeline computes


#: Per-candidate signals the answerability model combines (all already computed upstream).
SIGNALS: tuple[str, ...] = (
    "dense",  # chunk cosine
    "sentence",  # best sentence cosine (sentence reranker)
    "coverage",  # idf share of the question in the best-covering sentence
    "bm25_log",  # log(1 + BM25 score); 0 when the lexical list did not return it
    "both_lists",  # 1 when both the dense and the lexical list returned it
    "rerank",  # the second-stage score
)


def candidate_signals(candidate: Candidate) -> dict[str, float]:
    """The answerability signals of one candidate (missing ones are 0)."""
    s = candidate.scores
    dense = float(s.get("dense", 0.0))
    return {
        "dense": dense,
        "sentence": float(s.get("sentence", dense)),
        "coverage": float(s.get("sentence_lexical", 0.0)),
        "bm25_log": float(np.log1p(max(0.0, s.get("bm25", 0.0)))),
        "both_lists": 1.0 if {"dense", "bm25"} <= set(candidate.ranks) else 0.0,
        "rerank": float(s.get("rerank", dense)),
    }


@dataclass(frozen=True)
class AnswerabilityModel:
    """A logistic model over :data:`SIGNALS`: P(the candidate holds an answer).

    Attributes:
        weights: Weight per signal (on standardised signals).
        bias: Intercept.
        mean: Per-signal mean used to standardise.
        scale: Per-signal standard deviation used to standardise.
        threshold: Probability at or above which the gate answers.
        provenance: Where it was fitted, on what, with which rule and result.
    """

    weights: Mapping[str, float]
    bias: float
    mean: Mapping[str, float]
    scale: Mapping[str, float]
    threshold: float
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def probability(self, signals: Mapping[str, float]) -> float:
        """The model's probability for one candidate's signals."""
        z = self.bias + sum(
            w * (signals.get(k, 0.0) - self.mean.get(k, 0.0)) / (self.scale.get(k, 1.0) or 1.0)
            for k, w in self.weights.items()
        )
        return float(1.0 / (1.0 + np.exp(-z)))

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``chains/gate_model.json``, or the ``answerability`` entry of an
        index's ``calibration.json``)."""
        return {
            "score": "answerability",
            "threshold": self.threshold,
            "weights": dict(self.weights),
            "bias": self.bias,
            "mean": dict(self.mean),
            "scale": dict(self.scale),
            **dict(self.provenance),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AnswerabilityModel:
        """Read the JSON form.

        Raises:
            ValueError: A weight names an unknown signal, or a field is missing.
        """
        try:
            weights = {str(k): float(v) for k, v in data["weights"].items()}
            unknown = set(weights) - set(SIGNALS)
            if unknown:
                raise ValueError(f"unknown answerability signals {sorted(unknown)}")
            known = ("score", "threshold", "weights", "bias", "mean", "scale")
            return cls(
                weights=weights,
                bias=float(data["bias"]),
                mean={str(k): float(v) for k, v in data["mean"].items()},
                scale={str(k): float(v) for k, v in data["scale"].items()},
                threshold=float(data["threshold"]),
                provenance={k: v for k, v in data.items() if k not in known},
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not an answerability model: {exc}") from exc


def fit_answerability(
    positives: Sequence[Mapping[str, float]],
    negatives: Sequence[Mapping[str, float]],
    *,
    l2: float = 1.0,
    iterations: int = 50,
    signals: Sequence[str] = SIGNALS,
) -> AnswerabilityModel:
    """Fit the logistic model by Newton's method (L2-regularised, standardised signals).

    Positives and negatives are weighted to count equally (so the fit does not follow the
    class balance of one data set). The threshold is left at 0.5: choose it with a stated
    rule afterwards (``citerag calibrate``).

    Args:
        positives: Signals of the best candidate of answerable questions.
        negatives: Signals of the best candidate of questions that must be refused.
        l2: Ridge penalty on the weights (not the bias).
        iterations: Newton steps at most.
        signals: Which signals to use.

    Raises:
        ValueError: A class is empty.
    """
    if not positives or not negatives:
        raise ValueError("fitting needs both answerable and refusable questions")
    names = list(signals)
    x = np.asarray([[r.get(k, 0.0) for k in names] for r in [*positives, *negatives]], float)
    y = np.asarray([1.0] * len(positives) + [0.0] * len(negatives))
    sw = np.where(y == 1.0, 0.5 / len(positives), 0.5 / len(negatives)) * len(y)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = np.hstack([np.ones((len(y), 1)), (x - mean) / scale])
    beta = np.zeros(xs.shape[1])
    penalty = np.eye(xs.shape[1]) * l2
    penalty[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(xs @ beta)))
        grad = xs.T @ (sw * (p - y)) + penalty @ beta
        hess = (xs * (sw * p * (1 - p))[:, None]).T @ xs + penalty
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return AnswerabilityModel(
        weights={k: float(b) for k, b in zip(names, beta[1:], strict=True)},
        bias=float(beta[0]),
        mean={k: float(m) for k, m in zip(names, mean, strict=True)},
        scale={k: float(s) for k, s in zip(names, scale, strict=True)},
        threshold=0.5,
    )


@cache
def packaged_answerability() -> AnswerabilityModel | None:
    """The packaged answerability model (``chains/gate_model.json``), if one ships."""
    path = resources.files("chains").joinpath("gate_model.json")
    if not path.is_file():
        return None
    return AnswerabilityModel.from_dict(json.loads(path.read_text(encoding="utf-8")))

"""Run configuration: one dataclass, read from ``RunnableConfig["configurable"]``.

LangServe forwards only ``configurable``, so every per-request knob lives here, e.g.::

    graph.invoke({"question": "..."}, {"configurable": {"retrieval_mode": "bm25", "k": 10}})
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from functools import cache
from importlib import resources
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig


@cache
def gate_defaults() -> dict[str, Any]:
    """Calibrated default gate thresholds per score name (``chains/gate_defaults.json``)."""
    text = resources.files("chains").joinpath("gate_defaults.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


@dataclass
class RAGConfig:
    """Every knob of the answering graph, with its default.

    Attributes:
        retrieval_mode: ``dense``, ``bm25`` or ``hybrid`` (reciprocal rank fusion).
        k_dense: Depth of the dense list.
        k_bm25: Depth of the BM25 list.
        k: Candidates kept after fusion and passed to the second stage.
        rrf_k: Reciprocal-rank-fusion constant.
        reranker: ``sentence`` (offline default), ``none`` or ``cross-encoder:NAME``.
        gate_score: Score the gate compares: ``rerank`` (second-stage score) or ``dense``.
        gate_threshold: Minimum best score to answer; ``None`` = the calibrated default for
            the gate score and reranker (``chains/gate_defaults.json``).
        max_passages: Most passages in the model's context.
        token_budget: Estimated tokens allowed for passages (lowest-ranked dropped first).
        dedupe_threshold: 5-word-shingle containment above which a passage is a duplicate.
        model: ``extractive`` (offline default) or an ``init_chat_model`` string such as
            ``openai:gpt-4o-mini``; ignored when a model is injected into ``build_graph``.
        temperature: Sampling temperature for chat models.
        number_check: Extractive answerer only: reply "insufficient evidence" when a number
            the question asks about (a year, an amount, a code; two or more digits) appears in
            no supplied passage, instead of quoting the nearest sentence.
        prompt_file: Versioned prompt file in ``chains/prompts``.
        trace_candidates: How many candidates the trace lists.
    """

    retrieval_mode: Literal["dense", "bm25", "hybrid"] = "hybrid"
    k_dense: int = 20
    k_bm25: int = 20
    k: int = 20
    rrf_k: int = 60
    reranker: str = "sentence"
    gate_score: Literal["rerank", "dense"] = "rerank"
    gate_threshold: float | None = None
    max_passages: int = 5
    token_budget: int = 1800
    dedupe_threshold: float = 0.8
    model: str = "extractive"
    temperature: float = 0.0
    number_check: bool = True
    prompt_file: str = "answer_v1.md"
    trace_candidates: int = 20
    _extra: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_runnable_config(cls, config: RunnableConfig | None = None) -> RAGConfig:
        """Read known keys from ``config["configurable"]``; unknown keys are ignored.

        Raises:
            ValueError: If a value has the wrong type or is out of range.
        """
        conf = dict((config or {}).get("configurable") or {})
        names = {f.name for f in fields(cls) if not f.name.startswith("_")}
        values = {k: v for k, v in conf.items() if k in names}
        cfg = cls(**values)
        cfg.validate()
        return cfg

    def validate(self) -> None:
        """Check ranges and enumerations.

        Raises:
            ValueError: Describing the first bad value.
        """
        if self.retrieval_mode not in ("dense", "bm25", "hybrid"):
            raise ValueError(
                f"retrieval_mode must be dense, bm25 or hybrid, not {self.retrieval_mode!r}"
            )
        if self.gate_score not in ("rerank", "dense"):
            raise ValueError(f"gate_score must be rerank or dense, not {self.gate_score!r}")
        if not isinstance(self.number_check, bool):
            raise ValueError(f"number_check must be true or false, not {self.number_check!r}")
        for name in ("k_dense", "k_bm25", "k", "max_passages", "token_budget", "rrf_k"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1 or value > 10_000:
                raise ValueError(f"{name} must be an integer from 1 to 10000, not {value!r}")

    def threshold(
        self, reranker_name: str, calibration: dict[str, Any] | None = None
    ) -> tuple[str, float]:
        """Return ``(score name, threshold)`` the gate uses (see :meth:`gate_settings`)."""
        g = self.gate_settings(reranker_name, calibration)
        return g["score"], g["threshold"]

    def gate_settings(
        self, reranker_name: str, calibration: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Decide which score the gate compares, against which threshold, and why.

        With ``gate_score="rerank"``, the threshold depends on the reranker (a cross-encoder
        logit is on another scale than a cosine blend). Precedence: ``gate_threshold`` from
        the request (applied to the requested score), then the index's calibration
        (``INDEX/calibration.json``), then the packaged defaults. A reranker with no
        calibrated threshold anywhere gates on the dense cosine instead, and ``note`` says so
        (the trace carries it): run ``citerag calibrate`` with that reranker to fix it.

        Args:
            reranker_name: Name of the reranker that produced ``rerank`` scores.
            calibration: Per-index calibration (``INDEX/calibration.json``), which takes
                precedence over the packaged defaults.

        Returns:
            ``{"score", "threshold", "source", "note"}``; ``source`` is ``request``,
            ``index calibration`` or ``packaged default``; ``note`` is ``None`` or a warning.
        """
        calibration = calibration or {}
        packaged = gate_defaults()
        score = "rerank" if self.gate_score == "rerank" else "dense"
        note = None
        if self.gate_threshold is not None:
            return {
                "score": score,
                "threshold": float(self.gate_threshold),
                "source": "request",
                "note": None,
            }
        key = reranker_name if score == "rerank" else "dense"
        if score == "rerank" and key not in calibration and key not in packaged:
            note = (
                f"no calibrated threshold for reranker {reranker_name!r}: the gate compares "
                "the dense cosine instead; run `citerag calibrate` with this reranker"
            )
            score, key = "dense", "dense"
        if key in calibration:
            source, value = "index calibration", calibration[key]["threshold"]
        else:
            source, value = "packaged default", packaged[key]["threshold"]
        return {"score": score, "threshold": float(value), "source": source, "note": note}

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
        for name in ("k_dense", "k_bm25", "k", "max_passages", "token_budget", "rrf_k"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1 or value > 10_000:
                raise ValueError(f"{name} must be an integer from 1 to 10000, not {value!r}")

    def threshold(
        self, reranker_name: str, calibration: dict[str, Any] | None = None
    ) -> tuple[str, float]:
        """Return ``(score name, threshold)`` the gate uses.

        With ``gate_score="rerank"``, the calibrated default depends on the reranker (a
        cross-encoder logit is on another scale than a cosine blend); with no calibration for
        that reranker the gate falls back to the dense cosine.

        Args:
            reranker_name: Name of the reranker that produced ``rerank`` scores.
            calibration: Per-index calibration (``INDEX/calibration.json``), which takes
                precedence over the packaged defaults.
        """
        defaults = {**gate_defaults(), **(calibration or {})}
        if self.gate_score == "rerank" and reranker_name not in defaults:
            name, key = "dense", "dense"
        elif self.gate_score == "rerank":
            name, key = "rerank", reranker_name
        else:
            name, key = "dense", "dense"
        if self.gate_threshold is not None:
            return name, float(self.gate_threshold)
        return name, float(defaults[key]["threshold"])

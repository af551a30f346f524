"""Whether a calibration may be written: sample size, the threshold's interval, the diff.

Pure decision logic behind ``citerag calibrate`` (no model, no index):

* :class:`SampleRule` — the minimum sample. A rate measured on ``n`` questions has a 95 %
  Wilson interval whose half-width, in the worst case (a rate of 0.5), shrinks like
  ``1/sqrt(n)``; the rule asks for the smallest ``n`` whose worst-case half-width is at most
  :data:`MAX_HALF_WIDTH` (±0.25 → 12 questions) in *each* class, answerable and the bluff set.
  Below it, "keeps 90 % of answerable questions" cannot be told from "keeps 60 %".
* :func:`threshold_interval` — a stratified percentile bootstrap over the questions: resample
  the answerable questions and the bluff set (each with replacement, keeping their sizes),
  apply the same rule, and take the 2.5th and 97.5th percentiles of the chosen thresholds. A
  bootstrap because the chosen threshold is an order statistic (the ``k``-th highest
  unanswerable score, or the ``k``-th highest answerable one) whose sampling distribution has
  no simple closed form; resampling shows how far it moves with which questions happened to be
  in the sample.
* :func:`compare_kept` — the paired comparison of the proposed thresholds with the current ones
  on the same questions through the full graph; :attr:`KeptComparison.markedly_fewer` is the
  refusal rule (at least :data:`MARKED_DROP` of the answerable sample, and at least two
  questions, fewer kept).
* :func:`threshold_diff` — packaged default, current calibration and proposed threshold of
  each score.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from citerag.eval import metrics as stats
from citerag.eval.calibrate import Rule, ScoreScores, choose

#: Worst-case half-width of a 95 % Wilson interval the sample must reach in each class.
MAX_HALF_WIDTH = 0.25
#: Bootstrap resamples for the threshold's interval.
RESAMPLES = 1000
#: A drop in answerable kept (share of the answerable sample) that blocks writing.
MARKED_DROP = 0.10


def wilson_half_width(n: int, p: float = 0.5) -> float:
    """Half the width of the 95 % Wilson interval of a rate ``p`` measured on ``n`` trials.

    Raises:
        ValueError: ``n`` below 1 or ``p`` outside 0..1.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be between 0 and 1, not {p}")
    z = stats.Z95
    return z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)


def minimum_sample(half_width: float = MAX_HALF_WIDTH) -> int:
    """The smallest ``n`` whose worst-case (``p = 0.5``) Wilson half-width is ``<= half_width``.

    Raises:
        ValueError: ``half_width`` not in (0, 0.5].
    """
    if not 0.0 < half_width <= 0.5:
        raise ValueError(f"half_width must be in (0, 0.5], not {half_width}")
    n = 1
    while wilson_half_width(n) > half_width:
        n += 1
    return n


@dataclass(frozen=True)
class SampleRule:
    """The minimum sample for writing a calibration.

    Attributes:
        half_width: Worst-case Wilson half-width each class must reach (default ±0.25).
    """

    half_width: float = MAX_HALF_WIDTH

    def __post_init__(self) -> None:
        if not 0.0 < self.half_width <= 0.5:
            raise ValueError(f"half_width must be in (0, 0.5], not {self.half_width}")

    @property
    def minimum(self) -> int:
        """Questions needed in each class."""
        return minimum_sample(self.half_width)

    def describe(self) -> str:
        """The rule in words."""
        m = self.minimum
        return (
            f"at least {m} answerable and {m} unanswerable questions (in the bluff set): "
            f"below {m}, the 95 % Wilson interval of a rate measured on the sample is wider "
            f"than ±{self.half_width:.2f}"
        )

    def problems(self, n_answerable: int, n_bluff: int, bluff_set: str) -> list[str]:
        """Why the sample is too small (empty: it is large enough)."""
        m = self.minimum
        out = []
        for n, what in ((n_answerable, "answerable"), (n_bluff, f"{bluff_set} (bluff set)")):
            if n < m:
                hw = wilson_half_width(n) if n else 0.5
                out.append(
                    f"only {n} {what} questions (minimum {m}): a rate measured on them is "
                    f"uncertain by up to ±{hw:.2f} (95 % Wilson interval at a rate of 0.5)"
                )
        return out


@dataclass(frozen=True)
class ThresholdInterval:
    """A percentile-bootstrap interval of the chosen threshold.

    Attributes:
        low: Lower percentile.
        high: Upper percentile.
        resamples: Resamples drawn.
        failed: Resamples in which the rule could choose no threshold (left out).
        level: Coverage (0.95).
    """

    low: float
    high: float
    resamples: int
    failed: int = 0
    level: float = 0.95

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "low": round(self.low, 6),
            "high": round(self.high, 6),
            "level": self.level,
            "method": "stratified percentile bootstrap over questions",
            "resamples": self.resamples,
            "failed": self.failed,
        }

    def fmt(self) -> str:
        """``[0.412, 0.575]``."""
        return f"[{self.low:.3f}, {self.high:.3f}]"


def threshold_interval(
    s: ScoreScores,
    rule: Rule,
    bluff_set: str,
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
    level: float = 0.95,
) -> ThresholdInterval:
    """Bootstrap the rule's threshold over questions (stratified by class, fixed seed).

    Raises:
        ValueError: An empty class, or no resample in which the rule chooses a threshold.
    """
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, not {resamples}")
    pos = np.asarray(s.positives, dtype=np.float64)
    neg = np.asarray(s.negatives.get(bluff_set) or [], dtype=np.float64)
    if pos.size == 0 or neg.size == 0:
        raise ValueError("the bootstrap needs answerable questions and a non-empty bluff set")
    rng = np.random.default_rng(seed)
    chosen: list[float] = []
    failed = 0
    for _ in range(resamples):
        p = rng.choice(pos, pos.size, replace=True).tolist()
        n = rng.choice(neg, neg.size, replace=True).tolist()
        try:
            chosen.append(
                choose(ScoreScores(s.score, s.key, p, [None] * len(p), {"b": n}), rule, "b")
            )
        except ValueError:
            failed += 1
    if not chosen:
        raise ValueError("the rule chose no threshold in any resample")
    tail = (1 - level) / 2 * 100
    lo, hi = np.percentile(np.asarray(chosen), [tail, 100 - tail])
    return ThresholdInterval(float(lo), float(hi), resamples, failed, level)


@dataclass
class KeptComparison:
    """Proposed against current thresholds on the same questions (full graph outcomes).

    Attributes:
        current_kept: Answerable questions answered under the current thresholds.
        proposed_kept: Answerable questions answered under the proposed thresholds.
        current_refused: Unanswerable questions not answered under the current thresholds.
        proposed_refused: The same under the proposed thresholds.
        paired: Proposed against current on answerable kept (wins/losses, sign test).
        drop: The share limit for :attr:`markedly_fewer`.
    """

    current_kept: stats.Proportion
    proposed_kept: stats.Proportion
    current_refused: stats.Proportion
    proposed_refused: stats.Proportion
    paired: stats.PairedResult
    drop: float = MARKED_DROP

    @property
    def lost(self) -> int:
        """Net answerable questions the proposed thresholds keep fewer than the current."""
        return self.current_kept.k - self.proposed_kept.k

    @property
    def markedly_fewer(self) -> bool:
        """At least two and at least ``drop`` of the answerable questions fewer kept."""
        n = self.current_kept.n
        return n > 0 and self.lost >= max(2, math.ceil(self.drop * n - 1e-9))

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "current_answerable_kept": self.current_kept.to_json(),
            "proposed_answerable_kept": self.proposed_kept.to_json(),
            "current_unanswerable_refused": self.current_refused.to_json(),
            "proposed_unanswerable_refused": self.proposed_refused.to_json(),
            "paired_answerable_kept": self.paired.to_json(),
            "markedly_fewer": self.markedly_fewer,
        }


def compare_kept(
    ids: Sequence[str],
    unanswerable: Sequence[bool],
    current: Sequence[bool],
    proposed: Sequence[bool],
    *,
    drop: float = MARKED_DROP,
) -> KeptComparison:
    """Compare which questions are answered under the current and proposed thresholds.

    Args:
        ids: Question ids.
        unanswerable: Per question, whether it is unanswerable.
        current: Per question, whether the full graph answered under the current thresholds.
        proposed: The same under the proposed thresholds.
        drop: The share of the answerable sample lost that counts as markedly fewer.

    Raises:
        ValueError: Sequences of different lengths.
    """
    if not len(ids) == len(unanswerable) == len(current) == len(proposed):
        raise ValueError("ids, unanswerable, current and proposed must have the same length")
    a = [i for i, u in enumerate(unanswerable) if not u]
    u = [i for i, x in enumerate(unanswerable) if x]
    return KeptComparison(
        current_kept=stats.Proportion(sum(current[i] for i in a), len(a)),
        proposed_kept=stats.Proportion(sum(proposed[i] for i in a), len(a)),
        current_refused=stats.Proportion(sum(not current[i] for i in u), len(u)),
        proposed_refused=stats.Proportion(sum(not proposed[i] for i in u), len(u)),
        paired=stats.paired([proposed[i] for i in a], [current[i] for i in a], [ids[i] for i in a]),
        drop=drop,
    )


@dataclass(frozen=True)
class DiffRow:
    """One score's thresholds: packaged default, this index's calibration, proposed.

    Attributes:
        key: Calibration key (reranker name, ``dense``, ``answerability``).
        packaged: The packaged default (``None``: none ships).
        current: The index's current calibration (``None``: none).
        proposed: The proposed threshold.
    """

    key: str
    packaged: float | None
    current: float | None
    proposed: float

    @property
    def in_effect(self) -> float | None:
        """What the graph uses today: the calibration, else the packaged default."""
        return self.current if self.current is not None else self.packaged

    @property
    def changed(self) -> bool:
        """Whether writing would change the threshold in effect."""
        return self.in_effect is None or abs(self.in_effect - self.proposed) > 1e-9

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "packaged": self.packaged,
            "current": self.current,
            "proposed": self.proposed,
            "changed": self.changed,
        }


def threshold_diff(
    proposed: Mapping[str, Mapping[str, Any]],
    current: Mapping[str, Mapping[str, Any]],
    packaged: Mapping[str, Mapping[str, Any]],
) -> list[DiffRow]:
    """One :class:`DiffRow` per proposed entry (in its order)."""

    def th(entries: Mapping[str, Mapping[str, Any]], key: str) -> float | None:
        e = entries.get(key)
        return float(e["threshold"]) if e and "threshold" in e else None

    return [
        DiffRow(key, th(packaged, key), th(current, key), float(e["threshold"]))
        for key, e in proposed.items()
    ]


@dataclass
class WriteDecision:
    """Whether the proposed calibration may be written, and why not.

    Attributes:
        blockers: Reasons that block writing (``--force`` overrides them).
        warnings: Things to say that do not block.
    """

    blockers: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def allowed(self) -> bool:
        """No blocker."""
        return not self.blockers


def decide_write(
    sample: SampleRule,
    n_answerable: int,
    n_bluff: int,
    bluff_set: str,
    kept: KeptComparison | None,
) -> WriteDecision:
    """Apply the sample-size rule and the markedly-fewer rule."""
    d = WriteDecision(blockers=sample.problems(n_answerable, n_bluff, bluff_set))
    if kept is not None:
        if kept.markedly_fewer:
            d.blockers.append(
                f"the proposed thresholds keep {kept.lost} fewer answerable questions than the "
                f"current ones on this sample ({kept.current_kept.k}/{kept.current_kept.n} -> "
                f"{kept.proposed_kept.k}/{kept.proposed_kept.n}; limit: "
                f"{max(2, math.ceil(kept.drop * kept.current_kept.n - 1e-9))})"
            )
        elif kept.lost > 0:
            d.warnings.append(
                f"the proposed thresholds keep {kept.lost} fewer answerable question(s) than "
                "the current ones on this sample"
            )
        more = kept.current_refused.k - kept.proposed_refused.k
        if more > 0:
            d.warnings.append(
                f"the proposed thresholds answer {more} more unanswerable question(s) than the "
                f"current ones on this sample ({kept.current_refused.k}/"
                f"{kept.current_refused.n} -> {kept.proposed_refused.k}/"
                f"{kept.proposed_refused.n} refused)"
            )
    return d

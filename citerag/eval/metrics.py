"""Retrieval metrics and the statistics to report them honestly.

* :func:`recall_at_k` — share of questions with a hit in the top ``k`` (each question is a
  success or not: "did the generator get something that answers it?").
* :func:`reciprocal_rank` / MRR — ``1/rank`` of the first hit within a cutoff, 0 beyond.
* :func:`ndcg_at_k` — normalised discounted cumulative gain with linear gains
  (``grade / log2(rank + 1)``, the trec_eval/BEIR convention); each evidence item is credited
  once, at the first chunk that hits it.
* :func:`wilson_interval` — 95 % Wilson score interval for a proportion.
* :func:`sign_test` — two-sided exact sign test on the discordant pairs of a paired
  comparison (ties dropped), ``p = min(1, 2 * P(X <= min(w, l)))``, ``X ~ Bin(w + l, 1/2)``;
  :func:`paired` tallies it for per-question successes, :func:`paired_scores` for graded
  per-question scores (wins: A scored higher).
* :func:`bootstrap_mean_interval` — percentile bootstrap interval of a mean (used for MRR and
  nDCG, whose per-question values are not 0/1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``successes / n``.

    Args:
        successes: Number of successes (0..n).
        n: Number of trials.
        z: Normal quantile (1.96 for 95 %).

    Returns:
        ``(low, high)``; ``(0.0, 1.0)`` when ``n == 0``.

    Raises:
        ValueError: If ``successes`` is outside ``0..n``.
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test p-value on discordant pairs (ties already excluded).

    ``p = min(1, 2 * sum_{i <= min(wins, losses)} C(n, i) / 2**n)`` with ``n = wins + losses``;
    ``p = 1`` when there are no discordant pairs.
    """
    if wins < 0 or losses < 0:
        raise ValueError("wins and losses must be >= 0")
    n = wins + losses
    if n == 0:
        return 1.0
    m = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(m + 1))
    # exact integer arithmetic, then one division (no underflow for large n)
    return min(1.0, 2 * tail / 2**n)


def reciprocal_rank(rank: int | None, cutoff: int = 20) -> float:
    """``1 / rank`` if the first hit is within ``cutoff``, else 0 (``rank`` is 1-based)."""
    if rank is None or rank > cutoff:
        return 0.0
    if rank < 1:
        raise ValueError("ranks are 1-based")
    return 1.0 / rank


def recall_at_k(first_hit_ranks: Sequence[int | None], k: int) -> tuple[int, int]:
    """Count questions whose first hit is at rank ``<= k``; return ``(hits, n)``."""
    hits = sum(1 for r in first_hit_ranks if r is not None and r <= k)
    return hits, len(first_hit_ranks)


def mean_reciprocal_rank(first_hit_ranks: Sequence[int | None], cutoff: int = 20) -> float:
    """MRR over questions (0 for a miss within ``cutoff``)."""
    if not first_hit_ranks:
        return 0.0
    return sum(reciprocal_rank(r, cutoff) for r in first_hit_ranks) / len(first_hit_ranks)


def ndcg_at_k(item_ranks: Sequence[int | None], grades: Sequence[float], k: int = 10) -> float:
    """nDCG@k for one question.

    Args:
        item_ranks: For each evidence item, the 1-based rank of the first chunk hitting it
            (``None`` if none in the list). Two items first hit by the same chunk each count.
        grades: Each item's relevance grade (same order).
        k: Cutoff.

    Returns:
        DCG/IDCG with linear gains ``grade / log2(rank + 1)``; 0 when nothing is relevant.
    """
    if len(item_ranks) != len(grades):
        raise ValueError("one rank per graded item")
    dcg = sum(
        g / math.log2(r + 1)
        for r, g in zip(item_ranks, grades, strict=True)
        if r is not None and r <= k
    )
    ideal = sorted(grades, reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def bootstrap_mean_interval(
    values: Sequence[float], *, resamples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``.

    Args:
        values: Per-question values (e.g. reciprocal ranks).
        resamples: Bootstrap resamples.
        seed: RNG seed (results are reproducible).
        level: Coverage.

    Returns:
        ``(low, high)``; ``(mean, mean)`` for fewer than two values.
    """
    arr = np.asarray(values, dtype=np.float64)
    if arr.size < 2:
        m = float(arr.mean()) if arr.size else 0.0
        return m, m
    rng = np.random.default_rng(seed)
    means = np.empty(resamples, dtype=np.float64)
    chunk = max(1, 2_000_000 // arr.size)
    for s in range(0, resamples, chunk):
        e = min(resamples, s + chunk)
        idx = rng.integers(0, arr.size, size=(e - s, arr.size))
        means[s:e] = arr[idx].mean(axis=1)
    alpha = (1 - level) / 2
    lo, hi = np.quantile(means, [alpha, 1 - alpha])
    return float(lo), float(hi)


@dataclass
class Proportion:
    """A proportion with its Wilson interval.

    Attributes:
        k: Successes.
        n: Trials.
    """

    k: int
    n: int

    @property
    def value(self) -> float:
        """``k / n`` (0 when ``n == 0``)."""
        return self.k / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95 % Wilson interval."""
        return wilson_interval(self.k, self.n)

    def to_json(self) -> dict[str, Any]:
        """``{"k", "n", "value", "ci95": [lo, hi], "interval": "wilson"}``."""
        lo, hi = self.interval
        return {
            "k": self.k,
            "n": self.n,
            "value": round(self.value, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            "interval": "wilson",
        }

    def fmt(self, digits: int = 3) -> str:
        """``0.812 [0.771, 0.847]``."""
        lo, hi = self.interval
        return f"{self.value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


@dataclass
class Mean:
    """A mean with a percentile-bootstrap interval.

    Attributes:
        values: Per-question values.
    """

    values: list[float]

    @property
    def value(self) -> float:
        """The mean (0 for no values)."""
        return float(np.mean(self.values)) if self.values else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95 % percentile bootstrap interval (2000 resamples, seed 0)."""
        return bootstrap_mean_interval(self.values)

    def to_json(self) -> dict[str, Any]:
        """``{"n", "value", "ci95", "interval": "bootstrap"}``."""
        lo, hi = self.interval
        return {
            "n": len(self.values),
            "value": round(self.value, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            "interval": "percentile bootstrap, 2000 resamples, seed 0",
        }

    def fmt(self, digits: int = 3) -> str:
        """``0.512 [0.490, 0.533]``."""
        lo, hi = self.interval
        return f"{self.value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


@dataclass
class PairedResult:
    """A paired comparison of two systems on the same questions.

    Attributes:
        wins: Questions A got right and B did not.
        losses: Questions B got right and A did not.
        both: Questions both got right.
        neither: Questions neither got right.
    """

    wins: int
    losses: int
    both: int
    neither: int
    win_ids: list[str] = field(default_factory=list)
    loss_ids: list[str] = field(default_factory=list)

    @property
    def p_value(self) -> float:
        """Two-sided exact sign test on the discordant pairs."""
        return sign_test(self.wins, self.losses)

    def to_json(self) -> dict[str, Any]:
        """JSON form with the p-value."""
        out: dict[str, Any] = {
            "wins": self.wins,
            "losses": self.losses,
            "both": self.both,
            "neither": self.neither,
            "p_sign_test": round(self.p_value, 6),
        }
        if self.win_ids or self.loss_ids:
            out["win_ids"] = list(self.win_ids)
            out["loss_ids"] = list(self.loss_ids)
        return out

    def fmt(self) -> str:
        """``+18/−3 p=0.0015``."""
        return f"+{self.wins}/−{self.losses} p={format_p(self.p_value)}"


def paired(a: Sequence[bool], b: Sequence[bool], ids: Sequence[str] | None = None) -> PairedResult:
    """Tally a paired comparison of per-question successes (same question order).

    Args:
        a: Successes of system A.
        b: Successes of system B on the same questions.
        ids: Question ids (to list the discordant questions).
    """
    if len(a) != len(b) or (ids is not None and len(ids) != len(a)):
        raise ValueError("paired comparison needs the same questions on both sides")
    wins = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    losses = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    both = sum(1 for x, y in zip(a, b, strict=True) if x and y)
    win_ids = [i for i, x, y in zip(ids or [], a, b, strict=False) if x and not y]
    loss_ids = [i for i, x, y in zip(ids or [], a, b, strict=False) if y and not x]
    return PairedResult(wins, losses, both, len(a) - wins - losses - both, win_ids, loss_ids)


@dataclass
class ScoreComparison:
    """A paired comparison of graded per-question scores (e.g. a judged answer's share of
    supported claims), on the questions both systems have a score for.

    Attributes:
        wins: Questions A scored higher than B.
        losses: Questions B scored higher than A.
        ties: Questions both scored the same (dropped by the sign test).
        mean_a: A's mean score over the paired questions.
        mean_b: B's mean score over the same questions.
        win_ids: The questions A won.
        loss_ids: The questions A lost.
    """

    wins: int
    losses: int
    ties: int
    mean_a: float
    mean_b: float
    win_ids: list[str] = field(default_factory=list)
    loss_ids: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        """Paired questions."""
        return self.wins + self.losses + self.ties

    @property
    def p_value(self) -> float:
        """Two-sided exact sign test on the questions that differ."""
        return sign_test(self.wins, self.losses)

    def to_json(self) -> dict[str, Any]:
        """JSON form with the p-value."""
        out: dict[str, Any] = {
            "n": self.n,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "mean_a": round(self.mean_a, 6),
            "mean_b": round(self.mean_b, 6),
            "p_sign_test": round(self.p_value, 6),
        }
        if self.win_ids or self.loss_ids:
            out["win_ids"] = list(self.win_ids)
            out["loss_ids"] = list(self.loss_ids)
        return out

    def fmt(self) -> str:
        """``+5/−1 p=0.219 (n=20)``."""
        return f"+{self.wins}/−{self.losses} p={format_p(self.p_value)} (n={self.n})"


def paired_scores(
    a: Sequence[float | None], b: Sequence[float | None], ids: Sequence[str] | None = None
) -> ScoreComparison:
    """Compare graded per-question scores of two systems (same question order).

    Questions where either side has no score (``None``: not answered, not judged) are left
    out; of the rest, A wins where its score is higher and loses where it is lower.

    Args:
        a: System A's scores.
        b: System B's scores on the same questions.
        ids: Question ids (to list the questions that differ).

    Raises:
        ValueError: If the sequences differ in length.
    """
    if len(a) != len(b) or (ids is not None and len(ids) != len(a)):
        raise ValueError("paired comparison needs the same questions on both sides")
    names = list(ids) if ids is not None else [str(i) for i in range(len(a))]
    pairs = [
        (i, x, y) for i, x, y in zip(names, a, b, strict=True) if x is not None and y is not None
    ]
    win_ids = [i for i, x, y in pairs if x > y]
    loss_ids = [i for i, x, y in pairs if x < y]
    n = len(pairs)
    return ScoreComparison(
        wins=len(win_ids),
        losses=len(loss_ids),
        ties=n - len(win_ids) - len(loss_ids),
        mean_a=sum(x for _, x, _ in pairs) / n if n else 0.0,
        mean_b=sum(y for _, _, y in pairs) / n if n else 0.0,
        win_ids=win_ids if ids is not None else [],
        loss_ids=loss_ids if ids is not None else [],
    )


def format_p(p: float) -> str:
    """Format a p-value compactly (``<1e-6`` for tiny values)."""
    if p < 1e-6:
        return "<1e-6"
    if p < 0.001:
        return f"{p:.1e}"
    if p < 0.01:
        return f"{p:.4f}"
    return f"{p:.3f}"


def roc_auc(positive: Sequence[float], negative: Sequence[float]) -> float:
    """Probability a random positive scores above a random negative (ties count half).

    The Mann-Whitney estimate of the ROC AUC: 1.0 = a threshold separates the two sets
    perfectly, 0.5 = no separation.
    """
    pos = np.asarray(positive, dtype=np.float64)
    neg = np.asarray(negative, dtype=np.float64)
    if pos.size == 0 or neg.size == 0:
        return float("nan")
    allv = np.concatenate([pos, neg])
    order = allv.argsort(kind="mergesort")
    ranks = np.empty_like(order, dtype=np.float64)
    sorted_v = allv[order]
    # average ranks for ties
    i = 0
    n = allv.size
    while i < n:
        j = i
        while j + 1 < n and sorted_v[j + 1] == sorted_v[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    r_pos = ranks[: pos.size].sum()
    u = r_pos - pos.size * (pos.size + 1) / 2
    return float(u / (pos.size * neg.size))

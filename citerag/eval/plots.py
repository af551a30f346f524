"""Figures for evaluation results: recall@k with intervals, gate sweeps, destroyed evidence.

Every function returns a :class:`matplotlib.figure.Figure` built without ``pyplot``, so it
never switches the caller's backend: a notebook displays it inline, a script saves it with
:func:`save`. ``matplotlib`` is imported lazily (it is only needed when plotting).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citerag.eval import metrics as stats
from citerag.eval.calibrate import Calibration, sweep_row

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from citerag.eval.runner import ConfigRun

#: Colour cycle shared by the figures (colour-blind friendly tab10 subset).
COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")


def _figure(width: float, height: float, ncols: int = 1) -> tuple[Figure, list[Any]]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, list(axes)


def recall_curves(
    runs: Sequence[ConfigRun], ks: Sequence[int] | None = None, title: str = ""
) -> Figure:
    """Recall@k against k for each configuration, with shaded 95 % Wilson intervals.

    Args:
        runs: Evaluation runs over the same questions (one line each).
        ks: Cut-offs to plot (default 1..20).
        title: Figure title.
    """
    ks = list(ks or range(1, 21))
    fig, (ax,) = _figure(7.0, 4.6)
    for i, run in enumerate(runs):
        ranks = [r.first_hit for r in run.answerable]
        props = [stats.Proportion(*stats.recall_at_k(ranks, k)) for k in ks]
        color = COLORS[i % len(COLORS)]
        ax.plot(
            ks,
            [p.value for p in props],
            marker="o",
            ms=3,
            lw=1.8,
            color=color,
            label=f"{run.config.name} (R@{ks[0]} {props[0].value:.2f})",
        )
        ax.fill_between(
            ks,
            [p.interval[0] for p in props],
            [p.interval[1] for p in props],
            color=color,
            alpha=0.15,
            lw=0,
        )
    n = len(runs[0].answerable) if runs else 0
    ax.set_xlabel("k (chunks retrieved)")
    ax.set_ylabel("recall@k (shaded: 95 % Wilson interval)")
    ax.set_xticks([k for k in ks if k in (1, 2, 4, 8, 12, 16, 20) or len(ks) <= 10])
    ax.set_ylim(max(0.0, ax.get_ylim()[0]), 1.0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(title or f"recall@k over {n} answerable questions", fontsize=10)
    fig.tight_layout()
    return fig


def calibration_curves(cals: Sequence[Calibration], title: str = "") -> Figure:
    """One panel per gate score: answerable kept and bluff rates against the threshold."""
    fig, axes = _figure(6.4 * len(cals), 5.4, ncols=len(cals))
    for ax, cal in zip(axes, cals, strict=True):
        s = cal.scores
        finite = [v for v in s.positives if v > -math.inf] + [
            v for neg in s.negatives.values() for v in neg if v > -math.inf
        ]
        lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
        xs = [lo + (hi - lo) * i / 400 for i in range(401)]
        rows = [sweep_row(s, x) for x in xs]
        ax.plot(
            xs,
            [r["answerable_kept"].value for r in rows],
            color="tab:green",
            lw=2,
            label="answerable kept",
        )
        ax.plot(
            xs,
            [r["kept_with_evidence"].value for r in rows],
            color="tab:green",
            lw=1,
            ls="--",
            label="kept with evidence in context",
        )
        colors = ("tab:red", "tab:orange", "tab:purple", "tab:brown")
        for i, name in enumerate(s.negatives):
            ax.plot(
                xs,
                [r[f"bluffs:{name}"].value for r in rows],
                color=colors[i % 4],
                lw=2,
                label=f"bluffs: {name}",
            )
        ax.axvline(cal.threshold, color="black", lw=1, ls=":")
        ax.text(cal.threshold, 1.02, f" {cal.threshold:.3f}", fontsize=8, va="bottom")
        ax.set_xlabel(f"gate threshold on {s.score} score ({s.key})")
        ax.set_ylabel("share of questions at or above the threshold")
        ax.set_ylim(-0.02, 1.08)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7.5, loc="center right")
        ax.set_title(
            f"{s.score} score ({s.key}), threshold {cal.threshold:.3f}\n"
            + "\n".join(f"ROC AUC answerable vs {k}: {v:.3f}" for k, v in cal.auc.items()),
            fontsize=8.5,
        )
    if title:
        fig.suptitle(textwrap.fill(title, 140), fontsize=9.5)
    fig.tight_layout()
    return fig


def destroyed_bars(summaries: Mapping[str, Mapping[str, Any]], title: str = "") -> Figure:
    """Destroyed-evidence share per chunking setting, with 95 % Wilson intervals.

    Args:
        summaries: Label -> :func:`citerag.eval.runner.evidence_summary` output.
        title: Figure title.
    """
    labels = list(summaries)
    props = []
    for label in labels:
        d = summaries[label]["destroyed_questions"]
        props.append(stats.Proportion(int(d["k"]), int(d["n"])))
    fig, (ax,) = _figure(max(4.5, 1.3 * len(labels) + 2), 3.8)
    xs = list(range(len(labels)))
    vals = [p.value for p in props]
    err = [
        [v - p.interval[0] for v, p in zip(vals, props, strict=True)],
        [p.interval[1] - v for v, p in zip(vals, props, strict=True)],
    ]
    ax.bar(xs, vals, yerr=err, capsize=4, color=[COLORS[i % len(COLORS)] for i in xs], alpha=0.8)
    for x, p in zip(xs, props, strict=True):
        ax.text(x, p.interval[1], f"{p.k}/{p.n}", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(xs, labels, fontsize=8)
    ax.set_ylabel("answerable questions whose\nevidence is in no chunk whole")
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(title or "destroyed evidence", fontsize=10)
    fig.tight_layout()
    return fig


def plot_calibration(cals: Sequence[Calibration], path: Path, title: str = "") -> Path:
    """Save :func:`calibration_curves` as a PNG (one panel per gate score); return the path."""
    return save(calibration_curves(cals, title), path)


def save(fig: Figure, path: Path | str, dpi: int = 110) -> Path:
    """Write a figure as PNG (creating the folder); return the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=dpi)
    return out

"""Readable tables (Markdown, which also reads well in a terminal) for evaluation results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from citerag.eval import metrics as stats
from citerag.eval.runner import ATTRIBUTIONS, KS, MRR_CUTOFF, NDCG_K, ConfigRun

if TYPE_CHECKING:
    from citerag.eval.judge import JudgedRun


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], markdown: bool = True) -> str:
    """Render a table; columns are padded so it also reads as plain text.

    Args:
        headers: Column titles.
        rows: Cells (converted with ``str``).
        markdown: Pipe table (``True``) or space-separated columns.
    """
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r: list[str]) -> str:
        padded = [
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        return ("| " + " | ".join(padded) + " |") if markdown else "  ".join(padded)

    out = [line(cells[0])]
    if markdown:
        out.append(
            "|"
            + "|".join(
                ("-" * (w + 1) + ":") if i else ("-" * (w + 2)) for i, w in enumerate(widths)
            )
            + "|"
        )
    else:
        out.append("  ".join("-" * w for w in widths))
    out.extend(line(r) for r in cells[1:])
    return "\n".join(out)


def retrieval_table(
    runs: Sequence[ConfigRun], ks: Sequence[int] = KS, markdown: bool = True
) -> str:
    """Recall@k (Wilson 95 %), MRR@20 and nDCG@10 (bootstrap 95 %), evidence in context."""
    headers = [
        "configuration",
        "n",
        *[f"R@{k}" for k in ks],
        f"MRR@{MRR_CUTOFF}",
        f"nDCG@{NDCG_K}",
        "in context",
    ]
    rows = []
    for run in runs:
        s = run.summary_objects(ks)
        rows.append(
            [
                run.config.name,
                s["answerable"],
                *[s[f"recall@{k}"].fmt() for k in ks],
                s[f"mrr@{MRR_CUTOFF}"].fmt(),
                s[f"ndcg@{NDCG_K}"].fmt(),
                s["in_context"].fmt(),
            ]
        )
    return table(headers, rows, markdown)


def attribution_table(runs: Sequence[ConfigRun], markdown: bool = True) -> str:
    """Where answerable questions' evidence ended up, per configuration (counts and %)."""
    headers = ["configuration", *[a.replace("_", " ") for a in ATTRIBUTIONS]]
    rows = []
    for run in runs:
        s = run.summary_objects()
        rows.append(
            [
                run.config.name,
                *[
                    f"{s[f'attribution.{a}'].k} ({s[f'attribution.{a}'].value:.1%})"
                    for a in ATTRIBUTIONS
                ],
            ]
        )
    return table(headers, rows, markdown)


def refusal_table(runs: Sequence[ConfigRun], markdown: bool = True) -> str:
    """Gate outcomes: answerable refused, unanswerable answered (bluffs), with thresholds."""
    headers = ["configuration", "gate", "answerable refused", "unanswerable answered"]
    rows = []
    for run in runs:
        s = run.summary_objects()
        r0 = run.results[0] if run.results else None
        gate = f"{r0.gate_score} >= {r0.threshold:.3f}" if r0 else "-"
        un = s["unanswerable_answered"]
        rows.append(
            [run.config.name, gate, s["answerable_refused"].fmt(), un.fmt() if un.n else "-"]
        )
    return table(headers, rows, markdown)


def compare_table(
    pairs: Sequence[tuple[str, str, Mapping[str, stats.PairedResult | stats.ScoreComparison]]],
    markdown: bool = True,
) -> str:
    """Paired comparisons: wins/losses and exact sign-test p per metric (boolean outcomes,
    or graded scores such as judged answers')."""
    if not pairs:
        return ""
    metrics = list(pairs[0][2])
    headers = ["A vs B", *[m.replace("recall@", "R@") for m in metrics]]
    rows = [[f"{a} vs {b}", *[res[m].fmt() for m in metrics]] for a, b, res in pairs]
    return table(headers, rows, markdown)


def evidence_table(summary: dict[str, Any], markdown: bool = True) -> str:
    """Evidence status counts (destroyed evidence is independent of retrieval)."""
    q = summary["questions"]
    n = summary["answerable"]
    rows = [
        [status.replace("_", " "), q.get(status, 0), f"{q.get(status, 0) / n:.1%}" if n else "-"]
        for status in (
            "indexed",
            "destroyed",
            "not_in_source",
            "source_unavailable",
            "doc_not_indexed",
        )
    ]
    d = summary["destroyed_questions"]
    rows.append(
        [
            "destroyed, 95 % Wilson",
            d["k"],
            f"{d['value']:.3f} [{d['ci95'][0]:.3f}, {d['ci95'][1]:.3f}]",
        ]
    )
    return table(
        ["answerable questions whose best evidence is", "questions", "share"], rows, markdown
    )


#: The judged figures, in the order :func:`judge_table` prints them.
JUDGED_FIGURES = (
    ("faithfulness", "faithfulness (ALCE citation recall)"),
    ("citation_precision", "citation precision (ALCE)"),
    ("relevance", "answer relevance: yes"),
    ("relevance_partial_or_better", "answer relevance: yes or partial"),
    ("correctness", "correct (gold answers; refusals count)"),
    ("correct_when_answered", "correct when answered"),
    ("refusal", "unanswerable refused"),
    ("unjudged", "answers unjudged (malformed twice)"),
)


def judge_table(runs: Sequence[JudgedRun], markdown: bool = True) -> str:
    """Judged figures per answerer configuration: ``k/n value [95 % Wilson]`` (``-`` when a
    figure has no questions, e.g. correctness without gold answers)."""
    headers = ["figure", *[r.name for r in runs]]
    sums = [r.summary_objects() for r in runs]
    rows = []
    for key, label in JUDGED_FIGURES:
        cells = [s[key] for s in sums]
        if all(p.n == 0 for p in cells):
            continue
        rows.append([label, *[f"{p.k}/{p.n} {p.fmt()}" if p.n else "-" for p in cells]])
    return table(headers, rows, markdown)

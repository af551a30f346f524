"""The fallback-ladder article's unusable-answer table, measured on the real graph.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.ladder [-n 20000] [--seed 31]

Indexes the bundled sample corpus (``benchmarks/out/work/sample/index``) and runs ``n``
questions through the real compiled graph with :class:`citerag.eval.faults.FaultyChatModel`
injected (2 % generation errors, 5 % malformed blocks, 6 % off-topic questions that the gate
refuses). Equivalent to ``citerag ladder --index benchmarks/out/work/sample/index``.
Writes ``benchmarks/out/ladder.{json,md}`` and the result file ``benchmarks/results/ladder.json``
(table ``policy``: unusable answers per policy with Wilson intervals, next to the article's).
"""

from __future__ import annotations

from typing import Any

from benchmarks.common import model, parser, sample, write
from benchmarks.results import table, write_result


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("-n", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--p-error", type=float, default=0.02)
    p.add_argument("--p-malformed", type=float, default=0.05)
    p.add_argument("--p-no-results", type=float, default=0.06)
    args = p.parse_args()

    from citerag.eval.faults import ladder_on_index
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import CachedEmbeddings, parse_config

    qfile, loaded = sample(args)
    run = ladder_on_index(
        loaded,
        CachedEmbeddings(model().embeddings),
        load_questions(qfile),
        parse_config("default"),
        embedding_model=model().name,
        n=args.n,
        p_no_results=args.p_no_results,
        p_error=args.p_error,
        p_malformed=args.p_malformed,
        seed=args.seed,
        progress=not args.no_progress,
    )
    res, off_topic = run.result, run.off_topic
    data = res.to_json()
    data["off_topic_pool"] = [q.id for q in off_topic]
    nr = data["no_results"]
    md = [
        f"## Fallback ladder — {res.n} runs through the real graph\n",
        f"Fake chat model: generation error {args.p_error:.0%} per call, malformed "
        f"`<summary>` block {args.p_malformed:.0%} per call (independent; four kinds: "
        f"Python-style literal, code fence, truncated, missing); {args.p_no_results:.0%} "
        f"of runs ask an off-topic question ({', '.join(data['off_topic_pool'])}) that the "
        f"real gate refuses. Realised: no results {nr['k']}/{nr['n']} ({nr['value']:.2%}), "
        f"model calls {res.tally.get('calls', 0)}, errors {res.tally.get('errors', 0)}, "
        f"malformed {sum(v for k, v in res.tally.items() if k.startswith('malformed'))}; "
        f"final statuses {res.status}.\n",
        res.table(),
        "\n'expected' = analytic value for independent faults; 'article' = the fallback-ladder "
        "article's "
        "simulation. Rungs needed per run: "
        + ", ".join(f"{k} {v}" for k, v in sorted(res.needed.items())),
    ]
    write(args.out, "ladder", data, "\n".join(md))
    write_result("ladder", {"policy": policy_table(res)}, data)
    return 0


def policy_table(res: Any) -> dict[str, Any]:
    """The docs' table: unusable per policy (95 % Wilson) and the article's simulated rate."""
    from citerag.eval import metrics as stats
    from citerag.eval.faults import ARTICLE_LADDER, POLICIES

    rows = []
    for i, (name, _) in enumerate(POLICIES):
        p = stats.Proportion(res.unusable[name], res.n)
        lo, hi = p.interval
        rate = f"{p.value * 100:.2f} %"
        if i == len(POLICIES) - 1:
            rate = f"**{rate}**"  # the full ladder, the one shipped
        rows.append(
            [
                name,
                f"{rate} [{lo * 100:.2f}, {hi * 100:.2f}]",
                f"{ARTICLE_LADDER[name] * 100:.2f} %",
            ]
        )
    return table(["policy", "unusable (95 % Wilson)", "article §3.4 (simulated)"], rows)


if __name__ == "__main__":
    raise SystemExit(main())

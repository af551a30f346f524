"""MMR when assembling the context: evidence in the passages, paired against rank order.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.mmr_eval --dataset squad|scifact|financebench
        [--lambdas 0.5,0.7,0.85] [--limit N]

Ingests the data set with the default settings (as ``retrieval_eval.py``; the index is
shared with it under ``benchmarks/out/work/<dataset>/``) and runs its answerable questions
through the graph's own stages up to ``assemble`` (the packaged gate) with ``mmr_lambda`` =
1 (rank order, the default) and each of ``--lambdas``. Reported per setting: evidence in the
assembled context (Wilson 95 %), passages in the context, and the exact sign test against
rank order on the same questions. Writes ``benchmarks/out/mmr_<dataset>.{json,md}``.
"""

from __future__ import annotations

from benchmarks.common import cached_embeddings, dataset, parser, save_embeddings, write


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--dataset", required=True, choices=["squad", "scifact", "financebench"])
    p.add_argument("--lambdas", default="0.5,0.7,0.85")
    p.add_argument("--limit", type=int, help="only the first N answerable questions")
    args = p.parse_args()

    from citerag.eval import metrics as stats
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import EvalConfig, Evaluator, parse_config

    prep, loaded = dataset(args.dataset, args)
    questions = [q for q in load_questions(prep.questions) if not q.unanswerable][: args.limit]
    corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
    emb = cached_embeddings(args)
    ev = Evaluator(loaded.store, emb, corpus, calibration={}, manifest_id=loaded.manifest_id)
    base = parse_config("default")
    lambdas = [float(x) for x in args.lambdas.split(",") if x.strip()]
    configs = [base] + [
        EvalConfig(f"mmr {lam:g}", tuple(sorted({**base.conf, "mmr_lambda": lam}.items())))
        for lam in lambdas
    ]
    runs = {c.name: ev.run(questions, c, progress=not args.no_progress) for c in configs}
    save_embeddings(emb, args)
    ref = {r.id: r for r in runs[base.name].results}
    rows, data = [], {"dataset": args.dataset, "questions": len(questions), "settings": {}}
    for name, run in runs.items():
        hits = sum(r.in_context for r in run.results)
        lo, hi = stats.wilson_interval(hits, len(run.results))
        wins = sum(r.in_context and not ref[r.id].in_context for r in run.results)
        losses = sum(ref[r.id].in_context and not r.in_context for r in run.results)
        p_value = stats.sign_test(wins, losses)
        data["settings"][name] = {
            "in_context": hits / len(run.results),
            "ci": [lo, hi],
            "wins": wins,
            "losses": losses,
            "p": p_value,
        }
        rows.append(
            f"| {name} | {hits / len(run.results):.3f} [{lo:.3f}, {hi:.3f}] | "
            f"+{wins} / −{losses} | {p_value:.3g} |"
        )
    md = "\n".join(
        [
            f"MMR on {args.dataset} ({len(questions)} answerable questions, packaged gate):",
            "",
            "| assembly | evidence in context (95 % Wilson) | vs rank order | sign test p |",
            "|---|---:|---:|---:|",
            *rows,
        ]
    )
    write(args.out, f"mmr_{args.dataset}", data, md)
    return 0


#: Result files of this study that its script does not write (result name -> why).
TRANSCRIBED_RESULTS = {
    "mmr_eval": ("a one-off study: it prints its table, the result file is transcribed"),
}


if __name__ == "__main__":
    raise SystemExit(main())

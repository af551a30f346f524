"""Retrieval figures on a public data set: dense, BM25, hybrid and hybrid + second stage.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.retrieval_eval --dataset squad|scifact|financebench
        [--cross-encoder NAME_OR_DIR] [--data ../shared/data] [--limit N]

Materialises the data set (``citerag.eval.adapters``), ingests it with the default settings
(600-character chunks, 80 overlap, contextual header, sentence vectors) into
``benchmarks/out/work/<dataset>/index``, then runs every question through the graph's own
retrieval nodes under each configuration with the **packaged** gate defaults
(``chains/gate_defaults.json``; a per-index calibration file is ignored here so the figures
do not depend on run order). Writes ``benchmarks/out/retrieval_<dataset>.{json,md}``.

Also saves ``benchmarks/out/retrieval_<dataset>_<evidence>.png``: recall@k curves with 95 %
Wilson bands for every configuration.

Reported: recall@1/4/8/20 (95 % Wilson), MRR@20 and nDCG@10 (95 % percentile bootstrap),
evidence in the context, failure attribution, destroyed evidence, refusals, and paired exact
sign tests between configurations. The JSON also keeps each question's result per
configuration (``per_question``: first hit rank, evidence in context, gate decision and
score), so that runs of two commits can be paired on the same questions. For SQuAD also
with the stricter evidence "the whole answer sentence" (the chunking article's needle).
"""

from __future__ import annotations

import time
from typing import Any

from benchmarks.common import cached_embeddings, dataset, log, model, parser, save_embeddings, write
from benchmarks.results import table, write_result

PAIRS = (
    ("bm25", "dense"),
    ("hybrid", "dense"),
    ("hybrid", "bm25"),
    ("hybrid+sentence", "hybrid"),
    ("hybrid+sentence", "dense"),
)
EXPERIMENT = "hybrid+sentence-rrf"


class SentenceRRF:
    """EXPERIMENT (not shipped): keep the first stage's evidence in the second stage.

    The shipped ``sentence-maxsim`` score is ``0.5 * best sentence cosine + 0.5 * chunk
    cosine``: it re-sorts the hybrid list by dense similarity alone, discarding the BM25
    signal that RRF had fused in. This variant fuses instead: ``1/(60 + fused rank) +
    1/(60 + sentence-maxsim rank)``. Injected through ``build_graph(rerankers=...)``-style
    dependency injection under the config name ``sentence-rrf``; the gate then falls back to
    the dense cosine (no calibrated threshold for this name).
    """

    name = "sentence-rrf"
    score_type = "RRF of first-stage rank and sentence-maxsim rank"

    def __init__(self, inner, k: int = 60) -> None:  # type: ignore[no-untyped-def]
        self.inner = inner
        self.k = k

    def rerank(self, query, candidates, query_vector=None):  # type: ignore[no-untyped-def]
        first = {c.key: c.ranks.get("fused", i) for i, c in enumerate(candidates, start=1)}
        ranked = self.inner.rerank(query, candidates, query_vector)
        for c in ranked:
            c.scores["sentence_blend"] = c.scores["rerank"]
            c.scores["rerank"] = 1 / (self.k + first[c.key]) + 1 / (self.k + c.ranks["rerank"])
        ranked.sort(key=lambda c: -c.scores["rerank"])
        for rank, c in enumerate(ranked, start=1):
            c.ranks["rerank"] = rank
        return ranked


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--dataset", required=True, choices=["squad", "scifact", "financebench"])
    p.add_argument("--cross-encoder", help="also evaluate hybrid + this cross-encoder")
    p.add_argument("--limit", type=int, help="only the first N questions")
    p.add_argument(
        "--answerable-only",
        action="store_true",
        help="skip unanswerable questions (they only feed the gate's bluff rate)",
    )
    p.add_argument(
        "--experiment",
        action="store_true",
        help=f"also evaluate {EXPERIMENT} (see SentenceRRF; not shipped)",
    )
    args = p.parse_args()

    from citerag.eval import report
    from citerag.eval.adapters import safe_name
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.plots import recall_curves, save
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import (
        DEFAULT_CONFIGS,
        Evaluator,
        compare,
        evidence_summary,
        parse_config,
    )

    prep, loaded = dataset(args.dataset, args)

    def keep(qs):  # type: ignore[no-untyped-def]
        return [q for q in qs if not (args.answerable_only and q.unanswerable)][: args.limit]

    questions = keep(load_questions(prep.questions))
    sets = {"answer span" if args.dataset == "squad" else "evidence": questions}
    if "sentence" in prep.extra:
        sets["answer sentence"] = keep(load_questions(prep.extra["sentence"]))
    specs = list(DEFAULT_CONFIGS)
    pairs = list(PAIRS)
    if args.cross_encoder:
        ce = f"hybrid+ce:{args.cross_encoder}"
        specs.append(ce)
        pairs += [(ce, "hybrid"), (ce, "hybrid+sentence")]
    configs = [parse_config(s) for s in specs]
    from chains.rerank import make_reranker
    from citerag.eval.runner import EvalConfig

    try:  # the pure-embedding sentence scorer, when the default second stage is another one
        maxsim = make_reranker("sentence-maxsim", model().embeddings)
        if make_reranker("sentence", model().embeddings).name != maxsim.name:
            configs.append(
                EvalConfig(
                    "hybrid+sentence-maxsim",
                    (("reranker", "sentence-maxsim"), ("retrieval_mode", "hybrid")),
                )
            )
            pairs += [
                ("hybrid+sentence", "hybrid+sentence-maxsim"),
                ("hybrid+sentence-maxsim", "hybrid"),
            ]
    except ValueError:
        pass
    corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
    emb = cached_embeddings(args)
    ev = Evaluator(
        loaded.store,
        emb,
        corpus,
        calibration={},
        manifest_id=loaded.manifest_id,
        cache_states=len(sets) > 1,
    )
    if args.experiment:
        ev.deps.rerankers["sentence-rrf"] = SentenceRRF(ev.deps.reranker("sentence"))
        configs.append(
            EvalConfig(EXPERIMENT, (("reranker", "sentence-rrf"), ("retrieval_mode", "hybrid")))
        )
        pairs += [(EXPERIMENT, "hybrid"), (EXPERIMENT, "hybrid+sentence")]
    data: dict = {
        "dataset": args.dataset,
        "index": str(prep.root / "index"),
        "manifest_id": loaded.manifest_id,
        "chunks": len(corpus),
        "documents": len(corpus.by_doc),
        "counts": prep.counts,
        "sets": {},
    }
    md = [
        f"## Retrieval — {args.dataset}\n",
        f"{len(corpus.by_doc)} documents, {len(corpus)} chunks "
        f"(600 characters, 80 overlap, contextual header); gate: packaged defaults.\n",
    ]
    result_runs: dict[str, dict[str, Any]] = {}
    result_comps: dict[str, list[Any]] = {}
    for set_name, qs in sets.items():
        t0 = time.perf_counter()
        runs = {c.name: ev.run(qs, c, progress=not args.no_progress) for c in configs}
        result_runs[set_name] = runs
        comps = [(a, b, compare(runs[a], runs[b])) for a, b in pairs]
        result_comps[set_name] = comps
        evidence = evidence_summary(corpus, qs)
        n_ans = sum(not q.unanswerable for q in qs)
        data["sets"][set_name] = {
            "questions": len(qs),
            "answerable": n_ans,
            "evidence": evidence,
            "configs": {n: r.summary() for n, r in runs.items()},
            "comparisons": {
                f"{a} vs {b}": {m: v.to_json() for m, v in res.items()} for a, b, res in comps
            },
            "seconds": round(time.perf_counter() - t0, 1),
            # per question, for paired comparisons across runs (e.g. two commits)
            "per_question": {
                n: [
                    {
                        "id": r.id,
                        "unanswerable": r.unanswerable,
                        "first_hit": r.first_hit,
                        "in_context": r.in_context,
                        "gate_passed": r.gate_passed,
                        "gate_score": r.gate_score,
                        "gate_best": None if r.gate_best is None else round(r.gate_best, 6),
                        "threshold": round(r.threshold, 6),
                    }
                    for r in run.results
                ]
                for n, run in runs.items()
            },
        }
        run_list = list(runs.values())
        md += [
            f"\n### {args.dataset}: {set_name} ({n_ans} answerable questions"
            + (f", {len(qs) - n_ans} unanswerable" if len(qs) > n_ans else "")
            + ")\n",
            report.retrieval_table(run_list),
            "",
            "Where the evidence ended up:\n",
            report.attribution_table(run_list),
            "",
            "Paired comparisons (A's wins/losses against B on the same questions, "
            "two-sided exact sign test):\n",
            report.compare_table(comps),
            "",
            "Gate (packaged defaults):\n",
            report.refusal_table(run_list),
            "",
            "Evidence in the index:\n",
            report.evidence_table(evidence),
        ]
        if n_ans:
            png = save(
                recall_curves(
                    run_list,
                    title=f"{args.dataset}, evidence = {set_name}: recall@k over {n_ans} "
                    "answerable questions (shaded: 95 % Wilson)",
                ),
                args.out / f"retrieval_{args.dataset}_{safe_name(set_name)}.png",
            )
            data["sets"][set_name]["plot"] = str(png)
            md += ["", f"Plot: `{png}`"]
        log(f"{set_name}: {time.perf_counter() - t0:.0f} s")
        save_embeddings(emb, args)
    write(args.out, f"retrieval_{args.dataset}", data, "\n".join(md))
    first = next(iter(sets))
    write_result(
        RESULT_NAMES[args.dataset],
        {
            "recall": recall_table(args.dataset, result_runs[first]),
            "paired": paired_table(result_comps[first]),
        },
        {k: v for k, v in data.items() if k != "sets"}
        | {"configs": {n: r.summary() for n, r in result_runs[first].items()}},
    )
    return 0


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "retrieval_eval_history": (
        "a summary of the FinanceBench run's paired comparisons, published before its "
        "result file held a paired table"
    ),
}


#: The result file of each data set (``--dataset``).
RESULT_NAMES = {
    "squad": "retrieval_eval_squad",
    "scifact": "retrieval_eval_scifact",
    "financebench": "retrieval_eval_financebench",
}
#: Configuration -> the docs' row label; the default is the bold row.
ROW_LABELS = {
    "dense": "dense",
    "bm25": "BM25",
    "hybrid": "hybrid (RRF)",
    "hybrid+sentence": "**hybrid + `sentence-hybrid` (default)**",
    "hybrid+sentence-maxsim": "hybrid + `sentence-maxsim` (embedding-only second stage)",
}
#: The docs' columns per data set: recall@k, then MRR@20 or nDCG@10 (SciFact's graded qrels).
COLUMNS = {
    "squad": ("recall@1", "recall@4", "recall@20", "mrr@20"),
    "scifact": ("recall@1", "recall@4", "recall@20", "ndcg@10"),
    "financebench": ("recall@1", "recall@4", "recall@8", "recall@20"),
}


#: Short names of the configurations in the paired table.
PAIR_LABELS = {
    "hybrid+sentence": "default (hybrid + `sentence-hybrid`)",
    "hybrid+sentence-maxsim": "hybrid + `sentence-maxsim`",
    "bm25": "BM25",
}


def paired_table(comps: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """The result table ``paired``: A against B on the same questions at each k: questions
    only A finds / only B finds, two-sided exact sign test."""

    def cell(pr: Any) -> str:
        p = pr.p_value
        shown = "< 1e-6" if p < 1e-6 else f"= {p:.2g}"
        return f"+{pr.wins}/−{pr.losses}, p {shown}"

    rows = [
        [f"{PAIR_LABELS.get(a, a)} vs {PAIR_LABELS.get(b, b)}"]
        + [cell(res[f"recall@{k}"]) for k in (1, 4, 8, 20)]
        for a, b, res in comps
    ]
    return table(["A vs B (+A only / −B only)", "R@1", "R@4", "R@8", "R@20"], rows)


def recall_table(dataset: str, runs: dict[str, Any]) -> dict[str, Any]:
    """The docs' table for a data set: a row per configuration, Wilson 95 % intervals."""
    keys = COLUMNS[dataset]
    header = [
        k.replace("recall@", "R@").replace("mrr", "MRR").replace("ndcg", "nDCG") for k in keys
    ]
    rows = []
    for name, run in runs.items():
        if name not in ROW_LABELS:
            continue
        s = run.summary_objects()
        cells = [
            s[k].fmt() if k.startswith(("recall", "ndcg")) else f"{s[k].value:.3f}" for k in keys
        ]
        rows.append([ROW_LABELS[name], *cells])
    if dataset != "squad":
        rows = [r for r in rows if "maxsim" not in r[0]]  # published for SQuAD only
    return table(["configuration", *header], rows)


if __name__ == "__main__":
    raise SystemExit(main())

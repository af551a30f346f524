"""Is a candidate embedding model as good as the default? Paired retrieval on the same questions.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.embedding_compare
        --dataset squad|scifact|financebench [--candidate minilm-int8] [--limit N]
        [--work DIR] [--out DIR]
    .venv/bin/python -m benchmarks.experiments.embedding_compare --dataset squad \
        --candidate default --candidate-precision bf16      # bfloat16 batches vs float32

Indexes the data set once per model with the default settings (same chunks: the chunk ids
and so the evidence are the same; only the vectors differ), runs the evaluation harness of
``benchmarks/retrieval_eval.py`` for ``dense`` and the shipped ``hybrid+sentence`` with each
model, and prints recall@k / MRR with 95 % intervals for both and the paired comparison
(candidate's wins/losses against the default on the same questions, exact two-sided sign
test). For the candidate's full table run ``retrieval_eval.py --embedding-model NAME``.

``--base-precision`` / ``--candidate-precision`` (``fp32``, ``bf16``, ``auto``) set each side's
arithmetic (:func:`citerag.embeddings.resolve_precision`); the base defaults to ``fp32``, so
``--candidate default --candidate-precision bf16`` measures what the ``auto`` precision
changes on a CPU with bfloat16. Each (model, precision) gets its own index and query cache.
"""

from __future__ import annotations

import time
from typing import Any

from benchmarks.common import log, parser, write

CONFIGS = ("dense", "hybrid+sentence")


def evaluate(name: str | None, precision: str, dataset: str, args: Any) -> dict[str, Any]:
    """Index the data set with one model at one precision and run the configurations."""
    from citerag.embeddings import load_embedding_model
    from citerag.eval.adapters import ensure_index, prepare
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import CachedEmbeddings, Evaluator, parse_config
    from citerag.stores.loaded import load_index

    model = load_embedding_model(None if name == "default" else name, precision=precision)
    label = model.name if model.precision in ("fp32", "int8") else f"{model.name}-{model.precision}"
    slug = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)
    prep = prepare(dataset, args.data, args.work)
    index_dir = prep.root / f"index-{slug}"
    t0 = time.perf_counter()
    ensure_index(prep, index_dir, model, progress=not args.no_progress)
    log(f"{label}: index {index_dir} ready in {time.perf_counter() - t0:.0f} s")
    loaded = load_index(index_dir, model)
    questions = [q for q in load_questions(prep.questions) if not q.unanswerable][: args.limit]
    corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
    emb = CachedEmbeddings(model.embeddings)
    cache = args.work / f"query_embeddings-{slug}.npz"
    emb.load(cache, model.name)
    ev = Evaluator(loaded.store, emb, corpus, calibration={}, manifest_id=loaded.manifest_id)
    runs = {c: ev.run(questions, parse_config(c), progress=not args.no_progress) for c in CONFIGS}
    emb.save(cache, model.name)
    return {"model": label, "chunks": len(corpus), "runs": runs}


def main() -> int:
    """Run the comparison."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--dataset", required=True, choices=["squad", "scifact", "financebench"])
    p.add_argument("--candidate", default="minilm-int8", help="model to compare (default int8)")
    from citerag.embeddings import PRECISIONS

    for side in ("base", "candidate"):
        p.add_argument(f"--{side}-precision", choices=PRECISIONS, default="fp32")
    p.add_argument("--limit", type=int, help="only the first N answerable questions")
    args = p.parse_args()

    from citerag.eval import report
    from citerag.eval.runner import compare

    base = evaluate(None, args.base_precision, args.dataset, args)
    cand = evaluate(args.candidate, args.candidate_precision, args.dataset, args)
    rows = []
    for c in CONFIGS:
        for side in (base, cand):
            run = side["runs"][c]
            run.config = type(run.config)(f"{c} · {side['model']}", run.config.configurable)
            rows.append(run)
    pairs = [
        (
            f"{c} · {cand['model']}",
            f"{c} · {base['model']}",
            compare(cand["runs"][c], base["runs"][c]),
        )
        for c in CONFIGS
    ]
    n = len(base["runs"][CONFIGS[0]].answerable)
    md = [
        f"## Embedding models on {args.dataset}: {cand['model']} vs {base['model']}\n",
        f"{base['chunks']} chunks, {n} answerable questions; a hit as in retrieval_eval.py.\n",
        report.retrieval_table(rows),
        "",
        "Paired (candidate's wins/losses against the default, two-sided exact sign test):\n",
        report.compare_table(pairs),
    ]
    data = {
        "dataset": args.dataset,
        "default": base["model"],
        "candidate": cand["model"],
        "answerable": n,
        "configs": {r.config.name: r.summary() for r in rows},
        "comparisons": {
            f"{a} vs {b}": {m: v.to_json() for m, v in res.items()} for a, b, res in pairs
        },
    }
    stem = f"embedding_compare_{args.dataset}"
    if args.candidate_precision != "fp32":
        stem += f"_{args.candidate_precision}"
    write(args.out, stem, data, "\n".join(md))
    return 0


#: Result files of this study that its script does not write (result name -> why).
TRANSCRIBED_RESULTS = {
    "embedding_compare": ("a one-off study: it prints its tables, the result file is transcribed"),
}


if __name__ == "__main__":
    raise SystemExit(main())

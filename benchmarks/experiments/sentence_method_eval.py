"""Contextual vs separately embedded sentence vectors: paired retrieval quality.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.sentence_method_eval
        --dataset squad|scifact|financebench [--limit N] [--embedding-model NAME]

The data set's default-settings index (``benchmarks/out/work/<dataset>/index``, built by
``retrieval_eval.py`` with sentence vectors embedded as texts of their own, ``separate``) is
loaded as it is. Its chunk vectors are what both methods produce (the contextual pass yields
the same chunk vectors within float rounding), so only the sentence vectors differ: this
script recomputes every chunk's sentence vectors with the ``contextual`` method
(:func:`citerag.stores.chunk_vectors.embed_chunks`: one encoder pass over the chunk, each
sentence the mean of its tokens) — cached in ``<work>/sentence-methods/<dataset>.npz`` — and
runs the same questions through the graph's retrieval prefix (hybrid + the default second
stage, ``sentence-hybrid``) once with each set of sentence vectors. Reports recall@k with
Wilson intervals, MRR, refusals by the packaged gate, and paired exact sign tests
(contextual against separate). Writes ``<out>/sentence_method_<dataset>.{json,md}``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import cached_embeddings, dataset, log, model, parser, save_embeddings, write


def contextual_sentences(
    store: Any, cache: Path, batch: int = 64
) -> dict[str, tuple[list[tuple[int, int]], np.ndarray]]:
    """Contextual sentence vectors of every chunk in ``store`` (cached in ``cache``)."""
    from citerag.stores.chunk_vectors import CONTEXTUAL, embed_chunks

    keys = sorted(store.sentences)
    if cache.exists():
        held = np.load(cache, allow_pickle=False)
        if list(held["keys"]) == keys:
            out = {}
            counts, mat = held["counts"], held["vectors"]
            row = 0
            for key, n in zip(keys, counts, strict=True):
                out[key] = (store.sentences[key][0], mat[row : row + n])
                row += n
            log(f"contextual sentence vectors from {cache}")
            return out
    out = {}
    t0 = time.perf_counter()
    for start in range(0, len(keys), batch):
        part = keys[start : start + batch]
        docs = store.get_by_ids(part)
        done = embed_chunks(model().embeddings, docs, sentence_vectors=True, method=CONTEXTUAL)
        assert done.sentences is not None
        for key, (spans, vecs) in zip(part, done.sentences, strict=True):
            assert spans == store.sentences[key][0], key
            out[key] = (spans, vecs)
        log(f"  {start + len(part)}/{len(keys)} chunks, {time.perf_counter() - t0:.0f} s")
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        cache,
        keys=np.asarray(keys),
        counts=np.asarray([len(out[k][0]) for k in keys]),
        vectors=np.concatenate([out[k][1] for k in keys]),
    )
    return out


def main() -> int:
    """Run the comparison."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--dataset", required=True, choices=["squad", "scifact", "financebench"])
    p.add_argument("--limit", type=int, help="only the first N questions")
    args = p.parse_args()

    from citerag.eval import report
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import EvalConfig, Evaluator, compare, parse_config
    from citerag.stores.loaded import load_index

    prep, _ = dataset(args.dataset, args, ingest=False)
    index_dir = prep.root / "index"
    if args.embedding_model:
        raise SystemExit("only the default model's index is compared")
    loaded = load_index(index_dir, model())
    fp = loaded.manifest.last_run.get("fingerprint", {})
    if not loaded.manifest.index.get("sentence_vectors", True):
        raise SystemExit(f"{index_dir} has no sentence vectors")
    if fp.get("sentence_method", "separate") != "separate":
        raise SystemExit(f"{index_dir} was not built with separate sentence vectors: {fp}")
    store = loaded.store
    separate = dict(store.sentences)
    contextual = contextual_sentences(store, args.work / "sentence-methods" / f"{args.dataset}.npz")
    questions = [q for q in load_questions(prep.questions) if not q.unanswerable][: args.limit]
    corpus = IndexedCorpus.from_store(store, loaded.manifest.documents)
    emb = cached_embeddings(args)
    config = parse_config("hybrid+sentence")
    runs = {}
    for name, sentences in (("separate", separate), ("contextual", contextual)):
        store.sentences = sentences
        ev = Evaluator(store, emb, corpus, calibration={}, manifest_id=loaded.manifest_id)
        run = ev.run(questions, config, progress=not args.no_progress)
        run.config = EvalConfig(f"hybrid+sentence ({name})", config.configurable)
        runs[name] = run
    store.sentences = separate
    save_embeddings(emb, args)
    comp = compare(runs["contextual"], runs["separate"])
    data = {
        "dataset": args.dataset,
        "index": str(index_dir),
        "questions": len(questions),
        "configs": {n: r.summary() for n, r in runs.items()},
        "contextual vs separate": {m: v.to_json() for m, v in comp.items()},
    }
    md = [
        f"## Sentence vectors, contextual vs separate — {args.dataset}\n",
        f"{len(questions)} answerable questions, {len(corpus)} chunks; hybrid + "
        "`sentence-hybrid`; gate: packaged defaults.\n",
        report.retrieval_table(list(runs.values())),
        "",
        "Paired (contextual's wins/losses against separate, two-sided exact sign test):\n",
        report.compare_table(
            [(runs["contextual"].config.name, runs["separate"].config.name, comp)]
        ),
        "",
        report.refusal_table(list(runs.values())),
    ]
    write(args.out, f"sentence_method_{args.dataset}", data, "\n".join(md))
    return 0


#: Result files of this study that its script does not write (result name -> why).
TRANSCRIBED_RESULTS = {
    "sentence_method_eval": (
        "a one-off study: it prints its table, the result file is transcribed"
    ),
}


if __name__ == "__main__":
    raise SystemExit(main())

"""The chunking study (strategies A–F) on SQuAD 2.0 articles, and on the sample corpus.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.chunking_study [--chunk-size 600] [--overlap 80]
        [--no-sample] [--limit N]

A blind, B blind + overlap, C boundaries, D boundaries + overlap, E boundaries + header,
F boundaries + header + overlap (citerag's default). Each strategy indexes the 16 SQuAD 2.0
articles (one document per article) into its own index under
``benchmarks/out/work/chunking/``; every answerable question is scored against two evidence
definitions — the gold answer span, and the whole sentence containing it (the chunking
article's needle)
— under dense and hybrid retrieval. Reports destroyed evidence, recall@k with Wilson
intervals and paired exact sign tests (B vs A, C vs A, D vs C, E vs A, E vs C, F vs E,
F vs D). Writes ``benchmarks/out/chunking_study.{json,md}``.
"""

from __future__ import annotations

from benchmarks.common import REPO, dataset, model, parser, write


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--chunk-size", type=int, default=600)
    p.add_argument("--overlap", type=int, default=80)
    p.add_argument("--no-sample", action="store_true", help="skip the sample-corpus study")
    p.add_argument("--limit", type=int, help="only the first N questions of each set")
    args = p.parse_args()

    from citerag.eval.chunking_study import destroyed_table, run_study
    from citerag.eval.questions import load_questions

    prep, _ = dataset("squad", args, ingest=False)
    sets = {
        "answer sentence": [
            q for q in load_questions(prep.extra["sentence"]) if not q.unanswerable
        ][: args.limit],
        "answer span": [q for q in load_questions(prep.questions) if not q.unanswerable][
            : args.limit
        ],
    }
    progress = not args.no_progress
    study = run_study(
        prep.corpus,
        sets,
        args.work / "chunking" / "squad",
        model(),
        chunk_size=args.chunk_size,
        overlap=args.overlap,
        progress=progress,
    )
    md = [
        f"## Chunking study — SQuAD 2.0 (16 articles, {len(sets['answer span'])} "
        f"answerable questions), chunk size {args.chunk_size}, overlap {args.overlap}\n",
        destroyed_table(study),
        "",
        study.tables(),
    ]
    data = {"squad": study.to_json()}
    if not args.no_sample:
        qs = load_questions(REPO / "examples" / "questions.jsonl")
        small = run_study(
            REPO / "examples" / "corpus",
            {"needle": qs},
            args.work / "chunking" / "sample",
            model(),
            chunk_size=args.chunk_size,
            overlap=args.overlap,
            progress=progress,
        )
        md += [
            "\n## Chunking study — sample corpus (20 answerable questions with needles)\n",
            destroyed_table(small),
            "",
            small.tables(),
        ]
        data["sample"] = small.to_json()
    write(args.out, "chunking_study", data, "\n".join(md))
    return 0


#: Result files of this study that its script does not write (result name -> why).
TRANSCRIBED_RESULTS = {
    "chunking_study": ("a one-off study: it prints its table, the result file is transcribed"),
}


if __name__ == "__main__":
    raise SystemExit(main())

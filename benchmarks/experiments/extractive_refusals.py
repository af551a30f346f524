"""Does the offline extractive answerer refuse what it cannot answer? On and off its number check.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.extractive_refusals [--limit N] [--seed 0]

The gate refuses questions the corpus does not cover; questions that *look* covered get past
it. The extractive answerer then adds one check of its own: a number the question asks about
(a year, an amount, a code) that no supplied passage mentions means the passages answer a
different question, so it replies "insufficient evidence" instead of quoting the nearest
sentence (the ``number_check`` knob, on by default; this script runs the same graph with
``{"number_check": false}`` and ``true``).

This runs the full graph (packaged gate defaults) twice, with the check on and off, over
(1) SQuAD 2.0's answerable and unanswerable questions on the 16-article index (a seeded sample
of ``--limit`` of each when given), (2) the bundled sample corpus' questions and (3) SciFact's
and FinanceBench's answerable questions (claims with gene names and years; questions about
several fiscal years), and reports
answered / no-evidence rates with 95 % Wilson intervals, plus paired counts: unanswerable
questions newly refused (wins) and answerable questions newly refused (losses), with a
two-sided exact sign test. Writes ``benchmarks/out/extractive_refusals.{json,md}``.
"""

from __future__ import annotations

import random
from typing import Any

from benchmarks.common import (
    cached_embeddings,
    dataset,
    model,
    parser,
    sample,
    save_embeddings,
    write,
)


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--limit", type=int, help="sample at most N answerable and N unanswerable")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    from citerag.eval import metrics as stats
    from citerag.eval import report
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import EvalConfig, generation_figures, parse_config, run_generation
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    emb = cached_embeddings(args)
    cfg = parse_config("default")
    squad_prep, squad_idx = dataset("squad", args)
    sample_q, sample_idx = sample(args)
    sets: list[tuple[str, Any, list[Any]]] = []
    squad_q = load_questions(squad_prep.questions)
    rng = random.Random(args.seed)
    parts = []
    for unanswerable in (False, True):
        qs = [q for q in squad_q if q.unanswerable == unanswerable]
        if args.limit is not None and len(qs) > args.limit:
            qs = rng.sample(qs, args.limit)
        parts += qs
    sets.append(("SQuAD 2.0 (16 articles)", squad_idx, parts))
    sets.append(("sample corpus", sample_idx, load_questions(sample_q)))
    for other in ("scifact", "financebench"):  # answerable only: what the check costs
        prep, loaded = dataset(other, args)
        sets.append((other, loaded, load_questions(prep.questions)))

    rows: list[list[str]] = []
    data: dict[str, Any] = {"config": cfg.conf, "sets": {}}
    for name, loaded, qs in sets:
        status: dict[bool, list[str]] = {}
        cites: dict[bool, dict[str, Any]] = {}
        corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        for check in (False, True):
            graph = build_graph(
                GraphDeps.from_store(
                    loaded.store,
                    embeddings=emb,
                    manifest_id=loaded.manifest_id,
                    embedding_model=model().name,
                )
            )
            run_cfg = EvalConfig(
                f"number_check={check}",
                tuple(sorted({**cfg.conf, "number_check": check}.items())),
            )
            results = run_generation(graph, qs, run_cfg, progress=not args.no_progress)
            status[check] = [r.get("status", "failed") for r in results]
            cites[check] = generation_figures(qs, results, corpus)["cites_evidence"]
        save_embeddings(emb, args)
        out: dict[str, Any] = {"questions": len(qs), "cites_evidence": cites}
        for kind, unans in (("answerable", False), ("unanswerable", True)):
            idx = [i for i, q in enumerate(qs) if q.unanswerable == unans]
            if not idx:
                continue
            cells = [f"{name}: {kind}", str(len(idx))]
            for check in (False, True):
                refused = stats.Proportion(
                    sum(status[check][i] == "no_evidence" for i in idx), len(idx)
                )
                out[f"{kind}.no_evidence.check_{'on' if check else 'off'}"] = refused.to_json()
                cells.append(refused.fmt())
            newly = sum(
                status[True][i] == "no_evidence" and status[False][i] != "no_evidence" for i in idx
            )
            undone = sum(
                status[False][i] == "no_evidence" and status[True][i] != "no_evidence" for i in idx
            )
            cells.append(f"+{newly}/−{undone}")
            if not unans:
                cells.append(
                    " → ".join(
                        f"{cites[c]['value']:.3f} ({cites[c]['k']}/{cites[c]['n']})"
                        for c in (False, True)
                    )
                )
            else:
                cells.append("")
            out[f"{kind}.newly_refused"] = newly
            rows.append(cells)
        # correct = answerable and not refused, or unanswerable and refused
        correct = {
            c: [(status[c][i] == "no_evidence") == q.unanswerable for i, q in enumerate(qs)]
            for c in (False, True)
        }
        wins = sum(a and not b for a, b in zip(correct[True], correct[False], strict=True))
        losses = sum(b and not a for a, b in zip(correct[True], correct[False], strict=True))
        out["paired"] = {"wins": wins, "losses": losses, "p": stats.sign_test(wins, losses)}
        data["sets"][name] = out
    md = [
        "## Extractive answerer: refusals with and without the number check\n",
        "Full graph, packaged gate defaults; 'no evidence' rate (95 % Wilson) per question "
        "kind; 'newly refused' = no-evidence with the check and not without it.\n",
        report.table(
            [
                "set",
                "n",
                "no evidence, check off",
                "no evidence, check on",
                "newly refused",
                "answers citing the evidence, off → on",
            ],
            rows,
        ),
        "",
        "Paired over all questions (a question is handled correctly when an answerable one is "
        "not refused and an unanswerable one is; wins/losses = questions the check makes "
        "correct/incorrect; two-sided exact sign test): "
        + "; ".join(
            f"{n}: +{d['paired']['wins']}/−{d['paired']['losses']}, "
            f"p = {stats.format_p(d['paired']['p'])}"
            for n, d in data["sets"].items()
        ),
    ]
    write(args.out, "extractive_refusals", data, "\n".join(md))
    return 0


#: Result files of this study that its script does not write (result name -> why).
TRANSCRIBED_RESULTS = {
    "extractive_refusals": ("a one-off study: it prints its table, the result file is transcribed"),
}


if __name__ == "__main__":
    raise SystemExit(main())

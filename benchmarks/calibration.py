"""Gate calibration on SQuAD 2.0 and SciFact, with cross-data-set checks.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.calibration [--max-bluff 0.10] [--no-financebench]

1. SQuAD 2.0 index (16 articles): positives = the 2,910 answerable questions; negatives =
   (a) SQuAD's own 3,168 unanswerable questions (adversarial in-domain near-misses) and
   (b) the 300 SciFact test queries, which are out of domain for Wikipedia articles.
2. SciFact index (1,000 abstracts): positives = the 300 SciFact queries; negatives = all
   6,078 SQuAD questions (out of domain for biomedical abstracts).
3. For the gate scores ``rerank`` (``sentence-maxsim``, the default second stage) and
   ``dense``, choose a threshold on each index with the rule (default: keep the most
   answerable questions with a bluff rate <= 10 % on the out-of-domain set), write it to that
   index's ``calibration.json`` (as ``citerag calibrate`` does) and plot both curves to
   ``benchmarks/out/calibration_<set>.png``.
4. Check every chosen threshold on the *other* data sets (and on FinanceBench with SciFact
   queries as out-of-domain, and on the bundled sample corpus), and print the recommended
   packaged defaults: the lowest threshold that meets the rule on both calibration sets.

Writes ``benchmarks/out/calibration.{json,md}``.
"""

from __future__ import annotations

from typing import Any

from benchmarks.common import (
    cached_embeddings,
    dataset,
    index_dir,
    log,
    parser,
    sample,
    save_embeddings,
    write,
)
from benchmarks.results import table, write_result

SQUAD_UN = "unanswerable (SQuAD 2.0, in-domain)"
SQUAD_OOD = "out-of-domain (SciFact queries)"
SCI_OOD = "out-of-domain (SQuAD questions)"


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--max-bluff", type=float, default=0.10)
    p.add_argument("--no-financebench", action="store_true")
    p.add_argument(
        "--sample-negatives",
        type=int,
        help="use a seeded random sample of at most N questions per negative set",
    )
    args = p.parse_args()

    from citerag.eval import calibrate as calib
    from citerag.eval import report
    from citerag.eval.adapters import out_of_domain
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.plots import plot_calibration
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import Evaluator, parse_config
    from citerag.stores.calibration import write_calibration

    cfg = parse_config("default")
    rule = calib.Rule("max-bluff", args.max_bluff)
    emb = cached_embeddings(args)  # questions are asked of several indexes
    progress = not args.no_progress

    def evaluator(loaded: Any) -> Evaluator:
        corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        return Evaluator(loaded.store, emb, corpus, calibration={}, manifest_id=loaded.manifest_id)

    squad_prep, squad_idx = dataset("squad", args)
    sci_prep, sci_idx = dataset("scifact", args)
    squad_q = load_questions(squad_prep.questions)
    sci_q = load_questions(sci_prep.questions)
    import random

    def neg_sample(qs):  # type: ignore[no-untyped-def]
        n = args.sample_negatives
        return qs if n is None or len(qs) <= n else random.Random(0).sample(qs, n)

    squad_cal_q = [q for q in squad_q if not q.unanswerable] + neg_sample(
        [q for q in squad_q if q.unanswerable]
    )

    # -- SQuAD index -------------------------------------------------------------------------
    ev = evaluator(squad_idx)
    reranker = ev.deps.reranker(cfg.conf.get("reranker", "sentence")).name
    run_sq = ev.run(squad_cal_q, cfg, progress=progress)
    run_sq_ood = ev.run(out_of_domain(sci_q, "ood-scifact:"), cfg, progress=progress)
    sc_squad = calib.collect(run_sq, {SQUAD_UN: run_sq, SQUAD_OOD: run_sq_ood}, reranker)
    cal_squad = {s: calib.calibrate(sc_squad[s], rule, SQUAD_OOD) for s in ("rerank", "dense")}

    save_embeddings(emb, args)

    # -- SciFact index -----------------------------------------------------------------------
    ev = evaluator(sci_idx)
    run_sc = ev.run(sci_q, cfg, progress=progress)
    run_sc_ood = ev.run(out_of_domain(neg_sample(squad_q), "ood-squad:"), cfg, progress=progress)
    sc_sci = calib.collect(run_sc, {SCI_OOD: run_sc_ood}, reranker)
    cal_sci = {s: calib.calibrate(sc_sci[s], rule, SCI_OOD) for s in ("rerank", "dense")}

    # -- transfer sets -----------------------------------------------------------------------
    transfer: dict[str, dict[str, Any]] = {"SQuAD 2.0": sc_squad, "SciFact": sc_sci}
    if not args.no_financebench:
        fin_prep, fin_idx = dataset("financebench", args)
        ev = evaluator(fin_idx)
        run_f = ev.run(load_questions(fin_prep.questions), cfg, progress=progress)
        run_f_ood = ev.run(out_of_domain(sci_q, "ood-scifact:"), cfg, progress=progress)
        transfer["FinanceBench"] = calib.collect(
            run_f, {"out-of-domain (SciFact queries)": run_f_ood}, reranker
        )
    sample_q, sample_idx = sample(args)
    ev = evaluator(sample_idx)
    run_s = ev.run(load_questions(sample_q), cfg, progress=progress)
    transfer["sample corpus"] = calib.collect(
        run_s, {"unanswerable (4 off-topic + 4 near-miss)": run_s}, reranker
    )

    # -- write per-index calibration files, plots -----------------------------------------
    stamp = {"rule": rule.describe("out-of-domain")}
    for name, cals, prep, qfiles in (
        (
            "squad",
            cal_squad,
            squad_prep,
            {"questions": str(squad_prep.questions), "ood": str(sci_prep.questions)},
        ),
        (
            "scifact",
            cal_sci,
            sci_prep,
            {"questions": str(sci_prep.questions), "ood": str(squad_prep.questions)},
        ),
    ):
        entries = {c.scores.key: c.entry(qfiles, cfg.conf) for c in cals.values()}
        path = write_calibration(index_dir(prep), entries)  # the configured model's index
        stamp[f"{name}_calibration_file"] = str(path)
        plot_calibration(
            list(cals.values()),
            args.out / f"calibration_{name}.png",
            title=f"gate calibration on {name} (hybrid + {reranker}); "
            f"rule: {rule.describe('out-of-domain')}",
        )

    # -- recommendation ------------------------------------------------------------------
    thresholds: dict[str, dict[str, float]] = {}
    from chains.gate import gate_defaults

    defaults = gate_defaults()
    for score in ("rerank", "dense"):
        key = reranker if score == "rerank" else "dense"
        thresholds[score] = {
            "chosen on SQuAD 2.0": cal_squad[score].threshold,
            "chosen on SciFact": cal_sci[score].threshold,
        }
        if key in defaults:
            thresholds[score]["packaged default now"] = float(defaults[key]["threshold"])
        thresholds[score]["recommended"] = max(cal_squad[score].threshold, cal_sci[score].threshold)

    md = [
        f"## Gate calibration\n\nRule: {rule.describe('out-of-domain')}. Configuration: "
        f"hybrid retrieval + {reranker} second stage (the default). The gate compares "
        "the best candidate's score with the threshold."
        + (
            f" Negative sets sampled to at most {args.sample_negatives} questions (seed 0)."
            if args.sample_negatives
            else ""
        )
        + "\n"
    ]
    for title, cals in (("SQuAD 2.0 index", cal_squad), ("SciFact index", cal_sci)):
        for score, cal in cals.items():
            md.append(f"\n### {title} — gate score `{score}` ({cal.scores.key})\n")
            md.append(
                "ROC AUC answerable vs: "
                + ", ".join(f"{k} **{v:.3f}**" for k, v in cal.auc.items())
                + "\n"
            )
            md.append(calib.format_table(cal))
    md.append("\n### Chosen thresholds on other data sets\n")
    rows = []
    for score in ("rerank", "dense"):
        for src, t in thresholds[score].items():
            for set_name, sc in transfer.items():
                row = calib.sweep_row(sc[score], t)
                bl = "; ".join(
                    f"{k.split(':', 1)[1]} {v.k}/{v.n} ({v.value:.1%})"
                    for k, v in row.items()
                    if k.startswith("bluffs:")
                )
                rows.append(
                    [
                        f"{score} {src}",
                        f"{t:.3f}",
                        set_name,
                        f"{row['answerable_kept'].k}/{row['answerable_kept'].n} "
                        f"({row['answerable_kept'].value:.1%})",
                        f"{row['kept_with_evidence'].value:.1%}",
                        bl,
                    ]
                )
    md.append(
        report.table(
            ["threshold", "value", "data set", "answerable kept", "kept with evidence", "bluffs"],
            rows,
        )
    )
    md.append(
        "\nRecommended packaged defaults (lowest threshold meeting the rule on both "
        "calibration sets): "
        + ", ".join(
            f"`{reranker if s == 'rerank' else 'dense'}` = {v['recommended']:.3f}"
            for s, v in thresholds.items()
        )
    )
    md.append(
        f"\nPlots: {args.out / 'calibration_squad.png'}, {args.out / 'calibration_scifact.png'}"
    )

    def sweep_json(c: Any) -> dict[str, Any]:
        return {
            "auc": c.auc,
            "threshold": c.threshold,
            "table": [calib.evaluate_threshold(c.scores, r["threshold"]) for r in c.table],
        }

    data = {
        "rule": stamp["rule"],
        "config": cfg.conf,
        "thresholds": thresholds,
        "files": stamp,
        "squad": {s: sweep_json(c) for s, c in cal_squad.items()},
        "scifact": {s: sweep_json(c) for s, c in cal_sci.items()},
        "transfer": {
            f"{score} {src}": {
                name: calib.evaluate_threshold(sc[score], t) for name, sc in transfer.items()
            }
            for score in ("rerank", "dense")
            for src, t in thresholds[score].items()
        },
    }
    log("done")
    write(args.out, "calibration", data, "\n".join(md))
    gate = float(defaults[reranker]["threshold"]) if reranker in defaults else None
    sweep = threshold_table(calib, cal_squad["rerank"].scores, cal_sci["rerank"].scores, gate)
    chosen = chosen_table(calib, cal_squad["rerank"], cal_sci["rerank"])
    write_result("calibration", {"thresholds": sweep, "chosen": chosen}, data)
    return 0


#: The thresholds the docs' table shows (the packaged default among them).
TABLE_THRESHOLDS = (0.45, 0.50, 0.55, 0.60, 0.65)


def chosen_table(calib: Any, squad: Any, scifact: Any) -> dict[str, Any]:
    """The result table ``chosen``: per index, the default second stage's ROC AUC (answerable
    against out-of-domain, and against SQuAD's unanswerable questions) and the threshold the
    rule chooses, with the answerable questions it keeps."""
    rows = []
    for label, cal, ood in (("SQuAD 2.0", squad, SQUAD_OOD), ("SciFact", scifact, SCI_OOD)):
        kept = calib.sweep_row(cal.scores, cal.threshold)["answerable_kept"]
        unanswerable = cal.auc.get(SQUAD_UN)
        rows.append(
            [
                label,
                f"{cal.auc[ood]:.3f}",
                "–" if unanswerable is None else f"{unanswerable:.3f}",
                f"{cal.threshold:.3f}",
                f"{100 * kept.value:.1f} %",
            ]
        )
    columns = ["index", "ROC AUC vs out-of-domain", "ROC AUC vs SQuAD's unanswerable"]
    return table([*columns, "threshold by the rule", "answerable kept at it"], rows)


def threshold_table(calib: Any, squad: Any, scifact: Any, default: float | None) -> dict[str, Any]:
    """The result table ``thresholds``: the default second stage's gate score at a few
    thresholds, on the SQuAD index (answerable kept, unanswerable and out-of-domain answered)
    and the SciFact index (answerable kept, out-of-domain answered); the default in bold."""
    rows = []
    for t in TABLE_THRESHOLDS:
        sq, sc = calib.sweep_row(squad, t), calib.sweep_row(scifact, t)
        cells = [
            sq["answerable_kept"],
            sq[f"bluffs:{SQUAD_UN}"],
            sq[f"bluffs:{SQUAD_OOD}"],
            sc["answerable_kept"],
            sc[f"bluffs:{SCI_OOD}"],
        ]
        text = [f"{t:.2f}", *(f"{100 * c.value:.1f} %" for c in cells)]
        if default is not None and abs(t - default) < 1e-9:
            text = [f"**{text[0]} (default)**", *(f"**{c}**" for c in text[1:])]
        rows.append(text)
    columns = ["`sentence-hybrid` ≥", "SQuAD answerable kept", "SQuAD unanswerable answered"]
    columns += ["out-of-domain answered (SQuAD index)", "SciFact answerable kept"]
    columns += ["out-of-domain answered (SciFact index)"]
    return table(columns, rows, ["right"] * 6)


if __name__ == "__main__":
    raise SystemExit(main())

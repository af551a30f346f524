"""Calibrating the gate on the full graph's outcome against the gate alone (issue 30).

``citerag calibrate`` used to count as a bluff every unanswerable question whose best score
passed the gate, even when the answerer then refused it; it now decides on the full graph's
outcome (the compiled graph run with the gate open). This benchmark measures what that
changes, on the development set's sample-corpus questions (``benchmarks/devset/``, split by
its published hash rule before any result):

1. calibrate on the **calibration half** (answerable questions, near misses as unanswerable,
   the out-of-domain questions as the bluff set; the default rule, bluff rate <= 10 %) two
   ways: the gate alone (``on_outcome=False``) and the full graph's outcome (the default);
2. run the **test half** through the full graph (extractive answerer) under each written
   calibration and under the packaged defaults: answerable questions answered, near misses and
   out-of-domain questions refused (95 % Wilson), with paired sign tests on the same questions.

Writes ``benchmarks/out/calibrate_outcome.{json,md}``::

    python -m benchmarks.experiments.calibrate_outcome
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from benchmarks import common


def _split(questions: list[Any], split: str) -> tuple[list[Any], list[Any]]:
    """(sample-corpus answerable + near misses, out-of-domain) questions of one half."""
    from citerag.eval.adapters import out_of_domain

    own = [
        q
        for q in questions
        if q.meta.get("split") == split
        and q.meta.get("corpus") == "sample"
        and q.meta.get("kind") in ("answerable", "near_miss")
    ]
    ood = [q for q in questions if q.meta.get("split") == split and q.meta.get("kind") == "ood"]
    return own, out_of_domain(ood, "ood:")


def main() -> None:
    """Run the comparison and write the results."""
    p = common.parser(__doc__.splitlines()[0])
    args = p.parse_args()
    from citerag.eval import calibrate as calib
    from citerag.eval import calibration_policy as policy
    from citerag.eval import metrics as stats
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import Evaluator, generate_answers, parse_config
    from graphs.rag import build_graph

    t0 = time.perf_counter()
    _, loaded = common.sample(args)
    emb = common.cached_embeddings(args)
    corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
    ev = Evaluator(
        loaded.store,
        emb,
        corpus,
        calibration={},
        manifest_id=loaded.manifest_id,
        embedding_model=common.model().name,
        cache_states=True,
    )
    allq = load_questions(common.DEVSET)
    cal_own, cal_ood = _split(allq, "calibration")
    test_own, test_ood = _split(allq, "test")
    cfg = parse_config("default")
    rule = calib.Rule()
    progress = not args.no_progress
    methods: dict[str, Any] = {}
    for name, on_outcome in (("gate alone", False), ("full graph outcome", True)):
        res = calib.run_calibration(
            ev, cal_own, cfg, ood=cal_ood, rule=rule, progress=progress, on_outcome=on_outcome
        )
        entries = res.entries({"questions": "devset sample calibration half"})
        cal = res.for_score("rerank")
        iv = policy.threshold_interval(cal.scores, rule, res.bluff_set)
        methods[name] = {
            "entries": entries,
            "threshold": cal.threshold,
            "interval": iv.to_json(),
            "calibration_half": calib.evaluate_threshold(cal.scores, cal.threshold),
            "refused_anyway": res.refused_anyway() if on_outcome else None,
        }
        common.log(f"{name}: sentence-hybrid {cal.threshold:.3f} {iv.fmt()}")
    test = [*test_own, *test_ood]
    outcomes: dict[str, list[bool]] = {}
    gates: dict[str, Any] = {}
    variants = {"packaged default": {}, **{k: v["entries"] for k, v in methods.items()}}
    for name, cal_entries in variants.items():
        graph = build_graph(replace(ev.deps, calibration=dict(cal_entries)))
        gens = generate_answers(graph, test, cfg, progress=progress)
        outcomes[name] = [g.status == "answered" for g in gens]
        gates[name] = next(
            (
                {k: g.result["trace"]["gate"][k] for k in ("threshold", "threshold_source")}
                for g in gens
                if (g.result.get("trace") or {}).get("gate")
            ),
            {},
        )
    ids = [q.id for q in test]
    kinds = [
        "out-of-domain"
        if q.id.startswith("ood:")
        else ("near miss" if q.unanswerable else "answerable")
        for q in test
    ]

    def share(name: str, kind: str, answered: bool) -> stats.Proportion:
        sel = [o for o, k in zip(outcomes[name], kinds, strict=True) if k == kind]
        return stats.Proportion(sum(1 for o in sel if o == answered), len(sel))

    def pair(a: str, b: str, kind: str, answered: bool) -> stats.PairedResult:
        idx = [i for i, k in enumerate(kinds) if k == kind]
        return stats.paired(
            [outcomes[a][i] == answered for i in idx],
            [outcomes[b][i] == answered for i in idx],
            [ids[i] for i in idx],
        )

    figures = {
        name: {
            "gate": gates[name],
            "answerable answered": share(name, "answerable", True),
            "near miss refused": share(name, "near miss", False),
            "out-of-domain refused": share(name, "out-of-domain", False),
        }
        for name in variants
    }
    pairs = [
        ("full graph outcome", "gate alone"),
        ("full graph outcome", "packaged default"),
        ("gate alone", "packaged default"),
    ]
    paired = {
        f"{a} vs {b}": {
            "answerable answered": pair(a, b, "answerable", True),
            "near miss refused": pair(a, b, "near miss", False),
            "out-of-domain refused": pair(a, b, "out-of-domain", False),
        }
        for a, b in pairs
    }
    n_cal = (
        f"{sum(not q.unanswerable for q in cal_own)} answerable, "
        f"{sum(q.unanswerable for q in cal_own)} near misses, {len(cal_ood)} out-of-domain"
    )
    n_test = (
        f"{kinds.count('answerable')} answerable, {kinds.count('near miss')} near misses, "
        f"{kinds.count('out-of-domain')} out-of-domain"
    )
    lines = [
        "## Calibrating on the full graph's outcome (sample corpus, development set)",
        "",
        f"Calibration half: {n_cal}; rule: {rule.describe('out-of-domain')}. "
        f"Test half: {n_test}, through the full graph (extractive answerer). "
        "95 % Wilson intervals; threshold intervals: stratified bootstrap (1,000 resamples).",
        "",
        "| calibrated on | sentence-hybrid threshold | answerable answered | near miss refused "
        "| out-of-domain refused |",
        "|---|---|---|---|---|",
    ]
    for name in variants:
        f = figures[name]
        th = (
            f"{methods[name]['threshold']:.3f} [{methods[name]['interval']['low']:.3f}, "
            f"{methods[name]['interval']['high']:.3f}]"
            if name in methods
            else f"{gates[name].get('threshold', 0.0):.3f} (packaged)"
        )
        lines.append(
            f"| {name} | {th} | {f['answerable answered'].fmt()} ({f['answerable answered'].k}/"
            f"{f['answerable answered'].n}) | {f['near miss refused'].fmt()} "
            f"({f['near miss refused'].k}/{f['near miss refused'].n}) | "
            f"{f['out-of-domain refused'].fmt()} ({f['out-of-domain refused'].k}/"
            f"{f['out-of-domain refused'].n}) |"
        )
    lines += [
        "",
        "| paired (A vs B, test half) | answerable answered | near miss refused | "
        "out-of-domain refused |",
        "|---|---|---|---|",
    ]
    for key, res in paired.items():
        cells = [f"+{r.wins}/−{r.losses}, p = {stats.format_p(r.p_value)}" for r in res.values()]
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    ra = methods["full graph outcome"]["refused_anyway"]
    lines += [
        "",
        f"With the gate open the extractive answerer refuses {len(ra['unanswerable'])} of the "
        f"calibration half's {sum(q.unanswerable for q in cal_own) + len(cal_ood)} negatives "
        f"and {len(ra['answerable'])} of its answerable questions.",
    ]
    common.save_embeddings(emb, args)
    data = {
        "calibration_half": n_cal,
        "test_half": n_test,
        "rule": rule.describe("out-of-domain"),
        "methods": {
            k: {kk: vv for kk, vv in v.items() if kk != "entries"} | {"entries": v["entries"]}
            for k, v in methods.items()
        },
        "test": {
            name: {k: (v.to_json() if hasattr(v, "to_json") else v) for k, v in f.items()}
            for name, f in figures.items()
        },
        "paired": {k: {m: r.to_json() for m, r in v.items()} for k, v in paired.items()},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    common.write(args.out, "calibrate_outcome", data, "\n".join(lines))


#: Result files of this study that its script does not write (result name -> why).
TRANSCRIBED_RESULTS = {
    "calibrate_outcome": ("a one-off study: it prints its table, the result file is transcribed"),
}

if __name__ == "__main__":
    main()

"""A gate that transfers: fit the answerability model, choose its threshold, test it.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.answerability [--max-ood-rate 0.05] [--write-model]

The score gate the project shipped compares one score (``sentence-hybrid`` ≥ 0.55, calibrated
on SQuAD, whose questions were written while reading the paragraph) and refuses questions in
users' own words. This script fits :class:`chains.gate.AnswerabilityModel` — a logistic model
over the signals every run already computes (chunk cosine, best-sentence cosine, idf coverage,
BM25, agreement of the dense and lexical lists, the second-stage score) — on the **calibration
half** of ``benchmarks/devset/questions.jsonl`` (both phrasings of each fact, and the
out-of-domain questions run against every corpus), plus seeded samples of SQuAD 2.0 (against
SciFact claims as out-of-domain) and SciFact (against SQuAD questions), and chooses its
threshold by a stated rule: answer at most ``--max-ood-rate`` of the calibration half's
out-of-domain questions. It then reports, on the **test half** only, for the shipped gate and
the new one, on the same questions (paired exact sign tests, Wilson intervals):

* answerable questions that pass the gate, by phrasing (document's words / users' words);
* passing questions whose evidence is in the assembled context;
* out-of-domain and near-miss questions that pass (bluffs the answerer must then catch);

and a plot of the trade-off (answerable kept vs out-of-domain answered, by threshold).
``--write-model`` writes ``chains/gate_model.json`` (the packaged model) with its provenance.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from benchmarks.common import (
    DEVSET,
    REPO,
    cached_embeddings,
    dataset,
    log,
    parser,
    sample,
    save_embeddings,
    write,
)
from benchmarks.results import table, write_result

SHIPPED = "default"
NEW = "default:gate_score=answerability"


def _in_half(key: str, half: str) -> bool:
    even = hashlib.sha256(f"bench:{key}".encode()).digest()[0] % 2 == 0
    return even == (half == "calibration")


def _indexes(args: Any) -> dict[str, Any]:
    """The four corpora's indexes for the configured embedding model (its own folders)."""
    out: dict[str, Any] = {
        name: dataset(name, args) for name in ("squad", "scifact", "financebench")
    }
    out["sample"] = (None, sample(args)[1])
    return out


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--max-ood-rate", type=float, default=0.05)
    p.add_argument("--squad-sample", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--write-model", action="store_true")
    args = p.parse_args()

    from chains.gate import fit_answerability
    from citerag.eval import metrics as stats
    from citerag.eval import report
    from citerag.eval.adapters import out_of_domain
    from citerag.eval.calibrate import Rule, ScoreScores, calibrate
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import Evaluator, parse_config

    emb = cached_embeddings(args)
    idx = _indexes(args)
    dev = load_questions(DEVSET)
    ood_dev = [q for q in dev if q.meta.get("kind") == "ood"]
    rng = random.Random(args.seed)
    squad_all = load_questions(idx["squad"][0].questions)
    sci_all = load_questions(idx["scifact"][0].questions)
    squad_ans = [q for q in squad_all if not q.unanswerable]
    squad_pick = rng.sample(squad_ans, min(args.squad_sample, len(squad_ans)))
    sci_pick = [q for q in sci_all if not q.unanswerable]
    sci_as_ood = out_of_domain(rng.sample(sci_pick, 150), "ood:scifact:")
    squad_as_ood = out_of_domain(rng.sample(squad_all, 300), "ood:squad:")

    # every question set, per corpus index: (name, corpus, questions)
    sets: list[tuple[str, str, list[Any]]] = []
    for corpus in ("squad", "scifact", "sample", "financebench"):
        mine = [q for q in dev if q.meta.get("corpus") == corpus]
        sets.append((f"devset:{corpus}", corpus, mine + ood_dev))
    sets.append(("squad", "squad", [*squad_pick, *sci_as_ood]))
    sets.append(("scifact", "scifact", [*sci_pick, *squad_as_ood]))

    cfg_shipped = parse_config(SHIPPED)
    results: dict[str, dict[str, Any]] = {}  # set -> {question id -> QuestionResult}
    evaluators: dict[str, Any] = {}
    for name, corpus, qs in sets:
        _, loaded = idx[corpus]
        corpus_docs = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        ev = Evaluator(loaded.store, emb, corpus_docs, calibration={}, cache_states=False)
        evaluators[name] = (ev, qs, loaded, corpus_docs)
        run = ev.run(qs, cfg_shipped, progress=not args.no_progress)
        results[name] = {r.id: r for r in run.results}
        save_embeddings(emb, args)

    def split_of(name: str, q: Any) -> str:
        if name.startswith("devset"):
            return str(q.meta.get("split"))
        return "calibration" if _in_half(q.id, "calibration") else "test"

    def is_pos(q: Any) -> bool:
        return not q.unanswerable

    def is_ood(q: Any) -> bool:
        return q.unanswerable and (q.meta.get("kind") == "ood" or q.id.startswith("ood:"))

    pos, neg = [], []
    for name, (_, qs, _, _) in evaluators.items():
        for q in qs:
            r = results[name][q.id]
            if split_of(name, q) != "calibration" or r.top_signals is None:
                continue
            if is_pos(q):
                pos.append(r.top_signals)
            elif is_ood(q):
                neg.append(r.top_signals)
    fitted = fit_answerability(pos, neg)
    cal_scores = ScoreScores(
        "answerability",
        "answerability",
        [fitted.probability(s) for s in pos],
        [None] * len(pos),
        {"out-of-domain": [fitted.probability(s) for s in neg]},
    )
    cal = calibrate(cal_scores, Rule("max-bluff", args.max_ood_rate), "out-of-domain", 0.1)
    from dataclasses import replace

    gate_model = replace(
        fitted,
        threshold=cal.threshold,
        provenance={
            "rule": f"answer at most {args.max_ood_rate:.0%} of the calibration half's "
            "out-of-domain questions",
            "fitted_on": {
                "positives": len(pos),
                "negatives": len(neg),
                "data": "benchmarks/devset calibration half (both phrasings; out-of-domain "
                "questions against every corpus) + SQuAD 2.0 and SciFact calibration halves "
                "(seeded samples; the other set's questions as out-of-domain)",
            },
            "calibration_half": {
                "answerable_kept": round(cal.chosen["answerable_kept"].value, 4),
                "out_of_domain_answered": round(cal.chosen["bluffs:out-of-domain"].value, 4),
                "auc": round(cal.auc["out-of-domain"], 4),
            },
            "written_by": "benchmarks/answerability.py",
        },
    )
    log(f"fitted on {len(pos)} positives / {len(neg)} negatives; threshold {cal.threshold}")
    log(f"weights {json.dumps(gate_model.weights)}")

    cfg_new = parse_config(NEW)
    new_results: dict[str, dict[str, Any]] = {}
    for name, (_ev, qs, loaded, corpus_docs) in evaluators.items():
        ev2 = Evaluator(
            loaded.store,
            emb,
            corpus_docs,
            calibration={"answerability": gate_model.to_dict()},
            cache_states=False,
        )
        test_qs = [q for q in qs if split_of(name, q) == "test"]
        run = ev2.run(test_qs, cfg_new, progress=not args.no_progress)
        new_results[name] = {r.id: r for r in run.results}

    # test-half figures, paired
    groups: dict[str, list[tuple[str, Any, Any]]] = {}
    for name, (_, qs, _, _) in evaluators.items():
        for q in qs:
            if split_of(name, q) != "test":
                continue
            old, new = results[name][q.id], new_results[name][q.id]
            if is_pos(q):
                phr = q.meta.get("phrasing", "dataset")
                key = f"{name} answerable" + (f" ({phr}'s words)" if name.startswith("dev") else "")
            elif is_ood(q):
                key = f"{name} out-of-domain"
            else:
                key = f"{name} near miss"
            groups.setdefault(key, []).append((q.id, old, new))
    rows, data_rows = [], {}
    for key in sorted(groups):
        items = groups[key]
        ids = [i for i, _, _ in items]
        a = [n.gate_passed for _, _, n in items]
        b = [o.gate_passed for _, o, _ in items]
        pr = stats.paired(a, b, ids)
        ctx_new = stats.Proportion(sum(n.in_context for _, _, n in items if n.gate_passed), sum(a))
        ctx_old = stats.Proportion(sum(o.in_context for _, o, _ in items if o.gate_passed), sum(b))
        answerable = "answerable" in key
        rows.append(
            [
                key,
                len(items),
                stats.Proportion(sum(b), len(items)).fmt(),
                stats.Proportion(sum(a), len(items)).fmt(),
                pr.fmt(),
                ctx_old.fmt() if answerable else "–",
                ctx_new.fmt() if answerable else "–",
            ]
        )
        data_rows[key] = {
            "n": len(items),
            "passed_shipped": stats.Proportion(sum(b), len(items)).to_json(),
            "passed_new": stats.Proportion(sum(a), len(items)).to_json(),
            "paired": pr.to_json(),
            # per question, for pairing runs (e.g. two embedding models on the same questions)
            "per_question": {
                i: {
                    "passed_shipped": bool(o.gate_passed),
                    "passed_new": bool(n.gate_passed),
                    "in_context_shipped": bool(o.in_context),
                    "in_context_new": bool(n.in_context),
                }
                for i, o, n in items
            },
        }
    md = [
        "## The answerability gate vs the shipped gate (test half)\n",
        f"Model: {json.dumps({k: round(v, 3) for k, v in gate_model.weights.items()})}, "
        f"threshold {gate_model.threshold:.3f} ({gate_model.provenance['rule']}); calibration "
        f"half: answerable kept {cal.chosen['answerable_kept'].fmt()}, out-of-domain answered "
        f"{cal.chosen['bluffs:out-of-domain'].fmt()}, AUC {cal.auc['out-of-domain']:.3f}.\n",
        report.table(
            [
                "questions",
                "n",
                "pass: shipped gate",
                "pass: answerability",
                "paired (new vs shipped)",
                "evidence in context | passed, shipped",
                "… answerability",
            ],
            rows,
        ),
    ]
    from citerag.eval.plots import calibration_curves, save

    out_png = args.out / "answerability_tradeoff.png"
    save(calibration_curves([cal], "answerability gate, calibration half"), out_png)
    md.append(f"\nTrade-off plot: `{out_png}`")
    data = {"model": gate_model.to_dict(), "test_half": data_rows}
    if args.write_model:
        path = REPO / "chains" / "gate_model.json"
        path.write_text(json.dumps(gate_model.to_dict(), indent=2) + "\n", encoding="utf-8")
        log(f"wrote {path}")
    write(args.out, "answerability", data, "\n".join(md))
    gates = gates_table(
        {k: [(o.gate_passed, n.gate_passed) for _, o, n in v] for k, v in groups.items()}
    )
    fit = table(
        ["the answerability model, fitted on the calibration half", ""],
        [
            ["positives / negatives", f"{len(pos)} / {len(neg)}"],
            [
                f"threshold (answer at most {args.max_ood_rate:.0%} out-of-domain)",
                f"{gate_model.threshold:.3f}",
            ],
            ["answerable kept", f"{100 * cal.chosen['answerable_kept'].value:.1f} %"],
            ["out-of-domain answered", f"{100 * cal.chosen['bluffs:out-of-domain'].value:.1f} %"],
            ["ROC AUC vs out-of-domain", f"{cal.auc['out-of-domain']:.3f}"],
        ],
    )
    write_result("answerability", {"gates": gates, "fit": fit}, data)
    return 0


#: The docs' rows: label -> which test-half groups of the run it pools.
POOLS: dict[str, Any] = {
    "devset answerable, documents' words (4 corpora)": lambda k: (
        k.startswith("devset") and "answerable" in k and "document" in k
    ),
    "devset answerable, users' words (4 corpora)": lambda k: (
        k.startswith("devset") and "answerable" in k and "user" in k
    ),
    "devset out-of-domain, per corpus index": lambda k: (
        k.startswith("devset") and k.endswith("out-of-domain")
    ),
    "devset near misses": lambda k: k.startswith("devset") and k.endswith("near miss"),
    "SQuAD 2.0 answerable": lambda k: k == "squad answerable",
    "SciFact answerable": lambda k: k == "scifact answerable",
    "out-of-domain on the SQuAD / SciFact indexes": lambda k: (
        k in ("squad out-of-domain", "scifact out-of-domain")
    ),
}


def gates_table(groups: dict[str, list[tuple[bool, bool]]]) -> dict[str, Any]:
    """The result table ``gates``: test-half questions passing the shipped gate and the
    answerability gate (pooled as the docs show them), paired (p shown below 0.05)."""
    from citerag.eval import metrics as stats

    rows = []
    for label, wanted in POOLS.items():
        pairs = [pair for key, items in groups.items() if wanted(key) for pair in items]
        if not pairs:
            continue
        shipped = [bool(old) for old, _ in pairs]
        new = [bool(n) for _, n in pairs]
        pr = stats.paired(new, shipped)
        sign = f"+{pr.wins}/−{pr.losses}"
        if pr.p_value < 0.05:
            sign += f", p = {pr.p_value:.1g}"
        n = len(pairs)
        rows.append([label, str(n), f"{sum(shipped) / n:.3f}", f"{sum(new) / n:.3f}", sign])
    columns = ["questions (test half)", "n", "pass: shipped", "pass: answerability", "paired"]
    return table(columns, rows)


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "answerability_history": (
        "the gate with MiniLM against mpnet: two runs (--embedding-model) paired by hand"
    ),
}


if __name__ == "__main__":
    raise SystemExit(main())

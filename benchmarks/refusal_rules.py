"""Each refusal rule of the extractive answerer, measured alone and together, through the graph.

Usage (from the repository root)::

    .venv/bin/python benchmarks/refusal_rules.py [--cal-limit N] [--limit N] [--seed 0]
        [--sets squad-cal,squad-test,scifact,sample,devset] [--kept RULE,...]

The gate refuses questions the corpus does not cover; questions that *look* covered get past
it, and the offline extractive answerer then decides whether the sentence it would quote
answers the question (``chains/answer_checks.py``). Its rules are knobs: ``number_check`` (a
number the question asks about that no passage mentions), ``answer_type_check`` (who / when /
how many needs a name / date / quantity) and ``focus_check`` (the question's names and heavy
terms, or a close paraphrase, must be in the passage). Instruction-shaped sentences are never
quoted under any configuration (a safety rule, not a knob), so it is not measured as one.

Configurations, each the full compiled graph (``GraphDeps`` + ``build_graph``) with the
packaged gate:

* ``none``: every rule off;
* ``before``: the previous default (``number_check`` only);
* one configuration per rule with every other rule off;
* ``kept``: the rules on by default: ``--kept``, else those that pay for themselves on the
  SQuAD calibration half (below; the decision is reported either way);
* ``all``: every rule on.

Retrieval and the second stage do not depend on these knobs, so within a set they are
computed once per question and replayed for the other configurations (``MemoRetriever``,
``MemoReranker``); every node of the compiled graph still runs for every configuration.

SQuAD 2.0's 16 articles are split by article (seeded shuffle of the sorted titles, seed 12,
fixed before any result was looked at) into a calibration half and a test half. A rule is
*kept* when, alone against ``none`` on the calibration half, it newly refuses more
unanswerable questions than answerable ones (paired: the sign test's two counts). Thresholds
(``FOCUS_SIMILARITY``, ``FOCUS_SHARE`` in ``chains/answerers.py``) were tuned on the
calibration half only. Reported on the test half and on the other sets: SciFact's answerable
claims, the sample corpus (``examples/questions.jsonl``) and, when present, the test half of
the users'-words development set (``benchmarks/devset/questions.jsonl``: answerable, near
misses and out-of-domain questions, each asked of its own corpus; out-of-domain ones of every
corpus run). Figures per configuration: answerable answered and unanswerable refused (95 %
Wilson), paired wins/losses against ``none`` and against ``before`` with a two-sided exact
sign test (correct = an answerable question answered, an unanswerable one refused), and
among answered answerable questions the share citing the gold evidence. Writes
``benchmarks/out/refusal_rules.{json,md}``.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from eval_common import (
    REPO,
    cached_embeddings,
    dataset,
    log,
    model,
    parser,
    sample,
    save_embeddings,
    write,
)

RULES = ("number_check", "answer_type_check", "negation_check", "focus_check")
SPLIT_SEED = 12
DEVSET = REPO / "benchmarks" / "devset" / "questions.jsonl"


class MemoRetriever:
    """Replays the first stage for a repeated (question, settings): retrieval does not depend
    on the refusal rules, so each configuration's run reuses it (deep copies: later stages
    write scores into the candidates). Every node of the graph still runs."""

    def __init__(self, inner: Any) -> None:
        """Wrap a retriever."""
        self.inner = inner
        self._cache: dict[str, Any] = {}

    def retrieve(self, question: str, **kwargs: Any) -> Any:
        """The inner retriever's result, computed once per question and settings."""
        key = repr((question, sorted(kwargs.items())))
        if key not in self._cache:
            self._cache[key] = self.inner.retrieve(question, **kwargs)
        return copy.deepcopy(self._cache[key])


class MemoReranker:
    """Replays the second stage for a repeated (question, candidates), like
    :class:`MemoRetriever`."""

    def __init__(self, inner: Any) -> None:
        """Wrap a reranker."""
        self.inner = inner
        self.name = inner.name
        self.score_type = inner.score_type
        self._cache: dict[tuple[str, tuple[str, ...]], Any] = {}

    def rerank(self, query: str, candidates: list[Any], query_vector: Any = None) -> list[Any]:
        """The inner reranker's order and scores, computed once per question and shortlist."""
        key = (query, tuple(c.key for c in candidates))
        if key not in self._cache:
            self._cache[key] = self.inner.rerank(query, candidates, query_vector)
        return copy.deepcopy(self._cache[key])


def squad_halves(titles: list[str], seed: int = SPLIT_SEED) -> tuple[set[str], set[str]]:
    """Split article titles into (calibration, test) halves by a seeded shuffle."""
    order = sorted(titles)
    random.Random(seed).shuffle(order)
    half = len(order) // 2
    return set(order[:half]), set(order[half:])


def rules_conf(on: set[str]) -> dict[str, bool]:
    """Every rule knob, on when in ``on``."""
    return {r: r in on for r in RULES}


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--limit", type=int, help="sample at most N questions per kind and set")
    p.add_argument(
        "--cal-limit",
        type=int,
        help="sample at most N questions per kind of the SQuAD calibration half (overrides "
        "--limit there)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--sets",
        default="squad-cal,squad-test,scifact,sample,devset",
        help="comma-separated: squad-cal, squad-test, scifact, sample, devset",
    )
    p.add_argument(
        "--kept",
        help="comma-separated rules for the 'kept' configuration (default: decided on squad-cal "
        "in this run; needs squad-cal)",
    )
    args = p.parse_args()
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]

    from chains.rerank import make_reranker
    from citerag.eval import metrics as stats
    from citerag.eval import report
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import Question, load_questions
    from citerag.eval.runner import EvalConfig, generation_figures, parse_config, run_generation
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    emb = cached_embeddings(args)
    base_conf = parse_config("default").conf
    rng = random.Random(args.seed)

    def limited(qs: list[Question], limit: int | None = None) -> list[Question]:
        limit = args.limit if limit is None else limit
        out: list[Question] = []
        for unans in (False, True):
            part = [q for q in qs if q.unanswerable == unans]
            if limit is not None and len(part) > limit:
                part = rng.sample(part, limit)
            out += part
        return out

    indexes: dict[str, Any] = {}

    def index(name: str) -> Any:
        if name not in indexes:
            if name == "sample":
                indexes[name] = sample(args)[1]
            else:
                indexes[name] = dataset(name, args)[1]
        return indexes[name]

    sets: list[tuple[str, str, list[Question]]] = []
    if any(s.startswith("squad") for s in wanted):
        prep, _ = dataset("squad", args, ingest=False)
        squad_q = load_questions(prep.questions)
        cal, test = squad_halves(list({str(q.meta.get("article")) for q in squad_q}))
        if "squad-cal" in wanted:
            qs = [q for q in squad_q if q.meta.get("article") in cal]
            sets.append(("SQuAD 2.0 calibration half", "squad", limited(qs, args.cal_limit)))
        if "squad-test" in wanted:
            qs = [q for q in squad_q if q.meta.get("article") in test]
            sets.append(("SQuAD 2.0 test half", "squad", limited(qs)))
    if "scifact" in wanted:
        prep, _ = dataset("scifact", args, ingest=False)
        sets.append(
            ("SciFact answerable claims", "scifact", limited(load_questions(prep.questions)))
        )
    if "sample" in wanted:
        sets.append(
            ("sample corpus", "sample", load_questions(REPO / "examples" / "questions.jsonl"))
        )
    if "devset" in wanted:
        if DEVSET.is_file():
            dev = [q for q in load_questions(DEVSET) if q.meta.get("split") == "test"]
            corpora = sorted({str(q.meta.get("corpus")) for q in dev} - {"none"})
            corpora = [c for c in corpora if c in ("squad", "scifact", "sample", "financebench")]
            for corpus in corpora:
                qs = [q for q in dev if q.meta.get("corpus") in (corpus, "none")]
                sets.append((f"devset test half: {corpus}", corpus, qs))
        else:
            log(f"{DEVSET} not found: skipping the development set")

    configs: dict[str, dict[str, bool]] = {
        "none": rules_conf(set()),
        "before": rules_conf({"number_check"}),
    }
    for r in RULES:
        configs[f"{r} alone"] = rules_conf({r})
    configs["all"] = rules_conf(set(RULES))

    status: dict[str, dict[str, list[str]]] = {}
    #: per set and configuration: (status, reason, answer) per question, and the figures
    brief: dict[str, dict[str, list[tuple[str, str, str]]]] = {}
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    data: dict[str, Any] = {"base_config": base_conf, "split_seed": SPLIT_SEED, "sets": {}}
    chosen: set[str] | None = set(args.kept.split(",")) if args.kept else None
    kept: set[str] | None = None

    def run_set(
        name: str, corpus: str, qs: list[Question], cfgs: dict[str, dict[str, bool]]
    ) -> None:
        loaded = index(corpus)
        deps = GraphDeps.from_store(
            loaded.store,
            embeddings=emb,
            manifest_id=loaded.manifest_id,
            embedding_model=model().name,
        )
        deps.retriever = MemoRetriever(deps.retriever)
        spec = str(base_conf.get("reranker", "sentence"))
        deps.rerankers[spec] = MemoReranker(make_reranker(spec, deps.embeddings, deps.store))
        graph = build_graph(deps)
        corpus_idx = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        for cname, rules in cfgs.items():
            if cname in status.get(name, {}):
                continue
            same = [c for c in status.get(name, {}) if configs.get(c) == rules]
            if same:  # the same knobs under another name: same results
                status[name][cname] = status[name][same[0]]
                figures[name][cname] = figures[name][same[0]]
                brief[name][cname] = brief[name][same[0]]
                continue
            run_cfg = EvalConfig(cname, tuple(sorted({**base_conf, **rules}.items())))
            res = run_generation(graph, qs, run_cfg, progress=not args.no_progress)
            status.setdefault(name, {})[cname] = [r.get("status", "failed") for r in res]
            figures.setdefault(name, {})[cname] = generation_figures(qs, res, corpus_idx)
            brief.setdefault(name, {})[cname] = [
                (
                    str(r.get("status", "failed")),
                    str(r.get("reason") or ""),
                    str(r.get("answer") or "") if r.get("status") == "answered" else "",
                )
                for r in res
            ]
        save_embeddings(emb, args)

    for name, corpus, qs in sets:
        log(f"{name}: {len(qs)} questions on the {corpus} index")
        run_set(name, corpus, qs, configs)
        if name.startswith("SQuAD 2.0 calibration"):
            kept = set()
            for r in RULES:
                st_r, st_0 = status[name][f"{r} alone"], status[name]["none"]
                gain = sum(
                    a == "no_evidence" and b != "no_evidence" and q.unanswerable
                    for a, b, q in zip(st_r, st_0, qs, strict=True)
                )
                cost = sum(
                    a == "no_evidence" and b != "no_evidence" and not q.unanswerable
                    for a, b, q in zip(st_r, st_0, qs, strict=True)
                )
                data.setdefault("keep_decision", {})[r] = {"gain": gain, "cost": cost}
                if gain > cost:
                    kept.add(r)
            log(f"the calibration rule keeps: {sorted(kept) or 'none'}")
    rule_kept = sorted(kept) if kept is not None else None
    if chosen is not None:
        kept = chosen
    if kept is None:
        kept = {"number_check"}
        log("no calibration half run and no --kept: 'kept' = number_check")
    data["calibration_rule_keeps"] = rule_kept
    data["kept"] = sorted(kept)
    configs["kept"] = rules_conf(kept)
    for name, corpus, qs in sets:
        run_set(name, corpus, qs, {"kept": configs["kept"]})

    md: list[str] = [
        "## Refusal rules past the gate: each alone, the kept set, all\n",
        "The calibration rule (alone vs none on the SQuAD calibration half, newly refused "
        "unanswerable > newly refused answerable) keeps: "
        f"{', '.join(rule_kept or []) or 'not run'}. 'kept' here (on by default): "
        f"{', '.join(sorted(kept)) or 'none'}. Full graph, packaged gate.\n",
    ]
    order = ["none", "before", *[f"{r} alone" for r in RULES], "kept", "all"]
    for name, _, qs in sets:
        ans = [i for i, q in enumerate(qs) if not q.unanswerable]
        un = [i for i, q in enumerate(qs) if q.unanswerable]
        rows: list[list[str]] = []
        out: dict[str, Any] = {
            "questions": len(qs),
            "answerable": len(ans),
            "unanswerable": len(un),
        }
        correct = {
            c: [(status[name][c][i] == "no_evidence") == q.unanswerable for i, q in enumerate(qs)]
            for c in order
        }
        for c in order:
            st = status[name][c]
            answered = stats.Proportion(sum(st[i] == "answered" for i in ans), len(ans))
            refused = stats.Proportion(sum(st[i] == "no_evidence" for i in un), len(un))
            cites = figures[name][c]["cites_evidence"]
            vs = {}
            for ref in ("none", "before"):
                pr = stats.paired(correct[c], correct[ref])
                vs[ref] = pr.to_json()
            out[c] = {
                "rules": configs[c],
                "answerable_answered": answered.to_json(),
                "unanswerable_refused": refused.to_json(),
                "cites_evidence": cites,
                "paired": vs,
                "status": {s: st.count(s) for s in set(st)},
            }
            rows.append(
                [
                    c,
                    answered.fmt() if ans else "—",
                    refused.fmt() if un else "—",
                    *(
                        f"+{vs[ref]['wins']}/−{vs[ref]['losses']}, p = "
                        f"{stats.format_p(vs[ref]['p_sign_test'])}"
                        if c != ref
                        else "—"
                        for ref in ("none", "before")
                    ),
                    f"{cites['value']:.3f} ({cites['k']}/{cites['n']})" if cites["n"] else "—",
                ]
            )
        data["sets"][name] = out
        md += [
            f"### {name} ({len(ans)} answerable, {len(un)} unanswerable)\n",
            report.table(
                [
                    "configuration",
                    "answerable answered",
                    "unanswerable refused",
                    "paired vs none",
                    "paired vs before",
                    "answered citing the evidence",
                ],
                rows,
            ),
            "",
        ]
    md.append(
        "Paired: +wins/−losses = questions the configuration handles correctly and the "
        "reference does not, and the reverse (correct = answerable answered, unanswerable "
        "refused); two-sided exact sign test."
    )
    write(args.out, "refusal_rules", data, "\n".join(md))
    (args.out / "refusal_rules_reasons.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "set": name,
                    "config": c,
                    "id": q.id,
                    "unanswerable": q.unanswerable,
                    "question": q.question,
                    "status": st,
                    "reason": why,
                    "answer": answer or None,
                },
                ensure_ascii=False,
            )
            + "\n"
            for name, _, qs in sets
            for c in ("before", "kept")
            for q, (st, why, answer) in zip(qs, brief[name][c], strict=True)
        ),
        encoding="utf-8",
    )
    log(f"wrote {Path(args.out) / 'refusal_rules_reasons.jsonl'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

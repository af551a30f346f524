"""Question constraints on and off: right filing, right page, and never another company's.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.constraints_eval \
        [--sets financebench,financebench-dev,squad,scifact] [--max-company-pages 450] \
        [--limit N] [--no-generate]

Each set is indexed with the default settings (``financebench-dev`` without sentence
vectors, to keep its ingest within minutes; the sentence reranker then embeds the shortlist's
sentences on the fly) and run through the compiled graph twice, ``constraints`` on (the
default) and off, on the same questions:

* **filing hit@1** — the first candidate is from the filing the question was asked about;
* **page hit@1/4/8/20** — a candidate from an evidence page within the first k;
* with generation (the full graph, extractive answerer): **answered**, **answered from
  another document** / **another company's document** among answered questions (no citation
  from the filing asked about), and **refused though present** (``no_evidence`` although the
  filing is indexed);
* paired exact sign tests, constraints on vs off, on the same questions.

SQuAD 2.0 and SciFact name no document attributes: there the script checks that turning the
stage on costs nothing (recall@k, paired).

On ``financebench-dev`` the figures are also given per half — ``calibration`` and ``test``,
by a hash of the question id (:func:`half`), fixed before any per-question result was looked
at: rules were developed on the calibration half only.

``financebench-dev`` is cut by a stated size rule, not by results: the companies whose
filings total at most ``--max-company-pages`` pages (all their filings are kept, so
multi-year companies stay multi-year). Results go to ``benchmarks/out/constraints.{json,md}``.

**A non-filing corpus** (set ``trust``): ``benchmarks/corpora/trust/`` — a water trust's
two annual reports, budget, readings and newsletters, with 24 questions naming years (see
its README). Per question: **document hit@1**, **evidence hit@4/8** (a candidate containing
the question's evidence string), **refused before retrieval**, **nothing retrieved**,
**answered citing the document**. Indexed per code version (``<work>/trust-<label>``): its
metadata is what the version's ingest infers.

**Against another version of the code** (``--baseline DIR``, e.g. an export of main): the
script first runs itself on ``DIR``'s library code (``--code DIR --label main``; filing
indexes are shared, as their inferred periods are the same, ``trust`` is re-indexed), then
pairs this version's default (constraints on) with the baseline's, question by question:
Wilson 95 % intervals and exact sign tests, in ``constraints-vs-<label>.{json,md}``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.common import (
    REPO,
    cached_embeddings,
    code_from_argv,
    index_dir,
    log,
    model,
    parser,
    save_embeddings,
    use_library_from,
    write,
)
from benchmarks.results import table, write_result

ON, OFF = "default", "default:constraints=false"
KS = (1, 4, 8, 20)


def half(question_id: str) -> str:
    """``calibration`` or ``test``: a hash of the question id, fixed before any result."""
    digest = int(hashlib.sha256(question_id.encode()).hexdigest(), 16)
    return "calibration" if digest % 2 == 0 else "test"


def _index(name: str, args: Any) -> tuple[Any, Any]:
    from citerag.eval.adapters import ensure_index, prepare
    from citerag.stores.loaded import load_index

    kwargs: dict[str, Any] = {}
    if name == "financebench-dev" and args.max_company_pages:
        kwargs["max_company_pages"] = args.max_company_pages
    prep = prepare(name, args.data, args.work, **kwargs)
    folder = index_dir(prep)  # the configured model's own index
    report = ensure_index(
        prep,
        folder,
        model(),
        sentence_vectors=name != "financebench-dev",
        progress=not args.no_progress,
    )
    log(f"{prep.name}: {report.summary()}")
    return prep, load_index(folder, model())


def _asked(doc: dict[str, Any], q: Any, gold: dict[str, Any]) -> bool:
    """Whether a cited document is one the question asks about: the gold filing, or a filing
    of the gold company for a period the question names (each period of a range or list).

    This is the issue's "another company's or year's document" read literally: a question
    about "FY2019 to FY2021" may cite the FY2019 10-K, although FinanceBench lists one gold
    filing per question.
    """
    from chains.constraints import _annual_key, named_periods, parse_periods

    if doc.get("doc_name") == gold.get("doc_name"):
        return True
    if not doc or doc.get("company") != gold.get("company"):
        return False
    keys = {_annual_key(v) for c in parse_periods(q.question) for v in named_periods(c)}
    return bool(doc.get("period")) and _annual_key(str(doc["period"])) in keys


def _filing_rows(
    name: str,
    qs: list[Any],
    runs: dict[str, Any],
    gen: dict[str, Any],
    docs: dict,
    keep: list[bool] | None = None,
):
    """Per-configuration filing figures (FinanceBench sets), over the questions ``keep``."""
    from citerag.eval import metrics as stats

    keep = keep or [True] * len(qs)
    qs = [q for q, k in zip(qs, keep, strict=True) if k]
    out: dict[str, Any] = {}
    per_q: dict[str, dict[str, list[bool]]] = {}
    for cfg, run in runs.items():
        res = [r for r, k in zip(run.answerable, keep, strict=True) if k]
        gold = [q.meta.get("doc_name") for q in qs]
        filing1 = [bool(r.top_docs) and r.top_docs[0] == g for r, g in zip(res, gold, strict=True)]
        row: dict[str, Any] = {
            "filing_hit@1": stats.Proportion(sum(filing1), len(res)),
            **{
                f"page_hit@{k}": stats.Proportion(sum(r.hit_at(k) for r in res), len(res))
                for k in KS
            },
            "refused_before_retrieval": sum(bool(r.refusal) for r in res),
        }
        flags: dict[str, list[bool]] = {
            "filing_hit@1": filing1,
            **{f"page_hit@{k}": [r.hit_at(k) for r in res] for k in KS},
        }
        if cfg in gen:
            results = [r for r, k in zip(gen[cfg], keep, strict=True) if k]
            answered = [r.get("status") == "answered" for r in results]
            cites = [[c.get("doc_name") for c in r.get("citations") or []] for r in results]
            gold_company = [docs.get(g, {}).get("company") for g in gold]
            other_doc = [a and g not in c for a, c, g in zip(answered, cites, gold, strict=True)]
            other_company = [
                a and any(docs.get(d, {}).get("company") != gc for d in c)
                for a, c, gc in zip(answered, cites, gold_company, strict=True)
            ]
            outside = [
                a and any(not _asked(docs.get(d, {}), q, docs.get(g, {})) for d in c)
                for a, c, q, g in zip(answered, cites, qs, gold, strict=True)
            ]
            refused = [r.get("status") == "no_evidence" for r in results]
            n_ans = sum(answered)
            for q, o, out_, c, g in zip(qs, other_doc, outside, cites, gold, strict=True):
                if o and cfg == ON:
                    log(
                        f"{name} {q.id}: cites {sorted(set(c))}, not {g}"
                        f"{' (outside the question)' if out_ else ' (a period it names)'}:"
                        f" {q.question!r}"
                    )
            row.update(
                {
                    "answered": stats.Proportion(n_ans, len(results)),
                    "answered_from_another_document": stats.Proportion(sum(other_doc), n_ans),
                    "answered_citing_another_company": stats.Proportion(sum(other_company), n_ans),
                    "answered_citing_outside_the_question": stats.Proportion(sum(outside), n_ans),
                    "refused_though_present": stats.Proportion(sum(refused), len(results)),
                }
            )
            flags["cites_the_filing"] = [
                a and not o for a, o in zip(answered, other_doc, strict=True)
            ]
            flags["refused"] = refused
        out[cfg] = row
        per_q[cfg] = flags
    paired = {m: stats.paired(per_q[ON][m], per_q[OFF][m], [q.id for q in qs]) for m in per_q[ON]}
    return out, paired, per_q


def _fmt(row: dict[str, Any], key: str) -> str:
    v = row.get(key)
    return "–" if v is None else (v.fmt() if hasattr(v, "fmt") else str(v))


def _run_sets(args: Any) -> dict[str, Any]:
    """Run every set of ``--sets`` on this process's library code; returns the JSON data."""
    from citerag.eval import report
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import Evaluator, compare, parse_config, run_generation
    from graphs.rag import build_graph

    emb = cached_embeddings(args)
    configs = {ON: parse_config(ON), OFF: parse_config(OFF)}
    md: list[str] = ["## Question constraints: on (default) vs off\n"]
    data: dict[str, Any] = {"sets": {}, "max_company_pages": args.max_company_pages}
    stem = "constraints" if args.label == "this" else f"constraints-{args.label}"
    data["label"] = args.label
    data["code"] = str(Path(args.code).resolve()) if args.code else str(REPO)
    import chains.constraints

    log(f"library code: {Path(chains.constraints.__file__).resolve().parent.parent}")
    for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        if name == "trust":
            entry = _trust(args, configs, md)
            data["sets"]["trust"] = entry
            write(args.out, stem, data, "\n".join(md))
            continue
        prep, loaded = _index(name, args)
        qs = [q for q in load_questions(prep.questions) if not q.unanswerable]
        if args.limit is not None and len(qs) > args.limit:
            qs = random.Random(args.seed).sample(qs, args.limit)
        corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        ev = Evaluator(loaded.store, emb, corpus, calibration={}, manifest_id=loaded.manifest_id)
        runs = {c: ev.run(qs, cfg, progress=not args.no_progress) for c, cfg in configs.items()}
        save_embeddings(emb, args)
        entry: dict[str, Any] = {"questions": len(qs), "documents": len(loaded.manifest.documents)}
        if name.startswith("financebench"):
            gen: dict[str, Any] = {}
            if not args.no_generate:
                graph = build_graph(ev.deps)
                for c, cfg in configs.items():
                    gen[c] = run_generation(graph, qs, cfg, progress=not args.no_progress)
            docs = {str(d.get("doc_name")): d for d in ev.deps.documents()}
            subsets: dict[str, list[bool]] = {"all": [True] * len(qs)}
            if name == "financebench-dev":
                for h in ("calibration", "test"):
                    subsets[h] = [half(q.id) == h for q in qs]
            entry["subsets"] = {}
            for label, keep in subsets.items():
                rows, paired, flags = _filing_rows(name, qs, runs, gen, docs, keep)
                n = sum(keep)
                keys = [k for k in rows[ON] if k != "refused_before_retrieval"]
                title = f"{prep.name}: {entry['documents']} filings, {n} questions" + (
                    "" if label == "all" else f" ({label} half)"
                )
                md.append(
                    f"### {title}\n\n"
                    + report.table(
                        ["constraints", *keys],
                        [
                            [
                                c.split(":")[-1] if c != ON else "on",
                                *[_fmt(rows[c], k) for k in keys],
                            ]
                            for c in rows
                        ],
                    )
                    + "\n\nPaired, on vs off: "
                    + "; ".join(f"{m} {r.fmt()}" for m, r in paired.items())
                    + "\n"
                )
                entry["subsets"][label] = {
                    "questions": n,
                    "configs": {
                        c: {k: (v.to_json() if hasattr(v, "to_json") else v) for k, v in r.items()}
                        for c, r in rows.items()
                    },
                    "paired": {m: r.to_json() for m, r in paired.items()},
                    "ids": [q.id for q, k in zip(qs, keep, strict=True) if k],
                    "flags": flags,
                }
        else:
            cmp = compare(runs[ON], runs[OFF])
            md.append(
                f"### {prep.name}: {len(qs)} answerable questions (no document attributes)\n\n"
                + report.retrieval_table(list(runs.values()))
                + "\n\nPaired, on vs off: "
                + "; ".join(f"{m} {r.fmt()}" for m, r in cmp.items())
                + "\n"
            )
            entry["configs"] = {c: r.summary() for c, r in runs.items()}
            entry["paired"] = {m: r.to_json() for m, r in cmp.items()}
            entry["subsets"] = {
                "all": {
                    "ids": [q.id for q in qs],
                    "flags": {
                        c: {f"hit@{k}": [r.hit_at(k) for r in run.answerable] for k in KS}
                        for c, run in runs.items()
                    },
                }
            }
        data["sets"][prep.name] = entry
        write(args.out, stem, data, "\n".join(md))  # after every set: partial results
    return data


TRUST = REPO / "benchmarks" / "corpora" / "trust"
TRUST_KS = (1, 4, 8)


def _trust(args: Any, configs: dict[str, Any], md: list[str]) -> dict[str, Any]:
    """The non-filing corpus through the compiled graph, constraints on and off."""
    from citerag.eval import metrics as stats
    from citerag.eval import report
    from citerag.index.ingest import ingest
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    folder = args.work / f"trust-{args.label}" / "index"
    ingest([TRUST / "docs"], folder, model(), progress=False)
    deps = GraphDeps.from_index(folder, embedding_model=model())
    graph = build_graph(deps)
    qs = [json.loads(line) for line in (TRUST / "questions.jsonl").read_text().splitlines()]
    docs = {
        str(d.get("doc_name")): {k: d.get(k) for k in ("period", "period_source", "period_span")}
        for d in deps.documents()
    }
    flags: dict[str, dict[str, list[bool]]] = {}
    for c in configs:
        f: dict[str, list[bool]] = {}
        for q in qs:
            res = graph.invoke(
                {"question": q["question"], "user_groups": []},
                {"configurable": {"constraints": c == ON}},
            )
            cands = res["trace"].get("candidates") or []
            row = {
                "doc_hit@1": bool(cands) and cands[0].get("doc_name") == q["doc_name"],
                **{
                    f"evidence_hit@{k}": any(
                        q["evidence"] in x.get("content", "") for x in cands[:k]
                    )
                    for k in TRUST_KS[1:]
                },
                "nothing_retrieved": not cands,
                "refused_before_retrieval": bool(
                    (res["trace"].get("constraints") or {}).get("refusal")
                ),
                "answered": res["status"] == "answered",
                "answered_citing_the_document": res["status"] == "answered"
                and q["doc_name"] in {x.get("doc_name") for x in res.get("citations") or []},
            }
            for m, v in row.items():
                f.setdefault(m, []).append(bool(v))
            if c == ON:
                log(f"trust {q['id']} [{args.label}]: {res['status']} {res.get('reason', '')[:80]}")
        flags[c] = f
    ids = [q["id"] for q in qs]
    entry: dict[str, Any] = {"questions": len(qs), "documents": docs, "subsets": {}}
    for label in ("all", "calibration", "test"):
        keep = [label == "all" or half(i) == label for i in ids]
        sub_ids = [i for i, k in zip(ids, keep, strict=True) if k]
        sub = {
            c: {m: [v for v, k in zip(vals, keep, strict=True) if k] for m, vals in f.items()}
            for c, f in flags.items()
        }
        rows = {
            c: {m: stats.Proportion(sum(v), len(v)) for m, v in f.items()} for c, f in sub.items()
        }
        metrics = list(rows[ON])
        title = f"trust ({args.label} code): {len(sub_ids)} questions" + (
            "" if label == "all" else f" ({label} half)"
        )
        md.append(
            f"### {title}\n\n"
            + report.table(
                ["constraints", *metrics],
                [["on" if c == ON else "off", *[rows[c][m].fmt() for m in metrics]] for c in rows],
            )
            + "\n"
        )
        entry["subsets"][label] = {
            "ids": sub_ids,
            "flags": sub,
            "configs": {c: {m: v.to_json() for m, v in r.items()} for c, r in rows.items()},
        }
    md.append(
        "Document periods: "
        + "; ".join(f"{n}: {d['period']} ({d['period_source']})" for n, d in sorted(docs.items()))
        + "\n"
    )
    return entry


#: Per-question metrics where fewer is better (a "win" of this version is a loss of the flag).
LOWER_IS_BETTER = {"refused", "nothing_retrieved", "refused_before_retrieval"}


def compare_versions(
    mine: dict[str, Any], base: dict[str, Any], base_label: str
) -> tuple[dict[str, Any], str]:
    """Pair this version's default (constraints on) with another version's, per question.

    Returns:
        The JSON data and the Markdown table: per set, subset and metric, both rates with
        Wilson 95 % intervals, the discordant questions and an exact sign test.
    """
    from citerag.eval import metrics as stats
    from citerag.eval import report

    rows: list[list[str]] = []
    data: dict[str, Any] = {"baseline": base_label, "baseline_code": base.get("code"), "sets": {}}
    for name, entry in mine.get("sets", {}).items():
        other = base.get("sets", {}).get(name)
        if not other:
            continue
        for sub, m_sub in (entry.get("subsets") or {}).items():
            o_sub = (other.get("subsets") or {}).get(sub)
            if not o_sub or o_sub.get("ids") != m_sub.get("ids"):
                continue
            ids = m_sub["ids"]
            for metric, a in m_sub["flags"][ON].items():
                b = o_sub["flags"][ON].get(metric)
                if b is None:
                    continue
                res = stats.paired(a, b, ids)
                pa, pb = stats.Proportion(sum(a), len(a)), stats.Proportion(sum(b), len(b))
                data["sets"].setdefault(name, {}).setdefault(sub, {})[metric] = {
                    "this": pa.to_json(),
                    base_label: pb.to_json(),
                    "paired": res.to_json(),
                }
                rows.append(
                    [
                        name,
                        sub,
                        metric + (" (lower is better)" if metric in LOWER_IS_BETTER else ""),
                        pa.fmt(),
                        pb.fmt(),
                        res.fmt(),
                    ]
                )
    md = (
        f"## Question constraints: this version vs {base_label}, paired (constraints on)\n\n"
        + report.table(["set", "questions", "metric", "this", base_label, "paired (+/−, p)"], rows)
        + "\n"
    )
    return data, md


def main() -> int:
    """Run the benchmark (and the baseline version, then pair them, with ``--baseline``)."""
    code = code_from_argv()
    if code is not None:  # another checkout's library, before anything imports it
        use_library_from(code)
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--sets", default="trust,financebench,financebench-dev,squad,scifact")
    p.add_argument("--max-company-pages", type=int, default=450)
    p.add_argument("--limit", type=int, help="at most N questions per set (seeded sample)")
    p.add_argument("--no-generate", action="store_true", help="retrieval figures only")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--code", help="run on another checkout's library code (a directory)")
    p.add_argument("--label", default="this", help="name of this run's code version")
    p.add_argument(
        "--baseline",
        type=Path,
        help="another checkout (e.g. an export of main): run it too, then pair the two",
    )
    p.add_argument("--baseline-label", default="main")
    p.add_argument(
        "--compare-only", action="store_true", help="pair the saved runs without running"
    )
    args = p.parse_args()
    base_file = args.out / f"constraints-{args.baseline_label}.json"
    if args.baseline is not None and not args.compare_only:
        cmd = [
            sys.executable,
            "-m",
            "benchmarks.constraints_eval",
            "--code",
            str(args.baseline),
            "--label",
            args.baseline_label,
            "--sets",
            args.sets,
            "--data",
            str(args.data),
            "--work",
            str(args.work),
            "--out",
            str(args.out),
            "--max-company-pages",
            str(args.max_company_pages),
            "--seed",
            str(args.seed),
        ]
        cmd += ["--no-progress"] * args.no_progress + ["--no-generate"] * args.no_generate
        cmd += ["--limit", str(args.limit)] if args.limit is not None else []
        log(f"baseline: {' '.join(cmd)}")
        subprocess.run(cmd, check=True, env={**os.environ}, cwd=REPO)
    if args.compare_only:
        mine = json.loads((args.out / "constraints.json").read_text())
    else:
        mine = _run_sets(args)
        if args.label == "this" and any(
            "configs" in e.get("subsets", {}).get("all", {}) for e in mine["sets"].values()
        ):
            tables = {"financebench": filing_table(mine), "paired": paired_table(mine)}
            write_result("constraints_eval", tables, mine)
    if args.baseline is not None or args.compare_only:
        base = json.loads(base_file.read_text())
        data, md = compare_versions(mine, base, args.baseline_label)
        write(args.out, f"constraints-vs-{args.baseline_label}", data, md)
        if "trust" in data["sets"]:
            trust = versions_table(data, "trust", args.baseline_label)
            write_result("constraints_eval_vs_main", {"trust": trust}, data)
    return 0


#: The filing table's columns: result key -> header (hit rates with Wilson intervals).
FILING_COLUMNS = {
    "filing_hit@1": "filing hit@1",
    **{f"page_hit@{k}": f"page hit@{k}" for k in KS},
    "answered": "answered",
    "answered_from_another_document": "answered without citing the gold filing",
    "answered_citing_another_company": "answered citing another company",
    "answered_citing_outside_the_question": "answered citing outside the question",
    "refused_though_present": "refused though present",
}
#: Shown as a plain rate (the others with their interval).
PLAIN = {"answered", "refused_though_present"}


def _cell(v: Any, plain: bool) -> str:
    if not isinstance(v, dict) or "value" not in v:
        return "–"
    if plain or not v.get("n"):
        return f"{v['value']:.3f}"
    lo, hi = v["ci95"]
    return f"{v['value']:.3f} [{lo:.3f}, {hi:.3f}]"


def filing_table(mine: dict[str, Any]) -> dict[str, Any]:
    """The result table ``financebench``: each FinanceBench set and half, constraints on and
    off: filing and page hits, and what the answers cite."""
    rows = []
    for name, entry in mine["sets"].items():
        for sub, figures in (entry.get("subsets") or {}).items():
            if "configs" not in figures:
                continue
            head = f"{name}, {sub}" + (" half" if sub != "all" else "")
            head += f" ({figures['questions']} q)"
            for i, (cfg, row) in enumerate(figures["configs"].items()):
                rows.append(
                    [head if i == 0 else "", "on" if cfg == ON else "off"]
                    + [_cell(row.get(k), k in PLAIN) for k in FILING_COLUMNS]
                )
    columns = ["set", "constraints", *FILING_COLUMNS.values()]
    return table(columns, rows, ["left", "left"] + ["right"] * len(FILING_COLUMNS))


#: The paired table's columns: per-question flag -> header.
PAIRED_COLUMNS = {
    "filing_hit@1": "filing hit@1",
    **{f"page_hit@{k}": f"page hit@{k}" for k in KS},
    "cites_the_filing": "answers citing the filing asked about",
    "refused": "refused",
}


def paired_table(mine: dict[str, Any]) -> dict[str, Any]:
    """The result table ``paired``: constraints on against off, per FinanceBench set and half:
    questions only "on" gets / only "off" gets, exact sign test."""
    rows = []
    for name, entry in mine["sets"].items():
        for sub, figures in (entry.get("subsets") or {}).items():
            if "paired" not in figures or "configs" not in figures:
                continue
            cells = []
            for key in PAIRED_COLUMNS:
                pr = figures["paired"].get(key)
                if pr is None:
                    cells.append("–")
                    continue
                sign = f"+{pr['wins']}/−{pr['losses']}"
                if pr["wins"] or pr["losses"]:
                    sign += f", p = {pr['p_sign_test']:.2g}"
                cells.append(sign)
            rows.append([f"{name}, {sub}" + (" half" if sub != "all" else ""), *cells])
    return table(["set (on vs off)", *PAIRED_COLUMNS.values()], rows)


def versions_table(data: dict[str, Any], name: str, base_label: str) -> dict[str, Any]:
    """The result table of ``--baseline``: one set, this version against the other, per metric
    and subset (constraints on), paired per question."""
    rows = []
    for sub, metrics in data["sets"][name].items():
        for metric, m in metrics.items():
            pr = m["paired"]
            sign = f"+{pr['wins']}/−{pr['losses']}"
            if pr["wins"] or pr["losses"]:
                sign += f", p = {pr['p_sign_test']:.2g}"
            label = metric.replace("_", " ") + ("" if sub == "all" else f" ({sub} half)")
            rows.append([label, _cell(m["this"], False), _cell(m[base_label], False), sign])
    return table([name, "this version", base_label, "paired"], rows)


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "constraints_eval_history": (
        "figures of runs before a rule's final form (the statements' keyword leg, the first-"
        "stage order, the range rule) and of the checks against main, read off several runs"
    ),
}

if __name__ == "__main__":
    raise SystemExit(main())

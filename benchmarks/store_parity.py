"""Whole-graph parity, FAISS vs PostgreSQL: the same questions, the same documents, paired.

Usage (from the repository root; ``-m`` so that this checkout's code is imported)::

    nice -n 10 .venv/bin/python -m benchmarks.store_parity [--dataset squad|scifact]
        [--articles 3] [--questions 200] [--distractors 300] [--seed 0]
        [--no-idf] [--tag NAME] [--data ../shared/data] [--work benchmarks/out/work/store_parity]

``--dataset squad`` (the default): the first ``--articles`` SQuAD 2.0 dev articles
(``citerag.eval.adapters.prepare_squad``) and a seeded sample of ``--questions`` of their
questions, half answerable, half unanswerable (``is_impossible``).

``--dataset scifact``: a subset of ``scifact-1k`` fixed by a hash of ``--seed`` and the ids
(:func:`scifact_subset`), chosen before any result is seen: ``--questions`` claims, half
*answerable* (their cited abstracts are in the corpus) and half *unanswerable* (claims none of
whose cited abstracts is in the corpus: the corpus does not hold the evidence), over the
answerable claims' cited abstracts plus ``--distractors`` abstracts no test claim cites.

The corpus is ingested, default settings, into a FAISS index directory and into a PostgreSQL
namespace (PostgreSQL 16 + pgvector from the ``pgserver`` wheel, data folder under
``--work``), and every question goes through the compiled graph (``graphs.rag.build_graph``
over ``GraphDeps.from_index``, default configuration: hybrid retrieval, ``sentence-hybrid``
reranker, packaged gate, extractive answerer) on each store. Reported, paired per question:
status agreement (answered / refused), gate agreement, top reranked chunk agreement, answer
text agreement among the questions answered on both, each with its 95 % Wilson interval; the
exact McNemar test (two-sided sign test on the discordant pairs) on "answered"
(PostgreSQL-only vs FAISS-only answers) and on "passed the gate"; the mean |PostgreSQL -
FAISS| rerank score of the top chunk where both stores rank the same chunk first (bootstrap
interval) and the share of those within 0.01. With evidence documents, also each
store's share of answerable questions answered citing a relevant document (SciFact's
document-level scoring), paired.

``--no-idf`` reproduces the PostgreSQL store as it was before the store contract (issue 33):
no term statistics, so the reranker's coverage weighs every term 1.0 and the extractive
answerer weighs focus terms by length.

Writes ``benchmarks/out/store_parity[-scifact][-TAG].{json,md}``; a run without ``--tag`` or
``--no-idf`` also writes its data set's result file, ``benchmarks/results/store_parity_squad``
or ``store_parity_scifact`` (tables ``agreement``, ``per-store`` and ``differences``: the
questions whose status or gate decision differs, by kind, with each store's best rerank
score).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import pg_server, store_url
from benchmarks.results import write_result

log = logging.getLogger("store_parity")
ROOT = Path(__file__).resolve().parents[1]


def pick(questions: list[Any], n: int, seed: int) -> list[Any]:
    """A seeded sample of ``n`` questions, half answerable and half unanswerable (file order)."""
    rng = random.Random(seed)
    out: list[Any] = []
    for unanswerable, share in ((False, n - n // 2), (True, n // 2)):
        pool = [q for q in questions if q.unanswerable == unanswerable]
        chosen = set(id(q) for q in rng.sample(pool, min(share, len(pool))))
        out += [q for q in pool if id(q) in chosen]
    return out


def _hash_order(ids: Any, seed: int) -> list[str]:
    """``ids`` sorted by a SHA-256 of the seed and the id (a fixed, seeded shuffle)."""
    return sorted(ids, key=lambda i: hashlib.sha256(f"parity:{seed}:{i}".encode()).hexdigest())


def scifact_subset(data: Path, work: Path, claims: int, distractors: int, seed: int) -> Any:
    """Materialise the SciFact parity subset: documents and a question file.

    The claims are taken in hash order (:func:`_hash_order`): the first ``claims - claims //
    2`` with cited abstracts are answerable; the next claims whose cited abstracts are all
    outside the answerable ones' are unanswerable (their evidence is left out of the corpus),
    up to ``claims // 2``. The corpus is the answerable claims' cited abstracts plus the first
    ``distractors`` (in hash order) of the abstracts that no test claim cites.

    Args:
        data: The shared data folder (holds ``scifact-1k/``).
        work: Work folder; the subset is written to ``<work>/scifact_parity/``.
        claims: Number of claims (half answerable, half unanswerable).
        distractors: Number of uncited abstracts added to the corpus.
        seed: Seed of the hash order.

    Returns:
        A ``citerag.eval.adapters.Prepared`` for ``ensure_index`` and ``load_questions``.
    """
    from citerag.eval.adapters import Prepared, safe_name
    from citerag.eval.questions import Evidence, Question, write_questions

    base = data / "scifact-1k"
    abstracts = {
        str(r["_id"]): r
        for r in map(json.loads, (base / "corpus.jsonl").read_text("utf-8").splitlines())
    }
    cited: dict[str, list[tuple[str, float]]] = {}
    for line in (base / "qrels" / "test.tsv").read_text("utf-8").splitlines()[1:]:
        qid, cid, grade = line.split("\t")
        if float(grade) > 0 and cid in abstracts:
            cited.setdefault(qid, []).append((cid, float(grade)))
    texts = {
        str(r["_id"]): r["text"]
        for r in map(json.loads, (base / "queries.jsonl").read_text("utf-8").splitlines())
    }
    order = _hash_order([q for q in texts if q in cited], seed)
    answerable = order[: claims - claims // 2]
    in_corpus = {c for q in answerable for c, _ in cited[q]}
    rest = [q for q in order[len(answerable) :] if not in_corpus & {c for c, _ in cited[q]}]
    unanswerable = rest[: claims // 2]
    any_cited = {c for cs in cited.values() for c, _ in cs}
    uncited = _hash_order([c for c in abstracts if c not in any_cited], seed)
    docs = sorted(in_corpus) + uncited[:distractors]
    root = work / "scifact_parity"
    corpus = root / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    keep = {f"{safe_name(c)}.txt" for c in docs}
    for stale in corpus.glob("*.txt"):
        if stale.name not in keep:
            stale.unlink()
    for c in docs:
        rec = abstracts[c]
        text = f"{rec['title'].strip()}\n\n{rec['text'].strip()}\n"
        path = corpus / f"{safe_name(c)}.txt"
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, encoding="utf-8")
    questions = [
        Question(
            f"scifact-{q}",
            texts[q],
            False,
            [Evidence(doc=f"{safe_name(c)}.txt", grade=g) for c, g in cited[q]],
            {"dataset": "scifact-1k"},
        )
        for q in answerable
    ] + [
        Question(f"scifact-{q}", texts[q], True, [], {"dataset": "scifact-1k"})
        for q in unanswerable
    ]
    path = root / "questions.jsonl"
    write_questions(questions, path)
    counts = {
        "abstracts": len(docs),
        "cited_abstracts": len(in_corpus),
        "distractors": len(docs) - len(in_corpus),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
    }
    return Prepared("scifact_parity", root, corpus, path, {}, counts)


def run_store(graph: Any, questions: list[Any]) -> list[dict[str, Any]]:
    """Each question through the graph: status, answer, gate, top reranked chunk, cited docs."""
    rows = []
    for q in questions:
        out = graph.invoke({"question": q.question, "user_groups": []})
        trace = out.get("trace") or {}
        gate = trace.get("gate") or {}
        cands = trace.get("candidates") or []
        top = cands[0] if cands else {}
        rows.append(
            {
                "id": q.id,
                "unanswerable": q.unanswerable,
                "status": out.get("status"),
                "answer": out.get("answer", ""),
                "gate_passed": bool(gate.get("passed")),
                "gate_best": gate.get("best"),
                "top_chunk": top.get("chunk_id"),
                "top_rerank": (top.get("scores") or {}).get("rerank"),
                "cited_docs": sorted({c.get("doc_name", "") for c in out.get("citations") or []}),
                "relevant_docs": sorted({e.doc for e in q.evidence}),
            }
        )
    return rows


def agreement(a: list[Any], b: list[Any]) -> Any:
    """The share of positions where ``a`` and ``b`` agree, as a Wilson proportion."""
    from citerag.eval.metrics import Proportion

    return Proportion(sum(x == y for x, y in zip(a, b, strict=True)), len(a))


#: Two top rerank scores this close count as the same score.
RERANK_TOLERANCE = 0.01


def cites_relevant(row: dict[str, Any]) -> bool:
    """Answered, citing at least one relevant document (SciFact's document-level scoring)."""
    return row["status"] == "answered" and bool(
        set(row.get("cited_docs") or []) & set(row.get("relevant_docs") or [])
    )


def compare(faiss: list[dict[str, Any]], pg: list[dict[str, Any]]) -> dict[str, Any]:
    """Paired figures of the two stores' runs over the same questions."""
    from citerag.eval.metrics import Mean, Proportion, paired

    ids = [r["id"] for r in faiss]
    answered = {
        side: [r["status"] == "answered" for r in rows] for side, rows in (("f", faiss), ("p", pg))
    }
    both = [i for i, (x, y) in enumerate(zip(answered["f"], answered["p"], strict=True)) if x and y]
    sign = paired(answered["p"], answered["f"], ids)
    out: dict[str, Any] = {
        "questions": len(ids),
        "status_agree": agreement([r["status"] for r in faiss], [r["status"] for r in pg]),
        "gate_agree": agreement([r["gate_passed"] for r in faiss], [r["gate_passed"] for r in pg]),
        "top_chunk_agree": agreement([r["top_chunk"] for r in faiss], [r["top_chunk"] for r in pg]),
        "answer_agree_both_answered": agreement(
            [faiss[i]["answer"] for i in both], [pg[i]["answer"] for i in both]
        ),
        "answered": {
            "faiss": Proportion(sum(answered["f"]), len(ids)),
            "postgres": Proportion(sum(answered["p"]), len(ids)),
        },
        "answered_sign_test": sign,
        "gate_passed_sign_test": paired(
            [r["gate_passed"] for r in pg], [r["gate_passed"] for r in faiss], ids
        ),
    }
    same_top = [
        i
        for i, (f, p) in enumerate(zip(faiss, pg, strict=True))
        if f["top_chunk"] == p["top_chunk"] and None not in (f["top_rerank"], p["top_rerank"])
    ]
    gaps = [abs(faiss[i]["top_rerank"] - pg[i]["top_rerank"]) for i in same_top]
    out["top_rerank_gap"] = Mean(gaps)
    out["top_rerank_close"] = Proportion(sum(g <= RERANK_TOLERANCE for g in gaps), len(gaps))
    graded = [i for i, r in enumerate(faiss) if r.get("relevant_docs")]
    if graded:
        right = {
            side: [cites_relevant(rows[i]) for i in graded]
            for side, rows in (("f", faiss), ("p", pg))
        }
        out["cites_relevant"] = {
            "faiss": Proportion(sum(right["f"]), len(graded)),
            "postgres": Proportion(sum(right["p"]), len(graded)),
        }
        out["cites_relevant_sign_test"] = paired(right["p"], right["f"], [ids[i] for i in graded])
    for kind, unans in (("answerable", False), ("unanswerable", True)):
        idx = [i for i, r in enumerate(faiss) if r["unanswerable"] == unans]
        out[f"status_agree_{kind}"] = agreement(
            [faiss[i]["status"] for i in idx], [pg[i]["status"] for i in idx]
        )
        out[f"answered_{kind}"] = {
            "faiss": Proportion(sum(answered["f"][i] for i in idx), len(idx)),
            "postgres": Proportion(sum(answered["p"][i] for i in idx), len(idx)),
        }
        out[f"answered_{kind}_sign_test"] = paired(
            [answered["p"][i] for i in idx], [answered["f"][i] for i in idx], [ids[i] for i in idx]
        )
    out["gate_passed"] = {
        side: Proportion(sum(r["gate_passed"] for r in rows), len(ids))
        for side, rows in (("faiss", faiss), ("postgres", pg))
    }
    out["differences"] = differences(faiss, pg)
    return out


#: Why the stores' outcomes differ on a question (:func:`differences`).
DIFFERENCE_KINDS = {
    "gate": "status, where the gate decisions differ",
    "answerer": "status, where both gates passed (the answerer decided)",
    "other": "status, where both gates refused",
    "gate_same_status": "gate decision only (the same status)",
}


def differences(faiss: list[dict[str, Any]], pg: list[dict[str, Any]]) -> dict[str, Any]:
    """The questions whose status or gate decision differs between the stores, by kind
    (:data:`DIFFERENCE_KINDS`), with each store's best rerank score (the gate's input)."""
    out: dict[str, Any] = {
        k: {"ids": [], "faiss_best": [], "postgres_best": []} for k in DIFFERENCE_KINDS
    }
    for f, p in zip(faiss, pg, strict=True):
        gate_differs = f["gate_passed"] != p["gate_passed"]
        if f["status"] != p["status"]:
            kind = "gate" if gate_differs else ("answerer" if f["gate_passed"] else "other")
        elif gate_differs:
            kind = "gate_same_status"
        else:
            continue
        out[kind]["ids"].append(f["id"])
        out[kind]["faiss_best"].append(f["gate_best"])
        out[kind]["postgres_best"].append(p["gate_best"])
    return out


def to_json(value: Any) -> Any:
    """Figures as JSON (proportions and paired results by their own ``to_json``)."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


#: Each data set's result file (``benchmarks/results/NAME.json``) of a default run.
RESULT_NAMES = {"squad": "store_parity_squad", "scifact": "store_parity_scifact"}
#: What a question is called, and what a relevant document is, per data set.
WORDS = {
    "squad": ("SQuAD", "questions", "the gold article"),
    "scifact": ("SciFact", "claims", "a cited abstract (SciFact's document-level scoring)"),
}


def _mcnemar(result: Any) -> str:
    """``+6/−2, p = 0.289``: an exact McNemar test (sign test on the discordant pairs)."""
    from citerag.eval.metrics import format_p

    return f"+{result.wins}/−{result.losses}, p = {format_p(result.p_value)}"


def _share(p: Any) -> str:
    """``192/200 = 0.960 [0.923, 0.980]``."""
    return f"{p.k}/{p.n} = {p.fmt()}"


def result_tables(figures: dict[str, Any], dataset: str) -> dict[str, dict[str, Any]]:
    """The published tables: ``agreement`` (paired agreement between the stores), ``per-store``
    (each store's figures with the exact McNemar test between them) and ``differences`` (the
    questions whose outcome differs, by kind, with the best rerank scores the gate read)."""
    from benchmarks.results import table

    label, items, relevant = WORDS[dataset]
    n = figures["questions"]
    kinds = {k: figures[f"status_agree_{k}"].n for k in ("answerable", "unanswerable")}
    close, gap = figures["top_rerank_close"], figures["top_rerank_gap"]
    agreement_rows = [
        [f"status (answered / refused), all {n}", _share(figures["status_agree"])],
        *(
            [f"status, {kinds[k]} {k}", _share(figures[f"status_agree_{k}"])]
            for k in ("answerable", "unanswerable")
        ),
        ["gate decision", _share(figures["gate_agree"])],
        ["top reranked chunk", _share(figures["top_chunk_agree"])],
        [
            f"answer text, of the {items} answered on both",
            _share(figures["answer_agree_both_answered"]),
        ],
        [
            f"top chunk's rerank score within {RERANK_TOLERANCE}, of the {close.n} with the "
            "same top chunk",
            f"{_share(close)}; mean \\|PostgreSQL − FAISS\\| {gap.fmt(4)} (bootstrap)",
        ],
    ]
    answered = figures["answered"]
    store_rows = [
        [
            f"answered, all {n}",
            f"{answered['faiss'].k} = {answered['faiss'].fmt()}",
            f"{answered['postgres'].k} = {answered['postgres'].fmt()}",
            _mcnemar(figures["answered_sign_test"]),
        ],
        [
            "passed the gate",
            str(figures["gate_passed"]["faiss"].k),
            str(figures["gate_passed"]["postgres"].k),
            _mcnemar(figures["gate_passed_sign_test"]),
        ],
        *(
            [
                f"answered, {kinds[k]} {k}",
                str(figures[f"answered_{k}"]["faiss"].k),
                str(figures[f"answered_{k}"]["postgres"].k),
                _mcnemar(figures[f"answered_{k}_sign_test"]),
            ]
            for k in ("answerable", "unanswerable")
        ),
    ]
    if "cites_relevant" in figures:
        cr = figures["cites_relevant"]
        store_rows.append(
            [
                f"answered citing {relevant}, of the {cr['faiss'].n} answerable",
                f"{cr['faiss'].k} = {cr['faiss'].fmt()}",
                f"{cr['postgres'].k} = {cr['postgres'].fmt()}",
                _mcnemar(figures["cites_relevant_sign_test"]),
            ]
        )

    def span(scores: list[float | None]) -> str:
        known = [x for x in scores if x is not None]
        return f"{min(known):.3f}–{max(known):.3f}" if known else "–"

    diff_rows = [
        [
            f"{DIFFERENCE_KINDS[k]}",
            str(len(d["ids"])),
            span(d["faiss_best"]),
            span(d["postgres_best"]),
        ]
        for k, d in figures["differences"].items()
        if d["ids"] or k != "other"
    ]
    return {
        "differences": table(
            [
                "FAISS and PostgreSQL differ on",
                items,
                "best rerank score, FAISS",
                "best rerank score, PostgreSQL",
            ],
            diff_rows,
            ["left", "right", "left", "left"],
        ),
        "agreement": table(
            ["FAISS and PostgreSQL agree on", f"{label}, {n} {items}"],
            agreement_rows,
            ["left", "left"],
        ),
        "per-store": table(
            ["per store", "FAISS", "PostgreSQL", "PostgreSQL only / FAISS only (exact McNemar)"],
            store_rows,
            ["left"] * 4,
        ),
    }


def markdown(figures: dict[str, Any], head: dict[str, Any]) -> str:
    """The figures as Markdown: a heading, what ran, and the two result tables."""
    from benchmarks.report import render_table

    tables = result_tables(figures, head["dataset"])
    return (
        f"## Whole-graph parity, FAISS vs PostgreSQL ({head['label']})\n\n"
        f"{figures['questions']} {head['corpus']} "
        f"(code {head['commit']}, {head['machine']}); 95 % Wilson intervals, exact two-sided "
        "McNemar tests (sign test on the discordant pairs), bootstrap interval of the mean "
        "rerank gap.\n\n"
        f"{render_table(tables['agreement'])}\n\n{render_table(tables['per-store'])}\n\n"
        f"{render_table(tables['differences'])}\n"
    )


def diff_runs(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Paired before/after figures of two result files over the same questions.

    For each per-question agreement between the stores (status, gate, top chunk, and the
    answer text on the questions answered on both stores in both runs): how many questions
    agree only after / only before, with the exact sign test; per store, how many outputs
    are unchanged; the mean |PostgreSQL - FAISS| top rerank score on the questions whose
    top chunk is the same on both stores in both runs (bootstrap interval).
    """
    from citerag.eval.metrics import Mean, paired

    runs = {"before": before["runs"], "after": after["runs"]}
    ids = [r["id"] for r in runs["before"]["faiss"]]
    for run in runs.values():
        if [r["id"] for r in run["faiss"]] != ids or [r["id"] for r in run["postgres"]] != ids:
            raise ValueError("the two result files hold different questions")

    def agrees(run: dict[str, Any], field: str, idx: list[int]) -> list[bool]:
        return [run["faiss"][i][field] == run["postgres"][i][field] for i in idx]

    every = list(range(len(ids)))
    both = [
        i
        for i in every
        if all(run[s][i]["status"] == "answered" for run in runs.values() for s in run)
    ]
    out: dict[str, Any] = {"questions": len(ids), "answered_on_both_in_both_runs": len(both)}
    lines = [
        "| stores agree on | before | after | only after / only before (sign test) |",
        "|---|---:|---:|---|",
    ]
    for name, field, idx in (
        ("status", "status", every),
        ("gate decision", "gate_passed", every),
        ("top reranked chunk", "top_chunk", every),
        ("answer text (answered on both, both runs)", "answer", both),
    ):
        a, b = agrees(runs["after"], field, idx), agrees(runs["before"], field, idx)
        pr = paired(a, b)
        out[field] = {"before": sum(b), "after": sum(a), "n": len(idx), **pr.to_json()}
        lines.append(f"| {name} | {sum(b)}/{len(idx)} | {sum(a)}/{len(idx)} | {pr.fmt()} |")
    same_top = [
        i
        for i in every
        if all(
            run["faiss"][i]["top_chunk"] == run["postgres"][i]["top_chunk"]
            and run["faiss"][i]["top_rerank"] is not None
            for run in runs.values()
        )
    ]
    gaps = {
        label: Mean(
            [
                abs(run["faiss"][i]["top_rerank"] - run["postgres"][i]["top_rerank"])
                for i in same_top
            ]
        )
        for label, run in runs.items()
    }
    shrink = Mean([b - a for b, a in zip(gaps["before"].values, gaps["after"].values, strict=True)])
    out["top_rerank_gap"] = {k: v.to_json() for k, v in gaps.items()}
    out["top_rerank_gap"]["before_minus_after"] = shrink.to_json()
    lines += [
        "",
        f"Mean |PostgreSQL − FAISS| rerank score of the top chunk ({len(same_top)} questions "
        f"with the same top chunk on both stores in both runs): before "
        f"{gaps['before'].fmt(4)}, after {gaps['after'].fmt(4)}; paired difference "
        f"{shrink.fmt(4)} (bootstrap).",
    ]
    for store in ("faiss", "postgres"):
        fields = ("status", "answer", "gate_passed", "top_chunk", "top_rerank")
        unchanged = {
            f: sum(
                x[f] == y[f]
                for x, y in zip(runs["before"][store], runs["after"][store], strict=True)
            )
            for f in fields
        }
        out[f"{store}_unchanged"] = unchanged
        lines.append(
            f"\n{store}: outputs unchanged between the runs (of {len(ids)}): "
            + ", ".join(f"{f} {n}" for f, n in unchanged.items())
            + "."
        )
    return out, "\n".join(lines) + "\n"


def main() -> int:
    """Run the comparison."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", type=Path, default=ROOT / ".." / "shared" / "data")
    p.add_argument("--work", type=Path, default=ROOT / "benchmarks/out/work/store_parity")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks/out")
    p.add_argument("--dataset", choices=("squad", "scifact"), default="squad")
    p.add_argument("--articles", type=int, default=3, help="SQuAD articles")
    p.add_argument("--questions", type=int, default=200, help="questions (SciFact: claims)")
    p.add_argument("--distractors", type=int, default=300, help="SciFact uncited abstracts")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-idf", action="store_true", help="PostgreSQL without term statistics")
    p.add_argument("--tag", default="", help="suffix of the result files")
    p.add_argument(
        "--diff",
        nargs=2,
        type=Path,
        metavar=("BEFORE", "AFTER"),
        help="compare two result files (paired, before/after) instead of running",
    )
    args = p.parse_args()
    if args.diff:
        before, after = (json.loads(f.read_text(encoding="utf-8")) for f in args.diff)
        figures, text = diff_runs(before, after)
        stem = "store_parity-diff" + (f"-{args.tag}" if args.tag else "")
        head = f"## Before / after: {args.diff[0].name} → {args.diff[1].name}\n\n"
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"{stem}.json").write_text(json.dumps(figures, indent=1), encoding="utf-8")
        (args.out / f"{stem}.md").write_text(head + text, encoding="utf-8")
        sys.stdout.write(head + text)
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    for noisy in ("httpx", "citerag", "chains", "graphs"):
        logging.getLogger(noisy).setLevel(logging.WARNING)

    from citerag.embeddings import load_embedding_model
    from citerag.eval.adapters import ensure_index, prepare_squad
    from citerag.eval.questions import load_questions
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    model = load_embedding_model()
    if args.dataset == "scifact":
        prep = scifact_subset(args.data, args.work, args.questions, args.distractors, args.seed)
        questions = load_questions(prep.questions)
        namespace = f"parity_scifact_{args.questions}_{args.distractors}_{args.seed}"
        corpus = (
            f"SciFact claims ({prep.counts['answerable']} with their cited abstracts in the "
            f"corpus, {prep.counts['unanswerable']} without) over {prep.counts['abstracts']} "
            f"abstracts ({prep.counts['cited_abstracts']} cited + "
            f"{prep.counts['distractors']} distractors, seed {args.seed})"
        )
    else:
        prep = prepare_squad(args.data, args.work, limit_articles=args.articles)
        questions = pick(load_questions(prep.questions), args.questions, args.seed)
        namespace = f"parity_{args.articles}"
        corpus = f"SQuAD 2.0 questions over {args.articles} articles"
    log.info("%d questions, corpus %s", len(questions), prep.counts)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    runs: dict[str, list[dict[str, Any]]] = {}
    seconds: dict[str, float] = {}
    with pg_server(args.work / "pgdata") as uri:
        locations = {
            "faiss": args.work
            / ("faiss_index" if args.dataset == "squad" else f"faiss_{namespace}"),
            "postgres": store_url(uri, namespace),
        }
        for name, location in locations.items():
            t0 = time.perf_counter()
            rep = ensure_index(prep, location, model, progress=False)
            log.info("%s: %s (%.0f s)", name, rep.summary(), time.perf_counter() - t0)
            deps = GraphDeps.from_index(location, embedding_model=model)
            if name == "postgres" and args.no_idf:
                # the store before the contract: no term statistics
                deps.store.has_term_statistics = False
                deps.store.idf = lambda terms: dict.fromkeys(terms, 1.0)
            graph = build_graph(deps)
            t0 = time.perf_counter()
            runs[name] = run_store(graph, questions)
            seconds[name] = round(time.perf_counter() - t0, 1)
            log.info("%s: %d questions in %.0f s", name, len(questions), seconds[name])
            close = getattr(deps.store, "close", None)
            if close is not None:
                close()
    figures = compare(runs["faiss"], runs["postgres"])
    head = {
        "label": args.tag or ("PostgreSQL without idf" if args.no_idf else "idf on both"),
        "dataset": args.dataset,
        "corpus": corpus,
        "counts": prep.counts,
        "articles": args.articles,
        "commit": commit,
        "machine": f"{platform.machine()} {platform.python_version()}, {sys.platform}",
        "no_idf": args.no_idf,
        "seed": args.seed,
        "seconds": seconds,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    stem = "store_parity" + ("-scifact" if args.dataset == "scifact" else "")
    stem += f"-{args.tag}" if args.tag else ""
    data = {**head, "figures": to_json(figures), "runs": runs}
    (args.out / f"{stem}.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    text = markdown(figures, head)
    (args.out / f"{stem}.md").write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    if not args.tag and not args.no_idf:  # a default run is its data set's result file
        write_result(
            RESULT_NAMES[args.dataset],
            result_tables(figures, args.dataset),
            {**head, "figures": data["figures"]},
        )
    return 0


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "store_parity_history": "runs at two commits (before and after the store contract), "
    "compared with --diff",
}


if __name__ == "__main__":
    raise SystemExit(main())

"""Tables as evidence: page hit@k with table rows chunked with their headers, vs flat chunks.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.structure_eval [--sets financebench,financebench-dev]
        [--max-company-pages 100] [--ingest-time BEFORE]

Each set is indexed once per configuration (``--configs``) with the default settings but
for the chunking knobs named (sentence vectors off, to keep ingest within minutes; the
sentence reranker embeds the shortlist's sentences on the fly):

* ``titles`` — ``ChunkSettings()``, the default: plain splitting, and a chunk cut from a
  titled table carries the table's title in its embedded header;
* ``flat`` — ``ChunkSettings(table_titles=False)``: the previous default (the same pypdf
  text, running lines trimmed, split by ``RecursiveCharacterTextSplitter`` inside each
  page), the base every other configuration is paired against;
* ``structure`` — ``table_rows=True``: tables chunked by whole rows, headers in the embedded
  text (:func:`loaders.chunking.table_chunks`);

and the plain LangChain recipe is run side by side: ``PyPDFLoader`` ->
``RecursiveCharacterTextSplitter(600, 80)`` -> ``FAISS.from_documents`` with the same
embedding model (``benchmarks/speed.py``'s peer). Both citerag indexes are queried through
the evaluation runner (the graph's retrieval: hybrid search, reranking, constraints).

A **page hit@k** is a returned chunk within the first ``k`` whose (document, page) equals an
evidence (document, page) (FinanceBench's ``evidence_page_num`` is zero-based; the adapter
makes it 1-based). Paired exact sign tests (each configuration vs flat and vs plain) on the
same questions, Wilson 95 % intervals. On ``financebench-dev`` the test half by
:func:`constraints_eval.half` (a hash of the question id fixed before results) is reported,
and all questions; the set is cut by ``--max-company-pages`` (companies whose filings total
at most that many pages; the rule of ``constraints_eval.py``).

``--config SPEC`` queries every index with that graph configuration (default: ``default``;
e.g. ``per_page=1``). ``--answers`` also runs the whole graph (the extractive answerer)
on each configuration's index and counts questions **answered citing an evidence page**
(a citation's document and page equal an evidence's), paired like the hit rates.

``--ingest-time BEFORE`` times a full default ingest (sentence vectors on, as ``citerag
ingest``; OCR off) of the 4 shared filings with the checkout at ``BEFORE`` (e.g. ``git
worktree add --detach /tmp/before 8c68fd9^``, the commit before the structural model) and
with this one, interleaved ``--ingest-reps`` times, each run in a fresh process and index;
the medians of wall and CPU seconds go to ``benchmarks/results/structure_eval_ingest.json``.
Results go to ``benchmarks/out/structure.{json,md}``; each set's ``outcomes`` hold every
question's page hits (and answer) per configuration, to pair a later version's run with.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import (
    REPO,
    cache_chunk_vectors,
    cached_embeddings,
    log,
    model,
    parser,
    save_embeddings,
    write,
)
from benchmarks.constraints_eval import half
from benchmarks.results import table, write_result

KS = (1, 4, 8)
#: Chunking configurations: name -> ``ChunkSettings`` keyword arguments. ``flat`` (the
#: previous default) is the base every other one is paired against, as is the plain recipe.
CONFIGS: dict[str, dict[str, Any]] = {
    "flat": {"table_titles": False},
    "titles": {},
    "structure": {"table_rows": True},
}
BASE = "flat"

_INGEST_SCRIPT = """
import resource, sys, time
from citerag.embeddings import load_embedding_model
from citerag.index.ingest import ingest
m = load_embedding_model(None)
m.embeddings.embed_query("warm up")  # the model's first call is not ingest's cost
r0 = resource.getrusage(resource.RUSAGE_SELF)
t = time.perf_counter()
ingest([__import__("pathlib").Path(sys.argv[1])], __import__("pathlib").Path(sys.argv[2]), m,
       progress=False)
r1 = resource.getrusage(resource.RUSAGE_SELF)
cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
print(time.perf_counter() - t, cpu)
"""


def _ingest_seconds(code: Path, corpus: Path) -> tuple[float, float]:
    """Wall and CPU seconds of a default ingest of ``corpus`` by the checkout at ``code``
    (a fresh process and index; OCR off, which the code before the structural model lacks)."""
    import os

    env = {**os.environ, "CITERAG_OCR": "0", "PYTHONPATH": str(code)}
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [sys.executable, "-c", _INGEST_SCRIPT, str(corpus), str(Path(tmp) / "index")],
            cwd=code,
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def ingest_cost(before: Path, corpus: Path, reps: int) -> dict[str, Any]:
    """Interleaved ingest runs (before, this checkout, before, ...) and their medians.

    Interleaving puts both versions under the same background load; CPU seconds (the
    process's user + system time, all threads) move less with that load than wall seconds.
    """
    from statistics import median

    runs: dict[str, list[tuple[float, float]]] = {"before": [], "now": []}
    for rep in range(reps):
        for name, code in (("before", before), ("now", REPO)):
            runs[name].append(_ingest_seconds(code, corpus))
            wall, cpu = runs[name][-1]
            log(f"ingest rep {rep} {name}: wall {wall:.1f} s, cpu {cpu:.1f} s")
    med = {n: (median(w for w, _ in r), median(c for _, c in r)) for n, r in runs.items()}
    return {
        "before_code": str(before),
        "reps": reps,
        "runs": runs,
        "median_wall_s": {n: m[0] for n, m in med.items()},
        "median_cpu_s": {n: m[1] for n, m in med.items()},
        "ratio_wall": med["now"][0] / med["before"][0],
        "ratio_cpu": med["now"][1] / med["before"][1],
    }


def ingest_table(cost: dict[str, Any]) -> dict[str, Any]:
    """The ingest-cost result: medians and their ratio (this checkout / before)."""
    w, c = cost["median_wall_s"], cost["median_cpu_s"]
    return table(
        [
            "measure (median of " + str(cost["reps"]) + " interleaved runs)",
            "before",
            "now",
            "ratio",
        ],
        [
            ["wall seconds", f"{w['before']:.0f}", f"{w['now']:.0f}", f"{cost['ratio_wall']:.2f}x"],
            ["CPU seconds", f"{c['before']:.0f}", f"{c['now']:.0f}", f"{cost['ratio_cpu']:.2f}x"],
        ],
    )


def indexes(name: str, args: Any) -> tuple[Any, dict[str, Any], dict[str, float]]:
    """The data set and its index per configuration of ``args.configs`` (``<set>/index-<cfg>``;
    reused as it is with ``args.reuse``), with each build's seconds (0 when reused)."""
    from citerag.eval.adapters import ensure_index, prepare
    from citerag.stores.loaded import load_index
    from loaders.chunking import ChunkSettings

    kwargs: dict[str, Any] = {}
    if name == "financebench-dev" and args.max_company_pages:
        kwargs["max_company_pages"] = args.max_company_pages
    prep = prepare(name, args.data, args.work, **kwargs)
    loaded: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    for cfg in args.configs:
        folder = Path(prep.root) / f"index-{cfg}"
        chunking = ChunkSettings(**CONFIGS[cfg])
        if args.reuse and (folder / "current").exists():
            loaded[cfg] = load_index(folder, model())
            seconds[cfg] = 0.0
            log(f"{prep.name} {cfg}: reusing build {loaded[cfg].manifest_id} as it is")
            continue
        t0 = time.perf_counter()
        report = ensure_index(
            prep,
            folder,
            model(),
            chunking=chunking,
            sentence_vectors=False,
            progress=not args.no_progress,
        )
        seconds[cfg] = time.perf_counter() - t0
        log(f"{prep.name} {cfg}: {report.summary()} ({seconds[cfg]:.0f} s)")
        loaded[cfg] = load_index(folder, model())
    return prep, loaded, seconds


def _plain_hits(corpus: Path, qs: list[Any], k: int) -> list[list[tuple[str, int]]]:
    """The plain recipe's top-``k`` (file name, 1-based page) per question."""
    from langchain_community.document_loaders import PyPDFLoader
    from langchain_community.vectorstores import FAISS
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    docs = []
    for pdf in sorted(corpus.glob("*.pdf")):
        docs += PyPDFLoader(str(pdf)).load()
    chunks = RecursiveCharacterTextSplitter(chunk_size=600, chunk_overlap=80).split_documents(docs)
    from citerag.stores import chunk_vectors  # the (cached) vectors of the same model

    texts = [c.page_content for c in chunks]
    vectors = chunk_vectors.embed_texts(model().embeddings, texts)
    store = FAISS.from_embeddings(
        list(zip(texts, vectors.tolist(), strict=True)),
        model().embeddings,
        metadatas=[c.metadata for c in chunks],
    )
    out = []
    for q in qs:
        found = store.similarity_search(q.question, k=k)
        out.append(
            [(Path(d.metadata["source"]).name, int(d.metadata.get("page", 0)) + 1) for d in found]
        )
    return out


def graph_answers(
    idx: Any, emb: Any, qs: list[Any], progress: bool, spec: str = "default"
) -> list[dict[str, Any]]:
    """The whole graph's results (the extractive answerer) on ``idx``.

    Args:
        idx: A loaded index (:func:`citerag.stores.loaded.load_index`).
        emb: The query embeddings (cached).
        qs: The questions.
        progress: Show a progress bar.
        spec: The graph configuration (:func:`citerag.eval.runner.parse_config`).

    Returns:
        One graph output per question, in order.
    """
    from citerag.eval.runner import EvalConfig, parse_config, run_generation
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    deps = GraphDeps.from_store(
        idx.store, embeddings=emb, manifest_id=idx.manifest_id, embedding_model=model().name
    )
    cfg = parse_config(spec)
    return run_generation(
        build_graph(deps), qs, EvalConfig(spec, cfg.configurable), progress=progress
    )


def cites_evidence(q: Any, res: dict[str, Any]) -> bool:
    """The graph answered ``q``, citing one of its evidence (document, page)."""
    gold = {(Path(e.doc).name, e.page) for e in q.evidence}
    cited = {
        (Path(str(c.get("doc_name") or "")).name, c.get("page")) for c in res.get("citations") or []
    }
    return res.get("status") == "answered" and bool(gold & cited)


def _answered_with_evidence(
    idx: Any, emb: Any, qs: list[Any], progress: bool, spec: str = "default"
) -> list[bool]:
    """Per question: the whole graph answered, citing an evidence (document, page)."""
    results = graph_answers(idx, emb, qs, progress, spec)
    return [cites_evidence(q, res) for q, res in zip(qs, results, strict=True)]


def _plain_hit(q: Any, top: list[tuple[str, int]], k: int) -> bool:
    gold = {(Path(e.doc).name, e.page) for e in q.evidence}
    return any(t in gold for t in top[:k])


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--sets", default="financebench,financebench-dev")
    p.add_argument("--max-company-pages", type=int, default=100)
    p.add_argument(
        "--ingest-time",
        type=Path,
        default=None,
        metavar="BEFORE",
        help="time ingest of the 4 shared filings against the checkout at BEFORE "
        "(e.g. a worktree of the commit before the structural model)",
    )
    p.add_argument(
        "--reuse",
        action="store_true",
        help="query existing indexes as they are (no ingest, even when the loaders changed)",
    )
    p.add_argument("--ingest-reps", type=int, default=3, help="interleaved runs per version")
    p.add_argument(
        "--configs",
        default="flat,titles,structure",
        help=f"chunking configurations to index and compare (of {', '.join(CONFIGS)}; "
        f"'{BASE}' always included)",
    )
    p.add_argument(
        "--half",
        default=None,
        choices=("calibration", "test"),
        help="only this financebench-dev half",
    )
    p.add_argument(
        "--no-plain", action="store_true", help="skip the plain LangChain recipe (its ingest)"
    )
    p.add_argument(
        "--answers",
        action="store_true",
        help="also run the whole graph (the default answerer) and count answers citing an "
        "evidence page",
    )
    p.add_argument(
        "--config",
        default="default",
        help="the graph configuration every index is queried with (retrieval and --answers), "
        "as citerag eval reads it: default, per_page=1, ...",
    )
    args = p.parse_args()
    args.configs = [BASE] + [c for c in args.configs.split(",") if c and c != BASE]
    unknown = [c for c in args.configs if c not in CONFIGS]
    if unknown:
        p.error(f"unknown configuration(s) {unknown}; choose from {list(CONFIGS)}")
    cache_chunk_vectors(args)

    from citerag.eval import metrics as stats
    from citerag.eval import report
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import Evaluator, parse_config

    emb = cached_embeddings(args)
    md: list[str] = ["## Tables as evidence: page hit@k, structure vs flat chunks vs plain\n"]
    data: dict[str, Any] = {"sets": {}, "max_company_pages": args.max_company_pages}
    for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        prep, loaded, seconds = indexes(name, args)
        qs = [q for q in load_questions(prep.questions) if not q.unanswerable]
        if name == "financebench-dev" and args.half:
            qs = [q for q in qs if half(q.id) == args.half]
        hits: dict[str, dict[int, list[bool]]] = {}
        answered: dict[str, list[bool]] = {}
        chunks: dict[str, int] = {}
        for cfg, idx in loaded.items():
            corpus = IndexedCorpus.from_store(idx.store, idx.manifest.documents)
            ev = Evaluator(idx.store, emb, corpus, calibration={}, manifest_id=idx.manifest_id)
            run = ev.run(qs, parse_config(args.config), progress=not args.no_progress)
            res = run.answerable
            hits[cfg] = {k: [r.hit_at(k) for r in res] for k in KS}
            if args.answers:
                answered[cfg] = _answered_with_evidence(
                    idx, emb, qs, not args.no_progress, args.config
                )
            chunks[cfg] = sum(int(d.get("chunks") or 0) for d in idx.manifest.documents.values())
        save_embeddings(emb, args)
        if not args.no_plain:
            plain = _plain_hits(Path(prep.corpus), qs, max(KS))
            pairs = list(zip(qs, plain, strict=True))
            hits["plain"] = {k: [_plain_hit(q, t, k) for q, t in pairs] for k in KS}
        subsets = {args.half or "all": [True] * len(qs)}
        if name == "financebench-dev" and not args.half:
            subsets = {"test": [half(q.id) == "test" for q in qs], "all": subsets["all"]}
        entry: dict[str, Any] = {
            "ingest_seconds": seconds,
            "chunks": chunks,
            "builds": {
                c: {"build_id": i.manifest_id, "created_at": i.manifest.created_at}
                for c, i in loaded.items()
            },
            "reused": bool(args.reuse),
            "subsets": {},
            # per question, so that a later version's run can be paired with this one
            "outcomes": {
                c: {
                    q.id: {
                        **{f"hit@{k}": v[k][i] for k in KS},
                        **({"answered": answered[c][i]} if c in answered else {}),
                    }
                    for i, q in enumerate(qs)
                }
                for c, v in hits.items()
            },
        }
        for label, keep in subsets.items():
            ids = [q.id for q, k in zip(qs, keep, strict=True) if k]
            sel = {
                c: {k: [h for h, kk in zip(v[k], keep, strict=True) if kk] for k in KS}
                for c, v in hits.items()
            }
            rows = [
                [c, *[stats.Proportion(sum(sel[c][k]), len(ids)).fmt() for k in KS]] for c in sel
            ]
            paired = {
                f"{cfg} vs {other} hit@{k}": stats.paired(sel[cfg][k], sel[other][k], ids)
                for cfg in [*args.configs[1:], BASE]
                for other in (BASE, "plain")
                if other != cfg and other in sel
                for k in KS
            }
            md.append(
                f"### {prep.name}: {len(loaded[BASE].manifest.documents)} filings, "
                f"{len(ids)} questions ({label})\n\n"
                + report.table(["chunking", *[f"page hit@{k}" for k in KS]], rows)
                + "\n\nPaired: "
                + "; ".join(f"{m} {r.fmt()}" for m, r in paired.items())
                + f"\n\nChunks: {chunks}; ingest (sentence vectors off) s: "
                + ", ".join(f"{c} {s:.0f}" for c, s in seconds.items())
                + "\n"
            )
            if answered:
                got = {
                    c: [a for a, kk in zip(v, keep, strict=True) if kk] for c, v in answered.items()
                }
                md.append(
                    "Answered citing an evidence page (the whole graph, default answerer): "
                    + "; ".join(
                        f"{c} {stats.Proportion(sum(v), len(ids)).fmt()}" for c, v in got.items()
                    )
                    + "".join(
                        f"; {c} vs {BASE} {stats.paired(got[c], got[BASE], ids).fmt()}"
                        for c in got
                        if c != BASE and BASE in got
                    )
                    + "\n"
                )
            entry["subsets"][label] = {
                "answered_with_evidence": (
                    {
                        c: sum(a for a, kk in zip(v, keep, strict=True) if kk)
                        for c, v in answered.items()
                    }
                    if answered
                    else None
                ),
                "questions": len(ids),
                "hits": {c: {k: sum(v[k]) for k in KS} for c, v in sel.items()},
                "paired": {m: r.to_json() for m, r in paired.items()},
            }
            if answered and BASE in answered:
                for c in answered:
                    if c != BASE:
                        g = [a for a, kk in zip(answered[c], keep, strict=True) if kk]
                        b = [a for a, kk in zip(answered[BASE], keep, strict=True) if kk]
                        entry["subsets"][label]["paired"][f"{c} vs {BASE} answered"] = stats.paired(
                            g, b, ids
                        ).to_json()
        data["sets"][prep.name] = entry
        write(args.out, "structure", data, "\n".join(md))
    if args.ingest_time:
        cost = ingest_cost(args.ingest_time, args.data / "financebench" / "pdfs", args.ingest_reps)
        data["ingest_time"] = cost
        write_result("structure_eval_ingest", {"cost": ingest_table(cost)}, cost)
    for name, entry in data["sets"].items():  # a result file per set: they are run apart
        if name.startswith("financebench-dev"):
            titles = hits_table(entry, by_subset=True, digits=3)
            tables = {"titles": titles, "paired": paired_table(entry)}
            write_result("structure_eval_dev", tables, {"set": name, **entry})
        elif name == "financebench":
            chunking = hits_table(entry, by_subset=False, digits=2)
            write_result("structure_eval", {"chunking": chunking}, {"set": name, **entry})
    return 0


#: The docs' names of the chunking configurations.
CONFIG_LABELS = {
    "flat": "flat (previous default)",
    "titles": "**titles** (default)",
    "structure": "structure",
    "plain": "plain LangChain recipe",
}


def hits_table(entry: dict[str, Any], *, by_subset: bool, digits: int) -> dict[str, Any]:
    """Page hit@k per chunking (Wilson 95 %); ``by_subset``: a block of rows per subset
    (``test`` half first), headed by the subset and its size. With ``--answers``, a column of
    questions answered citing an evidence page (``–`` for the plain recipe, which does not
    answer)."""
    from citerag.eval.metrics import Proportion

    subsets = sorted(entry["subsets"].items(), key=lambda kv: kv[0] != "test")
    answers = any(sub.get("answered_with_evidence") for _, sub in subsets)
    rows = []
    for label, sub in subsets if by_subset else subsets[-1:]:
        n = sub["questions"]
        for i, (cfg, hits) in enumerate(sub["hits"].items()):
            cells = [Proportion(hits[k], n).fmt(digits) for k in KS]
            if answers:
                got = (sub.get("answered_with_evidence") or {}).get(cfg)
                cells.append("–" if got is None else Proportion(got, n).fmt(digits))
            head = f"{label} half ({n})" if label == "test" else f"{label} ({n})"
            rows.append(
                ([head if i == 0 else ""] if by_subset else [])
                + [CONFIG_LABELS.get(cfg, cfg)]
                + cells
            )
    extra = ["answered citing an evidence page"] if answers else []
    columns = (["set"] if by_subset else []) + ["chunking"] + [f"page hit@{k}" for k in KS] + extra
    labels = 2 if by_subset else 1
    return table(columns, rows, ["left"] * labels + ["right"] * (len(KS) + len(extra)))


def paired_table(entry: dict[str, Any]) -> dict[str, Any]:
    """The paired comparisons of each subset: wins/losses and the exact sign test's p."""
    rows = []
    for label, sub in sorted(entry["subsets"].items(), key=lambda kv: kv[0] != "test"):
        for i, (name, r) in enumerate(sub["paired"].items()):
            rows.append(
                [
                    (f"{label} half" if label == "test" else label) if i == 0 else "",
                    name,
                    f"+{r['wins']}/−{r['losses']}",
                    f"{r['p_sign_test']:.3f}" if r["p_sign_test"] >= 0.001 else "< 0.001",
                ]
            )
    return table(
        ["set", "comparison", "wins/losses", "p (sign test)"],
        rows,
        ["left", "left", "right", "right"],
    )


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "structure_eval_history": (
        "the titles index built by two loader versions and queried by the same code, paired by hand"
    ),
}

if __name__ == "__main__":
    raise SystemExit(main())

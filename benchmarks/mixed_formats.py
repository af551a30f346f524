"""Word, PowerPoint, Excel, CSV, e-mail, scans and table photos: answered per format.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.mixed_formats [--no-scans] [--no-progress] [--config SPEC]

The benchmark of issue 32's "Done when". It builds the mixed corpus
(:mod:`mixed_corpus`: invented documents of a small company, ``benchmarks/corpora/mixed/``)
under ``<work>/mixed/``, ingests it with the real ingest (OCR on: the scanned PDFs and the
table images are read by :mod:`loaders.ocr`), and runs every question of
``benchmarks/corpora/mixed/questions.jsonl`` through the real compiled graph
(``graphs.rag.build_graph`` over ``GraphDeps.from_store``, default settings, the extractive
answerer), as ``benchmarks/faq_eval.py`` does. Scored per question as there:

* **right**: answered, citing the expected document, with a quote (a citation's quote or a
  line of the answer) that contains the needle (whitespace-normalised; or is a part of it at
  least half its length, :func:`faq_eval.quote_states`);
* **wrong**: answered, not right; **refused**: ``no_evidence``;
* out-of-scope questions (near misses included): **refused**.

Reported per format (files indexed of files written; right / wrong / refused) with 95 %
Wilson intervals, for the test half and for all questions (the halves of
:func:`mixed_corpus.half`, a hash of the question id fixed before any result). With the
scans, the same questions are also asked of an index of the born-digital originals (the
text PDFs the scans were rendered from; every other file identical) and the scan formats'
"right" outcomes are paired against the originals' (exact two-sided sign test), and each
scan's OCR text is compared with its original's text layer (character error rate,
``citerag.eval.cer``, whitespace-normalised).

``--no-scans`` leaves the scanned PDFs and table images out of the corpus and their
questions out of the run (for a checkout without OCR). ``--config SPEC`` answers with other
settings (a ``RAGConfig`` spec as ``citerag eval --generate`` reads it, e.g.
``extractive_passages=5``): an experiment, paired by hand against a default run's per-question
outcomes; it publishes nothing under ``benchmarks/results/``. Writes
``benchmarks/out/mixed_formats.{json,md}`` and the per-question outcomes
``benchmarks/out/mixed_formats-outcomes.json``.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from benchmarks.common import index_folder, log, parser, select_model, write
from benchmarks.faq_eval import quote_states, quoted
from benchmarks.mixed_corpus import FORMATS, SCAN_FORMATS, build, load_questions
from benchmarks.results import pick_tables, write_result

OUT_OF_SCOPE = "out of scope"


def _args() -> Any:
    p = parser(__doc__.split("\n")[0])
    p.add_argument(
        "--no-scans",
        action="store_true",
        help="leave out the scanned PDFs and table images (and their questions)",
    )
    p.add_argument(
        "--config",
        default="default",
        help="a RAGConfig spec the questions are answered with, as citerag eval --generate "
        "reads it (e.g. extractive_passages=5): an experiment, its results are not published",
    )
    return p.parse_args()


def _graph(loaded: Any, emb: Any, model: Any) -> Any:
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    deps = GraphDeps.from_store(
        loaded.store, embeddings=emb, manifest_id=loaded.manifest_id, embedding_model=model.name
    )
    return build_graph(deps)


def _records(
    graph: Any, qs: list[Any], progress: bool, spec: str = "default"
) -> list[dict[str, Any]]:
    from citerag.eval.runner import EvalConfig, parse_config, run_generation

    cfg = parse_config(spec)
    results = run_generation(graph, qs, EvalConfig(spec, cfg.configurable), progress=progress)
    return [
        {
            "id": q.id,
            "status": res.get("status", "failed"),
            "answer": res.get("answer", ""),
            "reason": res.get("reason", ""),
            "citations": [
                {k: c.get(k) for k in ("doc_name", "chunk_id", "quote", "page", "ocr")}
                for c in res.get("citations") or []
            ],
        }
        for q, res in zip(qs, results, strict=True)
    ]


def run_index(
    folder: Path,
    index_dir: Path,
    qs: list[dict[str, Any]],
    model: Any,
    emb: Any,
    progress: bool,
    spec: str = "default",
) -> dict[str, Any]:
    """Ingest a folder into a fresh index and answer the questions over it (with the
    ``RAGConfig`` spec ``spec``, as ``citerag eval --generate`` reads it)."""
    from citerag.eval.questions import parse_question
    from citerag.index.ingest import ingest
    from citerag.stores.loaded import load_index

    if index_dir.exists():
        shutil.rmtree(index_dir)
    t0 = time.perf_counter()
    report = ingest([folder], index_dir, model, progress=progress)
    ingest_s = time.perf_counter() - t0
    loaded = load_index(index_dir, model)
    t0 = time.perf_counter()
    graph = _graph(loaded, emb, model)
    records = _records(graph, [parse_question(q) for q in qs], progress, spec)
    return {
        "indexed": sorted(Path(k).name for k in [*report.indexed, *report.updated]),
        "failed": {Path(k).name: v for k, v in report.failed.items()},
        "ingest_seconds": round(ingest_s, 1),
        "answer_seconds": round(time.perf_counter() - t0, 1),
        "records": records,
    }


def score(q: dict[str, Any], rec: dict[str, Any]) -> dict[str, bool]:
    """One question's outcome flags (see the module docstring)."""
    answered = rec["status"] == "answered"
    refused = rec["status"] == "no_evidence"
    if q.get("unanswerable"):
        return {"answered": answered, "refused": refused}
    ev = q["evidence"][0]
    stem = Path(ev["doc"]).stem
    docs = {Path(str(c.get("doc_name") or "")).stem for c in rec["citations"]}
    right = answered and stem in docs and any(quote_states(ev["needle"], x) for x in quoted(rec))
    return {
        "answered": answered,
        "right": right,
        "wrong": answered and not right,
        "refused": refused,
    }


def scan_cer(built: dict[str, Any]) -> dict[str, float]:
    """Each scan's character error rate: its OCR text (the real loader, OCR on) against the
    text layer of the born-digital original it was rendered from."""
    from citerag.eval.cer import character_error_rate
    from loaders.registry import load_file

    out = {}
    for name, fmt in sorted(built["files"].items()):
        if fmt not in SCAN_FORMATS:
            continue
        ocr_text = load_file(built["corpus"] / name).text
        original = load_file(built["originals"] / f"{Path(name).stem}.pdf").text
        out[name] = round(character_error_rate(ocr_text, original), 4)
    return out


def _prop(k: int, n: int) -> dict[str, Any]:
    from citerag.eval.metrics import Proportion

    return Proportion(k, n).to_json()


def _fmt(p: dict[str, Any]) -> str:
    if not p["n"]:
        return "—"
    lo, hi = p["ci95"]
    return f"{100 * p['value']:.0f} % [{100 * lo:.0f}, {100 * hi:.0f}] ({p['k']}/{p['n']})"


def _p(x: float) -> str:
    from citerag.eval.metrics import format_p

    return format_p(x)


def report(
    qs: list[dict[str, Any]],
    files: dict[str, str],
    run: dict[str, Any],
    originals: dict[str, Any] | None,
) -> tuple[dict[str, Any], str]:
    """The figures (JSON) and their Markdown tables."""
    from citerag.eval.metrics import sign_test

    by_id = {r["id"]: r for r in run["records"]}
    flags = {q["id"]: score(q, by_id[q["id"]]) for q in qs}
    formats = [f for f in (*FORMATS, OUT_OF_SCOPE) if any(q["format"] == f for q in qs)]
    data: dict[str, Any] = {
        "files": files,
        "indexed": run["indexed"],
        "failed": run["failed"],
        "ingest_seconds": run["ingest_seconds"],
        "answer_seconds": run["answer_seconds"],
        "ocr_cer": run.get("cer", {}),
        "formats": {},
    }
    md = [
        "## Per format (full graph, default settings, extractive answerer)\n",
        "Answered right = cites the expected document with a quote containing the needle; "
        "percentages with 95 % Wilson intervals.\n",
        "| format | files indexed | half | n | answered right | answered wrong | refused |",
        "|---|---|---|---:|---|---|---|",
    ]
    for fmt in formats:
        written = [n for n, f in files.items() if f == fmt]
        indexed = [n for n in written if n in run["indexed"]]
        cell_files = f"{len(indexed)}/{len(written)}" if written else "—"
        data["formats"][fmt] = {"files": len(written), "indexed": len(indexed)}
        for half in ("test", "all"):
            ids = [q["id"] for q in qs if q["format"] == fmt and half in ("all", q["split"])]
            cells = {
                key: _prop(sum(flags[i].get(key, False) for i in ids), len(ids))
                for key in ("right", "wrong", "refused")
            }
            data["formats"][fmt][half] = cells
            if fmt == OUT_OF_SCOPE:
                md.append(
                    f"| {fmt} | — | {half} | {len(ids)} | — | "
                    f"answered {_fmt(_prop(sum(flags[i]['answered'] for i in ids), len(ids)))}"
                    f" | {_fmt(cells['refused'])} |"
                )
            else:
                md.append(
                    f"| {fmt} | {cell_files} | {half} | {len(ids)} | {_fmt(cells['right'])} | "
                    f"{_fmt(cells['wrong'])} | {_fmt(cells['refused'])} |"
                )
    answerable = [q for q in qs if not q.get("unanswerable")]
    for half in ("test", "all"):
        ids = [q["id"] for q in answerable if half in ("all", q["split"])]
        data[f"answerable.{half}"] = {
            key: _prop(sum(flags[i][key] for i in ids), len(ids))
            for key in ("right", "wrong", "refused")
        }
    md += ["", "| all answerable | half | n | answered right | answered wrong | refused |"]
    md += ["|---|---|---:|---|---|---|"]
    for half in ("test", "all"):
        c = data[f"answerable.{half}"]
        md.append(
            f"| all formats | {half} | {c['right']['n']} | {_fmt(c['right'])} | "
            f"{_fmt(c['wrong'])} | {_fmt(c['refused'])} |"
        )
    if originals is not None:
        ob = {r["id"]: r for r in originals["records"]}
        oflags = {q["id"]: score(q, ob[q["id"]]) for q in qs}
        data["originals"] = {"ingest_seconds": originals["ingest_seconds"], "formats": {}}
        md += [
            "",
            "## Scans against their born-digital originals (same questions, paired)\n",
            "| format | half | n | right over the scans | right over the originals | "
            "paired scan +/− (p) |",
            "|---|---|---:|---|---|---|",
        ]
        for fmt in [f for f in formats if f in SCAN_FORMATS] + ["scans together"]:
            for half in ("test", "all"):
                ids = [
                    q["id"]
                    for q in answerable
                    if (
                        q["format"] == fmt
                        or (fmt == "scans together" and q["format"] in SCAN_FORMATS)
                    )
                    and half in ("all", q["split"])
                ]
                s = [flags[i]["right"] for i in ids]
                o = [oflags[i]["right"] for i in ids]
                wins = sum(a and not b for a, b in zip(s, o, strict=True))
                losses = sum(b and not a for a, b in zip(s, o, strict=True))
                cell = {
                    "scans": _prop(sum(s), len(s)),
                    "originals": _prop(sum(o), len(o)),
                    "paired": {"wins": wins, "losses": losses, "p": sign_test(wins, losses)},
                }
                data["originals"]["formats"][f"{fmt}.{half}"] = cell
                md.append(
                    f"| {fmt} | {half} | {len(ids)} | {_fmt(cell['scans'])} | "
                    f"{_fmt(cell['originals'])} | +{wins}/−{losses} ({_p(cell['paired']['p'])}) |"
                )
    if run.get("cer"):
        md += ["", "| scan | OCR character error rate against the original's text |"]
        md += ["|---|---:|"]
        md += [f"| {name} | {100 * v:.2f} % |" for name, v in run["cer"].items()]
    md += [
        "",
        f"Ingest {run['ingest_seconds']} s for {len(files)} files; answering "
        f"{len(qs)} questions {run['answer_seconds']} s.",
    ]
    extra = [n for n in run["indexed"] if n not in files]
    if extra:
        md.append("Attachments indexed as documents of their own: " + ", ".join(extra) + ".")
    if run["failed"]:
        md.append("Failed documents: " + "; ".join(f"{k}: {v}" for k, v in run["failed"].items()))
    data["per_question"] = flags
    return data, "\n".join(md)


def main() -> int:
    """Build the corpus, ingest it (and the originals), answer, score, write."""
    args = _args()
    select_model(args)  # another embedding model: its own index folders and output folder
    from citerag.embeddings import load_embedding_model
    from citerag.eval.runner import CachedEmbeddings

    scans = not args.no_scans
    if scans:
        import importlib.util

        if importlib.util.find_spec("loaders.ocr") is None:
            log("this checkout has no OCR (loaders/ocr.py): run with --no-scans")
            return 2
    work = args.work / "mixed"
    built = build(work, scans=scans)
    files: dict[str, str] = built["files"]
    qs = [
        q
        for q in load_questions()
        if q.get("unanswerable") or scans or q["format"] not in SCAN_FORMATS
    ]
    log(f"{len(files)} files, {len(qs)} questions")
    model = load_embedding_model(args.embedding_model)
    emb = CachedEmbeddings(model.embeddings)
    progress = not args.no_progress
    folder = index_folder(args.embedding_model)
    spec = args.config
    run = run_index(built["corpus"], work / f"{folder}-corpus", qs, model, emb, progress, spec)
    originals = None
    if scans:
        originals = run_index(
            built["originals"], work / f"{folder}-originals", qs, model, emb, progress, spec
        )
        run["cer"] = scan_cer(built)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "mixed_formats-outcomes.json").write_text(
        json.dumps(
            {"corpus": run, "originals": originals, "scans": scans}, indent=1, ensure_ascii=False
        )
        + "\n",
        encoding="utf-8",
    )
    data, md = report(qs, files, run, originals)
    data["scans"] = scans
    data["config"] = spec
    if not scans:
        md = "Run with `--no-scans`: scanned PDFs and table images left out.\n\n" + md
    write(args.out, "mixed_formats", data, md)
    if folder != "index" or spec != "default":
        return 0  # another embedding model or settings: an experiment, not the published figures
    wanted = {"per-format": ["format", "files indexed"], "pooled": ["all answerable"]}
    if scans:
        wanted |= {"scans-vs-originals": ["format", "half", "n", "right over the scans"]}
        wanted |= {"ocr-error": ["scan"]}
    write_result("mixed_formats", pick_tables(md, wanted), data)
    return 0


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "mixed_formats_history": (
        "before / after tables of two commits paired by hand, the corpus described by hand, "
        "and the goals of issue 32 set against the figures"
    ),
}


if __name__ == "__main__":
    raise SystemExit(main())

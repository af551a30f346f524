"""A corpus written after the rules: the first hour on documents no rule was written from.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.unseen_corpus [--base /tmp/unseen-base] [--reuse]
    .venv/bin/python -m benchmarks.unseen_corpus --check

Every other development corpus of this project was read while its rules were written, so
its figures flatter the rules. This one (``benchmarks/corpora/wheelers/``: a cycling club's
handbook, AGM slides, ride calendar, kit-order export, booking e-mail, Markdown maintenance
page, web FAQ and treasurer's report, with 31 answerable questions in a member's words and
10 the documents cannot answer) was written on 2026-12-06, after every answering rule of
that date, with its questions written before any was asked and split into a calibration and
a test half by a hash of the question id (:func:`benchmarks.mixed_corpus.half`). Its first
run measures the rules as they stood on documents they had never seen.

Each code version — ``base`` (``--base``, a worktree of the commit to compare against) and
``new`` (this checkout) — runs in a subprocess with its own library
(:func:`benchmarks.common.run_worker`), builds the corpus, ingests it with the real ingest
into its own index and asks every question through the real compiled graph (default
settings, the extractive answerer). Scored per question as :mod:`benchmarks.mixed_formats`
scores (any of a question's evidence documents may be cited):

* **right**: answered, citing an evidence document, with a quote that states its needle;
* **wrong**: answered, not right; **refused**: ``no_evidence``;
* an unanswerable question: **refused**.

Reported per half and in all, per version, with 95 % Wilson intervals and an exact
two-sided sign test (new against base, same questions); and per format for the new version.
``--base ''`` runs the new version alone. ``--check`` builds the corpus and checks that
every needle stands exactly once in its document's loaded text and every split is the hash
rule's.

Writes ``<out>/unseen_corpus.{json,md}``, each version's outcomes
``<out>/unseen_corpus-<version>.json`` and ``benchmarks/results/unseen_corpus.json``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from benchmarks.common import REPO, log, parse_as_side, parser, run_sides, write
from benchmarks.faq_eval import _fmt, _p, _prop, argparse_hidden, paired, quote_states, quoted
from benchmarks.mixed_corpus import half, write_eml, write_office, write_text_pdf
from benchmarks.results import pick_tables, write_result

SOURCES = REPO / "benchmarks" / "corpora" / "wheelers"
QUESTIONS = SOURCES / "questions.jsonl"
OUT_OF_SCOPE = "out of scope"
#: The options a worker is passed on (:func:`benchmarks.common.run_worker`).
WORKER_KEYS = ("work", "out", "data")


def _content() -> Any:
    import importlib

    return importlib.import_module("benchmarks.corpora.wheelers.content")


def load_questions(path: Path = QUESTIONS) -> list[dict[str, Any]]:
    """The questions, one dict per line."""
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def build(folder: Path) -> dict[str, str]:
    """Write the corpus into ``folder`` (emptied first); return ``{file name: format}``."""
    content = _content()
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    write_office(folder, content)
    for name, spec in content.EML.items():
        write_eml(folder / name, spec, {})
    for name, text in content.TEXT.items():
        (folder / name).write_text(text, encoding="utf-8")
    for name, pages in content.PDF.items():
        write_text_pdf(folder / name, pages)
    return {f.name: f.suffix.lstrip(".") for f in sorted(folder.iterdir())}


def _norm(text: str) -> str:
    return " ".join(text.split())


def check(folder: Path) -> list[str]:
    """Build the corpus into ``folder`` and list every problem (empty: all good)."""
    from loaders.registry import load_file

    files = build(folder)
    texts = {name: _norm(load_file(folder / name).text) for name in files}
    problems: list[str] = []
    qs = load_questions()
    ids = [q["id"] for q in qs]
    if len(set(ids)) != len(ids):
        problems.append("duplicate question ids")
    for q in qs:
        if q.get("split") != half(q["id"]):
            problems.append(f"{q['id']}: split {q.get('split')!r}, the rule says {half(q['id'])}")
        if q.get("unanswerable"):
            if q.get("format") != OUT_OF_SCOPE:
                problems.append(f"{q['id']}: an unanswerable question is {OUT_OF_SCOPE!r}")
            continue
        for ev in q["evidence"]:
            if ev["doc"] not in files:
                problems.append(f"{q['id']}: unknown document {ev['doc']}")
                continue
            n = texts[ev["doc"]].count(_norm(ev["needle"]))
            if n != 1:
                problems.append(f"{q['id']}: needle {ev['needle']!r} found {n} times")
        if q.get("format") != files.get(q["evidence"][0]["doc"]):
            problems.append(f"{q['id']}: format {q.get('format')!r}")
    return problems


def score(q: dict[str, Any], rec: dict[str, Any]) -> dict[str, bool]:
    """One question's outcome flags (see the module docstring)."""
    answered = rec["status"] == "answered"
    refused = rec["status"] == "no_evidence"
    if q.get("unanswerable"):
        return {"answered": answered, "refused": refused, "ok": refused}
    docs = {Path(str(c.get("doc_name") or "")).name for c in rec["citations"]}
    right = answered and any(
        ev["doc"] in docs and any(quote_states(ev["needle"], x) for x in quoted(rec))
        for ev in q["evidence"]
    )
    return {
        "answered": answered,
        "right": right,
        "wrong": answered and not right,
        "refused": refused,
        "ok": right,
    }


def _args() -> Any:
    p = parser(__doc__.split("\n")[0])
    p.add_argument(
        "--base",
        type=Path,
        default=Path("/tmp/unseen-base"),
        help="base worktree ('' runs this checkout alone)",
    )
    p.add_argument("--worker", help=argparse_hidden(), default=None)
    p.add_argument("--code", type=Path, help=argparse_hidden(), default=None)
    p.add_argument("--reuse", action="store_true", help="reuse a version's outcomes")
    p.add_argument("--check", action="store_true", help="check the needles and splits, then stop")
    return p.parse_args()


def worker(args: Any) -> int:
    """Run one code version (the library of ``--code``) and write its outcomes."""
    import chains.answerers
    from benchmarks.mixed_formats import run_index
    from citerag.embeddings import load_embedding_model
    from citerag.eval.runner import CachedEmbeddings

    log(f"{args.worker}: code {Path(chains.answerers.__file__).parent.parent}")
    model = load_embedding_model(None)
    emb = CachedEmbeddings(model.embeddings)
    work = args.work / "wheelers" / args.worker  # each version its own copy: they may overlap
    build(work / "corpus")
    run = run_index(
        work / "corpus", work / "index", load_questions(), model, emb, not args.no_progress
    )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"unseen_corpus-{args.worker}.json").write_text(
        json.dumps({"version": args.worker, "code": str(args.code), **run}, indent=1) + "\n",
        encoding="utf-8",
    )
    return 0


def report(
    qs: list[dict[str, Any]], new: dict[str, Any], base: dict[str, Any] | None
) -> tuple[dict[str, Any], str]:
    """The figures (JSON) and their Markdown tables."""
    flags = {
        side: {r["id"]: score(q, r) for q, r in zip(qs, _in_order(qs, run), strict=True)}
        for side, run in (("new", new), ("base", base))
        if run is not None
    }
    data: dict[str, Any] = {
        "indexed": new["indexed"],
        "failed": new["failed"],
        "ingest_seconds": new["ingest_seconds"],
        "answer_seconds": new["answer_seconds"],
        "halves": {},
        "formats": {},
    }
    head = "| half | measure | n | " + ("base | new | paired +/− (p) |" if base else "new |")
    md = [
        "## The unseen corpus (full graph, default settings, extractive answerer)\n",
        head,
        "|---|---|---:|" + ("---|---|---|" if base else "---|"),
    ]
    measures = (
        ("answerable answered right", False, "right"),
        ("answerable answered wrong", False, "wrong"),
        ("answerable refused", False, "refused"),
        ("unanswerable refused", True, "refused"),
    )
    for part in ("calibration", "test", "all"):
        data["halves"][part] = {}
        for label, unanswerable, key in measures:
            ids = [
                q["id"]
                for q in qs
                if bool(q.get("unanswerable")) == unanswerable and part in ("all", q["split"])
            ]
            cells = {s: [f[i][key] for i in ids] for s, f in flags.items()}
            row = {s: _prop(sum(v), len(v)) for s, v in cells.items()}
            line = f"| {part} | {label} | {len(ids)} | "
            if base:
                test = paired(cells["base"], cells["new"])
                row["paired"] = test
                line += f"{_fmt(row['base'])} | {_fmt(row['new'])} | "
                line += f"+{test['wins']}/−{test['losses']} ({_p(test['p'])}) |"
            else:
                line += f"{_fmt(row['new'])} |"
            data["halves"][part][label] = row
            md.append(line)
    md += [
        "",
        "| format | n | answered right (new) | answered wrong | refused |",
        "|---|---:|---|---|---|",
    ]
    formats = list(dict.fromkeys(q["format"] for q in qs))
    for fmt in sorted(formats, key=lambda f: (f == OUT_OF_SCOPE, f)):
        ids = [q["id"] for q in qs if q["format"] == fmt]
        f = flags["new"]
        cells = {k: _prop(sum(f[i].get(k, False) for i in ids), len(ids)) for k in f[ids[0]]}
        data["formats"][fmt] = cells
        right = "—" if fmt == OUT_OF_SCOPE else _fmt(cells["right"])
        wrong = (
            f"answered {_fmt(cells['answered'])}" if fmt == OUT_OF_SCOPE else _fmt(cells["wrong"])
        )
        md.append(f"| {fmt} | {len(ids)} | {right} | {wrong} | {_fmt(cells['refused'])} |")
    return data, "\n".join(md) + "\n"


def _in_order(qs: list[dict[str, Any]], run: dict[str, Any]) -> list[dict[str, Any]]:
    by_id = {r["id"]: r for r in run["records"]}
    return [by_id[q["id"]] for q in qs]


def main() -> int:
    """Run each version (subprocesses, one after the other), then score and compare."""
    args = parse_as_side(_args)
    if args.worker:
        return worker(args)
    if args.check:
        problems = check(args.work / "wheelers" / "check")
        for line in problems:
            log(line)
        log(f"{len(problems)} problems")
        return 1 if problems else 0
    with_base = str(args.base) not in ("", ".")
    sides = (("base", args.base),) if with_base else ()
    run_sides(
        "benchmarks.unseen_corpus",
        (*sides, ("new", REPO)),
        args,
        WORKER_KEYS,
        lambda v: args.out / f"unseen_corpus-{v}.json",
    )
    runs = {
        v: json.loads((args.out / f"unseen_corpus-{v}.json").read_text(encoding="utf-8"))
        for v in ("new", *(["base"] if with_base else []))
    }
    data, md = report(load_questions(), runs["new"], runs.get("base"))
    if with_base:
        data["base_code"] = runs["base"]["code"]
    write(args.out, "unseen_corpus", data, md)
    wanted = {"halves": ["half", "measure"], "formats": ["format", "n"]}
    write_result("unseen_corpus", pick_tables(md, wanted), data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

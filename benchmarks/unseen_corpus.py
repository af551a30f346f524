"""Corpora written after the rules: the first hour on documents no rule was written from.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.unseen_corpus [--base /tmp/unseen-base] [--reuse]
        [--corpus wheelers --corpus studio ...]
    .venv/bin/python -m benchmarks.unseen_corpus --configs default focus_check=true
    .venv/bin/python -m benchmarks.unseen_corpus --check
    .venv/bin/python -m benchmarks.unseen_corpus --base '' --embedding-model <name or folder>

Every other development corpus of this project was read while its rules were written, so
its figures flatter the rules. These (``benchmarks/corpora/<name>/``, :data:`CORPORA`) were
written afterwards, each a ``content.py`` of documents and a ``questions.jsonl`` of questions
in users' words, answerable and not, written before any was asked and split into a
calibration and a test half by a hash of the question id
(:func:`benchmarks.mixed_corpus.half`):

* ``wheelers`` — a cycling club's handbook, AGM slides, ride calendar, kit-order export,
  booking e-mail, Markdown maintenance page, web FAQ and treasurer's report (31 answerable,
  10 not); written on 2026-12-06 by this project's engineers, after every rule of that date;
* ``studio`` — an architecture studio's staff handbook, IT guide, induction slides, contacts
  workbook, licence export, two e-mails, expenses page and health-and-safety summary (45, 15);
* ``school`` — a primary school's parents' handbook, uniform page, welcome-evening slides,
  term dates and clubs workbook, lunch menu, two e-mails, FAQ page and attendance policy
  (56, 14);
* ``dental`` — a dental practice's patient leaflet, new-patient evening slides, price
  workbook, hygienist rota export, two e-mails, aftercare page, FAQ page and cancellation and
  complaints policy (53, 15);
* ``saas`` — a software company's handbook, all-hands slides, on-call workbook, service
  ownership export, post-mortem and laptop e-mails, onboarding guide, expenses page and
  security policy (53, 15);
* ``tenants`` — a housing association's tenants' handbook, residents' meeting slides, rent
  workbook, contractor export, two e-mails, damp advice page, FAQ page and pets policy (55,
  15);
* ``library`` — a town library service's membership and borrowing policy, Friends' AGM
  slides, opening hours and events workbook, mobile-library timetable export, newsletter and
  branch-closure e-mails, e-books help page, FAQ page and computer-use policy (52, 15);
* ``holidaypark`` — a holiday park's guest welcome book, seasonal-staff induction slides,
  tariff and season-dates workbook, touring-bookings export, pre-arrival and owners'
  newsletter e-mails, local area guide, FAQ page and park rules with owners' licence (51, 15);
* ``accountancy`` — a firm of accountants' engagement letter, busy-season staff briefing,
  fees and deadlines workbook, CPD log export, client reminder and IT-change e-mails,
  practice-software how-to, client FAQ page and anti-money-laundering policy (52, 15).

Every corpus but ``wheelers`` was written by an independent author who never saw the rules,
the code or any result and never ran the system (``studio`` and ``school`` on 2026-12-06,
``dental``, ``saas`` and ``tenants`` in the next session, ``library``, ``holidaypark`` and
``accountancy`` in the one after); each one's first run measured the release before it on
held-out documents and questions (:data:`HELD_OUT`).

Each code version — ``base`` (``--base``, a worktree of the commit to compare against) and
``new`` (this checkout) — runs in a subprocess with its own library
(:func:`benchmarks.common.run_worker`), builds each corpus, ingests it with the real ingest
into an index of its own (a user's knowledge base is one corpus) and asks every question
through the real compiled graph (default settings, the extractive answerer). ``--configs
BASE NEW`` runs this checkout twice instead, with two ``RAGConfig`` specs (as ``citerag eval
--generate`` reads them), and writes no result file. Scored per question as
:mod:`benchmarks.mixed_formats` scores (any of a question's evidence documents may be cited):

* **right**: answered, citing an evidence document, with a quote that states its needle;
* **wrong**: answered, not right; **refused**: ``no_evidence``;
* an unanswerable question: **refused**.

Reported per corpus and half, and pooled over the corpora, per version, with 95 % Wilson
intervals and an exact two-sided sign test (new against base, same questions); and per
format over every corpus for the new version. ``--base ''`` runs the new version alone.
``--check`` builds each corpus and checks that every needle stands exactly once in its
document's loaded text and every split is the hash rule's.

Writes ``<out>/unseen_corpus.{json,md}``, each version's outcomes
``<out>/unseen_corpus-<version>.json`` and ``benchmarks/results/unseen_corpus.json``.
``--embedding-model`` runs every version with another embedding model, each corpus in an
index of that model's own (``index-<model>``), and writes to ``<out>/model-<model>/`` only (an
experiment, like ``--configs``: no result file).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import (
    REPO,
    index_folder,
    log,
    parse_as_side,
    parser,
    run_sides,
    select_model,
    write,
)
from benchmarks.faq_eval import _fmt, _p, _prop, argparse_hidden, paired, quote_states, quoted
from benchmarks.mixed_corpus import question_problems, write_eml, write_office, write_text_pdf
from benchmarks.results import pick_tables, write_result

CORPORA_DIR = REPO / "benchmarks" / "corpora"
#: The corpora written after the rules, each ``benchmarks/corpora/<name>/`` with its
#: ``content.py`` and ``questions.jsonl``, in the order they were written.
CORPORA = (
    "wheelers",
    "studio",
    "school",
    "dental",
    "saas",
    "tenants",
    "library",
    "holidaypark",
    "accountancy",
)
#: The corpora this project's own engineers wrote (after the rules, but knowing them).
OWN = ("wheelers",)
#: The corpora by authors who never saw the rules (pooled as ``held out`` in the report).
HELD_OUT = tuple(c for c in CORPORA if c not in OWN)
#: The report's name for the held-out corpora pooled.
HELD_OUT_GROUP = "held out"
OUT_OF_SCOPE = "out of scope"
#: The options a worker is passed on (:func:`benchmarks.common.run_worker`).
WORKER_KEYS = ("work", "out", "data")


def _content(corpus: str) -> Any:
    import importlib

    return importlib.import_module(f"benchmarks.corpora.{corpus}.content")


def load_questions(corpus: str = CORPORA[0]) -> list[dict[str, Any]]:
    """A corpus's questions, one dict per line."""
    path = CORPORA_DIR / corpus / "questions.jsonl"
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def build(folder: Path, corpus: str = CORPORA[0]) -> dict[str, str]:
    """Write a corpus into ``folder`` (emptied first); return ``{file name: format}``."""
    content = _content(corpus)
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


def check(folder: Path, corpus: str = CORPORA[0]) -> list[str]:
    """Build a corpus into ``folder`` and list every problem (empty: all good)."""
    from loaders.registry import load_file

    files = build(folder, corpus)
    texts = {name: _norm(load_file(folder / name).text) for name in files}
    problems: list[str] = []
    qs = load_questions(corpus)
    problems += question_problems(qs)
    for q in qs:
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
    p.add_argument(
        "--corpus",
        action="append",
        choices=CORPORA,
        help="a corpus to run (repeatable; default: every one)",
    )
    p.add_argument(
        "--configs",
        nargs=2,
        metavar=("BASE", "NEW"),
        help="two RAGConfig specs run on this checkout instead of two code versions "
        "(as citerag eval --generate reads them: default, focus_check=true, ...)",
    )
    p.add_argument("--config", help=argparse_hidden(), default="default")
    p.add_argument("--worker", help=argparse_hidden(), default=None)
    p.add_argument("--code", type=Path, help=argparse_hidden(), default=None)
    p.add_argument("--reuse", action="store_true", help="reuse a version's outcomes")
    p.add_argument("--check", action="store_true", help="check the needles and splits, then stop")
    args = p.parse_args()
    args.corpus = list(dict.fromkeys(args.corpus or CORPORA))
    return args


def worker(args: Any) -> int:
    """Run one code version (the library of ``--code``) on each corpus, one index per corpus
    (a user's knowledge base is one corpus), and write its outcomes."""
    import chains.answerers
    from benchmarks.mixed_formats import run_index
    from citerag.embeddings import load_embedding_model
    from citerag.eval.runner import CachedEmbeddings

    log(f"{args.worker}: code {Path(chains.answerers.__file__).parent.parent}")
    model = load_embedding_model(args.embedding_model)  # main passes --embedding-model on
    emb = CachedEmbeddings(model.embeddings)
    runs = {}
    for corpus in args.corpus:
        work = args.work / "unseen" / corpus / args.worker  # each version its own copy
        build(work / "corpus", corpus)
        runs[corpus] = run_index(
            work / "corpus",
            work / index_folder(args.embedding_model),
            load_questions(corpus),
            model,
            emb,
            not args.no_progress,
            args.config,
        )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"unseen_corpus-{args.worker}.json").write_text(
        json.dumps(
            {
                "version": args.worker,
                "code": str(args.code),
                "config": args.config,
                "corpora": runs,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    return 0


def _questions(corpora: Sequence[str]) -> list[dict[str, Any]]:
    """Every question of ``corpora``, each with its ``corpus``."""
    return [{**q, "corpus": c} for c in corpora for q in load_questions(c)]


def _records(qs: list[dict[str, Any]], run: dict[str, Any]) -> list[dict[str, Any]]:
    """A version's record of each question, in the questions' order."""
    by_key = {(c, r["id"]): r for c, one in run["corpora"].items() for r in one["records"]}
    return [by_key[(q["corpus"], q["id"])] for q in qs]


#: The reported measures: ``(label, of unanswerable questions, outcome flag)``.
MEASURES = (
    ("answerable answered right", False, "right"),
    ("answerable answered wrong", False, "wrong"),
    ("answerable refused", False, "refused"),
    ("unanswerable refused", True, "refused"),
)


def report(
    qs: list[dict[str, Any]], new: dict[str, Any], base: dict[str, Any] | None
) -> tuple[dict[str, Any], str]:
    """The figures (JSON) and their Markdown tables: per corpus and half, then the held-out
    corpora together (:data:`HELD_OUT`, when some but not all ran) and every corpus together;
    per format over every corpus (new version). The Markdown shows each corpus's whole set
    and the pools' halves; the JSON keeps every half of every group."""
    flags = {
        side: [score(q, r) for q, r in zip(qs, _records(qs, run), strict=True)]
        for side, run in (("new", new), ("base", base))
        if run is not None
    }
    corpora = list(dict.fromkeys(q["corpus"] for q in qs))
    data: dict[str, Any] = {
        "corpora": {
            c: {
                k: new["corpora"][c][k]
                for k in ("indexed", "failed", "ingest_seconds", "answer_seconds")
            }
            for c in corpora
        },
        "halves": {},
        "formats": {},
    }
    head = "| corpus | half | measure | n | " + (
        "base | new | paired +/− (p) |" if base else "new |"
    )
    md = [
        "## The unseen corpora (full graph, default settings, extractive answerer)\n",
        head,
        "|---|---|---|---:|" + ("---|---|---|" if base else "---|"),
    ]
    held_out = [c for c in corpora if c in HELD_OUT]
    pools = {"all": corpora}
    if 1 < len(held_out) < len(corpora):
        pools = {HELD_OUT_GROUP: held_out, **pools}
    groups = [*corpora, *pools] if len(corpora) > 1 else corpora
    for corpus in groups:
        members = pools.get(corpus, [corpus])
        data["halves"][corpus] = {}
        for part in ("calibration", "test", "all"):
            data["halves"][corpus][part] = {}
            for label, unanswerable, key in MEASURES:
                at = [
                    i
                    for i, q in enumerate(qs)
                    if bool(q.get("unanswerable")) == unanswerable
                    and part in ("all", q["split"])
                    and q["corpus"] in members
                ]
                cells = {s: [f[i][key] for i in at] for s, f in flags.items()}
                row = {s: _prop(sum(v), len(v)) for s, v in cells.items()}
                line = f"| {corpus} | {part} | {label} | {len(at)} | "
                if base:
                    test = paired(cells["base"], cells["new"])
                    row["paired"] = test
                    line += f"{_fmt(row['base'])} | {_fmt(row['new'])} | "
                    line += f"+{test['wins']}/−{test['losses']} ({_p(test['p'])}) |"
                else:
                    line += f"{_fmt(row['new'])} |"
                data["halves"][corpus][part][label] = row
                if part == "all" or corpus in pools or len(groups) == 1:
                    md.append(line)  # a corpus's halves are in the JSON; the pools' shown
    md += [
        "",
        "| format | n | answered right (new) | answered wrong | refused |",
        "|---|---:|---|---|---|",
    ]
    formats = list(dict.fromkeys(q["format"] for q in qs))
    f = flags["new"]
    for fmt in sorted(formats, key=lambda x: (x == OUT_OF_SCOPE, x)):
        at = [i for i, q in enumerate(qs) if q["format"] == fmt]
        props = {k: _prop(sum(f[i].get(k, False) for i in at), len(at)) for k in f[at[0]]}
        data["formats"][fmt] = props
        right = "—" if fmt == OUT_OF_SCOPE else _fmt(props["right"])
        wrong = (
            f"answered {_fmt(props['answered'])}" if fmt == OUT_OF_SCOPE else _fmt(props["wrong"])
        )
        md.append(f"| {fmt} | {len(at)} | {right} | {wrong} | {_fmt(props['refused'])} |")
    return data, "\n".join(md) + "\n"


def _outcome(out: Path, version: str) -> Path:
    return out / f"unseen_corpus-{version}.json"


def reusable(path: Path, spec: str, corpora: Sequence[str]) -> bool:
    """Whether a saved outcome file (``--reuse``) ran the configuration ``spec`` on every one
    of ``corpora``."""
    saved = json.loads(path.read_text(encoding="utf-8"))
    return saved.get("config", "default") == spec and set(corpora) <= set(saved.get("corpora", {}))


def main() -> int:
    """Run each version (subprocesses, one after the other), then score and compare."""
    args = parse_as_side(_args)
    if args.worker:
        return worker(args)
    if args.check:
        problems = [
            f"{c}: {line}" for c in args.corpus for line in check(args.work / "unseen" / c, c)
        ]
        for line in problems:
            log(line)
        log(f"{len(problems)} problems")
        return 1 if problems else 0
    select_model(args)  # another embedding model: its own index folders and output folder
    chosen = ["--embedding-model", args.embedding_model] if args.embedding_model else []
    with_base = bool(args.configs) or str(args.base) not in ("", ".")
    sides = (("base", REPO if args.configs else args.base),) if with_base else ()
    specs = dict(zip(("base", "new"), args.configs or ("default", "default"), strict=True))
    corpora = [x for c in args.corpus for x in ("--corpus", c)]
    for version, tree in (*sides, ("new", REPO)):
        path = _outcome(args.out, version)
        if args.reuse and path.exists() and not reusable(path, specs[version], args.corpus):
            log(f"{version}: {path} ran other settings or corpora: running again")
            path.unlink()
        run_sides(
            "benchmarks.unseen_corpus",
            ((version, tree),),
            args,
            WORKER_KEYS,
            lambda v: _outcome(args.out, v),
            [*corpora, *chosen, "--config", specs[version]],
        )
    runs = {
        v: json.loads(_outcome(args.out, v).read_text(encoding="utf-8"))
        for v in ("new", *(["base"] if with_base else []))
    }
    data, md = report(_questions(args.corpus), runs["new"], runs.get("base"))
    if with_base:
        data["base_code"] = runs["base"]["code"]
    if args.configs:
        data["configs"] = specs
    write(args.out, "unseen_corpus", data, md)
    if args.configs or index_folder(args.embedding_model) != "index":
        return 0  # an experiment (one code version, or another model): not the published figures
    wanted = {"halves": ["corpus", "half", "measure"], "formats": ["format", "n"]}
    write_result("unseen_corpus", pick_tables(md, wanted), data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

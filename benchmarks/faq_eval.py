"""FAQ answers, not their questions: the FAQ-style development set and SQuAD / SciFact, paired.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.faq_eval [--base /tmp/faq-base] [--squad N] [--scifact N]
        [--reuse]

Two code versions run the same questions through the real compiled graph
(``graphs.rag.build_graph`` over ``GraphDeps.from_store``, default settings, the extractive
answerer): ``base`` (a worktree of the branch point, ``git worktree add --detach
/tmp/faq-base <commit>``) and ``new`` (this checkout). Each runs in a subprocess with its
own library code (:func:`benchmarks.common.use_library_from`) and ingests the FAQ set
(``benchmarks/faqset/``, :mod:`faqset_check`) into its own index, since the sentence rule is
also an ingest rule.
SQuAD 2.0 and SciFact are materialised and indexed per version (``<work>/<version>/``),
so two workers can run at once; :func:`same_spans` reports whether the two sentence rules
split their documents alike.

Reported, per half (calibration / test; the split of :func:`faqset_check.split_of`, fixed
before any result) and per version, with 95 % Wilson intervals, and paired with an exact
two-sided sign test:

* answerable **answered right**: answered, citing the needle's document with a quote that
  contains the needle, or is a part of it at least half its length (whitespace-normalised);
* answerable **answered with a question / heading / title**: a cited quote that is one of
  the corpus's question or heading lines (read from the markup, :func:`faqset_check.labels`,
  not from the answerer's rules), begins with one glued onto a sentence, or contains a
  question line;
* answerable answered wrong (answered, not right), and unanswerable **refused**;
* SQuAD 2.0 (seeded sample of each half's answerable and unanswerable questions; the halves of
  ``refusal_rules.squad_halves``) and SciFact claims: answered, answered citing the gold
  evidence, unanswerable refused.

Writes ``benchmarks/out/faq_eval.{json,md}`` and each version's per-question outcomes
``benchmarks/out/faq_eval-<version>.json``.

**Two configurations instead of two code versions** (``--configs BASE NEW``): both workers
run this checkout, ``base`` with the ``RAGConfig`` spec BASE and ``new`` with NEW (the specs
of ``citerag eval --generate``: ``default``, ``expand=table``, ``model=smollm2,expand=section``);
results go to ``<out>/faq_configs/``. ``--half test`` runs only that half of the FAQ set (for
a slow chat model). Parent expansion with the bundled SmolLM2-135M, for example::

    .venv/bin/python benchmarks/faq_eval.py --half test --squad 0 --scifact 0
        --configs model=smollm2 model=smollm2,expand=section
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.common import (
    REPO,
    bundled_model_only,
    library_env,
    log,
    parse_as_side,
    parser,
    run_worker,
    write,
)
from benchmarks.results import table, write_result


def _args() -> Any:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--base", type=Path, default=Path("/tmp/faq-base"), help="base worktree")
    p.add_argument("--squad", type=int, default=150, help="SQuAD questions per kind and half")
    p.add_argument("--scifact", type=int, default=150, help="SciFact claims (seeded sample)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--worker", help=argparse_hidden(), default=None)
    p.add_argument("--code", type=Path, help=argparse_hidden(), default=None)
    p.add_argument(
        "--reuse", action="store_true", help="reuse a version's outcomes run with these settings"
    )
    p.add_argument(
        "--configs",
        nargs=2,
        metavar=("BASE", "NEW"),
        default=None,
        help="compare two RAGConfig specs on this checkout instead of two code versions",
    )
    p.add_argument("--config", help=argparse_hidden(), default="default")
    p.add_argument(
        "--half",
        choices=("calibration", "test", "all"),
        default="all",
        help="FAQ-set questions to run (default all)",
    )
    p.add_argument(
        "--ids",
        default="",
        help="comma-separated FAQ-set question ids to run (with --half: those of that half); "
        "e.g. only the questions whose prompt two configurations change",
    )
    args = p.parse_args()
    if args.configs and not args.worker:
        args.out = args.out / "faq_configs"
    return args


def argparse_hidden() -> str:
    """Help text of the internal worker options."""
    import argparse

    return argparse.SUPPRESS


# -- worker: one code version ----------------------------------------------------------------


def _graph(loaded: Any, emb: Any, model: Any) -> Any:
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    deps = GraphDeps.from_store(
        loaded.store, embeddings=emb, manifest_id=loaded.manifest_id, embedding_model=model.name
    )
    return build_graph(deps)


def outcome_record(q: Any, res: dict[str, Any]) -> dict[str, Any]:
    """A question's outcome as the benchmarks keep it: id, status, answer, reason, citations."""
    return {
        "id": q.id,
        "status": res.get("status", "failed"),
        "answer": res.get("answer", ""),
        "reason": res.get("reason", ""),
        "citations": [
            {k: c.get(k) for k in ("doc_name", "chunk_id", "quote")}
            for c in res.get("citations") or []
        ],
    }


def _records(
    graph: Any, qs: list[Any], progress: bool, spec: str = "default"
) -> list[dict[str, Any]]:
    from citerag.eval.runner import EvalConfig, parse_config, run_generation

    cfg = parse_config(spec)
    results = run_generation(graph, qs, EvalConfig(spec, cfg.configurable), progress=progress)
    out = []
    for q, res in zip(qs, results, strict=True):
        ctx = (res.get("trace") or {}).get("context") or {}
        out.append(
            {
                "id": q.id,
                "context_tokens": ctx.get("estimated_tokens", 0),
                "expanded_tokens": ctx.get("expanded_tokens", 0),
                "expanded_passages": sum(
                    1 for p in ctx.get("passages") or [] if p.get("expansion")
                ),
                **outcome_record(q, res),
            }
        )
    return out


def worker(args: Any) -> int:
    """Run one code version (the library of ``--code``) and write its outcomes."""
    import chains.answerers
    from benchmarks import faqset_check as fs
    from benchmarks.refusal_rules import squad_halves
    from citerag.embeddings import load_embedding_model
    from citerag.eval.adapters import ensure_index, prepare
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions, parse_question
    from citerag.eval.runner import CachedEmbeddings
    from citerag.index.ingest import ingest
    from citerag.stores.loaded import load_index

    log(f"{args.worker}: code {Path(chains.answerers.__file__).parent.parent}")
    model = load_embedding_model(None)
    emb = CachedEmbeddings(model.embeddings)
    progress = not args.no_progress
    out: dict[str, Any] = {
        "version": args.worker,
        "code": str(args.code),
        "settings": _settings(args),
        "sets": {},
    }

    corpus = fs.materialise(args.work / "faqset" / "corpus")
    index_dir = args.work / "faqset" / f"index-{args.worker}"
    ingest([corpus], index_dir, model, progress=progress)
    loaded = load_index(index_dir, model)
    qs = [
        parse_question(r)
        for r in fs.load_questions()
        if (args.half == "all" or fs.split_of(r["id"]) == args.half)
        and (not args.ids or r["id"] in args.ids.split(","))
    ]
    out["sets"]["faqset"] = _records(_graph(loaded, emb, model), qs, progress, args.config)
    path = args.out / f"faq_eval-{args.worker}.json"
    _save(path, out)  # after each set: a slow later set leaves the earlier ones usable

    rng = random.Random(args.seed)
    for name, limit in (("squad", args.squad), ("scifact", args.scifact)):
        if limit <= 0:
            continue
        # each version materialises its own copy: two workers may run at once
        prep = prepare(name, args.data, args.work / args.worker)
        folder = Path(prep.root) / "index"
        ensure_index(prep, folder, model, progress=progress)
        loaded = load_index(folder, model)
        allq = load_questions(prep.questions)
        picked: list[tuple[str, Any]] = []
        if name == "squad":
            cal, _test = squad_halves(list({str(q.meta.get("article")) for q in allq}))
            for half in ("calibration", "test"):
                for unans in (False, True):
                    pool = [
                        q
                        for q in allq
                        if q.unanswerable == unans
                        and (q.meta.get("article") in cal) == (half == "calibration")
                    ]
                    picked += [(half, q) for q in rng.sample(pool, min(limit, len(pool)))]
        else:
            picked = [("all", q) for q in rng.sample(allq, min(limit, len(allq)))]
        records = _records(
            _graph(loaded, emb, model), [q for _, q in picked], progress, args.config
        )
        ic = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        for (half, q), rec in zip(picked, records, strict=True):
            gold = set().union(*(ic.chunk_ids(ic.hits(ev)) for ev in q.evidence))
            rec["half"] = half
            rec["unanswerable"] = q.unanswerable
            rec["cites_gold"] = any(c.get("chunk_id") in gold for c in rec["citations"])
        out["sets"][name] = records
        _save(path, out)
    return 0


def _save(path: Path, out: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"{out['version']}: wrote {path} ({', '.join(out['sets'])})")


# -- scoring ---------------------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(str(text).split())


def quote_states(needle: str, quote: str) -> bool:
    """Whether a quote states the needle: it contains it, or is a part of it at least half
    its length (whitespace-normalised)."""
    n, q = _norm(needle), _norm(quote)
    return bool(q) and (n in q or (q in n and len(q) >= 0.5 * len(n)))


def is_label_quote(quote: str, labels: list[str]) -> bool:
    """Whether a quote is, starts with, or contains (for questions) a question/heading line."""
    q = _norm(quote).strip(" *#")
    for lab in labels:
        if q == lab:
            return True
        if q.startswith(lab + " ") and q[len(lab) + 1 : len(lab) + 2].isupper():
            return True  # a heading glued onto the sentence after it
        if lab.endswith("?") and lab in q:
            return True
    return False


_MARKER = re.compile(r"\s*\[\d+(?::[^\]]*)?\]")


def quoted(rec: dict[str, Any]) -> list[str]:
    """Everything an answer quotes: its citations' quotes, and each line of its text without
    the ``[n]`` markers (the extractive answer's lines are its quotes; a passage cited twice
    keeps only its first quote among the citations)."""
    lines = [_MARKER.sub("", x).strip() for x in str(rec.get("answer") or "").splitlines()]
    return [c.get("quote") or "" for c in rec["citations"]] + [x for x in lines if x]


def score_faq(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per question: kind, half and the outcome flags."""
    from benchmarks import faqset_check as fs

    qs = {q["id"]: q for q in fs.load_questions()}
    labels = fs.labels()
    all_labels = sorted({x for v in labels.values() for x in v}, key=len, reverse=True)
    out = {}
    for rec in records:
        q = qs[rec["id"]]
        answered = rec["status"] == "answered"
        quotes = quoted(rec)
        row = {"kind": q["kind"], "half": q["split"], "answered": answered}
        if q["kind"] == "answerable":
            ev = q["evidence"][0]
            docs = {c.get("doc_name") for c in rec["citations"]}
            row["right"] = (
                answered
                and bool(docs & {ev["doc"], Path(ev["doc"]).stem})
                and any(quote_states(ev["needle"], x) for x in quotes)
            )
            row["label_quote"] = answered and any(is_label_quote(x, all_labels) for x in quotes)
            row["wrong"] = answered and not row["right"]
        else:
            row["refused"] = rec["status"] == "no_evidence"
        out[rec["id"]] = row
    return out


def _prop(k: int, n: int) -> dict[str, Any]:
    from citerag.eval.metrics import Proportion

    return Proportion(k, n).to_json()


def _fmt(p: dict[str, Any]) -> str:
    lo, hi = p["ci95"]
    return f"{p['value']:.2f} [{lo:.2f}, {hi:.2f}] ({p['k']}/{p['n']})"


def paired(base: list[bool], new: list[bool]) -> dict[str, Any]:
    """Wins (new true, base false), losses and the sign test's p."""
    from citerag.eval.metrics import sign_test

    wins = sum(b and not a for a, b in zip(base, new, strict=True))
    losses = sum(a and not b for a, b in zip(base, new, strict=True))
    return {"wins": wins, "losses": losses, "p": sign_test(wins, losses)}


def _p(x: float) -> str:
    from citerag.eval.metrics import format_p

    return format_p(x)


def report(base: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The figures and their Markdown."""
    sb = score_faq(base["sets"]["faqset"])
    sn = score_faq(new["sets"]["faqset"])
    data: dict[str, Any] = {"faqset": {}, "other": {}}
    configs = base["settings"].get("config"), new["settings"].get("config")
    what = (
        f"base `{configs[0]}`, new `{configs[1]}`"
        if configs[0] != configs[1]
        else "default settings, extractive answerer"
    )
    md = [
        f"## FAQ-style development set (full graph, {what})\n",
        "| half | measure | n | base | new | paired +/− (p) |",
        "|---|---|---:|---|---|---|",
    ]
    for half in ("calibration", "test", "all"):
        ids = [i for i in sb if half == "all" or sb[i]["half"] == half]
        if not ids:
            continue
        ans = [i for i in ids if sb[i]["kind"] == "answerable"]
        una = [i for i in ids if sb[i]["kind"] != "answerable"]
        for label, key, pool in (
            ("answerable answered right", "right", ans),
            ("answerable answered with a question/heading", "label_quote", ans),
            ("answerable answered wrong", "wrong", ans),
            ("answerable answered", "answered", ans),
            ("unanswerable refused", "refused", una),
        ):
            b = [bool(sb[i][key]) for i in pool]
            n = [bool(sn[i][key]) for i in pool]
            pr = paired(b, n)
            cell = {"base": _prop(sum(b), len(b)), "new": _prop(sum(n), len(n)), "paired": pr}
            data["faqset"][f"{half}.{key}"] = cell
            md.append(
                f"| {half} | {label} | {len(pool)} | {_fmt(cell['base'])} | "
                f"{_fmt(cell['new'])} | +{pr['wins']}/−{pr['losses']} ({_p(pr['p'])}) |"
            )
    md += ["", _context_line(base["sets"]["faqset"], new["sets"]["faqset"])]
    md += [
        "",
        "## SQuAD 2.0 / SciFact (same graph; seeded samples)\n",
        "| set | measure | n | base | new | paired +/− (p) |",
        "|---|---|---:|---|---|---|",
    ]
    for name in ("squad", "scifact"):
        rb = {r["id"]: r for r in base["sets"].get(name, [])}
        rn = {r["id"]: r for r in new["sets"].get(name, [])}
        for half in ("calibration", "test", "all"):
            ids = [i for i in rb if i in rn and rb[i]["half"] == half]
            if not ids:
                continue
            ans = [i for i in ids if not rb[i]["unanswerable"]]
            una = [i for i in ids if rb[i]["unanswerable"]]
            for label, pool, f in (
                ("answerable answered", ans, lambda r: r["status"] == "answered"),
                (
                    "answerable answered citing the evidence",
                    ans,
                    lambda r: r["status"] == "answered" and r["cites_gold"],
                ),
                ("unanswerable refused", una, lambda r: r["status"] == "no_evidence"),
            ):
                if not pool:
                    continue
                b = [bool(f(rb[i])) for i in pool]
                n = [bool(f(rn[i])) for i in pool]
                pr = paired(b, n)
                cell = {"base": _prop(sum(b), len(b)), "new": _prop(sum(n), len(n)), "paired": pr}
                data["other"][f"{name}.{half}.{label}"] = cell
                md.append(
                    f"| {name} {half} | {label} | {len(pool)} | {_fmt(cell['base'])} | "
                    f"{_fmt(cell['new'])} | +{pr['wins']}/−{pr['losses']} ({_p(pr['p'])}) |"
                )
    return data, "\n".join(md)


def _context_line(base: list[dict[str, Any]], new: list[dict[str, Any]]) -> str:
    """How large the model's context was on each side, and how often a passage was expanded
    (parent expansion, the ``expand`` knob)."""

    def side(recs: list[dict[str, Any]]) -> str:
        n = len(recs) or 1
        tokens = sum(r.get("context_tokens", 0) for r in recs) / n
        added = sum(r.get("expanded_tokens", 0) for r in recs) / n
        hit = sum(1 for r in recs if r.get("expanded_passages"))
        return (
            f"{tokens:.0f} estimated tokens of passages per question on average, {added:.0f} "
            f"of them from expansion; {hit}/{len(recs)} questions with an expanded passage"
        )

    return f"Context (FAQ set): base {side(base)}; new {side(new)}."


def same_spans(name: str, args: Any) -> bool:
    """Whether both versions' sentence rules give the same spans on every chunk of a data
    set's documents (then one index serves both exactly)."""
    code = (
        "import sys, json, hashlib;"
        "from pathlib import Path; from loaders.registry import load_file;"
        "from loaders.sentences import sentence_spans;"
        "h = hashlib.sha256();"
        "[h.update(json.dumps(sentence_spans(load_file(f).text)).encode()) "
        "for f in sorted(Path(sys.argv[2]).rglob('*')) if f.is_file()];"
        "print(h.hexdigest())"
    )
    from citerag.eval.adapters import prepare

    docs = Path(prepare(name, args.data, args.work / "spans").corpus)
    digests = [
        subprocess.run(
            [sys.executable, "-c", code, str(c), str(docs)],
            env=library_env(c),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for c in (args.base, REPO)
    ]
    log(f"{name}: sentence spans {'identical' if digests[0] == digests[1] else 'differ'}")
    return digests[0] == digests[1]


def non_answer_counts(name: str, args: Any) -> dict[str, int]:
    """How many sentences of a data set's documents the new rules never quote (questions,
    headings, captions) or cut a glued heading off: outside these, the answerer's choice is
    the old one (a static count over every document, no model)."""
    from chains import non_answers as na
    from citerag.eval.adapters import prepare
    from loaders.registry import load_file
    from loaders.sentences import sentence_spans

    counts = {
        "sentences": 0,
        "question": 0,
        "heading": 0,
        "caption": 0,
        "label": 0,
        "reply": 0,
        "cut": 0,
    }
    corpus = Path(prepare(name, args.data, args.work / "spans").corpus)
    for f in sorted(corpus.rglob("*")):
        if not f.is_file():
            continue
        doc = load_file(f)
        for seg in doc.segments:
            text = doc.text[seg.start : seg.end]
            meta = {"title": doc.title, "section": seg.section}
            for s, e in sentence_spans(text):
                counts["sentences"] += 1
                cut = na.leading_heading(text, s, e, meta)
                counts["cut"] += cut != s
                kind = na.non_answer(text, cut, e, meta)
                if kind:
                    counts[kind] += 1
    return counts


def _settings(args: Any, config: str | None = None) -> dict[str, Any]:
    return {
        "squad": args.squad,
        "scifact": args.scifact,
        "seed": args.seed,
        "half": args.half,
        "ids": args.ids,
        "config": config or args.config,
    }


def main() -> int:
    """Run both versions (subprocesses, one after the other), then score and compare."""
    args = parse_as_side(_args)
    bundled_model_only(args, "benchmarks.faq_eval")
    if args.worker:
        return worker(args)
    configs = args.configs or ["default", "default"]
    versions = (("base", REPO if args.configs else args.base), ("new", REPO))
    for (version, code), config in zip(versions, configs, strict=True):
        done = args.out / f"faq_eval-{version}.json"
        if (
            args.reuse
            and done.exists()
            and json.loads(done.read_text(encoding="utf-8")).get("settings")
            == _settings(args, config)
        ):
            log(f"{version}: reusing {done}")
            continue
        keys = ("work", "out", "data", "squad", "scifact", "seed", "half", "ids")
        run_worker("benchmarks.faq_eval", version, code, args, keys, ["--config", config])
    base = json.loads((args.out / "faq_eval-base.json").read_text(encoding="utf-8"))
    new = json.loads((args.out / "faq_eval-new.json").read_text(encoding="utf-8"))
    data, md = report(base, new)
    if args.configs:  # one code version: the same sentence rules on both sides
        write(args.out, "faq_eval", data, md)
        return 0
    spans = {n: same_spans(n, args) for n in ("squad", "scifact") if getattr(args, n) > 0}
    data["sentence_spans_identical"] = spans
    md += "\n\nSentence spans identical under both rules: " + (
        ", ".join(f"{n}: {'yes' if v else 'no'}" for n, v in spans.items()) or "—"
    )
    counts = {n: non_answer_counts(n, args) for n in ("squad", "scifact")}
    data["non_answer_sentences"] = counts
    md += "\n\nSentences the new rules never quote, of all sentences of the documents: " + (
        "; ".join(
            f"{n}: {c['question']} questions, {c['heading']} headings/titles, "
            f"{c['caption']} captions, {c['reply']} bare yes/no replies, "
            f"{c['cut']} glued headings cut, of {c['sentences']}"
            for n, c in counts.items()
        )
    )
    write(args.out, "faq_eval", data, md)
    write_result("faq_eval", {"before-after": before_after_table(data)}, data)
    return 0


def before_after_table(data: dict[str, Any], half: str = "test") -> dict[str, Any]:
    """The result table ``before-after``: the FAQ set's ``half``, the code before (``base``)
    against this version (``new``), paired."""
    rows = []
    for key, label in (
        ("right", "answerable answered right"),
        ("label_quote", "answerable answered with a question / heading"),
        ("wrong", "answerable answered wrong"),
        ("refused", "unanswerable refused"),
    ):
        cell = data["faqset"][f"{half}.{key}"]
        pr = cell["paired"]
        sign = f"+{pr['wins']}/−{pr['losses']}"
        rows.append(
            [
                label,
                _fmt(cell["base"]),
                _fmt(cell["new"]),
                f"{sign} ({_p(pr['p'])})" if pr["wins"] or pr["losses"] else sign,
            ]
        )
    return table([f"{half} half", "before", "now", "paired +/− (p)"], rows)


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "faq_eval_graph_history": (
        "the paired SQuAD run through the graph (two code versions, each on its own index)"
        " and the static count of sentences the FAQ rules touch, published as prose"
    ),
    "faq_eval_history": (
        "parent expansion (`expand`) with the extractive answerer and the bundled chat "
        "model, from runs with --configs and --ids"
    ),
}

if __name__ == "__main__":
    raise SystemExit(main())

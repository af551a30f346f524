"""Questions as people type them: greetings, thanks and "if you don't know, say so", paired.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.prompt_habits [--base /tmp/habits-base] [--reuse]

People write to a question box the way they write to a person or to a chat model: *"Hi!
When do I have to bring a DVD back?"*, *"… Thanks!"*, *"… If you don't know, say so."*,
*"… Please don't guess."* None of these words says what to find. This benchmark asks every
question of the FAQ-style development set (``benchmarks/faqset/``: answerable questions and
questions the corpus cannot answer) plainly and with each **habit** of :data:`HABITS` (a
fixed list of greetings, thanks, brevity and citation requests and no-answer directions,
written before any result was looked at), through the real compiled graph (default
settings, the extractive answerer), under two code versions: ``base`` (``--base``, a
worktree of the branch point) and ``new`` (this checkout), each in a subprocess with its own
library code and its own index of the corpus.

The habits are split into a calibration and a test half by a hash of their text
(:func:`habit_half`), as the questions are (:func:`benchmarks.faqset_check.split_of`); a
question is asked with the habits of its own half only, so the test half is held out on
both axes. Reported per half and version, with 95 % Wilson intervals over (question, habit)
pairs, and paired with an exact two-sided sign test (new against base, same pairs):

* **same outcome as asked plainly**: the pair's outcome (answered right / answered wrong /
  refused for an answerable question; answered / refused for an unanswerable one) equals the
  same version's outcome for the plain question. A habit should change nothing;
* answerable answered right, and unanswerable refused, with the habit and asked plainly.

Pairs share questions, so the intervals are narrower than independent samples would give:
read them with the per-habit table, which shows where a change comes from.

``--corpus mixed`` asks the questions of the mixed-format corpus instead
(``benchmarks/corpora/mixed/``: Word, PowerPoint, Excel, CSV, e-mail and scans, answerable and
out-of-scope questions; built and scored as :mod:`benchmarks.mixed_formats` does, its halves
:func:`benchmarks.mixed_corpus.half`).

Writes ``<out>/prompt_habits{,_mixed}.{json,md}``, each version's outcomes
``<out>/prompt_habits{,_mixed}-<version>.json`` and
``benchmarks/results/prompt_habits{,_mixed}.json``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import (
    REPO,
    bundled_model_only,
    log,
    parse_as_side,
    parser,
    run_sides,
    write,
)
from benchmarks.faq_eval import argparse_hidden
from benchmarks.results import rate_cell, table, write_result

SALT = "habit:"
#: The options a worker is passed on (:func:`benchmarks.common.run_worker`).
WORKER_KEYS = ("work", "out", "data", "corpus")


@dataclass(frozen=True)
class Habit:
    """A way of wrapping a question: text before it and text after it."""

    before: str = ""
    after: str = ""

    @property
    def name(self) -> str:
        """The habit as shown: ``Hi! …`` or ``… Thanks!``."""
        return f"{self.before}…{(' ' + self.after) if self.after else ''}".strip()

    def apply(self, question: str) -> str:
        """The question written with this habit (a lower-case first letter after a comma)."""
        q = question.strip()
        if self.before.rstrip().endswith(","):
            q = q[:1].lower() + q[1:]
        return f"{self.before}{q}{(' ' + self.after) if self.after else ''}"


#: Fixed before any result (greetings, thanks, brevity and citation requests, and what to do
#: without an answer, as people write them to a person or a chat model).
HABITS: tuple[Habit, ...] = (
    Habit(after="If you don't know, say so."),
    Habit(after="If the documents don't say, please tell me."),
    Habit(after="If you can't find it, just say that you don't know."),
    Habit(after="If this is not covered, state that and explain why."),
    Habit(after="If there is no answer in the documents, reply 'not found'."),
    Habit(after="Say so if you can't find it."),
    Habit(after="Please don't guess."),
    Habit(after="Don't make anything up."),
    Habit(after="Thanks!"),
    Habit(after="Thanks in advance."),
    Habit(after="Please be brief."),
    Habit(after="Keep it short."),
    Habit(after="Cite your sources."),
    Habit(after="Answer only from the documents."),
    Habit(before="Hi! "),
    Habit(before="Hello, "),
    Habit(before="Quick question: "),
    Habit(before="Hey there, quick one: "),
)


def habit_half(habit: Habit) -> str:
    """``calibration`` or ``test`` by a hash of the habit's name (fixed before results)."""
    first = hashlib.sha256((SALT + habit.name).encode("utf-8")).digest()[0]
    return "calibration" if first % 2 == 0 else "test"


def _args() -> Any:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--base", type=Path, default=Path("/tmp/habits-base"), help="base worktree")
    p.add_argument("--worker", help=argparse_hidden(), default=None)
    p.add_argument("--code", type=Path, help=argparse_hidden(), default=None)
    p.add_argument("--reuse", action="store_true", help="reuse a version's outcomes")
    p.add_argument(
        "--corpus",
        choices=("faqset", "mixed"),
        default="faqset",
        help="the FAQ-style set (default) or the mixed-format corpus",
    )
    return p.parse_args()


def worker(args: Any) -> int:
    """Run one code version (the library of ``--code``) and write its outcomes."""
    import chains.answerers
    from benchmarks import faqset_check as fs
    from benchmarks.faq_eval import _graph, _records
    from citerag.embeddings import load_embedding_model
    from citerag.eval.questions import parse_question
    from citerag.eval.runner import CachedEmbeddings
    from citerag.index.ingest import ingest
    from citerag.stores.loaded import load_index

    log(f"{args.worker}: code {Path(chains.answerers.__file__).parent.parent}")
    model = load_embedding_model(None)
    emb = CachedEmbeddings(model.embeddings)
    progress = not args.no_progress
    if args.corpus == "mixed":
        from benchmarks import mixed_corpus

        corpus = mixed_corpus.build(args.work / "mixed")["corpus"]
        rows, half_of = mixed_corpus.load_questions(), mixed_corpus.half
    else:
        corpus = fs.materialise(args.work / "faqset" / "corpus")
        rows, half_of = fs.load_questions(), fs.split_of
    index_dir = args.work / args.corpus / f"index-habits-{args.worker}"
    if index_dir.exists():
        shutil.rmtree(index_dir)
    ingest([corpus], index_dir, model, progress=progress)
    loaded = load_index(index_dir, model)
    asked: list[tuple[str, Any]] = []  # (habit name or "", question)
    for row in rows:
        half = half_of(row["id"])
        asked.append(("", parse_question(row)))
        for habit in HABITS:
            if habit_half(habit) == half:
                wrapped = {**row, "question": habit.apply(row["question"])}
                asked.append((habit.name, parse_question(wrapped)))
    records = _records(_graph(loaded, emb, model), [q for _, q in asked], progress)
    for (name, q), rec in zip(asked, records, strict=True):
        rec["habit"] = name
        rec["question"] = q.question
    path = args.out / f"{_stem(args.corpus)}-{args.worker}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": args.worker, "records": records}, indent=1) + "\n")
    return 0


# -- scoring -----------------------------------------------------------------------------------


def _stem(corpus: str) -> str:
    """The result's name for a corpus: ``prompt_habits`` (FAQ set) or ``prompt_habits_mixed``."""
    return "prompt_habits" if corpus == "faqset" else f"prompt_habits_{corpus}"


def _scored_mixed(rec: dict[str, Any], questions: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A mixed-corpus record scored as :func:`benchmarks.mixed_formats.score` scores it."""
    from benchmarks.mixed_corpus import half
    from benchmarks.mixed_formats import score

    q = questions[rec["id"]]
    flags = score(q, rec)
    kind = "unanswerable" if q.get("unanswerable") else "answerable"
    return {"kind": kind, "half": half(rec["id"]), **flags}


def outcomes(
    records: list[dict[str, Any]], corpus: str = "faqset"
) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (question id, habit name): kind, half and outcome (``right``/``wrong``/``refused``
    for an answerable question, ``answered``/``refused`` for an unanswerable one)."""
    from benchmarks.faq_eval import score_faq

    questions: dict[str, dict[str, Any]] = {}
    if corpus == "mixed":
        from benchmarks.mixed_corpus import load_questions

        questions = {q["id"]: q for q in load_questions()}
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for rec in records:
        mixed = corpus == "mixed"
        row = _scored_mixed(rec, questions) if mixed else score_faq([rec])[rec["id"]]
        if row["kind"] == "answerable":
            outcome = "right" if row["right"] else "wrong" if row["wrong"] else "refused"
        else:
            outcome = "refused" if row["refused"] else "answered"
        out[(rec["id"], rec["habit"])] = {
            "kind": row["kind"],
            "half": row["half"],
            "outcome": outcome,
        }
    return out


def _paired(base: list[bool], new: list[bool]) -> str:
    from citerag.eval.metrics import format_p, sign_test

    wins = sum(b and not a for a, b in zip(base, new, strict=True))
    losses = sum(a and not b for a, b in zip(base, new, strict=True))
    return f"+{wins}/−{losses} (p = {format_p(sign_test(wins, losses))})"


def measures(o: dict[tuple[str, str], dict[str, Any]], half: str) -> dict[str, dict[str, bool]]:
    """Per measure, per (question, habit) pair of ``half`` (``all``: both): whether it holds."""
    pairs = sorted(k for k, v in o.items() if k[1] and (half == "all" or v["half"] == half))
    out: dict[str, dict[str, bool]] = {
        "same outcome as asked plainly": {},
        "answerable answered right, with the habit": {},
        "unanswerable refused, with the habit": {},
    }
    for qid, habit in pairs:
        row, plain = o[(qid, habit)], o[(qid, "")]
        key = f"{qid}|{habit}"
        out["same outcome as asked plainly"][key] = row["outcome"] == plain["outcome"]
        if row["kind"] == "answerable":
            out["answerable answered right, with the habit"][key] = row["outcome"] == "right"
        else:
            out["unanswerable refused, with the habit"][key] = row["outcome"] == "refused"
    out["answerable answered right, asked plainly (same pairs)"] = {
        f"{q}|{h}": o[(q, "")]["outcome"] == "right"
        for q, h in pairs
        if o[(q, h)]["kind"] == "answerable"
    }
    out["unanswerable refused, asked plainly (same pairs)"] = {
        f"{q}|{h}": o[(q, "")]["outcome"] == "refused"
        for q, h in pairs
        if o[(q, h)]["kind"] != "answerable"
    }
    return out


def report(
    base: list[dict[str, Any]], new: list[dict[str, Any]], corpus: str = "faqset"
) -> tuple[dict[str, Any], str]:
    """The paired table, the per-habit table and their Markdown."""
    ob, on = outcomes(base, corpus), outcomes(new, corpus)
    rows: list[list[str]] = []
    for half in ("calibration", "test", "all"):
        mb, mn = measures(ob, half), measures(on, half)
        first = True
        for name in mb:
            keys = sorted(mb[name])
            b = [mb[name][k] for k in keys]
            n = [mn[name][k] for k in keys]
            label = f"{half} half" if first and half != "all" else ("both halves" if first else "")
            rows.append([label, name, rate_cell(b), rate_cell(n), _paired(b, n)])
            first = False
    paired_table = table(["questions × habits", "measure", "base", "new", "paired +/− (p)"], rows)
    per_habit: list[list[str]] = []
    for habit in HABITS:
        cells = [habit.name, habit_half(habit)]
        for o in (ob, on):
            keys = [k for k in o if k[1] == habit.name]
            same = sum(o[k]["outcome"] == o[(k[0], "")]["outcome"] for k in keys)
            cells.append(f"{same}/{len(keys)}")
        per_habit.append(cells)
    habit_table = table(
        ["habit", "half", "same outcome as plainly, base", "same outcome as plainly, new"],
        per_habit,
    )
    tables = {"paired": paired_table, "per-habit": habit_table}
    md = "\n\n".join(_markdown(t) for t in tables.values())
    return {"tables": tables}, md


def _markdown(t: dict[str, Any]) -> str:
    from benchmarks.report import render_table

    return render_table(t)


def main() -> int:
    """Run both versions (subprocesses, one after the other), then score and compare."""
    args = parse_as_side(_args)
    bundled_model_only(args, "benchmarks.prompt_habits")
    if args.worker:
        return worker(args)
    stem = _stem(args.corpus)
    sides = (("base", args.base), ("new", REPO))
    run_sides(
        "benchmarks.prompt_habits",
        sides,
        args,
        WORKER_KEYS,
        lambda v: args.out / f"{stem}-{v}.json",
    )
    base = json.loads((args.out / f"{stem}-base.json").read_text(encoding="utf-8"))
    new = json.loads((args.out / f"{stem}-new.json").read_text(encoding="utf-8"))
    data, md = report(base["records"], new["records"], args.corpus)
    write(args.out, stem, data, md)
    if args.corpus == "mixed":
        write_result("prompt_habits_mixed", data["tables"], data)
    else:
        write_result("prompt_habits", data["tables"], data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

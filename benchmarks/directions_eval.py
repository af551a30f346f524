"""Questions written as prompts: the ask apart from its directions, paired on filings.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.directions_eval [--base /tmp/dir-base]
        [--configs BASE NEW] [--sets financebench-dev,financebench] [--max-company-pages 450]

FinanceBench's questions are written the way people prompt a chat model: *"Assume that you
are a public equities analyst. Answer the following question by primarily using information
that is shown in the balance sheet: what is the year end FY2018 net PPNE for 3M? Answer in
USD billions."* This benchmark runs the same questions through the real compiled graph
(default settings, the extractive answerer) under two sides and pairs them:

* ``--base DIR`` (default): ``base`` is another checkout's library code (``git worktree add
  --detach /tmp/dir-base <commit>``), ``new`` this checkout's, both with default settings;
* ``--configs BASE NEW``: both sides run this checkout with two ``RAGConfig`` specs (the
  specs of ``citerag eval --generate``, e.g. ``directions=false default``).

Each side runs in a subprocess with its own library (:func:`benchmarks.common.
use_library_from`) over the same index: the one :mod:`benchmarks.structure_eval` builds
(``<work>/<set>/index-titles``, default chunking; built by it if missing, sentence vectors
off). Reported per set, for ``financebench-dev`` per half (the hash split of
:func:`benchmarks.constraints_eval.half`, fixed before any result) and for all questions,
with Wilson 95 % intervals and exact two-sided sign tests:

* page hit@1 / @4 / @8: a candidate within the first ``k`` on an evidence (document, page);
* answered, and **answered citing an evidence page** (a citation's document and page equal
  an evidence's: the quote sits where the answer is, which is not the same as a right
  answer: many questions ask for a ratio no page states);
* **answered quoting the gold figure**, for questions whose gold answer is an amount of
  money (``$1577.00``): a number of the cited quotes equals it within 1 %, as written or
  scaled by a thousand either way (millions against billions); the other questions (ratios,
  percentages, yes/no) are left out of this line;
* how many questions the new side read directions in (:mod:`chains.directions`).

Writes ``<out>/directions_eval.{json,md}``, each side's per-question outcomes
``<out>/directions_eval-<side>.json`` and ``benchmarks/results/directions_eval.json``.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from benchmarks.common import (
    REPO,
    cached_embeddings,
    log,
    model,
    parse_as_side,
    parser,
    run_worker,
    save_embeddings,
    write,
)

KS = (1, 4, 8)
SETS = "financebench-dev,financebench"
_MONEY = re.compile(r"^\$\s*(-?[\d,]+(?:\.\d+)?)\s*$")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_YEAR = re.compile(r"(?:19|20)\d\d")


def gold_figure(answer: str | None) -> float | None:
    """A gold answer that is an amount of money (``"$1577.00"`` -> 1577.0), else ``None``."""
    m = _MONEY.match((answer or "").strip())
    return float(m.group(1).replace(",", "")) if m else None


def states_figure(text: str, gold: float) -> bool:
    """Whether ``text`` has a number equal to ``gold`` within 1 %, as written or scaled by a
    thousand either way (a year, four digits from 1900 to 2099, is no amount)."""
    for m in _NUMBER.finditer(text):
        if _YEAR.fullmatch(m.group(0)):
            continue  # "Fiscal 2019" states no 2.019 billion
        try:
            n = float(m.group(0).replace(",", ""))
        except ValueError:
            continue
        if any(abs(n * s - abs(gold)) <= 0.01 * abs(gold) for s in (1.0, 1e-3, 1e3)):
            return True
    return False


def _args() -> argparse.Namespace:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--base", type=Path, default=Path("/tmp/dir-base"), help="base worktree")
    p.add_argument(
        "--configs", nargs=2, metavar=("BASE", "NEW"), help="two RAGConfig specs, this code"
    )
    p.add_argument("--sets", default=SETS, help=f"comma-separated data sets (default {SETS})")
    p.add_argument("--max-company-pages", type=int, default=450)
    p.add_argument("--worker", choices=("base", "new"), help=argparse.SUPPRESS)
    p.add_argument("--code", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--config", default="default", help=argparse.SUPPRESS)
    return p.parse_args()


def _index(name: str, args: argparse.Namespace) -> tuple[Any, Any]:
    """The data set and its default-chunking index: :mod:`benchmarks.structure_eval`'s
    ``titles`` one, reused when it exists."""
    from benchmarks.structure_eval import indexes

    chosen = argparse.Namespace(**{**vars(args), "configs": ["titles"], "reuse": True})
    prep, loaded, _ = indexes(name, chosen)
    return prep, loaded["titles"]


def worker(args: argparse.Namespace) -> int:
    """One side: every set's questions through the graph; per-question outcomes as JSON."""
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import EvalConfig, Evaluator, parse_config, run_generation
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    try:  # the new side's rule; a base without it read no directions
        from chains.directions import split_directions
    except ImportError:
        split_directions = None  # type: ignore[assignment]
    emb = cached_embeddings(args)
    cfg = parse_config(args.config)
    if not dict(cfg.configurable).get("directions", True):
        split_directions = None  # type: ignore[assignment]  # this side reads none
    out: dict[str, Any] = {"config": args.config, "code": str(args.code), "sets": {}}
    for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        prep, idx = _index(name, args)
        qs = [q for q in load_questions(prep.questions) if not q.unanswerable]
        answers = _gold_answers(Path(prep.questions))
        corpus = IndexedCorpus.from_store(idx.store, idx.manifest.documents)
        ev = Evaluator(idx.store, emb, corpus, calibration={}, manifest_id=idx.manifest_id)
        ranks = ev.run(qs, cfg, progress=not args.no_progress).answerable
        deps = GraphDeps.from_store(
            idx.store, embeddings=emb, manifest_id=idx.manifest_id, embedding_model=model().name
        )
        results = run_generation(
            build_graph(deps), qs, EvalConfig(cfg.name, cfg.configurable),
            progress=not args.no_progress,
        )  # fmt: skip
        rows = []
        for q, r, res in zip(qs, ranks, results, strict=True):
            gold = {(Path(e.doc).name, e.page) for e in q.evidence}
            cited = {
                (Path(str(c.get("doc_name") or "")).name, c.get("page"))
                for c in res.get("citations") or []
            }
            answered = res.get("status") == "answered"
            gold_money = gold_figure(answers.get(q.id))
            quotes = " ".join(str(c.get("quote") or "") for c in res.get("citations") or [])
            rows.append(
                {
                    "id": q.id,
                    "first_hit": r.first_hit,
                    "answered": answered,
                    "cites_evidence": answered and bool(gold & cited),
                    "states_gold": None
                    if gold_money is None
                    else answered and states_figure(quotes, gold_money),
                    "directions": len(split_directions(q.question).directions)
                    if split_directions is not None
                    else 0,
                    "reason": res.get("reason") or "",
                }
            )
        out["sets"][name] = rows
        log(f"{args.worker}: {name}: {len(rows)} questions")
    save_embeddings(emb, args)
    (args.out / f"directions_eval-{args.worker}.json").write_text(
        json.dumps(out, indent=1), encoding="utf-8"
    )
    return 0


def _gold_answers(path: Path) -> dict[str, str | None]:
    """Each question's gold answer from the set's ``questions.jsonl`` (``None`` if absent)."""
    out: dict[str, str | None] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["id"]] = row.get("answer")
    return out


def _subsets(name: str, rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    from benchmarks.constraints_eval import half

    if name != "financebench-dev":
        return {"all": rows}
    return {
        "calibration": [r for r in rows if half(r["id"]) == "calibration"],
        "test": [r for r in rows if half(r["id"]) == "test"],
        "all": rows,
    }


def _measures() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [
        (f"page hit@{k}", lambda r, k=k: r["first_hit"] is not None and r["first_hit"] <= k)
        for k in KS
    ]
    out.append(("answered", lambda r: r["answered"]))
    out.append(("answered citing an evidence page", lambda r: r["cites_evidence"]))
    out.append(("answered quoting the gold figure (money answers)", lambda r: r.get("states_gold")))
    return out


def report(base: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], str, list[Any]]:
    """Paired figures per set and subset: data, Markdown and the result table's rows."""
    from citerag.eval import metrics as stats

    data: dict[str, Any] = {"base": base["config"], "new": new["config"], "sets": {}}
    rows: list[list[str]] = []
    md = [
        "## Questions written as prompts (full graph, extractive answerer)\n",
        f"base: `{base['code']}` `{base['config']}`; new: `{new['code']}` `{new['config']}`\n",
        "| set | subset | measure | base | new | paired +/− (p) |",
        "|---|---|---|---|---|---|",
    ]
    for name, new_rows in new["sets"].items():
        by_id = {r["id"]: r for r in base["sets"][name]}
        for sub, part in _subsets(name, new_rows).items():
            pairs = [(by_id[r["id"]], r) for r in part]
            n = len(pairs)
            entry: dict[str, Any] = {
                "questions": n,
                "with_directions": sum(1 for _, r in pairs if r["directions"]),
            }
            label = f"{name}, {sub} ({n} q; {entry['with_directions']} with directions)"
            for i, (measure, ok) in enumerate(_measures()):
                # a measure that does not apply to a question (None) leaves it out
                kept = [(x, y) for x, y in pairs if ok(x) is not None and ok(y) is not None]
                m = len(kept)
                if not m:
                    continue
                was = [bool(ok(x)) for x, _ in kept]
                now = [bool(ok(y)) for _, y in kept]
                p = stats.paired(now, was, [y["id"] for _, y in kept])  # wins: the new side's
                cells = [f"{sum(v)}/{m} = {stats.Proportion(sum(v), m).fmt(2)}" for v in (was, now)]
                sign = f"+{p.wins}/−{p.losses} (p = {p.p_value:.3f})"
                md.append(f"| {name} | {sub} | {measure} | {cells[0]} | {cells[1]} | {sign} |")
                rows.append([label if i == 0 else "", measure, *cells, sign])
                entry[measure] = {
                    "questions": m,
                    "base": sum(was),
                    "new": sum(now),
                    "wins": p.wins,
                    "losses": p.losses,
                    "p": p.p_value,
                    "win_ids": list(p.win_ids),
                    "loss_ids": list(p.loss_ids),
                }
            data["sets"].setdefault(name, {})[sub] = entry
    return data, "\n".join(md), rows


def main() -> int:
    """Run both sides (subprocesses, one after the other), then pair them."""
    args = parse_as_side(_args)
    if args.worker:
        return worker(args)
    args.out.mkdir(parents=True, exist_ok=True)
    configs = args.configs or ["default", "default"]
    sides = (("base", REPO if args.configs else args.base), ("new", REPO))
    for (side, tree), config in zip(sides, configs, strict=True):
        log(f"{side}: code {tree}, config {config}")
        keys = ("work", "out", "data", "max_company_pages")
        extra = ["--config", config, "--sets", args.sets]
        run_worker("benchmarks.directions_eval", side, tree, args, keys, extra)
    base, new = (
        json.loads((args.out / f"directions_eval-{s}.json").read_text(encoding="utf-8"))
        for s in ("base", "new")
    )
    data, md, rows = report(base, new)
    write(args.out, "directions_eval", data, md)
    from benchmarks.results import table, write_result

    columns = ["set", "measure", "base", "new", "paired +/− (p)"]
    name = "directions_eval" if not args.configs else "directions_eval_configs"
    align = ["left", "left", "right", "right", "right"]
    write_result(name, {"paired": table(columns, rows, align)}, data)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Find the evidence in users' words: recall of the same facts asked two ways.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.users_words [--split calibration|test|both]
        [--variant SPEC ...] [--no-base]

The development set ``benchmarks/devset/questions.jsonl`` asks each of its 160 facts twice:
in the document's own words (``phrasing: "document"``) and as a user who has not read the
document would ask (``"user"``). This script runs both phrasings against the benchmark index
of the fact's corpus (SQuAD 2.0 articles, SciFact abstracts, FinanceBench filings — the
indexes ``benchmarks.common.dataset`` builds and caches under ``<work>/<set>/index`` — and the
sample corpus ``examples/corpus``) through the compiled graph's retrieval prefix
(:class:`citerag.eval.runner.Evaluator`: ``constrain`` → ``retrieve`` → ``rerank`` → ``gate``
→ ``assemble``), with the packaged gate defaults, and reports per half (``calibration``,
``test``) and phrasing:

* R@1 / R@4 / R@20 (95 % Wilson) for dense, BM25, hybrid and the default second stage
  (``hybrid`` + ``sentence-hybrid``). A hit is a retrieved chunk that contains the fact's
  evidence sentence (the needle, whitespace-normalised; :mod:`citerag.eval.evidence`).
* the **gap** — document R@4 minus user R@4 on the same facts — with a 95 % interval for a
  difference of paired proportions built from the two Wilson intervals (Newcombe 1998,
  method 10; :func:`paired_difference_interval`) and the exact sign test on the facts where
  the two phrasings disagree;
* for every ``--variant`` (a configuration spec of :func:`citerag.eval.runner.parse_config`,
  e.g. ``default:rrf_k=30``), paired exact sign tests against the default on the same
  questions, per phrasing, and its gap.

Writes ``<out>/users_words.{json,md}``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from benchmarks.common import (
    DEVSET,
    cached_embeddings,
    dataset,
    log,
    parser,
    sample,
    save_embeddings,
    write,
)
from benchmarks.results import table, write_result

CORPORA = ("squad", "scifact", "sample", "financebench")
PHRASINGS = ("document", "user")
SPLITS = ("calibration", "test")
KS = (1, 4, 20)
GAP_K = 4
BASE = ("dense", "bm25", "hybrid", "default")
DEFAULT = "default"


def paired_difference_interval(
    both: int, only_a: int, only_b: int, neither: int, z: float = 1.959964
) -> tuple[float, float, float]:
    """Difference of two paired proportions ``p_a - p_b`` with a Wilson-based 95 % interval.

    Newcombe's method 10 (Statist. Med. 1998;17:2635-50): the Wilson score intervals of the
    two marginal proportions, combined with the phi correlation of the paired outcomes.

    Args:
        both: Pairs where both succeed.
        only_a: Pairs where only A succeeds.
        only_b: Pairs where only B succeeds.
        neither: Pairs where neither succeeds.
        z: Normal quantile (1.96 for 95 %).

    Returns:
        ``(difference, low, high)``; ``(0, 0, 0)`` for no pairs.

    Raises:
        ValueError: If a count is negative.
    """
    from citerag.eval.metrics import wilson_interval

    counts = (both, only_a, only_b, neither)
    if any(c < 0 for c in counts):
        raise ValueError(f"counts must be non-negative, not {counts}")
    n = sum(counts)
    if n == 0:
        return 0.0, 0.0, 0.0
    a_k, b_k = both + only_a, both + only_b
    pa, pb = a_k / n, b_k / n
    la, ua = wilson_interval(a_k, n, z)
    lb, ub = wilson_interval(b_k, n, z)
    denom = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(denom) if denom else 0.0
    d = pa - pb
    lo = d - math.sqrt(max(0.0, (pa - la) ** 2 - 2 * phi * (pa - la) * (ub - pb) + (ub - pb) ** 2))
    hi = d + math.sqrt(max(0.0, (ua - pa) ** 2 - 2 * phi * (ua - pa) * (pb - lb) + (pb - lb) ** 2))
    return d, max(-1.0, lo), min(1.0, hi)


def gap_figures(doc_hits: Sequence[bool], user_hits: Sequence[bool], ids: Sequence[str]) -> dict:
    """Gap (document minus user) on the same facts: value, interval and sign test.

    Raises:
        ValueError: If the sequences differ in length.
    """
    from citerag.eval.metrics import paired

    pr = paired(doc_hits, user_hits, ids)
    d, lo, hi = paired_difference_interval(pr.both, pr.wins, pr.losses, pr.neither)
    return {"gap": d, "ci95": [lo, hi], "paired": pr}


def _fmt_gap(g: dict) -> str:
    lo, hi = g["ci95"]
    return f"{g['gap']:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--split", choices=[*SPLITS, "both"], default="both")
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        help="a configuration spec compared with the default (repeatable), e.g. 'default:rrf_k=30'",
    )
    p.add_argument("--no-base", action="store_true", help="only the default and the variants")
    p.add_argument("--stem", default="users_words", help="output file stem")
    args = p.parse_args()

    from citerag.eval import metrics as stats
    from citerag.eval import report
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import Evaluator, parse_config

    splits = SPLITS if args.split == "both" else (args.split,)
    dev = [
        q
        for q in load_questions(DEVSET)
        if q.meta.get("kind") == "answerable" and q.meta.get("split") in splits
    ]
    specs = ([DEFAULT] if args.no_base else list(BASE)) + [v for v in args.variant if v != DEFAULT]
    configs = [parse_config(s) for s in specs]
    emb = cached_embeddings(args)

    # question id -> config name -> QuestionResult
    results: dict[str, dict[str, Any]] = {}
    for corpus in CORPORA:
        qs = [q for q in dev if q.meta.get("corpus") == corpus]
        if not qs:
            continue
        if corpus == "sample":
            _, loaded = sample(args)
        else:
            _, loaded = dataset(corpus, args)
        docs = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        ev = Evaluator(loaded.store, emb, docs, calibration={}, manifest_id=loaded.manifest_id)
        for cfg in configs:
            run = ev.run(qs, cfg, progress=not args.no_progress)
            for r in run.results:
                results.setdefault(r.id, {})[cfg.name] = r
        save_embeddings(emb, args)
        log(f"{corpus}: {len(qs)} questions x {len(configs)} configurations")

    by_id = {q.id: q for q in dev}
    facts = sorted({str(q.meta["fact"]) for q in dev})

    def rid(fact: str, phrasing: str) -> str:
        return f"{fact}-{'doc' if phrasing == 'document' else 'user'}"

    def fact_split(fact: str) -> str:
        return str(by_id[rid(fact, "document")].meta["split"])

    def fact_corpus(fact: str) -> str:
        return str(by_id[rid(fact, "document")].meta["corpus"])

    data: dict[str, Any] = {"configs": {c.name: c.conf for c in configs}, "splits": {}}
    md = [
        "## Finding the evidence in users' words — `python -m benchmarks.users_words`\n",
        "Development set `benchmarks/devset/questions.jsonl`: each fact asked in the "
        "document's words and in a user's; a hit is a retrieved chunk containing the fact's "
        "evidence sentence. Gap = document R@4 − user R@4 on the same facts (95 % interval "
        "for paired proportions from the Wilson intervals, Newcombe method 10; sign test on "
        "the facts where the phrasings disagree).\n",
    ]
    for split in splits:
        fs = [f for f in facts if fact_split(f) == split]
        sdata: dict[str, Any] = {"facts": len(fs), "configs": {}}
        rows, gap_rows = [], []
        for cfg in configs:
            cdata: dict[str, Any] = {}
            for phr in PHRASINGS:
                rs = [results[rid(f, phr)][cfg.name] for f in fs]
                props = {k: stats.Proportion(sum(r.hit_at(k) for r in rs), len(rs)) for k in KS}
                cdata[phr] = {f"recall@{k}": v.to_json() for k, v in props.items()}
                rows.append([cfg.name, phr, len(rs), *[props[k].fmt() for k in KS]])
            ids = list(fs)
            g = gap_figures(
                [results[rid(f, "document")][cfg.name].hit_at(GAP_K) for f in fs],
                [results[rid(f, "user")][cfg.name].hit_at(GAP_K) for f in fs],
                ids,
            )
            cdata["gap"] = {
                "gap": round(g["gap"], 6),
                "ci95": [round(x, 6) for x in g["ci95"]],
                "paired": g["paired"].to_json(),
            }
            gap_rows.append(
                [
                    cfg.name,
                    _fmt_gap(g),
                    f"{g['paired'].wins}/{g['paired'].losses}",
                    stats.format_p(g["paired"].p_value),
                ]
            )
            per_corpus = {}
            for corpus in CORPORA:
                cf = [f for f in fs if fact_corpus(f) == corpus]
                if not cf:
                    continue
                per_corpus[corpus] = {
                    phr: stats.Proportion(
                        sum(results[rid(f, phr)][cfg.name].hit_at(GAP_K) for f in cf), len(cf)
                    ).to_json()
                    for phr in PHRASINGS
                }
            cdata["per_corpus_r4"] = per_corpus
            sdata["configs"][cfg.name] = cdata
        md += [
            f"\n### {split} half ({len(fs)} facts, each asked both ways)\n",
            report.table(["configuration", "phrasing", "n", *[f"R@{k}" for k in KS]], rows),
            "",
            f"Gap at R@{GAP_K} (document − user):\n",
            report.table(
                ["configuration", "gap [95 %]", "doc-only / user-only facts", "sign test p"],
                gap_rows,
            ),
            "",
            f"R@{GAP_K} per corpus (document / user):\n",
        ]
        corp_rows = []
        for cfg in configs:
            pc = sdata["configs"][cfg.name]["per_corpus_r4"]
            corp_rows.append(
                [cfg.name]
                + [
                    f"{pc[c]['document']['value']:.2f} / {pc[c]['user']['value']:.2f} "
                    f"(n={pc[c]['user']['n']})"
                    if c in pc
                    else "–"
                    for c in CORPORA
                ]
            )
        md.append(report.table(["configuration", *CORPORA], corp_rows))
        variants = [c for c in configs if c.name not in BASE]
        if variants:
            md.append(f"\nVariants against the default, paired on the same questions ({split}):\n")
            vrows = []
            for cfg in variants:
                for phr in PHRASINGS:
                    ids = [rid(f, phr) for f in fs]
                    cells = []
                    for k in KS:
                        pr = stats.paired(
                            [results[i][cfg.name].hit_at(k) for i in ids],
                            [results[i][DEFAULT].hit_at(k) for i in ids],
                            ids,
                        )
                        cells.append(pr.fmt())
                        sdata["configs"][cfg.name].setdefault("vs_default", {}).setdefault(phr, {})[
                            f"recall@{k}"
                        ] = pr.to_json()
                    vrows.append([cfg.name, phr, *cells])
            md.append(
                report.table(["variant vs default", "phrasing", *[f"R@{k}" for k in KS]], vrows)
            )
        data["splits"][split] = sdata
    data["per_question"] = {
        qid: {
            name: {"first_hit": r.first_hit, "top_docs": r.top_docs[:3]} for name, r in per.items()
        }
        for qid, per in results.items()
    }
    write(args.out, args.stem, data, "\n".join(md))
    test = data["splits"].get("test", {}).get("configs", {})
    cal = data["splits"].get("calibration", {}).get("configs", {})
    if not args.embedding_model and all(c in test and c in cal for c in BASE):  # the default run
        tables = {
            "gap": gap_table(test),
            "gap-calibration": gap_table(cal),
            "per-corpus": per_corpus_table(test),
        }
        write_result("users_words", tables, data["splits"])
    return 0


#: The docs' row labels of the configurations (the default in bold).
ROW_LABELS = {
    "dense": "dense",
    "bm25": "BM25",
    "hybrid": "hybrid (RRF)",
    "default": "**hybrid + `sentence-hybrid` (default)**",
}


def per_corpus_table(configs: dict[str, Any]) -> dict[str, Any]:
    """The result table ``per-corpus``: R@4 in the documents' / the users' words per corpus."""
    names = {"squad": "SQuAD", "scifact": "SciFact", "sample": "sample"}
    names["financebench"] = "FinanceBench"
    rows = []
    for name, label in ROW_LABELS.items():
        pc = configs[name]["per_corpus_r4"]
        rows.append(
            [label]
            + [
                f"{pc[c]['document']['value']:.2f} / {pc[c]['user']['value']:.2f}"
                if c in pc
                else "–"
                for c in CORPORA
            ]
        )
    return table([f"R@{GAP_K} document / user", *(names[c] for c in CORPORA)], rows)


def gap_table(configs: dict[str, Any]) -> dict[str, Any]:
    """The result table ``gap``: the test half's recall in the documents' and the users' words
    per configuration, and the gap at R@4 (document − user) with its interval and sign test."""
    from citerag.eval.metrics import format_p

    def value(c: dict[str, Any], phr: str, k: int, interval: bool = False) -> str:
        v = c[phr][f"recall@{k}"]
        if not interval:
            return f"{v['value']:.3f}"
        return f"{v['value']:.3f} [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}]"

    rows = []
    for name, label in ROW_LABELS.items():
        c = configs[name]
        g = c["gap"]
        gap = _fmt_gap(g)
        pr = g["paired"]
        gap += f" ({pr['wins']}/{pr['losses']} facts, p = {format_p(pr['p_sign_test'])})"
        rows.append(
            [
                label,
                value(c, "document", 1),
                value(c, "user", 1),
                value(c, "document", GAP_K),
                value(c, "user", GAP_K, interval=True),
                value(c, "document", 20),
                value(c, "user", 20),
                gap,
            ]
        )
    columns = ["configuration", "R@1 document", "R@1 user", "R@4 document", "R@4 user"]
    return table([*columns, "R@20 document", "R@20 user", "gap at R@4"], rows)


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "users_words_history": (
        "ideas measured in one-off scripts that are not kept, and MiniLM against mpnet "
        "from two runs"
    ),
}


if __name__ == "__main__":
    raise SystemExit(main())

"""Retrieval quality on FAISS vs PostgreSQL, same documents, paired (issue 13).

Usage (from the repository root)::

    nice -n 10 .venv/bin/python -m benchmarks.pg_quality [--datasets scifact,squad]
        [--configs dense,bm25,hybrid] [--limit N] [--pgdata benchmarks/out/work/pgdata]

For each data set, the evaluation harness's FAISS index (``benchmarks.common.dataset``:
``benchmarks/out/work/<set>/index``, default settings) and a PostgreSQL index of the **same
materialised documents** (``citerag.eval.adapters.ensure_index`` into the store URL
``...?namespace=pgq_<set>``, PostgreSQL from the ``pgserver`` wheel, see ``pg_store.py``) are
evaluated by the same ``citerag.eval.runner.Evaluator`` (the graph's retrieval prefix,
packaged gate defaults), each question through both. Reported per configuration: recall@1/4/
8/20 with 95 % Wilson intervals on each store, PostgreSQL-minus-FAISS difference and the exact
sign test on the questions where the stores disagree, and how often the two stores' top-5
chunks are the same (the keyword leg is Okapi BM25 on the in-process tokens in FAISS and BM25
on PostgreSQL's stemmed lexemes with a candidate budget in PostgreSQL; dense is flat vs HNSW).
SQuAD: answerable questions only (unanswerable ones carry no recall).

Writes ``benchmarks/out/pg_quality.{json,md}`` and ``pg_quality.png``.
"""

from __future__ import annotations

import subprocess
import time
from typing import Any

from benchmarks.common import (
    WORK,
    cached_embeddings,
    dataset,
    log,
    model,
    parser,
    pg_server,
    save_embeddings,
    store_url,
    write,
)
from benchmarks.results import table, write_result

KS = (1, 4, 8, 20)


def overlap_top5(a: Any, b: Any) -> float:
    """Mean share of the top-5 chunks two runs have in common (answerable questions)."""
    shares = []
    for ra, rb in zip(a.answerable, b.answerable, strict=True):
        if ra.top or rb.top:
            shares.append(len(set(ra.top) & set(rb.top)) / max(len(ra.top), len(rb.top)))
    return round(sum(shares) / len(shares), 4) if shares else float("nan")


def main() -> int:
    """Run the comparison."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--datasets", default="scifact,squad")
    p.add_argument("--configs", default="dense,bm25,hybrid")
    p.add_argument("--limit", type=int, help="only the first N answerable questions per set")
    p.add_argument("--pgdata", default=WORK / "pgdata")
    args = p.parse_args()

    from citerag.eval.adapters import ensure_index
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import Evaluator, compare, parse_config
    from citerag.stores.loaded import load_index
    from citerag.stores.postgres import keyword as pg_keyword

    configs = [parse_config(c) for c in args.configs.split(",") if c]
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    data: dict[str, Any] = {
        "sets": {},
        "keyword_leg": {"candidate_budget": pg_keyword.CANDIDATE_BUDGET, "commit": head},
    }
    md = [
        "## Retrieval quality, FAISS vs PostgreSQL (same documents, paired)\n",
        "Recall@k with 95 % Wilson intervals; Δ = PostgreSQL − FAISS in points; W/L = "
        "questions only PostgreSQL / only FAISS gets (exact two-sided sign test p); top-5 "
        "same = mean share of the top-5 chunks both stores return. PostgreSQL keyword leg: "
        f"BM25 on lexemes, candidate budget {pg_keyword.CANDIDATE_BUDGET} (code at {head}).\n",
    ]
    emb = cached_embeddings(args)
    with pg_server(args.pgdata) as uri:
        for name in [d for d in args.datasets.split(",") if d]:
            t0 = time.perf_counter()
            prep, faiss_idx = dataset(name, args)
            url = store_url(uri, f"pgq_{name}")
            t1 = time.perf_counter()
            rep = ensure_index(prep, url, model(), progress=not args.no_progress)
            log(f"{name}: PostgreSQL index {rep.summary()} ({time.perf_counter() - t1:.0f} s)")
            pg_idx = load_index(url, model())
            qs = [q for q in load_questions(prep.questions) if not q.unanswerable][: args.limit]
            stores = {"faiss": faiss_idx, "postgres": pg_idx}
            evs = {
                s: Evaluator(
                    idx.store,
                    emb,
                    IndexedCorpus.from_store(idx.store, idx.manifest.documents),
                    calibration={},
                    manifest_id=idx.manifest_id,
                )
                for s, idx in stores.items()
            }
            set_out: dict[str, Any] = {
                "questions": len(qs),
                "chunks": {s: len(ev.corpus) for s, ev in evs.items()},
                "configs": {},
            }
            md += [
                f"\n### {name} ({len(qs)} answerable questions; chunks: FAISS "
                f"{set_out['chunks']['faiss']}, PostgreSQL {set_out['chunks']['postgres']})\n",
                "| configuration | store | " + " | ".join(f"R@{k}" for k in KS) + " | top-5 same |",
                "|---|---|" + "---:|" * (len(KS) + 1),
            ]
            cmp_rows = []
            for cfg in configs:
                runs = {s: ev.run(qs, cfg, progress=not args.no_progress) for s, ev in evs.items()}
                comp = compare(runs["postgres"], runs["faiss"], KS)
                same = overlap_top5(runs["postgres"], runs["faiss"])
                summ = {s: r.summary(KS) for s, r in runs.items()}
                set_out["configs"][cfg.name] = {
                    "faiss": summ["faiss"],
                    "postgres": summ["postgres"],
                    "postgres_vs_faiss": {m: v.to_json() for m, v in comp.items()},
                    "top5_same": same,
                }
                for s, r in runs.items():
                    obj = r.summary_objects(KS)
                    md.append(
                        f"| {cfg.name} | {s} | "
                        + " | ".join(obj[f"recall@{k}"].fmt() for k in KS)
                        + f" | {same if s == 'postgres' else ''} |"
                    )
                n = len(runs["faiss"].answerable)
                cells = []
                for k in KS:
                    pr = comp[f"recall@{k}"]
                    delta = 100.0 * (pr.wins - pr.losses) / n if n else 0.0
                    cells.append(f"{delta:+.1f} ({pr.wins}/{pr.losses}, p={pr.p_value:.3g})")
                cmp_rows.append(f"| {cfg.name} | " + " | ".join(cells) + " |")
                save_embeddings(emb, args)
            md += [
                "",
                "PostgreSQL vs FAISS, Δ points (W/L, sign test):\n",
                "| configuration | " + " | ".join(f"R@{k}" for k in KS) + " |",
                "|---|" + "---:|" * len(KS),
                *cmp_rows,
            ]
            set_out["seconds"] = round(time.perf_counter() - t0, 1)
            data["sets"][name] = set_out
            for idx in stores.values():
                close = getattr(idx.store, "close", None)
                if close:
                    close()
    png = plot(data, args.out / "pg_quality.png")
    if png:
        data["plot"] = str(png)
        md += ["", f"Plot: `{png}`"]
    write(args.out, "pg_quality", data, "\n".join(md))
    write_result("pg_quality", {"paired": paired_table(data)}, data)
    return 0


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "pg_quality_history": (
        "the top-5 overlap of the stores, which the run reports per set and configuration, "
        "summarised by hand over both sets"
    ),
}


#: The docs' names of the data sets and configurations (the default configuration in bold).
SET_LABELS = {"squad": "SQuAD", "scifact": "SciFact", "financebench": "FinanceBench"}
CONFIG_LABELS = {"dense": "dense", "bm25": "keyword", "hybrid": "**hybrid**"}


def paired_table(data: dict[str, Any]) -> dict[str, Any]:
    """The result table ``paired``: R@1 per store, and PostgreSQL − FAISS at R@1 / 4 / 20 in
    points with the questions only one store gets and the sign test's p."""

    def recall(s: dict[str, Any]) -> str:
        lo, hi = s["ci95"]
        return f"{s['value']:.3f} [{lo:.3f}, {hi:.3f}]"

    def delta(pr: dict[str, Any], n: int) -> str:
        w, losses = pr["wins"], pr["losses"]
        points = f"{100.0 * (w - losses) / n if n else 0.0:+.1f}".replace("-", "−")
        if not w and not losses:
            return f"{points} (0/0)"
        return f"{points} ({w}/{losses}, p={pr['p_sign_test']:.2g})"

    rows = []
    for name, entry in data["sets"].items():
        for i, (cfg, c) in enumerate(entry["configs"].items()):
            n = c["faiss"]["recall@1"]["n"]
            label = SET_LABELS.get(name, name) + (f" ({entry['questions']:,})" if i == 0 else "")
            cmp = c["postgres_vs_faiss"]
            rows.append(
                [label, CONFIG_LABELS.get(cfg, cfg)]
                + [recall(c["faiss"]["recall@1"]), recall(c["postgres"]["recall@1"])]
                + [delta(cmp[f"recall@{k}"], n) for k in (1, 4, 20)]
            )
    columns = ["set", "configuration", "FAISS R@1", "PostgreSQL R@1", "Δ R@1 (W/L, p)"]
    return table([*columns, "Δ R@4", "Δ R@20"], rows, ["left", "left"] + ["right"] * 5)


def plot(data: dict[str, Any], path: Any) -> Any:
    """R@k with Wilson bars, FAISS vs PostgreSQL, per set and configuration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sets = list(data["sets"])
    if not sets:
        return None
    fig, axes = plt.subplots(1, len(sets), figsize=(6 * len(sets), 4), squeeze=False)
    for ax, name in zip(axes[0], sets, strict=True):
        cfgs = data["sets"][name]["configs"]
        for i, (cfg, res) in enumerate(cfgs.items()):
            for store, mk in (("faiss", "o-"), ("postgres", "s--")):
                vals = [res[store][f"recall@{k}"] for k in KS]
                y = [v["value"] for v in vals]
                err = [
                    [v["value"] - v["ci95"][0] for v in vals],
                    [v["ci95"][1] - v["value"] for v in vals],
                ]
                ax.errorbar(
                    [k * (1 + 0.03 * (store == "postgres")) for k in KS],
                    y,
                    yerr=err,
                    fmt=mk,
                    color=f"C{i}",
                    capsize=2,
                    label=f"{cfg} ({store})",
                )
        ax.set_xscale("log")
        ax.set_xticks(list(KS), [str(k) for k in KS])
        ax.set_xlabel("k")
        ax.set_ylabel("recall@k (95 % Wilson)")
        ax.set_title(f"{name}: {data['sets'][name]['questions']} answerable questions")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


if __name__ == "__main__":
    raise SystemExit(main())

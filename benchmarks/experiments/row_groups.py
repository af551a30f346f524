"""Table rows as units on filings: row groups against the default chunking, paired.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.row_groups [--embed-chars 700,350]
        [--max-company-pages 450] [--reuse] [--work DIR]

``financebench-dev`` cut by ``--max-company-pages`` (the rule of ``constraints_eval.py``: 40
filings of 21 companies, 50 questions at 450) is indexed with the default chunking
(``titles``: plain splitting, a chunk cut from a titled table carrying the title; the
``index-titles`` of ``structure_eval.py``, shared with it) and once per ``--embed-chars``
value with ``ChunkSettings(table_rows=True)``: every table chunked by whole rows, each row
group's embedded text carrying the table's title and each row with its column headers
(``Operating income — December 2, 2022: 6,098; …``), groups closed at that many characters of
embedded rows (:data:`loaders.chunking.TABLE_EMBED_CHARS`, 700 by default; numbers cost
several word pieces each, and the embedding model reads about 256). Sentence vectors are off
in every index, as in ``structure_eval.py``. Each index is queried through the evaluation
runner (the compiled graph's retrieval: hybrid search, constraints, second stage) and the
whole graph with the default extractive answerer; per half (``constraints_eval.half``, fixed
before any result): page hit@1/4/8 and questions answered citing an evidence page, Wilson
95 %, paired exact sign tests against the default chunking, and the chunks and over-window
chunks of each index. Writes ``benchmarks/results/row_groups.json``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from benchmarks.common import cached_embeddings, log, model, parser, save_embeddings
from benchmarks.results import rate_cell, table, write_result

#: Page hit cut-offs reported.
KS = (1, 4, 8)


def _index(prep: Any, name: str, settings: Any, embed_chars: int | None, args: Any) -> Any:
    """Build (or with ``--reuse`` load) ``<set>/index-<name>``; row groups closed at
    ``embed_chars`` characters of embedded rows when given."""
    import loaders.chunking as chunking
    from citerag.eval.adapters import ensure_index
    from citerag.stores.loaded import load_index

    folder = Path(prep.root) / f"index-{name}"
    if not (args.reuse and (folder / "current").exists()):
        saved = chunking.TABLE_EMBED_CHARS
        if embed_chars is not None:
            chunking.TABLE_EMBED_CHARS = embed_chars
        try:
            t0 = time.perf_counter()
            report = ensure_index(
                prep,
                folder,
                model(),
                chunking=settings,
                sentence_vectors=False,
                progress=not args.no_progress,
            )
            log(f"{name}: {report.summary()} ({time.perf_counter() - t0:.0f} s)")
        finally:
            chunking.TABLE_EMBED_CHARS = saved
    return load_index(folder, model())


def main() -> int:
    """Run the study."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--embed-chars", default="700,350", help="row-group sizes to index")
    p.add_argument("--max-company-pages", type=int, default=450)
    p.add_argument("--reuse", action="store_true", help="query existing indexes as they are")
    args = p.parse_args()

    from benchmarks.structure_eval import _answered_with_evidence, half
    from citerag.eval import metrics as stats
    from citerag.eval.adapters import prepare
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import Evaluator, parse_config
    from loaders.chunking import ChunkSettings

    prep = prepare(
        "financebench-dev", args.data, args.work, max_company_pages=args.max_company_pages
    )
    qs = [q for q in load_questions(prep.questions) if not q.unanswerable]
    emb = cached_embeddings(args)
    sizes = [int(x) for x in args.embed_chars.split(",") if x.strip()]
    configs: list[tuple[str, Any, int | None]] = [("titles", ChunkSettings(), None)]
    configs += [(f"rows-{n}", ChunkSettings(table_rows=True), n) for n in sizes]
    measures: dict[str, dict[str, list[bool]]] = {}
    chunks: dict[str, dict[str, int]] = {}
    for name, settings, embed_chars in configs:
        idx = _index(prep, name, settings, embed_chars, args)
        corpus = IndexedCorpus.from_store(idx.store, idx.manifest.documents)
        ev = Evaluator(idx.store, emb, corpus, calibration={}, manifest_id=idx.manifest_id)
        res = ev.run(qs, parse_config("default"), progress=not args.no_progress).answerable
        got = {f"page hit@{k}": [r.hit_at(k) for r in res] for k in KS}
        got["answered citing an evidence page"] = _answered_with_evidence(
            idx, emb, qs, not args.no_progress
        )
        measures[name] = got
        docs = idx.manifest.documents.values()
        chunks[name] = {
            "chunks": sum(int(d.get("chunks") or 0) for d in docs),
            "over_window": sum(int(d.get("over_window_chunks") or 0) for d in docs),
        }
    save_embeddings(emb, args)

    halves = [half(q.id) for q in qs]
    rows: list[list[str]] = []
    for part in ("calibration", "test", "all"):
        sel = [i for i, h in enumerate(halves) if part == "all" or h == part]
        label = f"{part} ({len(sel)} q)"
        for measure in measures["titles"]:
            base = [measures["titles"][measure][i] for i in sel]
            cells = [label, measure, rate_cell(base)]
            for name, _s, _n in configs[1:]:
                new = [measures[name][measure][i] for i in sel]
                pr = stats.paired(new, base)  # wins: the row groups' hits the default misses
                cells.append(f"{rate_cell(new)} (+{pr.wins}/−{pr.losses}, p = {pr.p_value:.2f})")
            rows.append(cells)
            label = ""
    names = [name for name, _s, _n in configs[1:]]
    result = table(
        ["questions", "measure", "titles (default)", *[f"{n} (paired)" for n in names]],
        rows,
        ["left", "left", *["right"] * (1 + len(names))],
    )
    sizes_table = table(
        ["index", "chunks", "chunks over the model's window"],
        [[n, f"{c['chunks']:,}", f"{c['over_window']:,}"] for n, c in chunks.items()],
    )
    data = {
        "questions": [q.id for q in qs],
        "halves": halves,
        "measures": measures,
        "chunks": chunks,
        "max_company_pages": args.max_company_pages,
    }
    path = write_result("row_groups", {"paired": result, "chunks": sizes_table}, data)
    log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

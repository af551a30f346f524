"""Ingest throughput benchmark on the shared public evaluation data.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.ingest_benchmark [--data ../shared/data] [--out benchmarks/out]
        [--limit-squad N] [--limit-scifact N] [--limit-pdfs N] [--batch-size 64]
        [--no-second-config] [--profile] [--keep-tmp]

What it does:

1. Materialises the evaluation sets as files in a temporary folder outside the repository:
   every SQuAD 2.0 dev paragraph and every SciFact abstract as one ``.txt`` (title line, blank
   line, text), plus symlinks to the FinanceBench PDFs.
2. Ingests that folder with :func:`citerag.index.ingest.ingest` into a temporary index, once
   with the default settings (sentence vectors on) and once with ``sentence_vectors=False``.
3. Times the embedding model ALONE on exactly the texts each ingest embedded (chunk texts plus
   sentence texts, rebuilt with ``process_file`` + ``sentence_spans`` and sent in the same
   64-chunk batches the store uses), and the PDF parser alone per page.
4. Prints a results table and a Markdown table, writes ``<out>/ingest.json``.

Every measurement runs in a fresh child process (this script re-invoked with ``--child``) so
that peak RSS (``ru_maxrss`` of the child and of its own children, i.e. the parse worker) and
timings of one configuration are not polluted by another. Each child loads the model and runs
one warm-up embedding before the clock starts.

The ingest children are lightly instrumented (perf_counter wrappers only, no behaviour change):
time spent inside ``embed_documents``, inside ``count_tokens``, blocked waiting for the parse
worker, inside ``langchain_core.indexing.index``, ``CiteragStore.save`` and ``commit_build``.
``--no-instrument`` turns that off; ``--profile`` additionally runs the default ingest under
cProfile and writes ``<out>/ingest_profile.prof`` plus a top-40 listing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # as the CLI does


# --------------------------------------------------------------------------------------------
# data materialisation
# --------------------------------------------------------------------------------------------


def _safe(name: str) -> str:
    keep = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)
    return keep.strip("_")[:80] or "untitled"


def materialise(
    data: Path,
    corpus: Path,
    limit_squad: int | None,
    limit_scifact: int | None,
    limit_pdfs: int | None,
) -> dict[str, int]:
    """Write the evaluation sets as files under ``corpus``; return file counts per set."""
    counts = {"squad": 0, "scifact": 0, "financebench": 0}
    squad_dir = corpus / "squad"
    scifact_dir = corpus / "scifact"
    pdf_dir = corpus / "financebench"
    for d in (squad_dir, scifact_dir, pdf_dir):
        d.mkdir(parents=True, exist_ok=True)

    squad = json.loads((data / "squad2-dev" / "dev-v2.0.json").read_text(encoding="utf-8"))
    n = 0
    for article in squad["data"]:
        title = article["title"]
        for i, para in enumerate(article["paragraphs"]):
            if limit_squad is not None and n >= limit_squad:
                break
            text = f"{title.replace('_', ' ')}\n\n{para['context'].strip()}\n"
            (squad_dir / f"{_safe(title)}_{i:03d}.txt").write_text(text, encoding="utf-8")
            n += 1
    counts["squad"] = n

    n = 0
    with (data / "scifact-1k" / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            if limit_scifact is not None and n >= limit_scifact:
                break
            rec = json.loads(line)
            text = f"{rec['title'].strip()}\n\n{rec['text'].strip()}\n"
            (scifact_dir / f"{_safe(str(rec['_id']))}.txt").write_text(text, encoding="utf-8")
            n += 1
    counts["scifact"] = n

    pdfs = sorted((data / "financebench" / "pdfs").glob("*.pdf"))
    if limit_pdfs is not None:
        pdfs = pdfs[:limit_pdfs]
    for p in pdfs:
        os.symlink(p.resolve(), pdf_dir / p.name)
    counts["financebench"] = len(pdfs)
    return counts


# --------------------------------------------------------------------------------------------
# helpers used in the children
# --------------------------------------------------------------------------------------------


def _rss_peaks_mb() -> dict[str, float]:
    """Peak RSS (MiB) of this process and of its largest waited-for child (Linux: KiB units)."""
    scale = 1024.0 if sys.platform != "darwin" else 1024.0 * 1024.0
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "self": round(self_kb / scale, 1),
        "children": round(child_kb / scale, 1),
        "total": round((self_kb + child_kb) / scale, 1),
    }


def _load_model(torch_threads: int | None = None) -> tuple[Any, float]:
    import warnings

    if torch_threads:
        import torch

        torch.set_num_threads(torch_threads)

    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message=".*langchain-community.*")
    from citerag.embeddings import load_embedding_model

    t0 = time.perf_counter()
    model = load_embedding_model()
    model.embeddings.embed_documents(
        ["warm-up sentence one.", "A second, longer warm-up text. It has two sentences."]
    )
    return model, time.perf_counter() - t0


def _dir_bytes(folder: Path) -> tuple[int, dict[str, int]]:
    files = {f.name: f.stat().st_size for f in folder.iterdir() if f.is_file()}
    return sum(files.values()), files


class _Timers:
    """Accumulates wall time of instrumented calls."""

    def __init__(self) -> None:
        self.t: dict[str, float] = {}
        self.n: dict[str, int] = {}

    def add(self, key: str, dt: float, n: int = 1) -> None:
        self.t[key] = self.t.get(key, 0.0) + dt
        self.n[key] = self.n.get(key, 0) + n


def _instrument(timers: _Timers, parse_log: list[dict[str, Any]]) -> None:
    """Wrap library entry points with perf_counter timers (no behaviour change)."""
    import citerag.index.ingest as ing
    from citerag.embeddings import EmbeddingModel
    from citerag.stores.faiss.store import CiteragStore

    orig_iter = ing._process_iter
    orig_index = ing.lc_index
    orig_commit = ing.commit_build
    orig_add = CiteragStore.add_documents
    orig_save = CiteragStore.save
    orig_count = EmbeddingModel.count_tokens
    t_start = [0.0]

    def process_iter(todo, chunking, workers, *rest):  # type: ignore[no-untyped-def]
        gen = orig_iter(todo, chunking, workers, *rest)
        timers.n["workers"] = workers
        t_start[0] = time.perf_counter()
        while True:
            t0 = time.perf_counter()
            try:
                pf = next(gen)
            except StopIteration:
                timers.add("wait_for_parser", time.perf_counter() - t0)
                return
            dt = time.perf_counter() - t0
            timers.add("wait_for_parser", dt)
            parse_log.append(
                {
                    "source": pf.source.source,
                    "status": pf.status,
                    "file_type": pf.info.get("file_type", ""),
                    "pages": pf.info.get("pages") or 0,
                    "chunks": len(pf.chunks),
                    "parse_s": pf.parse_seconds,
                    "wait_s": dt,
                    "received_at_s": time.perf_counter() - t_start[0],
                }
            )
            yield pf

    def lc_index(*a, **k):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        try:
            return orig_index(*a, **k)
        finally:
            timers.add("lc_index", time.perf_counter() - t0)

    def commit(*a, **k):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        try:
            return orig_commit(*a, **k)
        finally:
            timers.add("commit_build", time.perf_counter() - t0)

    def add_documents(self, documents, **kwargs):  # type: ignore[no-untyped-def]
        emb = self._embedding
        if not getattr(emb, "_bench_wrapped", False):
            orig_embed = emb.embed_documents

            def embed_documents(texts):  # type: ignore[no-untyped-def]
                t0 = time.perf_counter()
                try:
                    return orig_embed(texts)
                finally:
                    timers.add("embed_documents", time.perf_counter() - t0, len(texts))

            object.__setattr__(emb, "embed_documents", embed_documents)
            object.__setattr__(emb, "_bench_wrapped", True)
        t0 = time.perf_counter()
        try:
            return orig_add(self, documents, **kwargs)
        finally:
            timers.add("store_add_documents", time.perf_counter() - t0, len(documents))

    def save(self, folder):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        try:
            return orig_save(self, folder)
        finally:
            timers.add("store_save", time.perf_counter() - t0)

    def count_tokens(self, texts):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        try:
            return orig_count(self, texts)
        finally:
            timers.add("count_tokens", time.perf_counter() - t0, len(texts))

    ing._process_iter = process_iter
    ing.lc_index = lc_index
    ing.commit_build = commit
    CiteragStore.add_documents = add_documents
    CiteragStore.save = save
    EmbeddingModel.count_tokens = count_tokens


def _use_small_first_order() -> None:
    """EXPERIMENT (not library behaviour): hand the parse worker the smallest files first.

    With one worker the pool parses in submission order, so the main process cannot start
    embedding before the FIRST file is parsed; sorted by path, that is a 99-page PDF here.
    """
    import citerag.index.ingest as ing

    orig = ing._process_iter

    def process_iter(todo, chunking, workers, *rest):  # type: ignore[no-untyped-def]
        order = sorted(todo, key=lambda s: (s.path.suffix.lower() == ".pdf", s.path.stat().st_size))
        yield from orig(order, chunking, workers, *rest)

    ing._process_iter = process_iter


def child_ingest(args: argparse.Namespace) -> dict[str, Any]:
    """Run one ingest configuration and return its measurements."""
    from citerag.index.ingest import ingest
    from citerag.stores.faiss.builds import current_build

    model, load_s = _load_model(args.torch_threads)
    if args.iter_order == "small-first":
        _use_small_first_order()
    timers = _Timers()
    parse_log: list[dict[str, Any]] = []
    if not args.no_instrument:
        _instrument(timers, parse_log)
    cpu0 = os.times()
    kwargs: dict[str, Any] = {
        "sentence_vectors": args.sentence_vectors,
        "batch_size": args.batch_size,
        "progress": True,
    }
    if args.workers is not None:
        kwargs["workers"] = args.workers
    prof = None
    if args.profile_to:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    t0 = time.perf_counter()
    report = ingest([Path(args.corpus)], Path(args.index), model, **kwargs)
    wall = time.perf_counter() - t0
    if prof is not None:
        prof.disable()
        prof.dump_stats(args.profile_to)
    cpu1 = os.times()
    build = current_build(Path(args.index))
    total_bytes, files = _dir_bytes(build) if build else (0, {})
    pdf_rows = [r for r in parse_log if r["file_type"] == "pdf" and r["status"] == "ok"]
    return {
        "sentence_vectors": args.sentence_vectors,
        "workers": timers.n.get("workers", args.workers),
        "model_load_and_warmup_s": round(load_s, 3),
        "wall_s": wall,
        "report": {
            **report.summary(),
            "seconds": report.seconds,
            "parse_seconds": report.parse_seconds,
            "pages": report.pages,
        },
        "documents": len(report.indexed) + len(report.updated) + len(report.failed),
        "cpu_total_s": (cpu1.user - cpu0.user)
        + (cpu1.system - cpu0.system)
        + (cpu1.children_user - cpu0.children_user)
        + (cpu1.children_system - cpu0.children_system),
        "cpu_s": {
            "user_self": cpu1.user - cpu0.user,
            "sys_self": cpu1.system - cpu0.system,
            "user_children": cpu1.children_user - cpu0.children_user,
            "sys_children": cpu1.children_system - cpu0.children_system,
        },
        "peak_rss_mb": _rss_peaks_mb(),
        "index_bytes": total_bytes,
        "index_files": files,
        "timers_s": {k: round(v, 4) for k, v in timers.t.items()},
        "timer_calls": timers.n,
        "pdf_in_ingest": {
            "pages": sum(r["pages"] for r in pdf_rows),
            "parse_s": sum(r["parse_s"] for r in pdf_rows),
            "wait_s": sum(r["wait_s"] for r in pdf_rows),
            "per_file": pdf_rows,
        },
        "first_received_at_s": parse_log[0]["received_at_s"] if parse_log else None,
        "waits_over_50ms": sorted(
            (
                {
                    "source": r["source"],
                    "wait_s": round(r["wait_s"], 3),
                    "received_at_s": round(r["received_at_s"], 2),
                }
                for r in parse_log
                if r["wait_s"] > 0.05
            ),
            key=lambda r: -r["wait_s"],
        )[:15],
    }


def _rebuild_batches(
    corpus: Path,
    batch_size: int,
    sentence_vectors: bool,
) -> tuple[list[list[str]], int, dict[str, Any]]:
    """Rebuild the texts the store embeds, grouped exactly as ingest batches them."""
    from citerag.index.ingest import collect_sources
    from loaders.chunking import ChunkSettings
    from loaders.pipeline import process_file
    from loaders.sentences import sentence_spans

    sources, _ = collect_sources([corpus])
    settings = ChunkSettings()
    chunks = []
    parse_all = 0.0
    pdf_pages = 0
    pdf_parse = 0.0
    per_pdf = []
    for src in sources:
        pf = process_file(src, settings)
        parse_all += pf.parse_seconds
        if pf.status != "ok":
            continue
        if pf.info.get("file_type") == "pdf":
            pdf_pages += pf.info.get("pages") or 0
            pdf_parse += pf.parse_seconds
            per_pdf.append(
                {
                    "source": src.source,
                    "pages": pf.info.get("pages"),
                    "chunks": len(pf.chunks),
                    "parse_s": round(pf.parse_seconds, 3),
                    "ms_per_page": round(
                        1000 * pf.parse_seconds / max(1, pf.info.get("pages") or 1), 1
                    ),
                }
            )
        chunks.extend(pf.chunks)
    batches = []
    for i in range(0, len(chunks), batch_size):
        part = chunks[i : i + batch_size]
        texts = [c.text for c in part]
        if sentence_vectors:
            for c in part:
                texts.extend(c.content[s:e] for s, e in sentence_spans(c.content))
        batches.append(texts)
    pdf = {
        "pages": pdf_pages,
        "parse_s": pdf_parse,
        "per_file": per_pdf,
        "all_documents_parse_s": parse_all,
    }
    return batches, len(chunks), pdf


def child_embed(args: argparse.Namespace) -> dict[str, Any]:
    """Time the embedding model alone on the texts one ingest configuration embeds."""
    model, load_s = _load_model(args.torch_threads)
    t0 = time.perf_counter()
    batches, n_chunks, pdf = _rebuild_batches(
        Path(args.corpus), args.batch_size, args.sentence_vectors
    )
    rebuild_s = time.perf_counter() - t0
    n_texts = sum(len(b) for b in batches)
    emb = model.embeddings
    cpu0 = os.times()
    t0 = time.perf_counter()
    for b in batches:
        emb.embed_documents(b)
    embed_s = time.perf_counter() - t0
    cpu1 = os.times()
    out: dict[str, Any] = {
        "sentence_vectors": args.sentence_vectors,
        "model_load_and_warmup_s": round(load_s, 3),
        "chunks": n_chunks,
        "texts": n_texts,
        "batches": len(batches),
        "rebuild_texts_s": round(rebuild_s, 3),
        "embed_s": embed_s,
        "embed_cpu_s": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
        "pdf_parse_isolated": pdf,
        "peak_rss_mb": _rss_peaks_mb(),
    }
    if args.embed_one_call:
        flat = [t for b in batches for t in b]
        t0 = time.perf_counter()
        emb.embed_documents(flat)
        out["embed_one_call_s"] = time.perf_counter() - t0
    return out


# --------------------------------------------------------------------------------------------
# orchestration
# --------------------------------------------------------------------------------------------


def _git_state() -> dict[str, Any]:
    def run(*cmd: str) -> str:
        try:
            return subprocess.run(
                cmd, cwd=REPO, capture_output=True, text=True, check=False
            ).stdout.strip()
        except OSError:
            return ""

    dirty = [
        ln[3:]
        for ln in run("git", "status", "--porcelain").splitlines()
        if ln[3:].startswith(("citerag/", "loaders/"))
    ]
    return {"head": run("git", "rev-parse", "--short", "HEAD"), "dirty_library_files": dirty}


def _run_child(
    mode: str,
    args: argparse.Namespace,
    corpus: Path,
    tmp: Path,
    *,
    sentence_vectors: bool,
    index: Path | None = None,
    profile_to: Path | None = None,
    label: str = "",
) -> dict[str, Any]:
    result = tmp / f"result-{mode}-{int(sentence_vectors)}-{time.time_ns()}.json"
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        mode,
        "--corpus",
        str(corpus),
        "--result",
        str(result),
        "--batch-size",
        str(args.batch_size),
        "--iter-order",
        args.iter_order,
    ]
    if sentence_vectors:
        cmd.append("--sentence-vectors")
    if index is not None:
        if index.exists():
            shutil.rmtree(index)
        cmd += ["--index", str(index)]
    if args.workers is not None:
        cmd += ["--workers", str(args.workers)]
    if args.torch_threads:
        cmd += ["--torch-threads", str(args.torch_threads)]
    if args.no_instrument:
        cmd.append("--no-instrument")
    if profile_to is not None:
        cmd += ["--profile-to", str(profile_to)]
    if args.embed_one_call:
        cmd.append("--embed-one-call")
    load_before = os.getloadavg()[0]
    print(
        f"\n== {label or mode} (sentence_vectors={sentence_vectors}); "
        f"1-min load average before: {load_before:.2f}",
        flush=True,
    )
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=str(REPO))
    print(
        f"   done in {time.perf_counter() - t0:.1f} s (child process incl. model load); "
        f"load average after: {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    res = json.loads(result.read_text())
    res["loadavg_1min_before"] = load_before
    res["loadavg_1min_after"] = os.getloadavg()[0]
    return res


def _best(runs: list[dict[str, Any]], key: Any) -> dict[str, Any]:
    return min(runs, key=key)


def _row(
    name: str, ing: dict[str, Any], emb: dict[str, Any], pdf_ms_page: float | None
) -> dict[str, Any]:
    rep = ing["report"]
    chunks = rep["chunks_added"]
    total = rep["seconds"]
    embed_alone = emb["embed_s"]
    return {
        "config": name,
        "documents": ing["documents"],
        "failed": len(rep["failed"]),
        "chunks": chunks,
        "embedded_texts": rep["embedded_texts"],
        "embed_alone_texts": emb["texts"],
        "total_s": round(total, 2),
        "chunks_per_s": round(chunks / total, 1) if total else None,
        "ms_per_chunk": round(1000 * total / chunks, 2) if chunks else None,
        "pdf_parse_ms_per_page": round(pdf_ms_page, 1) if pdf_ms_page is not None else None,
        "embed_alone_s": round(embed_alone, 2),
        "overhead_pct": round(100 * (total - embed_alone) / embed_alone, 1),
        "embed_in_ingest_s": round(ing["timers_s"].get("embed_documents", 0.0), 2) or None,
        "non_embed_overhead_pct": round(
            100 * (total - ing["timers_s"]["embed_documents"]) / ing["timers_s"]["embed_documents"],
            1,
        )
        if ing["timers_s"].get("embed_documents")
        else None,
        "ingest_cpu_s": round(ing["cpu_total_s"], 1),
        "embed_alone_cpu_s": round(emb["embed_cpu_s"], 1),
        "cpu_overhead_pct": round(
            100 * (ing["cpu_total_s"] - emb["embed_cpu_s"]) / emb["embed_cpu_s"], 1
        ),
        "peak_rss_mb": ing["peak_rss_mb"]["total"],
        "peak_rss_main_mb": ing["peak_rss_mb"]["self"],
        "peak_rss_worker_mb": ing["peak_rss_mb"]["children"],
        "index_bytes": ing["index_bytes"],
        "index_bytes_per_chunk": round(ing["index_bytes"] / chunks) if chunks else None,
    }


COLUMNS = [
    ("config", "config"),
    ("documents", "docs"),
    ("chunks", "chunks"),
    ("embedded_texts", "embedded texts"),
    ("total_s", "total s"),
    ("chunks_per_s", "chunks/s"),
    ("ms_per_chunk", "ms/chunk"),
    ("pdf_parse_ms_per_page", "PDF parse ms/page"),
    ("embed_alone_s", "embed-alone s"),
    ("overhead_pct", "overhead %"),
    ("non_embed_overhead_pct", "non-embed overhead %"),
    ("peak_rss_mb", "peak RSS MiB"),
    ("index_bytes_per_chunk", "index B/chunk"),
]


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.1f}" if abs(v) >= 100 else f"{v:.2f}".rstrip("0").rstrip(".") if v else "0"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def print_tables(rows: list[dict[str, Any]]) -> str:
    """Print a plain table; return the same as Markdown."""
    heads = [h for _, h in COLUMNS]
    cells = [[_fmt(r[k]) for k, _ in COLUMNS] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    print("  ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True)))
    for c in cells:
        print("  ".join(v.rjust(w) for v, w in zip(c, widths, strict=True)))
    md = [
        "| " + " | ".join(heads) + " |",
        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(heads))) + "|",
    ]
    md += ["| " + " | ".join(c) + " |" for c in cells]
    return "\n".join(md)


def _print_breakdown(
    name: str, ing: dict[str, Any], emb: dict[str, Any], pdf_ms: float | None
) -> None:
    rep = ing["report"]
    print(
        f"\n[{name}] breakdown (best of {ing.get('_of', 1)} ingest / "
        f"{emb.get('_of', 1)} embed-alone runs)"
    )
    print(
        f"  ingest {rep['seconds']:.2f} s wall, {ing['cpu_total_s']:.1f} s CPU "
        f"(main user {ing['cpu_s']['user_self']:.1f} + sys {ing['cpu_s']['sys_self']:.1f}, "
        f"parse worker user {ing['cpu_s']['user_children']:.1f} + sys "
        f"{ing['cpu_s']['sys_children']:.1f})"
    )
    print(
        f"  embed-alone {emb['embed_s']:.2f} s wall, {emb['embed_cpu_s']:.1f} s CPU "
        f"({emb['texts']} texts in {emb['batches']} batches"
        + (
            f"; all texts in one call: {emb['embed_one_call_s']:.2f} s"
            if "embed_one_call_s" in emb
            else ""
        )
        + ")"
    )
    if rep["embedded_texts"] != emb["texts"]:
        print(
            f"  WARNING: ingest embedded {rep['embedded_texts']} texts, "
            f"the rebuild has {emb['texts']} (library code changed between runs?)"
        )
    print(
        f"  parsing all documents alone (sequential, no embedding): "
        f"{emb['pdf_parse_isolated']['all_documents_parse_s']:.2f} s"
    )
    print(
        f"  parse_seconds (worker, all docs) {rep['parse_seconds']:.2f}, PDF pages "
        f"{rep['pages']}, failed: {rep['failed'] or 'none'}"
    )
    pdf_in = ing["pdf_in_ingest"]
    if pdf_in["pages"] and pdf_ms:
        print(
            f"  PDF parse inside ingest (worker, concurrent with embedding): "
            f"{1000 * pdf_in['parse_s'] / pdf_in['pages']:.1f} ms/page (alone {pdf_ms:.1f})"
        )
    t = ing["timers_s"]
    if t:
        embed_in = t.get("embed_documents", 0.0)
        other = t.get("store_add_documents", 0) - embed_in
        lc_rest = (
            t.get("lc_index", 0)
            - t.get("store_add_documents", 0)
            - t.get("wait_for_parser", 0)
            - t.get("count_tokens", 0)
        )
        rest = (
            rep["seconds"]
            - t.get("lc_index", 0)
            - t.get("store_save", 0)
            - t.get("commit_build", 0)
        )
        print(f"  where the ingest wall time went (parse worker workers={ing.get('workers')}):")
        print(
            f"    embed_documents inside ingest   {embed_in:8.2f} s "
            f"({100 * (embed_in - emb['embed_s']) / emb['embed_s']:+.1f} % vs alone)"
        )
        print(
            f"    main blocked waiting for parser {t.get('wait_for_parser', 0):8.2f} s "
            f"(first document arrived after {ing['first_received_at_s'] or 0:.2f} s)"
        )
        print(f"    store.add_documents minus embed {other:8.2f} s (sentence split, FAISS, BM25)")
        print(f"    count_tokens                    {t.get('count_tokens', 0):8.2f} s")
        print(f"    rest of lc_index + chunk_stream {lc_rest:8.2f} s (hashing, SQLite, IPC)")
        print(
            f"    store.save + commit_build       "
            f"{t.get('store_save', 0) + t.get('commit_build', 0):8.2f} s"
        )
        print(f"    setup / held count / manifest   {rest:8.2f} s")
        if ing.get("waits_over_50ms"):
            print(
                "    longest waits for the parser: "
                + ", ".join(
                    f"{w['source'].split('/')[-1]} {w['wait_s']} s @{w['received_at_s']} s"
                    for w in ing["waits_over_50ms"][:6]
                )
            )
    print(f"  peak RSS MiB {ing['peak_rss_mb']}; index files {ing['index_files']}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (or, with ``--child``, one measurement)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out")
    p.add_argument("--limit-squad", type=int, default=None, help="max SQuAD paragraphs")
    p.add_argument("--limit-scifact", type=int, default=None, help="max SciFact abstracts")
    p.add_argument("--limit-pdfs", type=int, default=None, help="max FinanceBench PDFs")
    p.add_argument("--batch-size", type=int, default=64, help="ingest(batch_size=...)")
    p.add_argument("--workers", type=int, default=None, help="ingest(workers=...); default auto")
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run every measurement N times (interleaved) and keep the fastest",
    )
    p.add_argument(
        "--no-second-config",
        action="store_true",
        help="skip the sentence_vectors=False configuration",
    )
    p.add_argument(
        "--no-instrument", action="store_true", help="no timing wrappers in the ingest children"
    )
    p.add_argument(
        "--profile",
        action="store_true",
        help="extra cProfile'd default ingest run (not used for the table)",
    )
    p.add_argument(
        "--embed-one-call",
        action="store_true",
        help="also time all texts in ONE embed_documents call (ideal batching)",
    )
    p.add_argument(
        "--torch-threads",
        type=int,
        default=None,
        help="EXPERIMENT: torch.set_num_threads in the children",
    )
    p.add_argument(
        "--iter-order",
        choices=["library", "small-first"],
        default="library",
        help="EXPERIMENT: 'small-first' parses non-PDF/small files first",
    )
    p.add_argument("--keep-tmp", action="store_true", help="keep the temporary folder")
    # child mode (internal)
    p.add_argument("--child", choices=["ingest", "embed"], help=argparse.SUPPRESS)
    p.add_argument("--corpus", help=argparse.SUPPRESS)
    p.add_argument("--index", help=argparse.SUPPRESS)
    p.add_argument("--result", help=argparse.SUPPRESS)
    p.add_argument("--sentence-vectors", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--profile-to", help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.child:
        res = child_ingest(args) if args.child == "ingest" else child_embed(args)
        Path(args.result).write_text(json.dumps(res, indent=2, default=str))
        return 0

    data = args.data.resolve()
    if not (data / "squad2-dev" / "dev-v2.0.json").exists():
        print(f"no evaluation data under {data} (see --data)", file=sys.stderr)
        return 2
    out = args.out if args.out.is_absolute() else (Path.cwd() / args.out)
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="citerag-ingest-bench-"))
    if tmp.resolve().is_relative_to(REPO):
        raise SystemExit("temporary folder must not be inside the repository")
    git_before = _git_state()
    try:
        corpus = tmp / "corpus"
        t0 = time.perf_counter()
        counts = materialise(data, corpus, args.limit_squad, args.limit_scifact, args.limit_pdfs)
        print(f"materialised {counts} in {corpus} ({time.perf_counter() - t0:.1f} s)")
        if args.torch_threads or args.iter_order != "library" or args.workers is not None:
            print(
                f"EXPERIMENT settings: torch_threads={args.torch_threads} "
                f"iter_order={args.iter_order} workers={args.workers}"
            )

        configs = [("default (sentence vectors)", True)]
        if not args.no_second_config:
            configs.append(("sentence_vectors=False", False))
        all_runs: dict[str, dict[str, list[dict[str, Any]]]] = {
            name: {"ingest": [], "embed_alone": []} for name, _ in configs
        }
        for rep_i in range(args.repeat):
            for name, sv in configs:
                tag = f" run {rep_i + 1}/{args.repeat}" if args.repeat > 1 else ""
                all_runs[name]["ingest"].append(
                    _run_child(
                        "ingest",
                        args,
                        corpus,
                        tmp,
                        sentence_vectors=sv,
                        index=tmp / f"index-{int(sv)}",
                        label=f"ingest{tag}",
                    )
                )
                all_runs[name]["embed_alone"].append(
                    _run_child(
                        "embed",
                        args,
                        corpus,
                        tmp,
                        sentence_vectors=sv,
                        label=f"embedding model alone{tag}",
                    )
                )
        best: dict[str, dict[str, Any]] = {}
        for name, _ in configs:
            ing = dict(_best(all_runs[name]["ingest"], lambda r: r["report"]["seconds"]))
            emb = dict(_best(all_runs[name]["embed_alone"], lambda r: r["embed_s"]))
            ing["_of"], emb["_of"] = (
                len(all_runs[name]["ingest"]),
                len(all_runs[name]["embed_alone"]),
            )
            best[name] = {"ingest": ing, "embed_alone": emb}
        profiled = None
        if args.profile:
            profiled = _run_child(
                "ingest",
                args,
                corpus,
                tmp,
                sentence_vectors=True,
                index=tmp / "index-profile",
                profile_to=out / "ingest_profile.prof",
                label="cProfile'd ingest (not in the table)",
            )

        # PDF parse cost measured alone (sequential process_file per PDF, no embedding).
        iso_runs = [r["pdf_parse_isolated"] for r in all_runs[configs[0][0]]["embed_alone"]]
        iso = min(iso_runs, key=lambda r: r["parse_s"])
        pdf_ms = 1000 * iso["parse_s"] / iso["pages"] if iso["pages"] else None
        rows = [
            _row(name, best[name]["ingest"], best[name]["embed_alone"], pdf_ms)
            for name, _ in configs
        ]

        print(
            "\n=== results" + (f" (fastest of {args.repeat} runs each)" if args.repeat > 1 else "")
        )
        md = print_tables(rows)
        print(
            "\noverhead % = (total s - embed-alone s) / embed-alone s (the goal is < 15 %). "
            "non-embed overhead % = (total s - time inside embed_documents during the same "
            "ingest) / that time: measured within one run, so insensitive to other load on "
            "the machine, but blind to the embedding itself being slowed down by the parse "
            "worker (compare 'embed_documents inside ingest' with embed-alone below)."
        )
        if args.repeat > 1:
            for name, _ in configs:
                print(
                    f"  all runs [{name}]: ingest s "
                    f"{[round(r['report']['seconds'], 1) for r in all_runs[name]['ingest']]}"
                    f", embed-alone s "
                    f"{[round(r['embed_s'], 1) for r in all_runs[name]['embed_alone']]}"
                )
        loads = [
            r["loadavg_1min_before"] for v in all_runs.values() for rs in v.values() for r in rs
        ]
        if max(loads) > 0.7:
            print(
                f"  NOTE: the machine was not idle (1-min load average up to {max(loads):.2f}"
                f" before a run, on {os.cpu_count()} CPUs): wall times are noisy."
            )
        print("\nPDF parse alone (process_file per PDF, sequential, no embedding):")
        for r in iso["per_file"]:
            print(
                f"  {r['source']}: {r['pages']} pages, {r['chunks']} chunks, "
                f"{r['parse_s']} s, {r['ms_per_page']} ms/page"
            )
        for name, _ in configs:
            _print_breakdown(name, best[name]["ingest"], best[name]["embed_alone"], pdf_ms)
        if profiled is not None:
            import pstats

            prof = out / "ingest_profile.prof"
            print(
                f"\ncProfile of a default ingest (main process only; the run took "
                f"{profiled['report']['seconds']:.1f} s under the profiler): {prof}"
            )
            st = pstats.Stats(str(prof))
            st.sort_stats("cumulative").print_stats(35)
            st.sort_stats("tottime").print_stats(25)

        git_after = _git_state()
        if git_after != git_before:
            print(
                f"\nWARNING: library code changed during the benchmark: {git_before} -> {git_after}"
            )
        print("\nMarkdown (docs/benchmarks/ingestion.md):\n")
        print(md)
        result = {
            "benchmark": "ingest",
            "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "machine": {
                "python": platform.python_version(),
                "platform": platform.platform(),
                "cpus": os.cpu_count(),
            },
            "git": {"before": git_before, "after": git_after},
            "data": {"path": str(data), "files": counts},
            "settings": {
                "batch_size": args.batch_size,
                "workers": args.workers,
                "repeat": args.repeat,
                "torch_threads": args.torch_threads,
                "iter_order": args.iter_order,
            },
            "pdf_parse_ms_per_page_isolated": round(pdf_ms, 1) if pdf_ms else None,
            "rows": rows,
            "best": best,
            "all_runs": all_runs,
            "profiled_run": profiled,
            "markdown": md,
        }
        (out / "ingest.json").write_text(json.dumps(result, indent=2, default=str))
        print(f"\nwrote {out / 'ingest.json'}")
    finally:
        if args.keep_tmp:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "ingest_benchmark_history": (
        "runs with and without --no-sentence-vectors, and before / after a change at two commits"
    ),
}


if __name__ == "__main__":
    sys.exit(main())

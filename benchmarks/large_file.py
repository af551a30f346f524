"""One huge text file beside a small one: peak memory, and when the small one is searchable.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.large_file [--mib 60] [--embedding-model NAME]
        [--precision auto|fp32|bf16] [--no-sentence-vectors] [--store faiss|postgres]
        [--out benchmarks/out]

What one run does:

1. Generates, in a temporary folder outside the repository, ``big.txt``: ``--mib`` MiB of
   distinct English-like paragraphs (a seeded generator over the sample corpus's vocabulary,
   so no two chunks are alike and nothing is de-duplicated away), and ``small.md``: one short
   note with a phrase found nowhere else.
2. Ingests both in **one** ``citerag.index.ingest.ingest`` call, in a fresh child process with
   the real embedding model (loaded and warmed before the clock starts), the default
   settings (sentence vectors, BM25, manifest) unless told otherwise, into a FAISS index
   directory or (``--store postgres``) a PostgreSQL + pgvector store started from the
   ``pgserver`` wheel in the temporary folder (its server processes are not the child's and
   are not counted in the child's memory).
3. While it runs, samples the resident memory of the child and of its parse workers every
   second, and at each published build records the time, the memory and the sources it
   published. When the build holding ``small.md`` is published, the child opens the index
   as a reader would (``load_index``) and searches for the small note's phrase.

Prints and writes ``<out>/large_file_<N>mib[_pg].{json,md,png}`` and the result file
``benchmarks/results/large_file.json`` (``large_file_postgres.json`` with ``--store
postgres``; table ``run``): wall time, chunks and texts embedded,
peak RSS (``ru_maxrss`` of the child; of its children; the largest sampled sum), whether and
when the small note was searchable against when the big file was published, and a plot of
memory over time with the publications marked. Not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.common import REPO  # offline model settings
from benchmarks.results import table, write_result
from citerag.embeddings import PRECISIONS

MIB = 1 << 20
#: The small note's phrase, found nowhere in the generated text.
PHRASE = "The heron observatory opens its telescope dome every Thursday at dusk."
SMALL = f"# Observatory note\n\n{PHRASE} Visitors bring their own lanterns.\n"


def vocabulary() -> list[str]:
    """Distinct lower-case words of the sample corpus (part of this repository)."""
    words: set[str] = set()
    for path in sorted((REPO / "examples" / "corpus").rglob("*")):
        if path.suffix in (".md", ".txt", ".html"):
            words.update(re.findall(r"[a-z]{3,12}", path.read_text(encoding="utf-8").lower()))
    words.difference_update({"heron", "observatory", "telescope", "dome", "thursday", "dusk"})
    return sorted(words)


def generate(path: Path, mib: float, seed: int = 14) -> int:
    """Write ``mib`` MiB of distinct paragraphs (3-6 sentences of 8-20 words) to ``path``."""
    rng = random.Random(seed)
    words = vocabulary()
    target = int(mib * MIB)
    written = 0
    with path.open("w", encoding="utf-8") as out:
        n = 0
        while written < target:
            n += 1
            sentences = []
            for _ in range(rng.randint(3, 6)):
                ws = rng.choices(words, k=rng.randint(8, 20))
                sentences.append(" ".join(ws).capitalize() + ".")
            para = f"Paragraph {n}. " + " ".join(sentences) + "\n\n"
            out.write(para)
            written += len(para.encode("utf-8"))
    return written


def _rss_mb(pid: int) -> tuple[float, float]:
    """RSS in MB of a process and the sum over its children."""
    import psutil

    proc = psutil.Process(pid)
    own = proc.memory_info().rss / 1e6
    kids = 0.0
    for child in proc.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            kids += child.memory_info().rss / 1e6
    return own, kids


def child(args: argparse.Namespace) -> dict[str, Any]:
    """The measured run (in this fresh process)."""
    from citerag.embeddings import load_embedding_model
    from citerag.index.ingest import ingest
    from citerag.stores.loaded import load_index

    folder = Path(args.folder)
    index: Path | str = args.index if "://" in args.index else Path(args.index)
    model = load_embedding_model(args.embedding_model, precision=args.precision)
    model.embeddings.embed_documents(["warm-up", "warm-up batch"])
    samples: list[tuple[float, float, float]] = []
    events: list[dict[str, Any]] = []
    stop = threading.Event()
    t0 = time.perf_counter()

    def sample() -> None:
        while not stop.wait(1.0):
            own, kids = _rss_mb(os.getpid())
            samples.append((time.perf_counter() - t0, own, kids))

    def on_publish(build_id: str, sources: list[str]) -> None:
        at = time.perf_counter() - t0
        own, _ = _rss_mb(os.getpid())
        event: dict[str, Any] = {
            "t_s": at,
            "build_id": build_id,
            "sources": [Path(s).name for s in sources],
            "rss_mb": own,
        }
        if any(Path(s).name == "small.md" for s in sources):
            loaded = load_index(index, model)
            hits = loaded.store.similarity_search(PHRASE, k=1)
            event["small_searchable"] = bool(hits) and PHRASE in hits[0].page_content
            dense = getattr(loaded.store, "dense", None)
            if dense is not None:
                event["chunks_in_build"] = int(dense.index.ntotal)
        events.append(event)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    report = ingest(
        [folder],
        index,
        model,
        sentence_vectors=not args.no_sentence_vectors,
        progress=True,
        **({} if args.max_document_mb is None else {"max_document_mb": args.max_document_mb}),
        on_publish=on_publish,
    )
    wall = time.perf_counter() - t0
    stop.set()
    sampler.join()
    return {
        "wall_s": wall,
        "model": model.name,
        "precision": model.precision,
        "chunks": report.chunks_added,
        "texts": report.embedded_texts,
        "failed": report.failed,
        "stages": dict(report.stages),
        "peak_rss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6,
        "peak_rss_children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 / 1e6,
        "peak_sampled_sum_mb": max((own + kids for _, own, kids in samples), default=0.0),
        "samples": samples,
        "publications": events,
    }


def plot(result: dict[str, Any], path: Path) -> None:
    """Memory over time, with each publication marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [s[0] for s in result["samples"]]
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.plot(t, [s[1] for s in result["samples"]], label="ingest process")
    ax.plot(t, [s[1] + s[2] for s in result["samples"]], label="with parse workers", alpha=0.6)
    for e in result["publications"]:
        ax.axvline(e["t_s"], color="grey", linestyle=":")
        ax.annotate(",".join(e["sources"])[:30], (e["t_s"], ax.get_ylim()[1] * 0.95), fontsize=7)
    ax.axhline(1500, color="red", linestyle="--", label="1.5 GB")
    ax.set_xlabel("seconds since ingest started")
    ax.set_ylabel("RSS, MB")
    ax.set_title(f"{result['mib']} MiB text + a small note ({result['precision']})")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run_rows(r: dict[str, Any]) -> list[tuple[str, str]]:
    """One run's figures, a ``(what, value)`` row each."""
    small = next((e for e in r["publications"] if "small.md" in e["sources"]), None)
    big = next((e for e in r["publications"] if "big.txt" in e["sources"]), None)
    rows = [
        ("generated text", f"{r['mib']} MiB ({r['bytes']:,} bytes)"),
        ("embedding model, precision", f"{r['model']}, {r['precision']}"),
        ("store", r.get("store", "faiss")),
        ("wall time", f"{r['wall_s']:.0f} s"),
        ("chunks / texts embedded", f"{r['chunks']:,} / {r['texts']:,}"),
        ("peak RSS, ingest process (ru_maxrss)", f"{r['peak_rss_self_mb']:.0f} MB"),
        (
            "peak RSS of a parse worker (forked: counts pages it shares)",
            f"{r['peak_rss_children_mb']:.0f} MB",
        ),
        ("largest sampled sum", f"{r['peak_sampled_sum_mb']:.0f} MB"),
        (
            "small note published and searchable",
            "never"
            if small is None
            else f"{small['t_s']:.1f} s (searchable: {small.get('small_searchable')})",
        ),
        ("big file published", "never" if big is None else f"{big['t_s']:.0f} s"),
        ("failed documents", "; ".join(str(f) for f in r["failed"]) or "none"),
    ]
    return rows


def markdown(r: dict[str, Any]) -> str:
    """One run's figures as a Markdown table."""
    lines = ["| | |", "|---|---:|"] + [f"| {a} | {b} |" for a, b in run_rows(r)]
    return "\n".join(lines) + "\n"


def run_table(r: dict[str, Any]) -> dict[str, Any]:
    """The result file's table (``run``): one run's figures, headed by its size and store."""
    store = "PostgreSQL" if r.get("store") == "postgres" else "FAISS"
    return table(["", f"{r['mib']:g} MiB, {store}"], [list(row) for row in run_rows(r)])


def main() -> int:
    """Generate, run the child, report."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mib", type=float, default=60.0, help="size of the generated text file")
    p.add_argument("--embedding-model", default=None)
    p.add_argument("--precision", choices=PRECISIONS, default=None, help="default: auto")
    p.add_argument("--no-sentence-vectors", action="store_true")
    p.add_argument("--store", choices=["faiss", "postgres"], default="faiss")
    p.add_argument(
        "--max-document-mb",
        type=float,
        default=None,
        help="ingest's per-document text limit (default: the library's, 50 MiB; "
        "a larger --mib needs more)",
    )
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--folder", help=argparse.SUPPRESS)
    p.add_argument("--index", help=argparse.SUPPRESS)
    p.add_argument("--result", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        Path(args.result).write_text(json.dumps(child(args)), encoding="utf-8")
        return 0
    if args.mib <= 0:
        p.error(f"--mib must be positive, not {args.mib}")
    with tempfile.TemporaryDirectory(prefix="citerag-large-") as tmp, contextlib.ExitStack() as st:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        size = generate(folder / "big.txt", args.mib)
        (folder / "small.md").write_text(SMALL, encoding="utf-8")
        print(f"generated {size:,} bytes; uptime: {os.getloadavg()}", flush=True)
        index = str(Path(tmp) / "index")
        if args.store == "postgres":
            from benchmarks.common import pg_server, store_url

            index = store_url(st.enter_context(pg_server(Path(tmp) / "pgdata")), "large")
        cmd = [sys.executable, "-m", "benchmarks.large_file", "--child", "--folder", str(folder)]
        cmd += ["--index", index, "--result", str(Path(tmp) / "r.json")]
        if args.embedding_model:
            cmd += ["--embedding-model", args.embedding_model]
        if args.precision:
            cmd += ["--precision", args.precision]
        if args.no_sentence_vectors:
            cmd.append("--no-sentence-vectors")
        if args.max_document_mb is not None:
            cmd += ["--max-document-mb", str(args.max_document_mb)]
        subprocess.run(cmd, check=True, timeout=6 * 3600, cwd=REPO)
        result = json.loads((Path(tmp) / "r.json").read_text(encoding="utf-8"))
    result.update(mib=args.mib, bytes=size, store=args.store, load_after=os.getloadavg())
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"large_file_{args.mib:g}mib" + ("_pg" if args.store == "postgres" else "")
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    md = markdown(result)
    (args.out / f"{stem}.md").write_text(md, encoding="utf-8")
    plot(result, args.out / f"{stem}.png")
    print(md)
    # One result file per store; the docs' hand-collected tables (several sizes, before and
    # after the writer's memory changes) are large_file_history, which no single run writes.
    name = "large_file_postgres" if args.store == "postgres" else "large_file"
    write_result(name, {"run": run_table(result)}, result)
    return 0


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "large_file_history": "runs of several sizes, stores and commits, before and after the "
    "writer's memory changes, put side by side by hand",
}


if __name__ == "__main__":
    raise SystemExit(main())

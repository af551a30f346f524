"""citerag's ``/rag/invoke`` against the plain LangChain recipe it replaces, side by side.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.speed [--requests 200] [--concurrency 8] [--repeat 3]
        [--variants batch,nobatch] [--baseline-src DIR] [--ingest | --ingest-only]
        [--json FILE]

What one run does:

1. Indexes the sample corpus ``examples/corpus`` into a temporary folder (``citerag
   ingest`` defaults), writes a token file there and starts, on 127.0.0.1 and free ports:

   * ``citerag serve`` once per variant: ``batch`` (the defaults: one worker process per
     core, at most 4, and concurrent questions share a forward pass), ``w1`` (one process),
     ``nobatch`` (``CITERAG_QUERY_BATCHING=false``; the question cache stays
     on), ``wait2`` (batching with a 2 ms wait for more questions), ``nocache`` (neither);
   * with ``--baseline-src DIR``, ``citerag serve`` from another checkout (e.g. ``git
     worktree add /tmp/before <commit>``), to measure before/after with the same harness;
   * the **peer**: the recipe from LangChain's documentation, a FastAPI app with LangServe
     ``add_routes`` over ``FAISS.from_documents(...).as_retriever(k=4)`` of the same corpus
     (``PyPDFLoader`` / ``TextLoader`` -> ``RecursiveCharacterTextSplitter(600, 80)`` -> the
     same all-MiniLM-L6-v2), run by this script with ``--serve-peer``.

2. For each repeat, drives every server in turn with the same ``--requests`` distinct
   questions (the sample questions, each phrased several ways, so no server answers a repeat
   from a cache) at ``--concurrency`` parallel keep-alive clients (httpx, bounded), after a
   warm-up; prints req/s and p50/p95/p99 per server and repeat, then the median over repeats
   with the run-to-run range, and the ratios to the peer.

3. Breaks one served request down (sequential requests, medians): the HTTP round trip of
   ``GET /health``, token lookup, body parsing and validation, the graph (per-node timings
   from the served responses' traces), LangServe's encoding of the response, what is left
   (LangServe, the event loop, the thread hop), and the response size for each ``trace``
   level; plus the same graph run in this process for comparison.

4. With ``--ingest`` (or ``--ingest-only``): citerag's ``ingest`` (defaults, and with
   ``--embedding-model minilm-int8``) against the peer's PyPDFLoader -> splitter ->
   ``FAISS.from_documents`` on the 4 FinanceBench PDFs of ``../shared/data/financebench/pdfs``:
   each run a fresh process, variants interleaved, ``--ingest-repeat`` runs each (median and
   range of the wall time), and a per-stage breakdown (parse, chunk, waiting for the parse
   worker, sentence split, embed chunks, embed sentences, BM25, the rest of ``index()``,
   write, publish; from ``IngestReport.stages``).

Only 127.0.0.1 is contacted; every loop is bounded. ``uptime`` is printed before and after:
the figures are only as quiet as the machine. Not a test: nothing here asserts.

Result files: ``benchmarks/results/speed_serving.json`` (table ``serving``; a serving run) and
``speed_ingestion.json`` (tables ``ingest`` and ``stages``; with ``--ingest`` or
``--ingest-only``). The earlier runs the docs keep as the record of each change (other
variants, commits, machine load) are ``speed_history``, which no single run writes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common import REPO, free_port, percentile, stop_servers
from benchmarks.results import table, write_result

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", message=".*langchain-community.*")

import httpx  # noqa: E402

TOKEN = "speed-benchmark-token-0123456789"
MAX_REQUESTS = 10_000
MAX_CONCURRENCY = 64
STARTUP_TIMEOUT_S = 300.0
CORPUS = REPO / "examples" / "corpus"
FINANCEBENCH_PDFS = REPO / ".." / "shared" / "data" / "financebench" / "pdfs"
#: Ways of asking the same question (no digits: the number check must not refuse them).
PREFIXES = (
    "{q}",
    "Quick question: {q}",
    "Could you tell me: {q}",
    "I would like to know: {q}",
    "Please answer from the documents: {q}",
    "From the reports, {q}",
    "Help me find this out: {q}",
    "One more thing: {q}",
    "According to the files, {q}",
)
SUFFIXES = ("", " Thanks.", " Please cite the source.", " Be brief.", " Quote the text.")
#: Server variants: name -> environment for ``citerag serve``.
VARIANTS: dict[str, dict[str, str]] = {
    # the defaults: one worker process per core (at most 4), query batching on
    "batch": {"CITERAG_QUERY_BATCHING": "true"},
    # one process (the default before workers = 0)
    "w1": {"CITERAG_WORKERS": "1"},
    # questions through sentence-transformers' encode instead of the traced encoder
    "eager": {"CITERAG_TRACED_QUERIES": "false"},
    "nobatch": {"CITERAG_QUERY_BATCHING": "false"},
    "wait2": {"CITERAG_QUERY_BATCHING": "true", "CITERAG_QUERY_BATCH_WAIT_MS": "2"},
    "nocache": {"CITERAG_QUERY_BATCHING": "false", "CITERAG_QUERY_CACHE": "0"},
    # torch's default intra-op threads (one per core) instead of every core but one
    "allthreads": {"CITERAG_EMBEDDING_THREADS": str(os.cpu_count() or 1)},
    "int8": {"CITERAG_EMBEDDING_MODEL": "minilm-int8"},
    # every forward pass in float32 (the default before precision "auto")
    "fp32": {"CITERAG_EMBEDDING_PRECISION": "fp32"},
    "fp32-w2": {
        "CITERAG_EMBEDDING_PRECISION": "fp32",
        "CITERAG_READ_ONLY": "true",
        "CITERAG_WORKERS": "2",
    },
    # LangServe's own /rag/invoke handler instead of citerag's orjson one (same responses)
    "langserve": {"CITERAG_FAST_INVOKE": "false"},
    "int8-langserve": {"CITERAG_EMBEDDING_MODEL": "minilm-int8", "CITERAG_FAST_INVOKE": "false"},
    # two read-only processes on the index directory (`citerag serve --read-only --workers 2`)
    "w2": {"CITERAG_READ_ONLY": "true", "CITERAG_WORKERS": "2"},
    "int8-w2": {
        "CITERAG_EMBEDDING_MODEL": "minilm-int8",
        "CITERAG_READ_ONLY": "true",
        "CITERAG_WORKERS": "2",
    },
    # two processes, each waiting up to 2 ms to fill a forward pass (fewer questions each)
    "w2-wait2": {
        "CITERAG_READ_ONLY": "true",
        "CITERAG_WORKERS": "2",
        "CITERAG_QUERY_BATCH_WAIT_MS": "2",
    },
}
#: Peer variants (``--peer-variants``): name -> uvicorn worker processes.
PEER_VARIANTS: dict[str, int] = {"peer": 1, "peer-w2": 2}


# -- helpers -------------------------------------------------------------------------------


def uptime() -> str:
    """The load average line of ``uptime`` (what else was running)."""
    try:
        return subprocess.run(
            ["uptime"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        load = os.getloadavg()
        return f"load average: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}"


def question_pool() -> list[str]:
    """Every distinct question: the sample questions, each asked many ways."""
    path = REPO / "examples" / "questions.jsonl"
    base = [json.loads(line)["question"] for line in path.read_text().splitlines() if line]
    out: list[str] = []
    for suffix in SUFFIXES:
        for prefix in PREFIXES:
            for q in base:
                text = prefix.format(q=q if prefix == "{q}" else q[:1].lower() + q[1:])
                out.append(text + suffix)
    return out


def questions(n: int, offset: int = 0) -> list[str]:
    """``n`` distinct questions from ``offset`` on.

    Each repeat of a load run takes the next ``n``, so no server answers a question it has
    already seen (citerag's question cache would); 28 questions x 45 phrasings = 1,260.
    """
    out = question_pool()
    if offset + n > len(out):
        raise ValueError(f"only {len(out)} distinct questions; lower --requests or --repeat")
    return out[offset : offset + n]


def median_range(values: list[float]) -> tuple[float, float, float]:
    """Median, min and max."""
    return statistics.median(values), min(values), max(values)


# -- the peer ------------------------------------------------------------------------------


def peer_documents(corpus: Path) -> list[Any]:
    """The peer's chunks: PyPDFLoader / TextLoader -> RecursiveCharacterTextSplitter(600, 80)."""
    from langchain_community.document_loaders import PyPDFLoader, TextLoader
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    docs = []
    for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
        if any(part.startswith(".") for part in path.relative_to(corpus).parts):
            continue
        if path.suffix.lower() == ".pdf":
            docs.extend(PyPDFLoader(str(path)).load())
        else:
            docs.extend(TextLoader(str(path), encoding="utf-8").load())
    splitter = RecursiveCharacterTextSplitter(chunk_size=600, chunk_overlap=80)
    return splitter.split_documents(docs)


def peer_embeddings() -> Any:
    """The same all-MiniLM-L6-v2 (bundled copy), as the LangChain docs would load it."""
    from langchain_huggingface import HuggingFaceEmbeddings

    from citerag.embeddings import default_model_dir

    return HuggingFaceEmbeddings(
        model_name=default_model_dir(),
        model_kwargs={"device": "cpu"},
        encode_kwargs={"normalize_embeddings": True},
    )


def peer_app(corpus: Path = CORPUS) -> Any:
    """The peer recipe: LangServe ``add_routes`` over a FAISS retriever (k = 4)."""
    from fastapi import FastAPI
    from langchain_community.vectorstores import FAISS
    from langserve import add_routes

    store = FAISS.from_documents(peer_documents(corpus), peer_embeddings())
    app = FastAPI(title="peer: LangServe over FAISS")
    add_routes(app, store.as_retriever(search_kwargs={"k": 4}), path="/rag")

    @app.get("/health")
    def health() -> dict[str, bool]:
        return {"ok": True}

    return app


def serve_peer(port: int, workers: int = 1) -> int:
    """Run the peer recipe (``workers`` uvicorn processes, each building its own index)."""
    import uvicorn

    if workers == 1:
        uvicorn.run(peer_app(), host="127.0.0.1", port=port, log_level="warning")
    else:
        uvicorn.run(
            "speed:peer_app",
            factory=True,
            app_dir=str(Path(__file__).resolve().parent),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            workers=workers,
        )
    return 0


# -- servers -------------------------------------------------------------------------------


@dataclass
class Target:
    """A server under test."""

    name: str
    url: str
    body: Callable[[str], dict[str, Any]]
    proc: subprocess.Popen[bytes] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    log: Path | None = None


def citerag_body(question: str) -> dict[str, Any]:
    """A ``/rag/invoke`` body for citerag."""
    return {"input": {"question": question}}


def peer_body(question: str) -> dict[str, Any]:
    """A ``/rag/invoke`` body for the peer (a retriever takes a string)."""
    return {"input": question}


def start(cmd: list[str], env: dict[str, str], cwd: Path, log: Path) -> subprocess.Popen[bytes]:
    """Start a server process with its output in ``log``."""
    fh = log.open("wb")
    return subprocess.Popen(
        cmd, cwd=cwd, env={**os.environ, **env}, stdout=fh, stderr=subprocess.STDOUT
    )


def wait_up(target: Target, probe: str) -> None:
    """Poll ``probe`` until it answers 200 (bounded)."""
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if target.proc is not None and target.proc.poll() is not None:
            tail = target.log.read_text(errors="replace")[-2000:] if target.log else ""
            raise RuntimeError(f"{target.name} exited:\n{tail}")
        try:
            if httpx.get(target.url + probe, timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    tail = target.log.read_text(errors="replace")[-2000:] if target.log else ""
    raise RuntimeError(f"{target.name} did not come up in {STARTUP_TIMEOUT_S:.0f} s:\n{tail}")


def wait_workers_ready(target: Target, workers: int) -> None:
    """Wait until every worker process of ``target`` has loaded its graph (bounded).

    ``/ready`` answers 503 from a worker still loading and a new connection may land on
    any worker, so this waits for ``4 x workers`` consecutive 200s on fresh connections.
    """
    if workers <= 1:
        return
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    streak = 0
    while time.monotonic() < deadline and streak < 4 * workers:
        try:
            ok = httpx.get(target.url + "/ready", timeout=5.0).status_code == 200
        except httpx.HTTPError:
            ok = False
        streak = streak + 1 if ok else 0
        if not ok:
            time.sleep(0.5)
    if streak < 4 * workers:
        raise RuntimeError(f"{target.name}: not every worker became ready")


def tree_cpu_s(proc: subprocess.Popen[bytes] | None) -> float:
    """CPU seconds (user + system) used so far by a server process and its children."""
    if proc is None:
        return float("nan")
    import psutil

    try:
        root = psutil.Process(proc.pid)
        total = 0.0
        for p in [root, *root.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total
    except psutil.Error:
        return float("nan")


def expected_workers(env: dict[str, str]) -> int:
    """How many worker processes ``citerag serve`` starts with this environment."""
    from citerag.server.settings import ServerSettings

    return ServerSettings(workers=int(env.get("CITERAG_WORKERS", "0"))).process_count()


@contextmanager
def servers(args: argparse.Namespace, work: Path) -> Iterator[list[Target]]:
    """Start every server under test; stop them afterwards."""
    from citerag.embeddings import load_embedding_model
    from citerag.index.ingest import ingest

    index_dir = work / "index"
    ingest([CORPUS], index_dir, load_embedding_model(), progress=False)
    indexes = {None: index_dir}
    for v in args.variants:
        name = VARIANTS[v].get("CITERAG_EMBEDDING_MODEL")
        if name and name not in indexes:  # an index is queried with the model that built it
            indexes[name] = work / f"index-{name}"
            ingest([CORPUS], indexes[name], load_embedding_model(name), progress=False)
    tokens = work / "tokens.json"
    tokens.write_text(json.dumps({"users": [{"user": "bench", "token": TOKEN, "groups": []}]}))
    auth = {"Authorization": f"Bearer {TOKEN}"}
    targets: list[Target] = []
    for pv in args.peer_variants:
        port = free_port()
        peer = Target(pv, f"http://127.0.0.1:{port}", peer_body, log=work / f"{pv}.log")
        cmd = [sys.executable, "-m", "benchmarks.speed", "--serve-peer", "--port", str(port)]
        cmd += ["--peer-workers", str(PEER_VARIANTS[pv])]
        peer.proc = start(cmd, {}, REPO, peer.log)
        targets.append(peer)
    runs: list[tuple[str, dict[str, str], Path]] = [
        (f"citerag {v}", VARIANTS[v], REPO) for v in args.variants
    ]
    if args.baseline_src:
        runs.append(("citerag baseline", {}, Path(args.baseline_src).resolve()))
    for name, env, src in runs:
        port = free_port()
        slug = name.replace(" ", "_")
        t = Target(name, f"http://127.0.0.1:{port}", citerag_body, headers=auth)
        t.log = work / f"{slug}.log"
        index = indexes.get(env.get("CITERAG_EMBEDDING_MODEL"), index_dir)
        cmd = [sys.executable, "-m", "citerag", "serve", "--index", str(index)]
        cmd += ["--tokens", str(tokens), "--data-dir", str(work / f"data-{slug}")]
        cmd += ["--port", str(port), "--log-level", "warning"]
        t.proc = start(cmd, {**env, "PYTHONPATH": str(src)}, src, t.log)
        targets.append(t)
    try:
        for t in targets:
            wait_up(t, "/health" if t.body is peer_body else "/ready")
        for t in targets:  # with several workers /ready answers once the first is up
            if t.body is citerag_body:
                env = VARIANTS.get(t.name.split(" ", 1)[-1], {})
                wait_workers_ready(t, expected_workers(env))
        yield targets
    finally:
        stop_servers(*(t.proc for t in targets), timeout=30)


# -- load ----------------------------------------------------------------------------------


@dataclass
class LoadResult:
    """One load run against one server."""

    name: str
    requests: int
    wall_s: float
    latencies_s: list[float]
    errors: int
    bytes_mean: float
    cpu_s: float = float("nan")

    @property
    def cpu_ms_per_request(self) -> float:
        """Server CPU time (every process of it) per request, in ms."""
        return self.cpu_s / self.requests * 1000

    @property
    def rps(self) -> float:
        """Requests per second."""
        return self.requests / self.wall_s

    def ms(self, q: float) -> float:
        """A latency percentile in milliseconds."""
        return percentile(self.latencies_s, q) * 1000


def drive(target: Target, texts: list[str], concurrency: int) -> LoadResult:
    """Send every text once with ``concurrency`` parallel keep-alive clients."""
    if len(texts) > MAX_REQUESTS or not 1 <= concurrency <= MAX_CONCURRENCY:
        raise ValueError("request count or concurrency out of bounds")
    lock = threading.Lock()
    todo = iter(range(len(texts)))
    lat: list[float] = []
    sizes: list[int] = []
    errors = [0]

    def worker() -> None:
        with httpx.Client(base_url=target.url, headers=target.headers, timeout=120.0) as c:
            while True:
                with lock:
                    i = next(todo, None)
                if i is None:
                    return
                t0 = time.perf_counter()
                try:
                    r = c.post("/rag/invoke", json=target.body(texts[i]))
                    ok = r.status_code == 200
                    size = len(r.content)
                except httpx.HTTPError:
                    ok, size = False, 0
                dt = time.perf_counter() - t0
                with lock:
                    lat.append(dt)
                    sizes.append(size)
                    errors[0] += 0 if ok else 1

    cpu0 = tree_cpu_s(target.proc)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as ex:
        for f in [ex.submit(worker) for _ in range(concurrency)]:
            f.result()
    wall = time.perf_counter() - t0
    cpu = tree_cpu_s(target.proc) - cpu0
    return LoadResult(
        target.name,
        len(texts),
        wall,
        lat,
        errors[0],
        statistics.mean(sizes) if sizes else 0,
        cpu,
    )


def warm(target: Target, n: int = 16) -> None:
    """A few requests with texts outside the measured set (loads lazy parts, fills pools)."""
    drive(
        target,
        [f"Warm-up question about the cooperative, variant {chr(65 + i)}?" for i in range(n)],
        min(8, n),
    )


def load_table(results: dict[str, list[LoadResult]]) -> list[dict[str, Any]]:
    """Median and range over repeats per server, with ratios to the peer."""
    rows = []
    peer = results.get("peer") or next(
        (v for k, v in results.items() if k.startswith("peer")), None
    )
    peer_rps = statistics.median(r.rps for r in peer) if peer else None
    peer_p50 = statistics.median(r.ms(50) for r in peer) if peer else None
    for name, runs in results.items():
        rps = median_range([r.rps for r in runs])
        p50 = median_range([r.ms(50) for r in runs])
        p95 = median_range([r.ms(95) for r in runs])
        p99 = median_range([r.ms(99) for r in runs])
        cpu = median_range([r.cpu_ms_per_request for r in runs])
        rows.append(
            {
                "server": name,
                "runs": len(runs),
                "req_s": rps,
                "p50_ms": p50,
                "p95_ms": p95,
                "p99_ms": p99,
                "cpu_ms_per_request": cpu,
                "errors": sum(r.errors for r in runs),
                "bytes": statistics.median(r.bytes_mean for r in runs),
                "throughput_vs_peer": rps[0] / peer_rps if peer_rps else None,
                "p50_vs_peer": p50[0] / peer_p50 if peer_p50 else None,
            }
        )
    return rows


def print_load(rows: list[dict[str, Any]]) -> None:
    """The serving table."""

    def cell(v: tuple[float, float, float], fmt: str) -> str:
        return f"{v[0]:{fmt}} [{v[1]:{fmt}}–{v[2]:{fmt}}]"

    print(
        "\n| server | req/s | p50 ms | p95 ms | p99 ms | server CPU ms/req | errors | bytes "
        "| × peer req/s | × peer p50 |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        tv = r["throughput_vs_peer"]
        pv = r["p50_vs_peer"]
        print(
            f"| {r['server']} | {cell(r['req_s'], '.1f')} | {cell(r['p50_ms'], '.0f')} | "
            f"{cell(r['p95_ms'], '.0f')} | {cell(r['p99_ms'], '.0f')} | "
            f"{cell(r['cpu_ms_per_request'], '.1f')} | {r['errors']} | "
            f"{r['bytes']:.0f} | {tv:.2f} | {pv:.2f} |"
        )
    print("(median over repeats [min–max])")


# -- one request, stage by stage -----------------------------------------------------------


def _median_ms(fn: Callable[[], Any], n: int) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def breakdown(target: Target, work: Path, texts: list[str], n: int) -> dict[str, Any]:
    """One served request, stage by stage (medians over ``n`` sequential requests)."""
    import uuid

    from fastapi.encoders import jsonable_encoder
    from fastapi.responses import JSONResponse

    from citerag.batching import EmbeddingBatcher
    from citerag.embeddings import auto_threads, load_embedding_model
    from citerag.server.auth import TokenStore
    from citerag.server.hardening import check_langserve_body, parse_strict_json
    from citerag.server.invoke import encode_invoke_response
    from citerag.server.runnable import (
        SERVER_TRACE_DEFAULT,
        CiteragAnswer,
        ServerSerializer,
        question_model,
    )
    from graphs.config import RAGConfig
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    texts = texts[:n]
    out: dict[str, Any] = {"requests": len(texts)}
    with httpx.Client(base_url=target.url, headers=target.headers, timeout=120.0) as c:
        c.get("/health")
        out["http_health_ms"] = _median_ms(lambda: c.get("/health"), n)
        e2e, served_graph, served_nodes = [], [], []
        for q in texts:
            t0 = time.perf_counter()
            r = c.post("/rag/invoke", json=citerag_body(q))
            e2e.append(time.perf_counter() - t0)
            r.raise_for_status()
            timings = r.json()["output"]["trace"].get("timings_s", {})
            served_nodes.append(timings)
            served_graph.append(sum(timings.values()))
        out["served_ms"] = statistics.median(e2e) * 1000
        # the server's own per-node timings (the terminal node is not in its trace)
        out["served_graph_ms"] = statistics.median(served_graph) * 1000
        names = sorted({k for t in served_nodes for k in t})
        out["served_nodes_ms"] = {
            k: statistics.median([t.get(k, 0.0) for t in served_nodes]) * 1000 for k in names
        }
        sizes = {}
        for level in ("none", "summary", "full"):
            body = {**citerag_body(texts[0]), "config": {"configurable": {"trace": level}}}
            sizes[level] = len(c.post("/rag/invoke", json=body).content)
        out["response_bytes"] = sizes

    tokens = TokenStore(work / "tokens.json")
    out["auth_ms"] = _median_ms(lambda: tokens.lookup(TOKEN), 200)
    raw = json.dumps(citerag_body(texts[0])).encode()
    model_cls = question_model(2000)

    def parse() -> None:
        value = parse_strict_json(raw)
        check_langserve_body("invoke", value, max_batch=32)
        model_cls.model_validate(value["input"])

    out["body_ms"] = _median_ms(parse, 200)

    model = load_embedding_model(threads=auto_threads())  # as the server loads it
    deps = GraphDeps.from_index(
        work / "index", embedding_model=model, embeddings=EmbeddingBatcher(model.embeddings)
    )
    graph = build_graph(deps)
    configurable = RAGConfig(trace=SERVER_TRACE_DEFAULT).to_dict()
    graph.invoke({"question": "warm-up question", "user_groups": []})
    graph_ms, nodes, outputs = [], [], []
    for q in texts:
        t0 = time.perf_counter()
        res = graph.invoke({"question": q, "user_groups": []}, {"configurable": dict(configurable)})
        graph_ms.append(time.perf_counter() - t0)
        nodes.append(res["trace"].get("timings_s", {}))
        outputs.append(res)
    out["graph_ms"] = statistics.median(graph_ms) * 1000
    names = sorted({k for t in nodes for k in t})
    out["nodes_ms"] = {k: statistics.median([t.get(k, 0.0) for t in nodes]) * 1000 for k in names}
    ser = ServerSerializer()

    def encode(res: dict[str, Any]) -> bytes:
        # what LangServe's invoke does with the output: dumpd, then jsonable_encoder and
        # JSONResponse (stdlib json) of the response model's dict
        payload = {
            "output": ser.dumpd(res),
            "metadata": {"run_id": str(uuid.uuid4()), "feedback_tokens": []},
        }
        return bytes(JSONResponse(content=jsonable_encoder(payload)).body)

    out["serialise_langserve_ms"] = statistics.median(
        [_median_ms(lambda res=res: encode(res), 5) for res in outputs]
    )
    out["serialise_ms"] = statistics.median(
        [
            _median_ms(
                lambda res=res: encode_invoke_response(ser, CiteragAnswer, res, uuid.uuid4()), 5
            )
            for res in outputs
        ]
    )
    known = out["auth_ms"] + out["body_ms"] + out["served_graph_ms"] + out["serialise_ms"]
    out["langserve_and_loop_ms"] = out["served_ms"] - out["http_health_ms"] - known
    return out


def print_breakdown(b: dict[str, Any]) -> None:
    """The per-stage table."""
    print(f"\nOne served request (medians of {b['requests']} sequential requests):\n")
    print("| stage | ms |")
    print("|---|---:|")
    print(f"| HTTP round trip + middleware (`GET /health`) | {b['http_health_ms']:.2f} |")
    print(f"| token lookup | {b['auth_ms']:.3f} |")
    print(f"| body: strict JSON + shape + input model | {b['body_ms']:.3f} |")
    print(f"| graph, as the server's trace times its nodes | {b['served_graph_ms']:.1f} |")
    for k, v in b["served_nodes_ms"].items():
        print(f"| … {k} | {v:.2f} |")
    enc = b["serialise_ms"]
    print(f"| response encoding, as served (dumpd + output model + orjson) | {enc:.2f} |")
    print(
        "| … LangServe's own encoding (dumpd + response model + jsonable_encoder + JSON), "
        f"not served | {b['serialise_langserve_ms']:.2f} |"
    )
    print(f"| LangServe, event loop, thread hop (the rest) | {b['langserve_and_loop_ms']:.1f} |")
    print(f"| **served, end to end** | **{b['served_ms']:.1f}** |")
    print(f"\n(the same graph in this process, one request at a time: {b['graph_ms']:.1f} ms)")
    sizes = ", ".join(f"`{k}` {v:,} B" for k, v in b["response_bytes"].items())
    print(f"\nresponse size by trace level: {sizes}")


# -- ingest --------------------------------------------------------------------------------

#: Ingest variants: name -> (runner, embedding model, embedding threads, precision).
INGEST_VARIANTS: dict[str, tuple[str, str | None, int | None, str | None]] = {
    "peer": ("peer", None, None, None),
    # the default: precision "auto" (bfloat16 batches where the CPU has it)
    "citerag": ("citerag", None, None, None),
    # the default before "auto": every forward pass in float32
    "citerag-fp32": ("citerag", None, None, "fp32"),
    "citerag-int8": ("citerag", "minilm-int8", None, None),
    "citerag-1thread": ("citerag", None, 1, None),
    "citerag-int8-1thread": ("citerag", "minilm-int8", 1, None),
    # sentence vectors pooled from the chunk's own encoder pass (not the default:
    # docs/benchmarks/ingestion.md)
    "citerag-contextual": ("citerag-contextual", None, None, None),
    "citerag-int8-contextual": ("citerag-contextual", "minilm-int8", None, None),
}


def _financebench_pdfs() -> list[Path]:
    pdfs = sorted(FINANCEBENCH_PDFS.glob("*.pdf"))[:4]
    if len(pdfs) < 4:
        raise SystemExit(f"--ingest needs the 4 FinanceBench PDFs in {FINANCEBENCH_PDFS}")
    return pdfs


def ingest_child(variant: str, work: Path) -> dict[str, Any]:
    """One timed ingest of the 4 PDFs in this (fresh) process; model loaded and warm first."""
    runner, model_name, threads, precision = INGEST_VARIANTS[variant]
    pdfs = _financebench_pdfs()
    if runner == "peer":
        from langchain_community.document_loaders import PyPDFLoader
        from langchain_community.vectorstores import FAISS
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        emb = peer_embeddings()
        emb.embed_documents(["warm-up"])
        inner = emb.embed_documents
        embed_s = [0.0]

        def timed(texts: list[str]) -> list[list[float]]:
            t = time.perf_counter()
            try:
                return inner(texts)
            finally:
                embed_s[0] += time.perf_counter() - t

        object.__setattr__(emb, "embed_documents", timed)
        t0 = time.perf_counter()
        docs = []
        for p in pdfs:
            docs.extend(PyPDFLoader(str(p)).load())
        t1 = time.perf_counter()
        chunks = RecursiveCharacterTextSplitter(chunk_size=600, chunk_overlap=80).split_documents(
            docs
        )
        t2 = time.perf_counter()
        FAISS.from_documents(chunks, emb)
        wall = time.perf_counter() - t0
        stages = {
            "parse": t1 - t0,
            "chunk": t2 - t1,
            "embed_chunks": embed_s[0],
            "index_other": wall - (t2 - t0) - embed_s[0],
        }
        return {"wall_s": wall, "chunks": len(chunks), "texts": len(chunks), "stages": stages}

    from citerag.embeddings import load_embedding_model
    from citerag.index.ingest import ingest
    from citerag.stores.chunk_vectors import add_stage
    from citerag.stores.faiss import bm25

    if runner == "citerag-contextual":
        from citerag.stores import chunk_vectors

        chunk_vectors.PREFERRED_METHOD = chunk_vectors.CONTEXTUAL
    model = load_embedding_model(model_name, threads=threads, precision=precision, traced=False)
    model.embeddings.embed_documents(["warm-up", "warm-up batch"])
    add = bm25.BM25Index.add

    def bm25_add(self: Any, *a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        try:
            return add(self, *a, **k)
        finally:
            add_stage("bm25", time.perf_counter() - t)

    bm25.BM25Index.add = bm25_add  # type: ignore[method-assign]
    t0 = time.perf_counter()
    report = ingest(pdfs, work / f"index-{variant}-{time.time_ns()}", model, progress=False)
    wall = time.perf_counter() - t0
    stages = dict(report.stages)
    stages["index_other"] = stages.get("index_other", 0.0) - stages.get("bm25", 0.0)
    from citerag.stores.chunk_vectors import sentence_method

    return {
        "wall_s": wall,
        "chunks": report.chunks_added,
        "texts": report.embedded_texts,
        "stages": stages,
        "failed": report.failed,
        "sentence_method": sentence_method(model.embeddings),
        "precision": model.precision,
        "torch_threads": __import__("torch").get_num_threads(),
    }


def ingest_row(
    work: Path, repeat: int = 1, variants: tuple[str, ...] = ("peer", "citerag")
) -> dict[str, Any]:
    """Ingest the 4 FinanceBench PDFs: citerag's ``ingest`` vs the peer recipe.

    Each run is a fresh process (this script with ``--ingest-child``) that loads and warms
    its model before the clock starts; variants are interleaved in rotating order, and the
    median and range over ``repeat`` runs are printed with a per-stage breakdown (the median
    of each stage; ``parse`` / ``chunk`` of citerag run in the parse worker, concurrently with
    the main process's stages).
    """
    pdfs = _financebench_pdfs()
    print(f"\ningest: {len(pdfs)} PDFs ({', '.join(p.name for p in pdfs)}); {uptime()}")
    runs: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
    for rep in range(repeat):
        order = list(variants[rep % len(variants) :] + variants[: rep % len(variants)])
        for v in order:
            out = work / f"ingest-{v}-{rep}.json"
            load = uptime()
            subprocess.run(
                [sys.executable, "-m", "benchmarks.speed", "--ingest-child", v, "--json", str(out)],
                check=True,
                cwd=REPO,
            )
            res = json.loads(out.read_text())
            res["uptime"] = load
            runs[v].append(res)
            print(
                f"  repeat {rep + 1} {v:22s} {res['wall_s']:7.1f} s  {res['chunks']} chunks, "
                f"{res['texts']} texts embedded; {load}"
            )
    stage_names = sorted({k for rs in runs.values() for r in rs for k in r["stages"]})
    row: dict[str, Any] = {"pdfs": len(pdfs), "repeat": repeat, "runs": runs}
    peer = statistics.median(r["wall_s"] for r in runs["peer"]) if runs.get("peer") else None
    print("\n| ingest, 4 FinanceBench PDFs | wall s, median [min–max] | chunks | texts | × peer |")
    print("|---|---:|---:|---:|---:|")
    for v, rs in runs.items():
        med, lo, hi = median_range([r["wall_s"] for r in rs])
        ratio = f"{med / peer:.2f}" if peer else "–"
        row[v] = {"wall_s": med, "min_s": lo, "max_s": hi, "vs_peer": med / peer if peer else None}
        print(
            f"| {v} | {med:.1f} [{lo:.1f}–{hi:.1f}] | {rs[0]['chunks']} | {rs[0]['texts']} "
            f"| {ratio} |"
        )
    print("\n| stage, s (median) | " + " | ".join(runs) + " |")
    print("|---|" + "---:|" * len(runs))
    for name in stage_names:
        cells = [
            f"{statistics.median(r['stages'].get(name, 0.0) for r in rs):.1f}"
            for rs in runs.values()
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"{uptime()}")
    return row


# -- main ----------------------------------------------------------------------------------


def main() -> int:
    """Run the benchmark (or, with ``--serve-peer``, the peer server)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=200)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--repeat", type=int, default=3, help="load runs per server (median)")
    p.add_argument(
        "--variants",
        default="batch,nobatch",
        help=f"citerag server variants, comma-separated, of {', '.join(VARIANTS)}",
    )
    p.add_argument(
        "--peer-variants",
        default="peer",
        help=f"peer servers, comma-separated, of {', '.join(PEER_VARIANTS)} (peer-w2: the "
        "same recipe in 2 uvicorn worker processes)",
    )
    p.add_argument("--baseline-src", help="also serve citerag from this source tree")
    p.add_argument("--breakdown-requests", type=int, default=28)
    p.add_argument("--no-breakdown", action="store_true")
    p.add_argument("--ingest", action="store_true", help="also the ingest row (FinanceBench)")
    p.add_argument("--ingest-only", action="store_true", help="only the ingest row")
    p.add_argument("--ingest-repeat", type=int, default=3, help="ingest runs per variant")
    p.add_argument(
        "--ingest-variants",
        default="peer,citerag,citerag-int8",
        help=f"ingest variants, comma-separated, of {', '.join(INGEST_VARIANTS)}",
    )
    p.add_argument("--ingest-child", help=argparse.SUPPRESS)
    p.add_argument("--json", type=Path, help="write the results here")
    p.add_argument("--serve-peer", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--peer-workers", type=int, default=1, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve_peer:
        return serve_peer(args.port, args.peer_workers)
    if args.ingest_child:
        tmp = Path(tempfile.mkdtemp(prefix="citerag-ingest-"))
        try:
            measured = ingest_child(args.ingest_child, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        args.json.write_text(json.dumps(measured, default=str))
        return 0
    ingest_variants = tuple(v.strip() for v in args.ingest_variants.split(",") if v.strip())
    if any(v not in INGEST_VARIANTS for v in ingest_variants) or not ingest_variants:
        p.error(f"--ingest-variants: choose from {list(INGEST_VARIANTS)}")
    if not 1 <= args.ingest_repeat <= 10:
        p.error("--ingest-repeat must be 1-10")
    args.peer_variants = [v.strip() for v in args.peer_variants.split(",") if v.strip()]
    if not args.peer_variants or [v for v in args.peer_variants if v not in PEER_VARIANTS]:
        p.error(f"--peer-variants must name some of {list(PEER_VARIANTS)}")
    args.variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in args.variants if v not in VARIANTS]
    if unknown:
        p.error(f"unknown variants {unknown}; known: {list(VARIANTS)}")
    if not 1 <= args.requests <= MAX_REQUESTS or not 1 <= args.concurrency <= MAX_CONCURRENCY:
        p.error("--requests must be 1-10000 and --concurrency 1-64")
    if not 1 <= args.repeat <= 20:
        p.error("--repeat must be 1-20")
    pool = len(question_pool())
    if args.repeat * args.requests + args.breakdown_requests > pool:
        p.error(f"--repeat x --requests + --breakdown-requests must not exceed {pool}")

    import torch

    report: dict[str, Any] = {"uptime_before": uptime(), "args": vars(args) | {"json": None}}
    report["machine"] = {"cpus": os.cpu_count(), "torch_threads": torch.get_num_threads()}
    print(f"before: {report['uptime_before']}")
    sets = [questions(args.requests, rep * args.requests) for rep in range(args.repeat)]
    texts = sets[0]
    print(
        f"{len(texts)} requests per run, distinct questions in every run, at concurrency "
        f"{args.concurrency}, {args.repeat} repeat(s)"
    )
    work = Path(tempfile.mkdtemp(prefix="citerag-speed-"))
    if args.ingest_only:
        try:
            report["ingest"] = ingest_row(work, args.ingest_repeat, ingest_variants)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        if args.json:
            args.json.write_text(json.dumps(report, indent=2, default=str))
        write_result("speed_ingestion", ingest_tables(report["ingest"]), report)
        return 0
    try:
        with servers(args, work) as targets:
            for t in targets:
                warm(t)
            results: dict[str, list[LoadResult]] = {t.name: [] for t in targets}
            for rep in range(args.repeat):
                # rotate the order so no server always runs first (or last) in a repeat
                order = targets[rep % len(targets) :] + targets[: rep % len(targets)]
                for t in order:
                    res = drive(t, sets[rep], args.concurrency)
                    results[t.name].append(res)
                    print(
                        f"  repeat {rep + 1} {t.name:18s} {res.rps:6.1f} req/s  p50 "
                        f"{res.ms(50):5.0f}  p95 {res.ms(95):5.0f}  p99 {res.ms(99):5.0f} ms"
                        f"  cpu {res.cpu_ms_per_request:5.1f} ms/req  errors {res.errors}"
                    )
            rows = load_table(results)
            print_load(rows)
            report["serving"] = rows
            if not args.no_breakdown:
                main_target = next(t for t in targets if t.name.startswith("citerag"))
                extra = questions(args.breakdown_requests, args.repeat * args.requests)
                b = breakdown(main_target, work, extra, args.breakdown_requests)
                b["server"] = main_target.name
                print_breakdown(b)
                report["breakdown"] = b
        if args.ingest:
            report["ingest"] = ingest_row(work, args.ingest_repeat, ingest_variants)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report["uptime_after"] = uptime()
    print(f"\nafter: {report['uptime_after']}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2, default=str))
    tables = {"serving": serving_table(report["serving"])}
    write_result("speed_serving", tables, {k: v for k, v in report.items() if k != "ingest"})
    if "ingest" in report:
        write_result("speed_ingestion", ingest_tables(report["ingest"]), report["ingest"])
    return 0


def _range(v: tuple[float, float, float] | list[float], fmt: str) -> str:
    return f"{v[0]:{fmt}} [{v[1]:{fmt}}–{v[2]:{fmt}}]"


def serving_table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The result table ``serving``: per server, median [min–max] over the repeats."""
    body = []
    for r in rows:
        tv, pv = r["throughput_vs_peer"], r["p50_vs_peer"]
        body.append(
            [
                r["server"],
                _range(r["req_s"], ".1f"),
                _range(r["p50_ms"], ".0f"),
                _range(r["p95_ms"], ".0f"),
                _range(r["cpu_ms_per_request"], ".1f"),
                "–" if tv is None else f"{tv:.2f}",
                "–" if pv is None else f"{pv:.2f}",
            ]
        )
    columns = ["`/rag/invoke`, concurrency 8", "req/s", "p50 ms", "p95 ms"]
    columns += ["server CPU ms/request", "× peer req/s", "× peer p50"]
    return table(columns, body)


def ingest_tables(row: dict[str, Any]) -> dict[str, Any]:
    """The result tables ``ingest`` (wall time per variant) and ``stages`` (median seconds)."""
    runs: dict[str, list[dict[str, Any]]] = row["runs"]
    body = []
    for v, rs in runs.items():
        r = row[v]
        ratio = "–" if r["vs_peer"] is None else f"{r['vs_peer']:.2f}"
        wall = f"{r['wall_s']:.1f} [{r['min_s']:.1f}–{r['max_s']:.1f}]"
        body.append([v, wall, f"{rs[0]['texts']:,}", ratio])
    columns = [f"ingest, {row['pdfs']} FinanceBench PDFs", "wall s, median [min–max]"]
    ingest = table([*columns, "texts embedded", "× peer"], body)
    names = sorted({k for rs in runs.values() for r in rs for k in r["stages"]})
    stages = table(
        ["stage, s (median)", *runs],
        [
            [name]
            + [
                f"{statistics.median(r['stages'].get(name, 0.0) for r in rs):.1f}"
                for rs in runs.values()
            ]
            for name in names
        ],
    )
    return {"ingest": ingest, "stages": stages}


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "speed_history": (
        "earlier serving and ingest runs (other variants, commits and machine load), kept"
        " as the record of each change"
    ),
}


if __name__ == "__main__":
    raise SystemExit(main())

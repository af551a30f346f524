"""FAISS (embedded default) vs PostgreSQL + pgvector, side by side on the same chunks (issue 13).

Usage (from the repository root)::

    nice -n 10 .venv/bin/python -m benchmarks.pg_store [--chunks 100000] [--queries 300]
        [--ef 40,100,200] [--parts recall,latency,ingest,serve] [--ingest-docs 150]
        [--serve-requests 300] [--max-minutes 60] [--rebuild] [--json]
        [--variants 20000,3000] [--explain] [--perturb 0.005]
        [--hnsw 16:64,32:128,48:200] [--build-timeout-min 15]

One run starts PostgreSQL 16 + pgvector from the ``pgserver`` wheel (data folder
``benchmarks/out/work/pgdata``, stopped at the end) and builds, from the same chunks, a
``CiteragStore`` (FAISS flat + BM25 + sentence vectors, in memory) and a ``PostgresStore``
table (namespace ``pgbench_pad<N>``):

* the chunks are SciFact abstracts and SQuAD 2.0 paragraphs chunked with the default settings
  (``retrieval_latency.load_texts``), 10 % of the documents access-restricted; each distinct
  chunk is embedded once (vectors cached in ``benchmarks/out/work/pg_store_vectors.npz``) and
  written through each store's own ``add_documents``; the index is then padded to
  ``--chunks`` with copies under new ids: in FAISS with the same vectors, tokens and sentence
  vectors, in PostgreSQL with ``INSERT ... SELECT`` of the rows ``add_documents`` wrote (so
  every copy is byte-for-byte what ``add_documents`` would write), then the HNSW index is
  rebuilt with the DDL of ``pg_db.ensure_schema`` (``maintenance_work_mem`` raised for the
  build). A PostgreSQL table of the same size and fingerprint is reused unless ``--rebuild``.

Then, on SQuAD questions and SciFact claims (query vectors computed once, excluded):

1. ``recall``: pgvector HNSW against an exact scan at k = 20, for each ``--ef`` value, without
   and with the access filter. Copies share their source's vector, so ids tie; recall counts
   an HNSW result as found when its distance is within the exact k-th distance (tie-aware),
   and the id-overlap figure is reported too. Goal >= 0.98. Many exact duplicates (about
   21 per vector at 100,000) are a worst case for HNSW (pgvector merges identical vectors
   into elements of at most 10 heap tuples and their neighbour lists fill with each other);
   ``--perturb 0.005 --parts recall`` repeats the measurement on a separate table whose
   copies carry small per-dimension noise (near-duplicates, cosine ~0.995 to the source).
   ``--hnsw m:ef_construction,...`` rebuilds the table's HNSW index with each setting in turn
   (``pg_db.ensure_schema``'s DDL, URL ``?m=&ef_construction=``) and measures each against the
   same exact results, with its build time and ``pg_relation_size``; a build longer than
   ``--build-timeout-min`` is cancelled and reported; the index is rebuilt with the URL
   defaults (m=16, ef_construction=64) afterwards, and a reused table whose index has other
   settings (an interrupted sweep) is rebuilt with them first.
2. ``latency``: p50/p95 of dense, keyword (BM25 vs PostgreSQL full text) and hybrid (what
   ``chains.retrieval.HybridRetriever.retrieve`` does: both legs, RRF, cosine of keyword-only
   candidates; the query embedding excluded) on each store with the access filter on; plus
   the second stage's sentence-vector fetch for 25 candidates. Goal: PostgreSQL hybrid p50
   <= 30 ms at 100,000 chunks. ``--variants`` times the shipped keyword leg with other
   candidate budgets (``pg_keyword.CANDIDATE_BUDGET``) on the same questions, with the share
   of their keyword top 20 that scores as high as the shipped leg's; ``--explain`` prints
   EXPLAIN ANALYZE of the keyword statement for three questions.
3. ``ingest``: chunks/s through the real ``citerag.index.ingest.ingest`` of the same
   ``--ingest-docs`` SciFact abstracts + 2 SQuAD articles into a fresh FAISS directory and a
   fresh PostgreSQL namespace.
4. ``serve``: ``/rag/invoke`` throughput at concurrency 8 against one and two
   ``citerag serve --store URL`` processes on their own ports (requests spread round-robin),
   and one ``--workers 2`` server; the sample corpus ingested into PostgreSQL; distinct
   questions (``speed.questions``) so no process answers from its question cache. Skipped
   with a note when ``citerag serve`` has no ``--store`` option.

Writes ``benchmarks/out/pg_store.json`` and ``pg_store.md`` (+ ``pg_store.png``), and the
result file ``benchmarks/results/pg_store.json`` (the report's tables of the parts that ran;
the docs' tables put several runs together: ``pg_store_history``); ``--json`` also prints the
JSON. Bounded: ``--max-minutes`` stops the query loops and skips parts not
started (reported as such). Not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import (
    REPO,
    TOKEN,
    WORK,
    percentile,
    pg_server,
    start_server,
    stop_servers,
    store_url,
)
from benchmarks.common import ms as _ms
from benchmarks.results import pick_tables, write_result
from benchmarks.retrieval_latency import chunk_texts, load_texts

warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")

OUT = REPO / "benchmarks" / "out"
PARTS = ("recall", "latency", "ingest", "serve")
K = 20


def log(text: str) -> None:
    """Progress line on stderr."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def ms(values: list[float], q: float) -> float | None:
    """Percentile of seconds, in milliseconds (rounded to 0.01 ms; :func:`common.percentile`)."""
    return _ms(values, q, digits=2)


def timing(values: list[float]) -> dict[str, Any]:
    """p50/p95/mean (ms) and count."""
    return {
        "p50": ms(values, 50),
        "p95": ms(values, 95),
        "mean": round(statistics.fmean(values) * 1000, 2) if values else None,
        "n": len(values),
    }


# ------------------------------------------------------------------------------------------
# PostgreSQL
# ------------------------------------------------------------------------------------------


# ------------------------------------------------------------------------------------------
# the chunks
# ------------------------------------------------------------------------------------------


class LookupEmbeddings:
    """The model behind a text -> vector cache: each distinct text is embedded once."""

    def __init__(self, inner: Any) -> None:
        """Wrap the real embedding model."""
        self.inner = inner
        self.cache: dict[str, np.ndarray] = {}
        self.misses = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Vectors of texts (the model sees only texts not cached yet)."""
        todo = list(dict.fromkeys(t for t in texts if t not in self.cache))
        for start in range(0, len(todo), 256):
            part = todo[start : start + 256]
            vecs = np.asarray(self.inner.embed_documents(part), dtype=np.float32)
            self.cache.update(zip(part, vecs, strict=True))
            self.misses += len(part)
        return [self.cache[t].tolist() for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """A cached vector (a query is embedded as a one-document batch)."""
        return self.embed_documents([text])[0]

    def load(self, path: Path, model_name: str) -> int:
        """Load a cache written by :meth:`save` for the same model."""
        if not path.exists():
            return 0
        data = np.load(path, allow_pickle=True)
        if str(data["model"]) != model_name:
            return 0
        self.cache.update(zip((str(t) for t in data["texts"]), data["vectors"], strict=True))
        return len(data["texts"])

    def save(self, path: Path, model_name: str) -> None:
        """Persist the cache as ``.npz``."""
        texts = list(self.cache)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(
            tmp,
            texts=np.asarray(texts, dtype=object),
            vectors=np.asarray([self.cache[t] for t in texts], dtype=np.float32),
            model=np.asarray(model_name),
        )
        tmp.replace(path)


class FixedQueryVectors:
    """An ``Embeddings`` that answers ``embed_query`` from precomputed vectors (timing)."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        """Hold the precomputed query vectors."""
        self.vectors = vectors

    def embed_query(self, text: str) -> list[float]:
        """The precomputed vector."""
        return self.vectors[text]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Not used while timing."""
        raise RuntimeError("FixedQueryVectors only answers queries")


def build_chunks(data: Path) -> tuple[list[Any], list[str], list[str]]:
    """The default-settings chunks of SciFact + SQuAD (``Document``s), SQuAD questions and
    SciFact claims. Every 10th document is access-restricted (as in retrieval_latency)."""
    from langchain_core.documents import Document

    docs, squad_qs = load_texts(data)
    chunks = [Document(page_content=c.text, metadata=c.to_metadata()) for c in chunk_texts(docs)]
    claims = [
        json.loads(line)["text"]
        for line in (data / "scifact-1k" / "queries.jsonl").read_text().splitlines()
        if line.strip()
    ]
    return chunks, squad_qs, claims


def fingerprint(chunks: list[Any], n: int, model_name: str) -> str:
    """Identity of a padded index: the chunk texts and labels, its size and the model."""
    h = hashlib.sha256(f"{model_name}|{n}".encode())
    for d in chunks:
        h.update(d.page_content.encode())
        h.update(str(d.metadata.get("access")).encode())
    return h.hexdigest()[:16]


def build_faiss(emb: LookupEmbeddings, dim: int, chunks: list[Any], n: int) -> Any:
    """A CiteragStore of the real chunks (``add_documents``) padded to ``n`` with copies."""
    from tqdm import tqdm

    from citerag.stores.faiss.store import CiteragStore

    store = CiteragStore(emb, dim, sentence_vectors=True)  # type: ignore[arg-type]
    real_ids = [f"r{i}" for i in range(len(chunks))]
    for start in tqdm(range(0, len(chunks), 512), desc="FAISS add_documents", unit="batch"):
        store.add_documents(chunks[start : start + 512], ids=real_ids[start : start + 512])
    vecs = store.dense.index.reconstruct_n(0, len(chunks))
    pos = store._position_map()
    pad = n - len(chunks)
    for start in tqdm(range(0, pad, 10_000), desc="FAISS padding", unit="10k"):
        idx = list(range(start, min(pad, start + 10_000)))
        src = [i % len(chunks) for i in idx]
        keys = [f"p{i}" for i in idx]
        store.dense.add_embeddings(
            [(chunks[s].page_content, vecs[pos[f"r{s}"]].tolist()) for s in src],
            metadatas=[dict(chunks[s].metadata) for s in src],
            ids=keys,
        )
        store.bm25.add(keys, [chunks[s].page_content for s in src])
        store.sentences.update(
            (k, store.sentences[f"r{s}"]) for k, s in zip(keys, src, strict=True)
        )
    store._mask_cache.clear()
    store._pos_map = None
    return store


def build_postgres(
    emb: LookupEmbeddings,
    dim: int,
    chunks: list[Any],
    n: int,
    uri: str,
    ns: str,
    fp: str,
    rebuild: bool,
    perturb: float = 0.0,
) -> dict[str, Any]:
    """The same chunks in a PostgreSQL namespace (reused when its fingerprint matches).

    ``perturb`` > 0 (a diagnostic, not the benchmark's table): each padded copy's vector gets
    Gaussian-like noise of that standard deviation per dimension, so copies are near- but not
    exact duplicates of their source (HNSW degrades on many exact duplicates).
    """
    from psycopg import sql

    from citerag.stores.postgres.db import (
        StoreURL,
        connect,
        ensure_schema,
        read_meta,
        table_exists,
        write_meta,
    )
    from citerag.stores.postgres.store import PostgresStore

    u = StoreURL.parse(store_url(uri, ns))
    chunks_t, sents_t = u.table("chunks"), u.table("sentences")
    with connect(u, autocommit=True) as conn:
        if not rebuild and table_exists(conn, u, "meta"):
            have = read_meta(conn, u, "bench")
            if have and have.get("fingerprint") == fp:
                log(f"reusing {u.namespace} ({n} chunks, fingerprint {fp})")
                with connect(u) as wconn:
                    ensure_schema(wconn, u, dim)  # tables added to the schema since
                    wconn.commit()
                want = {k: u.hnsw[k] for k in ("m", "ef_construction")}
                if (got := hnsw_settings(uri, ns)) != want:  # e.g. an interrupted HNSW sweep
                    log(f"HNSW index is {got}, not {want}: rebuilding it")
                    rebuild_hnsw(uri, ns, dim, want["m"], want["ef_construction"])
                return {**have, "reused": True}
        for suffix in ("sentences", "chunks", "records", "meta"):
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {} CASCADE").format(u.table(suffix)))
    info: dict[str, Any] = {"fingerprint": fp, "chunks": n, "distinct": len(chunks)}
    with connect(u) as conn:
        ensure_schema(conn, u, dim)
        conn.commit()
        store = PostgresStore.for_writing(emb, dim, u, conn)  # type: ignore[arg-type]
        t0 = time.perf_counter()
        from tqdm import tqdm

        for start in tqdm(range(0, len(chunks), 512), desc="PostgreSQL add_documents", unit="b"):
            store.add_documents(
                chunks[start : start + 512],
                ids=[f"r{i}" for i in range(start, min(len(chunks), start + 512))],
            )
        conn.commit()
        info["add_documents_s"] = round(time.perf_counter() - t0, 1)
        t0 = time.perf_counter()
        conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(f"{u.namespace}_chunks_hnsw")))
        pad, real = n - len(chunks), len(chunks)
        conn.execute(
            sql.SQL(
                "INSERT INTO {c} (langchain_id, content, embedding, access, doc_id,"
                " langchain_metadata) SELECT 'p' || g.n, c.content, {emb}, c.access,"
                " c.doc_id, c.langchain_metadata FROM generate_series(0, %s) AS g(n)"
                " JOIN {c} c ON c.langchain_id = 'r' || (g.n %% %s)"
            ).format(
                c=chunks_t,
                emb=sql.SQL(
                    "c.embedding + (SELECT array_agg((random() + random() + random() - 1.5)"
                    " * 2 * {s}) FROM generate_series(1, {d} + 0 * g.n))::vector"
                ).format(s=sql.Literal(perturb), d=sql.Literal(dim))
                if perturb
                else sql.SQL("c.embedding"),
            ),
            [pad - 1, real],
        )
        conn.execute(
            sql.SQL(
                "INSERT INTO {s} (langchain_id, spans, vectors) SELECT 'p' || g.n, s.spans,"
                " s.vectors FROM generate_series(0, %s) AS g(n)"
                " JOIN {s} s ON s.langchain_id = 'r' || (g.n %% %s)"
            ).format(s=sents_t),
            [pad - 1, real],
        )
        if table_exists(conn, u, "terms"):  # the keyword leg's statistics, as add_documents
            from citerag.stores.postgres.db import add_stats

            add_stats(conn, u, [f"p{i}" for i in range(pad)])
        conn.commit()
        info["padding_s"] = round(time.perf_counter() - t0, 1)
        t0 = time.perf_counter()
        log(f"building the HNSW index over {n} rows ...")
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        ensure_schema(conn, u, dim)  # re-creates the dropped HNSW index, same DDL
        conn.commit()
        info["hnsw_build_s"] = round(time.perf_counter() - t0, 1)
        write_meta(conn, u, "bench", info)
        conn.commit()
    with connect(u, autocommit=True) as conn:
        conn.execute(sql.SQL("VACUUM ANALYZE {}").format(chunks_t))
        conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sents_t))
        size = conn.execute(
            "SELECT pg_total_relation_size(%s), pg_relation_size(%s)",
            [f"{u.namespace}_chunks", f"{u.namespace}_chunks_hnsw"],
        ).fetchone()
    info["table_mb"] = round(size[0] / 2**20, 1)
    info["hnsw_mb"] = round(size[1] / 2**20, 1)
    with connect(u) as conn:
        write_meta(conn, u, "bench", info)
        conn.commit()
    return {**info, "reused": False}


# ------------------------------------------------------------------------------------------
# parts 1-2: recall and latency
# ------------------------------------------------------------------------------------------


def hnsw_settings(uri: str, ns: str) -> dict[str, int] | None:
    """``m`` / ``ef_construction`` of the namespace's HNSW index (None: no index)."""
    from citerag.stores.postgres.db import StoreURL, connect

    with connect(StoreURL.parse(store_url(uri, ns)), autocommit=True) as conn:
        row = conn.execute(
            "SELECT reloptions FROM pg_class WHERE relname = %s AND relkind = 'i'",
            [f"{ns}_chunks_hnsw"],
        ).fetchone()
    if row is None:
        return None
    opts = dict(o.split("=", 1) for o in row[0] or [])
    return {"m": int(opts.get("m", 16)), "ef_construction": int(opts.get("ef_construction", 64))}


def rebuild_hnsw(
    uri: str, ns: str, dim: int, m: int, efc: int, timeout_s: float = 0
) -> dict[str, Any]:
    """Drop the namespace's HNSW index and build it again with ``m`` / ``ef_construction``.

    The DDL of ``pg_db.ensure_schema`` (URL ``?m=&ef_construction=``) with the build settings
    of :func:`build_postgres`; ``timeout_s`` > 0 cancels a longer build (``statement_timeout``),
    leaving the table without an HNSW index (the caller restores one).
    """
    import psycopg
    from psycopg import sql

    from citerag.stores.postgres.db import StoreURL, connect, ensure_schema

    u = StoreURL.parse(store_url(uri, ns, m=m, ef_construction=efc))
    name = f"{ns}_chunks_hnsw"
    out: dict[str, Any] = {"m": m, "ef_construction": efc}
    with connect(u) as conn:
        conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(name)))
        conn.commit()
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        conn.execute(
            sql.SQL("SET statement_timeout = {}").format(sql.Literal(int(timeout_s * 1000)))
        )
        conn.commit()
        log(f"building HNSW m={m}, ef_construction={efc} on {ns} ...")
        t0 = time.perf_counter()
        try:
            ensure_schema(conn, u, dim)
            conn.commit()
        except psycopg.errors.QueryCanceled:
            conn.rollback()
            out["stopped_after_s"] = round(time.perf_counter() - t0, 1)
            log(f"HNSW m={m}, ef_construction={efc}: stopped after {out['stopped_after_s']} s")
            return out
        out["build_s"] = round(time.perf_counter() - t0, 1)
        conn.execute("SET statement_timeout = 0")
        conn.execute(sql.SQL("ANALYZE {}").format(u.table("chunks")))
        size = conn.execute("SELECT pg_relation_size(%s)", [name]).fetchone()[0]
        conn.commit()
    out["index_mb"] = round(size / 2**20, 1)
    log(f"HNSW m={m}, ef_construction={efc}: {out['build_s']} s, {out['index_mb']} MB")
    return out


def recall_part(
    uri: str,
    ns: str,
    emb: Any,
    dim: int,
    qs: list[str],
    qv: dict[str, list[float]],
    efs: list[int],
    flt: dict[str, Any],
    deadline: float,
    builds: list[tuple[int, int]] | None = None,
    build_timeout_s: float = 900,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """HNSW against an exact scan at k = 20, per ef_search, without and with the filter.

    ``builds``: (m, ef_construction) settings to rebuild the table's HNSW index with, one
    after the other, each measured at every ef_search against the same exact results
    (``None``: the index as it is). The index is rebuilt with the URL defaults afterwards.

    Returns:
        ``(recall rows, build rows)``.
    """
    from tqdm import tqdm

    from citerag.stores.postgres.db import HNSW_EF_CONSTRUCTION, HNSW_M, StoreURL
    from citerag.stores.postgres.store import PostgresStore

    exact_store = PostgresStore(emb, dim, StoreURL.parse(store_url(uri, ns)))
    filters = (("no filter", None), ("access filter", flt))
    exact: dict[str, dict[str, Any]] = {}
    for fname, f in filters:
        exact[fname] = {}
        for q in tqdm(qs, desc=f"exact k={K} ({fname})", unit="q"):
            if time.monotonic() > deadline:
                break
            exact[fname][q] = exact_store.similarity_search_with_score_by_vector(
                qv[q], K, filter=f, exact=True
            )
    exact_store.close()
    out: dict[str, Any] = {}
    built: dict[str, Any] = {}
    current = hnsw_settings(uri, ns)
    todo: list[tuple[int, int] | None] = list(builds) if builds else [None]
    try:
        for setting in todo:
            if setting is None:
                cur = current or {"m": HNSW_M, "ef_construction": HNSW_EF_CONSTRUCTION}
                m, efc = cur["m"], cur["ef_construction"]
            else:
                m, efc = setting
                if time.monotonic() > deadline:
                    built[f"m={m}, ef_construction={efc}"] = {
                        "m": m,
                        "ef_construction": efc,
                        "skipped": "time limit",
                    }
                    continue
                info = rebuild_hnsw(uri, ns, dim, m, efc, build_timeout_s)
                built[f"m={m}, ef_construction={efc}"] = info
                current = None
                if "build_s" not in info:
                    continue
                current = {"m": m, "ef_construction": efc}
            stores = {
                ef: PostgresStore(emb, dim, StoreURL.parse(store_url(uri, ns, ef_search=ef)))
                for ef in efs
            }
            for fname, f in filters:
                for ef, st in stores.items():
                    ids_r, tie_r, times = [], [], []
                    before = st.exact_fallbacks
                    for q in tqdm(
                        list(exact[fname]), desc=f"HNSW m={m} ef={ef} ({fname})", unit="q"
                    ):
                        t0 = time.perf_counter()
                        got = st.similarity_search_with_score_by_vector(qv[q], K, filter=f)
                        times.append(time.perf_counter() - t0)
                        ex = exact[fname][q]
                        kth = ex[-1][1] if ex else 1.0
                        ids_r.append(
                            len({d.id for d, _ in got} & {d.id for d, _ in ex}) / max(1, len(ex))
                        )
                        tie_r.append(
                            min(1.0, sum(s >= kth - 1e-5 for _, s in got) / max(1, len(ex)))
                        )
                    out[f"m={m}, ef_construction={efc}, ef_search={ef}, {fname}"] = {
                        "m": m,
                        "ef_construction": efc,
                        "ef_search": ef,
                        "filter": fname,
                        "queries": len(ids_r),
                        "recall_at_20": round(statistics.fmean(tie_r), 4) if tie_r else None,
                        "recall_at_20_min": round(min(tie_r), 3) if tie_r else None,
                        "id_overlap_at_20": round(statistics.fmean(ids_r), 4) if ids_r else None,
                        "exact_fallbacks": st.exact_fallbacks - before,
                        "latency_ms": timing(times),
                    }
            for st in stores.values():
                st.close()
    finally:
        if builds and current != {"m": HNSW_M, "ef_construction": HNSW_EF_CONSTRUCTION}:
            log("restoring the table's HNSW index (URL defaults) ...")
            rebuild_hnsw(uri, ns, dim, HNSW_M, HNSW_EF_CONSTRUCTION)
    return out, built


@contextlib.contextmanager
def keyword_variant(budget: int) -> Iterator[None]:
    """Run the shipped PostgreSQL keyword leg with another candidate budget."""
    from citerag.stores.postgres import keyword as kw

    old = kw.CANDIDATE_BUDGET
    try:
        kw.CANDIDATE_BUDGET = budget
        yield
    finally:
        kw.CANDIDATE_BUDGET = old


def latency_part(
    fstore: Any,
    pstore: Any,
    qs: list[str],
    qv: dict[str, list[float]],
    flt: dict[str, Any],
    deadline: float,
    variants: dict[str, int],
) -> dict[str, Any]:
    """p50/p95 of each retrieval leg on both stores, access filter on, embedding excluded.

    ``variants``: other candidate budgets for the shipped PostgreSQL keyword leg (name ->
    budget), timed on the same questions; their keyword top 20 is compared with the shipped
    one's (share of results scoring at least the shipped 20th score: copies tie).
    """
    from tqdm import tqdm

    from chains.retrieval import HybridRetriever
    from graphs.config import RAGConfig

    cfg = RAGConfig()
    fixed = FixedQueryVectors(qv)
    runs: dict[str, tuple[Any, Any]] = {
        "faiss": (fstore, contextlib.nullcontext),
        "postgres": (pstore, contextlib.nullcontext),
    }
    for name, budget in variants.items():
        runs[name] = (pstore, lambda b=budget: keyword_variant(b))
    retr = {name: HybridRetriever(st, embeddings=fixed) for name, (st, _) in runs.items()}  # type: ignore[arg-type]
    t: dict[str, dict[str, list[float]]] = {
        s: {k: [] for k in ("dense", "keyword", "hybrid", "sentences25")} for s in runs
    }
    agree: dict[str, list[float]] = {name: [] for name in variants}
    for q in qs[:10]:  # warm-up (caches, pool, masks), not measured
        for name, (_st, ctx) in runs.items():
            with ctx():
                retr[name].retrieve(
                    q, user_groups=[], k=cfg.k, k_dense=cfg.k_dense, k_bm25=cfg.k_bm25
                )
    for q in tqdm(qs, desc="latency (both stores)", unit="q"):
        if time.monotonic() > deadline:
            break
        v = qv[q]
        shipped: list[tuple[Any, float]] = []
        for name, (st, ctx) in runs.items():
            with ctx():
                a = time.perf_counter()
                st.similarity_search_with_score_by_vector(v, cfg.k_dense, filter=flt)
                b = time.perf_counter()
                kw_hits = st.bm25_search(q, cfg.k_bm25, filter=flt)
                c = time.perf_counter()
                res = retr[name].retrieve(
                    q,
                    user_groups=[],
                    k=cfg.k,
                    k_dense=cfg.k_dense,
                    k_bm25=cfg.k_bm25,
                    rrf_k=cfg.rrf_k,
                )
                d = time.perf_counter()
                keys = [x.key for x in res.candidates[:25]]
                if hasattr(st, "sentence_vectors_many"):
                    st.sentence_vectors_many(keys)
                else:
                    for key in keys:
                        st.sentence_vectors_for(key)
                e = time.perf_counter()
            t[name]["dense"].append(b - a)
            t[name]["keyword"].append(c - b)
            t[name]["hybrid"].append(d - c)
            t[name]["sentences25"].append(e - d)
            if name == "postgres":
                shipped = kw_hits
            elif name in agree and shipped:
                kth = shipped[-1][1]
                agree[name].append(
                    sum(sc >= kth - 1e-9 for _, sc in kw_hits[: len(shipped)]) / len(shipped)
                )
    out: dict[str, Any] = {
        name: {k: timing(v) for k, v in legs.items()} for name, legs in t.items()
    }
    for name, budget in variants.items():
        out[name]["settings"] = {"candidate_budget": budget}
        out[name]["keyword_top20_agreement_with_shipped"] = (
            round(statistics.fmean(agree[name]), 4) if agree[name] else None
        )
    return out


def explain_keyword(pstore: Any, q: str, flt: dict[str, Any]) -> str:
    """EXPLAIN ANALYZE of the last statement the keyword leg runs for one question.

    The store's own ``bm25_search`` runs through a connection proxy that records what it
    executes, so this follows the keyword leg's current code whatever its SQL is.
    """
    from psycopg import sql

    seen: list[tuple[Any, Any]] = []
    real = pstore._connection

    class Proxy:
        def __init__(self, conn: Any) -> None:
            self._conn = conn

        def execute(self, stmt: Any, args: Any = None, **kw: Any) -> Any:
            seen.append((stmt, args))
            return self._conn.execute(stmt, args, **kw)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._conn, name)

    @contextlib.contextmanager
    def proxied() -> Iterator[Any]:
        with real() as conn:
            yield Proxy(conn)

    pstore._connection = proxied
    try:
        pstore.bm25_search(q, K, filter=flt)
    finally:
        del pstore._connection
    stmt, args = seen[-1]
    if isinstance(stmt, str):
        stmt = sql.SQL(stmt)  # type: ignore[arg-type]
    with real() as conn:
        rows = conn.execute(sql.SQL("EXPLAIN (ANALYZE, BUFFERS) ") + stmt, args).fetchall()
    return "\n".join(r[0] for r in rows)


# ------------------------------------------------------------------------------------------
# part 3: ingest throughput
# ------------------------------------------------------------------------------------------


def ingest_part(uri: str, model: Any, n_docs: int, args: argparse.Namespace) -> dict[str, Any]:
    """The same real documents through ``ingest()`` into FAISS and into PostgreSQL."""
    from citerag.eval.adapters import prepare
    from citerag.index.ingest import ingest

    tmp = Path(tempfile.mkdtemp(prefix="citerag-pgbench-"))
    try:
        folder = tmp / "docs"
        folder.mkdir()
        sci = prepare("scifact", args.data, WORK)
        squad = prepare("squad", args.data, WORK)
        files = sorted(sci.corpus.glob("*.txt"))[:n_docs] + sorted(squad.corpus.glob("*.txt"))[:2]
        for f in files:
            shutil.copy(f, folder / f.name)
        size = sum(f.stat().st_size for f in files)
        out: dict[str, Any] = {"documents": len(files), "bytes": size}
        ns = f"pgbench_ingest_{int(time.time())}"
        for name, loc in (("faiss", tmp / "index"), ("postgres", store_url(uri, ns))):
            t0 = time.perf_counter()
            rep = ingest([folder], loc, model, progress=True)
            sec = time.perf_counter() - t0
            out[name] = {
                "seconds": round(sec, 1),
                "chunks": rep.chunks_added,
                "embedded_texts": rep.embedded_texts,
                "chunks_per_s": round(rep.chunks_added / sec, 1),
                "failed": len(rep.failed),
            }
            log(f"ingest {name}: {rep.chunks_added} chunks in {sec:.1f} s")
        drop_namespace(uri, ns)
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def drop_namespace(uri: str, ns: str) -> None:
    """Drop a namespace's tables."""
    from psycopg import sql

    from citerag.stores.postgres.db import StoreURL, connect

    u = StoreURL.parse(store_url(uri, ns))
    with connect(u, autocommit=True) as conn:
        for suffix in ("sentences", "chunks", "records", "meta"):
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {} CASCADE").format(u.table(suffix)))


# ------------------------------------------------------------------------------------------
# part 4: serving throughput, one vs two processes
# ------------------------------------------------------------------------------------------


def serve_supports_store() -> bool:
    """Whether ``citerag serve`` takes ``--store`` (the server helper's work)."""
    r = subprocess.run(
        [sys.executable, "-m", "citerag", "serve", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    return "--store" in r.stdout


def start_store_server(
    work: Path, url: str, tag: str, workers: int = 1
) -> tuple[subprocess.Popen, str]:
    """``citerag serve --store URL`` on a free loopback port (token file in ``work``)."""
    return start_server(work, store=url, tag=tag, extra_args=["--workers", str(workers)])


def drive(
    urls: list[str], n: int, concurrency: int, deadline: float, offset: int = 0
) -> dict[str, Any]:
    """``n`` ``/rag/invoke`` requests at ``concurrency``, spread round-robin over ``urls``.

    The questions are distinct (``speed.questions``: the sample questions phrased many ways,
    from ``offset`` on), so no process answers from its question cache.
    """
    import httpx

    from benchmarks.speed import questions

    qs = questions(n, offset)
    warm = [f"Warm-up question about the cooperative, variant {chr(65 + i)}?" for i in range(16)]
    headers = {"Authorization": f"Bearer {TOKEN}"}
    local = threading.local()

    def one(i: int, texts: list[str] = qs) -> tuple[float, str]:
        if time.monotonic() > deadline:
            return float("nan"), "skipped"
        if not hasattr(local, "clients"):
            local.clients = [httpx.Client(base_url=u, headers=headers, timeout=120.0) for u in urls]
        t0 = time.perf_counter()
        try:
            r = local.clients[i % len(urls)].post(
                "/rag/invoke", json={"input": {"question": texts[i % len(texts)]}}
            )
            dt = time.perf_counter() - t0
            if r.status_code != 200:
                return dt, f"HTTP {r.status_code}"
            status = r.json()["output"]["status"]
            return dt, "" if status in ("answered", "no_evidence") else f"status {status}"
        except Exception as exc:
            return time.perf_counter() - t0, f"{type(exc).__name__}"

    for i in range(8 * len(urls)):  # warm-up with other questions, not measured
        one(i, warm)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        res = list(pool.map(one, range(n)))
    wall = time.perf_counter() - t0
    done = [(dt, e) for dt, e in res if e != "skipped"]
    lat = [dt for dt, e in done if not e]
    return {
        "processes": len(urls),
        "requests": len(done),
        "errors": sum(1 for _, e in done if e),
        "error_kinds": sorted({e for _, e in done if e})[:5],
        "wall_s": round(wall, 2),
        "throughput_rps": round(len(done) / wall, 2) if wall else None,
        "latency_ms": {
            "p50": round(percentile(lat, 50) * 1000, 1),
            "p95": round(percentile(lat, 95) * 1000, 1),
        },
    }


def serve_part(uri: str, model: Any, n: int, deadline: float) -> dict[str, Any]:
    """Requests/s at concurrency 8: one vs two ``citerag serve --store`` processes."""
    from benchmarks.common import wait_ready
    from citerag.index.ingest import ingest

    if not serve_supports_store():
        return {
            "skipped": "`citerag serve` has no --store option yet (server helper's work); "
            "this part runs unchanged once it has"
        }
    ns = "pgbench_serve"
    url = store_url(uri, ns)
    ingest([REPO / "examples" / "corpus"], url, model, progress=False)
    work = Path(tempfile.mkdtemp(prefix="citerag-pgserve-"))
    out: dict[str, Any] = {"corpus": "examples/corpus", "concurrency": 8}
    try:
        # (label, processes on their own ports, uvicorn workers per process)
        for run, (label, count, workers) in enumerate(
            (
                ("1 process", 1, 1),
                ("2 processes", 2, 1),
                ("1 server, --workers 2", 1, 2),
            )
        ):
            if time.monotonic() > deadline:
                out[label] = {"skipped": "time limit"}
                continue
            procs: list[subprocess.Popen] = []
            try:
                urls = []
                for i in range(count):
                    p, u = start_store_server(work, url, f"{count}-{workers}-{i}", workers)
                    procs.append(p)
                    urls.append(u)
                for p, u in zip(procs, urls, strict=True):
                    wait_ready(u, p)
                if workers > 1:
                    time.sleep(5)  # every worker loaded (/ready answers from the first)
                out[label] = {
                    **drive(urls, n, 8, deadline, offset=n * run),
                    "workers_per_process": workers,
                }
                log(f"serve, {label}: {out[label]}")
            finally:
                stop_servers(*procs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


# ------------------------------------------------------------------------------------------
# output
# ------------------------------------------------------------------------------------------


def markdown(res: dict[str, Any]) -> str:
    """The tables of docs/benchmarks/stores.md."""
    md = [
        f"## FAISS vs PostgreSQL + pgvector — {res['chunks']} chunks\n",
        f"{res['distinct']} distinct chunks (SciFact + SQuAD, default chunking), padded with "
        f"copies; 10 % restricted; {res['queries']} questions; PostgreSQL {res['postgresql']}, "
        f"pgvector {res['pgvector']}, 2 CPU cores (load average at start {res['load']}).\n",
    ]
    if "recall" in res:
        md += [
            "### HNSW recall@20 against exact search (goal >= 0.98)\n",
            "| m | ef_construction | ef_search | filter | recall@20 (tie-aware) | min |"
            " id overlap | exact fallbacks | dense p50 ms |",
            "|---:|---:|---:|---|---:|---:|---:|---:|---:|",
        ]
        for r in res["recall"].values():
            md.append(
                f"| {r.get('m', 16)} | {r.get('ef_construction', 64)} | "
                f"{r['ef_search']} | {r['filter']} | {r['recall_at_20']} | "
                f"{r['recall_at_20_min']} | {r['id_overlap_at_20']} | "
                f"{r['exact_fallbacks']} | {r['latency_ms']['p50']} |"
            )
        md.append("")
    if res.get("hnsw_builds"):
        md += [
            "HNSW builds (`maintenance_work_mem` 1GB, 1 parallel maintenance worker):\n",
            "| m | ef_construction | build s | index MB (pg_relation_size) |",
            "|---:|---:|---:|---:|",
        ]
        for b in res["hnsw_builds"].values():
            secs = b.get("build_s") or f"stopped after {b.get('stopped_after_s', b.get('skipped'))}"
            md.append(f"| {b['m']} | {b['ef_construction']} | {secs} | {b.get('index_mb', '-')} |")
        md.append("")
    if "latency" in res:
        lat = res["latency"]
        md += [
            "### Retrieval latency, access filter on, query embedding excluded\n",
            f"Query embedding: p50 {res['embed_ms']['p50']} ms, p95 {res['embed_ms']['p95']} ms.\n",
            "| step | FAISS p50 | FAISS p95 | PostgreSQL p50 | PostgreSQL p95 |",
            "|---|---:|---:|---:|---:|",
        ]
        labels = {
            "dense": "dense (FAISS flat / HNSW ef_search=100)",
            "keyword": "keyword (BM25 / full text)",
            "hybrid": "**hybrid (HybridRetriever.retrieve)**",
            "sentences25": "sentence vectors of 25 candidates",
        }
        for key, label in labels.items():
            f, p = lat["faiss"][key], lat["postgres"][key]
            md.append(f"| {label} | {f['p50']} | {f['p95']} | {p['p50']} | {p['p95']} |")
        md.append("")
        extra = [k for k in lat if k not in ("faiss", "postgres")]
        if extra:
            md += [
                "PostgreSQL keyword-leg variants (same questions; agreement: share of the "
                "variant's keyword top 20 scoring at least the shipped 20th score):\n",
                "| keyword leg | keyword p50 | keyword p95 | hybrid p50 | hybrid p95 |"
                " top-20 agreement |",
                "|---|---:|---:|---:|---:|---:|",
                f"| shipped (budget {res.get('candidate_budget', '?')}) | "
                f"{lat['postgres']['keyword']['p50']} | "
                f"{lat['postgres']['keyword']['p95']} | {lat['postgres']['hybrid']['p50']} | "
                f"{lat['postgres']['hybrid']['p95']} | 1 |",
            ]
            for k in extra:
                r = lat[k]
                md.append(
                    f"| {k} | {r['keyword']['p50']} | {r['keyword']['p95']} | "
                    f"{r['hybrid']['p50']} | {r['hybrid']['p95']} | "
                    f"{r['keyword_top20_agreement_with_shipped']} |"
                )
            md.append("")
    if "ingest" in res:
        ing = res["ingest"]
        md += [
            f"### Ingest throughput ({ing['documents']} documents, real `ingest()`)\n",
            "| store | chunks | seconds | chunks/s |",
            "|---|---:|---:|---:|",
        ]
        for name in ("faiss", "postgres"):
            r = ing[name]
            md.append(f"| {name} | {r['chunks']} | {r['seconds']} | {r['chunks_per_s']} |")
        md.append("")
    if "serve" in res:
        sv = res["serve"]
        md.append("### `/rag/invoke` at concurrency 8 on the PostgreSQL store\n")
        if "skipped" in sv:
            md.append(f"Skipped: {sv['skipped']}.")
        else:
            md += [
                "| servers | requests | errors | req/s | p50 ms | p95 ms |",
                "|---:|---:|---:|---:|---:|---:|",
            ]
            for key, r in sv.items():
                if isinstance(r, dict) and "processes" in r:
                    md.append(
                        f"| {key} | {r['requests']} | {r['errors']} | "
                        f"{r['throughput_rps']} | {r['latency_ms']['p50']} | "
                        f"{r['latency_ms']['p95']} |"
                    )
        md.append("")
    if res.get("skipped_parts"):
        md.append(f"Not run (time limit): {', '.join(res['skipped_parts'])}.")
    return "\n".join(md)


def plot(res: dict[str, Any], path: Path) -> Path | None:
    """Latency bars (p50 with p95 whiskers) and recall per ef_search."""
    if "latency" not in res and "recall" not in res:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    if "latency" in res:
        ax = axes[0]
        legs = ["dense", "keyword", "hybrid"]
        x = np.arange(len(legs))
        for j, (name, color) in enumerate((("faiss", "tab:blue"), ("postgres", "tab:orange"))):
            p50 = [res["latency"][name][leg]["p50"] for leg in legs]
            p95 = [res["latency"][name][leg]["p95"] for leg in legs]
            ax.bar(
                x + (j - 0.5) * 0.38,
                p50,
                0.38,
                color=color,
                label="FAISS flat + BM25" if name == "faiss" else "PostgreSQL HNSW + full text",
                yerr=[[0] * 3, [b - a for a, b in zip(p50, p95, strict=True)]],
                capsize=3,
            )
        ax.axhline(30, color="grey", ls="--", lw=1, label="goal: hybrid p50 30 ms")
        ax.set_xticks(x, legs)
        ax.set_ylabel("ms (bar p50, whisker p95)")
        ax.set_title(f"retrieval, {res['chunks']:,} chunks, access filter on")
        ax.legend(fontsize=8)
    if "recall" in res:
        ax = axes[1]
        settings = dict.fromkeys(
            (r.get("m", 16), r.get("ef_construction", 64)) for r in res["recall"].values()
        )
        for i, (m, efc) in enumerate(settings):
            for fname, mk in (("no filter", "o-"), ("access filter", "s--")):
                rows = [
                    r
                    for r in res["recall"].values()
                    if r["filter"] == fname
                    and (r.get("m", 16), r.get("ef_construction", 64)) == (m, efc)
                ]
                ax.plot(
                    [r["ef_search"] for r in rows],
                    [r["recall_at_20"] for r in rows],
                    mk,
                    color=f"C{i}",
                    label=f"m={m}, efc={efc}, {fname}",
                )
        ax.axhline(0.98, color="grey", ls="--", lw=1, label="goal 0.98")
        ax.set_xlabel("hnsw.ef_search")
        ax.set_ylabel("recall@20 vs exact (tie-aware)")
        ax.set_title("pgvector HNSW recall")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# ------------------------------------------------------------------------------------------
# main
# ------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=REPO / ".." / "shared" / "data")
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=300, help="2/3 SQuAD questions, 1/3 claims")
    ap.add_argument("--ef", default="40,100,200", help="ef_search values for the recall part")
    ap.add_argument("--parts", default=",".join(PARTS), help=f"subset of {','.join(PARTS)}")
    ap.add_argument("--ingest-docs", type=int, default=150, help="SciFact abstracts to ingest")
    ap.add_argument("--serve-requests", type=int, default=300)
    ap.add_argument("--max-minutes", type=float, default=60.0)
    ap.add_argument("--pgdata", type=Path, default=WORK / "pgdata")
    ap.add_argument(
        "--perturb",
        type=float,
        default=0.0,
        help="diagnostic: per-dimension noise on the padded copies' vectors in PostgreSQL "
        "(0 = exact copies, the benchmark)",
    )
    ap.add_argument("--rebuild", action="store_true", help="rebuild the PostgreSQL table")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--explain", action="store_true", help="print EXPLAIN ANALYZE of the legs")
    ap.add_argument(
        "--variants",
        default="",
        help="other candidate budgets of the shipped PostgreSQL keyword leg to time "
        "against it, e.g. 20000,3000",
    )
    ap.add_argument(
        "--hnsw",
        default="",
        help="recall part: rebuild the table's HNSW index with each m:ef_construction in turn, "
        "e.g. 16:64,32:128,48:200 (default: the index as it is); restored afterwards",
    )
    ap.add_argument(
        "--build-timeout-min",
        type=float,
        default=15.0,
        help="stop an --hnsw build that takes longer (reported as stopped)",
    )
    ap.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = ap.parse_args(argv)
    parts = [p for p in args.parts.split(",") if p]
    if bad := set(parts) - set(PARTS):
        ap.error(f"unknown parts {sorted(bad)}")
    try:
        budgets = [int(b) for b in args.variants.split(",") if b]
    except ValueError:
        ap.error(f"--variants takes candidate budgets, e.g. 20000,3000 (got {args.variants!r})")
    try:
        hnsw_builds = [
            (int(m), int(efc)) for m, efc in (x.split(":") for x in args.hnsw.split(",") if x)
        ]
    except ValueError:
        ap.error(f"--hnsw takes m:ef_construction pairs, e.g. 32:128 (got {args.hnsw!r})")
    t_start = time.monotonic()
    deadline = t_start + args.max_minutes * 60

    from chains.retrieval import access_filter
    from citerag.embeddings import load_embedding_model
    from citerag.stores.postgres.db import StoreURL, connect
    from citerag.stores.postgres.store import PostgresStore

    model = load_embedding_model()
    res: dict[str, Any] = {
        "chunks": args.chunks,
        "load": os.getloadavg()[0].__round__(2),
        "command": " ".join(["benchmarks/pg_store.py", *(argv or sys.argv[1:])]),
        "skipped_parts": [],
    }
    from citerag.stores.postgres import keyword as pg_keyword

    res["candidate_budget"] = pg_keyword.CANDIDATE_BUDGET
    with pg_server(args.pgdata) as uri:
        with connect(StoreURL.parse(store_url(uri, "x")), autocommit=True) as conn:
            res["postgresql"] = conn.execute("SHOW server_version").fetchone()[0]
            res["pgvector"] = conn.execute(
                "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
            ).fetchone()[0]
            res["pg_settings"] = {
                k: conn.execute(f"SHOW {k}").fetchone()[0]
                for k in ("shared_buffers", "work_mem", "effective_cache_size", "jit")
            }
        flt = access_filter([])
        if {"recall", "latency"} & set(parts):
            chunks, squad_qs, claims = build_chunks(args.data)
            chunks = chunks[: args.chunks]
            res["distinct"] = len(chunks)
            emb = LookupEmbeddings(model.embeddings)
            cache = WORK / "pg_store_vectors.npz"
            log(f"{emb.load(cache, model.name)} cached vectors; {len(chunks)} distinct chunks")
            rng = np.random.default_rng(0)
            n_sq = args.queries * 2 // 3
            qs = list(rng.choice(squad_qs, size=min(n_sq, len(squad_qs)), replace=False))
            qs += list(
                rng.choice(claims, size=min(args.queries - n_sq, len(claims)), replace=False)
            )
            qs = [str(q) for q in qs]
            res["queries"] = len(qs)
            t_emb = []
            qv: dict[str, list[float]] = {}
            for q in qs:
                t0 = time.perf_counter()
                qv[q] = model.embeddings.embed_query(q)
                t_emb.append(time.perf_counter() - t0)
            res["embed_ms"] = timing(t_emb)
            t0 = time.perf_counter()
            fstore = build_faiss(emb, model.dimension, chunks, args.chunks)
            res["faiss_build_s"] = round(time.perf_counter() - t0, 1)
            emb.save(cache, model.name)
            ns = f"pgbench_pad{args.chunks}"
            if args.perturb:
                ns += f"_noise{str(args.perturb).replace('.', '')}"
                res["perturb"] = args.perturb
            fp = fingerprint(chunks, args.chunks, model.name)
            if args.perturb:
                fp += f"-noise{args.perturb}"
            res["postgres_build"] = build_postgres(
                emb,
                model.dimension,
                chunks,
                args.chunks,
                uri,
                ns,
                fp,
                args.rebuild,
                perturb=args.perturb,
            )
            emb.save(cache, model.name)
            log(f"stores ready: FAISS {len(fstore)}, PostgreSQL {res['postgres_build']}")
            pstore = PostgresStore(
                model.embeddings, model.dimension, StoreURL.parse(store_url(uri, ns))
            )
            if "recall" in parts:
                efs = [int(x) for x in args.ef.split(",") if x]
                res["recall"], builds = recall_part(
                    uri,
                    ns,
                    model.embeddings,
                    model.dimension,
                    qs,
                    qv,
                    efs,
                    flt,
                    deadline,
                    builds=hnsw_builds,
                    build_timeout_s=args.build_timeout_min * 60,
                )
                if builds:
                    res["hnsw_builds"] = builds
            if "latency" in parts:
                if time.monotonic() < deadline:
                    variants = {f"postgres, budget {b}": b for b in budgets}
                    res["latency"] = latency_part(fstore, pstore, qs, qv, flt, deadline, variants)
                    res["fallbacks_during_latency"] = pstore.exact_fallbacks
                else:
                    res["skipped_parts"].append("latency")
            if args.explain:
                for q in qs[:2] + qs[-1:]:
                    print(f"-- {q}\n{explain_keyword(pstore, q, flt)}\n")
            pstore.close()
            del fstore
        if "ingest" in parts:
            if time.monotonic() < deadline:
                res["ingest"] = ingest_part(uri, model, args.ingest_docs, args)
            else:
                res["skipped_parts"].append("ingest")
        if "serve" in parts:
            if time.monotonic() < deadline:
                res["serve"] = serve_part(uri, model, args.serve_requests, deadline)
            else:
                res["skipped_parts"].append("serve")
    res["seconds"] = round(time.monotonic() - t_start, 1)
    args.out.mkdir(parents=True, exist_ok=True)
    png = plot(res, args.out / "pg_store.png")
    if png:
        res["plot"] = str(png)
    md = markdown({"distinct": "-", "queries": "-", **res})
    (args.out / "pg_store.json").write_text(json.dumps(res, indent=2) + "\n")
    (args.out / "pg_store.md").write_text(md + "\n")
    write_result("pg_store", pick_tables(md, REPORT_TABLES, required=False), res)
    print(md)
    if args.json:
        print(json.dumps(res, indent=2))
    log(f"wrote {args.out / 'pg_store.json'} ({res['seconds']:.0f} s)")
    return 0


#: The result file's tables (those of the parts that ran): name -> first header cells.
REPORT_TABLES = {
    "hnsw-recall": ["m", "ef_construction", "ef_search"],
    "hnsw-build": ["m", "ef_construction", "build s"],
    "latency": ["step"],
    "keyword-budgets": ["keyword leg"],
    "ingest": ["store"],
    "serving": ["servers"],
}
#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "pg_store_history": (
        "the published tables combine parts of several runs (HNSW sweeps at two settings, "
        "serving before the HNSW defaults were raised) with the goals"
    ),
}


if __name__ == "__main__":
    raise SystemExit(main())

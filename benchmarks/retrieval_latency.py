"""Retrieval and second-stage latency at 10,000 chunks (a script, not a test).

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.retrieval_latency [--data ../shared/data] [--chunks 10000]
        [--queries 300]

Builds a :class:`~citerag.stores.faiss.store.CiteragStore` of ``--chunks`` chunks from real text —
SciFact abstracts and SQuAD 2.0 paragraphs chunked with the default settings — embedding each
distinct chunk once; if the real chunks are fewer than ``--chunks``, the index is padded with
copies under new ids (same vectors and tokens), which keeps the index size and the FAISS/BM25
work per query realistic. 10 % of the chunks get a restricted access label so that the access
filter does real work. Then, for SQuAD questions, it times separately:

* the query embedding (excluded from the retrieval goal);
* dense search (FAISS inner product with the access ``IDSelector``), BM25 (sparse column sum,
  masked), and reciprocal rank fusion — "hybrid" is their sum, **excluding** the embedding;
* the default second stage (``sentence-maxsim``) on 25 candidates, precomputed sentence vectors.

Prints p50/p95/mean per step and writes the result file
``benchmarks/results/retrieval_latency.json``
(table ``step``: p50 / p95 per step). Goals (issue 3): hybrid p50 < 30 ms at 10,000 chunks; second
stage < 100 ms for 25 candidates.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import REPO, percentile
from benchmarks.results import table, write_result

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def pct(values: list[float], q: float) -> float:
    """Percentile (:func:`benchmarks.common.percentile`, nearest rank) in milliseconds."""
    return percentile(values, q) * 1000.0


def load_texts(data: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """(title, text) documents from SciFact and SQuAD, and SQuAD answerable questions."""
    docs: list[tuple[str, str]] = []
    with (data / "scifact-1k" / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            docs.append((row.get("title") or row["_id"], row["text"]))
    squad = json.loads((data / "squad2-dev" / "dev-v2.0.json").read_text(encoding="utf-8"))
    questions = []
    for art in squad["data"]:
        for para in art["paragraphs"]:
            docs.append((art["title"].replace("_", " "), para["context"]))
            questions += [q["question"] for q in para["qas"] if not q["is_impossible"]]
    return docs, questions


def chunk_texts(docs: list[tuple[str, str]]) -> list[Any]:
    """The default-settings chunks of ``(title, text)`` documents; every 10th document is
    access-restricted (label ``restricted``)."""
    from loaders.base import ParsedDocument, Segment
    from loaders.chunking import ChunkSettings, chunk_document

    settings = ChunkSettings()
    chunks: list[Any] = []
    for i, (title, text) in enumerate(docs):
        parsed = ParsedDocument(
            text=text, segments=[Segment(0, len(text))], title=title, file_type="text"
        )
        meta = {
            "doc_id": f"d{i}",
            "doc_name": f"{title[:40]}.txt",
            "access": "restricted" if i % 10 == 0 else "public",
        }
        chunks += chunk_document(parsed, settings, meta)
    return chunks


def main() -> None:
    """Run the benchmark and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=REPO / ".." / "shared" / "data")
    ap.add_argument("--chunks", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--candidates", type=int, default=25)
    args = ap.parse_args()

    from langchain_core.documents import Document
    from tqdm import tqdm

    from chains.rerank import SentenceReranker
    from chains.retrieval import HybridRetriever, access_filter, rrf
    from citerag.embeddings import load_embedding_model
    from citerag.stores.faiss.store import CiteragStore

    model = load_embedding_model()
    docs, questions = load_texts(args.data)
    chunks = chunk_texts(docs)
    real = chunks[: args.chunks]
    store = CiteragStore(model.embeddings, model.dimension, sentence_vectors=True)
    t0 = time.perf_counter()
    for start in tqdm(range(0, len(real), 256), desc="embed real chunks", unit="batch"):
        part = real[start : start + 256]
        store.add_documents(
            [Document(page_content=c.text, metadata=c.to_metadata()) for c in part],
            ids=[f"r{start + j}" for j in range(len(part))],
        )
    embed_s = time.perf_counter() - t0
    # pad with copies under new ids: same vectors (reconstructed), same tokens and sentences
    n_real = len(store)
    copy = 0
    while len(store) < args.chunks:
        src = f"r{copy % n_real}"
        doc = store.get_by_ids([src])[0]
        vec = store.dense.index.reconstruct(store._position_map()[src])
        key = f"p{copy}"
        store.dense.add_embeddings(
            [(doc.page_content, vec.tolist())], metadatas=[doc.metadata], ids=[key]
        )
        store.bm25.add([key], [doc.page_content])
        store.sentences[key] = store.sentences[src]
        copy += 1
    store._mask_cache.clear()
    store._pos_map = None
    print(
        f"index: {len(store)} chunks ({n_real} distinct, {copy} padded copies); "
        f"embedding the distinct ones took {embed_s:.0f} s"
    )

    retriever = HybridRetriever(store)
    reranker = SentenceReranker(model.embeddings, store)
    flt = access_filter([])
    rng = np.random.default_rng(0)
    qs = list(rng.choice(questions, size=min(args.queries, len(questions)), replace=False))
    t: dict[str, list[float]] = {
        k: [] for k in ("embed", "dense", "bm25", "fuse", "hybrid", "rerank25")
    }
    store.bm25.search("warm up", 1)
    store._masks(flt)  # the access mask is cached per filter, as in a running server
    for q in tqdm(qs, desc="queries", unit="q"):
        a = time.perf_counter()
        vec = model.embeddings.embed_query(q)
        b = time.perf_counter()
        dense = store.similarity_search_with_score_by_vector(vec, 20, filter=flt)
        c = time.perf_counter()
        lex = store.bm25_search(q, 20, filter=flt)
        d = time.perf_counter()
        rrf({"dense": [x.id for x, _ in dense], "bm25": [x.id for x, _ in lex]})
        e = time.perf_counter()
        t["embed"].append(b - a)
        t["dense"].append(c - b)
        t["bm25"].append(d - c)
        t["fuse"].append(e - d)
        t["hybrid"].append(e - b)
        cands = retriever.retrieve(
            q, k=args.candidates, k_dense=args.candidates, k_bm25=args.candidates
        ).candidates[: args.candidates]
        f = time.perf_counter()
        reranker.rerank(q, cands, vec)
        t["rerank25"].append(time.perf_counter() - f)
    print(f"\n{len(qs)} SQuAD questions, {len(store)} chunks, access filter on, 2 CPU cores\n")
    print("| step | p50 ms | p95 ms | mean ms |")
    print("|---|---:|---:|---:|")
    labels = {
        "embed": "query embedding (all-MiniLM-L6-v2, CPU)",
        "dense": "dense search (FAISS, access `IDSelector`)",
        "bm25": "BM25 search (masked)",
        "fuse": "RRF fusion",
        "hybrid": "**hybrid retrieval, excluding the embedding**",
        "rerank25": f"second stage (`sentence-hybrid`) on {args.candidates} candidates, "
        "precomputed sentence vectors",
    }
    rows = []
    for key, label in labels.items():
        vals = t[key]
        print(
            f"| {label} | {pct(vals, 50):.1f} | {pct(vals, 95):.1f} | "
            f"{statistics.mean(vals) * 1000:.1f} |"
        )
        cells = [_ms(pct(vals, 50)), _ms(pct(vals, 95))]
        rows.append([label, *(f"**{c}**" if key == "hybrid" else c for c in cells)])
    write_result(
        "retrieval_latency",
        {"step": table(["step", "p50 ms", "p95 ms"], rows)},
        {
            "questions": len(qs),
            "chunks": len(store),
            "candidates": args.candidates,
            "seconds": {k: v for k, v in t.items()},
        },
    )


def _ms(value: float) -> str:
    """A latency in ms as the docs print it: one decimal, ``< 0.1`` below that."""
    return "< 0.1" if value < 0.05 else f"{value:.1f}"


if __name__ == "__main__":
    main()

"""Offline ingestion: files -> chunks -> FAISS + BM25 (+ sentence vectors), kept in sync by
LangChain's indexing API and a persistent record manager, published as an atomic build.

What a run does:

1. Collect sources. A folder argument contributes every file below it (hidden files skipped)
   under the source key ``<folder name>/<relative path>``; a file argument is keyed by its
   name. Access labels come from the folder's ``.citerag-access.json``.
2. Compare each source's sha256 with the current manifest: unchanged and indexed with the
   same settings → skipped without parsing; new, changed or previously failed → processed.
   Documents that were under an ingested folder and are gone → deleted.
3. Parse and chunk in a worker process while this process embeds (both cores busy).
4. Write through :func:`langchain_core.indexing.index` with ``cleanup="scoped_full"``: chunks
   whose content and metadata hash is already recorded are not embedded again; a changed
   document's stale chunks are deleted from every index.
5. Count what the index now holds per document, write the manifest, swap the build in.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import multiprocessing
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langchain_core.documents import Document
from langchain_core.indexing import index as lc_index
from tqdm.auto import tqdm

from citerag.embeddings import EmbeddingModel
from citerag.index.builds import abort_build, commit_build, new_build_id, start_build, write_lock
from citerag.index.faiss_store import DISTANCE, FAISS_INDEX_TYPE
from citerag.index.loaded import RECORDS_FILE, open_build
from citerag.index.manifest import Manifest
from citerag.index.record_manager import SQLiteRecordManager
from citerag.index.store import CiteragStore
from loaders.access import ACCESS_FILE, PUBLIC, AccessMap
from loaders.chunking import ChunkSettings
from loaders.pipeline import ProcessedFile, SourceFile, process_file, sha256_file

log = logging.getLogger(__name__)


@dataclass
class IngestReport:
    """What an ingest run did.

    Attributes:
        build_id: The build it published (or the unchanged current one).
        indexed: Source keys of new documents indexed.
        updated: Source keys of changed documents re-indexed.
        unchanged: Source keys skipped because their bytes and settings were unchanged.
        deleted: Source keys removed because their files are gone (or on request).
        failed: Source key -> reason.
        chunks_added: Chunks embedded and written.
        chunks_deleted: Chunks removed from every index.
        chunks_skipped: Chunks whose hash was already indexed (not embedded again).
        over_window: Chunks whose embedded text exceeds the model window.
        embedded_texts: Texts sent to the embedding model (chunks + sentences).
        seconds: Wall time.
        parse_seconds: Time spent parsing and chunking (in the worker).
        pages: PDF pages parsed.
    """

    build_id: str = ""
    indexed: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    chunks_added: int = 0
    chunks_deleted: int = 0
    chunks_skipped: int = 0
    over_window: int = 0
    embedded_texts: int = 0
    seconds: float = 0.0
    parse_seconds: float = 0.0
    pages: int = 0

    def summary(self) -> dict[str, Any]:
        """A JSON-friendly summary."""
        return {
            "build_id": self.build_id,
            "indexed": len(self.indexed),
            "updated": len(self.updated),
            "unchanged": len(self.unchanged),
            "deleted": len(self.deleted),
            "failed": dict(self.failed),
            "chunks_added": self.chunks_added,
            "chunks_deleted": self.chunks_deleted,
            "chunks_skipped": self.chunks_skipped,
            "over_window_chunks": self.over_window,
            "embedded_texts": self.embedded_texts,
            "seconds": round(self.seconds, 2),
        }


def collect_sources(
    paths: list[Path], default_access: str = PUBLIC
) -> tuple[list[SourceFile], list[str]]:
    """Expand ingest arguments into source files.

    Args:
        paths: Files and folders.
        default_access: Label for files no access rule matches.

    Returns:
        The sources and the folder prefixes they cover (for deletion detection).

    Raises:
        FileNotFoundError: If an argument does not exist.
    """
    sources: list[SourceFile] = []
    prefixes: list[str] = []
    for path in paths:
        if not path.exists():
            raise FileNotFoundError(f"no such file or folder: {path}")
        if path.is_dir():
            root = path.resolve()
            access = AccessMap.load(root, default=default_access)
            prefixes.append(root.name + "/")
            for f in sorted(root.rglob("*")):
                rel = f.relative_to(root).as_posix()
                if not f.is_file() or any(part.startswith(".") for part in rel.split("/")):
                    continue
                if f.name == ACCESS_FILE:
                    continue
                sources.append(SourceFile(f, f"{root.name}/{rel}", access.label_for(rel)))
        else:
            sources.append(SourceFile(path, path.name, default_access))
    return sources, prefixes


def _software() -> dict[str, str]:
    import importlib.metadata as md

    out = {}
    for pkg in (
        "citerag",
        "pypdf",
        "langchain-core",
        "langchain-community",
        "langchain-text-splitters",
        "langchain-huggingface",
        "faiss-cpu",
        "sentence-transformers",
        "cryptography",
    ):
        try:
            out[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def _settings_fingerprint(model: EmbeddingModel, chunking: ChunkSettings, sentences: bool) -> dict:
    return {"model": model.name, "chunking": chunking.describe(), "sentence_vectors": sentences}


def _process_iter(
    todo: list[SourceFile], chunking: ChunkSettings, workers: int
) -> Iterator[ProcessedFile]:
    """Process files in order; with ``workers`` > 0 parsing runs ahead in other processes."""
    if workers <= 0 or len(todo) <= 1:
        for src in todo:
            yield process_file(src, chunking)
        return
    # "fork": the child only runs pure-Python parsing (no torch), and unlike "spawn" it does
    # not re-import the caller's __main__, so scripts and notebooks need no main guard.
    ctx = multiprocessing.get_context("fork")
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = [pool.submit(process_file, src, chunking) for src in todo]
        for fut in futures:
            yield fut.result()


def ingest(
    paths: list[Path],
    index_dir: Path,
    model: EmbeddingModel,
    *,
    chunking: ChunkSettings | None = None,
    sentence_vectors: bool = True,
    default_access: str = PUBLIC,
    sources: list[SourceFile] | None = None,
    delete_sources: list[str] | None = None,
    prune_missing: bool = True,
    workers: int | None = None,
    progress: bool = True,
    batch_size: int = 64,
) -> IngestReport:
    """Ingest files into the index at ``index_dir`` and publish a new build atomically.

    Args:
        paths: Files and folders to ingest.
        index_dir: Index directory (created if missing).
        model: The embedding model.
        chunking: Chunk settings (defaults used when ``None``).
        sentence_vectors: Also embed sentences (needed by the sentence reranker).
        default_access: Access label for files without a matching rule.
        sources: Explicit sources (instead of/in addition to ``paths``).
        delete_sources: Source keys to delete.
        prune_missing: Delete documents that were under an ingested folder and are gone.
        workers: Parser processes (default: 1 when a PDF is to be parsed, else inline).
        progress: Show tqdm progress bars.
        batch_size: Chunks per indexing batch.

    Returns:
        What happened.
    """
    t0 = time.perf_counter()
    chunking = chunking or ChunkSettings()
    found, prefixes = collect_sources(paths, default_access)
    found += sources or []
    report = IngestReport()
    fingerprint = _settings_fingerprint(model, chunking, sentence_vectors)
    with write_lock(index_dir):
        tmp = start_build(index_dir)
        try:
            loaded = (
                open_build(tmp, model, sentence_vectors=sentence_vectors)
                if (tmp / "manifest.json").exists()
                else None
            )
            # Chunk hashes do not cover the sentence-vector switch, so flipping it must
            # re-embed chunks the record manager would otherwise skip as unchanged.
            force = False
            if loaded is not None:
                store, manifest = loaded.store, loaded.manifest
                same_settings = manifest.last_run.get("fingerprint") == fingerprint
                force = manifest.index.get("sentence_vectors", True) != sentence_vectors
            else:
                store = CiteragStore(
                    model.embeddings, model.dimension, sentence_vectors=sentence_vectors
                )
                manifest = Manifest(
                    build_id="", created_at="", embedding={}, index={}, chunking={}, software={}
                )
                same_settings = False
            records = SQLiteRecordManager("citerag", tmp / RECORDS_FILE)
            records.create_schema()
            old_docs = manifest.documents

            # What to process, skip, delete.
            todo: list[SourceFile] = []
            seen: set[str] = set()
            for src in found:
                seen.add(src.doc_id)
                prev = old_docs.get(src.doc_id)
                if (
                    same_settings
                    and prev is not None
                    and prev.get("status") == "indexed"
                    and prev.get("access") == src.access
                    and prev.get("sha256") == sha256_file(src.path)
                ):
                    report.unchanged.append(src.source)
                    continue
                todo.append(src)
            to_delete = [
                doc_id
                for doc_id, d in old_docs.items()
                if doc_id not in seen
                and (
                    d.get("source") in (delete_sources or [])
                    or (prune_missing and any(d.get("source", "").startswith(p) for p in prefixes))
                )
            ]
            if not same_settings and old_docs:
                log.info("settings changed since the last build: re-processing every document")
                todo += [
                    SourceFile(
                        Path(d["path"]), d["source"], d.get("access", PUBLIC), d.get("doc_name", "")
                    )
                    for doc_id, d in old_docs.items()
                    if doc_id not in seen and doc_id not in to_delete and Path(d["path"]).exists()
                ]
            for doc_id in to_delete:
                keys = records.list_keys(group_ids=[doc_id])
                store.delete(keys)
                records.delete_keys(keys)
                report.chunks_deleted += len(keys)
                report.deleted.append(old_docs[doc_id].get("source", doc_id))
                old_docs.pop(doc_id)

            if workers is None:
                workers = 1 if any(s.path.suffix.lower() == ".pdf" for s in todo) else 0
            bar = tqdm(total=len(todo), unit="doc", desc="ingest", disable=not progress)
            now = datetime.now(UTC).isoformat(timespec="seconds")
            doc_records: dict[str, dict[str, Any]] = {}
            over_by_doc: Counter[str] = Counter()

            def chunk_stream() -> Iterator[Document]:
                for pf in _process_iter(todo, chunking, workers):
                    src = pf.source
                    report.parse_seconds += pf.parse_seconds
                    rec = {
                        "doc_id": src.doc_id,
                        "source": src.source,
                        "path": str(src.path),
                        "doc_name": src.doc_name or src.path.name,
                        "sha256": pf.sha256,
                        "access": src.access,
                        "ingested_at": now,
                        **pf.info,
                    }
                    prev = old_docs.get(src.doc_id)
                    if pf.status != "ok":
                        rec.update(status="failed", reason=pf.reason, kind=pf.kind, chunks=0)
                        report.failed[src.source] = pf.reason
                        if prev is not None:  # stale chunks of the old version go away
                            keys = records.list_keys(group_ids=[src.doc_id])
                            store.delete(keys)
                            records.delete_keys(keys)
                            report.chunks_deleted += len(keys)
                        doc_records[src.doc_id] = rec
                        bar.set_postfix(failed=len(report.failed))
                        bar.update(1)
                        continue
                    report.pages += pf.info.get("pages") or 0
                    texts = [c.text for c in pf.chunks]
                    over = sum(n > model.max_tokens for n in model.count_tokens(texts))
                    over_by_doc[src.doc_id] = over
                    rec.update(status="indexed", reason="", kind="")
                    doc_records[src.doc_id] = rec
                    (report.updated if prev is not None else report.indexed).append(src.source)
                    for c in pf.chunks:
                        yield Document(page_content=c.text, metadata=c.to_metadata())
                    bar.update(1)

            result = lc_index(
                chunk_stream(),
                records,
                store,
                cleanup="scoped_full",
                source_id_key="doc_id",
                batch_size=batch_size,
                key_encoder="sha256",
                force_update=force,
            )
            bar.close()
            report.chunks_added += result["num_added"] + result["num_updated"]
            report.chunks_skipped += result["num_skipped"]
            report.chunks_deleted += result["num_deleted"]
            report.embedded_texts = store.embedded_texts

            # Count what the index really holds, per document.
            held: Counter[str] = Counter(str(m.get("doc_id")) for _, m in store.iter_metadata())
            for doc_id, rec in doc_records.items():
                rec["chunks"] = held.get(doc_id, 0)
                rec["over_window_chunks"] = over_by_doc.get(doc_id, 0)
                old_docs[doc_id] = rec
            for doc_id, rec in old_docs.items():
                rec["chunks"] = held.get(doc_id, 0)
            report.over_window = sum(over_by_doc.values())
            changed = bool(todo or to_delete or not (tmp / "manifest.json").exists())
            if not changed:
                records.close()
                abort_build(tmp)
                report.build_id = manifest.build_id
                report.seconds = time.perf_counter() - t0
                return report

            build_id = new_build_id()
            manifest.build_id = build_id
            manifest.created_at = now
            manifest.embedding = {
                "model": model.name,
                "dimension": model.dimension,
                "normalized": True,
                "max_tokens": model.max_tokens,
            }
            manifest.index = {
                "vector_store": "langchain_community FAISS",
                "faiss_index_type": FAISS_INDEX_TYPE,
                "distance": DISTANCE,
                "bm25": {
                    "k1": store.bm25.k1,
                    "b": store.bm25.b,
                    "tokenizer": "lower-case \\w+ minus English stop words",
                },
                "sentence_vectors": sentence_vectors,
                "record_manager": f"SQLite {RECORDS_FILE}, key encoder sha256",
            }
            manifest.chunking = chunking.describe()
            manifest.software = _software()
            report.build_id = build_id
            report.seconds = time.perf_counter() - t0
            manifest.last_run = {**report.summary(), "fingerprint": fingerprint}
            store.save(tmp)
            records.close()
            manifest.save(tmp)
            commit_build(index_dir, tmp, build_id)
        except BaseException:
            abort_build(tmp)
            raise
    report.seconds = time.perf_counter() - t0
    return report

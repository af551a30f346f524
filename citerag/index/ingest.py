"""Offline ingestion: files -> chunks -> FAISS + BM25 (+ sentence vectors), kept in sync by
LangChain's indexing API and a persistent record manager, published as an atomic build.

What a run does:

1. **Collect** sources (:func:`collect_sources`, :func:`hash_sources`). A folder argument
   contributes every file below it (hidden files and ``*.meta.json`` metadata sidecars
   skipped) under the source key ``<folder name>/<relative path>``; a file argument is keyed
   by its name. Access labels come from the folder's ``.citerag-access.json``, user-supplied
   document metadata from its ``.citerag-metadata.json`` (see :mod:`loaders.pipeline`). Each
   file's bytes are hashed, and so are its sidecar and folder metadata. Each supported
   attachment of an ``.eml`` file becomes a child source of its own, read from the message
   file and planned with its sha256 (:func:`citerag.index.attached.with_attachments`). A
   file argument whose file is already an indexed document (``docs/`` then ``./docs/a.md``,
   an absolute path, a symlink) takes that document's key, so it is updated, not added
   again (:func:`citerag.index.same_file.keep_known_files`).
2. **Plan** (:func:`citerag.index.plan.plan_ingest`, pure): compare each source's sha256,
   metadata digest, access label and the settings fingerprint with the current manifest's
   ledger. Unchanged →
   skipped without parsing; new, changed or previously failed → processed; documents that
   were under an ingested folder and are gone → deleted.
3. **Write** (:func:`write_documents`) into a copy of the current build: parse and chunk in a
   pool of worker processes (sized from ``os.cpu_count()``, outcomes taken as they complete)
   while this process embeds; large plain-text files are streamed (read, segmented, chunked
   and embedded in batches, so memory does not grow with the file); all through
   :func:`langchain_core.indexing.index` with ``cleanup="scoped_full"``: chunks whose content
   and metadata hash is already recorded are left alone; a changed document's other chunks
   are written with their new metadata (file hash, offsets, chunk id), and those whose
   embedded text, own words and sentences equal one of its stored chunks' take that chunk's
   vectors instead of being embedded (:mod:`citerag.stores.reuse`); its stale chunks are
   deleted from every index. The ledger then records what the index holds per document.
4. **Publish** (:func:`publish_build`): write the manifest, fsync, rename, swap ``current``.

Steps 3 and 4 run in **phases** so that one huge document never holds back the others: the
deletions and every document smaller than ``large_bytes`` are written and published first
(smallest first), then each large document is written into a fresh copy and published on
its own, smallest first. Every published build is complete and loadable; a crash leaves the
last published one current. A document whose extracted text is over ``max_document_mb``
fails with a reason naming the limit.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import multiprocessing
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langchain_core.documents import Document
from langchain_core.indexing import index as lc_index
from tqdm.auto import tqdm

from citerag.embeddings import EmbeddingModel
from citerag.index.attached import with_attachments
from citerag.index.plan import (
    ActionKind,
    CollectedSource,
    DocumentAction,
    IngestPlan,
    Reason,
    plan_ingest,
)
from citerag.index.same_file import keep_known_files
from citerag.stores.chunk_vectors import SEPARATE, recording_stages, sentence_method
from citerag.stores.dispatch import backend_for
from citerag.stores.handles import Build, IndexStore, IngestTarget, Run
from citerag.stores.manifest import new_build_id
from citerag.stores.reuse import PreviousVectors
from loaders.access import ACCESS_FILE, PUBLIC, AccessMap
from loaders.base import DocumentLoadError
from loaders.chunking import ChunkSettings
from loaders.ocr import ocr_fingerprint
from loaders.pipeline import (
    DEFAULT_MAX_DOCUMENT_MB,
    METADATA_VERSION,
    MIB,
    STREAM_MIN_BYTES,
    MetadataMap,
    ProcessedFile,
    SourceFile,
    is_sidecar,
    is_streamed,
    printable_key,
    process_file,
    sha256_file,
    stream_text_file,
    user_metadata_digest,
)

log = logging.getLogger(__name__)

#: Most parser processes a run starts by default.
MAX_WORKERS = 4
#: Files at least this large are written and published in a phase of their own.
LARGE_BYTES = STREAM_MIN_BYTES
#: Stages of :attr:`IngestReport.stages`: in the parse workers (``parse``, ``chunk``), then in
#: this process (``wait_parse``: blocked waiting for a parsed file; ``split_sentences``,
#: ``embed_chunks``, ``embed_sentences``: see :func:`~citerag.stores.chunk_vectors.embed_chunks`;
#: ``reuse_vectors``: finding a changed document's stored chunks to reuse; ``index_other``:
#: the rest of ``index()``, i.e. record manager, hashing, FAISS and BM25
#: writes; ``write``: saving the build; ``publish``: fsync, rename and swap, or the commit).
STAGES = (
    "parse",
    "chunk",
    "wait_parse",
    "split_sentences",
    "embed_chunks",
    "embed_sentences",
    "reuse_vectors",
    "index_other",
    "write",
    "publish",
)
#: Called after each published build with its id and the source keys that phase wrote or
#: deleted.
PublishHook = Callable[[str, list[str]], None]


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
        chunks_added: Chunks written (new, or with new metadata).
        chunks_reused: Chunks among ``chunks_added`` written with the vectors of a stored
            chunk of their document with the same embedded text, own words and sentences
            (not embedded again: moved by an edit before them, or their file changed
            elsewhere).
        chunks_deleted: Chunks removed from every index.
        chunks_skipped: Chunks whose hash was already indexed (not written again).
        over_window: Chunks whose embedded text exceeds the model window.
        embedded_texts: Texts sent to the embedding model (chunks + sentences).
        seconds: Wall time.
        parse_seconds: Time spent parsing and chunking (in the worker).
        pages: PDF pages parsed.
        stages: Wall time (seconds) by stage, summed over the run's phases (see
            :data:`STAGES`); ``parse`` and ``chunk`` are spent in the parse workers, at the
            same time as the rest, the others in this process one after another.
    """

    build_id: str = ""
    indexed: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    chunks_added: int = 0
    chunks_reused: int = 0
    chunks_deleted: int = 0
    chunks_skipped: int = 0
    over_window: int = 0
    embedded_texts: int = 0
    seconds: float = 0.0
    parse_seconds: float = 0.0
    pages: int = 0
    stages: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))

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
            "chunks_reused": self.chunks_reused,
            "chunks_deleted": self.chunks_deleted,
            "chunks_skipped": self.chunks_skipped,
            "over_window_chunks": self.over_window,
            "embedded_texts": self.embedded_texts,
            "seconds": round(self.seconds, 2),
        }


def folder_roots(paths: list[Path]) -> dict[str, list[str]]:
    """The resolved paths of the folders among ``paths``, by the source-key prefix their
    files get (``"docs/"``), for :func:`~citerag.index.plan.plan_ingest`'s ``roots``."""
    roots: dict[str, list[str]] = {}
    for path in paths:
        if path.is_dir():
            root = path.resolve()
            roots.setdefault(printable_key(root.name + "/"), []).append(str(root))
    return roots


def collect_sources(
    paths: list[Path], default_access: str = PUBLIC
) -> tuple[list[SourceFile], list[str]]:
    """Expand ingest arguments into source files.

    Metadata sidecars (``*.meta.json``) and the folder's rules files are not sources; a
    folder's ``.citerag-metadata.json`` gives its files' ``metadata``.

    Args:
        paths: Files and folders.
        default_access: Label for files no access rule matches.

    Returns:
        The sources and the folder prefixes they cover (for deletion detection).

    Raises:
        FileNotFoundError: If an argument does not exist.
        ValueError: If a folder's ``.citerag-access.json`` or ``.citerag-metadata.json`` is
            malformed (nothing is written).
    """
    sources: list[SourceFile] = []
    prefixes: list[str] = []
    for path in paths:
        if not path.exists():
            raise FileNotFoundError(f"no such file or folder: {path}")
        if path.is_dir():
            root = path.resolve()
            access = AccessMap.load(root, default=default_access)
            about = MetadataMap.load(root)
            prefixes.append(printable_key(root.name + "/"))
            for f in sorted(root.rglob("*")):
                rel = f.relative_to(root).as_posix()
                if not f.is_file() or any(part.startswith(".") for part in rel.split("/")):
                    continue
                if f.name == ACCESS_FILE or is_sidecar(f):
                    continue
                key = printable_key(f"{root.name}/{rel}")
                if key != f"{root.name}/{rel}":
                    log.warning("file name is not valid UTF-8: indexed as %r", key)
                sources.append(
                    SourceFile(
                        f,
                        key,
                        access.label_for(rel),
                        metadata=about.values_for(rel),
                    )
                )
        else:
            sources.append(SourceFile(path, printable_key(path.name), default_access))
    return sources, prefixes


def _software() -> dict[str, str]:
    """Versions of the packages that shape a build (``not installed`` for missing ones)."""
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
        "python-docx",
        "python-pptx",
        "openpyxl",
        "defusedxml",
    ):
        try:
            out[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def _settings_fingerprint(
    model: EmbeddingModel, chunking: ChunkSettings, sentences: bool
) -> dict[str, Any]:
    """The settings whose change makes every document be processed again.

    Args:
        model: The embedding model.
        chunking: The chunk settings.
        sentences: Whether sentence vectors are embedded.

    Returns:
        A JSON-friendly description, stored in the manifest's ``last_run``. The
        sentence-vector method is included when it is not ``separate`` (the only method
        before it was recorded, so older builds compare equal). ``ocr`` is the OCR engine's
        settings, or ``off`` (:func:`loaders.ocr.ocr_fingerprint`).
    """
    out: dict[str, Any] = {
        "model": model.name,
        "chunking": chunking.describe(),
        "sentence_vectors": sentences,
        "document_metadata": METADATA_VERSION,
        "ocr": ocr_fingerprint(),
    }
    method = sentence_method(model.embeddings) if sentences else SEPARATE
    if method != SEPARATE:
        out["sentence_method"] = method
    return out


def hash_sources(found: list[SourceFile]) -> list[CollectedSource]:
    """Read and hash every source, for the plan.

    Args:
        found: The run's sources.

    Returns:
        The sources with their sha256 and metadata digest (sidecar and folder metadata);
        ``None`` for what cannot be read (the source is then processed, and the parser
        records it as failed with the reason).
    """
    collected = []
    for src in found:
        try:
            digest: str | None = sha256_file(src.path)
        except OSError as exc:
            log.debug("cannot hash %s: %s", src.path, exc)
            digest = None
        try:
            about: str | None = user_metadata_digest(src)
        except OSError as exc:
            log.debug("cannot hash the metadata sidecar of %s: %s", src.path, exc)
            about = None
        collected.append(CollectedSource(src, digest, about))
    return collected


def _existing_files(documents: dict[str, dict[str, Any]]) -> set[str]:
    """Ids of ledger documents whose recorded file still exists."""
    return {doc_id for doc_id, d in documents.items() if "path" in d and Path(d["path"]).exists()}


def default_workers(files: list[SourceFile]) -> int:
    """Parser processes for a run: none without PDFs, else one per spare core (bounded).

    Args:
        files: The files to parse.

    Returns:
        ``0`` (parse inline) when no PDF is to be parsed, else
        ``min(MAX_WORKERS, os.cpu_count() - 1, PDFs)``, at least 1.
    """
    pdfs = sum(f.path.suffix.lower() == ".pdf" for f in files)
    if not pdfs:
        return 0
    return max(1, min(MAX_WORKERS, (os.cpu_count() or 2) - 1, pdfs))


def _crashed(src: SourceFile, exc: BaseException) -> ProcessedFile:
    """The outcome of a file whose parse worker died."""
    return ProcessedFile(
        src, "", "failed", f"the parse worker failed: {type(exc).__name__}: {exc}", "error"
    )


def _process_iter(
    todo: list[SourceFile],
    chunking: ChunkSettings,
    workers: int,
    max_chars: int | None = None,
    stream_min_bytes: int = STREAM_MIN_BYTES,
) -> Iterator[ProcessedFile]:
    """Parse and chunk files; with ``workers`` > 0 parsing runs ahead in other processes.

    Large plain-text files (:func:`~loaders.pipeline.is_streamed`) are streamed in this
    process after the others (their outcome has ``batches``). The others are parsed by a pool
    of ``workers`` processes, at most ``2 * workers`` files ahead of the consumer, and come
    back in order of completion; a worker that dies fails only the files it was given.

    Args:
        todo: The files to parse and chunk.
        chunking: The chunk settings.
        workers: Parser processes (0: parse inline, in order).
        max_chars: Per-document text limit (characters).
        stream_min_bytes: Plain-text files at least this large are streamed.

    Yields:
        One outcome per file.
    """
    streamed = [src for src in todo if is_streamed(src.path, stream_min_bytes)]
    loaded = [src for src in todo if not is_streamed(src.path, stream_min_bytes)]
    if workers <= 0 or len(loaded) <= 1:
        for src in loaded:
            yield process_file(src, chunking, max_chars)
    else:
        yield from _pool_iter(loaded, chunking, workers, max_chars)
    for src in streamed:
        yield stream_text_file(src, chunking, max_chars=max_chars)


def _pool_iter(
    todo: list[SourceFile], chunking: ChunkSettings, workers: int, max_chars: int | None
) -> Iterator[ProcessedFile]:
    """:func:`process_file` in a process pool, outcomes in order of completion.

    At most ``2 * workers`` files are in flight, so parsed chunks do not pile up while this
    process embeds. A worker that dies (a parser crash, the OOM killer) breaks the pool and
    every file in flight with it; those files are then parsed again one at a time, each in a
    fresh single-process pool, so only the file that kills its worker fails.
    """
    crashed: list[SourceFile] = []
    with _pool(min(workers, len(todo))) as pool:
        waiting = list(reversed(todo))
        running: dict[cf.Future[ProcessedFile], SourceFile] = {}
        while waiting or running:
            while waiting and len(running) < 2 * workers:
                src = waiting.pop()
                try:
                    running[pool.submit(process_file, src, chunking, max_chars)] = src
                except cf.BrokenExecutor:
                    crashed.append(src)
            if not running:
                break
            done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                src = running.pop(fut)
                try:
                    yield fut.result()
                except cf.BrokenExecutor:
                    crashed.append(src)
    for src in crashed:  # alone, so a crash is pinned on the file that causes it
        log.warning("a parse worker died; parsing %s again on its own", src.path)
        with _pool(1) as alone:
            try:
                yield alone.submit(process_file, src, chunking, max_chars).result()
            except cf.BrokenExecutor as exc:
                yield _crashed(src, exc)


def _pool(workers: int) -> cf.ProcessPoolExecutor:
    """A pool of parser processes."""
    # "fork": the child only runs pure-Python parsing (no torch), and unlike "spawn" it does
    # not re-import the caller's __main__, so scripts and notebooks need no main guard.
    return cf.ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("fork")
    )


@dataclass
class ChunkFeed:
    """The chunks of the documents a plan writes, as the document stream for ``index()``.

    Iterating parses ``files`` (through the parse workers when ``workers`` > 0) and for each
    one records its ledger entry, adds its outcome to ``report`` (``indexed``, ``updated``,
    ``failed``, ``pages``, ``parse_seconds``, ``chunks_deleted``), removes the stale chunks of
    a previously known document that now fails, advances ``bar`` and yields its chunks. A
    streamed file's chunks are produced one segment at a time as ``index()`` consumes them, so
    the feed holds at most one segment's chunks (``most_held`` records the most it held);
    one that fails midway is listed in ``broken`` and marked failed. Iterate once.

    Attributes:
        files: The files to parse, in order.
        known: Ids of documents the previous build has (re-indexed, not new).
        build: The build written into.
        report: The run's report.
        run: The run's settings.
        workers: Parser processes.
        bar: The progress bar, advanced once per document.
        ledger: Document id -> manifest record of every document read so far (chunk counts
            are filled in after indexing).
        over_window: Document id -> chunks whose text exceeds the embedding window.
        broken: Ids of streamed documents that failed midway (their chunks already written
            must be deleted once ``index()`` returns).
        most_held: The most chunks the feed held at once.
    """

    files: list[SourceFile]
    known: set[str]
    build: Build
    report: IngestReport
    run: Run
    workers: int
    bar: tqdm
    ledger: dict[str, dict[str, Any]] = field(default_factory=dict, init=False)
    over_window: Counter[str] = field(default_factory=Counter, init=False)
    broken: set[str] = field(default_factory=set, init=False)
    most_held: int = field(default=0, init=False)

    def __iter__(self) -> Iterator[Document]:
        """Parse each file and yield its chunks; a failed file yields none.

        Yields:
            Chunk documents with their metadata (``doc_id`` is the cleanup scope).
        """
        run = self.run
        outcomes = _process_iter(
            self.files, run.chunking, self.workers, run.max_chars, run.stream_min_bytes
        )
        while True:
            t0 = time.perf_counter()
            pf = next(outcomes, None)
            self.report.stages["wait_parse"] += time.perf_counter() - t0
            if pf is None:
                break
            if pf.batches is not None and pf.status == "ok":
                yield from self._stream(pf)
            else:
                docs = self._record(pf)
                self.most_held = max(self.most_held, len(docs))
                yield from docs
            self.bar.update(1)

    def _stream(self, pf: ProcessedFile) -> Iterator[Document]:
        """Record a streamed file and yield its chunks segment by segment."""
        assert pf.batches is not None
        self._record(pf)
        src, model = pf.source, self.run.model
        rec = self.ledger[src.doc_id]
        written = 0
        try:
            for chunks in pf.batches:
                self.most_held = max(self.most_held, len(chunks))
                counts = model.count_tokens([c.text for c in chunks])
                self.over_window[src.doc_id] += sum(n > model.max_tokens for n in counts)
                written += len(chunks)
                self.bar.set_postfix(chunks=written)
                yield from (Document(page_content=c.text, metadata=c.to_metadata()) for c in chunks)
        except (OSError, DocumentLoadError, AssertionError, ValueError) as exc:
            reason = exc.reason if isinstance(exc, DocumentLoadError) else f"{exc}"
            reason = printable_key(f"{src.file_name}: failed while streaming: {reason}")
            log.warning("%s", reason)
            rec.update(status="failed", reason=reason, kind="error", chunks=0)
            self.report.failed[src.source] = reason
            for done in (self.report.indexed, self.report.updated):
                if src.source in done:
                    done.remove(src.source)
            self.broken.add(src.doc_id)
            return
        log.info("%s: streamed %d chunks", src.source, written)
        if not written:
            reason = f"{src.file_name}: no text to index"
            rec.update(status="failed", reason=reason, kind="empty", chunks=0)
            self.report.failed[src.source] = reason
            for done in (self.report.indexed, self.report.updated):
                if src.source in done:
                    done.remove(src.source)
            self.broken.add(src.doc_id)

    def _record(self, pf: ProcessedFile) -> list[Document]:
        """Record one file's outcome and return its chunks.

        Args:
            pf: The parse outcome.

        Returns:
            Its chunks as documents (empty when it failed).
        """
        src, report, model = pf.source, self.report, self.run.model
        report.parse_seconds += pf.parse_seconds
        report.stages["parse"] += pf.parse_seconds - pf.chunk_seconds
        report.stages["chunk"] += pf.chunk_seconds
        rec: dict[str, Any] = {
            "doc_id": src.doc_id,
            "source": src.source,
            "path": str(src.path),
            "doc_name": src.doc_name or src.file_name,
            "sha256": pf.sha256,
            "access": src.access,
            "folder_metadata": src.metadata,
            "ingested_at": self.run.now,
            **src.link_record(),
            **pf.info,
        }
        self.ledger[src.doc_id] = rec
        known = src.doc_id in self.known
        if pf.status != "ok":
            rec.update(status="failed", reason=pf.reason, kind=pf.kind, chunks=0)
            report.failed[src.source] = pf.reason
            if known:  # stale chunks of the old version go away
                report.chunks_deleted += self.build.delete_document(src.doc_id)
            self.bar.set_postfix(failed=len(report.failed))
            return []
        if pf.info.get("file_type") == "pdf":  # a presentation's slides are not PDF pages
            report.pages += pf.info.get("pages") or 0
        if pf.batches is not None:  # streamed: counted per segment by _stream
            rec.update(status="indexed", reason="", kind="")
            (report.updated if known else report.indexed).append(src.source)
            return []
        counts = model.count_tokens([c.text for c in pf.chunks])
        self.over_window[src.doc_id] = sum(n > model.max_tokens for n in counts)
        rec.update(status="indexed", reason="", kind="")
        (report.updated if known else report.indexed).append(src.source)
        return [Document(page_content=c.text, metadata=c.to_metadata()) for c in pf.chunks]


def write_documents(plan: IngestPlan, build: Build, report: IngestReport, run: Run) -> None:
    """Carry out a plan's deletions and writes in the temporary build.

    Deleted documents leave every index, the record manager and the ledger. The documents to
    write are parsed and indexed through :func:`langchain_core.indexing.index` with
    ``cleanup="scoped_full"`` (only unseen chunks are written; of those, a chunk with a stored
    twin in its document takes the twin's vectors, see :mod:`citerag.stores.reuse`; a changed
    document's stale chunks are deleted); then the ledger records each one with the chunks
    the index holds.

    Args:
        plan: The plan.
        build: The temporary build.
        report: Filled in with what happened.
        run: The run's settings.
    """
    documents = build.manifest.documents
    for action in plan.to_delete:
        report.chunks_deleted += build.delete_document(action.doc_id)
        report.deleted.append(action.source)
        documents.pop(action.doc_id)

    files = sorted((a.file for a in plan.to_write if a.file is not None), key=_file_size)
    workers = default_workers(files) if run.workers is None else run.workers
    known = {a.doc_id for a in plan.to_write if a.previous_status is not None}
    bar = tqdm(total=len(files), unit="doc", desc="ingest", disable=not run.progress)
    feed = ChunkFeed(files, known, build, report, run, workers, bar)
    inner: defaultdict[str, float] = defaultdict(float)
    before = report.stages["wait_parse"]
    # After a change of the sentence-vector switch or method the stored vectors are stale.
    previous = None if build.force_update else PreviousVectors(build.store, _group_keys(build))
    build.store.previous = previous
    t0 = time.perf_counter()
    try:
        with recording_stages(inner):
            result = lc_index(
                feed,
                build.records,
                build.store,
                cleanup="scoped_full",
                source_id_key="doc_id",
                batch_size=run.batch_size,
                key_encoder="sha256",
                force_update=build.force_update,
            )
    finally:
        build.store.previous = None
    took = time.perf_counter() - t0
    bar.close()
    for name, seconds in inner.items():
        report.stages[name] += seconds
    waited = report.stages["wait_parse"] - before
    report.stages["index_other"] += max(0.0, took - waited - sum(inner.values()))
    for doc_id in feed.broken:  # streamed documents that failed midway leave no chunks
        build.delete_document(doc_id)
    report.chunks_added += result["num_added"] + result["num_updated"]
    report.chunks_reused += previous.reused if previous is not None else 0
    report.chunks_skipped += result["num_skipped"]
    report.chunks_deleted += result["num_deleted"]
    report.embedded_texts += build.store.embedded_texts

    # Count what the index really holds, per document.
    held = chunk_counts(build.store)
    for doc_id, rec in feed.ledger.items():
        rec["chunks"] = held.get(doc_id, 0)
        rec["over_window_chunks"] = feed.over_window.get(doc_id, 0)
        documents[doc_id] = rec
    for doc_id, rec in documents.items():
        rec["chunks"] = held.get(doc_id, 0)
    report.over_window += sum(feed.over_window.values())


def _group_keys(build: Build) -> Callable[[str], list[str]]:
    """The stored chunk keys of a document id, from the build's record manager."""
    return lambda doc_id: build.records.list_keys(group_ids=[doc_id])


def _file_size(src: SourceFile) -> int:
    """A file's size in bytes (0 when it cannot be read: it fails quickly)."""
    try:
        return src.path.stat().st_size
    except OSError:
        return 0


def _file_of(action: DocumentAction) -> str:
    """The source key of the file an action's document is read from (its message file for
    an e-mail attachment)."""
    attached = action.file.attached if action.file is not None else None
    return attached.root_source if attached is not None else action.source


def split_phases(plan: IngestPlan, large_bytes: int = LARGE_BYTES) -> list[IngestPlan]:
    """Split a plan so that large documents are published after the others.

    Args:
        plan: The run's plan.
        large_bytes: Documents to write whose file is at least this large get a phase each.

    Returns:
        The first phase (every action except the large writes: deletions, small documents,
        skips), then one phase per large document, smallest first; a large message file's
        attachments to write are in its phase (they are read from the same file).
    """
    large = [
        a
        for a in plan.to_write
        if a.file is not None and a.file.attached is None and _file_size(a.file) >= large_bytes
    ]
    large.sort(key=lambda a: _file_size(a.file) if a.file is not None else 0)
    files = {a.source for a in large}
    rest = tuple(a for a in plan.actions if not (a.writes and _file_of(a) in files))
    return [IngestPlan(rest, plan.settings_changed)] + [
        IngestPlan(
            tuple(b for b in plan.to_write if _file_of(b) == a.source), plan.settings_changed
        )
        for a in large
    ]


def publish_build(target: IngestTarget, build: Build, report: IngestReport, run: Run) -> None:
    """Describe the build in its manifest and publish it atomically.

    A FAISS build folder is fsynced, renamed to the new build id and published by atomically
    replacing the ``current`` symlink (:func:`~citerag.stores.faiss.builds.commit_build`); a
    PostgreSQL build writes its manifest row and commits its transaction.

    Args:
        target: Where the build is published.
        build: The written build.
        report: The run's report; gets the build id and wall time, and is summarised in the
            manifest's ``last_run``.
        run: The run's settings.
    """
    build_id = new_build_id()
    manifest, model = build.manifest, run.model
    manifest.build_id = build_id
    manifest.created_at = run.now
    manifest.embedding = {
        "model": model.name,
        "dimension": model.dimension,
        "normalized": True,
        "max_tokens": model.max_tokens,
        "precision": model.precision,
    }
    manifest.index = target.index_info(build, run)
    if run.sentence_vectors:
        manifest.index["sentence_method"] = sentence_method(model.embeddings)
    manifest.chunking = run.chunking.describe()
    manifest.software = _software()
    report.build_id = build_id
    report.seconds = time.perf_counter() - run.started
    manifest.last_run = {**report.summary(), "fingerprint": _run_fingerprint(run)}
    inner: defaultdict[str, float] = defaultdict(float)
    t0 = time.perf_counter()
    with recording_stages(inner):
        target.publish(build)
    for name, seconds in (inner or {"publish": time.perf_counter() - t0}).items():
        report.stages[name] += seconds


def _run_fingerprint(run: Run) -> dict[str, Any]:
    """The settings of a run whose change re-processes every document."""
    return _settings_fingerprint(run.model, run.chunking, run.sentence_vectors)


def chunk_counts(store: IndexStore) -> Counter[str]:
    """Chunks each document holds in a store."""
    return Counter(store.count_by_doc())


def ingest(
    paths: list[Path],
    index_dir: Path | str,
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
    max_document_mb: float | None = DEFAULT_MAX_DOCUMENT_MB,
    large_bytes: int | None = None,
    stream_min_bytes: int | None = None,
    on_publish: PublishHook | None = None,
) -> IngestReport:
    """Ingest files into an index and publish each change atomically.

    Collects and hashes the sources, plans every document (:func:`plan_ingest`), splits the
    plan into phases (:func:`split_phases`: deletions and small documents, then each large
    document alone), and for each phase that changes something writes it into a copy of the
    current build (:func:`write_documents`) and publishes it (:func:`publish_build`). A run
    that changes nothing publishes nothing (except an empty first build).

    Args:
        paths: Files and folders to ingest.
        index_dir: Index directory (created if missing), or a PostgreSQL store URL
            (``postgresql+psycopg://user@host/db``; tables created if missing).
        model: The embedding model.
        chunking: Chunk settings (defaults used when ``None``).
        sentence_vectors: Also embed sentences (needed by the sentence reranker).
        default_access: Access label for files without a matching rule.
        sources: Explicit sources (instead of/in addition to ``paths``).
        delete_sources: Source keys to delete.
        prune_missing: Delete documents that were under an ingested folder and are gone.
        workers: Parser processes (default: :func:`default_workers`).
        progress: Show tqdm progress bars.
        batch_size: Chunks per indexing batch (also the most chunks embedded at once).
        max_document_mb: Per-document limit on extracted text, in MiB of characters
            (``None``: none); a larger document fails with a reason naming the limit.
        large_bytes: Files at least this large are published in a phase of their own
            (``None``: :data:`LARGE_BYTES`).
        stream_min_bytes: Plain-text files at least this large are streamed (``None``:
            :data:`~loaders.pipeline.STREAM_MIN_BYTES`).
        on_publish: Called after each published build with its id and the source keys its
            phase wrote or deleted (an exception it raises is logged, not propagated).

    Returns:
        What happened (``build_id``: the last published build).
    """
    t0 = time.perf_counter()
    chunking = chunking or ChunkSettings()
    max_chars = None if max_document_mb is None else int(max_document_mb * MIB)
    large_bytes = LARGE_BYTES if large_bytes is None else large_bytes
    stream_min_bytes = STREAM_MIN_BYTES if stream_min_bytes is None else stream_min_bytes
    found, prefixes = collect_sources(paths, default_access)
    found += sources or []
    hashed = hash_sources(found)
    report = IngestReport()
    fingerprint = _settings_fingerprint(model, chunking, sentence_vectors)
    target = backend_for(index_dir).target()
    with target.lock():
        build = target.open(model, sentence_vectors)
        try:
            collected = with_attachments(
                keep_known_files(
                    hashed, build.manifest.documents, [p for p in paths if not p.is_dir()]
                )
            )
            plan = plan_ingest(
                collected,
                build.manifest.documents,
                fingerprint=fingerprint,
                previous_fingerprint=build.previous_fingerprint,
                prefixes=prefixes,
                delete_sources=delete_sources or [],
                prune_missing=prune_missing,
                existing=_existing_files(build.manifest.documents),
                roots=folder_roots(paths),
            )
        except BaseException:
            target.abort(build)
            raise
        if plan.settings_changed:
            log.info("settings changed since the last build: re-processing every document")
        for action in plan.actions:
            if action.reason in (Reason.REPLACES_OTHER_FILE, Reason.OTHER_FOLDER):
                log.warning("%s: %s", action.source, action.reason.value)
        report.unchanged = [a.source for a in plan.skipped]
        now = datetime.now(UTC).isoformat(timespec="seconds")
        run = Run(
            model,
            chunking,
            sentence_vectors,
            workers,
            progress,
            batch_size,
            t0,
            now,
            max_chars,
            stream_min_bytes,
        )
        phases = split_phases(plan, large_bytes)
        force, first = build.force_update, build.first
        unchanged_id = build.manifest.build_id
        published = False
        # Only the phase being written is held: a published phase's store (its FAISS index,
        # docstore, BM25) would otherwise stay in memory while the next phase writes.
        waiting: Build | None = build
        del build
        for number, phase in enumerate(phases):
            opened, waiting = waiting, None
            try:
                if number:
                    opened = target.open(model, sentence_vectors, force_update=force)
                assert opened is not None
                last = number == len(phases) - 1
                if not (phase.changes_index or (first and last and not published)):
                    target.abort(opened)
                    continue
                if len(phases) > 1:
                    log.info("ingest phase %d of %d", number + 1, len(phases))
                write_documents(phase, opened, report, run)
                publish_build(target, opened, report, run)
                published = True
            except BaseException:
                target.abort(opened)
                raise
            opened = None
            _notify(on_publish, report.build_id, phase)
        if not published:
            report.build_id = unchanged_id
    report.seconds = time.perf_counter() - t0
    return report


def _notify(hook: PublishHook | None, build_id: str, phase: IngestPlan) -> None:
    """Tell ``hook`` a phase was published (its exceptions are logged)."""
    if hook is None:
        return
    sources = [a.source for a in phase.actions if a.writes or a.kind is ActionKind.DELETE]
    try:
        hook(build_id, sources)
    except Exception:
        log.exception("on_publish hook failed for build %s", build_id)

"""One background thread that performs every index write, in order.

It loads the embedding model and the index first, then takes jobs from a queue. Jobs waiting
together are applied in one :func:`~citerag.index.ingest.ingest` run (one new build instead of
several). After a build is published the worker loads it and swaps the graph *before*
changing any document's status, so a client that sees ``indexed`` (or a deleted document
disappear) gets answers from the new build. An ingest run publishes in phases (small uploads
first, then each large one in a build of its own, see :mod:`citerag.index.ingest`); the
worker loads and settles after every phase, so a large upload in the same run does not keep
the small ones ``pending``. A text upload within ``max_upload_mb`` is always within the
ingest's per-document text limit (``max_document_mb``, 50 MiB by default). While idle it
also notices builds published by someone else (``citerag ingest`` on the same index) and loads them.
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from pathlib import Path

from citerag.index.manifest import Manifest
from citerag.server.documents import DocumentRecord, DocumentRegistry
from citerag.server.engine import Engine

log = logging.getLogger(__name__)

#: Most jobs applied in one ingest run.
MAX_BATCH = 32


@dataclass(frozen=True)
class Job:
    """An index write: ``add`` or ``delete`` an uploaded document."""

    kind: str
    doc_id: str


_STOP = Job("stop", "")


class IndexWorker:
    """Serialises index writes for the server."""

    def __init__(
        self,
        engine: Engine,
        registry: DocumentRegistry,
        *,
        watch_interval: float = 2.0,
    ) -> None:
        """Configure the worker (call :meth:`start`).

        Args:
            engine: The engine whose graph is swapped after each build.
            registry: Document statuses.
            watch_interval: Seconds between checks for builds published by others
                (0 disables the check).
        """
        self.engine = engine
        self.registry = registry
        self.watch_interval = watch_interval
        self._queue: queue.Queue[Job] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="citerag-index-writer", daemon=True)
        self.busy = threading.Event()

    @property
    def index_dir(self) -> Path:
        """The index directory written to."""
        return self.engine.index_dir

    def start(self) -> None:
        """Start the thread (loads the model and index, resumes unfinished work)."""
        self._thread.start()

    def stop(self, timeout: float = 60.0) -> None:
        """Ask the thread to stop after the current job and wait for it."""
        self._queue.put(_STOP)
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning(
                "index writer still busy after %.0f s; its build stays uncommitted "
                "unless it finishes",
                timeout,
            )

    def submit(self, kind: str, doc_id: str) -> None:
        """Queue an ``add`` or ``delete``."""
        self._queue.put(Job(kind, doc_id))

    def pending_jobs(self) -> int:
        """Jobs waiting in the queue."""
        return self._queue.qsize()

    # -- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self.engine.load_model()
            self.engine.reload()
            self._reconcile()
        except Exception as exc:
            log.exception("cannot load the index")
            self.engine.state, self.engine.error = "error", f"{type(exc).__name__}: {exc}"
        for rec in self.registry.all():  # resume work interrupted by a restart
            if rec.status == "pending":
                self.submit("add", rec.id)
            elif rec.status == "deleting":
                self.submit("delete", rec.id)
        while True:
            try:
                job = self._queue.get(timeout=self.watch_interval or None)
            except queue.Empty:
                self._watch()
                continue
            batch = [job]
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = any(j.kind == "stop" for j in batch)
            work = [j for j in batch if j.kind != "stop"]
            if work and self.engine.model_loaded:
                self.busy.set()
                try:
                    self._apply(work)
                except Exception:  # keep the thread alive whatever happens
                    log.exception("index writer failed on %d job(s)", len(work))
                finally:
                    self.busy.clear()
            if stop:
                return

    def _watch(self) -> None:
        try:
            if self.engine.model_loaded and self.engine.index_changed():
                log.info("a new index build appeared; loading it")
                self.engine.reload()
                self._reconcile()
        except Exception:
            log.exception("cannot load the new index build")

    def _apply(self, jobs: list[Job]) -> None:
        from citerag.index.ingest import ingest
        from loaders.pipeline import SourceFile

        adds: dict[str, DocumentRecord] = {}
        deletes: dict[str, DocumentRecord] = {}
        for job in jobs:
            rec = self.registry.get(job.doc_id)
            if rec is None:
                continue
            if job.kind == "add" and rec.status == "pending":
                adds[rec.id] = rec
            elif job.kind == "delete":
                adds.pop(rec.id, None)  # deleted before it was indexed
                deletes[rec.id] = rec
        if not adds and not deletes:
            return
        sources = [
            SourceFile(self.registry.file_path(r), r.source, r.access, r.name)
            for r in adds.values()
        ]
        chunking, sentence_vectors = self.engine.ingest_settings()
        log.info("indexing %d upload(s), deleting %d", len(adds), len(deletes))
        settled: set[str] = set()

        def published(build_id: str, phase_sources: list[str]) -> None:
            """Serve and settle what one published phase wrote, before the next phase."""
            done = [r for r in adds.values() if r.source in phase_sources]
            gone = [r for r in deletes.values() if r.source in phase_sources]
            if not done and not gone:
                return
            self._settle(self._served_manifest(build_id), done, gone)
            settled.update(r.id for r in done + gone)

        try:
            report = ingest(
                [],
                self.index_dir,
                self.engine.model,
                chunking=chunking,
                sentence_vectors=sentence_vectors,
                sources=sources,
                delete_sources=[r.source for r in deletes.values()],
                prune_missing=False,
                workers=0,  # parse in this thread: no fork from a threaded server
                progress=False,
                on_publish=published,
            )
        except Exception as exc:
            log.exception("ingest failed")
            reason = f"indexing error: {type(exc).__name__}: {exc}"
            for rec in adds.values():
                self.registry.update(rec.id, status="failed", reason=reason, chunks=0)
            for rec in deletes.values():
                self.registry.update(rec.id, reason=f"delete not applied yet: {reason}")
            return
        self._settle(
            self._served_manifest(report.build_id),
            [r for r in adds.values() if r.id not in settled],
            [r for r in deletes.values() if r.id not in settled],
        )

    def _served_manifest(self, build_id: str) -> Manifest:
        """Serve ``build_id`` if it is not served yet, and return the manifest to settle from.

        Args:
            build_id: A build just published.

        Returns:
            The served build's manifest, or (when it cannot be served) the one on disk.
        """
        snap = self.engine.current()
        if snap is None or snap.build_id != build_id:
            try:
                snap = self.engine.reload()  # swap first: statuses then describe the live graph
            except Exception:
                log.exception("build %s was published but cannot be served", build_id)
                snap = None
        if snap is not None and snap.build_id == build_id:
            return snap.manifest
        from citerag.index.loaded import read_manifest  # not served: what the disk holds

        return read_manifest(self.index_dir)

    def _settle(
        self, manifest: Manifest, adds: list[DocumentRecord], deletes: list[DocumentRecord]
    ) -> None:
        """Set statuses from a build's manifest (the one being served, normally)."""
        docs, build_id = manifest.documents, manifest.build_id
        for rec in adds:
            current = self.registry.get(rec.id)
            if current is None or current.status == "deleting":
                continue  # a delete arrived while it was indexed: that job settles it
            m = docs.get(rec.index_doc_id)
            if m is None:
                self.registry.update(
                    rec.id,
                    status="failed",
                    chunks=0,
                    build_id=build_id,
                    reason="the index build did not record this document",
                )
                continue
            self.registry.update(
                rec.id,
                status="indexed" if m.get("status") == "indexed" else "failed",
                reason=str(m.get("reason") or ""),
                chunks=int(m.get("chunks") or 0),
                pages=m.get("pages"),
                build_id=build_id,
            )
        for rec in deletes:
            if rec.index_doc_id in docs:
                self.registry.update(rec.id, reason="delete not applied: still in the index")
                continue
            self.registry.remove(rec.id)

    def _reconcile(self) -> None:
        """Refresh settled statuses from the served build (after a (re)load)."""
        snap = self.engine.current()
        if snap is None:
            return
        docs = snap.manifest.documents
        for rec in self.registry.all():
            if rec.status not in ("indexed", "failed"):
                continue
            m = docs.get(rec.index_doc_id)
            if m is None:
                if rec.status == "indexed":
                    self.registry.update(
                        rec.id,
                        status="failed",
                        chunks=0,
                        build_id=snap.build_id,
                        reason="not in the current index build (was the index rebuilt?)",
                    )
                continue
            status = "indexed" if m.get("status") == "indexed" else "failed"
            chunks = int(m.get("chunks") or 0)
            if status != rec.status or chunks != rec.chunks:
                self.registry.update(
                    rec.id,
                    status=status,
                    chunks=chunks,
                    reason=str(m.get("reason") or ""),
                    build_id=snap.build_id,
                )

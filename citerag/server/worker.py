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

:class:`IndexWorker` is one class in three modes, chosen by what it is given
(:func:`worker_for` chooses for a server's settings):

* **own queue** (no ``coordination``): one process owns the registry; jobs are queued in
  memory by :meth:`IndexWorker.submit`;
* **coordinated** (a :class:`~citerag.stores.backend.Coordination` from the index's backend,
  over a :class:`~citerag.stores.registry.SharedRegistry`): one of several serving
  processes; the job queue is the shared registry's ``pending``/``deleting`` records, and
  only the process holding the job lock applies them. The coordination says how the lock is
  taken, how a published build is seen and whether other processes' changes arrive as
  wake-ups (:mod:`citerag.stores.faiss.coordination` on an index directory,
  :mod:`citerag.stores.postgres.coordination` on a PostgreSQL store);
* **read-only** (``read_only=True``): loads the published build and follows new ones,
  writes nothing.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from citerag.server.engine import Engine
from citerag.stores.backend import Backend, Coordination
from citerag.stores.location import IndexLocation
from citerag.stores.manifest import Manifest
from citerag.stores.registry import DocumentRecord, Registry, SharedRegistry

if TYPE_CHECKING:
    from citerag.index.ingest import IngestReport

log = logging.getLogger(__name__)

#: Ingest runs an upload may be handed to before it is ``failed`` (each hand-over whose run
#: did not settle it means the writing process died, e.g. out of memory, during it).
MAX_ATTEMPTS = 3

#: Most jobs applied in one ingest run.
MAX_BATCH = 32


@dataclass(frozen=True)
class Job:
    """An index write: ``add`` or ``delete`` an uploaded document."""

    kind: str
    doc_id: str


_STOP = Job("stop", "")


class IndexWorker:
    """Serialises index writes for the server: in a queue of its own, coordinated with the
    other processes serving the index, or not at all (read-only); see the module docstring.

    Coordinated (several processes sharing a job queue and one index):

    * **Jobs come from the shared registry.** The queue is its ``pending`` and ``deleting``
      records, written by whichever process accepted the upload or the delete;
      :meth:`submit` only wakes this thread early.
    * **One process applies them.** Each cycle (every ``watch_interval`` seconds, or at
      once after a local upload or a wake-up from the coordination) a process that is not
      the writer tries to take the job lock (:meth:`Coordination.try_lock
      <citerag.stores.backend.Coordination.try_lock>`, a lock held by the process, released
      by the operating system or the database when it dies). The holder stays the writer
      until it stops; the next process to try takes over and finds the dead writer's jobs
      still ``pending``/``deleting`` (statuses change only after a build is published), so
      they are applied again. Two processes never run the same job at the same time; a job
      the dead writer had already published is planned as *unchanged* by the re-run (the
      record manager and the manifest know it), so it is indexed once. Each hand-over to
      an ingest run is counted in the record's ``attempts``. The ingest itself still takes
      the index's writer lock, so a ``citerag ingest`` on the same index waits for it (or
      it for the CLI).
    * **Every process notices a published build** within ``watch_interval`` (the
      coordination's published build id) and reloads. The writer reloads before it settles
      statuses; statuses of a build another process has not loaded yet show as ``pending``
      there (see :func:`~citerag.server.documents.served_view`).
    * A job whose attempt left its record unchanged (e.g. a delete that failed) is retried
      only when its record changes (a repeated ``DELETE``) or the writer changes.

    Read-only: any number of such processes may serve one index (``citerag serve
    --read-only --workers N``): none of them writes the index, the registry or the data
    folder, so they need no coordination. Each loads the published build at start and
    checks every ``watch_interval`` whether another was published (a ``citerag ingest`` or
    a writing server); it then loads, warms and swaps in the new graph, as the writer does
    after its own builds. Uploads and deletes are refused by the routes (405,
    :data:`READ_ONLY_DETAIL`); :meth:`submit` refuses too.
    """

    def __init__(
        self,
        engine: Engine,
        registry: Registry,
        *,
        coordination: Coordination | None = None,
        read_only: bool = False,
        watch_interval: float = 2.0,
    ) -> None:
        """Configure the worker (call :meth:`start`).

        Args:
            engine: The engine whose graph is swapped after each build.
            registry: Document statuses (a :class:`~citerag.stores.registry.SharedRegistry`
                when ``coordination`` is given).
            coordination: Share the job queue with the other processes serving the index
                (``None``: this process owns the registry's queue).
            read_only: Apply nothing; only follow published builds.
            watch_interval: Seconds between checks for builds published by others (0
                disables the check of a worker with its own queue; coordinated and
                read-only workers take 0 as the default, 2 s).

        Raises:
            ValueError: Both ``coordination`` and ``read_only``, or ``coordination`` over a
                registry that is not shared.
        """
        if coordination is not None and read_only:
            raise ValueError("a read-only worker takes no coordination (it writes nothing)")
        if coordination is not None and not isinstance(registry, SharedRegistry):
            raise ValueError(
                f"a coordinated worker needs a shared registry, not {type(registry).__name__}"
            )
        self.engine = engine
        self.registry: Registry = registry
        self.coordination = coordination
        self.read_only = read_only
        local = coordination is None and not read_only
        self.watch_interval = watch_interval if local else (watch_interval or 2.0)
        self._queue: queue.Queue[Job] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="citerag-index-writer", daemon=True)
        self._stopping = threading.Event()
        self._listener: threading.Thread | None = None
        if coordination is not None and coordination.listens:
            self._listener = threading.Thread(
                target=coordination.listen,
                args=(self._wake, self._stopping, self.watch_interval),
                name="citerag-index-listener",
                daemon=True,
            )
        self.busy = threading.Event()
        self.identity = f"{socket.gethostname()}:{os.getpid()}"
        self._writer = False
        self._tried: dict[str, int] = {}
        #: Called with the report of each ingest run this worker applies (the app sets it
        #: to :meth:`citerag.server.observe.Observer.ingest`: metrics and stage spans).
        self.on_ingest: Callable[[IngestReport], object] | None = None

    @property
    def shared_registry(self) -> SharedRegistry:
        """The shared registry (coordinated mode only).

        Raises:
            RuntimeError: The worker is not coordinated.
        """
        if not isinstance(self.registry, SharedRegistry) or self.coordination is None:
            raise RuntimeError("only a coordinated worker has a shared registry")
        return self.registry

    @property
    def index_dir(self) -> IndexLocation:
        """The index written to (a directory or a store URL)."""
        return self.engine.index_dir

    @property
    def is_writer(self) -> bool:
        """Whether this process applies uploads and deletes: always with its own queue,
        never read-only, while it holds the job lock when coordinated."""
        if self.read_only:
            return False
        return self._writer if self.coordination is not None else True

    def start(self) -> None:
        """Start the thread (loads the model and index, resumes unfinished work), and the
        coordination's listener if it has one."""
        self._thread.start()
        if self._listener is not None:
            self._listener.start()

    def stop(self, timeout: float = 60.0) -> None:
        """Ask the thread to stop after the current job and wait for it; then release the
        job lock (coordinated) and stop the listener."""
        self._stopping.set()
        if self.read_only:  # it holds no lock and leaves nothing half written
            self._thread.join(timeout)
            return
        self._queue.put(_STOP)
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning(
                "index writer still busy after %.0f s; its build stays uncommitted "
                "unless it finishes",
                timeout,
            )
        if self.coordination is not None:
            self._release()
        if self._listener is not None and self._listener.is_alive():
            self._listener.join(timeout=5.0)

    def submit(self, kind: str, doc_id: str) -> None:
        """Queue an ``add`` or ``delete`` (coordinated: wake the thread; the job itself is
        the registry record).

        Raises:
            RuntimeError: A read-only worker (nothing is written).
        """
        if self.read_only:
            raise RuntimeError(READ_ONLY_DETAIL)
        if self.coordination is not None:
            self._wake(doc_id)
        else:
            self._queue.put(Job(kind, doc_id))

    def _wake(self, doc_id: str = "") -> None:
        self._queue.put(Job("poke", doc_id))

    def pending_jobs(self) -> int:
        """Jobs waiting (coordinated: in the shared queue)."""
        if self.coordination is not None:
            reg = self.shared_registry
            return reg.count("pending") + reg.count("deleting")
        return self._queue.qsize()

    # -- the thread ------------------------------------------------------------------------

    def _start_engine(self, *, reconcile: bool = False) -> None:
        """Load the model and the published build; a failure leaves the engine in ``error``."""
        try:
            self.engine.load_model()
            self.engine.reload()
            if reconcile:
                self._reconcile()
        except Exception as exc:
            log.exception("cannot load the index")
            self.engine.state, self.engine.error = "error", f"{type(exc).__name__}: {exc}"

    def _run(self) -> None:
        if self.read_only:
            self._run_read_only()
        elif self.coordination is not None:
            self._run_coordinated()
        else:
            self._run_own_queue()

    def _run_own_queue(self) -> None:
        self._start_engine(reconcile=True)
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

    def _run_read_only(self) -> None:
        self._start_engine()
        while not self._stopping.wait(self.watch_interval):
            try:
                if self.engine.model_loaded and self.engine.index_changed():
                    log.info("a new index build appeared; loading it (read-only)")
                    self.engine.reload()
            except Exception:  # keep following: the previous build stays served
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
        sources = []
        for r in list(adds.values()):
            try:
                path = self.registry.file_path(r)
            except FileNotFoundError as exc:  # deleted meanwhile (a shared registry)
                adds.pop(r.id)
                self.registry.update(
                    r.id, only_if=("pending",), status="failed", chunks=0, reason=str(exc)
                )
                continue
            sources.append(SourceFile(path, r.source, r.access, r.name))
        if not adds and not deletes:
            return
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
                self.registry.update(
                    rec.id, only_if=("pending",), status="failed", reason=reason, chunks=0
                )
            for rec in deletes.values():
                self.registry.update(
                    rec.id, only_if=("deleting",), reason=f"delete not applied yet: {reason}"
                )
            return
        if self.on_ingest is not None:
            try:
                self.on_ingest(report)
            except Exception:
                log.exception("recording the ingest run's stages failed")
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
        if self.coordination is not None:  # tell the other processes first, then serve it
            try:
                self.shared_registry.notify()
            except Exception:
                log.warning(
                    "cannot notify the other processes of build %s", build_id, exc_info=True
                )
        snap = self.engine.current()
        if snap is None or snap.build_id != build_id:
            try:
                snap = self.engine.reload()  # swap first: statuses then describe the live graph
            except Exception:
                log.exception("build %s was published but cannot be served", build_id)
                snap = None
        if snap is not None and snap.build_id == build_id:
            return snap.manifest
        from citerag.stores.loaded import read_manifest  # not served: what the disk holds

        return read_manifest(self.index_dir)

    def _settle(
        self, manifest: Manifest, adds: list[DocumentRecord], deletes: list[DocumentRecord]
    ) -> None:
        """Set statuses from a build's manifest (the one being served, normally)."""
        docs, build_id = manifest.documents, manifest.build_id
        for rec in adds:
            # A delete that arrived while it was indexed settles it: only_if leaves it alone.
            m = docs.get(rec.index_doc_id)
            if m is None:
                self.registry.update(
                    rec.id,
                    only_if=("pending",),
                    status="failed",
                    chunks=0,
                    build_id=build_id,
                    reason="the index build did not record this document",
                )
                continue
            self.registry.update(
                rec.id,
                only_if=("pending",),
                status="indexed" if m.get("status") == "indexed" else "failed",
                reason=str(m.get("reason") or ""),
                chunks=int(m.get("chunks") or 0),
                pages=m.get("pages"),
                build_id=build_id,
            )
        for rec in deletes:
            if rec.index_doc_id in docs:
                self.registry.update(
                    rec.id, only_if=("deleting",), reason="delete not applied: still in the index"
                )
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
                        only_if=("indexed",),
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
                    only_if=(rec.status,),
                    status=status,
                    chunks=chunks,
                    reason=str(m.get("reason") or ""),
                    build_id=snap.build_id,
                )

    # -- coordinated -----------------------------------------------------------------------

    def _coord(self) -> Coordination:
        if self.coordination is None:
            raise RuntimeError("only a coordinated worker takes the job lock")
        return self.coordination

    def _run_coordinated(self) -> None:
        self._start_engine()
        while True:
            self._cycle()
            try:
                batch = [self._queue.get(timeout=self.watch_interval)]
            except queue.Empty:
                continue
            while True:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            if any(j.kind == "stop" for j in batch):
                return

    def _cycle(self) -> None:
        try:
            if self._writer and not self._coord().holds_lock():
                self._writer = False  # its session ended (a lost connection): take it again
            self._follow()
            if not self.engine.model_loaded or not self._lead():
                return
            self._work()
        except Exception:  # keep the thread alive whatever happens
            log.exception("index worker cycle failed")
            if not self._coord().lock_survives_errors:
                self._release()  # e.g. a broken connection: reconnect (and retake) next cycle

    def _release(self) -> None:
        """Give the job lock up (if held): this process is no longer the writer."""
        if self._writer:
            log.info("%s is no longer the index writer", self.identity)
        self._writer = False
        self._coord().release()

    def _new_build(self) -> bool:
        """Whether a build other than the served one has been published."""
        build_id = self._coord().published_build()
        snap = self.engine.current()
        return build_id is not None and (snap is None or snap.build_id != build_id)

    def _follow(self) -> None:
        """Reload when another process (or ``citerag ingest``) published a build."""
        if not self.engine.model_loaded or not self._new_build():
            return
        log.info("a new index build was published; loading it")
        self.engine.reload()
        if self._writer:
            self._reconcile()
        self.shared_registry.prune_local()

    def _lead(self) -> bool:
        """Hold (or try to take) the job lock; whether this process is the writer."""
        if self._writer:
            return True
        self._writer = self._coord().try_lock()
        if self._writer:
            log.info("%s is now the index writer", self.identity)
            self._tried.clear()
            if self._new_build():  # the previous writer published since this cycle's check
                self.engine.reload()
            self._reconcile()
        return self._writer

    def _work(self) -> None:
        """Apply up to :data:`MAX_BATCH` queued jobs (again at once if more are waiting)."""
        reg = self.shared_registry
        queued = reg.jobs(MAX_BATCH * 4)
        tries = reg.attempts([rec.id for rec, _ in queued if rec.status == "pending"])
        spent = {i for i, n in tries.items() if n >= MAX_ATTEMPTS}
        for rec, _ in queued:
            if rec.id in spent:
                reg.update(
                    rec.id,
                    only_if=("pending",),
                    status="failed",
                    chunks=0,
                    reason=f"indexing was interrupted {MAX_ATTEMPTS} times (the writing process "
                    "stopped while indexing it each time: too large for this server's memory?)",
                )
        queued = [(r, v) for r, v in queued if r.id not in spent]
        live = {rec.id for rec, _ in queued}
        self._tried = {k: v for k, v in self._tried.items() if k in live}
        jobs = [
            Job("add" if rec.status == "pending" else "delete", rec.id)
            for rec, version in queued
            if self._tried.get(rec.id) != version
        ][:MAX_BATCH]
        if not jobs:
            return
        ids = [j.doc_id for j in jobs]
        reg.claim(ids, self.identity)
        self.busy.set()
        try:
            self._apply(jobs)
        finally:
            self.busy.clear()
            wanted = {j.doc_id: "pending" if j.kind == "add" else "deleting" for j in jobs}
            for doc_id, (status, version) in reg.versions(ids).items():
                if status == wanted[doc_id]:  # the attempt left it queued: not again as is
                    self._tried[doc_id] = version
        if len(queued) > len(jobs):
            self._queue.put(Job("poke", ""))  # more waiting: next cycle at once


#: Why a read-only server refuses uploads and deletes (the 405 responses' detail).
READ_ONLY_DETAIL = (
    "this server is read-only (read_only = true, e.g. several processes serving one index "
    "directory): it answers from the published build and takes no uploads or deletes. "
    "Add documents with `citerag ingest` (every process loads the new build within "
    "watch_interval) or through a server started without --read-only"
)


def worker_for(
    engine: Engine,
    registry: Registry,
    backend: Backend,
    *,
    read_only: bool = False,
    watch_interval: float = 2.0,
) -> IndexWorker:
    """The worker of a server: coordinated over a shared registry (the backend's job lock),
    read-only with ``read_only`` over a registry of its own, else with a queue of its own.

    Args:
        engine: The server's engine.
        registry: The registry ``backend`` opened for the server.
        backend: The index's backend.
        read_only: The server is read-only (an index directory's: the settings refuse
            ``read_only`` with a PostgreSQL store, whose processes all share its registry).
        watch_interval: Seconds between checks for builds published by others.
    """
    if isinstance(registry, SharedRegistry) and registry.shared:
        return IndexWorker(
            engine,
            registry,
            coordination=backend.coordination(registry),
            watch_interval=watch_interval,
        )
    return IndexWorker(engine, registry, read_only=read_only, watch_interval=watch_interval)

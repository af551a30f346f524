"""The registry and job lock that several processes serving one index directory share.

``citerag serve --workers N`` on an index directory: each process opens
:class:`~citerag.stores.faiss.registry.SharedDocumentRegistry` on the same data directory and
runs an :class:`~citerag.server.worker.IndexWorker` coordinated by the directory backend's
job lock (:mod:`citerag.stores.faiss.coordination`). Two registries opened on one folder
stand for two processes (each has its own file descriptors, so ``flock`` excludes them
exactly as it would two processes); one test uses real processes.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from citerag.server.engine import Engine
from citerag.server.worker import IndexWorker
from citerag.stores.faiss.backend import FaissBackend
from citerag.stores.faiss.registry import DocumentRegistry, SharedDocumentRegistry
from citerag.stores.registry import INCOMING_DIR, make_record


def open_registry(data_dir: Path, *, read_only: bool = False):
    """A directory backend's registry, as a server opens it."""
    return FaissBackend(data_dir / "index").registry(data_dir, read_only=read_only)


def coordinated_worker(engine: Engine, reg: SharedDocumentRegistry) -> IndexWorker:
    """A worker coordinated by the directory backend's job lock (as ``citerag serve`` makes)."""
    return IndexWorker(engine, reg, coordination=engine.backend.coordination(reg))


def _record(n: int):
    return make_record(f"{n:032x}", f"doc{n}.md", f"doc{n}.md", "public", 10, "ab" * 32, "alice")


def _add_many(data_dir: str, start: int, count: int) -> None:
    reg = SharedDocumentRegistry(Path(data_dir))
    for n in range(start, start + count):
        reg.add(_record(n))
        reg.update(f"{n:032x}", status="indexed", chunks=1)
    reg.close()


def test_a_change_in_one_process_is_seen_by_the_other(tmp_path: Path):
    a, b = SharedDocumentRegistry(tmp_path), SharedDocumentRegistry(tmp_path)
    a.add(_record(1))
    got = b.get(f"{1:032x}")
    assert got is not None and got.status == "pending"
    b.update(f"{1:032x}", status="indexed", chunks=3)
    seen = a.get(f"{1:032x}")
    assert seen is not None and (seen.status, seen.chunks) == ("indexed", 3)
    assert [r.id for r in a.all()] == [f"{1:032x}"] and a.count("indexed") == 1
    a.remove(f"{1:032x}")
    assert b.get(f"{1:032x}") is None and b.all() == []


def test_the_queue_versions_and_claims(tmp_path: Path):
    a, b = SharedDocumentRegistry(tmp_path), SharedDocumentRegistry(tmp_path)
    for n in (1, 2, 3):
        a.add(_record(n))
    a.update(f"{2:032x}", status="indexed", chunks=1)
    queued = b.jobs(10)
    assert [r.id for r, _ in queued] == [f"{1:032x}", f"{3:032x}"]
    before = b.versions([f"{1:032x}"])[f"{1:032x}"]
    b.claim([f"{1:032x}"], "host:1")
    a.request_delete(f"{1:032x}")  # a change bumps the version: the writer retries it
    status, version = b.versions([f"{1:032x}", "f" * 32])[f"{1:032x}"]
    assert status == "deleting" and version > before[1]
    assert set(b.versions([f"{1:032x}", "f" * 32])) == {f"{1:032x}"}  # unknown ids left out
    # the job fields survive a re-read by a third opener; a plain registry reads the file too
    c = SharedDocumentRegistry(tmp_path)
    assert c._jobs[f"{1:032x}"]["attempts"] == 1 and c._jobs[f"{1:032x}"]["claimed_by"] == "host:1"
    assert DocumentRegistry(tmp_path).get(f"{2:032x}") is not None
    # a conditional update that does not apply changes nothing, version included
    assert a.update(f"{2:032x}", only_if=("pending",), status="failed") is None
    assert b.versions([f"{2:032x}"])[f"{2:032x}"][0] == "indexed"


def test_concurrent_writers_lose_no_change(tmp_path: Path):
    regs = [SharedDocumentRegistry(tmp_path) for _ in range(2)]
    threads = [
        threading.Thread(target=lambda r=r, i=i: [r.add(_record(i * 100 + n)) for n in range(40)])
        for i, r in enumerate(regs)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(regs[0].all()) == 80 and len(regs[1].all()) == 80


def test_processes_sharing_the_file_lose_no_change(tmp_path: Path):
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_add_many, args=(str(tmp_path), i * 1000, 25)) for i in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    recs = SharedDocumentRegistry(tmp_path).all()
    assert len(recs) == 75 and all(r.status == "indexed" for r in recs)


def test_each_process_receives_into_its_own_folder_and_dead_ones_are_cleared(tmp_path: Path):
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    stale = uploads / f"{INCOMING_DIR}-{int(dead.stdout)}-x1"
    live = uploads / f"{INCOMING_DIR}-{os.getppid()}-x2"  # a running process's folder
    for folder in (stale, live):
        folder.mkdir()
        (folder / "part").write_bytes(b"half an upload")
    a, b = SharedDocumentRegistry(tmp_path), SharedDocumentRegistry(tmp_path)
    assert a.incoming != b.incoming and a.incoming.is_dir() and b.incoming.is_dir()
    assert not stale.exists() and (live / "part").exists()
    a.close()
    assert not a.incoming.exists() and b.incoming.is_dir()  # only its own


def test_every_writing_server_on_a_directory_shares_its_registry(tmp_path: Path):
    # one process or several: a server started by hand on the same data_dir coordinates too
    assert isinstance(open_registry(tmp_path / "a"), SharedDocumentRegistry)
    assert open_registry(tmp_path / "a").shared
    assert not isinstance(open_registry(tmp_path / "a", read_only=True), SharedDocumentRegistry)


def test_an_upload_that_keeps_stopping_the_writer_ends_failed(tmp_path: Path):
    from citerag.server.worker import MAX_ATTEMPTS

    reg = SharedDocumentRegistry(tmp_path)
    reg.add(_record(1))
    reg.add(_record(2))
    for _ in range(MAX_ATTEMPTS):  # each hand-over whose run never settled it
        reg.claim([f"{1:032x}"], "host:1")
    worker = coordinated_worker(Engine(tmp_path / "index"), reg)
    applied: list[list[str]] = []
    worker._apply = lambda jobs: applied.append([j.doc_id for j in jobs])  # type: ignore[method-assign]
    worker._work()
    spent = reg.get(f"{1:032x}")
    assert spent is not None and spent.status == "failed" and "interrupted" in spent.reason
    assert applied == [[f"{2:032x}"]]  # the other upload is still indexed
    assert reg.attempts([f"{1:032x}", f"{2:032x}"]) == {f"{1:032x}": MAX_ATTEMPTS, f"{2:032x}": 1}


def test_exactly_one_worker_holds_the_job_lock(tmp_path: Path):
    engine = Engine(tmp_path / "index")
    workers = [coordinated_worker(engine, SharedDocumentRegistry(tmp_path)) for _ in range(2)]
    assert workers[0]._lead() is True
    assert workers[1]._lead() is False and not workers[1].is_writer
    assert workers[0]._lead() is True  # the holder stays the writer
    workers[0]._release()  # it stops (or dies): the lock goes with its descriptor
    assert not workers[0].is_writer
    assert workers[1]._lead() is True and workers[1].is_writer
    workers[1]._release()


@pytest.mark.parametrize("workers", [0, 1, 3])
def test_settings_allow_several_writing_processes_on_a_directory(tmp_path: Path, workers: int):
    from citerag.server.settings import AUTO_WORKERS_MAX, ServerSettings

    s = ServerSettings(tokens_file=tmp_path / "t.json", workers=workers).validate()
    expected = workers or max(1, min(os.cpu_count() or 1, AUTO_WORKERS_MAX))
    assert s.process_count() == expected and s.store is None and not s.read_only
    with pytest.raises(ValueError, match="workers must be 0-64"):
        ServerSettings(tokens_file=tmp_path / "t.json", workers=-1).validate()


def test_a_nested_call_keeps_the_file_lock_until_the_outer_one_ends(tmp_path: Path):
    import fcntl

    a = SharedDocumentRegistry(tmp_path)
    a.add(_record(1))
    probe = os.open(tmp_path / SharedDocumentRegistry.LOCK_FILE, os.O_RDWR)

    def held() -> bool:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(probe, fcntl.LOCK_UN)
        return False

    with a._locked():
        a.update(f"{1:032x}", status="indexed")  # takes and leaves the lock inside
        assert held()  # still held for the outer call
    assert not held()
    os.close(probe)


def test_a_write_is_seen_even_when_the_file_looks_unchanged(tmp_path: Path):
    # inode reuse and coarse mtimes can make two versions of documents.json stat alike: the
    # generation number in the lock file still tells them apart
    a, b = SharedDocumentRegistry(tmp_path), SharedDocumentRegistry(tmp_path)
    a.add(_record(1))
    assert b.get(f"{1:032x}") is not None
    a.update(f"{1:032x}", status="indexed", chunks=2)
    st = (tmp_path / "documents.json").stat()
    b._seen = (st.st_ino, st.st_mtime_ns, st.st_size)  # as if the stat had collided
    got = b.get(f"{1:032x}")
    assert got is not None and got.status == "indexed"


def test_a_closed_registry_refuses_instead_of_locking_a_stale_descriptor(tmp_path: Path):
    a = SharedDocumentRegistry(tmp_path)
    a.close()
    with pytest.raises(RuntimeError, match="closed"):
        a.get("0" * 32)

"""Several writing processes on one FAISS index directory: ``citerag serve --workers 2``.

A real ``citerag serve`` with two uvicorn worker processes behind one port on 127.0.0.1,
over one index directory and one data directory (the default: one worker per core):

* exactly one worker is the writer (the job lock), both answer;
* uploads accepted by either worker, several at once, are each indexed once, and every
  worker then answers from them; a delete through either worker reaches both;
* the writer killed with SIGKILL: the other worker (or the one uvicorn starts in its
  place) takes the lock over and indexes the next upload.

Waits are bounded polls on observable conditions (``/ready``, a status, an answer).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.integration.test_server import PUBLIC_TOKEN, auth, poll
from tests.integration.test_server_readonly import (
    NEW_DOC,
    NEW_QUESTION,
    STARTUP_TIMEOUT,
    Server,
    _env,
    _free_port,
    _worker_pids,
    index_dir,
    stop,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the 'model_fields' attribute:DeprecationWarning"),
]

REPO = Path(__file__).resolve().parents[2]
__all__ = ["index_dir"]  # the fixture, shared with the read-only tests


def start_writers(root: Path, index: Path, data_dir: Path) -> Server:
    """``citerag serve --workers 2`` (writing) on the index directory."""
    port = _free_port()
    log = root / "workers.log"
    cmd = [sys.executable, "-m", "citerag", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--index", str(index), "--data-dir", str(data_dir), "--workers", "2"]
    cmd += ["--tokens", str(root / "tokens.json"), "--log-level", "info"]
    with log.open("wb") as fh:
        proc = subprocess.Popen(cmd, env=_env(), cwd=REPO, stdout=fh, stderr=subprocess.STDOUT)
    return Server(f"http://127.0.0.1:{port}", proc, log)


def _probe(s: Server) -> dict | None:
    """``/ready`` on a fresh connection (the kernel hands it to either worker)."""
    with contextlib.suppress(httpx.TransportError):
        r = httpx.get(f"{s.url}/ready", timeout=10.0)
        if r.status_code == 200:
            return dict(r.json())
    if s.proc.poll() is not None:
        raise AssertionError(f"server exited ({s.proc.returncode}):\n{s.tail()}")
    return None


def _all_workers(s: Server, want: Callable[[dict], bool]) -> Callable[[], bool]:
    """A poll condition: every live worker has been seen answering ``/ready`` with ``want``."""
    seen: set[int] = set()

    def check() -> bool:
        r = _probe(s)
        if r is not None and want(r):
            seen.add(int(r["process"]))
        return len(pids := _worker_pids(s)) == 2 and set(pids) <= seen

    return check


def _upload(s: Server, name: str, text: str) -> str:
    with httpx.Client(base_url=s.url, headers=auth(PUBLIC_TOKEN), timeout=120.0) as c:
        r = c.post("/documents", files={"file": (name, text.encode())})
    assert r.status_code == 202, (r.status_code, r.text)
    return str(r.json()["id"])


def _status(s: Server, doc_id: str) -> dict | None:
    with httpx.Client(base_url=s.url, headers=auth(PUBLIC_TOKEN), timeout=60.0) as c:
        r = c.get(f"/documents/{doc_id}")
    return dict(r.json()) if r.status_code == 200 else None


def _writers(s: Server) -> set[int]:
    """The pids of workers seen reporting themselves the writer (a handful of probes)."""
    out = set()
    for _ in range(12):
        r = _probe(s)
        if r is not None and r["uploads"].get("writer"):
            out.add(int(r["process"]))
    return out


def test_two_writing_workers_share_one_index_directory(tmp_path: Path, index_dir: Path):
    data = tmp_path / "data"
    s = start_writers(tmp_path, index_dir, data)
    try:
        poll(
            _all_workers(s, lambda r: "writer" in r["uploads"]),
            timeout=STARTUP_TIMEOUT,
            what="both workers ready",
        )
        # a worker takes the job lock on its first cycle after its model loads, which may
        # come after /ready: wait for the lock to be taken, then check it is held once
        poll(lambda: bool(_writers(s)), timeout=STARTUP_TIMEOUT, what="a worker holding the lock")
        writers = _writers(s)
        assert len(writers) == 1, writers  # exactly one holds the job lock
        first = _probe(s)
        assert first is not None and first["uploads"].get("read_only") is None

        # Four uploads at once, each accepted by whichever worker the kernel picks.
        docs = {f"ferry{i}.md": NEW_DOC.replace("Skerra", f"Skerra{i}") for i in range(3)} | {
            "ferry.md": NEW_DOC
        }
        with ThreadPoolExecutor(4) as pool:
            ids = dict(zip(docs, pool.map(lambda kv: _upload(s, *kv), docs.items()), strict=True))

        def indexed(doc_id: str) -> Callable[[], dict | None]:
            def check() -> dict | None:
                rec = _status(s, doc_id)
                return rec if rec is not None and rec["status"] in ("indexed", "failed") else None

            return check

        recs = {name: poll(indexed(i), what=f"{name} indexed") for name, i in ids.items()}
        assert all(r["status"] == "indexed" and r["chunks"] >= 1 for r in recs.values()), recs
        build = max(r["build_id"] for r in recs.values())
        # every worker serves a build holding the uploads: each is in the index exactly once
        poll(
            _all_workers(s, lambda r: r["manifest_id"] >= build),
            what="both workers on the new build",
        )
        outs = [s.ask(NEW_QUESTION) for _ in range(4)]
        assert all(o["status"] == "answered" and "09:40" in o["answer"] for o in outs), outs
        with httpx.Client(base_url=s.url, headers=auth(PUBLIC_TOKEN), timeout=60.0) as c:
            held = c.get("/index/documents").json()["documents"]
        counted = [d["upload_id"] for d in held if d.get("upload_id")]
        assert sorted(counted) == sorted(ids.values())
        registry = json.loads((data / "documents.json").read_text(encoding="utf-8"))
        claims = {j.get("claimed_by") for j in registry["jobs"].values()}
        assert len(claims) == 1 and all(j["attempts"] >= 1 for j in registry["jobs"].values())

        # A delete through either worker reaches both.
        with httpx.Client(base_url=s.url, headers=auth(PUBLIC_TOKEN), timeout=60.0) as c:
            assert c.delete(f"/documents/{ids['ferry.md']}").status_code == 202
        poll(lambda: _status(s, ids["ferry.md"]) is None, what="the delete applied")

        poll(
            _all_workers(s, lambda r: r["documents"] == first["documents"] + 3),
            what="both workers on the build without the deleted upload",
        )

        # The writer dies: the lock is released with its descriptor and taken over.
        (writer,) = _writers(s)
        os.kill(writer, signal.SIGKILL)
        late = _upload(s, "late.md", "# Late notice\n\nThe quay at Dunmore closes at 18:15.\n")
        rec = poll(indexed(late), timeout=STARTUP_TIMEOUT, what="the upload after the writer died")
        assert rec["status"] == "indexed", rec
        assert writer not in _writers(s)
    finally:
        stop(s)

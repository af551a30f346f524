"""Several read-only serving processes on one FAISS index directory (``--read-only``).

Real ``citerag serve`` processes on 127.0.0.1 over one index directory:

* two processes on two ports answer from the same build, and after a ``citerag ingest``
  (another process, the CLI) both switch to the new build and answer from it;
* uploads and deletes are refused with 405 and a reason naming ``citerag ingest``; nothing is
  written to the shared data folder;
* ``--read-only --workers 2``: two uvicorn worker processes behind one port answer, and both
  follow a CLI ingest;
* the settings that allow and refuse these combinations.

Waits are bounded polls on observable conditions (``/ready``'s build id, an answer).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from citerag.server.settings import load_settings, settings_from_json, settings_to_json
from tests.integration.test_server import PUBLIC_TOKEN, auth, poll, write_tokens

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the 'model_fields' attribute:DeprecationWarning"),
]

REPO = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 240.0
#: Only the document ingested during the tests answers this.
NEW_QUESTION = "When does the ferry to Skerra leave the harbour?"
NEW_DOC = "# Ferry timetable\n\nThe ferry to Skerra leaves the harbour at 09:40 every weekday.\n"


@dataclass
class Server:
    """One ``citerag serve`` process (or a uvicorn parent with its workers)."""

    url: str
    proc: subprocess.Popen[bytes]
    log: Path

    def ready(self) -> dict[str, Any] | None:
        """``/ready`` on a fresh connection (any worker), or ``None`` while not ready."""
        if self.proc.poll() is not None:
            raise AssertionError(f"server exited ({self.proc.returncode}):\n{self.tail()}")
        try:
            r = httpx.get(f"{self.url}/ready", timeout=10.0)
        except httpx.TransportError:
            return None
        return r.json() if r.status_code == 200 else None

    def ask(self, question: str) -> dict[str, Any]:
        r = httpx.post(
            f"{self.url}/rag/invoke",
            json={"input": {"question": question}},
            headers=auth(PUBLIC_TOKEN),
            timeout=120.0,
        )
        assert r.status_code == 200, (r.status_code, r.text[:300])
        return dict(r.json()["output"])

    def tail(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]


def _env() -> dict[str, str]:
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "CITERAG_WATCH_INTERVAL": "0.2",
        "CITERAG_EMBEDDING_THREADS": "1",
    }
    for var in ("CITERAG_CONFIG", "CITERAG_INDEX", "CITERAG_STORE", "CITERAG_WORKERS"):
        env.pop(var, None)
    return env


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(root: Path, name: str, index: Path, data_dir: Path, *args: str) -> Server:
    port = _free_port()
    log = root / f"{name}.log"
    cmd = [sys.executable, "-m", "citerag", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--index", str(index), "--data-dir", str(data_dir)]
    cmd += ["--tokens", str(root / "tokens.json"), "--log-level", "info", "--read-only"]
    cmd += [*(() if "--workers" in args else ("--workers", "1")), *args]
    with log.open("wb") as fh:
        proc = subprocess.Popen(cmd, env=_env(), cwd=REPO, stdout=fh, stderr=subprocess.STDOUT)
    return Server(f"http://127.0.0.1:{port}", proc, log)


def stop(s: Server) -> None:
    if s.proc.poll() is None:
        s.proc.send_signal(signal.SIGINT)
        try:
            s.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            s.proc.kill()
            s.proc.wait(timeout=30)


def cli_ingest(paths: list[Path], index: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "citerag", "ingest", "-q", "--index", str(index)]
        + [str(p) for p in paths],
        env=_env(),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]


def published_build(index: Path) -> str:
    from citerag.stores.faiss.builds import current_build
    from citerag.stores.manifest import Manifest

    build = current_build(index)
    assert build is not None
    return Manifest.load(build).build_id


@pytest.fixture()
def index_dir(tmp_path: Path, embedding_model, sample_corpus: Path) -> Path:
    """An index of the sample corpus (without the new document) of this test's own."""
    from citerag.index.ingest import ingest

    docs = tmp_path / "docs"
    shutil.copytree(sample_corpus, docs)
    index = tmp_path / "index"
    ingest([docs], index, embedding_model, progress=False)
    write_tokens(tmp_path / "tokens.json")
    return index


def _both_on(servers: list[Server], build_id: str) -> bool:
    return all((r := s.ready()) is not None and r["manifest_id"] == build_id for s in servers)


def test_two_read_only_processes_answer_from_one_build_and_follow_a_cli_ingest(
    tmp_path: Path, index_dir: Path
):
    data = tmp_path / "data"  # shared by both: neither may write to it
    a = start(tmp_path, "a", index_dir, data)
    b = start(tmp_path, "b", index_dir, data)
    try:
        first = published_build(index_dir)
        poll(lambda: _both_on([a, b], first), timeout=STARTUP_TIMEOUT, what="both on the build")
        for s in (a, b):
            ready = s.ready()
            assert ready is not None and ready["uploads"]["read_only"] is True
            assert s.ask(NEW_QUESTION)["status"] == "no_evidence"

        (tmp_path / "docs" / "ferry.md").write_text(NEW_DOC, encoding="utf-8")
        cli_ingest([tmp_path / "docs"], index_dir)
        second = published_build(index_dir)
        assert second != first
        poll(lambda: _both_on([a, b], second), what="both processes to load the new build")
        for s in (a, b):
            out = s.ask(NEW_QUESTION)
            assert out["status"] == "answered" and "09:40" in out["answer"], out
            assert out["trace"]["index"]["manifest_id"] == second

        # Uploads and deletes are refused before anything is read or written.
        with httpx.Client(base_url=a.url, headers=auth(PUBLIC_TOKEN), timeout=30.0) as c:
            r = c.post("/documents", files={"file": ("x.md", b"# X\n\nSome text.\n")})
            assert r.status_code == 405 and r.headers["allow"] == "GET"
            assert "read-only" in r.json()["detail"] and "citerag ingest" in r.json()["detail"]
            r = c.delete(f"/documents/{'0' * 32}")
            assert r.status_code == 405 and "read-only" in r.json()["detail"]
            assert c.get("/documents").json() == {"documents": []}
        assert not data.exists()  # no registry, no upload folders: nothing written
    finally:
        stop(a)
        stop(b)
    assert a.proc.returncode == 0, a.tail()
    assert b.proc.returncode == 0, b.tail()


def _worker_pids(s: Server) -> list[int]:
    import psutil

    kids = psutil.Process(s.proc.pid).children()
    return [k.pid for k in kids if "spawn_main" in " ".join(k.cmdline())]


def test_read_only_workers_share_one_port_and_follow_a_cli_ingest(tmp_path: Path, index_dir: Path):
    s = start(tmp_path, "workers", index_dir, tmp_path / "data", "--workers", "2")
    try:
        first = published_build(index_dir)

        def on_build(build_id: str) -> Callable[[], bool]:
            seen: set[int] = set()  # worker processes seen answering from the build

            def check() -> bool:
                r = s.ready()  # a fresh connection: either worker
                if r is not None and r["manifest_id"] == build_id:
                    seen.add(int(r["process"]))
                return len(pids := _worker_pids(s)) == 2 and set(pids) <= seen

            return check

        poll(on_build(first), timeout=STARTUP_TIMEOUT, what="both workers on the build")

        assert s.ask("What was Northwind's total revenue in 2025?")["status"] == "answered"
        (tmp_path / "docs" / "ferry.md").write_text(NEW_DOC, encoding="utf-8")
        cli_ingest([tmp_path / "docs"], index_dir)
        second = published_build(index_dir)

        poll(on_build(second), what="both workers to load the new build")
        outs = [s.ask(NEW_QUESTION) for _ in range(4)]
        assert all(o["status"] == "answered" and "09:40" in o["answer"] for o in outs), outs
        assert len(_worker_pids(s)) == 2  # neither worker died along the way
    finally:
        stop(s)
    assert s.proc.returncode == 0, s.tail()


def test_read_only_settings(tmp_path: Path):
    s = load_settings(env={"CITERAG_READ_ONLY": "true", "CITERAG_WORKERS": "2"})
    assert s.read_only and s.workers == 2 and s.store is None
    assert settings_from_json(settings_to_json(s)) == s
    cfg = tmp_path / "server.toml"
    cfg.write_text("[server]\nread_only = true\nworkers = 3\n", encoding="utf-8")
    s = load_settings(cfg, env={})
    assert s.read_only and s.workers == 3
    with pytest.raises(ValueError, match="read_only applies to an index directory"):
        load_settings(
            env={"CITERAG_READ_ONLY": "1", "CITERAG_STORE": "postgresql+psycopg://u@localhost/db"}
        )
    assert load_settings(env={}).fast_invoke is True
    assert load_settings(env={"CITERAG_FAST_INVOKE": "false"}).fast_invoke is False


@contextlib.contextmanager
def _serve_in_process(index: Path, root: Path, embedding_model, *, fast: bool) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from citerag.server import create_app
    from citerag.server.settings import ServerSettings

    settings = ServerSettings(
        index_dir=index,
        data_dir=root / ("fast" if fast else "langserve"),
        tokens_file=root / "tokens.json",
        fast_invoke=fast,
    ).validate()
    app = create_app(settings, embedding_model=embedding_model, warmup=False)
    with TestClient(app) as client:
        poll(lambda: client.get("/ready").status_code == 200, what="the in-process app")
        yield client


def _comparable(body: dict[str, Any]) -> dict[str, Any]:
    out = dict(body["output"])
    trace = dict(out["trace"])
    trace.pop("timings_s", None)
    assert len(trace.pop("trace_id")) == 32  # one per run, like the run id
    out["trace"] = trace
    return {"output": out, "metadata_keys": sorted(body["metadata"])}


def test_fast_invoke_answers_exactly_as_langserves_handler(
    tmp_path: Path, index_dir: Path, embedding_model
):
    """The same requests through ``FastInvokeHandler`` and LangServe's own ``invoke``: the
    same status codes and the same JSON (but for run ids and timings), errors included."""
    requests: list[dict[str, Any]] = [
        {"input": {"question": "What was Northwind's total revenue in 2025?"}},
        {
            "input": {"question": "What was Northwind's total revenue in 2025?"},
            "config": {"configurable": {"trace": "full", "retrieval_mode": "bm25", "k": 7}},
        },
        {
            "input": {
                "question": "Which solar farm did the board agree to buy?",
                "user_groups": ["board"],
            },
            "config": {
                "configurable": {"__citerag_user_groups": ["board"], "user_groups": ["board"]}
            },
        },
        {"input": {"question": "x" * 3000}},
        {"input": {"question": "Revenue?"}, "config": {"configurable": {"k": "many"}}},
        {"input": {"question": "Revenue?"}, "config": {"configurable": {"model": "openai:x"}}},
        {"input": {"nothing": 1}},
    ]
    answers: dict[bool, list[tuple[int, Any]]] = {}
    for fast in (True, False):
        with _serve_in_process(index_dir, tmp_path, embedding_model, fast=fast) as client:
            got = []
            for body in requests:
                r = client.post("/rag/invoke", json=body, headers=auth(PUBLIC_TOKEN))
                ok = r.status_code == 200
                got.append((r.status_code, _comparable(r.json()) if ok else r.json()))
            answers[fast] = got
    assert answers[True] == answers[False]
    codes = [code for code, _ in answers[True]]
    # spoofed groups in configurable, too long, a bad knob value, a knob clients may not set
    # (``model``) and no question are refused, by both handlers alike
    assert codes == [200, 200, 422, 422, 422, 422, 422], codes
    board = answers[True][2][1]
    assert "user_groups" in str(board["detail"])  # named, and refused
    assert "board_minutes" not in str(board)  # groups come from the token only
    assert "'model' may not be set by clients" in str(answers[True][5][1]["detail"])

"""Several serving processes on one PostgreSQL store (issue 13).

Real parts only: PostgreSQL 16 + pgvector from the ``pgserver`` wheel (the session
fixture), separate ``citerag serve`` processes on 127.0.0.1 with the real embedding model,
driven over HTTP. Nothing waits with a fixed sleep: every wait polls a status endpoint (or
the database) with a deadline.

* Two processes A and B on one namespace: an upload to A is answered (with a citation)
  and listed by B; a delete through B reaches A; a board-labelled upload is invisible to
  a public user on both; concurrent uploads to both are each handed to an ingest run
  exactly once, by the one writer; when the writer is killed mid-ingest, the other
  process takes over and finishes its job.
* ``citerag serve --workers 2`` on the store runs two worker processes (one writer); on a
  FAISS index directory it is refused.
* Settings: the store URL from the TOML file, the environment and the flags, kept as a
  string; precedence against the index directory; the JSON hand-over to workers.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.test_server import (
    ADMIN_TOKEN,
    BOARD_TOKEN,
    PUBLIC_TOKEN,
    UPLOAD_PAGES,
    UPLOAD_QUESTION,
    auth,
    make_pdf,
    poll,
    write_tokens,
)
from tests.support.pg import with_namespace

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the 'model_fields' attribute:DeprecationWarning"),
]

REPO = Path(__file__).resolve().parents[2]
#: How often the serving processes look for published builds and queued jobs (seconds).
WATCH_INTERVAL = "0.5"
STARTUP_TIMEOUT = 240.0


# -- processes -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Proc:
    """A ``citerag serve`` process."""

    name: str
    url: str
    proc: subprocess.Popen[bytes]
    log: Path
    data_dir: Path

    def client(self, token: str | None = PUBLIC_TOKEN) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers=auth(token) if token else {}, timeout=120.0)

    def ready(self) -> dict[str, Any]:
        return httpx.get(f"{self.url}/ready", timeout=30.0).json()

    def upload(self, token: str, name: str, data: bytes, access: str | None = None) -> str:
        with self.client(token) as c:
            r = c.post(
                "/documents",
                files={"file": (name, data)},
                data={"access": access} if access else None,
            )
        assert r.status_code == 202, (self.name, r.status_code, r.text)
        return str(r.json()["id"])

    def status(self, token: str, doc_id: str) -> dict[str, Any] | None:
        with self.client(token) as c:
            r = c.get(f"/documents/{doc_id}")
        return r.json() if r.status_code == 200 else None

    def wait_status(self, token: str, doc_id: str, *wanted: str) -> dict[str, Any]:
        def check() -> dict[str, Any] | None:
            self.alive()
            rec = self.status(token, doc_id)
            return rec if rec is not None and rec["status"] in wanted else None

        return poll(check, what=f"{doc_id} to be {wanted} on {self.name}")

    def wait_gone(self, token: str, doc_id: str) -> None:
        poll(
            lambda: self.alive() and self.status(token, doc_id) is None,
            what=f"{doc_id} to be gone on {self.name}",
        )

    def ask(self, question: str, token: str = PUBLIC_TOKEN) -> dict[str, Any]:
        with self.client(token) as c:
            r = c.post("/rag/invoke", json={"input": {"question": question}})
        assert r.status_code == 200, (self.name, r.status_code, r.text[:300])
        return dict(r.json()["output"])

    def alive(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"{self.name} exited ({self.proc.returncode}):\n{self.tail()}")
        return True

    def tail(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]


def serve_env() -> dict[str, str]:
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "CITERAG_WATCH_INTERVAL": WATCH_INTERVAL,
        "CITERAG_EMBEDDING_THREADS": "1",
    }
    for var in ("CITERAG_CONFIG", "CITERAG_INDEX", "CITERAG_STORE", "CITERAG_WORKERS"):
        env.pop(var, None)
    return env


def start_serve(name: str, root: Path, *args: str) -> Proc:
    """Start ``citerag serve`` (own data dir ``root/name``) on a free loopback port."""
    port = free_port()
    log = root / f"{name}.log"
    cmd = [
        sys.executable,
        "-m",
        "citerag",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(root / name),
        "--tokens",
        str(root / "tokens.json"),
        "--log-level",
        "info",
        *(() if "--workers" in args else ("--workers", "1")),
        *args,
    ]
    with log.open("wb") as fh:
        proc = subprocess.Popen(cmd, env=serve_env(), cwd=REPO, stdout=fh, stderr=subprocess.STDOUT)
    return Proc(name, f"http://127.0.0.1:{port}", proc, log, root / name)


def wait_ready(p: Proc) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        p.alive()
        try:
            r = httpx.get(f"{p.url}/ready", timeout=5.0)
        except httpx.TransportError:
            return None
        return r.json() if r.status_code == 200 else None

    return poll(check, timeout=STARTUP_TIMEOUT, what=f"{p.name} to be ready")


def stop(p: Proc) -> None:
    if p.proc.poll() is None:
        p.proc.send_signal(signal.SIGINT)
        try:
            p.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.proc.kill()
            p.proc.wait(timeout=30)


def db(url: str) -> Any:
    import psycopg

    from citerag.stores.postgres.db import StoreURL

    return psycopg.connect(StoreURL.parse(url).conninfo, autocommit=True)


def rows(url: str, query: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    from citerag.stores.postgres.db import StoreURL

    ns = StoreURL.parse(url).namespace
    with db(url) as conn:
        return conn.execute(query.replace("{ns}", ns), params or []).fetchall()  # type: ignore[arg-type]


# -- fixtures ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def upload_pdf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("pgpdf") / "bulletin.pdf"
    return make_pdf(path, UPLOAD_PAGES).read_bytes()


@pytest.fixture(scope="module")
def store(pg_server: str, embedding_model, sample_corpus) -> str:
    """A namespace holding the sample corpus (this module's servers write to it)."""
    from citerag.index.ingest import ingest

    url = with_namespace(pg_server, f"s{uuid.uuid4().hex[:12]}")
    report = ingest([sample_corpus], url, embedding_model, progress=False)
    assert not report.failed, report.failed
    return url


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pgserve")
    write_tokens(folder / "tokens.json")
    return folder


@pytest.fixture(scope="module")
def pair(store: str, root: Path) -> Iterator[tuple[Proc, Proc]]:
    """Processes A and B on one store, each with a data directory of its own. A starts first
    and becomes the writer; B only reads, accepts uploads and queues deletes."""
    a = start_serve("a", root, "--store", store)
    b: Proc | None = None
    try:
        wait_ready(a)
        poll(lambda: a.ready()["uploads"].get("writer"), what="A to become the writer")
        b = start_serve("b", root, "--store", store)
        wait_ready(b)
        yield a, b
    finally:
        for p in (b, a):
            if p is not None:
                stop(p)


# -- settings (no server) ------------------------------------------------------------------


def test_store_url_settings_keep_the_url_and_follow_precedence(tmp_path: Path, pg_url: str):
    from citerag.server.settings import load_settings, settings_from_json, settings_to_json

    url = "postgresql+psycopg://u:pw@/db?host=/tmp/x//y&namespace=team_a"
    cfg = tmp_path / "server.toml"
    cfg.write_text(f'[paths]\nstore = "{url}"\n[server]\nworkers = 3\n', encoding="utf-8")
    s = load_settings(cfg, env={})
    assert s.store == url and s.location == url and s.shared  # a string: // kept
    assert s.workers == 3
    # a higher source naming an index directory wins over a lower one naming a store
    s = load_settings(cfg, env={"CITERAG_WORKERS": "1"}, overrides={"index_dir": "idx"})
    assert s.store is None and s.location == Path("idx")
    s = load_settings(env={"CITERAG_INDEX": "idx", "CITERAG_STORE": url})
    assert s.location == url  # as for the other commands: $CITERAG_STORE beats $CITERAG_INDEX
    s = load_settings(env={"CITERAG_STORE": url}, overrides={"index_dir": pg_url})
    assert s.location == pg_url  # --index URL is a store too
    back = settings_from_json(settings_to_json(s))
    assert back == s
    both = tmp_path / "both.toml"
    both.write_text(f'[paths]\nindex = "i"\nstore = "{url}"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not both"):
        load_settings(both, env={})
    with pytest.raises(ValueError, match="store"):
        load_settings(env={"CITERAG_STORE": "mysql://x/y"})
    # several writing processes on an index directory are allowed (a coordinated IndexWorker)
    assert load_settings(env={"CITERAG_WORKERS": "2"}).workers == 2


# -- uvicorn workers -----------------------------------------------------------------------


def test_workers_2_on_postgres_serve_one_store(
    pg_server: str, embedding_model, sample_corpus, tmp_path: Path
):
    """``--workers 2``: two processes behind one port, exactly one of them the writer; an
    upload to whichever answers is indexed and answered."""
    from citerag.index.ingest import ingest

    url = with_namespace(pg_server, f"w{uuid.uuid4().hex[:12]}")
    ingest([sample_corpus / "handbook.md"], url, embedding_model, progress=False)
    write_tokens(tmp_path / "tokens.json")
    p = start_serve("workers", tmp_path, "--store", url, "--workers", "2")
    try:
        wait_ready(p)
        seen: set[bool] = set()

        def both_kinds() -> bool:
            p.alive()
            # A new connection per probe: the kernel hands it to either worker.
            with contextlib.suppress(httpx.TransportError):
                r = httpx.get(f"{p.url}/ready", timeout=5.0)
                if r.status_code == 200:
                    seen.add(bool(r.json()["uploads"]["writer"]))
            return seen == {True, False}

        poll(both_kinds, what="answers from a writer and a non-writer worker")
        doc_id = p.upload(
            PUBLIC_TOKEN, "ferry.md", b"# Ferry\n\nThe ferry to Skerra leaves at 09:40.\n"
        )
        rec = p.wait_status(PUBLIC_TOKEN, doc_id, "indexed", "failed")
        assert rec["status"] == "indexed", rec

        def answered_by_both() -> bool:  # both workers serve the build (any may answer)
            outs = [p.ask("When does the ferry to Skerra leave?") for _ in range(4)]
            return all(o["status"] == "answered" and "09:40" in o["answer"] for o in outs)

        poll(answered_by_both, what="every worker to answer from the upload")
        (writers,) = rows(url, "SELECT count(DISTINCT claimed_by) FROM {ns}_documents")
        assert writers == (1,)
    finally:
        stop(p)
    assert p.proc.returncode == 0, p.tail()


# -- two processes on one store ------------------------------------------------------------


def test_one_writer_and_a_reader(pair: tuple[Proc, Proc]):
    a, b = pair
    assert a.ready()["uploads"]["writer"] is True
    assert b.ready()["uploads"]["writer"] is False
    assert a.ready()["manifest_id"] == b.ready()["manifest_id"]


def test_upload_to_a_is_answered_and_listed_by_b_and_deleted_through_b(
    pair: tuple[Proc, Proc], store: str, upload_pdf: bytes
):
    a, b = pair
    assert b.ask(UPLOAD_QUESTION)["status"] == "no_evidence"
    doc_id = a.upload(PUBLIC_TOKEN, "Marrowby bulletin 2031.pdf", upload_pdf)
    on_a = a.wait_status(PUBLIC_TOKEN, doc_id, "indexed", "failed")
    assert on_a["status"] == "indexed", on_a["reason"]
    assert on_a["pages"] == 2 and on_a["chunks"] > 0

    # B says "indexed" only once it serves a build holding the upload: then it answers.
    on_b = b.wait_status(PUBLIC_TOKEN, doc_id, "indexed")
    assert on_b["chunks"] == on_a["chunks"] and on_b["build_id"] == on_a["build_id"]
    out = b.ask(UPLOAD_QUESTION)
    assert out["status"] == "answered", out["reason"]
    assert "4,731" in out["answer"]
    cite = out["citations"][0]
    assert cite["doc_name"] == "Marrowby bulletin 2031.pdf" and cite["fragment"] == "#page=2"
    with b.client() as c:
        # B's viewer opens the citation from its own copy of the bytes (A parsed A's copy).
        served = c.get(
            f"/app/api/documents/{cite['doc_id']}/text",
            params={"start": cite["start"], "end": cite["end"]},
        ).json()
        off = served["offset"]
        assert served["text"][cite["start"] - off : cite["end"] - off] == cite["quote"]
        hl = c.get(
            f"/app/api/documents/{cite['doc_id']}/pages/2/highlight",
            params={"start": cite["start"], "end": cite["end"]},
        )
        assert hl.status_code == 200 and hl.json()["boxes"], hl.text[:300]
        assert doc_id in [d["id"] for d in c.get("/documents").json()["documents"]]
        held = [
            d for d in c.get("/index/documents").json()["documents"] if d["upload_id"] == doc_id
        ]
        assert len(held) == 1 and held[0]["chunks"] == on_a["chunks"]
        r = c.delete(f"/documents/{doc_id}")
        assert r.status_code == 202 and r.json()["status"] == "deleting"
    # The delete queued on B is applied by A (the writer) and reaches both.
    a.wait_gone(PUBLIC_TOKEN, doc_id)
    b.wait_gone(PUBLIC_TOKEN, doc_id)
    assert rows(store, "SELECT count(*) FROM {ns}_uploads WHERE id = %s", [doc_id]) == [(0,)]
    for p in (a, b):  # the writer removes its copy; B drops its viewer copy after reloading
        poll(
            lambda p=p: not (p.data_dir / "uploads" / doc_id).exists(),
            what=f"{p.name}'s copy of the upload to go",
        )

    def no_evidence_on_both() -> bool:
        return all(p.ask(UPLOAD_QUESTION)["status"] == "no_evidence" for p in (a, b))

    poll(no_evidence_on_both, what="both processes to serve the build without the upload")


def test_board_upload_is_invisible_to_public_users_on_both(pair: tuple[Proc, Proc]):
    a, b = pair
    text = (
        b"# Zephyr memo\n\nThe Zephyr Protocol sets the emergency budget reserve at "
        b"93,417 pounds for the storm season.\n"
    )
    question = "What emergency budget reserve does the Zephyr Protocol set?"
    doc_id = b.upload(BOARD_TOKEN, "zephyr memo.md", text, access="board")
    for p in (b, a):
        rec = p.wait_status(BOARD_TOKEN, doc_id, "indexed", "failed")
        assert rec["status"] == "indexed" and rec["access"] == "board"
        assert p.ask(question, BOARD_TOKEN)["status"] == "answered"
        public = p.ask(question, PUBLIC_TOKEN)
        assert public["status"] == "no_evidence"
        assert "93,417" not in json.dumps(public) and "zephyr memo" not in json.dumps(public)
        with p.client(PUBLIC_TOKEN) as c:
            assert doc_id not in [d["id"] for d in c.get("/documents").json()["documents"]]
            assert doc_id not in json.dumps(c.get("/index/documents").json())
            assert c.get(f"/documents/{doc_id}").status_code == 404
            assert c.delete(f"/documents/{doc_id}").status_code == 404
        with p.client(ADMIN_TOKEN) as c:
            assert c.get(f"/documents/{doc_id}").status_code == 200
    with a.client(BOARD_TOKEN) as c:
        assert c.delete(f"/documents/{doc_id}").status_code == 202
    b.wait_gone(BOARD_TOKEN, doc_id)


def test_concurrent_uploads_to_both_are_each_ingested_once(pair: tuple[Proc, Proc], store: str):
    a, b = pair
    n = 8
    ids: list[str] = []
    lock = threading.Lock()

    def send(i: int) -> None:
        p = (a, b)[i % 2]
        text = f"# Buoy {i}\n\nMooring buoy number {i} at Marrowby was painted colour {i * 37}.\n"
        doc_id = p.upload(PUBLIC_TOKEN, f"buoy {i}.md", text.encode())
        with lock:
            ids.append(doc_id)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(ids) == n
    for doc_id in ids:
        for p in (a, b):
            assert p.wait_status(PUBLIC_TOKEN, doc_id, "indexed", "failed")["status"] == "indexed"
    claims = rows(
        store,
        "SELECT id, attempts, claimed_by, index_doc_id, chunks FROM {ns}_documents"
        " WHERE id = ANY(%s)",
        [ids],
    )
    assert len(claims) == n
    assert {r[1] for r in claims} == {1}, claims  # each handed to exactly one ingest run
    assert len({r[2] for r in claims}) == 1  # by the one writer
    for _, _, _, index_doc_id, chunks in claims:
        (held,) = rows(store, "SELECT count(*) FROM {ns}_chunks WHERE doc_id = %s", [index_doc_id])
        assert held[0] == chunks > 0
    with b.client() as c:
        listed = [d["upload_id"] for d in c.get("/index/documents").json()["documents"]]
    assert sorted(u for u in listed if u in ids) == sorted(ids)  # once each
    for i, doc_id in enumerate(ids):
        with (a, b)[i % 2].client() as c:
            assert c.delete(f"/documents/{doc_id}").status_code == 202
    for doc_id in ids:
        a.wait_gone(PUBLIC_TOKEN, doc_id)


def test_killed_writer_hands_its_job_to_the_other_process(pair: tuple[Proc, Proc], store: str):
    """A is killed (SIGKILL) while its ingest of an upload is under way; B takes the job lock,
    finds the job still pending and indexes it. Runs last: it kills A."""
    a, b = pair
    line = "The lighthouse log records calm seas, a light north wind and one passing trawler.\n"
    big = "".join(f"# Log {i}\n\nDay {i}. {line * 12}\n" for i in range(250)).encode()
    big += b"\n# Final entry\n\nThe keeper's final entry names the relief boat Kittiwake Star.\n"
    doc_id = b.upload(PUBLIC_TOKEN, "lighthouse log.md", big)

    def claimed_by_a() -> tuple[Any, ...] | None:
        found = rows(
            store, "SELECT status, attempts, claimed_by FROM {ns}_documents WHERE id = %s", [doc_id]
        )
        return found[0] if found and found[0][1] >= 1 else None

    status, attempts, by_a = poll(claimed_by_a, what="A to claim the upload")
    assert (status, attempts) == ("pending", 1), "A finished before it could be killed"
    a.proc.send_signal(signal.SIGKILL)
    a.proc.wait(timeout=30)

    poll(lambda: b.ready()["uploads"]["writer"], what="B to become the writer")
    rec = b.wait_status(PUBLIC_TOKEN, doc_id, "indexed", "failed")
    assert rec["status"] == "indexed", rec["reason"]
    ((attempts, by_b, index_doc_id, chunks),) = rows(
        store,
        "SELECT attempts, claimed_by, index_doc_id, chunks FROM {ns}_documents WHERE id = %s",
        [doc_id],
    )
    assert attempts == 2 and by_b != by_a
    assert rows(store, "SELECT count(*) FROM {ns}_chunks WHERE doc_id = %s", [index_doc_id]) == [
        (chunks,)
    ]
    out = b.ask("What is the name of the relief boat in the keeper's final entry?")
    assert out["status"] == "answered" and "Kittiwake" in out["answer"], out
    # B is now the only writer: an upload to it is indexed too.
    small = b.upload(PUBLIC_TOKEN, "gulls.md", b"# Gulls\n\nThe gull count at the pier was 212.\n")
    assert b.wait_status(PUBLIC_TOKEN, small, "indexed", "failed")["status"] == "indexed"

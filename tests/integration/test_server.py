"""The HTTP service end to end: a real uvicorn server on 127.0.0.1, driven with langserve's
``RemoteRunnable`` and httpx.

Covers the LangServe routes (invoke, batch, stream, stream_events, stream_log), the documents
API (upload -> indexed -> cited with ``#page=`` -> delete -> no evidence), access control (the
token decides the groups, never the body or ``configurable``), and bad input (401, 403, 413,
415, 422, path-traversal names, corrupt files).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = [
    pytest.mark.integration,
    # Upstream noise: langserve 0.3 reads model_fields on instances; stream_log is deprecated.
    pytest.mark.filterwarnings("ignore:Accessing the 'model_fields' attribute:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:astream_log is deprecated:DeprecationWarning"),
]

PUBLIC_TOKEN = "test-public-token-0123456789"
BOARD_TOKEN = "test-board-token-0123456789"
OTHER_TOKEN = "test-other-public-token-0123"
ADMIN_TOKEN = "test-admin-token-0123456789"
MAX_UPLOAD_BYTES = 256 * 1024
MAX_QUESTION_CHARS = 500

#: Strings that occur only in examples/corpus/restricted/board_minutes_2025.md.
RESTRICTED = ("Heron", "Calder", "Ridgeback", "Hartwell", "Allendale", "Kilnsey", "board_minutes")
#: A question only the restricted board minutes answer (it names none of the canaries).
BOARD_QUESTION = (
    "Which solar farm did the board agree to make an indicative offer for, and who owns it?"
)
REVENUE_QUESTION = "What was Northwind's total revenue in 2025?"
#: Only the generated PDF answers this (on its page 2).
UPLOAD_QUESTION = (
    "How many meteor sightings did the Quillfeather Observatory record during the watch?"
)
UPLOAD_PAGES = [
    [
        "Marrowby Coastal Heritage Trust: Bulletin for members, winter edition.",
        "This bulletin reports on the trust's volunteer programme and its lantern restoration.",
        "Volunteers repainted the keeper's cottage and catalogued forty brass instruments.",
        "The trust thanks the parish council for lending the village hall for the winter fair.",
    ],
    [
        "Sky survey results from the Quillfeather Observatory at Marrowby Point.",
        "The Quillfeather Observatory recorded 4,731 meteor sightings during the August watch.",
        "Observers used three wide-field cameras mounted on the old signal tower.",
        "The brightest fireball was logged at 02:14 on the night of 12 August.",
    ],
]

POLL_INTERVAL = 0.2
POLL_TIMEOUT = 180.0


# -- helpers -------------------------------------------------------------------------------


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def poll(check: Callable[[], Any], *, timeout: float = POLL_TIMEOUT, what: str = "") -> Any:
    """Call ``check`` until it returns something truthy (bounded attempts, no fixed sleeps)."""
    deadline = time.monotonic() + timeout
    attempts = 0
    while True:
        attempts += 1
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {attempts} attempts waiting for {what}")
        time.sleep(POLL_INTERVAL)


def make_pdf(path: Path, pages: list[list[str]]) -> Path:
    """Write a PDF with a real text layer (Helvetica), one list of lines per page, with pypdf."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    def esc(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
            NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
        }
    )
    writer = PdfWriter()
    for lines in pages:
        page = writer.add_blank_page(612, 792)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
        ops = ["BT", "/F1 11 Tf", "15 TL", "72 720 Td"]
        ops += [f"({esc(line)}) Tj T*" for line in lines]
        ops.append("ET")
        stream = DecodedStreamObject()
        stream.set_data("\n".join(ops).encode("cp1252"))
        page.replace_contents(stream)
    with path.open("wb") as fh:
        writer.write(fh)
    return path


def sse_events(raw: bytes) -> list[tuple[str, Any]]:
    """Parse a server-sent-events body into ``(event, data)`` pairs."""
    out = []
    for block in raw.decode("utf-8").replace("\r\n", "\n").split("\n\n"):
        event, data = None, []
        for line in block.split("\n"):
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
        if event is None and not data:
            continue
        text = "\n".join(data)
        try:
            out.append((event or "message", json.loads(text) if text else None))
        except json.JSONDecodeError:
            out.append((event or "message", text))
    return out


def assert_no_restricted(raw: bytes | str, where: str) -> None:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    leaked = [word for word in RESTRICTED if word.lower() in text.lower()]
    assert not leaked, f"{where}: restricted text leaked: {leaked}"


@dataclass
class Server:
    """A running server and what the tests need to reach it."""

    url: str
    settings: Any
    app: Any

    def client(self, token: str | None = PUBLIC_TOKEN) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers=auth(token) if token else {}, timeout=120.0)

    def remote(self, token: str = PUBLIC_TOKEN) -> Any:
        from langserve import RemoteRunnable

        return RemoteRunnable(f"{self.url}/rag/", headers=auth(token), timeout=120.0)

    def upload(
        self, token: str, name: str, data: bytes, access: str | None = None
    ) -> httpx.Response:
        with self.client(token) as c:
            return c.post(
                "/documents",
                files={"file": (name, data)},
                data={"access": access} if access else None,
            )

    def wait_settled(self, token: str, doc_id: str) -> dict[str, Any]:
        """Poll a document until it is ``indexed`` or ``failed``."""
        with self.client(token) as c:

            def settled() -> dict[str, Any] | None:
                rec = c.get(f"/documents/{doc_id}").json()
                return rec if rec.get("status") in ("indexed", "failed") else None

            return poll(settled, what=f"document {doc_id} to be indexed or failed")

    def wait_gone(self, token: str, doc_id: str) -> None:
        """Poll a deleted document until the API no longer knows it."""
        with self.client(token) as c:
            poll(
                lambda: c.get(f"/documents/{doc_id}").status_code == 404,
                what=f"document {doc_id} to be deleted",
            )

    def ask(self, question: str, token: str = PUBLIC_TOKEN) -> dict[str, Any]:
        return self.remote(token).invoke({"question": question})


# -- fixtures ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server_dirs(tmp_path_factory: pytest.TempPathFactory, embedding_model, sample_corpus):
    """An index over the sample corpus (this module writes to it) and a token file."""
    from citerag.index.ingest import ingest

    root = tmp_path_factory.mktemp("server")
    report = ingest([sample_corpus], root / "index", embedding_model, progress=False)
    assert not report.failed, report.failed
    write_tokens(root / "tokens.json")
    return root


@contextlib.contextmanager
def running_server(
    settings: Any, embedding_model: Any, wait_for: str = "/ready", **app_kwargs: Any
) -> Iterator[Server]:
    """Run the app with uvicorn on 127.0.0.1 (a free port) in a thread until the block ends.

    Startup waits until ``wait_for`` answers 200 (``/health`` for a server without an index).
    ``app_kwargs`` go to ``create_app`` (``tracer_provider``).
    """
    import uvicorn

    from citerag.server import create_app

    app = create_app(settings, embedding_model=embedding_model, watch_interval=0.5, **app_kwargs)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))  # the OS picks a free port; uvicorn serves this socket
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"

    def is_ready() -> bool:
        if not thread.is_alive():
            raise AssertionError("the server thread died during startup")
        try:
            return httpx.get(f"{url}{wait_for}", timeout=5.0).status_code == 200
        except httpx.TransportError:
            return False

    try:
        poll(is_ready, timeout=180.0, what=wait_for)
        yield Server(url=url, settings=settings, app=app)
    finally:
        srv.should_exit = True
        thread.join(timeout=60)
        sock.close()


def server_settings(root: Path) -> Any:
    from citerag.server.settings import ServerSettings

    return ServerSettings(
        host="127.0.0.1",
        port=0,
        index_dir=root / "index",
        data_dir=root / "data",
        tokens_file=root / "tokens.json",
        max_upload_mb=MAX_UPLOAD_BYTES / (1024 * 1024),
        max_question_chars=MAX_QUESTION_CHARS,
    ).validate()


def write_tokens(path: Path) -> Path:
    path.write_text(
        json.dumps(
            {
                "_comment": "test tokens",
                "users": [
                    {"user": "member", "token": PUBLIC_TOKEN, "groups": []},
                    {"user": "other", "token": OTHER_TOKEN, "groups": []},
                    {"user": "director", "token": BOARD_TOKEN, "groups": ["board"]},
                    {"user": "ops", "token": ADMIN_TOKEN, "groups": [], "admin": True},
                ],
            }
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def server(server_dirs: Path, embedding_model) -> Iterator[Server]:
    """A real uvicorn server on 127.0.0.1 (free port) in a background thread."""
    with running_server(server_settings(server_dirs), embedding_model) as srv:
        yield srv


@pytest.fixture(scope="module")
def pg_app(
    pg_server: str, tmp_path_factory: pytest.TempPathFactory, embedding_model, sample_corpus
):
    """The same server on a PostgreSQL store (the sample corpus in a namespace of its own):
    statuses and uploads in the database."""
    import uuid
    from dataclasses import replace

    from citerag.index.ingest import ingest
    from tests.support.pg import with_namespace

    root = tmp_path_factory.mktemp("pgserver")
    url = with_namespace(pg_server, f"srv{uuid.uuid4().hex[:12]}")
    report = ingest([sample_corpus], url, embedding_model, progress=False)
    assert not report.failed, report.failed
    write_tokens(root / "tokens.json")
    settings = replace(server_settings(root), store=url).validate()
    with running_server(settings, embedding_model) as srv:
        yield srv


@pytest.fixture(params=["faiss", "postgres"])
def docs_server(request: pytest.FixtureRequest) -> Server:
    """The module's server on each store: an index directory, or a PostgreSQL store."""
    return request.getfixturevalue("server" if request.param == "faiss" else "pg_app")


@pytest.fixture(scope="module")
def upload_pdf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("pdf") / "bulletin.pdf"
    return make_pdf(path, UPLOAD_PAGES).read_bytes()


# -- probes and authentication -------------------------------------------------------------


def test_health_and_ready_are_public(server: Server, server_dirs: Path):
    from citerag.stores.loaded import read_manifest

    assert httpx.get(f"{server.url}/health").json()["status"] == "ok"
    ready = httpx.get(f"{server.url}/ready").json()
    assert ready["ready"] is True
    assert ready["manifest_id"] == read_manifest(server_dirs / "index").build_id
    assert ready["documents"] >= 5 and ready["chunks"] > 0


PROTECTED = [
    ("GET", "/documents"),
    ("GET", "/index/documents"),
    ("POST", "/documents"),
    ("GET", "/documents/0123456789abcdef0123456789abcdef"),
    ("DELETE", "/documents/0123456789abcdef0123456789abcdef"),
    ("POST", "/rag/invoke"),
    ("POST", "/rag/batch"),
    ("POST", "/rag/stream"),
    ("POST", "/rag/stream_events"),
    ("POST", "/rag/stream_log"),
    ("GET", "/rag/input_schema"),
    ("GET", "/rag/output_schema"),
    ("GET", "/rag/config_schema"),
    ("GET", "/rag/playground/"),
    ("GET", "/docs"),
    ("GET", "/openapi.json"),
    ("GET", "/no/such/route"),
]


@pytest.mark.parametrize(("method", "path"), PROTECTED)
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer not-a-known-token-at-all"},
        {"Authorization": "Bearer"},
        {"Authorization": f"Bearer {PUBLIC_TOKEN}x"},
        {"Cookie": f"citerag_playground={PUBLIC_TOKEN}"},  # playground off: no cookie auth
    ],
    ids=["none", "unknown", "empty", "near-miss", "cookie"],
)
def test_every_route_but_probes_needs_a_known_token(server: Server, method, path, headers):
    body = {"input": {"question": REVENUE_QUESTION}} if method == "POST" else None
    r = httpx.request(method, server.url + path, headers=headers, json=body)
    assert r.status_code == 401, (method, path, r.status_code, r.text[:200])
    assert r.headers["www-authenticate"].lower().startswith("bearer")
    assert_no_restricted(r.content, path)


def test_wrong_auth_scheme_is_rejected(server: Server):
    r = httpx.post(
        f"{server.url}/rag/invoke",
        headers={"Authorization": f"Basic {PUBLIC_TOKEN}"},
        json={"input": {"question": REVENUE_QUESTION}},
    )
    assert r.status_code == 401


# -- answering over LangServe --------------------------------------------------------------


def test_invoke_returns_a_cited_answer(server: Server):
    out = server.ask(REVENUE_QUESTION)
    assert out["status"] == "answered", out["reason"]
    assert "412,860" in out["answer"]
    cite = out["citations"][0]
    assert cite["doc_name"] == "annual_report_2025.pdf"
    assert cite["fragment"] == "#page=2"
    assert out["trace"]["index"]["manifest_id"]


def test_stream_returns_a_cited_answer(server: Server):
    chunks = list(server.remote().stream({"question": REVENUE_QUESTION}))
    assert chunks, "no stream chunks"
    final: dict[str, Any] = {}
    for chunk in chunks:
        final.update(chunk)
    assert final["status"] == "answered"
    assert any(c["fragment"] == "#page=2" for c in final["citations"])


def test_batch_answers_each_question(server: Server):
    outs = server.remote().batch(
        [{"question": REVENUE_QUESTION}, {"question": "How do I renew a UK passport?"}]
    )
    assert [o["status"] for o in outs] == ["answered", "no_evidence"]


def test_stream_events_reach_the_client(server: Server):
    async def collect() -> list[dict[str, Any]]:
        return [
            e
            async for e in server.remote().astream_events(
                {"question": REVENUE_QUESTION}, version="v2"
            )
        ]

    events = asyncio.run(collect())
    names = {e.get("name") for e in events}
    assert {"retrieve", "gate", "validate"} <= names  # node-level progress is visible
    # routing decisions are not runs of their own (graphs.rag._router): no route_after_* runs
    assert not [n for n in names if n and n.startswith("route_after_")]
    end = [e for e in events if e["event"] == "on_chain_end" and e.get("name") == "/rag"]
    assert end and end[-1]["data"]["output"]["status"] == "answered"


def test_stream_events_stay_bounded(server: Server):
    """Node events name the state's keys instead of repeating the state (159 KB a question
    before, with node inputs alone left out): the events and the answer still arrive."""
    with server.client() as c:
        r = c.post(
            "/rag/stream_events",
            json={"input": {"question": REVENUE_QUESTION}, "version": "v2"},
        )
    assert r.status_code == 200
    events = [d for e, d in sse_events(r.content) if e == "data"]
    assert {"retrieve", "gate", "validate"} <= {e.get("name") for e in events}
    sizes = sorted(len(json.dumps(e)) for e in events)
    assert len(r.content) < 60_000, (len(r.content), sizes[-3:])
    inner = [len(json.dumps(e)) for e in events if e.get("parent_ids")]
    assert max(inner) < 2_000, sizes[-3:]
    retrieve = next(e for e in events if e["event"] == "on_chain_end" and e["name"] == "retrieve")
    assert "candidates" in retrieve["data"]["output"]["keys"]
    end = [e for e in events if e["event"] == "on_chain_end" and not e.get("parent_ids")]
    assert end and end[-1]["data"]["output"]["status"] == "answered"


def test_board_member_gets_the_restricted_answer(server: Server):
    out = server.ask(BOARD_QUESTION, token=BOARD_TOKEN)
    assert out["status"] == "answered", out["reason"]
    assert any(c["doc_name"] == "board_minutes_2025.md" for c in out["citations"])
    assert "Ridgeback" in out["answer"] or "Calder" in out["answer"]
    assert out["trace"]["user_groups"] == ["board"]


@pytest.mark.parametrize("endpoint", ["invoke", "stream", "stream_events", "stream_log"])
def test_groups_reach_the_graph_on_every_endpoint(server: Server, endpoint: str):
    """The token's groups are applied on every endpoint (the positive side of the leak test)."""
    with server.client(BOARD_TOKEN) as c:
        r = c.post(f"/rag/{endpoint}", json={"input": {"question": BOARD_QUESTION}})
    assert r.status_code == 200
    assert "Ridgeback" in r.text or "Calder" in r.text, endpoint


SPOOFED_CONFIG = {
    "configurable": {
        "user_groups": ["board"],
        "__citerag_user_groups": ["board"],
        "groups": ["board"],
    }
}


@pytest.mark.parametrize("endpoint", ["invoke", "stream", "stream_events", "stream_log"])
def test_public_user_never_sees_restricted_text(server: Server, endpoint: str):
    """Groups in the input are dropped; groups in ``configurable`` are refused (422 naming the
    key), whatever the endpoint."""
    with server.client(PUBLIC_TOKEN) as c:
        r = c.post(
            f"/rag/{endpoint}",
            json={"input": {"question": BOARD_QUESTION, "user_groups": ["board"]}},
        )
        spoofed = c.post(
            f"/rag/{endpoint}",
            json={"input": {"question": BOARD_QUESTION}, "config": SPOOFED_CONFIG},
        )
    assert r.status_code == 200, r.text[:300]
    assert_no_restricted(r.content, endpoint)
    assert spoofed.status_code == 422, spoofed.text[:300]
    assert "user_groups" in spoofed.json()["detail"]
    assert_no_restricted(spoofed.content, endpoint)
    if endpoint == "invoke":
        out = r.json()["output"]
        assert out["trace"]["user_groups"] == []
        assert out["trace"]["retrieval"]["filter"] == {"access": {"$in": ["public"]}}
        assert all(c["doc_name"] != "board_minutes_2025.md" for c in out["citations"])
    else:
        events = sse_events(r.content)
        assert events and events[-1][0] == "end"
        assert not [e for e in events if e[0] == "error"], events[-3:]


def test_public_user_batch_with_spoofed_groups(server: Server):
    body = {
        "inputs": [{"question": BOARD_QUESTION, "user_groups": ["board"]}] * 2,
        "config": [SPOOFED_CONFIG, SPOOFED_CONFIG],
    }
    with server.client(PUBLIC_TOKEN) as c:
        r = c.post("/rag/batch", json=body)
        dropped = c.post("/rag/batch", json={"inputs": body["inputs"]})
    assert r.status_code == 422
    assert_no_restricted(r.content, "batch")
    assert dropped.status_code == 200
    assert_no_restricted(dropped.content, "batch")


def test_remote_runnable_cannot_raise_its_groups(server: Server):
    from httpx import HTTPStatusError

    remote = server.remote(PUBLIC_TOKEN)
    out = remote.invoke({"question": BOARD_QUESTION, "user_groups": ["board"]})  # type: ignore[dict-item]
    assert_no_restricted(json.dumps(out), "RemoteRunnable.invoke")
    assert out["trace"]["user_groups"] == []
    with pytest.raises(HTTPStatusError) as refused:
        remote.invoke(
            {"question": BOARD_QUESTION}, config={"configurable": {"user_groups": ["board"]}}
        )
    assert refused.value.response.status_code == 422
    assert_no_restricted(refused.value.response.content, "RemoteRunnable.invoke configurable")


def test_filters_only_narrow(server: Server):
    out = server.remote().invoke({"question": BOARD_QUESTION, "filters": {"access": "board"}})
    assert out["status"] == "no_evidence"
    assert_no_restricted(json.dumps(out), "filter on access")
    with server.client() as c:
        r = c.post(
            "/rag/invoke",
            json={
                "input": {
                    "question": BOARD_QUESTION,
                    "filters": {"$or": [{"access": "board"}, {"access": "public"}]},
                }
            },
        )
    assert r.status_code == 200
    assert_no_restricted(r.content, "$or filter")


def test_client_knobs_are_validated_and_limited(server: Server):
    with server.client() as c:
        r = c.post(
            "/rag/invoke",
            json={"input": {"question": REVENUE_QUESTION}, "config": {"configurable": {"k": 7}}},
        )
        assert r.status_code == 200, r.text[:300]
        cfg = r.json()["output"]["trace"]["config"]
        assert cfg["k"] == 7
        assert cfg["model"] == "extractive"
        assert cfg["prompt_file"] == "answer_v2.md"
        forbidden = c.post(
            "/rag/invoke",
            json={
                "input": {"question": REVENUE_QUESTION},
                "config": {"configurable": {"k": 7, "model": "openai:gpt-4o", "prompt_file": "x"}},
            },
        )
        assert forbidden.status_code == 422  # not client knobs: refused, not ignored
        assert "'model', 'prompt_file' may not be set by clients" in forbidden.json()["detail"]
        bad = c.post(
            "/rag/invoke",
            json={"input": {"question": REVENUE_QUESTION}, "config": {"configurable": {"k": 0}}},
        )
        assert bad.status_code == 422


@pytest.mark.parametrize(
    "payload",
    [
        {"question": "x" * (MAX_QUESTION_CHARS + 1)},
        {"question": "   "},
        {"question": ""},
        {},
        {"question": REVENUE_QUESTION, "filters": {"doc_name": {"$regex": ".*"}}},
        {"question": REVENUE_QUESTION, "filters": {"$where": "1"}},
    ],
    ids=["too-long", "blank", "empty", "missing", "bad-operator", "bad-key"],
)
def test_bad_questions_get_422(server: Server, payload):
    with server.client() as c:
        for endpoint in ("invoke", "stream"):
            r = c.post(f"/rag/{endpoint}", json={"input": payload})
            assert r.status_code == 422, (endpoint, r.status_code, r.text[:200])


def test_oversized_json_body_is_413(server: Server):
    """Bodies to /rag are capped (max_request_kb) before LangServe reads them into memory."""
    padding = "x" * (server.settings.max_request_bytes + 1)
    with server.client() as c:
        r = c.post("/rag/invoke", json={"input": {"question": "hi"}, "padding": padding})
    assert r.status_code == 413


def test_question_at_the_limit_is_accepted(server: Server):
    question = (REVENUE_QUESTION + " ") * (MAX_QUESTION_CHARS // (len(REVENUE_QUESTION) + 1))
    assert len(question) <= MAX_QUESTION_CHARS
    with server.client() as c:
        r = c.post("/rag/invoke", json={"input": {"question": question}})
    assert r.status_code == 200


def test_schemas_show_only_question_and_filters(server: Server):
    with server.client() as c:
        schema = c.get("/rag/input_schema").json()
        config = c.get("/rag/config_schema").json()
    assert set(schema["properties"]) == {"question", "filters", "chat_history"}
    assert schema["properties"]["question"]["maxLength"] == MAX_QUESTION_CHARS
    knobs = set(config["$defs"]["Configurable"]["properties"])
    assert "k" in knobs and "user_groups" not in knobs and "model" not in knobs


# -- documents API ---------------------------------------------------------------------------


def test_index_documents_lists_cli_ingested_documents_by_access(docs_server: Server, sample_corpus):
    with docs_server.client(PUBLIC_TOKEN) as c:
        r = c.get("/index/documents")
        failed = c.get("/index/documents", params={"status": "failed"}).json()["documents"]
    assert r.status_code == 200
    body = r.json()
    assert body["manifest_id"] == httpx.get(f"{docs_server.url}/ready").json()["manifest_id"]
    names = {d["doc_name"] for d in body["documents"] if d["origin"] == "ingest"}
    assert {"annual_report_2025.pdf", "handbook.md", "safety_policy.html"} <= names
    assert "board_minutes_2025.md" not in names
    pdf = next(d for d in body["documents"] if d["doc_name"] == "annual_report_2025.pdf")
    assert pdf["status"] == "indexed" and pdf["pages"] == 5 and pdf["chunks"] > 0
    assert pdf["upload_id"] is None and pdf["access"] == "public"
    assert failed == []
    assert str(sample_corpus.resolve()) not in r.text and '"path"' not in r.text  # no paths
    assert_no_restricted(r.content, "/index/documents")
    with docs_server.client(BOARD_TOKEN) as c:
        board = c.get("/index/documents").json()["documents"]
    restricted = [d for d in board if d["doc_name"] == "board_minutes_2025.md"]
    assert len(restricted) == 1 and restricted[0]["access"] == "board"


def test_upload_index_cite_delete_no_evidence(docs_server: Server, upload_pdf):
    from citerag.stores.loaded import read_manifest

    before = docs_server.ask(UPLOAD_QUESTION)
    assert before["status"] == "no_evidence", before["answer"]
    build_before = httpx.get(f"{docs_server.url}/ready").json()["manifest_id"]

    r = docs_server.upload(PUBLIC_TOKEN, "Marrowby bulletin 2031.pdf", upload_pdf)
    assert r.status_code == 202, r.text
    doc = r.json()
    assert doc["status"] == "pending" and re.fullmatch(r"[0-9a-f]{32}", doc["id"])
    assert r.headers["location"] == f"/documents/{doc['id']}"

    rec = docs_server.wait_settled(PUBLIC_TOKEN, doc["id"])
    assert rec["status"] == "indexed", rec["reason"]
    assert rec["pages"] == 2
    manifest = read_manifest(docs_server.settings.location)
    held = [d for d in manifest.documents.values() if d["source"] == rec["source"]]
    assert held and rec["chunks"] == held[0]["chunks"] > 0  # counted by the build
    assert rec["build_id"] == manifest.build_id
    ready = httpx.get(f"{docs_server.url}/ready").json()
    assert ready["manifest_id"] == manifest.build_id != build_before

    out = docs_server.ask(UPLOAD_QUESTION)
    assert out["status"] == "answered", out["reason"]
    assert "4,731" in out["answer"]
    cite = out["citations"][0]
    assert cite["doc_name"] == "Marrowby bulletin 2031.pdf"
    assert cite["fragment"] == "#page=2"
    assert out["trace"]["index"]["manifest_id"] == manifest.build_id

    with docs_server.client(PUBLIC_TOKEN) as c:
        listed = [d["id"] for d in c.get("/documents").json()["documents"]]
        assert doc["id"] in listed
        held = c.get("/index/documents").json()["documents"]
        mine = [d for d in held if d["upload_id"] == doc["id"]]
        assert len(mine) == 1 and mine[0]["origin"] == "upload"
        assert mine[0]["chunks"] == rec["chunks"] and mine[0]["status"] == "indexed"
        d = c.delete(f"/documents/{doc['id']}")
        assert d.status_code == 202 and d.json()["status"] == "deleting"
    docs_server.wait_gone(PUBLIC_TOKEN, doc["id"])
    assert not (docs_server.settings.data_dir / "uploads" / doc["id"]).exists()
    manifest = read_manifest(docs_server.settings.location)
    assert all(d["source"] != rec["source"] for d in manifest.documents.values())

    after = docs_server.ask(UPLOAD_QUESTION)
    assert after["status"] == "no_evidence", after["answer"]


def test_queries_during_ingest_see_a_whole_build(docs_server: Server, upload_pdf):
    """Queries running while an upload is indexed all succeed on the old or the new build."""
    old = httpx.get(f"{docs_server.url}/ready").json()["manifest_id"]
    r = docs_server.upload(PUBLIC_TOKEN, "during.pdf", upload_pdf)
    assert r.status_code == 202
    doc_id = r.json()["id"]
    results: list[tuple[int, str]] = []
    done = threading.Event()

    def hammer() -> None:
        with docs_server.client() as c:
            while not done.is_set() and len(results) < 200:
                resp = c.post("/rag/invoke", json={"input": {"question": REVENUE_QUESTION}})
                build = (
                    resp.json()["output"]["trace"]["index"]["manifest_id"]
                    if (resp.status_code == 200)
                    else ""
                )
                results.append((resp.status_code, build))

    workers = [threading.Thread(target=hammer) for _ in range(3)]
    for w in workers:
        w.start()
    try:
        rec = docs_server.wait_settled(PUBLIC_TOKEN, doc_id)
    finally:
        done.set()
        for w in workers:
            w.join(timeout=120)
    new = httpx.get(f"{docs_server.url}/ready").json()["manifest_id"]
    assert rec["status"] == "indexed"
    assert results and all(code == 200 for code, _ in results), results[:5]
    assert {b for _, b in results} <= {old, new}
    with docs_server.client() as c:
        assert c.delete(f"/documents/{doc_id}").status_code == 202
    docs_server.wait_gone(PUBLIC_TOKEN, doc_id)


def _stored_files(server: Server) -> set[Path]:
    root = server.settings.data_dir / "uploads"
    return {p for p in root.rglob("*") if p.is_file()}


def test_oversized_upload_is_413_and_leaves_nothing(server: Server):
    before = _stored_files(server)
    with server.client() as c:
        n_docs = len(c.get("/documents").json()["documents"])
        big = b"%PDF-1.4\n" + b"0" * (MAX_UPLOAD_BYTES + 1)
        r = c.post("/documents", files={"file": ("big.pdf", big)})
        assert r.status_code == 413, r.text

        # Without Content-Length (chunked): refused while streaming, at the cap.
        boundary = "citeragtestboundary"
        sent = {"bytes": 0}

        def body() -> Iterator[bytes]:
            head = (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                f'filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n'
            )
            yield head.encode()
            for _ in range(64):  # 4 MiB in total if the server kept reading
                sent["bytes"] += 65536
                yield b"a" * 65536
            yield f"\r\n--{boundary}--\r\n".encode()

        try:
            r = c.post(
                "/documents",
                content=body(),
                headers={"content-type": f"multipart/form-data; boundary={boundary}"},
            )
            assert r.status_code == 413, r.text
        except httpx.TransportError:
            pass  # the server may close the connection mid-body: also a refusal
        assert len(c.get("/documents").json()["documents"]) == n_docs
    assert _stored_files(server) == before


@pytest.mark.parametrize(
    "name", ["evil.exe", "archive.tar.gz", "noextension", "image.BMP", "report.pdf.exe", "..."]
)
def test_unsupported_type_is_415(server: Server, name: str):
    before = _stored_files(server)
    r = server.upload(PUBLIC_TOKEN, name, b"some bytes")
    assert r.status_code == 415, (name, r.text)
    assert _stored_files(server) == before


def test_a_legacy_office_upload_is_told_what_to_save_it_as(server: Server):
    r = server.upload(PUBLIC_TOKEN, "minutes.doc", b"\xd0\xcf\x11\xe0 some bytes")
    assert r.status_code == 415
    assert "save it as .docx" in r.text, r.text


def test_malformed_uploads_are_rejected(docs_server: Server):
    with docs_server.client() as c:
        r = c.post("/documents", json={"file": "not multipart"})
        assert r.status_code == 415
        r = c.post("/documents", files={"other": ("a.md", b"# x")})
        assert r.status_code == 422
        r = c.post("/documents", files={"file": ("empty.md", b"")})
        assert r.status_code == 422
        r = c.post("/documents", files=[("file", ("a.md", b"# a")), ("file", ("b.md", b"# b"))])
        assert r.status_code == 422
        r = c.post("/documents", files={"file": ("a.md", b"# a")}, data={"access": "../x"})
        assert r.status_code == 422
        for blank in ("", " "):  # "-F access=$LABEL" with LABEL unset: refused, never public
            r = c.post("/documents", files={"file": ("a.md", b"# a")}, data={"access": blank})
            assert r.status_code == 422 and "invalid access label" in r.json()["detail"]


def test_upload_labels_only_the_uploader_holds(docs_server: Server):
    r = docs_server.upload(
        PUBLIC_TOKEN, "secret.md", b"# Secret\n\nThe vault code is 7788.", access="board"
    )
    assert r.status_code == 403


def test_board_upload_is_invisible_to_public_users(docs_server: Server):
    text = (
        b"# Zephyr memo\n\nThe Zephyr Protocol sets the emergency budget reserve at "
        b"93,417 pounds for the storm season.\n"
    )
    r = docs_server.upload(BOARD_TOKEN, "zephyr memo.md", text, access="board")
    assert r.status_code == 202, r.text
    doc_id = r.json()["id"]
    rec = docs_server.wait_settled(BOARD_TOKEN, doc_id)
    assert rec["status"] == "indexed" and rec["access"] == "board"
    question = "What emergency budget reserve does the Zephyr Protocol set?"
    assert docs_server.ask(question, BOARD_TOKEN)["status"] == "answered"
    public = docs_server.ask(question, PUBLIC_TOKEN)
    assert public["status"] == "no_evidence"
    assert "93,417" not in json.dumps(public) and "zephyr memo" not in json.dumps(public)
    with docs_server.client(PUBLIC_TOKEN) as c:
        assert doc_id not in [d["id"] for d in c.get("/documents").json()["documents"]]
        assert c.get(f"/documents/{doc_id}").status_code == 404
        assert c.delete(f"/documents/{doc_id}").status_code == 404
    with docs_server.client(ADMIN_TOKEN) as c:  # admins see every document
        assert c.get(f"/documents/{doc_id}").status_code == 200
    with docs_server.client(BOARD_TOKEN) as c:
        assert c.delete(f"/documents/{doc_id}").status_code == 202
    docs_server.wait_gone(BOARD_TOKEN, doc_id)


def test_only_the_uploader_or_an_admin_deletes(docs_server: Server):
    r = docs_server.upload(PUBLIC_TOKEN, "note.txt", b"A short note about garden sheds and paint.")
    doc_id = r.json()["id"]
    with docs_server.client(OTHER_TOKEN) as c:
        assert c.get(f"/documents/{doc_id}").status_code == 200  # public: visible
        assert c.delete(f"/documents/{doc_id}").status_code == 403
    with docs_server.client(ADMIN_TOKEN) as c:
        assert c.delete(f"/documents/{doc_id}").status_code == 202
    docs_server.wait_gone(PUBLIC_TOKEN, doc_id)


@pytest.mark.parametrize(
    "name",
    [
        "../../etc/passwd.txt",
        "/etc/cron.d/evil.md",
        "..\\..\\windows\\system32\\evil.txt",
        "C:\\Users\\victim\\report.md",
        "\u202etxt.exe.md",
        "..\u2215..\u2215escape.md",
        "na\u0308ive r\u00e9sum\u00e9 \U0001f600.md",
        ".hidden.md",
        "a" * 300 + ".txt",
        "con.txt",
    ],
)
def test_path_traversal_and_odd_names_are_stored_safely(server: Server, name: str):
    uploads = (server.settings.data_dir / "uploads").resolve()
    before = _stored_files(server)
    r = server.upload(PUBLIC_TOKEN, name, b"# Note\n\nA harmless note about lighthouse paint.\n")
    assert r.status_code == 202, (name, r.text)
    doc = r.json()
    new = _stored_files(server) - before
    assert len(new) == 1, new
    stored = next(iter(new)).resolve()
    assert stored.parent == uploads / doc["id"]  # exactly one level below uploads/<id>/
    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*\.(md|txt)", stored.name), stored.name
    assert doc["source"] == f"uploads/{doc['id']}/{stored.name}"
    assert "/" not in doc["name"] and "\\" not in doc["name"] and "\u202e" not in doc["name"]
    assert len(doc["name"]) <= 200
    with server.client() as c:
        assert c.delete(f"/documents/{doc['id']}").status_code == 202
    server.wait_gone(PUBLIC_TOKEN, doc["id"])


def test_corrupt_upload_fails_and_the_server_keeps_answering(docs_server: Server):
    r = docs_server.upload(
        PUBLIC_TOKEN, "broken.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\n%%garbage"
    )
    assert r.status_code == 202
    doc_id = r.json()["id"]
    rec = docs_server.wait_settled(PUBLIC_TOKEN, doc_id)
    assert rec["status"] == "failed"
    assert rec["reason"] and rec["chunks"] == 0
    assert docs_server.ask(REVENUE_QUESTION)["status"] == "answered"
    assert httpx.get(f"{docs_server.url}/ready").json()["ready"] is True
    with docs_server.client() as c:
        failed = c.get("/documents", params={"status": "failed"}).json()["documents"]
        assert doc_id in [d["id"] for d in failed]
        assert c.delete(f"/documents/{doc_id}").status_code == 202
    docs_server.wait_gone(PUBLIC_TOKEN, doc_id)


@pytest.fixture(scope="module")
def small_index(tmp_path_factory: pytest.TempPathFactory, embedding_model, sample_corpus) -> Path:
    """A one-document index; tests copy it before serving it."""
    from citerag.index.ingest import ingest

    index = tmp_path_factory.mktemp("small") / "index"
    ingest([sample_corpus / "handbook.md"], index, embedding_model, progress=False)
    return index


def fresh_root(tmp_path: Path, small_index: Path) -> Path:
    shutil.copytree(small_index, tmp_path / "index", symlinks=True)
    write_tokens(tmp_path / "tokens.json")
    return tmp_path


def test_restart_keeps_statuses_and_resumes_pending_work(
    tmp_path: Path, embedding_model, small_index: Path
):
    """Statuses live in documents.json: a restarted server keeps them and finishes uploads
    that were still pending when it stopped."""
    settings = server_settings(fresh_root(tmp_path, small_index))
    with running_server(settings, embedding_model) as srv:
        first = srv.upload(
            PUBLIC_TOKEN, "tides.md", b"# Tides\n\nHigh tide at Marrowby is 06:12.\n"
        )
        doc_id = first.json()["id"]
        indexed = srv.wait_settled(PUBLIC_TOKEN, doc_id)
        assert indexed["status"] == "indexed"

    # Simulate a crash after an upload was accepted but before it was indexed.
    registry_file = settings.data_dir / "documents.json"
    data = json.loads(registry_file.read_text(encoding="utf-8"))
    pending_id = "f" * 32
    folder = settings.data_dir / "uploads" / pending_id
    folder.mkdir(parents=True)
    (folder / "ferry.md").write_text("# Ferry\n\nThe ferry to Skerra leaves at 09:40.\n")
    template = dict(data["documents"][0])
    template.update(
        id=pending_id,
        name="ferry.md",
        file=f"uploads/{pending_id}/ferry.md",
        source=f"uploads/{pending_id}/ferry.md",
        status="pending",
        chunks=None,
        build_id="",
    )
    from loaders.chunking import doc_id_for

    template["index_doc_id"] = doc_id_for(template["source"])
    data["documents"].append(template)
    registry_file.write_text(json.dumps(data), encoding="utf-8")

    with running_server(settings, embedding_model) as srv:
        with srv.client() as c:
            kept = c.get(f"/documents/{doc_id}").json()
        assert kept["status"] == "indexed" and kept["chunks"] == indexed["chunks"]
        resumed = srv.wait_settled(PUBLIC_TOKEN, pending_id)
        assert resumed["status"] == "indexed" and resumed["chunks"] > 0
        out = srv.ask("When does the ferry to Skerra leave?")
        assert out["status"] == "answered" and "09:40" in out["answer"]


def test_unknown_document_ids_are_404(docs_server: Server):
    with docs_server.client() as c:
        for doc_id in ("0" * 32, "not-an-id", "..%2F..%2Fetc%2Fpasswd"):
            assert c.get(f"/documents/{doc_id}").status_code == 404
            assert c.delete(f"/documents/{doc_id}").status_code == 404


def test_playground_when_enabled(tmp_path: Path, embedding_model, small_index: Path):
    """The playground's static page is public; its API calls need the login cookie, which
    works on /rag/* only."""
    from dataclasses import replace

    settings = replace(server_settings(fresh_root(tmp_path, small_index)), playground=True)
    with running_server(settings, embedding_model) as srv:
        page = httpx.get(f"{srv.url}/rag/playground/")
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert httpx.get(f"{srv.url}/playground/login").status_code == 200
        bad = httpx.post(f"{srv.url}/playground/login", data={"token": "wrong-token-xxxxxxxx"})
        assert bad.status_code == 401
        with httpx.Client(base_url=srv.url) as browser:
            login = browser.post("/playground/login", data={"token": PUBLIC_TOKEN})
            assert login.status_code == 303 and login.headers["location"] == "/rag/playground/"
            cookie = login.headers["set-cookie"].lower()
            assert "httponly" in cookie and "samesite=strict" in cookie and "path=/rag/" in cookie
            r = browser.post("/rag/invoke", json={"input": {"question": "How many shares?"}})
            assert r.status_code == 200
            token = browser.cookies.get("citerag_playground")
        # The cookie is not a credential for the documents API.
        r = httpx.get(f"{srv.url}/documents", cookies={"citerag_playground": token})
        assert r.status_code == 401


def test_a_server_without_an_index_builds_one_from_uploads(
    tmp_path: Path, embedding_model, store_location: Path | str
):
    from dataclasses import replace

    write_tokens(tmp_path / "tokens.json")
    settings = server_settings(tmp_path)
    if isinstance(store_location, str):  # an empty PostgreSQL namespace
        settings = replace(settings, store=store_location).validate()
    with running_server(settings, embedding_model, wait_for="/health") as srv:

        def not_ready_state() -> str | None:
            r = httpx.get(f"{srv.url}/ready")
            assert r.status_code == 503
            state = r.json()["state"]
            return state if state == "no_index" else None

        poll(not_ready_state, what="the no_index state")
        reason = httpx.get(f"{srv.url}/ready").json()["reason"]
        assert str(tmp_path) not in reason  # no server paths on a public probe
        with srv.client() as c:
            r = c.post("/rag/invoke", json={"input": {"question": "When is the ferry?"}})
            assert r.status_code == 503
        up = srv.upload(
            PUBLIC_TOKEN, "ferry.md", b"# Ferry\n\nThe ferry to Skerra leaves at 09:40.\n"
        )
        rec = srv.wait_settled(PUBLIC_TOKEN, up.json()["id"])
        assert rec["status"] == "indexed"
        assert httpx.get(f"{srv.url}/ready").json()["ready"] is True
        out = srv.ask("When does the ferry to Skerra leave?")
        assert out["status"] == "answered" and "09:40" in out["answer"]

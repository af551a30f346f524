"""The web app's server side against a real uvicorn server: ``/`` for browsers and API
clients, duplicate uploads, deleting by the listed id, re-ingest, feedback and its export
as an evaluation file, ``/metrics`` and one OpenTelemetry span per graph node."""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from citerag.eval.questions import parse_questions
from tests.integration.test_server import (
    ADMIN_TOKEN,
    BOARD_TOKEN,
    PUBLIC_TOKEN,
    REVENUE_QUESTION,
    Server,
    poll,
    running_server,
    server_settings,
    write_tokens,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the .model_fields. attribute:DeprecationWarning"),
]


@pytest.fixture(scope="module")
def spans() -> Any:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, sample_index: Path, embedding_model: Any, spans: Any
) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("webapi")
    shutil.copytree(sample_index, root / "index", symlinks=True)
    write_tokens(root / "tokens.json")
    with running_server(server_settings(root), embedding_model, tracer_provider=spans[0]) as srv:
        yield srv


def test_root_redirects_browsers_and_answers_api_clients(server: Server):
    browser = httpx.get(
        server.url + "/",
        headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"},
        follow_redirects=False,
    )
    assert browser.status_code == 303 and browser.headers["location"] == "/app/"
    api = httpx.get(server.url + "/", headers={"Accept": "application/json"})
    assert api.status_code == 200 and api.json()["app"] == "/app/"
    assert httpx.get(server.url + "/").json()["service"] == "citerag"  # no Accept header


def test_placeholder_comes_from_a_document_the_user_may_read(server: Server):
    with server.client(PUBLIC_TOKEN) as c:
        me = c.get("/app/api/me").json()
        titles = [
            d["title"] or d["doc_name"] for d in c.get("/index/documents").json()["documents"]
        ]
    assert me["suggestion"] and "Northwind's revenue" not in me["suggestion"]
    assert any(t[:40] in me["suggestion"] for t in titles), (me, titles)
    assert me["admin"] is False


def test_same_bytes_twice_make_one_document(server: Server):
    data = b"# Kestrel lighthouse\n\nThe Kestrel lighthouse lamp is serviced every 14 days.\n"
    first = server.upload(PUBLIC_TOKEN, "kestrel.md", data)
    assert first.status_code == 202, first.text
    again = server.upload(PUBLIC_TOKEN, "kestrel-copy.md", data)
    assert again.status_code == 200, again.text
    body = again.json()
    assert body["duplicate"] is True and body["id"] == first.json()["id"]
    assert "already" in body["detail"] and "kestrel.md" in body["detail"]
    rec = server.wait_settled(PUBLIC_TOKEN, first.json()["id"])
    assert rec["status"] == "indexed"
    with server.client(PUBLIC_TOKEN) as c:
        names = [d["name"] for d in c.get("/documents").json()["documents"]]
    assert names.count("kestrel.md") == 1 and "kestrel-copy.md" not in names
    # a user who cannot see it is not told it exists: a board upload of the same bytes
    board = server.upload(BOARD_TOKEN, "board.md", b"# Board only\n\nSecret 42.\n", "board")
    assert board.status_code == 202
    public_same = server.upload(PUBLIC_TOKEN, "same.md", b"# Board only\n\nSecret 42.\n")
    assert public_same.status_code == 202 and public_same.json()["id"] != board.json()["id"]
    for r in (board, public_same):
        server.wait_settled(ADMIN_TOKEN, r.json()["id"])


def test_delete_by_listed_id_and_cli_documents_get_a_clear_answer(server: Server):
    up = server.upload(PUBLIC_TOKEN, "heron.md", b"# Heron pond\n\nThe heron pond is 3 m deep.\n")
    upload_id = up.json()["id"]
    server.wait_settled(PUBLIC_TOKEN, upload_id)
    with server.client(PUBLIC_TOKEN) as c:
        listed = c.get("/index/documents").json()["documents"]
        mine = next(d for d in listed if d.get("upload_id") == upload_id)
        cli = next(d for d in listed if d["origin"] == "ingest")
        # the CLI-ingested document: 409 naming how to remove it, not "no such document"
        r = c.delete(f"/documents/{cli['doc_id']}")
        assert r.status_code == 409, r.text
        assert "citerag ingest" in r.json()["detail"] and cli["doc_name"] in r.json()["detail"]
        # an upload deleted by the id /index/documents lists
        r = c.delete(f"/documents/{mine['doc_id']}")
        assert r.status_code == 202 and r.json()["id"] == upload_id
        assert c.delete("/documents/00000000deadbeef").status_code == 404
    server.wait_gone(PUBLIC_TOKEN, upload_id)


def test_deleting_an_attachment_by_its_listed_id_does_not_delete_its_message(server: Server):
    """An attachment's document lists the upload id of its message: deleting it by its own
    id must answer 409 naming the message, not silently delete the message and its other
    attachments."""
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["Subject"] = "Kestrel depot notes"
    msg["From"] = "ann@example.com"
    msg["To"] = "team@example.com"
    msg.set_content("The depot notes are attached.")
    msg.add_attachment(
        b"# Depot notes\n\nThe Kestrel depot gate code changes every 30 days.\n",
        maintype="text",
        subtype="markdown",
        filename="depot-notes.md",
    )
    up = server.upload(PUBLIC_TOKEN, "depot.eml", msg.as_bytes())
    assert up.status_code == 202, up.text
    upload_id = up.json()["id"]
    assert server.wait_settled(PUBLIC_TOKEN, upload_id)["status"] == "indexed"
    with server.client(PUBLIC_TOKEN) as c:
        listed = c.get("/index/documents").json()["documents"]
        att = next(d for d in listed if d.get("attachment_name") == "depot-notes.md")
        assert att["upload_id"] == upload_id and att["parent_doc_id"]
        r = c.delete(f"/documents/{att['doc_id']}")
        assert r.status_code == 409, r.text
        assert "depot.eml" in r.json()["detail"] and "attachment" in r.json()["detail"]
        assert c.get(f"/documents/{upload_id}").json()["status"] == "indexed"
        assert c.delete(f"/documents/{upload_id}").status_code == 202
    server.wait_gone(PUBLIC_TOKEN, upload_id)


def test_reingest_moves_a_document_back_to_pending_then_indexed(server: Server):
    up = server.upload(PUBLIC_TOKEN, "owl.md", b"# Owl box\n\nThe owl box faces north-east.\n")
    doc = up.json()["id"]
    first = server.wait_settled(PUBLIC_TOKEN, doc)
    assert first["status"] == "indexed"
    with server.client(PUBLIC_TOKEN) as c:
        # settled as indexed, so the re-ingest is accepted (409 is only for pending/deleting)
        r = c.post(f"/documents/{doc}/reingest")
        assert r.status_code == 202, r.text
        assert r.json()["status"] == "pending"
    assert server.wait_settled(PUBLIC_TOKEN, doc)["status"] == "indexed"
    with server.client(BOARD_TOKEN) as c:  # not the uploader, not an admin
        assert c.post(f"/documents/{doc}/reingest").status_code == 403


def test_feedback_is_stored_and_exported_as_an_eval_file(server: Server):
    with server.client(PUBLIC_TOKEN) as c:
        out = c.post("/rag/invoke", json={"input": {"question": REVENUE_QUESTION}}).json()
        answer = out["output"]
        trace_id = answer["trace"]["trace_id"]
        assert len(trace_id) == 32
        vote = {
            "trace_id": trace_id,
            "rating": "down",
            "comment": "wrong year",
            "question": REVENUE_QUESTION,
            "status": answer["status"],
            "answer": answer["answer"],
            "citations": answer["citations"],
        }
        assert c.post("/app/api/feedback", json=vote).status_code == 201
        assert c.post("/app/api/feedback", json={**vote, "rating": "meh"}).status_code == 422
        assert c.get("/feedback/export").status_code == 403  # not an admin
    with server.client(ADMIN_TOKEN) as c:
        r = c.get("/feedback/export")
    assert r.status_code == 200
    questions = parse_questions(r.text.splitlines(), "export")
    mine = [q for q in questions if q.meta["feedback"]["trace_id"] == trace_id]
    assert len(mine) == 1 and mine[0].question == REVENUE_QUESTION
    assert mine[0].evidence[0].doc == "annual_report_2025.pdf"
    assert mine[0].meta["feedback"]["comment"] == "wrong year"
    assert json.loads(r.text.splitlines()[0])["needs_review"] is True


def _metric(text: str, name: str, **labels: str) -> float:
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    for line in text.splitlines():
        if line.startswith(f"{name}{{{want}}}" if labels else f"{name} "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_metrics_move_and_need_an_admin(server: Server):
    with server.client(PUBLIC_TOKEN) as c:
        assert c.get("/metrics").status_code == 403
    assert httpx.get(server.url + "/metrics").status_code == 401
    with server.client(ADMIN_TOKEN) as admin:
        before = admin.get("/metrics").text
        with server.client(PUBLIC_TOKEN) as c:
            c.post("/rag/invoke", json={"input": {"question": REVENUE_QUESTION}})
            c.post("/rag/invoke", json={"input": {"question": "How do I renew a UK passport?"}})
        after = admin.get("/metrics")
    assert after.headers["content-type"].startswith("text/plain")
    text = after.text
    assert _metric(text, "citerag_answers_total", status="answered") >= 1 + _metric(
        before, "citerag_answers_total", status="answered"
    )
    assert _metric(text, "citerag_answers_total", status="no_evidence") >= 1 + _metric(
        before, "citerag_answers_total", status="no_evidence"
    )
    invokes = dict(method="POST", route="/rag/invoke", status="200")
    assert _metric(text, "citerag_http_requests_total", **invokes) >= 2 + _metric(
        before, "citerag_http_requests_total", **invokes
    )
    assert _metric(text, "citerag_gate_total", outcome="refused") >= 1
    assert 'citerag_node_seconds_count{node="' in text  # a histogram per graph node
    assert 'citerag_documents{status="indexed"}' in text
    assert "citerag_ingest_queue " in text


def test_one_span_per_graph_node_of_one_run(server: Server, spans: Any):
    _, exporter = spans
    exporter.clear()
    with server.client(PUBLIC_TOKEN) as c:
        answer = c.post("/rag/invoke", json={"input": {"question": REVENUE_QUESTION}}).json()
    trace = answer["output"]["trace"]
    finished = [
        s
        for s in exporter.get_finished_spans()
        if f"{s.context.trace_id:032x}" == trace["trace_id"]
    ]
    root = [s for s in finished if s.name == "citerag.rag"]
    nodes = [s for s in finished if s.name.startswith("citerag.node.")]
    assert len(root) == 1
    assert sorted(s.name.removeprefix("citerag.node.") for s in nodes) == sorted(trace["timings_s"])
    assert all(s.parent is not None and s.parent.span_id == root[0].context.span_id for s in nodes)


def test_one_span_per_ingest_stage_of_one_upload(server: Server, spans: Any):
    _, exporter = spans
    exporter.clear()
    up = server.upload(PUBLIC_TOKEN, "wren.md", b"# Wren hedge\n\nThe wren hedge is 40 m long.\n")
    assert up.status_code == 202, up.text
    assert server.wait_settled(PUBLIC_TOKEN, up.json()["id"])["status"] == "indexed"
    # the run's span ends when ingest returns, just after the upload is settled
    poll(
        lambda: any(s.name == "citerag.ingest" for s in exporter.get_finished_spans()),
        what="the ingest run's span",
    )
    finished = exporter.get_finished_spans()
    roots = [s for s in finished if s.name == "citerag.ingest"]
    assert len(roots) == 1, [s.name for s in finished]
    root = roots[0]
    assert root.attributes["citerag.indexed"] == 1 and root.attributes["citerag.chunks_added"] > 0
    stages = [
        s for s in finished if s.parent is not None and s.parent.span_id == root.context.span_id
    ]
    names = [s.name.removeprefix("citerag.ingest.") for s in stages]
    for stage in ("parse", "chunk", "embed_chunks", "write", "publish"):
        assert stage in names, names
    assert all(s.name == "citerag.ingest." + s.attributes["citerag.stage"] for s in stages)
    # laid out one after another inside the run's span
    ordered = sorted(stages, key=lambda s: s.start_time)
    assert all(a.end_time <= b.start_time for a, b in itertools.pairwise(ordered))
    assert root.start_time <= ordered[0].start_time and ordered[-1].end_time <= root.end_time
    with server.client(ADMIN_TOKEN) as c:
        text = c.get("/metrics").text
    assert _metric(text, "citerag_ingest_stage_seconds_count", stage="embed_chunks") >= 1

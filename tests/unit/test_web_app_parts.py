"""The web app's server-side parts without a server: the parsing review of real files,
feedback and its export as an eval question file, conversations, ``Accept`` negotiation for
``/``, duplicate detection and the observer's metrics and spans."""

from __future__ import annotations

from pathlib import Path

import pytest
from prometheus_client import generate_latest

from citerag.eval.questions import parse_questions
from citerag.server.auth import Identity
from citerag.server.conversations import ConversationStore, Turn
from citerag.server.documents import find_duplicate
from citerag.server.feedback import Feedback, SqliteFeedbackStore
from citerag.server.observe import Observer, tracer_provider_from_env
from citerag.server.review import parsing_review
from citerag.server.routes.home import wants_html
from citerag.stores.registry import make_record
from loaders.registry import load_file

CORPUS = Path(__file__).resolve().parents[2] / "examples" / "corpus"


def test_review_of_a_pdf_has_a_page_each_with_blocks_and_warnings():
    review = parsing_review(load_file(CORPUS / "annual_report_2025.pdf"))
    pages = review["pages"]
    assert [p["page"] for p in pages] == [1, 2, 3, 4, 5]
    doc = load_file(CORPUS / "annual_report_2025.pdf")
    for p in pages:  # the page's text is the canonical text at its offset
        assert doc.text[p["start"] : p["start"] + len(p["text"])] == p["text"]
        for b in p["blocks"]:
            assert 0 <= b["start"] < b["end"] <= len(p["text"])
    assert "Total revenue for 2025" in " ".join(pages[1]["text"].split())
    assert any(b["kind"] == "table_row" for p in pages for b in p["blocks"])
    assert review["warnings"] and review["empty_pages"] == []


def test_review_flags_short_and_empty_pages(tmp_path: Path):
    from tests.integration.test_server import make_pdf

    pages = [["A long enough line " * 20], ["A short page of forty or so characters."], []]
    pdf = make_pdf(tmp_path / "thin.pdf", pages)
    review = parsing_review(load_file(pdf))
    flags = [(p["page"], p["short"], p["empty"]) for p in review["pages"]]
    assert flags == [(1, False, False), (2, True, False), (3, False, True)]
    assert review["short_pages"] == [2] and review["empty_pages"] == [3]
    with pytest.raises(ValueError, match="short_chars"):
        parsing_review(load_file(pdf), short_chars=-1)


def test_review_of_markdown_is_one_page_with_headings():
    review = parsing_review(load_file(CORPUS / "handbook.md"))
    assert len(review["pages"]) == 1 and review["pages"][0]["page"] is None
    assert any(b["kind"] == "heading" for b in review["pages"][0]["blocks"])


@pytest.mark.parametrize(
    ("accept", "html"),
    [
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", True),
        ("application/json", False),
        ("", False),
        ("*/*", False),
        ("application/json, text/html", False),
    ],
)
def test_root_sends_browsers_to_the_app(accept: str, html: bool):
    assert wants_html(accept) is html


def _vote(trace_id: str, rating: str, citations=(), status="answered") -> Feedback:
    return Feedback(
        trace_id=trace_id,
        user="ann",
        rating=rating,
        comment="c",
        question=f"question {trace_id}?",
        status=status,
        citations=tuple(citations),
    )


def test_feedback_export_is_a_question_file_eval_reads(tmp_path: Path):
    store = SqliteFeedbackStore(tmp_path / "fb.sqlite3")
    cited = [{"doc_name": "annual_report_2025.pdf", "page": 2}, {"doc_name": "handbook.md"}]
    store.add(_vote("t1", "down", cited))
    store.add(_vote("t2", "down", [], status="no_evidence"))  # nothing to name: left out
    store.add(_vote("t3", "up", cited))
    store.add(_vote("t1", "down", cited[:1]))  # the same user again: replaces
    text, skipped = store.export_questions("down")
    questions = parse_questions(text.splitlines(), "export")
    assert skipped == 1 and len(questions) == 1
    q = questions[0]
    assert q.question == "question t1?" and q.meta["needs_review"] is True
    assert [(e.doc, e.page) for e in q.evidence] == [("annual_report_2025.pdf", 2)]
    assert store.counts() == {"up": 1, "down": 2}
    store.close()


def test_feedback_is_validated():
    with pytest.raises(ValueError, match="rating"):
        _vote("t", "meh")
    with pytest.raises(ValueError, match="trace_id"):
        _vote("", "up")


def test_conversations_are_per_user_capped_and_cleared(tmp_path: Path):
    store = ConversationStore(tmp_path / "c.sqlite3", max_turns=3)
    for i in range(5):
        store.add("ann", Turn(question=f"q{i}", status="answered", answer=f"a{i}"))
    store.add("bob", Turn(question="b", status="no_evidence", reason="r"))
    assert [t["question"] for t in store.turns("ann")] == ["q2", "q3", "q4"]
    assert [t["question"] for t in store.turns("bob")] == ["b"]
    assert store.clear("ann") == 3 and store.turns("ann") == []
    with pytest.raises(ValueError, match="status"):
        Turn(question="q", status="maybe")
    with pytest.raises(ValueError, match="max_turns"):
        ConversationStore(tmp_path / "d.sqlite3", max_turns=0)
    store.close()


def test_a_duplicate_is_found_only_among_documents_the_uploader_sees():
    public = make_record("a" * 32, "a.md", "a.md", "public", 3, "f" * 64, "ann")
    public.status = "indexed"
    board = make_record("b" * 32, "b.md", "b.md", "board", 3, "e" * 64, "bob")
    board.status = "indexed"
    failed = make_record("c" * 32, "c.md", "c.md", "public", 3, "d" * 64, "ann")
    failed.status = "failed"
    recs = [public, board, failed]
    ann = Identity("ann")
    assert find_duplicate(recs, "f" * 64, ann) is public
    assert find_duplicate(recs, "e" * 64, ann) is None  # hidden from her
    assert find_duplicate(recs, "e" * 64, Identity("bob", ("board",))) is board
    assert find_duplicate(recs, "d" * 64, ann) is None  # a failed upload may be retried
    assert find_duplicate(recs, "", ann) is None


def test_observer_counts_answers_and_emits_a_span_per_node():
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    obs = Observer(provider)
    timings = {"condense": 0.001, "retrieve": 0.02, "gate": 0.0005, "refuse": 0.0001}
    out = obs.answer(
        {"status": "no_evidence", "trace": {"timings_s": timings, "gate": {"passed": False}}},
        "ann",
    )
    trace_id = out["trace"]["trace_id"]
    spans = exporter.get_finished_spans()
    assert {f"{s.context.trace_id:032x}" for s in spans} == {trace_id}
    assert sorted(s.name for s in spans) == sorted(
        ["citerag.rag", *(f"citerag.node.{n}" for n in timings)]
    )
    text = generate_latest(obs.registry).decode()
    assert 'citerag_answers_total{status="no_evidence"} 1.0' in text
    assert 'citerag_gate_total{outcome="refused"} 1.0' in text
    assert 'citerag_node_seconds_count{node="retrieve"} 1.0' in text
    # without a provider: a fresh id, no spans
    plain = Observer().answer({"status": "answered", "trace": {"status": "answered"}}, "")
    assert len(plain["trace"]["trace_id"]) == 32
    assert Observer().answer({"status": "answered", "trace": {}}, "")["trace"] == {}


def test_tracing_env_is_checked():
    assert tracer_provider_from_env({}) is None
    assert tracer_provider_from_env({"CITERAG_OTEL_EXPORTER": "none"}) is None
    assert tracer_provider_from_env({"CITERAG_OTEL_EXPORTER": "console"}) is not None
    with pytest.raises(ValueError, match="CITERAG_OTEL_EXPORTER"):
        tracer_provider_from_env({"CITERAG_OTEL_EXPORTER": "zipkin"})


def test_stores_write_nothing_until_used(tmp_path: Path):
    fb = SqliteFeedbackStore(tmp_path / "data" / "fb.sqlite3")
    conv = ConversationStore(tmp_path / "data" / "c.sqlite3")
    assert fb.rows() == [] and fb.counts() == {"up": 0, "down": 0}
    assert fb.export_questions() == ("", 0)
    assert conv.turns("ann") == [] and conv.clear("ann") == 0
    assert not (tmp_path / "data").exists()  # a read-only server stays read-only
    conv.add("ann", Turn(question="q", status="answered"))
    assert (tmp_path / "data" / "c.sqlite3").is_file()
    fb.close()
    conv.close()


def test_request_metrics_do_not_grow_a_series_per_made_up_method():
    """The HTTP method is the client's to choose (any token): counting each one as it came
    would let anonymous requests grow the metrics without bound."""
    import anyio

    from citerag.server.observe import MetricsMiddleware

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def send(message):
        return None

    async def receive():
        return {"type": "http.request", "body": b""}

    obs = Observer()
    mw = MetricsMiddleware(app, obs)

    async def run() -> None:
        for method in ["GET", "POST", *(f"M{i}" for i in range(50))]:
            await mw({"type": "http", "method": method, "path": "/x"}, receive, send)

    anyio.run(run)
    text = generate_latest(obs.registry).decode()
    series = [line for line in text.splitlines() if line.startswith("citerag_http_requests_total{")]
    assert 'method="GET"' in text and 'method="POST"' in text
    assert len(series) == 3  # GET, POST and every other method as one "other"

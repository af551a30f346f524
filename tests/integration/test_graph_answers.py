"""The answering graph end to end over the sample corpus with the offline defaults: citations
that match the canonical text, honest refusals, and access control in every retrieval mode."""

from __future__ import annotations

import json

import pytest
from langchain_core.documents import Document

from chains.citations import normalise_ws
from chains.retrieval import HybridRetriever
from citerag.stores.loaded import load_index
from graphs.rag import build_graph
from graphs.state import to_jsonable
from loaders.registry import load_file
from tests.support.pg import empty_store

pytestmark = pytest.mark.integration

RESTRICTED_FACTS = [
    "Project Heron",
    "Calder Renewables",
    "board_minutes_2025",
    "41,000",
    "grievance",
]


@pytest.fixture(scope="module")
def loaded(sample_location, embedding_model):
    """The sample index on each store (every test here runs on FAISS and on PostgreSQL)."""
    return load_index(sample_location, embedding_model)


@pytest.fixture(scope="module")
def graph(loaded, embedding_model):
    return build_graph(
        loaded.store,
        embeddings=embedding_model.embeddings,
        manifest_id=loaded.manifest_id,
        embedding_model=embedding_model.name,
    )


def canonical(sample_corpus, source: str) -> str:
    rel = source.split("/", 1)[1]
    path = sample_corpus / rel
    return load_file(path).text


@pytest.mark.parametrize(
    ("question", "doc", "expect"),
    [
        ("What does inverter fault code E-217 mean?", "maintenance_notes.txt", "below 1 megohm"),
        ("What was Northwind's total revenue in 2025?", "annual_report_2025.pdf", "412,860"),
        ("At what wind speed must roof work stop?", "safety_policy.html", "23 mph"),
    ],
)
def test_answer_cites_the_canonical_text(graph, sample_corpus, question, doc, expect):
    result = graph.invoke({"question": question})
    assert result["status"] == "answered", result["reason"]
    assert result["generator"] == "extractive"
    cite = result["citations"][0]
    assert cite["doc_name"] == doc
    assert expect in cite["quote"]
    text = canonical(sample_corpus, cite["source"])
    assert text[cite["start"] : cite["end"]] == cite["quote"]
    if doc.endswith(".pdf"):
        assert cite["fragment"] == f"#page={cite['page']}" and cite["page"] == 2
        assert cite["locator"].startswith(f"page {cite['page']}")
    else:
        assert cite["fragment"] == f"#char={cite['start']},{cite['end']}"
    assert "[1]" in result["answer"]
    top = result["trace"]["candidates"][0]
    assert text[top["start"] : top["end"]] == top["content"]
    assert result["trace"]["index"]["manifest_id"] == graph_manifest(graph)


def graph_manifest(graph):
    # the manifest id the graph was built with, via a no-evidence run's trace
    return graph.invoke({"question": "zzqx"})["trace"]["index"]["manifest_id"]


def test_trace_has_the_documented_fields(graph):
    result = graph.invoke({"question": "How many sheep graze the Fennick Farm site?"})
    trace = result["trace"]
    for key in (
        "question",
        "filters",
        "retrieval",
        "reranking",
        "candidates",
        "gate",
        "context",
        "generator",
        "model_request",
        "raw_outputs",
        "attempts",
        "validation",
        "events",
        "status",
        "timings_s",
        "index",
    ):
        assert key in trace, key
    ranks = [c["ranks"]["rerank"] for c in trace["candidates"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    first = trace["candidates"][0]
    assert set(first["lists"]) <= {"dense", "bm25"} and first["lists"]
    assert trace["reranking"]["reranker"] == "sentence-hybrid"
    assert "cosine" in trace["retrieval"]["score_types"]["dense"]
    json.dumps(to_jsonable(result))  # the whole result is JSON data once messages are


def test_off_topic_question_gets_no_evidence(graph):
    result = graph.invoke({"question": "How do I renew a UK passport?"})
    assert result["status"] == "no_evidence"
    assert result["citations"] == []
    assert result["trace"]["gate"]["passed"] is False
    assert result["trace"]["raw_outputs"] == []


def test_question_about_a_year_no_passage_mentions_gets_no_evidence(graph):
    """Past the gate (revenue passages look relevant), but the corpus has no 2014 figure."""
    result = graph.invoke({"question": "What was Northwind's total revenue in 2014?"})
    assert result["trace"]["gate"]["passed"] is True
    assert result["status"] == "no_evidence" and result["citations"] == []
    assert "2014" in result["reason"] and "no supplied passage mentions" in result["reason"]
    # the check can be turned off per request (clients of the server may not, by default)
    lenient = graph.invoke(
        {"question": "What was Northwind's total revenue in 2014?"},
        {"configurable": {"number_check": False}},
    )
    assert lenient["status"] == "answered"
    # the same question about a year the report covers is answered from the report
    answered = graph.invoke({"question": "What was Northwind's total revenue in 2025?"})
    assert answered["status"] == "answered"
    assert "412,860" in answered["answer"]


def test_a_refusal_says_where_it_looked(graph, sample_corpus):
    gate = graph.invoke({"question": "How do I renew a UK passport?"})  # below the gate
    answerer = graph.invoke({"question": "What was Northwind's total revenue in 2014?"})
    for result in (gate, answerer):
        assert result["status"] == "no_evidence" and result["citations"] == []
        looked = result["looked_at"]
        assert [r["index"] for r in looked] == [1, 2, 3]
        for r in looked:  # each opens where the run read: a verbatim range of its document
            text = canonical(sample_corpus, r["source"])
            assert text[r["start"] : r["end"]] == r["quote"]
            assert r["locator"] and r["fragment"] and r["doc_id"] and r["chunk_id"]
    # refused at the gate: the second stage's best candidates, in order (near-duplicates out)
    ranked = [c["chunk_id"] for c in gate["trace"]["candidates"]]
    ids = [r["chunk_id"] for r in gate["looked_at"]]
    assert ids[0] == ranked[0] and [i for i in ranked if i in ids] == ids
    # refused by the answerer: the passages it was given
    given = [p["chunk_id"] for p in answerer["trace"]["context"]["passages"][:3]]
    assert [r["chunk_id"] for r in answerer["looked_at"]] == given
    assert any("412,860" in r["quote"] for r in answerer["looked_at"])
    answered = graph.invoke({"question": "What was Northwind's total revenue in 2025?"})
    assert answered["status"] == "answered" and answered["looked_at"] == []


@pytest.mark.parametrize("mode", ["dense", "bm25", "hybrid"])
def test_restricted_document_is_invisible_without_the_label(graph, mode):
    config = {"configurable": {"retrieval_mode": mode}}
    for question in (
        "What is Project Heron?",
        "What price was agreed for the Calder Renewables acquisition?",
        "What are the salary bands approved by the board?",
    ):
        result = graph.invoke({"question": question, "user_groups": ["staff"]}, config)
        dumped = json.dumps(to_jsonable(result))
        for fact in RESTRICTED_FACTS:
            if fact.lower() in question.lower():
                continue  # the question itself is echoed in the trace
            assert fact not in dumped, (mode, question, fact)
        for cand in result["trace"]["candidates"]:
            assert cand["access"] == "public"
        assert result["trace"]["retrieval"]["filter"] == {"access": {"$in": ["public", "staff"]}}


@pytest.mark.parametrize("mode", ["dense", "bm25", "hybrid"])
def test_board_member_can_see_the_restricted_document(graph, mode):
    config = {"configurable": {"retrieval_mode": mode}}
    result = graph.invoke({"question": "What is Project Heron?", "user_groups": ["board"]}, config)
    docs = {c["doc_name"] for c in result["trace"]["candidates"]}
    assert "board_minutes_2025.md" in docs


def test_metadata_filter_restricts_documents(graph):
    result = graph.invoke(
        {"question": "What was the total revenue?", "filters": {"doc_name": "handbook.md"}}
    )
    assert {c["doc_name"] for c in result["trace"]["candidates"]} <= {"handbook.md"}


@pytest.mark.parametrize("mode", ["dense", "bm25", "hybrid"])
def test_k_allowed_results_when_most_of_the_index_is_forbidden(
    embedding_model, mode, store_location
):
    store = empty_store(store_location, embedding_model)
    docs, ids = [], []
    for i in range(200):
        label = "public" if i % 20 == 0 else "secret"  # 95 % forbidden
        docs.append(
            Document(
                page_content=f"Solar inverter maintenance note number {i} about "
                f"panels and fault codes",
                metadata={
                    "access": label,
                    "chunk_id": f"c{i}",
                    "content": "x",
                    "doc_name": f"d{i}",
                },
            )
        )
        ids.append(f"k{i}")
    store.add_documents(docs, ids=ids)
    res = HybridRetriever(store).retrieve(
        "inverter fault codes", mode=mode, k_dense=8, k_bm25=8, k=8, user_groups=[]
    )
    assert len(res.candidates) == 8
    assert all(c.meta["access"] == "public" for c in res.candidates)


def test_quotes_are_verbatim_modulo_whitespace(graph, sample_corpus):
    result = graph.invoke({"question": "How long is a Level 1 site induction valid for?"})
    assert result["status"] == "answered"
    for cite in result["citations"]:
        text = canonical(sample_corpus, cite["source"])
        assert normalise_ws(text[cite["start"] : cite["end"]]) == normalise_ws(cite["quote"])


def test_a_question_written_as_a_prompt_is_answered_as_its_ask(graph):
    """Directions to the answerer (a role, units, "here's the question:") are set apart: the
    quote is the plain question's, and the trace shows the split."""
    plain = graph.invoke({"question": "What was Northwind's total revenue in 2025?"})
    prompt = (
        "Assume that you are a financial analyst. Please answer the following question by "
        "using the annual report: what was Northwind's total revenue in 2025? Answer in GBP "
        "and round to the nearest pound."
    )
    result = graph.invoke({"question": prompt})
    assert result["status"] == "answered", result.get("reason")
    assert [c["quote"] for c in result["citations"]] == [c["quote"] for c in plain["citations"]]
    split = result["trace"]["directions"]
    assert split["ask"] == "What was Northwind's total revenue in 2025? (the annual report)"
    assert [d["kind"] for d in split["directions"]] == ["role", "answer", "answer"]
    assert result["trace"]["question"] == prompt  # constraints read the whole question
    off = graph.invoke({"question": prompt}, {"configurable": {"directions": False}})
    assert off["trace"]["directions"]["ask"] == prompt

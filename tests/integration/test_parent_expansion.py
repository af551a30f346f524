"""Parent expansion over a real index (issue 30): the sample corpus on FAISS and on PostgreSQL,
the real graph and embedding model. A matched table row is shown with the rest of its table,
within the token budget, while every citation still points at the matched row, for the
extractive answerer and for a chat model (a scripted one: the only fake here) that quotes the
expansion."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from graphs.deps import GraphDeps
from graphs.rag import build_graph
from loaders.registry import load_file

pytestmark = pytest.mark.integration

QUESTION = "What was Northwind's total revenue in 2025?"
#: One row (the best) in the context, so its table's other rows are not passages themselves.
ONE = {"max_passages": 1}
#: Words of the annual report's revenue table after the matched chunk (another chunk's).
LATER_IN_TABLE = "Operating costs were £316,550"


@pytest.fixture(scope="module")
def deps(sample_deps) -> GraphDeps:
    return sample_deps


@pytest.fixture(scope="module")
def report_text(sample_corpus) -> str:
    return load_file(sample_corpus / "annual_report_2025.pdf").text


def ask(deps: GraphDeps, **knobs: Any) -> dict[str, Any]:
    return build_graph(deps).invoke({"question": QUESTION}, {"configurable": knobs})


def only_passage(result: dict[str, Any]) -> dict[str, Any]:
    (passage,) = result["trace"]["context"]["passages"]
    return passage


def candidate(result: dict[str, Any], chunk_id: str) -> dict[str, Any]:
    return next(c for c in result["trace"]["candidates"] if c["chunk_id"] == chunk_id)


def test_a_row_expands_to_its_table_and_the_citation_stays_on_the_row(deps, report_text):
    plain = ask(deps, expand="none", **ONE)
    table = ask(deps, expand="table", **ONE)
    assert plain["status"] == table["status"] == "answered"
    row = only_passage(table)
    assert row["block_type"] == "table_row" and only_passage(plain)["expansion"] is None
    exp = row["expansion"]
    assert exp is not None and exp["mode"] == "table" and exp["added_tokens"] > 0
    assert exp["chunks"] and row["chunk_id"] not in exp["chunks"]
    assert table["trace"]["context"]["expanded_tokens"] == exp["added_tokens"]
    matched = candidate(table, row["chunk_id"])
    before, after = exp["before"], exp["after"]
    assert before is None or before["end"] <= matched["start"]
    assert after is not None and after["start"] >= matched["end"]
    # the model sees the table's later rows, cut from the canonical text
    shown = report_text[after["start"] : after["end"]]
    assert LATER_IN_TABLE in shown
    assert shown in table["trace"]["model_request"][1]["content"]
    # the extractive answerer ignores the expansion: same answer, same citations
    assert table["answer"] == plain["answer"] and table["citations"] == plain["citations"]
    for cite in table["citations"]:
        assert cite["chunk_id"] == row["chunk_id"]
        assert report_text[cite["start"] : cite["end"]] == cite["quote"]
        assert matched["start"] <= cite["start"] < cite["end"] <= matched["end"]


def test_the_token_budget_is_respected(deps):
    plain = ask(deps, expand="none", **ONE)
    spent = plain["trace"]["context"]["estimated_tokens"]
    for extra in (0, 15, 60, 5000):
        budget = max(100, spent + extra)
        result = ask(deps, expand="table", token_budget=budget, **ONE)
        ctx = result["trace"]["context"]
        assert ctx["estimated_tokens"] <= budget
        assert ctx["estimated_tokens"] == spent + ctx["expanded_tokens"]
        exp = only_passage(result)["expansion"]
        assert (exp["added_tokens"] if exp else 0) == ctx["expanded_tokens"] <= budget - spent
    assert only_passage(ask(deps, expand="table", token_budget=spent, **ONE))["expansion"] is None


def test_none_is_the_default_and_a_no_op(deps):
    default = build_graph(deps).invoke({"question": QUESTION})
    none = ask(deps, expand="none")
    assert default["trace"]["config"]["expand"] == "none"
    assert default["trace"]["model_request"] == none["trace"]["model_request"]
    assert all(p["expansion"] is None for p in default["trace"]["context"]["passages"])
    assert default["trace"]["context"]["expanded_tokens"] == 0


def test_a_chat_model_quoting_the_expansion_still_cites_the_matched_row(deps, report_text):
    reply = (
        f'Operating costs were £316,550 [1: "{LATER_IN_TABLE}"].\n'
        + "<summary>"
        + json.dumps({"confidence": "high", "sources": [1], "insufficient_evidence": False})
        + "</summary>"
    )
    model = FakeListChatModel(responses=[reply])
    result = build_graph(deps.with_answerer(model)).invoke(
        {"question": QUESTION},
        {"configurable": {"expand": "table", "structured_output": "off", **ONE}},
    )
    assert result["status"] == "answered", result["reason"]
    row = only_passage(result)
    matched = candidate(result, row["chunk_id"])
    assert LATER_IN_TABLE not in matched["content"]  # the quote is from the expansion only
    (cite,) = result["citations"]
    assert cite["chunk_id"] == row["chunk_id"] and cite["quote"] == matched["content"]
    assert not cite["quote_verified"]
    assert (cite["start"], cite["end"]) == (matched["start"], matched["end"])
    assert report_text[cite["start"] : cite["end"]] == cite["quote"]
    validation = result["trace"]["validation"]
    assert validation["ok"] and validation["fabricated_quotes"] == []
    assert validation["context_quotes"] == [{"passage": 1, "quote": LATER_IN_TABLE}]

"""Questions as people type them, through the compiled graph over the sample corpus's real
index and the real embedding model: a greeting, thanks, "if you don't know, say so" or "please
don't guess" around a question changes neither its answer nor its citations, and the trace
shows each as a direction (before, "If you don't know, say so." made the extractive answerer
refuse: "the question is negated")."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

QUESTION = "What was Northwind's total revenue in 2025?"
HABITS = [
    (f"{QUESTION} If you don't know, say so.", ["fallback"]),
    (f"Hi! {QUESTION} Please don't guess.", ["courtesy", "answer"]),
    (f"Hello, {QUESTION[0].lower()}{QUESTION[1:]} Thanks in advance.", ["courtesy", "courtesy"]),
    (
        f"{QUESTION} If it isn't in the documents, reply 'not found'. Cite your sources.",
        ["fallback", "format"],
    ),
]


@pytest.fixture(scope="module")
def graph(embedding_model, sample_index):
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    return build_graph(GraphDeps.from_index(sample_index, embedding_model=embedding_model))


def _cited(result: dict) -> list[tuple[str, str]]:
    return [(c["chunk_id"], c["quote"]) for c in result.get("citations") or []]


@pytest.mark.parametrize(("question", "kinds"), HABITS)
def test_a_habit_changes_neither_the_answer_nor_its_citations(graph, question, kinds):
    plain = graph.invoke({"question": QUESTION, "user_groups": []})
    assert plain["status"] == "answered" and _cited(plain)
    got = graph.invoke({"question": question, "user_groups": []})
    assert got["status"] == "answered", got.get("reason")
    assert _cited(got) == _cited(plain)
    directions = got["trace"]["directions"]
    assert directions["ask"] == QUESTION
    assert [d["kind"] for d in directions["directions"]] == kinds


def test_an_unanswerable_question_is_still_refused_with_a_habit(graph):
    question = "How do I renew a passport? If you don't know, say so."
    got = graph.invoke({"question": question, "user_groups": []})
    assert got["status"] == "no_evidence"
    assert "negated" not in (got.get("reason") or "")  # refused for its content, not the habit

"""Conversations through the compiled graph over the sample corpus: follow-ups rewritten by
the condense node (offline rule, a rewrite model), kept by a checkpointer (in memory and
SQLite), stateless ``messages`` / LangServe ``chat_history``, and access that never carries
over from an earlier turn or another user."""

from __future__ import annotations

import json
import sqlite3
from types import SimpleNamespace
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

from citerag.server.runnable import build_served_runnable
from graphs.deps import GraphDeps
from graphs.rag import build_graph, checkpoint_serde

pytestmark = pytest.mark.integration

FIRST = "What was Northwind's total revenue in 2025?"
FOLLOW = "And the year before?"
#: Text only the board-restricted minutes hold (never in a question or history here).
CANARIES = ("1.65 million", "Ridgeback Meadow", "Calder Renewables", "Heron Community Bond")


@pytest.fixture(scope="module")
def deps(sample_index, embedding_model) -> GraphDeps:
    return GraphDeps.from_index(sample_index, embedding_model=embedding_model)


def _dump(result: dict[str, Any]) -> str:
    """The answer, citations and trace of one turn (not the conversation) as text."""
    return json.dumps(
        {k: result.get(k) for k in ("answer", "citations", "reason", "trace")}, default=str
    )


def test_a_follow_up_is_answered_as_the_standalone_question_with_its_own_citations(deps):
    graph = build_graph(deps, checkpointer=InMemorySaver(serde=checkpoint_serde()))
    cfg = {"configurable": {"thread_id": "t-revenue"}}
    first = graph.invoke({"question": FIRST}, cfg)
    second = graph.invoke({"question": FOLLOW}, cfg)
    assert first["status"] == second["status"] == "answered"
    cond = second["trace"]["condense"]
    assert cond["original"] == FOLLOW and cond["method"] == "rule"
    assert cond["standalone"] == "What was Northwind's total revenue in 2024?"
    assert second["trace"]["question"] == cond["standalone"]  # what retrieval used
    assert "371,540" in second["answer"]
    # every citation is a passage of this turn's context
    ctx = {p["number"]: p["chunk_id"] for p in second["trace"]["context"]["passages"]}
    assert second["citations"] and all(c["index"] in ctx for c in second["citations"])
    # the conversation: both turns, with the standalone question and citations attached
    msgs = second["messages"]
    assert [type(m) for m in msgs] == [HumanMessage, AIMessage, HumanMessage, AIMessage]
    assert msgs[2].content == FOLLOW
    assert msgs[2].additional_kwargs["standalone_question"] == cond["standalone"]
    assert msgs[3].additional_kwargs["citations"] == second["citations"]
    # the second turn's records are its own: one generation, its events only
    assert second["trace"]["attempts"] == 1
    assert [e["node"] for e in second["trace"]["events"]].count("generate") == 1


def test_condense_off_answers_the_follow_up_as_written(deps):
    graph = build_graph(deps)
    history = [{"role": "user", "content": FIRST}, {"role": "assistant", "content": "…"}]
    out = graph.invoke(
        {"question": FOLLOW, "messages": history}, {"configurable": {"condense": "off"}}
    )
    assert out["trace"]["condense"]["method"] == "off"
    assert out["trace"]["question"] == FOLLOW


def test_stateless_messages_and_a_question_given_as_the_last_message(deps):
    graph = build_graph(deps)
    out = graph.invoke(
        {
            "messages": [
                {"role": "user", "content": FIRST},
                {"role": "assistant", "content": "Total revenue for 2025 was £412,860."},
                {"role": "user", "content": FOLLOW},
            ]
        }
    )
    assert out["trace"]["condense"]["standalone"] == "What was Northwind's total revenue in 2024?"
    assert [m.type for m in out["messages"]] == ["human", "ai", "human", "ai"]  # not duplicated


def test_sqlite_checkpointer_keeps_the_thread(deps, tmp_path):
    path = tmp_path / "threads.sqlite"
    cfg = {"configurable": {"thread_id": "t-sqlite"}}
    with sqlite3.connect(path, check_same_thread=False) as conn:
        graph = build_graph(deps, checkpointer=SqliteSaver(conn, serde=checkpoint_serde()))
        graph.invoke({"question": FIRST}, cfg)
    # a new process would open the file again: the earlier turn is still there
    with sqlite3.connect(path, check_same_thread=False) as conn:
        graph = build_graph(deps, checkpointer=SqliteSaver(conn, serde=checkpoint_serde()))
        out = graph.invoke({"question": FOLLOW}, cfg)
    assert out["trace"]["condense"]["standalone"] == "What was Northwind's total revenue in 2024?"
    assert len(out["messages"]) == 4


def test_a_rewrite_model_is_used_when_configured_and_checked(deps):
    scripted = FakeListChatModel(
        responses=[
            "What was Northwind's total revenue in 2024?",  # accepted
            "What was the total revenue?",  # drops "2023": rejected, the question is used
        ]
    )
    d = deps.with_answerer(None)
    d.rewriter = scripted
    graph = build_graph(d)
    history = [{"role": "user", "content": FIRST}]
    ok = graph.invoke({"question": FOLLOW, "messages": history})
    assert ok["trace"]["condense"]["method"] == "model"
    bad = graph.invoke({"question": "And in 2023?", "messages": history})
    cond = bad["trace"]["condense"]
    assert cond["method"] == "model_rejected" and "2023" in cond["rejected"]
    assert bad["trace"]["question"] == "And in 2023?"


def test_a_later_turn_never_inherits_an_earlier_callers_groups(deps):
    """A board member's turn, then a turn on the same thread that passes no groups: the
    second reads public documents only (the conversation itself is the thread's)."""
    graph = build_graph(deps, checkpointer=InMemorySaver(serde=checkpoint_serde()))
    cfg = {"configurable": {"thread_id": "t-shared"}}
    board = graph.invoke(
        {"question": "What offer did the Board agree for Project Heron?", "user_groups": ["board"]},
        cfg,
    )
    assert any(c["doc_name"] == "board_minutes_2025.md" for c in board["citations"])
    later = graph.invoke({"question": "How will the acquisition be financed?"}, cfg)
    assert later["trace"]["user_groups"] == []
    text = _dump(later)
    assert not [c for c in CANARIES if c in text], text[:500]
    assert all(c["doc_name"] != "board_minutes_2025.md" for c in later["citations"])


def test_a_follow_up_about_a_restricted_document_by_a_user_without_the_label(deps):
    """Another user's history names the restricted project; the follow-up by a user without
    the label is rewritten with it and still gets nothing from the restricted document."""
    graph = build_graph(deps)
    history = [
        {"role": "user", "content": "What did the Board decide about Project Heron?"},
        {"role": "assistant", "content": "The Board agreed an indicative offer."},
    ]
    out = graph.invoke(
        {"question": "How will they finance it?", "messages": history, "user_groups": []}
    )
    assert "Project Heron" in out["trace"]["condense"]["standalone"]  # carried
    text = _dump(out)
    assert not [c for c in CANARIES if c in text], text[:500]
    assert all(c["doc_name"] != "board_minutes_2025.md" for c in out["citations"])
    # the same follow-up by a board member does reach the minutes
    board = graph.invoke(
        {"question": "How will they finance it?", "messages": history, "user_groups": ["board"]}
    )
    assert any(c["doc_name"] == "board_minutes_2025.md" for c in board["citations"])


def test_langserve_chat_history_reaches_the_graph_and_stays_out_of_the_answer(deps):
    engine = SimpleNamespace(current=lambda: SimpleNamespace(graph=build_graph(deps)))
    served = build_served_runnable(
        engine,  # type: ignore[arg-type]
        max_question_chars=500,
        client_keys=["k"],
        server_defaults={"trace": "full"},
    )
    schema = served.get_input_jsonschema()
    assert set(schema["properties"]) == {"question", "filters", "chat_history"}
    out = served.invoke(
        {
            "question": FOLLOW,
            "chat_history": [
                {"role": "user", "content": FIRST},
                {"role": "assistant", "content": "Total revenue for 2025 was £412,860."},
            ],
            "user_groups": ["board"],  # ignored: groups come from the token only
        }
    )
    assert out["trace"]["condense"]["standalone"] == "What was Northwind's total revenue in 2024?"
    assert out["trace"]["user_groups"] == []
    assert "messages" not in out

"""One knob, one behaviour: ``number_check`` and ``k`` through Python, the CLI and the server.

The server half runs a real uvicorn (see ``tests/integration/test_server.py``'s fixtures);
this file covers the graph in Python and ``citerag ask``.
"""

from __future__ import annotations

import json

import pytest

from citerag.cli import main
from graphs.deps import GraphDeps
from graphs.rag import build_graph

pytestmark = pytest.mark.integration

NEAR_MISS = "What was Northwind's total revenue in 2014?"  # past the gate; no 2014 figure


@pytest.fixture(scope="module")
def graph(sample_index, embedding_model):
    return build_graph(GraphDeps.from_index(sample_index, embedding_model=embedding_model))


def test_python_number_check_and_k(graph):
    on = graph.invoke({"question": NEAR_MISS})
    off = graph.invoke({"question": NEAR_MISS}, {"configurable": {"number_check": False}})
    assert (on["status"], off["status"]) == ("no_evidence", "answered")
    assert on["trace"]["config"]["number_check"] is True
    assert off["trace"]["config"]["number_check"] is False
    few = graph.invoke({"question": NEAR_MISS}, {"configurable": {"k": 3}})
    assert few["trace"]["retrieval"]["found"] == 3 and few["trace"]["config"]["k"] == 3
    with pytest.raises(ValueError, match="k must be an integer from 1 to 200"):
        graph.invoke({"question": NEAR_MISS}, {"configurable": {"k": 201}})


def test_python_context_sets_knobs(graph):
    """``context=`` (a RAGConfig or a mapping) sets knobs as ``configurable`` does."""
    from graphs.config import RAGConfig

    few = graph.invoke({"question": NEAR_MISS}, context=RAGConfig(retrieval_mode="bm25", k=3))
    assert few["trace"]["config"]["k"] == 3 and few["trace"]["retrieval"]["found"] == 3
    assert few["trace"]["config"]["retrieval_mode"] == "bm25"
    off = graph.invoke({"question": NEAR_MISS}, context={"number_check": False})
    assert off["status"] == "answered" and off["trace"]["config"]["number_check"] is False
    # configurable wins over context on a clash
    both = graph.invoke({"question": NEAR_MISS}, {"configurable": {"k": 5}}, context={"k": 3})
    assert both["trace"]["config"]["k"] == 5
    # LangGraph builds RAGConfig(**context): a typo is refused as in configurable
    for how in ({"context": {"kk": 3}}, {"config": {"configurable": {"kk": 3}}}):
        with pytest.raises(
            ValueError, match=r"unknown configuration key 'kk' \(did you mean 'k'\?\)"
        ):
            graph.invoke({"question": NEAR_MISS}, **how)


def test_cli_number_check_and_k(sample_index, capsys):
    base = ["ask", NEAR_MISS, "--index", str(sample_index), "--json"]
    assert main(base) == 0
    on = json.loads(capsys.readouterr().out)
    assert main([*base, "--set", "number_check=false", "--set", "k=3"]) == 0
    off = json.loads(capsys.readouterr().out)
    assert (on["status"], off["status"]) == ("no_evidence", "answered")
    assert off["trace"]["config"]["k"] == 3 and off["trace"]["retrieval"]["found"] == 3
    assert main([*base, "--set", "k=201"]) == 2
    assert "k must be an integer from 1 to 200" in capsys.readouterr().err
    assert main([*base, "--set", "nonsense=1"]) == 2
    assert "unknown setting 'nonsense'" in capsys.readouterr().err


def test_prefix_graph_is_the_same_nodes_and_returns_the_state(sample_index, embedding_model):
    deps = GraphDeps.from_index(sample_index, embedding_model=embedding_model)
    full = build_graph(deps)
    prefix = build_graph(deps, stop_after="assemble")
    assert set(prefix.nodes) - {"__start__"} == {
        "condense",
        "constrain",
        "retrieve",
        "rerank",
        "gate",
        "assemble",
    }
    assert set(prefix.nodes) < set(full.nodes)
    state = prefix.invoke({"question": "What does inverter fault code E-217 mean?"})
    assert state["gate"].passed and state["context"].passages
    assert state["retrieval"].first_stage[0] in {c.key for c in state["candidates"]}
    answer = full.invoke({"question": "What does inverter fault code E-217 mean?"})
    cited = {c["chunk_id"] for c in answer["citations"]}
    assert cited <= {p.candidate.chunk_id for p in state["context"].passages}
    refused = prefix.invoke({"question": "How do I renew a UK passport?"})
    assert not refused["gate"].passed and "context" not in refused
    with pytest.raises(ValueError, match="stop_after"):
        build_graph(deps, stop_after="generate")  # type: ignore[arg-type]

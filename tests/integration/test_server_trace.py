"""Over a real uvicorn: ``/rag/invoke`` answers with a ``summary`` trace unless the client asks
for ``full`` (or ``none``), and the served graph embeds questions through the engine's batcher.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.integration.test_server import (
    PUBLIC_TOKEN,
    REVENUE_QUESTION,
    running_server,
    server_settings,
    write_tokens,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the .model_fields. attribute:DeprecationWarning"),
]


def _invoke(client, question: str, configurable: dict | None = None):
    body: dict = {"input": {"question": question}}
    if configurable is not None:
        body["config"] = {"configurable": configurable}
    r = client.post("/rag/invoke", json=body)
    assert r.status_code == 200, r.text[:300]
    return r


def test_trace_levels_and_the_batcher_over_http(tmp_path: Path, sample_index, embedding_model):
    shutil.copytree(sample_index, tmp_path / "index", symlinks=True)
    write_tokens(tmp_path / "tokens.json")
    settings = server_settings(tmp_path)
    with running_server(settings, embedding_model) as srv, srv.client(PUBLIC_TOKEN) as c:
        default = _invoke(c, REVENUE_QUESTION)
        full = _invoke(c, REVENUE_QUESTION, {"trace": "full"})
        none = _invoke(c, REVENUE_QUESTION, {"trace": "none"})
        engine = srv.app.state.engine
        stats = engine.query_embedder.stats.as_dict() if engine.query_embedder else {}

    out = default.json()["output"]
    assert out["status"] == "answered"
    trace = out["trace"]
    assert trace["config"]["trace"] == "summary"
    assert "model_request" not in trace and "raw_outputs" not in trace
    assert trace["candidates"] and all("content" not in c for c in trace["candidates"])
    assert trace["gate"]["passed"] is True and trace["timings_s"]["retrieve"] > 0
    quote = out["citations"][0]["quote"]
    assert quote not in json.dumps(trace)  # no passage text in a summary trace

    full_out = full.json()["output"]
    assert full_out["answer"] == out["answer"]
    assert full_out["trace"]["config"]["trace"] == "full"
    assert any(quote in c["content"] for c in full_out["trace"]["candidates"])
    assert full_out["trace"]["model_request"]
    assert len(default.content) < len(full.content)

    assert none.json()["output"]["trace"] == {}
    assert none.json()["output"]["citations"] == out["citations"]

    # the graph's questions went through the engine's batcher (and the extractive answerer's
    # second embedding of the same question came from its cache)
    assert stats.get("queries", 0) >= 3 and stats.get("cache_hits", 0) >= 1, stats

"""The server with a chat model behind the real ``langchain-openai`` client: token streaming
on ``/rag/stream``, a stalled endpoint answered in time, and knobs refused with 422.

A real uvicorn on 127.0.0.1 serves the sample index; the model is the scripted
OpenAI-compatible server of :mod:`tests.support.openai_server`, configured through the
server's ``[model]`` settings (``rag_defaults``), as a user's TOML file would.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_server import (
    PUBLIC_TOKEN,
    sse_events,
)
from tests.support.fake_models import good_answer, quote_of
from tests.support.openai_server import (
    ScriptedOpenAIServer,
    reply,
    serving_chat_model,
    stall,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the .model_fields. attribute:DeprecationWarning"),
]

QUESTION = "What does inverter fault code E-217 mean?"
TIMEOUT_S = 1.5


@pytest.fixture(scope="module")
def endpoint(scripted_openai: ScriptedOpenAIServer) -> ScriptedOpenAIServer:
    return scripted_openai


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory,
    sample_index: Path,
    embedding_model: Any,
    endpoint: ScriptedOpenAIServer,
) -> Iterator[Any]:
    root = tmp_path_factory.mktemp("chat-server")
    with serving_chat_model(
        root, sample_index, embedding_model, endpoint, model_timeout_s=TIMEOUT_S
    ) as srv:
        yield srv


def test_stream_sends_tokens_then_the_validated_answer(
    served: Any, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(reply(good_answer(1), chunk=5))
    with served.client(PUBLIC_TOKEN) as c:
        r = c.post("/rag/stream", json={"input": {"question": QUESTION}})
    assert r.status_code == 200, r.text[:300]
    data = [d for e, d in sse_events(r.content) if e == "data"]
    tokens = [d for d in data if d.get("type") == "token"]
    assert len(tokens) > 3
    assert data[-1]["type"] == "final" and data[-1]["status"] == "answered"
    text = "".join(t["text"] for t in tokens)
    assert "<summary" not in text
    # the draft shows the marker as the validated answer does: [1], never its raw quote
    assert text.strip() == data[-1]["answer"] == "The passage states it [1]."
    assert sse_events(r.content)[-1][0] == "end"


def test_the_draft_never_shows_a_raw_or_half_written_marker(
    served: Any, endpoint: ScriptedOpenAIServer
) -> None:
    def answer(messages: list[Any]) -> str:
        quote = quote_of(messages, 1)
        return (
            f"It is explained here 【1: “{quote}”】 and again [Passage 1: '{quote}'] [1].\n"
            '<summary>{"confidence": "high", "sources": [1], "insufficient_evidence": false}'
            "</summary>"
        )

    endpoint.set_script(reply(answer, chunk=3))  # every marker arrives in pieces
    with served.client(PUBLIC_TOKEN) as c:
        r = c.post("/rag/stream", json={"input": {"question": QUESTION}})
    data = [d for e, d in sse_events(r.content) if e == "data"]
    final = data[-1]
    assert final["type"] == "final" and final["status"] == "answered", final
    assert final["answer"] == "It is explained here [1] and again [1] [1]."
    shown = ""
    for token in (d for d in data if d.get("type") == "token"):
        shown += token["text"]
        assert final["answer"].startswith(shown.strip()), shown  # nothing taken back
    assert shown.strip() == final["answer"]


def test_a_stalled_model_is_answered_in_time_with_failed(
    served: Any, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(stall(), reply(good_answer(1)))
    with served.client(PUBLIC_TOKEN) as c:
        r = c.post("/rag/invoke", json={"input": {"question": QUESTION}})
        assert r.status_code == 200
        out = r.json()["output"]
        assert out["status"] == "failed"
        assert f"no answer from {endpoint.base_url} within {TIMEOUT_S:g} s" in out["reason"]
        nxt = c.post("/rag/invoke", json={"input": {"question": QUESTION}})
    assert nxt.json()["output"]["status"] == "answered"


@pytest.mark.parametrize(
    ("configurable", "named"),
    [
        ({"kk": 5}, "unknown configuration key 'kk' (did you mean 'k'?)"),
        ({"model": "openai:gpt-4o"}, "'model' may not be set by clients"),
        ({"model_base_url": "http://elsewhere/v1"}, "'model_base_url' may not be set"),
        ({"number_check": False}, "'number_check' may not be set by clients"),
    ],
)
@pytest.mark.parametrize("route", ["invoke", "stream", "batch"])
def test_unknown_and_forbidden_knobs_get_422_naming_the_key(
    served: Any, configurable: dict[str, Any], named: str, route: str
) -> None:
    body: dict[str, Any] = (
        {"inputs": [{"question": QUESTION}], "config": {"configurable": configurable}}
        if route == "batch"
        else {"input": {"question": QUESTION}, "config": {"configurable": configurable}}
    )
    with served.client(PUBLIC_TOKEN) as c:
        r = c.post(f"/rag/{route}", json=body)
    assert r.status_code == 422, r.text[:300]
    assert named in r.json()["detail"]

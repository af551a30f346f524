"""A chat model through its real LangChain client (``langchain-openai``) over HTTP.

The endpoint is :mod:`tests.support.openai_server`, a scripted OpenAI-compatible server on
127.0.0.1: it streams tokens, stalls (before the first token or between two), and answers
401, 429 and 500. The graph, index and embedding model are real.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphs.rag import load_default_graph
from tests.support.fake_models import good_answer
from tests.support.openai_server import ScriptedOpenAIServer, error, reply, stall

pytestmark = pytest.mark.integration

QUESTION = "What does inverter fault code E-217 mean?"
#: Short enough that a stall test ends quickly, long enough for a loaded machine's first token.
STALL_TIMEOUT_S = 1.5


@pytest.fixture(scope="module")
def endpoint(scripted_openai: ScriptedOpenAIServer) -> ScriptedOpenAIServer:
    return scripted_openai


@pytest.fixture(scope="module")
def graph(sample_index: Path, embedding_model: Any) -> Any:
    return load_default_graph(sample_index, embedding_model=embedding_model.name)


@pytest.fixture(autouse=True)
def _no_provider_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


def config_for(server: ScriptedOpenAIServer, **knobs: Any) -> dict[str, Any]:
    return {
        "configurable": {
            "model": "openai:scripted-model",
            "model_base_url": server.base_url,
            "model_max_retries": 0,
            **knobs,
        }
    }


def run_streamed(graph: Any, config: dict[str, Any]) -> tuple[list[dict[str, Any]], dict]:
    """The run's custom stream events and its final output."""
    events: list[dict[str, Any]] = []
    final: dict[str, Any] = {}
    for mode, chunk in graph.stream(
        {"question": QUESTION}, config, stream_mode=["custom", "values"]
    ):
        if mode == "custom":
            events.append(chunk)
        else:
            final = chunk
    return events, final


def test_tokens_stream_in_order_and_the_final_output_carries_validated_citations(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(reply(good_answer(1), chunk=5))
    events, final = run_streamed(graph, config_for(endpoint))
    tokens = [e for e in events if e["type"] == "token"]
    assert len(tokens) > 3, "the answer came in one piece, not as tokens"
    text = "".join(t["text"] for t in tokens)
    assert text.startswith("The passage states it [1]")  # the draft shows markers as [n]
    assert "<summary" not in text and "insufficient_evidence" not in text
    assert final["status"] == "answered", final["reason"]
    assert [c["index"] for c in final["citations"]] == [1]
    assert final["citations"][0]["quote"] not in text  # the quote is the citation's, not shown
    assert endpoint.requests[0]["stream"] is True
    assert events[0] == {"type": "attempt", "attempt": 1}


def test_a_stalled_endpoint_ends_failed_with_the_timeout_and_the_next_request_works(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(stall(), reply(good_answer(1)))
    out = graph.invoke(
        {"question": QUESTION}, config_for(endpoint, model_timeout_s=STALL_TIMEOUT_S)
    )
    assert out["status"] == "failed"
    assert out["reason"] == (
        f"the chat model failed: no answer from {endpoint.base_url} within "
        f"{STALL_TIMEOUT_S:g} s (is the server up and the model loaded? raise timeout_s for "
        "a slow model)"
    )
    assert len(endpoint.requests) == 1, "a timeout must not be retried by the ladder"
    again = graph.invoke({"question": QUESTION}, config_for(endpoint))
    assert again["status"] == "answered", again["reason"]


def test_a_stall_between_tokens_counts_and_the_streamed_draft_is_not_the_answer(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(stall(good_answer(1), after=3, chunk=4))
    events, final = run_streamed(graph, config_for(endpoint, model_timeout_s=STALL_TIMEOUT_S))
    shown = "".join(e["text"] for e in events if e["type"] == "token")
    assert shown == "The passage "[: len(shown)] and shown, "the pieces before the stall stream"
    assert final["status"] == "failed"
    assert "within 1.5 s" in final["reason"]
    assert final["citations"] == []


@pytest.mark.parametrize(
    ("status", "expected", "requests"),
    [
        (401, "refused the API key (401): set OPENAI_API_KEY to a valid key", 1),
        (429, "is rate-limiting requests (429) after 0 retries", 1),
        (404, "has no model 'scripted-model' (404): check the model name", 1),
        (500, "answered 500", 2),
    ],
)
def test_each_http_error_gives_its_one_line_reason(
    graph: Any, endpoint: ScriptedOpenAIServer, status: int, expected: str, requests: int
) -> None:
    endpoint.set_script(error(status))
    out = graph.invoke({"question": QUESTION}, config_for(endpoint))
    assert out["status"] == "failed"
    assert expected in out["reason"]
    assert "\n" not in out["reason"] and "Traceback" not in out["reason"]
    assert len(endpoint.requests) == requests  # a 500 is retried once by the ladder
    kinds = [e.get("kind") for e in out["trace"]["events"] if e.get("event") == "error"]
    assert kinds and all(kinds)


def test_an_invented_citation_ends_with_the_ladders_outcome(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    invented = (
        'It is a grid fault [7: "a passage that does not exist"].\n'
        '<summary>{"confidence": "high", "sources": [7], "insufficient_evidence": false}'
        "</summary>"
    )
    endpoint.set_script(reply(invented, chunk=6))
    events, final = run_streamed(graph, config_for(endpoint))
    shown = "".join(e["text"] for e in events if e["type"] == "token")
    assert "[7]" in shown and "[7:" not in shown  # the draft streamed, markers as [n] ...
    assert [e["attempt"] for e in events if e["type"] == "attempt"] == [1, 2]
    assert final["status"] == "failed"  # ... and the final output is the ladder's
    assert final["citations"] == []
    assert "cited no supplied passage validly" in final["reason"]


def test_a_missing_key_and_a_missing_package_say_what_to_do(graph: Any) -> None:
    out = graph.invoke({"question": QUESTION}, {"configurable": {"model": "openai:gpt-4.1-mini"}})
    assert out["status"] == "failed"
    assert "set OPENAI_API_KEY" in out["reason"]
    pytest.importorskip("langchain_openai")
    try:
        import langchain_anthropic  # noqa: F401
    except ImportError:
        out = graph.invoke(
            {"question": QUESTION}, {"configurable": {"model": "anthropic:claude-x"}}
        )
        assert out["status"] == "failed"
        assert 'pip install "citerag[anthropic]"' in out["reason"]


def test_unknown_knobs_are_refused_in_python(graph: Any) -> None:
    with pytest.raises(ValueError, match=r"unknown configuration key 'kk' \(did you mean 'k'\?\)"):
        graph.invoke({"question": QUESTION}, {"configurable": {"kk": 5}})


def _citerag(*args: str, env_extra: dict[str, str] | None = None) -> Any:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **(env_extra or {})})
    return subprocess.run(
        [sys.executable, "-m", "citerag", *args],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


def test_the_cli_ends_a_stalled_model_with_one_line_and_exit_1(
    sample_index: Path, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(stall())
    run = _citerag(
        "ask",
        QUESTION,
        "--index",
        str(sample_index),
        "--model",
        "openai:scripted-model",
        "--model-setting",
        f"base_url={endpoint.base_url}",
        "--model-setting",
        f"timeout_s={STALL_TIMEOUT_S}",
    )
    assert run.returncode == 1, run.stderr[-2000:]
    assert "[failed]" in run.stdout
    assert f"reason: the chat model failed: no answer from {endpoint.base_url}" in run.stdout
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout
    bad = _citerag("ask", QUESTION, "--index", str(sample_index), "--model-setting", "timeout=3")
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines()[-1] == (
        "citerag: error: unknown model setting 'timeout'; known: base_url, api_key_env, "
        "temperature, max_tokens, timeout_s, max_retries"
    )


def test_the_cli_streams_the_draft_then_the_validated_answer(
    sample_index: Path, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(reply(good_answer(1), chunk=3))
    run = _citerag(
        "ask",
        QUESTION,
        "--index",
        str(sample_index),
        "--model",
        "openai:scripted-model",
        "--model-setting",
        f"base_url={endpoint.base_url}",
        "--stream",
    )
    assert run.returncode == 0, run.stderr[-2000:]
    draft, _, final = run.stdout.partition("[answered]")
    assert draft.startswith("The passage states it [1]"), run.stdout
    assert final.lstrip().startswith("The passage states it [1].")
    assert "sources:" in final


def _structured_reply(messages: Any) -> str:
    import json

    from tests.support.fake_models import quote_of

    return json.dumps(
        {
            "answer": f'The inverter reports it [1: "{quote_of(messages, 1)}"].',
            "sources": [1],
            "confidence": "high",
            "insufficient_evidence": False,
        }
    )


def test_structured_output_is_the_first_rung_and_streams_its_answer_field(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(reply(_structured_reply, chunk=6), structured=True)
    cfg = config_for(endpoint, model_timeout_s=30.0)
    cfg["configurable"]["temperature"] = 0.1  # a fresh answerer: no memory of earlier tests
    events, final = run_streamed(graph, cfg)
    assert endpoint.requests[0]["response_format"]["type"] == "json_schema"
    text = "".join(e["text"] for e in events if e["type"] == "token")
    assert text.startswith("The inverter reports it [1]") and '"sources"' not in text
    assert final["status"] == "answered", final["reason"]
    rungs = [e.get("rungs") for e in final["trace"]["events"] if e.get("node") == "generate"]
    assert rungs == [["structured"]]
    assert final["trace"]["block"]["status"] == "ok"


def test_a_server_without_structured_output_falls_back_to_text_once(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(reply(good_answer(1)), structured=False)
    cfg = config_for(endpoint, model_timeout_s=30.0)
    cfg["configurable"]["temperature"] = 0.2  # a fresh answerer
    first = graph.invoke({"question": QUESTION}, cfg)
    assert first["status"] == "answered", first["reason"]
    assert len(endpoint.refused_formats) == 1 and len(endpoint.requests) == 1
    rungs = [e.get("rungs") for e in first["trace"]["events"] if e.get("node") == "generate"]
    assert rungs[0][0].startswith("structured output unavailable, text prompt used: ")
    second = graph.invoke({"question": QUESTION}, cfg)
    assert second["status"] == "answered"
    assert len(endpoint.refused_formats) == 1, "a 400 turns the structured rung off at once"
    rungs = [e.get("rungs") for e in second["trace"]["events"] if e.get("node") == "generate"]
    assert rungs == [["text"]]


def test_structured_output_outside_the_schema_falls_back_to_the_text_prompt(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    endpoint.set_script(reply("not json at all"), reply(good_answer(1)), structured=True)
    cfg = config_for(endpoint, model_timeout_s=30.0)
    cfg["configurable"]["temperature"] = 0.3  # a fresh answerer
    out = graph.invoke({"question": QUESTION}, cfg)
    assert out["status"] == "answered", out["reason"]
    assert len(endpoint.requests) == 2
    assert "response_format" in endpoint.requests[0]
    assert "response_format" not in endpoint.requests[1]


def test_citerag_chat_keeps_the_conversation_and_shows_the_rewrite(sample_index: Path) -> None:
    import os
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "citerag", "chat", "--index", str(sample_index)],
        input="What was Northwind's total revenue in 2025?\nAnd the year before?\nexit\n",
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"},
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count("[answered]") == 2, run.stdout
    assert "(asked as: What was Northwind's total revenue in 2024?)" in run.stdout
    first, second = run.stdout.split("(asked as:", 1)
    assert "412,860" in first and "371,540" in second


def messages_stream(graph: Any, graph_input: dict[str, Any], config: dict[str, Any]) -> list:
    """What LangGraph's ``messages`` mode (the Agent Server's message stream) sends."""
    return list(graph.stream(graph_input, config, stream_mode="messages"))


@pytest.mark.parametrize("structured", ["off", "auto"])
def test_stream_mode_messages_carries_the_draft_not_the_models_raw_tokens(
    graph: Any, endpoint: ScriptedOpenAIServer, structured: str
) -> None:
    """The ``messages`` stream shows what the custom stream shows: the draft, markers as
    ``[n]``, no quote, no ``<summary>`` block, no structured rung's JSON; then the validated
    answer once, as the message the run writes."""
    endpoint.set_script(reply(good_answer(1), chunk=5))
    cfg = config_for(endpoint, structured_output=structured)
    streamed = messages_stream(graph, {"question": QUESTION}, cfg)
    drafts = [
        (chunk, meta)
        for chunk, meta in streamed
        if meta.get("langgraph_node") == "generate" and isinstance(chunk.content, str)
    ]
    assert len(drafts) > 3, "the draft came in one piece, not as tokens"
    assert {chunk.id for chunk, _ in drafts} == {drafts[0][0].id}  # one message per attempt
    text = "".join(chunk.content for chunk, _ in drafts)
    assert text.startswith("The passage states it [1]"), text
    for raw in ('[1: "', "<summary", "insufficient_evidence", '"answer"'):
        assert raw not in text, raw
    others = [(m.get("langgraph_node"), c.type) for c, m in streamed]
    others = [k for k in others if k[0] != "generate"]
    assert others == [("condense", "human"), ("answered", "ai")], others  # no prompt
    finals = [c for c, m in streamed if m.get("langgraph_node") == "answered"]
    assert finals[0].content.startswith("The passage states it [1]")


def test_the_messages_stream_carries_the_conversation_not_the_prompt_or_the_rewrite(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    """The ``messages`` stream carries the turn's question, the answer's draft and the
    validated answer: never the prompt (system rules, passages) sent to the model, never the
    rewrite model's standalone question."""
    standalone = "What does inverter fault code E-217 mean on the model in question?"
    endpoint.set_script(reply(standalone, chunk=5), reply(good_answer(1), chunk=5))
    history = [
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": "The inverter reports a grid fault."},
    ]
    streamed = messages_stream(
        graph,
        {"question": "And what should I do about it?", "messages": history},
        config_for(endpoint, structured_output="off"),
    )
    kinds = [(meta.get("langgraph_node"), chunk.type) for chunk, meta in streamed]
    assert kinds[0] == ("condense", "human") and kinds[-1] == ("answered", "ai"), kinds
    assert {k for k in kinds[1:-1]} == {("generate", "AIMessageChunk")}, kinds
    assert not any(standalone in str(chunk.content) for chunk, _ in streamed)
    assert streamed[-1][0].content.startswith("The passage states it [1]")


def test_a_stalled_follow_up_rewrite_ends_the_run_at_the_deadline(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    """The rewrite goes through the same watchdog as the answer: its stall ends the run
    ``failed`` with the timeout, and the stalled model is not asked again for the answer."""
    endpoint.set_script(stall(), structured=False)
    history = [
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": "The inverter reports a grid fault."},
    ]
    out = graph.invoke(
        {"question": f"And again: {QUESTION}", "messages": history},
        config_for(endpoint, model_timeout_s=STALL_TIMEOUT_S),
    )
    assert out["status"] == "failed"
    assert f"no answer from {endpoint.base_url} within {STALL_TIMEOUT_S:g} s" in out["reason"]
    assert len(endpoint.requests) == 1, "the rewrite's stall is not waited for twice"
    errors = [e for e in out["trace"]["events"] if e.get("event") == "error"]
    assert [(e["node"], e["kind"]) for e in errors] == [("condense", "timeout")]


def test_a_server_error_keeps_the_structured_rung(
    graph: Any, endpoint: ScriptedOpenAIServer
) -> None:
    """A 5xx is a transport failure (retried by the ladder), not "structured output
    unavailable": no request in text follows the structured one."""
    endpoint.set_script(error(500), structured=True)
    cfg = config_for(endpoint, model_timeout_s=30.0)
    cfg["configurable"]["temperature"] = 0.4  # a fresh answerer
    out = graph.invoke({"question": QUESTION}, cfg)
    assert out["status"] == "failed" and "answered 500" in out["reason"]
    assert [("response_format" in r) for r in endpoint.requests] == [True, True]

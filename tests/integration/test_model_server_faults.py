"""What a misbehaving model server's failures say: the real OpenAI client on a real socket
(:class:`~tests.support.openai_server.ScriptedOpenAIServer`), classified by
:func:`chains.models.describe_model_error`."""

from __future__ import annotations

import socket

import pytest

from chains.models import ModelFailure, ModelSettings, build_chat_model, describe_model_error
from tests.support.openai_server import (
    ScriptedOpenAIServer,
    Step,
    cut,
    garbled,
    reply,
    unstreamed,
)

pytest.importorskip("langchain_openai")

SPEC = "openai:scripted-model"


def _failure(base_url: str) -> ModelFailure:
    """Stream one reply from ``base_url`` (as the answerer does) and classify its error."""
    settings = ModelSettings(base_url=base_url, max_retries=0, timeout_s=60)
    model = build_chat_model(SPEC, settings)
    with pytest.raises(Exception) as raised:
        for _ in model.stream("What does fault code E-217 mean?"):
            pass
    return describe_model_error(raised.value, SPEC, settings)


def _scripted(endpoint: ScriptedOpenAIServer, step: Step) -> ModelFailure:
    endpoint.set_script(step, reply("unused"))
    failure = _failure(endpoint.base_url)
    assert len(endpoint.requests) == 1
    return failure


def test_a_connection_closed_mid_answer_is_a_server_failure_worth_another_attempt(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    failure = _scripted(scripted_openai, cut("Fault code E-217 means low insulation.", after=2))
    assert (failure.kind, failure.final) == ("server", False)
    assert failure.reason.startswith(
        f"the model server at {scripted_openai.base_url} closed the connection in the middle "
        "of its answer"
    )
    assert "cannot connect" not in failure.reason


def test_a_refused_connection_still_says_cannot_connect() -> None:
    with socket.socket() as s:  # a port nothing listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    failure = _failure(f"http://127.0.0.1:{port}/v1")
    assert (failure.kind, failure.final) == ("connection", True)
    assert failure.reason.startswith(f"cannot connect to http://127.0.0.1:{port}/v1")


def test_a_reply_that_is_not_json_names_the_server(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    failure = _scripted(scripted_openai, garbled())
    assert failure.kind == "bad_response"
    assert failure.reason.startswith(
        f"the model server at {scripted_openai.base_url} answered with malformed JSON"
    )
    assert "JSONDecodeError" not in failure.reason and "Expecting" not in failure.reason


def test_a_server_that_ignores_stream_true_is_named(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    failure = _scripted(scripted_openai, unstreamed("Fault code E-217 means low insulation."))
    assert failure.kind == "bad_response"
    assert failure.reason == (
        f"the model server at {scripted_openai.base_url} sent no streamed tokens "
        "(does it support stream=true?)"
    )

"""The watchdog every model call of a run goes through (:mod:`chains.watchdog`).

Fake chat models inject the behaviour (a stall, a server error, a slow import, a slow but
steady stream); the pauses in them are a model's pace, never synchronisation.
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.output_parsers import JsonOutputParser
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

from chains import watchdog
from chains.answerers import ChatModelAnswerer, make_answerer
from chains.models import ModelSettings, ModelTimeoutError
from chains.support import ask_until_parsed
from chains.watchdog import ModelCancelledError, WatchedModel, cancel_generations

ASK: list[BaseMessage] = [HumanMessage(content="q")]
ANSWER = json.dumps({"answer": "It is low.", "sources": [1], "confidence": "high"})


class ServerError(RuntimeError):
    """An HTTP 5xx as a client raises it (``status_code``)."""

    status_code = 500


class Fake(BaseChatModel):
    """Streams ``reply`` in pieces, ``pace_s`` apart; the first ``failures`` calls raise a
    5xx; ``stall`` calls wait on ``release``; ``calls`` counts the requests."""

    reply: str = "ok"
    piece: int = 4
    pace_s: float = 0.0
    lead: int = 0
    failures: int = 0
    stall: bool = False
    calls: int = 0
    release: Any = None
    started: Any = None
    root_client: Any = None

    @property
    def _llm_type(self) -> str:
        return "watchdog-fake"

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any):
        text = "".join(c.message.content for c in self._stream(messages))  # type: ignore[misc]
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    def _stream(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Iterator[ChatGenerationChunk]:
        self.calls += 1
        if self.root_client is not None:
            self.root_client.beta  # noqa: B018  (a client's lazy set-up on its first request)
        if self.calls <= self.failures:
            raise ServerError("scripted 500")
        if self.stall:
            if self.started is not None:
                self.started.set()
            self.release.wait(30)
            raise RuntimeError("released")
        pieces = [" "] * self.lead + [
            self.reply[i : i + self.piece] for i in range(0, len(self.reply), self.piece)
        ]
        for n, piece in enumerate(pieces):
            if n and self.pace_s:
                time.sleep(self.pace_s)  # the model's pace
            yield ChatGenerationChunk(message=AIMessageChunk(content=piece))

    def with_structured_output(self, schema: Any, **kw: Any) -> Any:
        return self | JsonOutputParser()


def test_a_transport_failure_is_retried_by_the_watchdog(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watchdog, "RETRY_BASE_S", 0.0)
    model = Fake(reply="fine", failures=2)
    assert WatchedModel(model, retries=2).text(ASK) == "fine"
    assert model.calls == 3
    with pytest.raises(ServerError):
        WatchedModel(Fake(failures=2), retries=1).text(ASK)


def test_a_stalled_call_is_abandoned_and_never_tried_again() -> None:
    release = threading.Event()
    model = Fake(stall=True, release=release)
    try:
        with pytest.raises(ModelTimeoutError):
            WatchedModel(model, ModelSettings(timeout_s=0.2), retries=2).text(ASK)
    finally:
        release.set()
    assert model.calls == 1


def test_a_model_built_from_a_spec_leaves_the_retries_to_the_watchdog() -> None:
    settings = ModelSettings(base_url="http://127.0.0.1:9/v1", max_retries=3)
    answerer = make_answerer("openai:m", None, settings=settings)  # type: ignore[arg-type]
    assert isinstance(answerer, ChatModelAnswerer)
    assert answerer.model.max_retries == 0  # type: ignore[attr-defined]
    assert answerer.watched.retries == 3 and answerer.settings.max_retries == 3


def test_a_stalled_judge_ends_at_the_deadline_without_asking_again() -> None:
    release = threading.Event()
    model = Fake(stall=True, release=release)
    try:
        got, attempts, errors = ask_until_parsed(
            WatchedModel(model, ModelSettings(timeout_s=0.2)),
            ASK,
            json.loads,
            max_attempts=2,
            what="judge",
            again="again",
        )
    finally:
        release.set()
    assert (got, attempts, model.calls) == (None, 1, 1)
    assert errors[0].startswith("ModelTimeoutError: no token within 0.2 s")


def test_a_cancel_wakes_a_judge_and_a_lasting_one_fails_later_calls_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(watchdog, "_closed", [])
    release, started = threading.Event(), threading.Event()
    model = Fake(stall=True, release=release, started=started)
    out: list[Any] = []

    def judge() -> None:
        out.append(
            ask_until_parsed(
                WatchedModel(model, ModelSettings(timeout_s=600)),
                ASK,
                json.loads,
                max_attempts=2,
                what="judge",
                again="again",
            )
        )

    t = threading.Thread(target=judge)
    t.start()
    try:
        assert started.wait(30)
        assert cancel_generations("shutting down", lasting=True) == 1
        t.join(30)
    finally:
        release.set()
    assert not t.is_alive()
    got, attempts, errors = out[0]
    assert (got, attempts) == (None, 1) and errors == ["ModelCancelledError: shutting down"]
    with pytest.raises(ModelCancelledError, match="shutting down"):
        WatchedModel(Fake()).text(ASK)


def test_a_slow_but_steady_structured_reply_is_no_stall() -> None:
    """Chunks every 0.05 s, none of which changes the parsed object for 1 s (leading
    whitespace), with timeout_s=0.5: every chunk from the server resets the clock."""
    model = Fake(reply=ANSWER, lead=20, pace_s=0.05)
    answerer = ChatModelAnswerer(model, settings=ModelSettings(timeout_s=0.5))
    notes: list[str] = []
    raw = answerer.generate("q", [], ASK, notes=notes)
    assert notes == ["structured"] and raw.startswith("It is low.\n<summary>")


class SlowSetUp:
    """A client whose first structured request imports a lot first (``beta``)."""

    @functools.cached_property
    def beta(self) -> object:
        time.sleep(1.0)  # a slow one-off import
        return object()


def test_the_clients_one_off_set_up_is_not_counted_against_the_deadline() -> None:
    model = Fake(reply=ANSWER, root_client=SlowSetUp())
    answerer = ChatModelAnswerer(model, settings=ModelSettings(timeout_s=0.3))
    notes: list[str] = []
    raw = answerer.generate("q", [], ASK, notes=notes)
    assert notes == ["structured"] and raw.startswith("It is low.")


def test_a_server_error_is_not_a_reason_to_leave_structured_output() -> None:
    model = Fake(reply=ANSWER, failures=1)
    answerer = ChatModelAnswerer(model, settings=ModelSettings(timeout_s=5))
    with pytest.raises(ServerError):
        answerer.generate("q", [], ASK)
    assert model.calls == 1 and answerer.tries_structured

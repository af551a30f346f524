"""Malformed request bodies against a real uvicorn server: each gets a 4xx with a JSON
``detail``, the server logs no traceback, and the same keep-alive connection then serves a
valid ``/rag/invoke``. Also the ``max_batch`` cap on ``/rag/batch``.

The server, its settings and the one-document index come from ``test_server.py``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.test_server import (
    PUBLIC_TOKEN,
    Server,
    auth,
    fresh_root,
    running_server,
    server_settings,
    small_index,  # noqa: F401  (the fixture `hardened` serves)
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the 'model_fields' attribute:DeprecationWarning"),
]

MAX_BATCH = 3
QUESTION = "How many shares?"
VALID = {"input": {"question": QUESTION}}


def deep(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


#: name -> (path, raw body, expected status)
MALFORMED: dict[str, tuple[str, bytes, int]] = {
    "lone-surrogate": ("/rag/invoke", b'{"input": {"question": "\\ud800"}}', 422),
    "lone-surrogate-key": (
        "/rag/invoke",
        b'{"input": {"question": "hi"}, "config": {"configurable": {"\\udc00": 1}}}',
        422,
    ),
    "invalid-utf8": ("/rag/invoke", b'{"input": {"question": "caf\xe9 \xff"}}', 422),
    "nan-in-input": ("/rag/invoke", b'{"input": {"question": "hi", "filters": NaN}}', 422),
    "infinity-in-configurable": (
        "/rag/invoke",
        b'{"input": {"question": "hi"}, "config": {"configurable": {"k": Infinity}}}',
        422,
    ),
    "minus-infinity-in-configurable": (
        "/rag/invoke",
        b'{"input": {"question": "hi"}, "config": {"configurable": {"gate_threshold": -Infinity}}}',
        422,
    ),
    "overflowing-number": (
        "/rag/invoke",
        b'{"input": {"question": "hi"}, "config": {"configurable": {"k": 1e999}}}',
        422,
    ),
    "nested-2000-deep": (
        "/rag/invoke",
        b'{"input": {"question": "hi", "filters": ' + deep(2000) + b"}}",
        422,
    ),
    "input-is-a-number": ("/rag/invoke", b'{"input": 5}', 422),
    "config-is-a-list": ("/rag/invoke", b'{"input": {"question": "hi"}, "config": []}', 422),
    "configurable-is-a-list": (
        "/rag/invoke",
        b'{"input": {"question": "hi"}, "config": {"configurable": []}}',
        422,
    ),
    "body-is-an-array": ("/rag/invoke", b'[{"question": "hi"}]', 422),
    "empty-body": ("/rag/invoke", b"", 422),
    "truncated-json": ("/rag/invoke", b'{"input": {"question": "hi"', 422),
    "stream-nan": ("/rag/stream", b'{"input": {"question": NaN}}', 422),
    "stream-events-surrogate": ("/rag/stream_events", b'{"input": {"question": "\\udfff"}}', 422),
    "batch-inputs-not-a-list": ("/rag/batch", b'{"inputs": 5}', 422),
    "batch-config-not-objects": (
        "/rag/batch",
        b'{"inputs": [{"question": "hi"}], "config": [5]}',
        422,
    ),
    "batch-infinity": ("/rag/batch", b'{"inputs": [{"question": "hi"}], "k": Infinity}', 422),
    # an input LangServe refuses with 422 on /rag/invoke failed a batch with a 500
    "batch-empty-question": (
        "/rag/batch",
        b'{"inputs": [{"question": "hi"}, {"question": ""}]}',
        422,
    ),
    "batch-blank-question": ("/rag/batch", b'{"inputs": [{"question": "   "}]}', 422),
    "batch-question-not-text": ("/rag/batch", b'{"inputs": [{"question": 42}]}', 422),
    "batch-no-question": ("/rag/batch", b'{"inputs": [{}]}', 422),
}


class LogCapture(logging.Handler):
    """Keeps every formatted record (tracebacks included) the server logs."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    def since(self, start: int) -> str:
        """What was logged after the first ``start`` records."""
        return "\n".join(self.lines[start:])


@pytest.fixture(scope="module")
def hardened(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, embedding_model
) -> Iterator[tuple[Server, LogCapture]]:
    """A real server with ``max_batch`` = 3, and a capture of what it logs once ready."""
    index: Path = request.getfixturevalue("small_index")
    root = fresh_root(tmp_path_factory.mktemp("hardening"), index)
    settings = replace(server_settings(root), max_batch=MAX_BATCH)
    with running_server(settings, embedding_model) as srv:
        # uvicorn configures its loggers when the server is created; attach afterwards.
        # Its "Exception in ASGI application" records go to "uvicorn" (not propagated).
        capture = LogCapture()
        loggers = [logging.getLogger(), logging.getLogger("uvicorn")]
        for lg in loggers:
            lg.addHandler(capture)
        try:
            yield srv, capture
        finally:
            for lg in loggers:
                lg.removeHandler(capture)


@pytest.fixture(scope="module")
def client(hardened: tuple[Server, LogCapture]) -> Iterator[httpx.Client]:
    """One keep-alive client for the whole module."""
    srv, _ = hardened
    with httpx.Client(base_url=srv.url, headers=auth(PUBLIC_TOKEN), timeout=120.0) as c:
        yield c


def local_port(response: httpx.Response) -> int:
    """The client-side port of the connection a response came over."""
    stream = response.extensions["network_stream"]
    return int(stream.get_extra_info("client_addr")[1])


def post_raw(client: httpx.Client, path: str, body: bytes) -> httpx.Response:
    return client.post(path, content=body, headers={"content-type": "application/json"})


def assert_valid_invoke(client: httpx.Client, port: int) -> None:
    """A valid question on the same client succeeds, over the same connection."""
    r = client.post("/rag/invoke", json=VALID)
    assert r.status_code == 200, r.text[:300]
    assert r.json()["output"]["status"] in ("answered", "no_evidence")
    assert local_port(r) == port, "the connection was dropped after the refused request"


def assert_no_traceback(capture: LogCapture, start: int) -> None:
    logged = capture.since(start)
    assert "Traceback" not in logged, logged[-3000:]


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_body_gets_a_json_4xx_and_keeps_the_connection(
    client: httpx.Client, hardened: tuple[Server, LogCapture], case: str
):
    _, capture = hardened
    path, body, status = MALFORMED[case]
    warm = client.post("/rag/invoke", json=VALID)  # open (or reuse) the connection
    assert warm.status_code == 200, warm.text[:300]
    port = local_port(warm)
    logged_before = len(capture.lines)

    r = post_raw(client, path, body)
    assert r.status_code == status, (case, r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json")
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail
    assert r.headers.get("connection", "").lower() != "close"
    assert local_port(r) == port

    assert_valid_invoke(client, port)
    assert_no_traceback(capture, logged_before)


def test_errors_name_what_is_wrong(client: httpx.Client):
    expectations = {
        "lone-surrogate": "surrogate",
        "invalid-utf8": "not valid UTF-8",
        "nan-in-input": "NaN",
        "minus-infinity-in-configurable": "-Infinity",
        "nested-2000-deep": "nested deeper than 64 levels",
        "input-is-a-number": "'input' must be an object",
        "config-is-a-list": "'config' must be an object",
        "batch-empty-question": "inputs[1].question",
        "batch-blank-question": "must not be blank",
        "batch-no-question": "inputs[0].question: Field required",
    }
    for case, words in expectations.items():
        path, body, _ = MALFORMED[case]
        detail = post_raw(client, path, body).json()["detail"]
        assert words in detail, (case, detail)


def test_batch_over_the_cap_is_413_naming_the_limit(
    client: httpx.Client, hardened: tuple[Server, LogCapture]
):
    _, capture = hardened
    warm = client.post("/rag/invoke", json=VALID)
    port = local_port(warm)
    logged_before = len(capture.lines)
    over = {"inputs": [{"question": QUESTION}] * (MAX_BATCH + 1)}
    r = client.post("/rag/batch", json=over)
    assert r.status_code == 413, r.text[:300]
    detail = r.json()["detail"]
    assert f"limit of {MAX_BATCH}" in detail and "max_batch" in detail
    assert local_port(r) == port
    assert_valid_invoke(client, port)
    assert_no_traceback(capture, logged_before)


def test_batch_at_the_cap_is_answered(client: httpx.Client):
    at_cap = {"inputs": [{"question": QUESTION}] * MAX_BATCH}
    r = client.post("/rag/batch", json=at_cap)
    assert r.status_code == 200, r.text[:300]
    outputs = r.json()["output"]
    assert len(outputs) == MAX_BATCH
    assert all(o["status"] in ("answered", "no_evidence") for o in outputs)


def test_valid_bodies_still_reach_langserve_validation(client: httpx.Client):
    """Well-formed JSON the hardening lets through is still validated by LangServe (422)."""
    bad_knob: dict[str, Any] = {**VALID, "config": {"configurable": {"k": "many"}}}
    r = client.post("/rag/invoke", json=bad_knob)
    assert r.status_code == 422
    r = client.post("/rag/invoke", content=json.dumps({"input": {"question": ""}}))
    assert r.status_code == 422  # no content type: still JSON to LangServe, still checked


def test_unauthenticated_malformed_body_is_401(hardened: tuple[Server, LogCapture]):
    """Authentication runs before the body is read."""
    srv, _ = hardened
    r = httpx.post(f"{srv.url}/rag/invoke", content=b'{"input": NaN}')
    assert r.status_code == 401

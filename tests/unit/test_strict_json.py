"""Strict JSON at the HTTP edge (:mod:`citerag.server.hardening`): the pure checks, and the
middleware around a tiny echo app (no model, no index, no network)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from citerag.server.hardening import (
    MAX_JSON_DEPTH,
    BodyError,
    StrictJSONMiddleware,
    check_langserve_body,
    json_depth,
    langserve_endpoint,
    parse_strict_json,
)


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


# -- parse_strict_json ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"input": {"question": "\\ud800"}}', "lone UTF-16 surrogate"),
        (b'{"input": {"question": "\\udc00\\ud800"}}', "lone UTF-16 surrogate"),
        (b'{"\\udfff": 1}', "lone UTF-16 surrogate"),
        (b'{"input": {"question": "caf\xe9"}}', "not valid UTF-8: byte 0xe9 at offset 27"),
        (b'"\xed\xa0\x80"', "not valid UTF-8"),  # a surrogate encoded as UTF-8 bytes
        (b'{"config": {"configurable": {"k": NaN}}}', "NaN is not a JSON number"),
        (b'{"x": Infinity}', "Infinity is not a JSON number"),
        (b'{"x": -Infinity}', "-Infinity is not a JSON number"),
        (b'{"x": 1e999}', "out of range"),
        (nested(2000), f"nested deeper than {MAX_JSON_DEPTH} levels"),
        (nested(MAX_JSON_DEPTH + 1), f"nested deeper than {MAX_JSON_DEPTH} levels"),
        (b"", "empty body"),
        (b"  \n", "empty body"),
        (b'{"input": ', "invalid JSON body"),
        (b'{"a": 1} trailing', "invalid JSON body"),
    ],
)
def test_malformed_bodies_are_refused_with_a_reason(body: bytes, words: str):
    with pytest.raises(BodyError) as info:
        parse_strict_json(body)
    assert info.value.status == 422
    assert words in info.value.detail
    json.dumps({"detail": info.value.detail}).encode("utf-8")  # the reply always encodes


def test_strict_json_accepts_what_clients_legitimately_send():
    body = {
        "input": {"question": "Café 😀 [[{", "filters": {"$and": [{"a": {"$in": [1, 2.5]}}]}},
        "config": {"configurable": {"k": 10, "retrieval_mode": "bm25"}},
    }
    assert parse_strict_json(json.dumps(body).encode()) == body
    assert parse_strict_json(json.dumps(body, ensure_ascii=False).encode()) == body
    assert parse_strict_json(b'"\\ud83d\\ude00"') == "😀"  # a proper surrogate pair
    assert parse_strict_json(nested(MAX_JSON_DEPTH)) == json.loads(nested(MAX_JSON_DEPTH))


def test_json_depth_counts_containers_without_recursion():
    assert json_depth(1) == 0 and json_depth("[[[") == 0
    assert json_depth({"a": [1, {"b": []}]}) == 4
    deep: Any = []
    for _ in range(5000):  # deeper than Python's recursion limit
        deep = [deep]
    assert json_depth(deep) == 5001
    assert json_depth(deep, limit=10) == 11


# -- check_langserve_body ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("endpoint", "body", "words"),
    [
        ("invoke", {"input": 5}, "'input' must be an object, not a number"),
        ("stream", {"input": "hi"}, "'input' must be an object, not a string"),
        ("invoke", {"input": None}, "'input' must be an object, not null"),
        ("invoke", {"question": "hi"}, "'input' is required"),
        ("invoke", [{"input": {}}], "the body must be a JSON object, not an array"),
        ("invoke", {"input": {"question": "q"}, "config": []}, "'config' must be an object"),
        ("stream_events", {"input": {}, "config": "x"}, "'config' must be an object"),
        ("invoke", {"input": {}, "config": {"configurable": [1]}}, "'config.configurable'"),
        ("batch", {"inputs": {"question": "q"}}, "'inputs' must be an array, not an object"),
        ("batch", {"input": {"question": "q"}}, "'inputs' is required"),
        ("batch", {"inputs": [{"question": "q"}, 7]}, "'inputs[1]' must be an object"),
        ("batch", {"inputs": [{}], "config": 3}, "'config' must be an object"),
        ("batch", {"inputs": [{}], "config": [[]]}, "'config[0]' must be an object"),
        ("batch", {"inputs": [{}], "config": [{"configurable": 1}]}, "'config[0].configurable'"),
    ],
)
def test_wrong_shapes_are_422(endpoint: str, body: Any, words: str):
    with pytest.raises(BodyError) as info:
        check_langserve_body(endpoint, body, max_batch=4)
    assert info.value.status == 422
    assert words in info.value.detail


def test_batch_cap_is_413_naming_the_limit():
    inputs = [{"question": "q"}] * 5
    with pytest.raises(BodyError) as info:
        check_langserve_body("batch", {"inputs": inputs}, max_batch=4)
    assert info.value.status == 413
    assert "5 inputs" in info.value.detail and "limit of 4 (max_batch)" in info.value.detail
    check_langserve_body("batch", {"inputs": inputs[:4]}, max_batch=4)  # at the cap: fine


@pytest.mark.parametrize(
    ("endpoint", "body"),
    [
        ("invoke", {"input": {"question": "q"}}),
        ("invoke", {"input": {"question": "q"}, "config": None, "kwargs": {}}),
        ("stream_log", {"input": {}, "config": {"configurable": None}, "include_names": []}),
        ("batch", {"inputs": [], "config": [{"configurable": {"k": 3}}]}),
        ("batch", {"inputs": [{"question": "q"}], "config": {"configurable": {}}}),
    ],
)
def test_well_shaped_bodies_pass(endpoint: str, body: Any):
    check_langserve_body(endpoint, body, max_batch=4)


def test_langserve_endpoint():
    assert langserve_endpoint("/rag/invoke", "/rag") == "invoke"
    assert langserve_endpoint("/rag/batch/", "/rag") == "batch"
    assert langserve_endpoint("/rag/c/abc123/stream_events", "/rag") == "stream_events"
    assert langserve_endpoint("/rag/input_schema", "/rag") is None
    assert langserve_endpoint("/ragged/invoke", "/rag") is None
    assert langserve_endpoint("/documents", "/rag") is None


# -- the middleware ------------------------------------------------------------------------


async def echo(scope: Any, receive: Any, send: Any) -> None:
    """Answer 200 with what the application received: the body, read to its end."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    payload = json.dumps({"path": scope["path"], "body": body.decode("latin-1")}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": payload})


@pytest.fixture
def client() -> TestClient:
    app = StrictJSONMiddleware(echo, max_body_bytes=1024, max_batch=2)
    return TestClient(app)


def test_middleware_replays_a_valid_body_to_the_app(client: TestClient):
    raw = b'{"input": {"question": "hi"}}'
    r = client.post("/rag/invoke", content=raw)  # LangServe paths: checked whatever the type
    assert r.status_code == 200 and r.json()["body"] == raw.decode()


@pytest.mark.parametrize(
    ("path", "raw", "status", "words"),
    [
        ("/rag/invoke", b'{"input": {"question": "\\ud800"}}', 422, "surrogate"),
        ("/rag/invoke", b'{"input": {"question": "\xff"}}', 422, "UTF-8"),
        ("/rag/invoke", b'{"input": {"question": "q"}, "config": []}', 422, "'config'"),
        ("/rag/stream", b'{"input": NaN}', 422, "NaN"),
        ("/rag/batch", b'{"inputs": [{}, {}, {}]}', 413, "max_batch"),
        ("/rag/invoke", b'{"input": "' + b"x" * 2000 + b'"}', 413, "max_request_kb"),
    ],
)
def test_middleware_refuses_with_json_detail(
    client: TestClient, path: str, raw: bytes, status: int, words: str
):
    r = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert r.status_code == status
    assert r.headers["content-type"] == "application/json"
    assert words in r.json()["detail"]


def test_middleware_checks_json_elsewhere_only_when_declared(client: TestClient):
    bad = b'{"a": NaN}'
    assert client.post("/other", content=bad).status_code == 200  # not JSON: not its business
    form = client.post("/other", data={"token": "x"})
    assert form.status_code == 200 and form.json()["body"] == "token=x"
    typed = client.post("/other", content=bad, headers={"content-type": "application/json"})
    assert typed.status_code == 422
    vendor = client.post("/other", content=bad, headers={"content-type": "application/x+json"})
    assert vendor.status_code == 422
    assert client.get("/rag/input_schema").status_code == 200
    # Only LangServe endpoints that take a body are checked whatever the content type.
    assert client.post("/rag/input_schema", content=bad).status_code == 200


# -- the max_batch setting -----------------------------------------------------------------


def test_max_batch_setting_default_toml_env_and_validation(tmp_path):
    from citerag.server.settings import ServerSettings, load_settings

    assert ServerSettings().max_batch == 32
    toml = tmp_path / "server.toml"
    toml.write_text("[limits]\nmax_batch = 8\n", encoding="utf-8")
    assert load_settings(toml, env={}).max_batch == 8
    assert load_settings(toml, env={"CITERAG_MAX_BATCH": "3"}).max_batch == 3
    with pytest.raises(ValueError, match="max_batch must be >= 1"):
        load_settings(env={"CITERAG_MAX_BATCH": "0"})
    with pytest.raises(ValueError, match="max_batch must be a number"):
        load_settings(env={"CITERAG_MAX_BATCH": "many"})

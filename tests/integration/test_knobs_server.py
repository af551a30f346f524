"""One knob, one behaviour, over HTTP: ``number_check`` and ``k`` through a real uvicorn.

The same bounds and the same effect as in Python and ``citerag ask`` (``test_knobs.py``):
``k`` is 1..200 everywhere; ``number_check`` is honoured when the server lists it as
client-tunable and refused with 422 (the server's default stays) when it does not.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from tests.integration.test_server import (
    PUBLIC_TOKEN,
    running_server,
    server_settings,
    write_tokens,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the .model_fields. attribute:DeprecationWarning"),
]

NEAR_MISS = "What was Northwind's total revenue in 2014?"


def _root(tmp_path: Path, sample_index: Path) -> Path:
    shutil.copytree(sample_index, tmp_path / "index", symlinks=True)
    write_tokens(tmp_path / "tokens.json")
    return tmp_path


def _invoke(client, configurable):
    return client.post(
        "/rag/invoke",
        json={"input": {"question": NEAR_MISS}, "config": {"configurable": configurable}},
    )


def test_number_check_and_k_over_http(tmp_path, sample_index, embedding_model):
    base = server_settings(_root(tmp_path, sample_index))
    listed = replace(base, client_config_keys=(*base.client_config_keys, "number_check"))
    with running_server(listed.validate(), embedding_model) as srv, srv.client(PUBLIC_TOKEN) as c:
        on = _invoke(c, {})
        off = _invoke(c, {"number_check": False, "k": 3})
        assert on.status_code == off.status_code == 200
        assert on.json()["output"]["status"] == "no_evidence"
        out = off.json()["output"]
        assert out["status"] == "answered"
        assert out["trace"]["config"]["number_check"] is False
        assert out["trace"]["config"]["k"] == 3 and out["trace"]["retrieval"]["found"] == 3
        too_deep = _invoke(c, {"k": 201})
        assert too_deep.status_code == 422 and "200" in too_deep.text
        assert _invoke(c, {"k": 200}).status_code == 200


def test_number_check_not_listed_is_refused(tmp_path, sample_index, embedding_model):
    settings = server_settings(_root(tmp_path, sample_index))
    assert "number_check" not in settings.client_config_keys
    with running_server(settings, embedding_model) as srv, srv.client(PUBLIC_TOKEN) as c:
        res = _invoke(c, {"number_check": False})
        assert res.status_code == 422  # the server's setting: refused, never silently ignored
        assert "'number_check' may not be set by clients" in res.json()["detail"]
        out = _invoke(c, {}).json()["output"]
        assert out["status"] == "no_evidence" and out["trace"]["config"]["number_check"] is True

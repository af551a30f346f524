"""The HTTP routes reference page is the one generated from the app's OpenAPI document."""

from __future__ import annotations

from pathlib import Path

import pytest

from citerag.server.routes_reference import (
    _auth_settings,
    reference_app,
    routes_reference_markdown,
)

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "http-routes.md"


@pytest.fixture(scope="module")
def app_spec():
    with reference_app() as app:
        assert not app.state.engine.model_loaded  # built without loading the model
        yield app.openapi(), _auth_settings(app)


def _rows(text: str) -> dict[tuple[str, str], list[str]]:
    out = {}
    for line in text.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        out[(cells[0], cells[1].strip("`"))] = cells
    return out


def test_docs_http_routes_are_the_generated_ones(app_spec):
    text = PAGE.read_text(encoding="utf-8")
    begin, end = "<!-- http-routes:begin -->", "<!-- http-routes:end -->"
    assert begin in text and end in text, "docs/reference/http-routes.md lacks the generated block"
    block = text.split(begin, 1)[1].split(end, 1)[0].strip()
    assert block == routes_reference_markdown(*app_spec), (
        "docs/reference/http-routes.md is stale: run python -m citerag.reference_pages"
    )


def test_every_operation_is_a_row(app_spec):
    spec, auth = app_spec
    rows = _rows(routes_reference_markdown(spec, auth))
    expected = {
        (method.upper(), path)
        for path, ops in spec["paths"].items()
        for method in ops
        if method in ("get", "post", "put", "patch", "delete")
    }
    assert set(rows) == expected
    for route in [("POST", "/rag/invoke"), ("POST", "/documents"), ("GET", "/metrics")]:
        assert route in rows, route


def test_auth_column_follows_the_middleware(app_spec):
    spec, auth = app_spec
    rows = _rows(routes_reference_markdown(spec, auth))
    assert rows[("GET", "/health")][3] == "public"
    assert rows[("GET", "/ready")][3] == "public"
    assert rows[("GET", "/metrics")][3] == "token"
    assert rows[("POST", "/rag/batch")][3] == "token"  # the viewer cookie is not accepted there
    assert "citerag_viewer" in rows[("POST", "/rag/invoke")][3]
    assert "citerag_viewer" in rows[("DELETE", "/documents/{doc_id}")][3]
    # a path made public in the middleware is public in the table
    opened = {**auth, "public_paths": [*auth["public_paths"], "/metrics"]}
    assert _rows(routes_reference_markdown(spec, opened))[("GET", "/metrics")][3] == "public"


def test_a_changed_route_changes_the_table(app_spec):
    spec, auth = app_spec
    changed = {**spec, "paths": {**spec["paths"], "/new": {"get": {"description": "New."}}}}
    assert "| GET | `/new` | New. | token | – | – |" in routes_reference_markdown(changed, auth)
    assert routes_reference_markdown(changed, auth) != routes_reference_markdown(spec, auth)


def test_the_upload_row_names_its_form_and_refusals(app_spec):
    rows = _rows(routes_reference_markdown(*app_spec))
    upload = rows[("POST", "/documents")]
    assert upload[4] == "multipart/form-data (`file`, `access`)"
    for status in ("202", "200", "403", "413", "415", "422", "503"):
        assert status in upload[5].split(", "), status

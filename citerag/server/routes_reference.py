"""The HTTP routes table of ``docs/reference/http-routes.md``, generated from the app's OpenAPI.

:func:`reference_app` builds the real application with :func:`~citerag.server.app.create_app`
and default settings in a temporary folder: nothing is loaded (the model and the index load in
the app's lifespan, which never runs here). :func:`routes_reference_markdown` renders one row
per operation of its OpenAPI document (method, path, summary, who may call it, request and
responses), the "who" read from the app's own
:class:`~citerag.server.auth.AuthMiddleware` settings, so the page cannot drift from the code:
a unit test compares the page's generated block with this function, and
``python -m citerag.reference_pages`` rewrites it.
"""

from __future__ import annotations

import json
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Methods in the order the table lists them within one path.
_METHODS = ("get", "post", "put", "patch", "delete")


def _cell(text: str) -> str:
    """One Markdown table cell: a single line, pipes and angle brackets escaped."""
    text = " ".join(text.split()).replace("|", "\\|")
    return text.replace("<", "&lt;").replace(">", "&gt;")


@contextmanager
def reference_app() -> Iterator[Any]:
    """The application as ``citerag serve`` builds it with default settings, unstarted.

    Yields:
        The FastAPI app, over an empty index folder, data folder and token file in a
        temporary folder removed afterwards (its lifespan never runs: no model, no index;
        the token file's one user has a random token nobody knows).
    """
    from citerag.server.app import create_app
    from citerag.server.settings import ServerSettings

    with tempfile.TemporaryDirectory(prefix="citerag-routes-") as tmp:
        root = Path(tmp)
        tokens = root / "tokens.json"
        user = {"user": "reference", "token": secrets.token_urlsafe(32), "groups": []}
        tokens.write_text(json.dumps({"users": [user]}), encoding="utf-8")
        settings = ServerSettings(
            index_dir=root / "index", data_dir=root / "data", tokens_file=tokens
        ).validate()
        app = create_app(settings, warmup=False)
        try:
            yield app
        finally:
            app.state.registry.close()
            app.state.feedback.close()
            app.state.conversations.close()


def _auth_settings(app: Any) -> dict[str, Any]:
    """The keyword arguments the app's :class:`~citerag.server.auth.AuthMiddleware` got."""
    from citerag.server.auth import AuthMiddleware

    for mw in app.user_middleware:
        if mw.cls is AuthMiddleware:
            return dict(mw.kwargs)
    raise ValueError("the app has no AuthMiddleware: every route would be public")


def _who(path: str, auth: dict[str, Any]) -> str:
    """Who may call ``path``: public, or a bearer token (and which cookies stand in for one),
    matched as :class:`~citerag.server.auth.AuthMiddleware` matches them."""
    from citerag.server.auth import PLAYGROUND_COOKIE, _path_matches

    if path in auth.get("public_paths", ()) or path.startswith(
        tuple(auth.get("public_prefixes", ()))
    ):
        return "public"
    accepted = list(auth.get("cookies", ()))
    if auth.get("cookie_prefix"):
        accepted.insert(0, (PLAYGROUND_COOKIE, (auth["cookie_prefix"],)))
    cookies = [name for name, prefixes in accepted if any(_path_matches(path, p) for p in prefixes)]
    return "token" + "".join(f" or `{c}` cookie" for c in cookies)


def _schema_name(content: dict[str, Any]) -> str:
    """The media type and the schema it names (or, inline, its fields: ``file``, ...)."""
    parts = []
    for media, body in content.items():
        schema = body.get("schema", {})
        ref = str(schema.get("$ref", ""))
        fields = ", ".join(f"`{name}`" for name in schema.get("properties", {}))
        if ref:
            parts.append(f"{media} `{ref.rsplit('/', 1)[-1]}`")
        elif fields:
            parts.append(f"{media} ({fields})")
        else:
            parts.append(media)
    return ", ".join(parts)


def _request(op: dict[str, Any]) -> str:
    """Query parameters and the body, as one cell."""
    parts = [f"`?{p['name']}`" for p in op.get("parameters", []) if p.get("in") == "query"]
    body = op.get("requestBody")
    if body:
        parts.append(_schema_name(body.get("content", {})))
    return _cell(", ".join(parts)) or "–"


def _responses(op: dict[str, Any]) -> str:
    """The status codes the operation declares."""
    return ", ".join(sorted(op.get("responses", {}))) or "–"


def _summary(op: dict[str, Any]) -> str:
    """The first paragraph of the handler's docstring (FastAPI's summary without one)."""
    text = str(op.get("description") or op.get("summary") or "")
    return _cell(text.split("\n\n", 1)[0].replace("``", "`"))


def routes_reference_markdown(spec: dict[str, Any], auth: dict[str, Any]) -> str:
    """The OpenAPI operations as one Markdown table.

    Args:
        spec: The app's OpenAPI document (``app.openapi()``).
        auth: The app's authentication settings (:func:`_auth_settings`).

    Returns:
        The block between the ``http-routes`` markers of ``docs/reference/http-routes.md``.
    """
    out = [
        "| method | path | what | auth | request | responses |",
        "|---|---|---|---|---|---|",
    ]
    for path, ops in spec.get("paths", {}).items():
        for method in _METHODS:
            op = ops.get(method)
            if op is None:
                continue
            out.append(
                f"| {method.upper()} | `{path}` | {_summary(op)} | {_who(path, auth)} "
                f"| {_request(op)} | {_responses(op)} |"
            )
    return "\n".join(out)


def app_routes_reference() -> str:
    """:func:`routes_reference_markdown` of the app ``citerag serve`` builds by default."""
    with reference_app() as app:
        return routes_reference_markdown(app.openapi(), _auth_settings(app))

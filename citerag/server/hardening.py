"""Strict JSON at the HTTP edge: malformed request bodies get a 4xx, never a 500.

Python's ``json`` (which Starlette and LangServe use) accepts ``NaN`` and ``Infinity``, turns
``1e999`` into infinity, keeps lone surrogates such as ``"\\ud800"`` (which later fail to
encode, also in the error response that echoes them), raises ``RecursionError`` on deeply
nested input and ``UnicodeDecodeError`` on invalid UTF-8. Each of these used to end in an
HTTP 500 with a traceback and a dropped connection; so could a body of the wrong shape
(``"input": 5``, ``"config": []``), which LangServe only partly validates.

:class:`StrictJSONMiddleware` reads the body of every ``POST`` to the LangServe endpoints
that take a body (and of any other ``POST`` declaring a JSON content type) before the
application sees it, checks it with :func:`parse_strict_json` and, for the LangServe
endpoints, the request shape with :func:`check_langserve_body` (including the batch size
cap), then replays the buffered body to the application. A refused body gets a JSON error
``{"detail": "..."}``:

* 413: the body is larger than ``max_request_kb``, or a batch has more than ``max_batch``
  inputs;
* 422: anything else (not UTF-8, not JSON, ``NaN``/``Infinity``/out-of-range numbers, a lone
  surrogate, nesting deeper than :data:`MAX_JSON_DEPTH`, wrong types for ``input``,
  ``inputs``, ``config`` or ``configurable``).

The body is read completely before answering (except when it is too large), so the
keep-alive connection stays usable.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from citerag.server.auth import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

#: Deepest accepted nesting of JSON arrays and objects (a question with filters and a
#: config needs fewer than 20 levels).
MAX_JSON_DEPTH = 64
#: LangServe endpoints whose request shape is checked (last path segment).
LANGSERVE_BODY_ENDPOINTS = frozenset({"invoke", "batch", "stream", "stream_log", "stream_events"})

#: Non-finite number spellings some encoders emit (``json.dumps`` does by default).
_NON_FINITE = (b"-Infinity", b"Infinity", b"NaN")
#: What the parser's own messages mean, in words a client can act on.
_PARSER_HINTS = {
    "no low surrogate in string": "a string holds a lone UTF-16 surrogate escape",
    "invalid high surrogate in string": "a string holds a lone UTF-16 surrogate escape",
    "number is infinity when parsed as double": "a number is out of range",
}


class BodyError(ValueError):
    """A request body the server refuses.

    Attributes:
        status: HTTP status to answer with (413 or 422).
        detail: What is wrong, for the client (never echoes undecodable input).
    """

    def __init__(self, status: int, detail: str) -> None:
        """Record the status and the explanation.

        Args:
            status: HTTP status to answer with.
            detail: What is wrong.
        """
        super().__init__(detail)
        self.status = status
        self.detail = detail


def json_depth(value: Any, *, limit: int | None = None) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (a scalar is 0).

    Walks level by level, without recursion.

    Args:
        value: A parsed JSON value.
        limit: Stop counting once the depth exceeds this (the result is then ``limit + 1``).

    Returns:
        The nesting depth.
    """
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level and (limit is None or depth <= limit):
        depth += 1
        nxt: list[Any] = []
        for node in level:
            children = node.values() if isinstance(node, dict) else node
            nxt.extend(c for c in children if isinstance(c, dict | list))
        level = nxt
    return depth


def _non_finite_at(body: bytes, pos: int) -> bytes | None:
    """The ``NaN``/``Infinity`` spelling at or just before a parse error, if any."""
    for start in (pos - 1, pos):
        if start < 0:
            continue
        for word in _NON_FINITE:
            if body.startswith(word, start):
                return word
    return None


def parse_strict_json(body: bytes, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse a request body as strict JSON (RFC 8259).

    Uses orjson, which rejects ``NaN``/``Infinity``, numbers beyond the float range, lone
    surrogate escapes and invalid UTF-8, and stops at 1,024 levels without recursing in
    Python; the tighter ``max_depth`` is checked on the result.

    Args:
        body: The raw request body.
        max_depth: Deepest accepted nesting of arrays and objects.

    Returns:
        The parsed value.

    Raises:
        BodyError: (422) The body is empty, not UTF-8, not JSON, holds ``NaN``,
            ``Infinity``, a number out of the float range or a lone surrogate, or nests
            deeper than ``max_depth``.
    """
    if not body.strip():
        raise BodyError(422, "empty body: expected a JSON object")
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(
            422,
            f"body is not valid UTF-8: byte 0x{body[exc.start]:02x} at offset {exc.start}",
        ) from None
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        word = _non_finite_at(body, exc.pos)
        if word is not None:
            what = f"{word.decode()} is not a JSON number"
        elif exc.msg == "depth limit exceeded":
            what = f"nested deeper than {max_depth} levels"
        else:
            what = _PARSER_HINTS.get(exc.msg, exc.msg)
        raise BodyError(
            422, f"invalid JSON body: {what} (line {exc.lineno}, column {exc.colno})"
        ) from None
    if json_depth(value, limit=max_depth) > max_depth:
        raise BodyError(422, f"invalid JSON body: nested deeper than {max_depth} levels")
    return value


def _check_config(config: Any, where: str) -> None:
    if config is None:
        return
    if not isinstance(config, dict):
        raise BodyError(422, f"'{where}' must be an object, not {_type_name(config)}")
    configurable = config.get("configurable")
    if configurable is not None and not isinstance(configurable, dict):
        raise BodyError(
            422, f"'{where}.configurable' must be an object, not {_type_name(configurable)}"
        )


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def check_langserve_body(
    endpoint: str, body: Any, *, max_batch: int, input_model: type[BaseModel] | None = None
) -> None:
    """Check the shape of a LangServe request body (types only; values are LangServe's).

    ``invoke``, ``stream``, ``stream_log`` and ``stream_events`` take
    ``{"input": {...}, "config": {...}}``; ``batch`` takes ``{"inputs": [{...}, ...],
    "config": {...} | [{...}, ...]}``. ``config`` may be omitted or ``null``; its
    ``configurable`` must be an object if given.

    Args:
        endpoint: The endpoint name (one of :data:`LANGSERVE_BODY_ENDPOINTS`).
        body: The parsed body.
        max_batch: Most inputs accepted in one batch.
        input_model: The input schema each of a batch's inputs must satisfy (LangServe
            answers a single input that fails it with 422 itself, but fails a batch with a
            500): checked here, so a bad input of a batch is a 422 naming it.

    Raises:
        BodyError: 413 for a batch larger than ``max_batch``; 422 for a wrong type.
    """
    if not isinstance(body, dict):
        raise BodyError(422, f"the body must be a JSON object, not {_type_name(body)}")
    if endpoint == "batch":
        if "inputs" not in body:
            raise BodyError(422, "'inputs' is required: a list of inputs")
        inputs = body["inputs"]
        if not isinstance(inputs, list):
            raise BodyError(422, f"'inputs' must be an array, not {_type_name(inputs)}")
        if len(inputs) > max_batch:
            raise BodyError(
                413,
                f"batch of {len(inputs)} inputs is over the limit of {max_batch} "
                "(max_batch); split it into smaller batches",
            )
        for i, item in enumerate(inputs):
            if not isinstance(item, dict):
                raise BodyError(422, f"'inputs[{i}]' must be an object, not {_type_name(item)}")
            if input_model is not None:
                _check_input(input_model, item, f"inputs[{i}]")
        config = body.get("config")
        if isinstance(config, list):
            for i, item in enumerate(config):
                _check_config(item, f"config[{i}]")
        else:
            _check_config(config, "config")
        return
    if "input" not in body:
        raise BodyError(422, '\'input\' is required, e.g. {"input": {"question": "..."}}')
    if not isinstance(body["input"], dict):
        raise BodyError(422, f"'input' must be an object, not {_type_name(body['input'])}")
    _check_config(body.get("config"), "config")


def _check_input(model: type[BaseModel], item: dict[str, Any], where: str) -> None:
    """Validate one input against the input schema; a failure is a 422 naming the field."""
    try:
        model.model_validate(item)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join([where, *(str(part) for part in err['loc'])])}: {err['msg']}"
            for err in exc.errors(include_input=False)[:5]
        )
        raise BodyError(422, problems) from None


def langserve_endpoint(path: str, prefix: str) -> str | None:
    """The LangServe endpoint a path addresses, if its body shape is checked.

    Args:
        path: The request path, e.g. ``/rag/invoke`` or ``/rag/c/<hash>/batch``.
        prefix: Where the LangServe routes are mounted, e.g. ``/rag``.

    Returns:
        One of :data:`LANGSERVE_BODY_ENDPOINTS`, or ``None``.
    """
    if not path.startswith(prefix.rstrip("/") + "/"):
        return None
    last = path.rstrip("/").rsplit("/", 1)[-1]
    return last if last in LANGSERVE_BODY_ENDPOINTS else None


def _is_json_type(headers: list[tuple[bytes, bytes]]) -> bool:
    for name, value in headers:
        if name.lower() == b"content-type":
            media = value.split(b";", 1)[0].strip().lower()
            return media == b"application/json" or media.endswith(b"+json")
    return False


def _declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class StrictJSONMiddleware:
    """Refuse malformed JSON request bodies with a 4xx before the application reads them."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        max_batch: int,
        langserve_prefix: str = "/rag",
        max_depth: int = MAX_JSON_DEPTH,
        input_model: type[BaseModel] | None = None,
    ) -> None:
        """Wrap an ASGI app.

        Args:
            app: The application.
            max_body_bytes: Largest accepted body (larger ones get 413).
            max_batch: Most inputs accepted by a LangServe ``batch`` (more get 413).
            langserve_prefix: Where the LangServe routes are mounted: a ``POST`` to one of
                :data:`LANGSERVE_BODY_ENDPOINTS` below it is checked whatever its content
                type (LangServe parses it as JSON whatever the client declares).
            max_depth: Deepest accepted JSON nesting.
            input_model: The LangServe input schema a batch's inputs are checked against
                (:func:`check_langserve_body`).
        """
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_batch = max_batch
        self.prefix = langserve_prefix.rstrip("/") + "/"
        self.max_depth = max_depth
        self.input_model = input_model

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check ``POST`` bodies bound for JSON handlers; pass everything else through."""
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        headers = list(scope.get("headers") or [])
        endpoint = langserve_endpoint(path, self.prefix)
        if endpoint is None and not _is_json_type(headers):
            await self.app(scope, receive, send)
            return
        declared = _declared_length(headers)
        if declared is not None and declared > self.max_body_bytes:
            await self._refuse(scope, send, BodyError(413, self._too_large()), close=True)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client went away; nobody to answer
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > self.max_body_bytes:
                await self._refuse(scope, send, BodyError(413, self._too_large()), close=True)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:
            value = parse_strict_json(body, max_depth=self.max_depth)
            if endpoint is not None:
                check_langserve_body(
                    endpoint, value, max_batch=self.max_batch, input_model=self.input_model
                )
        except BodyError as exc:
            await self._refuse(scope, send, exc)
            return

        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _too_large(self) -> str:
        return f"request body is larger than {self.max_body_bytes // 1024} KiB (max_request_kb)"

    async def _refuse(
        self, scope: Scope, send: Send, error: BodyError, close: bool = False
    ) -> None:
        """Answer with ``{"detail": ...}``; ``close`` when the body was not read to its end."""
        log.info(
            "refused %s %s: %d %s", scope.get("method"), scope.get("path"), error.status, error
        )
        payload = json.dumps({"detail": error.detail}).encode("ascii")
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode("ascii")),
        ]
        if close:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": error.status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})

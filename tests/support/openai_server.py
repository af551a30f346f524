"""A scripted OpenAI-compatible chat server on 127.0.0.1, for driving the real client.

The tests talk to it through ``langchain-openai``'s real ``ChatOpenAI`` over HTTP, so what
they check (timeouts, stalls between tokens, 401/429/500 answers, token order) is what the
real client does on a real socket. Each request to ``/v1/chat/completions`` takes the next
step of the script:

* :func:`reply` — a completion, streamed as server-sent events in pieces of ``chunk``
  characters when the request asks to stream, else one JSON body; its text may be a function
  of the request's messages;
* :func:`stall` — accept and never answer (``after`` pieces of a reply first: a stall
  mid-stream);
* :func:`hold` — stream part of a reply, wait for :meth:`ScriptedOpenAIServer.proceed`,
  then the rest;
* :func:`error` — an HTTP error with an OpenAI-shaped body;
* :func:`cut` — send part of a reply, then close the connection in the middle of it;
* :func:`garbled` — a 200 whose body (or streamed event) is not JSON;
* :func:`unstreamed` — a reply as one JSON body even when the request asks to stream (a
  server or proxy that ignores ``stream=true``).

Stalled handlers wait on an event that :meth:`ScriptedOpenAIServer.close` sets, so closing
the server releases them; nothing sleeps.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

Text = str | Callable[[list[BaseMessage]], str]


@dataclass(frozen=True)
class Step:
    """One scripted response.

    Attributes:
        kind: ``reply``, ``stall`` or ``error``.
        text: The reply (or a function of the request's messages).
        chunk: Characters per streamed piece.
        after: For ``stall``: pieces of ``text`` sent before stalling.
        status: For ``error``: the HTTP status.
        pace_s: Seconds between streamed pieces (a model's generation speed, for the
            benchmarks' time-to-first-token; tests leave it 0).
    """

    kind: str
    text: Text = ""
    chunk: int = 8
    after: int = 0
    status: int = 200
    pace_s: float = 0.0


def reply(text: Text, chunk: int = 8, pace_s: float = 0.0) -> Step:
    """A completion (streamed in pieces of ``chunk`` characters when asked to stream, one
    every ``pace_s`` seconds)."""
    return Step("reply", text, chunk, pace_s=pace_s)


def stall(text: Text = "", after: int = 0, chunk: int = 8) -> Step:
    """Never finish: send ``after`` pieces of ``text`` (as a stream), then nothing."""
    return Step("stall", text, chunk, after)


def hold(text: Text, after: int, chunk: int = 8) -> Step:
    """Stream ``after`` pieces of ``text``, wait until :meth:`ScriptedOpenAIServer.proceed`
    is called, then stream the rest (lets a test look at a half-written answer)."""
    return Step("hold", text, chunk, after)


def error(status: int, message: str = "scripted error") -> Step:
    """An HTTP error with an OpenAI-shaped JSON body."""
    return Step("error", message, status=status)


def cut(text: Text, after: int = 1, chunk: int = 8) -> Step:
    """Stream ``after`` pieces of ``text`` (a body promised longer), then close the connection
    (a request that does not stream gets the whole reply)."""
    return Step("cut", text, chunk, after)


def garbled() -> Step:
    """A 200 reply that is not JSON (as the body, or as a streamed event)."""
    return Step("garbled")


def unstreamed(text: Text) -> Step:
    """A completion as one JSON body, whether or not the request asks to stream."""
    return Step("unstreamed", text)


def _messages(body: dict[str, Any]) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for m in body.get("messages") or []:
        content = m.get("content") or ""
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        role = m.get("role")
        cls = {"system": SystemMessage, "assistant": AIMessage}.get(role, HumanMessage)
        out.append(cls(content=content))
    return out


@dataclass
class ScriptedOpenAIServer:
    """The server, its script and what it received.

    Attributes:
        script: Steps, one per request; the last one repeats.
        requests: The JSON body of every chat request the script answered, in order.
        base_url: ``http://127.0.0.1:PORT/v1``, once started.
        structured: Whether requests for structured output (``response_format``, ``tools``)
            are served (their replies are the script's: give JSON text); ``False``, like many
            local servers, answers them 400 without taking a step, and records them in
            ``refused_formats``.
    """

    script: list[Step] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = ""
    structured: bool = False
    refused_formats: list[dict[str, Any]] = field(default_factory=list)
    _release: threading.Event = field(default_factory=threading.Event)
    _proceed: threading.Event = field(default_factory=threading.Event)
    received: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _httpd: ThreadingHTTPServer | None = None

    def start(self) -> ScriptedOpenAIServer:
        """Listen on a free port of 127.0.0.1 in a daemon thread."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                body = json.dumps({"object": "list", "data": [{"id": "scripted"}]}).encode()
                self._send(200, body, "application/json")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not server.structured and (body.get("response_format") or body.get("tools")):
                    with server._lock:
                        server.refused_formats.append(body)
                    payload = {"error": {"message": "response_format is not supported"}}
                    self._send(400, json.dumps(payload).encode(), "application/json")
                    return
                step = server._next(body)
                if step.kind == "error":
                    payload = {
                        "error": {
                            "message": str(step.text),
                            "type": "scripted",
                            "code": step.status,
                        }
                    }
                    self._send(step.status, json.dumps(payload).encode(), "application/json")
                    return
                if step.kind == "garbled":
                    raw = b"data: {not json\n\n" if body.get("stream") else b"{not json"
                    self._send(200, raw, "text/event-stream" if body.get("stream") else "text/json")
                    return
                text = step.text(_messages(body)) if callable(step.text) else step.text
                pieces = [text[i : i + step.chunk] for i in range(0, len(text), step.chunk)]
                if step.kind == "stall" and not body.get("stream"):
                    server._release.wait()
                    return
                if not body.get("stream") or step.kind == "unstreamed":
                    self._send(
                        200, json.dumps(_completion(body, text)).encode(), "application/json"
                    )
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                if step.kind == "cut":  # a body promised longer than what is sent
                    self.send_header("Content-Length", str(1 << 20))
                self.end_headers()
                limit = step.after if step.kind in ("stall", "cut") else len(pieces)
                try:
                    for n, piece in enumerate(pieces[:limit]):
                        if step.kind == "hold" and n == step.after:
                            server._proceed.wait()
                        if step.pace_s and n:
                            time.sleep(step.pace_s)  # a model's pace, not synchronisation
                        self._event(_chunk(body, piece))
                    if step.kind == "stall":
                        server._release.wait()
                        return
                    if step.kind == "cut":
                        self.close_connection = True
                        self.connection.shutdown(socket.SHUT_RDWR)
                        return
                    self._event(_chunk(body, None, finish="stop"))
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):  # the client gave up
                    return

            def _event(self, payload: dict[str, Any]) -> None:
                self.wfile.write(b"data: " + json.dumps(payload).encode() + b"\n\n")
                self.wfile.flush()

            def _send(self, status: int, body: bytes, ctype: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        self._httpd = httpd
        self.base_url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
        threading.Thread(target=httpd.serve_forever, name="scripted-openai", daemon=True).start()
        return self

    def set_script(self, *steps: Step, structured: bool | None = None) -> None:
        """Replace the script (and forget earlier requests); ``structured`` switches the
        serving of structured-output requests."""
        with self._lock:
            self.script = list(steps)
            self.requests.clear()
            self.refused_formats.clear()
            self._proceed.clear()
            self.received.clear()
            if structured is not None:
                self.structured = structured

    def _next(self, body: dict[str, Any]) -> Step:
        with self._lock:
            n = len(self.requests)
            self.requests.append(body)
            self.received.set()
            if not self.script:
                return reply("")
            return self.script[min(n, len(self.script) - 1)]

    def proceed(self) -> None:
        """Let a held reply (:func:`hold`) stream the rest."""
        self._proceed.set()

    def close(self) -> None:
        """Release stalled handlers and stop listening."""
        self._release.set()
        self._proceed.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()


def _completion(body: dict[str, Any], text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "scripted"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _chunk(body: dict[str, Any], piece: str | None, finish: str | None = None) -> dict[str, Any]:
    delta: dict[str, Any] = {} if piece is None else {"role": "assistant", "content": piece}
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "scripted"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


@pytest.fixture(scope="module")
def scripted_openai() -> Iterator[ScriptedOpenAIServer]:
    """A started :class:`ScriptedOpenAIServer` for a test module (closed after it)."""
    server = ScriptedOpenAIServer().start()
    yield server
    server.close()


@contextlib.contextmanager
def serving_chat_model(
    root: Path, index: Path, embedding_model: Any, endpoint: ScriptedOpenAIServer, **knobs: Any
) -> Iterator[Any]:
    """A real ``citerag`` server (uvicorn on 127.0.0.1) over a copy of ``index`` whose answer
    model is ``endpoint``, configured as a user's ``[model]`` settings would (``knobs``: more
    server-side defaults such as ``model_timeout_s``); the provider's variables unset."""
    from dataclasses import replace

    from tests.integration.test_server import running_server, server_settings, write_tokens

    shutil.copytree(index, root / "index", symlinks=True)
    write_tokens(root / "tokens.json")
    settings = replace(
        server_settings(root),
        model="openai:scripted-model",
        rag_defaults={"model_base_url": endpoint.base_url, "model_max_retries": 0, **knobs},
    ).validate()
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("OPENAI_API_KEY", raising=False)
        mp.delenv("OPENAI_BASE_URL", raising=False)
        with running_server(settings, embedding_model) as srv:
            yield srv

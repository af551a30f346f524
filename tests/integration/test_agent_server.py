"""The graph on a real LangGraph Agent Server (``langgraph dev`` on 127.0.0.1), driven by the
``langgraph_sdk`` client: bearer tokens from the citerag token file, per-user threads,
follow-ups, streaming, and no restricted text for a user without the label."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.integration

langgraph_sdk = pytest.importorskip("langgraph_sdk")
if shutil.which("langgraph", path=str(Path(sys.executable).parent)) is None:
    pytest.skip("langgraph-cli[inmem] is not installed (make setup)", allow_module_level=True)

from langgraph_sdk import get_sync_client  # noqa: E402

ALICE = "alice-token-0123456789abcdef"  # no groups
BOB = "bob-token-0123456789abcdef-board"  # board
#: Text only the board-restricted minutes hold.
CANARIES = ("1.65 million", "Ridgeback Meadow", "Calder Renewables", "Heron Community Bond")
READY_TIMEOUT_S = 180.0
GRAPH = "citerag"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _agent_server(work: Path, index: Path, repo_root: Path, **env_extra: str) -> Iterator[str]:
    """``langgraph dev`` over ``index`` in ``work``; its URL. Stopped (process group) after."""
    tokens = work / "tokens.json"
    tokens.write_text(
        json.dumps(
            {
                "users": [
                    {"user": "alice", "token": ALICE, "groups": []},
                    {"user": "bob", "token": BOB, "groups": ["board"]},
                ]
            }
        ),
        encoding="utf-8",
    )
    # the repository's langgraph.json with its paths made absolute (the server runs, and keeps
    # its .langgraph_api folder, in a temporary directory)
    config = json.loads((repo_root / "langgraph.json").read_text(encoding="utf-8"))
    config["graphs"] = {
        k: str(repo_root / v.removeprefix("./")) for k, v in config["graphs"].items()
    }
    config["auth"]["path"] = str(repo_root / config["auth"]["path"].removeprefix("./"))
    config["dependencies"] = [str(repo_root)]
    (work / "langgraph.json").write_text(json.dumps(config), encoding="utf-8")
    port = _free_port()
    env = {
        **os.environ,
        "CITERAG_INDEX": str(index),
        "CITERAG_TOKENS": str(tokens),
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
        **env_extra,
    }
    cmd = [
        str(Path(sys.executable).parent / "langgraph"),
        "dev",
        "--no-browser",
        "--no-reload",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--config",
        str(work / "langgraph.json"),
    ]
    log = (work / "server.log").open("wb")
    proc = subprocess.Popen(
        cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"langgraph dev exited {proc.returncode}:\n{_tail(work)}")
            try:
                if httpx.get(f"{url}/ok", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev not ready in {READY_TIMEOUT_S:.0f} s:\n{_tail(work)}")
            time.sleep(0.25)  # polling interval while the server starts, not a synchronisation
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.close()
        blocked = [line for line in _tail(work, 10**6).splitlines() if "BlockingError" in line]
        assert not blocked, f"the server flagged blocking calls: {blocked[:3]}"


@pytest.fixture(scope="module")
def agent_server(tmp_path_factory, sample_index, repo_root: Path) -> Iterator[str]:
    """``langgraph dev`` over the sample index (extractive answers); its URL."""
    with _agent_server(tmp_path_factory.mktemp("agent_server"), sample_index, repo_root) as url:
        yield url


@pytest.fixture(scope="module")
def chat_endpoint(scripted_openai: Any) -> Any:
    return scripted_openai


#: The watchdog's deadline for the Agent Server with a chat model.
MODEL_TIMEOUT_S = 2.0


@pytest.fixture(scope="module")
def model_agent_server(
    tmp_path_factory, sample_index, repo_root: Path, chat_endpoint
) -> Iterator[str]:
    """``langgraph dev`` with ``$CITERAG_MODEL`` pointing at the scripted OpenAI server."""
    with _agent_server(
        tmp_path_factory.mktemp("agent_server_model"),
        sample_index,
        repo_root,
        CITERAG_MODEL="openai:scripted-model",
        CITERAG_MODEL_BASE_URL=chat_endpoint.base_url,
        CITERAG_MODEL_TIMEOUT_S=str(MODEL_TIMEOUT_S),
        CITERAG_MODEL_MAX_RETRIES="0",
        OPENAI_API_KEY="",
        OPENAI_BASE_URL="",
    ) as url:
        yield url


def _tail(work: Path, chars: int = 4000) -> str:
    path = work / "server.log"
    return path.read_text(encoding="utf-8", errors="replace")[-chars:] if path.exists() else ""


def _client(url: str, token: str | None, **headers: str) -> Any:
    h = dict(headers)
    if token is not None:
        h["Authorization"] = f"Bearer {token}"
    return get_sync_client(url=url, headers=h)


def _status(exc: BaseException) -> int | None:
    return getattr(exc, "status_code", None) or getattr(
        getattr(exc, "response", None), "status_code", None
    )


def _leaks(*responses: Any) -> list[str]:
    text = json.dumps(responses, default=str)
    return [c for c in CANARIES if c in text]


def test_requests_without_a_known_token_are_401(agent_server):
    for headers in ({}, {"Authorization": "Bearer not-a-known-token-xxxx"}):
        r = httpx.post(f"{agent_server}/threads", json={}, headers=headers, timeout=10)
        assert r.status_code == 401, r.text
    # Studio's own scheme does not bypass the token (disable_studio_auth)
    r = httpx.post(
        f"{agent_server}/threads", json={}, headers={"x-auth-scheme": "langsmith"}, timeout=10
    )
    assert r.status_code == 401
    with pytest.raises(httpx.HTTPStatusError) as err:
        _client(agent_server, None).threads.create()
    assert _status(err.value) == 401


def test_a_thread_run_follow_up_and_stream(agent_server):
    alice = _client(agent_server, ALICE)
    thread = alice.threads.create()
    assert thread["metadata"]["owner"] == "alice"
    tid = thread["thread_id"]
    first = alice.runs.wait(
        tid, GRAPH, input={"question": "What was Northwind's total revenue in 2025?"}
    )
    assert first["status"] == "answered" and "412,860" in first["answer"]
    follow = alice.runs.wait(tid, GRAPH, input={"question": "And the year before?"})
    cond = follow["trace"]["condense"]
    assert cond["original"] == "And the year before?" and cond["method"] == "rule"
    assert cond["standalone"] == "What was Northwind's total revenue in 2024?"
    assert "371,540" in follow["answer"]
    chunks = list(
        alice.runs.stream(
            tid,
            GRAPH,
            input={"question": "What about the operating costs?"},
            stream_mode="updates",
        )
    )
    nodes = [next(iter(c.data)) for c in chunks if c.event == "updates" and c.data]
    assert nodes[0] == "condense" and nodes[-1] in ("answered", "no_evidence")
    condense_update = next(
        c.data["condense"] for c in chunks if c.event == "updates" and "condense" in (c.data or {})
    )
    assert "operating costs" in json.dumps(condense_update, default=str)
    state = alice.threads.get_state(tid)
    kinds = [m["type"] for m in state["values"]["messages"]]
    assert kinds == ["human", "ai"] * 3


def test_threads_belong_to_their_creator(agent_server):
    alice, bob = _client(agent_server, ALICE), _client(agent_server, BOB)
    tid = bob.threads.create()["thread_id"]
    for call in (
        lambda: alice.threads.get(tid),
        lambda: alice.threads.get_state(tid),
        lambda: alice.runs.wait(tid, GRAPH, input={"question": "Anything?"}),
    ):
        with pytest.raises(httpx.HTTPStatusError) as err:
            call()
        assert _status(err.value) == 404
    assert tid not in {t["thread_id"] for t in alice.threads.search(limit=100)}
    # assistants are read-only
    with pytest.raises(httpx.HTTPStatusError) as err:
        alice.assistants.create(GRAPH, config={"configurable": {"gate_threshold": 0.0}})
    assert _status(err.value) == 403


def test_restricted_text_never_reaches_a_user_without_the_label(agent_server):
    alice, bob = _client(agent_server, ALICE), _client(agent_server, BOB)
    # the board member's own thread reaches the minutes (the canary is real)
    bt = bob.threads.create()["thread_id"]
    board = bob.runs.wait(
        bt, GRAPH, input={"question": "What offer did the Board agree for Project Heron?"}
    )
    assert any(c["doc_name"] == "board_minutes_2025.md" for c in board["citations"])
    # alice: her own thread, a question naming the project, a follow-up, spoofed groups and
    # knobs in the input and the config, and a stream
    at = alice.threads.create()["thread_id"]
    spoof = {
        "configurable": {
            "user_groups": ["board"],
            "langgraph_auth_user": {"identity": "bob", "groups": ["board"]},
            "gate_threshold": 0.0,
        }
    }
    responses: list[Any] = []
    responses.append(
        alice.runs.wait(
            at,
            GRAPH,
            input={
                "question": "What did the Board decide about Project Heron?",
                "user_groups": ["board"],
            },
            config=spoof,
        )
    )
    responses.append(
        alice.runs.wait(
            at, GRAPH, input={"question": "How will they finance it?", "user_groups": ["board"]}
        )
    )
    responses.extend(
        c.data
        for c in alice.runs.stream(
            at,
            GRAPH,
            input={"question": "What was the offer for Ridgeback?", "user_groups": ["board"]},
            stream_mode=["updates", "values"],
        )
    )
    responses.append(alice.threads.get_state(at))
    responses.append(alice.threads.get_history(at, limit=50))
    assert not _leaks(*responses)
    for r in responses[:2]:
        assert r["trace"]["user_groups"] == []
        assert r["trace"]["config"]["gate_threshold"] is None  # not a knob clients may set
        assert all(c["doc_name"] != "board_minutes_2025.md" for c in r["citations"])


def test_a_chat_model_streams_tokens_and_a_stall_ends_failed_in_time(
    model_agent_server, chat_endpoint
):
    from tests.support.fake_models import good_answer
    from tests.support.openai_server import reply, stall

    alice = _client(model_agent_server, ALICE)
    tid = alice.threads.create()["thread_id"]
    chat_endpoint.set_script(reply(good_answer(1), chunk=4))
    chunks = list(
        alice.runs.stream(
            tid,
            GRAPH,
            input={"question": "What does inverter fault code E-217 mean?"},
            stream_mode=["custom", "values", "messages-tuple"],
        )
    )
    tokens = [c.data["text"] for c in chunks if c.event == "custom" and c.data["type"] == "token"]
    assert len(tokens) > 3 and "".join(tokens).startswith("The passage states it [1]")
    # the message stream carries the same draft, never the model's raw tokens or the prompt
    messages = [c.data for c in chunks if c.event.startswith("messages")]
    drafts = [m["content"] for m, meta in messages if meta.get("langgraph_node") == "generate"]
    assert "".join(drafts) == "".join(tokens)
    assert {m["type"] for m, _ in messages} <= {"human", "AIMessageChunk", "ai"}, messages
    final = [c.data for c in chunks if c.event == "values"][-1]
    assert final["status"] == "answered", final.get("reason")
    chat_endpoint.set_script(stall(), reply(good_answer(1)))
    tid = alice.threads.create()["thread_id"]  # a new thread: no follow-up rewrite by the model
    out = alice.runs.wait(tid, GRAPH, input={"question": "What does fault code E-217 mean?"})
    assert out["status"] == "failed"
    assert f"no answer from {chat_endpoint.base_url} within {MODEL_TIMEOUT_S:g} s" in out["reason"]
    tid = alice.threads.create()["thread_id"]
    again = alice.runs.wait(tid, GRAPH, input={"question": "What does fault code E-217 mean?"})
    assert again["status"] == "answered", again.get("reason")

"""``citerag serve`` told to stop while a request waits on a stalled chat model: the request
is answered ``failed`` (the answer abandoned) instead of holding the shutdown until its
deadline, and the process exits.

A real ``citerag serve`` process on 127.0.0.1 over the sample index; the model is the
scripted OpenAI-compatible server of :mod:`tests.support.openai_server` through the real
``langchain-openai`` client, stalling with a 600-second deadline, far beyond any wait here.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.test_server import PUBLIC_TOKEN, auth, poll, write_tokens
from tests.integration.test_server_readonly import _env, _free_port
from tests.support.openai_server import ScriptedOpenAIServer, stall

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def test_sigterm_answers_a_stalled_request_failed_and_exits(
    tmp_path: Path, sample_index: Path
) -> None:
    endpoint = ScriptedOpenAIServer().start()
    shutil.copytree(sample_index, tmp_path / "index", symlinks=True)
    write_tokens(tmp_path / "tokens.json")
    port = _free_port()
    env = {
        **_env(),
        "CITERAG_MODEL_BASE_URL": endpoint.base_url,
        "CITERAG_MODEL_TIMEOUT_S": "600",
        "CITERAG_MODEL_MAX_RETRIES": "0",
    }
    env.pop("OPENAI_API_KEY", None)
    env.pop("OPENAI_BASE_URL", None)
    cmd = [sys.executable, "-m", "citerag", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--index", str(tmp_path / "index"), "--data-dir", str(tmp_path / "data")]
    cmd += ["--tokens", str(tmp_path / "tokens.json"), "--workers", "1"]
    cmd += ["--model", "openai:scripted-model", "--read-only"]
    log = tmp_path / "serve.log"
    url = f"http://127.0.0.1:{port}"
    answer: list[Any] = []
    try:
        with log.open("wb") as fh:
            proc = subprocess.Popen(cmd, env=env, cwd=REPO, stdout=fh, stderr=subprocess.STDOUT)

        def ready() -> bool:
            assert proc.poll() is None, log.read_text()[-3000:]
            try:
                return httpx.get(f"{url}/ready", timeout=5).status_code == 200
            except httpx.TransportError:
                return False

        poll(ready, what="citerag serve")
        endpoint.set_script(stall())

        def ask() -> None:
            r = httpx.post(
                f"{url}/rag/invoke",
                json={"input": {"question": "What does inverter fault code E-217 mean?"}},
                headers=auth(PUBLIC_TOKEN),
                timeout=300,
            )
            answer.append(r)

        asker = threading.Thread(target=ask)
        asker.start()
        assert endpoint.received.wait(120), "the request never reached the model"
        proc.send_signal(signal.SIGTERM)
        asker.join(240)  # a guard against a hang, not a timing assert
        assert answer, f"no answer after SIGTERM:\n{log.read_text()[-3000:]}"
        out = answer[0].json()["output"]
        assert out["status"] == "failed"
        assert "the answer was abandoned: the server is shutting down" in out["reason"]
        # uvicorn shuts down, then re-raises the signal it caught: exit by SIGTERM
        assert proc.wait(timeout=120) in (0, -signal.SIGTERM)
    finally:
        endpoint.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)

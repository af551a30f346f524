"""A real one-question ``citerag ask`` (a fresh process, the bundled model): no weights
progress bar on stderr; and the untraced question path it takes gives the answers the traced
one gives (``load_default_graph(traced_queries=False)``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from citerag.embeddings import load_embedding_model
from graphs.deps import GraphDeps
from graphs.rag import build_graph, load_default_graph
from graphs.state import to_jsonable

pytestmark = pytest.mark.integration


def test_ask_prints_no_weights_progress_bar(repo_root: Path, sample_index: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(repo_root),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }
    env.pop("HF_HUB_DISABLE_PROGRESS_BARS", None)  # the CLI's own default, not the caller's
    question = "What does inverter fault code E-217 mean?"
    proc = subprocess.run(
        [sys.executable, "-m", "citerag", "ask", question, "--index", str(sample_index)],
        cwd=repo_root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("[answered]") and "maintenance_notes.txt" in proc.stdout
    assert "Loading weights" not in proc.stderr
    assert "Traceback" not in proc.stderr


def _comparable(result: dict[str, Any]) -> dict[str, Any]:
    data = to_jsonable(result)
    return {
        "status": data["status"],
        "answer": data["answer"],
        "reason": data.get("reason"),
        "citations": [
            {k: v for k, v in c.items() if k != "scores"} for c in data.get("citations") or []
        ],
        "scores": [c.get("scores") for c in data.get("citations") or []],
    }


def test_the_untraced_question_path_gives_the_same_answers(
    repo_root: Path, sample_index: Path, embedding_model
) -> None:
    assert embedding_model.traced_queries  # the session's model: questions traced
    traced = build_graph(GraphDeps.from_index(sample_index, embedding_model=embedding_model))
    untraced = load_default_graph(sample_index, traced_queries=False)
    eager = load_embedding_model(traced=False)
    assert not eager.traced_queries
    lines = (repo_root / "examples" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["question"] for line in lines if line.strip()]
    assert len(questions) >= 20
    for question in questions:
        state = {"question": question, "user_groups": ["staff", "board"]}
        a, b = _comparable(traced.invoke(state)), _comparable(untraced.invoke(state))
        assert {**a, "scores": None} == {**b, "scores": None}, question
        for sa, sb in zip(a["scores"], b["scores"], strict=True):
            # the reranker's paraphrase credit grades single-word cosines over 0.35..0.7
            # (x 1/0.35): the two paths' float rounding moves a score by up to ~1e-4
            assert sb == pytest.approx(sa, rel=2e-4, abs=1e-6), question
        vector = embedding_model.embeddings.embed_query(question)
        assert eager.embeddings.embed_query(question) == pytest.approx(vector, abs=1e-6)

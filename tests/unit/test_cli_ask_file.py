"""``citerag ask --file``: one JSON line per input line, each carrying its question, so the
Nth output answers the Nth input (a blank line is a ``failed`` record, not skipped)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from citerag import cli
from citerag.cli_ask import EMPTY_QUESTION


class _Graph:
    """Stands in for the compiled graph: answers every question it is asked, in order."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def invoke(self, graph_input: dict[str, Any], config: Any = None) -> dict[str, Any]:
        self.asked.append(graph_input["question"])
        return {"status": "answered", "answer": f"re {graph_input['question']}", "reason": ""}


def test_each_output_line_has_its_question_and_lines_up_with_the_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import graphs.rag

    graph = _Graph()
    monkeypatch.setattr(graphs.rag, "load_default_graph", lambda *a, **k: graph)
    questions = tmp_path / "questions.txt"
    questions.write_text("What is E-217?\n\n   \n  And E-301?  \n", encoding="utf-8")
    assert cli.main(["ask", "--file", str(questions), "--index", str(tmp_path / "i")]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["question"] for r in records] == ["What is E-217?", "", "", "And E-301?"]
    assert [r["status"] for r in records] == ["answered", "failed", "failed", "answered"]
    assert records[1]["reason"] == records[2]["reason"] == EMPTY_QUESTION
    assert records[3]["answer"] == "re And E-301?"
    assert graph.asked == ["What is E-217?", "And E-301?"]  # a blank line is not run

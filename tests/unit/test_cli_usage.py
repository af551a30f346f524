"""Usage mistakes and plain Unix habits on the command line: a bad value, a flag that would be
ignored, a folder where a file belongs, a reader that stops early. Each is one line (or
argparse's usage message) and a status, never a traceback or a silently different run."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from citerag import cli

REPO = Path(__file__).resolve().parents[2]


def _usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Parse ``citerag ARGV`` (nothing runs), expect argparse's usage error (status 2): its
    message."""
    with pytest.raises(SystemExit) as exc:
        cli.build_parser().parse_args(argv)
    assert exc.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize("command", ["eval", "calibrate"])
@pytest.mark.parametrize("value", ["-4", "0"])
def test_a_limit_below_one_is_refused_naming_the_value(
    command: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--limit -4`` was Python slicing (all but the last 4); ``--limit 0`` an empty report."""
    err = _usage_error([command, "qs.jsonl", "--limit", value], capsys)
    assert err == f"citerag {command}: error: argument --limit: must be at least 1, not {value}"
    err = _usage_error([command, "qs.jsonl", "--limit", "two"], capsys)
    assert err.endswith("argument --limit: 'two' is not a whole number")


@pytest.mark.parametrize("label", ["", " ", "Board Members", ".hidden"])
def test_ingest_refuses_an_access_label_the_server_would_refuse(
    label: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--access ''`` made the documents readable by nobody, and exited 0."""
    err = _usage_error(["ingest", "docs", "--access", label], capsys)
    assert err.startswith(
        f"citerag ingest: error: argument --access: invalid access label {label!r}"
    )
    assert (
        cli.build_parser().parse_args(["ingest", "d", "--access", "hr-staff"]).access == "hr-staff"
    )


def test_ask_with_a_question_and_a_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The positional question was silently ignored when ``--file`` was given too."""
    questions = tmp_path / "q.txt"
    questions.write_text("How much do juniors pay?\n", encoding="utf-8")
    argv = ["ask", "What is the joining fee?", "--file", str(questions)]
    assert cli.main([*argv, "--index", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == (
        "citerag: error: give a question or --file FILE, not both "
        "(put the question in the file instead)\n"
    )


def test_ask_with_a_folder_as_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--file FOLDER`` printed an IsADirectoryError traceback (exit 1)."""
    assert cli.main(["ask", "--file", str(tmp_path), "--index", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"citerag: error: --file {tmp_path} is a folder: give a file of questions, one per line\n"
    )


@pytest.mark.parametrize("question", [" ", "  \t "])
def test_a_blank_question_is_one_complete_sentence(
    question: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The message was the graph's, cut mid-sentence ("... ending with the user's"); it is
    the one the ``/rag`` routes give (``graphs.state.BLANK_QUESTION``)."""
    from graphs.state import BLANK_QUESTION

    assert cli.main(["ask", question, "--index", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == f"citerag: error: {BLANK_QUESTION}\n"
    assert BLANK_QUESTION == "the question must not be blank"


def test_chat_json_prints_one_json_result_per_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``chat --json`` was accepted and printed the human format; now JSON lines, as ``ask
    --file``, and nothing else on standard output (no banner)."""
    import graphs.rag

    asked: list[str] = []

    class _Graph:
        def invoke(self, graph_input: dict[str, Any], config: Any) -> dict[str, Any]:
            asked.append(graph_input["question"])
            status = "answered" if len(asked) == 1 else "no_evidence"
            return {"status": status, "answer": f"turn {len(asked)}", "citations": []}

    monkeypatch.setattr(graphs.rag, "load_default_graph", lambda *a, **k: _Graph())
    monkeypatch.setattr(sys, "stdin", io.StringIO("What is the fee?\n\nAnd for juniors?\nexit\n"))
    assert cli.main(["chat", "--json", "--index", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["answer"] for line in lines] == ["turn 1", "turn 2"]
    assert asked == ["What is the fee?", "And for juniors?"]
    # each line names the question as typed, as an `ask --file` line does
    assert [json.loads(line)["question"] for line in lines] == asked


def test_serve_refuses_an_index_that_is_a_file_before_starting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``serve --index FILE`` started and failed every upload later (FileExistsError); it
    fails at start with the line ``ask --index FILE`` gives."""
    import uvicorn

    import citerag.server

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server must not start")

    monkeypatch.setattr(citerag.server, "create_app", never)
    monkeypatch.setattr(uvicorn, "run", never)
    afile = tmp_path / "afile"
    afile.write_text("hello", encoding="utf-8")
    argv = ["serve", "--index", str(afile), "--workers", "1", "--data-dir", str(tmp_path / "d")]
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == (
        f"citerag: error: --index {afile} is a file, not an index directory\n"
    )


def test_output_into_a_closed_pipe_ends_quietly_with_status_141(tmp_path: Path) -> None:
    """``citerag inspect | head -3`` printed a BrokenPipeError traceback; every command now
    ends quietly, status 128 + SIGPIPE, as Unix tools do (the reader closed before any
    output here, so the first write fails, whatever the timing)."""
    probe = (
        "import sys\n"
        "from citerag import cli\n"
        "def spew(args):\n"
        "    for i in range(100_000):\n"
        "        print('line', i)\n"
        "    return 0\n"
        "cli.cmd_inspect = spew\n"
        "sys.exit(cli.main(sys.argv[1:]))\n"
    )
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the command writes anything
    try:
        proc = subprocess.run(
            [sys.executable, "-c", probe, "inspect", "--index", str(tmp_path / "i")],
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == cli.EXIT_BROKEN_PIPE == 141
    assert proc.stderr == ""


def test_a_broken_pipe_that_is_not_standard_output_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pipe or socket of the command itself broke (standard output still writes): one
    line and status 2, not the quiet 141 of a reader that stopped early."""

    def broken(args: Any) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "cmd_inspect", broken)
    assert cli.main(["inspect", "--index", str(tmp_path)]) == 2
    assert "citerag: error: [Errno 32] Broken pipe" in capsys.readouterr().err


def test_chat_json_on_a_terminal_prompts_on_stderr_and_keeps_stdout_for_results(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from citerag.cli_ask import _chat_lines

    class _Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", _Terminal("What is the fee?\n"))
    assert list(_chat_lines("you> ", to_stderr=True)) == ["What is the fee?"]
    out, err = capsys.readouterr()
    assert out == "" and err == "you> you> \n"  # a prompt per line, the line break at Ctrl-D


def test_over_window_chunks_are_explained_with_what_to_do():
    assert cli.over_window_hint(0, 256, 600) is None
    hint = cli.over_window_hint(3, 256, 600)
    assert hint is not None
    assert "3 chunk(s) are longer than the embedding model reads (256 word-pieces" in hint
    assert "smaller --chunk-size (now 600)" in hint

"""Ctrl-C ends every ``citerag`` command with one line and status 130, not a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from citerag import cli


@pytest.mark.parametrize(
    "argv",
    [
        ["ask", "What does E-217 mean?"],
        ["chat"],
        ["ingest", "docs"],
    ],
)
def test_ctrl_c_is_one_line_and_status_130(argv, tmp_path: Path, monkeypatch, capsys) -> None:
    def interrupted(args: Any) -> None:
        raise KeyboardInterrupt  # what SIGINT raises wherever the command is

    monkeypatch.setattr(cli, "resolve_location", interrupted)
    assert cli.main([*argv, "--index", str(tmp_path / "index")]) == cli.EXIT_INTERRUPTED == 130
    captured = capsys.readouterr()
    assert captured.err.strip() == "citerag: interrupted"
    assert "Traceback" not in captured.err + captured.out

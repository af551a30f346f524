"""The command-line reference page is the one generated from the argument parser."""

from __future__ import annotations

import argparse
from pathlib import Path

from citerag.cli import build_parser
from citerag.cli_reference import cli_reference_markdown

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "cli.md"


def test_docs_cli_reference_is_the_generated_one():
    text = PAGE.read_text(encoding="utf-8")
    begin, end = "<!-- cli-reference:begin -->", "<!-- cli-reference:end -->"
    assert begin in text and end in text, "docs/reference/cli.md lacks the generated block"
    block = text.split(begin, 1)[1].split(end, 1)[0].strip()
    assert block == cli_reference_markdown(), (
        "docs/reference/cli.md is stale: paste citerag.cli_reference.cli_reference_markdown() "
        "between the cli-reference markers"
    )


def test_every_command_and_option_is_in_the_reference():
    text = cli_reference_markdown()
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sp in sub.choices.items():
        assert f"### `citerag {name}`" in text, name
        for action in sp._actions:
            if action.help == argparse.SUPPRESS:  # hidden from --help, hidden here too
                assert not any(f"`{f}" in text for f in action.option_strings), name
                continue
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}" in text or f", {flag}" in text, (name, flag)
    assert "%%" not in text and "%(" not in text  # help expanded as --help prints it

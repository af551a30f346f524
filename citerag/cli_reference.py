"""The command-line reference of ``docs/reference/cli.md``, generated from the argument parser.

Every subcommand of :func:`citerag.cli.build_parser` becomes a heading, its one-line help and
a table of its arguments (flags, default, meaning), so the page cannot drift from the code: a
unit test compares the page's generated block with :func:`cli_reference_markdown`.
"""

from __future__ import annotations

import argparse

#: The ``--index`` default the page shows: the one without ``$CITERAG_INDEX`` (the help text
#: names the environment's default, which would make the page depend on where it is built).
_INDEX_DEFAULT_TEXT = ".citerag/index"


def _cell(text: str) -> str:
    """One Markdown table cell: a single line, pipes and angle brackets escaped."""
    text = " ".join(text.split()).replace("|", "\\|")
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _flags(action: argparse.Action) -> str:
    """How the argument is written: ``--k N`` / ``PATHS ...`` / ``--json``."""
    takes_value = action.nargs != 0
    metavar = action.metavar if isinstance(action.metavar, str) else None
    if not action.option_strings:
        name = metavar or action.dest.upper()
        return f"`{name} ...`" if action.nargs in ("+", "*") else f"`{name}`"
    shown = metavar or action.dest.upper()
    if action.choices is not None and metavar is None:
        shown = "{" + ",".join(str(c) for c in action.choices) + "}"
    names = ", ".join(action.option_strings)
    if not takes_value:
        return f"`{names}`"
    return f"`{names} {shown}`"


def _default(action: argparse.Action) -> str:
    """The default worth showing: none for switches, ``None`` or a suppressed default."""
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS, [], ""):
        return "–"
    return f"`{action.default}`"


def _help(parser: argparse.ArgumentParser, action: argparse.Action, index_default: str) -> str:
    """The help text as ``--help`` prints it (``%(default)s`` and ``%%`` expanded)."""
    if not action.help or action.help == argparse.SUPPRESS:
        return ""
    text = parser._get_formatter()._expand_help(action)
    return _cell(text.replace(f"(default {index_default})", f"(default {_INDEX_DEFAULT_TEXT})"))


def cli_reference_markdown() -> str:
    """Every ``citerag`` subcommand with its arguments, as Markdown (headings and tables).

    Returns:
        The block between the ``cli-reference`` markers of ``docs/reference/cli.md``.
    """
    from citerag.cli import DEFAULT_INDEX, build_parser

    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    summaries = {c.dest: c.help or "" for c in subparsers._choices_actions}
    out: list[str] = []
    for name, sp in subparsers.choices.items():
        out += [f"### `citerag {name}`", "", _cell(summaries.get(name, "")) + ".", ""]
        rows = [
            a
            for a in sp._actions
            if not isinstance(a, argparse._HelpAction) and a.help != argparse.SUPPRESS
        ]
        if not rows:
            continue
        out += ["| argument | default | meaning |", "|---|---|---|"]
        for action in rows:
            meaning = _help(sp, action, str(DEFAULT_INDEX))
            if action.choices is not None and isinstance(action.metavar, str):
                meaning += f" (one of {', '.join(str(c) for c in action.choices)})"
            out.append(f"| {_flags(action)} | {_default(action)} | {meaning or '–'} |")
        out.append("")
    return "\n".join(out).strip()

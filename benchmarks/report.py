"""The docs' benchmark tables, generated from the result files (``benchmarks/results/``).

Usage (from the repository root)::

    python -m benchmarks.report            # rewrite every generated block that is out of date
    python -m benchmarks.report --check    # exit 1 (naming the pages) if one is out of date

A page of ``docs/`` holds a generated block per table, between two markers naming the result
file and its table::

    <!-- result:retrieval_squad/recall:begin -->
    ...generated: the table, then its stamp line...
    <!-- result:retrieval_squad/recall:end -->

Everything outside the markers is hand-written prose. The block is the table rendered from
``benchmarks/results/retrieval_squad.json`` and a stamp line: the commit (and whether the tree
had uncommitted changes), the date, the machine and the command that regenerates it; for a
transcribed result (figures copied from a table published before result files existed) the
line says it was transcribed and from which commit (or, for a hand-collected result, that no
single run regenerates it; a hand-collected result whose stamp has no command was measured by
hand, outside the benchmark scripts, and its line says so).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import REPO
from benchmarks.results import HAND_COLLECTED, MEASURED, RESULTS, read_result

DOCS = REPO / "docs"
_BLOCK = re.compile(
    r"<!-- result:(?P<name>[a-z0-9_-]+)/(?P<table>[a-z0-9_-]+):begin -->\n"
    r"(?P<body>.*?)"
    r"<!-- result:(?P=name)/(?P=table):end -->",
    re.S,
)
_RULE = {"left": "---", "right": "---:", "center": ":---:"}


@dataclass(frozen=True)
class Block:
    """One generated block of a page: which result file and which of its tables."""

    page: str
    name: str
    table: str


def render_table(t: dict[str, Any]) -> str:
    """A result table as a Markdown pipe table."""
    lines = [
        "| " + " | ".join(t["columns"]) + " |",
        "|" + "|".join(_RULE[a] for a in t["align"]) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in t["rows"]]
    return "\n".join(lines)


def describe_machine(m: dict[str, Any] | None) -> str:
    """``2 cores, 23.5 GiB, CPU model, Python 3.11.2, torch 2.13.0``."""
    if not m:
        return "machine not recorded"
    parts = [f"{m.get('cores')} cores"]
    if m.get("ram_gib"):
        parts.append(f"{m['ram_gib']} GiB")
    if m.get("cpu"):
        parts.append(str(m["cpu"]))
    parts.append(f"Python {m.get('python')}")
    if m.get("torch"):
        parts.append(f"torch {m['torch']}")
    return ", ".join(parts)


def stamp_line(result: dict[str, Any]) -> str:
    """The line under a generated table: where its figures come from."""
    s = result["stamp"]
    commit = (s.get("commit") or "unknown")[:10]
    date = str(s.get("date") or "")[:10]
    file = f"`benchmarks/results/{result['name']}.json`"
    regenerate = f"`{s.get('command')}`"
    if result.get("provenance", MEASURED) == MEASURED:
        dirty = " with uncommitted changes" if s.get("dirty") else ""
        return (
            f"*Generated from {file}: measured at {commit}{dirty} on {date}, "
            f"{describe_machine(s.get('machine'))}; {regenerate} regenerates it.*"
        )
    if str(result.get("provenance", "")).startswith(HAND_COLLECTED) and not s.get("command"):
        return (
            f"*Generated from {file}: measured by hand, outside the benchmark scripts, as "
            f"published at {commit} ({date}); no script regenerates it.*"
        )
    if str(result.get("provenance", "")).startswith(HAND_COLLECTED):
        return (
            f"*Generated from {file}: collected by hand from several runs of {regenerate} "
            f"(different options, commits or models), as published at {commit} ({date}); "
            "no single run regenerates it.*"
        )
    return (
        f"*Generated from {file}: transcribed from the table published at {commit} "
        f"({date}), not re-run since; {regenerate} regenerates it.*"
    )


def render_block(name: str, table: str, results: Path = RESULTS) -> str:
    """The body of a generated block (the table, a blank line, its stamp line)."""
    result = read_result(name, results)
    tables = result.get("tables", {})
    if table not in tables:
        raise KeyError(
            f"{name}.json has no table {table!r} (it has: {', '.join(sorted(tables)) or 'none'})"
        )
    return f"{render_table(tables[table])}\n\n{stamp_line(result)}\n"


_INDEX = re.compile(r"<!-- results-index:begin -->\n.*?<!-- results-index:end -->", re.S)


def results_index(results: Path = RESULTS) -> str:
    """A table of every result file: measured (where and when), transcribed or hand-collected."""
    rows = []
    for path in sorted(results.glob("*.json")):
        r = read_result(path.stem, results)
        s, provenance = r["stamp"], str(r.get("provenance", MEASURED))
        commit, date = (s.get("commit") or "unknown")[:10], str(s.get("date") or "")[:10]
        if provenance == MEASURED:
            state = f"**measured** at {commit} on {date}"
        elif provenance.startswith(HAND_COLLECTED) and not s.get("command"):
            state = f"measured by hand, no script (published at {commit})"
        elif provenance.startswith(HAND_COLLECTED):
            state = f"hand-collected from several runs (published at {commit})"
        else:
            state = f"transcribed (published at {commit}), not re-run since"
        command = f"`{s['command']}`" if s.get("command") else "–"
        rows.append(f"| `{path.stem}` | {state} | {command} |")
    head = "| result file | figures | command |\n|---|---|---|"
    return "\n".join([head, *rows])


def regenerate(text: str, results: Path = RESULTS) -> str:
    """A page's text with every generated block rendered from its result file (and the index
    of result files between ``<!-- results-index:begin/end -->`` markers)."""
    if _INDEX.search(text):
        index = (
            f"<!-- results-index:begin -->\n{results_index(results)}\n<!-- results-index:end -->"
        )
        text = _INDEX.sub(lambda _m: index, text)

    def one(m: re.Match[str]) -> str:
        body = render_block(m["name"], m["table"], results)
        return (
            f"<!-- result:{m['name']}/{m['table']}:begin -->\n{body}"
            f"<!-- result:{m['name']}/{m['table']}:end -->"
        )

    return _BLOCK.sub(one, text)


def blocks(docs: Path = DOCS) -> list[Block]:
    """Every generated block of the pages under ``docs``."""
    out = []
    for page in sorted(docs.rglob("*.md")):
        for m in _BLOCK.finditer(page.read_text(encoding="utf-8")):
            out.append(Block(page.relative_to(docs).as_posix(), m["name"], m["table"]))
    return out


def update(docs: Path = DOCS, results: Path = RESULTS, *, check: bool = False) -> list[str]:
    """Render every page's generated blocks; return the pages that were (or would be) changed.

    Args:
        docs: The documentation folder.
        results: The result files' folder.
        check: Only report the out-of-date pages, leave them alone.
    """
    stale = []
    for page in sorted(docs.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        if "<!-- result:" not in text and "<!-- results-index:" not in text:
            continue
        new = regenerate(text, results)
        if new != text:
            stale.append(page.relative_to(docs).as_posix())
            if not check:
                page.write_text(new, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated blocks (or, with ``--check``, report the stale ones)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    p.add_argument("--check", action="store_true", help="exit 1 if a page is out of date")
    p.add_argument("--docs", type=Path, default=DOCS)
    p.add_argument("--results", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    stale = update(args.docs, args.results, check=args.check)
    for page in stale:
        print(f"{'out of date' if args.check else 'rewrote'}: {args.docs / page}")
    if args.check and stale:
        print("run `python -m benchmarks.report` to regenerate them", file=sys.stderr)
        return 1
    if not stale:
        print(f"every generated block is current ({len(blocks(args.docs))} blocks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

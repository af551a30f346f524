"""Result files: the figures a benchmark publishes, stamped with where they were measured.

A standing benchmark ends with :func:`write_result`, which writes
``benchmarks/results/NAME.json`` (committed, unlike ``benchmarks/out/``)::

    {
      "name": "retrieval_squad",
      "stamp": {"commit": "...", "dirty": false, "date": "...", "command": "python -m ...",
                "machine": {"cores": 2, "ram_gib": 23.5, "cpu": "...", "python": "3.11.2",
                            "torch": "2.13.0", "platform": "Linux-..."}},
      "provenance": "measured",
      "tables": {"recall": {"columns": [...], "align": [...], "rows": [[...], ...]}},
      "data": {...}
    }

``tables`` hold the rows the documentation shows, as the cells' text (already formatted: a
figure's rounding is the benchmark's decision, not the page's); ``python -m benchmarks.report``
renders each into the docs' pages. ``data`` is free-form (whatever else the run wants kept).

A result file can also be **transcribed** from a table published before result files existed
(:func:`transcribed_stamp`): its stamp then names the commit and date of the page it was copied
from, no machine, and its ``provenance`` says so; the rendered table says so too.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib.metadata
import json
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import REPO

#: Where result files live (committed).
RESULTS = REPO / "benchmarks" / "results"
RESULTS_PATH = "benchmarks/results"
#: A column's alignment in the rendered Markdown table.
ALIGNS = ("left", "right", "center")
MEASURED = "measured"
#: How a hand-collected result's provenance starts (figures from several runs).
HAND_COLLECTED = "hand-collected"


def table(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], align: Sequence[str] | None = None
) -> dict[str, Any]:
    """A table of a result file: its header, its rows (cells as text) and column alignment.

    Args:
        columns: The header cells.
        rows: One sequence of cells per row, each as long as ``columns`` (cells become text).
        align: ``left`` / ``right`` / ``center`` per column (default: the first left, the rest
            right).

    Raises:
        ValueError: If a row's length or an alignment does not fit the columns.
    """
    columns = [str(c) for c in columns]
    if not columns:
        raise ValueError("a table needs at least one column")
    align = list(align) if align is not None else ["left"] + ["right"] * (len(columns) - 1)
    if len(align) != len(columns) or any(a not in ALIGNS for a in align):
        raise ValueError(f"align must give one of {ALIGNS} per column, got {align!r}")
    out_rows = []
    for i, row in enumerate(rows):
        if len(row) != len(columns):
            raise ValueError(f"row {i} has {len(row)} cells, the table {len(columns)} columns")
        out_rows.append(["" if cell is None else str(cell) for cell in row])
    return {"columns": columns, "align": align, "rows": out_rows}


def rate_cell(values: Sequence[bool]) -> str:
    """A table cell for per-question successes: ``k/n = rate [lo, hi]`` (Wilson 95 %), or
    ``–`` for no questions."""
    from citerag.eval import metrics as stats

    k, n = sum(values), len(values)
    lo, hi = stats.wilson_interval(k, n)
    return f"{k}/{n} = {k / n:.2f} [{lo:.2f}, {hi:.2f}]" if n else "–"


def machine() -> dict[str, Any]:
    """The machine a run is on: cores, RAM, CPU model, Python, torch, platform."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_gib: float | None = None
    with contextlib.suppress(ValueError, OSError, AttributeError):
        ram_gib = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    try:
        torch: str | None = importlib.metadata.version("torch")  # without importing torch
    except importlib.metadata.PackageNotFoundError:
        torch = None
    return {
        "cores": os.cpu_count(),
        "ram_gib": ram_gib,
        "cpu": cpu,
        "python": platform.python_version(),
        "torch": torch,
        "platform": platform.platform(),
    }


def git_state(repo: Path = REPO) -> dict[str, Any]:
    """``{"commit": full hash or None, "dirty": uncommitted changes to tracked files}`` (result
    files left out: they are what runs write)."""

    def git(*args: str) -> str | None:
        try:
            r = subprocess.run(
                ["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=30
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return r.stdout.strip() if r.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    # result files are what runs write: an earlier run's new figures do not dirty the next run
    status = git(
        "status", "--porcelain", "--untracked-files=no", "--", ".", f":(exclude){RESULTS_PATH}"
    )
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def command_line(argv: Sequence[str] | None = None) -> str:
    """The command that ran, as ``python -m benchmarks.NAME ARGS`` when run with ``-m``."""
    argv = list(sys.argv if argv is None else argv)
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    head = f"python -m {spec.name}" if spec is not None and spec.name else f"python {argv[0]}"
    return " ".join([head, *(shlex.quote(a) for a in argv[1:])])


def stamp(argv: Sequence[str] | None = None, repo: Path = REPO) -> dict[str, Any]:
    """Where and when a figure was measured: git commit, dirty flag, UTC date, machine, command."""
    return {
        **git_state(repo),
        "date": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
        "command": command_line(argv),
        "machine": machine(),
    }


def transcribed_stamp(commit: str, date: str, command: str) -> dict[str, Any]:
    """The stamp of figures copied from a published table: its commit and date, no machine.

    Args:
        commit: The commit of the page the table was published in.
        date: That commit's date (ISO 8601).
        command: The command that regenerates the figures.
    """
    if not commit or not date:
        raise ValueError("a transcribed result names the commit and date it was copied from")
    return {"commit": commit, "dirty": False, "date": date, "command": command, "machine": None}


def write_result(
    name: str,
    tables: Mapping[str, Mapping[str, Any]],
    data: Mapping[str, Any] | None = None,
    *,
    provenance: str = MEASURED,
    stamp_: Mapping[str, Any] | None = None,
    folder: Path = RESULTS,
) -> Path:
    """Write ``<folder>/<name>.json``: the tables the docs show, stamped.

    Args:
        name: The result's name (``[a-z0-9_-]+``), e.g. ``retrieval_squad``.
        tables: Table name -> :func:`table`.
        data: Anything else worth keeping (JSON-serialisable).
        provenance: ``measured`` (the default) or a sentence saying where the figures come from.
        stamp_: The stamp (default: :func:`stamp` of this run).
        folder: Where result files go (default ``benchmarks/results``).

    Returns:
        The file written.

    Raises:
        ValueError: For a bad name or a table that is not a :func:`table`.
    """
    if not name or not all(ch.isalnum() or ch in "_-" for ch in name) or name != name.lower():
        raise ValueError(f"a result name is lower-case [a-z0-9_-]+, got {name!r}")
    for key, t in tables.items():
        if set(t) != {"columns", "align", "rows"}:
            raise ValueError(f"table {key!r} is not a benchmarks.results.table(...)")
    payload = {
        "name": name,
        "stamp": dict(stamp_) if stamp_ is not None else stamp(),
        "provenance": provenance,
        "tables": {k: dict(v) for k, v in tables.items()},
        "data": dict(data or {}),
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_result(name: str, folder: Path = RESULTS) -> dict[str, Any]:
    """The result file ``<folder>/<name>.json``.

    Raises:
        FileNotFoundError: If there is none.
    """
    path = folder / f"{name}.json"
    if not path.is_file():
        raise FileNotFoundError(f"no result file {path} (run the benchmark that writes it)")
    return dict(json.loads(path.read_text(encoding="utf-8")))


def tables_from_markdown(markdown: str) -> list[dict[str, Any]]:
    """Every pipe table of a Markdown text as a :func:`table` (for benchmarks whose report is
    already Markdown, and for transcribing a published table).

    Cells keep their Markdown (bold, code); ``|`` inside a cell must be escaped as ``\\|``.
    """
    out: list[dict[str, Any]] = []
    lines = markdown.splitlines()
    i = 0
    while i + 1 < len(lines):
        head, rule = lines[i].strip(), lines[i + 1].strip()
        if head.startswith("|") and _is_rule(rule):
            columns = _cells(head)
            align = [_align(c) for c in _cells(rule)]
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(_cells(lines[i].strip()))
                i += 1
            out.append(table(columns, rows, align))
        else:
            i += 1
    return out


def pick_tables(
    markdown: str, wanted: Mapping[str, Sequence[str]], *, required: bool = True
) -> dict[str, dict[str, Any]]:
    """Name tables of a benchmark's Markdown report: ``{name: first header cells}`` -> the first
    table whose header starts with those cells (for a benchmark whose report already has the
    published tables).

    Args:
        markdown: The report.
        wanted: Table name -> the first cells of its header.
        required: Raise for a wanted table the report lacks (else leave it out: a part that
            did not run).

    Raises:
        ValueError: If ``required`` and no table of the report starts with a wanted header.
    """
    found = tables_from_markdown(markdown)
    out: dict[str, dict[str, Any]] = {}
    for name, head in wanted.items():
        match = next((t for t in found if t["columns"][: len(head)] == list(head)), None)
        if match is None and required:
            raise ValueError(f"the report has no table starting with {list(head)!r} ({name})")
        if match is not None:
            out[name] = match
    return out


def _cells(line: str) -> list[str]:
    inner = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    cells, cur, k = [], "", 0
    while k < len(inner):
        if inner[k] == "\\" and k + 1 < len(inner) and inner[k + 1] == "|":
            cur += "\\|"
            k += 2
            continue
        if inner[k] == "|":
            cells.append(cur.strip())
            cur = ""
        else:
            cur += inner[k]
        k += 1
    cells.append(cur.strip())
    return cells


def _is_rule(line: str) -> bool:
    if not line.startswith("|"):
        return False
    cells = _cells(line)
    return bool(cells) and all(c and set(c) <= set(":-") and "-" in c for c in cells)


def _align(rule: str) -> str:
    if rule.startswith(":") and rule.endswith(":"):
        return "center"
    if rule.endswith(":"):
        return "right"
    return "left"

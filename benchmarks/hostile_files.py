"""Hostile files beside ordinary documents: each fails alone, at what cost in memory and time.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.hostile_files [--only NAME ...] [--no-progress]
        [--out benchmarks/out] [--server]

For each hostile file of issue 32 (``tests/support/hostile.py``, :data:`HOSTILE`: zip bombs,
entity expansion, a million-row sheet and CSV, a password-protected Office file, a corrupt
zip, a 30,000 x 30,000-pixel image, deeply nested e-mails; written full size into a temporary
folder outside the repository), one run of the real ``citerag ingest --json`` (the CLI's own
``main``, default settings, the bundled embedding model) in a fresh process over a folder
holding that file and two ordinary documents (a Word document and a Markdown note). Two
baseline runs over the ordinary documents alone, one first and one last, give the memory the
model and the ordinary documents take.

Recorded per run: the hostile file's final state in the manifest (``failed`` and its kind, or
``indexed``) and reason; whether both ordinary documents were indexed; wall seconds of the
whole process (model load included); and its peak resident memory: ``VmHWM`` of the ingest
process since its ``exec`` (or the largest ``ru_maxrss`` of the processes it waited for,
parse workers or OCR, if larger), shown against the baselines' mean. Without a PDF in the
folder the ingest parses inline, in the measured process; but loading the model sets a peak
of its own that a file's parse may stay under, so each hostile file is also parsed alone
(:func:`loaders.pipeline.process_file`, what ingest calls per file, with ingest's default
text limit) in a fresh process without the model, against parsing the small Word document
alone: that difference is the memory the hostile file itself costs.

Writes ``benchmarks/out/hostile_files.{json,md}`` and the result file
``benchmarks/results/hostile_files.json`` (table ``memory``). Not a test: nothing here
asserts.

With ``--server``, each file is uploaded through ``POST /documents`` to a fresh ``citerag
serve`` instead (:mod:`benchmarks.hostile_server`): the upload's HTTP status, the final
state, whether the server keeps serving and how far its processes' memory grows; result
``benchmarks/results/hostile_files_server.json`` (table ``server``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import REPO, log, write
from benchmarks.results import table, write_result
from tests.support.hostile import AT_THE_LIMITS, HOSTILE, Hostile, small_docx

MIB = 1 << 20
#: The ordinary documents of every run (file name -> writer).
ORDINARY = ("ladder_guide.docx", "canteen.md")
NOTE = "# Canteen\n\nThe staff canteen is closed for refurbishment from 14 September.\n"


def _ordinary(folder: Path) -> None:
    small_docx(
        folder / ORDINARY[0],
        "Ladder safety",
        "Every ladder on the Kestrel site is inspected each Tuesday by the site lead.",
    )
    (folder / ORDINARY[1]).write_text(NOTE, encoding="utf-8")


def _vmhwm_mib() -> float:
    """This process's peak resident memory since its ``exec`` (``VmHWM``), in MiB.

    Not ``ru_maxrss``: on Linux that also keeps the high-water mark of the address space the
    process replaced at ``exec``, the benchmark's own (a forked copy of it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024 / MIB
    raise RuntimeError("no VmHWM in /proc/self/status (Linux only)")


def measured_child(args: argparse.Namespace) -> int:
    """(In a fresh process.) Run ``citerag ingest`` or parse one file, then write the peak
    memory to ``args.measure``: ``VmHWM`` of this process, and the largest ``ru_maxrss`` of
    the processes it waited for (parse workers, OCR)."""
    import contextlib
    import io
    import json
    import resource

    out = io.StringIO()
    if args.parse:
        from loaders.chunking import ChunkSettings
        from loaders.pipeline import DEFAULT_MAX_DOCUMENT_MB, SourceFile, process_file

        done = process_file(
            SourceFile(args.parse, f"docs/{args.parse.name}"),
            ChunkSettings(),
            int(DEFAULT_MAX_DOCUMENT_MB * MIB),
        )
        report: dict[str, Any] = {"status": done.status, "kind": done.kind}
    else:
        from citerag.cli import main as citerag_main

        argv = ["ingest", "--json", "-q", "--index", str(args.index), str(args.folder)]
        with contextlib.redirect_stdout(out):
            code = citerag_main(argv)
        if code:
            raise SystemExit(code)
        report = json.loads(out.getvalue())
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 / MIB
    result = {"peak_mib": _vmhwm_mib(), "children_peak_mib": kids, "report": report}
    args.measure.write_text(json.dumps(result), encoding="utf-8")
    return 0


def _run_measured(extra: list[str], work: Path) -> dict[str, Any]:
    """:func:`measured_child` in a fresh process; its measurement and wall seconds."""
    import json

    measure = work / "measure.json"
    cmd = [sys.executable, "-m", "benchmarks.hostile_files", "--measure", str(measure), *extra]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    with (work / "child.log").open("wb") as err:
        t0 = time.perf_counter()
        done = subprocess.run(cmd, stdout=err, stderr=err, cwd=REPO, env=env, check=False)
        wall = time.perf_counter() - t0
    if done.returncode != 0:
        tail = (work / "child.log").read_text(encoding="utf-8", errors="replace")[-2000:]
        raise RuntimeError(f"{cmd} exited {done.returncode}: {tail}")
    result = dict(json.loads(measure.read_text(encoding="utf-8")))
    measure.unlink()
    result["wall_s"] = wall
    return result


def run_ingest(folder: Path, index: Path, work: Path) -> dict[str, Any]:
    """``citerag ingest --json`` on ``folder`` in a fresh process; its peak RSS and time."""
    r = _run_measured(["--folder", str(folder), "--index", str(index)], work)
    peak = max(r["peak_mib"], r["children_peak_mib"])
    return {"wall_s": r["wall_s"], "peak_rss_mib": peak, "summary": r["report"]}


def run_parse(path: Path, work: Path) -> dict[str, Any]:
    """Parse ``path`` alone in a fresh process (no embedding model): its peak RSS."""
    r = _run_measured(["--parse", str(path)], work)
    return {"parse_peak_rss_mib": r["peak_mib"], "parse_wall_s": r["wall_s"]}


def _records(index: Path) -> dict[str, dict[str, Any]]:
    """The manifest's document records by source (``docs/<name>``, an attachment's with
    its ``#attachment=`` address)."""
    from citerag.stores.loaded import read_manifest

    docs = read_manifest(index).documents
    return {str(rec["source"]): dict(rec) for rec in docs.values() if "source" in rec}


def run_case(root: Path, hostile: Hostile | None) -> dict[str, Any]:
    """One ingest run: the ordinary documents, and ``hostile`` if given."""
    name = hostile.name if hostile else "baseline"
    case = root / name.replace(".", "_")
    folder = case / "docs"
    folder.mkdir(parents=True)
    _ordinary(folder)
    size = 0
    if hostile is not None:
        t0 = time.perf_counter()
        size = hostile.write(folder / hostile.name).stat().st_size
        for extra in folder.glob("*.tmp.*"):
            extra.unlink()
        log(f"{hostile.name}: {size:,} bytes written in {time.perf_counter() - t0:.1f} s")
    result = run_ingest(folder, case / "index", case)
    result.update(run_parse(folder / (hostile.name if hostile else ORDINARY[0]), case))
    records = _records(case / "index")
    result.update(name=name, bytes=size, what=hostile.what if hostile else "")
    result["ordinary_indexed"] = all(
        records.get(f"docs/{doc}", {}).get("status") == "indexed" for doc in ORDINARY
    )
    if hostile is not None:
        key = f"docs/{hostile.name}"
        rec = records.get(key, {})
        result.update(
            status=rec.get("status", "missing"),
            kind=rec.get("kind", ""),
            reason=rec.get("reason", ""),
            warnings=rec.get("warnings", []),
            attachments=sorted(s for s in records if s.startswith(key + "#")),
        )
    return result


def _size(n: int) -> str:
    return f"{n / MIB:.1f} MiB" if n >= MIB else f"{n / 1024:.0f} KiB"


def _state(r: dict[str, Any]) -> str:
    if r["status"] == "failed":
        return f"failed ({r['kind']})"
    extra = f", and {len(r['attachments'])} attachments" if r.get("attachments") else ""
    return r["status"] + extra


def memory_table(runs: list[dict[str, Any]], base: float, parse_base: float) -> dict[str, Any]:
    """The result file's table: one row per hostile file."""
    rows = []
    for r in runs:
        if r["name"] == "baseline":
            continue
        rows.append(
            [
                f"`{r['name']}`",
                r["what"],
                _size(r["bytes"]),
                _state(r),
                (r["reason"] or "; ".join(r["warnings"]) or "—").replace("|", "/"),
                "yes" if r["ordinary_indexed"] else "**no**",
                f"{r['wall_s']:.1f}",
                f"{r['peak_rss_mib']:.0f} ({r['peak_rss_mib'] - base:+.0f})",
                f"{r['parse_peak_rss_mib']:.0f} ({r['parse_peak_rss_mib'] - parse_base:+.0f})",
            ]
        )
    return table(
        [
            "file",
            "what it is",
            "size on disk",
            "final state",
            "reason (or warnings)",
            "ordinary documents indexed",
            "wall s",
            "ingest peak RSS, MiB (vs baseline)",
            "parsing alone peak RSS, MiB (vs a small .docx)",
        ],
        rows,
        align=["left"] * 6 + ["right"] * 3,
    )


def markdown(runs: list[dict[str, Any]], base: float, parse_base: float, spread: float) -> str:
    """The runs as Markdown."""
    from benchmarks.report import render_table

    lines = [
        f"Baseline (the two ordinary documents alone): {base:.0f} MiB peak RSS "
        f"(two runs, {spread:.0f} MiB apart); parsing the small .docx alone: "
        f"{parse_base:.0f} MiB.",
        "",
        render_table(memory_table(runs, base, parse_base)),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the hostile files, ingest each beside the ordinary documents, report."""
    from tqdm import tqdm

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="*", help="hostile file names to run (default: all)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out")
    p.add_argument(
        "--server",
        action="store_true",
        help="upload each file to a running `citerag serve` instead (benchmarks.hostile_server)",
    )
    p.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--parse", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--index", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.measure:
        return measured_child(args)
    everything = HOSTILE + AT_THE_LIMITS
    chosen = [h for h in everything if not args.only or h.name in args.only]
    if args.only and len(chosen) != len(args.only):
        known = ", ".join(h.name for h in everything)
        p.error(f"--only names files of {known}; got {args.only}")
    cases: list[Hostile | None] = [None, *chosen, None]
    if args.server:
        return server_main(cases, args)
    runs = []
    with tempfile.TemporaryDirectory(prefix="citerag-hostile-") as tmp:
        for i, hostile in enumerate(tqdm(cases, desc="ingest runs", disable=args.no_progress)):
            r = run_case(Path(tmp) / f"{i:02d}", hostile)
            log(f"{r['name']}: {r['peak_rss_mib']:.0f} MiB peak, {r['wall_s']:.1f} s")
            runs.append(r)
    baselines = [r["peak_rss_mib"] for r in runs if r["name"] == "baseline"]
    base = sum(baselines) / len(baselines)
    spread = max(baselines) - min(baselines)
    parses = [r["parse_peak_rss_mib"] for r in runs if r["name"] == "baseline"]
    parse_base = sum(parses) / len(parses)
    md = markdown(runs, base, parse_base, spread)
    data = {"baseline_mib": baselines, "runs": runs}
    write(args.out, "hostile_files", data, md)
    if args.only:
        log("--only: a partial run; the result file is not written")
        return 0
    write_result("hostile_files", {"memory": memory_table(runs, base, parse_base)}, data)
    return 0


def server_main(cases: list[Hostile | None], args: argparse.Namespace) -> int:
    """``--server``: upload each file to a fresh ``citerag serve``; result
    ``hostile_files_server`` (table ``server``)."""
    from tqdm import tqdm

    from benchmarks.hostile_server import build_index, run_server_case, server_markdown

    runs = []
    with tempfile.TemporaryDirectory(prefix="citerag-hostile-server-") as tmp:
        index = build_index(Path(tmp) / "ordinary", _ordinary)
        for i, hostile in enumerate(tqdm(cases, desc="server runs", disable=args.no_progress)):
            r = run_server_case(Path(tmp) / f"{i:02d}", index, hostile)
            log(f"{r['name']}: {r.get('http', '')} {r.get('status', '')}, {r['peak_mib']:.0f} MiB")
            runs.append(r)
    md, tables = server_markdown(runs, _size)
    write(args.out, "hostile_files_server", {"runs": runs}, md)
    if args.only:
        log("--only: a partial run; the result file is not written")
        return 0
    write_result("hostile_files_server", tables, {"runs": runs})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

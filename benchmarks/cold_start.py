"""Cold start of ``citerag ask``: one question, a fresh process each time (a script, not a test).

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.cold_start [--index DIR] [-n 5] [--question "..."]
        [--tree OTHER_CHECKOUT ...]

Each run is ``python -m citerag ask QUESTION --index DIR`` in a new process, from a checkout's
root with that checkout first on ``PYTHONPATH`` (so it runs that checkout's code, whatever the
virtualenv's editable install points at), with the Makefile's environment (Hugging Face
offline, no tokenizer parallelism). The wall time is the whole process: interpreter start,
imports, model load, the answer, exit. One warm-up run per checkout comes first (it fills the
OS page cache with the libraries and weights) and is reported apart; then ``-n`` timed rounds,
each round running every checkout once in turn, so that checkouts compared side by side (this
one and ``--tree /tmp/base``, e.g. ``git worktree add --detach /tmp/base main``) share the
machine's state. Each run's exit status, whether its stderr shows a "Loading weights" progress
bar, and the 1-minute load average before it are recorded.

Then one more run per checkout, ``citerag -v ask ... --json``, gives the per-stage breakdown,
from the log lines ``load_default_graph`` and ``load_embedding_model`` write (index check, imports
of sentence-transformers and torch, weights, trace, index open, graph compile) and the trace's
node timings (graph invoke); "the rest" is the wall time none of these account for:
interpreter start, the CLI's and the graph's own imports, printing, exit. A checkout without
those log lines (before this benchmark) shows only its wall time.

Writes ``benchmarks/out/cold_start-<UTC time>.json``: the runs, the summaries, each checkout's
git commit (and whether it had uncommitted changes), and the machine (CPUs, CPU model, Python);
and the result file ``benchmarks/results/cold_start.json`` (tables ``wall``: median [min–max]
per checkout, and ``stages``: this checkout's breakdown). The table of
``docs/reference/cli.md`` comparing a quiet and a shared machine, now and before, was put
together from two such runs: ``cold_start_history`` (hand-collected).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.results import table, write_result

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "benchmarks" / "out"
DEFAULT_INDEX = Path("/tmp/cold-demo-index")
QUESTION = "What does inverter fault code E-217 mean?"
#: The Makefile's environment.
ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
#: Log lines with stage timings (``graphs.rag.load_default_graph``, ``load_embedding_model``).
GRAPH_LINE = re.compile(
    r"graph loaded in (?P<total>[\d.]+) s: index checked (?P<check>[\d.]+) s, embedding model "
    r"(?P<model>[\d.]+) s, index opened (?P<open>[\d.]+) s, graph compiled (?P<compile>[\d.]+) s"
)
MODEL_LINE = re.compile(
    r"\(imports (?P<imports>[\d.]+) s, weights (?P<weights>[\d.]+) s, trace (?P<trace>[\d.]+) s\)"
)


def git_state(tree: Path) -> dict[str, Any]:
    """The checkout's commit and whether its tracked files have uncommitted changes."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(tree), *args], capture_output=True, text=True, check=False
        ).stdout.strip()

    return {
        "path": str(tree),
        "commit": git("rev-parse", "HEAD"),
        "describe": git("log", "-1", "--format=%h %s")[:100],
        "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
    }


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "nproc": os.cpu_count(),
        "cpu": model or platform.processor(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def ask(tree: Path, index: Path, question: str, breakdown: bool = False) -> dict[str, Any]:
    """One ``citerag ask`` in a fresh process: wall seconds, exit status, stdout, stderr.

    With ``breakdown``, ``citerag -v ask ... --json`` (the stage timings' log lines and trace).
    """
    env = {**os.environ, **ENV, "PYTHONPATH": str(tree)}
    flags = (["-v"], ["--json"]) if breakdown else ([], [])
    cmd = [sys.executable, "-m", "citerag", *flags[0], "ask", question, "--index", str(index)]
    cmd += flags[1]
    load = os.getloadavg()[0]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    return {
        "wall_s": round(wall, 3),
        "returncode": proc.returncode,
        "loading_weights_bar": "Loading weights" in proc.stderr,
        "loadavg_1min_before": load,
        "stdout": proc.stdout,
        "stderr": proc.stderr,
    }


def stages(run: dict[str, Any]) -> dict[str, float] | None:
    """The stage breakdown of a ``-v --json`` run (``None`` without the timing log lines)."""
    graph = GRAPH_LINE.search(run["stderr"])
    if graph is None:
        return None
    out = {
        "index check": float(graph["check"]),
        "embedding model": float(graph["model"]),
        "index open": float(graph["open"]),
        "graph compile": float(graph["compile"]),
    }
    model = MODEL_LINE.search(run["stderr"])
    if model is not None:
        out["  of which imports (sentence-transformers, transformers, torch)"] = float(
            model["imports"]
        )
        out["  of which weights"] = float(model["weights"])
        out["  of which trace"] = float(model["trace"])
    try:
        timings = json.loads(run["stdout"])["trace"]["timings_s"] or {}
    except (json.JSONDecodeError, KeyError, TypeError):
        timings = {}
    out["graph invoke"] = round(sum(float(v) for v in timings.values()), 3)
    accounted = float(graph["total"]) + out["graph invoke"]
    out["the rest (interpreter, CLI and graph imports, output, exit)"] = round(
        run["wall_s"] - accounted, 3
    )
    return out


def summary(walls: list[float]) -> str:
    """``median [min–max]``."""
    return f"{statistics.median(walls):.2f} s [{min(walls):.2f}–{max(walls):.2f}]"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and write its JSON result."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--index", type=Path, default=DEFAULT_INDEX, help="the demo index")
    ap.add_argument("-n", type=int, default=5, help="timed runs per checkout")
    ap.add_argument("--question", default=QUESTION)
    ap.add_argument(
        "--tree",
        type=Path,
        action="append",
        default=[],
        help="another checkout to compare, run interleaved with this one (repeatable)",
    )
    ap.add_argument("--out", type=Path, default=None, help="the JSON result file")
    args = ap.parse_args(argv)

    trees = [REPO, *(t.resolve() for t in args.tree)]
    if not (args.index / "current").exists():
        print(f"building the demo index in {args.index} (examples/corpus) ...", flush=True)
        ingest = ["ingest", "examples/corpus", "--index", str(args.index), "-q"]
        subprocess.run(
            [sys.executable, "-m", "citerag", *ingest],
            cwd=REPO,
            env={**os.environ, **ENV, "PYTHONPATH": str(REPO)},
            check=True,
            capture_output=True,
        )
    result: dict[str, Any] = {
        "question": args.question,
        "index": str(args.index),
        "n": args.n,
        "machine": machine(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "loadavg_at_start": os.getloadavg(),
        "trees": {str(t): git_state(t) for t in trees},
    }
    runs: dict[str, dict[str, Any]] = {str(t): {"warmup": None, "timed": []} for t in trees}
    for tree in trees:
        runs[str(tree)]["warmup"] = ask(tree, args.index, args.question)
    for _ in range(args.n):
        for tree in trees:
            runs[str(tree)]["timed"].append(ask(tree, args.index, args.question))
    breakdown = {str(t): ask(t, args.index, args.question, breakdown=True) for t in trees}
    result["loadavg_at_end"] = os.getloadavg()

    print(
        f"citerag ask {args.question!r} --index {args.index}: N={args.n} fresh processes per "
        f"checkout, interleaved; {result['machine']['nproc']} CPUs ({result['machine']['cpu']}),"
        f" Python {result['machine']['python']}"
    )
    summaries: dict[str, Any] = {}
    for tree in trees:
        key = str(tree)
        timed = runs[key]["timed"]
        walls = [r["wall_s"] for r in timed]
        loads = [r["loadavg_1min_before"] for r in timed]
        state = result["trees"][key]
        summaries[key] = {
            "median_s": statistics.median(walls),
            "min_s": min(walls),
            "max_s": max(walls),
            "warmup_s": runs[key]["warmup"]["wall_s"],
            "loadavg_1min": [min(loads), max(loads)],
            "all_exit_0": all(r["returncode"] == 0 for r in timed),
            "loading_weights_bar": any(r["loading_weights_bar"] for r in timed),
            "stages_s": stages(breakdown[key]),
            "stages_run_wall_s": breakdown[key]["wall_s"],
        }
        s = summaries[key]
        print(
            f"\n{state['describe']}{' (+ uncommitted changes)' if state['dirty'] else ''}\n"
            f"  {key}\n"
            f"  wall: {summary(walls)}   warm-up {s['warmup_s']:.2f} s   load average "
            f"{min(loads):.2f}–{max(loads):.2f}   exit 0: {s['all_exit_0']}   "
            f"'Loading weights' bar: {s['loading_weights_bar']}"
        )
        if s["stages_s"] is None:
            print("  stages: not logged by this checkout")
        else:
            print(f"  stages (one more run, -v --json, wall {s['stages_run_wall_s']:.2f} s):")
            for name, seconds in s["stages_s"].items():
                print(f"    {name:<62} {seconds:6.3f} s")
    result["summary"] = summaries
    for tree_runs in runs.values():  # keep the record small: the end of each stderr
        for r in [tree_runs["warmup"], *tree_runs["timed"]]:
            r["stderr"] = r["stderr"][-2000:]
    result["runs"] = runs
    result["breakdown_runs"] = {
        k: {**v, "stdout": v["stdout"][:0], "stderr": v["stderr"][-4000:]}
        for k, v in breakdown.items()
    }
    out = args.out or OUT / f"cold_start-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwrote {out}")
    keep = ("question", "n", "trees", "summary", "loadavg_at_start", "loadavg_at_end")
    write_result("cold_start", result_tables(result, trees), {k: result[k] for k in keep})
    return 0


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "cold_start_history": "two runs (a quiet and a shared machine) against an older checkout, "
    "side by side",
}


def result_tables(result: dict[str, Any], trees: list[Path]) -> dict[str, Any]:
    """The result file's tables: wall time per checkout, and this checkout's stages."""
    rows = []
    for i, tree in enumerate(trees):
        state, s = result["trees"][str(tree)], result["summary"][str(tree)]
        label = "this checkout" if i == 0 else f"`{state['describe'].split()[0]}`"
        lo, hi = s["loadavg_1min"]
        rows.append(
            [
                label,
                f"**{s['median_s']:.2f} s** [{s['min_s']:.2f}–{s['max_s']:.2f}]",
                f"{s['warmup_s']:.2f} s",
                f"{lo:.1f}–{hi:.1f}",
            ]
        )
    wall = table(
        [
            f"`citerag ask`, N = {result['n']} fresh processes",
            "wall, median [min–max]",
            "warm-up run",
            "load average",
        ],
        rows,
    )
    first = result["summary"][str(trees[0])]
    stages = first["stages_s"] or {}
    parts = [n for n in stages if n.startswith(" ")]  # the embedding model's parts
    order = [n for n in stages if not n.startswith(" ")]
    if "embedding model" in order:
        at = order.index("embedding model") + 1
        order[at:at] = parts
    else:
        order += parts
    # "  of which imports" -> "… of which imports" (Markdown drops the indent)
    stage_rows = [
        [f"… {name.strip()}" if name.startswith(" ") else name, f"{stages[name]:.2f}"]
        for name in order
    ]
    stage_rows.append(["whole run (`-v --json`)", f"{first['stages_run_wall_s']:.2f}"])
    return {"wall": wall, "stages": table(["stage (one run)", "s"], stage_rows)}


if __name__ == "__main__":
    sys.exit(main())

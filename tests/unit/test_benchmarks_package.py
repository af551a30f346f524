"""The benchmarks as a package: result files stamped, docs tables in sync, imports clean."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import report, results

REPO = Path(__file__).resolve().parents[2]
BENCHMARKS = REPO / "benchmarks"


def test_write_result_stamps_commit_machine_and_command(tmp_path):
    t = results.table(["config", "R@1"], [["dense", "0.615"], ["hybrid", 0.724]])
    path = results.write_result("demo", {"recall": t}, {"n": 2}, folder=tmp_path)
    data = json.loads(path.read_text())
    stamp = data["stamp"]
    assert len(stamp["commit"]) == 40 and isinstance(stamp["dirty"], bool)
    assert stamp["date"][:2] == "20" and "command" in stamp
    assert stamp["machine"]["cores"] >= 1 and stamp["machine"]["python"]
    assert data["provenance"] == "measured"
    assert data["tables"]["recall"]["rows"][1] == ["hybrid", "0.724"]
    assert data["tables"]["recall"]["align"] == ["left", "right"]


def test_bad_tables_and_names_are_refused(tmp_path):
    with pytest.raises(ValueError, match="row 0 has 1 cells"):
        results.table(["a", "b"], [["x"]])
    with pytest.raises(ValueError, match="lower-case"):
        results.write_result("Bad Name", {}, folder=tmp_path)
    with pytest.raises(ValueError, match="commit and date"):
        results.transcribed_stamp("", "", "python -m benchmarks.x")


def test_markdown_tables_round_trip():
    md = "text\n\n| a | **b** |\n|---|--:|\n| x \\| y | 1 |\n| z | 2 |\n\nmore"
    (t,) = results.tables_from_markdown(md)
    assert t["columns"] == ["a", "**b**"] and t["align"] == ["left", "right"]
    assert t["rows"] == [["x \\| y", "1"], ["z", "2"]]
    assert results.tables_from_markdown(report.render_table(t)) == [t]


def test_the_docs_tables_match_their_result_files():
    assert report.update(check=True) == [], "run `python -m benchmarks.report`"
    named = {b.name for b in report.blocks()}
    files = {p.stem for p in results.RESULTS.glob("*.json")}
    assert named <= files and named, "a docs block names a missing result file"


def test_a_stale_page_is_found_and_rewritten(tmp_path):
    docs, res = tmp_path / "docs", tmp_path / "results"
    docs.mkdir()
    t = results.table(["set", "R@1"], [["squad", "0.829"]])
    stamp = results.transcribed_stamp("abc1234def", "2026-12-04T10:00:00+00:00", "python -m x")
    results.write_result("demo", {"r": t}, provenance="transcribed", stamp_=stamp, folder=res)
    page = docs / "p.md"
    page.write_text("intro\n<!-- result:demo/r:begin -->\nold\n<!-- result:demo/r:end -->\nend\n")
    assert report.update(docs, res, check=True) == ["p.md"]
    assert "old" in page.read_text()  # --check leaves the page alone
    assert report.update(docs, res) == ["p.md"]
    text = page.read_text()
    assert (
        "| squad | 0.829 |" in text and "transcribed from the table published at abc1234def" in text
    )
    assert text.startswith("intro\n") and text.endswith("end\n")
    assert report.update(docs, res, check=True) == []
    t["rows"][0][1] = "0.830"  # the result file changes: the page is stale again
    results.write_result("demo", {"r": t}, provenance="transcribed", stamp_=stamp, folder=res)
    assert report.update(docs, res, check=True) == ["p.md"]
    with pytest.raises(KeyError, match="no table 'other'"):
        report.render_block("demo", "other", res)


def test_a_measured_stamp_line_names_the_machine(tmp_path):
    path = results.write_result("m", {}, folder=tmp_path)
    line = report.stamp_line(json.loads(path.read_text()))
    assert "measured at" in line and "cores" in line and "Python" in line


def test_no_benchmark_touches_sys_path():
    offenders = [
        str(p.relative_to(REPO))
        for p in [*BENCHMARKS.rglob("*.py"), *(REPO / "tests").rglob("*.py")]
        if "sys.path.insert" in p.read_text(encoding="utf-8") and p != Path(__file__)
    ]
    assert offenders == []


def test_every_benchmark_imports_without_running():
    """Importing every module of the package runs nothing: no model, no files, no server."""
    modules = sorted(
        ".".join(p.relative_to(REPO).with_suffix("").parts)
        for p in BENCHMARKS.rglob("*.py")
        if "corpora" not in p.parts
    )
    code = (
        "import importlib, sys\n"
        f"for m in {[m.removesuffix('.__init__') for m in modules]!r}:\n"
        "    importlib.import_module(m)\n"
        "heavy = [m for m in ('torch', 'sentence_transformers', 'faiss') if m in sys.modules]\n"
        "print('heavy:', heavy)\n"
    )
    before = sorted(p for p in BENCHMARKS.rglob("*") if "out" not in p.parts)
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "heavy: []" in r.stdout
    after = sorted(p for p in BENCHMARKS.rglob("*") if "out" not in p.parts)
    assert [p for p in after if p not in before and "__pycache__" not in p.parts] == []


@pytest.mark.parametrize(
    "module", ["benchmarks.report", "benchmarks.ladder", "benchmarks.ocr_engines"]
)
def test_help_runs_as_a_module(module):
    r = subprocess.run(
        [sys.executable, "-m", module, "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "usage:" in r.stdout


def test_copy_of_docs_is_current(tmp_path):
    """The repository's pages render identically from a copy (no absolute paths leak in)."""
    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    assert report.update(docs, check=True) == []


def test_the_one_percentile_is_nearest_rank():
    from benchmarks.common import ms, percentile

    values = [float(v) for v in range(1, 101)]  # 1..100
    assert percentile(values, 50) == 50.0 and percentile(values, 95) == 95.0
    assert percentile(values, 100) == 100.0 and percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([1.0, 2.0], 50) == 1.0  # an observed value, never an interpolation
    assert ms([0.0123], 50) == 12.3 and ms([], 50) is None
    with pytest.raises(ValueError, match="in \\(0, 100\\]"):
        percentile(values, 0)


def _result_names_written(tree: ast.AST) -> set[str]:
    """The result names a module passes to ``write_result``: a literal first argument, or the
    string literals of the expression (and of the module's assignments to its names)."""
    assigned: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, []).append(node.value)

    def strings(expr: ast.AST, seen: set[str]) -> set[str]:
        out = {
            n.value
            for n in ast.walk(expr)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        }
        for n in ast.walk(expr):
            if isinstance(n, ast.Name) and n.id in assigned and n.id not in seen:
                seen.add(n.id)
                for value in assigned[n.id]:
                    out |= strings(value, seen)
        return out

    names: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "write_result"
            and node.args
        ):
            names |= strings(node.args[0], set())
    return names


def _declared(tree: ast.AST, variable: str) -> set[str]:
    """The keys of a module-level dict literal ``variable = {...}``."""
    for node in ast.iter_child_nodes(tree):
        target = getattr(node, "target", None) or next(iter(getattr(node, "targets", [])), None)
        if isinstance(target, ast.Name) and target.id == variable:
            assert isinstance(node.value, ast.Dict), f"{variable} must be a dict literal"
            return {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
    return set()


def test_every_result_file_is_written_by_its_benchmark():
    """A result file belongs to a benchmark module that writes it (``write_result("NAME", …)``)
    or declares it: ``HAND_COLLECTED_RESULTS`` (tables from several runs, which no single run
    writes) or ``TRANSCRIBED_RESULTS`` (a one-off study whose script does not write it yet).
    So a transcribed table cannot silently stay orphaned when its script changes."""
    written: dict[str, str] = {}
    hand: dict[str, str] = {}
    transcribed: dict[str, str] = {}
    for path in sorted(BENCHMARKS.rglob("*.py")):
        module = ".".join(path.relative_to(REPO).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in _result_names_written(tree):
            written.setdefault(name, module)
        for name in _declared(tree, "HAND_COLLECTED_RESULTS"):
            hand[name] = module
        for name in _declared(tree, "TRANSCRIBED_RESULTS"):
            transcribed[name] = module
    problems = []
    for path in sorted(results.RESULTS.glob("*.json")):
        name = path.stem
        data = json.loads(path.read_text(encoding="utf-8"))
        provenance = str(data.get("provenance", ""))
        if name in hand:
            if not provenance.startswith(results.HAND_COLLECTED):
                problems.append(f"{name}: declared hand-collected in {hand[name]}, file is not")
        elif provenance.startswith(results.HAND_COLLECTED):
            problems.append(f"{name}: hand-collected, but no module's HAND_COLLECTED_RESULTS")
        elif name not in written and name not in transcribed:
            problems.append(f"{name}: no benchmark module calls write_result({name!r}, ...)")
        elif name in transcribed and provenance == results.MEASURED:
            problems.append(f"{name}: measured, yet {transcribed[name]} lists it as transcribed")
    assert not problems, "\n".join(problems)
    stale = sorted((set(hand) | set(transcribed)) - {p.stem for p in results.RESULTS.glob("*")})
    assert stale == [], "declared result files that do not exist"


def test_every_docs_marker_names_a_result_file_and_table():
    pattern = re.compile(r"<!-- result:([a-z0-9_-]+)/([a-z0-9_-]+):(begin|end) -->")
    markers = {
        (m[1], m[2])
        for page in (REPO / "docs").rglob("*.md")
        for m in pattern.finditer(page.read_text(encoding="utf-8"))
    }
    assert markers
    missing = [
        f"{name}/{t}"
        for name, t in sorted(markers)
        if not (results.RESULTS / f"{name}.json").is_file()
        or t not in results.read_result(name)["tables"]
    ]
    assert missing == []


def test_a_changed_result_file_does_not_make_the_next_run_dirty(tmp_path):
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "benchmarks" / "results").mkdir(parents=True)
    (tmp_path / "benchmarks" / "results" / "a.json").write_text("{}")
    (tmp_path / "code.py").write_text("x = 1\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    assert results.git_state(tmp_path)["dirty"] is False
    (tmp_path / "benchmarks" / "results" / "a.json").write_text('{"new": 1}')  # a run wrote it
    assert results.git_state(tmp_path)["dirty"] is False
    (tmp_path / "code.py").write_text("x = 2\n")
    assert results.git_state(tmp_path)["dirty"] is True


def test_stop_servers_stops_every_process_and_skips_none() -> None:
    import subprocess
    import sys

    from benchmarks.common import stop_servers

    procs = [
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) for _ in range(2)
    ]
    stop_servers(procs[0], None, procs[1], timeout=10)
    assert all(p.returncode is not None for p in procs)


def test_run_worker_passes_the_options_on(monkeypatch):
    """The two-version benchmarks start each side the same way (``common.run_worker``)."""
    import argparse
    import sys
    from pathlib import Path

    from benchmarks import common

    ran = []
    monkeypatch.setattr(common.subprocess, "run", lambda cmd, **kw: ran.append((cmd, kw)))
    args = argparse.Namespace(work=Path("/w"), max_company_pages=450, no_progress=True)
    common.run_worker("benchmarks.x", "base", Path("/tree"), args, ["work", "max_company_pages"],
                      ["--config", "default"])  # fmt: skip
    (cmd, kw), = ran  # fmt: skip
    assert cmd == [sys.executable, "-m", "benchmarks.x", "--worker", "base", "--code", "/tree",
                   "--work", "/w", "--max-company-pages", "450", "--config", "default",
                   "--no-progress"]  # fmt: skip
    assert kw == {"check": True, "cwd": common.REPO}


def test_run_sides_runs_each_side_and_reuses_a_finished_one(monkeypatch, tmp_path):
    import argparse
    from pathlib import Path

    from benchmarks import common

    ran = []
    monkeypatch.setattr(common, "run_worker", lambda module, v, tree, *a: ran.append((v, tree)))
    (tmp_path / "x-base.json").write_text("{}")
    sides = (("base", Path("/base")), ("new", Path("/new")))
    done = lambda v: tmp_path / f"x-{v}.json"  # noqa: E731
    common.run_sides("benchmarks.x", sides, argparse.Namespace(reuse=True), [], done)
    assert ran == [("new", Path("/new"))]  # the base's outcome is there: not run again
    common.run_sides("benchmarks.x", sides, argparse.Namespace(reuse=False), [], done)
    assert ran[1:] == [("base", Path("/base")), ("new", Path("/new"))]


def test_another_embedding_model_gets_its_own_index_or_is_refused():
    """``--embedding-model`` is every benchmark's option: one that runs another model keeps
    its vectors apart (``index-<model>``); one that runs the bundled model only stops with a
    message rather than publish the bundled model's figures as the other's."""
    import argparse

    from benchmarks import common

    assert common.index_folder(None) == "index"
    assert common.index_folder("sentence-transformers/all-MiniLM-L6-v2") == "index"
    assert common.index_folder("minilm-int8").startswith("index-")
    common.bundled_model_only(argparse.Namespace(embedding_model=None), "benchmarks.x")
    with pytest.raises(SystemExit, match=r"benchmarks\.x: --embedding-model 'minilm-int8' is not"):
        common.bundled_model_only(argparse.Namespace(embedding_model="minilm-int8"), "benchmarks.x")

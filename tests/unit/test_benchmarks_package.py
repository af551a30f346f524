"""The benchmarks as a package: result files stamped, docs tables in sync, imports clean."""

from __future__ import annotations

import json
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

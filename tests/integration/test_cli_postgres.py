"""The command line on a PostgreSQL store: ``--store URL`` for ingest, inspect, ask, eval and
calibrate, and ``$CITERAG_STORE``, against the session's real PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag import cli
from citerag.stores.calibration import read_calibration

pytestmark = pytest.mark.integration


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    return code, capsys.readouterr().out


def test_ingest_inspect_ask_eval_on_a_store(
    pg_url: str, sample_corpus: Path, repo_root: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    code, out = _run(
        capsys, "ingest", str(sample_corpus), "--store", pg_url + "&m=24", "-q", "--json"
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["indexed"] == 5 and not summary["failed"]

    code, out = _run(capsys, "inspect", "--store", pg_url)
    assert code == 0
    assert "PostgreSQL 16" in out and summary["build_id"] in out
    assert "HNSW m=24 ef_construction=200" in out  # the index's own settings, from the URL
    assert "maintenance_notes.txt" in out

    code, out = _run(
        capsys, "ask", "What does inverter fault code E-217 mean?", "--store", pg_url, "--json"
    )
    assert code == 0
    result = json.loads(out)
    assert result["status"] == "answered"
    assert result["citations"][0]["doc_name"] == "maintenance_notes.txt"
    assert result["trace"]["index"]["manifest_id"] == summary["build_id"]

    # the same store through the environment, no flag
    monkeypatch.setenv(cli.STORE_ENV, pg_url)
    code, out = _run(
        capsys,
        "eval",
        str(repo_root / "examples" / "questions.jsonl"),
        "--limit",
        "6",
        "--config",
        "hybrid",
        "--no-progress",
        "--json",
    )
    assert code == 0, out
    report = json.loads(out)
    assert "manifest_id" in report, sorted(report)
    assert report["manifest_id"] == summary["build_id"] and report["n"] == 6


def test_calibration_lives_in_the_store(pg_url: str, sample_corpus: Path, capsys) -> None:
    from citerag.stores.calibration import write_calibration

    assert cli.main(["ingest", str(sample_corpus), "--store", pg_url, "-q"]) == 0
    capsys.readouterr()
    assert read_calibration(pg_url) == {}
    write_calibration(pg_url, {"dense": {"threshold": 0.42, "source": "test"}})
    write_calibration(pg_url, {"sentence-hybrid": {"threshold": 0.5}, "junk": {"x": 1}})
    assert read_calibration(pg_url) == {
        "dense": {"threshold": 0.42, "source": "test"},
        "sentence-hybrid": {"threshold": 0.5},
    }
    # citerag calibrate --reset empties it: the packaged defaults apply again
    assert cli.main(["calibrate", "--reset", "--store", pg_url]) == 0
    assert "apply again" in capsys.readouterr().out
    assert read_calibration(pg_url) == {}
    assert cli.main(["calibrate", "--reset", "--store", pg_url]) == 0
    assert "has no calibration" in capsys.readouterr().out


def test_a_missing_store_index_is_a_clear_error(pg_url: str, capsys) -> None:
    code = cli.main(["ask", "anything?", "--store", pg_url])
    assert code == 2
    assert "citerag ingest" in capsys.readouterr().err

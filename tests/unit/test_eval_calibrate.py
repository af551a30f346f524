"""Threshold selection rules and the sweep table, on hand-made scores."""

from __future__ import annotations

import json

import pytest

from citerag.eval import calibrate as calib

POS = [0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4, 0.35, 0.3, 0.2]
OOD = [0.55, 0.42, 0.38, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.0]
NEAR = [0.85, 0.75, 0.6, 0.5]


def scores():
    return calib.ScoreScores(
        "rerank",
        "sentence-hybrid",
        list(POS),
        [0.9] + [None] * 9,
        {"out-of-domain": list(OOD), "unanswerable": list(NEAR)},
    )


def test_max_bluff_rule_picks_lowest_threshold_meeting_the_limit():
    s = scores()
    # 10 % of 10 = 1 bluff allowed: refuse the 2nd highest (0.42) -> t just above 0.42
    t = calib.choose(s, calib.Rule("max-bluff", 0.10), "out-of-domain")
    assert t == pytest.approx(0.421)
    row = calib.sweep_row(s, t)
    assert row["bluffs:out-of-domain"].k == 1
    assert row["answerable_kept"].k == 6 and row["answerable_lost"].k == 4
    # 0 % -> above the highest negative
    assert calib.choose(s, calib.Rule("max-bluff", 0.0), "out-of-domain") == pytest.approx(0.551)
    # a lower threshold would break the limit
    assert calib.sweep_row(s, 0.42)["bluffs:out-of-domain"].k == 2


def test_min_kept_rule():
    s = scores()
    t = calib.choose(s, calib.Rule("min-kept", 0.8), "out-of-domain")
    assert t == pytest.approx(0.35)  # keeps 8 of 10
    assert calib.sweep_row(s, t)["answerable_kept"].k == 8


def test_rule_validation_and_description():
    with pytest.raises(ValueError):
        calib.Rule("best", 0.1)
    with pytest.raises(ValueError):
        calib.Rule("max-bluff", 1.5)
    assert "bluff rate <= 10%" in calib.Rule().describe("out-of-domain")
    with pytest.raises(ValueError, match="bluff set"):
        calib.choose(scores(), calib.Rule(), "nope")


def test_calibrate_table_auc_and_entry(tmp_path):
    cal = calib.calibrate(scores(), calib.Rule(), "out-of-domain")
    assert any(abs(r["threshold"] - cal.threshold) < 1e-9 for r in cal.table)
    assert 0.5 < cal.auc["out-of-domain"] <= 1.0
    assert cal.auc["unanswerable"] < cal.auc["out-of-domain"]
    text = calib.format_table(cal)
    assert "◀" in text and "bluffs (out-of-domain)" in text
    entry = cal.entry({"questions": "q.jsonl"}, {"reranker": "sentence"})
    assert entry["threshold"] == cal.threshold and entry["score"] == "rerank"
    assert entry["n"] == {"answerable": 10, "out-of-domain": 10, "unanswerable": 4}
    path = calib.write_calibration(tmp_path, {"sentence-hybrid": entry})
    calib.write_calibration(tmp_path, {"dense": {"threshold": 0.3}})
    data = json.loads(path.read_text())
    assert set(data) == {"sentence-hybrid", "dense"}
    from graphs.rag import read_calibration

    assert read_calibration(tmp_path)["sentence-hybrid"]["threshold"] == cal.threshold


def test_plot_writes_a_png(tmp_path):
    cal = calib.calibrate(scores(), calib.Rule(), "out-of-domain")
    path = calib.plot([cal, cal], tmp_path / "c.png", title="t")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

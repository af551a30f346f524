"""Which score the gate compares, against which threshold, and where the threshold came from."""

from __future__ import annotations

import logging

import pytest

from graphs.config import RAGConfig, gate_defaults


def test_packaged_default_for_the_shipped_second_stage():
    g = RAGConfig().gate_settings("sentence-hybrid")
    assert g == {
        "score": "rerank",
        "threshold": gate_defaults()["sentence-hybrid"]["threshold"],
        "source": "packaged default",
        "note": None,
    }


def test_index_calibration_overrides_the_packaged_default():
    g = RAGConfig().gate_settings("sentence-hybrid", {"sentence-hybrid": {"threshold": 0.61}})
    assert (g["score"], g["threshold"], g["source"]) == ("rerank", 0.61, "index calibration")


def test_request_threshold_wins_and_keeps_the_requested_score():
    cfg = RAGConfig(gate_threshold=2.5)
    g = cfg.gate_settings("cross-encoder:ms-marco", {"sentence-hybrid": {"threshold": 0.6}})
    assert g == {"score": "rerank", "threshold": 2.5, "source": "request", "note": None}
    assert RAGConfig(gate_score="dense", gate_threshold=0.3).threshold("x") == ("dense", 0.3)


def test_uncalibrated_reranker_falls_back_to_dense_and_says_so():
    g = RAGConfig().gate_settings("cross-encoder:ms-marco")
    assert g["score"] == "dense"
    assert g["threshold"] == gate_defaults()["dense"]["threshold"]
    assert "no calibrated threshold for reranker 'cross-encoder:ms-marco'" in g["note"]
    calibrated = RAGConfig().gate_settings(
        "cross-encoder:ms-marco", {"cross-encoder:ms-marco": {"threshold": 3.0}}
    )
    assert (calibrated["score"], calibrated["threshold"], calibrated["note"]) == (
        "rerank",
        3.0,
        None,
    )


def test_dense_gate_uses_the_dense_entry():
    g = RAGConfig(gate_score="dense").gate_settings(
        "sentence-hybrid", {"dense": {"threshold": 0.5}}
    )
    assert (g["score"], g["threshold"], g["source"]) == ("dense", 0.5, "index calibration")


def test_gate_node_traces_the_source_and_warns_once(caplog):
    from types import SimpleNamespace

    from graphs import nodes

    nodes._WARNED_UNCALIBRATED.discard("cross-encoder:unit-test")  # warn-once is per process
    cand = SimpleNamespace(scores={"dense": 0.9, "rerank": 5.0})
    state = {"candidates": [cand], "reranking": {"reranker": "cross-encoder:unit-test"}}
    deps = SimpleNamespace(calibration={})
    with caplog.at_level(logging.WARNING, logger="graphs.nodes"):
        out = nodes.gate(state, {"configurable": {}}, deps=deps)
        nodes.gate(state, {"configurable": {}}, deps=deps)
    g = out["gate"]
    assert g["score"] == "dense" and g["best"] == pytest.approx(0.9) and g["passed"]
    assert g["threshold_source"] == "packaged default" and "citerag calibrate" in g["note"]
    assert sum("cross-encoder:unit-test" in r.getMessage() for r in caplog.records) == 1


def test_number_check_is_a_boolean_knob():
    assert RAGConfig().number_check is True
    off = RAGConfig.from_runnable_config({"configurable": {"number_check": False}})
    assert off.number_check is False
    with pytest.raises(ValueError, match="number_check"):
        RAGConfig.from_runnable_config({"configurable": {"number_check": "no"}})

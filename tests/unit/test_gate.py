"""The gate: threshold resolution, the decision, the candidate cut and the node's trace."""

from __future__ import annotations

import logging

import pytest

from chains.gate import GateSettings, decide, gate_defaults, resolve
from graphs import nodes
from graphs.deps import GraphDeps
from graphs.records import RerankRecord
from tests.support.factories import make_candidate


def _resolve(reranker="sentence-hybrid", calibration=None, score="rerank", threshold=None):
    return resolve(
        gate_score=score,
        gate_threshold=threshold,
        reranker_name=reranker,
        calibration=calibration,
    )


def test_packaged_default_for_the_shipped_second_stage():
    assert _resolve() == GateSettings(
        "rerank", gate_defaults()["sentence-hybrid"]["threshold"], "packaged default", None
    )


def test_index_calibration_overrides_the_packaged_default():
    g = _resolve(calibration={"sentence-hybrid": {"threshold": 0.61}})
    assert (g.score, g.threshold, g.source) == ("rerank", 0.61, "index calibration")


def test_request_threshold_wins_and_keeps_the_requested_score():
    g = _resolve("cross-encoder:ms-marco", {"sentence-hybrid": {"threshold": 0.6}}, threshold=2.5)
    assert g == GateSettings("rerank", 2.5, "request", None)
    assert _resolve("x", score="dense", threshold=0.3).score == "dense"


def test_uncalibrated_reranker_falls_back_to_dense_and_says_so():
    g = _resolve("cross-encoder:ms-marco")
    assert (g.score, g.threshold) == ("dense", gate_defaults()["dense"]["threshold"])
    assert g.note and "no calibrated threshold for reranker 'cross-encoder:ms-marco'" in g.note
    calibrated = _resolve("cross-encoder:ms-marco", {"cross-encoder:ms-marco": {"threshold": 3.0}})
    assert (calibrated.score, calibrated.threshold, calibrated.note) == ("rerank", 3.0, None)


@pytest.mark.parametrize(
    ("model", "noted"),
    [
        ("sentence-transformers/all-MiniLM-L6-v2", False),  # what the defaults were fitted on
        ("all-MiniLM-L6-v2-onnx-int8", False),  # its int8 export: the same scale
        (None, False),  # unknown (a bare store): nothing to compare
        ("/models/all-MiniLM-L6-v2", False),  # a local copy of the same model
        # checked on the default's threshold (holds_for), by hub name or a local copy
        ("sentence-transformers/all-mpnet-base-v2", False),
        ("benchmarks/out/models/all-mpnet-base-v2", False),
        ("BAAI/bge-small-en-v1.5", True),
    ],
)
def test_packaged_thresholds_say_which_model_they_were_calibrated_with(model, noted):
    g = resolve(
        gate_score="rerank",
        gate_threshold=None,
        reranker_name="sentence-hybrid",
        embedding_model=model,
    )
    assert g.threshold == gate_defaults()["sentence-hybrid"]["threshold"]  # it still applies
    assert bool(g.note and "run `citerag calibrate`" in g.note) is noted
    # the index's own calibration, or a request's threshold, needs no such note
    own = resolve(
        gate_score="rerank",
        gate_threshold=None,
        reranker_name="sentence-hybrid",
        calibration={"sentence-hybrid": {"threshold": 0.7}},
        embedding_model=model,
    )
    assert own.note is None
    every = gate_defaults().values()
    assert all(e.get("embedding_model") for e in every if isinstance(e, dict))
    # the dense threshold was not checked on another model: the note is there
    dense = resolve(
        gate_score="dense",
        gate_threshold=None,
        reranker_name="sentence-hybrid",
        embedding_model="sentence-transformers/all-mpnet-base-v2",
    )
    assert dense.note and "calibrated with sentence-transformers/all-MiniLM-L6-v2" in dense.note


def test_dense_gate_uses_the_dense_entry():
    g = _resolve(score="dense", calibration={"dense": {"threshold": 0.5}})
    assert (g.score, g.threshold, g.source) == ("dense", 0.5, "index calibration")


def test_unknown_gate_score_is_refused():
    with pytest.raises(ValueError, match="gate_score must be rerank, dense or answerability"):
        _resolve(score="bm25")


def test_decision_best_score_passing_count_and_cut():
    cands = [
        make_candidate("a", scores={"rerank": 0.7, "dense": 0.2}),
        make_candidate("b", scores={"rerank": 0.4, "dense": 0.9}),
        make_candidate("c", scores={"dense": 0.8}),  # no rerank score: never passes a rerank gate
        make_candidate("d", scores={"rerank": 0.55}),
    ]
    d = decide(cands, GateSettings("rerank", 0.55, "request"), "sentence-hybrid")
    assert d.passed and d.best == pytest.approx(0.7) and d.passing_candidates == 2
    assert [c.content for c in d.cut(cands)] == ["a", "d"]  # order kept, threshold inclusive
    assert d.score_of == "sentence-hybrid"
    dense = decide(cands, GateSettings("dense", 0.85, "request"), "sentence-hybrid")
    assert dense.score_of == "dense" and [c.content for c in dense.cut(cands)] == ["b"]


def test_decision_below_threshold_and_without_candidates():
    below = decide(
        [make_candidate(scores={"rerank": 0.2})], GateSettings("rerank", 0.5, "request"), "s"
    )
    assert not below.passed and below.cut([]) == []
    assert below.refusal_reason() == "best rerank score 0.200 is below the threshold 0.500"
    near = decide(
        [make_candidate(scores={"rerank": 0.5497})], GateSettings("rerank", 0.55, "request"), "s"
    )  # shown with the digits that tell them apart, never "0.550 is below 0.550"
    assert near.refusal_reason() == "best rerank score 0.5497 is below the threshold 0.5500"
    nearer = decide(
        [make_candidate(scores={"rerank": 0.5499999})], GateSettings("rerank", 0.55, "request"), "s"
    )
    assert nearer.refusal_reason() == "best rerank score 0.5499999 is below the threshold 0.55"
    empty = decide([], GateSettings("rerank", 0.5, "request"), "s")
    assert not empty.passed and empty.best is None
    assert empty.refusal_reason() == (
        "no passage with a rerank score was retrieved, so none reaches the threshold 0.500"
    )
    # candidates, none with the gated score (a dense gate over BM25-only candidates): the same
    unscored = decide(
        [make_candidate(scores={"bm25": 3.0})], GateSettings("dense", 0.5, "request"), "s"
    )
    assert unscored.refusal_reason() == (
        "no passage with a dense score was retrieved, so none reaches the threshold 0.500"
    )


def test_gate_node_traces_the_source_and_warns_once(caplog):
    class _Emb:
        def embed_query(self, text):
            return [0.0]

    nodes._WARNED_UNCALIBRATED.discard("cross-encoder:unit-test")  # warn-once is per process
    state = {
        "candidates": [make_candidate(scores={"dense": 0.9, "rerank": 5.0})],
        "reranking": RerankRecord("cross-encoder:unit-test", "logit"),
    }
    deps = GraphDeps(retriever=None, embeddings=_Emb())  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="graphs.nodes"):
        out = nodes.gate(state, {"configurable": {}}, deps=deps)
        nodes.gate(state, {"configurable": {}}, deps=deps)
    g = out["gate"].to_trace()
    assert g["score"] == "dense" and g["best"] == pytest.approx(0.9) and g["passed"]
    assert g["threshold_source"] == "packaged default" and "citerag calibrate" in g["note"]
    assert set(g) == {
        "score",
        "score_of",
        "threshold",
        "threshold_source",
        "note",
        "best",
        "passing_candidates",
        "passed",
    }
    assert sum("cross-encoder:unit-test" in r.getMessage() for r in caplog.records) == 1


def _signals(dense, sentence, coverage, rerank, bm25=0.0, both=0.0):
    return {
        "dense": dense,
        "sentence": sentence,
        "coverage": coverage,
        "bm25_log": bm25,
        "both_lists": both,
        "rerank": rerank,
    }


def test_answerability_fit_separates_and_round_trips():
    from chains.gate import AnswerabilityModel, fit_answerability

    pos = [_signals(0.6 + i / 100, 0.7, 0.6, 0.7, 2.0, 1.0) for i in range(20)]
    neg = [_signals(0.1 + i / 100, 0.2, 0.1, 0.2, 0.3, 0.0) for i in range(40)]
    model = fit_answerability(pos, neg)
    assert min(model.probability(p) for p in pos) > 0.9
    assert max(model.probability(n) for n in neg) < 0.1
    again = AnswerabilityModel.from_dict(model.to_dict())
    assert again.probability(pos[0]) == pytest.approx(model.probability(pos[0]))
    with pytest.raises(ValueError, match="unknown answerability signals"):
        AnswerabilityModel.from_dict({**model.to_dict(), "weights": {"magic": 1.0}})
    with pytest.raises(ValueError, match="needs both"):
        fit_answerability(pos, [])


def test_answerability_gate_scores_each_candidate_and_traces_the_signals():
    from chains.gate import fit_answerability

    pos = [_signals(0.7, 0.8, 0.7, 0.8, 2.0, 1.0)] * 5
    neg = [_signals(0.1, 0.1, 0.0, 0.1)] * 5
    model = fit_answerability(pos, neg)
    cal = {"answerability": {**model.to_dict(), "threshold": 0.6}}
    settings = _resolve(calibration=cal, score="answerability")
    assert (settings.score, settings.threshold, settings.source) == (
        "answerability",
        0.6,
        "index calibration",
    )
    good = make_candidate(
        "good", scores={"dense": 0.7, "sentence": 0.8, "sentence_lexical": 0.7, "rerank": 0.8}
    )
    bad = make_candidate("bad", scores={"dense": 0.1, "sentence": 0.1, "rerank": 0.1})
    d = decide([bad, good], settings, "sentence-hybrid")
    assert d.passed and d.score_of == "answerability model"
    assert [c.content for c in d.cut([bad, good])] == ["good"]
    trace = d.to_trace()
    assert set(trace["signals"]) == {
        "dense",
        "sentence",
        "coverage",
        "bm25_log",
        "both_lists",
        "rerank",
    }
    assert trace["best"] == pytest.approx(good.scores["answerability"])


def test_answerability_without_any_model_falls_back_to_the_rerank_threshold(monkeypatch):
    from chains import gate

    monkeypatch.setattr(gate, "packaged_answerability", lambda: None)
    g = _resolve(score="answerability")
    assert g.score == "rerank" and g.source == "packaged default"

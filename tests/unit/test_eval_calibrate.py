"""Threshold selection rules and the sweep table, on hand-made scores."""

from __future__ import annotations

import json

import pytest

from citerag.eval import calibrate as calib
from citerag.eval.plots import plot_calibration
from citerag.eval.runner import ConfigRun
from citerag.stores.calibration import read_calibration, write_calibration
from tests.support.eval_results import result

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
    path = write_calibration(tmp_path, {"sentence-hybrid": entry})
    write_calibration(tmp_path, {"dense": {"threshold": 0.3}})
    data = json.loads(path.read_text())
    assert set(data) == {"sentence-hybrid", "dense"}
    assert read_calibration(tmp_path)["sentence-hybrid"]["threshold"] == cal.threshold


def test_plot_writes_a_png(tmp_path):
    cal = calib.calibrate(scores(), calib.Rule(), "out-of-domain")
    path = plot_calibration([cal, cal], tmp_path / "c.png", title="t")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class _Reranker:
    name = "sentence-hybrid"


class _Deps:
    def reranker(self, name):
        return _Reranker()


class FakeEvaluator:
    """Returns runs with given best scores, keyed by question id (no index needed)."""

    def __init__(self, best):
        self.best = best
        self.deps = _Deps()
        self.calls = 0
        self.user_groups = []

    def run(self, questions, config, progress=True):
        self.calls += 1
        out = []
        for q in questions:
            r = result(q.id, None if q.unanswerable else 1, q.unanswerable)
            r.best_rerank = r.best_dense = self.best[q.id]
            out.append(r)
        return ConfigRun(config, out)


class FakeAnswerGraph:
    """Stands in for the full graph's answerer: answers every question but ``refuse``."""

    def __init__(self, refuse=()):
        self.refuse = set(refuse)
        self.seen = []

    def invoke(self, inputs, config, **kwargs):
        self.seen.append((inputs["question"], config["configurable"].get("gate_threshold")))
        status = "no_evidence" if inputs["question"] in self.refuse else "answered"
        return {"status": status, "generator": "fake", "trace": {}}


def _qs():
    from citerag.eval.questions import Evidence, Question

    pos = [Question(f"a{i}", f"q{i}", False, [Evidence(doc="d")]) for i in range(4)]
    neg = [Question(f"u{i}", f"u{i}", True) for i in range(2)]
    ood = [Question(f"o{i}", f"o{i}", True) for i in range(2)]
    best = {
        "a0": 0.9,
        "a1": 0.8,
        "a2": 0.6,
        "a3": 0.4,
        "u0": 0.85,
        "u1": 0.5,
        "o0": 0.45,
        "o1": 0.1,
    }
    return pos + neg, ood, best


def test_run_calibration_auto_bluff_set_and_entries():
    from citerag.eval.runner import parse_config

    questions, ood, best = _qs()
    ev = FakeEvaluator(best)
    res = calib.run_calibration(
        ev,
        questions,
        parse_config("default"),
        ood=ood,
        rule=calib.Rule("max-bluff", 0.0),
        answer_graph=FakeAnswerGraph(),
    )
    assert ev.calls == 2 and res.bluff_set == "out-of-domain"
    assert set(res.negatives) == {"unanswerable", "out-of-domain"}
    assert res.for_score("rerank").threshold == pytest.approx(0.451)
    assert res.for_score("rerank").chosen["answerable_kept"].k == 3
    entries = res.entries({"questions": "q.jsonl"})
    assert set(entries) == {"sentence-hybrid", "dense"}
    assert entries["sentence-hybrid"]["bluff_rates"] == {"unanswerable": 1.0, "out-of-domain": 0.0}
    strict = calib.run_calibration(
        FakeEvaluator(best),
        questions,
        parse_config("default"),
        ood=ood,
        rule=calib.Rule("max-bluff", 0.0),
        bluff_set="unanswerable",
        answer_graph=FakeAnswerGraph(),
    )
    assert strict.for_score("rerank").threshold == pytest.approx(0.851)


def test_an_unanswerable_question_the_answerer_refuses_is_not_a_bluff():
    from citerag.eval.runner import parse_config

    questions, _, best = _qs()
    graph = FakeAnswerGraph(refuse={"u0"})  # u0 scores 0.85 but the answerer refuses it
    res = calib.run_calibration(
        FakeEvaluator(best),
        questions,
        parse_config("default"),
        rule=calib.Rule("max-bluff", 0.0),
        answer_graph=graph,
    )
    # every question went through the full graph once, with the gate open
    assert sorted(q for q, _ in graph.seen) == sorted(q.question for q in questions)
    assert {t for _, t in graph.seen} == {calib.OPEN_GATE}
    cal = res.for_score("rerank")
    assert cal.threshold == pytest.approx(0.501)  # above u1 (0.5), no longer above u0
    assert cal.chosen["bluffs:unanswerable"].k == 0
    assert cal.chosen["answerable_kept"].k == 3  # a0, a1, a2 (0.4 < 0.501)
    assert res.outcomes["u0"] == "no_evidence" and res.generator == "fake"
    assert res.refused_anyway() == {"answerable": [], "unanswerable": ["u0"]}
    assert "full graph" in res.entries({})["sentence-hybrid"]["decided_on"]
    gate_only = calib.run_calibration(
        FakeEvaluator(best),
        questions,
        parse_config("default"),
        rule=calib.Rule("max-bluff", 0.0),
        on_outcome=False,
    )
    assert gate_only.for_score("rerank").threshold == pytest.approx(0.851)


def test_an_answerable_question_the_answerer_refuses_is_never_kept():
    s = calib.ScoreScores("rerank", "r", [0.9, -float("inf")], [0.9, None], {"u": [0.3]})
    assert calib.sweep_row(s, 0.0)["answerable_kept"].k == 1
    with pytest.raises(ValueError, match="refused whatever the gate does"):
        calib.choose(s, calib.Rule("min-kept", 1.0), "u")
    # every negative refused anyway: the limit holds everywhere, keep all that score
    s2 = calib.ScoreScores("rerank", "r", [0.9, 0.4], [None, None], {"u": [-float("inf")]})
    assert calib.choose(s2, calib.Rule("max-bluff", 0.0), "u") == pytest.approx(0.4)


def test_run_calibration_refuses_without_positives_or_negatives():
    from citerag.eval.runner import parse_config

    questions, _, best = _qs()
    cfg = parse_config("default")
    g = FakeAnswerGraph()
    with pytest.raises(ValueError, match="no answerable"):
        calib.run_calibration(FakeEvaluator(best), questions[4:], cfg, answer_graph=g)
    with pytest.raises(ValueError, match="no unanswerable"):
        calib.run_calibration(FakeEvaluator(best), questions[:4], cfg, answer_graph=g)
    with pytest.raises(ValueError, match="bluff set 'out-of-domain' is empty"):
        calib.run_calibration(FakeEvaluator(best), questions, cfg, bluff_set="ood", answer_graph=g)

"""The packaged gate threshold's selection rule and its test-half decision
(``benchmarks/gate_default.py``): pure logic, no model."""

from __future__ import annotations

import importlib

import pytest

from citerag.eval.calibrate import ScoreScores


@pytest.fixture(scope="module")
def gd():
    return importlib.import_module("benchmarks.gate_default")


def _scores(negatives: list[float], positives: list[float] | None = None) -> ScoreScores:
    return ScoreScores(
        "rerank", "sentence-hybrid", positives or [0.9], [None], {"negatives": negatives}
    )


def test_the_rule_takes_the_lowest_threshold_within_the_bluff_limit(gd) -> None:
    # one set: bluffs at 0.55 are 1/4; the limit is 1/4 + 2 points, met from 0.525 up
    scores = {"a": _scores([0.51, 0.52, 0.56, 0.30])}
    assert gd.bluff_rate(scores, 0.55) == pytest.approx(0.25)
    assert gd.choose_threshold(scores) == 0.525
    # a second set with steep near misses raises the mean bluff curve: 0.55 is chosen
    scores["b"] = _scores([0.51, 0.51, 0.54, 0.60])
    assert gd.choose_threshold(scores) == 0.55


def _paired(right: tuple[int, int], wrong: tuple[int, int], refused: tuple[int, int]) -> dict:
    """Pooled rows: (at the packaged threshold, at the chosen one)."""

    def row(pair: tuple[int, int], p: float = 1.0) -> dict:
        a, b = pair
        return {"current": a, "chosen": b, "wins": max(b - a, 0), "losses": max(a - b, 0), "p": p}

    return {
        "all sets.answerable answered right": row(right),
        "all sets.answerable answered wrong": row(wrong),
        "all sets.near misses refused": row(refused),
    }


def test_a_lower_threshold_changes_the_default_only_for_more_right_answers(gd) -> None:
    assert gd.decision(_paired((100, 110), (20, 24), (50, 48)))[0]
    assert not gd.decision(_paired((100, 100), (20, 18), (50, 55)))[0]


def test_a_higher_threshold_changes_it_only_when_it_saves_more_than_it_loses(gd) -> None:
    # 8 negatives refused + 10 wrong answers avoided against 18 right lost: a tie, kept
    ok, why = gd.decision(_paired((425, 407), (115, 105), (82, 90)), raise_=True)
    assert not ok and "do not outweigh" in why
    ok, why = gd.decision(_paired((425, 420), (115, 105), (82, 90)), raise_=True)
    assert ok and why.startswith("change")


def test_a_higher_threshold_is_kept_off_by_a_significant_loss_on_one_set(gd) -> None:
    paired = _paired((425, 420), (115, 100), (82, 95))
    paired["faq.answerable answered right"] = {
        "current": 30,
        "chosen": 22,
        "wins": 0,
        "losses": 8,
        "p": 0.008,
    }
    ok, why = gd.decision(paired, raise_=True)
    assert not ok and "faq.answerable answered right" in why


def test_only_the_named_unseen_corpora_join_the_gates_pool() -> None:
    from benchmarks import gate_default, unseen_corpus

    pooled = gate_default.pooled_unseen(unseen_corpus.CORPORA)
    assert pooled == ["wheelers", "studio", "school"]
    # the corpora written later stay held out of the threshold's choice
    assert not {"dental", "saas", "tenants"} & set(pooled)

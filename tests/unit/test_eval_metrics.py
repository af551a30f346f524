"""Metric functions against hand-computed values (and the chunking article's sign tests)."""

from __future__ import annotations

import math

import pytest

from citerag.eval import metrics as stats


def test_wilson_8_of_10_matches_hand_computation():
    lo, hi = stats.wilson_interval(8, 10)
    # centre (0.8 + z²/20) / (1 + z²/10), half-width z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/10)
    assert lo == pytest.approx(0.4902, abs=5e-4)
    assert hi == pytest.approx(0.9433, abs=5e-4)


def test_wilson_edges():
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = stats.wilson_interval(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=5e-4)
    lo, hi = stats.wilson_interval(20, 20)
    assert hi == 1.0 and lo == pytest.approx(0.8389, abs=5e-4)
    # the chunking article: "at 64 queries a recall of 0.5 carries roughly ±0.12"
    lo, hi = stats.wilson_interval(32, 64)
    assert (hi - lo) / 2 == pytest.approx(0.12, abs=0.005)
    with pytest.raises(ValueError):
        stats.wilson_interval(11, 10)


def test_sign_test_10_wins_3_losses():
    # 2 * (C(13,0)+C(13,1)+C(13,2)+C(13,3)) / 2^13 = 2 * 378 / 8192
    assert stats.sign_test(10, 3) == pytest.approx(756 / 8192)
    assert stats.sign_test(10, 3) == pytest.approx(0.0923, abs=1e-4)
    assert stats.sign_test(3, 10) == stats.sign_test(10, 3)


@pytest.mark.parametrize(
    ("wins", "losses", "printed"),
    [
        (18, 3, "0.0015"),  # E vs A at R@20
        (12, 2, "0.0129"),  # E vs C
        (8, 6, "0.79"),  # B vs A at R@8
        (9, 7, "0.80"),  # B vs A at R@20
        (10, 3, "0.09"),  # hybrid vs BM25 at R@4
    ],
)
def test_sign_test_reproduces_the_chunking_article(wins, losses, printed):
    """The p-values the chunking article prints, to the digits it prints them."""
    digits = len(printed.split(".")[1])
    assert round(stats.sign_test(wins, losses), digits) == pytest.approx(float(printed))


def test_sign_test_no_discordant_pairs_and_large_n():
    assert stats.sign_test(0, 0) == 1.0
    assert stats.sign_test(5, 5) == 1.0
    assert 0 < stats.sign_test(2000, 1000) < 1e-6  # exact arithmetic, no underflow to 0


def test_mrr_and_recall():
    ranks = [1, 3, None, 2, 25]
    assert stats.mean_reciprocal_rank(ranks, cutoff=20) == pytest.approx(
        (1 + 1 / 3 + 0 + 1 / 2 + 0) / 5
    )
    assert stats.reciprocal_rank(25, cutoff=20) == 0.0
    assert stats.recall_at_k(ranks, 1) == (1, 5)
    assert stats.recall_at_k(ranks, 3) == (3, 5)
    assert stats.recall_at_k(ranks, 25) == (4, 5)


def test_ndcg():
    assert stats.ndcg_at_k([1], [1.0]) == 1.0
    assert stats.ndcg_at_k([2], [1.0]) == pytest.approx(1 / math.log2(3))
    assert stats.ndcg_at_k([None], [1.0]) == 0.0
    # two relevant items at ranks 1 and 3 (ideal: 1 and 2)
    expected = (1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert stats.ndcg_at_k([1, 3], [1.0, 1.0]) == pytest.approx(expected)
    # graded: the grade-2 item at rank 2, the grade-1 item at rank 1
    dcg = 1 + 2 / math.log2(3)
    idcg = 2 + 1 / math.log2(3)
    assert stats.ndcg_at_k([2, 1], [2.0, 1.0]) == pytest.approx(dcg / idcg)
    assert stats.ndcg_at_k([11], [1.0], k=10) == 0.0


def test_bootstrap_interval_is_reproducible_and_covers_the_mean():
    values = [1.0] * 30 + [0.0] * 10 + [0.5] * 10
    lo, hi = stats.bootstrap_mean_interval(values)
    assert lo < sum(values) / len(values) < hi
    assert (lo, hi) == stats.bootstrap_mean_interval(values)
    assert stats.bootstrap_mean_interval([0.3]) == (0.3, 0.3)


def test_paired_tally():
    a = [True, True, False, False, True]
    b = [True, False, True, False, False]
    res = stats.paired(a, b)
    assert (res.wins, res.losses, res.both, res.neither) == (2, 1, 1, 1)
    assert res.p_value == 1.0
    named = stats.paired(a, b, ["q1", "q2", "q3", "q4", "q5"])
    assert named.win_ids == ["q2", "q5"] and named.loss_ids == ["q3"]
    assert named.to_json()["win_ids"] == ["q2", "q5"]
    with pytest.raises(ValueError):
        stats.paired([True], [True, False])


def test_roc_auc():
    assert stats.roc_auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert stats.roc_auc([0.1], [0.9]) == 0.0
    assert stats.roc_auc([0.5, 0.5], [0.5]) == 0.5
    assert stats.roc_auc([0.9, 0.4], [0.5, 0.1]) == 0.75


def test_proportion_formatting():
    p = stats.Proportion(8, 10)
    assert p.fmt() == "0.800 [0.490, 0.943]"
    assert p.to_json()["ci95"] == [pytest.approx(0.4902, abs=5e-4), pytest.approx(0.9433, abs=5e-4)]
    assert stats.format_p(0.0923) == "0.092"
    assert stats.format_p(1e-9) == "<1e-6"


def test_ndcg_of_alternatives_credits_the_first_hit_only():
    from citerag.eval.runner import QuestionResult

    base = dict(
        id="q",
        unanswerable=False,
        evidence_status=["indexed", "indexed"],
        first_stage_hit=1,
        gate_passed=True,
        gate_score="rerank",
        gate_best=0.5,
        threshold=0.4,
        best_rerank=0.5,
        best_dense=0.5,
        in_context=True,
        attribution="in_context",
        detail="",
    )
    # two alternative answer spans hit by the same chunk at rank 1
    alt = QuestionResult(item_ranks=[1, 1], first_hit=1, grades=[1.0, 1.0], judged=False, **base)
    assert alt.ndcg() == 1.0
    late = QuestionResult(
        item_ranks=[3, None], first_hit=3, grades=[1.0, 1.0], judged=False, **base
    )
    assert late.ndcg() == pytest.approx(1 / math.log2(4))
    # two judged relevant documents, found at ranks 1 and 3
    qrels = QuestionResult(item_ranks=[1, 3], first_hit=1, grades=[1.0, 1.0], judged=True, **base)
    assert qrels.ndcg() == pytest.approx((1 + 0.5) / (1 + 1 / math.log2(3)))

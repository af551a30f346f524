"""The decision logic of ``citerag calibrate``: sample-size rule, threshold interval, diff."""

from __future__ import annotations

import pytest

from citerag.eval import calibrate as calib
from citerag.eval import calibration_policy as policy
from citerag.eval import metrics as stats


def test_the_minimum_sample_follows_the_wilson_half_width():
    # the worst-case (rate 0.5) 95 % Wilson half-width shrinks with n ...
    widths = [policy.wilson_half_width(n) for n in range(1, 60)]
    assert widths == sorted(widths, reverse=True)
    # ... and agrees with the interval metrics.py reports
    lo, hi = stats.wilson_interval(6, 12)
    assert policy.wilson_half_width(12) == pytest.approx((hi - lo) / 2)
    assert policy.minimum_sample(0.25) == 12  # ±0.25 needs 12 questions per class
    assert policy.wilson_half_width(11) > 0.25 >= policy.wilson_half_width(12)
    assert policy.minimum_sample(0.20) == 21
    assert policy.minimum_sample(0.10) > 90
    with pytest.raises(ValueError, match="half_width"):
        policy.minimum_sample(0.0)
    with pytest.raises(ValueError, match="n must be"):
        policy.wilson_half_width(0)


def test_the_sample_rule_names_each_class_that_is_too_small():
    rule = policy.SampleRule()
    assert rule.minimum == 12 and "at least 12 answerable and 12 unanswerable" in rule.describe()
    assert rule.problems(12, 12, "unanswerable") == []
    # the FAQ corpus of issue 30: 10 answerable, 6 unanswerable
    problems = rule.problems(10, 6, "unanswerable")
    assert len(problems) == 2
    assert problems[0].startswith("only 10 answerable questions (minimum 12)")
    assert "only 6 unanswerable (bluff set) questions" in problems[1]
    assert rule.problems(40, 11, "out-of-domain") == [
        "only 11 out-of-domain (bluff set) questions (minimum 12): a rate measured on them "
        "is uncertain by up to ±0.25 (95 % Wilson interval at a rate of 0.5)"
    ]
    with pytest.raises(ValueError, match="half_width"):
        policy.SampleRule(0.9)


def _scores(pos, neg):
    return calib.ScoreScores("rerank", "r", list(pos), [None] * len(pos), {"u": list(neg)})


def test_the_threshold_interval_is_a_seeded_bootstrap_around_the_choice():
    pos = [0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35]
    neg = [0.62, 0.5, 0.42, 0.38, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.0, -0.1]
    s = _scores(pos, neg)
    rule = calib.Rule("max-bluff", 0.10)
    t = calib.choose(s, rule, "u")
    assert t == pytest.approx(0.501)  # one bluff allowed: above the second highest (0.5)
    iv = policy.threshold_interval(s, rule, "u", resamples=400, seed=3)
    assert iv.low <= t <= iv.high and iv.low < iv.high
    assert iv == policy.threshold_interval(s, rule, "u", resamples=400, seed=3)
    assert iv.to_json()["method"] == "stratified percentile bootstrap over questions"
    # more questions of the same shape: a narrower interval
    wide = iv.high - iv.low
    big = policy.threshold_interval(_scores(pos * 8, neg * 8), rule, "u", resamples=400, seed=3)
    assert big.high - big.low < wide
    with pytest.raises(ValueError, match="non-empty bluff set"):
        policy.threshold_interval(_scores(pos, []), rule, "u")


def test_markedly_fewer_answerable_kept_blocks_writing():
    ids = [f"a{i}" for i in range(10)] + ["u0", "u1"]
    unans = [False] * 10 + [True, True]
    current = [True] * 10 + [True, False]
    proposed = [True] * 8 + [False, False] + [False, False]
    k = policy.compare_kept(ids, unans, current, proposed)
    assert (k.current_kept.k, k.proposed_kept.k, k.lost) == (10, 8, 2)
    assert (k.current_refused.k, k.proposed_refused.k) == (1, 2)
    assert k.paired.losses == 2 and k.paired.loss_ids == ["a8", "a9"]
    assert k.markedly_fewer  # 2 of 10 >= max(2, 10 %)
    one = policy.compare_kept(ids, unans, current, [True] * 9 + [False] + [False, False])
    assert not one.markedly_fewer  # a single question is not marked
    big = 30
    kb = policy.compare_kept(
        [str(i) for i in range(big)], [False] * big, [True] * big, [True] * 28 + [False] * 2
    )
    assert not kb.markedly_fewer  # 2 of 30 < 10 %
    d = policy.decide_write(policy.SampleRule(), 12, 12, "unanswerable", k)
    assert not d.allowed and "keep 2 fewer answerable questions" in d.blockers[0]
    d1 = policy.decide_write(policy.SampleRule(), 12, 12, "unanswerable", one)
    assert d1.allowed and "1 fewer answerable" in d1.warnings[0]
    looser = policy.compare_kept(ids, unans, current, [True] * 12)
    d3 = policy.decide_write(policy.SampleRule(), 12, 12, "unanswerable", looser)
    assert d3.allowed and d3.warnings == [
        "the proposed thresholds answer 1 more unanswerable question(s) than the current ones "
        "on this sample (1/2 -> 0/2 refused)"
    ]
    d2 = policy.decide_write(policy.SampleRule(), 10, 6, "unanswerable", None)
    assert len(d2.blockers) == 2
    with pytest.raises(ValueError, match="same length"):
        policy.compare_kept(ids, unans, current, proposed[:-1])


def test_the_diff_shows_packaged_current_and_proposed():
    proposed = {
        "sentence-hybrid": {"threshold": 0.6},
        "dense": {"threshold": 0.4},
        "x": {"threshold": 1.0},
    }
    current = {"dense": {"threshold": 0.45}}
    packaged = {"sentence-hybrid": {"threshold": 0.55}, "dense": {"threshold": 0.4}}
    rows = {r.key: r for r in policy.threshold_diff(proposed, current, packaged)}
    assert list(rows) == ["sentence-hybrid", "dense", "x"]
    sh, de, x = rows["sentence-hybrid"], rows["dense"], rows["x"]
    assert (sh.packaged, sh.current, sh.proposed, sh.in_effect, sh.changed) == (
        0.55,
        None,
        0.6,
        0.55,
        True,
    )
    assert (de.in_effect, de.changed) == (0.45, True)  # the calibration is what applies now
    assert (x.packaged, x.current, x.changed) == (None, None, True)
    same = policy.threshold_diff({"dense": {"threshold": 0.45}}, current, packaged)
    assert not same[0].changed and same[0].to_json()["changed"] is False

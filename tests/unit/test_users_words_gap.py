"""The users'-words benchmark's gap statistics (``benchmarks/users_words.py``): pure parts."""

from __future__ import annotations

import importlib

import pytest


@pytest.fixture(scope="module")
def uw():
    return importlib.import_module("benchmarks.users_words")


def test_interval_holds_the_difference_and_stays_in_range(uw):
    for counts in [(12, 9, 2, 21), (60, 28, 0, 0), (1, 0, 5, 3), (0, 5, 0, 0), (40, 3, 4, 30)]:
        d, lo, hi = uw.paired_difference_interval(*counts)
        n = sum(counts)
        assert d == pytest.approx((counts[1] - counts[2]) / n)
        assert -1.0 <= lo <= d <= hi <= 1.0


def test_swapping_the_two_systems_mirrors_the_interval(uw):
    d, lo, hi = uw.paired_difference_interval(12, 9, 2, 21)
    d2, lo2, hi2 = uw.paired_difference_interval(12, 2, 9, 21)
    assert (d2, lo2, hi2) == pytest.approx((-d, -hi, -lo))


def test_a_known_case(uw):
    # 44 pairs, 9 only-A, 2 only-B: difference 7/44, from the Wilson intervals of 21/44
    # (0.3375, 0.6206) and 14/44 (0.2000, 0.4656) and phi = 0.5195 (Newcombe's method 10)
    d, lo, hi = uw.paired_difference_interval(12, 9, 2, 21)
    assert d == pytest.approx(0.1591, abs=1e-4)
    assert (lo, hi) == pytest.approx((0.0182, 0.2892), abs=1e-3)


def test_correlated_pairs_give_a_narrower_interval_than_uncorrelated_ones(uw):
    # same marginals (30/40 vs 20/40), more concordant pairs -> narrower interval
    _, lo_c, hi_c = uw.paired_difference_interval(20, 10, 0, 10)
    _, lo_u, hi_u = uw.paired_difference_interval(15, 15, 5, 5)
    assert hi_c - lo_c < hi_u - lo_u


def test_no_pairs_and_bad_counts(uw):
    assert uw.paired_difference_interval(0, 0, 0, 0) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="non-negative"):
        uw.paired_difference_interval(1, -1, 0, 0)


def test_gap_figures_pairs_the_two_phrasings(uw):
    doc = [True, True, True, False]
    user = [True, False, False, False]
    g = uw.gap_figures(doc, user, ["a", "b", "c", "d"])
    assert g["gap"] == pytest.approx(0.5)
    assert (g["paired"].wins, g["paired"].losses) == (2, 0)
    assert g["paired"].win_ids == ["b", "c"]
    with pytest.raises(ValueError):
        uw.gap_figures(doc, user[:3], ["a", "b", "c"])

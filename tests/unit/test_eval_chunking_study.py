"""Blind windows: fixed cuts that ignore the text, with exact offsets."""

from __future__ import annotations

import pytest

from citerag.eval.chunking_study import PAIRS, blind_windows, strategies


def test_blind_windows_cut_without_looking():
    text = "abcdefghij" * 5  # 50 chars, no whitespace
    assert blind_windows(text, 0, 50, 20, 0) == [(0, 20), (20, 40), (40, 50)]
    assert blind_windows(text, 0, 50, 20, 5) == [(0, 20), (15, 35), (30, 50)]
    assert blind_windows(text, 10, 30, 20, 0) == [(10, 30)]


def test_blind_windows_trim_whitespace_at_the_edges_only():
    text = "one two  three four five six"
    wins = blind_windows(text, 0, len(text), 10, 0)
    for s, e in wins:
        assert text[s:e] == text[s:e].strip() and text[s:e]
    # the cut falls inside a word: blind cuts do not respect words
    assert any(not text[e : e + 1].isspace() and e < len(text) for _, e in wins)


def test_blind_windows_validation():
    with pytest.raises(ValueError):
        blind_windows("x", 0, 1, 10, 10)


def test_six_strategies_and_pairs():
    sts = strategies(80)
    assert [s.letter for s in sts] == list("ABCDEF")
    assert [s.label for s in sts] == [
        "blind",
        "blind + overlap",
        "boundaries",
        "boundaries + overlap",
        "boundaries + header",
        "boundaries + header + overlap",
    ]
    assert ("E", "A") in PAIRS and ("E", "C") in PAIRS and ("F", "E") in PAIRS

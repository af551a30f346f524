"""The mixed-format benchmark's corpus (``benchmarks/mixed_corpus.py``): the brief's file
counts, the question split by hash, every needle exactly once in its born-digital original,
and the scans without a text layer (no model, no OCR)."""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path

import pytest

from citerag.eval.questions import parse_question

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def mixed():
    return importlib.import_module("benchmarks.mixed_corpus")


def test_questions_parse_and_cover_every_format(mixed) -> None:
    qs = mixed.load_questions()
    for q in qs:
        parse_question(q)  # the format citerag eval reads
    kinds = Counter(q["format"] for q in qs)
    assert sum(n for f, n in kinds.items() if f != "out of scope") >= 60
    assert kinds["out of scope"] >= 10
    assert set(mixed.FORMATS) <= set(kinds)


def test_needles_splits_and_counts(mixed, tmp_path: Path) -> None:
    assert mixed.check(tmp_path) == []


def test_scans_have_no_text_layer(mixed, tmp_path: Path) -> None:
    from pypdf import PdfReader

    built = mixed.build(tmp_path, scans=True)
    scans = [n for n, f in built["files"].items() if f == "scanned pdf"]
    assert len(scans) >= 3
    for name in scans:
        pages = PdfReader(built["corpus"] / name).pages
        assert all(not (p.extract_text() or "").strip() for p in pages)
        assert len(pages) == len(PdfReader(built["originals"] / name).pages)
    without = mixed.build(tmp_path / "office", scans=False)
    assert not set(without["files"].values()) & mixed.SCAN_FORMATS

"""The FAQ / handbook / manual development set (``benchmarks/faqset/``): its structure, its
fixed split, and every needle verbatim in its loaded document (the PDF is written from its
spec; no model)."""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path

import pytest

from citerag.eval.questions import parse_question

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def faqset():
    return importlib.import_module("benchmarks.faqset_check")


def test_counts_and_styles(faqset):
    qs = faqset.load_questions()
    kinds = Counter(q["kind"] for q in qs)
    assert kinds["answerable"] >= 40
    assert kinds["near_miss"] + kinds["ood"] >= 25
    docs = {q["evidence"][0]["doc"] for q in qs if q["kind"] == "answerable"}
    assert {Path(d).suffix for d in docs} == {".md", ".txt", ".html", ".pdf"}
    for q in qs:
        parse_question(q)  # the format citerag eval reads


def test_split_is_the_hash_rule_and_both_halves_are_used(faqset):
    qs = faqset.load_questions()
    assert all(q["split"] == faqset.split_of(q["id"]) for q in qs)
    for kind in ("answerable", "near_miss"):
        halves = Counter(q["split"] for q in qs if q["kind"] == kind)
        assert halves["calibration"] and halves["test"], halves


def test_every_needle_is_in_its_document(faqset):
    assert faqset.check() == []


def test_labels_are_read_from_the_markup(faqset):
    labels = faqset.labels()
    assert "Can I get a refund?" in labels["shop_faq.md"]
    assert "Can I work from home?" in labels["staff_handbook.txt"]
    assert "Why is the tank light flashing?" in labels["dehumidifier_manual.html"]
    assert "People" in labels["annual_report.pdf"]

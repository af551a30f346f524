"""The development set in users' words: structure only (no shared data, no documents).

The needles themselves are checked against the documents by ``benchmarks/devset_check.py``.
"""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path

import pytest

from citerag.eval.questions import load_questions

REPO = Path(__file__).resolve().parents[2]
DEVSET = REPO / "benchmarks" / "devset" / "questions.jsonl"


def _checker():
    return importlib.import_module("benchmarks.devset_check")


@pytest.fixture(scope="module")
def questions():
    return load_questions(DEVSET)


@pytest.fixture(scope="module")
def checker():
    return _checker()


def test_counts_reach_the_minimums(questions):
    kinds = Counter(q.meta["kind"] for q in questions)
    facts = {q.meta["fact"] for q in questions if q.meta["kind"] == "answerable"}
    assert len(facts) >= 150
    assert kinds["answerable"] == 2 * len(facts)
    assert kinds["near_miss"] >= 60
    assert kinds["ood"] >= 60
    styles = Counter(q.meta.get("style") for q in questions if q.meta["kind"] == "ood")
    assert styles["user"] >= kinds["ood"] // 2
    per_corpus = Counter(q.meta["corpus"] for q in questions if q.meta["kind"] == "answerable")
    assert set(per_corpus) == {"squad", "scifact", "sample", "financebench"}


def test_ids_unique_and_every_fact_has_both_phrasings(questions):
    assert len({q.id for q in questions}) == len(questions)
    by_fact: dict[str, list[str]] = {}
    for q in questions:
        if q.meta["kind"] == "answerable":
            by_fact.setdefault(q.meta["fact"], []).append(q.meta["phrasing"])
    assert all(sorted(p) == ["document", "user"] for p in by_fact.values())


def test_answerable_items_have_needles_and_unanswerable_none(questions):
    for q in questions:
        if q.meta["kind"] == "answerable":
            assert not q.unanswerable and q.evidence, q.id
            assert all(e.needle and e.needle.strip() for e in q.evidence), q.id
            assert all(e.page for e in q.evidence if e.doc.endswith(".pdf")), q.id
        else:
            assert q.unanswerable and not q.evidence, q.id
        if q.meta["kind"] == "near_miss":
            assert q.meta.get("near_doc") and q.meta.get("note"), q.id


def test_splits_follow_the_rule_and_both_are_present(questions, checker):
    splits = Counter(q.meta["split"] for q in questions)
    assert set(splits) == {"calibration", "test"}
    for kind in ("answerable", "near_miss", "ood"):
        got = Counter(q.meta["split"] for q in questions if q.meta["kind"] == kind)
        assert got["calibration"] and got["test"], kind
    for q in questions:
        assert q.meta["split"] == checker.split_for(checker.split_key(q)), q.id


def test_structure_check_of_the_script_passes(questions, checker):
    assert checker.check_structure(questions) == []


def test_overlap_measure(checker):
    sentence = "Code E-217 means low DC insulation resistance, below 1 megohm."
    assert checker.overlap("What does code E-217 mean?", sentence) == 1.0
    assert checker.overlap("my solar box shows a weird error, what now?", sentence) == 0.0
    assert checker.stem("countries") == "country"

"""The unseen-corpus benchmark (``benchmarks/unseen_corpus.py``): its corpus builds, every
needle stands once in its document's loaded text, the split is the hash rule's, and the
scoring reads any evidence document (no model)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from citerag.eval.questions import parse_question


@pytest.fixture(scope="module")
def unseen():
    return importlib.import_module("benchmarks.unseen_corpus")


def test_questions_parse_and_are_written_in_both_kinds(unseen) -> None:
    qs = unseen.load_questions()
    for q in qs:
        parse_question(q)  # the format citerag eval reads
    assert sum(1 for q in qs if not q.get("unanswerable")) >= 30
    assert sum(1 for q in qs if q.get("unanswerable")) >= 10
    assert {q["split"] for q in qs} == {"calibration", "test"}


def test_needles_and_splits(unseen, tmp_path: Path) -> None:
    assert unseen.check(tmp_path / "corpus") == []
    formats = set(unseen.build(tmp_path / "again").values())
    assert {"docx", "pptx", "xlsx", "csv", "eml", "md", "html", "pdf"} <= formats


def test_a_question_is_right_from_any_evidence_document(unseen) -> None:
    q = {
        "id": "x",
        "evidence": [
            {"doc": "a.eml", "needle": "at least 20 riders"},
            {"doc": "b.pptx", "needle": "at least 20 riders"},
        ],
    }
    cited = {"doc_name": "docs/b.pptx", "quote": "The ride will need at least 20 riders."}
    rec = {"status": "answered", "answer": "… [1]", "citations": [cited]}
    assert unseen.score(q, rec)["right"]
    elsewhere = {**rec, "citations": [{**cited, "doc_name": "docs/c.md"}]}
    assert unseen.score(q, elsewhere) == {
        "answered": True,
        "right": False,
        "wrong": True,
        "refused": False,
        "ok": False,
    }
    refused = {"status": "no_evidence", "answer": "", "citations": []}
    assert unseen.score({"id": "n", "unanswerable": True}, refused)["ok"]

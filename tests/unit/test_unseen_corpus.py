"""The unseen-corpus benchmark (``benchmarks/unseen_corpus.py``): each corpus builds, every
needle stands once in its document's loaded text, the split is the hash rule's, the scoring
reads any evidence document, and the report keeps corpora apart (no model)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from citerag.eval.questions import parse_question


@pytest.fixture(scope="module")
def unseen():
    return importlib.import_module("benchmarks.unseen_corpus")


CORPORA = (
    "wheelers",
    "studio",
    "school",
    "dental",
    "saas",
    "tenants",
    "library",
    "holidaypark",
    "accountancy",
)


def test_the_corpora_are_listed_once(unseen) -> None:
    assert unseen.CORPORA == CORPORA


@pytest.mark.parametrize("corpus", CORPORA)
def test_questions_parse_and_are_written_in_both_kinds(unseen, corpus: str) -> None:
    qs = unseen.load_questions(corpus)
    for q in qs:
        parse_question(q)  # the format citerag eval reads
    assert sum(1 for q in qs if not q.get("unanswerable")) >= 30
    assert sum(1 for q in qs if q.get("unanswerable")) >= 10
    assert {q["split"] for q in qs} == {"calibration", "test"}


@pytest.mark.parametrize("corpus", CORPORA)
def test_needles_and_splits(unseen, corpus: str, tmp_path: Path) -> None:
    assert unseen.check(tmp_path / "corpus", corpus) == []
    formats = set(unseen.build(tmp_path / "again", corpus).values())
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


def _run(outcomes: dict[str, dict[str, str]]) -> dict:
    return {
        "corpora": {
            c: {
                "indexed": [],
                "failed": {},
                "ingest_seconds": 0.0,
                "answer_seconds": 0.0,
                "records": [
                    {"id": i, "status": status, "answer": "", "citations": []}
                    for i, status in ids.items()
                ],
            }
            for c, ids in outcomes.items()
        }
    }


def test_the_report_keeps_corpora_apart_and_pools_them(unseen) -> None:
    # the same id in two corpora is two questions: each corpus's record is its own
    qs = [
        {"id": "n-x", "unanswerable": True, "format": "out of scope", "split": "test", "corpus": c}
        for c in ("a", "b")
    ]
    new = _run({"a": {"n-x": "no_evidence"}, "b": {"n-x": "answered"}})
    base = _run({"a": {"n-x": "answered"}, "b": {"n-x": "answered"}})
    data, md = unseen.report(qs, new, base)
    refused = "unanswerable refused"
    assert data["halves"]["a"]["test"][refused]["new"]["k"] == 1
    assert data["halves"]["b"]["test"][refused]["new"]["k"] == 0
    pooled = data["halves"]["all"]["all"][refused]
    assert (pooled["new"]["k"], pooled["new"]["n"], pooled["base"]["k"]) == (1, 2, 0)
    assert pooled["paired"]["wins"] == 1 and pooled["paired"]["losses"] == 0
    assert "| all | all | unanswerable refused | 2 |" in md
    assert "| a | all | unanswerable refused | 1 |" in md
    assert "| a | test |" not in md  # a corpus's halves are in the JSON only


def test_the_held_out_corpora_are_pooled_apart_from_the_engineers_own(unseen) -> None:
    qs = [
        {"id": "n-x", "unanswerable": True, "format": "out of scope", "split": "test", "corpus": c}
        for c in ("wheelers", "studio", "school")
    ]
    new = _run({c: {"n-x": "no_evidence"} for c in ("wheelers", "studio", "school")})
    data, md = unseen.report(qs, new, None)
    pooled = data["halves"][unseen.HELD_OUT_GROUP]["test"]["unanswerable refused"]["new"]
    assert (pooled["k"], pooled["n"]) == (2, 2)
    assert data["halves"]["all"]["all"]["unanswerable refused"]["new"]["n"] == 3
    assert f"| {unseen.HELD_OUT_GROUP} | test | unanswerable refused | 2 |" in md
    assert set(unseen.HELD_OUT) < set(unseen.CORPORA) and "wheelers" not in unseen.HELD_OUT


def test_reuse_keeps_only_a_run_of_the_same_configuration_and_corpora(
    unseen, tmp_path: Path
) -> None:
    import json

    path = tmp_path / "unseen_corpus-new.json"
    path.write_text(json.dumps({"config": "default", "corpora": {"wheelers": {}, "studio": {}}}))
    assert unseen.reusable(path, "default", ["wheelers"])
    assert not unseen.reusable(path, "focus_check=true", ["wheelers"])
    assert not unseen.reusable(path, "default", ["wheelers", "school"])

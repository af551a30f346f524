"""The question file format: full form, simple form, validation messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag.eval.questions import (
    Evidence,
    QuestionFormatError,
    load_questions,
    parse_questions,
    write_questions,
)

REPO = Path(__file__).resolve().parents[2]


def lines(*records):
    return [json.dumps(r) for r in records]


def test_full_form_and_alternatives():
    qs = parse_questions(
        lines(
            {
                "id": "a",
                "question": "Q?",
                "evidence": [
                    {"doc": "report.pdf", "page": 2, "needle": "Total revenue"},
                    {"doc": "notes.txt", "start": 10, "end": 20},
                    {"doc": "31715818.txt", "grade": 2},
                ],
                "answer": "42",
            },
            {"id": "u", "question": "Off topic?", "unanswerable": True},
        )
    )
    a, u = qs
    assert a.evidence == [
        Evidence("report.pdf", 2, "Total revenue"),
        Evidence("notes.txt", start=10, end=20),
        Evidence("31715818.txt", grade=2.0),
    ]
    assert a.meta == {"answer": "42"} and not a.unanswerable
    assert u.unanswerable and u.evidence == []


def test_simple_form_of_the_examples_file():
    qs = load_questions(REPO / "examples" / "questions.jsonl")
    assert len(qs) == 28
    q14 = next(q for q in qs if q.id == "q14")
    assert q14.evidence == [
        Evidence(
            "annual_report_2025.pdf",
            1,
            "Membership rose from 1,032 to 1,147 members during the year",
        )
    ]
    assert sum(q.unanswerable for q in qs) == 8


def test_round_trip(tmp_path):
    qs = load_questions(REPO / "examples" / "questions.jsonl")
    path = tmp_path / "q.jsonl"
    assert write_questions(qs, path) == 28
    assert load_questions(path) == qs


def test_missing_id_defaults_to_line_and_comments_are_skipped():
    qs = parse_questions(["# a comment", "", json.dumps({"question": "Q?", "unanswerable": True})])
    assert qs[0].id == "line-3"


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"id": "x"}, "'question' must be non-empty"),
        ({"id": "x", "question": "Q?"}, "give evidence"),
        ({"id": "x", "question": "Q?", "unanswerable": True, "doc": "a.txt"}, "has no evidence"),
        ({"id": "x", "question": "Q?", "evidence": [{"page": 1}]}, "non-empty 'doc'"),
        ({"id": "x", "question": "Q?", "evidence": [{"doc": "a", "page": 0}]}, "page must be"),
        ({"id": "x", "question": "Q?", "evidence": [{"doc": "a", "start": 5}]}, "both 'start'"),
        (
            {"id": "x", "question": "Q?", "evidence": [{"doc": "a", "start": 5, "end": 5}]},
            "greater than",
        ),
        ({"id": "x", "question": "Q?", "evidence": [{"doc": "a", "pg": 1}]}, "unknown evidence"),
        ({"id": "x", "question": "Q?", "evidence": {"doc": "a"}}, "must be a list"),
        ({"id": "x", "question": "Q?", "doc": "a", "evidence": [{"doc": "b"}]}, "not both"),
        ({"id": "x", "question": "Q?", "unanswerable": "yes"}, "true or false"),
    ],
)
def test_validation_errors_name_the_line(record, message):
    with pytest.raises(QuestionFormatError, match=message) as info:
        parse_questions(["", json.dumps(record)], "f.jsonl")
    assert "f.jsonl:2" in str(info.value)


def test_bad_json_and_duplicates():
    with pytest.raises(QuestionFormatError, match="not valid JSON"):
        parse_questions(["{nope"])
    rec = {"id": "d", "question": "Q?", "unanswerable": True}
    with pytest.raises(QuestionFormatError, match="duplicate id 'd'"):
        parse_questions(lines(rec, rec))


def test_empty_file(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n")
    with pytest.raises(QuestionFormatError, match="no questions"):
        load_questions(path)

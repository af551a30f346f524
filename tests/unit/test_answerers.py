"""The extractive answerer's own refusal: numbers the question asks about must be in a passage."""

from __future__ import annotations

import json

import pytest
from langchain_core.documents import Document

from chains.answerers import ExtractiveAnswerer, numbers_in
from chains.assemble import Passage
from chains.candidates import Candidate
from chains.citations import INSUFFICIENT, parse_output, says_insufficient


class NoEmbeddings:
    """Fails the test if the answerer embeds anything (refusals must not need the model)."""

    def embed_query(self, text):
        raise AssertionError("embedded the question")

    def embed_documents(self, texts):
        raise AssertionError("embedded passages")


class Unit:
    """Every text embeds to the same vector: the choice falls to word overlap."""

    def embed_query(self, text):
        return [1.0, 0.0]

    def embed_documents(self, texts):
        return [[1.0, 0.0] for _ in texts]


def passage(n: int, content: str) -> Passage:
    doc = Document(page_content=content, metadata={"content": content, "doc_name": "d.md"})
    return Passage(n, Candidate(f"k{n}", doc))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Revenue in 2022 was £1,200,000 (up 3.5%).", {"2022", "1200000", "3.5"}),
        ("Fault E-217 on inverter 3", {"217", "3"}),
        ("the 10th and 11th centuries", {"10", "11"}),
        ("no numbers here", set()),
    ],
)
def test_numbers_in(text, expected):
    assert numbers_in(text) == expected


def test_refuses_when_no_passage_mentions_the_number_asked_about():
    ans = ExtractiveAnswerer(NoEmbeddings())
    raw = ans.generate(
        "What was total revenue in 2022?",
        [passage(1, "Total revenue for 2025 was £412,860."), passage(2, "In 2024 it was less.")],
        [],
    )
    parsed = parse_output(raw)
    assert raw.startswith(INSUFFICIENT) and says_insufficient(parsed)
    assert parsed.block["sources"] == []
    assert "2022" in parsed.block["reason"] and "no supplied passage" in parsed.block["reason"]


def test_refuses_when_no_single_passage_has_all_the_numbers():
    ans = ExtractiveAnswerer(NoEmbeddings())
    raw = ans.generate(
        "How did revenue change between 2022 and 2025?",
        [passage(1, "Revenue in 2025 was high."), passage(2, "Revenue in 2022 was low.")],
        [],
    )
    block = parse_output(raw).block
    assert block["insufficient_evidence"] is True
    assert "no single supplied passage mentions 2022, 2025 together" in block["reason"]


def test_check_can_be_turned_off():
    raw = ExtractiveAnswerer(Unit(), require_question_numbers=False).generate(
        "What was total revenue in 2022?", [passage(1, "Total revenue for 2025 was £412,860.")], []
    )
    block = parse_output(raw).block
    assert block["insufficient_evidence"] is False and block["sources"] == [1]


def test_quotes_only_from_passages_that_mention_the_number():
    raw = ExtractiveAnswerer(Unit()).generate(
        "What was total revenue in 2024?",
        [
            passage(1, "Total revenue for 2025 was £412,860 and it was a record year."),
            passage(2, "Total revenue for 2024 was £371,540 and it was a good year."),
        ],
        [],
    )
    block = json.loads(raw.split("<summary>")[1].split("</summary>")[0])
    assert block["sources"] == [2] and "371,540" in raw and "412,860" not in raw

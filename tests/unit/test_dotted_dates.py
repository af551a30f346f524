"""A date written with dots, day first ("15.06.2027", a European CSV export), writes its
year as the other spellings of a date in figures do."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document

from chains.answerers import ExtractiveAnswerer, numbers_in
from chains.assemble import Passage
from chains.candidates import Candidate
from loaders.metadata import written_periods


def _passage(content: str) -> Passage:
    doc = Document(page_content=content, metadata={"doc_id": "d", "doc_name": "stock.csv"})
    return Passage(1, Candidate("c1", doc, content, {}))


@pytest.mark.parametrize("date", ["22.03.2028", "22/03/2028", "2028-03-22"])
def test_a_date_in_figures_writes_its_year(date: str) -> None:
    assert "2028" in numbers_in(f"Use by: {date}; Shelf: B2")
    assert [ys for _, _, ys in written_periods(f"Use by {date}")] == [frozenset({2028})]


def test_a_question_year_is_mentioned_by_a_dotted_date() -> None:
    rows = [_passage("Item: Acetone; Use by: 22.03.2028; Price (EUR): 12,40")]
    assert ExtractiveAnswerer.missing_numbers("Which solvents expire in 2028?", rows) == []
    assert ExtractiveAnswerer.missing_numbers("Which solvents expire in 2029?", rows) == ["2029"]


def test_decimals_and_versions_are_no_dotted_dates() -> None:
    assert numbers_in("version 1.2.2028b") == set()
    assert written_periods("pH 7.4 at 3.14.2028.5") == []

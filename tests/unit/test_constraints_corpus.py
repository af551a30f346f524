"""Constraints that fit the corpus: stated vs inferred periods, fiscal years ending in another
calendar year, quarter spellings, forward-looking questions, the recency boost, and a corpus
that is not a set of filings never refused on a year."""

from __future__ import annotations

from typing import Any

import pytest

from chains.constraints import (
    Gazetteer,
    boosts_for,
    filter_for,
    is_forward_looking,
    parse_constraints,
    parse_periods,
    period_organised,
    refusal_reason,
)
from citerag.core.filters import matches
from loaders.metadata import infer_metadata, stated_period

REPORT_TEXT = (
    "Millbrook Valley Water Trust\nAnnual Report and Accounts\n"
    "for the year ended 31 March 2025\n\nChair's statement. Income rose to £1.84 million."
)


def _doc(
    doc_id: str, period: str | None, source: str | None, company: str | None = None, **kw: Any
) -> dict[str, Any]:
    return {
        "doc_id": doc_id,
        "doc_name": doc_id,
        "company": company,
        "period": period,
        "period_source": source,
        "doc_type": kw.get("doc_type"),
        "period_end": kw.get("period_end"),
    }


def _admitted(qc: Any, docs: list[dict[str, Any]]) -> set[str]:
    flt = filter_for(qc)
    return {d["doc_id"] for d in docs if matches(d, flt)}


# --- stated vs inferred, and a fiscal year that ends in March ---------------------------------


def test_year_ended_31_march_2025_is_fy2025_with_its_span() -> None:
    stated = stated_period(REPORT_TEXT)
    assert stated is not None
    assert stated.label == "FY2025" and stated.kind == "annual"
    assert stated.text == "for the year ended 31 March 2025"
    assert REPORT_TEXT[stated.start : stated.end] == stated.text
    assert stated.end_date == "2025-03-31"


def test_the_texts_statement_beats_a_file_names_year() -> None:
    # the symptom of issue 30: the file name says 2024, the report covers the year to March 2025
    meta = infer_metadata("Millbrook_Water_Trust_Annual_Report_2024.md", None, REPORT_TEXT)
    assert meta.period == "FY2025" and meta.period_source == "stated"
    assert meta.period_span == "for the year ended 31 March 2025"
    assert meta.period_end == "2025-03-31"
    assert meta.to_metadata()["period_source"] == "stated"


def test_a_period_read_only_from_a_file_name_or_title_is_inferred() -> None:
    by_name = infer_metadata("ACME_2021_10K.pdf", None, "Revenue grew.")
    assert by_name.period == "FY2021" and by_name.period_source == "inferred"
    assert by_name.period_span is None
    by_title = infer_metadata("letter.md", "Spring newsletter 2025", "Dear members, ...")
    assert by_title.period == "2025" and by_title.period_source == "inferred"


def test_a_filing_cover_states_its_period_and_keeps_the_file_names_label() -> None:
    cover = (
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-Q\n"
        "For the quarterly period ended July 29, 2023\nCommission file number 1-9595\n"
        "BEST BUY CO., INC.\n(Exact name of registrant as specified in its charter)"
    )
    meta = infer_metadata("BESTBUY_2024Q2_10Q.pdf", None, cover)
    assert meta.period == "2024Q2"  # the owner's fiscal label stays
    assert meta.period_source == "stated"
    assert meta.period_span == "For the quarterly period ended July 29, 2023"


def test_a_user_supplied_period_is_stated() -> None:
    meta = infer_metadata("notes.md", None, "text", user={"period": "FY2020"})
    assert meta.period == "FY2020" and meta.period_source == "stated"
    assert meta.period_span == "user"


def test_split_years_read_as_the_year_they_end_in() -> None:
    for text in ("2024/25", "FY2024/25", "FY24/25", "2024-25", "2024/2025"):
        (c,) = parse_periods(f"What was spent in {text}?")
        assert c.values == ("FY2025",), text
    (rng,) = parse_periods("between 2019-2020")  # a hyphen between two full years: a range
    assert rng.relation == "range"
    assert infer_metadata("x.md", "Budget 2025/26", "").period == "FY2026"
    assert infer_metadata("x.md", "Accounts 1999/00", "").period == "FY2000"  # a new century


# --- quarter spellings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling",
    [
        "Q2 2023",
        "2Q23",
        "2Q 2023",
        "Q2-23",
        "Q2-2023",
        "Q2/23",
        "Q2'23",
        "FY23 Q2",
        "FY2023 Q2",
        "Q2 FY23",
        "fiscal Q2 2023",
        "second quarter of fiscal 2023",
        "second quarter of 2023",
        "2023 second quarter",
        "quarter 2 of 2023",
    ],
)
def test_quarter_spellings(spelling: str) -> None:
    (c,) = parse_periods(f"What was revenue in {spelling}?")
    assert c.values == ("2023Q2",) and c.text == spelling


# --- stated periods filter; inferred ones pass -----------------------------------------------


TRUST = [
    _doc("report", "FY2025", "stated"),
    _doc("budget", "FY2026", "inferred"),
    _doc("newsletter", "2023", "inferred"),
    _doc("readings", None, None),
]


def test_a_corpus_with_one_stated_period_is_not_organised_by_period() -> None:
    gaz = Gazetteer(TRUST)
    assert not period_organised(gaz.documents)
    for q in ("How much did the trust spend on mains in 2025?", "What happened in 2019?"):
        qc = parse_constraints(q, gaz)
        (period,) = qc.periods
        assert period.match == "partial" and "not organised" in period.note
        assert filter_for(qc) is None  # nothing filtered out
        assert refusal_reason(qc, companies_indexed=False) == ""  # never refused on a year
    qc = parse_constraints("How much did the trust spend on mains in 2025?", gaz)
    assert ("period", ("FY2025",)) in boosts_for(qc)  # the report is preferred


def test_in_a_period_organised_corpus_only_stated_documents_are_filtered() -> None:
    docs = [
        _doc("report-24", "FY2024", "stated"),
        _doc("report-25", "FY2025", "stated"),
        _doc("letter", "FY2025", "inferred"),
        _doc("old-letter", "2019", "inferred"),
        _doc("readings", None, None),
    ]
    gaz = Gazetteer(docs)
    assert period_organised(gaz.documents)
    qc = parse_constraints("What was the income in the year ended 31 March 2025?", gaz)
    (period,) = qc.periods
    assert period.match == "exact" and period.values == ("FY2025",)
    # the other stated report is filtered out; undated and inferred documents are admitted
    assert _admitted(qc, docs) == {"report-25", "letter", "old-letter", "readings"}
    qc = parse_constraints("What happened in 2015?", gaz)
    assert refusal_reason(qc, companies_indexed=False) == ""  # inferred documents remain


def test_a_period_organised_set_of_stated_filings_still_refuses_a_year_it_lacks() -> None:
    docs = [
        _doc("a18", "FY2018", "stated", "3M"),
        _doc("a19", "FY2019", "stated", "3M"),
    ]
    qc = parse_constraints("What was 3M's revenue in FY2030?", Gazetteer(docs))
    assert refusal_reason(qc, companies_indexed=True).endswith("about 3M FY2030")


def test_legacy_metadata_without_period_source_counts_as_stated() -> None:
    docs = [_doc("a18", "FY2018", None, "3M"), _doc("a19", "FY2019", None, "3M")]
    qc = parse_constraints("What was 3M's revenue in FY2018?", Gazetteer(docs))
    assert _admitted(qc, docs) == {"a18"}


# --- forward-looking questions -----------------------------------------------------------------


FILINGS = [
    _doc("acme23", "FY2023", "stated", "Acme", doc_type="10-K", period_end="2023-12-31"),
    _doc("acme24", "FY2024", "stated", "Acme", doc_type="10-K", period_end="2024-12-31"),
    _doc("globex24", "FY2024", "stated", "Globex", doc_type="10-K", period_end="2024-12-31"),
]


@pytest.mark.parametrize(
    "question",
    [
        "What is Acme forecasting for FY2025 revenue?",
        "What guidance did Acme give for fiscal 2025?",
        "What capital expenditure does Acme expect to make in 2025?",
    ],
)
def test_a_forward_looking_question_gets_the_filing_published_before_the_period(
    question: str,
) -> None:
    assert is_forward_looking(question)
    qc = parse_constraints(question, Gazetteer(FILINGS))
    assert refusal_reason(qc, companies_indexed=True) == ""
    assert _admitted(qc, FILINGS) == {"acme24"}  # not empty: the FY2024 10-K has the outlook
    assert ("period", ("FY2024",)) in boosts_for(qc)
    (period,) = qc.periods
    assert period.forward and "forward-looking" in period.note


def test_an_anchored_question_keeps_its_filing() -> None:
    question = "As of FY2023, what did Acme expect to pay its retirees in 2025?"
    qc = parse_constraints(question, Gazetteer(FILINGS))
    assert not any(p.forward for p in qc.periods)
    assert ("period", ("FY2023",)) in boosts_for(qc)
    assert "acme23" in _admitted(qc, FILINGS)


def test_a_reported_figure_is_not_forward_looking() -> None:
    assert not is_forward_looking("What was Acme's expected return on plan assets in FY2024?")
    qc = parse_constraints("What was Acme's revenue in FY2025?", Gazetteer(FILINGS))
    assert refusal_reason(qc, companies_indexed=True)  # a past-tense FY2025 question: refused


# --- recency -------------------------------------------------------------------------------------


def test_a_company_named_without_a_period_prefers_its_latest_documents() -> None:
    docs = [
        *FILINGS,
        _doc("acme-q1", "2025Q1", "stated", "Acme", doc_type="10-Q", period_end="2025-03-31"),
        _doc("acme-q3", "2024Q3", "stated", "Acme", doc_type="10-Q", period_end="2024-09-30"),
    ]
    qc = parse_constraints("What is Acme's total debt?", Gazetteer(docs))
    assert qc.recency is not None
    assert set(qc.recency.doc_values) == {"FY2024", "2025Q1"}  # latest 10-K, latest 10-Q
    assert qc.recency.text == "Acme" and qc.recency.match == "partial"
    assert ("period", qc.recency.doc_values) in boosts_for(qc)
    assert _admitted(qc, docs) == {"acme23", "acme24", "acme-q1", "acme-q3"}  # boost, no filter
    assert qc.to_dict()["recency"]["kind"] == "recency"


def test_no_recency_when_a_period_is_named_or_no_company() -> None:
    gaz = Gazetteer(FILINGS)
    assert parse_constraints("What was Acme's revenue in FY2023?", gaz).recency is None
    assert parse_constraints("Which company grew fastest?", gaz).recency is None

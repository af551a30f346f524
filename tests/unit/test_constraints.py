"""Unit tests for chains.constraints: entities, periods, doc types, filters (no model, no index)."""

from __future__ import annotations

import pytest

from chains.constraints import (
    Constraint,
    Gazetteer,
    boosts_for,
    filter_for,
    load_aliases,
    matching_periods,
    parse_constraints,
    parse_periods,
    unmatched,
)
from citerag.core.filters import matches

DOCS = [
    {"company": "Johnson & Johnson", "period": "FY2022", "doc_type": "10-K", "doc_name": "JNJ_22"},
    {"company": "Johnson & Johnson", "period": "2023Q2", "doc_type": "earnings"},
    {"company": "3M", "period": "FY2018", "doc_type": "10-K", "company_aliases": ["3M Company"]},
    {"company": "American Express", "period": "FY2021", "doc_type": "10-K"},
    {"company": "American Express", "period": "FY2022", "doc_type": "10-K"},
    {
        "company": "Acme Widgets",
        "period": "FY2021",
        "doc_type": "10-K",
        "company_aliases": ["Acme Widgets Holdings, Inc.", "ACMW"],
    },
    {"company": "Block", "period": "FY2020", "doc_type": "10-K", "company_aliases": ["Square"]},
    {"company": "Delta Air Lines", "period": "FY2022", "doc_type": "10-K"},
    {"company": "Delta Apparel", "period": "FY2022", "doc_type": "10-K"},
    {"company": "Coca-Cola", "period": "FY2017", "doc_type": "10-K"},
]


@pytest.fixture(scope="module")
def gaz() -> Gazetteer:
    return Gazetteer(DOCS)


def companies(question: str, gaz: Gazetteer) -> list[tuple[tuple[str, ...], str, str]]:
    return [(c.values, c.match, c.text) for c in parse_constraints(question, gaz).companies]


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("Did J&J grow in FY2022?", "J&J"),
        ("Are JnJ's FY2022 financials strong?", "JnJ"),
        ("What did Johnson and Johnson report?", "Johnson and Johnson"),
        ("What did JOHNSON & JOHNSON report?", "JOHNSON & JOHNSON"),
    ],
)
def test_johnson_and_johnson_aliases(question: str, text: str, gaz: Gazetteer) -> None:
    assert companies(question, gaz) == [(("Johnson & Johnson",), "exact", text)]


def test_possessive_suffix_and_symbol(gaz: Gazetteer) -> None:
    assert companies("What is 3M's FY2018 capex?", gaz) == [(("3M",), "exact", "3M")]
    assert companies("What did 3M Company spend?", gaz)[0][2] == "3M Company"
    assert companies("Is AMEX profitable?", gaz) == [(("American Express",), "exact", "AMEX")]
    acme = companies("Did Acme Widgets Holdings, Inc. pay dividends?", gaz)
    assert acme[0][0] == ("Acme Widgets",) and acme[0][1] == "exact"
    assert companies("Did ACMW pay dividends?", gaz) == [(("Acme Widgets",), "exact", "ACMW")]
    assert companies("Coca Cola revenue", gaz)[0][0] == ("Coca-Cola",)
    assert companies("Square's revenue growth", gaz)[0][0] == ("Block",)


def test_symbols_and_initials_need_upper_case(gaz: Gazetteer) -> None:
    assert companies("is acmw up?", gaz) == []
    # initials of a 2+ word name are only a hint
    initials = parse_constraints(
        "What did AWH report?", Gazetteer([{"company": "Acme Widget House"}])
    )
    assert [c.match for c in initials.companies] == ["partial"]


def test_alias_needs_an_indexed_company() -> None:
    only_3m = Gazetteer([{"company": "3M", "period": "FY2018"}])
    assert parse_constraints("Did AMEX grow?", only_3m).companies == ()
    custom = Gazetteer([{"company": "Widget Co"}], aliases={"WidgetCo": "Widget"})
    assert parse_constraints("Is WidgetCo up?", custom).companies[0].values == ("Widget Co",)
    assert "J&J" in load_aliases()


def test_longest_match_wins() -> None:
    g = Gazetteer([{"company": "Delta"}, {"company": "Delta Air Lines"}])
    assert companies("Delta Air Lines fuel costs", g) == [
        (("Delta Air Lines",), "exact", "Delta Air Lines")
    ]


def test_ambiguous_name_is_a_boost_not_a_filter(gaz: Gazetteer) -> None:
    qc = parse_constraints("What was Delta's FY2022 revenue?", gaz)
    (company,) = qc.companies
    assert company.match == "ambiguous"
    assert set(company.values) == {"Delta Air Lines", "Delta Apparel"}
    flt = filter_for(qc)
    assert flt is not None and "company" not in flt
    assert flt["period"]["$in"][0] == "FY2022"
    assert ("company", ("Delta Air Lines", "Delta Apparel")) in boosts_for(qc)


def test_lower_case_common_word_is_partial(gaz: Gazetteer) -> None:
    qc = parse_constraints("how big was the block of shares sold?", gaz)
    assert [c.match for c in qc.companies] == ["partial"]
    assert filter_for(qc) is None


def test_no_constraint_gives_empty(gaz: Gazetteer) -> None:
    qc = parse_constraints("What does fault code E-217 mean?", gaz)
    assert qc.is_empty()
    assert filter_for(qc) is None and boosts_for(qc) == []


def labels(question: str) -> list[tuple[str, ...]]:
    return [c.values for c in parse_periods(question)]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("capex in FY2021?", [("FY2021",)]),
        ("capex in FY 2021?", [("FY2021",)]),
        ("capex in FY21?", [("FY2021",)]),
        ("fiscal 2022 revenue", [("FY2022",)]),
        ("fiscal year 2022 revenue", [("FY2022",)]),
        ("between 2022 and the 2021 fiscal period", [("2022",), ("FY2021",)]),
        ("revenue in 2019", [("2019",)]),
        ("Q2 2023 sales", [("2023Q2",)]),
        ("2023 Q2 sales", [("2023Q2",)]),
        ("second quarter of 2023", [("2023Q2",)]),
        ("second fiscal quarter of 2023", [("2023Q2",)]),
        ("Q2 FY2023 sales", [("2023Q2",)]),
        ("Q2 of FY2024", [("2024Q2",)]),
        ("As of FY2023Q1, why", [("2023Q1",)]),
        ("H1 FY2023 investments", [("2023H1",)]),
        ("debt as of December 31, 2021", [("FY2021",)]),
        ("borrowed on May 26, 2023", [("2023-05-26",)]),
        ("compare FY2021 and FY2022", [("FY2021",), ("FY2022",)]),
        ("between 2019 and 2021", [("2019", "2021")]),
        ("from FY2020 to FY2022", [("FY2020", "FY2022")]),
        ("the FY2017 - FY2019 average", [("FY2017", "FY2019")]),
        ("paid $2019 million, up 2020%", []),
        ("what is the revenue?", []),
    ],
)
def test_period_parsing(question: str, expected: list[tuple[str, ...]]) -> None:
    assert labels(question) == expected


def test_period_spans_years_and_kinds() -> None:
    (rng,) = parse_periods("change between 2019 and 2021?")
    assert rng.relation == "range" and rng.years == (2019, 2021)
    assert "change between 2019 and 2021?"[rng.span[0] : rng.span[1]] == rng.text == "2019 and 2021"
    fy, cal = parse_periods("FY2022 vs calendar year 2022")
    assert (fy.kind, cal.kind) == ("fiscal_year", "calendar_year")
    assert cal.text == "calendar year 2022"
    (as_of,) = parse_periods("as of January 1, 2023")
    assert as_of.values == ("FY2022",) and as_of.kind == "as_of"  # 52/53-week year end rule


def test_matching_periods_with_comparatives() -> None:
    indexed = ["FY2020", "FY2021", "FY2022", "2022Q2", "2022-05-04", "FY2024"]
    (c,) = parse_periods("revenue in FY2021")
    found = matching_periods(c, indexed)
    assert found[0] == "FY2021"  # the exact label first
    assert set(found) == {"FY2021", "FY2022", "2022Q2"}  # 2022 reports also show 2021
    assert matching_periods(c, indexed, comparative_years=0) == ["FY2021"]
    (q,) = parse_periods("Q2 of FY2022")
    assert matching_periods(q, indexed)[0] == "2022Q2"
    assert "2022-05-04" in matching_periods(q, indexed) and "FY2022" in matching_periods(q, indexed)
    assert matching_periods([2030], indexed) == []


def test_doc_types(gaz: Gazetteer) -> None:
    qc = parse_constraints("In 3M's 10-K, what was capex?", gaz)
    (dt,) = qc.doc_types
    assert dt.values == ("10-K",) and dt.match == "exact" and dt.doc_values == ("10-K",)
    wording = parse_constraints("What does J&J's annual report say about the earnings call?", gaz)
    assert [d.match for d in wording.doc_types] == ["partial", "partial"]
    assert ("doc_type", ("earnings",)) in boosts_for(wording)


def test_filter_for_shape_and_semantics(gaz: Gazetteer) -> None:
    qc = parse_constraints("What was 3M's FY2018 capital expenditure?", gaz)
    flt = filter_for(qc)
    assert flt == {"$and": [{"company": {"$in": ["3M"]}}, {"period": {"$in": ["FY2018"]}}]}
    assert matches({"company": "3M", "period": "FY2018"}, flt)
    assert not matches({"company": "3M", "period": "FY2017"}, flt)
    assert not matches({"company": "Coca-Cola", "period": "FY2018"}, flt)
    only_company = filter_for(parse_constraints("Is AMEX profitable?", gaz))
    assert only_company == {"company": {"$in": ["American Express"]}}
    two = filter_for(parse_constraints("Compare 3M and Coca-Cola", gaz))
    assert two == {"company": {"$in": ["3M", "Coca-Cola"]}}


def test_exact_period_nobody_covers_is_reported(gaz: Gazetteer) -> None:
    qc = parse_constraints("What was 3M's FY2024 revenue?", gaz)
    assert [c.field for c in qc.uncovered] == ["period"]
    flt = filter_for(qc)
    assert gaz.count(flt) == 0  # the honest "no evidence": nothing to answer from


def test_missing_period_metadata_downgrades_to_boost() -> None:
    g = Gazetteer(
        [
            {"company": "Acme", "period": "FY2021"},
            {"company": "Acme", "period": "FY2022"},
            {"company": "Acme", "period": None},
        ]
    )
    qc = parse_constraints("Acme's FY2021 revenue?", g)
    (period,) = qc.periods
    assert period.match == "partial" and "no period" in period.note
    assert filter_for(qc) == {"company": {"$in": ["Acme"]}}
    assert ("period", ("FY2021",)) in boosts_for(qc)


def test_unknown_company_detection(gaz: Gazetteer) -> None:
    qc = parse_constraints("What was Boeing's FY2024 revenue?", gaz)
    assert [u.text for u in qc.unmatched] == ["Boeing"]
    assert qc.unmatched[0].reason == "possessive"
    cue = unmatched("How much cash did Tesla generate in 2020?", gaz)
    assert [u.text for u in cue] == ["Tesla"]


@pytest.mark.parametrize(
    "question",
    [
        "What is the FY2018 capex for 3M? Answer in USD millions.",
        "What drove the change in SG&A expense in FY2023?",
        "What is the company's EBITDA? Use GAAP figures.",
        "What was America's GDP?",
        "Is 3M's CEO's pay disclosed in the 10-K?",
        "What did the Board's report say in March?",
    ],
)
def test_unknown_company_detection_is_conservative(question: str, gaz: Gazetteer) -> None:
    assert parse_constraints(question, gaz).unmatched == ()


def test_trace_form(gaz: Gazetteer) -> None:
    qc = parse_constraints("What was 3M's FY2018 capex?", gaz)
    d = qc.to_dict()
    assert d["filter"] == filter_for(qc)
    assert {c["field"] for c in d["constraints"]} == {"company", "period"}
    assert all(isinstance(c, Constraint) for c in qc.constraints)

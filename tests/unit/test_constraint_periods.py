"""The exact-period rule: a named period selects the documents about it, comparatives only
when none is readable (chains.constraints.select_periods; no model, no index)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chains.constraints import (
    Gazetteer,
    boosts_for,
    filter_for,
    named_periods,
    parse_constraints,
    parse_periods,
    select_periods,
)
from graphs import nodes
from graphs.deps import GraphDeps


def _doc(company: str, period: str, doc_type: str = "10-K", access: str = "public") -> dict:
    return {"company": company, "period": period, "doc_type": doc_type, "access": access}


def _periods(question: str, gaz: Gazetteer) -> list[str]:
    flt = filter_for(parse_constraints(question, gaz))
    assert flt is not None
    parts = flt.get("$and", [flt])
    return next(p["period"]["$in"] for p in parts if "period" in p)


def test_an_exact_label_present_selects_only_it() -> None:
    gaz = Gazetteer([_doc("Corning", "FY2021"), _doc("Corning", "FY2022")])
    assert _periods("What was Corning's FY2021 capex?", gaz) == ["FY2021"]
    assert _periods("What was Corning's capex in fiscal 2022?", gaz) == ["FY2022"]
    qc = parse_constraints("What was Corning's FY2021 capex?", gaz)
    assert boosts_for(qc) == [("period", ("FY2021",))]


def test_without_the_exact_label_the_comparative_filing_is_admitted() -> None:
    gaz = Gazetteer([_doc("Corning", "FY2022"), _doc("Corning", "FY2020")])
    assert _periods("What was Corning's FY2021 capex?", gaz) == ["FY2022"]  # reports FY2021
    (period,) = parse_constraints("What was Corning's FY2021 capex?", gaz).periods
    assert period.match == "exact" and period.doc_values == ("FY2022",)


def test_a_bare_year_is_the_fiscal_year_of_that_number() -> None:
    gaz = Gazetteer([_doc("Nike", "FY2018"), _doc("Nike", "FY2019")])
    assert _periods("What was Nike's revenue in 2018?", gaz) == ["FY2018"]
    assert select_periods(parse_periods("FY2019")[0], ["2019", "FY2020"]) == ["2019"]


def test_quarter_labels_are_exact_too() -> None:
    gaz = Gazetteer(
        [_doc("Amcor", "2023Q2", "10-Q"), _doc("Amcor", "2024Q2", "10-Q"), _doc("Amcor", "FY2023")]
    )
    assert _periods("What was Amcor's Q2 2023 revenue?", gaz) == ["2023Q2"]
    # no 2022Q2 document: the ones reporting 2022 as a comparative (the 2023 reports)
    assert set(_periods("What was Amcor's Q2 2022 revenue?", gaz)) == {"2023Q2", "FY2023"}


def test_two_periods_each_select_their_own_label() -> None:
    gaz = Gazetteer([_doc("Adobe", y) for y in ("FY2015", "FY2016", "FY2017", "FY2018")])
    assert set(_periods("Compare Adobe's FY2015 and FY2016 revenue.", gaz)) == {"FY2015", "FY2016"}
    # a range selects every year between its endpoints, each exact
    ranged = _periods("How did Adobe's revenue change from FY2015 to FY2017?", gaz)
    assert set(ranged) == {"FY2015", "FY2016", "FY2017"}
    # a named year without its own filing falls back on its own: FY2015 reports FY2014
    assert set(_periods("Compare Adobe's FY2018 and FY2014 revenue.", gaz)) == {"FY2018", "FY2015"}


def test_named_periods_expands_ranges() -> None:
    (r,) = parse_periods("between 2019 and 2021")
    assert named_periods(r) == ("2019", "2020", "2021")
    (q,) = parse_periods("from Q3 2022 to Q1 2023")
    assert named_periods(q) == ("2022Q3", "2022Q4", "2023Q1")
    (single,) = parse_periods("FY2021")
    assert named_periods(single) == ("FY2021",)


def test_exactness_is_decided_per_company() -> None:
    gaz = Gazetteer([_doc("3M", "FY2018"), _doc("3M", "FY2019"), _doc("Coca-Cola", "FY2019")])
    # 3M has its FY2018 10-K; Coca-Cola only reports FY2018 as a comparative in FY2019's
    assert set(_periods("Compare 3M and Coca-Cola revenue in FY2018.", gaz)) == {
        "FY2018",
        "FY2019",
    }
    assert _periods("What was 3M's FY2018 revenue?", gaz) == ["FY2018"]


def test_no_company_named_decides_over_the_whole_index() -> None:
    gaz = Gazetteer([_doc("3M", "FY2018"), _doc("Coca-Cola", "FY2019")])
    assert _periods("Which company had the larger FY2018 revenue?", gaz) == ["FY2018"]


def test_a_document_without_a_period_still_downgrades_to_a_boost() -> None:
    gaz = Gazetteer([_doc("Acme", "FY2021"), _doc("Acme", "FY2022"), {"company": "Acme"}])
    qc = parse_constraints("Acme's FY2021 revenue?", gaz)
    (period,) = qc.periods
    assert period.match == "partial" and period.doc_values == ("FY2021",)
    assert filter_for(qc) == {"company": {"$in": ["Acme"]}}
    assert ("period", ("FY2021",)) in boosts_for(qc)


class _Store:
    def __init__(self, docs: list[dict]) -> None:
        self.meta = [
            (f"{i}", {"doc_id": f"d{i}", "doc_name": f"d{i}.pdf", **d}) for i, d in enumerate(docs)
        ]

    def iter_metadata(self) -> Iterator[tuple[str, dict]]:
        return iter(self.meta)


class _Emb:
    def embed_query(self, text: str) -> list[float]:
        return [0.0]


def _filter(docs: list[dict], groups: list[str]) -> object:
    deps = GraphDeps(retriever=None, embeddings=_Emb(), store=_Store(docs))  # type: ignore[arg-type]
    state: Any = {"question": "What was Corning's FY2021 capex?", "user_groups": groups}
    return nodes.constrain(state, {"configurable": {}}, deps=deps)["constraints"].filter


def test_a_restricted_exact_filing_changes_nothing_for_a_caller_without_its_label() -> None:
    public = [_doc("Corning", "FY2022"), _doc("3M", "FY2018")]  # a corpus organised by period
    restricted = [*public, _doc("Corning", "FY2021", access="board")]
    absent = public
    assert _filter(restricted, []) == _filter(absent, [])  # the comparative filing, both times
    assert "FY2022" in str(_filter(restricted, []))
    insider = str(_filter(restricted, ["board"]))
    assert "FY2021" in insider and "FY2022" not in insider


def test_a_range_admits_every_period_and_prefers_the_latest_report() -> None:
    gaz = Gazetteer([_doc("Adobe", f"FY{y}") for y in (2015, 2016, 2017, 2018)])
    question = "How did Adobe's revenue change from FY2015 to FY2017?"
    assert set(_periods(question, gaz)) == {"FY2015", "FY2016", "FY2017"}
    assert boosts_for(parse_constraints(question, gaz)) == [("period", ("FY2017",))]
    # the range's end is not indexed: the latest report inside it gets the boost
    gaz = Gazetteer([_doc("Adobe", "FY2015"), _doc("Adobe", "FY2016")])
    assert boosts_for(parse_constraints(question, gaz)) == [("period", ("FY2016",))]


def test_a_list_of_periods_boosts_each_named_period() -> None:
    gaz = Gazetteer([_doc("Adobe", f"FY{y}") for y in (2015, 2016, 2017)])
    qc = parse_constraints("Compare Adobe's revenue in FY2015 and FY2017.", gaz)
    assert set(_periods("Compare Adobe's revenue in FY2015 and FY2017.", gaz)) == {
        "FY2015",
        "FY2017",
    }
    assert ("period", ("FY2015",)) in boosts_for(qc) and ("period", ("FY2017",)) in boosts_for(qc)


def test_quarter_ranges_prefer_the_latest_quarter() -> None:
    gaz = Gazetteer([_doc("Amcor", f"2023Q{q}", "10-Q") for q in (1, 2, 3)])
    qc = parse_constraints("How did Amcor's margin move from Q1 2023 to Q3 2023?", gaz)
    assert boosts_for(qc) == [("period", ("2023Q3",))]


# --- months and seasons: the documents whose period overlaps them ----------------------------


def _trust(period: str, end: str) -> dict:
    return {"company": "Fenby Water Trust", "period": period, "period_end": end}


_MARCH_YEARS = Gazetteer(
    [_trust("FY2023", "2023-03-31"), _trust("FY2024", "2024-03-31"), _trust("FY2025", "2025-03-31")]
)


def test_months_and_seasons_are_read_as_spans_of_months() -> None:
    cases = {
        "What happened between October and December 2023?": ("2023-10..2023-12", (2023,)),
        "Oct-Dec 2023 readings": ("2023-10..2023-12", (2023,)),
        "rainfall in March 2025": ("2025-03", (2025,)),
        "rain in may 2024": ("2024-05", (2024,)),
        "from October 2023 to March 2024": ("2023-10..2024-03", (2023, 2024)),
        "November to February 2024": ("2023-11..2024-02", (2023, 2024)),
        "events in summer 2024": ("2024-06..2024-08", (2024,)),
        "in the fall of 2024": ("2024-09..2024-11", (2024,)),
    }
    for question, (label, years) in cases.items():
        (c,) = parse_periods(question)
        assert (c.values, c.kind, c.years) == ((label,), "months", years), question


def test_months_joined_by_and_are_a_list_unless_after_between() -> None:
    assert [c.values for c in parse_periods("rent in March 2023 and March 2024")] == [
        ("2023-03",),
        ("2024-03",),
    ]
    assert [c.values for c in parse_periods("rain between October and December 2023")] == [
        ("2023-10..2023-12",)
    ]


def test_a_month_word_that_is_no_month_stays_a_year() -> None:
    assert [c.values for c in parse_periods("What may 2024 bring?")] == [("2024",)]
    assert [c.values for c in parse_periods("Did sales fall 2023?")] == [("2023",)]
    assert [c.values for c in parse_periods("dated 1st July 2022")] == [("2022-07-01",)]
    # "year ended March 2025" is that fiscal year, as "year ended 31 March 2025" is
    (c,) = parse_periods("revenue for the year ended March 2025")
    assert (c.values, c.kind) == (("FY2025",), "as_of")


def test_months_select_the_report_whose_year_holds_them_not_the_calendar_year() -> None:
    # a year ending 31 March: October to December 2023 is in FY2024, not in FY2023
    assert _periods("What was the rainfall between October and December 2023?", _MARCH_YEARS) == [
        "FY2024"
    ]
    assert _periods("What did the trust report for March 2023?", _MARCH_YEARS) == ["FY2023"]
    # a span across two reporting years selects both, latest first, and boosts them
    q = "How much rain fell from January to June 2024?"
    assert _periods(q, _MARCH_YEARS) == ["FY2025", "FY2024"]
    assert boosts_for(parse_constraints(q, _MARCH_YEARS)) == [("period", ("FY2025", "FY2024"))]


def test_months_no_report_covers_fall_back_to_the_year_rule() -> None:
    gaz = Gazetteer([_trust("FY2023", "2023-03-31"), _trust("FY2024", "2024-03-31")])
    # June 2024 is in no report's year; FY2024 is the fiscal year of that number
    assert _periods("What happened in June 2024?", gaz) == ["FY2024"]
    (c,) = parse_constraints("What happened in June 2026?", gaz).periods
    assert c.doc_values == () and c.note == "no indexed document matches this period"


def test_forward_looking_months_prefer_the_report_published_before_them() -> None:
    gaz = Gazetteer([_trust("FY2023", "2023-03-31"), _trust("FY2024", "2024-03-31")])
    qc = parse_constraints("What will the trust do in summer 2024?", gaz)
    (c,) = qc.periods
    assert c.forward and c.doc_values[0] == "FY2024"  # ended March 2024, before June


def test_coverage_of_a_document_follows_its_label_and_period_end() -> None:
    from datetime import date

    from chains.constraints import coverage

    assert coverage(_trust("FY2025", "2025-03-31")) == (date(2024, 4, 1), date(2025, 3, 31))
    assert coverage({"period": "2023Q2", "period_end": "2023-06-30"}) == (
        date(2023, 4, 1),
        date(2023, 6, 30),
    )
    assert coverage({"period": "FY2022"}) == (date(2022, 1, 1), date(2022, 12, 31))
    assert coverage({"period": "2023-05-26"}) == (date(2023, 5, 26), date(2023, 5, 26))
    assert coverage({"period": None}) is None

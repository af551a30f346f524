"""Constraints that fit the corpus, end to end: documents written here, ingested for real into
each store (FAISS and PostgreSQL), asked through the compiled graph.

* a charity's report whose period is only inferred (from its file name) and readings with no
  period: a question naming another year is answered, not refused;
* the stated period ("for the year ended 31 March 2025") and its span reach the documents
  the ``constrain`` node reads, on both stores;
* two companies' 10-K PDFs of two years: a forward-looking question about the next fiscal
  year gets its candidates from the filing published before it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citerag.index.ingest import ingest
from graphs.deps import GraphDeps
from graphs.rag import build_graph
from tests.integration.test_server import make_pdf
from tests.support.filings import cover_page, results_page

pytestmark = pytest.mark.integration

REPORT = """# Riverside Allotment Society

## Annual report

The society has 140 plots on the Riverside site. This year the waiting list grew to 63
households, and the new water troughs were installed on the east field.

Total income was £18,400, of which plot rents were £15,900.
"""

REPORT_STATED = """# Riverside Allotment Society

## Annual report for the year ended 31 March 2025

The society let all 140 plots. The waiting list was 71 households at the year end.
"""

READINGS = """Rain gauge readings at the Riverside site

January: 88 mm. February: 61 mm. March: 54 mm. April: 40 mm. The driest month was April.
"""

FORECAST = "For fiscal year {next} we expect revenue between $150 million and $160 million."


def _write_charity(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "Riverside_Allotment_Society_Annual_Report_2023.md").write_text(REPORT)
    (folder / "Riverside_Allotment_Society_Annual_Report_2024.md").write_text(REPORT_STATED)
    (folder / "rain_gauge_readings.txt").write_text(READINGS)


def _write_filings(folder: Path) -> None:
    folder.mkdir(parents=True)
    for company, revenue in (("Globex", {2023: 120, 2024: 135}), ("Initech", {2023: 75})):
        for year, amount in revenue.items():
            make_pdf(
                folder / f"{company.upper()}_{year}_10K.pdf",
                [
                    cover_page(company, year),
                    [*results_page(company, year, amount), FORECAST.format(next=year + 1)],
                ],
            )


@pytest.fixture(scope="module", params=["faiss", "postgres"])
def graphs(request, tmp_path_factory: pytest.TempPathFactory, embedding_model):
    """The charity corpus and the filings, each ingested into its own index on each store."""
    from tests.support.pg import with_namespace

    src = tmp_path_factory.mktemp("src")
    _write_charity(src / "charity")
    _write_filings(src / "filings")
    out = {}
    for name in ("charity", "filings"):
        if request.param == "faiss":
            location: Path | str = tmp_path_factory.mktemp(name) / "index"
        else:
            location = with_namespace(request.getfixturevalue("pg_server"), f"cc_{name}")
        report = ingest([src / name], location, embedding_model, progress=False)
        assert not report.failed
        deps = GraphDeps.from_index(location, embedding_model=embedding_model)
        out[name] = (build_graph(deps), deps)
    return out


def _ask(graph, question: str) -> dict:
    return graph.invoke({"question": question, "user_groups": []}, {"configurable": {}})


def test_the_stated_period_and_its_span_reach_the_documents(graphs) -> None:
    _graph, deps = graphs["charity"]
    docs = {d["doc_name"]: d for d in deps.documents()}
    stated = docs["Riverside_Allotment_Society_Annual_Report_2024.md"]
    assert stated["period"] == "FY2025" and stated["period_source"] == "stated"
    assert stated["period_span"] == "for the year ended 31 March 2025"
    inferred = docs["Riverside_Allotment_Society_Annual_Report_2023.md"]
    assert inferred["period"] == "FY2023" and inferred["period_source"] == "inferred"
    assert docs["rain_gauge_readings.txt"]["period"] is None


def test_a_report_whose_period_is_only_inferred_is_not_refused_for_a_year(graphs) -> None:
    graph, _deps = graphs["charity"]
    res = _ask(graph, "How large was the Riverside Allotment Society's waiting list in 2024?")
    constraints = res["trace"]["constraints"]
    assert constraints["refusal"] == ""
    assert not constraints["period_organised"]  # one stated period: a boost, not a filter
    (period,) = [c for c in constraints["parsed"]["constraints"] if c["field"] == "period"]
    assert period["match"] == "partial"
    assert res["trace"]["candidates"], "retrieval ran"
    names = {c["doc_name"] for c in res["trace"]["candidates"]}
    assert "Riverside_Allotment_Society_Annual_Report_2023.md" in names  # the inferred one
    assert res["status"] == "answered", res["reason"]
    assert "63 households" in res["answer"] or "71 households" in res["answer"]


def test_a_place_named_with_a_year_is_not_an_unknown_company(graphs) -> None:
    graph, _deps = graphs["charity"]
    res = _ask(graph, "How much rain fell at Riverside in April 2024?")
    assert res["trace"]["constraints"]["refusal"] == ""
    assert res["trace"]["candidates"]


def test_a_forward_looking_question_gets_candidates_from_the_earlier_filing(graphs) -> None:
    graph, _deps = graphs["filings"]
    res = _ask(graph, "What revenue is Globex forecasting for fiscal year 2025?")
    constraints = res["trace"]["constraints"]
    assert constraints["refusal"] == ""
    names = {c["doc_name"] for c in res["trace"]["candidates"]}
    assert names == {"GLOBEX_2024_10K.pdf"}  # the filing published before FY2025, only
    assert ["period", ["FY2024"]] in constraints["boosts"]
    assert res["status"] == "answered", res["reason"]
    assert "$150 million" in res["answer"]


def test_a_company_named_without_a_period_prefers_its_latest_filing(graphs) -> None:
    graph, _deps = graphs["filings"]
    res = _ask(graph, "What was Globex's total revenue?")
    constraints = res["trace"]["constraints"]
    assert constraints["recency"] == ["FY2024"]
    assert ["period", ["FY2024"]] in constraints["boosts"]
    cands = res["trace"]["candidates"]
    assert cands[0]["doc_name"] == "GLOBEX_2024_10K.pdf"
    assert {c["doc_name"] for c in cands} >= {"GLOBEX_2023_10K.pdf"}  # a boost, not a filter

"""Question constraints end to end: synthetic filings of two companies and two years, plus a
restricted filing of a third company, ingested for real and asked through the compiled graph.

The traps are deliberate: every filing states "Total revenue for fiscal year Y was $N million"
in the same words, so only the company and the year tell them apart.
"""

from __future__ import annotations

import json
import re

import pytest

from citerag.index.ingest import ingest
from graphs.deps import GraphDeps
from graphs.rag import build_graph
from graphs.state import to_jsonable
from tests.integration.test_server import make_pdf
from tests.support.filings import cover_page, results_page
from tests.support.pg import with_namespace

pytestmark = pytest.mark.integration

REVENUE = {
    ("Globex", 2021): 120,
    ("Globex", 2022): 135,
    ("Initech", 2021): 75,
    ("Initech", 2022): 81,
}


@pytest.fixture(scope="module", params=["faiss", "postgres"])
def graph(request, tmp_path_factory: pytest.TempPathFactory, embedding_model):
    """The filings ingested into each store (the constraint filters are SQL on PostgreSQL)."""
    folder = tmp_path_factory.mktemp("src") / "filings"
    folder.mkdir()
    for (company, year), revenue in REVENUE.items():
        make_pdf(
            folder / f"{company.upper()}_{year}_10K.pdf",
            [cover_page(company, year), results_page(company, year, revenue)],
        )
    make_pdf(
        folder / "HOOLI_2022_10K.pdf",
        [cover_page("Hooli", 2022), results_page("Hooli", 2022, 999)],
    )
    (folder / ".citerag-access.json").write_text(json.dumps({"HOOLI_*": "board"}))
    if request.param == "faiss":
        index = tmp_path_factory.mktemp("constraints") / "index"
    else:
        index = with_namespace(request.getfixturevalue("pg_server"), "constraints")
    ingest([folder], index, embedding_model, progress=False)
    return build_graph(GraphDeps.from_index(index, embedding_model=embedding_model))


def _ask(graph, question: str, groups: list[str] | None = None, **conf) -> dict:
    return graph.invoke({"question": question, "user_groups": groups or []}, {"configurable": conf})


@pytest.mark.parametrize(("company", "year"), list(REVENUE))
def test_each_question_is_answered_from_its_own_filing(graph, company, year):
    res = _ask(graph, f"What was {company}'s total revenue in fiscal year {year}?")
    assert res["status"] == "answered", res["reason"]
    docs = {c["doc_name"] for c in res["citations"]}
    assert docs == {f"{company.upper()}_{year}_10K.pdf"}
    assert f"${REVENUE[company, year]} million" in res["answer"]
    applied = res["trace"]["constraints"]
    fields = {c["field"]: c for c in applied["parsed"]["constraints"]}
    assert fields["company"]["text"].startswith(company) and fields["company"]["match"] == "exact"
    assert str(year) in fields["period"]["text"]
    assert company in json.dumps(applied["filter"])
    every = {c["doc_name"] for c in res["trace"]["candidates"]}
    assert all(d.startswith(company.upper()) for d in every)  # the filter held in every list


def test_a_company_not_indexed_is_refused_naming_it(graph):
    res = _ask(graph, "What was Boeing's total revenue in fiscal year 2022?")
    assert res["status"] == "no_evidence" and res["citations"] == []
    assert "Boeing" in res["reason"] and "no indexed document" in res["reason"]
    assert res["trace"]["candidates"] == []  # refused before retrieval
    assert res["looked_at"] == []  # nothing was read


def test_a_year_the_company_has_no_filing_for_is_refused_naming_both(graph):
    res = _ask(graph, "What was Globex's total revenue in fiscal year 2019?")
    assert res["status"] == "no_evidence"
    assert res["reason"] == "no indexed document you can access is about Globex fiscal year 2019"


def test_a_restricted_filing_stays_invisible_and_the_filter_never_widens_access(graph):
    outsider = _ask(graph, "What was Hooli's total revenue in fiscal year 2022?")
    assert outsider["status"] == "no_evidence"
    # the restricted figure, as a number of its own (an index id's timestamp may hold "999")
    assert not re.search(r"\b999\b", json.dumps(to_jsonable(outsider)))
    assert "HOOLI" not in json.dumps(outsider["trace"]["candidates"])
    assert "Hooli" in outsider["reason"]  # exactly as for a company that is not indexed
    insider = _ask(graph, "What was Hooli's total revenue in fiscal year 2022?", ["board"])
    assert insider["status"] == "answered" and "$999 million" in insider["answer"]
    # a client filter naming the restricted document cannot reach it either
    forced = graph.invoke(
        {
            "question": "What was Hooli's total revenue in fiscal year 2022?",
            "filters": {"doc_name": "HOOLI_2022_10K.pdf"},
        }
    )
    assert forced["status"] == "no_evidence"
    assert not re.search(r"\b999\b", json.dumps(to_jsonable(forced)))


def test_turning_constraints_off_restores_the_plain_pipeline(graph):
    res = _ask(graph, "What was Boeing's total revenue in fiscal year 2022?", constraints=False)
    assert res["trace"]["constraints"]["enabled"] is False
    assert res["trace"]["constraints"]["filter"] is None

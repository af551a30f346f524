"""The number check and the name check through the real graph, for a date written in figures,
a split (fiscal) year and an abbreviated street name.

A town council's note (Markdown: a sentence with a date in words, a budget table by split
year, a car-park table) goes through the real ingest into a FAISS directory with the real
embedding model; the questions go through the compiled graph with the default extractive
answerer. Each was refused before:

* "Which public toilets reopened on 03/11/2025?": "the question asks about 11, which no
  supplied passage mentions", while the note says "3 November 2025" (a date in figures is one
  date);
* "… for the year ending March 2026?": "asks about 2026", while the table says "Budget
  2025/26" (a split year states both its years);
* "… at Station Rd?": "asks about 'rd', which the quoted passage does not mention", while the
  row says "Station Road" (``chains/name_forms.json``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citerag.index.ingest import ingest
from graphs.deps import GraphDeps
from graphs.rag import build_graph

pytestmark = pytest.mark.integration

NOTE = """# Brackenford Town Council: residents' note

## Public toilets

The Victoria Road public toilets reopened on 3 November 2025 after a refurbishment that
closed them for eleven weeks.

## Budget

| Cost centre | Budget 2024/25 (£) | Budget 2025/26 (£) |
|---|---|---|
| Christmas lights | 14500 | 15000 |
| Grants | 12000 | 12000 |

## Car parks

| Car park | Spaces | EV charging points |
|---|---|---|
| Station Road | 112 | 4 |
| Market Square | 38 | 0 |
"""


def _quotes(result: dict) -> str:
    return " ".join(c["quote"] for c in result.get("citations") or [])


def test_dates_split_years_and_street_abbreviations_through_the_graph(
    tmp_path: Path, embedding_model
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.md").write_text(NOTE, encoding="utf-8")
    index = tmp_path / "index"
    report = ingest([folder], index, embedding_model, progress=False)
    assert not report.failed and len(report.indexed) == 1
    graph = build_graph(GraphDeps.from_index(index, embedding_model=embedding_model))

    for asked in (
        "Which public toilets reopened on 03/11/2025?",
        "Which toilets reopened on 2025-11-03?",
    ):
        day = graph.invoke({"question": asked})
        assert day["status"] == "answered", (asked, day.get("reason"))
        assert "3 November 2025" in _quotes(day), (asked, day["answer"])
    # a day the note does not state is still asked about, as written
    other = graph.invoke({"question": "Which toilets reopened on 04/11/2025?"})
    assert other["status"] == "no_evidence"
    assert "asks about 04/11/2025," in (other.get("reason") or ""), other.get("reason")

    budget = graph.invoke(
        {"question": "What was the Christmas lights budget for the year ending March 2026?"}
    )
    assert budget["status"] == "answered", budget.get("reason")
    assert "15000" in _quotes(budget), budget["answer"]
    earlier = graph.invoke({"question": "What was the Christmas lights budget in 2023/24?"})
    assert earlier["status"] == "no_evidence"
    assert "asks about 2023/24," in (earlier.get("reason") or ""), earlier.get("reason")

    for asked in ("How many EV chargers at Station Rd?", "How many EV chargers at Station Rd.?"):
        chargers = graph.invoke({"question": asked})
        assert chargers["status"] == "answered", (asked, chargers.get("reason"))
        assert "Station Road" in _quotes(chargers), (asked, chargers["answer"])

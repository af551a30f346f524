"""A table row that matches a question but for the word qualifying what it asks about (another
row's label) is not the answer, end to end: a lettings sheet, a fee table, trades and prices
ingested into a temporary index with the real embedding model, asked through the offline
graph (``row_qualifier_problem``)."""

from __future__ import annotations

import pytest

from citerag.index.ingest import ingest
from citerag.stores.loaded import load_index
from graphs.rag import build_graph

pytestmark = pytest.mark.integration

PROPERTIES = """Ref,Address,Type,Beds,Rent pcm,Available from
HV-0101,12 Mill Lane Kelby,Terraced house,2,£850,2027-03-01
HV-0102,4 Quay Street Porthaven,Flat,1,£640,2027-02-15
HV-0103,Rose Cottage Vale Heath,Detached cottage,3,£1100,2027-01-20
"""
FEES = """# Fees for tenants

| Fee | Amount | When charged |
|---|---|---|
| Holding deposit | One week's rent | On application |
| Change of sharer | £50.00 | When a sharer is replaced |
| Late payment of rent | 3% above base rate | After 14 days' arrears |
"""
TRADES = """Trade,Name,Phone,Accreditation
Gas engineer,Kernow Heating,01632 960114,Gas Safe 512208
Plumber,Tidewater Plumbing,01632 960233,WaterSafe approved
Electrician,Bright Sparks,01632 960377,NICEIC
"""
TEA = """Product,Pack,Price per kg
Earl Grey Supreme,1 kg,£28.50
Rooibos Vanilla,500 g,£19.00
"""


@pytest.fixture(scope="module")
def graph(tmp_path_factory, embedding_model):
    root = tmp_path_factory.mktemp("rows")
    docs = root / "docs"
    docs.mkdir()
    (docs / "properties.csv").write_text(PROPERTIES, encoding="utf-8")
    (docs / "fees.md").write_text(FEES, encoding="utf-8")
    (docs / "trades.csv").write_text(TRADES, encoding="utf-8")
    (docs / "tea_prices.csv").write_text(TEA, encoding="utf-8")
    report = ingest([docs], root / "index", embedding_model, progress=False)
    assert not report.failed
    index = load_index(root / "index", embedding_model)
    return build_graph(
        index.store, embeddings=embedding_model.embeddings, manifest_id=index.manifest_id
    )


def ask(graph, question: str) -> dict:
    return graph.invoke({"question": question, "user_groups": []})


def test_a_row_lacking_the_asked_record_is_not_quoted(graph):
    # the table has a row for the plumber: the gas engineer's Gas Safe number is not his
    result = ask(graph, "What is the plumber's Gas Safe number?")
    assert "512208" not in result["answer"], result["answer"]


def test_the_rows_still_answer_what_they_state(graph):
    result = ask(graph, "What is the rent for 12 Mill Lane Kelby?")
    assert result["status"] == "answered" and "£850" in result["answer"]
    result = ask(graph, "How much is the holding deposit?")
    assert result["status"] == "answered" and "One week's rent" in result["answer"]
    result = ask(graph, "How much is the fee for changing a sharer?")
    assert result["status"] == "answered" and "£50.00" in result["answer"]
    # a paraphrase of a column no passage writes ("a kilo" / "Price per kg") is no other record
    result = ask(graph, "What's the price per kilo of Earl Grey?")
    assert result["status"] == "answered" and "£28.50" in result["answer"]

"""A table row that matches a question but for the word qualifying what it asks about is not
the answer, end to end: a lettings sheet and a fee table ingested into a temporary index with
the real embedding model, asked through the offline graph (``row_qualifier_problem``)."""

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


@pytest.fixture(scope="module")
def graph(tmp_path_factory, embedding_model):
    root = tmp_path_factory.mktemp("rows")
    docs = root / "docs"
    docs.mkdir()
    (docs / "properties.csv").write_text(PROPERTIES, encoding="utf-8")
    (docs / "fees.md").write_text(FEES, encoding="utf-8")
    report = ingest([docs], root / "index", embedding_model, progress=False)
    assert not report.failed
    index = load_index(root / "index", embedding_model)
    return build_graph(
        index.store, embeddings=embedding_model.embeddings, manifest_id=index.manifest_id
    )


def ask(graph, question: str) -> dict:
    return graph.invoke({"question": question, "user_groups": []})


def test_a_row_lacking_the_asked_thing_is_not_quoted(graph):
    # nothing indexed has a garage: the house's row is not its rent
    result = ask(graph, "What is the rent for 12 Mill Lane Kelby's garage?")
    assert result["status"] != "answered", result["answer"]
    assert "garage" in result["reason"]
    # another kind of deposit than the one asked: the holding deposit's row is no answer
    result = ask(graph, "How much is the pet deposit?")
    assert "Holding deposit" not in result["answer"]


def test_the_rows_still_answer_what_they_state(graph):
    result = ask(graph, "What is the rent for 12 Mill Lane Kelby?")
    assert result["status"] == "answered" and "£850" in result["answer"]
    result = ask(graph, "How much is the holding deposit?")
    assert result["status"] == "answered" and "One week's rent" in result["answer"]
    result = ask(graph, "How much is the fee for changing a sharer?")
    assert result["status"] == "answered" and "£50.00" in result["answer"]

"""A question put in a table's header words is answered with the right row quoted verbatim.

A CSV and an XLSX of suppliers go through the real ingest into each store (FAISS directory,
PostgreSQL + pgvector); the question names a column ("payment terms") that the row's cells
never state. The row's sentence is scored with its headers (:mod:`loaders.row_text`), so the
graph answers citing that row, and the quote is the row exactly as the canonical text has it.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from citerag.index.ingest import ingest
from citerag.index.loaded import load_index
from graphs.rag import build_graph
from loaders.registry import load_file

pytestmark = pytest.mark.integration

HEADER = ["Supplier", "Country", "Contact", "Payment terms", "Lead time (days)"]
ROWS = [
    ["Oolong Leaf Co", "Taiwan", "Mei Lin", "Net 45", "21"],
    ["Darjeeling Estates", "India", "Ravi Kumar", "Net 30", "35"],
    ["Uji Tea Farm", "Japan", "Haruto Sato", "Net 60", "28"],
    ["Kenya Highlands", "Kenya", "Wanjiru Otieno", "Prepaid", "42"],
]


def _write(folder: Path) -> None:
    lines = [",".join(HEADER), *(",".join(r) for r in ROWS)]
    (folder / "suppliers.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Vendors"
    ws.append(["Vendor", "Region", "Account manager", "Credit terms", "Minimum order"])
    for row in [
        ["Rooibos Traders", "South Africa", "Pieter Botha", "Net 15", "200 kg"],
        ["Ceylon Hills", "Sri Lanka", "Nimal Perera", "Net 90", "150 kg"],
        ["Yunnan Green", "China", "Li Wei", "Net 75", "300 kg"],
    ]:
        ws.append(row)
    wb.save(folder / "vendors.xlsx")


CASES = [
    ("What are the payment terms of the Oolong supplier?", "suppliers.csv", "Net 45"),
    ("What credit terms does Ceylon Hills give us?", "vendors.xlsx", "Net 90"),
]


def test_header_words_answer_with_the_row_quoted(
    store_location, tmp_path: Path, embedding_model
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    _write(folder)
    report = ingest([folder], store_location, embedding_model, progress=False)
    assert not report.failed and len(report.indexed) == 2
    loaded = load_index(store_location, embedding_model)
    graph = build_graph(
        loaded.store,
        embeddings=embedding_model.embeddings,
        manifest_id=loaded.manifest_id,
        embedding_model=embedding_model.name,
    )
    for question, doc, value in CASES:
        result = graph.invoke({"question": question})
        assert result["status"] == "answered", (question, result.get("reason"))
        cite = result["citations"][0]
        assert cite["doc_name"] == doc, (question, cite)
        assert value in cite["quote"], (question, cite["quote"])
        # the quote is the verbatim row, never the described text with its headers
        text = load_file(folder / doc).text
        assert text[cite["start"] : cite["end"]] == cite["quote"]
        assert "terms" not in cite["quote"].lower()

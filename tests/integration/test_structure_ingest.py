"""Ingest keeps the structural model: block counts in the manifest and ``citerag inspect``,
``block_type`` on every stored chunk, table rows searchable by their column headers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag import cli
from citerag.index.ingest import ingest
from citerag.stores.loaded import load_index
from loaders.chunking import ChunkSettings

FAQ = (
    "# Shop FAQ\n\n### Can I get a refund?\n\nYes, within 30 days of delivery.\n\n"
    "### Do you ship abroad?\n\nOnly inside the EU.\n"
)
REPORT = (
    "<html><body><h1>Annual report</h1><p>Cloud grew fastest this year.</p>"
    "<table><caption>Segment revenue</caption>"
    "<tr><th>Segment</th><th>2024</th><th>2023</th></tr>"
    "<tr><td>Cloud</td><td>8,214</td><td>7,961</td></tr>"
    "<tr><td>Retail</td><td>1,020</td><td>998</td></tr></table></body></html>"
)
#: Plain text whose headings only its layout shows (loaders.headings).
HANDBOOK = (
    "3. Holidays\nFull-time staff receive 28 days of paid holiday a year, including bank "
    "holidays.\n\n4. Sickness\nA fit note from a doctor is needed for any absence longer than "
    "seven calendar days.\n"
)


@pytest.fixture(scope="module")
def structured(tmp_path_factory: pytest.TempPathFactory, embedding_model) -> Path:
    root = tmp_path_factory.mktemp("structured")
    corpus = root / "docs"
    corpus.mkdir()
    (corpus / "faq.md").write_text(FAQ, encoding="utf-8")
    (corpus / "report.html").write_text(REPORT, encoding="utf-8")
    (corpus / "handbook.txt").write_text(HANDBOOK, encoding="utf-8")
    index_dir = root / "index"
    ingest(
        [corpus],
        index_dir,
        embedding_model,
        progress=False,
        chunking=ChunkSettings(table_rows=True),  # citerag ingest --table-rows
    )
    return index_dir


def test_inspect_shows_block_counts(structured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["inspect", "--index", str(structured), "--json"]) == 0
    docs = json.loads(capsys.readouterr().out)["documents"].values()
    blocks = {Path(d["source"]).name: d["blocks"] for d in docs}
    assert blocks["faq.md"]["qa_pair"] == 2
    assert blocks["report.html"]["table_row"] == 2 and blocks["report.html"]["table"] == 1
    assert blocks["handbook.txt"]["heading"] == 2
    assert cli.main(["inspect", "--index", str(structured)]) == 0
    out = capsys.readouterr().out
    part = out.split("structure (blocks per type):", 1)[1]
    assert "qa" in part and "table_row" in part
    faq_line = next(line for line in part.splitlines() if line.endswith("faq.md"))
    assert "2" in faq_line.split()


def test_chunks_carry_block_type_and_rows_match_headers(structured, embedding_model) -> None:
    store = load_index(structured, embedding_model).store
    docs = store.similarity_search("Cloud segment revenue in 2024", k=4)
    assert all(d.metadata.get("block_type") for d in docs)
    row = next(d for d in docs if d.metadata["block_type"] == "table_row")
    assert "Cloud — 2024: 8,214; 2023: 7,961" in row.page_content
    assert row.metadata["content"] == "Cloud\n\n8,214\n\n7,961\n\nRetail\n\n1,020\n\n998"


def test_a_text_files_headings_are_its_sections(structured, embedding_model) -> None:
    store = load_index(structured, embedding_model).store
    (doc,) = store.similarity_search("when do I need a note from my doctor?", k=1)
    assert doc.metadata["section"] == "4. Sickness"
    assert doc.metadata["content"].startswith("A fit note from a doctor")  # not the heading
    assert "4. Sickness" in doc.page_content.split("\n")[0]  # the embedded header

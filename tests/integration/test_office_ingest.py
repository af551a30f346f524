"""A folder of Office, spreadsheet and e-mail files through the real ingest and graph: each
type answers a question with a citation to its document, quoting the canonical text, and a
hostile file in the same folder fails alone."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import docx
import openpyxl
import pptx
import pytest

from citerag.index.ingest import ingest
from citerag.server.viewer import DocumentViews, ViewerError, check_range
from citerag.stores.loaded import load_index, read_manifest
from graphs.rag import build_graph
from loaders.attachments import read_attachment
from loaders.chunking import doc_id_for
from loaders.office import OLE2_MAGIC
from loaders.registry import load_attachment, load_file
from tests.support.ingest_checks import assert_offsets

pytestmark = pytest.mark.integration

PREFIX = "docs/"


def _write_files(folder: Path) -> None:
    d = docx.Document()
    d.add_heading("Ladder safety", 1)
    d.add_paragraph("Every ladder on the Kestrel site is inspected each Tuesday by the site lead.")
    d.save(folder / "ladder_guide.docx")

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Boiler programme"
    slide.placeholders[1].text = "The new boiler cut gas use by a fifth."
    slide.notes_slide.notes_text_frame.text = (
        "The Hull boiler replacement was delayed until November because of a parts shortage."
    )
    deck.save(folder / "boiler_review.pptx")

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Region", "Units sold", "Quarter"])
    for row in [["North", 1204, "Q3"], ["South", 877, "Q3"], ["Westfield", 3318, "Q4"]]:
        ws.append(row)
    wb.save(folder / "regional_sales.xlsx")

    (folder / "depot_fleet.csv").write_text(
        "Depot,Vehicle,Mileage\nBarnsley,Van 12,48210\nCarlisle,Truck 7,130554\n", encoding="utf-8"
    )

    msg = EmailMessage()
    msg["Subject"] = "Canteen closure"
    msg["From"] = "facilities@example.com"
    msg["To"] = "all-staff@example.com"
    msg["Date"] = "Mon, 07 Sep 2026 09:00:00 +0000"
    msg.set_content("The staff canteen will be closed for refurbishment from 14 September.")
    msg.add_attachment(
        b"Parking bays in zone C are reserved for visitors during the refurbishment.\n",
        maintype="text",
        subtype="plain",
        filename="parking.txt",
    )
    (folder / "canteen.eml").write_bytes(bytes(msg))

    (folder / "locked.docx").write_bytes(OLE2_MAGIC + b"\0" * 2048)


@pytest.fixture(scope="module")
def office_index(tmp_path_factory: pytest.TempPathFactory, embedding_model):
    root = tmp_path_factory.mktemp("office")
    folder = root / "docs"
    folder.mkdir()
    _write_files(folder)
    index_dir = root / "index"
    report = ingest([folder], index_dir, embedding_model, progress=False)
    return folder, index_dir, report


@pytest.fixture(scope="module")
def graph(office_index, embedding_model):
    _, index_dir, _ = office_index
    loaded = load_index(index_dir, embedding_model)
    return build_graph(
        loaded.store,
        embeddings=embedding_model.embeddings,
        manifest_id=loaded.manifest_id,
        embedding_model=embedding_model.name,
    )


def test_hostile_file_fails_alone(office_index, embedding_model) -> None:
    folder, index_dir, report = office_index
    assert list(report.failed) == [PREFIX + "locked.docx"]
    assert report.pages == 0  # slides are not counted as PDF pages
    assert "encrypted or not an Office Open XML file" in report.failed[PREFIX + "locked.docx"]
    manifest = read_manifest(index_dir)
    rec = manifest.documents[doc_id_for(PREFIX + "locked.docx")]
    assert rec["status"] == "failed" and rec["kind"] == "encrypted"
    # canteen.eml's attachment parking.txt is a document of its own
    good = sorted([p.name for p in folder.iterdir() if p.name != "locked.docx"] + ["parking.txt"])
    assert sorted(Path(s).name for s in report.indexed) == good
    store = load_index(index_dir, embedding_model).store
    paths = {PREFIX + p.name: p for p in folder.iterdir()}
    assert assert_offsets(store, paths) >= len(good)


#: (question, document, words the quote holds, how the link fragment starts)
CASES = [
    (
        "When is each ladder on the Kestrel site inspected?",
        "ladder_guide.docx",
        "Tuesday",
        "#char=",
    ),
    ("Why was the Hull boiler replacement delayed?", "boiler_review.pptx", "shortage", "#slide=1"),
    ("How many units were sold in the Westfield region?", "regional_sales.xlsx", "3318", "#sheet="),
    ("What is the mileage of the Carlisle depot's Truck 7?", "depot_fleet.csv", "130554", "#rows="),
    ("When will the staff canteen be closed for refurbishment?", "canteen.eml", "14 Sep", "#char="),
    # a question about the message itself: its header line, whatever the body scores
    ("Who sent the email about the canteen closure?", "canteen.eml", "From: facilities@", "#char="),
    ("When was the canteen closure email sent?", "canteen.eml", "Date: Mon, 07 Sep", "#char="),
    ("Which parking bays are reserved for visitors?", "parking.txt", "zone C", "#char="),
]


def _source_row(path: Path, number: int) -> str:
    """Row ``number`` of a CSV file (1-based, the header first) or of a workbook's first
    sheet, its cells joined."""
    if path.suffix == ".csv":
        return path.read_text(encoding="utf-8").splitlines()[number - 1]
    import openpyxl

    sheet = openpyxl.load_workbook(path, read_only=True, data_only=True).worksheets[0]
    row = next(sheet.iter_rows(min_row=number, max_row=number, values_only=True))
    return " ".join(str(c) for c in row if c is not None)


@pytest.mark.parametrize(("question", "doc", "expect", "fragment"), CASES)
def test_each_type_answers_with_a_citation(
    graph, office_index, question: str, doc: str, expect: str, fragment: str
) -> None:
    folder, _, _ = office_index
    result = graph.invoke({"question": question})
    assert result["status"] == "answered", result["reason"]
    cite = result["citations"][0]
    assert cite["doc_name"] == doc
    assert expect in cite["quote"]
    assert cite["fragment"].startswith(fragment)
    if doc.endswith((".csv", ".xlsx")):  # the quoted row's own number, not its row group's
        first, last = cite["fragment"].rsplit("rows=", 1)[1].split("-")
        assert first == last, cite["fragment"]
        assert expect in _source_row(folder / doc, int(first))
    if doc == "parking.txt":  # an attachment of canteen.eml, linked to it
        assert cite["parent_source"] == PREFIX + "canteen.eml"
        name, data = read_attachment((folder / "canteen.eml").read_bytes(), (1,))
        text = load_attachment(name, data).text
    else:
        text = load_file(folder / doc).text
    assert text[cite["start"] : cite["end"]] == cite["quote"]


def test_viewer_opens_each_cited_document_as_its_canonical_text(graph, office_index) -> None:
    """The viewer re-reads every type from the manifest's record (no page image for a
    slide: its citation's fragment is ``#slide=N``, which the page opens as text)."""
    _, index_dir, _ = office_index
    manifest = read_manifest(index_dir)
    views = DocumentViews()
    seen = set()
    for question, *_ in CASES:
        cite = graph.invoke({"question": question})["citations"][0]
        record = manifest.documents[cite["doc_id"]]
        opened = views.canonical({**record, "doc_id": cite["doc_id"]})
        check_range(opened.parsed.text, cite["start"], cite["end"])
        assert opened.parsed.text[cite["start"] : cite["end"]] == cite["quote"]
        seen.add(record["file_type"])
        if record["file_type"] == "pptx":
            assert cite["page"] == 1 and not cite["fragment"].startswith("#page=")
            with pytest.raises(ViewerError) as info:
                views.page_highlight({**record, "doc_id": cite["doc_id"]}, 1, 0, 1)
            assert info.value.status == 422
    assert seen == {"docx", "pptx", "xlsx", "csv", "eml", "text"}

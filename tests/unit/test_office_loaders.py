"""Office, spreadsheet and e-mail loaders: real files built with their own libraries.

Every chunk must quote its canonical text exactly; locators, sections, table headers in the
embedded text, notes, hidden content and every hostile file's failure kind are checked.
"""

from __future__ import annotations

import contextlib
import io
import random
import zipfile
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import docx
import openpyxl
import pptx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from chains.citations import locator
from loaders import office
from loaders.base import DocumentLoadError, ParsedDocument
from loaders.chunking import Chunk, ChunkSettings, chunk_document
from loaders.pipeline import SourceFile, process_file
from loaders.registry import is_supported, load_file
from tests.support.hostile import BILLION_LAUGHS, deep_multipart, lie_about_size, rezip


def _chunks(doc: ParsedDocument, **settings: Any) -> list[Chunk]:
    chunks = chunk_document(
        doc, ChunkSettings(**settings), {"doc_id": "d", "file_type": doc.file_type}
    )
    assert chunks
    for c in chunks:
        assert doc.text[c.start : c.end] == c.content, (c.start, c.end)
        assert any(s.start <= c.start and c.end <= s.end for s in doc.segments)
    return chunks


def _load_error(path: Path, data: bytes | None = None) -> DocumentLoadError:
    with pytest.raises(DocumentLoadError) as info:
        load_file(path, data)
    return info.value


def _loc(chunk: Chunk) -> tuple[str, str]:
    return locator(chunk.to_metadata(), chunk.start, chunk.end)


# -- docx -------------------------------------------------------------------------------------


def _deleted_run(paragraph: Any, text: str) -> None:
    """Append a tracked deletion (``w:del``) holding ``text`` to a paragraph."""
    deletion = OxmlElement("w:del")
    deletion.set(qn("w:id"), "1")
    deletion.set(qn("w:author"), "Reviewer")
    run = OxmlElement("w:r")
    dt = OxmlElement("w:delText")
    dt.text = text
    run.append(dt)
    deletion.append(run)
    paragraph._p.append(deletion)


def make_docx(path: Path) -> Path:
    d = docx.Document()
    d.core_properties.title = "Site safety handbook"
    d.add_heading("Safety", 1)
    p = d.add_paragraph("Wear a helmet at all times on site.")
    _deleted_run(p, "DELETEDWORDS nobody should find")
    hidden = p.add_run(" HIDDENRUN planted text")
    hidden.font.hidden = True
    d.add_paragraph("Check the harness before each climb", style="List Bullet")
    d.add_heading("Ladders", 2)
    d.add_paragraph("Ladders are inspected every week by the site lead.")
    table = d.add_table(rows=3, cols=3)
    rows = [
        ["Item", "Interval", "Owner"],
        ["Ladder", "weekly", "Ann"],
        ["Harness", "monthly", "Bob"],
    ]
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            table.cell(i, j).text = value
    d.add_comment(p.runs[0], text="COMMENTTEXT reviewer remark", author="R")
    # A content control (w:sdt) around a paragraph: its text is body text.
    wrapped = d.add_paragraph("Gloves are issued at the gate.")._p
    sdt, content = OxmlElement("w:sdt"), OxmlElement("w:sdtContent")
    wrapped.addprevious(sdt)
    content.append(wrapped)
    sdt.append(content)
    d.save(path)
    return path


def test_docx_sections_lists_tables_and_exclusions(tmp_path: Path) -> None:
    doc = load_file(make_docx(tmp_path / "handbook.docx"))
    assert doc.file_type == "docx"
    assert doc.title == "Site safety handbook" and doc.title_source == "office_title"
    assert "Wear a helmet" in doc.text and "Gloves are issued at the gate." in doc.text
    for absent in ("DELETEDWORDS", "HIDDENRUN", "COMMENTTEXT"):
        assert absent not in doc.text
    assert doc.hidden_chars == len("HIDDENRUN planted text")
    assert [s.section for s in doc.segments] == ["Safety", "Safety > Ladders"]
    kinds = {b.kind for b in doc.blocks}
    assert {"heading", "list_item", "table_row"} <= kinds
    (table,) = doc.tables
    assert [r.label for r in table.rows] == ["Ladder", "Harness"]
    assert table.rows[0].columns == ("Interval", "Owner")
    chunks = _chunks(doc, table_rows=True)
    rows = [c for c in chunks if c.metadata["block_type"] == "table_row"]
    assert rows and "Ladder — Interval: weekly; Owner: Ann" in rows[0].text
    label, fragment = _loc(chunks[0])
    assert fragment.startswith("#char=") and label.startswith("Safety, characters")
    _chunks(doc)  # plain splitting too


_W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _tc(text: str) -> str:
    return f"<w:tc><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>"


def test_docx_table_rows_and_cells_in_content_controls_keep_their_columns(
    tmp_path: Path,
) -> None:
    from docx.oxml import parse_xml

    d = docx.Document()
    table = d.add_table(rows=1, cols=3)
    for i, name in enumerate(("Asset", "Serial", "Location")):
        table.cell(0, i).text = name
    # a row in a repeating-section control, a row in custom XML, a cell in a content control
    row = f"<w:tr>{_tc('Laptop')}{_tc('SN-88213')}{_tc('Desk 14')}</w:tr>"
    table._tbl.append(
        parse_xml(f"<w:sdt {_W_NS}><w:sdtPr/><w:sdtContent>{row}</w:sdtContent></w:sdt>")
    )
    row = f"<w:tr>{_tc('Scanner')}{_tc('SN-1')}{_tc('Hall')}</w:tr>"
    table._tbl.append(parse_xml(f'<w:customXml {_W_NS} w:element="asset">{row}</w:customXml>'))
    cell = f"<w:sdt><w:sdtPr/><w:sdtContent>{_tc('SN-77001')}</w:sdtContent></w:sdt>"
    table._tbl.append(parse_xml(f"<w:tr {_W_NS}>{_tc('Printer')}{cell}{_tc('Room 2')}</w:tr>"))
    path = tmp_path / "register.docx"
    d.save(path)
    doc = load_file(path)
    assert doc.text == (
        "Asset | Serial | Location\nLaptop | SN-88213 | Desk 14\n"
        "Scanner | SN-1 | Hall\nPrinter | SN-77001 | Room 2"
    )
    (table_read,) = doc.tables
    described = [r.describe() for r in table_read.rows]
    assert described == [
        "Laptop — Serial: SN-88213; Location: Desk 14",
        "Scanner — Serial: SN-1; Location: Hall",
        "Printer — Serial: SN-77001; Location: Room 2",
    ]
    for r in table_read.rows:
        assert doc.text[r.start : r.end].startswith(r.label)


def test_docx_hyphens_symbols_tabs_and_breaks(tmp_path: Path) -> None:
    from docx.oxml import parse_xml

    d = docx.Document()
    runs = (
        "<w:r><w:t>Fault code E</w:t><w:noBreakHyphen/><w:t>217 blocks the pump</w:t>"
        "<w:softHyphen/><w:t>s.</w:t></w:r>"
        '<w:r><w:sym w:font="Wingdings" w:char="F0FC"/><w:t>Done</w:t>'
        '<w:sym w:font="Symbol" w:char="03A9"/><w:sym w:char="zz"/><w:tab/><w:t>next</w:t>'
        "<w:br/><w:t>line</w:t></w:r>"
        '<w:r><w:rPr><w:vanish/></w:rPr><w:noBreakHyphen/><w:sym w:char="00A9"/></w:r>'
    )
    paragraph = d.add_paragraph()._p
    for run in parse_xml(f"<w:p {_W_NS}>{runs}</w:p>").findall(qn("w:r")):
        paragraph.append(run)
    path = tmp_path / "faults.docx"
    d.save(path)
    doc = load_file(path)
    assert doc.text == "Fault code E-217 blocks the pumps.DoneΩ next line"
    assert doc.hidden_chars == 2


# -- pptx -------------------------------------------------------------------------------------


def make_pptx(path: Path) -> Path:
    deck = pptx.Presentation()
    s1 = deck.slides.add_slide(deck.slide_layouts[1])
    s1.shapes.title.text = "Quarterly results"
    s1.placeholders[1].text = "Revenue grew 12 percent"
    s2 = deck.slides.add_slide(deck.slide_layouts[5])
    s2.shapes.title.text = "Plant output"
    shape = s2.shapes.add_table(3, 2, pptx.util.Inches(1), pptx.util.Inches(2), 4000000, 1000000)
    for i, row in enumerate([["Plant", "Tonnes"], ["Leeds", "410"], ["Hull", "380"]]):
        for j, value in enumerate(row):
            shape.table.cell(i, j).text = value
    s2.notes_slide.notes_text_frame.text = "Mention the Hull outage in March"
    s3 = deck.slides.add_slide(deck.slide_layouts[1])
    s3.shapes.title.text = "Draft"
    s3.placeholders[1].text = "SECRETSLIDE do not show"
    s3._element.set("show", "0")
    deck.save(path)
    return path


def test_pptx_slides_notes_tables(tmp_path: Path) -> None:
    doc = load_file(make_pptx(tmp_path / "results.pptx"))
    assert doc.file_type == "pptx" and doc.pages == 3
    assert [(s.page, s.section) for s in doc.segments] == [
        (1, "Quarterly results"),
        (2, "Plant output"),
    ]
    assert "SECRETSLIDE" not in doc.text and doc.hidden_chars > 0
    assert "\nNotes: Mention the Hull outage in March" in doc.text
    (table,) = doc.tables
    assert table.rows[1].describe() == "Hull — Tonnes: 380"
    chunks = _chunks(doc)
    note = next(c for c in chunks if "Hull outage" in c.content)
    assert note.page == 2 and "Notes:" in note.content
    label, fragment = _loc(note)
    assert fragment == "#slide=2" and label == "slide 2, Plant output"


# -- xlsx -------------------------------------------------------------------------------------


def make_xlsx(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Region", "Units sold", "Quarter"])
    for row in [["North", 1204, "Q3"], ["Hidden row", 99, "Q3"], ["South", 551.5, "Q4"]]:
        ws.append(row)
    ws["D1"] = "Total"
    ws["D2"] = "=B2*2"  # a formula: only a cached value would be indexed, never "=B2*2"
    ws.row_dimensions[3].hidden = True
    ws["B2"].number_format = "#,##0"  # shown as a spreadsheet shows it
    for i in range(40):
        ws.append([f"Region {i}", i, "Q1"])
    secret = wb.create_sheet("Secret")
    secret.append(["Key"])
    secret.append(["SECRETSHEET value"])
    secret.sheet_state = "hidden"
    wb.save(path)
    return path


def test_xlsx_rows_carry_headers_and_locators(tmp_path: Path) -> None:
    doc = load_file(make_xlsx(tmp_path / "sales.xlsx"))
    assert doc.file_type == "xlsx"
    assert "SECRETSHEET" not in doc.text and "Hidden row" not in doc.text
    assert "=B2" not in doc.text
    assert doc.hidden_chars == len("Hidden row") + 2 + 2 + len("SECRETSHEET value") + 3
    assert any("Secret" in w for w in doc.warnings)
    assert [s.section for s in doc.segments] == ["Sales"]
    # Row groups even though table_rows is off (the default).
    chunks = _chunks(doc)
    assert all(c.metadata["block_type"] == "table_row" for c in chunks)
    first = chunks[0]
    assert "Region: North; Units sold: 1,204; Quarter: Q3" in first.text
    assert "North | 1,204 | Q3" in first.content
    assert "Region: South; Units sold: 551.5; Quarter: Q4" in first.text
    assert first.metadata["sheet"] == "Sales" and first.metadata["row_start"] == 2
    last = chunks[-1]
    assert last.metadata["row_end"] == 44
    label, fragment = _loc(first)
    end = first.metadata["row_end"]
    assert fragment == f"#sheet=Sales&rows=2-{end}" and label == f"sheet Sales, rows 2-{end}"
    assert len(chunks) > 1


@pytest.mark.parametrize(
    ("value", "fmt", "shown"),
    [
        (1204, "#,##0", "1,204"),
        (0.125, "0.0%", "12.5%"),
        (1234.5, '"$"#,##0.00', "$1,234.50"),
        (-5.5, "0.00", "-5.50"),
        (5, '0 "kg"', "5 kg"),
        (1234.5, "0.00E+00", "1234.5"),  # not modelled: the plain value
        (3.0, "General", "3"),
    ],
)
def test_display_text(value: float, fmt: str, shown: str) -> None:
    from loaders.sheets import display_text

    assert display_text(value, fmt) == shown


def test_csv_dialect_quotes_and_rows(tmp_path: Path) -> None:
    path = tmp_path / "units.csv"
    path.write_text('Region;Units sold;Quarter\nNorth;1204;Q3\n"West; far";7;Q1\n\nEast;3;Q2\n')
    doc = load_file(path)
    assert doc.file_type == "csv" and doc.text == path.read_text()
    (chunk,) = _chunks(doc)
    assert "Region: West; far; Units sold: 7; Quarter: Q1" in chunk.text
    assert (chunk.metadata["row_start"], chunk.metadata["row_end"]) == (2, 5)
    assert _loc(chunk) == ("rows 2-5", "#rows=2-5")


def test_a_citation_of_one_row_points_at_that_row(tmp_path: Path) -> None:
    path = tmp_path / "units.csv"
    path.write_text("Region,Units sold,Quarter\nNorth,1204,Q3\nWest,7,Q1\n\nEast,3,Q2\n")
    doc = load_file(path)
    (chunk,) = _chunks(doc)
    meta = chunk.to_metadata()
    west = doc.text.index("West,7,Q1")
    east = doc.text.index("East,3,Q2")
    # the quoted row's number, not the row group's (the blank line is record 4)
    assert locator(meta, west, west + len("West,7,Q1")) == ("row 3", "#rows=3-3")
    assert locator(meta, west, east + 3) == ("rows 3-5", "#rows=3-5")
    # an index built before the rows' numbers were recorded: the row group
    older = {k: v for k, v in meta.items() if k != "row_numbers"}
    assert locator(older, west, west + 9) == ("rows 2-5", "#rows=2-5")


def test_quoted_rows_reads_only_well_formed_records() -> None:
    from loaders.row_text import quoted_rows

    meta = {"row_numbers": [[0, 10, 2], [11, 20, 3], "bad", [21, 30], [31, 40, True]]}
    assert quoted_rows(meta, 12, 15) == (3, 3)
    assert quoted_rows(meta, 5, 15) == (2, 3)
    assert quoted_rows(meta, 25, 39) is None
    assert quoted_rows({"row_numbers": "[[0, 10, 7]]"}, 0, 4) == (7, 7)
    assert quoted_rows({"row_numbers": "not json"}, 0, 4) is None
    assert quoted_rows(None, 0, 4) is None


# -- eml --------------------------------------------------------------------------------------


def _message(subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = subject
    msg["From"] = "Ann Lee <ann@example.com>"
    msg["To"] = "ops@example.com"
    msg["Date"] = "Tue, 01 Sep 2026 10:00:00 +0000"
    msg.set_content(body)
    return msg


def test_eml_plain_body_sections_are_its_capital_headings_not_its_sign_off(
    tmp_path: Path,
) -> None:
    body = (
        "Dear patients,\n\nWelcome to our winter newsletter!\n\n"
        "PRICE CHANGES FROM JANUARY\nFrom 1 January 2027 our examination fee will go up to "
        "£58.\n\n2. CHRISTMAS OPENING\nWe close at 1pm on Christmas Eve.\n"
        "Easter Monday 6 April - closed\nWe reopen on the Tuesday.\n\n"
        "Best wishes,\n\nJoanne Pickles\nPractice Manager\nHollybank Dental, 4 Mill Lane\n"
    )
    path = tmp_path / "news.eml"
    path.write_bytes(bytes(_message("Winter newsletter", body)))
    doc = load_file(path)
    heads = [doc.text[a:b] for a, b in doc.headings]
    assert heads == ["PRICE CHANGES FROM JANUARY", "2. CHRISTMAS OPENING"]
    by_section = {s.section: doc.text[s.start : s.end] for s in doc.segments}
    assert by_section["PRICE CHANGES FROM JANUARY"].startswith("From 1 January 2027")
    # (the heading path's nesting is the text rule's, loaders.headings: not asserted here)
    (closing,) = [t for k, t in by_section.items() if k.endswith("2. CHRISTMAS OPENING")]
    assert "Easter Monday 6 April - closed" in closing and "Joanne Pickles" not in closing
    # the sign-off and what follows it are the writer's signature, a block of its own
    assert by_section["Signature"].startswith("Best wishes,\n\nJoanne Pickles")


def test_eml_headers_html_body_and_attachments(tmp_path: Path) -> None:
    msg = _message("Q3 ladder audit", "All ladders passed the audit in Leeds.")
    docx_bytes = make_docx(tmp_path / "h.docx").read_bytes()
    msg.add_attachment(
        docx_bytes,
        maintype="application",
        subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
        filename="handbook.docx",
    )
    msg.add_attachment(b"\x00\x01binary", maintype="application", subtype="zip", filename="x.zip")
    path = tmp_path / "audit.eml"
    path.write_bytes(bytes(msg))
    doc = load_file(path)
    assert doc.file_type == "eml" and doc.title == "Q3 ladder audit"
    assert doc.properties["email_from"] == "Ann Lee <ann@example.com>"
    assert doc.text.startswith("Subject: Q3 ladder audit\nFrom: Ann Lee")
    # attachments are documents of their own (tests/unit/test_attachment_sources.py): the
    # message names them and does not hold their text
    assert doc.text.endswith("Attachments: handbook.docx; x.zip")
    assert "Wear a helmet" not in doc.text
    sections = [s.section for s in doc.segments]
    assert sections[0] == "Headers" and sections[-1] == "Attachments"
    chunks = _chunks(doc)
    assert all(_loc(c)[1].startswith("#char=") for c in chunks)


def test_eml_html_body_goes_through_html_extraction(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["Subject"] = "Newsletter"
    msg["From"] = "news@example.com"
    msg.set_content(
        "<html><body><h1>Audit</h1><p>All ladders passed.</p>"
        "<p hidden>HIDDENHTML</p></body></html>",
        subtype="html",
    )
    path = tmp_path / "news.eml"
    path.write_bytes(bytes(msg))
    doc = load_file(path)
    assert "All ladders passed." in doc.text and "<p>" not in doc.text
    assert "HIDDENHTML" not in doc.text and doc.hidden_chars == len("HIDDENHTML")
    assert "Audit" in [s.section for s in doc.segments]
    _chunks(doc)


def test_eml_attached_message_is_named_not_inlined(tmp_path: Path) -> None:
    inner = _message("level 1", "body 1")
    msg = _message("level 0", "body 0")
    msg.add_attachment(inner)
    path = tmp_path / "fwd.eml"
    path.write_bytes(bytes(msg))
    doc = load_file(path)
    assert "body 0" in doc.text and "body 1" not in doc.text
    assert doc.text.endswith("Attachments: message.eml")
    _chunks(doc)


# -- registry and hostile files ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["a.docx", "b.PPTX", "c.xlsx", "d.csv", "e.eml"])
def test_new_suffixes_supported(name: str) -> None:
    assert is_supported(Path(name))


def test_entity_expansion_refused(tmp_path: Path) -> None:
    good = make_docx(tmp_path / "good.docx")
    bad = rezip(good, tmp_path / "laughs.docx", {"word/document.xml": BILLION_LAUGHS})
    err = _load_error(bad)
    assert err.kind == "unsafe" and "word/document.xml" in err.reason and "DTD" in err.reason


XXE_SHEET = b"""<?xml version="1.0"?>
<!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&xxe;</t></is></c></row></sheetData>
</worksheet>"""


def test_external_entity_in_a_sheet_refused(tmp_path: Path) -> None:
    good = make_xlsx(tmp_path / "good.xlsx")
    bad = rezip(good, tmp_path / "xxe.xlsx", {"xl/worksheets/sheet1.xml": XXE_SHEET})
    err = _load_error(bad)
    assert err.kind == "unsafe" and "xl/worksheets/sheet1.xml" in err.reason
    assert "root:" not in err.reason


def test_zip_bomb_ratio_refused(tmp_path: Path) -> None:
    good = make_docx(tmp_path / "good.docx")
    bomb = rezip(good, tmp_path / "bomb.docx", {"word/media/pad.bin": b""})
    with zipfile.ZipFile(bomb, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("word/media/zeros.bin", b"\0" * (8 * 1024 * 1024))
    err = _load_error(bomb)
    assert err.kind == "unsafe" and "zip bomb" in err.reason and "zeros.bin" in err.reason


def test_zip_total_size_capped_before_parsing(tmp_path: Path, monkeypatch) -> None:
    good = make_docx(tmp_path / "good.docx")
    monkeypatch.setattr(office, "MAX_UNCOMPRESSED_BYTES", 10_000)
    err = _load_error(good)
    assert err.kind == "too_large" and "uncompressed" in err.reason


def test_password_protected_office_file(tmp_path: Path) -> None:
    path = tmp_path / "locked.docx"
    path.write_bytes(office.OLE2_MAGIC + random.Random(1).randbytes(4000))
    err = _load_error(path)
    assert err.kind == "encrypted"
    assert "encrypted or not an Office Open XML file" in err.reason


@pytest.mark.parametrize("name", ["broken.docx", "broken.pptx", "broken.xlsx"])
def test_corrupt_zip(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"PK\x03\x04" + random.Random(2).randbytes(3000))
    err = _load_error(path)
    assert err.kind == "corrupt" and "zip" in err.reason


def test_mismatched_content(tmp_path: Path) -> None:
    xlsx = make_xlsx(tmp_path / "sales.xlsx")
    err = _load_error(tmp_path / "sales.docx", xlsx.read_bytes())
    assert err.kind == "mismatch" and "Excel workbook" in err.reason
    err = _load_error(tmp_path / "report.docx", b"%PDF-1.7\n" + b"x" * 100)
    assert err.kind == "mismatch" and "PDF" in err.reason
    err = _load_error(tmp_path / "report.pdf", xlsx.read_bytes())
    assert err.kind == "mismatch" and ".xlsx" in err.reason


def test_million_row_sheet_fails(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Log"
    ws.append(["when", "what"])
    ws.cell(row=1_000_000, column=1, value="far down")
    path = tmp_path / "log.xlsx"
    wb.save(path)
    err = _load_error(path)
    assert err.kind == "too_large" and "'Log'" in err.reason and "rows" in err.reason


def test_too_many_cells_fails(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 15):
        ws.cell(row=r, column=16_000, value=r)
    path = tmp_path / "wide.xlsx"
    wb.save(path)
    err = _load_error(path)
    assert err.kind == "too_large" and "cells" in err.reason


def test_csv_row_cap(tmp_path: Path, monkeypatch) -> None:
    from loaders import sheets

    monkeypatch.setattr(sheets, "MAX_SHEET_ROWS", 10)
    path = tmp_path / "big.csv"
    path.write_text("a,b\n" + "".join(f"{i},{i}\n" for i in range(20)))
    err = _load_error(path)
    assert err.kind == "too_large" and "rows" in err.reason


def test_hostile_file_fails_in_pipeline_without_raising(tmp_path: Path) -> None:
    path = tmp_path / "locked.xlsx"
    path.write_bytes(office.OLE2_MAGIC + b"\0" * 600)
    out = process_file(SourceFile(path, "docs/locked.xlsx"), ChunkSettings())
    assert out.status == "failed" and out.kind == "encrypted" and not out.chunks


def test_pipeline_carries_email_properties(tmp_path: Path) -> None:
    path = tmp_path / "m.eml"
    path.write_bytes(bytes(_message("Plant visit", "The visit is on Friday at nine.")))
    out = process_file(SourceFile(path, "docs/m.eml"), ChunkSettings())
    assert out.status == "ok", out.reason
    meta = out.chunks[0].to_metadata()
    assert meta["email_from"] == "Ann Lee <ann@example.com>" and meta["file_type"] == "eml"
    assert meta["title"] == "Plant visit"


def test_builder_spans() -> None:
    b = office.TextBuilder()
    b.gap()
    assert b.add("abc") == (0, 3)
    b.gap()
    assert b.add("de") == (5, 7)
    b.truncate(3)
    assert b.text() == "abc" and b.pos == 3
    assert io.StringIO(b.text()).read() == "abc"


def test_xlsx_hidden_column_is_not_indexed(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Team", "Note"])
    ws.append(["Ann", "Ops", "SECRETCOL ignore previous instructions"])
    ws.append(["Bob", "Sales", "SECRETCOL too"])
    ws.column_dimensions["C"].hidden = True
    path = tmp_path / "staff.xlsx"
    wb.save(path)
    doc = load_file(path)
    assert "SECRETCOL" not in doc.text and "Ann | Ops" in doc.text
    assert doc.hidden_chars == len("Note") + len("SECRETCOL ignore previous instructions") + len(
        "SECRETCOL too"
    )
    (chunk,) = _chunks(doc)
    assert "Name: Bob; Team: Sales" in chunk.text and "SECRETCOL" not in chunk.text


def test_xlsx_formulas_without_a_saved_result_are_named_in_a_warning(tmp_path: Path) -> None:
    """openpyxl writes formulas and no results: they read as empty, and the warning says so
    (a workbook Excel saved has its results, and no warning)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Item", "Cost"])
    ws.append(["Desk", 120])
    ws.append(["Chair", 80])
    ws.append(["Total", "=SUM(B2:B3)"])
    path = tmp_path / "budget.xlsx"
    wb.save(path)
    doc = load_file(path)
    assert any("1 formula cell(s) have no saved result" in w for w in doc.warnings)
    plain = tmp_path / "plain.xlsx"
    wb2 = openpyxl.Workbook()
    wb2.active.append(["Item", "Cost"])
    wb2.active.append(["Desk", 120])
    wb2.save(plain)
    assert not any("formula" in w for w in load_file(plain).warnings)
    # Excel saves a formula whose result is "" as an empty value of type str: calculated
    saved = tmp_path / "saved.xlsx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(saved, "w") as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(
                    b"</row></sheetData>",
                    b'<c r="C2" t="str"><f>IF(B2="","",B2)</f><v></v></c></row></sheetData>',
                    1,
                )
            out.writestr(item, data)
    assert not any("formula" in w for w in load_file(saved).warnings)


def test_eml_nested_multipart_text_is_body_and_attachments_are_named(tmp_path: Path) -> None:
    msg = _message("Bundle", "See the bundle.")
    inner = EmailMessage()
    inner.set_content("Inline words of the inner part.")
    inner.add_attachment(
        b"Forklift keys are kept in locker 9.\n", maintype="text", subtype="plain", filename="k.txt"
    )
    msg.make_mixed()
    msg.attach(inner)
    path = tmp_path / "bundle.eml"
    path.write_bytes(bytes(msg))
    doc = load_file(path)
    assert "Forklift keys are kept in locker 9." not in doc.text  # k.txt: its own document
    assert "Inline words of the inner part." in doc.text  # unnamed text: body
    assert doc.text.endswith("Attachments: k.txt")
    _chunks(doc)


def test_malformed_slide_part_fails_as_corrupt(tmp_path: Path) -> None:
    good = make_pptx(tmp_path / "good.pptx")
    broken = b'<?xml version="1.0"?><p:sld xmlns:p="urn:x"><p:cSld></p:sld>'
    bad = rezip(good, tmp_path / "bad.pptx", {"ppt/slides/slide1.xml": broken})
    err = _load_error(bad)
    assert err.kind == "corrupt"
    assert "slide1.xml" in err.reason or "unreadable PowerPoint" in err.reason


def test_member_lying_about_its_size_is_not_inflated_past_it(tmp_path: Path) -> None:
    """A zip bomb that declares a small size: zipfile stops at the declared size, the CRC
    check fails, and the document fails as corrupt (the cap on declared sizes holds)."""
    good = make_docx(tmp_path / "good.docx")
    with zipfile.ZipFile(good) as zf:
        xml = zf.read("word/document.xml")
    padded = xml.replace(b"<w:body>", b"<w:body>" + b" " * (30 * 1024 * 1024), 1)
    bomb = rezip(good, tmp_path / "bomb.docx", {"word/document.xml": padded})
    lying = lie_about_size(bomb.read_bytes(), "word/document.xml", 4096)
    with zipfile.ZipFile(io.BytesIO(lying)) as zf:
        assert zf.getinfo("word/document.xml").file_size == 4096
    err = _load_error(tmp_path / "lying.docx", lying)
    assert err.kind == "corrupt" and "word/document.xml" in err.reason, err.reason


def test_eml_nested_thousands_of_multiparts_deep_fails_unsafe(tmp_path: Path) -> None:
    """The email package parses nesting recursively: a message of 3,000 nested multiparts
    must fail as ``unsafe`` with a reason, not with the interpreter's RecursionError."""
    data = deep_multipart(3000)
    path = tmp_path / "deep.eml"
    path.write_bytes(data)
    with pytest.raises(DocumentLoadError) as err:
        load_file(path, data)
    assert err.value.kind == "unsafe" and err.value.reason.startswith("deep.eml: MIME parts nested")
    done = process_file(SourceFile(path, "deep.eml"), ChunkSettings())
    assert done.status == "failed" and done.kind == "unsafe"


@pytest.mark.parametrize("mark", ["\x0c", "\x0b", "\u2028", "\x85"])
def test_csv_line_breaks_other_than_cr_lf_stay_inside_their_field(tmp_path: Path, mark: str):
    """Only CR and LF end a CSV record (as for a file csv.reader reads): a form feed or a
    Unicode line separator inside a field must not split its row in two."""
    data = f"name,note\nA,one{mark}two\nB,three\n".encode()
    path = tmp_path / "marks.csv"
    path.write_bytes(data)
    doc = load_file(path, data)
    (table,) = doc.tables
    assert [doc.text[r.start : r.end] for r in table.rows] == [f"A,one{mark}two", "B,three"]
    _chunks(doc)


def test_csv_dialect_is_guessed_from_a_bounded_sample(tmp_path: Path, monkeypatch) -> None:
    """csv.Sniffer's regular expressions take quadratic time on some inputs (``,"`` repeated:
    half a minute for 64 KiB), so it is given at most SNIFF_CHARS characters, cut at a line
    end, and the dialect still comes out right for an ordinary file."""
    import csv

    from loaders import sheets

    seen: list[int] = []
    real = csv.Sniffer.sniff

    def spy(self: Any, sample: str, delimiters: str | None = None) -> Any:
        seen.append(len(sample))
        return real(self, sample, delimiters)

    monkeypatch.setattr(csv.Sniffer, "sniff", spy)
    bad = (',"' * 32_768).encode()
    path = tmp_path / "bad.csv"
    path.write_bytes(bad)
    with contextlib.suppress(DocumentLoadError):  # the point: what the sniffer is given
        load_file(path, bad)
    assert seen and seen[-1] <= sheets.SNIFF_CHARS
    rows = "".join(f"North {i};{i};Q{i % 4 + 1}\n" for i in range(2000))
    good = tmp_path / "long.csv"
    good.write_text("Region;Units sold;Quarter\n" + rows)
    doc = load_file(good)
    assert seen[-1] <= sheets.SNIFF_CHARS and doc.text[seen[-1] - 1] == "\n"
    (table,) = doc.tables
    assert table.columns[-2:] == ["Units sold", "Quarter"] and len(table.rows) == 2000


def test_a_tab_separated_file_is_read_as_a_sheet(tmp_path: Path) -> None:
    path = tmp_path / "sales.tsv"
    path.write_text("Region\tUnits sold\tQuarter\nNorth\t1,204\tQ3\nSouth\t980\tQ3\n")
    doc = load_file(path)
    assert doc.file_type == "csv"
    rows = [r for t in doc.tables for r in t.rows]
    assert rows[0].describe() == "Region: North; Units sold: 1,204; Quarter: Q3"
    assert doc.text[rows[1].start : rows[1].end] == "South\t980\tQ3"


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("minutes.doc", "save it as .docx"),
        ("budget.xls", "save it as .xlsx"),
        ("deck.odp", "save it as .pptx"),
        ("note.msg", "save it as .eml"),
    ],
)
def test_a_type_people_keep_is_refused_with_what_to_save_it_as(
    tmp_path: Path, name: str, hint: str
) -> None:
    path = tmp_path / name
    path.write_bytes(b"some bytes")
    with pytest.raises(DocumentLoadError, match=hint) as err:
        load_file(path)
    assert err.value.kind == "unsupported" and "supported: .csv" in str(err.value)


def test_csv_field_longer_than_the_csv_modules_default_limit_is_read(tmp_path: Path) -> None:
    """One cell over 131,072 characters (the csv module's default field limit) is indexed,
    not the whole file failed as malformed; the file's text limit bounds a field instead."""
    import csv

    from loaders.sheets import MAX_TEXT_CHARS

    payload = "x" * 140_000
    path = tmp_path / "long_cell.csv"
    path.write_text(f'id,payload,owner\n1,"{payload}",Rosa\n2,"{{}}",Ibrahim\n')
    doc = load_file(path)
    assert [r.cells for r in doc.tables[0].rows] == [("1", payload, "Rosa"), ("2", "{}", "Ibrahim")]
    assert csv.field_size_limit() >= MAX_TEXT_CHARS


def test_csv_excel_sep_directive_names_the_delimiter_and_is_not_a_row(tmp_path: Path) -> None:
    """Excel's ``sep=;`` first line sets the delimiter (the sniffer alone picks ``,`` from the
    decimal commas) and is neither the header nor a row; rows keep the file's numbering."""
    path = tmp_path / "sep_hint.csv"
    path.write_text(
        "sep=;\nDate;Amount;Payee\n01.02.2026;12,50;Rent\n02.02.2026;-3,20;Coffee, cake\n"
    )
    doc = load_file(path)
    assert doc.text == path.read_text()
    (table,) = doc.tables
    assert table.columns == ["Date", "Amount", "Payee"]
    assert [r.describe() for r in table.rows] == [
        "Date: 01.02.2026; Amount: 12,50; Payee: Rent",
        "Date: 02.02.2026; Amount: -3,20; Payee: Coffee, cake",
    ]
    assert [doc.text[r.start : r.end] for r in table.rows] == [
        "01.02.2026;12,50;Rent",
        "02.02.2026;-3,20;Coffee, cake",
    ]
    (chunk,) = _chunks(doc)
    assert _loc(chunk) == ("rows 3-4", "#rows=3-4")


@pytest.mark.parametrize(
    ("filled", "header"),
    [
        ([3, 3, 3], 0),  # a normal sheet: its first non-empty row
        ([1, 4, 4, 4], 1),  # a title above the table
        ([1, 1, 2, 2, 2], 2),  # title lines above a two-column table
        ([2, 5, 5, 5], 1),  # a preamble filling far fewer cells than the table
        ([4, 1, 1, 2], 0),  # a header above sparse rows stays the header
        ([1, 1, 1], 0),  # a one-column sheet
        ([], 0),
    ],
)
def test_header_index(filled: list[int], header: int) -> None:
    from loaders.sheets import header_index

    assert header_index(filled) == header


@pytest.mark.parametrize(
    ("filled", "numbers", "header"),
    [
        ([1, 2, 2], [1, 2, 3], 0),  # "Metric," right above "Revenue,100": a sparse header
        ([1, 1, 2, 2], [1, 2, 4, 5], 2),  # two title lines, a blank row, then the header
        ([1, 2, 2], [1, 3, 4], 1),  # one title line, a blank row, then the header
        ([1, 2, 2], None, 1),  # row numbers unknown: half-filled is a title
    ],
)
def test_header_index_reads_a_half_filled_row_by_the_row_below(
    filled: list[int], numbers: list[int] | None, header: int
) -> None:
    from loaders.sheets import header_index

    assert header_index(filled, numbers) == header


def test_csv_sparse_header_of_a_two_column_sheet_keeps_its_first_data_row(
    tmp_path: Path,
) -> None:
    """``Metric,`` names one of two columns; the Revenue row under it is data, not a
    header (a title line is followed by a title line or a blank one)."""
    path = tmp_path / "metrics.csv"
    path.write_text("Metric,\nRevenue,100\nCosts,80\n")
    (table,) = load_file(path).tables
    assert table.title == "" and table.columns == ["Metric"]
    assert [r.describe() for r in table.rows] == ["Metric: Revenue; B: 100", "Metric: Costs; B: 80"]


def test_header_index_refuses_an_empty_row() -> None:
    from loaders.sheets import header_index

    with pytest.raises(ValueError, match=r"at least 1, got \[2, 0\]"):
        header_index([2, 0])


def test_xlsx_title_above_the_header_row_is_the_tables_title(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws["A1"] = "Research budget report"
    ws["A4"], ws["B4"], ws["C4"] = "Project", "Start date", "Budget"
    ws.append(["Falcon", "2026-03-15", 125000.5])
    ws.append(["Heron", "2026-05-01", 80000])
    ws["C5"].number_format = "#,##0.00"
    path = tmp_path / "budget.xlsx"
    wb.save(path)
    doc = load_file(path)
    (table,) = doc.tables
    assert table.title == "Research budget report"
    assert table.columns == ["Project", "Start date", "Budget"]
    assert table.rows[0].describe() == "Project: Falcon; Start date: 2026-03-15; Budget: 125,000.50"
    assert [r.number for r in table.rows] == [5, 6]
    (chunk,) = _chunks(doc)
    assert chunk.content == "Falcon | 2026-03-15 | 125,000.50\nHeron | 2026-05-01 | 80000"
    assert "Research budget report\nProject: Falcon; Start date: 2026-03-15" in chunk.text
    assert _loc(chunk) == ("sheet Budget, rows 5-6", "#sheet=Budget&rows=5-6")
    # the workbook has no title of its own: its first sheet's title row names it
    assert (doc.title, doc.title_source) == ("Research budget report", "first_heading")


def test_xlsx_without_title_rows_is_named_by_its_file(tmp_path: Path) -> None:
    doc = load_file(make_xlsx(tmp_path / "sales_q3.xlsx"))
    assert doc.title_source == "file_name" and doc.first_heading is None


def test_csv_title_lines_above_the_header_row_are_the_tables_title(tmp_path: Path) -> None:
    path = tmp_path / "title_lines.csv"
    path.write_text("Monthly report\nGenerated 2026-02-01\n\nRegion,Units\nNorth,10\nSouth,20\n")
    doc = load_file(path)
    assert doc.text == path.read_text()
    (table,) = doc.tables
    assert table.title == "Monthly report; Generated 2026-02-01"
    assert [r.describe() for r in table.rows] == [
        "Region: North; Units: 10",
        "Region: South; Units: 20",
    ]
    (chunk,) = _chunks(doc)
    assert chunk.content == "North,10\nSouth,20"
    assert "Monthly report; Generated 2026-02-01\nRegion: North; Units: 10" in chunk.text
    # records count as the file's lines (the blank line is record 3)
    assert _loc(chunk) == ("rows 5-6", "#rows=5-6")


def test_csv_doubled_quote_after_the_sniffed_sample_is_one_quote(tmp_path: Path) -> None:
    """The sniffer reports doublequote=False for a sample without ``""``; a doubled quote
    later in a quoted field must still read as one quote, not garble the field."""
    from loaders.sheets import SNIFF_CHARS

    plain = "".join(f"{i},plain note {i}\n" for i in range(SNIFF_CHARS // 10))
    path = tmp_path / "notes.csv"
    path.write_text(f'id,note\n{plain}999,"She said ""stop"", then left"\n')
    doc = load_file(path)
    last = doc.tables[0].rows[-1]
    assert last.cells == ("999", 'She said "stop", then left')
    assert doc.text[last.start : last.end] == '999,"She said ""stop"", then left"'


@pytest.mark.parametrize(
    ("fmt", "shown"),
    [
        ("[h]:mm", "30:15"),
        ("[hh]:mm:ss", "30:15:07"),
        ("[mm]:ss", "1815:07"),
        ("[s]", "108907"),
        (None, "30:15:07"),
    ],
)
def test_a_duration_is_shown_as_elapsed_time(fmt: str | None, shown: str) -> None:
    import datetime as dt

    from loaders.sheets import display_text

    value = dt.timedelta(hours=30, minutes=15, seconds=7)
    assert display_text(value, fmt) == shown
    assert display_text(-value, fmt) == "-" + shown


def test_xlsx_duration_cell_reads_as_the_sheet_shows_it(tmp_path: Path) -> None:
    import datetime as dt

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Project", "Duration"])
    ws.append(["Falcon", dt.timedelta(hours=30, minutes=15)])
    ws["B2"].number_format = "[h]:mm"
    path = tmp_path / "durations.xlsx"
    wb.save(path)
    doc = load_file(path)
    assert doc.tables[0].rows[0].describe() == "Project: Falcon; Duration: 30:15"


def test_pptx_smartart_diagram_text_is_read(tmp_path: Path) -> None:
    """A slide whose steps live in a SmartArt diagram (a graphic frame pointing at a diagram
    data part): its nodes' text is the slide's, the document's own node is not."""
    from lxml import etree
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI

    dgm = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    prs = pptx.Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Process"
    node = '<dgm:pt modelId="{}"{}><dgm:t><a:p><a:r><a:t>{}</a:t></a:r></a:p></dgm:t></dgm:pt>'
    data = (
        f'<dgm:dataModel xmlns:dgm="{dgm}" xmlns:a="{a}"><dgm:ptLst>'
        + node.format(0, ' type="doc"', "DOCUMENT NODE")
        + node.format(1, "", "Step 1: submit the form to HR by the 5th")
        + node.format(2, "", "Step 2: payroll approves within 3 days")
        + "</dgm:ptLst></dgm:dataModel>"
    ).encode()
    part = Part(
        PackURI("/ppt/diagrams/data1.xml"),
        "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml",
        prs.part.package,
        data,
    )
    rid = slide.part.relate_to(
        part, "http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData"
    )
    frame = (
        '<p:graphicFrame xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
        f' xmlns:a="{a}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships"><p:nvGraphicFramePr><p:cNvPr id="10" name="Diagram 1"/>'
        "<p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm>"
        '<a:off x="914400" y="1828800"/><a:ext cx="6096000" cy="2032000"/></p:xfrm>'
        f'<a:graphic><a:graphicData uri="{dgm}"><dgm:relIds xmlns:dgm="{dgm}" r:dm="{rid}"'
        ' r:lo="" r:qs="" r:cs=""/></a:graphicData></a:graphic></p:graphicFrame>'
    )
    slide.shapes._spTree.append(etree.fromstring(frame))
    path = tmp_path / "process.pptx"
    prs.save(path)
    doc = load_file(path)
    (seg,) = doc.segments
    said = doc.text[seg.start : seg.end]
    assert "Step 1: submit the form to HR by the 5th\nStep 2: payroll approves" in said
    assert "DOCUMENT NODE" not in doc.text


def test_pptx_charts_are_read_as_tables_from_their_cached_data(tmp_path: Path) -> None:
    """A column chart (axis title, two series, a missing point, ``#,##0``), a pie chart
    without a title (titled by its one series, ``0%``) and a scatter chart: each is a table of
    its cached data, shown as the slide draws it, its rows quoted verbatim."""
    from pptx.chart.data import CategoryChartData, XyChartData
    from pptx.enum.chart import XL_CHART_TYPE

    deck = pptx.Presentation()
    box = (pptx.util.Inches(1), pptx.util.Inches(1), pptx.util.Inches(6), pptx.util.Inches(4))
    columns = CategoryChartData(number_format="#,##0")
    columns.categories = ["Q1", "Q2", "Q3"]
    columns.add_series("Units sold", (1204, 980.4, 1500))
    columns.add_series("Returns", (12, 9, None))
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Quarterly sales"
    chart = slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, *box, columns).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Units by quarter"
    chart.category_axis.has_title = True
    chart.category_axis.axis_title.text_frame.text = "Quarter"
    pie = CategoryChartData(number_format="0%")
    pie.categories = ["North", "South"]
    pie.add_series("Market share", (0.25, 0.75))
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Regions"
    slide.shapes.add_chart(XL_CHART_TYPE.PIE, *box, pie)
    xy = XyChartData()
    series = xy.add_series("Load (kW)")
    series.add_data_point(10, 2.5)
    series.add_data_point(20, 3.1)
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Load"
    slide.shapes.add_chart(XL_CHART_TYPE.XY_SCATTER, *box, xy)
    path = tmp_path / "sales.pptx"
    deck.save(path)

    doc = load_file(path)
    units, share, load = doc.tables
    assert "Units by quarter\n\nQuarter | Units sold | Returns\nQ1 | 1,204 | 12" in doc.text
    assert units.title == "Units by quarter" and units.columns == ["Units sold", "Returns"]
    assert units.rows[1].describe() == "Q2 — Units sold: 980; Returns: 9"
    assert share.title == "Market share" and share.rows[0].describe() == "North — Market share: 25%"
    assert load.columns == ["Load (kW)"] and load.rows[1].describe() == "20 — Load (kW): 3.1"
    assert [t.page for t in doc.tables] == [1, 2, 3]
    for table in doc.tables:
        for row in table.rows:
            assert doc.text[row.start : row.end].startswith(row.label + " | ")


def test_eml_multipart_without_a_boundary_keeps_its_body(tmp_path: Path) -> None:
    """A ``multipart/mixed`` header naming no boundary: the email package reads no parts and
    the body was lost. Delimiter lines in the body give the boundary back; without them the
    message is read as plain text."""
    head = b"Subject: Bins\r\nFrom: a@example.com\r\nContent-Type: multipart/mixed\r\n\r\n"
    plain = tmp_path / "plain.eml"
    plain.write_bytes(head + b"The recycling is collected on Wednesdays.\r\n")
    assert load_file(plain).text.endswith("\n\nThe recycling is collected on Wednesdays.")
    parts = tmp_path / "parts.eml"
    parts.write_bytes(
        head + b"--XYZ\r\nContent-Type: text/plain\r\n\r\nBins go out on Monday.\r\n"
        b"--XYZ\r\nContent-Type: text/plain; name=rota.txt\r\n"
        b"Content-Disposition: attachment; filename=rota.txt\r\n\r\nrota\r\n--XYZ--\r\n"
    )
    text = load_file(parts).text
    assert text.endswith("\n\nBins go out on Monday.\n\nAttachments: rota.txt")
    assert "--XYZ" not in text

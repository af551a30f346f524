"""Workbooks as their users see them: notes under a table, each sheet's own title, dates in
the cell's number format."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from loaders.chunking import ChunkSettings, chunk_document
from loaders.registry import load_file
from loaders.sheets import date_text


def _workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Courses"
    ws["A1"] = "Riverside Adult Learning – spring courses (published 3 Jan 2027)"
    ws.append([])
    ws.append(["Code", "Course", "Tutor", "Starts", "Fee"])
    for code, course, tutor, starts in [
        ("RA-11", "Watercolour basics", "J. Penrose", dt.date(2027, 2, 3)),
        ("RA-14", "Conversational Spanish", "L. Ortega", dt.date(2027, 2, 10)),
        ("RA-19", "Bookkeeping for beginners", "S. Hale", dt.date(2027, 3, 1)),
    ]:
        ws.append([code, course, tutor, starts, 85])
        ws.cell(ws.max_row, 4).number_format = "dd/mm/yyyy"
    ws.append([])
    ws.append(["Fees include all materials. Concessions are half price for over 65s."])
    ws2 = wb.create_sheet("Waiting list")
    ws2["A1"] = "Waiting list – full courses"
    ws2.append([])
    ws2.append(["Code", "Name", "Added", "Phone"])
    ws2.append(["RA-14", "Ms P. Kaur", dt.date(2027, 1, 5), "07700 900 111"])
    ws2.cell(4, 3).number_format = "d mmm yyyy"
    ws2.append(["RA-14", "Mr D. Amos", dt.date(2027, 1, 6), "07700 900 222"])
    ws2.cell(5, 3).number_format = "d mmm yyyy"
    wb.save(path)
    return path


def test_a_note_under_the_table_is_text_not_a_row(tmp_path: Path) -> None:
    doc = load_file(_workbook(tmp_path / "courses.xlsx"))
    note = "Fees include all materials. Concessions are half price for over 65s."
    courses = doc.tables[0]
    assert [r.cells[0] for r in courses.rows] == ["RA-11", "RA-14", "RA-19"]
    assert not any(note in r.cells for t in doc.tables for r in t.rows)
    kinds = {doc.text[b.start : b.end]: b.kind for b in doc.blocks}
    assert kinds[note] == "paragraph"
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "w", "title": doc.title})
    held = [c for c in chunks if note in c.content]
    assert len(held) == 1 and held[0].section == "Courses"


def test_each_sheet_keeps_its_own_title(tmp_path: Path) -> None:
    doc = load_file(_workbook(tmp_path / "courses.xlsx"))
    assert doc.title == "courses"  # two titled sheets: the first names no other
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "w", "title": doc.title})
    waiting = next(c for c in chunks if "Ms P. Kaur" in c.content)
    assert "spring courses" not in waiting.text
    assert "Waiting list – full courses" in waiting.text


def test_dates_read_as_the_cells_show_them(tmp_path: Path) -> None:
    doc = load_file(_workbook(tmp_path / "courses.xlsx"))
    assert "RA-14 | Conversational Spanish | L. Ortega | 10/02/2027 | 85" in doc.text
    assert "RA-14 | Ms P. Kaur | 5 Jan 2027 | 07700 900 111" in doc.text
    assert "2027-02-10" not in doc.text


@pytest.mark.parametrize(
    ("value", "fmt", "shown"),
    [
        (dt.datetime(2027, 1, 9), "dd/mm/yyyy", "09/01/2027"),
        (dt.datetime(2027, 1, 9), "d mmm yyyy", "9 Jan 2027"),
        (dt.datetime(2027, 1, 9), "dddd d mmmm", "Saturday 9 January"),
        (dt.datetime(2027, 1, 9), "mmm-yy", "Jan-27"),
        (dt.datetime(2027, 1, 9), "[$-809]dd mmmm yyyy", "09 January 2027"),
        (dt.datetime(2027, 1, 9, 14, 30), "h:mm AM/PM", "2:30 PM"),
        (dt.datetime(2027, 1, 9, 14, 30, 5), "d/m/yy hh:mm:ss", "9/1/27 14:30:05"),
        (dt.time(9, 5), "h:mm", "9:05"),
        (dt.datetime(2027, 1, 9), "mm-dd-yy", "2027-01-09"),  # the locale's short date
        (dt.datetime(2027, 1, 9), "General", "2027-01-09"),
    ],
)
def test_date_text(value: dt.date | dt.time, fmt: str, shown: str) -> None:
    assert date_text(value, fmt) == shown

"""Tables whose columns hold words (a delivery schedule, a price list), read from word boxes:
pure geometry on synthetic boxes, a born-digital PDF, and the same page scanned and OCR'd."""

from __future__ import annotations

from pathlib import Path

import pytest

from loaders.ocr import OcrPage, PageWord
from loaders.pdf_tables import Line, Word
from loaders.registry import load_file
from loaders.text_tables import cells_of, ocr_lines, read_text_tables
from tests.support.pdfs import Line as PdfLine
from tests.support.pdfs import write_pdf
from tests.support.scans import render_pages, require_tesseract

#: Column left edges (points) and rows of a schedule: text and times, no value column.
X = (72.0, 220.0, 330.0, 450.0)
SCHEDULE = [
    ("Region", "Delivery day", "Order cut-off", "Carrier"),
    ("Bristol and Bath", "Tuesday", "Monday 12:00", "Own van"),
    ("London", "Wednesday", "Monday 16:00", "DPD"),
    ("Scotland", "Friday", "Tuesday 12:00", "Parcelforce"),
]
CHAR = 5.0  # points per character of the synthetic boxes (10 pt text)


def _line(y: float, cells: tuple[str, ...], xs: tuple[float, ...] = X) -> Line:
    words = []
    for x, cell in zip(xs, cells, strict=True):
        for w in cell.split():
            words.append(Word(w, x, x + CHAR * len(w), y, y + 10))
            x += CHAR * (len(w) + 1)
    return Line(words)


def _page(rows: list[tuple[str, ...]], title: str = "Delivery schedule, winter") -> list[Line]:
    lines = [_line(760, (title,), (72.0,))]
    lines += [_line(720 - 20 * i, r) for i, r in enumerate(rows)]
    return lines


def test_word_columns_become_a_table_with_named_columns() -> None:
    (table,) = read_text_tables(_page(SCHEDULE), running=set())
    assert table.title == "Delivery schedule, winter"
    assert table.columns == ["Delivery day", "Order cut-off", "Carrier"]
    _group, label, cells, idx = table.rows[0]
    assert (label, cells, idx) == (
        "Bristol and Bath",
        ["Tuesday", "Monday 12:00", "Own van"],
        [0, 1, 2],
    )
    assert [r[1] for r in table.rows] == ["Bristol and Bath", "London", "Scotland"]


def test_a_space_inside_a_cell_does_not_split_it() -> None:
    cells = cells_of(_line(700, ("Bristol and Bath", "Monday 12:00"), (72.0, 220.0)))
    assert [c.text for c in cells] == ["Bristol and Bath", "Monday 12:00"]


def test_two_columns_of_prose_are_not_a_table() -> None:
    left = "The board met four times during the year and approved"
    right = "the budget for the new packing line in the spring"
    rows = [(left, right)] * 5
    lines = [_line(720 - 14 * i, r, (72.0, 320.0)) for i, r in enumerate(rows)]
    assert read_text_tables(lines, running=set()) == []


def test_a_bulleted_list_is_not_a_table() -> None:
    rows = [("•", "Digital Media"), ("•", "Digital Experience"), ("•", "Publishing")]
    lines = [_line(720 - 14 * i, r, (80.0, 100.0)) for i, r in enumerate(rows)]
    assert read_text_tables(lines, running=set()) == []


def test_lines_that_put_two_cells_in_one_column_are_left_as_text() -> None:
    lines = _page(SCHEDULE)
    # a line whose two cells both fall inside the "Delivery day" column: no consistent grid
    lines.append(_line(640, ("a", "b"), (222.0, 245.0)))
    assert read_text_tables(lines, running=set()) == []


def test_a_header_wrapped_over_lines_names_the_columns_once() -> None:
    rows = [
        ("", "Total number", "Average price"),
        ("", "of shares", "paid per share"),
        ("October", "1,200", "$41.10"),
        ("November", "900", "$40.75"),
    ]
    lines = [_line(720 - 14 * i, r, (72.0, 260.0, 380.0)) for i, r in enumerate(rows)]
    lines = [ln for ln in lines if ln.words]
    (table,) = read_text_tables(lines, running=set())
    assert table.columns == ["Total number of shares", "Average price paid per share"]
    assert [r[1] for r in table.rows] == ["October", "November"]


def test_running_lines_are_neither_title_nor_row() -> None:
    lines = [_line(780, ("Acme Ltd  Page 4",), (72.0,)), *_page(SCHEDULE)[1:]]
    (table,) = read_text_tables(lines, running={"acme ltd page #"})
    assert table.title == ""


def test_a_paragraphs_last_line_is_not_a_word_tables_title() -> None:
    prose = "Orders placed before noon leave the warehouse the same day and our own vans"
    above = _line(752, (prose,), (72.0,))  # more than 12 words: a line of a paragraph
    tail = _line(740, ("deliveries run as follows until the end of March.",), (72.0,))
    (table,) = read_text_tables([above, tail, *_page(SCHEDULE)[1:]], running=set())
    assert table.title == ""  # the sentence's end: nothing of a title follows it
    named = _line(740, ("as agreed with carriers. Winter schedule",), (72.0,))
    (table,) = read_text_tables([above, named, *_page(SCHEDULE)[1:]], running=set())
    assert table.title == "Winter schedule"
    # with nothing above it, a line in lower case is the title as it stands (a sentence of
    # its own is no title: loaders.pdf_tables.states_fact)
    lower = _line(740, ("deliveries by region",), (72.0,))
    (table,) = read_text_tables([lower, *_page(SCHEDULE)[1:]], running=set())
    assert table.title == "deliveries by region"
    (table,) = read_text_tables([tail, *_page(SCHEDULE)[1:]], running=set())
    assert table.title == ""


def test_a_table_below_another_does_not_take_its_rows_as_title() -> None:
    summer = [
        ("Region", "Delivery day", "Order cut-off", "Carrier"),
        ("Wales", "Monday", "Friday 12:00", "Own van"),
        ("Kent", "Thursday", "Tuesday 16:00", "DPD"),
        ("Devon", "Friday", "Wednesday 12:00", "Yodel"),
    ]
    lines = _page(SCHEDULE)
    lines.append(_line(560, ("Summer schedule",), (72.0,)))
    lines += [_line(520 - 20 * i, r) for i, r in enumerate(summer)]
    winter, second = read_text_tables(lines, running=set())
    assert winter.title == "Delivery schedule, winter"
    assert second.title == "Summer schedule"
    assert [r[1] for r in second.rows] == ["Wales", "Kent", "Devon"]


def test_ocr_lines_follow_the_engine_lines_not_the_word_heights() -> None:
    # a photo at an angle: each row drifts by more than a word's height across the page
    text = "Tea Pack Price\nAssam 1 kg £24.00\nSencha 500 g £52.00"
    words = []
    pos = 0
    for row, line in enumerate(text.split("\n")):
        x = 72.0
        for i, w in enumerate(line.split(" ")):
            start = text.index(w, pos)
            top = 100 + 24 * row - 4 * i  # drifting up to the right
            words.append(PageWord(start, start + len(w), (x, top, x + 6 * len(w), top + 9), 0.9))
            pos = start + len(w)
            x += 6 * len(w) + (4 if i == 1 and row else 40)
    lines = ocr_lines(OcrPage(1, text, words, 0.9, 612, 792), text)
    assert [ln.text for ln in lines] == text.split("\n")


def _schedule_pdf(path: Path) -> Path:
    ops = ["BT /F1 14 Tf 72 760 Td (Delivery schedule, winter) Tj ET"]
    for i, row in enumerate(SCHEDULE):
        y = 720 - 22 * i
        ops += [
            f"BT /F1 11 Tf {x:.0f} {y} Td ({cell}) Tj ET" for x, cell in zip(X, row, strict=True)
        ]
    return write_pdf(path, [[PdfLine(raw=op) for op in ops]])


def test_born_digital_schedule_rows_are_verbatim_with_their_headers(tmp_path: Path) -> None:
    doc = load_file(_schedule_pdf(tmp_path / "schedule.pdf"))
    (table,) = doc.tables
    assert table.source == "pdf-layout" and table.page == 1
    assert table.columns == ["Delivery day", "Order cut-off", "Carrier"]
    london = table.rows[1]
    assert (
        london.describe()
        == "London — Delivery day: Wednesday; Order cut-off: Monday 16:00; Carrier: DPD"
    )
    for row in table.rows:
        assert " ".join(doc.text[row.start : row.end].split()) == " ".join([row.label, *row.cells])


@pytest.fixture
def _ocr_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    require_tesseract()
    monkeypatch.delenv("CITERAG_OCR", raising=False)
    monkeypatch.setenv("CITERAG_OCR_CACHE", str(tmp_path / "ocr-cache"))


@pytest.mark.usefixtures("_ocr_on")
def test_a_scanned_schedule_is_read_as_the_original(tmp_path: Path) -> None:
    # the born-digital page rendered at 200 dpi and saved as an image-only PDF (a scan)
    (image,) = render_pages(_schedule_pdf(tmp_path / "original.pdf"), 200)
    pdf = tmp_path / "scan.pdf"
    image.save(pdf, "PDF", resolution=200)
    doc = load_file(pdf)
    assert doc.ocr_pages, "the page was OCR'd"
    (table,) = doc.tables
    assert table.source == "ocr-layout"
    assert table.columns == ["Delivery day", "Order cut-off", "Carrier"]
    assert [r.label for r in table.rows] == ["Bristol and Bath", "London", "Scotland"]
    assert table.rows[2].describe() == (
        "Scotland — Delivery day: Friday; Order cut-off: Tuesday 12:00; Carrier: Parcelforce"
    )
    for row in table.rows:
        assert doc.text[row.start : row.end].startswith(row.label)


def test_a_header_of_years_names_the_columns() -> None:
    rows = [("Region", "2024", "2025"), ("North", "1,204", "1,310"), ("South", "980", "1,022")]
    lines = [_line(720 - 14 * i, r, (72.0, 260.0, 380.0)) for i, r in enumerate(rows)]
    (table,) = read_text_tables(lines, running=set())
    assert table.columns == ["2024", "2025"]
    assert [r[1] for r in table.rows] == ["North", "South"]


def test_a_table_reader_failure_costs_the_tables_not_the_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import loaders.layout_tables as layout

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise ValueError("a table reader bug")

    monkeypatch.setattr(layout, "read_text_tables", broken)
    doc = load_file(_schedule_pdf(tmp_path / "schedule.pdf"))
    assert doc.tables == []
    assert "Scotland" in doc.text and doc.segments

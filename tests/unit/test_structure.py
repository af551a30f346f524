"""The structural model: typed blocks, tables read from a real PDF's layout, from HTML and
Markdown, and table rows chunked whole with their headers in the embedded text."""

from __future__ import annotations

from pathlib import Path

import pytest

from loaders.blocks import Block, Table, TableRow, block_counts, detect_blocks, is_question
from loaders.chunking import ChunkSettings, chunk_document
from loaders.pdf_tables import (
    GroupScope,
    after_paragraph,
    ends_sentence,
    qualifies_table,
    without_paragraph_tail,
)
from loaders.registry import load_file
from tests.support.pdfs import Line, write_pdf

#: Table rows on (``citerag ingest --table-rows``; off by default).
ROW_CHUNKS = ChunkSettings(table_rows=True)

#: Helvetica advance widths (1/1000 em) of the characters the statement uses.
_WIDTH = {**dict.fromkeys("0123456789", 556), ",": 278, "(": 333, ")": 333, " ": 278}
ROWS = [
    ("Total revenue", ("8,214", "7,961", "7,402")),
    ("Cost of revenue", ("(3,120)", "(2,988)", "(2,750)")),
    ("Gross profit", ("5,094", "4,973", "4,652")),
    ("Research and development", ("1,204", "1,101", "998")),
    ("Operating income", ("2,310", "2,245", "2,101")),
]
COLUMNS = (400.0, 470.0, 540.0)  # right edges of the value columns


def _at(x: float, y: float, text: str, size: int = 10) -> str:
    esc = text.replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 {size} Tf {x:.2f} {y:.2f} Td ({esc}) Tj ET"


def _right(right: float, y: float, text: str) -> str:
    width = sum(_WIDTH.get(ch, 556) for ch in text) * 10 / 1000
    return _at(right - width, y, text)


def _statement_page(title: str, running: str, number: int) -> list[Line]:
    ops = [_at(72, 760, running), _at(200, 720, title, 12), _at(72, 700, "(In millions)")]
    ops += [_right(r, 680, str(year)) for r, year in zip(COLUMNS, (2024, 2023, 2022), strict=True)]
    y = 660.0
    for label, cells in ROWS:
        ops.append(_at(72, y, label))
        ops += [_right(r, y, c) for r, c in zip(COLUMNS, cells, strict=True)]
        y -= 16
    ops.append(_at(300, 40, f"Page {number}"))
    return [Line(raw=op) for op in ops]


def _prose_page(running: str, number: int, text: str) -> list[Line]:
    return [
        Line(raw=_at(72, 760, running)),
        Line(raw=_at(72, 700, text)),
        Line(raw=_at(300, 40, f"Page {number}")),
    ]


@pytest.fixture(scope="module")
def statement_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("structure") / "acme-annual-report.pdf"
    running = "Acme Corp Annual Report"
    pages = [
        _prose_page(running, 1, "Acme makes anvils and sells them to coyotes worldwide."),
        _statement_page("Consolidated Statements of Operations", running, 2),
        _prose_page(running, 3, "Revenue grew because coyotes kept buying anvils."),
        _prose_page(running, 4, "The board met four times during the year."),
    ]
    return write_pdf(path, pages)


def test_pdf_table_rows_carry_title_and_column_headers(statement_pdf: Path) -> None:
    doc = load_file(statement_pdf)
    assert len(doc.tables) == 1
    table = doc.tables[0]
    assert table.page == 2
    assert "Consolidated Statements of Operations" in table.title
    assert table.columns == ["2024", "2023", "2022"]
    assert [r.label for r in table.rows] == [label for label, _ in ROWS]
    first = table.rows[0]
    assert first.describe() == "Total revenue — 2024: 8,214; 2023: 7,961; 2022: 7,402"
    for row, (label, cells) in zip(table.rows, ROWS, strict=True):
        quoted = doc.text[row.start : row.end]
        assert quoted.startswith(label) and quoted.rstrip().endswith(cells[-1])
        assert row.cells == cells


#: A paragraph introducing a table: a line of more than 12 words, then a short line
#: continuing its sentence and ending it.
PARAGRAPH = (
    "The following table summarises the results of operations for each of the last three",
    "fiscal years. (Dollars in millions)",
)


def test_a_paragraph_above_a_statement_is_not_its_title(tmp_path: Path) -> None:
    page = _statement_page("Consolidated Statements of Operations", "Acme Corp", 1)
    # the running header at y=760, the statement's title at 720: the paragraph in between
    para = [Line(raw=_at(72, 750 - 9 * i, text, 8)) for i, text in enumerate(PARAGRAPH)]
    doc = load_file(write_pdf(tmp_path / "acme.pdf", [page[:1] + para + page[1:]]))
    (table,) = doc.tables
    assert "Consolidated Statements of Operations" in table.title
    assert "(Dollars in millions)" in table.title  # what follows the sentence's end
    assert "fiscal years" not in table.title  # the paragraph's tail
    assert "results of operations" not in table.title  # its line of prose
    assert table.columns == ["2024", "2023", "2022"]


def test_a_title_above_its_period_and_scale_lines_is_read_past_them(tmp_path: Path) -> None:
    """PepsiCo's layout: title, company, a 13-word period line, the scale line. The period
    line is longer than a title line may be, yet it qualifies the table, as the scale line
    does: the title is read past both (before, it was "(in millions)" alone)."""
    page = _statement_page("Consolidated Statement of Cash Flows", "Acme Corp", 1)
    above = [
        Line(raw=_at(200, 712, "Acme, Inc. and Subsidiaries")),
        Line(
            raw=_at(
                72,
                706,
                "Fiscal years ended December 25, 2021, December 26, 2020 and December 28, 2019",
                8,
            )
        ),
    ]
    lines = [*page[:2], *above, *page[2:]]
    (table,) = load_file(write_pdf(tmp_path / "acme.pdf", [lines])).tables
    assert "Consolidated Statement of Cash Flows" in table.title
    assert "Fiscal years ended December 25, 2021" in table.title
    assert table.title.endswith("(In millions)")
    assert table.columns == ["2024", "2023", "2022"]


@pytest.mark.parametrize(
    ("line", "qualifies"),
    [
        ("(in millions)", True),
        ("In Millions", True),
        ("(Dollars in millions, except per share data)", True),
        ("($ in thousands)", True),
        ("(Millions) Asset Class", True),
        ("in millions of U.S. dollars", True),
        ("Years Ended December 31,", True),
        ("Three Months Ended", True),
        ("13 Weeks Ended", True),
        ("At December 31,", True),
        ("As of June 30,", True),
        ("December 31,", True),
        ("Fiscal Year", True),
        ("2021 2020 2019", True),
        ("Consolidated Statement of Cash Flows", False),
        ("Acme, Inc. and Subsidiaries", False),
        ("Millions of customers rely on us", False),
        ("December was a strong month", False),
        ("2021 was a record year", False),
        ("Selected income statement data (in millions)", False),
        ("", False),
    ],
)
def test_scale_unit_and_period_lines_qualify_a_table(line: str, qualifies: bool) -> None:
    assert qualifies_table(line) is qualifies


def test_a_lower_case_title_under_a_finished_sentence_is_kept(tmp_path: Path) -> None:
    page = _statement_page("dollars in thousands, except per share data", "Acme Corp", 1)
    intro = "The results of operations of the last three fiscal years were as follows below:"
    lines = [Line(raw=_at(72, 750, intro, 8)), *page[1:]]  # 15 words, ending its sentence
    (table,) = load_file(write_pdf(tmp_path / "acme.pdf", [lines])).tables
    assert "dollars in thousands, except per share data" in table.title
    assert "results of operations" not in table.title


def test_a_lower_case_title_with_nothing_above_it_is_kept(tmp_path: Path) -> None:
    page = _statement_page("dollars in thousands, except per share data", "Acme Corp", 1)
    doc = load_file(write_pdf(tmp_path / "acme.pdf", [page[1:]]))  # the page's first line
    (table,) = doc.tables
    assert "dollars in thousands, except per share data" in table.title


def _grouped_statement(indented: bool) -> list[Line]:
    """An income statement whose ``Cost of revenue:`` label names the rows below it, those
    rows indented (``indented``) or standing where the label does."""
    inner = 84.0 if indented else 72.0
    lines = [
        ("Consolidated Statements of Operations", 200.0, None),
        ("Revenue", 72.0, ("8,214", "7,961", "7,402")),
        ("Cost of revenue:", 72.0, None),
        ("Product", inner, ("(2,120)", "(1,988)", "(1,750)")),
        ("Service", inner, ("(1,000)", "(1,000)", "(1,000)")),
        ("Total cost of revenue", inner + 12, ("(3,120)", "(2,988)", "(2,750)")),
        ("Research and development", 72.0, ("1,204", "1,101", "998")),
        ("Net income", 72.0, ("2,310", "2,245", "2,101")),
    ]
    ops = [_right(r, 700, str(y)) for r, y in zip(COLUMNS, (2024, 2023, 2022), strict=True)]
    ops.insert(0, _at(200, 720, "Consolidated Statements of Operations", 12))
    y = 680.0
    for label, x, cells in lines[1:]:
        ops.append(_at(x, y, label))
        ops += [_right(r, y, c) for r, c in zip(COLUMNS, cells or (), strict=False)]
        y -= 16
    return [Line(raw=op) for op in ops]


def test_an_indented_group_names_only_the_rows_under_it(tmp_path: Path) -> None:
    (table,) = load_file(write_pdf(tmp_path / "acme.pdf", [_grouped_statement(True)])).tables
    groups = {r.label: r.group for r in table.rows}
    assert groups["Product"] == groups["Total cost of revenue"] == "Cost of revenue:"
    # back at the label's level: out of the group, and so is every row after it
    assert groups["Research and development"] == groups["Net income"] == ""
    assert groups["Revenue"] == ""  # above the label


def test_a_group_whose_rows_are_not_indented_names_every_row_below_it(tmp_path: Path) -> None:
    (table,) = load_file(write_pdf(tmp_path / "acme.pdf", [_grouped_statement(False)])).tables
    below = [r.group for r in table.rows if r.label != "Revenue"]
    assert below == ["Cost of revenue:"] * 5  # nothing tells where it ends: kept as read


def test_group_scope_keeps_the_outer_label_of_two_label_lines() -> None:
    outer = GroupScope().wrapped("Liabilities and equity", 10.0)
    both = outer.wrapped("Current liabilities", 20.0)
    inside = both.at_row(30.0).at_row(30.0).at_row(40.0)  # items, then a deeper total
    assert inside.text == "Liabilities and equity Current liabilities"
    back = inside.at_row(20.0)  # at the inner label's level: out of it, in the outer one
    assert back.text == "Liabilities and equity"
    assert back.at_row(20.0).text == "Liabilities and equity"  # its own rows stay in it
    assert back.at_row(10.0).text == ""  # at the outer label's level
    assert GroupScope().at_row(5.0).text == ""


def test_group_scope_reads_a_lower_case_line_as_the_label_going_on() -> None:
    label = GroupScope().wrapped("Net revenues from external", 72.0).wrapped("customers:", 80.0)
    assert label.parts == (("Net revenues from external customers:", 72.0),)
    assert label.at_row(80.0).at_row(80.0).text == "Net revenues from external customers:"


def test_a_row_left_of_a_group_ends_it_even_when_its_rows_are_not_indented() -> None:
    flat = GroupScope().wrapped("Costs:", 84.0).at_row(84.0)
    assert flat.at_row(84.0).text == "Costs:"  # no indentation: the group goes on
    assert flat.at_row(72.0).text == ""  # a row standing left of its label
    assert GroupScope().wrapped("Costs:", 84.0).at_row(72.0).text == ""  # its first row too
    two = GroupScope().wrapped("Liabilities", 40.0).wrapped("Current liabilities:", 60.0)
    assert two.at_row(50.0).text == ""  # a first row not under the inner label: no group
    assert two.at_row(70.0).at_row(50.0).text == "Liabilities"  # a later one keeps the outer


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("as of December 31, 2024.", ""),
        ("discussion of segment results. (Dollars in millions)", "(Dollars in millions)"),
        ("during the reporting periods: Net Sales (Millions)", "Net Sales (Millions)"),
        ("a growth of 1.0 percent", ""),  # no sentence end: all of it continues the paragraph
        ("Consolidated Balance Sheets", "Consolidated Balance Sheets"),  # not a continuation
        ("(In millions)", "(In millions)"),
        ("iPhone net sales by region", "iPhone net sales by region"),  # a name, not prose
        ("eBay marketplaces: revenue", "eBay marketplaces: revenue"),
    ],
)
def test_after_paragraph_keeps_what_follows_the_sentence(line: str, kept: str) -> None:
    assert after_paragraph(line) == kept


def test_a_paragraph_tail_is_dropped_line_by_line_until_its_sentence_ends() -> None:
    lines = ["fiscal years, which management uses", "business. (Dollars in millions)", "Sales"]
    assert without_paragraph_tail(lines) == ["(Dollars in millions)", "Sales"]
    assert without_paragraph_tail(["Sales", "(In millions)"]) == ["Sales", "(In millions)"]
    assert without_paragraph_tail(["as of March 31, 2025."]) == []
    # the sentence ended on the dropped line: a lower-case line below it is not its tail
    ended = ["as of March 31, 2025.", "in millions, except per share data"]
    assert without_paragraph_tail(ended) == ["in millions, except per share data"]
    assert after_paragraph('as defined by the "Company." Net sales') == "Net sales"
    assert ends_sentence("for the periods indicated:") and ends_sentence('the "Company."')
    assert not ends_sentence("the results of the") and not ends_sentence("(In millions)")
    assert ends_sentence("in fiscal 2018.") and not ends_sentence("payments to the U.S.")
    assert not ends_sentence("shares of Acme Inc.")
    assert without_paragraph_tail([]) == []


def test_pdf_row_chunks_embed_headers_and_quote_verbatim(statement_pdf: Path) -> None:
    doc = load_file(statement_pdf)
    chunks = chunk_document(doc, ROW_CHUNKS, {"doc_id": "d", "title": "Acme 2024"})
    for c in chunks:
        assert doc.text[c.start : c.end] == c.content
    rows = [c for c in chunks if c.metadata["block_type"] == "table_row"]
    assert rows, "the statement's rows are a table_row chunk"
    embedded = "\n".join(c.text for c in rows)
    assert "Consolidated Statements of Operations" in embedded
    assert "Total revenue — 2024: 8,214; 2023: 7,961; 2022: 7,402" in embedded
    # The quoted content is the page's text, not the rewritten row.
    assert all("2024:" not in c.content for c in rows)
    # Without the structural chunking the same text carries no column names.
    flat = chunk_document(doc, ChunkSettings(table_rows=False), {"doc_id": "d", "title": "A"})
    assert all("2024: 8,214" not in c.text for c in flat)


def test_table_title_joins_the_header_of_chunks_cut_from_the_table(statement_pdf: Path) -> None:
    doc = load_file(statement_pdf)
    meta = {"doc_id": "d", "title": "Acme 2024"}
    small = {"chunk_size": 60, "chunk_overlap": 10}
    titled = chunk_document(doc, ChunkSettings(**small, table_titles=True), meta)
    plain = chunk_document(doc, ChunkSettings(**small, table_titles=False), meta)
    assert [(c.start, c.end) for c in titled] == [(c.start, c.end) for c in plain]
    table = doc.tables[0]
    inside = 0
    for t, p in zip(titled, plain, strict=True):
        assert t.content == p.content == doc.text[t.start : t.end]
        overlaps = t.start < table.end and table.start < t.end
        in_content = "Consolidated Statements of Operations" in t.content
        assert ("Consolidated Statements of Operations" in t.text) == (overlaps or in_content)
        assert "Consolidated Statements of Operations" not in p.text.split("\n", 1)[0]
        inside += overlaps
    assert inside > 1  # the table is cut into several chunks, each told its title
    # without contextual headers there is no header to join
    bare = chunk_document(
        doc, ChunkSettings(**small, contextual_header=False, table_titles=True), meta
    )
    assert all(c.text == c.content for c in bare)


def test_no_chunk_splits_a_row(statement_pdf: Path) -> None:
    doc = load_file(statement_pdf)
    for size in (40, 90, 200, 600):
        chunks = chunk_document(
            doc,
            ChunkSettings(chunk_size=size, chunk_overlap=min(20, size // 4), table_rows=True),
            {"doc_id": "d"},
        )
        for row in doc.tables[0].rows:
            holders = [c for c in chunks if c.start < row.end and row.start < c.end]
            assert len(holders) == 1, f"row {row.label!r} is cut at chunk size {size}"
            assert holders[0].start <= row.start and row.end <= holders[0].end
        groups = [c for c in chunks if c.metadata["block_type"] == "table_row"]
        if size < 200:
            assert len(groups) > 1  # a long table is chunked by row groups ...
        for c in groups:  # ... each with the header repeated
            assert "Consolidated Statements of Operations" in c.text
            assert "2024: " in c.text


def test_repeated_page_header_kept_out_of_embedded_text(statement_pdf: Path) -> None:
    doc = load_file(statement_pdf)
    kinds = block_counts(doc.blocks)
    assert kinds.get("page_header", 0) == 4 and kinds.get("page_footer", 0) == 4
    header = next(b for b in doc.blocks if b.kind == "page_header")
    assert doc.text[header.start : header.end] == "Acme Corp Annual Report"
    chunks = chunk_document(doc, ROW_CHUNKS, {"doc_id": "d", "title": "Acme 2024"})
    assert chunks
    for c in chunks:
        assert "Acme Corp Annual Report" not in c.text
        assert "Page " not in c.content


def test_html_table_header_cells_name_columns(tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text(
        "<html><body><h2>Revenue</h2><table><caption>Segment revenue</caption>"
        "<tr><th>Segment</th><th>2024</th><th>2023</th></tr>"
        "<tr><td>Cloud</td><td>8,214</td><td>7,961</td></tr>"
        "<tr><td>Retail</td><td>1,020</td><td>998</td></tr></table>"
        "<p>Cloud grew fastest.</p></body></html>",
        encoding="utf-8",
    )
    doc = load_file(path)
    (table,) = doc.tables
    assert table.title == "Segment revenue" and table.columns == ["2024", "2023"]
    chunks = chunk_document(doc, ROW_CHUNKS, {"doc_id": "h", "title": "Report"})
    row_chunk = next(c for c in chunks if c.metadata["block_type"] == "table_row")
    assert "Cloud — 2024: 8,214; 2023: 7,961" in row_chunk.text
    assert "Segment revenue" in row_chunk.text
    assert doc.text[row_chunk.start : row_chunk.end] == row_chunk.content
    assert "caption" in block_counts(doc.blocks)


def test_markdown_pipe_table(tmp_path: Path) -> None:
    path = tmp_path / "prices.md"
    path.write_text(
        "# Prices\n\nPrice list for 2025\n\n| Item | Price | Stock |\n|---|---|---|\n"
        "| Anvil | 40 | 12 |\n| Rocket skates | 95 | 3 |\n\nPrices include tax.\n",
        encoding="utf-8",
    )
    doc = load_file(path)
    (table,) = doc.tables
    assert table.columns == ["Price", "Stock"]
    assert table.rows[1].describe() == "Rocket skates — Price: 95; Stock: 3"
    chunks = chunk_document(doc, ROW_CHUNKS, {"doc_id": "m", "title": "Prices"})
    row_chunk = next(c for c in chunks if c.metadata["block_type"] == "table_row")
    assert "Price list for 2025" in row_chunk.text
    assert row_chunk.content == doc.text[row_chunk.start : row_chunk.end]


def test_fenced_code_is_one_paragraph_not_headings_or_items(tmp_path: Path) -> None:
    """A shell comment in a fenced block is no heading, a dash line no list item."""
    path = tmp_path / "setup.md"
    path.write_text(
        "# Setup\n\nRun this:\n\n```bash\n# install the tool\npip install x\n- not an item\n"
        "```\n\n## Next\n\n- an item\n",
        encoding="utf-8",
    )
    doc = load_file(path)
    kinds = [(b.kind, doc.text[b.start : b.end].split("\n")[0]) for b in doc.blocks]
    assert kinds == [
        ("heading", "# Setup"),
        ("paragraph", "Run this:"),
        ("paragraph", "```bash"),
        ("heading", "## Next"),
        ("list_item", "- an item"),
    ]


@pytest.mark.parametrize(
    ("above", "title"),
    [
        ("The boiler pressure should be 1.5 bar.", ""),  # a fact of its own
        ("Readings from the plant room!", ""),
        ("Readings (bar):", "Readings (bar):"),
        ("Which pressure is right?", "Which pressure is right?"),  # an FAQ's question
    ],
)
def test_a_sentence_above_a_markdown_table_is_not_its_title(
    tmp_path: Path, above: str, title: str
) -> None:
    """A sentence just above a table states a fact of its own: made the table's title, it
    is stated with every row and a row outscores the sentence in answers."""
    path = tmp_path / "plant.md"
    path.write_text(
        f"# Plant\n\n{above}\n\n| Gauge | Reading |\n|---|---|\n| North | 1.4 |\n",
        encoding="utf-8",
    )
    (table,) = load_file(path).tables
    assert table.title == title


@pytest.mark.parametrize(
    ("name", "body"),
    [
        (
            "faq.md",
            "# Shop FAQ\n\n### Can I get a refund?\n\nYes, within 30 days of delivery.\n\n"
            "### Do you ship abroad?\n\nOnly inside the EU.\n",
        ),
        (
            "faq.txt",
            "Shop FAQ\n\nCan I get a refund?\nYes, within 30 days of delivery.\n\n"
            "Do you ship abroad?\nOnly inside the EU.\n",
        ),
        (
            "faq.html",
            "<html><body><h1>Shop FAQ</h1><h3>Can I get a refund?</h3>"
            "<p>Yes, within 30 days of delivery.</p><h3>Do you ship abroad?</h3>"
            "<p>Only inside the EU.</p></body></html>",
        ),
    ],
)
def test_faq_question_and_answer_are_one_unit(tmp_path: Path, name: str, body: str) -> None:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    doc = load_file(path)
    pairs = [b for b in doc.blocks if b.kind == "qa_pair"]
    assert len(pairs) == 2
    first = pairs[0]
    assert first.answer_start is not None
    assert doc.text[first.start : first.answer_start].strip().lstrip("# ") == (
        "Can I get a refund?"
    )
    assert doc.text[first.answer_start : first.end] == "Yes, within 30 days of delivery."
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "f", "title": "FAQ"})
    answer = next(c for c in chunks if "30 days" in c.content)
    assert answer.metadata["block_type"] == "qa_pair"


def test_detect_blocks_types_lines() -> None:
    from loaders.base import Segment

    text = "Intro paragraph line one\nline two.\n\n- first item\n- second item\n\nFigure 2: Sales."
    blocks = detect_blocks(text, [Segment(0, len(text))], [])
    assert [b.kind for b in blocks] == ["paragraph", "list_item", "list_item", "caption"]
    assert text[blocks[0].start : blocks[0].end] == "Intro paragraph line one\nline two."


def test_question_lines() -> None:
    assert is_question("### Can I get a refund?")
    assert is_question("Q: How long is the warranty?")
    assert not is_question("We asked a lot. Then came the real question: why?")
    assert not is_question("No question here.")


def test_records_validate() -> None:
    with pytest.raises(ValueError, match="unknown block kind"):
        Block("sidebar", 0, 1)
    with pytest.raises(ValueError, match="at least one row"):
        Table(0, 1, "", [], [])
    row = TableRow(0, 5, "", ("1", "2"), ("", "2023"))
    assert row.describe() == "1; 2023: 2"


def test_a_chunk_ending_where_a_table_starts_gets_the_title_of_the_table_it_overlaps() -> None:
    """Spans are half-open: a chunk ending at a table's start does not overlap it, so its
    header names the earlier table it does overlap, not the next one."""
    from loaders.chunking import Chunk, _add_table_titles

    def table(start: int, end: int, title: str) -> Table:
        return Table(start, end, title, ["v"], [TableRow(start, end, "r", ("1",), ("v",))])

    text = "a" * 300
    first, second = table(0, 100, "Income statement"), table(150, 250, "Cash flows")
    chunk = Chunk("c", text[50:150], text[50:150], 50, 150, None, "", 0, {})
    _add_table_titles([chunk], [first, second], "Acme")
    assert "Income statement" in chunk.text and "Cash flows" not in chunk.text


def test_pages_finds_the_page_around_a_position_by_bisection() -> None:
    """The lookups the block typer makes for every line outside a segment."""
    from loaders.blocks import _Pages

    text = "head\nA body\nfoot\n\nhead\nB body\nfoot"
    a, b = text.index("A body"), text.index("B body")
    pages = _Pages([(a, a + 6, 1), (b, b + 6, 2)])
    assert pages.page_of(a + 2) == 1 and pages.page_of(b) == 2 and pages.page_of(0) is None
    assert (
        pages.page_after(0) == 1
        and pages.page_after(a + 1) == 2
        and pages.page_after(b + 1) is None
    )
    assert pages.page_near(0) == 1 and pages.page_near(a + 7) == 1 and pages.page_near(b + 7) == 2
    assert pages.starts_page(text, 0)  # nothing before: a header
    assert not pages.starts_page(text, text.index("foot"))  # right after page 1's body
    assert pages.starts_page(text, text.index("head", 1))  # after the blank line between pages

"""A page set in two text columns, a ruled table of wrapped cells inside one column: the
table is read within its column (not run into the other column's prose at the same
height), each grid row whose cells wrap onto lines as one row. Each PDF is written at test
time with its cells known."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from loaders.pdf_tables import Word, group_lines
from loaders.registry import load_file
from tests.support.pdfs import Line, write_pdf

SIZE = 9.0
_SENTENCE = (
    "Members book rooms through the front desk or online at least two days ahead and a "
    "booking that is not used without notice counts against the quota for the month"
)
PROSE = _SENTENCE.split(" ")


def _at(x: float, y: float, text: str, size: float = SIZE) -> str:
    esc = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 {size} Tf {x:.2f} {y:.2f} Td ({esc}) Tj ET"


def _prose(x: float, top: float, lines: int, pitch: float = 11.5) -> list[str]:
    """``lines`` lines of eight words of prose from ``(x, top)`` down (a column ~200 pt)."""
    out = []
    for n in range(lines):
        words = PROSE[(n * 8) % 24 : (n * 8) % 24 + 8]
        out.append(_at(x, top - pitch * n, " ".join(words)))
    return out


#: A storage table: each cell's lines (wrapped as a narrow column wraps them).
GRID: Sequence[Sequence[Sequence[str]]] = (
    (("Store",), ("Contents",), ("Location",), ("Limit",)),
    (("Cold store",), ("vaccines,", "insulin"), ("Pharmacy", "fridge, room", "2.04"), ("40 L",)),
    (("Dry", "store"), ("tablets and", "capsules"), ("Bay B, room", "2.06"), ("120", "boxes")),
    (("Returns",), ("expired", "stock"), ("Quarantine", "shelf"), ("4 crates",)),
)
#: The grid's column edges (PDF points): the right column of the page, 315 to 560.
EDGES = (315.0, 370.0, 440.0, 510.0, 560.0)


def _two_column_page(path: Path, horizontal_rules: bool = True) -> Path:
    """A page in two columns: prose down the left column (x 57); in the right column (x
    315) a line of prose, the ruled grid :data:`GRID` (6 pt padding, lines 9 pt apart in a
    cell, rows parted by horizontal rules when ``horizontal_rules``), then more prose; a
    running header across the top. The grid's lines fall at the heights of the left
    column's lines, so grouping by height alone runs them together."""
    ops = [_at(57, 800, "Northfield Health Centre"), _at(420, 800, "Staff Handbook v2.1")]
    ops += _prose(57, 760, 40)
    ops += _prose(315, 760, 2)
    top = 735.0
    rows_y = [top]
    y = top
    for row in GRID:
        depth = max(len(cell) for cell in row)
        for c, cell in enumerate(row):
            for k, text in enumerate(cell):
                ops.append(_at(EDGES[c] + 6, y - 9 - 9 * k, text))
        y -= 9 * depth + 6
        rows_y.append(y)
    bottom = rows_y[-1]
    ops += [f"0.5 w {x:.2f} {bottom:.2f} m {x:.2f} {top:.2f} l S" for x in EDGES]
    ys = rows_y if horizontal_rules else [top, bottom]
    ops += [f"0.5 w {EDGES[0]:.2f} {y:.2f} m {EDGES[-1]:.2f} {y:.2f} l S" for y in ys]
    ops += _prose(315, bottom - 20, 20)
    return write_pdf(path, [[Line(raw=op) for op in ops]])


def test_a_grid_of_wrapped_cells_in_one_column_is_read_within_its_column(
    tmp_path: Path,
) -> None:
    """Before: lines grouped by height across the page ran each grid line into the left
    column's prose, and each wrapped line of a cell was a row of its own (no table read)."""
    (table,) = load_file(_two_column_page(tmp_path / "manual.pdf")).tables
    assert table.columns == ["Contents", "Location", "Limit"]
    assert [r.describe() for r in table.rows] == [
        "Cold store — Contents: vaccines, insulin; Location: Pharmacy fridge, room 2.04; "
        "Limit: 40 L",
        "Dry store — Contents: tablets and capsules; Location: Bay B, room 2.06; Limit: 120 boxes",
        "Returns — Contents: expired stock; Location: Quarantine shelf; Limit: 4 crates",
    ]


def test_a_grid_without_rules_between_its_rows_keeps_its_lines(tmp_path: Path) -> None:
    """Rows parted by whitespace alone cannot be told from a cell's wrapped lines: no line
    is joined to another (a table of the lines, or none, but never a row of two rows)."""
    doc = load_file(_two_column_page(tmp_path / "manual.pdf", horizontal_rules=False))
    cells = [c for t in doc.tables for r in t.rows for c in (r.label, *r.cells)]
    assert not any("Pharmacy fridge" in c for c in cells)


def _words(line: str, x: float, y: float) -> list[Word]:
    out, at = [], x
    for text in line.split():
        width = 5.0 * len(text)
        out.append(Word(text, at, at + width, y, y + SIZE))
        at += width + 2.5
    return out


def test_a_statements_gap_between_labels_and_figures_is_no_gutter() -> None:
    """Labels on the left, columns of figures on the right, a wide empty band between: one
    side holds no prose, so the page is one column."""
    from loaders.page_columns import column_blocks, find_gutter

    words: list[Word] = []
    for n in range(12):
        y = 700 - 14 * n
        words += _words(f"Revenue from the sale of goods line {n}", 60, y)
        words += _words("8,214 7,961 7,402", 400, y)
    lines = group_lines(words)
    assert find_gutter(lines) is None
    assert len(column_blocks(words)) == 1


def test_two_columns_of_prose_are_two_blocks_and_a_title_across_them_its_own() -> None:
    """A title set across both columns stays one line; below it, the left column's lines
    are one block and the right column's another, each line of one column only."""
    from loaders.page_columns import column_blocks

    words = _words("Annual report of the village hall committee for the year 2025", 60, 760)
    for n in range(10):
        y = 730 - 12 * n
        words += _words("the hall was booked on most evenings this year", 60, y)
        words += _words("repairs to the roof were paid by a local grant", 320, y - 4)
    blocks = column_blocks(words)
    assert [len(b) for b in blocks] == [1, 10, 10]
    assert all(w.x1 < 300 for ln in blocks[1] for w in ln.words)
    assert all(w.x0 > 300 for ln in blocks[2] for w in ln.words)

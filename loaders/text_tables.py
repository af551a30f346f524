"""Tables whose columns hold words, read from word boxes by their whitespace gutters.

:mod:`loaders.pdf_tables` finds a page's *value* columns from right-aligned numbers (a
financial statement). A delivery schedule, a price list, a rota or a contact list has
columns of words and times instead (``Scotland  Friday  Tuesday 12:00  Parcelforce``),
which that reader leaves as plain lines whose cells have lost their column names. This
module reads such tables from the same word boxes, whatever the words are:

1. **cells** — a line's words are split into cells where the gap between two words is wider
   than :data:`CELL_GAP` times the line's word height (the space inside a cell, "Monday
   12:00", is a fraction of it);
2. **runs** — consecutive lines with at least two cells each, at a regular line pitch, form
   a candidate table;
3. **columns** — the horizontal extents of every cell of the run are merged where they
   overlap; each merged extent is a column, so left-aligned, right-aligned and centred
   columns are all read. A run is a table only if every line puts at most one cell in each
   column, it has at least :data:`MIN_COLUMNS` columns and :data:`MIN_LINES` lines, and its
   cells are short (at most :data:`MAX_WORDS_PER_CELL` words on average: two columns of
   prose side by side are not a table);
4. **header and title** — the run's first lines name the columns: every leading line
   without a digit when most lines below have one (a header wrapped over lines), else the
   first line when it holds no digit. The lines just above the
   run (up to :data:`MAX_TITLE_LINES` short lines, not a running header nor a line of a
   table above, less a paragraph's last lines:
   :func:`loaders.pdf_tables.without_paragraph_tail`) are its title. A
   run whose lines mostly open with a lone bullet or tick box is a list, not a table.

The rows are then placed in the page's canonical text by :func:`loaders.pdf_tables.locate_rows`
(verbatim spans), like a statement's. Word boxes come from pdfium for born-digital PDF pages
and from the OCR engine for scanned pages and images (:func:`ocr_lines`).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

from loaders.ocr import OcrPage
from loaders.pdf_tables import (
    MAX_HEADER_LINES,
    Line,
    RawTable,
    Word,
    ends_sentence,
    norm_line,
    title_above,
    without_paragraph_tail,
)

#: A gap wider than this many word heights separates two cells of a line.
CELL_GAP = 1.3
#: Fewest columns of a table.
MIN_COLUMNS = 2
#: Fewest lines of a table, its header included.
MIN_LINES = 3
#: Most words per cell, on average over the table (prose columns hold more).
MAX_WORDS_PER_CELL = 4.0
#: Consecutive lines of a table are at most this many line heights apart.
MAX_PITCH = 3.0
#: Lines above a table read as its title.
MAX_TITLE_LINES = 2

_DIGIT = re.compile(r"\d")
#: A period that names a column (``2024``, ``FY2025``, ``Q3 2025``, ``2024/25``), not a figure.
_PERIOD = re.compile(r"\b(?:FY|Q[1-4]\s*)?(?:19|20)\d\d(?:/\d\d)?\b", re.IGNORECASE)


@dataclass
class _Cell:
    words: list[Word]

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


def _height(line: Line) -> float:
    return max(statistics.median(max(w.y1 - w.y0, 1.0) for w in line.words), 1.0)


def cells_of(line: Line) -> list[_Cell]:
    """A line's words grouped into cells at gaps wider than :data:`CELL_GAP` word heights."""
    gap = CELL_GAP * _height(line)
    cells: list[_Cell] = []
    for w in line.words:
        if cells and w.x0 - cells[-1].x1 <= gap:
            cells[-1].words.append(w)
        else:
            cells.append(_Cell([w]))
    return cells


def _columns(rows: list[list[_Cell]]) -> list[tuple[float, float]] | None:
    """Merged horizontal extents of every cell; ``None`` when a line has two cells in one."""
    spans = sorted((c.x0, c.x1) for cells in rows for c in cells)
    merged: list[list[float]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    columns = [(a, b) for a, b in merged]
    for cells in rows:
        seen = [_column_index(c, columns) for c in cells]
        if len(set(seen)) != len(seen):
            return None
    return columns


def _column_index(cell: _Cell, columns: list[tuple[float, float]]) -> int:
    return next(i for i, (a, b) in enumerate(columns) if a <= cell.x0 and cell.x1 <= b)


def _is_list(rows: list[list[_Cell]]) -> bool:
    """Most lines open with a lone bullet or tick box: a list, not a table."""
    marks = sum(1 for r in rows if len(r[0].text) == 1 and not r[0].text.isalnum())
    return marks * 2 > len(rows)


def _header_lines(rows: list[list[_Cell]]) -> int:
    """How many of a run's first lines are its header (column names, possibly wrapped).

    When most lines below hold digits, the header is every leading line without one (up to
    :data:`MAX_HEADER_LINES`: ``Total Number of`` / ``Shares Purchased``); otherwise the
    first line alone if it has no digit (a first line with figures is a row). A year or a
    period (``2024``, ``FY2025``, ``Q3 2025``) does not count as a digit: it names a column.
    """
    digits = [any(_DIGIT.search(_PERIOD.sub("", c.text)) for c in r) for r in rows]
    n = 0
    while n < min(MAX_HEADER_LINES, len(rows) - 2) and not digits[n]:
        n += 1
    rest = digits[n:]
    if n and sum(rest) * 2 > len(rest):
        return n
    return 0 if digits[0] else 1


def _runs(lines: list[Line], skip: set[int]) -> list[list[int]]:
    """Runs of consecutive multi-cell lines at a regular pitch (indices into ``lines``)."""
    runs: list[list[int]] = []
    current: list[int] = []
    for i, line in enumerate(lines):
        ok = i not in skip and len(cells_of(line)) >= MIN_COLUMNS
        if ok and current:
            prev = lines[current[-1]]
            pitch = prev.words[0].cy - line.words[0].cy
            if i != current[-1] + 1 or not 0 < pitch <= MAX_PITCH * _height(prev):
                runs.append(current)
                current = []
        if ok:
            current.append(i)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return [r for r in runs if len(r) >= MIN_LINES]


def read_text_tables(
    lines: list[Line], running: set[str], skip: set[int] | None = None
) -> list[RawTable]:
    """Tables of one page's lines whose columns are separated by whitespace gutters.

    Args:
        lines: The page's lines, top to bottom (:func:`loaders.pdf_tables.group_lines`).
        running: Normalised running header/footer lines (never a title or a row).
        skip: Indices of lines another reader already placed in a table.

    Returns:
        The page's tables in reading order (rows as :class:`RawTable` rows: label = the
        first column's cell, cells = the other columns', each with its column index).
    """
    skip = set(skip or ()) | {i for i, ln in enumerate(lines) if norm_line(ln.text) in running}
    tables: list[RawTable] = []
    claimed: set[int] = set()  # lines of the tables read so far: never the next one's title
    for run in _runs(lines, skip):
        rows = [cells_of(lines[i]) for i in run]
        columns = _columns(rows)
        if columns is None or len(columns) < MIN_COLUMNS:
            continue
        n_cells = sum(len(r) for r in rows)
        if sum(len(c.words) for r in rows for c in r) / n_cells > MAX_WORDS_PER_CELL:
            continue
        if _is_list(rows):
            continue
        n_head = _header_lines(rows)
        names = [""] * len(columns)
        for head in rows[:n_head]:
            for c in head:
                i = _column_index(c, columns)
                names[i] = f"{names[i]} {c.text}".strip()
        body = rows[n_head:]
        title_lines, k = title_above(
            lines,
            run[0] - 1,
            MAX_TITLE_LINES,
            lambda i: i not in skip and i not in claimed,
        )
        text_above = k >= 0 and k not in skip and k not in claimed
        if text_above and not ends_sentence(lines[k].text):  # a paragraph going on below?
            title_lines = without_paragraph_tail(title_lines)
        out_rows: list[tuple[str, str, list[str], list[int]]] = []
        for cells in body:
            placed = [_column_index(c, columns) for c in cells]
            if placed[0] == 0:
                label, rest, where = cells[0].text, cells[1:], placed[1:]
            else:
                label, rest, where = "", cells, placed
            out_rows.append(("", label, [c.text for c in rest], [p - 1 for p in where]))
        if len(out_rows) < MIN_LINES - 1:
            continue
        tables.append(RawTable(" ".join(title_lines).strip(), names[1:], out_rows))
        claimed.update(run)
    return tables


def ocr_lines(page: OcrPage, text: str) -> list[Line]:
    """An OCR page's words as :class:`loaders.pdf_tables.Line` objects (y up, in points).

    Lines are the engine's own (a line break between two words in the page text), not
    regrouped by height: a photo taken at a slight angle drifts by more than a word's
    height across a row, which the engine's line finder follows and a height rule would not.

    Args:
        page: The OCR result, its word ranges into ``text``.
        text: The text the word ranges point into.
    """
    lines: list[Line] = []
    prev_end: int | None = None
    for w in sorted(page.words, key=lambda w: w.start):
        word = text[w.start : w.end]
        if not word.strip():
            continue
        box = Word(word, w.box[0], w.box[2], -w.box[3], -w.box[1])
        if prev_end is None or "\n" in text[prev_end : w.start]:
            lines.append(Line([box]))
        else:
            lines[-1].words.append(box)
        prev_end = w.end
    for line in lines:
        line.words.sort(key=lambda w: w.x0)
    return lines

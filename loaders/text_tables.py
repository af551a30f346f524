"""Tables whose columns hold words, read from word boxes by their whitespace gutters.

:mod:`loaders.pdf_tables` finds a page's *value* columns from right-aligned numbers (a
financial statement). A delivery schedule, a price list, a rota or a contact list has
columns of words and times instead (``Scotland  Friday  Tuesday 12:00  Parcelforce``),
which that reader leaves as plain lines whose cells have lost their column names. This
module reads such tables from the same word boxes, whatever the words are:

1. **cells** — a line's words are split into cells where the gap between two words is wider
   than :data:`CELL_GAP` times the line's word height (the space inside a cell, "Monday
   12:00", is a fraction of it), and, in a tightly set table whose cells stand only a
   padding apart, at a narrower gap where a word starts (or ends) on a column edge that at
   least half of the block's other lines share (:func:`shared_edges`);
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
   first line when it holds no digit, or when its cells differ in kind (figures or words)
   from the cells below them in most columns (times over class names); a line a row's pitch
   below the header line, both with a label cell, is a row (:func:`_row_below`); a
   currency sign apart from its figure is no cell. The lines just above the
   run (up to :data:`MAX_TITLE_LINES` short lines, not a running header nor a line of a
   table above, less a paragraph's last lines:
   :func:`loaders.pdf_tables.without_paragraph_tail`) are its title. A
   run whose lines mostly open with a lone bullet or tick box is a list, not a table.

The rows are then placed in the page's canonical text by :func:`loaders.pdf_tables.locate_rows`
(verbatim spans), like a statement's. Word boxes come from pdfium for born-digital PDF pages
and from the OCR engine for scanned pages and images (:func:`ocr_lines`).
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Sequence
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
    without_signs_apart,
)

#: A gap wider than this many word heights separates two cells of a line.
CELL_GAP = 1.3
#: A gap of at least this many word heights (wider than a space, about 0.25) separates two
#: cells where the next word starts, or the word before ends, on a column edge other lines
#: of the table share (:func:`shared_edges`): a tightly set table, its cells a padding apart.
ALIGNED_GAP = 0.35
#: ... and wider than this many times the usual space between two words of a cell.
ALIGNED_SPACES = 1.5
#: Cell edges within this many points are one column edge.
EDGE_TOLERANCE = 1.5
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
#: A line under a header line set at least this share of the table's usual line pitch
#: below it is a row of its own, not a header cell's wrapped line (:func:`_row_below`).
ROW_PITCH_SHARE = 0.9

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


@dataclass(frozen=True)
class ColumnEdges:
    """The column edges that the lines of a block share, and its usual word space.

    Attributes:
        starts: Left cell edges (PDF points) where columns start (left-aligned cells).
        ends: Right cell edges where columns end (right-aligned cells).
        space: The usual gap between two words of one cell (points).
    """

    starts: tuple[float, ...] = ()
    ends: tuple[float, ...] = ()
    space: float = 0.0


def cells_of(line: Line, edges: ColumnEdges | None = None) -> list[_Cell]:
    """A line's words grouped into cells at gaps wider than :data:`CELL_GAP` word heights,
    and at narrower gaps, wider than :data:`ALIGNED_GAP` word heights and
    :data:`ALIGNED_SPACES` times the usual word space, where the next word starts on a
    column start of ``edges``, or the word before or the next word ends on a column end
    (column edges that the other lines of its table share, :func:`shared_edges`); and
    always where a drawn rule stands between two words (:attr:`Line.breaks`)."""
    height = _height(line)
    gap = CELL_GAP * height
    narrow = max(ALIGNED_GAP * height, ALIGNED_SPACES * edges.space) if edges else gap
    cells: list[_Cell] = []
    for w in line.words:
        if cells:
            space = w.x0 - cells[-1].x1
            # the next word starts a column, the cell before ends one, or the next word
            # is a right-aligned cell of its own (``Standard  £32.00``)
            aligned = edges is not None and (
                _near(w.x0, edges.starts)
                or _near(cells[-1].x1, edges.ends)
                or _near(w.x1, edges.ends)
            )
            ruled = line.parted(cells[-1].words[-1], w)  # a drawn rule between them
            if space <= gap and not (aligned and space > narrow) and not ruled:
                cells[-1].words.append(w)
                continue
        cells.append(_Cell([w]))
    return cells


def _near(x: float, edges: Sequence[float]) -> bool:
    return any(abs(x - e) <= EDGE_TOLERANCE for e in edges)


def shared_edges(rows: Sequence[Sequence[_Cell]]) -> ColumnEdges:
    """The column edges of a block's lines split by wide gaps (``rows``, each line's cells).

    A left (or right) cell edge is a column's start (or end) when at least half of the lines
    with two cells or more, and two, have a cell edge there (within
    :data:`EDGE_TOLERANCE`): a column's edge runs down the table, a word that happens to end
    where another line's cell does is one line's. The word space is the narrowest gap
    between two words of one cell (the cells of a tight table, joined by the wide-gap
    rule, hold wider gaps than a space).
    """
    multi = [cells for cells in rows if len(cells) >= MIN_COLUMNS]
    need = max(2, (len(multi) + 1) // 2)
    found: list[tuple[float, ...]] = []
    for side in (lambda c: c.x0, lambda c: c.x1):
        edges = [[side(c) for c in cells] for cells in multi]
        found.append(
            tuple(
                sorted(
                    {
                        x
                        for own in edges
                        for x in own
                        if sum(_near(x, other) for other in edges) >= need
                    }
                )
            )
        )
    gaps = [b.x0 - a.x1 for cells in rows for c in cells for a, b in itertools.pairwise(c.words)]
    return ColumnEdges(found[0], found[1], min(gaps, default=0.0))


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


def _kinds_differ(
    first: list[_Cell], body: list[list[_Cell]], columns: list[tuple[float, float]]
) -> bool:
    """Whether a first line's cells are of another kind (figure or words) than the cells
    below them in most of its columns: times over class names, ``09:00  12:30`` over
    ``Yoga  Pilates``, name the columns; a first line of figures over figures is a row."""
    differ = 0
    for cell in first:
        col = _column_index(cell, columns)
        below = [c for cells in body for c in cells if _column_index(c, columns) == col]
        if not below:
            continue
        words = sum(not _DIGIT.search(c.text) for c in below)
        majority_words = 2 * words > len(below)
        differ += majority_words == bool(_DIGIT.search(cell.text))
    return 2 * differ > len(first)


def _cy(cells: Sequence[_Cell]) -> float:
    return statistics.median(w.cy for c in cells for w in c.words)


def _row_below(rows: list[list[_Cell]], n: int, columns: list[tuple[float, float]]) -> bool:
    """Whether line ``n`` of a run, under a header line, is a row by its geometry, not a
    header line: both it and the line above have a cell in the label column (a header's
    label head, set at the bottom of its row as report tools set it, is on one line only),
    and it stands at least :data:`ROW_PITCH_SHARE` of the run's usual line pitch below that
    line (the lines of one wrapped header cell are set at the type's leading, closer than
    rows with their padding are): ``Music  N/A  N/A`` under ``Subject  Entries  Pass
    rate``, a bold ``All plans  1,240`` under a bold header."""
    if n == 0 or len(rows) < 3:
        return False
    if _column_index(rows[n][0], columns) or _column_index(rows[n - 1][0], columns):
        return False
    pitches = [_cy(a) - _cy(b) for a, b in itertools.pairwise(rows)]
    return pitches[n - 1] >= ROW_PITCH_SHARE * statistics.median(pitches)


def _header_lines(rows: list[list[_Cell]], columns: list[tuple[float, float]]) -> int:
    """How many of a run's first lines are its header (column names, possibly wrapped).

    Leading lines set in bold over a body mostly not in bold are the header, whatever they
    hold (``Under 16  16 to 64  65 and over`` over prices: figures over figures). Else,
    when most lines below hold digits, the header is every leading line without one (up to
    :data:`MAX_HEADER_LINES`: ``Total Number of`` / ``Shares Purchased``); otherwise the
    first line alone if it has no digit (a first line with figures is a row, unless its
    cells differ in kind from those below them: :func:`_kinds_differ`). A year or a
    period (``2024``, ``FY2025``, ``Q3 2025``) does not count as a digit: it names a column.
    Either way the header ends above a line that is a row by its geometry
    (:func:`_row_below`): a bold total first, a row of words (``N/A``) first.
    """
    bold = [all(w.bold for c in r for w in c.words) for r in rows]
    if bold[0] and 2 * sum(bold[1:]) < len(rows) - 1:
        n = 1  # a header row set in bold over body rows that are not names the columns
        while (
            n < min(MAX_HEADER_LINES, len(rows) - 2)
            and bold[n]
            and not _row_below(rows, n, columns)
        ):
            n += 1
        return n
    digits = [any(_DIGIT.search(_PERIOD.sub("", c.text)) for c in r) for r in rows]
    if digits[0] and _kinds_differ(rows[0], rows[1:], columns):
        return 1
    n = 0
    while (
        n < min(MAX_HEADER_LINES, len(rows) - 2)
        and not digits[n]
        and not _row_below(rows, n, columns)
    ):
        n += 1
    rest = digits[n:]
    if n and sum(rest) * 2 > len(rest):
        return n
    return 0 if digits[0] else 1


@dataclass
class _Run:
    """Consecutive lines of a candidate table and the column edges its lines share."""

    lines: list[int]
    edges: ColumnEdges


def _blocks(lines: list[Line], skip: set[int]) -> list[list[int]]:
    """Runs of consecutive lines (none skipped) at a regular pitch (indices into ``lines``)."""
    blocks: list[list[int]] = []
    current: list[int] = []
    for i, line in enumerate(lines):
        if i in skip:
            if current:
                blocks.append(current)
            current = []
            continue
        if current:
            prev = lines[current[-1]]
            pitch = prev.words[0].cy - line.words[0].cy
            if not 0 < pitch <= MAX_PITCH * _height(prev):
                blocks.append(current)
                current = []
        current.append(i)
    if current:
        blocks.append(current)
    return blocks


def _run_cells(lines: Sequence[Line], edges: ColumnEdges) -> list[list[_Cell]]:
    """Each line of a run as cells: split at wide gaps, and a line with fewer cells than the
    run's widest line so split also at the column edges the run shares (a tightly set line
    among wider-set ones). A line is never split into more cells than the widest has: "1 kg"
    stays one cell when another line's "1kg" happens to end where its "kg" does."""
    coarse = [cells_of(line) for line in lines]
    width = max((len(c) for c in coarse), default=0)
    out = []
    for line, cells in zip(lines, coarse, strict=True):
        fine = cells_of(line, edges) if len(cells) < width else cells
        out.append(fine if len(fine) <= width else cells)
    return out


def _runs(lines: list[Line], skip: set[int]) -> list[_Run]:
    """Runs of consecutive multi-cell lines at a regular pitch.

    A line is multi-cell when a wide gap (:data:`CELL_GAP`) splits it, or when, set tightly,
    it splits at the column edges that the wide-gap lines of its block share
    (:func:`shared_edges`) into cells the first of which starts on such an edge: a
    timetable's ``Wednesday  Spin`` a cell padding apart, under ``Monday  Yoga`` and
    ``Tuesday  Aqua fit`` set wider.
    """
    runs: list[_Run] = []
    for block in _blocks(lines, skip):
        coarse = {i: cells_of(lines[i]) for i in block}
        edges = shared_edges(list(coarse.values()))
        current: list[int] = []
        for i in block:
            fine = cells_of(lines[i], edges)
            ok = len(coarse[i]) >= MIN_COLUMNS or (
                len(fine) >= MIN_COLUMNS and _near(fine[0].x0, edges.starts)
            )
            if ok:
                current.append(i)
                continue
            if current:
                runs.append(_Run(current, edges))
            current = []
        if current:
            runs.append(_Run(current, edges))
    return [r for r in runs if len(r.lines) >= MIN_LINES]


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
    lines = [without_signs_apart(ln) for ln in lines]  # a sign apart is its figure's
    tables: list[RawTable] = []
    claimed: set[int] = set()  # lines of the tables read so far: never the next one's title
    for found in _runs(lines, skip):
        run = found.lines
        rows = _run_cells([lines[i] for i in run], found.edges)
        columns = _columns(rows)
        if columns is None or len(columns) < MIN_COLUMNS:
            continue
        n_cells = sum(len(r) for r in rows)
        if sum(len(c.words) for r in rows for c in r) / n_cells > MAX_WORDS_PER_CELL:
            continue
        if _is_list(rows):
            continue
        n_head = _header_lines(rows, columns)
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

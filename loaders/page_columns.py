"""A page's text columns: where a page set in two columns parts them, and its lines per column.

A manual, a newsletter or a paper is often set in two columns. Grouping a page's words into
lines by height alone (:func:`loaders.pdf_tables.group_lines`) runs a line of the left
column into the line of the right column at the same height, so a table inside one column
is read with the other column's prose on each of its lines, and is lost. This module finds
the **gutter**, an x-range that the page's lines leave empty, and cuts the page into
**blocks** of lines, each read by the table readers on its own (a table is found within
its column):

1. **gutter** — each line's words cover x-ranges of the page; in the middle of the text's
   width, the widest run of x covered by as few lines as any x there is (none, or the
   lines set across the page: a title, a table; at most :data:`MAX_CROSSING_SHARE` of
   them), at least :data:`MIN_GUTTER_HEIGHTS` word heights wide, is a gutter candidate;
2. **columns** — the candidate parts two text columns only when each side holds at least
   :data:`MIN_PROSE_LINES` lines of prose, and at least :data:`PROSE_LINE_SHARE` of its
   lines are (:data:`MIN_PROSE_WORDS` words with letters, spanning at least
   :data:`PROSE_WIDTH_SHARE` of the side's width): a statement's gap between its labels
   and its figures, or a table's whitespace gutter, has figures or short cells on one
   side (a few wordy header lines over them), never prose on both;
3. **blocks** — the lines that cross the gutter stay whole, each run of them a block (a
   title over both columns, a table across the page); between two such runs, the left
   column's words are grouped into lines (a block), then the right column's.

Everything is geometric: no words are looked at but for whether they hold letters.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence

from loaders.pdf_tables import Line, Word, group_lines

#: A gutter is at least this many body word heights wide (a word space is about 0.25).
MIN_GUTTER_HEIGHTS = 1.5
#: At most this share of a page's lines may cross its gutter (lines set across the page).
MAX_CROSSING_SHARE = 0.25
#: A gutter lies between this share and one minus it of the text's width.
GUTTER_MARGIN_SHARE = 0.2
#: Each column holds at least this many lines of prose.
MIN_PROSE_LINES = 4
#: A line of prose has at least this many words with letters ...
MIN_PROSE_WORDS = 4
#: ... and spans at least this share of its column's width.
PROSE_WIDTH_SHARE = 0.5
#: At least this share of a column's lines are prose (a statement's column headers are
#: a few wordy lines over many lines of figures).
PROSE_LINE_SHARE = 0.5


def find_gutter(lines: Sequence[Line]) -> tuple[float, float] | None:
    """The gutter parting a page's two text columns, ``(left, right)`` in PDF points, or
    ``None`` (see the module docstring, steps 1 and 2).

    Args:
        lines: The page's lines, top to bottom, grouped across the whole page.
    """
    words = [w for ln in lines for w in ln.words]
    if len(lines) < 2 * MIN_PROSE_LINES or not words:
        return None
    left, right = min(w.x0 for w in words), max(w.x1 for w in words)
    height = statistics.median(max(w.y1 - w.y0, 1.0) for w in words)
    start, stop = int(left), int(right) + 1
    narrow = int(MIN_GUTTER_HEIGHTS * height)  # a gap narrower than a gutter is a space
    steps = [0] * (stop - start + 1)  # how many lines cover each point: +1 in, -1 out
    for ln in lines:
        spans: list[list[int]] = []  # the line's words' point ranges, spaces filled
        for w in ln.words:
            a, b = int(w.x0) - start, int(w.x1) + 1 - start
            if spans and a <= spans[-1][1] + narrow:
                spans[-1][1] = max(spans[-1][1], b)
            else:
                spans.append([a, b])
        for a, b in spans:
            steps[a] += 1
            steps[b] -= 1
    cover = list(itertools.accumulate(steps[:-1]))
    lo = left + GUTTER_MARGIN_SHARE * (right - left)
    hi = right - GUTTER_MARGIN_SHARE * (right - left)
    middle = [c for i, c in enumerate(cover) if lo <= start + i <= hi]
    # the gutter is as empty as the middle of the page gets: only the lines set across it
    allowed = min(middle, default=len(lines))
    if allowed > MAX_CROSSING_SHARE * len(lines):
        return None
    best: tuple[float, float] | None = None
    run_start: int | None = None
    for i in range(len(cover) + 1):
        open_ = i < len(cover) and cover[i] <= allowed and lo <= start + i <= hi
        if open_ and run_start is None:
            run_start = i
        elif not open_ and run_start is not None:
            gap = (float(start + run_start), float(start + i))
            wide = gap[1] - gap[0] >= MIN_GUTTER_HEIGHTS * height
            if wide and (best is None or gap[1] - gap[0] > best[1] - best[0]):
                best = gap
            run_start = None
    if best is None:
        return None
    sides = ([w for w in words if w.x1 <= best[0] + 1], [w for w in words if w.x0 >= best[1] - 1])
    widths = ((best[0] - left), (right - best[1]))
    for side, width in zip(sides, widths, strict=True):
        prose = 0
        side_lines = group_lines(side)
        for ln in side_lines:
            worded = [w for w in ln.words if any(ch.isalpha() for ch in w.text)]
            span = ln.words[-1].x1 - ln.words[0].x0
            prose += len(worded) >= MIN_PROSE_WORDS and span >= PROSE_WIDTH_SHARE * width
        if prose < max(MIN_PROSE_LINES, PROSE_LINE_SHARE * len(side_lines)):
            return None
    return best


def _crosses(line: Line, gutter: tuple[float, float]) -> bool:
    """Whether a word of ``line`` reaches into the gutter (a line set across the page)."""
    return any(w.x0 < gutter[1] - 1 and w.x1 > gutter[0] + 1 for w in line.words)


def column_blocks(words: list[Word]) -> list[list[Line]]:
    """A page's words as blocks of lines in reading order (see the module docstring).

    Args:
        words: The page's words (:func:`loaders.pdf_tables.page_words`).

    Returns:
        One block of every line (:func:`loaders.pdf_tables.group_lines`) when the page has
        no gutter; else the lines crossing the gutter in runs, and between them the left
        column's lines, then the right column's, each a block.
    """
    lines = group_lines(words)
    gutter = find_gutter(lines)
    if gutter is None:
        return [lines] if lines else []
    mid = (gutter[0] + gutter[1]) / 2
    blocks: list[list[Line]] = []
    pending: list[Word] = []  # words of the column lines since the last crossing run
    crossing: list[Line] = []

    def flush_columns() -> None:
        for side in ([w for w in pending if w.x1 <= mid], [w for w in pending if w.x1 > mid]):
            if side:
                blocks.append(group_lines(side))
        pending.clear()

    for ln in lines:
        if _crosses(ln, gutter):
            if pending:
                flush_columns()
            crossing.append(ln)
            continue
        if crossing:
            blocks.append(crossing)
            crossing = []
        pending.extend(ln.words)
    if crossing:
        blocks.append(crossing)
    if pending:
        flush_columns()
    return blocks

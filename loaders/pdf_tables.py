"""Tables of born-digital PDFs, read from the layout (pypdfium2 character boxes).

pypdf's text (the canonical text, see :mod:`loaders.pdf`) flattens a financial statement
into lines such as ``Total revenue 8,214 7,961 7,402`` (or one cell per line), losing the
column headers and the title. This module reads each page's words with their positions
from pdfium (``pypdfium2``, already the viewer's renderer) and rebuilds the tables:

1. **words and lines** — characters are joined into words (a space or a horizontal gap
   breaks a word), each marked bold or not by its font (:func:`is_bold`), and words into
   lines by their vertical centre; the vertical rules drawn across a line (a ruled grid:
   :func:`page_rules`, separate lines or one path drawing a whole grid) are its cell
   boundaries, parting words however close they stand,
   and a cell between two rules is whole (:meth:`Line.split`); a ruled grid whose value
   cells mix words and figures is left to the cell reader (:func:`mixed_grids`);
2. **columns** — a line's trailing numeric tokens (``8,214``, ``(1,577)``, ``12.5%``, ``—``)
   are candidate cells; their right edges are clustered across the page, and clusters with
   at least :data:`MIN_COLUMN_ROWS` members are the page's value columns (printed numbers
   are right-aligned, so a column shares its right edge; figures left-aligned as a word
   processor sets them share their left edge instead, and are clustered by it when that
   places clearly more of them, :data:`LEFT_ALIGNED_SHARE`);
3. **rows and tables** — a line whose cells fall in the columns is a row (its leading text
   the label); rows separated by at most :data:`MAX_GAP_LINES` other lines form a table,
   label-only lines inside it name the rows below (``Cash Flows from Investing Activities``);
   a line whose cells are words set on the columns' edges (``Music  N/A  N/A``) is a row of
   words between two rows or just under the header (:func:`word_cells`);
4. **headers and title** — the lines just above the first row whose words sit over the
   columns (``2024 2023 2022``, ``Three Months Ended``, ``July 29, 2023``) name the columns,
   each phrase going to every column it spans (a first phrase left of the columns, words
   only, heads the label column: ``Activity``, ``Source``); a header cell wrapped onto
   lines whose other lines reach over no column (left-aligned in a column wider than its
   figures: ``New`` / ``members`` / ``joined``) is joined to the column its lines stand
   over with the same alignment (:func:`_stack_wrapped`); the lines above those, up to
   :data:`MAX_TITLE_LINES` (running page headers excluded) and stopping at a line of prose
   (more than :data:`MAX_TITLE_WORDS` words, or a sentence of its own:
   :func:`states_fact`), are the table's title, less the last lines of
   a paragraph above it (:func:`without_paragraph_tail`);
5. **spans** — each row is found in the page's canonical text (whitespace ignored, its label
   then each cell in order, only a few characters such as ``$`` allowed between), so a row's
   ``[start, end)`` is verbatim canonical text. A row that cannot be found is left out (its
   text stays an ordinary paragraph).

Everything is geometric: no vocabulary of statement names or labels. Measured against
pdfplumber (its ``lines`` and ``text`` table strategies) in
``docs/concepts/structure.md``: pdfplumber was 10–30 times slower per page and split statements into
fragments or words into pieces.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from loaders.blocks import TableRow

#: A value column needs cells on at least this many lines of the page.
MIN_COLUMN_ROWS = 3
#: Right edges within this many points belong to one column.
COLUMN_TOLERANCE = 6.0
#: A page's figures are read as left-aligned when clustering their left edges puts at least
#: this share of them more in columns than clustering their right edges does.
LEFT_ALIGNED_SHARE = 0.25
#: Lines that are not rows allowed between two rows of one table.
MAX_GAP_LINES = 3
#: Lines above a table's header read as its title.
MAX_TITLE_LINES = 4
#: A line above a table with more words is prose, not a title: the title stops below it
#: (a statement's title lines are short; the paragraph introducing a table is not).
MAX_TITLE_WORDS = 12
#: A line of at least this many words ending a sentence with ``.`` or ``!`` is a sentence
#: of its own (:func:`states_fact`), never a table's title.
MIN_SENTENCE_WORDS = 3
#: Lines above a table that qualify it rather than title it (:func:`qualifies_table`) read
#: past on the way up to its title, at most this many (they stay in the title).
MAX_QUALIFIER_LINES = 3
#: Lines above the first row searched for column headers.
MAX_HEADER_LINES = 4
#: Characters allowed between a row's label and a cell, or two cells, in the canonical
#: text once whitespace is removed (``$``, ``%``, a footnote mark).
MAX_CELL_GAP = 3
#: A row starting at most this many points right of a group's label line stands at the
#: label's level: when the group's rows are indented, such a row is out of the group.
INDENT_TOLERANCE = 1.5
#: A line whose words are at least this many times as tall as the page's body text is
#: set in a larger type (:func:`emphasised_lines`).
EMPHASIS_RATIO = 1.2
#: Phrases on consecutive header lines whose left edges, right edges or centres are within
#: this many points are lines of one wrapped header cell (:func:`_wraps`).
WRAP_TOLERANCE = 3.0
#: A page needs at least this many lines with trailing numbers to be looked at.
MIN_NUMERIC_LINES = 4
#: A row of words just under a table's header stands at least this share of the next
#: row's pitch below the header line (:func:`_under_header`); a header cell's wrapped
#: line is set closer.
ROW_PITCH_SHARE = 0.9

_NUMBER = re.compile(r"^[($€£¥]*[-–−]?[$€£¥]?\d[\d,]*(?:\.\d+)?%?\)?[%*]?$|^[-–—−]+$")
#: Where a sentence ends inside a line (``.``, ``:``, ``;``, ``!`` or ``?``, a closing quote
#: or bracket, then a space or the line's end); ``1.0`` is no end, an abbreviation is one.
_SENTENCE_END = re.compile(r"[.:;!?][\"'”’)\]]*(?:\s+|$)")
#: A sentence ending where its line ends.
_LINE_END = re.compile(r"[.:;!?][\"'”’)\]]*\s*$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
#: Currency signs: a sign set apart from its figure (``£   1,234``) is no cell of its own.
CURRENCY_SIGNS = frozenset({"$", "€", "£", "¥"})
_CURRENCY = {*CURRENCY_SIGNS, "%", ")"}
_MONTH = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?$", re.IGNORECASE
)


@dataclass
class Word:
    """A word on a page with its box (PDF points, y up) and whether it is set in bold.

    Attributes:
        text: The word.
        x0: Left edge.
        x1: Right edge.
        y0: Bottom edge.
        y1: Top edge.
        bold: Its first character's font is bold (:func:`is_bold`); OCR words never are.
    """

    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    bold: bool = False

    @property
    def cy(self) -> float:
        """Vertical centre."""
        return (self.y0 + self.y1) / 2


@dataclass
class Line:
    """Words sharing a baseline, left to right.

    Attributes:
        words: Its words.
        breaks: Where drawn vertical rules cross it (PDF points, left to right): a ruled
            table's cell boundaries (:func:`page_rules`), whatever the gap between words.
        ruled_left: A drawn vertical rule crosses it left of its first word.
        ruled_right: A drawn vertical rule crosses it right of its last word.
    """

    words: list[Word]
    breaks: tuple[float, ...] = ()
    ruled_left: bool = False
    ruled_right: bool = False

    @property
    def enclosed(self) -> bool:
        """Rules cross it on both sides of its words: a line of a ruled grid, even one
        whose only cell is its first."""
        return self.ruled_left and self.ruled_right

    def parted(self, left: Word, right: Word) -> bool:
        """Whether a drawn rule stands between two of its words."""
        return any(left.x1 - 1.0 <= x <= right.x0 + 1.0 for x in self.breaks)

    def ruled_cells(self) -> list[list[Word]]:
        """Its words grouped into the cells its drawn rules part (one cell without rules)."""
        cells: list[list[Word]] = []
        for w in self.words:
            if cells and not self.parted(cells[-1][-1], w):
                cells[-1].append(w)
            else:
                cells.append([w])
        return cells

    @property
    def text(self) -> str:
        """The line's words joined by spaces."""
        return " ".join(w.text for w in self.words)

    @property
    def bold(self) -> bool:
        """Every word of the line is set in bold (a header row of a table styled so)."""
        return bool(self.words) and all(w.bold for w in self.words)

    def split(self) -> tuple[list[Word], list[Word]]:
        """``(label words, trailing numeric words)``; currency marks are dropped.

        Where drawn rules part the line (:attr:`breaks`), a cell between two rules is
        whole: its figures are values when it holds figures only (one or more: a rule may
        part groups of columns, ``2,725  18.5 | 2,820  19.4``), and the values stop at a
        cell holding words (the figure ending ``Band 1 (£27.40)`` or ``Economy 7`` is that
        cell's, not a value). The words before the first rule, unless a rule stands left
        of them too, and after the last, unless one stands right of them, are read word by
        word as a line without rules is (a statement ruled only between its value columns).
        """
        cells = [[w for w in c if w.text not in _CURRENCY] for c in self.ruled_cells()]
        values: list[Word] = []
        taken = 0  # words read as values, from the end
        for n in range(len(cells) - 1, -1, -1):
            words = cells[n]
            bounded = (n > 0 or self.ruled_left) and (n < len(cells) - 1 or self.ruled_right)
            if bounded and self.breaks:
                if words and not all(_NUMBER.match(w.text) for w in words):
                    break
                values[:0] = words
                taken += len(words)
                continue
            i = len(words)
            while i > 0 and _NUMBER.match(words[i - 1].text):
                i -= 1
            values[:0] = words[i:]
            taken += len(words) - i
            if i:
                break
        kept = [w for c in cells for w in c]
        return kept[: len(kept) - taken], values


def is_figure(text: str) -> bool:
    """Whether a word is a figure as a value column holds one (``8,214``, ``(1,577)``,
    ``12.5%``, ``£5.20``, ``—``)."""
    return bool(_NUMBER.match(text))


def without_signs_apart(line: Line) -> Line:
    """``line`` without the currency signs set apart from their figures: a sign that is a
    word of its own (:data:`CURRENCY_SIGNS`) followed by a figure (``£   1,234``, ``$ 8,214``,
    the sign left in its cell or a column of its own, as accounting layouts set amounts)
    belongs to that figure and makes no cell; the statement reader drops it the same way
    (:meth:`Line.split`). The line itself is returned when it has none."""
    words = line.words
    kept = [
        w
        for n, w in enumerate(words)
        if not (w.text in CURRENCY_SIGNS and n + 1 < len(words) and is_figure(words[n + 1].text))
    ]
    if len(kept) == len(words):
        return line
    return Line(kept, line.breaks, line.ruled_left, line.ruled_right)


def norm_line(line: str) -> str:
    """A line as running header/footer detection compares it: spaces collapsed, digits as
    ``#``, lower case (:func:`loaders.pdf.running_lines`)."""
    return re.sub(r"\d+", "#", " ".join(line.split())).lower()


#: A font at least this heavy (the PDF font descriptor's weight: 400 regular, 700 bold)
#: is bold.
BOLD_WEIGHT = 600
#: The font descriptor flag of a font drawn bold whatever its glyphs (PDF 32000, 9.8.2).
_FORCE_BOLD = 1 << 18
#: The style part of a PostScript font name naming a bold weight (``Helvetica-Bold``,
#: ``Arial,BoldItalic``, ``ABCDEF+Roboto-SemiBold``, ``TimesNewRomanPS-BoldMT``, ``-Black``).
_BOLD_STYLE = re.compile(r"bold|black|heavy|demi", re.IGNORECASE)


def is_bold(name: str, weight: int, flags: int) -> bool:
    """Whether a font is bold: its descriptor's weight when it has one (at least
    :data:`BOLD_WEIGHT`), its ForceBold flag, or else the style after the family in its
    PostScript name (the 14 standard fonts have no descriptor: ``Helvetica-Bold``).

    Args:
        name: The font's base name, a subset prefix (``ABCDEF+``) allowed.
        weight: Its weight (``0`` or less: unknown).
        flags: Its descriptor flags.
    """
    if weight > 0:
        return weight >= BOLD_WEIGHT
    if flags & _FORCE_BOLD:
        return True
    base = name.rsplit("+", 1)[-1]
    parts = re.split(r"[-,\s]", base, maxsplit=1)
    return len(parts) == 2 and bool(_BOLD_STYLE.search(parts[1]))


class _FontWeights:
    """Whether a character of one pdfium text page is set in a bold font (:func:`is_bold`),
    read once per text object (a run of text in one font) and one buffer for the page."""

    def __init__(self, textpage: Any) -> None:
        import ctypes

        import pypdfium2.raw as pdfium_c

        self._raw = textpage.raw
        self._pdfium = pdfium_c
        self._address = ctypes.addressof
        self._buf = ctypes.create_string_buffer(128)
        self._flags = ctypes.c_int(0)
        self._flags_ref = ctypes.byref(self._flags)
        self._seen: dict[int, bool] = {}

    def bold(self, index: int) -> bool:
        """Whether character ``index`` is set in a bold font."""
        obj = self._pdfium.FPDFText_GetTextObject(self._raw, index)
        key = self._address(obj.contents) if obj else -1
        found = self._seen.get(key)
        if found is None:
            size = self._pdfium.FPDFText_GetFontInfo(
                self._raw, index, self._buf, 128, self._flags_ref
            )
            name = self._buf.value.decode("latin-1") if 0 < size <= 128 else ""
            weight = self._pdfium.FPDFText_GetFontWeight(self._raw, index)
            found = is_bold(name, weight, self._flags.value)
            if key != -1:
                self._seen[key] = found
        return found


def page_words(textpage: Any) -> list[Word]:
    """Words of a pdfium text page (characters joined; spaces and gaps break words), each
    with its first character's weight (:func:`is_bold`)."""
    n = textpage.count_chars()
    if n <= 0:
        return []
    text = textpage.get_text_range(0, n)
    if len(text) != n:  # characters outside the BMP: index mapping unreliable
        text = "".join(textpage.get_text_range(i, 1)[:1] or " " for i in range(n))
    words: list[Word] = []
    cur: list[str] = []
    box = [0.0, 0.0, 0.0, 0.0]
    bold = False
    weights = _FontWeights(textpage)
    for i, ch in enumerate(text):
        if ch.isspace() or ch == "\x00":
            if cur:
                words.append(Word("".join(cur), box[0], box[1], box[2], box[3], bold))
                cur = []
            continue
        left, bottom, right, top = textpage.get_charbox(i, loose=True)
        height = max(top - bottom, 1.0)
        if cur and (
            left - box[1] > 0.3 * height
            or abs((bottom + top) / 2 - (box[2] + box[3]) / 2) > 0.5 * height
        ):
            words.append(Word("".join(cur), box[0], box[1], box[2], box[3], bold))
            cur = []
        if not cur:
            box = [left, right, bottom, top]
            bold = weights.bold(i)
        else:
            box = [min(box[0], left), max(box[1], right), min(box[2], bottom), max(box[3], top)]
        cur.append(ch)
    if cur:
        words.append(Word("".join(cur), box[0], box[1], box[2], box[3], bold))
    return words


#: A drawn path at most this wide (points) and at least :data:`RULE_MIN_HEIGHT` tall is a
#: vertical rule: a ruled table's cell boundary.
RULE_MAX_WIDTH = 2.0
#: ... and at least this tall (points): a cell's height, more than a glyph's stroke.
RULE_MIN_HEIGHT = 8.0
#: Pages with more drawn objects than this are not searched for rules (:func:`page_rules`).
MAX_RULE_OBJECTS = 1500
#: A path object of more segments than this is not searched for the rules of a grid
#: drawn as one path (:func:`_path_rules`): a chart or an outline, not a table's grid.
MAX_PATH_SEGMENTS = 400


Rule = tuple[float, float, float]


def page_rules(page: Any) -> list[Rule]:
    """The vertical rules drawn on a pdfium page, each ``(x, bottom, top)`` in PDF points
    (:func:`page_rule_lines`)."""
    return page_rule_lines(page)[0]


def page_rule_lines(page: Any) -> tuple[list[Rule], list[Rule]]:
    """The vertical rules drawn on a pdfium page, each ``(x, bottom, top)`` in PDF points,
    and its horizontal rules, each ``(y, left, right)``.

    A grid's lines, as report tools draw them, are path objects each as narrow as its
    stroke (or a thin filled rectangle); a stroked path object holding a whole grid (its
    frame and inner lines in one path) is read segment by segment (:func:`_path_rules`).
    A horizontal rule is as flat as a vertical one is narrow, and at least
    :data:`RULE_MIN_HEIGHT` long. A page of more
    than :data:`MAX_RULE_OBJECTS` objects (text drawn a character at a time) is not looked
    at: reading each object's type costs more than the page's words do.
    """
    import ctypes

    import pypdfium2.raw as pdfium_c

    count = pdfium_c.FPDFPage_CountObjects(page.raw)
    if count > MAX_RULE_OBJECTS:
        return [], []
    box = [ctypes.c_float() for _ in range(4)]
    refs = [ctypes.byref(v) for v in box]
    fill, stroke = ctypes.c_int(0), ctypes.c_int(0)
    fill_ref, stroke_ref = ctypes.byref(fill), ctypes.byref(stroke)
    rules: list[Rule] = []
    flat: list[Rule] = []
    for i in range(count):
        obj = pdfium_c.FPDFPage_GetObject(page.raw, i)
        if pdfium_c.FPDFPageObj_GetType(obj) != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        if not pdfium_c.FPDFPageObj_GetBounds(obj, *refs):
            continue
        left, bottom, right, top = (v.value for v in box)
        if right - left <= RULE_MAX_WIDTH and top - bottom >= RULE_MIN_HEIGHT:
            rules.append(((left + right) / 2, bottom, top))
        elif top - bottom <= RULE_MAX_WIDTH and right - left >= RULE_MIN_HEIGHT:
            flat.append(((bottom + top) / 2, left, right))
        elif (
            top - bottom >= RULE_MIN_HEIGHT
            and pdfium_c.FPDFPath_GetDrawMode(obj, fill_ref, stroke_ref)
            and stroke.value
        ):  # a stroked shape: a grid drawn as one path?
            vertical, horizontal = _path_rules(obj, pdfium_c)
            rules += vertical
            flat += horizontal
    return rules, flat


def _path_rules(obj: Any, pdfium_c: Any) -> tuple[list[Rule], list[Rule]]:
    """The vertical and the horizontal rules inside one stroked path object
    (:func:`page_rule_lines` checks it is stroked) drawn as a whole grid (its frame
    and inner lines in one path: a rectangle and line segments), each ``(x, bottom, top)``
    on the page: its straight segments at most :data:`RULE_MAX_WIDTH` wide and at least
    :data:`RULE_MIN_HEIGHT` tall, a closing segment included (and, as ``(y, left,
    right)``, those as flat and as long). Curves and paths of more than
    :data:`MAX_PATH_SEGMENTS` segments (a chart, an outline) are not read."""
    import ctypes

    n = pdfium_c.FPDFPath_CountSegments(obj)
    if not 0 < n <= MAX_PATH_SEGMENTS:
        return [], []
    matrix = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix)):
        return [], []
    m = matrix
    x, y = ctypes.c_float(), ctypes.c_float()
    points: list[tuple[int, bool, float, float]] = []  # (type, closes, x, y) on the page
    for i in range(n):
        seg = pdfium_c.FPDFPath_GetPathSegment(obj, i)
        if not pdfium_c.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y)):
            return [], []
        px, py = m.a * x.value + m.c * y.value + m.e, m.b * x.value + m.d * y.value + m.f
        kind = pdfium_c.FPDFPathSegment_GetType(seg)
        points.append((kind, bool(pdfium_c.FPDFPathSegment_GetClose(seg)), px, py))
    rules: list[Rule] = []
    flat: list[Rule] = []
    start = prev = (0.0, 0.0)
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for kind, closes, px, py in points:
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO:
            start = (px, py)
        elif kind == pdfium_c.FPDF_SEGMENT_LINETO:
            segments.append((prev, (px, py)))
        prev = (px, py)
        if closes and kind != pdfium_c.FPDF_SEGMENT_MOVETO:
            segments.append((prev, start))
            prev = start
    for (x0, y0), (x1, y1) in segments:
        if abs(x1 - x0) <= RULE_MAX_WIDTH and abs(y1 - y0) >= RULE_MIN_HEIGHT:
            rules.append(((x0 + x1) / 2, min(y0, y1), max(y0, y1)))
        elif abs(y1 - y0) <= RULE_MAX_WIDTH and abs(x1 - x0) >= RULE_MIN_HEIGHT:
            flat.append(((y0 + y1) / 2, min(x0, x1), max(x0, x1)))
    return rules, flat


def rule_breaks(lines: list[Line], rules: Sequence[tuple[float, float, float]]) -> None:
    """Set each line's :attr:`Line.breaks` (the rules crossing its words' vertical centre
    between its first word's left edge and its last word's right edge) and
    :attr:`Line.ruled_left` and :attr:`Line.ruled_right` (rules crossing it left and right of
    its words)."""
    for line in lines:
        cy = statistics.median(w.cy for w in line.words)
        x0, x1 = line.words[0].x0, line.words[-1].x1
        crossing = [x for x, lo, hi in rules if lo <= cy <= hi]
        line.breaks = tuple(sorted(x for x in crossing if x0 < x < x1))
        line.ruled_left = any(x <= x0 for x in crossing)
        line.ruled_right = any(x >= x1 for x in crossing)


def join_wrapped_rows(lines: list[Line], horizontal: Sequence[Rule]) -> list[Line]:
    """A block's lines with each row of a ruled grid whose cells wrap onto lines as one line.

    In a grid drawn with its horizontal rules too, a row is the band between two of them:
    consecutive lines enclosed by vertical rules (:attr:`Line.enclosed`), from the first a
    rule parts (:attr:`Line.breaks`) to the last, with no horizontal rule between them
    across their width, are one row whose cells were wrapped onto lines (a manual's narrow
    column); a line of one cell's words (``3.15`` wrapped alone) joins the row above when
    it crosses none of the row's cell boundaries. They become
    one line holding one word per cell: the cell's words line after line, joined by
    spaces (a word its tool broke at the cell's edge, without a hyphen, stays two: see
    ``docs/concepts/structure.md``). A
    grid with no horizontal rule between any two of its lines (rows parted by whitespace
    alone) is left as it is: its lines cannot be told from its rows.

    Args:
        lines: A block's lines, top to bottom, their rules set (:func:`rule_breaks`).
        horizontal: The page's horizontal rules, ``(y, left, right)``
            (:func:`page_rule_lines`).
    """

    def cy(line: Line) -> float:
        return statistics.median(w.cy for w in line.words)

    def parted(a: Line, b: Line) -> bool:
        x0 = min(a.words[0].x0, b.words[0].x0)
        x1 = max(a.words[-1].x1, b.words[-1].x1)
        return any(
            cy(b) < y < cy(a) and left <= x0 + 1 and right >= x1 - 1
            for y, left, right in horizontal
        )

    def fits(line: Line, row: list[Line]) -> bool:
        # the line's words cross no cell boundary of the row but at its own rules
        bounds = [x for ln in row for x in ln.breaks]
        x0, x1 = line.words[0].x0, line.words[-1].x1
        return all(any(abs(x - own) <= 1.0 for own in line.breaks) for x in bounds if x0 < x < x1)

    out: list[Line] = []
    for ruled, run in itertools.groupby(lines, key=lambda ln: ln.enclosed):
        group = list(run)
        parted_lines = [k for k, ln in enumerate(group) if ln.breaks]
        if not ruled or not parted_lines:
            out += group
            continue
        # from the first line a rule parts on (a page's frame encloses the lines above)
        first = parted_lines[0]
        grid = group[first:]
        cuts = [parted(a, b) for a, b in itertools.pairwise(grid)]
        if not any(cuts):  # rows parted by whitespace alone: lines cannot be told from rows
            out += group
            continue
        rows: list[list[Line]] = [[grid[0]]]
        for line, cut in zip(grid[1:], cuts, strict=True):
            if cut or not fits(line, rows[-1]):
                rows.append([line])
            else:
                rows[-1].append(line)
        out += group[:first]
        out += [row[0] if len(row) == 1 else _joined(row) for row in rows]
    return out


def _joined(row: list[Line]) -> Line:
    """A grid row's wrapped lines as one line of one word per cell (see
    :func:`join_wrapped_rows`)."""
    edges = sorted({round(x, 1) for ln in row for x in ln.breaks})
    bounds: list[float] = []
    for x in edges:  # one rule per cell boundary, whatever each line's stroke reads
        if not bounds or x - bounds[-1] > 1.0:
            bounds.append(x)
    cells: dict[int, list[list[Word]]] = {}
    for ln in row:
        for w in ln.words:
            cell = sum(x < w.x0 for x in bounds)
            parts = cells.setdefault(cell, [])
            if parts and parts[-1][-1].cy - w.cy < 0.5 * (w.y1 - w.y0):
                parts[-1].append(w)  # the same line of the cell
            else:
                parts.append([w])
    words: list[Word] = []
    for _cell, parts in sorted(cells.items()):
        flat = [w for part in parts for w in part]
        text = " ".join(w.text for w in flat)
        words.append(
            Word(
                text,
                min(w.x0 for w in flat),
                max(w.x1 for w in flat),
                min(w.y0 for w in flat),
                max(w.y1 for w in flat),
                all(w.bold for w in flat),
            )
        )
    first = row[0]
    return Line(words, tuple(bounds), first.ruled_left, first.ruled_right)


def mixed_grids(lines: Sequence[Line]) -> set[int]:
    """The lines of ruled grids whose value cells mix words and figures (indices).

    A grid is a run of consecutive lines enclosed by drawn rules (:attr:`Line.enclosed`),
    from the first of them that a rule parts to the last (a line of one cell, a group's
    label, inside). Its rules, not the kinds of its words, part its cells; when, at or
    below its first line with a cell of figures after the first (a value), a line has a
    cell of words after the first (``Band 1 (£27.40)``, ``Free``, ``N/A``, ``3 weeks``),
    the grid is not a statement of value columns: the statement reader
    (:func:`read_tables`) leaves it whole to the cell reader (:mod:`loaders.text_tables`),
    which reads each cell between two rules as one, whatever it holds. The header lines
    above the first value are not looked at (column names are words).
    """
    out: set[int] = set()
    for _, run in itertools.groupby(range(len(lines)), key=lambda i: lines[i].enclosed):
        ruled = [i for i in run if lines[i].enclosed and lines[i].breaks]
        if not ruled:
            continue
        # from its first line parted by a rule to its last: a page's border encloses the
        # lines above and below a grid too
        grid = list(range(ruled[0], ruled[-1] + 1))
        values = False
        for i in grid:
            figures = _figure_cells(lines[i])
            values = values or any(figures)
            if values and not all(figures):
                out.update(grid)
                break
    return out


def _figure_cells(line: Line) -> list[bool]:
    """For each of a line's ruled cells after its first (currency marks aside, empty ones
    left out), whether it holds figures only."""
    cells = [[w for w in c if w.text not in _CURRENCY] for c in line.ruled_cells()[1:]]
    return [all(_NUMBER.match(w.text) for w in c) for c in cells if c]


def group_lines(words: list[Word]) -> list[Line]:
    """Words grouped into lines by vertical centre, top to bottom."""
    lines: list[tuple[float, float, list[Word]]] = []
    for w in sorted(words, key=lambda w: -w.cy):
        h = max(w.y1 - w.y0, 1.0)
        if lines and abs(lines[-1][0] - w.cy) <= 0.45 * max(h, lines[-1][1]):
            lines[-1][2].append(w)
        else:
            lines.append((w.cy, h, [w]))
    return [Line(sorted(ws, key=lambda w: w.x0)) for _, _, ws in lines]


def emphasised_lines(lines: Sequence[Line]) -> set[str]:
    """The lines of a page set in a larger type than its body text and than the line under
    them, whitespace collapsed.

    A line whose words' median height is at least :data:`EMPHASIS_RATIO` times the median
    height of the page's words, and of the next line's, stands out as a heading does
    ("Parking Charges" in 14 pt over 10 pt text), whatever follows it
    (:func:`loaders.headings.heading_style`). A block of lines all set large (a press
    release's contact names over their titles) stands out from the page, not from its own
    next line: none of it is emphasised but its last line.

    Args:
        lines: The page's lines, top to bottom.
    """
    heights = [statistics.median(max(w.y1 - w.y0, 1.0) for w in ln.words) for ln in lines]
    if not heights:
        return set()
    body = statistics.median(max(w.y1 - w.y0, 1.0) for ln in lines for w in ln.words)
    return {
        " ".join(ln.text.split())
        for k, (ln, height) in enumerate(zip(lines, heights, strict=True))
        if height >= EMPHASIS_RATIO * body
        and (k + 1 == len(lines) or height >= EMPHASIS_RATIO * heights[k + 1])
    }


@dataclass
class _Column:
    """A value column: the edge its cells share, their extent and how many there are.

    Attributes:
        at: The shared edge (PDF points): the cells' right edge, or their left edge for a
            left-aligned column.
        left: The leftmost cell's left edge.
        right: The rightmost cell's right edge.
        count: Cells in it.
        left_aligned: Its cells share their left edge, not their right one.
    """

    at: float
    left: float
    right: float
    count: int
    left_aligned: bool = False

    def edge(self, word: Word) -> float:
        """The edge of ``word`` that this column's cells share."""
        return word.x0 if self.left_aligned else word.x1


def _clusters(edges: list[tuple[float, float, float]], left_aligned: bool) -> list[_Column]:
    """Edges ``(shared edge, x0, x1)``, sorted, clustered into columns of enough cells."""
    clusters: list[list[tuple[float, float, float]]] = []
    for edge in edges:
        if clusters and edge[0] - clusters[-1][-1][0] <= COLUMN_TOLERANCE:
            clusters[-1].append(edge)
        else:
            clusters.append([edge])
    return [
        _Column(
            sum(e for e, _, _ in c) / len(c),
            min(x0 for _, x0, _ in c),
            max(x1 for _, _, x1 in c),
            len(c),
            left_aligned,
        )
        for c in clusters
        if len(c) >= MIN_COLUMN_ROWS
    ]


def _columns(lines: list[Line]) -> list[_Column]:
    """The page's value columns: numeric cells clustered by their right edges (printed
    figures are right-aligned), or by their left edges when those put at least
    :data:`LEFT_ALIGNED_SHARE` more of the cells in columns (a word processor's default
    alignment: ``£5`` over ``£110.00``; a statement's right-aligned figures of a few widths
    can share a left edge by chance, one or two cells more)."""
    cells = [w for line in lines for w in line.split()[1] if not _YEAR.match(w.text)]
    right = _clusters(sorted((w.x1, w.x0, w.x1) for w in cells), left_aligned=False)
    left = _clusters(sorted((w.x0, w.x0, w.x1) for w in cells), left_aligned=True)
    gain = sum(c.count for c in left) - sum(c.count for c in right)
    return left if gain >= LEFT_ALIGNED_SHARE * len(cells) else right


def _column_of(word: Word, columns: list[_Column]) -> int | None:
    best = min(
        range(len(columns)), key=lambda i: abs(columns[i].at - columns[i].edge(word)), default=None
    )
    if best is None or abs(columns[best].at - columns[best].edge(word)) > 2 * COLUMN_TOLERANCE:
        return None
    return best


def _phrases(words: list[Word], line: Line) -> list[Word]:
    """Words close together merged into phrases (a header such as ``Three Months Ended``),
    never across a drawn rule of ``line`` (their line)."""
    out: list[Word] = []
    for w in words:
        gap = 0.8 * max(w.y1 - w.y0, 1.0)
        if out and w.x0 - out[-1].x1 <= gap and not line.parted(out[-1], w):
            p = out[-1]
            out[-1] = Word(
                f"{p.text} {w.text}",
                p.x0,
                w.x1,
                min(p.y0, w.y0),
                max(p.y1, w.y1),
                p.bold and w.bold,
            )
        else:
            out.append(w)
    return out


@dataclass
class RawTable:
    """A table read from a page's layout, before its rows are found in the canonical text.

    Attributes:
        title: Its title lines joined.
        columns: Its value columns' names.
        rows: ``(group, label, cells, column index of each cell)`` per row.
        lines: The page lines it was read from (other readers skip them).
    """

    title: str
    columns: list[str]
    rows: list[tuple[str, str, list[str], list[int]]]
    lines: range = range(0)


def read_tables(lines: list[Line], running: set[str]) -> list[RawTable]:
    """Tables of one page's lines (see the module docstring, steps 2–4).

    Args:
        lines: The page's lines, top to bottom.
        running: Normalised running header/footer lines (never a title).

    Returns:
        The page's tables in reading order.
    """
    grids = mixed_grids(lines)
    own = [ln for i, ln in enumerate(lines) if i not in grids]
    if sum(1 for ln in own if ln.split()[1]) < MIN_NUMERIC_LINES:
        return []
    columns = _columns(own)
    if not columns:
        return []
    kinds: list[str] = []  # row / years / text / grid (the cell reader's) for each line
    for n, ln in enumerate(lines):
        if n in grids:
            kinds.append("grid")
            continue
        _label, cells = ln.split()
        placed = [_column_of(c, columns) for c in cells]
        dated = any(_MONTH.match(w.text) for w in ln.words)
        if cells and all(
            _YEAR.match(c.text) or (dated and re.match(r"^\d{1,2},?$", c.text)) for c in cells
        ):
            kinds.append("years")
        elif (
            cells
            and sum(p is not None for p in placed) * 2 >= len(cells)
            and placed[-1] is not None
        ):
            kinds.append("row")
        elif word_cells(ln, columns):
            kinds.append("words")  # a label and cells of words set in the value columns
        else:
            kinds.append("text")
    tables: list[RawTable] = []
    i = 0
    used_until = 0
    while i < len(lines):
        if kinds[i] != "row":
            i += 1
            continue
        first = i
        # a row of words just under the header (``Music  N/A  N/A``) is the table's first
        while (
            first - 1 >= used_until
            and kinds[first - 1] == "words"
            and _under_header(lines, first - 1, columns)
        ):
            first -= 1
        last = i
        j = i + 1
        gap = 0
        while j < len(lines) and gap <= MAX_GAP_LINES:
            if kinds[j] == "row":
                last, gap = j, 0
            elif kinds[j] in ("years", "grid"):
                break  # a new header, or a grid of cells: the next table
            else:
                gap += 1
            j += 1
        member = range(first, last + 1)
        used = sorted({p for k in member if kinds[k] == "row" for p in _placed(lines[k], columns)})
        if sum(1 for k in member if kinds[k] == "row") >= 2 and used:
            raw = _assemble(
                lines, kinds, first, last, used, columns, used_until, running, norm_line
            )
            raw.lines = range(first, last + 1)
            tables.append(raw)
        used_until = last + 1
        i = last + 1
    return tables


def word_cells(line: Line, columns: list[_Column]) -> list[tuple[Word, int | None]]:
    """A line read as a row whose value cells are words (``Closed scheme  Not applicable
    Not applicable``, ``Music  N/A  N/A``), or ``[]``.

    Its first phrase (:func:`_phrases`) is the label, ending left of every value column;
    each other phrase holds no figure and is set on a value column's shared edge (its right
    edge within :data:`COLUMN_TOLERANCE` of a right-aligned column's, its left edge of a
    left-aligned one's), one phrase a column: words aligned as the column's figures are,
    not a group's label or a title (one phrase) nor a spanning header (centred over its
    columns). Where such a line is a row is :func:`read_tables`'s: between two rows of a
    table, or just under its header (:func:`_under_header`).

    Returns:
        ``[(label, None), (cell, column index), ...]``, or ``[]``.
    """
    phrases = _phrases([w for w in line.words if w.text not in _CURRENCY], line)
    if len(phrases) < 2 or not columns:
        return []
    label = phrases[0]
    if label.x1 >= min(c.left for c in columns):
        return []
    out: list[tuple[Word, int | None]] = [(label, None)]
    for p in phrases[1:]:
        col = _column_of(p, columns)
        if (
            col is None
            or abs(columns[col].at - columns[col].edge(p)) > COLUMN_TOLERANCE
            or any(ch.isdigit() for ch in p.text)
            or any(c == col for _, c in out)
        ):
            return []
        out.append((p, col))
    return out


def _under_header(lines: Sequence[Line], k: int, columns: list[_Column]) -> bool:
    """Whether line ``k``, a row of words (:func:`word_cells`) just above a table's first
    row, is a row under the table's header rather than the header's own last line: the
    line above it heads the label column too (its first phrase ends left of the value
    columns, others stand over them) and stands at least
    :data:`ROW_PITCH_SHARE` of the pitch from line ``k`` to the next row above it (a header
    cell's wrapped lines are set at the type's leading, closer than rows)."""
    if k < 1 or k + 1 >= len(lines):
        return False
    above = _phrases([w for w in lines[k - 1].words if w.text not in _CURRENCY], lines[k - 1])
    left = min(c.left for c in columns)
    if len(above) < 2 or above[0].x1 >= left or any(ch.isdigit() for ch in above[0].text):
        return False

    def cy(line: Line) -> float:
        return statistics.median(w.cy for w in line.words)

    pitch_above = cy(lines[k - 1]) - cy(lines[k])
    return pitch_above >= ROW_PITCH_SHARE * (cy(lines[k]) - cy(lines[k + 1]))


def _placed(line: Line, columns: list[_Column]) -> list[int]:
    return [p for c in line.split()[1] if (p := _column_of(c, columns)) is not None]


def _assemble(
    lines: list[Line],
    kinds: list[str],
    first: int,
    last: int,
    used: list[int],
    columns: list[_Column],
    floor: int,
    running: set[str],
    norm: Any,
) -> RawTable:
    cols = [columns[u] for u in used]
    spans = [(c.left - 4, c.right + 4) for c in cols]
    pitches = [b.at - a.at for a, b in itertools.pairwise(cols)]
    reach = 0.6 * (min(pitches) if pitches else 60.0)  # how far left a header may reach
    k = first - 1
    placed: dict[int, list[tuple[Word, tuple[int, ...]]]] = {}  # header line -> its names
    loose: dict[int, list[Word]] = {}  # header line -> its phrases over no column
    lead_group: list[Line] = []  # label-only lines between the header and the first row
    seen_header = False
    while k >= max(floor, first - MAX_HEADER_LINES - 2):
        words = [w for w in lines[k].words if w.text not in _CURRENCY]
        phrases = _phrases(words, lines[k])
        over = [p for p in phrases if any(p.x1 >= a and p.x0 <= b for a, b in spans)]
        if norm(lines[k].text) in running or kinds[k] == "grid":
            break
        first_col = min(a for a, _ in spans)
        # a line of wrapped header cells over no column stands over or under one that is
        heads = [
            p for n, p in enumerate(phrases) if not (n == 0 and _heads_labels(p, first_col, reach))
        ]
        stacked = [q for q, _ in placed.get(k + 1, [])] + loose.get(k + 1, [])
        if k - 1 >= floor and not seen_header:
            above = _phrases(
                [w for w in lines[k - 1].words if w.text not in _CURRENCY], lines[k - 1]
            )
            if any(p.x1 >= a and p.x0 <= b for p in above for a, b in spans):
                stacked += above
        if not over and not _in_header(heads, stacked, first_col - reach):
            if seen_header or len(lead_group) >= 2:
                break
            lead_group.insert(0, lines[k])
            k -= 1
            continue
        if min(p.x0 for p in over or heads) < first_col - reach:
            break  # a phrase reaching into the labels' area: a centred title, not a header
        seen_header = True
        named = [
            (
                p,
                tuple(
                    ci
                    for ci, (a, b) in enumerate(spans)
                    if p.x1 >= a and p.x0 <= b and not _ruled_off(p, cols[ci], lines[k])
                ),
            )
            for p in over
        ]
        placed[k] = [(p, where) for p, where in named if where]
        loose[k] = [
            p
            for n, p in enumerate(phrases)
            if (p not in over or any(q is p and not where for q, where in named))
            and not (n == 0 and _heads_labels(p, first_col, reach))
        ]
        k -= 1
    _stack_wrapped(placed, loose)
    header_words: list[list[str]] = [[] for _ in cols]
    for line in sorted(placed):
        for p, where in sorted(placed[line], key=lambda pw: pw[0].x0):
            for ci in where:
                header_words[ci].append(p.text)
    title_extra = [" ".join(p.text for p in loose[line]) for line in sorted(loose) if loose[line]]
    if not seen_header:  # no header lines: the label-only lines above are the title
        k = first - 1
        lead_group = []
    title_lines, k = title_above(
        lines,
        k,
        MAX_TITLE_LINES,
        lambda i: (
            i >= floor and norm(lines[i].text) not in running and kinds[i] not in ("row", "grid")
        ),
    )
    text_above = (
        k >= floor and norm(lines[k].text) not in running and kinds[k] not in ("row", "grid")
    )
    if text_above and not ends_sentence(lines[k].text):  # a paragraph going on below it?
        title_lines = without_paragraph_tail(title_lines)
    names = [" ".join(h) for h in header_words]
    rows: list[tuple[str, str, list[str], list[int]]] = []
    group = GroupScope()
    for ln in lead_group:
        group = group.wrapped(ln.text, ln.words[0].x0)
    label_only = bool(lead_group)  # the previous line was label-only (a wrapped group)
    for k in range(first, last + 1):
        label_words, cells = lines[k].split()
        found = word_cells(lines[k], columns) if kinds[k] == "words" else []
        # a row of words is the table's when each of its cells is in one of its columns
        words_row = bool(found) and all(c in used for _, c in found[1:])
        if words_row:
            label_words, cells = [found[0][0]], [p for p, _ in found[1:]]
        label = " ".join(w.text for w in label_words)
        if kinds[k] != "row" and not words_row:
            if not cells and label:
                x0 = label_words[0].x0
                group = (group if label_only else GroupScope()).wrapped(label, x0)
                label_only = True
            continue
        label_only = False
        if label_words:
            group = group.at_row(label_words[0].x0)
        places = [c for _, c in found[1:]] if words_row else [_column_of(c, columns) for c in cells]
        idx = [used.index(col) if col is not None and col in used else -1 for col in places]
        rows.append((group.text, label, [c.text for c in cells], idx))
    title = " ".join([*title_lines, *title_extra]).strip()
    return RawTable(title, names, rows)


def _ruled_off(phrase: Word, column: _Column, line: Line) -> bool:
    """Whether a drawn rule crossing the header line stands between a header phrase and a
    value column's cells: in a ruled table the phrase names only the columns of its own
    cell, however near the next column's figures come (a tight grid's cells are a few
    points apart)."""
    return any(
        phrase.x1 - 1.0 <= x <= column.left or column.right <= x <= phrase.x0 + 1.0
        for x in line.breaks
    )


def _in_header(phrases: list[Word], stacked: list[Word], left: float) -> bool:
    """Whether a line over no value column is a line of wrapped header cells: each of its
    phrases (the label column's head aside) stands over or under a phrase of the header
    line next to it with the same alignment (:func:`_wraps`: ``New`` over ``members``,
    ``year`` under ``start of``), none reaching
    left of ``left`` into the labels' area (where a title or a group's label starts).

    Args:
        phrases: The line's phrases.
        stacked: The phrases of the header line below it, or of the line above it when
            that one reaches over a value column.
        left: How far left a header phrase may start (PDF points).
    """
    return bool(phrases and stacked) and all(
        p.x0 >= left and any(_wraps(p, q) for q in stacked if q.x0 >= left) for p in phrases
    )


def _wraps(p: Word, q: Word) -> bool:
    """Whether two phrases on consecutive lines can be lines of one wrapped cell: set with
    one alignment, their left edges, right edges or centres within :data:`WRAP_TOLERANCE`
    of each other (a spanning header's line over sub-headers is wider and shares none)."""
    return (
        abs(p.x0 - q.x0) <= WRAP_TOLERANCE
        or abs(p.x1 - q.x1) <= WRAP_TOLERANCE
        or abs((p.x0 + p.x1) - (q.x0 + q.x1)) / 2 <= WRAP_TOLERANCE
    )


def _stack_wrapped(
    placed: dict[int, list[tuple[Word, tuple[int, ...]]]], loose: dict[int, list[Word]]
) -> None:
    """Join the lines of wrapped header cells to the column their other lines name.

    A header cell wrapped onto lines (``New`` / ``members`` / ``joined``, left-aligned in a
    column wider than its right-aligned figures) may have lines that reach over no value
    column; such a phrase standing over or under a phrase naming one column on the next
    header line, set with the same alignment (:func:`_wraps`), is that column's, until no
    phrase is left to join. What is left over no column stays the title's.

    Args:
        placed: Header line index -> its phrases and the columns each names; updated.
        loose: Header line index -> its phrases over no column; those joined are removed.
    """
    changed = True
    while changed:
        changed = False
        for line, phrases in loose.items():
            for p in list(phrases):
                stacked = [
                    (min(p.x1, q.x1) - max(p.x0, q.x0), where)
                    for other in (line - 1, line + 1)
                    for q, where in placed.get(other, [])
                    if len(where) == 1 and _wraps(p, q)
                ]
                if stacked:
                    placed[line].append((p, max(stacked)[1]))
                    phrases.remove(p)
                    changed = True


def _heads_labels(phrase: Word, first_column: float, reach: float) -> bool:
    """Whether the first phrase of a header line, left of the value columns and starting
    in the labels' area (more than ``reach`` left of them: a header cell wrapped over
    right-aligned figures starts nearer), heads the label column (``Activity``,
    ``Source``): words without a figure or a bracket. The title keeps what is not: a
    period (``July 29, 2023``, ``Fiscal 2022``), a unit (``(in millions)``, ``(in per unit
    of award)`` over two lines)."""
    text = phrase.text.strip()
    return (
        phrase.x1 < first_column
        and phrase.x0 < first_column - reach
        and not any(ch.isdigit() or ch in "()[]" for ch in text)
        and not qualifies_table(text)
    )


@dataclass(frozen=True)
class GroupScope:
    """The label-only lines naming the rows below them, and how far down they reach.

    A label-only line inside a table (``Cost of revenue:``, ``Current assets``) names the
    rows under it. Where those rows are indented right of it, the group ends at the first
    row standing back at the label's level or left of it (``Research and development``
    after ``Total cost of revenue``; ``Property, plant and equipment, net`` after ``Total
    current assets``): that row, and the rows after it, are no longer the group's. A group
    whose rows start where it does (no indentation) names every row down to the next
    label-only line, or to a row standing left of it. Geometric, like the rest of this
    module: no list of labels.

    Attributes:
        parts: The group's labels, outermost first, each ``(text, x0)``: its words and
            where it starts (PDF points). Two label-only lines in a row are two parts
            (``Liabilities and equity`` over ``Current liabilities``), unless the second
            starts in lower case, which continues the first (a wrapped label).
        indent: Where its first row's label starts (``None`` before that row).
    """

    parts: tuple[tuple[str, float], ...] = ()
    indent: float | None = None

    @property
    def text(self) -> str:
        """The group's label, its parts joined."""
        return " ".join(text for text, _x0 in self.parts)

    def wrapped(self, text: str, x0: float) -> GroupScope:
        """The group with the next label-only line added.

        Args:
            text: The line's label words.
            x0: Where the line starts (PDF points).
        """
        if self.parts and text[:1].islower():  # a wrapped label goes on: one part
            last, at = self.parts[-1]
            return GroupScope((*self.parts[:-1], (f"{last} {text}", at)))
        return GroupScope((*self.parts, (text, x0)))

    def at_row(self, x0: float) -> GroupScope:
        """The group as it stands for a row whose label starts at ``x0``.

        The first row sets the group's indent; a first row standing left of the innermost
        label ends the whole group (the lines above were no heading of these rows: in the
        filings, a paragraph's line or a header line over them). A later row at or left of
        the innermost label (within :data:`INDENT_TOLERANCE`) when the group's rows are
        indented, or left of it when they are not, keeps only the labels standing left of
        the row: usually none.

        Args:
            x0: Where the row's label starts (PDF points).
        """
        if not self.parts:
            return self
        inner = self.parts[-1][1]
        if self.indent is None:
            if x0 < inner - INDENT_TOLERANCE:  # not even its first row stands under it
                return GroupScope()
            return GroupScope(self.parts, x0)
        indented = self.indent > inner + INDENT_TOLERANCE
        if (indented and x0 <= inner + INDENT_TOLERANCE) or x0 < inner - INDENT_TOLERANCE:
            kept = tuple(p for p in self.parts if p[1] < x0 - INDENT_TOLERANCE)
            return GroupScope(kept, x0 if kept else None)
        return self


#: A scale or unit line: ``(in millions)``, ``In Millions``, ``(Dollars in millions, except
#: per share data)``, ``($ in thousands)``, ``(Amounts in millions)``, ``(Millions)``.
_SCALE_LINE = re.compile(
    r"^\W*(?:(?:u\.?s\.?\s+)?(?:dollars|amounts|[$€£¥]|usd|eur|gbp)\s+)?(?:in\s+)?"
    r"(?:thousands|millions|billions)\s*(?:[),:;]|$|except\b|of\s+(?:u\.?s\.?\s+)?dollars\b)",
    re.IGNORECASE,
)
#: A period line: ``Years Ended December 31,``, ``Fiscal years ended December 25, 2021,
#: December 26, 2020 and December 28, 2019``, ``Three Months Ended``, ``At December 31,``,
#: ``As of June 30,``, ``December 31,``, ``Fiscal Year``.
_PERIOD_LINE = re.compile(
    r"^\W*(?:for\s+the\s+)?(?:(?:fiscal\s+)?(?:years?|quarters?|periods?|(?:three|six|nine|"
    r"twelve|\d{1,2})\s+months?|(?:\d{1,2}|thirteen|twenty-six|thirty-nine|fifty-two|fifty-three)"
    r"\s+weeks?)\s+ended\b|fiscal\s+years?\W*$|(?:at|as\s+of)\s+(?:january|february|march|"
    r"april|may|june|july|august|september|october|november|december)\b|(?:january|february|"
    r"march|april|may|june|july|august|september|october|november|december)\s+\d{1,2},?\W*$)",
    re.IGNORECASE,
)
#: A line of years only (``2021 2020 2019``, ``2020``).
_YEARS_LINE = re.compile(r"^\W*(?:(?:19|20)\d\d\W*)+$")


def title_above(
    lines: Sequence[Line], k: int, max_lines: int, readable: Callable[[int], bool]
) -> tuple[list[str], int]:
    """The title lines of a table read upwards from line ``k`` (both table readers).

    Up to ``max_lines`` lines, stopping at the first line ``readable`` refuses (a row, a
    running header, another table's line, the top) and at a line of prose (more than
    :data:`MAX_TITLE_WORDS` words, or a sentence of its own: :func:`states_fact`); scale,
    unit and period lines (:func:`qualifies_table`, at most :data:`MAX_QUALIFIER_LINES`,
    however long) are read past and kept, counting as no title line.

    Args:
        lines: The page's lines, top to bottom.
        k: The line just above the table's header (or first row).
        max_lines: Most title lines, qualifiers aside.
        readable: Whether line ``i`` may be part of the title.

    Returns:
        The title lines, top first, and the index of the line above them (``k`` where the
        reading stopped).
    """
    title_lines: list[str] = []
    qualifiers = 0
    while k >= 0 and len(title_lines) - qualifiers < max_lines and readable(k):
        text = lines[k].text
        qualifier = qualifiers < MAX_QUALIFIER_LINES and qualifies_table(text)
        if not qualifier and (len(lines[k].words) > MAX_TITLE_WORDS or states_fact(text)):
            break  # a line of the paragraph above the table, not its title
        qualifiers += qualifier
        title_lines.insert(0, text)
        k -= 1
    return title_lines, k


#: A caption's opening: "Table 2", "Figure 3", "Fig. 3", "Chart 1".
_CAPTION_LINE = re.compile(r"(?:table|figure|fig\.|chart|exhibit)\s*\d", re.I)
#: Words a short sentence has and a title rarely does (a verb, an article, a pronoun).
_SENTENCE_WORDS = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "will",
        "can",
        "may",
        "must",
        "do",
        "does",
        "the",
        "a",
        "an",
        "we",
        "our",
        "you",
        "your",
        "it",
        "its",
        "they",
        "their",
        "this",
        "these",
        "there",
    ]
)


def states_fact(line: str) -> bool:
    """Whether a line is a sentence of its own: at least :data:`MIN_SENTENCE_WORDS` words
    ending with ``.`` or ``!`` (:func:`ends_sentence`), not a caption ("Table 2: …"), and,
    under six words, with a verb, article or pronoun after its first word ("Hall hire
    charges 2025." is a title with a full stop). Such a line above a table states a
    fact ("The centre opens every day of the week except public holidays."), which a title
    stated with every row would make the rows outscore; a line ending ``:`` introduces the
    table and may title it, as may a short one (``Fig. 3.``)."""
    text = line.strip()
    if _CAPTION_LINE.match(text):
        return False  # "Table 2: Hall hire charges." names the table
    words = [w.strip("(),;:").lower() for w in text.split()]
    if len(words) < 6 and not _SENTENCE_WORDS.intersection(words[1:]):
        return False  # "Hall hire charges 2025.", "Fees (incl. VAT).": a title with a stop
    return len(words) >= MIN_SENTENCE_WORDS and text[-1:] in ".!" and ends_sentence(text)


def qualifies_table(line: str) -> bool:
    """Whether a line above a table qualifies it (its scale, unit or period) rather than
    naming it: ``(in millions)``, ``Years Ended December 31,``, ``Fiscal years ended
    December 25, 2021, December 26, 2020 and December 28, 2019``, ``2021 2020 2019``.

    Both table readers read past such lines (at most :data:`MAX_QUALIFIER_LINES`, even a
    long period line) to the title above them, so the rows of PepsiCo's cash-flow statement
    are titled "Consolidated Statement of Cash Flows … (in millions)", not "(in millions)".

    Args:
        line: A line of text.

    Returns:
        Whether it is a scale, unit or period line.
    """
    text = line.strip()
    return bool(text) and bool(
        _SCALE_LINE.match(text) or _PERIOD_LINE.match(text) or _YEARS_LINE.match(text)
    )


def after_paragraph(line: str) -> str:
    """What a line below a paragraph adds after the paragraph's last sentence ends.

    The short last line of a paragraph sits just above a table's title lines and continues
    the paragraph's sentence (its first word is in lower case): ``as of December 31, 2018.``
    is not a title, and ``discussion of segment results. (Dollars in millions)`` keeps only
    ``(Dollars in millions)``. A line starting otherwise is returned as it is, a name written
    in mixed case too (``iPhone net sales by region``).

    Args:
        line: A line above a table's column headers.

    Returns:
        The line as it is, what follows its first sentence end, or ``""`` (all of it
        continues the paragraph).
    """
    first = line.split(maxsplit=1)[0] if line.strip() else ""
    letters = [ch for ch in first if ch.isalpha()]
    if not letters or not first[:1].islower() or not all(ch.islower() for ch in letters):
        return line
    end = _SENTENCE_END.search(line)
    return line[end.end() :].strip() if end else ""


def ends_sentence(line: str) -> bool:
    """Whether ``line`` ends with the end of a sentence (``…for the periods indicated:``).

    A paragraph line that ends its sentence has no tail below it: a lower-case line there
    starts something new (``in millions, except per share data``). A period after an
    abbreviation (``the U.S.``, ``Acme Inc.``) ends none.
    """
    end = _LINE_END.search(line)
    if end is None:
        return False
    if line[end.start()] != ".":
        return True
    before = line[: end.start()].split()
    word = before[-1].lstrip("(\"'“‘") if before else ""
    # an abbreviation ends no sentence: "U.S.", "Inc.", "No.", a single letter
    return not ("." in word or (word[:1].isupper() and len(word) <= 3))


def without_paragraph_tail(title_lines: list[str]) -> list[str]:
    """A table's title lines (top first) without the last lines of a paragraph above them.

    Lines continuing a sentence are dropped from the top until one ends it
    (:func:`after_paragraph`): what follows that sentence's end is kept, on its line and
    below. Both table readers (this one and :mod:`loaders.text_tables`) call it when their
    title lines stopped below a line of text (prose, or more lines than a title has) that
    does not end its sentence (:func:`ends_sentence`), never when nothing is above them to
    continue (the page's top, a running header, a table).

    Args:
        title_lines: The lines above a table's header, top first.

    Returns:
        A new list: the lines left, the first one possibly shortened.
    """
    out = list(title_lines)
    while out:
        line = out[0]
        kept = after_paragraph(line)
        if kept == line:
            break
        if kept:
            out[0] = kept
            break
        out.pop(0)
        if _SENTENCE_END.search(line):
            break  # the sentence ended on the line just dropped: what is below is not in it
    return out


def _squeeze(text: str) -> tuple[str, list[int]]:
    """``text`` without whitespace, and each kept character's index in ``text``."""
    keep = [i for i, ch in enumerate(text) if not ch.isspace()]
    return "".join(text[i] for i in keep), keep


def locate_rows(
    raw: RawTable, body: str, offset: int, taken: list[tuple[int, int]]
) -> list[TableRow]:
    """Find a table's rows in a page's canonical text (step 5 of the module docstring).

    Args:
        raw: The table as read from the layout.
        body: The page's canonical text.
        offset: Where ``body`` starts in the document's canonical text.
        taken: Spans (document offsets) already claimed by other rows; updated.

    Returns:
        The rows found, each with a verbatim span.
    """
    squeezed, where = _squeeze(body)
    cursor = 0
    out: list[TableRow] = []
    for group, label, cells, idx in raw.rows:
        found = _find_row(squeezed, label, cells, cursor)
        if found is None:
            found = _find_row(squeezed, label, cells, 0)
        if found is None:
            continue
        a, b = found
        start, end = offset + where[a], offset + where[b - 1] + 1
        if any(s < end and start < e for s, e in taken):
            continue
        taken.append((start, end))
        cursor = b
        names = tuple(raw.columns[i] if 0 <= i < len(raw.columns) else "" for i in idx)
        out.append(TableRow(start, end, label, tuple(cells), names, group))
    return out


def _find_row(squeezed: str, label: str, cells: list[str], cursor: int) -> tuple[int, int] | None:
    """``(start, end)`` in the squeezed text of a row's label and cells in order."""
    parts = ["".join(label.split())] if label.strip() else []
    parts += ["".join(c.split()) for c in cells]
    if not parts:
        return None
    pos = squeezed.find(parts[0], cursor)
    while pos >= 0:
        end = pos + len(parts[0])
        ok = True
        for part in parts[1:]:
            nxt = squeezed.find(part, end, end + MAX_CELL_GAP + len(part))
            if nxt < 0:
                ok = False
                break
            end = nxt + len(part)
        if ok:
            return pos, end
        pos = squeezed.find(parts[0], pos + 1)
    return None

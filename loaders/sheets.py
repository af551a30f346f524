"""Spreadsheet loaders: ``.xlsx`` (openpyxl, values not formulas) and ``.csv`` (stdlib csv).

A sheet is nothing but rows, so each row is a :class:`~loaders.blocks.TableRow` whose cells
carry their column names (from the sheet's header row; a column without a name is called by
its letter, ``C``). The header is the first non-empty row, unless the rows above the table
fill one cell or far fewer cells than it is wide (:func:`header_index`): those leading rows
("Research budget report") are then the table's title, which each row's embedded text
carries, and the header is the first row filling more than half the table's width (or
exactly half, with a fuller row right below it: ``Metric,`` over ``Revenue,100``).

Tables read here have ``source`` ``xlsx`` or ``csv``
(:data:`loaders.chunking.ROW_TABLE_SOURCES`), which :func:`loaders.chunking.chunk_document`
always chunks by row groups, the header names repeated in each group's embedded text
("Region: North; Units sold: 1204"), whatever the global ``--table-rows`` switch says; each
such chunk records its ``sheet`` and ``row_start``/``row_end`` (spreadsheet row numbers),
and citations link to ``#sheet=Sales&rows=12-18``.

**xlsx** canonical text: per visible sheet, its name on a line, any title rows, the header
row, then one line per non-empty row, cells joined by `` | `` (trailing empty cells
dropped); sheets are separated by blank lines. A sheet's segment (``section`` = sheet name)
runs from its first data row to its last, so the name, title and header lines are headings,
not chunk content. Values are the cached results (``data_only=True``), never formulas, shown
with their common number formats (:func:`display_text`: ``1,204``, ``12.5%``), dates in
the cell's format (:func:`date_text`: ``09/01/2027``). Rows under the table filling one
cell with a sentence are its notes (:meth:`_Sheet.notes`): text in a segment of their own,
not rows. When more than one published sheet has title rows, the first sheet's title does
not name the workbook. Hidden and very hidden sheets, hidden rows and hidden columns are not
indexed; their characters count as hidden content. (A hidden column's header cell is blanked
like any other cell of it.)

**csv** canonical text: the decoded file itself (:func:`~loaders.decode.decode_text`), so a
``#char=`` range is a range of the file; the dialect is sniffed (``, ; tab |``; a doubled
quote inside a quoted field is always one quote, as in RFC 4180), unless the first line is
Excel's ``sep=X`` directive, which names the delimiter and is not a row (it is still the
file's record 1, so row numbers stay the file's). One segment runs from the first data
record to the end.

Limits (a sheet larger than this **fails the document** with kind ``too_large``, rather than
being indexed in part, so an answer never rests on a silently cut table): at most
:data:`MAX_SHEET_ROWS` rows (for xlsx: the highest row number) and :data:`MAX_SHEET_CELLS`
cells per sheet (for xlsx counted from the sheet's XML before openpyxl opens the workbook,
as openpyxl would fill each row up to its last cell), and :data:`MAX_TEXT_CHARS` characters
of text per workbook or CSV file (counted cell by cell as the text is built, hidden cells
included); a single CSV field may be as long as that (the csv module's own field limit is
raised to it).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loaders.base import DocumentLoadError, ParsedDocument, Segment
from loaders.blocks import Table, TableRow
from loaders.decode import decode_text
from loaders.metadata import file_title
from loaders.office import TextBuilder, check_office_zip

#: Most rows a sheet may have (for xlsx, its highest row number).
MAX_SHEET_ROWS = 100_000
#: Most cells a sheet may have.
MAX_SHEET_CELLS = 200_000
#: Most characters of text a workbook (all its sheets) or a CSV file may give, checked as the
#: text is built: a few kilobytes of shared strings referenced by every cell would otherwise
#: expand to gigabytes (ingest's own per-document text limit comes only after the parse).
MAX_TEXT_CHARS = 50 * 1024 * 1024
#: Excel's last column (XFD).
MAX_COLUMNS = 16_384
#: Most characters of a CSV file the dialect is guessed from (:class:`csv.Sniffer`'s regular
#: expressions take quadratic time on some inputs: half a minute for 64 KiB of ``,"``).
SNIFF_CHARS = 4096
#: How many of a sheet's first non-empty rows the header is looked for in
#: (:func:`header_index`); the rows above it are the table's title.
HEADER_SCAN_ROWS = 20
CELL_SEP = " | "
# A CSV field is never longer than its file's text, which is at most MAX_TEXT_CHARS (checked
# before parsing), so that is the csv module's field limit here (its default, 131,072, failed
# a whole file over one long cell). The limit is process-global: it is raised once, at
# import, never lowered (saving and restoring it around a parse would race between threads
# loading files at once), and nothing else in the project reads CSV.
csv.field_size_limit(max(csv.field_size_limit(), MAX_TEXT_CHARS))
_WS = re.compile(r"\s+")
_CELL_REF = re.compile(r"([A-Z]{1,3})(\d+)")
_X = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def cell_text(value: Any) -> str:
    """A cell value as text: numbers without a spurious ``.0``, dates in ISO form."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.15g}"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return duration_text(value, None)
    return _WS.sub(" ", str(value)).strip()


_ELAPSED = re.compile(r"\[(h+|m+|s+)\]")
_QUOTED = re.compile(r'"[^"]*"|\\.')


def duration_text(value: dt.timedelta, number_format: str | None) -> str:
    """A duration (a cell in an elapsed-time format) as a spreadsheet shows it.

    ``[h]:mm`` -> ``30:15``, ``[h]:mm:ss`` -> ``30:15:00``, ``[mm]:ss`` -> ``1815:00``: the
    bracketed unit counts the whole duration, seconds are shown only when the format has
    them (always without a format), rounded to the second. Literal text in the format is
    left out.

    Args:
        value: The duration.
        number_format: The cell's number format (``None`` or ``General``: ``h:mm:ss``).

    Returns:
        The duration as shown, ``-`` leading a negative one.
    """
    fmt = _QUOTED.sub("", (number_format or "").split(";")[0]).lower()
    seconds = round(abs(value.total_seconds()))
    sign = "-" if value.total_seconds() < 0 and seconds else ""
    unit = _ELAPSED.search(fmt)
    lead = unit.group(1)[0] if unit else "h"
    if lead == "s":
        return f"{sign}{seconds}"
    minutes, secs = divmod(seconds, 60)
    show_seconds = "s" in fmt or not unit
    if lead == "m":
        return f"{sign}{minutes}" + (f":{secs:02d}" if show_seconds else "")
    hours, mins = divmod(minutes, 60)
    return f"{sign}{hours}:{mins:02d}" + (f":{secs:02d}" if show_seconds else "")


_FMT_TOKEN = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]|[_*].|[#0,.%]+|.', re.S)
_PLAIN_NUMBER_FMT = re.compile(r"[#0,]*0(?:\.(0+))?%?")


def _literal(token: str) -> str:
    """What a non-numeric token of a number format prints."""
    if token.startswith('"'):
        return token[1:-1]
    if token.startswith("\\"):
        return token[1:]
    if token.startswith("[$"):  # [$€-407]: a currency symbol and a locale
        return token[2:-1].split("-", 1)[0]
    if token.startswith(("[", "_", "*")):  # colours, conditions, spacing, fill
        return ""
    return token


_DATE_TOKEN = re.compile(
    r'"[^"]*"|\\.|\[[^\]]*\]|AM/PM|am/pm|A/P|a/p|\.0+|[_*].|y+|Y+|m+|M+|d+|D+|h+|H+|s+|S+|.', re.S
)
#: Excel's built-in short date (number format 14), shown in the reader's locale: written
#: ``mm-dd-yy`` in the file whatever the locale, so it is left in ISO form, unambiguous.
_LOCALE_DATE = "mm-dd-yy"
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def date_text(value: dt.date | dt.time, number_format: str | None) -> str:
    """A date or time as a spreadsheet shows it in its number format (``dd/mm/yyyy`` ->
    ``09/01/2027``, ``d mmm yyyy`` -> ``9 Jan 2027``, ``dddd d mmmm`` -> ``Saturday 9
    January``, ``h:mm AM/PM`` -> ``2:30 PM``), so a quote reads as the cell does.

    ``m`` is the minute after an hour or before a second, else the month; literal text,
    quoted or escaped, is kept; colours, conditions and locales (``[$-809]``) print nothing.
    A format without date or time parts, ``General``, and Excel's locale-dependent short
    date (:data:`_LOCALE_DATE`) give the ISO form (:func:`cell_text`).
    """
    fmt = (number_format or "").split(";")[0]
    if not fmt or fmt.lower() in ("general", _LOCALE_DATE):
        return cell_text(value)
    tokens = _DATE_TOKEN.findall(fmt)
    kinds = [t[0].lower() if t[0].lower() in "ymdhs" and t.isalpha() else "" for t in tokens]
    if not any(kinds):
        return cell_text(value)
    when = value if isinstance(value, dt.datetime) else None
    day = value if isinstance(value, dt.date) else None
    clock = when.time() if when else (value if isinstance(value, dt.time) else dt.time(0))
    twelve = any(t.lower() in ("am/pm", "a/p") for t in tokens)
    out: list[str] = []
    for i, (tok, kind) in enumerate(zip(tokens, kinds, strict=True)):
        n = len(tok)
        if kind == "m":
            before = next((k for k in reversed(kinds[:i]) if k), "")
            after = next((k for k in kinds[i + 1 :] if k), "")
            kind = "M" if n <= 2 and (before == "h" or after == "s") else "m"
        if kind in ("y", "m", "d") and day is None:
            return cell_text(value)
        if kind == "y":
            assert day is not None
            out.append(f"{day.year:04d}" if n > 2 else f"{day.year % 100:02d}")
        elif kind == "m":
            assert day is not None
            month = day.month
            out.append(
                [f"{month}", f"{month:02d}", _MONTHS[month - 1][:3], _MONTHS[month - 1]][
                    min(n, 4) - 1
                ]
                if n <= 4
                else _MONTHS[month - 1][0]
            )
        elif kind == "d":
            assert day is not None
            names = _DAYS[day.weekday()]
            out.append([f"{day.day}", f"{day.day:02d}", names[:3], names][min(n, 4) - 1])
        elif kind == "h":
            hour = (clock.hour % 12 or 12) if twelve else clock.hour
            out.append(f"{hour:02d}" if n >= 2 else f"{hour}")
        elif kind == "M":
            out.append(f"{clock.minute:02d}" if n >= 2 else f"{clock.minute}")
        elif kind == "s":
            out.append(f"{clock.second:02d}" if n >= 2 else f"{clock.second}")
        elif tok.lower() == "am/pm":
            out.append("AM" if clock.hour < 12 else "PM")
        elif tok.lower() == "a/p":
            out.append("A" if clock.hour < 12 else "P")
        elif tok.startswith(".0"):
            continue  # fractions of a second
        else:
            out.append(_literal(tok))
    return "".join(out).strip()


def display_text(value: Any, number_format: str | None) -> str:
    """A cell as a spreadsheet shows it, for the common number formats.

    Thousands separators (``#,##0`` -> ``1,204``), fixed decimals (``0.00``), percentages
    (``0.0%`` -> ``12.5%``) and literal text around the number (``"$"#,##0.00`` ->
    ``$1,234.50``) are applied; anything else (scientific, fractions, scaling, ``General``)
    falls back to :func:`cell_text`. Dates are already dates (openpyxl reads date-formatted
    numbers as such), shown in their format by :func:`date_text`; durations are shown by
    :func:`duration_text`.
    """
    if isinstance(value, dt.timedelta):
        return duration_text(value, number_format)
    if isinstance(value, dt.date | dt.time):
        return date_text(value, number_format)
    if isinstance(value, bool) or not isinstance(value, int | float) or not number_format:
        return cell_text(value)
    tokens = _FMT_TOKEN.findall(number_format.split(";")[0])
    numeric = [i for i, t in enumerate(tokens) if t[0] in "#0,.%" and any(ch in t for ch in "#0")]
    if len(numeric) != 1:
        return cell_text(value)
    core = tokens[numeric[0]]
    m = _PLAIN_NUMBER_FMT.fullmatch(core)
    if not m:
        return cell_text(value)
    percent = core.endswith("%")
    decimals = len(m.group(1) or "")
    comma = "," if "," in core else ""
    shown = abs(value) * 100 if percent else abs(value)
    number = f"{shown:{comma}.{decimals}f}" + ("%" if percent else "")
    prefix = "".join(_literal(t) for t in tokens[: numeric[0]])
    suffix = "".join(_literal(t) for t in tokens[numeric[0] + 1 :])
    sign = "-" if value < 0 and number.strip("0.,%") else ""
    return f"{sign}{prefix}{number}{suffix}".strip()


def column_letter(index: int) -> str:
    """1 -> ``A``, 27 -> ``AA``."""
    out = ""
    while index > 0:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


def _column_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def header_index(filled: list[int], numbers: list[int] | None = None) -> int:
    """Which of a sheet's first non-empty rows is its header; the rows above it are a title.

    The table's typical width is the most common count of filled cells among the rows that
    fill two or more (ties: the wider; 1 when none does, a one-column sheet). The header is
    the first row that fills more than half of that width, so leading rows filling one cell
    ("Research budget report") or far fewer than the table below are a title or preamble,
    while a normal sheet's header, its first non-empty row, stays the header. A row filling
    exactly half of it (one cell of a two-column table: ``Metric,`` over ``Revenue,100``) is
    the header when the row right below it (``numbers``: the rows' numbers) fills more than
    it; a title line is followed by another title line or a blank row.

    Args:
        filled: The number of filled cells of each of the first non-empty rows, in order
            (at most :data:`HEADER_SCAN_ROWS` of them).
        numbers: Their row numbers (``None``: a half-filled row is never the header).

    Returns:
        The index of the header row in ``filled`` (0 for an empty list).

    Raises:
        ValueError: For a count below 1 (an empty row is no candidate), or ``numbers`` of
            another length.
    """
    if any(n < 1 for n in filled):
        raise ValueError(f"filled-cell counts must be at least 1, got {filled}")
    if numbers is not None and len(numbers) != len(filled):
        raise ValueError(f"numbers must match filled: {len(numbers)} != {len(filled)}")
    wide = Counter(n for n in filled if n >= 2)
    width = max(wide, key=lambda n: (wide[n], n)) if wide else 1
    for i, n in enumerate(filled):
        if 2 * n > width:
            return i
        if (
            2 * n == width
            and numbers is not None
            and i + 1 < len(filled)
            and numbers[i + 1] == numbers[i] + 1
            and filled[i + 1] > n
        ):
            return i
    return 0


@dataclass
class _Sheet:
    """What a sheet's rows give the canonical text.

    The first :data:`HEADER_SCAN_ROWS` non-empty rows wait in ``pending`` until the header is
    chosen among them (:func:`header_index`); the rows above it make the table's ``title``.
    Rows are written to ``builder`` (xlsx), or, given their span in the file (csv), not
    written at all.
    """

    builder: TextBuilder | None
    name: str
    source: str
    header: list[str] | None = None
    rows: list[TableRow] = field(default_factory=list)
    header_span: tuple[int, int] | None = None
    titles: list[str] = field(default_factory=list)
    pending: list[tuple[int, list[str], tuple[int, int] | None]] = field(default_factory=list)
    pending_chars: int = 0
    lines: int = 0

    def add_row(self, number: int, cells: list[str], span: tuple[int, int] | None = None) -> None:
        """Take a non-empty row (``span``: where it is in the file, when not written here)."""
        if self.header is not None:
            self._data_row(number, cells, span)
            return
        self.pending.append((number, cells, span))
        self.pending_chars += sum(len(c) for c in cells)
        if len(self.pending) >= HEADER_SCAN_ROWS:
            self.finish()

    def finish(self) -> None:
        """Choose the header among the waiting rows and write them (at the sheet's end, or
        once :data:`HEADER_SCAN_ROWS` rows wait)."""
        pending, self.pending, self.pending_chars = self.pending, [], 0
        if not pending:
            return
        at = header_index(
            [sum(1 for c in cells if c) for _, cells, _ in pending], [n for n, _, _ in pending]
        )
        for _, cells, span in pending[:at]:
            self._place(cells, span)
            self.titles.append(" ".join(c for c in cells if c))
        _, cells, span = pending[at]
        self.header = [c or column_letter(i + 1) for i, c in enumerate(cells)]
        self.header_span = self._place(cells, span)
        for number, cells, span in pending[at + 1 :]:
            self._data_row(number, cells, span)

    def _place(self, cells: list[str], span: tuple[int, int] | None) -> tuple[int, int]:
        """Where a row is: ``span`` as given, else where it is written, on a line of its own."""
        if span is not None:
            return span
        if self.builder is None:
            raise ValueError(f"a row of sheet {self.name!r} needs its span: nothing writes it")
        if self.lines:
            self.builder.add("\n")
        self.lines += 1
        return self.builder.add(CELL_SEP.join(cells))

    def _data_row(self, number: int, cells: list[str], span: tuple[int, int] | None) -> None:
        start, end = self._place(cells, span)
        self.rows.append(self.row(start, end, number, cells))

    def row(self, start: int, end: int, number: int, cells: list[str]) -> TableRow:
        """A row with the header's names for its non-empty cells."""
        header = self.header or []
        names = [header[i] if i < len(header) else column_letter(i + 1) for i in range(len(cells))]
        pairs = [(n, c) for n, c in zip(names, cells, strict=True) if c]
        return TableRow(
            start, end, "", tuple(c for _, c in pairs), tuple(n for n, _ in pairs), number=number
        )

    def notes(self) -> tuple[int, int] | None:
        """Take the sheet's trailing notes out of its rows and return their span.

        A note is a row under the table filling one cell with a sentence or more (at least
        :data:`NOTE_WORDS` words: ``Deposits are five weeks' rent. All viewings by
        appointment.``) in a table at least :data:`NOTE_MIN_COLUMNS` columns wide; only the
        rows after the last row filling two cells or more, so a group label inside the table
        stays a row. Call :meth:`finish` first, and before :meth:`table`.
        """
        if len(self.header or []) < NOTE_MIN_COLUMNS:
            return None
        k = len(self.rows)
        while k > 0 and _is_note(self.rows[k - 1]):
            k -= 1
        if k == len(self.rows) or k == 0:
            return None
        notes, self.rows = self.rows[k:], self.rows[:k]
        return notes[0].start, notes[-1].end

    def table(self) -> Table | None:
        """The sheet's table (``None`` without data rows); call :meth:`finish` first."""
        if not self.rows:
            return None
        return Table(
            self.rows[0].start,
            self.rows[-1].end,
            "; ".join(self.titles),
            list(self.header or []),
            self.rows,
            source=self.source,
        )


#: A note under a sheet's table has at least this many words in its one cell ...
NOTE_WORDS = 6
#: ... in a table at least this many columns wide.
NOTE_MIN_COLUMNS = 3


def _is_note(row: TableRow) -> bool:
    """Whether a row is a note: one cell filled, with a sentence (:data:`NOTE_WORDS` words
    or more, mostly words)."""
    if len(row.cells) != 1:
        return False
    words = re.findall(r"[^\W\d_][\w'’-]*", row.cells[0])
    return len(words) >= NOTE_WORDS and len(words) * 2 > len(row.cells[0].split())


def _too_much_text(name: str) -> DocumentLoadError:
    return DocumentLoadError(
        f"{name}: over {MAX_TEXT_CHARS} characters of text, the limit per workbook or CSV file",
        kind="too_large",
    )


def _too_large(name: str, sheet: str, what: str, count: int, limit: int) -> DocumentLoadError:
    where = f"sheet {sheet!r}" if sheet else "the file"
    return DocumentLoadError(
        f"{name}: {where} has {count} {what}, over the limit of {limit} per sheet",
        kind="too_large",
    )


@dataclass
class _SheetScan:
    """What the pre-scan of a worksheet's XML found."""

    hidden_rows: set[int] = field(default_factory=set)
    hidden_columns: set[int] = field(default_factory=set)
    last_row: int = 0
    cells: int = 0
    #: Formula cells without a saved result (openpyxl reads them as empty).
    uncalculated: int = 0


def _scan_sheet_xml(name: str, sheet: str, zf: zipfile.ZipFile, part: str) -> _SheetScan:
    """Hidden rows and columns, highest row number and cell count of a worksheet part.

    Cells are counted as openpyxl would produce them: each row filled up to its last cell.

    Raises:
        DocumentLoadError: ``too_large`` past :data:`MAX_SHEET_ROWS` / :data:`MAX_SHEET_CELLS`.
    """
    scan = _SheetScan()
    row_no = 0
    with zf.open(part) as fh:
        for _event, el in ET.iterparse(fh, events=("end",)):
            if el.tag == _X + "col" and el.get("hidden", "0").lower() in ("1", "true"):
                low, high = int(el.get("min", "1")), int(el.get("max", "1"))
                scan.hidden_columns.update(range(max(1, low), min(high, MAX_COLUMNS) + 1))
            elif el.tag == _X + "row":
                r = el.get("r")
                row_no = int(r) if r and r.isdigit() else row_no + 1
                last_col = 0
                for i, c in enumerate(el.iter(_X + "c"), start=1):
                    m = _CELL_REF.match(c.get("r", ""))
                    last_col = max(last_col, _column_index(m.group(1)) if m else i)
                    # no saved value: never calculated (openpyxl writes an empty <v>); a
                    # formula whose result is "" has an empty <v> of type str in Excel's
                    if c.find(_X + "f") is not None and c.get("t") != "str":
                        saved = c.find(_X + "v")
                        scan.uncalculated += saved is None or not (saved.text or "").strip()
                if el.get("hidden", "0").lower() in ("1", "true"):
                    scan.hidden_rows.add(row_no)
                scan.last_row = max(scan.last_row, row_no)
                scan.cells += last_col
                if scan.last_row > MAX_SHEET_ROWS:
                    raise _too_large(name, sheet, "rows", scan.last_row, MAX_SHEET_ROWS)
                if scan.cells > MAX_SHEET_CELLS:
                    raise _too_large(name, sheet, "cells", scan.cells, MAX_SHEET_CELLS)
                el.clear()
    return scan


def load_xlsx(path: Path, data: bytes) -> ParsedDocument:
    """Load an Excel workbook (values as last calculated, never formulas).

    Args:
        path: The file's path.
        data: The file's bytes.

    Returns:
        The parsed document (``file_type`` ``xlsx``).

    Raises:
        DocumentLoadError: For an unsafe or unreadable workbook, or a sheet over the limits.
    """
    zf = check_office_zip(path, data)
    import openpyxl

    try:
        # the limits first: openpyxl reads a whole sheet to size it when it has no
        # <dimension> (20 s for a million rows), before any row of it could be refused
        scans = _scan_workbook(path.name, zf)
        try:
            wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:
            raise DocumentLoadError(f"{path.name}: unreadable Excel workbook ({exc})") from exc
        try:
            doc = _read_workbook(path, zf, wb, openpyxl.__version__, scans)
            title = (wb.properties.title or "").strip() if wb.properties else ""
            if title:
                doc.title, doc.title_source = title, "office_title"
            return doc
        finally:
            wb.close()
    finally:
        zf.close()


_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_R = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def _scan_workbook(name: str, zf: zipfile.ZipFile) -> dict[str, _SheetScan]:
    """:func:`_scan_sheet_xml` of every sheet the workbook part lists, by part name.

    (Its XML parts passed :func:`~loaders.office.check_office_zip`: no DTD in any.) A sheet
    that cannot be found here is scanned later, when openpyxl has opened it.

    Raises:
        DocumentLoadError: ``too_large`` past :data:`MAX_SHEET_ROWS` / :data:`MAX_SHEET_CELLS`.
    """
    try:
        book = ET.fromstring(zf.read("xl/workbook.xml"))
        rels = ET.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
    except (KeyError, ET.ParseError):
        return {}
    targets = {r.get("Id"): r.get("Target", "") for r in rels.iter(_PKG_R + "Relationship")}
    scans: dict[str, _SheetScan] = {}
    for sheet in book.iter(_X + "sheet"):
        target = targets.get(sheet.get(_R + "id"), "")
        part = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
        if not target or part not in zf.namelist():
            continue
        try:
            scans[part] = _scan_sheet_xml(name, sheet.get("name", ""), zf, part)
        except ET.ParseError:
            continue  # said again, with the sheet's title, when openpyxl reads it
    return scans


def _read_workbook(
    path: Path, zf: zipfile.ZipFile, wb: Any, version: str, scans: dict[str, _SheetScan]
) -> ParsedDocument:
    out = TextBuilder()
    segments: list[Segment] = []
    tables: list[Table] = []
    hidden_chars = 0
    hidden_sheets: list[str] = []
    uncalculated = 0
    first_title: str | None = None  # set at the first published sheet ("" without a title row)
    titled: list[str] = []  # the published sheets with title rows of their own
    for ws in wb.worksheets:
        part = getattr(ws, "_worksheet_path", None)
        scan = _SheetScan()
        if part in scans:
            scan = scans[part]
        elif part:
            try:
                scan = _scan_sheet_xml(path.name, ws.title, zf, part)
            except (ET.ParseError, KeyError) as exc:
                reason = f"{path.name}: sheet {ws.title!r} unreadable ({exc})"
                raise DocumentLoadError(reason) from exc
        ws.reset_dimensions()
        sheet_hidden = ws.sheet_state != "visible"
        if sheet_hidden:
            hidden_sheets.append(ws.title)
        else:
            uncalculated += scan.uncalculated
        mark = out.pos
        out.gap()
        out.add(ws.title)
        out.add("\n")
        sheet = _Sheet(out, ws.title, "xlsx")
        for number, row in enumerate(ws.iter_rows(min_row=1), start=1):
            cells = []
            read = out.pos + hidden_chars + sheet.pending_chars
            for c in row:
                cells.append(display_text(c.value, c.number_format))
                read += len(cells[-1])
                if read > MAX_TEXT_CHARS:  # before the row is joined: one row can be huge
                    raise _too_much_text(path.name)
            while cells and not cells[-1]:
                cells.pop()
            if not cells:
                continue
            if sheet_hidden or number in scan.hidden_rows:
                hidden_chars += sum(len(c) for c in cells)
                continue
            if scan.hidden_columns:
                hidden_chars += sum(
                    len(c) for i, c in enumerate(cells, 1) if i in scan.hidden_columns
                )
                cells = ["" if i in scan.hidden_columns else c for i, c in enumerate(cells, 1)]
                while cells and not cells[-1]:
                    cells.pop()
                if not cells:
                    continue
            sheet.add_row(number, cells)
        sheet.finish()
        if sheet_hidden or sheet.header is None:
            out.truncate(mark)
            continue
        if first_title is None:  # the first published sheet's title row, if it has one
            first_title = sheet.titles[0] if sheet.titles else ""
        notes = sheet.notes()
        table = sheet.table()
        if table is not None:
            tables.append(table)
            segments.append(Segment(table.start, table.end, section=ws.title))
        elif sheet.header_span is not None:
            segments.append(Segment(*sheet.header_span, section=ws.title))
        if notes is not None:
            segments.append(Segment(*notes, section=ws.title))
        if sheet.titles:
            titled.append(ws.title)
    warnings = []
    if hidden_sheets:
        warnings.append(f"left out hidden sheets: {', '.join(hidden_sheets)}")
    if hidden_chars:
        warnings.append(f"left out {hidden_chars} characters of hidden sheets and rows")
    if uncalculated:
        warnings.append(
            f"{uncalculated} formula cell(s) have no saved result and read as empty: the "
            "workbook was written by a program that does not calculate formulas (open and "
            "save it in Excel or LibreOffice to store their values)"
        )
    if len(titled) > 1:
        first_title = ""  # each sheet has its own title: the first one's names no other sheet
    return ParsedDocument(
        text=out.text(),
        segments=segments,
        tables=tables,
        title=first_title or file_title(path.name),
        title_source="first_heading" if first_title else "file_name",
        first_heading=first_title or None,
        file_type="xlsx",
        parser=f"citerag.xlsx/1 (openpyxl {version}, values only)",
        hidden_chars=hidden_chars,
        warnings=warnings,
    )


def _records(text: str, dialect: Any) -> Iterator[tuple[int, int, list[str]]]:
    """CSV records with their ``[start, end)`` in ``text`` (line end excluded)."""
    consumed = 0

    def lines() -> Iterator[str]:
        # only CR, LF and CRLF end a line, as in a file opened with newline="" (what
        # csv.reader expects); str.splitlines also splits at form feeds, U+2028, ...
        nonlocal consumed
        for line in io.StringIO(text, newline=""):
            consumed += len(line)
            yield line

    start = 0
    for record in csv.reader(lines(), dialect):
        end = consumed
        span_end = end
        while span_end > start and text[span_end - 1] in "\r\n":
            span_end -= 1
        yield start, span_end, record
        start = end


#: Excel's ``sep=X`` first line, which names the delimiter (Excel writes and reads it; the
#: line itself is not a row).
_SEP_DIRECTIVE = re.compile(r"sep=([^\r\n\"])[ \t]*(?:\r\n|\r|\n|\Z)", re.I)


def _sniff_sample(text: str) -> str:
    """The start of ``text`` the dialect is guessed from: at most :data:`SNIFF_CHARS`
    characters, cut after the last line end in them (if any)."""
    if len(text) <= SNIFF_CHARS:
        return text
    sample = text[:SNIFF_CHARS]
    cut = max(sample.rfind("\n"), sample.rfind("\r"))
    return sample[: cut + 1] if cut > 0 else sample


def load_csv(path: Path, data: bytes) -> ParsedDocument:
    """Load a CSV file; its decoded text is the canonical text.

    Args:
        path: The file's path.
        data: The file's bytes.

    Returns:
        The parsed document (``file_type`` ``csv``).

    Raises:
        DocumentLoadError: For binary junk, a malformed file, or one over the limits.
    """
    text = decode_text(data, path)
    if len(text) > MAX_TEXT_CHARS:
        raise _too_much_text(path.name)
    directive = _SEP_DIRECTIVE.match(text)
    data_from = directive.end() if directive else 0  # the directive line is no row
    dialect: Any
    if directive:
        dialect = type("_ExcelSep", (csv.excel,), {"delimiter": directive.group(1)})
    else:
        try:
            dialect = csv.Sniffer().sniff(_sniff_sample(text), delimiters=",;\t|")
            # the sniffer says doublequote=False whenever its sample holds no "" (most
            # samples); a quote doubled inside a quoted field further down is still one quote
            dialect.doublequote = True
        except csv.Error:
            dialect = csv.excel
    sheet = _Sheet(None, "", "csv")  # positions come from the text itself
    cells_total = 0
    try:
        for number, (start, end, record) in enumerate(_records(text, dialect), start=1):
            if number > MAX_SHEET_ROWS:
                raise _too_large(path.name, "", "rows", number, MAX_SHEET_ROWS)
            cells_total += len(record)
            if cells_total > MAX_SHEET_CELLS:
                raise _too_large(path.name, "", "cells", cells_total, MAX_SHEET_CELLS)
            if start < data_from:
                continue
            cells = [_WS.sub(" ", c).strip() for c in record]
            while cells and not cells[-1]:
                cells.pop()
            if not cells:
                continue
            sheet.add_row(number, cells, (start, end))
    except csv.Error as exc:
        raise DocumentLoadError(f"{path.name}: malformed CSV ({exc})") from exc
    sheet.finish()
    notes = sheet.notes()
    table = sheet.table()
    segments: list[Segment] = []
    tables: list[Table] = []
    if table is not None:
        tables.append(table)
        segments.append(Segment(table.start, table.end))
    elif sheet.header_span is not None:
        segments.append(Segment(*sheet.header_span))
    if notes is not None:
        segments.append(Segment(*notes))
    return ParsedDocument(
        text=text,
        segments=segments,
        tables=tables,
        title=file_title(path.name),
        file_type="csv",
        parser=f"citerag.csv/1 (csv, delimiter {getattr(dialect, 'delimiter', ',')!r})",
    )

"""PowerPoint loader (``.pptx``, python-pptx): one segment per slide, speaker notes included.

Each slide becomes one segment whose ``page`` is the slide number (citations link to
``#slide=N``) and whose ``section`` is the slide's title (``Slide N`` when it has none). A
slide's canonical text is its title, then the text of its other shapes in slide order (a
shape's paragraphs one a line, shapes separated by blank lines, group shapes read through,
a SmartArt diagram's nodes one a line),
tables one line per row with cells joined by `` | `` (the first row names the columns, the
others are :class:`~loaders.blocks.TableRow` s), and last its speaker notes on a line opened
by ``Notes:`` so a quote from them is recognisably a note. Slides are separated by blank
lines.

Hidden slides (``show="0"``) are not indexed; their characters count as hidden content.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loaders.base import DocumentLoadError, ParsedDocument, Segment
from loaders.blocks import Table, TableRow
from loaders.metadata import file_title
from loaders.office import TextBuilder, check_office_zip
from loaders.sheets import display_text

NOTES_LABEL = "Notes: "
CELL_SEP = " | "
_WS = re.compile(r"[ \t\v\f\r\u000b]+")


def _clean(text: str) -> str:
    return _WS.sub(" ", text).strip()


_DGM = "{http://schemas.openxmlformats.org/drawingml/2006/diagram}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _diagram_text(shape: Any) -> str:
    """The text of a SmartArt diagram (a graphic frame pointing at a diagram data part):
    its nodes' paragraphs, one a line, in the data's order; ``""`` for any other frame.

    (The package's XML parts passed :func:`~loaders.office.check_office_zip`: no DTD.)
    """
    rel = next(shape._element.iter(_DGM + "relIds"), None)
    rid = None if rel is None else rel.get(_R + "dm")
    if not rid:
        return ""
    try:
        root = ET.fromstring(shape.part.related_part(rid).blob)
    except Exception:  # a missing, external or malformed diagram part: skip the diagram
        return ""
    lines = []
    for point in root.iter(_DGM + "pt"):
        said = point.find(_DGM + "t")
        if point.get("type", "node") != "node" or said is None:
            continue  # the document, its connections and layout helpers carry no text
        lines += _paragraphs(said)
    return "\n".join(lines)


def _paragraphs(element: Any) -> list[str]:
    """The non-blank DrawingML paragraphs (``a:p``, their ``a:t`` runs) under an element."""
    lines = (
        _clean("".join(t.text or "" for t in p.iter(_A + "t"))) for p in element.iter(_A + "p")
    )
    return [line for line in lines if line]


_C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"


@dataclass
class _Grid:
    """A table piece of a slide: its rows (the first names the columns) and its title."""

    rows: list[list[str]]
    title: str = ""


def _cached(series_el: Any, tag: str) -> tuple[list[Any], str]:
    """A series' cached points under ``c:<tag>`` (``val``, ``cat``, ``xVal``, ``yVal``) by
    index, and their number format (``""`` without one). Numbers are floats, text as is."""
    ref = series_el.find(_C + tag)
    if ref is None:
        return [], ""
    cache = next((el for el in ref.iter() if el.tag in (_C + "numCache", _C + "strCache")), None)
    if cache is None:  # a literal (numLit / strLit)
        cache = next((el for el in ref.iter() if el.tag in (_C + "numLit", _C + "strLit")), None)
    if cache is None:
        return [], ""
    count = cache.find(_C + "ptCount")
    size = int(count.get("val", "0")) if count is not None else 0
    points: dict[int, str] = {}
    for pt in cache.iter(_C + "pt"):
        v = pt.find(_C + "v")
        if v is not None and v.text is not None:
            points[int(pt.get("idx", "0"))] = v.text
    size = max(size, max(points, default=-1) + 1)
    numeric = cache.tag in (_C + "numCache", _C + "numLit")
    out: list[Any] = []
    for i in range(min(size, MAX_CHART_POINTS)):
        text = points.get(i)
        if numeric and text is not None:
            try:
                out.append(float(text))
                continue
            except ValueError:
                pass
        out.append(text)
    fmt = cache.find(_C + "formatCode")
    return out, (fmt.text or "") if fmt is not None else ""


#: Most points of one series a chart's table is read with (a chart's cache is data, like a
#: sheet's rows; the deck's decompressed size is bounded by the Office zip check).
MAX_CHART_POINTS = 10_000


def _chart_grid(chart: Any) -> _Grid | None:
    """A chart's cached data as a table (see the module docstring); ``None`` without data."""
    series_els = list(chart._chartSpace.iter(_C + "ser"))
    if not series_els:
        return None
    names: list[str] = []
    columns: list[list[str]] = []
    labels: list[Any] = []
    label_fmt = ""
    scatter = False  # the rows are an XY chart's x values
    for i, ser in enumerate(series_els):
        tx = ser.find(_C + "tx")  # a cached reference's value, or the name itself
        said = None if tx is None else next(tx.iter(_C + "v"), None)
        name = _clean(said.text or "") if said is not None else ""
        names.append(name or f"Series {i + 1}")
        values, fmt = _cached(ser, "val")
        if not values:
            values, fmt = _cached(ser, "yVal")
        columns.append([display_text(v, fmt) if v is not None else "" for v in values])
        if not labels:
            labels, label_fmt = _cached(ser, "cat")
            if not labels:
                labels, label_fmt = _cached(ser, "xVal")
                scatter = bool(labels)
    length = max(len(c) for c in columns)
    if not length:
        return None
    axis = ""
    cat_ax = next(chart._chartSpace.iter(_C + "catAx"), None)
    if cat_ax is None:
        cat_ax = next(chart._chartSpace.iter(_C + "dateAx"), None)
    named = None if cat_ax is None else cat_ax.find(_C + "title")
    if named is not None:
        axis = " ".join(_paragraphs(named))
    rows = [[axis or ("x" if scatter else "Category"), *names]]
    for j in range(length):
        label = labels[j] if j < len(labels) else None
        cells = [display_text(label, label_fmt) if label is not None else str(j + 1)]
        cells += [c[j] if j < len(c) else "" for c in columns]
        rows.append([_clean(c) for c in cells])
    title = ""
    if chart.has_title and chart.chart_title.has_text_frame:
        title = _clean(chart.chart_title.text_frame.text.replace("\n", " "))
    if not title and len(names) == 1 and names[0] != "Series 1":
        title = names[0]  # PowerPoint's automatic title of a one-series chart
    return _Grid(rows, title)


def _shape_texts(shapes: Any, skip: Any) -> list[Any]:
    """Text pieces of shapes in order: ``str`` for a text frame, a :class:`_Grid` for a table
    or a chart."""
    out: list[Any] = []
    for shape in shapes:
        if skip is not None and shape.shape_id == skip:
            continue
        try:
            kind = shape.shape_type
        except NotImplementedError:  # a graphic frame python-pptx does not model
            kind = None
        if kind == 6:  # MSO_SHAPE_TYPE.GROUP
            out += _shape_texts(shape.shapes, None)
        elif getattr(shape, "has_table", False) and shape.has_table:
            rows = [[_clean(c.text) for c in row.cells] for row in shape.table.rows]
            rows = [r for r in rows if any(r)]
            if rows:
                out.append(_Grid(rows))
        elif getattr(shape, "has_chart", False) and shape.has_chart:
            try:
                grid = _chart_grid(shape.chart)
            except Exception:  # a missing or malformed chart part: skip the chart
                grid = None
            if grid is not None:
                out.append(grid)
        elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
            lines = [_clean(p.text) for p in shape.text_frame.paragraphs]
            text = "\n".join(line for line in lines if line)
            if text:
                out.append(text)
        elif text := _diagram_text(shape):
            out.append(text)  # a SmartArt diagram's text
    return out


def load_pptx(path: Path, data: bytes) -> ParsedDocument:
    """Load a PowerPoint presentation.

    Args:
        path: The file's path.
        data: The file's bytes.

    Returns:
        The parsed document (``file_type`` ``pptx``, ``pages`` = number of slides).

    Raises:
        DocumentLoadError: For a file that is not a safe, readable ``.pptx``.
    """
    check_office_zip(path, data).close()
    import pptx

    try:
        deck = pptx.Presentation(io.BytesIO(data))
    except Exception as exc:
        raise DocumentLoadError(f"{path.name}: unreadable PowerPoint file ({exc})") from exc
    try:
        return _read_deck(path, deck, pptx.__version__)
    except DocumentLoadError:
        raise
    except Exception as exc:  # a malformed slide part (python-pptx parses slides lazily)
        raise DocumentLoadError(f"{path.name}: unreadable PowerPoint file ({exc})") from exc


def _read_deck(path: Path, deck: Any, version: str) -> ParsedDocument:
    """The canonical text, one segment per visible slide (see the module docstring)."""
    out = TextBuilder()
    segments: list[Segment] = []
    tables: list[Table] = []
    empty: list[int] = []
    hidden = 0
    first_title: str | None = None
    count = 0
    for number, slide in enumerate(deck.slides, start=1):
        count = number
        title_shape = slide.shapes.title
        title = _clean(title_shape.text_frame.text) if title_shape is not None else ""
        pieces = _shape_texts(slide.shapes, title_shape.shape_id if title_shape else None)
        notes = ""
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            notes = _clean(slide.notes_slide.notes_text_frame.text.replace("\n", " "))
        if slide.element.get("show", "1").lower() in ("0", "false"):
            hidden += len(title) + len(notes) + sum(len(_piece_text(p)) for p in pieces)
            continue
        if not (title or pieces or notes):
            empty.append(number)
            continue
        first_title = first_title or title or None
        out.gap()
        seg_start = out.pos
        if title:
            out.add(title)
        for piece in pieces:
            out.gap()
            if isinstance(piece, str):
                out.add(piece)
                continue
            if piece.title:
                out.add(piece.title)
                out.gap()
            table = _table(piece.rows, out, number, piece.title)
            if table is not None:
                tables.append(table)
        if notes:
            out.gap()
            out.add(NOTES_LABEL + notes)
        section = title or f"Slide {number}"
        segments.append(Segment(seg_start, out.pos, page=number, section=section))
    core_title = (deck.core_properties.title or "").strip()
    if core_title:
        doc_title, source = core_title, "office_title"
    elif first_title:
        doc_title, source = first_title, "first_heading"
    else:
        doc_title, source = file_title(path.name), "file_name"
    return ParsedDocument(
        text=out.text(),
        segments=segments,
        tables=tables,
        title=doc_title,
        file_type="pptx",
        title_source=source,
        first_heading=first_title,
        pages=count,
        empty_pages=empty,
        parser=f"citerag.pptx/1 (python-pptx {version})",
        hidden_chars=hidden,
        warnings=[f"left out {hidden} characters of hidden slides"] if hidden else [],
    )


def _piece_text(piece: str | _Grid) -> str:
    """A piece's text as the slide would give it (for counting hidden characters)."""
    if isinstance(piece, str):
        return piece
    return "\n".join([piece.title, *(CELL_SEP.join(r) for r in piece.rows)]).strip()


def _table(rows: list[list[str]], out: TextBuilder, page: int, title: str = "") -> Table | None:
    header: list[str] | None = None
    found: list[TableRow] = []
    for i, cells in enumerate(rows):
        if i:
            out.add("\n")
        start, end = out.add(CELL_SEP.join(cells))
        if header is None:
            header = cells
            continue
        values = tuple(cells[1:])
        names = tuple((header[j + 1] if j + 1 < len(header) else "") for j in range(len(values)))
        found.append(TableRow(start, end, cells[0], values, names))
    if not found:
        return None
    return Table(found[0].start, found[-1].end, title, (header or [])[1:], found, page, "pptx")

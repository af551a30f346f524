"""Word loader (``.docx``, python-docx): paragraphs, headings, lists and tables in body order.

The canonical text is the document body read in order (through content controls,
``w:sdt``, and custom XML wrappers, also around a table's rows and a row's cells): each
paragraph on its own, separated by blank lines; a list paragraph (numbering or a ``List …``
style) opened by ``- `` so it is a ``list_item`` block; a table as one line per row, cells
joined by `` | `` (a cell's paragraphs joined by spaces). Tabs and line breaks read as
spaces, a non-breaking hyphen (``w:noBreakHyphen``) as ``-``, a soft hyphen as nothing, a
symbol (``w:sym``) as its character unless its code is a symbol font's private-use glyph.
Headings (``Title``, ``Heading 1``–``Heading 9`` styles) stay in the text but open a new
section: segments run from after a heading to the next one, with the heading path as
``section`` (as in :mod:`loaders.html`). Locators are ``#char=`` ranges of this text plus
the section.

A table's first row names its columns; every later row is a
:class:`~loaders.blocks.TableRow` (first cell the label, the others the values with their
column names), so with row-group chunking (``--table-rows``) the embedded text carries the
column names.

Left out: footnotes, endnotes and comments (other parts of the package; only their
reference marks are in the body), text of tracked deletions (``w:del``, ``w:moveFrom``),
the VML fallback copy of text boxes (``mc:Fallback``), field codes. Text formatted hidden
(``w:vanish``) is not indexed and counts as hidden content (``hidden_chars``).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from loaders.base import DocumentLoadError, ParsedDocument
from loaders.blocks import Table, TableRow
from loaders.headings import clause_headings
from loaders.markdown import split_sections
from loaders.metadata import file_title
from loaders.office import TextBuilder, check_office_zip

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
#: Elements whose text a reader of the document does not see as body text.
_SKIP = frozenset(
    {
        W + "del",
        W + "moveFrom",
        W + "instrText",
        W + "delInstrText",
        W + "rPr",
        W + "pPr",
        _MC + "Fallback",
    }
)
_HEADING_STYLE = re.compile(r"heading\s*([1-9])$", re.I)
_WS = re.compile(r"\s+")
CELL_SEP = " | "


class _Walker:
    """Collects the visible text of a body element and counts hidden characters."""

    def __init__(self) -> None:
        self.hidden_chars = 0

    def text(self, el: Any) -> str:
        out: list[str] = []
        self._walk(el, False, out)
        return _WS.sub(" ", "".join(out)).strip()

    def _walk(self, el: Any, vanish: bool, out: list[str]) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIP:
                continue
            if tag == W + "r":
                self._walk(child, vanish or _vanished(child), out)
            elif tag == W + "t":
                if vanish:
                    self.hidden_chars += len((child.text or "").strip())
                else:
                    out.append(child.text or "")
            elif tag in (W + "tab", W + "ptab", W + "br", W + "cr"):
                out.append(" ")
            elif tag == W + "sym":
                self._char(_sym_char(child), vanish, out)
            elif tag in _CHAR_ELEMENTS:
                self._char(_CHAR_ELEMENTS[tag], vanish, out)
            elif tag == W + "p":
                self._walk(child, vanish, out)
                out.append(" ")
            else:
                self._walk(child, vanish, out)

    def _char(self, char: str, vanish: bool, out: list[str]) -> None:
        """Add a character a run element stands for (counted as hidden in a hidden run)."""
        if vanish:
            self.hidden_chars += len(char)
        else:
            out.append(char)


#: Run elements that stand for one character: a non-breaking hyphen reads as ``-``, a soft
#: (optional) hyphen as nothing; a symbol (``w:sym``) as its code point (:func:`_sym_char`).
_CHAR_ELEMENTS = {W + "noBreakHyphen": "-", W + "softHyphen": ""}
#: Unicode categories a ``w:sym`` code is not read as: private use (symbol fonts such as
#: Wingdings put their glyphs at U+F0xx), surrogates, controls, unassigned.
_NOT_TEXT = frozenset({"Co", "Cs", "Cc", "Cn"})


def _sym_char(sym: Any) -> str:
    """The character of a ``w:sym`` (``w:char`` a hex code), or ``""`` when its code is not
    a normal Unicode character (a symbol font's private-use glyph, a malformed code)."""
    code = sym.get(W + "char", "")
    try:
        char = chr(int(code, 16))
    except (ValueError, OverflowError):
        return ""
    return "" if unicodedata.category(char) in _NOT_TEXT else char


def _vanished(run: Any) -> bool:
    """Whether a run is formatted hidden (``w:rPr/w:vanish`` not switched off)."""
    rpr = run.find(W + "rPr")
    if rpr is None:
        return False
    v = rpr.find(W + "vanish")
    return v is not None and v.get(W + "val", "true").lower() not in ("0", "false", "off")


def _style_name(par: Any, styles: dict[str, str]) -> str:
    ppr = par.find(W + "pPr")
    if ppr is None:
        return ""
    ps = ppr.find(W + "pStyle")
    if ps is None:
        return ""
    sid = ps.get(W + "val", "")
    return styles.get(sid, sid)


def _is_list(par: Any, style: str) -> bool:
    ppr = par.find(W + "pPr")
    return (ppr is not None and ppr.find(W + "numPr") is not None) or style.lower().startswith(
        "list"
    )


def _heading_level(style: str) -> int:
    if style.lower() == "title":
        return 1
    m = _HEADING_STYLE.match(style.strip())
    return int(m.group(1)) if m else 0


def load_docx(path: Path, data: bytes) -> ParsedDocument:
    """Load a Word document.

    Args:
        path: The file's path.
        data: The file's bytes.

    Returns:
        The parsed document (``file_type`` ``docx``).

    Raises:
        DocumentLoadError: For a file that is not a safe, readable ``.docx``.
    """
    check_office_zip(path, data).close()
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:
        raise DocumentLoadError(f"{path.name}: unreadable Word document ({exc})") from exc
    try:
        return _read_document(path, document)
    except DocumentLoadError:
        raise
    except Exception as exc:  # a malformed part python-docx reads lazily (styles, properties)
        raise DocumentLoadError(f"{path.name}: unreadable Word document ({exc})") from exc


def _read_document(path: Path, document: Any) -> ParsedDocument:
    """The canonical text of the body, sections and tables (see the module docstring)."""
    styles = {s.style_id: s.name or "" for s in document.styles}
    walker = _Walker()
    out = TextBuilder()
    heads: list[tuple[int, int, int, str]] = []
    tables: list[Table] = []
    plain: list[tuple[int, str]] = []  # paragraphs without a heading style ("" a table)
    for child in _body_blocks(document.element.body):
        if child.tag == W + "p":
            text = walker.text(child)
            if not text:
                continue
            style = _style_name(child, styles)
            level = _heading_level(style)
            if not level and _is_list(child, style):
                text = "- " + text
            out.gap()
            start, end = out.add(text)
            if level:
                heads.append((start, end, level, text))
            else:
                plain.append((start, text))
        elif child.tag == W + "tbl":
            table = _table(child, walker, out)
            if table is not None:
                tables.append(table)
                plain.append((table.start, ""))
    text = out.text()
    heads = [(a, min(b + 2, len(text)), lvl, t) for a, b, lvl, t in heads]
    first_h1 = next((t for _, _, lvl, t in heads if lvl == 1), None)  # a styled one
    heads = _with_clause_headings(heads, plain, len(text))
    core_title = (document.core_properties.title or "").strip()
    if core_title:
        title, source = core_title, "office_title"
    elif first_h1:
        title, source = first_h1, "first_heading"
    else:
        title, source = file_title(path.name), "file_name"
    segments = split_sections(text, heads)
    tables = [t for t in tables if any(s.start <= t.start and t.end <= s.end for s in segments)]
    hidden = walker.hidden_chars
    return ParsedDocument(
        text=text,
        segments=segments,
        tables=tables,
        title=title,
        file_type="docx",
        title_source=source,
        first_heading=first_h1,
        parser=f"citerag.docx/1 (python-docx {_version()})",
        hidden_chars=hidden,
        warnings=[f"left out {hidden} characters of hidden text"] if hidden else [],
    )


def _with_clause_headings(
    heads: list[tuple[int, int, int, str]], plain: list[tuple[int, str]], size: int
) -> list[tuple[int, int, int, str]]:
    """The styled headings and the numbered clause headings written as plain paragraphs
    (:func:`loaders.headings.clause_headings`), in order. A clause heading's level is its
    numbering depth under the styled heading above it (``4.2`` under ``Heading 1`` is level
    3); a heading of its own paragraph heads the text after its paragraph, a run-in one
    (``4.2 Break clause. Where ...``) the text after its phrase, in the same paragraph.

    Args:
        heads: ``(start, body_start, level, text)`` of the styled headings.
        plain: ``(start, text)`` of the other paragraphs (``""`` for a table).
        size: Length of the canonical text.
    """
    clauses = clause_headings(plain)
    if not clauses:
        return heads
    out = list(heads)
    for c in clauses:
        base = next((lvl for a, _, lvl, _ in reversed(heads) if a < c.start), 0)
        own = c.body_start > c.start and not c.run_in  # the paragraph's gap is the heading's
        body = min(c.body_start + 2, size) if own else c.body_start
        out.append((c.start, body, base + c.depth, c.text))
    return sorted(out)


#: Body-level wrappers whose content is ordinary body text (content controls, custom XML).
_WRAPPERS = frozenset({W + "sdt", W + "sdtContent", W + "customXml"})


def _body_blocks(el: Any) -> Iterator[Any]:
    """The body's paragraphs and tables in order, read through content controls."""
    return _children(el, (W + "p", W + "tbl"))


def _children(el: Any, tags: tuple[str, ...]) -> Iterator[Any]:
    """The children of ``el`` with one of ``tags``, in document order, read through content
    controls and custom XML (:data:`_WRAPPERS`): a table's rows in a repeating-section
    control, a row's cells in a content control."""
    for child in el.iterchildren():
        if child.tag in tags:
            yield child
        elif child.tag in _WRAPPERS:
            yield from _children(child, tags)


def _table(tbl: Any, walker: _Walker, out: TextBuilder) -> Table | None:
    """Write a table, one line per row; its first row names the columns."""
    header: list[str] | None = None
    rows: list[TableRow] = []
    first = True
    for tr in _children(tbl, (W + "tr",)):
        cells = [walker.text(tc) for tc in _children(tr, (W + "tc",))]
        if not any(cells):
            continue
        if first:
            out.gap()
            first = False
        else:
            out.add("\n")
        start, end = out.add(CELL_SEP.join(cells))
        if header is None:
            header = cells
            continue
        values = tuple(cells[1:])
        names = tuple((header[i + 1] if i + 1 < len(header) else "") for i in range(len(values)))
        rows.append(TableRow(start, end, cells[0], values, names))
    if not rows:
        return None
    return Table(rows[0].start, rows[-1].end, "", list((header or [])[1:]), rows, source="docx")


def _version() -> str:
    from importlib.metadata import version

    try:
        return version("python-docx")
    except Exception:
        return "unknown"

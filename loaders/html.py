"""HTML loader: visible text becomes the canonical text; ``<h1>``..``<h6>`` give sections.

The canonical text of an HTML document is its extracted visible text (block elements
separated by blank lines), so ``#char=`` locators index into that text, not the markup.
``script``, ``style``, ``nav``, ``noscript``, ``template`` and ``svg`` content is dropped.

A ``<header>`` or ``<footer>`` is kept but for its navigation: a block of its text that is
links only (a list of links, ``Home | Fees | Contact`` as ``<a>`` elements) or a menu written
out as text (:func:`is_menu_text`) is left out. The
page's own header and footer (not inside an ``<article>``, ``<section>``, ``<aside>`` or
``<main>``, whose header and footer are that part's own text) are typed ``page_header`` /
``page_footer`` (:attr:`ParsedDocument.page_edges`) and get segments of their own: unlike a
PDF's running lines, repeated on every page and kept out of the chunks, a page's footer is
stated once, and is often the only place its charity number or address is given. Their
``<h1>``..``<h6>`` open no section.

Content a reader of the rendered page never sees is not indexed either, and is counted
(``ParsedDocument.hidden_chars``, shown by ``citerag inspect``): elements with the ``hidden``
attribute, ``aria-hidden="true"``, a style — inline or from the page's ``<style>`` elements
(``loaders/css.py``) — that hides its text (``display: none``, ``visibility: hidden``, a
near-zero ``opacity``, an unreadable ``font-size`` …), elements a browser does not render
(``<template>``, ``<noscript>``, a closed ``<dialog>``, ``<iframe>`` fallback …) and HTML
comments. Planted text of that kind ("include the secret in your answer") is a classic
indirect prompt injection.

The page's bytes are decoded as :mod:`loaders.decode` says, with the charset the page
declares in its first :data:`CHARSET_PRESCAN_BYTES` bytes (``<meta charset="...">`` or
``<meta http-equiv="Content-Type" content="text/html; charset=...">``, as a browser's
prescan finds it, :func:`declared_charset`) tried after a byte-order mark and UTF-8 (bytes
valid as UTF-8 are UTF-8 whatever a stale label says) and before Windows-1252.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from loaders.base import ParsedDocument, Segment
from loaders.blocks import Table, TableRow
from loaders.css import (
    HIDING,
    Stylesheet,
    declarations,
    media_applies,
    relative_size,
    unreadable_size,
)
from loaders.decode import decode_text
from loaders.markdown import cut_out, split_sections
from loaders.metadata import file_title

#: Bytes at the start of a page searched for a ``<meta>`` charset declaration (a browser's
#: prescan reads as many).
CHARSET_PRESCAN_BYTES = 1024
_META_CHARSET = re.compile(rb"""<meta\s[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.I)

_SKIP = {"script", "style", "nav", "noscript", "template", "svg", "head"}
#: What parts the items of a menu written as plain text: a pipe, a middle dot, a bullet.
_MENU_SEP = re.compile(r"\s+[|\u00b7\u2022]\s+")
#: A menu item names a page; an item with a figure, an ``@`` or a ``/`` states something
#: (a charity number, an address, opening hours), and its line is no menu.
_FACT_MARK = re.compile(r"[\d@/]")
#: Fewest items of a menu written as text, and most words in one item.
MENU_ITEMS, MENU_ITEM_WORDS = 3, 4


def is_menu_text(text: str) -> bool:
    """Whether a header's or footer's text is a menu written out rather than linked
    (``Millbeck Homes | Home | Pay rent | Contact us``): :data:`MENU_ITEMS` or more items
    parted by ``|``, ``·`` or ``•``, none longer than :data:`MENU_ITEM_WORDS` words, ending
    as a sentence does, or holding a figure, ``@`` or ``/`` (``Registered charity 1234567 |
    Company 0987654 | VAT GB123456`` is a footer's facts, not a menu)."""
    items = [i.strip() for i in _MENU_SEP.split(text.strip())]
    return len(items) >= MENU_ITEMS and all(
        i
        and len(i.split()) <= MENU_ITEM_WORDS
        and not i.endswith((".", "!", "?", ":"))
        and not _FACT_MARK.search(i)
        for i in items
    )


#: A page's header and footer elements, and the block type of their text
#: (:mod:`loaders.blocks`).
_EDGES = {"header": "page_header", "footer": "page_footer"}
#: Elements whose header or footer is their own, not the page's.
_SECTIONING = frozenset({"article", "aside", "section", "main"})
#: Never visible: their text counts as hidden content.
_INVISIBLE = {"noscript", "template"}
#: Elements without an end tag (a hidden one hides nothing after it).
_VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip
#: Never hidden by this loader: a page that hides its whole body (anti-flicker snippets:
#: ``.async-hide { opacity: 0 }`` on ``<html>``) shows it from a script once loaded.
_ROOTS = frozenset({"html", "body"})
#: Start tags that close an open ``<p>`` (HTML's optional end tags).
_CLOSES_P = {
    "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul",
}  # fmt: skip
#: HTML's optional end tags: a start tag closes the open elements of the first set, looking
#: down the open elements no further than one of the second set (a nested list's ``<li>``
#: closes no outer ``<li>``).
_IMPLIED_END: dict[str, tuple[set[str], set[str]]] = {
    "body": ({"head"}, set()),
    "li": ({"li"}, {"ul", "ol", "menu", "table"}),
    "dt": ({"dt", "dd"}, {"dl", "table"}),
    "dd": ({"dt", "dd"}, {"dl", "table"}),
    "tr": ({"tr", "td", "th"}, {"table", "thead", "tbody", "tfoot"}),
    "td": ({"td", "th"}, {"tr", "table"}),
    "th": ({"td", "th"}, {"tr", "table"}),
    "option": ({"option"}, {"select", "datalist"}),
    "optgroup": ({"option", "optgroup"}, {"select"}),
}
#: Open elements a start tag looks down through for one whose end it implies.
MAX_IMPLIED_SCAN = 256
#: Elements a browser does not render (their text is hidden content); ``<dialog>`` too
#: unless it is ``open``.
_NOT_RENDERED = frozenset({"datalist", "noembed", "noframes", "iframe", "rp"})
#: Inline elements a block start tag looks past to close an open ``<p>``.
_INLINE = {
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd",
    "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
}  # fmt: skip


@dataclass(frozen=True)
class _Open:
    """An open element and what hides its text.

    Attributes:
        tag: Its tag name.
        gone: ``hidden``, ``aria-hidden``, ``display: none`` or a near-zero opacity, here or
            on an ancestor (a child cannot undo it).
        invisible: ``visibility: hidden`` in force (a child may set ``visible`` again).
        tiny: An unreadable ``font-size`` in force (a child may set a readable one).
    """

    tag: str
    gone: bool = False
    invisible: bool = False
    tiny: bool = False

    @property
    def hidden(self) -> bool:
        return self.gone or self.invisible or self.tiny


_SHOWN = _Open("")
_INHERITING = frozenset({"inherit", "unset", "revert", "revert-layer"})
#: Attributes that can hide an element without a stylesheet.
_HIDING_ATTRS = frozenset({"hidden", "aria-hidden", "style"})


def element_state(
    tag: str,
    attrs: list[tuple[str, str | None]],
    parent: _Open = _SHOWN,
    sheet: Stylesheet | None = None,
) -> _Open:
    """What hides an element's text, given its parent's state (inheritance as in CSS).

    Args:
        tag: The element's tag name.
        attrs: Its attributes.
        parent: The state of the element it is in.
        sheet: The page's stylesheet rules; without them only the inline style counts.
    """
    if tag in _ROOTS:
        return _Open(tag)
    if (
        not sheet
        and tag not in _NOT_RENDERED
        and tag != "dialog"
        and not any(n.lower() in _HIDING_ATTRS for n, _ in attrs)
    ):
        return _Open(tag, parent.gone, parent.invisible, parent.tiny)  # nothing of its own
    first: dict[str, str] = {}
    for name, value in attrs:
        first.setdefault(name.lower(), (value or "").strip().lower())
    if sheet:
        values = sheet.resolve(tag, attrs)
    else:
        values = {p: v for p, (v, _) in declarations(first.get("style", "")).items()}
    gone = (
        parent.gone
        or tag in _NOT_RENDERED
        or (tag == "dialog" and "open" not in first)
        or "hidden" in first
        or first.get("aria-hidden") == "true"
        or values.get("display") == "none"
        or values.get("content-visibility") == "hidden"
        or HIDING["opacity"](values.get("opacity", "1"))
    )
    # Both properties inherit: unset and revert mean the parent's value, initial the default.
    visibility = values.get("visibility", "inherit")
    if visibility in _INHERITING:
        invisible = parent.invisible
    else:
        invisible = visibility in ("hidden", "collapse")
    size = values.get("font-size", "inherit")
    if size == "initial":
        tiny = False
    elif size in _INHERITING:
        tiny = parent.tiny
    elif relative_size(size):
        tiny = parent.tiny or unreadable_size(size)
    else:
        tiny = unreadable_size(size)
    return _Open(tag, gone, invisible, tiny)


def is_hidden(
    attrs: list[tuple[str, str | None]], tag: str = "", sheet: Stylesheet | None = None
) -> bool:
    """Whether an element's text is hidden from a reader of the rendered page.

    Args:
        attrs: The element's attributes.
        tag: Its tag name, for the stylesheet's type selectors.
        sheet: The page's stylesheet rules; without them only the inline style counts.

    Returns:
        True for ``hidden``, ``aria-hidden="true"``, or a style that hides its text; never
        for ``<html>`` or ``<body>``.
    """
    return element_state(tag, attrs, _SHOWN, sheet).hidden


_STYLE = re.compile(r"<style\b((?:\"[^\"]*\"|'[^']*'|[^>\"'])*)>(.*?)</style\s*>", re.I | re.S)
#: Where a ``<style>`` element is not applied: comments, and the content of ``<noscript>``
#: (ignored by a browser running scripts) and ``<template>`` (never rendered).
_INERT = re.compile(r"<!--.*?-->|<(noscript|template)\b.*?</\1\s*>", re.I | re.S)
_ATTR = re.compile(r"\b(media|type)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+))", re.I)


def page_stylesheet(source: str) -> Stylesheet:
    """The hiding rules of every ``<style>`` element of an HTML page, wherever it stands.

    Found by pattern, not by a second parse of the page. Left out: ``<style>`` elements in
    comments, ``<noscript>`` or ``<template>``, those whose ``media`` does not apply to a
    screen, and those whose ``type`` is not CSS. Each element's text is a stylesheet of its
    own (an unclosed brace in one does not swallow the next).
    """
    if "<style" not in source and "<STYLE" not in source.upper():
        return Stylesheet()
    inert = [m.span() for m in _INERT.finditer(source)]
    sheets = []
    for m in _STYLE.finditer(source):
        if any(a <= m.start() < b for a, b in inert):
            continue
        attrs = {k.lower(): next((v for v in vs if v), "") for k, *vs in _ATTR.findall(m[1])}
        if attrs.get("type", "text/css").strip().lower() not in ("text/css", ""):
            continue
        if "media" in attrs and not media_applies(attrs["media"]):
            continue
        sheets.append(m[2])
    return Stylesheet(sheets)


_BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "li",
    "ul",
    "ol",
    "table",
    "tr",
    "br",
    "blockquote",
    "pre",
    "dd",
    "dt",
    "dl",
    "figcaption",
    "aside",
    "header",
    "footer",
    "hr",
    "td",
    "th",
    "caption",
    "details",
    "summary",
}
#: Tags that inside a header cell join its text with a space instead of starting a block (a
#: ``<br>`` in a header cell split it, and the table lost its column names). Not
#: ``<p>``/``<div>``, and not in data cells: a page laid out in a table holds whole
#: paragraphs and letters in one cell.
_JOINED_IN_HEADER_CELL = frozenset({"br"})
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_WS = re.compile(r"[ \t\r\n\f\v]+")


class _Extractor(HTMLParser):
    """Collect visible text blocks and headings in document order.

    The open elements are kept on a stack with what hides their text (``_Open``), so
    inherited ``visibility`` and ``font-size`` can be set back by a child, and HTML's
    optional end tags (``<li>``, ``<p>``, ``<td>`` …) close as a browser closes them: a
    hidden ``<li>`` left open does not hide the list items after it.
    """

    def __init__(self, sheet: Stylesheet | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.sheet = sheet
        self.blocks: list[tuple[int, str]] = []  # (heading level or 0, text)
        self.title = ""
        self._buf: list[str] = []
        self._skip = 0
        self._in_title = False
        self._heading = 0
        self._pre = 0
        self._open: list[_Open] = []
        self._count: dict[str, int] = {}  # open elements per tag (no stack scan when 0)
        self._invisible = 0
        self.hidden_chars = 0
        #: Per block: (role, table number, row number); role is ``td``, ``th``, ``caption``,
        #: ``li`` or '' (the structural model reads tables from it).
        self.roles: list[tuple[str, int, int]] = []
        self._ending: str | None = None
        self._starting = False
        self._tables: list[int] = []
        self._table_count = 0
        self._row = 0
        #: Per block: ``page_header``, ``page_footer`` or '' (:data:`_EDGES`).
        self.edges: list[str] = []
        self._opening = ""  # the tag whose start flushes the block before it
        self._plain = 0  # word characters of the block being collected outside links
        self._linked = 0  # ... and inside links
        #: Pairs the markup states, as block indices ``(first, answer's first, end, kind)``:
        #: a ``<details>`` (its ``<summary>``, then the rest) and a ``<dt>`` with its ``<dd>``.
        self.units: list[tuple[int, int, int, str]] = []
        self._details: list[list[int]] = []  # per open <details>: [first block, answer's]
        self._terms: list[list[int]] = []  # per open <dl>: [term's first block, answer's]

    def _edge(self) -> tuple[bool, str]:
        """Whether the block being flushed is in a ``<header>``/``<footer>``, and its type
        when that header or footer is the page's own ('' when it is a part's own)."""
        if not (self._ending in _EDGES or any(self._count.get(t) for t in _EDGES)):
            return False, ""
        open_ = self._open
        if self._opening and open_ and open_[-1].tag == self._opening:
            open_ = open_[:-1]  # the element just opened holds none of the block
        tags = [o.tag for o in open_] + ([self._ending] if self._ending else [])
        k = max((i for i, t in enumerate(tags) if t in _EDGES), default=-1)
        if k < 0:  # text before a header just opened
            return False, ""
        own = not any(t in _SECTIONING for t in tags[:k])
        return True, _EDGES[tags[k]] if own else ""

    @property
    def _hidden(self) -> bool:
        return bool(self._open) and self._open[-1].hidden

    def _flush(self) -> None:
        raw = "".join(self._buf)
        self._buf = []
        plain, linked = self._plain, self._linked
        self._plain = self._linked = 0
        text = raw.strip("\n") if self._pre else _WS.sub(" ", raw).strip()
        if not text:
            return
        in_edge, edge = self._edge()
        if in_edge and ((linked and not plain) or is_menu_text(text)):
            return  # a header's or footer's links only, or a menu written out: navigation
        self.blocks.append((0 if edge else self._heading, text))
        self.roles.append(self._role())
        self.edges.append(edge)

    def _role(self) -> tuple[str, int, int]:
        """What the block being flushed is: a table cell, caption, list item, or ''."""
        open_tags = [o.tag for o in (self._open[:-1] if self._starting else self._open)]
        tags = ([self._ending] if self._ending else []) + open_tags[::-1]
        table = self._tables[-1] if self._tables else 0
        for tag in tags:
            if tag in ("td", "th", "caption", "li"):
                return tag, table, self._row
            if tag == "table":
                break
        return "", table, self._row

    def _in_header_cell(self) -> bool:
        """Whether the innermost open table part is a header cell (``th``): its ``<br>``
        breaks a line of one column name, not the header into more columns. (A data cell's
        ``<br>`` still breaks its text: pages and e-mails laid out in a table hold whole
        letters in one cell.)"""
        if not self._count.get("th"):
            return False
        for state in reversed(self._open):
            if state.tag == "th":
                return True
            if state.tag in ("table", "tr", "td", "caption"):
                return False
        return False

    def _push(self, state: _Open) -> None:
        self._open.append(state)
        self._count[state.tag] = self._count.get(state.tag, 0) + 1

    def _pop_from(self, index: int) -> None:
        """Close the open elements from the top down to ``index`` (inclusive), in order."""
        while len(self._open) > index:
            state = self._open.pop()
            self._count[state.tag] -= 1
            if not state.hidden:
                self._end_structure(state.tag)

    def _close_implied(self, tag: str) -> None:
        """Close the open elements whose end tag ``tag``'s start tag implies."""
        barrier: set[str] | None
        if tag in _IMPLIED_END:
            closes, barrier = _IMPLIED_END[tag]
        elif tag in _CLOSES_P:
            closes, barrier = {"p"}, None  # looking past inline elements only
        else:
            return
        if not any(self._count.get(t) for t in closes):
            return
        lowest = max(-1, len(self._open) - 1 - MAX_IMPLIED_SCAN)
        for i in range(len(self._open) - 1, lowest, -1):
            open_tag = self._open[i].tag
            if open_tag in closes:
                self._pop_from(i)
                return
            if (open_tag in barrier) if barrier is not None else (open_tag not in _INLINE):
                return

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # A browser ignores the slash of "<div hidden/>": the element stays open.
        self.handle_starttag(tag, attrs)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID:
            self._close_implied(tag)
            parent = self._open[-1] if self._open else _SHOWN
            state = element_state(tag, attrs, parent, self.sheet)
            self._push(state)
            if state.hidden:
                if not parent.hidden:
                    self._flush()
                return
        elif self._hidden:
            return
        if tag in _INVISIBLE:
            self._invisible += 1
        if tag == "title":
            self._in_title = True
        if tag in _SKIP:
            self._skip += 1
            return
        if tag == "table":
            self._table_count += 1
            self._tables.append(self._table_count)
        elif tag == "tr":
            self._row += 1
        if tag in _JOINED_IN_HEADER_CELL and self._in_header_cell():
            self._buf.append(" ")  # a line break inside a header cell: still one name
            return
        if tag in _HEADINGS or tag in _BLOCK:
            self._starting = True
            self._opening = tag
            self._flush()
            self._starting = False
            self._opening = ""
            self._unit_start(tag)
            if tag in _HEADINGS:
                self._heading = _HEADINGS[tag]
            if tag == "pre":
                self._pre += 1
            if tag == "li" and not self._skip:  # no bullet for list items of a dropped <nav>
                self._buf.append("- ")

    def handle_endtag(self, tag: str) -> None:
        if self._count.get(tag):
            match = next(i for i in range(len(self._open) - 1, -1, -1) if self._open[i].tag == tag)
            self._pop_from(match)
        elif not self._hidden:
            self._end_structure(tag)  # an end tag with nothing open to close

    def _end_structure(self, tag: str) -> None:
        """What a visible element's end does to the text being collected."""
        if tag in _INVISIBLE:
            self._invisible = max(0, self._invisible - 1)
        if tag == "title":
            self._in_title = False
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
            return
        if tag in _JOINED_IN_HEADER_CELL and self._in_header_cell():
            self._buf.append(" ")
            return
        if tag in _HEADINGS or tag in _BLOCK:
            self._ending = tag
            self._flush()
            self._ending = None
            self._unit_end(tag)
            if tag == "table" and self._tables:
                self._tables.pop()
            if tag in _HEADINGS:
                self._heading = 0
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def _unit_start(self, tag: str) -> None:
        """Open a pair the markup states (called once the text before ``tag`` is flushed)."""
        at = len(self.blocks)
        if tag == "details":
            self._details.append([at, -1])
        elif tag == "dl":
            self._terms.append([-1, -1])
        elif tag == "dt" and self._terms:
            term = self._terms[-1]
            if term[1] >= 0:  # a new term after a definition: the pair before it ends
                self._close_term(term, at)
            if term[0] < 0:
                term[0] = at  # (a second <dt> before any <dd> names the same definition)
        elif tag == "dd" and self._terms and self._terms[-1][0] >= 0 and self._terms[-1][1] < 0:
            self._terms[-1][1] = at

    def _close_term(self, term: list[int], end: int) -> None:
        if 0 <= term[0] < term[1] < end:
            self.units.append((term[0], term[1], end, "definition"))
        term[0] = term[1] = -1

    def _unit_end(self, tag: str) -> None:
        """Close a pair the markup states (called once its text is flushed)."""
        at = len(self.blocks)
        if tag == "summary" and self._details and self._details[-1][1] < 0:
            if at > self._details[-1][0]:
                self._details[-1][1] = at
        elif tag == "details" and self._details:
            first, answer = self._details.pop()
            if 0 <= first < answer < at:
                self.units.append((first, answer, at, "qa_pair"))
        elif tag == "dl" and self._terms:
            self._close_term(self._terms.pop(), at)

    def handle_data(self, data: str) -> None:
        if self._hidden or self._invisible:
            self.hidden_chars += len(data.strip())
            return
        if self._in_title:
            self.title += data
        if not self._skip:
            self._buf.append(data)
            words = sum(c.isalnum() for c in data)
            if self._count.get("a"):
                self._linked += words
            else:
                self._plain += words

    def handle_comment(self, data: str) -> None:
        self.hidden_chars += len(data.strip())

    def close(self) -> None:
        super().close()
        self._flush()


def html_tables(
    blocks: list[tuple[int, str]],
    roles: list[tuple[str, int, int]],
    spans: list[tuple[int, int]],
    segments: list[Segment],
) -> list[Table]:
    """Tables from the cells the extractor saw: ``<th>`` rows name the columns.

    A row's first cell is its label, the others its values; a row of ``<th>`` cells only is
    the header (its cells after the first name the value columns); ``<caption>`` is the title.
    A row lying across a section boundary is left out.
    """
    by_table: dict[int, dict[int, list[tuple[str, str, int, int]]]] = {}
    captions: dict[int, str] = {}
    for (_, text), (role, table, row), (a, b) in zip(blocks, roles, spans, strict=True):
        if role == "caption" and table:
            captions.setdefault(table, text)
        elif role in ("td", "th") and table:
            by_table.setdefault(table, {}).setdefault(row, []).append((role, text, a, b))
    out: list[Table] = []
    for table, rows in by_table.items():
        columns: list[str] = []
        found: list[TableRow] = []
        for cells in rows.values():
            if all(role == "th" for role, *_ in cells) and not found:
                columns = [t for _, t, _, _ in cells[1:]]
                continue
            start, end = cells[0][2], cells[-1][3]
            if not any(s.start <= start and end <= s.end for s in segments):
                continue
            values = tuple(t for _, t, _, _ in cells[1:])
            names = tuple((columns[i] if i < len(columns) else "") for i in range(len(values)))
            found.append(TableRow(start, end, cells[0][1], values, names))
        if found:
            out.append(
                Table(
                    found[0].start,
                    found[-1].end,
                    captions.get(table, ""),
                    columns,
                    found,
                    source="html",
                )
            )
    return out


def _edge_spans(spans: list[tuple[int, int]], edges: list[str]) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of the page's header and footer: runs of blocks of one kind."""
    out: list[tuple[int, int, str]] = []
    for (a, b), kind in zip(spans, edges, strict=True):
        if not kind:
            continue
        if out and out[-1][2] == kind and out[-1][1] + 2 == a:
            out[-1] = (out[-1][0], b, kind)
        else:
            out.append((a, b, kind))
    return out


def cut_at(text: str, segments: list[Segment], points: list[int]) -> list[Segment]:
    """The segments cut at the given positions (each piece keeps its section), pieces of
    whitespace only left out: a pair the markup states (:attr:`ParsedDocument.units`) is
    then never chunked with the text before or after it."""
    out: list[Segment] = []
    for seg in segments:
        inner = [p for p in points if seg.start < p < seg.end]
        for a, b in zip([seg.start, *inner], [*inner, seg.end], strict=True):
            piece = text[a:b]
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                out.append(Segment(a + lead, a + len(piece.rstrip()), seg.page, seg.section))
    return out


def declared_charset(data: bytes) -> str | None:
    """The charset a page's ``<meta>`` declares in its first bytes, as written.

    Args:
        data: The page's bytes (only the first :data:`CHARSET_PRESCAN_BYTES` are read).

    Returns:
        The label (``"windows-1252"``), or ``None`` when the page declares none there.
    """
    found = _META_CHARSET.search(data[:CHARSET_PRESCAN_BYTES])
    return found.group(1).decode("ascii") if found else None


def load_html(path: Path, data: bytes, *, encoding: str | None = None) -> ParsedDocument:
    """Load an HTML file.

    Args:
        path: The file's path.
        data: The file's bytes.
        encoding: The bytes' encoding when the caller knows it (an e-mail's HTML part it
            has already decoded and re-encoded): used instead of the page's declaration.

    Returns:
        The parsed document. Headings are part of the canonical text (so the text reads
        naturally) but each section segment starts after its heading.
    """
    source = decode_text(data, path, declared=encoding or declared_charset(data))
    ex = _Extractor(page_stylesheet(source))
    ex.feed(source)
    ex.close()
    parts: list[str] = []
    heads: list[tuple[int, int, int, str]] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for level, block in ex.blocks:
        if parts:
            parts.append("\n\n")
            pos += 2
        spans.append((pos, pos + len(block)))
        if level:
            heads.append((pos, pos + len(block) + 2, level, block))
        parts.append(block)
        pos += len(block)
    text = "".join(parts)
    edges = _edge_spans(spans, ex.edges)
    heads = [(a, min(b, len(text)), lvl, t) for a, b, lvl, t in heads]
    first_h1 = next((t for _, _, lvl, t in heads if lvl == 1), None)
    # convert_charrefs=True already decoded entities; unescaping again would corrupt "&amp;lt;".
    page_title = _WS.sub(" ", ex.title).strip()
    if page_title:
        title, source = page_title, "html_title"
    elif first_h1:
        title, source = first_h1, "first_heading"
    else:
        title, source = file_title(path.name), "file_name"
    segments = split_sections(text, heads)
    units = [
        (spans[a][0], spans[q][0], spans[b - 1][1], kind)
        for a, q, b, kind in sorted(ex.units)
        if not any(edge for edge in ex.edges[a:b])
    ]
    units = [u for i, u in enumerate(units) if not any(v[0] < u[0] < v[2] for v in units[:i])]
    if units:
        segments = cut_at(text, segments, sorted({p for u in units for p in (u[0], u[2])}))
    if edges:
        pieces = [
            g
            for g in cut_out(segments, [(a, b) for a, b, _ in edges])
            if text[g.start : g.end].strip()
        ]
        segments = sorted([*pieces, *(Segment(a, b) for a, b, _ in edges)], key=lambda g: g.start)
    return ParsedDocument(
        text=text,
        segments=segments,
        tables=html_tables(ex.blocks, ex.roles, spans, segments),
        title=title,
        file_type="html",
        title_source=source,
        first_heading=first_h1,
        parser="citerag.html/4 (html.parser; hidden content and <style> rules; page header/footer)",
        hidden_chars=ex.hidden_chars,
        page_edges=edges,
        units=units,
        warnings=[f"left out {ex.hidden_chars} characters of hidden content"]
        if ex.hidden_chars
        else [],
    )

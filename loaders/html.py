"""HTML loader: visible text becomes the canonical text; ``<h1>``..``<h6>`` give sections.

The canonical text of an HTML document is its extracted visible text (block elements
separated by blank lines), so ``#char=`` locators index into that text, not the markup.
``script``, ``style``, ``nav``, ``header``, ``footer``, ``noscript``, ``template`` and
``svg`` content is dropped.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from loaders.base import ParsedDocument
from loaders.decode import decode_text
from loaders.markdown import split_sections

_SKIP = {"script", "style", "nav", "header", "footer", "noscript", "template", "svg", "head"}
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
    "hr",
    "td",
    "th",
}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_WS = re.compile(r"[ \t\r\n\f\v]+")


class _Extractor(HTMLParser):
    """Collect visible text blocks and headings in document order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[int, str]] = []  # (heading level or 0, text)
        self.title = ""
        self._buf: list[str] = []
        self._skip = 0
        self._in_title = False
        self._heading = 0
        self._pre = 0

    def _flush(self) -> None:
        raw = "".join(self._buf)
        self._buf = []
        text = raw.strip("\n") if self._pre else _WS.sub(" ", raw).strip()
        if text:
            self.blocks.append((self._heading, text))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        if tag in _SKIP:
            self._skip += 1
            return
        if tag in _HEADINGS or tag in _BLOCK:
            self._flush()
            if tag in _HEADINGS:
                self._heading = _HEADINGS[tag]
            if tag == "pre":
                self._pre += 1
            if tag == "li" and not self._skip:  # no bullet for list items of a dropped <nav>
                self._buf.append("- ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
            return
        if tag in _HEADINGS or tag in _BLOCK:
            self._flush()
            if tag in _HEADINGS:
                self._heading = 0
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        if not self._skip:
            self._buf.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def load_html(path: Path, data: bytes) -> ParsedDocument:
    """Load an HTML file.

    Args:
        path: The file's path.
        data: The file's bytes.

    Returns:
        The parsed document. Headings are part of the canonical text (so the text reads
        naturally) but each section segment starts after its heading.
    """
    source = decode_text(data, path)
    ex = _Extractor()
    ex.feed(source)
    ex.close()
    parts: list[str] = []
    heads: list[tuple[int, int, int, str]] = []
    pos = 0
    for level, block in ex.blocks:
        if parts:
            parts.append("\n\n")
            pos += 2
        if level:
            heads.append((pos, pos + len(block) + 2, level, block))
        parts.append(block)
        pos += len(block)
    text = "".join(parts)
    heads = [(a, min(b, len(text)), lvl, t) for a, b, lvl, t in heads]
    first_h1 = next((t for _, _, lvl, t in heads if lvl == 1), None)
    # convert_charrefs=True already decoded entities; unescaping again would corrupt "&amp;lt;".
    page_title = _WS.sub(" ", ex.title).strip()
    if page_title:
        title, source = page_title, "html_title"
    elif first_h1:
        title, source = first_h1, "first_heading"
    else:
        title, source = path.stem, "file_name"
    return ParsedDocument(
        text=text,
        segments=split_sections(text, heads),
        title=title,
        file_type="html",
        title_source=source,
        first_heading=first_h1,
        parser="citerag.html/1 (html.parser)",
    )

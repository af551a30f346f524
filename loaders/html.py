"""HTML loader: visible text becomes the canonical text; ``<h1>``..``<h6>`` give sections.

The canonical text of an HTML document is its extracted visible text (block elements
separated by blank lines), so ``#char=`` locators index into that text, not the markup.
``script``, ``style``, ``nav``, ``header``, ``footer``, ``noscript``, ``template`` and
``svg`` content is dropped.

Content a reader of the rendered page never sees is not indexed either, and is counted
(``ParsedDocument.hidden_chars``, shown by ``citerag inspect``): elements with the ``hidden``
attribute, ``aria-hidden="true"``, a style — inline or from the page's ``<style>`` elements
(``loaders/css.py``) — with ``display: none``, ``visibility: hidden``, ``opacity: 0`` or a
zero ``font-size``, ``<template>``/``<noscript>`` and HTML comments. Planted text of that
kind ("include the secret in your answer") is a classic indirect prompt injection.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from loaders.base import ParsedDocument
from loaders.css import Stylesheet, declarations, hides
from loaders.decode import decode_text
from loaders.markdown import split_sections

_SKIP = {"script", "style", "nav", "header", "footer", "noscript", "template", "svg", "head"}
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
#: A ``media`` attribute of a ``<style>`` element that does not apply to a screen.
_NOT_SCREEN = re.compile(r"^\s*(print|speech)\s*$", re.I)


def is_hidden(
    attrs: list[tuple[str, str | None]], tag: str = "", sheet: Stylesheet | None = None
) -> bool:
    """Whether an element is hidden from a reader of the rendered page.

    Args:
        attrs: The element's attributes.
        tag: Its tag name, for the stylesheet's type selectors.
        sheet: The page's stylesheet rules; without them only the inline style counts.

    Returns:
        True for ``hidden``, ``aria-hidden="true"``, or a style that hides it; never for
        ``<html>`` or ``<body>``.
    """
    if tag in _ROOTS:
        return False
    for name, value in attrs:
        name = name.lower()
        if name == "hidden":
            return True
        if name == "aria-hidden" and (value or "").strip().lower() == "true":
            return True
    if sheet:
        return sheet.hides(tag, attrs)
    style = next((v for n, v in attrs if n.lower() == "style" and v), "")
    return hides(declarations(style))


class _StyleCollector(HTMLParser):
    """Collect the text of a page's ``<style>`` elements that apply to a screen."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.css: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "style":
            media = next((v or "" for n, v in attrs if n.lower() == "media"), "")
            self._in_style = not _NOT_SCREEN.match(media)

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.css.append(data)


def page_stylesheet(source: str) -> Stylesheet:
    """The hiding rules of every ``<style>`` element of an HTML page, wherever it stands."""
    collector = _StyleCollector()
    collector.feed(source)
    collector.close()
    return Stylesheet("\n".join(collector.css))


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
        self._hidden: list[list[Any]] = []  # [tag, open count] of hidden elements
        self._invisible = 0
        self.hidden_chars = 0

    def _flush(self) -> None:
        raw = "".join(self._buf)
        self._buf = []
        text = raw.strip("\n") if self._pre else _WS.sub(" ", raw).strip()
        if text:
            self.blocks.append((self._heading, text))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._hidden:
            if tag == self._hidden[-1][0] and tag not in _VOID:
                self._hidden[-1][1] += 1
            elif tag not in _VOID and is_hidden(attrs, tag, self.sheet):
                self._hidden.append([tag, 1])
            return
        if tag not in _VOID and is_hidden(attrs, tag, self.sheet):
            self._flush()
            self._hidden.append([tag, 1])
            return
        if tag in _INVISIBLE:
            self._invisible += 1
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
        if self._hidden:
            if tag == self._hidden[-1][0]:
                self._hidden[-1][1] -= 1
                if self._hidden[-1][1] == 0:
                    self._hidden.pop()
            return
        if tag in _INVISIBLE:
            self._invisible = max(0, self._invisible - 1)
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
        if self._hidden or self._invisible:
            self.hidden_chars += len(data.strip())
            return
        if self._in_title:
            self.title += data
        if not self._skip:
            self._buf.append(data)

    def handle_comment(self, data: str) -> None:
        self.hidden_chars += len(data.strip())

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
    ex = _Extractor(page_stylesheet(source))
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
        parser="citerag.html/3 (html.parser; hidden content and <style> rules)",
        hidden_chars=ex.hidden_chars,
        warnings=[f"left out {ex.hidden_chars} characters of hidden content"]
        if ex.hidden_chars
        else [],
    )

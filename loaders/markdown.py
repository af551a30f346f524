"""Markdown loader: the raw file is the canonical text; headings give section paths.

Each section body (the text after its heading line, up to the next heading) becomes one
segment whose ``section`` is the heading path, e.g. ``"Handbook > Billing > Late fees"``.
Heading lines themselves are not chunk content: they travel in the contextual header.
Headings are ATX (``## Usage``) or setext (``Usage`` underlined by ``=====`` or ``-----``).
Fenced code blocks are respected, so a ``# comment`` in code is not a heading.

YAML front matter (a first line ``---``, ``key: value`` lines, a closing ``---`` or ``...``)
stays in the canonical text, so offsets still index the raw file, but lies outside every
segment: it is neither embedded nor quoted. Its mapping is returned as
``ParsedDocument.front_matter`` (user-supplied document metadata, see
:mod:`loaders.pipeline`); a block that is not a YAML mapping is left as ordinary text.

HTML comments (``<!-- ... -->``, outside fenced code) are not rendered, so they are not
indexed either: segments are cut around them (offsets unchanged) and their characters are
counted in ``ParsedDocument.hidden_chars``.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from pathlib import Path
from typing import Any

import yaml  # PyYAML, a dependency of langchain-core

from loaders.base import SECTION_SEP, ParsedDocument, Segment
from loaders.decode import decode_text
from loaders.metadata import file_title

log = logging.getLogger(__name__)

#: ATX heading; an optional closing ``#`` run only counts after whitespace ("# C#" keeps its #).
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
#: A setext heading's underline: ``===`` (level 1) or ``---`` (level 2).
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
#: Lines a setext underline never makes a heading: list items, quotes, table rows, rules.
_NOT_SETEXT = re.compile(r"^(?:[-*+>|]|\d+[.)]\s|(?:[-*_][ \t]*){3,}$)")
#: Front matter: ``---`` on the first line, up to a line that is ``---`` or ``...``.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)^(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S | re.M)


def _plain(value: Any) -> Any:
    """YAML values as JSON-friendly ones (dates as ISO strings), recursively."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def split_front_matter(text: str) -> tuple[dict[str, Any], int]:
    """Read the YAML front matter at the top of a Markdown text.

    Args:
        text: The canonical text (BOM removed, ``\\n`` line ends).

    Returns:
        ``(mapping, body_start)``: the front matter's mapping (dates as ISO strings) and the
        offset of the first character after its closing line; ``({}, 0)`` when the text has
        no front matter or the block is not a YAML mapping (then it is ordinary text).
    """
    m = _FRONT_MATTER.match(text)
    if not m:
        return {}, 0
    try:
        data = yaml.safe_load(m.group(1))
    except yaml.YAMLError as exc:
        log.debug("leading --- block is not YAML front matter: %s", exc)
        return {}, 0
    if data is None:  # "---" then "---": an empty front matter
        data = {}
    if not isinstance(data, dict):
        return {}, 0
    return _plain(data), m.end()


def front_matter_text(value: Any) -> str | None:
    """A front-matter scalar as text (``2022`` -> ``"2022"``), ``None`` if empty or not a scalar.

    Args:
        value: A value of the front matter's mapping.

    Returns:
        The stripped text, or ``None`` for ``None``, booleans, lists, mappings and blanks.
    """
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    return str(value).strip() or None


def _headings(text: str, start: int = 0) -> list[tuple[int, int, int, str]]:
    """Find headings outside fenced code, from offset ``start`` (a line start) on: ATX
    (``## Usage``) and setext (a line of text underlined by ``===``, level 1, or ``---``,
    level 2; :func:`_setext_title`).

    Returns:
        Tuples ``(line_start, body_start, level, title)`` in document order (a setext
        heading's line is its text's, its body starts after the underline).
    """
    out: list[tuple[int, int, int, str]] = []
    in_fence = False
    pos = start
    lines = text[start:].split("\n")
    for i, line in enumerate(lines):
        line_end = pos + len(line)
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and (m := _HEADING.match(line)):
            title = heading_text(m.group(2).strip())
            out.append((pos, min(line_end + 1, len(text)), len(m.group(1)), title))
        elif not in_fence and (m := _SETEXT.match(line)) and i:
            title = _setext_title(lines[i - 1], lines[i - 2] if i >= 2 else "")
            if title and (m.group(1).startswith("=") or not title.endswith((".", ":"))):
                level = 1 if m.group(1).startswith("=") else 2
                head_start = pos - len(lines[i - 1]) - 1
                out.append((head_start, min(line_end + 1, len(text)), level, heading_text(title)))
        pos = line_end + 1
    return out


#: Inline markup a heading's text loses in its section path: links and images (their
#: text kept), strong and emphasis (``**``, ``__``, ``*``, ``_``), code spans.
_INLINE_MARKUP: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),
    (re.compile(r"(?<![\w*])\*(?=[^\s*])([^*]+?)(?<=\S)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_(?=[^\s_])([^_]+?)(?<=\S)_(?![\w_])"), r"\1"),
    (re.compile(r"`([^`]+)`"), r"\1"),
)


def heading_text(title: str) -> str:
    """A heading's words without their inline markup: ``"LB broth (**not** Lennox)"`` ->
    ``"LB broth (not Lennox)"``, ``"[Fees](fees.md)"`` -> ``"Fees"``; what a reader sees,
    for the section path and the title."""
    for pattern, repl in _INLINE_MARKUP:
        title = pattern.sub(repl, title)
    return title


def _setext_title(line: str, above: str) -> str:
    """The title a setext underline gives the line above it, ``""`` when it gives none.

    The line must be a paragraph's only line (a blank line or the text's start above it),
    not indented as code, and not a heading, list item, quote, table row or fence of its own;
    so a ``---`` after a paragraph of several lines stays a rule, as it reads. (The caller
    also keeps ``---`` under a line ending a sentence, ``.`` or ``:``, a rule: a heading
    does not end so, and ``---`` is far more often a rule than ``===``.)
    """
    stripped = line.strip()
    if not stripped or above.strip() or line.startswith(("    ", "\t")):
        return ""
    if _HEADING.match(line) or _FENCE.match(line) or _NOT_SETEXT.match(stripped):
        return ""
    return stripped


def split_sections(
    text: str, heads: list[tuple[int, int, int, str]], start: int = 0
) -> list[Segment]:
    """Turn heading positions into segments with heading paths.

    Args:
        text: Canonical text.
        heads: Output of :func:`_headings` (or any ``(line_start, body_start, level, title)``).
        start: Where the text to index begins (after front matter); nothing before it is in
            a segment.

    Returns:
        One segment per non-empty section body, in order.
    """
    segments: list[Segment] = []
    if not heads or heads[0][0] > start:
        end = heads[0][0] if heads else len(text)
        if text[start:end].strip():
            segments.append(Segment(start, end, section=""))
    stack: list[tuple[int, str]] = []
    for i, (_line_start, body_start, level, title) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        if text[body_start:end].strip():
            segments.append(Segment(body_start, end, section=SECTION_SEP.join(t for _, t in stack)))
    return segments


_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)


def comment_spans(text: str, start: int = 0) -> list[tuple[int, int]]:
    """``(start, end)`` of the HTML comments outside fenced code blocks (an unclosed comment
    runs to the end of the text, as it does when rendered)."""
    fenced: list[tuple[int, int]] = []
    pos, open_at = 0, None
    for line in text.split("\n"):
        if _FENCE.match(line):
            if open_at is None:
                open_at = pos
            else:
                fenced.append((open_at, pos + len(line)))
                open_at = None
        pos += len(line) + 1
    if open_at is not None:
        fenced.append((open_at, len(text)))
    out = []
    for m in _COMMENT.finditer(text, start):
        if not any(a <= m.start() < b for a, b in fenced):
            out.append((m.start(), m.end()))
    return out


def cut_out(segments: list[Segment], spans: list[tuple[int, int]]) -> list[Segment]:
    """The segments with the given character ranges removed (pieces keep their section)."""
    out: list[Segment] = []
    for seg in segments:
        pieces = [(seg.start, seg.end)]
        for a, b in spans:
            nxt = []
            for s0, e0 in pieces:
                if b <= s0 or a >= e0:
                    nxt.append((s0, e0))
                    continue
                if a > s0:
                    nxt.append((s0, a))
                if b < e0:
                    nxt.append((b, e0))
            pieces = nxt
        out.extend(Segment(s0, e0, seg.page, seg.section) for s0, e0 in pieces)
    return out


def load_markdown(path: Path, data: bytes) -> ParsedDocument:
    """Load a Markdown file.

    Args:
        path: The file's path.
        data: The file's bytes.

    Returns:
        The parsed document; its title is the front matter's ``title``, else the first
        level-1 heading, else the file stem.
    """
    text = decode_text(data, path)
    front, body_start = split_front_matter(text)
    heads = _headings(text, body_start)
    first_h1 = next((t for _, _, lvl, t in heads if lvl == 1), None)
    fm_title = front_matter_text(front.get("title"))
    if fm_title:
        title, source = fm_title, "front_matter"
    elif first_h1:
        title, source = first_h1, "first_heading"
    else:
        title, source = file_title(path.name), "file_name"
    comments = comment_spans(text, body_start)
    segments = cut_out(split_sections(text, heads, body_start), comments)
    segments = [seg for seg in segments if text[seg.start : seg.end].strip()]
    hidden = sum(len(text[a:b].strip()) for a, b in comments)
    return ParsedDocument(
        text=text,
        segments=segments,
        hidden_chars=hidden,
        warnings=[f"left out {hidden} characters of HTML comments"] if hidden else [],
        title=title,
        file_type="markdown",
        title_source=source,
        first_heading=first_h1,
        front_matter=front,
        body_start=body_start,
        parser="citerag.markdown/2 (HTML comments left out)",
    )

"""Markdown loader: the raw file is the canonical text; ATX headings give section paths.

Each section body (the text after its heading line, up to the next heading) becomes one
segment whose ``section`` is the heading path, e.g. ``"Handbook > Billing > Late fees"``.
Heading lines themselves are not chunk content: they travel in the contextual header.
Fenced code blocks are respected, so a ``# comment`` in code is not a heading.
"""

from __future__ import annotations

import re
from pathlib import Path

from loaders.base import ParsedDocument, Segment
from loaders.decode import decode_text

#: ATX heading; an optional closing ``#`` run only counts after whitespace ("# C#" keeps its #).
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def _headings(text: str) -> list[tuple[int, int, int, str]]:
    """Find ATX headings outside fenced code.

    Returns:
        Tuples ``(line_start, body_start, level, title)`` in document order.
    """
    out: list[tuple[int, int, int, str]] = []
    in_fence = False
    pos = 0
    for line in text.split("\n"):
        line_end = pos + len(line)
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and (m := _HEADING.match(line)):
            out.append((pos, min(line_end + 1, len(text)), len(m.group(1)), m.group(2).strip()))
        pos = line_end + 1
    return out


def split_sections(text: str, heads: list[tuple[int, int, int, str]]) -> list[Segment]:
    """Turn heading positions into segments with heading paths.

    Args:
        text: Canonical text.
        heads: Output of :func:`_headings` (or any ``(line_start, body_start, level, title)``).

    Returns:
        One segment per non-empty section body, in order.
    """
    segments: list[Segment] = []
    if not heads or heads[0][0] > 0:
        end = heads[0][0] if heads else len(text)
        if text[:end].strip():
            segments.append(Segment(0, end, section=""))
    stack: list[tuple[int, str]] = []
    for i, (_line_start, body_start, level, title) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        if text[body_start:end].strip():
            segments.append(Segment(body_start, end, section=" > ".join(t for _, t in stack)))
    return segments


def load_markdown(path: Path, data: bytes) -> ParsedDocument:
    """Load a Markdown file.

    Args:
        path: The file's path.
        data: The file's bytes.

    Returns:
        The parsed document; its title is the first level-1 heading, else the file stem.
    """
    text = decode_text(data, path)
    heads = _headings(text)
    title = next((t for _, _, lvl, t in heads if lvl == 1), path.stem.replace("_", " "))
    return ParsedDocument(
        text=text,
        segments=split_sections(text, heads),
        title=title,
        file_type="markdown",
        parser="citerag.markdown/1",
    )

"""Sentence segmentation with character spans (used for sentence vectors and quoting).

Rules: a sentence ends at ``.``, ``!`` or ``?`` (optionally followed by closing quotes or
brackets) before whitespace, except after common abbreviations; at a blank line; and at a
single line break only when the line is short (a heading, a table cell, a list item) or ends
with sentence punctuation — so prose hard-wrapped by PDF extraction stays in one sentence.
"""

from __future__ import annotations

import re

_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*[ \t]+|(?<=[.!?])[\"'”’)\]]*\n+|\n\s*\n\s*|\n")
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|No|Nos|Mr|Mrs|Ms|Dr|St|Inc|Ltd|Co|Fig|approx|cf|al)\.)$",
    re.IGNORECASE,
)
MIN_CHARS = 12
#: A line shorter than this that is followed by a line break ends a sentence.
SHORT_LINE = 45


def _line_before(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    return text[start:pos]


def sentence_spans(text: str, min_chars: int = MIN_CHARS) -> list[tuple[int, int]]:
    """Split text into sentences and return their ``(start, end)`` spans.

    Spans exclude surrounding whitespace; fragments shorter than ``min_chars`` are merged into
    the following sentence (or the previous one at the end).

    Args:
        text: Text to split.
        min_chars: Minimum sentence length.

    Returns:
        Non-overlapping spans in order, each with ``text[start:end].strip() == text[start:end]``.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _END.finditer(text):
        sep = m.group(0)
        if sep == "\n":  # a single line break inside a paragraph
            line = _line_before(text, m.start()).rstrip()
            if len(line) >= SHORT_LINE and not line.endswith((".", "!", "?", ":", ";")):
                continue
        elif "\n" not in sep and _ABBREV.search(text[max(0, m.start() - 8) : m.start()]):
            continue  # "e.g. ", "No. 4": an abbreviation, not a sentence end
        closers = len(sep) - len(sep.lstrip("\"'”’)]"))  # a closing quote ends the sentence
        spans.append((start, m.start() + closers))
        start = m.end()
    spans.append((start, len(text)))
    out: list[tuple[int, int]] = []
    pending: int | None = None
    for s, e in spans:
        seg = text[s:e]
        lead = len(seg) - len(seg.lstrip())
        s, e = s + lead, s + len(seg.rstrip())
        if e <= s:
            continue
        if pending is not None:
            s = pending
            pending = None
        if e - s < min_chars:
            pending = s
            continue
        out.append((s, e))
    if pending is not None:
        if out:
            out[-1] = (out[-1][0], len(text.rstrip()))
        elif text.strip():
            out.append((pending, len(text.rstrip())))
    return out

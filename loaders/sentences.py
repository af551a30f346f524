"""Sentence segmentation with character spans (used for sentence vectors and quoting)."""

from __future__ import annotations

import re

# A sentence ends at . ! ? (optionally followed by closing quotes/brackets) before whitespace,
# or at a line break; abbreviations such as "e.g." and "No." are not treated as ends.
_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+|\n+")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|No|Nos|Mr|Mrs|Ms|Dr|St|Inc|Ltd|Co|Fig|approx)\.)$",
                     re.IGNORECASE)
MIN_CHARS = 12


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
        if m.group(0).strip() == "" and "\n" not in m.group(0) and _ABBREV.search(
            text[max(0, m.start() - 8) : m.start()]
        ):
            continue
        end = m.start() + len(m.group(0).rstrip())
        spans.append((start, end))
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

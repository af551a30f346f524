"""The parsing review: what the index will answer from, page by page.

:func:`parsing_review` turns a parsed document into per-page records (the page's extracted
text, its typed blocks, flags for empty and short pages) plus the loader's warnings, so the
web app can show each rendered page beside what was read from it
(``GET /app/api/documents/{id}/review``; the page images come from the viewer's route).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from loaders.base import ParsedDocument

#: A page with fewer extracted characters than this is flagged ``short``.
SHORT_PAGE_CHARS = 200
#: Longest text sent for one page (the rest is cut, and ``truncated`` says so).
MAX_PAGE_CHARS = 20_000
#: Most blocks listed for one page.
MAX_BLOCKS = 400


@dataclass
class ReviewBlock:
    """A typed span on a page (heading, table row, ...), offsets into the page's text."""

    kind: str
    start: int
    end: int


@dataclass
class ReviewPage:
    """One page (or, for a document without pages, the whole text).

    Attributes:
        page: 1-based page, ``None`` for a document without pages.
        start: Where the page's text starts in the canonical text.
        text: The page's extracted text.
        chars: Its length (before any cut).
        sections: Heading paths of its segments, in order, without repeats.
        blocks: Its typed blocks (offsets relative to ``text``).
        empty: No or almost no text was extracted (a scan, an image; the loader's
            ``empty_pages``).
        short: Not empty, but fewer than :data:`SHORT_PAGE_CHARS` characters.
        truncated: ``text`` was cut at :data:`MAX_PAGE_CHARS`.
    """

    page: int | None
    start: int
    text: str
    chars: int
    sections: list[str] = field(default_factory=list)
    blocks: list[ReviewBlock] = field(default_factory=list)
    empty: bool = False
    short: bool = False
    truncated: bool = False


def _page_spans(doc: ParsedDocument) -> list[tuple[int | None, int, int]]:
    """``(page, start, end)`` per page (one span for a document without pages)."""
    if not doc.pages:
        return [(None, doc.body_start, len(doc.text))]
    spans: list[tuple[int | None, int, int]] = []
    for page in range(1, doc.pages + 1):
        segs = [s for s in doc.segments if s.page == page]
        blocks = [b for b in doc.blocks if b.page == page]
        starts = [s.start for s in segs] + [b.start for b in blocks]
        ends = [s.end for s in segs] + [b.end for b in blocks]
        if starts:
            spans.append((page, min(starts), max(ends)))
        else:
            spans.append((page, 0, 0))
    return spans


def parsing_review(doc: ParsedDocument, short_chars: int = SHORT_PAGE_CHARS) -> dict[str, Any]:
    """Per-page text, blocks and flags of a parsed document.

    Args:
        doc: The loader's result.
        short_chars: Pages with fewer characters are flagged ``short``.

    Returns:
        ``{"pages": [...], "warnings": [...], "empty_pages": [...], "short_pages": [...],
        "block_counts": {kind: n}, "file_type", "title", "parser"}``.

    Raises:
        ValueError: ``short_chars`` is negative.
    """
    if short_chars < 0:
        raise ValueError(f"short_chars must be >= 0, not {short_chars}")
    empty = set(doc.empty_pages)
    pages: list[ReviewPage] = []
    counts: dict[str, int] = {}
    for b in doc.blocks:
        counts[b.kind] = counts.get(b.kind, 0) + 1
    for page, start, end in _page_spans(doc):
        text = doc.text[start:end]
        stripped = len(text.strip())
        is_empty = page in empty or stripped == 0
        cut = text[:MAX_PAGE_CHARS]
        sections = list(
            dict.fromkeys(
                s.section
                for s in doc.segments
                if (s.page == page if page is not None else True) and s.section
            )
        )
        blocks = [
            ReviewBlock(b.kind, b.start - start, min(b.end, start + len(cut)) - start)
            for b in doc.blocks
            if (b.page == page or page is None)
            and start <= b.start < start + len(cut)
            and b.kind != "paragraph"
        ][:MAX_BLOCKS]
        pages.append(
            ReviewPage(
                page=page,
                start=start,
                text=cut,
                chars=len(text),
                sections=sections[:50],
                blocks=blocks,
                empty=is_empty,
                short=not is_empty and stripped < short_chars,
                truncated=len(text) > len(cut),
            )
        )
    return {
        "title": doc.title,
        "file_type": doc.file_type,
        "parser": doc.parser,
        "pages": [asdict(p) for p in pages],
        "warnings": list(doc.warnings),
        "empty_pages": [p.page for p in pages if p.empty and p.page is not None],
        "short_pages": [p.page for p in pages if p.short and p.page is not None],
        "block_counts": counts,
    }

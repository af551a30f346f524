"""Page diversity in the final order: one page's chunks do not crowd out the other pages.

A statement page of a filing is cut into several chunks, and the second stage often ranks
three of them above any other page ("Free Cash Flow (non-GAAP measure)", its notes, the
table's continuation), so the four passages a reader sees show one page. With a limit of
``per_page``, each page's first ``per_page`` chunks keep their order and every further
chunk of that page moves after them (a stable partition, so nothing else moves). A page is
a (document, page) pair — a PDF page, a slide; chunks without a page (HTML, Markdown, text,
Word, a sheet's rows) are never moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: ``scores`` key recording that a candidate was moved after other pages' chunks (its
#: place among its page's chunks, 1-based: ``per_page + 1`` or more).
DEMOTED = "page_repeat"


def page_of(candidate: Any) -> tuple[str, int] | None:
    """The (document, page) a candidate lies on, or ``None`` when its chunk has no page.

    Args:
        candidate: A :class:`~chains.candidates.Candidate` (``meta`` holds ``doc_id`` or
            ``doc_name``, and ``page``).

    Returns:
        The pair, or ``None``.
    """
    page = candidate.meta.get("page")
    if page is None or isinstance(page, bool):
        return None
    try:
        number = int(page)
    except (TypeError, ValueError):
        return None
    doc = candidate.meta.get("doc_id") or candidate.meta.get("doc_name") or ""
    return (str(doc), number)


def diversify_pages(candidates: Sequence[Any], per_page: int) -> list[Any]:
    """Move each page's chunks past the first ``per_page`` after every other chunk.

    Args:
        candidates: Candidates, best first.
        per_page: Chunks of one page kept in place (``0``: the order is returned as it is).

    Returns:
        A new list: the kept candidates in their order, then the moved ones in theirs. A
        moved candidate records its place among its page's chunks as
        ``scores["page_repeat"]``.

    Raises:
        ValueError: ``per_page`` is negative.
    """
    if per_page < 0:
        raise ValueError(f"per_page must be 0 (off) or more, got {per_page}")
    if per_page == 0:
        return list(candidates)
    seen: dict[tuple[str, int], int] = {}
    kept: list[Any] = []
    moved: list[Any] = []
    for c in candidates:
        page = page_of(c)
        if page is None:
            kept.append(c)
            continue
        seen[page] = seen.get(page, 0) + 1
        if seen[page] > per_page:
            c.scores[DEMOTED] = float(seen[page])
            moved.append(c)
        else:
            kept.append(c)
    return kept + moved

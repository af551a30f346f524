"""Parent expansion: give the model a matched chunk's table or section, cite the chunk only.

Small chunks are good for matching and poor for reading: a retrieved table row without its
header row, or one paragraph of a procedure, can be unreadable on its own. Parent-child
retrieval keeps the small unit for matching and shows the model its parent for generation
(``expand`` knob, :class:`graphs.config.RAGConfig`):

* ``none`` (default): passages are the matched chunks' own words;
* ``table``: a passage whose chunk holds table rows (``block_type == "table_row"``) gets the
  neighbouring chunks of the same table: the contiguous run of ``table_row`` chunks of its
  segment (same document, section and page);
* ``section``: every passage gets the neighbouring chunks of its segment (same document,
  section path and page), nearest first.

The neighbours come from the index (:meth:`citerag.stores.contract.SearchIndex.document_chunks`,
by document and character offsets, under the request's filter), never from re-reading the
file. Expansion only spends the token budget the selected passages left (best passage first,
one neighbour at a time, alternating before and after the match, a side closing at the first
neighbour that does not fit or belongs to another parent), so it never drops or reorders a
passage. A chunk is shown at most once: expansion stops at a chunk that is itself a passage or
already part of an earlier passage's expansion.

What the expansion does **not** change: the passage's number, its candidate, and therefore what
``[n]`` resolves to. Citations are built from the matched chunk (document, locator, quote
inside the chunk's own words: :func:`chains.citations.build_citations`); a model's quote is
verified against the matched words, and one found only in the expansion keeps the bare
``[n]`` (:func:`chains.citations.validate` records it). The extractive answerer quotes the
matched chunks' own words only and ignores the expansion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from langchain_core.documents import Document

from chains.assemble import (
    EXPANSION_OVERHEAD_TOKENS,
    AssembledContext,
    Expansion,
    Passage,
    Piece,
    approx_tokens,
)

#: The values of the ``expand`` knob.
EXPAND_MODES = ("none", "table", "section")

#: ``(doc_id, start, end)`` -> the stored chunks of that document overlapping ``[start, end)``.
NeighbourLookup = Callable[[str, int, int], Sequence[Document]]


def _meta_int(meta: dict[str, Any], key: str) -> int | None:
    value = meta.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _same_parent(mode: str, match: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether a neighbouring chunk belongs to the match's table (``table``) or segment."""
    if (other.get("section") or "") != (match.get("section") or ""):
        return False
    if other.get("page") != match.get("page"):
        return False
    return mode != "table" or other.get("block_type") == "table_row"


def expand_passage(
    passage: Passage,
    mode: str,
    budget: int,
    neighbours: NeighbourLookup,
    *,
    taken: set[str] | frozenset[str] = frozenset(),
) -> Expansion | None:
    """The parent text of one passage, within ``budget`` estimated tokens.

    Args:
        passage: The matched passage (its chunk's metadata needs ``doc_id``, ``start``,
            ``end``).
        mode: ``table`` or ``section`` (``none``: nothing).
        budget: Most estimated tokens to add.
        neighbours: Looks up a document's chunks in a character window.
        taken: Chunk ids already in the context (passages, earlier expansions): expansion
            stops at them.

    Returns:
        The expansion, or ``None`` when the passage has no parent of that kind, no neighbour,
        or no neighbour fits.

    Raises:
        ValueError: ``mode`` is not one of :data:`EXPAND_MODES`.
    """
    if mode not in EXPAND_MODES:
        raise ValueError(f"expand must be one of {', '.join(EXPAND_MODES)}, not {mode!r}")
    meta = passage.candidate.meta
    start, end = _meta_int(meta, "start"), _meta_int(meta, "end")
    doc_id = str(meta.get("doc_id") or "")
    if mode == "none" or budget <= 0 or start is None or end is None or not doc_id:
        return None
    if mode == "table" and meta.get("block_type") != "table_row":
        return None
    if budget <= EXPANSION_OVERHEAD_TOKENS:
        return None
    window = 4 * budget + 4  # a piece longer than this costs more than the budget
    found = [
        d
        for d in neighbours(doc_id, max(0, start - window), end + window)
        if str(d.metadata.get("chunk_id", d.id)) != passage.candidate.chunk_id
        and _meta_int(d.metadata, "start") is not None
        and _meta_int(d.metadata, "end") is not None
    ]
    found.sort(key=lambda d: (d.metadata["start"], d.metadata["end"]))
    left = [d for d in reversed(found) if d.metadata["start"] < start]
    right = [d for d in found if d.metadata["start"] > start]
    before: list[Piece] = []
    after: list[Piece] = []
    lo, hi = start, end  # the span covered so far
    spent = 0
    sides = {"before": iter(left), "after": iter(right)}
    while sides:
        for side in list(sides):
            doc = next(sides[side], None)
            piece = None if doc is None else _piece(doc, lo, hi, side)
            if doc is None or not _same_parent(mode, meta, doc.metadata):
                del sides[side]
                continue
            if str(doc.metadata.get("chunk_id", doc.id)) in taken:
                del sides[side]
                continue
            if piece is None:  # inside what is already covered: look further out
                continue
            cost = approx_tokens(piece.text)
            if EXPANSION_OVERHEAD_TOKENS + spent + cost > budget:
                del sides[side]
                continue
            spent += cost
            if side == "before":
                before.insert(0, piece)
                lo = piece.start
            else:
                after.append(piece)
                hi = piece.end
    if not before and not after:
        return None
    return Expansion(mode, tuple(before), tuple(after))


def _piece(doc: Document, lo: int, hi: int, side: str) -> Piece | None:
    """The part of a neighbouring chunk outside ``[lo, hi)`` on one side (``None``: none)."""
    meta = doc.metadata
    s, e = int(meta["start"]), int(meta["end"])
    content = str(meta.get("content", doc.page_content))
    if len(content) != e - s:  # not a chunk with exact offsets: show nothing of it
        return None
    a, b = (s, min(e, lo)) if side == "before" else (max(s, hi), e)
    text = content[a - s : b - s]
    if b <= a or not text.strip():
        return None
    return Piece(a, b, text, str(meta.get("chunk_id", doc.id)))


def expand_context(
    ctx: AssembledContext,
    mode: str,
    token_budget: int,
    neighbours: NeighbourLookup,
) -> AssembledContext:
    """Expand the assembled passages to their parents with the budget they left.

    Args:
        ctx: The assembled context (passages selected and numbered).
        mode: One of :data:`EXPAND_MODES`.
        token_budget: The context's whole token budget (``ctx.tokens`` already spent).
        neighbours: Looks up a document's chunks in a character window.

    Returns:
        The same passages, in the same order with the same numbers and candidates, each
        with its :class:`Expansion` (``None`` when not expanded); ``tokens`` includes the
        expansions, ``expanded_tokens`` counts them.

    Raises:
        ValueError: ``mode`` is not one of :data:`EXPAND_MODES`.
    """
    if mode not in EXPAND_MODES:
        raise ValueError(f"expand must be one of {', '.join(EXPAND_MODES)}, not {mode!r}")
    if mode == "none" or not ctx.passages:
        return ctx
    left = token_budget - ctx.tokens
    taken = {p.candidate.chunk_id for p in ctx.passages}
    passages: list[Passage] = []
    added = 0
    for p in ctx.passages:
        exp = (
            expand_passage(p, mode, left - added, neighbours, taken=taken) if left > added else None
        )
        if exp is not None:
            added += exp.tokens
            taken.update(piece.chunk_id for piece in exp.pieces)
        passages.append(Passage(p.number, p.candidate, expansion=exp))
    return replace(ctx, passages=passages, tokens=ctx.tokens + added, expanded_tokens=added)

"""A table row's sentence scored with its headers, quoted verbatim.

A table row's cells stand in the canonical text without their column names ("Oolong
Leaf Co | Net 45"), so a sentence span over the row misses a question put in the header's
words ("payment terms of the Oolong supplier"). At chunking, :func:`row_texts` records, per
chunk, each table row lying inside it: its span within the chunk's ``content`` and its
described text (the table's title and :meth:`~loaders.blocks.TableRow.describe`: headers and
cells). The record is chunk metadata (``metadata["row_text"]``), so it is stored by both
stores without a schema change, and an index built before it simply has none.

:func:`scored_texts` then gives, for a chunk's sentence spans, the text each sentence is
*scored* by: the row's described text for a sentence inside a row, else the sentence itself.
The sentence vectors (at ingest), the reranker's lexical coverage and the extractive
answerer's checks read it; the quote stays ``content[start:end]``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from numbers import Integral
from typing import Any

from loaders.base import (
    ATTACHMENTS_SECTION,
    HEADER_SECTION,
    ROW_SEP,
    SECTION_SEP,
    Table,
    is_signature_section,
)
from loaders.file_types import LINE_PARAGRAPHS
from loaders.sentences import sentence_spans

#: The chunk metadata key holding ``[[start, end, text], ...]`` (spans within ``content``).
ROW_TEXT_KEY = "row_text"
#: A sentence of this many words or fewer is scored with its heading (:func:`with_heading`).
CONTEXT_WORDS = 12
#: The chunk metadata key holding a spreadsheet or CSV row group's ``[[start, end, number],
#: ...]``: each row's span in the document's canonical text and its number in its source.
ROW_NUMBERS_KEY = "row_numbers"


def quoted_rows(meta: Mapping[str, Any] | None, start: int, end: int) -> tuple[int, int] | None:
    """The first and last source row numbers (:data:`ROW_NUMBERS_KEY`) of the rows that the
    range ``start``–``end`` of the canonical text crosses: a citation of one row of a row
    group points at that row, not the group. ``None`` when the chunk records no row numbers
    (an index built before them) or the range crosses none of its rows."""
    rows = (meta or {}).get(ROW_NUMBERS_KEY) or []
    if isinstance(rows, str):  # a store that keeps metadata as text
        try:
            rows = json.loads(rows)
        except ValueError:
            return None
    if not isinstance(rows, (list, tuple)):
        return None
    hit = [
        int(r[2])
        for r in rows
        if isinstance(r, (list, tuple))
        and len(r) == 3
        and all(isinstance(x, Integral) and not isinstance(x, bool) for x in r)
        and r[0] < end
        and start < r[1]
    ]
    return (min(hit), max(hit)) if hit else None


def recorded_rows(meta: Mapping[str, Any] | None) -> list[tuple[int, int, str, str]]:
    """A chunk's recorded rows as ``(start, end, described, stated)``: the one reader of
    :data:`ROW_TEXT_KEY`. Malformed records (a span that is not two integers, a text that is
    not a string, a record list that is neither a list nor its JSON text) are left out, so a
    damaged or hand-edited index degrades to plain sentences instead of failing a question."""
    rows = (meta or {}).get(ROW_TEXT_KEY) or []
    if isinstance(rows, str):  # a store that keeps metadata as text
        try:
            rows = json.loads(rows)
        except ValueError:
            return []
    if not isinstance(rows, (list, tuple)):
        return []
    out = []
    for row in rows:
        if not isinstance(row, (list, tuple)) or len(row) < 3:
            continue
        start, end, described = row[0], row[1], row[2]
        if not all(isinstance(x, Integral) and not isinstance(x, bool) for x in (start, end)):
            continue
        if not isinstance(described, str):
            continue
        stated = row[3] if len(row) > 3 and isinstance(row[3], str) else ""
        out.append((int(start), int(end), described, stated))
    return out


def row_texts(start: int, end: int, tables: Sequence[Table]) -> list[list[Any]]:
    """The table rows inside ``[start, end)`` with their described text.

    Args:
        start: The chunk's first character in the canonical text.
        end: One past its last character.
        tables: The document's tables.

    Returns:
        ``[[row start, row end, described text, stated text], ...]`` relative to ``start``, in
        order (described = the table's title and the row with its column names, what the row
        is scored by; stated = the row with its column names, what an extractive answer says);
        a row overlapping an earlier one (tables read twice) is left out.
    """
    if start > end:
        raise ValueError(f"start must not exceed end, got {start}-{end}")
    found: list[list[Any]] = []
    for table in tables:
        if table.end <= start or table.start >= end:
            continue
        for row in table.rows:
            if row.start >= start and row.end <= end and row.end > row.start:
                described = row.describe()
                text = ROW_SEP.join(p for p in (table.title, described) if p)
                found.append([row.start - start, row.end - start, text, described])
    found.sort(key=lambda r: (r[0], r[1]))
    out: list[list[Any]] = []
    for item in found:
        if out and item[0] < out[-1][1]:
            continue
        out.append(item)
    return out


def heading_context(meta: Mapping[str, Any] | None) -> str:
    """The heading a chunk's sentences stand under: the last part of its section path
    (``"IT setup guide > Wi-Fi"`` -> ``"Wi-Fi"``; a slide's title). ``""`` for a chunk
    without one, for a heading that is the document's title, for an FAQ pair (its heading is
    its question, which the second stage and the answerer already read as one of its
    sentences: ``chains.non_answers.heading_question``) and for an e-mail's header block and
    attachment line (labels, not headings)."""
    meta = meta or {}
    if str(meta.get("block_type") or "").lower() == "qa_pair":
        return ""
    leaf = str(meta.get("section") or "").rsplit(SECTION_SEP, 1)[-1].strip()
    if leaf in (HEADER_SECTION, ATTACHMENTS_SECTION):
        return ""
    # the document's title heads its opening lines: it names the document, not what a line
    # is about, and would make every short line answer any question naming the organisation
    return "" if leaf == str(meta.get("title") or "").strip() else leaf


def with_heading(text: str, heading: str) -> str:
    """A short line scored with the heading it stands under: ``"Wi-Fi: Visitors: HF-Guest."``.

    A line of :data:`CONTEXT_WORDS` words or fewer (a list item, a label and its value, a
    slide bullet) says little without its heading, as a table cell says little without its
    column name; a longer sentence, the heading itself and an empty span are left as they
    are.

    Args:
        text: The sentence as written.
        heading: From :func:`heading_context` (``""``: none).
    """
    if (
        not heading
        or not text.strip()
        or len(text.split()) > CONTEXT_WORDS
        or " ".join(text.split()) == heading
    ):
        return text
    return f"{heading}: {text}"


def scored_texts(
    content: str, spans: Sequence[tuple[int, int]], meta: Mapping[str, Any] | None
) -> list[str]:
    """The text each sentence span is scored by.

    Args:
        content: The chunk's own words.
        spans: Sentence spans within ``content``.
        meta: The chunk's metadata (``None`` or without :data:`ROW_TEXT_KEY`: the sentences).

    Returns:
        Per span, its table row's described text when the span lies inside a row, else the
        sentence, a short one with its heading (:func:`with_heading`).
    """
    rows = recorded_rows(meta)
    heading = heading_context(meta)
    out: list[str] = []
    for s, e in spans:
        text = content[s:e]
        for row in rows:
            if row[0] <= s and e <= row[1] and text.strip():
                text = row[2]
                break
        else:
            text = with_heading(text, heading)
        out.append(text)
    return out


def row_title(row: tuple[int, int, str, str]) -> str:
    """The title of the table a recorded row (from :func:`recorded_rows`) belongs to: its
    described text less its stated text, ``""`` for a table without a title and for a row
    recorded before the stated text was."""
    _start, _end, described, stated = row
    if not stated:
        return ""
    tail = ROW_SEP + stated
    return described[: -len(tail)] if described.endswith(tail) else ""


def row_span(meta: Mapping[str, Any] | None, start: int, end: int) -> tuple[int, int] | None:
    """The span (within ``content``) of the table row holding ``[start, end)``, if any.

    A sentence cut from inside a row (its cells, the label on a line of its own) is quoted as
    the whole row, so a reader sees what the numbers are: ``Total revenue 412,860 371,540``
    rather than ``412,860 371,540``.
    """
    for row in recorded_rows(meta):
        if row[0] <= start and end <= row[1]:
            return row[0], row[1]
    return None


def row_statement(meta: Mapping[str, Any] | None, start: int, end: int) -> str | None:
    """The row spanning exactly ``[start, end)`` stated with its column names, if any.

    ``Earl Grey Supreme — Pack: 1 kg; Price per kg: £28.50`` for the quoted
    ``Earl Grey Supreme 1 kg £28.50``: what the extractive answerer says for a quoted row
    (its citation still quotes the row verbatim). ``None`` for a span that is not a row,
    and for an index built before rows recorded it.
    """
    for row in recorded_rows(meta):
        if row[0] == start and row[1] == end and row[3]:
            return row[3]
    return None


def row_sentence_spans(content: str, meta: Mapping[str, Any] | None) -> list[tuple[int, int]]:
    """A chunk's sentence spans, cut where a table row begins or ends.

    A line of a file type whose lines are paragraphs (``meta["file_type"]`` in
    :data:`loaders.file_types.LINE_PARAGRAPHS`), or of an e-mail signature (its section
    :func:`loaders.base.is_signature_section`), ends its sentence. The sentence rule
    (:func:`loaders.sentences.sentence_spans`) ends a sentence at
    punctuation, and a table's lines have none: ``Bristol and Bath Tuesday Monday 12:00 Own
    van`` and ``London Wednesday Monday 16:00 DPD`` read as one sentence, scored as plain
    text, so the London row is never a sentence of its own with its column names. Each
    recorded row (:data:`ROW_TEXT_KEY`) crossed by a span cuts it at the row's edges; spans
    inside a row, and every span of a chunk without rows, are left as they are.

    Args:
        content: The chunk's own words.
        meta: The chunk's metadata (``None`` or without rows: the sentence spans).

    Returns:
        Non-overlapping spans in order, each stripped of surrounding whitespace.
    """
    lines = str((meta or {}).get("file_type") or "") in LINE_PARAGRAPHS
    # a signature's lines are records (name, role, address, telephone), never wrapped prose
    lines = lines or is_signature_section(str((meta or {}).get("section") or ""))
    spans = sentence_spans(content, line_paragraphs=lines)
    rows = [(r[0], r[1]) for r in recorded_rows(meta)]
    if not rows:
        return spans
    out: list[tuple[int, int]] = []
    for s, e in spans:
        cuts = sorted({x for r0, r1 in rows if r0 < e and s < r1 for x in (r0, r1) if s < x < e})
        edges = [s, *cuts, e]
        for a, b in itertools.pairwise(edges):
            piece = content[a:b]
            lead = len(piece) - len(piece.lstrip())
            trail = len(piece) - len(piece.rstrip())
            if b - trail > a + lead:
                out.append((a + lead, b - trail))
    return out

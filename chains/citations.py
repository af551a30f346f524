"""Parse a model's answer, validate its citations and attach server-side locators.

The model writes prose with markers ``[n]`` or ``[n: "verbatim quote"]`` (or the variants
models write, :data:`CITATION_MARKER`) and a structured block ``<summary>{...}</summary>``.
This module:

* parses the block strictly, or recovers it by regex (the ladder's second rung), or defaults
  its fields while keeping the prose;
* checks every ``[n]`` resolves to a supplied passage and every quote is a verbatim
  (whitespace-normalised) substring of *that passage's own content*; invented ids and
  fabricated quotes are removed from the answer and flagged, and so are quotes of a sentence
  flagged as an instruction and what is left of an unreadable marker; sentences without a
  citation are flagged;
* builds citations from what the **server** knows: document, locator label, link fragment
  (``#page=N`` for PDFs, ``#slide=N`` for slides, ``#sheet=Sales&rows=12-18`` for spreadsheet
  rows, ``#char=start,end`` otherwise), the verified quote and its exact
  range in the document's canonical text, and the passage's scores.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote as url_quote

import regex

from chains.assemble import Passage
from chains.model_refusals import is_refusal
from loaders.instructions import instruction_spans
from loaders.row_text import quoted_rows
from loaders.sentences import sentence_spans

INSUFFICIENT = "INSUFFICIENT_EVIDENCE"
_BLOCK = re.compile(r"<summary>\s*(.*?)\s*</summary>", re.DOTALL | re.IGNORECASE)
_BLOCK_OPEN = re.compile(r"<summary>\s*(.*)\Z", re.DOTALL | re.IGNORECASE)
#: Quote characters accepted around a marker's quote: straight and curly, double and single.
QUOTE_CHARS = "\"“”'‘’"
_Q = "[" + QUOTE_CHARS + "]"
#: Words a model may write before a marker's number (``[Passage 1: "…"]``, ``[Source 2]``).
_PREFIX = r"(?:(?:passages?|sources?|documents?|docs?|ref(?:erence)?s?)\.?\s*#?\s*)?"
#: The bracket pairs a marker may be written in: ASCII square brackets, and the full-width
#: lenticular (``【1】``) and square (``［1］``) ones some models write. A marker closes with
#: the bracket that pairs with its opening one.
MARKER_BRACKETS: dict[str, str] = {"[": "]", "【": "】", "［": "］"}
#: Any opening bracket of :data:`MARKER_BRACKETS` (a character class).
_OPEN = "[" + "".join(re.escape(o) for o in MARKER_BRACKETS) + "]"
#: Characters of no bracket of :data:`MARKER_BRACKETS` (for a class: ``[^...]``).
_BRACKET_CHARS = "".join(re.escape(o + c) for o, c in MARKER_BRACKETS.items())
_OPENINGS = list(MARKER_BRACKETS)
#: An opening bracket that records which pair it opens (groups ``o0``, ``o1``, …) and the
#: closing bracket of that pair (:data:`_PAIRED_CLOSE`).
_PAIRED_OPEN = (
    "(?:"
    + "|".join(f"(?P<o{i}>{re.escape(o)})" for i, o in enumerate(_OPENINGS[:-1]))
    + "|"
    + re.escape(_OPENINGS[-1])
    + ")"
)
_PAIRED_CLOSE = re.escape(MARKER_BRACKETS[_OPENINGS[-1]])
for _i in reversed(range(len(_OPENINGS) - 1)):
    _PAIRED_CLOSE = f"(?(o{_i}){re.escape(MARKER_BRACKETS[_OPENINGS[_i]])}|{_PAIRED_CLOSE})"
#: A citation marker as models write it. Group ``n`` is the passage number; group ``quote``
#: a quote in quotation marks (``\"`` escapes are left for the caller), group ``text`` an
#: unquoted one; both ``None`` for a bare marker. Read them with :func:`marker_parts`.
#:
#: Forms: ``[n]``, ``[n: "quote"]`` (the canonical ones the prompt asks for), any of
#: :data:`QUOTE_CHARS` around the quote (``[n: 'quote']``, ``[n: “quote”]``), ``[n, "quote"]``,
#: ``[n: unquoted text]``, and a ``Passage`` / ``Source`` / ``Document`` / ``Ref`` word before
#: the number (``[Passage 1: "quote"]``), case-insensitive; each in any bracket pair of
#: :data:`MARKER_BRACKETS` (``【1】``, ``【1: “quote”】``, ``［1］``). A quoted quote may itself
#: contain quote characters (filings write “Notes”) and brackets: it ends at the first quote
#: character followed by the closing bracket, and never runs into the next marker (an
#: unclosed quote does not swallow later markers; it is left as a fragment,
#: :data:`MARKER_FRAGMENT`). ``[n, m]`` lists are not quotes (:func:`validate` splits them
#: first, :data:`MARKER_LIST`).
#: The one pattern for parsing markers: import it rather than writing another.
CITATION_MARKER = re.compile(
    _PAIRED_OPEN + r"\s*" + _PREFIX + r"(?P<n>\d+)\s*(?:"
    r"[:,]\s*"
    + _Q
    + r"(?P<quote>(?:(?!"
    + _OPEN
    + r"\s*"
    + _PREFIX
    + r"\d+\s*[:,])(?:\\.|[^\\]))*?)"
    + _Q
    + r"\s*"
    r"|:\s*(?P<text>[^\s" + _BRACKET_CHARS + QUOTE_CHARS + r"][^" + _BRACKET_CHARS + r"]*?)\s*"
    r")?" + _PAIRED_CLOSE,
    re.IGNORECASE,
)
#: What is left of a marker :data:`CITATION_MARKER` could not read: ``[n:`` or ``[n,``
#: (optionally ``[Passage n``) and its unclosed quote, to the end of the quote's first
#: sentence or else to the next bracket, line break or the end of the text; or a ``[n`` at
#: the very end (an answer cut off inside a marker, ``max_tokens``).
MARKER_FRAGMENT = re.compile(
    _OPEN
    + r"\s*"
    + _PREFIX
    + r"\d+(?:\s*[:,][^"
    + "".join(re.escape(o) for o in _OPENINGS)
    + r"\n]*?(?:[.!?][\"'”’]*(?=\s)|(?=["
    + "".join(re.escape(o) for o in _OPENINGS)
    + r"\n]|\Z))|\s*\Z)",
    re.IGNORECASE,
)
#: A list of passage numbers in one marker (``[1, 2]``, ``【1, 2】``), group ``ns`` the list;
#: :func:`validate` reads it as ``[1][2]``.
MARKER_LIST = re.compile(_PAIRED_OPEN + r"\s*(?P<ns>\d+(?:\s*,\s*\d+)+)\s*" + _PAIRED_CLOSE)
#: A marker as :func:`validate` leaves it in the answer.
BARE_MARKER = re.compile(r"\[(\d+)\]")


def marker_parts(m: re.Match[str]) -> tuple[int, str | None]:
    """The passage number and the quote (``None`` for a bare marker) of a
    :data:`CITATION_MARKER` match; a quoted quote's ``\\"`` escapes are left as written."""
    quote = m.group("quote")
    if quote is None and m.group("text") is not None:
        quote = m.group("text").strip()
    return int(m.group("n")), quote


def _split_list(m: re.Match[str]) -> str:
    """A :data:`MARKER_LIST` match as one ``[n]`` per number."""
    return "".join(f"[{n.strip()}]" for n in m.group("ns").split(","))


def bare_markers(text: str) -> str:
    """The text with every marker written as :func:`validate` writes a kept one: ``[n]``
    (its quote, prefix word and bracket pair dropped; a list ``[1, 2]`` as ``[1][2]``).

    Only the form changes: whether a marker's passage exists and its quote is verbatim is
    :func:`validate`'s to say. What a streamed draft shows of the markers it has read
    (:class:`chains.streaming.MarkerDraft`).
    """
    return CITATION_MARKER.sub(lambda m: f"[{m.group('n')}]", MARKER_LIST.sub(_split_list, text))


#: :data:`CITATION_MARKER` and :data:`MARKER_LIST` for partial matching (the ``regex``
#: package reads the same patterns and can say whether a text may still become a match).
_MARKERS_PARTIAL = tuple(regex.compile(p.pattern, p.flags) for p in (CITATION_MARKER, MARKER_LIST))
_OPENING = re.compile(_OPEN)


def unfinished_marker(text: str) -> int:
    """Where the marker still being written at the end of ``text`` starts.

    The first opening bracket, outside any complete marker, from which the rest of the text
    is the beginning of a :data:`CITATION_MARKER` or :data:`MARKER_LIST` not yet closed
    (``[``, ``[1: "the qu``, ``【2``, ``[1, 2``); ``len(text)`` when there is none. Text
    before it reads the same whatever follows; text from it may still become a marker.
    """
    pos = 0
    while (opening := _OPENING.search(text, pos)) is not None:
        at = opening.start()
        complete = CITATION_MARKER.match(text, at) or MARKER_LIST.match(text, at)
        if complete is not None:
            pos = complete.end()
            continue
        if any(p.fullmatch(text, at, partial=True) for p in _MARKERS_PARTIAL):
            return at
        pos = at + 1
    return len(text)


_QUOTE_FIX = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
DEFAULT_BLOCK: dict[str, Any] = {
    "confidence": "unknown",
    "sources": [],
    "insufficient_evidence": False,
}


@dataclass
class ParsedOutput:
    """A model output split into prose and block.

    Attributes:
        prose: The answer text without the block.
        block: The structured fields (possibly defaulted).
        block_status: ``ok``, ``recovered`` (regex), ``defaulted`` (missing/unusable) or
            ``malformed`` (present but not strict JSON; set before recovery).
        block_raw: The raw block text, if any.
    """

    prose: str
    block: dict[str, Any]
    block_status: str
    block_raw: str | None = None


def parse_output(raw: str) -> ParsedOutput:
    """Split prose from the ``<summary>`` block and parse it strictly as JSON.

    Returns:
        ``block_status`` is ``ok`` when strict JSON parsed, ``malformed`` when a block exists
        but does not parse, ``missing`` when there is none.
    """
    m = _BLOCK.search(raw) or _BLOCK_OPEN.search(raw)
    if not m:
        return ParsedOutput(raw.strip(), dict(DEFAULT_BLOCK), "missing")
    prose = (raw[: m.start()] + raw[m.end() :]).strip()
    body = m.group(1).strip()
    try:
        data = json.loads(body)
        if not isinstance(data, dict):
            raise ValueError("block is not an object")
    except ValueError:
        return ParsedOutput(prose, dict(DEFAULT_BLOCK), "malformed", body)
    return ParsedOutput(prose, _normalise_block(data), "ok", body)


def _normalise_block(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(DEFAULT_BLOCK)
    out.update({k: v for k, v in data.items() if k in DEFAULT_BLOCK or k not in out})
    srcs = out.get("sources") or []
    if not isinstance(srcs, list):
        srcs = [srcs]
    clean: list[int] = []
    for s in srcs:
        try:
            clean.append(int(str(s).strip("[] ")))
        except ValueError:
            continue
    out["sources"] = clean
    ie = out.get("insufficient_evidence")
    out["insufficient_evidence"] = ie is True or str(ie).lower() == "true"
    out["confidence"] = str(out.get("confidence", "unknown")).lower()
    return out


def recover_block(parsed: ParsedOutput) -> ParsedOutput:
    """Regex rung: salvage fields from a malformed block, else default them; keep the prose.

    Tries, in order: strip code fences / trailing commas / single quotes and re-parse; then
    pull ``confidence``, ``sources`` and ``insufficient_evidence`` out with regexes; then
    defaults (``sources`` from the prose's markers).
    """
    raw = parsed.block_raw or ""
    if raw:
        fixed = re.sub(r"^```(?:json)?|```$", "", raw.strip()).strip()
        fixed = re.sub(r",\s*([}\]])", r"\1", fixed).replace("'", '"')
        fixed = re.sub(r"\bTrue\b", "true", re.sub(r"\bFalse\b", "false", fixed))
        try:
            data = json.loads(fixed)
            if isinstance(data, dict):
                return ParsedOutput(parsed.prose, _normalise_block(data), "recovered", raw)
        except ValueError:
            pass
        fields: dict[str, Any] = {}
        if m := re.search(r"confidence\W+(\w+)", raw, re.IGNORECASE):
            fields["confidence"] = m.group(1)
        if m := re.search(r"sources\W+\[([^\]]*)\]", raw, re.IGNORECASE):
            fields["sources"] = re.findall(r"\d+", m.group(1))
        if m := re.search(r"insufficient_evidence\W+(true|false)", raw, re.IGNORECASE):
            fields["insufficient_evidence"] = m.group(1).lower() == "true"
        if fields:
            return ParsedOutput(parsed.prose, _normalise_block(fields), "recovered", raw)
    block = dict(DEFAULT_BLOCK)
    block["sources"] = sorted({int(m.group("n")) for m in CITATION_MARKER.finditer(parsed.prose)})
    return ParsedOutput(parsed.prose, block, "defaulted", parsed.block_raw)


def says_insufficient(parsed: ParsedOutput, *, in_words: bool = True) -> bool:
    """Whether the model declared the evidence insufficient: ``insufficient_evidence`` in its
    block, ``INSUFFICIENT_EVIDENCE`` in its prose, or (``in_words``) a prose that, markers
    removed, is wholly a refusal in its own words ("I don't know.", "The passages do not
    mention this [1]."; :func:`chains.model_refusals.is_refusal`).

    ``in_words`` is off for the extractive answerer: its prose is the documents' own
    sentences ("Not available." in a price list answers), and it refuses explicitly.
    """
    return (
        bool(parsed.block.get("insufficient_evidence"))
        or INSUFFICIENT in parsed.prose.upper().replace(" ", "_")
        or (in_words and is_refusal(strip_markers(parsed.prose)))
    )


def normalise_ws(text: str) -> str:
    """Collapse whitespace runs and unify typographic quotes/dashes (for quote matching)."""
    return " ".join(text.translate(_QUOTE_FIX).split())


def locate_quote(content: str, quote: str) -> tuple[int, int] | None:
    """Find a quote in ``content`` ignoring whitespace differences.

    Returns:
        ``(start, end)`` of the matching span in ``content`` itself, or ``None``.
    """
    target = normalise_ws(quote)
    if not target:
        return None
    chars: list[str] = []
    index: list[int] = []
    prev_space = True
    for i, ch in enumerate(content.translate(_QUOTE_FIX)):
        if ch.isspace():
            if not prev_space:
                chars.append(" ")
                index.append(i)
            prev_space = True
        else:
            chars.append(ch)
            index.append(i)
            prev_space = False
    hay = "".join(chars)
    pos = hay.find(target)
    if pos < 0:
        return None
    return index[pos], index[pos + len(target) - 1] + 1


@dataclass
class Validation:
    """Result of checking an answer's citations.

    Attributes:
        answer: Prose with invalid markers removed and quotes stripped to ``[n]``.
        cited: Valid passage numbers in order of first use.
        quotes: Passage number -> verified quotes with their ranges inside the content.
        invalid_ids: Cited numbers that match no supplied passage.
        fabricated_quotes: ``(n, quote)`` pairs not found verbatim in passage n.
        instruction_quotes: ``(n, quote)`` pairs found in passage n but overlapping a
            sentence the server flagged there as an instruction (``Passage.instruction_spans``,
            shown to the model marked ⟦flagged⟧): never a valid citation, removed like a
            fabricated quote.
        unparsed_markers: Pieces of markers no form of :data:`CITATION_MARKER` reads (a
            marker cut off at the end of the output), removed from the answer.
        uncited_sentences: Answer sentences with no citation.
        markers_without_quote: Valid citations that came without a quote (or with one
            found only in the passage's expansion).
        context_quotes: ``(n, quote)`` pairs found verbatim in passage n's expansion
            (:mod:`chains.expand`) but not in its matched words: kept as a bare ``[n]``,
            whose citation is the matched chunk, never the expansion.
    """

    answer: str
    cited: list[int] = field(default_factory=list)
    quotes: dict[int, list[tuple[str, int, int]]] = field(default_factory=dict)
    invalid_ids: list[int] = field(default_factory=list)
    fabricated_quotes: list[tuple[int, str]] = field(default_factory=list)
    instruction_quotes: list[tuple[int, str]] = field(default_factory=list)
    unparsed_markers: list[str] = field(default_factory=list)
    uncited_sentences: list[str] = field(default_factory=list)
    markers_without_quote: list[int] = field(default_factory=list)
    context_quotes: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No invented ids, no fabricated or instruction quotes, no unreadable marker."""
        return not (
            self.invalid_ids
            or self.fabricated_quotes
            or self.instruction_quotes
            or self.unparsed_markers
        )

    @property
    def has_text(self) -> bool:
        """Whether the answer has words of its own outside its markers (``[1] [2]`` has
        none: it is no answer, :func:`graphs.routers.route_after_validate`)."""
        return has_words(self.answer)

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly summary."""
        return {
            "ok": self.ok,
            "cited": self.cited,
            "invalid_ids": self.invalid_ids,
            "fabricated_quotes": [{"passage": n, "quote": q} for n, q in self.fabricated_quotes],
            "uncited_sentences": self.uncited_sentences,
            "markers_without_quote": self.markers_without_quote,
            **(
                {
                    "instruction_quotes": [
                        {"passage": n, "quote": q} for n, q in self.instruction_quotes
                    ]
                }
                if self.instruction_quotes
                else {}
            ),
            **({"unparsed_markers": self.unparsed_markers} if self.unparsed_markers else {}),
            **(
                {"context_quotes": [{"passage": n, "quote": q} for n, q in self.context_quotes]}
                if self.context_quotes
                else {}
            ),
            **({} if self.has_text else {"no_answer_text": True}),
        }


def strip_markers(text: str) -> str:
    """The text without its citation markers (every :data:`CITATION_MARKER` form, and
    :data:`MARKER_FRAGMENT` pieces), whitespace collapsed."""
    text = MARKER_LIST.sub(" ", text)
    text = MARKER_FRAGMENT.sub(" ", CITATION_MARKER.sub(" ", text))
    return re.sub(r"\s+([.,;:!?])", r"\1", " ".join(text.split()))


def has_words(text: str) -> bool:
    """Whether ``text`` has a letter or digit outside its citation markers."""
    return any(ch.isalnum() for ch in strip_markers(text))


#: A run of ``[n]`` markers opening a sentence span (``"First. [1] Second."``: the ``[1]``
#: belongs to the sentence before).
_LEADING_MARKERS = re.compile(r"(?:\[\d+\][ \t]*)+")
#: A sentence end followed at once by markers and a space (``"First.[1] Second."``).
_END_THEN_MARKERS = re.compile(r"[.!?][\"'”’)]*(?:[ \t]*\[\d+\])+(?=\s+\S)")


def answer_sentences(answer: str) -> list[tuple[int, int]]:
    """Sentence spans of a validated answer (markers reduced to ``[n]``), each sentence
    with its own markers.

    :func:`loaders.sentences.sentence_spans`, except that a marker, or run of markers,
    written after a sentence's full stop (``"First. [1] Second. [2]"``, ``"First.[1]
    Second."``) belongs to that sentence, not to the next one. The one sentence split of an
    answer: validation's uncited sentences and the support check's claims both use it.
    """
    spans: list[tuple[int, int]] = []
    for s, e in sentence_spans(answer):
        cuts = [m.end() for m in _END_THEN_MARKERS.finditer(answer, s, e)]
        for end in [*cuts, e]:
            spans.append((s, end))
            s = end + len(answer[end:e]) - len(answer[end:e].lstrip())
    out: list[tuple[int, int]] = []
    for s, e in spans:
        lead = _LEADING_MARKERS.match(answer, s, e)
        if lead and out:
            marker_end = s + len(lead.group(0).rstrip())
            out[-1] = (out[-1][0], marker_end)
            s = lead.end()
        if s < e:
            out.append((s, e))
    return out


def _in_expansion(passage: Passage, quote: str) -> bool:
    """Whether a quote is verbatim (whitespace-normalised) in one piece of the passage's
    expansion."""
    exp = passage.expansion
    return exp is not None and any(locate_quote(p.text, quote) for p in exp.pieces)


def _expansion_instruction(passage: Passage, quote: str) -> bool:
    """Whether a quote found in the passage's expansion overlaps an instruction sentence of
    the piece it is in (the prompt marks those too)."""
    exp = passage.expansion
    for piece in exp.pieces if exp is not None else ():
        span = locate_quote(piece.text, quote)
        if span is not None and _overlaps(span, instruction_spans(piece.text)):
            return True
    return False


def _overlaps(span: tuple[int, int], others: Sequence[tuple[int, int]]) -> bool:
    return any(span[0] < e and s < span[1] for s, e in others)


def validate(prose: str, passages: list[Passage]) -> Validation:
    """Check markers and quotes against the supplied passages.

    Every :data:`CITATION_MARKER` form is read and checked alike; a quote is valid only when
    it is verbatim in its passage's own content (or, kept as a bare ``[n]``, in its
    expansion) and overlaps no sentence flagged there as an instruction. Whatever is left of
    a marker no form reads (an output cut off inside one) is removed and flagged.

    An answer whose only words are its markers' verified quotes (``[1: "…"]`` and nothing
    else) shows those quotes, in the passage's own characters, each before its ``[n]``: the
    model answered by quoting.

    Args:
        prose: The answer text (block removed).
        passages: The numbered passages the model saw.

    Returns:
        The cleaned answer and every problem found.
    """
    by_num = {p.number: p for p in passages}
    prose = MARKER_LIST.sub(_split_list, prose)
    v = Validation(answer="")
    shown: list[str | None] = []  # per kept marker, in order: the text its quote verified

    def fix(m: re.Match[str]) -> str:
        n, quote = marker_parts(m)
        if n not in by_num:
            if n not in v.invalid_ids:
                v.invalid_ids.append(n)
            return ""
        passage = by_num[n]
        if quote is not None:
            quote = quote.replace('\\"', '"')
            span = locate_quote(passage.candidate.content, quote)
            if span is not None and _overlaps(span, passage.instruction_spans):
                v.instruction_quotes.append((n, quote))
                return ""
            if span is None and _in_expansion(passage, quote):
                if _expansion_instruction(passage, quote):
                    v.instruction_quotes.append((n, quote))
                    return ""
                v.context_quotes.append((n, quote))  # real words, but not the cited chunk's
                if n not in v.markers_without_quote:
                    v.markers_without_quote.append(n)
                quote = None
            elif span is None:
                v.fabricated_quotes.append((n, quote))
                return ""
            else:
                v.quotes.setdefault(n, []).append((quote, span[0], span[1]))
                quote = passage.candidate.content[span[0] : span[1]]  # the passage's own words
        elif n not in v.markers_without_quote:
            v.markers_without_quote.append(n)
        if n not in v.cited:
            v.cited.append(n)
        shown.append(quote)
        return f"[{n}]"

    def fragment(m: re.Match[str]) -> str:
        v.unparsed_markers.append(m.group(0).strip())
        return ""

    cleaned = MARKER_FRAGMENT.sub(fragment, CITATION_MARKER.sub(fix, prose))
    cleaned = re.sub(r"[ \t]+([.,;:])", r"\1", re.sub(r"[ \t]{2,}", " ", cleaned)).strip()
    if not has_words(cleaned) and any(shown):
        quoted = iter(shown)

        def with_quote(m: re.Match[str]) -> str:
            q = next(quoted, None)
            return f"{' '.join(q.split())} {m.group(0)}" if q else m.group(0)

        cleaned = BARE_MARKER.sub(with_quote, cleaned)
    v.answer = cleaned
    for s, e in answer_sentences(cleaned):
        sent = cleaned[s:e].strip()
        if len(sent) > 20 and not BARE_MARKER.search(sent) and INSUFFICIENT not in sent:
            v.uncited_sentences.append(sent)
    return v


#: Chunk metadata of an e-mail attachment's document that links it to its message; copied
#: onto its citations.
ATTACHMENT_LINK = ("parent_doc_id", "parent_source", "attachment_name")


def locator(meta: dict[str, Any], start: int, end: int) -> tuple[str, str]:
    """Return ``(label, fragment)`` for a range of a document.

    PDFs link to the page (``#page=N``, PDF Open Parameters); slides of a presentation to
    the slide (``#slide=N``); a spreadsheet's rows to its sheet and the rows the range quotes
    (``#sheet=Sales&rows=12-18``, ``rows=14-14`` for one row; ``#rows=12-18`` for a CSV file;
    the chunk's row group when its rows' numbers are not recorded); other documents to the
    character range in their canonical text (``#char=start,end``).
    """
    file_type = meta.get("file_type")
    section = meta.get("section")
    if file_type == "pptx" and meta.get("page"):
        label = f"slide {meta['page']}" + (f", {section}" if section else "")
        return label, f"#slide={meta['page']}"
    if file_type in ("xlsx", "csv") and meta.get("row_start") is not None:
        # the rows the range quotes, else (an older index) the chunk's row group
        first, last = quoted_rows(meta, start, end) or (
            meta["row_start"],
            meta.get("row_end", meta["row_start"]),
        )
        rows = f"{first}-{last}"
        said = f"row {first}" if first == last else f"rows {rows}"
        sheet = meta.get("sheet")
        if sheet:
            fragment = f"#sheet={url_quote(str(sheet), safe='')}&rows={rows}"
            return f"sheet {sheet}, {said}", fragment
        return said, f"#rows={rows}"
    if meta.get("page"):
        label = f"page {meta['page']}"
        if meta.get("section"):
            label += f", {meta['section']}"
        return label, f"#page={meta['page']}"
    label = (f"{section}, " if section else "") + f"characters {start}–{end}"
    return label, f"#char={start},{end}"


def source_record(cand: Any, index: int, quote: str, start: int, end: int) -> dict[str, Any]:
    """What a reader needs to find and open a span of a candidate's document: the one shape
    of a citation (:func:`build_citations`) and of a refused run's ``looked_at``
    (:func:`build_looked_at`). ``start``/``end`` index the document's canonical text.

    An e-mail attachment's record carries its message's ``parent_doc_id`` and
    ``parent_source`` and its ``attachment_name``; an OCR page's, ``ocr`` and its confidence.
    """
    meta = cand.meta
    label, fragment = locator(meta, start, end)
    return {
        "index": index,
        "doc_id": meta.get("doc_id"),
        "doc_name": meta.get("doc_name"),
        "source": meta.get("source"),
        "chunk_id": cand.chunk_id,
        "page": meta.get("page"),
        "section": meta.get("section") or None,
        "start": start,
        "end": end,
        "locator": label,
        "fragment": fragment,
        "quote": quote,
        # an e-mail attachment: the message it is attached to
        **{k: meta[k] for k in ATTACHMENT_LINK if meta.get(k)},
        # a quote read by OCR from a scanned page (its text may hold misreadings)
        **({"ocr": True, "ocr_confidence": meta.get("ocr_confidence")} if meta.get("ocr") else {}),
        "scores": {
            k: round(val, 6)
            for k, val in cand.scores.items()
            if k in ("dense", "bm25", "rrf", "rerank", "sentence")
        },
    }


def build_citations(v: Validation, passages: list[Passage]) -> list[dict[str, Any]]:
    """Attach server-side provenance to every valid citation (:func:`source_record`).

    The quote is the model's verified quote mapped back to the exact canonical text; without
    one it is the passage's own content. ``start``/``end`` index the document's canonical
    text, so ``canonical[start:end] == quote`` holds; ``quote_verified`` says which.

    ``quotes`` lists every distinct span the answer quoted from the passage, in the order
    the answer first quotes them, each with its own ``quote``, ``start``, ``end``,
    ``locator`` and ``fragment`` (two rows of one sheet chunk have two row locators): an
    answer quoting two sentences of one passage cites both. Its first item is the
    citation's own ``quote``/``start``/``end``; without a verified quote it holds the
    passage's content.
    """
    by_num = {p.number: p for p in passages}
    out = []
    for n in v.cited:
        cand = by_num[n].candidate
        base = int(cand.meta.get("start", 0))
        quotes = v.quotes.get(n)
        if quotes:
            spans = list(dict.fromkeys((base + qs, base + qe) for _, qs, qe in quotes))
        else:
            spans = [(base, int(cand.meta.get("end", base + len(cand.content))))]
        items = []
        for start, end in spans:
            text = cand.content[start - base : end - base] if quotes else cand.content
            label, fragment = locator(cand.meta, start, end)
            items.append(
                {"quote": text, "start": start, "end": end, "locator": label, "fragment": fragment}
            )
        (first_start, first_end), first_quote = spans[0], str(items[0]["quote"])
        record = source_record(cand, n, first_quote, first_start, first_end)
        out.append({**record, "quote_verified": bool(quotes), "quotes": items})
    return out


def quoted_spans(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every span a citation-shaped record quotes: its ``quotes`` (:func:`build_citations`);
    a record without them (a refused run's ``looked_at``, an older result) quotes its one
    ``quote``."""
    return list(record.get("quotes") or [record])


#: How many passages a refused run reports as where it looked (:func:`build_looked_at`).
LOOKED_AT = 3
#: How the command line and notebooks title them: what they are, and that the run found no
#: answer in them (a reader may: a false refusal).
LOOKED_AT_TITLE = "where it looked (the passages it read; no answer was found in them)"


def build_looked_at(candidates: Sequence[Any], limit: int = LOOKED_AT) -> list[dict[str, Any]]:
    """Where a refused run looked: its first ``limit`` passages, best first, each a
    :func:`source_record` of the whole passage (``quote`` its text, ``start``/``end`` its
    range in the canonical text; no ``quote_verified`` nor ``support``: nothing was quoted),
    so a reader can open each and judge the refusal.

    The caller passes what the run read (``graphs.nodes``: the passages the answerer was
    given, else the second stage's best); the run found no answer in them. Only candidates
    that passed the access filter ever reach a run, so none is a document the caller may
    not read.

    Raises:
        ValueError: ``limit`` is not an integer >= 0.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"limit must be an integer >= 0, got {limit!r}")
    out = []
    for n, cand in enumerate(candidates[:limit], start=1):
        base = int(cand.meta.get("start", 0))
        end = int(cand.meta.get("end", base + len(cand.content)))
        out.append(source_record(cand, n, cand.content, base, end))
    return out

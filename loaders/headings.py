"""Section headings in text that carries no markup: plain-text files and PDF pages.

Markdown and HTML say which lines are headings; a plain-text file or a PDF's extracted text
does not. Their headings still read as headings to a person: a short line, numbered ("4.
Sickness", "2.1 Fees", "Part B", "A3"), in capitals ("PURPOSE AND SCOPE") or in title case
("Chair's Statement"), that does not end a sentence or a clause, stands after a sentence has
ended (or at the top of a page), and is followed by the text it heads. :func:`heading_lines`
finds such lines; :func:`split_at_headings` cuts the segments there, so that each section
body is its own segment whose ``section`` is the heading path, exactly as the Markdown loader
does with ``#`` lines: the heading travels in the contextual header (``title > section``),
is typed ``heading`` in the structural model, and is never chunk content, so it can neither
be quoted as an answer nor glued onto the sentence after it.

The rule is deliberately conservative. It never takes a line that ends with sentence or
clause punctuation, a list bullet, a question, a ``label: value`` line, a line with two or
more numbers (a table row: ``Total revenue 8,214 7,961``), a line inside a table the loader
read, or the document's title line; an unnumbered line in sentence case must be short and
must be followed by prose (a sentence of six words or more). A wrapped line of a paragraph
is never a heading: the line before it did not end a sentence. Above the document's first
line of prose, only a line directly over prose is a heading: a letterhead (a firm's name over
its address), a masthead over a report's name, are front matter, not sections.

Heading levels are not written down either: as in most word processors' outlines, each
style seen (a numbering depth, capitals, title case, a short sentence-case line) gets the
next level the first time it appears under the heading path, and a heading of a style
already on the path replaces that entry and everything below it; an unnumbered heading after
numbered ones ("Common questions" after "5. Uniform") is their sibling, not their child.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from loaders.base import SECTION_SEP, Segment
from loaders.blocks import TextLine, text_lines

#: A heading line has at most this many characters ...
MAX_HEADING_CHARS = 90
#: ... and at most this many words.
MAX_HEADING_WORDS = 12
#: An unnumbered sentence-case heading has at most this many words.
MAX_PLAIN_HEADING_WORDS = 6
#: The line after an unnumbered heading has at least this many words (prose, :func:`is_prose`).
MIN_PROSE_WORDS = 6
#: Deepest heading path kept.
MAX_DEPTH = 3

_NUMBERED = re.compile(
    r"(?:(?P<dec>\d{1,2}(?:\.\d{1,2}){0,3})\.?|(?P<part>(?:Part|Section|Chapter|Schedule|"
    r"Appendix|Annex|Item)\s+[A-Z0-9]{1,4}\b\.?|[A-Z]{1,2}\d{1,2}\.?))"
    r"(?:\s*[-–—:.]\s*|\s+)(?P<rest>\S.*)$",
    re.I,
)
_BULLET = re.compile(r"[-*+•▪◦‣●]|\(?[a-zA-Z]\)|\([ivx]+\)")
_NUMBER = re.compile(r"(?<![\w.])[($£€]?\d[\d,.]*%?\)?(?![\w])")
_CAPTION = re.compile(r"(?:Figure|Fig\.|Table|Chart|Exhibit|Graph)\s+\d+|Source:", re.I)
_SENTENCE_END = re.compile(r"""[.!?:;)\]"'”’]\s*$""")
_CLAUSE_END = re.compile(r"[.,;:!?\-–—/&(]\s*$")
_MONTH = re.compile(r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\b", re.I)
#: Aligned columns (three spaces or a tab between words) or a pipe: a table line.
_COLUMNS = re.compile(r"\S(?: {3,}|\t)\S|\|")
_SMALL_WORDS = frozenset(
    "a an and as at by for from in into of on or per the to with vs via over under".split()  # noqa: SIM905
)


@dataclass(frozen=True)
class Heading:
    """A heading line found in the text.

    Attributes:
        start: First character of the (stripped) line in the canonical text.
        end: One past its last character.
        text: The line, whitespace collapsed.
        style: Its style, which decides its level (``num1``, ``num2``, ..., ``part``,
            ``caps``, ``title``, ``plain``).
    """

    start: int
    end: int
    text: str
    style: str


def _words(line: str) -> list[str]:
    return re.findall(r"[A-Za-z][A-Za-z'’]*", line)


def _is_caps(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def _is_title_case(line: str) -> bool:
    words = [w for w in _words(line) if w.lower() not in _SMALL_WORDS]
    return bool(words) and len(words) >= 2 and all(w[0].isupper() for w in words)


def is_prose(line: str) -> bool:
    """Whether a line reads as prose: six words or more, at most one number for every two
    words (``Total revenue 8,214 7,961 7,402`` is a table row, "At the end of 2025 we
    employed 9 staff" is prose), and not every word capitalised in mixed case (a
    letterhead's address, "Private Sector Housing Team - Civic Centre, Harbour Road", or a
    name in title case is not a sentence; a line set all in capitals may still be one)."""
    words = _words(line)
    if len(words) < MIN_PROSE_WORDS or 2 * len(_NUMBER.findall(line)) >= len(words):
        return False
    capitalised = all(w[0].isupper() for w in words)
    return not (capitalised and any(c.islower() for w in words for c in w))


def heading_style(
    line: str,
    following: str,
    following_heads: bool = False,
    emphasised: bool = False,
    whole: bool = False,
) -> str | None:
    """The style of ``line`` when it reads as a heading over ``following``, else ``None``.

    Args:
        line: The candidate line (stripped).
        following: The next non-blank line of the same segment ('' at its end).
        following_heads: Whether ``following`` reads as a heading itself (a section's
            heading over its first subsection's).
        emphasised: Whether the line is set in a larger type than the page's text (a PDF's,
            :func:`loaders.pdf_tables.emphasised_lines`): an unnumbered heading so set needs
            no prose under it (a heading over a table, or over a short line).
        whole: The line is a whole paragraph (a Word document's), never a wrapped part of
            one, so it may end on a small word (``1. BEFORE YOU MOVE IN``).

    Returns:
        ``num<depth>``, ``part``, ``caps``, ``title`` or ``plain``; ``None`` for a line that is
        not a heading.
    """
    if _COLUMNS.search(line.strip()):
        return None
    line = " ".join(line.split())
    if not following or len(line) > MAX_HEADING_CHARS or len(line) < 3:
        return None
    if _CLAUSE_END.search(line) or (_SENTENCE_END.search(line) and not line.endswith(")")):
        return None
    if not (line[:1].isupper() or line[:1].isdigit()):
        return None  # "on Internal Control ...", "(101.LAB)": a wrapped line or a label
    if line.endswith("?") or _BULLET.match(line) or _CAPTION.match(line):
        return None
    m = _NUMBERED.match(line)
    rest = m.group("rest") if m else line
    if m and (not rest[:1].isupper() or (m.group("dec") and _MONTH.match(rest))):
        return None  # "3.5 litres", "12 January 2026"
    if len(_words(rest)) == 0 or len(line.split()) > MAX_HEADING_WORDS:
        return None
    if len(_NUMBER.findall(rest)) >= 2 or ": " in rest:
        return None
    if following[:1].islower():
        return None  # the line runs on into the next one
    if not whole and _words(rest)[-1].lower() in _SMALL_WORDS:
        return None  # "Fair Value at": a wrapped column header
    if m:
        dec = m.group("dec")
        return f"num{dec.count('.') + 1}" if dec else "part"
    # an unnumbered heading heads prose (or another heading): never a column header's line
    if not (following_heads or emphasised or is_prose(following)):
        return None
    if _is_caps(line):
        return "caps"
    if _is_title_case(line):
        return "title"
    if (
        line[:1].isupper()
        and len(line.split()) <= MAX_PLAIN_HEADING_WORDS
        and len(following) > len(line)
    ):
        return "plain"
    return None


def heading_lines(
    text: str,
    start: int,
    end: int,
    *,
    skip: Iterable[tuple[int, int]] = (),
    title: str = "",
    opening: bool = False,
    emphasised: Collection[str] = (),
    following: str = "",
) -> list[Heading]:
    """Heading lines of ``text[start:end]`` (one segment: a page or a whole text file).

    Args:
        text: The canonical text.
        start: Where the segment starts.
        end: Where it ends.
        skip: Spans no heading may overlap (table rows the loader read).
        title: The document's title: a line equal to it is the title, not a section.
        opening: The segment opens the document: up to its first line of prose, a line is
            a heading only directly over prose (a letterhead's name over its address, a
            masthead over a report's name, are front matter, not sections).
        emphasised: The segment's lines set in a larger type (whitespace collapsed; a PDF
            page's, :func:`loaders.pdf_tables.emphasised_lines`): such an unnumbered line
            heads whatever follows it, prose or not.
        following: The first line of the next segment ('' for none): what the segment's
            last line heads when it is a numbered heading at the foot of a page or a column
            (its section's text starts over the page break).

    Returns:
        The headings, in order.
    """
    spans = sorted((a, b) for a, b in skip if a < end and start < b)  # this segment's
    lines = text_lines(text, start, end)
    # a blank line (or the segment's start) above each line
    blank_before = [True] + [text.count("\n", a.end, b.start) > 1 for a, b in pairwise(lines)]
    norm_title = " ".join(title.split()).casefold()
    out: list[Heading] = []

    def skipped(line: TextLine) -> bool:
        return any(a < line.end and line.start < b for a, b in spans)

    # each line's style as a heading over what follows it, from the last line up
    styles: list[str | None] = [None] * len(lines)
    if lines and following.strip() and not skipped(lines[-1]):
        # the last line over the next page's first: a numbered heading at the foot of a
        # page (an unnumbered line there is as often a running line or a table's header)
        foot = heading_style(lines[-1].text, following.strip())
        styles[-1] = foot if foot is not None and foot.startswith(("num", "part")) else None
    for i in range(len(lines) - 2, -1, -1):
        line, nxt = lines[i], lines[i + 1]
        if skipped(nxt) and not _SENTENCE_END.search(line.text):
            continue  # a table's title line over its rows is the table's (its rows carry it)
        styles[i] = heading_style(
            line.text,
            nxt.text,
            styles[i + 1] is not None,
            emphasised=" ".join(line.text.split()) in emphasised,
        )
    before_prose = opening
    for i, line in enumerate(lines):
        front = before_prose
        before_prose = before_prose and not is_prose(line.text)
        if skipped(line) or " ".join(line.text.split()).casefold() == norm_title:
            continue
        if front and not (
            i + 1 < len(lines) and is_prose(lines[i + 1].text) and styles[i + 1] is None
        ):
            continue
        prev = lines[i - 1] if i else None
        opens = (
            prev is None
            or blank_before[i]
            or bool(_SENTENCE_END.search(prev.text))
            or (bool(out) and out[-1].start == prev.start)
            or " ".join(prev.text.split()).casefold() == norm_title
            or front  # the lines of a masthead stand apart
        )
        style = styles[i]
        if opens and style is not None:
            out.append(Heading(line.start, line.end, " ".join(line.text.split()), style))
    return out


def split_at_headings(
    text: str,
    segments: list[Segment],
    *,
    skip: Iterable[tuple[int, int]] = (),
    title: str = "",
    emphasised: Mapping[int, Collection[str]] | None = None,
    keep_style: Callable[[str], bool] | None = None,
) -> tuple[list[Segment], list[Heading]]:
    """Cut segments at their heading lines; each piece's ``section`` is its heading path.

    The path carries on across segments (a PDF section runs on over the page break), and a
    segment that already has a section (from markup) is left as it is.

    Args:
        text: The canonical text.
        segments: The loader's segments, in document order.
        skip: Spans no heading may overlap (table rows).
        title: The document's title (its line is not a section heading).
        emphasised: 1-based page -> its lines set in a larger type (a PDF's), for the
            segments of that page.
        keep_style: Which heading styles (:func:`heading_style`) count (``None``: all); an
            e-mail body keeps only the typographic ones, capitals and numbers, since its
            sign-off's name and role read as title-case lines.

    Returns:
        ``(segments, headings)``: the new segments (heading lines outside all of them) and
        the headings found.
    """
    skip = list(skip)
    path: list[tuple[str, str]] = []  # (style, heading text)
    new: list[Segment] = []
    found: list[Heading] = []
    opening = True  # until the document's first line of prose
    for k, seg in enumerate(segments):
        if seg.section:
            new.append(seg)
            continue
        after = segments[k + 1] if k + 1 < len(segments) else None
        # the next page's first line, for a heading at the foot of this page
        following = (
            next(iter(text_lines(text, after.start, after.end)), None)
            if after is not None and not after.section and after.page != seg.page
            else None
        )
        heads = heading_lines(
            text,
            seg.start,
            seg.end,
            skip=skip,
            title=title,
            opening=opening,
            emphasised=(emphasised or {}).get(seg.page or 0, ()),
            following=following.text if following is not None else "",
        )
        if keep_style is not None:
            heads = [h for h in heads if keep_style(h.style)]
        opening = opening and not any(
            is_prose(ln.text) for ln in text_lines(text, seg.start, seg.end)
        )
        pos = seg.start
        for h in heads:
            if text[pos : h.start].strip():
                new.append(Segment(pos, _rstrip(text, pos, h.start), seg.page, _path(path)))
            styles = [s for s, _ in path]
            if h.style in styles:
                path = path[: styles.index(h.style)]
            elif not h.style.startswith("num"):
                # an unnumbered heading after numbered ones is their sibling, not their child
                path = path[: next((k for k, s in enumerate(styles) if s.startswith("num")), None)]
            path = [*path, (h.style, h.text)][-MAX_DEPTH:]
            found.append(h)
            pos = _lstrip(text, h.end, seg.end)
        if text[pos : seg.end].strip():
            new.append(Segment(pos, seg.end, seg.page, _path(path)))
    return new, found


def _path(path: list[tuple[str, str]]) -> str:
    return SECTION_SEP.join(t for _, t in path)


def _lstrip(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def _rstrip(text: str, start: int, pos: int) -> int:
    while pos > start and text[pos - 1].isspace():
        pos -= 1
    return pos


#: A clause number (``4``, ``4.2``, ``4.2.1``) opening a paragraph, then its text.
_CLAUSE = re.compile(r"(?P<num>\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(?P<rest>\S.*)$", re.S)
#: A run-in clause heading: a short phrase ended by ``.`` or ``:`` before the clause's text
#: in the same paragraph (``4.2 Break clause. Where your agreement ...``).
_RUN_IN = re.compile(r"(?P<head>[^.!?:;,\d]{2,60}?)[.:]\s+(?P<body>\S.*)$", re.S)
#: Most words of a run-in clause heading.
MAX_RUN_IN_WORDS = 5
#: Fewest run-in headings of one document before any is read as one: a clause style is a
#: document's, used throughout; one paragraph opening "1. Pay rent." is a list item.
MIN_RUN_IN = 2


@dataclass(frozen=True)
class ClauseHeading:
    """A numbered clause heading written as a plain paragraph.

    Attributes:
        start: Where its paragraph starts.
        body_start: Where the text it heads starts: after the paragraph for a heading of its
            own, after the phrase for a run-in one, ``start`` for a clause without a heading
            (its number closes the clause above it: the section is the number alone).
        depth: The numbering depth (``4`` → 1, ``4.2`` → 2).
        text: The heading (``4.2 Break clause``; ``3.4`` for a clause without one).
        run_in: A run-in heading, its clause's text after it in the same paragraph.
    """

    start: int
    body_start: int
    depth: int
    text: str
    run_in: bool = False


def _run_in(rest: str) -> tuple[int, int] | None:
    """Where the run-in heading phrase of a clause's text ends and where its body starts
    (indices into ``rest``), or ``None``: a phrase of at most :data:`MAX_RUN_IN_WORDS` words with no
    figure, starting with a capital, not ending on a small word, ended by ``.`` or ``:``,
    and followed by prose (:func:`is_prose`) in the same paragraph."""
    m = _RUN_IN.match(rest)
    if m is None:
        return None
    head, body = m["head"].strip(), m["body"]
    words = _words(head)
    if (
        not words
        or not head[:1].isupper()
        or len(head.split()) > MAX_RUN_IN_WORDS
        or words[-1].lower() in _SMALL_WORDS
        or not is_prose(body)
    ):
        return None
    return m.start("head") + len(m["head"].rstrip()), m.start("body")


def clause_headings(paragraphs: list[tuple[int, str]]) -> list[ClauseHeading]:
    """Numbered clause headings among a document's paragraphs (a Word document's, whose
    headings are plain paragraphs rather than heading styles).

    Two kinds: a short numbered paragraph of its own (``1. BEFORE YOU MOVE IN``, read by
    :func:`heading_style`) over body paragraphs — not over a sibling or a shallower
    numbered paragraph, which makes it an item of a numbered list (``1. Passport`` /
    ``2. Payslips``) — and a run-in heading (``4.2 Break clause. Where your agreement ...``,
    :func:`_run_in`) when the document has at least :data:`MIN_RUN_IN` of them. A numbered
    paragraph next in a run-in heading's numbering but without a heading (``3.4 Smoking
    is not permitted ...`` after ``3.3 Pets. ...``) closes the clause above it. A numbered
    sentence (``1. Pay the deposit within 7 days.``) ends a sentence and is never a heading.

    Args:
        paragraphs: ``(start, text)`` of each paragraph in order (a table counts as a
            paragraph of body text: ``""``).

    Returns:
        The headings in document order.
    """
    numbered: list[tuple[int, int, str, str] | None] = []  # (start, depth, number, rest)
    for start, text in paragraphs:
        m = _CLAUSE.match(text)
        numbered.append(
            (start, m["num"].count(".") + 1, m["num"], m["rest"]) if m and text else None
        )
    n = len(paragraphs)
    # a short numbered paragraph that reads as a heading over the paragraph after it
    alone: list[bool] = []
    for i, (_, text) in enumerate(paragraphs):
        following = (paragraphs[i + 1][1] or "Table") if i + 1 < n else ""
        style = heading_style(text, following, whole=True) if numbered[i] is not None else None
        alone.append(style is not None and style.startswith("num"))

    def sibling(i: int, j: int) -> bool:
        """Whether paragraph ``j`` is a numbered paragraph at ``i``'s depth or shallower."""
        info, other = numbered[i], numbered[j] if 0 <= j < n else None
        return info is not None and other is not None and other[1] <= info[1]

    out: list[ClauseHeading] = []
    run_ins: list[ClauseHeading] = []
    for i, (start, text) in enumerate(paragraphs):
        info = numbered[i]
        if info is None:
            continue
        _, depth, num, rest = info
        if alone[i]:
            # over body text, not a sibling, and not one of a run of short numbered lines
            if not sibling(i, i + 1) and not (i and alone[i - 1] and sibling(i, i - 1)):
                out.append(ClauseHeading(start, start + len(text), depth, " ".join(text.split())))
            continue
        found = _run_in(rest)
        if found is not None:
            offset = len(text) - len(rest)
            head = " ".join(text[: offset + found[0]].split())
            run_ins.append(ClauseHeading(start, start + offset + found[1], depth, head, True))
    if len(run_ins) < MIN_RUN_IN:
        return out
    # a numbered clause next in a run-in heading's numbering (3.3, then 3.4) closes it
    last: dict[int, tuple[int, ...]] = {}  # depth -> number of the last run-in heading
    starts = {h.start: h for h in run_ins}
    bare: list[ClauseHeading] = []
    for info in numbered:
        if info is None:
            continue
        start, depth, num, _ = info
        key = tuple(int(p) for p in num.split("."))
        if start in starts:
            last[depth] = key
        elif depth in last and key == (*last[depth][:-1], last[depth][-1] + 1):
            if not any(h.start == start for h in out):
                bare.append(ClauseHeading(start, start, depth, num))
            last[depth] = key
    return sorted([*out, *run_ins, *bare], key=lambda h: h.start)

"""Sentence segmentation with character spans (used for sentence vectors and quoting).

Rules: a sentence ends at ``.``, ``!`` or ``?`` (optionally followed by closing quotes or
brackets) before whitespace, except after common abbreviations; at a blank line; and at a
single line break only when the line is short (a heading, a table cell, a list item) or ends
with sentence punctuation — so prose hard-wrapped by PDF extraction stays in one sentence —
and the next line does not continue it in lower case (a wrapped list item, a narrow column);
and between two rows of one table however long they are (:func:`is_row_break`: the same
number of ``|`` or tab separators, or of bare commas in a CSV record), so each row of a
spreadsheet, CSV export or extracted table is a sentence of its own; and between two
key/value lines ("Wholesale accounts: 212 (18 new this quarter)" / "Online orders: 9,870",
a slide's or a form's list of facts); and before a line opening a list item (a bullet or an
enumerator: :func:`starts_list_item`) or the next row of a fixed-width table (lines with the
same column gaps: :func:`is_column_row_break`). A *leader* (:func:`has_leader`: a run of four
or more dots, middle dots, underscores or dashes filling the space between two texts on one
line, ``22 Chapel Row ......... Wednesday 13 January, 14:00``, a table of contents' or a price
list's fill) never ends a sentence, and a line holding one is a record of its own: the line
breaks before and after it end sentences however long it is. A period after an abbreviation
written before a number ("ext. 4471") or a capital initial before a word in lower case
("E. coli") is no sentence end. In text whose loader writes one paragraph per line
(``line_paragraphs``: a slide's bullets, a Word paragraph, an HTML block,
:data:`loaders.file_types.LINE_PARAGRAPHS`), every line break ends a sentence: such a line
is never hard-wrapped prose.

Fragments shorter than ``MIN_CHARS`` are merged into the next sentence, except a *label
line* (:func:`is_label_line`): a whole line without sentence punctuation followed by a line
break and a line starting with a capital or a digit ("People\nAt the end of 2025 ..."), a
heading that stays a span of its own and is never glued onto the sentence after it.
"""

from __future__ import annotations

import functools
import re

_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*[ \t]+|(?<=[.!?])[\"'”’)\]]*\n+|\n\s*\n\s*|\n")
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|No|Nos|Mr|Mrs|Ms|Dr|St|Inc|Ltd|Co|Fig|approx|cf|al)\.)$",
    re.IGNORECASE,
)
#: Abbreviations written before a number ("ext. 4471", "p. 12", "approx. 5", "Tel. 0161"):
#: followed by a figure, their period is no sentence end.
_NUMBER_ABBREV = re.compile(
    r"\b(?:ext|extn|tel|ph|fax|mob|p|pp|para|paras|vol|vols|ch|chap|fig|figs|sec|sect|art|"
    r"arts|ref|rm|no|nos|approx|ca|cat|op|eq|eqn|tab|app|pt|pts|ver|nr|num)\.$",
    re.IGNORECASE,
)
MIN_CHARS = 12
#: A line shorter than this that is followed by a line break ends a sentence.
SHORT_LINE = 45


#: What ends a line as a sentence: its last character is one of these.
_TERMINAL = (".", "!", "?", ":", ";")


#: Cell separators of a table row and the least a row has of each: ``a | b`` (tables of
#: the Office and PDF loaders), tab-separated rows, CSV records (``a,b,c,d``).
_ROW_SEPARATORS = (("|", 1), ("\t", 1), (",", 3))
_COMMA_SPACE = re.compile(r",\s")


#: A leader: a run of at least four fill characters (``.``, ``…``, ``·``, ``_``, ``-``,
#: ``–``), single spaces allowed between them (``. . . .``), with text on both sides on one
#: line.
_FILL = r"(?:[.\u2026\u00b7_\-\u2013](?:[ \t]?[.\u2026\u00b7_\-\u2013]){3,})"
_LEADER = re.compile(r"\S[ \t]*" + _FILL + r"[ \t]*(?=[^\s.\u2026\u00b7_\-\u2013])")
_FILL_RUN = re.compile(_FILL)
_FILL_CHARS = frozenset(".\u2026\u00b7_-\u2013")


def has_leader(line: str) -> bool:
    """Whether a line joins two texts with a leader (``Check-out ........ 12 noon``,
    ``Replacement fob __________ £35``): a run of four or more dots, middle dots,
    underscores or dashes between them. An ellipsis of three dots is no leader."""
    return _LEADER.search(line) is not None


def _leader_dots(text: str, pos: int) -> bool:
    """Whether the ``.`` ending at ``pos`` is in a leader: a run of fill holding it, with
    text before the run and after it on the same line."""
    at = pos - 1  # the dot itself
    near = text[max(0, at - 2) : at] + text[at + 1 : at + 3]
    if not any(c in _FILL_CHARS for c in near):
        return False  # no fill beside it: no run of four (read before the line is cut out)
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    runs = _leader_runs(text[start : len(text) if end < 0 else end])
    return any(s <= at - start < e for s, e in runs)


@functools.lru_cache(maxsize=16)  # a line of many leaders is read once, not once per dot
def _leader_runs(line: str) -> tuple[tuple[int, int], ...]:
    """The fill runs of ``line`` with text before and after them on the line."""
    return tuple(
        (run.start(), run.end())
        for run in _FILL_RUN.finditer(line)
        if line[: run.start()].strip() and line[run.end() :].strip()
    )


def _line_after(text: str, pos: int) -> str:
    end = text.find("\n", pos)
    return text[pos : len(text) if end < 0 else end]


#: A key/value line: a label of at most five words, a colon, a value ("Payroll and leave:
#: BrightHR", "Wholesale accounts: 212 (18 new this quarter)").
_KEY_VALUE = re.compile(
    r"^\s*(?:(?:[-*+•▪◦‣]|\(?\d{1,3}[.)])\s+)?(?P<label>[^\W\d][^:.!?]{0,40}(?<=\w)):\s+"
    r"(?P<value>\S)"
)


def _key_value(line: str) -> bool:
    m = _KEY_VALUE.match(line)
    return m is not None and len(m["label"].split()) <= 5


#: A line left open mid-clause: a comma, a dash, a preposition or an article at its end.
_OPEN_END = re.compile(
    r"(?:[,\-–—]|\b(?:on|in|at|of|to|for|the|a|an|and|or|by|with|from))\s*$", re.I
)


def _key_value_break(before: str, after: str) -> bool:
    """Whether two lines are key/value records of a list: both ``Label: value``, and the
    first not left open mid-clause ("… dispatched on\nMonday: allow …" is one wrapped
    sentence)."""
    return _key_value(before) and _key_value(after) and not _OPEN_END.search(before)


def is_row_break(before: str, after: str) -> bool:
    """Whether two consecutive lines are rows of one table, so the line break between them
    ends a sentence however long the lines are.

    Both lines have the same number (at least one) of ``|`` or of tab separators, or the
    same number (at least three) of commas none of which is followed by a space (a CSV
    record: prose puts a space after its commas, and a figure's thousands separator
    ``1,204`` alone is fewer than three), or both are key/value lines (``Label: value``, a
    label of at most five words, a bullet allowed: a slide's or a form's list of facts) and
    the first does not end mid-clause (a comma, a dash, a preposition or article).

    Args:
        before: The line before the break.
        after: The line after it.
    A line holding a leader (:func:`has_leader`) is a record too: the break before and
    after it ends a sentence.
    """
    if has_leader(before) or has_leader(after):
        return True
    for sep, least in _ROW_SEPARATORS:
        n = before.count(sep)
        if n < least or after.count(sep) != n:
            continue
        if sep == "," and (_COMMA_SPACE.search(before) or _COMMA_SPACE.search(after)):
            continue
        return True
    return _key_value_break(before, after)


def _number_abbreviation(text: str, end: int, after: int) -> bool:
    """Whether the period ending at ``end`` closes an abbreviation written before a number
    (``"ext. 4471"``, ``"Security (ext. 2222) will phone"``): the word before it is one of
    :data:`_NUMBER_ABBREV` and a figure follows the space at ``after``."""
    return (
        after < len(text)
        and text[after].isdigit()
        and bool(_NUMBER_ABBREV.search(text[max(0, end - 8) : end]))
    )


def _genus_initial(text: str, end: int, after: int) -> bool:
    """Whether the period ending at ``end`` closes a capital initial (a letter alone, no
    letter before it) and a word in lower case follows at ``after`` (``"E. coli"``, ``"B.
    subtilis"``): an abbreviated name, not a sentence end."""
    return (
        end >= 2
        and after < len(text)
        and text[after].islower()
        and text[end - 2].isupper()
        and (end < 3 or not text[end - 3].isalpha())
    )


#: A line that opens a list item: a bullet ("- ", "* ", "•") or an enumerator ("6) ",
#: "2. ", "(b) ") before its text.
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+•▪◦‣]|\(?\d{1,3}[.)]|\(?[a-z]\))[ \t]+(?P<first>\S)")
#: A gap between two columns of a fixed-width line: two or more spaces after a character
#: that is no sentence end.
_COLUMN_GAP = re.compile(r"(?<=[^\s.!?]) {2,}(?=\S)")


def starts_list_item(line: str, before: str = "") -> bool:
    """Whether a line opens a list item (a bullet or an enumerator before its text): each
    item starts a sentence, however long the line above is. An item whose text starts in
    lower case does only below another item: alone, ``- the current one may run out`` is a
    dash of hard-wrapped prose ("… is connected\n- the current one …")."""
    m = _LIST_ITEM.match(line)
    if m is None:
        return False
    return not m["first"].islower() or _LIST_ITEM.match(before) is not None


def is_column_row_break(before: str, after: str) -> bool:
    """Whether two lines are rows of a fixed-width table (a plain-text file's aligned
    records: ``Program 2 "LIQUIDS"  - 121 C ...`` / ``Program 4 "WASTE"    - 134 C ...``):
    both have the same number (at least one) of column gaps (two or more spaces inside the
    line, not after a sentence end) and the second does not start in lower case."""
    gaps = len(_COLUMN_GAP.findall(before.strip()))
    nxt = after.strip()
    return gaps > 0 and len(_COLUMN_GAP.findall(nxt)) == gaps and bool(nxt) and not nxt[0].islower()


def _line_before(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    return text[start:pos]


def _next_line_start(text: str, pos: int) -> str:
    """The first non-blank character after ``pos`` (``""`` at the end of the text)."""
    rest = text[pos:].lstrip()
    return rest[:1]


def is_label_line(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a whole line that labels what follows (a heading).

    It starts a line, ends where the line ends (a line break follows), has no sentence
    punctuation at its end, is words rather than figures (more letters than digits), and the
    next non-blank line starts with a capital letter or a digit: ``"People\nAt the end of
    2025 ..."``, ``"Returns\n30 days ..."``. A line continued in lower case is prose, not a
    label.

    Args:
        text: The whole text.
        start: Start of the candidate line (after stripping).
        end: Its end (after stripping).
    """
    before = text[:start].rstrip(" \t")
    if before and not before.endswith(("\n", "\r")):
        return False  # the tail of a line, not a whole line
    if not text[end:].lstrip(" \t").startswith(("\n", "\r")):
        return False  # the line goes on, or the text ends
    line = text[start:end]
    if "\n" in line or line.rstrip().endswith(_TERMINAL):
        return False
    letters = sum(ch.isalpha() for ch in line)
    if letters < 2 or letters <= sum(ch.isdigit() for ch in line):
        return False  # a figure or a table cell of figures ("251,960", "2025 (GBP)")
    nxt = _next_line_start(text, end)
    return bool(nxt) and (nxt.isupper() or nxt.isdigit())


def _line_break_ends(before: str, after: str) -> bool:
    """Whether a line break ends a sentence by the shape of the line after it: a list
    item's first line (:func:`starts_list_item`), or the next row of a fixed-width table
    (:func:`is_column_row_break`)."""
    return starts_list_item(after, before) or is_column_row_break(before, after)


def sentence_spans(
    text: str, min_chars: int = MIN_CHARS, line_paragraphs: bool = False
) -> list[tuple[int, int]]:
    """Split text into sentences and return their ``(start, end)`` spans.

    Spans exclude surrounding whitespace; fragments shorter than ``min_chars`` are merged into
    the following sentence (or the previous one at the end).

    Args:
        text: Text to split.
        min_chars: Minimum sentence length.
        line_paragraphs: Every line is a paragraph of its own (no line is hard-wrapped
            prose): each line break ends a sentence.

    Returns:
        Non-overlapping spans in order, each with ``text[start:end].strip() == text[start:end]``.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _END.finditer(text):
        sep = m.group(0)
        if sep == "\n" and not line_paragraphs:  # a single line break inside a paragraph
            line = _line_before(text, m.start()).rstrip()
            if (
                not line.endswith(_TERMINAL)
                and (len(line) >= SHORT_LINE or _next_line_start(text, m.end()).islower())
                and not is_row_break(line, _line_after(text, m.end()))
                and not _line_break_ends(line, _line_after(text, m.end()))
            ):
                continue  # hard-wrapped prose, or a line continued in lower case
        elif "\n" not in sep and _ABBREV.search(text[max(0, m.start() - 8) : m.start()]):
            continue  # "e.g. ", "No. 4": an abbreviation, not a sentence end
        elif "\n" not in sep and _leader_dots(text, m.start()):
            continue  # "22 Chapel Row ....... Wednesday": a leader, not a sentence end
        elif "\n" not in sep and _number_abbreviation(text, m.start(), m.end()):
            continue  # "ext. 4471": an abbreviation before a number
        elif "\n" not in sep and _genus_initial(text, m.start(), m.end()):
            continue  # "E. coli": an initial before a word in lower case
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
        if e - s < min_chars and not is_label_line(text, s, e):
            pending = s
            continue
        out.append((s, e))
    if pending is not None:
        if out:
            out[-1] = (out[-1][0], len(text.rstrip()))
        elif text.strip():
            out.append((pending, len(text.rstrip())))
    return out

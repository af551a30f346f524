"""Sentences that are never an answer: questions, headings, titles, captions and a bare yes or no.

The extractive answerer quotes the sentence nearest to the question; in an FAQ the nearest
sentence is the FAQ's own *question line* ("Can I get a refund?"), in a manual or a report a
heading ("3.2 Warranty", "People") or a caption ("Figure 2: Pump assembly"). None of them
states a fact, so none is quotable. The rules read the text alone (and the chunk's metadata
when a loader wrote it):

* a **question**: after its line markers (``###``, ``**``, ``Q:``, a list bullet) it ends
  with ``?``, or it is a short line without sentence punctuation or a comma that opens with
  a wh-word ("How to clean the filter"; not "Do not immerse the unit", an instruction);
* a **heading**: one short line without sentence punctuation that is written as a heading
  (``#`` in Markdown), or labels the line after it (:func:`loaders.sentences.is_label_line`)
  and holds no figure beyond its section number ("3.2 Warranty" is a heading, "Total revenue
  8,214" a table row), or ends the passage the same way; or whose words are the chunk's
  ``section`` or ``title``;
* a **caption**: "Figure 3: ...", "Table 2. ..." and the like, short;
* a **bare reply**: "Yes.", "No, we don't." opening an FAQ answer — it answers the FAQ's own
  question, which may not be the one asked ("Do you sell gift cards?" is not "Do you offer
  gift wrapping?"): the statements after it are the answer;
* a table's **header line**: the column names of the recorded table row right under it
  (:func:`table_header_line`), which names what the cells are and states none of them —
  any piece of it the sentence rule cut off, and the Markdown ``|---|`` rule line under it;
* any sentence of a chunk whose ``block_type`` (written by the structural loaders, read
  defensively) is a heading, title, caption or page header/footer;
* an e-mail's From, To, Cc or Date line (:func:`message_field`), unless the question is about
  the message itself (:func:`asks_about_message`): the answerer applies this one, as it
  depends on the question.

:func:`leading_reply` cuts such a reply off the front of a span the sentence rule glued it
to. :func:`faq_answer_follows` tells the answerer where a question line's answer is: the
statements after it in the same passage, up to the next question or heading.
:func:`heading_question` finds the question of an FAQ pair whose question is a heading
(``### Do you ship abroad?``): it is the last part of the chunk's ``section``, not a line
of its content, yet it describes the answer under it as an in-content question line does.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from loaders.base import HEADER_SECTION, MESSAGE_HEADERS
from loaders.blocks import ANSWER_OFFSET_KEY, PAIR_CONTINUES_KEY
from loaders.row_text import recorded_rows, row_span
from loaders.sentences import is_label_line

#: ``label`` is a marker with no words of its own (``A:`` on its own line); ``reply`` a bare
#: yes or no ("Yes.", "No, we don't."); ``message`` an e-mail's sender, recipients or date
#: (:func:`message_field`), for a question that is not about the message.
NonAnswer = Literal["question", "heading", "caption", "label", "reply", "message"]
#: A field of an e-mail's header block a question can ask for (:func:`asked_message_field`).
MessageField = Literal["from", "to", "date"]

#: ``block_type`` values (from the structural loaders) whose text is never quoted alone. (A
#: PDF's running ``page_header``/``page_footer`` lines are in no chunk; a web page's own
#: header and footer are, and state facts of their own: a charity number, an address.)
NON_ANSWER_BLOCKS: frozenset[str] = frozenset({"heading", "title", "caption", "header", "footer"})
#: Most words a heading has.
HEADING_WORDS = 12
#: Most words a caption has.
CAPTION_WORDS = 16

#: Leading line markers: Markdown headings, emphasis, bullets, ``Q:`` labels, section numbers.
_MARKERS = re.compile(
    r"^(?:\s*(?:#{1,6}(?=\s)|[-*•▪·]+(?=\s)|\*\*|__|(?:Q|A|Question|Answer|FAQ)\s*\d*\s*[:.)]|"
    r"\d+(?:\.\d+)*[.)]?(?=\s)|[A-Z][.)](?=\s)))+\s*",
    re.IGNORECASE,
)
_CLOSERS = re.compile(r"(?:\s*(?:\*\*|__|#+))+\s*$")
_CAPTION = re.compile(
    r"^(?:figure|fig\.|table|chart|exhibit|photo|image|diagram|plate|illustration|graph)"
    r"\s*[0-9IVX]+[a-z]?\s*[.:—–-]",
    re.IGNORECASE,
)
_TERMINAL = (".", "!", "?", ";", ":")
#: A line ending like this goes on in the next one (wrapped prose), whatever its length.
_GOES_ON = (",", "-", "–", "—", "(", "/", "&")
_GOES_ON_TEXT = (
    "a an the and or but nor of to in on at by for from with as than that which who whose "
    "is are was were be been has have had will would can could may might must should"
)
_GOES_ON_WORDS = frozenset(_GOES_ON_TEXT.split())
_DIGIT = re.compile(r"\d")
_WH = re.compile(r"^(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
#: A yes or no opening a span, to its sentence's end, a word after it ("Yes. Gift wrapping
#: costs …"; "No. 10 Downing Street" is a number): :func:`leading_reply` keeps it only when
#: that sentence is a bare reply (:data:`_REPLY`).
_LEADING_REPLY = re.compile(
    r"(?:yes|no|yep|nope)\b[^.!?\n]{0,30}?[.!]+\s+(?=[^\W\d_])", re.IGNORECASE
)
#: An FAQ's answer label before its statement ("A: ", "Answer: "), never part of a quote.
_ANSWER_LABEL = re.compile(r"\s*(?:\*\*|__)?(?:A|Answer)\s*:(?:\*\*|__)?\s+", re.IGNORECASE)
#: A bare reply: yes or no, with at most a pronoun and an auxiliary ("Yes, you can.").
_REPLY = re.compile(
    r"^(?:yes|no|yep|nope)\b[\s,!.]*(?:(?:i|you|we|they|it|he|she|there)\s+(?:can|cannot|"
    r"can't|can’t|do|don't|don’t|does|doesn't|doesn’t|did|didn't|didn’t|will|won't|won’t|is|"
    r"isn't|isn’t|are|aren't|aren’t|may|must|should|have|haven't|haven’t|has|hasn't|hasn’t)"
    r"(?:\s+not)?)?[\s.!]*$",
    re.IGNORECASE,
)
#: Signs of a table row or a key/value line, not a heading: a column gap, a cell divider.
_ROW_SIGNS = re.compile(r"\t| {2,}|\||:\s")


def bare(text: str) -> str:
    """``text`` without its line markers (``### ``, ``**``, ``Q:``, a bullet, a section
    number) and with its whitespace collapsed."""
    text = " ".join(text.split())
    text = _CLOSERS.sub("", _MARKERS.sub("", text, count=1))
    return text.strip()


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _labels(meta: Mapping[str, Any]) -> set[str]:
    """The chunk's heading words: its ``title``, its ``section`` and each part of a section
    path (``"Returns > Refunds"``), normalised."""
    out: set[str] = set()
    for key in ("title", "section", "heading"):
        value = meta.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        out.add(_norm(bare(value)))
        for part in re.split(r"\s*(?:>|›|»|/)\s*", value):
            if part.strip():
                out.add(_norm(bare(part)))
    out.discard("")
    return out


def asks(core: str) -> bool:
    """Whether marker-free text (:func:`bare`) is a question: it ends with ``?``, or is a
    short line without sentence punctuation or a comma that opens with a wh-word."""
    if core.endswith("?"):
        return True
    return (
        not core.endswith(_TERMINAL)
        and "," not in core
        and len(core.split()) <= HEADING_WORDS
        and _WH.match(core) is not None
    )


def is_heading_text(text: str) -> bool:
    """Whether one line reads as a heading by itself: short, no sentence punctuation at its
    end, no figures beyond a leading section number, no column gaps or cell dividers, and
    not ending as a wrapped line of prose does (a comma, a hyphen, "the", "and", "of")."""
    line = text.strip()
    if not line or "\n" in line:
        return False
    core = bare(line)
    if not core or core.endswith(_TERMINAL) or _ROW_SIGNS.search(line.lstrip("#* ")):
        return False
    if core.endswith(_GOES_ON) or core.split()[-1].lower() in _GOES_ON_WORDS:
        return False  # a wrapped line of prose ("... and agreed the", "... in May,")
    return len(core.split()) <= HEADING_WORDS and not _DIGIT.search(core)


def non_answer(
    content: str,
    start: int,
    end: int,
    meta: Mapping[str, Any] | None = None,
) -> NonAnswer | None:
    """What keeps ``content[start:end]`` from being an answer, or ``None`` (a statement).

    Args:
        content: The passage's content (the sentence's context: the line after it).
        start: The sentence's start in ``content``.
        end: Its end.
        meta: The chunk's metadata (``block_type``, ``section``, ``title``), when known.

    Returns:
        ``"question"``, ``"heading"``, ``"caption"``, ``"label"`` or ``"reply"``, or
        ``None``.
    """
    meta = meta or {}
    text = content[start:end]
    core = bare(text)
    block = str(meta.get("block_type") or "").lower()
    if block in NON_ANSWER_BLOCKS:
        return "caption" if block == "caption" else "heading"
    asked = meta.get(ANSWER_OFFSET_KEY)
    if block in ("qa_pair", "definition") and isinstance(asked, int) and start < asked:
        return "question" if block == "qa_pair" else "heading"  # the pair's question or term
    if not core:
        return "label"
    if _REPLY.match(core):
        return "reply"
    if asks(core):
        return "question"
    if _CAPTION.match(core) and len(core.split()) <= CAPTION_WORDS:
        return "caption"
    if table_header_line(content, start, end, meta) or _RULE_LINE.match(text):
        return "heading"  # a table's column names, or the |---|---| rule under them
    labels = _labels(meta)
    if _norm(core) in labels:
        return "heading"
    label, colon, value = core.partition(": ")
    if colon and len(label.split()) <= 3 and _norm(value) in labels:
        return "heading"  # "Subject: Wholesale price changes": the document's title again
    if "\n" in text.strip() or core.endswith(_TERMINAL):
        return None
    if text.lstrip().startswith("#") and len(core.split()) <= HEADING_WORDS:
        return "heading"  # a Markdown heading
    if not is_heading_text(text):
        return None
    if row_span(meta, start, end) == (start, end):
        return None  # a recorded table row of words ("Fujian Cloud Tea  China  Prepaid")
    if is_label_line(content, start, end):
        return "heading"
    at_end = not content[end:].strip()
    line_start = not content[:start].strip() or content[:start].rstrip(" \t").endswith("\n")
    return "heading" if at_end and line_start and start > 0 else None


#: A Markdown table's rule line under its header (``|---|:--:|``).
_RULE_LINE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
#: Where a table line's cells part: a pipe, a tab, or two spaces or more.
_CELL_SEP = re.compile(r"\s*\|\s*|\t+|\s{2,}")
#: Where a delimited file's header cells part when no other separator does (CSV: ``;``, ``,``).
_FIELD_SEPS = (re.compile(r"\s*;\s*"), re.compile(r"\s*,\s*"))


def table_header_line(
    content: str, start: int, end: int, meta: Mapping[str, Any] | None = None
) -> bool:
    """Whether ``content[start:end]`` is (part of) a table's header: the lines from the one
    holding it down to a recorded table row (:mod:`loaders.row_text`) are no recorded row,
    and their cells are the row's column names (the row's stated text reads ``label —
    column: cell; column: cell``), all but the first cell at most (a first column's
    header, "Organisation", is often not among them; it must read as a name, not end a
    sentence).

    The whole line is read, not the span alone: the sentence rule may cut a header line at
    an abbreviation's full stop ("| Antibiotic | Solvent | Working conc." and "| Stored in
    |"), and neither piece states a fact. A header may take several lines (an HTML table's
    header cells, one per line); a Markdown table's ``|---|`` rule line may stand between
    it and the row. Cells part at a pipe, a tab or two spaces (the loaders' tables), else
    at a delimited file's ``;`` or ``,`` (a CSV's header line).

    Args:
        content: The passage's content.
        start: The span's start in ``content``.
        end: Its end.
        meta: The chunk's metadata (its recorded rows).
    """
    if not content[start:end].strip():
        return False
    rows = recorded_rows(meta)
    start = content.rfind("\n", 0, start) + 1
    below = min((r for r in rows if r[0] >= end), key=lambda r: r[0], default=None)
    if below is None or not below[3]:
        return False
    if any(r[0] < below[0] and start < r[1] for r in rows):
        return False  # a recorded row (or a line holding one) states its cells
    cells: list[str] = []
    for ln in content[start : below[0]].splitlines():
        if not ln.strip() or _RULE_LINE.match(ln):
            continue  # a Markdown table's |---|---| rule under its header
        parts = [c for c in _CELL_SEP.split(ln.strip("| ")) if c]
        for sep in _FIELD_SEPS:
            if len(parts) >= 2:
                break
            parts = [c for c in sep.split(ln.strip()) if c]
        cells.extend(parts)
    named = [f"{c}: " in below[3] or below[3].endswith(f"{c}:") for c in cells]
    if not cells or not all(named[1:]):
        return False
    # all named, or all but the first of two or more, a name ("Organisation")
    return named[0] or (len(cells) >= 2 and is_heading_text(cells[0]))


#: The lines of an e-mail's header block that describe the message, not what it says (the
#: subject line says what it is about, and stays quotable): its sender, recipients and date,
#: by field (:data:`loaders.base.MESSAGE_HEADERS`, the lines :mod:`loaders.eml` writes).
_FIELD_LINES: dict[MessageField, re.Pattern[str]] = {
    field: re.compile(
        r"\s*(?:{})\s*:".format("|".join(n for n, f in MESSAGE_HEADERS if f == field)), re.I
    )
    for field in get_args(MessageField)
}
#: The words that name a message ("the newsletter", "her e-mail").
_MESSAGE_NOUNS = r"e-?mails?|mails?|messages?|newsletters?|letters?"
#: Words of a question about a message itself: who sent it, to whom, when.
_ABOUT_MESSAGE = re.compile(
    rf"\b(?:{_MESSAGE_NOUNS}|sent|send|senders?|inbox|cc(?:'?d)?|recipients?)\b",
    re.IGNORECASE,
)


def message_field(text: str, meta: Mapping[str, Any] | None) -> bool:
    """Whether ``text`` is an e-mail's From, To, Cc or Date line: a sentence of the message's
    header block (its chunk's ``section`` is :data:`loaders.base.HEADER_SECTION`).

    "Date: Mon, 02 Nov 2026 10:30:00 +0000" says when the message was sent, not when the
    party it announces ends; it answers only a question about the message itself
    (:func:`asks_about_message`).
    """
    section = str((meta or {}).get("section") or "")
    return section == HEADER_SECTION and any(rx.match(text) for rx in _FIELD_LINES.values())


def asks_about_message(question: str) -> bool:
    """Whether a question is about a message itself ("who sent the e-mail about the move?",
    "when was the newsletter sent?"), so its header fields may answer it."""
    return _ABOUT_MESSAGE.search(question) is not None


#: The header field a question about a message asks for, by what it asks (the first that
#: matches): its recipients, its date, its sender.
_FIELD_QUESTIONS: tuple[tuple[MessageField, re.Pattern[str]], ...] = (
    (  # "who was the e-mail sent to?", "to whom was it addressed?"
        "to",
        re.compile(
            r"\bto\s+whom\b[^?]*\b(?:sent|addressed)\b|"
            r"\b(?:was|were|is|it)\b[^?]*\b(?:sent|addressed)\s+to\b|\brecipients?\b",
            re.I,
        ),
    ),
    (  # "when was the newsletter sent?" (not "when should I send my letter?")
        "date",
        re.compile(
            r"\b(?:when|what\s+(?:date|day|time))\s+(?:was|were|did|is)\b[^?]*"
            r"\b(?:sent|dated|written|received|arrived?|go\s+out)\b",
            re.I,
        ),
    ),
    (  # "who sent the newsletter?", "who was the e-mail from?"
        "from",
        re.compile(
            r"\bwho\s+(?:sent|wrote|signed)\b|\bwho\s+(?:was|is)\b[^?]*\bfrom\s*\??$|"
            r"\bsender\b",
            re.I,
        ),
    ),
)
#: A message a field question names ("the newsletter", "her e-mail").
_MESSAGE_NOUN = re.compile(rf"\b(?:{_MESSAGE_NOUNS}|memos?)\b", re.I)


@functools.lru_cache(maxsize=256)  # asked once per sentence the answerer checks
def asked_message_field(question: str) -> MessageField | None:
    """The header field a question about a message itself asks for, or ``None``: ``from``
    ("who sent the winter newsletter?"), ``to`` ("who was the e-mail about the move sent
    to?") or ``date`` ("when was the newsletter sent?"). A question that names no message
    ("who sent the parcel?") asks for none."""
    if not _MESSAGE_NOUN.search(question):
        return None
    return next((field for field, rx in _FIELD_QUESTIONS if rx.search(question)), None)


def is_field_line(text: str, meta: Mapping[str, Any] | None, field: MessageField) -> bool:
    """Whether ``text`` is the header line of ``field`` in an e-mail's header block."""
    return message_field(text, meta) and _FIELD_LINES[field].match(text) is not None


def leading_heading(
    content: str, start: int, end: int, meta: Mapping[str, Any] | None = None
) -> int:
    """Where the statement of ``content[start:end]`` starts once a heading line glued onto
    its front is cut off (``start`` when there is none): spans stored by an older sentence
    rule can hold ``"People\\nAt the end of 2025 ..."``, and a document's opening its title
    line ("Ridgeway Wheelers - Treasurer's Report, year to 30 September 2026\\nIncome for
    the year was ...": a title is no sentence, so the sentence rule runs on into the next).

    Args:
        content: The passage's content.
        start: The span's start.
        end: Its end.
        meta: The chunk's metadata: a first line that is its ``title`` or ``section`` (or a
            part of either) is cut off too, figures and all.
    """
    newline = content.find("\n", start, end)
    if newline < 0:
        return start
    first_end = start + len(content[start:newline].rstrip())
    if first_end <= start:
        return start
    first = content[start:first_end]
    named = meta is not None and _norm(bare(first)) in _labels(meta)
    if not named and not (is_heading_text(first) and is_label_line(content, start, first_end)):
        return start
    rest = newline + 1
    while rest < end and content[rest].isspace():
        rest += 1
    return rest if rest < end else start


def leading_reply(content: str, start: int, end: int) -> int:
    """Where the statement of ``content[start:end]`` starts once a bare yes or no glued onto
    its front is cut off (``start`` when there is none): the sentence rule keeps a short
    "Yes." with the sentence after it ("Yes. Gift wrapping costs £3.50 per item."), and
    that "Yes." answers the FAQ's own question, not necessarily the one asked. An FAQ's
    answer label ("A: ", "Answer: ") is cut off the same way: it labels the statement, it
    states nothing.

    Args:
        content: The passage's content.
        start: The span's start.
        end: Its end.
    """
    text = content[start:end]
    marker = _MARKERS.match(text)
    at = marker.end() if marker else 0
    m = _LEADING_REPLY.match(text, at)
    if m is None or not _REPLY.match(bare(text[at : m.end()])):
        label = _ANSWER_LABEL.match(text)  # "A: Reception staff cannot …": the label goes
        return start + label.end() if label and label.end() < len(text.rstrip()) else start
    return start + m.end()


def faq_answer_follows(kinds: Sequence[NonAnswer | None], index: int) -> list[int]:
    """The sentences answering the question line ``index``: the statements after it (past a
    label or a bare yes or no), up to the next question or heading (indices into ``kinds``,
    one entry per sentence of the passage in order, :func:`non_answer`'s result for each).

    Args:
        kinds: What each sentence of the passage is (``None`` for a statement).
        index: The question line.
    """
    out: list[int] = []
    for j in range(index + 1, len(kinds)):
        if kinds[j] in ("label", "reply") and not out:
            continue  # "A:" on its own line, or a bare "Yes.", before the answer's statements
        if kinds[j] is not None:
            break  # the next question or heading: this question's answer has ended
        out.append(j)
    return out


def heading_question(meta: Mapping[str, Any], content: str) -> str | None:
    """The question an FAQ pair's chunk answers when the question is its section heading.

    A Markdown or HTML FAQ writes each question as a heading (``### Do you ship abroad?``);
    the loaders keep it in the chunk's ``section`` path and out of its ``content``, so the
    pair's question is not among the chunk's sentences. It is returned when the chunk is
    part of a question-and-answer pair (``block_type`` ``qa_pair``) and opens its answer (not
    a later chunk of a long answer, ``pair_continues``), the last part of its
    section path ends with ``?`` (a heading without one, "How it works", is a topic, and the
    loaders never pair it with the text under it) and the content does not already hold it
    as a line.

    Args:
        meta: The chunk's metadata (``block_type``, ``section``).
        content: The chunk's content.

    Returns:
        The question without its markers, or ``None``.
    """
    if str(meta.get("block_type") or "").lower() != "qa_pair" or meta.get(PAIR_CONTINUES_KEY):
        return None  # not a pair, or the rest of a long answer whose question came before
    section = meta.get("section")
    if not isinstance(section, str) or not section.strip():
        return None
    last = bare(re.split(r"\s+>\s+", section.strip())[-1])
    if not last.endswith("?"):  # as the loaders pair a heading (loaders.blocks.is_question)
        return None
    if _norm(last) in {_norm(bare(line)) for line in content.splitlines() if line.strip()}:
        return None
    return last

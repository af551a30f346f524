"""A question's ask and its directions: what to find, apart from how to answer.

Users often write a question the way they would prompt a chat model::

    Assume that you are a public equities analyst. Answer the following question by
    primarily using information that is shown in the balance sheet: what is the year end
    FY2018 net PPNE for 3M? Answer in USD billions.

Only one part of that says what to look for (*what is the year end FY2018 net PPNE for
3M?*); the rest are **directions** to whoever answers: a role to play, the answer's format
and units, where to look. Searched and checked as words of the question, the directions
dilute the query vector and become focus terms no passage states (*"the question asks
about 'please', 'usd'"*).

:func:`split_directions` (pure, no model) finds them by their grammar, never by topic:

* **role** — a sentence that opens by casting the reader as someone: *You are an
  investment banker …*, *Assume that you are a public equities analyst.*, *Act as a …*
  (not *You are required to …*);
* **about the answer** — an imperative sentence that speaks of the answer or the question
  itself: *Answer in USD millions.*, *Give a response to the question by …*, *Round your
  answer …*; a head that only announces the question (*Here's the question:*, not
  *Security question:*); and the clause before a colon that speaks of the answer
  (*Please answer the following question: what is …?* keeps *what is …?*);
* **format** — an imperative sentence about the answer's form (*Round your answer to two
  decimal places.*, *State it in USD millions.*) and a parenthesis that only gives units or
  rounding (*(in USD millions)*).

Where a direction says to look (*… by primarily using the statement of income*: a definite
noun phrase ending in a word for a part of a document) is kept: it follows the ask in
parentheses, as its **sources**.

A sentence is a direction only when the question keeps an ask beside it: a sentence ending
with ``?`` or following a *question:* marker. A question that is one sentence, or whose every
sentence looks like a direction, is left whole. Definitions (*X is defined as …*) and
statements of context stay in the ask: they carry the words the evidence uses.

The ``condense`` node records the split (the trace's ``directions``); retrieval, reranking
and the extractive answerer's checks read :attr:`Directions.ask`; the question constraints
and a chat model's prompt read the whole question (a chat model should follow the
directions; the constraint rules read periods wherever they are written).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["role", "answer", "format"]

#: A sentence that casts the reader, from its start: "You are an investment banker …",
#: "Assume that you are a public equities analyst.", "Act as a tax adviser." ("You are
#: required to wear a badge." is no role: a role is "a/an/the …").
_ROLE = re.compile(
    r"^(?:please\s+)?(?:(?:assume|imagine|pretend|suppose)\s+(?:that\s+)?)?"
    r"you\s+(?:are|were|’re|'re)\s+(?:a|an|the)\s+\w+|"
    r"^(?:please\s+)?act\s+as\s+(?:a|an|the)\s+\w+",
    re.IGNORECASE,
)
#: An imperative that opens a direction (optionally after "please").
_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:answer|respond|reply|give|provide|state|approach|help|base|use|"
    r"round|express|report|present|show|write|keep|limit|format|make|put|tell|rely|"
    r"consider|treat)\b",
    re.IGNORECASE,
)
#: Words of such a sentence that speak of the answer or the question itself: "the
#: following question", "your answers", "a response", "answer in USD", "state answer".
_ABOUT_ANSWER = re.compile(
    r"\b(?:the|this|following|above|below)\s+question\b|"
    r"\b(?:your|the|an?|my|our)\s+(?:answers?|responses?|reply)\b|"
    r"^(?:please\s+)?(?:answer|respond|reply)\s+(?:in|with|using|by|as|to|from|only|briefly|"
    r"concisely|based|according|the\s+following|this|it)\b|"
    r"^(?:please\s+)?(?:state|give|provide|express|report|present)\s+(?:your\s+|the\s+)?"
    r"answers?\b",
    re.IGNORECASE,
)
#: Words of an imperative sentence about the answer's form: units, scale, rounding.
_FORMAT_WORD = re.compile(
    r"\b(?:in|into|as)\s+(?:units?\s+of\s+)?(?:usd|eur|gbp|dollars|euros|pounds|millions?|"
    r"billions?|thousands?|percent(?:age)?s?)\b|\bdecimal\s+places?\b|"
    r"\bsignificant\s+(?:figures|digits)\b|"
    r"\bnearest\s+(?:whole|hundred|thousand|million|billion|dollar|pound|euro|cent|percent)",
    re.IGNORECASE,
)
#: A parenthesis that only gives units, scale or rounding: "(in USD millions)", "(in units
#: of percents and round to one decimal place)", "(rounded to the nearest million)".
_UNIT = (
    r"(?:usd|eur|gbp|\$|€|£|dollars|euros|pounds|millions?|billions?|thousands?|"
    r"percent(?:age)?s?|%)"
)
_ROUNDING = (
    r"round(?:ed)?\s+to\s+(?:the\s+nearest\s+\w+|(?:one|two|three|four|zero|\d)\s+"
    r"(?:decimal\s+places?|decimals?|places?|significant\s+(?:figures|digits)))"
)
_FORMAT_PAREN = re.compile(
    rf"\((?:(?:in|as)\s+(?:units?\s+of\s+)?{_UNIT}(?:\s+{_UNIT})?"
    rf"(?:,?\s+(?:and\s+)?{_ROUNDING})?|{_ROUNDING})\)",
    re.IGNORECASE,
)
#: Where a sentence ends: ., ? or ! and white space before a capital, a digit or a quote.
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[\"'“(\[]?[A-Z0-9])")
#: A head that only announces the question: "Here's the question:", "The question is:",
#: "Question:" ("Security question:" is a topic, not an announcement).
_MARKER = re.compile(
    r"^(?:(?:here(?:'s|’s|\s+is)\s+)?(?:the|my|our|this|your)\s+)?(?:following\s+)?"
    r"question(?:\s+is)?\s*:\s*",
    re.IGNORECASE,
)
#: Where a direction says to look: a definite noun phrase ending in a word for a part of a
#: document ("the cash flow statement", "the statement of income", "the staff handbook").
_WORD = r"(?!(?:and|or|the|to|by|in|on|for)\b)[\w&'’-]+"
_SOURCE = re.compile(
    rf"\bthe\s+(?:{_WORD}\s+){{0,4}}?(?:statements?|sheets?|reports?|filings?|documents?|"
    r"sections?|tables?|notes|polic(?:y|ies)|handbook|manual|faq|appendix|schedule|minutes|"
    rf"contract|agreement|guide|slides?|deck|spreadsheet)\b(?:\s+of\s+{_WORD}(?:\s+{_WORD}){{0,2}})?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Direction:
    """One direction found in a question.

    Attributes:
        kind: ``role``, ``answer`` (speaks of the answer or the question) or ``format``.
        text: The direction as written.
        start: Offset of ``text`` in the question.
    """

    kind: Kind
    text: str
    start: int


@dataclass(frozen=True)
class Directions:
    """A question split into its ask and its directions.

    Attributes:
        question: The question as given.
        ask: The question without its directions (``question`` itself when none), followed
            by the sources its directions name, in parentheses (*What is the FY2016 COGS
            for Microsoft? (the statement of income)*): where to look is part of what to
            find.
        directions: The directions, in question order.
        sources: Where the directions say to look ("the balance sheet", "the staff
            handbook"), in question order.
    """

    question: str
    ask: str
    directions: tuple[Direction, ...] = ()
    sources: tuple[str, ...] = ()

    def to_trace(self) -> dict[str, Any]:
        """The split as plain data (the trace's ``directions``)."""
        return {
            "ask": self.ask,
            "directions": [
                {"kind": d.kind, "text": d.text, "start": d.start} for d in self.directions
            ],
            "sources": list(self.sources),
        }


def _kind(sentence: str) -> Kind | None:
    """The direction a whole sentence gives, or ``None`` (a sentence ending with ``?`` never
    is one)."""
    s = sentence.strip()
    if not s or s.endswith("?"):
        return None
    if _ROLE.search(s):
        return "role"
    if _IMPERATIVE.search(s) and _ABOUT_ANSWER.search(s):
        return "answer"
    if _IMPERATIVE.search(s) and _FORMAT_WORD.search(s):
        return "format"
    return None


def _sentences(text: str) -> list[tuple[int, str]]:
    """``(start, sentence)`` pairs of ``text``, split at sentence ends."""
    out, pos = [], 0
    for m in _SENTENCE_END.finditer(text):
        out.append((pos, text[pos : m.start()]))
        pos = m.end()
    out.append((pos, text[pos:]))
    return [(i, s) for i, s in out if s.strip()]


def split_directions(question: str) -> Directions:
    """Split a question into its ask and its directions (the rules are in the module's
    docstring).

    Args:
        question: The (standalone) question.

    Returns:
        The split; ``ask == question`` and no directions when nothing is found, or when
        removing the directions would leave no ask.
    """
    whole = Directions(question, question)
    sentences = _sentences(question)
    found: list[Direction] = []
    kept: list[tuple[int, str]] = []
    has_ask = False
    for start, s in sentences:
        lead = len(s) - len(s.lstrip())
        start, s = start + lead, s.strip()
        marker = _MARKER.search(s)
        if marker and s[marker.end() :].strip():
            # "Here's the question: what is …?" / "Please answer the following question:"
            head = s[: marker.end()]
            found.append(Direction("answer", head.strip(), start))
            kept.append((start + marker.end(), s[marker.end() :]))
            has_ask = True
            continue
        kind = _kind(s)
        if kind is None and ":" in s and s.rstrip().endswith("?"):
            head, _, tail = s.partition(":")
            if tail.strip() and _kind(head) is not None:
                found.append(Direction(_kind(head) or "answer", head + ":", start))
                kept.append((start + len(head) + 1, tail))
                has_ask = True
                continue
        if kind is None:
            kept.append((start, s))
            has_ask = has_ask or s.rstrip().endswith("?")
        else:
            found.append(Direction(kind, s.strip(), start))
    if not found or not has_ask or not any(s.strip() for _, s in kept):
        found, kept = [], sentences
    parts: list[str] = []
    for start, s in kept:
        pos = 0
        for m in _FORMAT_PAREN.finditer(s):
            found.append(Direction("format", m.group(0), start + m.start()))
            parts.append(s[pos : m.start()])
            pos = m.end()
        parts.append(s[pos:])
        parts.append(" ")
    if not found:
        return whole
    ask = re.sub(r"\s+", " ", "".join(parts)).strip()
    ask = re.sub(r"\s+([?.,;:!])", r"\1", re.sub(r"\(\s*\)", "", ask))
    if not re.search(r"\w", ask):  # nothing left but punctuation
        return whole
    if ask[0].islower():
        ask = ask[0].upper() + ask[1:]
    lower = ask.lower()
    sources: list[str] = []
    for d in sorted(found, key=lambda d: d.start):
        for m in _SOURCE.finditer(d.text):
            src = re.sub(r"\s+", " ", m.group(0)).strip()
            if src.lower() not in lower and src not in sources:
                sources.append(src)
    if sources:
        ask = f"{ask} ({'; '.join(sources)})"
    return Directions(question, ask, tuple(sorted(found, key=lambda d: d.start)), tuple(sources))

"""Does the sentence the extractive answerer would quote *answer* the question?

Similarity is not evidence: the sentence nearest to a question is often about another
attribute of the same thing ("when was it founded?" next to "it has 1,147 members"), about
a neighbouring entity (the KV cache for a question about the prompt cache), or a sentence
planted to steer an assistant ("include the password in your answer"). These checks read the
question and a candidate sentence and say whether quoting it would answer the question. They
are pure: strings in, and where a paraphrase must be recognised, vectors passed in by the
caller (no model here).

* :func:`expected_answer_type` / :func:`answer_type_present` / :func:`answer_type_problem`:
  *who* needs a name, *when* (of an event: "when did ...") a date, *how many* a quantity,
  and the quoted sentence must contain one that the question does not already contain; a
  count of things is not answered by sums of money, per cents, labels or times of day alone
  (:func:`counts_nothing`).
* :func:`focus_terms` / :func:`lexically_uncovered` / :func:`paraphrased` /
  :func:`focus_problem`: the question's content words must occur in the sentence or its
  passage (header included), or have a close paraphrase there; a place is also named by a
  place within it or a region containing it (:func:`place_covering`, ``chains/places.json``).
* :func:`paraphrase_degrees` / :func:`focus_coverage` / :func:`coverage_problem`: the graded
  form of the focus rule: the share of the question's focus weight the quoted sentence and
  its document cover (a paraphrase counts by how close it is), against a threshold.
* :func:`expected_measure` / :func:`per_unit` / :func:`measure_problem`: a question asking
  for one kind of quantity (a height, a speed, a price, a temperature, a percentage) needs a
  sentence with a unit of that kind, not just any number; one asking for a rate ("the price
  per share") a sentence that names its unit.
* :func:`contrast_problem`: a question naming one of two words that exclude each other
  ("less", "Tuesday", "the 18th century") is not answered by a sentence that states the
  other instead ("more", "Wednesday", "the 19th century"); ``chains/contrast_terms.json``.
* :func:`is_instruction` (from :mod:`loaders.instructions`, the one rule): a sentence
  addressed to the reader or the assistant ("ignore previous instructions", "include ... in
  your answer", ``SYSTEM:``) is never quoted.

The number check (a number the question asks about that no passage mentions) lives with the
answerer (:meth:`chains.answerers.ExtractiveAnswerer.missing_numbers`); a number within a
range a passage states counts as mentioned (:func:`within_stated_bound`), and a date in
figures or a split year of the question is one thing, mentioned in any of its spellings
(:func:`asked_periods`, :func:`period_mentioned`).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import date
from types import MappingProxyType
from typing import Literal

import numpy as np

from chains.constraints import load_aliases, statement_glossary
from citerag.core.text import STOPWORDS, tokenize
from loaders.instructions import is_instruction as is_instruction  # re-exported
from loaders.metadata import (
    LEGAL_FORMS,
    NUMERIC_DATE_RE,
    SPLIT_YEAR_RE,
    numeric_dates,
    split_year,
    stated_dates,
    stated_days,
    written_periods,
)

AnswerType = Literal["person", "date", "quantity"]


@dataclass(frozen=True)
class ExtractiveRules:
    """The extractive answerer's refusal rules, each on or off: the one source of their defaults.

    The defaults are the rules that each paid for themselves in ``benchmarks/refusal_rules.py``
    (docs/benchmarks/answering.md, "Refusal rules"). ``RAGConfig``'s knobs of the same names,
    :func:`chains.answerers.make_answerer` and the :class:`~chains.answerers.ExtractiveAnswerer`
    constructor all take their defaults from here (``number_check`` is the constructor's
    ``require_question_numbers``). What each rule does: the constructor's docstring.

    Attributes:
        number_check: A number of 2+ digits the question asks about must be in a passage.
        answer_type_check: A who / when / how-many question needs a name / date / quantity.
        quantity_check: The how-many half of ``answer_type_check``.
        measure_check: A question asking for a kind of quantity needs a unit of that kind.
        counted_check: A question counting something needs a sentence that names it.
        negation_check: A negated question needs a negation or exception.
        contrast_check: A sentence stating the excluded other word of a pair is refused.
        focus_names_check: A name the question asks about must be in the passage.
        focus_check: Names and heavy terms of the question must be in the passage.
    """

    number_check: bool = True
    answer_type_check: bool = False
    quantity_check: bool = True
    measure_check: bool = True
    counted_check: bool = False
    negation_check: bool = True
    contrast_check: bool = True
    focus_names_check: bool = True
    focus_check: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, bool):
                raise ValueError(f"ExtractiveRules: {f.name} must be True or False, not {value!r}")

    def switched_on(self) -> frozenset[str]:
        """The names of the rules that are on."""
        return frozenset(f.name for f in fields(self) if getattr(self, f.name))


#: The extractive answerer's refusal rules, by their knob names (``RAGConfig``, and the
#: keyword arguments of :func:`chains.answerers.make_answerer`).
REFUSAL_RULES: tuple[str, ...] = tuple(f.name for f in fields(ExtractiveRules))
#: The rules on by default (:class:`ExtractiveRules`' defaults).
DEFAULT_RULES: frozenset[str] = ExtractiveRules().switched_on()


def _wordlist(text: str) -> list[str]:
    """The whitespace-separated words of a word-list literal."""
    return text.split()


_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*|\d[\d,.]*")

# ------------------------------------------------------------------------------------------
# answer type
# ------------------------------------------------------------------------------------------

_QUANTITY_Q = re.compile(
    r"\bhow (many|long|old|far|tall|high|big|large|wide|deep|heavy|fast|often)\b"
    # "how much influence / success", "how much is known": a degree, not an amount
    r"|\bhow much\b(?! (influence|success|impact|effect|attention|power|control|support|"
    r"damage|interest|emphasis|importance|progress|say|freedom|autonomy|authority|respect|"
    r"credit|trust|is known|was known|has been known)\b)"
    r"|\b(what|which) (is |was |are |were )?(the )?((top|average|maximum|minimum|total|"
    r"exact) )?(percentage|percent|proportion|fraction|share|amount|number|sum|"
    r"quantity|population|cost|price|speed|height|length|weight|size|distance|depth|"
    r"width)\b"
    # "what is the rate / temperature", "what is the numerical value": not "which rate applies"
    r"|\bwhat (is |was |are |were )?(the )?((average|maximum|minimum|total) )?"
    r"(rate|temperature)\b"
    r"|\bwhat (is |was )?(the )?(numerical|exact) value\b"
    r"|\bwhat (percentage|percent|proportion|fraction|amount|number|sum)\b"
    r"|\bwhat (did|does|do|will|would) [^?]{0,80}\bcost\b",
    re.IGNORECASE,
)
#: A quantity question that asks for a span of time: its dates and years are the answer.
_SPAN_Q = re.compile(
    r"\bhow (long|old)\b|\bhow many (years|months|weeks|days|decades|centuries|hours)\b",
    re.IGNORECASE,
)
#: "How long" asking for a length of time, not a length ("how long is the Nile?"): with an
#: auxiliary or an end ("how long does it take", "how long do I have to wait", "how long
#: until / til / before / after …").
_TIME_SPAN_Q = re.compile(
    r"\bhow long (?:do|does|did|will|would|can|could|should|must|have|has|had|until|til|till|"
    r"before|after|to wait|to go|'?til)\b"
    r"(?![^?]*\bbe\W*$)",  # "how long does my password have to be?": a length
    re.IGNORECASE,
)
#: "How many of / how much of": a share, which "most", "all" or "none" answers.
_SHARE_Q = re.compile(r"\bhow (many|much) of\b", re.IGNORECASE)
_SHARE_WORDS = re.compile(
    r"\b(most|all|none|both|bulk|part|portion|entire|whole|little|much|nearly all|almost all|"
    r"hardly any)\b",
    re.IGNORECASE,
)
_FREQUENCY = re.compile(
    r"\b(annually|yearly|monthly|weekly|daily|hourly|nightly|every|each|twice|once|rarely|"
    r"seldom|occasionally|frequently|often|always|never|sometimes|regularly|usually|per)\b",
    re.IGNORECASE,
)
_DATE_Q = re.compile(
    r"\bwhen (was|were|did|had|has|have)\b"
    r"|\b(what|which|in what|in which) (year|years|date|day|month|century|decade|era)\b"
    r"|\bsince when\b|\bby when\b|\buntil when\b",
    re.IGNORECASE,
)
#: A leading subordinate clause ("When AT&T financed it, what did they use?"): its "when" is
#: not what the question asks.
_LEADING_CLAUSE = re.compile(
    # the clause ends at a comma: "When did he realise how much he had lost?" asks when
    r"^\s*(when|while|after|before|if|since|as|once)\b[^?,]*,[^?]*?"
    r"(?=\b(what|which|who|whom|whose|how|where|why)\b)",
    re.IGNORECASE,
)
_WH = re.compile(r"\b(what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
_PERSON_Q = re.compile(
    r"^\s*(who|whom|whose)\b|[,;]\s*(who|whom|whose)\b"
    r"|\b(by|to|for|with|from|of) (who|whom)\b"
    r"|\b(what|which) (person|company|companies|firm|organi[sz]ation|king|queen|"
    r"emperor|president|ruler|author|writer|scientist|director)\b",
    re.IGNORECASE,
)

_MONTHS = _wordlist(
    """
    january february march april may june july august september october november
    december jan feb mar apr jun jul aug sep sept oct nov dec
    """
)
_DAYS = _wordlist(
    """
    monday tuesday wednesday thursday friday saturday sunday
    """
)
_DATE_WORDS = re.compile(
    # month and day names count when capitalised ("May 2025", not "it may rain")
    r"(?-i:\b(" + "|".join(w.title() for w in _MONTHS + _DAYS) + r")s?\b)\.?"
    r"|\b\d{1,4}(st|nd|rd|th)?[ -]century\b|\bcentur(y|ies)\b|\bdecades?\b"
    r"|\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
    r"twenty-first) century\b"
    r"|\b\d{3,4}s\b|\b\d{1,4} ?(bc|bce|ad|ce)\b|\b(bc|bce|ad)\b"
    r"|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}-\d{2}(-\d{2})?\b"
    r"|\b(today|yesterday|tomorrow|annually|yearly|monthly|weekly|daily)\b"
    r"|\b(spring|summer|autumn|fall|winter) of\b"
    r"|\b\d+ (years?|months?|weeks?|days?) (ago|later|after|before|earlier)\b"
    # a time given by an event or a clause: "after liberation", "during the war", "until the
    # oil shock", "when the bill passed"
    r"|\b(during|after|before|until|till|since|following|prior to|at the time|when|whenever|"
    r"while|once|upon)\b",
    re.IGNORECASE,
)
#: A year: not part of a longer number ("1,992", "19925", "1992.5"), but a year may end a
#: clause ("In 1992, the republic collapsed").
_FOUR_DIGIT_YEAR = re.compile(r"(?<![\d,.£$€])(1[0-9]{3}|20[0-9]{2})(?!\d|[,.]\d)")
_NUMBER_WORDS = _wordlist(
    """
    one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy
    eighty ninety hundred hundreds thousand thousands million millions billion billions
    trillion dozen dozens half quarter third thirds single double twice thrice once
    several few
    """
)
_DURATION = re.compile(
    r"\b(seconds?|minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|years?|decades?|"
    r"centur(y|ies)|moments?|instantly|briefly|permanently|forever|indefinitely|overnight)\b",
    re.IGNORECASE,
)
_QUANTITY = re.compile(
    r"\d|[%£$€¥]|\b(" + "|".join(_NUMBER_WORDS) + r")\b|\bper ?cent\b|\bmajority\b|\bminority\b",
    re.IGNORECASE,
)
_ONE_OF = re.compile(r"\bone of\b", re.IGNORECASE)
_MONTH_NAME = "|".join(w.title() for w in _MONTHS)
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_DAY_SPAN = rf"{_DAY}(?:\s*[–-]\s*{_DAY})?"
_YEAR = r"(?:1\d{3}|20\d{2})(?![\d,.]\d)"
#: Numbers that date something rather than count it: a whole date ("21 February 1804",
#: "Feb. 21, 1804", "21–22 February", "the 3rd of May"; a month's day only before a comma, a
#: year, a conjunction or the end: "In March 40 soldiers were killed" counts 40), a year
#: after a preposition ("in 1274", "from 1337 to 1453") and a decade ("the 1970s").
_DATE_NUMBERS = re.compile(
    rf"\b{_DAY_SPAN}[ \u00a0](?:of[ \u00a0])?(?:{_MONTH_NAME})\b\.?(?:,?[ \u00a0]{_YEAR})?"
    rf"|\b(?:{_MONTH_NAME})\b\.?[ \u00a0]{_DAY_SPAN}\b"
    rf"(?:,?[ \u00a0]{_YEAR}|(?=[,.;:)]|[ \u00a0](?:and|to|until|through|or)\b|\s*$))"
    rf"|\b(?i:in|since|by|from|until|till|to|during|before|after|around|circa|between|"
    rf"late|early|mid)[ \u00a0](?:the[ \u00a0])?{_YEAR}\b"
    r"|\b\d{3,4}s\b"
)


def _without_dates(text: str) -> str:
    """``text`` with the numbers that date something blanked ("on 21 February 1804" -> "on ")."""
    return _DATE_NUMBERS.sub(" ", text)


#: Capitalised words that start sentences or name calendar things, not people or bodies.
_NOT_NAMES = frozenset(
    _wordlist(
        """
    the a an in on at of for from by to and or but if when while after before during
    since this that these those there here it its he she his her they their them we our
    you your i my as with without however although though also then thus so such some
    many most all each every both either neither no not one two three first second third
    last later early earlier today yesterday what which who whom whose where why how
    according because
    mon tue tues wed thu thur thurs fri sat sun
    mr mrs ms miss mx dr prof sir dame cllr rev revd
        """
    )
    + _MONTHS
    + _DAYS
)


#: Chat spellings of question words and contractions, and their standard forms: "whats the
#: number for the warden", "how much r paperbacks", "whos taking over", "i dont have a car";
#: and the abbreviations a question's kind is read from ("how many yrs"). Not listed: "id"
#: (an ID), "till" (a word as it stands), "its" (a word too), "were".
CHAT_SPELLINGS: Mapping[str, str] = MappingProxyType(
    {
        "whats": "what is",
        "wats": "what is",
        "wat": "what",
        "whos": "who is",
        "wheres": "where is",
        "whens": "when is",
        "hows": "how is",
        "whys": "why is",
        "r": "are",
        "u": "you",
        "ur": "your",
        "im": "I'm",
        "ive": "I've",
        "cant": "can't",
        "dont": "don't",
        "doesnt": "doesn't",
        "didnt": "didn't",
        "wont": "won't",
        "isnt": "isn't",
        "arent": "aren't",
        "wasnt": "wasn't",
        "werent": "weren't",
        "havent": "haven't",
        "hasnt": "hasn't",
        "shouldnt": "shouldn't",
        "wouldnt": "wouldn't",
        "couldnt": "couldn't",
        "pls": "please",
        "plz": "please",
        "ppl": "people",
        "yr": "year",
        "yrs": "years",
        "hrs": "hours",
        "mins": "minutes",
    }
)
_CHAT_WORD = re.compile(
    r"(?<![\w'’.&/(-])("
    + "|".join(sorted(CHAT_SPELLINGS, key=len, reverse=True))
    + r")(?![\w'’&/)-])",
    re.IGNORECASE,
)


def standard_spelling(question: str) -> str:
    """``question`` with chat spellings written out (:data:`CHAT_SPELLINGS`), so the rules
    that read what a question asks for read "whats the price" as "what is the price" and
    "how much r paperbacks" as "how much are paperbacks".

    Left alone: a word in capitals ("UR", "IM", "U": a code or an initial); one with a
    capital inside a sentence ("who is Jony Ive", "when was Ur built": a name); a one-letter
    word after a digit or before a full stop or a digit ("10 u of insulin", "u. smith", "r 2");
    one joined to another by ``&`` or ``/`` or in brackets ("r&d", "w/r/t", "clause 3(r)").
    Only the rules read the result: the answerer scores sentences by the question as typed
    (documents write "mins" and "hrs" too).
    """

    def standard(m: re.Match[str]) -> str:
        word = m.group(0)
        out = CHAT_SPELLINGS.get(word.lower())
        if out is None or word.isupper():
            return word  # a letter IGNORECASE folds to another ("ſ"), or a code
        if word[0].isupper() and not _opens_sentence(question, m.start()):
            return word  # a name
        if len(word) == 1 and (
            re.match(r"\s*[.\d]", question[m.end() :])
            or re.search(r"\d\s*$", question[: m.start()])
        ):
            return word
        return out[0].upper() + out[1:] if word[0].isupper() else out

    return _CHAT_WORD.sub(standard, question)


def expected_answer_type(question: str) -> AnswerType | None:
    """The kind of thing the question asks for, when its wording says so.

    ``who``/``whom``/``whose`` (and "which company/person ...") -> ``person`` (a person or an
    organisation); ``when`` asking about an event ("when was / did / had ...") and "what
    year/date/century" -> ``date`` ("when is / does / can ..." may ask for a condition, "when
    is the worst case?", and is not checked); "how many/much/long",
    "what percentage/amount/number" -> ``quantity``; anything else -> ``None`` (no check).
    When a question matches several (``"who ... and when"``), the first in the question wins,
    and a typed cue after an untyped first question ("Which version is current, and when did
    it take effect?") is not checked;
    a leading clause ("When AT&T financed it, what ...?", "When a phagocyte eats it, it is
    trapped in what?") is not what is asked.

    Args:
        question: The question text.
    """
    question = _LEADING_CLAUSE.sub("", question)
    found: list[tuple[int, AnswerType]] = []
    for kind, pattern in (
        ("person", _PERSON_Q),
        ("date", _DATE_Q),
        ("quantity", _QUANTITY_Q),
    ):
        m = pattern.search(question)
        if m:
            found.append((m.start(), kind))  # type: ignore[arg-type]
    if not found:
        return None
    start, kind = min(found)
    first_wh = _WH.search(question)
    if first_wh is not None and first_wh.end() <= start:
        return None  # "Which version is current, and when ...?": the first question is untyped
    return kind


def _names(text: str) -> set[str]:
    """Capitalised words (and acronyms) that could name a person or an organisation."""
    out = set()
    for m in re.finditer(r"\b[A-Z][A-Za-z'’\-]+|\b[A-Z]{2,}\b", text):
        word = m.group(0).strip("'’-")
        if word.lower() not in _NOT_NAMES and len(word) > 1:
            out.add(word.lower())
    return out


def _dates(text: str) -> set[str]:
    out = {m.group(0).lower().rstrip(".") for m in _DATE_WORDS.finditer(text)}
    out |= {m.group(0) for m in _FOUR_DIGIT_YEAR.finditer(text)}
    return out


def _quantities(text: str, dates: bool = False) -> set[str]:
    """The quantities of ``text``: numbers, number words, money and per cent.

    Args:
        text: A sentence or question.
        dates: Also the numbers that date something ("21 February 1804", "in 1274"), which
            answer only a question about a span of time ("how long", "how many years").
    """
    text = _ONE_OF.sub(" ", text)  # "one of the most influential": no quantity
    if not dates:
        text = _without_dates(text)
    out = {m.group(0).lower() for m in re.finditer(r"\d[\d,.]*", text)}
    out |= {m.group(0).lower() for m in _QUANTITY.finditer(text) if not m.group(0).isdigit()}
    return {q.rstrip(".,") for q in out}


def answer_type_present(kind: AnswerType, sentence: str, question: str = "") -> bool:
    """Whether ``sentence`` contains something of ``kind`` that the question does not.

    A name, date or quantity the question itself states ("how many members in 2025?") is not
    an answer to it, so the sentence must add one; and a count (*how many* things) is not
    answered by sums of money, per cents, labels or times of day alone (:func:`counts_nothing`).

    Args:
        kind: From :func:`expected_answer_type`.
        sentence: The sentence that would be quoted.
        question: The question (its own names, dates and numbers do not count).
    """
    if kind == "person":
        return bool(_names(sentence) - _names(question) - {t.lower() for t in _words(question)})
    if kind == "date":
        return bool(_dates(sentence) - _dates(question))
    if _TIME_SPAN_Q.search(question):
        # "how long until I can smoke?" asks for a length of time (or the date it ends), not
        # for any number: "the biggest single cause" answers nothing
        return bool(_DURATION.search(sentence)) or bool(_dates(sentence) - _dates(question))
    span = bool(_SPAN_Q.search(question))
    # "how many customers" is not answered by "£1.42m": a count rule (counts_nothing)
    said = _quantities(sentence, dates=span) - _quantities(question, dates=True)
    if said and not counts_nothing(question, sentence):
        return True
    if re.search(r"\bhow long\b", question, re.IGNORECASE):
        return bool(_DURATION.search(sentence))  # "it takes seconds"
    if re.search(r"\bhow often\b", question, re.IGNORECASE):
        return bool(_FREQUENCY.search(sentence))  # "it is inspected annually"
    if _SHARE_Q.search(question):
        return bool(_SHARE_WORDS.search(sentence))  # "most of the power"
    return False


def _words(text: str) -> list[str]:
    return [m.group(0) for m in _WORD.finditer(text)]


_TYPE_TEXT: dict[AnswerType, tuple[str, str]] = {
    "person": ("who", "no name of a person or organisation"),
    "date": ("when", "no date"),
    "quantity": ("for a quantity", "no quantity"),
}


def answer_type_problem(
    question: str, sentence: str, kinds: Collection[AnswerType] | None = None
) -> str | None:
    """Why ``sentence`` cannot answer ``question`` by its answer type, or ``None`` if it can.

    Example: ``"the question asks when, and the quoted sentence has no date"``.

    Args:
        question: The question text.
        sentence: The sentence that would be quoted.
        kinds: Only these answer types are checked (``None``: all of them); the extractive
            answerer's ``quantity_check`` is ``("quantity",)``.
    """
    kind = expected_answer_type(question)
    if kind is None or (kinds is not None and kind not in kinds):
        return None
    if answer_type_present(kind, sentence, question):
        return None
    if kind == "quantity" and counts_nothing(question, sentence):
        return (
            "the question asks how many, and the quoted sentence counts nothing: its numbers "
            "are sums of money, per cents, labels or times of day"
        )
    asks, lacks = _TYPE_TEXT[kind]
    return f"the question asks {asks}, and the quoted sentence has {lacks}"


# ------------------------------------------------------------------------------------------
# measure: the kind of quantity
# ------------------------------------------------------------------------------------------

Measure = Literal[
    "length",
    "speed",
    "weight",
    "money",
    "temperature",
    "area",
    "share",
    "email",
    "phone",
    "time",
    "place",
]

#: What may follow a measure noun that heads the question's phrase ("what is the height *of*
#: …", "what top speed *did* …"), unlike a noun that modifies another ("what distance
#: *learning* …", "what temperature *scale* …").
_HEAD_END = (
    r"(?=\s*([?,;]|$)|\s+(of|is|was|are|were|did|does|do|will|would|can|could|has|had|at|in|"
    r"for|from|between|to|per|that|reached|paid)\b)"
)
#: The words of a question that ask for one kind of measure: "how" + an adjective, or "what"
#: + a noun heading its phrase ("which speed setting" asks for a choice, "what temperature
#: scale" for a name). Left out as ambiguous: "how long" (a length or a duration), "how high"
#: (a height or a level: "how high did prices rise?"), "how big / large" (a size or a count),
#: "how far did …" (a progress: "how far did the team advance?"), revenue / budget (amounts
#: that filings print without a currency), "the cost of capital" (a rate). A question that
#: names the measure otherwise ("what is its height?") is not read (the safe direction).
_MEASURE_Q: tuple[tuple[Measure, re.Pattern[str]], ...] = (
    (
        "length",
        re.compile(
            r"\bhow (tall|deep|wide|thick)\b|\bhow far (is|was|are|were)\b"
            r"|\bwhat (is |was |are |were )?(the )?((total|maximum|average|approximate) )?"
            r"(height|length|distance|depth|width|altitude|elevation|diameter|radius|thickness|"
            r"wingspan)" + _HEAD_END,
            re.IGNORECASE,
        ),
    ),
    (
        "speed",
        re.compile(
            r"\bhow fast\b|\bwhat (is |was )?(the )?((top|maximum|average|cruising) )?"
            r"(speed|velocity)" + _HEAD_END,
            re.IGNORECASE,
        ),
    ),
    (
        "weight",
        re.compile(
            r"\bhow heavy\b|\bhow much (does|did|do|would|will|can|could) [^?]{0,80}\bweigh\b"
            r"|\bwhat (is |was )?(the )?((total|maximum|average) )?(weight|mass)" + _HEAD_END,
            re.IGNORECASE,
        ),
    ),
    (
        "money",
        re.compile(
            r"\bhow much (money\b|(does|did|do|will|would|is|was|were|are|can|could) [^?]{0,80}"
            r"\b(cost|costs|pay|paid|charge|charged|spend|spent|earn|earned|worth|sell for|"
            r"sold for)\b)"
            # "how much is a filling?", "how much are veneers?", "how much per month is the
            # plan?", "how much for a check-up?"; not "how much is known / left / there", nor a
            # change or a plan, which a per cent or a figure printed without its currency may
            # answer ("how much is the rent going up by?", "by how much was survival
            # reduced?", "how much is the budget expected to be?")
            r"|(?<!\bby )\bhow much (?:(?:is|are|was|were)|['’]s)\s+(?!(?:known|left|there|needed|"
            r"required|involved|enough|true|used|owed|it worth)\b)"
            r"(?![^?]*\b(?:up|down|rise|rising|risen|increase[sd]?|increasing|fall|falling|fell|"
            r"drop|dropping|dropped|change[sd]?|changing|grow|growing|grew|more|less|reduce[sd]?|"
            r"reducing|cut|raised?|lowered|planning|planned|expected|forecast|projected|"
            r"anticipated|budgeted|going to|likely)\b)\w"
            r"|(?<!\bby )\bhow much (?:per|for|each)\b"
            r"|\bwhat (is |was |were |are )?(the )?((total|average|annual|starting|median|unit|"
            r"ticket|share|retail|purchase|sale) )?(price|cost|fee|fare|salary|wage|rent)"
            r"(?! of (capital|debt|equity|funds))"
            + _HEAD_END
            + r"|\bwhat (did|does|do|will|would) [^?]{0,80}\bcost\b"
            # "is there a charge for reserving a book?", "does delivery cost anything?"
            r"|\b(is|are|was|were) there (a |an |any )?(extra |additional |booking |late )?"
            r"(charge|cost|fee|fine)s?\b(?! (point|card|cable|waiver|station)s?\b)"
            r"|\b(do|does|did|will|would) [^?]{0,80}\bcost (anything|extra|more)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "temperature",
        re.compile(
            r"\bhow (hot|cold|warm)\b|\bwhat (is |was )?(the )?((average|maximum|minimum|mean|"
            r"lowest|highest) )?temperature" + _HEAD_END,
            re.IGNORECASE,
        ),
    ),
    (
        "area",
        re.compile(
            r"\bwhat (is|was) the ((total|land|surface|floor) )?area(?! (code|under))"
            + _HEAD_END
            + r"|\bhow many (square|acres|hectares)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "share",
        re.compile(
            r"\bwhat (is |was |are |were )?(the )?(percentage|percent|proportion|fraction)\b",
            re.IGNORECASE,
        ),
    ),
    # a place: "where do we meet?", "where can I buy the jumpers?" (not "where possible")
    (
        "place",
        re.compile(
            r"(?:^|[,;:.?!(]\s*|\b(?:and|but|or|so|then|from|to)\s+)\W*"
            r"where\b(?!\s+(?:applicable|possible|necessary|appropriate|relevant|needed)\b)",
            re.IGNORECASE,
        ),
    ),
    # a time of day: "what time does school finish?", "what hours do reception do?", "what
    # are the opening hours?" (not "what time of year", "what time period", "what time zone")
    (
        "time",
        re.compile(
            r"\bwhat(\s+(is|was|are|were)\s+the|'s\s+the|'s)?\s+times?(?!\s+(of|periods?|zones?|"
            r"frames?|scales?|spans?|limits?|lines?|slots?|signatures?|travel|machines?)\b)\b"
            r"|\bwhat\s+(are\s+)?(the\s+|your\s+|our\s+|its\s+|their\s+)?((opening|closing|"
            r"office|school|working|business|visiting|surgery)\s+)?hours\b",
            re.IGNORECASE,
        ),
    ),
    # a way to get in touch: "what's Mrs Penrose's email address?", "what email do I use?",
    # "the phone number for IT support", "what number do I call …" ("what should I email
    # them about?" asks no address)
    (
        "email",
        re.compile(
            r"(\b(what|which)\b[^?]{0,60})?\be-?mail address(es)?\b"
            r"|\b(what|which)('s|\s+is|\s+are)?\s+(the\s+|his\s+|"
            r"her\s+|their\s+|your\s+|our\s+|[\w.]+(\s+\w+)?['’]s\s+)?e-?mail\b"
            r"(?!\s+(me|us|them|him|her|you|it|to|about)\b)",
            re.IGNORECASE,
        ),
    ),
    (
        "phone",
        re.compile(
            r"(\b(what|which)\b[^?]{0,60})?\b((tele)?phone (number|no\.?)s?\b|(mobile|contact|"
            r"office|emergency|fax|direct) (phone )?number\b)"
            r"|\bwhat number\b[^?]{0,40}\b(call|ring|phone|dial|text)\b"
            r"|\bnumber (to|for) (call|ring|phone|dial)(ing)?\b",
            re.IGNORECASE,
        ),
    ),
)
_FRACTION_WORDS = (
    r"half|halves|thirds?|quarters?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|"
    r"twelfths?|twentieths?|hundredths?"
)
_COUNT = r"(\d[\d,.]*|" + "|".join(_NUMBER_WORDS) + r")"
#: Unicode's currency signs ($, ¢, £, ¥, ₹, ₩, ₽, ₺, ₦, ₱, ฿, …; category "Sc") in the
#: ranges they live in, and their full-width forms.
_CURRENCY_SIGNS = "".join(
    c
    for c in map(chr, [*range(0x20, 0x20D0), 0xFE69, 0xFF04, 0xFFE0, 0xFFE1, 0xFFE5, 0xFFE6])
    if unicodedata.category(c) == "Sc"
)
#: Currency codes, matched as written ("USD1.2 billion", "EUR 500").
_CURRENCY_CODES = "USD|EUR|GBP|CHF|JPY|CNY|RMB|INR|AUD|CAD|SEK|NOK|DKK|PLN|AED|HKD|SGD|Rs|Kč|kr"
#: A question counting things ("how many customers"), not a sum of money, a per cent or an
#: area ("how many square miles / dollars / million US dollars / percentage points").
_COUNT_Q = re.compile(
    r"\bhow many\b(?!\s+(?:(?:more|fewer|extra|additional|US|U\.S\.|hundreds?|thousands?|"
    r"millions?|billions?|trillions?|of)\s+)*(?:square|acres?|hectares?|dollars?|pounds?|"
    r"euros?|yen|yuan|renminbi|rupees?|crores?|lakhs?|francs?|pesos?|roubles?|rubles?|won|"
    r"rand|kronor|kroner|kronur|crowns?|cents?|pence|per ?cent|percent|percentage|points?|"
    r"basis points?|" + _CURRENCY_CODES + r")\b)",
    re.IGNORECASE,
)
#: Numbers that are no count of things: a sum of money (a currency before it, its scale
#: after: "£1.42m", "$5 billion", "USD 500"), a per cent ("11%", "12 per cent"), a number
#: glued after a letter, which labels ("Q3", "COVID-19"), and the year of a quarter, half or
#: fiscal year ("Q3 2025", "H1 2024", "fiscal 2023"). A bare year is left alone: "Stores:
#: 1850" counts stores.
#: A clock time as written: "9am", "3.15 pm", "10:45 p.m.", "09:30" (a time of day measure
#: answers with one; the count rule counts nothing by one).
_AM_PM = r"\d{1,2}(?:[.:]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?![a-z])"
_CLOCK_TIME = rf"\b{_AM_PM}|\b(?:[01]?\d|2[0-3]):[0-5]\d\b"
#: The hour of a time of day written with *am* or *pm* (:func:`clock_hours`).
_AM_PM_HOUR = re.compile(rf"(?<![.,:])\b(?={_AM_PM})(\d{{1,2}})", re.IGNORECASE)


def clock_hours(text: str) -> list[str]:
    """The hours of the times of day ``text`` writes with *am* or *pm*, as written: "gates
    close at 11pm", "11.30 pm", "9:15am" -> ``["11", "11", "9"]``."""
    return _AM_PM_HOUR.findall(text)


_NO_COUNT = re.compile(
    rf"(?:[{re.escape(_CURRENCY_SIGNS)}]|(?<![A-Za-z])(?:{_CURRENCY_CODES})\.?)\s?\d[\d,.]*"
    r"(?:\s?(?i:m|mn|bn|k|million|billion|thousand|trillion)\b)?"
    r"|\d[\d,.]*\s?(?:[%％‰]|(?i:per ?cent|percent)\b)"
    r"|\b(?:Q[1-4]|H[12]|FY|(?i:fiscal(?: year)?|financial year|quarter))[\s-]?"
    r"(?:1\d{3}|20\d{2})\b"
    r"|(?<=[A-Za-z])-?\d[\d,.]*"
    # a time of day counts nothing: "10:00-15:00", "9am", "3.15 pm"
    rf"|(?i:{_CLOCK_TIME})",
)


def asks_count(question: str) -> bool:
    """Whether the quantity ``question`` asks for is a count of things: its first quantity
    cue is *how many* (:data:`_COUNT_Q`), not of a span of time ("how many years") nor a
    share ("how many of")."""
    question = _LEADING_CLAUSE.sub("", question)
    cue, count = _QUANTITY_Q.search(question), _COUNT_Q.search(question)
    return (
        cue is not None
        and count is not None
        and cue.start() == count.start()
        and not _SPAN_Q.search(question)
        and not _SHARE_Q.search(question)  # "how many of them": "12 %" answers it
    )


def counts_nothing(question: str, sentence: str) -> bool:
    """Whether a counting question is quoted with a sentence whose numbers count nothing.

    The one source of the count rule (``quantity_check``): ``question`` asks *how many*
    things (:func:`asks_count`), ``sentence`` has quantities the question does not state, and
    none of them is left once its sums of money, per cents, labels, quarters' years and
    times of day are taken out (:data:`_NO_COUNT`): "how many new trade customers did we win
    in Q3?" is not answered by "Revenue £1.42m, up 11% on Q3 2025", nor "how many volunteers
    does the book sale need?" by the sale's row "Sat 9 May 2026 | 10:00-15:00 | …".

    Args:
        question: The question text.
        sentence: The sentence that would be quoted.
    """
    if not asks_count(question):
        return False
    # the question's own numbers, its labels left out ("in Q4": 4 stores still count)
    asked = _quantities(_NO_COUNT.sub(" ", question), dates=True)
    if not _quantities(sentence) - asked:
        return False  # no quantity at all: the plain quantity rule's case
    return not _quantities(_NO_COUNT.sub(" ", sentence)) - asked


def _units(words: str, abbreviations: str = "", other: str = "") -> re.Pattern[str]:
    """A unit pattern: ``words`` in any case, as a word or straight after a number ("5mph");
    ``abbreviations`` as written and only after a number ("12 m", "5mg": "I'm" is no metre);
    ``other`` as it stands."""
    parts = [rf"(?i:(?:\b|(?<=\d))({words})\b)"]
    if abbreviations:
        parts.append(rf"(?<=\d)\s?({abbreviations})(?![A-Za-z])")
    if other:
        parts.append(other)
    return re.compile("|".join(parts))


#: Nouns for a sum of money that another amount may be stated in terms of.
_MONEY_NOUNS = (
    r"rents?|prices?|costs?|fees?|fares?|salar(y|ies)|wages?|pay|payments?|charges?|income|"
    r"earnings|deposits?|premiums?|bills?|invoices?|value"
)
#: An amount of money stated as a multiple or a share of another, which answers "how much"
#: as a figure does: "one week's rent", "five weeks' rent", "a month's salary", "36 times the
#: monthly rent", "30x annual income", "14% of monthly rent", "half the deposit". Up to two
#: words may qualify the noun ("the *monthly* rent", "*first year's* rent").
_MONEY_IN_TERMS = (
    rf"(?i:\b({_COUNT}|an?)\s+(days?|nights?|weeks?|fortnights?|months?|years?|quarters?)['’]s?"
    rf"\s+(\w+\s+)?({_MONEY_NOUNS})\b"
    rf"|\b{_COUNT}\s*(times|x|×)\s+(of\s+)?((the|your|their|his|her|its|a|an|our)\s+)?"
    rf"([\w'’]+\s+){{0,2}}?({_MONEY_NOUNS})\b"
    rf"|(\d[\d.,]*\s*(%|per ?cent)|\b({_FRACTION_WORDS}))\s+(of\s+)?"
    rf"((the|your|their|his|her|its|a|an|our)\s+)?([\w'’]+\s+){{0,2}}?({_MONEY_NOUNS})\b)"
)
#: Month names and their abbreviations: "by 15 January" is a date, not a time of day.
_MONTH_ABBREVIATIONS = "|".join(sorted({w[:3] for w in _MONTHS} | set(_MONTHS), key=len)[::-1])
#: Measures that are ways to get in touch, not quantities.
_CONTACT: frozenset[Measure] = frozenset({"email", "phone"})
#: Measures that are no quantity: a share, a time of day, a place, and the ways to get in touch.
_NOT_QUANTITIES: frozenset[Measure] = _CONTACT | {"share", "time", "place"}
#: Prepositions that place what follows ("under the base", "opposite the main gate").
_SPATIAL = (
    "under|underneath|beneath|behind|opposite|beside|next to|near|inside|outside|above|below|"
    "across|along|alongside|around|between|upstairs|downstairs"
)
#: Nouns after "at / in / on the" that name a time or a manner, not a place ("at the end",
#: "in the morning", "in the same way").
_NOT_PLACES = (
    "end|start|beginning|middle|moment|time|same|first|last|next|past|future|meantime|morning|"
    "afternoon|evening|night|day|week|weekend|month|year|term|holidays?|summer|winter|spring|"
    "autumn|case|event|form|way|order|hope|mood|process|course|long|short"
)
#: Words for a place ("on the intranet", "at reception", "the car park").
_PLACE_WORDS = (
    "rooms?|halls?|offices?|reception|street|road|lane|avenue|square|car ?parks?|buildings?|"
    "floors?|website|web ?site|online|intranet|portal|app|shops?|stores?|sites?|centre|center|"
    "fields?|gates?|entrance|library|station|desk|counter|branch|campus|gardens?|yard|"
    "playground|corridor|basement|upstairs|downstairs|outside|inside|nearby|locally|address|"
    "folder|drive|channel|cupboard|drawer|locker|kitchen|canteen|toilets?|ward|clinic|surgery|"
    "school|church|village|town|city|venue|pub|cafe|café|restaurant|hotel|bridge|verge|corner|"
    "map|postcode|abroad|overseas|home|remotely|there|here"
)
_DAYS_AND_MONTHS = "|".join(w.title() for w in (*_DAYS, *_MONTHS))
#: A place in a sentence, leniently (any one passes): a preposition of place; "at / in / on
#: the" before a noun that names no time ("in the thymus"); a preposition before a name ("in
#: South Street", "at Millbeck House"; not a day or a month); a word for a place; an e-mail or
#: web address.
_PLACE = re.compile(
    rf"(?i:\b(?:{_SPATIAL})\s+\w)"
    rf"|(?i:\b(?:at|in|on|into|from|inside)\s+(?:the|a|an|our|your|their|its|his|her)\s+"
    rf"(?!(?:{_NOT_PLACES})\b)[a-z])"
    r"|(?i:\b(?:at|in|on|from|to|into|via|of|off|by|round|past|towards?)\s+"
    r"(?:the\s+|a\s+|an\s+|our\s+|your\s+|their\s+)?)"
    rf"(?!(?:{_DAYS_AND_MONTHS})\b)[A-Z]"
    rf"|(?i:\b(?:{_PLACE_WORDS})\b)"
    r"|@|(?i:\bwww\.|https?://)"
)
#: What answers each measure: a unit (the number itself is ``quantity_check``'s), a
#: currency, a fraction. Lenient by design: a unit anywhere in the sentence passes.
_MEASURE_UNITS: Mapping[Measure, re.Pattern[str]] = MappingProxyType(
    {
        "length": _units(
            r"metres?|meters?|kilometres?|kilometers?|centimetres?|centimeters?|millimetres?|"
            r"millimeters?|micrometres?|micrometers?|microns?|nanometres?|nanometers?|"
            r"angstroms?|feet|foot|inch(es)?|yards?|miles?|storeys?|stories|floors|"
            r"light[- ](years?|seconds?)|parsecs?|leagues?|fathoms?|astronomical units?"
            # "the length of his reign" is a duration
            r"|seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|centur(y|ies)",
            r"m|km|cm|mm|nm|µm|μm|Å|ft|mi|yd|nmi|in\.|ly|pc|kpc|Mpc|AU",
            r"\d\s?[′″]|\d'\s?\d",
        ),
        "speed": _units(
            r"mph|km/h|km/hr|kph|kmh|m/s|ft/s|knots?|mach|miles an hour|km an hour|"
            r"(per|an|a) (hour|second|minute)|rpm|[kmg]hz|[kmg]bps|[kmg]bit/s|per ?cent|"
            r"percentage points?",
            r"kn|kt|m s−1|m s-1",
            r"%|/(h|hr|s|min)\b",  # "how fast did it grow?": 3.1 %
        ),
        "weight": _units(
            r"kilo(gram)?s?|grams?|milligrams?|micrograms?|tonnes?|tons?|pounds?|ounces?|"
            r"stones?|carats?|kilotons?|megatons?|hundredweight|daltons?|kda|"
            r"solar masses|solar mass",
            r"kg|g|mg|µg|μg|mcg|t|lb|lbs|oz|Da|kDa|M☉",
        ),
        "money": _units(
            r"dollars?|pounds?|euros?|yen|francs?|marks?|rupees?|yuan|renminbi|cents?|pence|"
            r"penny|shillings?|guineas?|lire|lira|pesos?|roubles?|rubles?|crowns?|dinars?|"
            r"dirhams?|riyals?|shekels?|złoty|zloty|forint|naira|ringgit|rupiah|won|ducats?|"
            r"florins?|livres?|sterling|baht|rand|kron(a|or|er|e)|bucks|quid|crores?|lakhs?|"
            r"free|free of charge|(no|without) (extra |additional )?(charge|cost|fee|fine)s?|"
            r"waived|gratis|(costs?|charged?|pay) nothing|complimentary|included|"
            r"not (be )?(charged|fined)|(do not|don't|won't|will not) (have to )?pay",
            r"p|c|bn|m",
            # a currency sign (any of Unicode's), or an ISO code as written: "USD1.2 billion"
            rf"[{re.escape(_CURRENCY_SIGNS)}]|(?<![A-Za-z])({_CURRENCY_CODES})(?![a-z])"
            # an amount stated as a multiple or a share of another: "one week's rent"
            rf"|{_MONEY_IN_TERMS}",
        ),
        "temperature": _units(
            r"degrees?|deg|kelvins?|celsius|fahrenheit|centigrade",
            r"K|C|F|oC|oF",
            r"[°º˚℃℉]",
        ),
        "area": _units(
            r"square|sq|sqm|sqft|acres?|hectares?|ares|dunams?|km2|m2|mi2|km\^2|m\^2",
            r"ha|sf",
            r"²",
        ),
        "share": _units(
            r"per ?cent|percentage|pct|" + _FRACTION_WORDS + r"|majority|minority|most|"
            r"all|none",
            "",
            rf"[%％‰⅓⅔¼½¾⅕⅛]|\b\d+/\d+\b|(?i:\b{_COUNT} (in|of|out of) (every )?{_COUNT}\b)",
        ),
        # a clock time ("8.45am", "3.15 pm", "09:30", "noon", "half past six", "at 10")
        "time": re.compile(
            _CLOCK_TIME + r"|\b(noon|midday|midnight|o'clock|half past|quarter (past|to))\b"
            r"|\b(at|until|till|from|by|before|after|between|and) \d{1,2}\b(?![.,:]?\d|\s*(%|st\b|"
            r"nd\b|rd\b|th\b|years?\b|months?\b|weeks?\b|days?\b|per\b|km\b|miles?\b|kg\b|"
            r"people\b|children\b|members\b|(" + _MONTH_ABBREVIATIONS + r")))",
            re.IGNORECASE,
        ),
        "place": _PLACE,
        # an address as written ("office@example.org"), or one spelt out ("office at
        # example dot org")
        "email": re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+|\b\w+ at [\w-]+ dot \w+", re.IGNORECASE),
        # seven digits or more, single spaces, dashes, dots or brackets between them
        # ("0117 496 0321", "+44 (0)117 496 0321"), an extension, or an emergency number
        "phone": re.compile(
            r"\+?\(?\d(?:[ ()\-.]{0,2}\d){6,}|\bext(ension|n?\.)?\s*:?\s*\d{2,6}\b"
            r"|(?<![\d.,])\b(999|911|112|111|101)\b(?![\d.,])",
            re.IGNORECASE,
        ),
    }
)
_MEASURE_TEXT: Mapping[Measure, tuple[str, str]] = MappingProxyType(
    {
        "length": ("a length, height or distance", "no unit of length"),
        "speed": ("a speed", "no speed"),
        "weight": ("a weight", "no unit of weight"),
        "money": ("a price or an amount of money", "no amount of money"),
        "temperature": ("a temperature", "no temperature"),
        "area": ("an area", "no unit of area"),
        "share": ("a percentage or share", "no percentage or fraction"),
        "time": ("a time of day", "no time of day"),
        "email": ("an e-mail address", "no e-mail address"),
        "phone": ("a phone number", "no phone number"),
        "place": ("a place", "no place"),
    }
)


def expected_measure(question: str) -> Measure | None:
    """The kind of quantity a question asks for, when its wording says so.

    "How tall / deep", "what is the height / distance" -> ``length``; "how fast", "what top
    speed" -> ``speed``; "how heavy", "how much does it weigh" -> ``weight``; "what did it
    cost", "what is the price / fee", "how much did they pay", "how much is a filling / per
    month / for a check-up" (not a change or a plan: "how much is the rent going up") ->
    ``money``; "how hot", "at what temperature" -> ``temperature``; "what is the area" ->
    ``area``; "what percentage / proportion" -> ``share``; "what time does it close", "what
    are the opening hours" -> ``time`` (of day); "what's her e-mail address" -> ``email``;
    "the phone number for IT support", "what number do I call" -> ``phone`` (unless the
    question writes one); "where do we meet?" -> ``place`` (a clause's opening *where*, not a
    relative one); anything else -> ``None``. As in :func:`expected_answer_type`, a leading
    clause is not what is asked, and a cue after an untyped first question ("Which model is
    it, and how tall …?") is not read.

    Args:
        question: The question text.
    """
    question = _LEADING_CLAUSE.sub("", question)
    found: list[tuple[int, Measure]] = [
        (m.start(), kind) for kind, p in _MEASURE_Q if (m := p.search(question))
    ]
    if not found:
        return None
    start, kind = min(found)
    first_wh = _WH.search(question)
    if first_wh is not None and first_wh.end() <= start:
        return None
    if kind in _CONTACT and re.search(r"@|\d{3}", question):
        return None  # "which office has the phone number 0117 496 …?" states the number
    return kind


#: Words that end the unit phrase of "per <unit>" in a question ("price per share *did* …").
_PER_END = frozenset(
    _wordlist(
        """
    did does do is was are were will would can could has have had in for at of on under
    during from to by with and or than that which when paid pay charged cost gained
    the a an this that our its their his her according pursuant
    """
    )
)
#: Units that are often written otherwise: of time ("per day": "daily", "a day", "/d"), of a
#: person ("per person": "each", "per capita"), "per cent", and the Latin "per se".
_PER_OTHERWISE = frozenset(
    _wordlist(
        """
    second seconds minute minutes hour hours day days week weeks month months year years
    annum night nights person persons people head heads capita inhabitant inhabitants cent
    se
    """
    )
)
#: Other ways a rate's unit is written; a sentence with any of them names it.
_PER_ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "share": ("eps", "ads", "adr"),
        "tonne": ("ton", "tons", "t"),
        "ton": ("tonne", "tonnes", "t"),
        "litre": ("liter", "l"),
        "liter": ("litre", "l"),
        "barrel": ("bbl",),
        "ounce": ("oz",),
        "gallon": ("gal", "mpg"),
        "kilogram": ("kg", "kilo"),
        "kilo": ("kg", "kilogram"),
        "foot": ("ft", "psf"),
        "mile": ("mi", "mpg", "mph"),
        "mwh": ("megawatt-hour", "megawatt"),
        "kwh": ("kilowatt-hour", "kilowatt"),
        "unit": ("each",),
    }
)


def per_unit(question: str) -> str | None:
    """The unit of a rate a quantity question asks for: "price per Figma *share*", "per
    *MWh*".

    The last of the words after "per" up to a verb, a preposition, a determiner or the end
    (the head of its noun phrase: "per Figma share" -> "share"); ``None`` when the question
    asks for no quantity, has no "per" ("as per", "per the agreement" are not one), or its
    unit is often written otherwise ("per day" is also "daily", "per person" "each").

    Args:
        question: The question text.
    """
    if expected_answer_type(question) != "quantity" and expected_measure(question) is None:
        return None
    return _rate_unit(question)


def _rate_unit(question: str) -> str | None:
    """The head of the question's "per" phrase (:func:`per_unit` without its quantity
    test)."""
    m = re.search(r"(?<!\bas )\bper ((?:[A-Za-z][\w-]* ?){1,3})", question, re.IGNORECASE)
    if m is None:
        return None
    phrase: list[str] = []
    for word in m.group(1).split():
        if word.lower() in _PER_END:
            break
        phrase.append(word)
    if not phrase or phrase[-1].lower() in _PER_OTHERWISE:
        return None
    return phrase[-1]


def _names_unit(unit: str, sentence: str) -> bool:
    """Whether ``sentence`` names the rate's ``unit`` (or one of its aliases), or gives a
    rate of its own ("each", "apiece", "$80/bbl")."""
    if re.search(r"\b(each|every|apiece)\b|\w/[A-Za-z]", sentence, re.IGNORECASE):
        return True
    said = {stem(w) for w in _contrast_words(sentence)}
    forms = (unit.lower(), *_PER_ALIASES.get(unit.lower(), ()))
    return any(stem(f) in said for f in forms)


#: A column name's unit in brackets and the cell after it: ``Amount (GBP): 112.00``.
_HEADER_UNIT = re.compile(r"\s*\(([^()\d;:]{1,12})\):\s*([^;]+?)(?=;|$)")


def header_units(stated: str) -> str:
    """A table row as stated with its column names, each bracketed unit moved after its
    value (``Amount (GBP): 112.00`` -> ``Amount: 112.00 GBP``, ``Weight (kg): 6.5`` ->
    ``Weight: 6.5 kg``), so the unit checks read the unit a header gives its cells.

    Args:
        stated: The row with its column names (:func:`loaders.row_text.row_statement`).
    """
    return _HEADER_UNIT.sub(lambda m: f": {m.group(2).strip()} {m.group(1).strip()}", stated)


#: Column names (or labels before a colon) that say which kind of quantity their values
#: are, as word stems after folding accents and case: a row ``Lyon — Température: 31.5``
#: gives a temperature, ``Jürgen — Salary: 52.000,50`` an amount of money, though neither
#: cell writes its unit. Common European spellings are included (a user's sheet is named in
#: their language). A word matches a stem it equals (plural ``s``/``es`` aside: ``Fees``), or
#: one of six letters or more it starts with (``temperat``: ``Temperatur``, ``temperatura``);
#: so ``Temporary staff`` is no temperature nor ``Shareholders`` a share. ``Amount`` names
#: no kind (an amount of stock, of hours): its cells need their unit.
_COLUMN_WORDS: dict[Measure, str] = {
    "length": "height length distance depth width altitude elevation diameter radius "
    "thickness hohe lange hauteur longueur altura longitud distanz",
    "speed": "speed velocity geschwindigkeit vitesse velocidad",
    "weight": "weight mass gewicht poids peso masse",
    "money": "price cost fee fare salary salaries wage pay payment rent charge tariff prix "
    "cout salaire loyer tarif preis kosten gehalt lohn miete gebuhr precio coste costo "
    "salario sueldo prezzo stipendio",
    "temperature": "temperat temp",
    "area": "area surface flache superficie",
    "share": "share percent percentage proportion fraction pourcentage anteil porcentaje",
}
_MEASURE_COLUMNS: Mapping[Measure, tuple[str, ...]] = MappingProxyType(
    {kind: tuple(words.split()) for kind, words in _COLUMN_WORDS.items()}
)
#: A label and the value after it in a row stated with its column names (``Salary:
#: 52.000,50``) or a labelled line: the label is the text since the last ``;``, ``—`` or
#: start.
_LABELLED_VALUE = re.compile(r"(?:^|[;—–]|\s-\s)\s*([^;:—–]{1,60}?):\s*([^;]*?\d[^;]*?)(?=;|$)")


def column_names_measure(kind: Measure, sentence: str) -> bool:
    """Whether a number in ``sentence`` stands under a column name (or after a label) that
    names the ``kind`` of quantity (:data:`_MEASURE_COLUMNS`): ``Température: 31.5`` is a
    temperature, ``Salary: 61.200`` an amount of money."""
    stems = _MEASURE_COLUMNS.get(kind)
    if not stems:
        return False
    for m in _LABELLED_VALUE.finditer(sentence):
        for word in re.findall(r"[^\W\d_]+", m.group(1).lower()):
            w = fold(word)
            forms = {w, w[:-1] if w.endswith("s") else w, w[:-2] if w.endswith("es") else w}
            if any(stem in forms or (len(stem) >= 6 and w.startswith(stem)) for stem in stems):
                return True
    return False


#: Column names (or labels before a colon) that say their values are places, as folded
#: words: a row ``Ampicillin — Stored in: F2, box A`` or ``Location: Poison cabinet`` states
#: where the thing is, though its cell has no word for a place. Not *storage* alone
#: ("Storage class: Toxic" is no place).
_PLACE_COLUMNS = frozenset(
    _wordlist(
        """
    location locations where room rooms site sites address place venue office building
    premises lieu emplacement ort standort raum adresse ubicacion lugar direccion sede
        """
    )
)
#: Participles a place label opens with before its preposition ("Stored in", "Kept at").
_PLACE_PARTICIPLES = frozenset({"stored", "kept", "located", "held", "based", "found"})
#: Label words that make a place word say something else ("Email address", "Office hours",
#: "Room rate", "Site manager").
_NOT_PLACE_LABEL = frozenset(
    _wordlist(
        """
    email mail web ip hours hour rate rates price prices date dates time times number phone
    telephone fax manager contact code capacity size
        """
    )
)
#: A label and the value after it, which need not hold a figure (a place seldom does).
_LABELLED_TEXT = re.compile(r"(?:^|[;—–]|\s-\s)\s*([^;:—–]{1,60}?):\s*([^;\s][^;]*?)\s*(?=;|$)")


def column_names_place(sentence: str) -> bool:
    """Whether a value in ``sentence`` stands under a column name (or after a label) that
    says it is a place: its last word a place word (:data:`_PLACE_COLUMNS`: ``Location: F2
    (-20 °C) box A``, ``Meeting room: 3.14``), *where* (``Where stored: Flammables cabinet``)
    or a participle of place before it (``Stored in: F2, box A``), and no word saying it is
    something else (``Email address``, ``Office hours``, ``Room rate``:
    :data:`_NOT_PLACE_LABEL`)."""
    for m in _LABELLED_TEXT.finditer(sentence):
        words = [fold(w) for w in re.findall(r"[^\W\d_]+", m.group(1).lower())]
        if not words or any(w in _NOT_PLACE_LABEL for w in words):
            continue  # "Email address", "Office hours": no place
        if (
            words[-1] in _PLACE_COLUMNS
            or "where" in words
            or (words[0] in _PLACE_PARTICIPLES and len(words) <= 2)
        ):
            return True  # "Location", "Meeting room", "Where stored", "Stored in"
    return False


def measure_problem(question: str, sentence: str) -> str | None:
    """Why ``sentence`` cannot give the kind of quantity ``question`` asks for, or ``None``.

    A height is not answered by a sentence that gives a date and a count, nor a price by one
    that gives a length (:func:`expected_measure`); and a rate ("the price per share", "per
    MWh", :func:`per_unit`) is not answered by a sentence that does not name its unit (a
    total price). Examples: ``"the question asks for a speed, and the quoted sentence has no
    speed"``, ``"the question asks for an amount per 'share', and the quoted sentence does
    not mention 'share'"``.

    Args:
        question: The question text.
        sentence: The sentence that would be quoted.
    """
    kind = expected_measure(question)
    if (
        kind is not None
        and not _MEASURE_UNITS[kind].search(sentence)
        and not column_names_measure(kind, sentence)  # "Température: 31.5"
        and not (kind == "place" and column_names_place(sentence))  # "Stored in: F2, box A"
    ):
        asks, lacks = _MEASURE_TEXT[kind]
        return f"the question asks for {asks}, and the quoted sentence has {lacks}"
    if kind is None and expected_answer_type(question) != "quantity":
        return None
    unit = _rate_unit(question)
    if unit is not None and kind != "speed" and not _names_unit(unit, sentence):
        return (
            f"the question asks for an amount per '{unit}', and the quoted sentence does not "
            f"mention '{unit}'"
        )
    return None


# ------------------------------------------------------------------------------------------
# counted thing
# ------------------------------------------------------------------------------------------

#: Words that end the counted phrase of "how many <phrase> did ...".
_PHRASE_END = frozenset(
    _wordlist(
        """
    did do does were was are is have has had can could will would should must might may
    in of on at per for during from to there that which who whom the a an and or by with
    it its they he she we you i this these those before after since when while than as
    each every already still ever
        """
    )
)
#: Counted words too general to check ("how many people", "how many times").
_GENERIC_COUNTS = frozenset(
    _wordlist(
        """
    people persons times ones things items kinds types sorts ways units total
        """
    )
)


#: A counted phrase that starts with a comparative asks for a difference ("how much
#: *larger* is Texas?"), not a count of a thing.
_COMPARATIVE_COUNTS = frozenset(
    _wordlist(
        """
    more less fewer further farther longer shorter older younger larger bigger smaller
    higher lower greater heavier lighter faster slower earlier later
        """
    )
)


def counted_words(question: str) -> list[str]:
    """The words of what a *how many / how much* question counts, e.g. ``["ships"]``.

    The phrase after "how many" / "how much" up to an auxiliary, a preposition or a pronoun,
    at most three words ("How many Ultamate Rewards members did ..." -> ``["ultamate",
    "rewards", "members"]``), whatever the question's answer type ("how much influence" ->
    ``["influence"]``); empty when there is none ("how much does it cost?") or when it starts
    with a word too general to check ("how many people live there?", "how many times") or a
    comparative ("how much larger is Texas?": a difference, not a thing counted). The
    phrase may run on into a verb ("how many sheep graze ..." -> ``["sheep", "graze"]``): a
    sentence naming any of its words counts the same thing.

    Args:
        question: The question text.
    """
    m = re.search(r"\bhow (many|much)\b(.*)", _LEADING_CLAUSE.sub("", question), re.I)
    if m is None:
        return []
    phrase: list[str] = []
    for w in _words(m.group(2)):
        lw = w.lower()
        if lw in _PHRASE_END or any(c.isdigit() for c in lw) or len(phrase) == 3:
            break
        phrase.append(lw)
    if not phrase or phrase[0] in _GENERIC_COUNTS or phrase[0] in _COMPARATIVE_COUNTS:
        return []
    return phrase


#: Words after a number that scale or hedge it rather than name what it counts.
_SCALE_WORDS = frozenset(
    _wordlist(
        """
    hundred hundreds thousand thousands million millions billion billions trillion
    trillions dozen dozens bn mn m k more less over under than about around nearly almost
    some roughly approximately extra additional new other further
        """
    )
)
#: Cardinal words that count ("five people", "twenty-five cases"); not "one" ("one day").
_CARDINALS = _wordlist(
    """
    two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
    """
)
_COUNTING_NUMBER = re.compile(
    r"(?<![\w.,])(\d[\d,.]*\d|\d|(?i:(" + "|".join(_CARDINALS) + r")(-(one|two|three|four|"
    r"five|six|seven|eight|nine))?))\b(?![.,]?\d)"
)
#: What a number measures rather than counts: its unit, a currency or a per cent.
_MEASURING = tuple(v for k, v in _MEASURE_UNITS.items() if k not in _NOT_QUANTITIES)
#: Units this rule must not read as things counted, beyond the measure kinds': volume,
#: energy and power, data, times of day, abbreviated durations; and "times" ("scored 91
#: times"), which counts occasions of whatever the question counts.
_COUNT_UNITS = re.compile(
    r"(?i:^(barrels?|bbl|bpd|gallons?|gal|litres?|liters?|ml|cubic|mw|gw|kw|twh|gwh|mwh|kwh|"
    r"megawatts?|gigawatts?|kilowatts?|watts?|volts?|amps?|hrs?|mins?|ms|yrs?|pm|am|a\.m|p\.m|"
    r"gmt|utc|tb|gb|mb|kb|bytes?|terabytes?|gigabytes?|megabytes?|petabytes?|pixels?|"
    r"times|fold|occasions|percent|percentage|pct|per)$)"
)
#: A number that labels rather than counts: after a capitalised word ("Section 230",
#: "Boeing 747", "Note 2"), "No." / "#", or a letter and a hyphen ("COVID-19"); a score.
_LABEL_BEFORE = re.compile(r"(\b[A-Z][\w'’-]*|\bNo\.?|#|[A-Za-z]-)\s?$")
#: Capitalised words before a number that hedge it rather than name a label ("About 900").
_HEDGES = frozenset(
    _wordlist(
        """
    about around nearly almost some over under only just roughly approximately exactly
    another more than fewer less up to at least most
        """
    )
)
#: Capitalised words before a number that are no label: a sentence's first word, a hedge.
_NOT_LABELS = _NOT_NAMES | _HEDGES
#: Words that end a counted phrase here besides ``_PHRASE_END`` (a score: "won 3–1 against").
_COUNT_END = frozenset(_wordlist("against versus vs"))
_SCORE = re.compile(r"^\s?[–-]\s?\d")
#: A currency before the number, with or without a space ("$ 5", "US$ 5", "EUR 500").
_MONEY_BEFORE = re.compile(
    rf"([{re.escape(_CURRENCY_SIGNS)}]|(?<![A-Za-z])({_CURRENCY_CODES})\.?)\s?$"
)
_CLAUSE_END = re.compile(r"[,;:.()\[\]|—–!?]")


def _is_unit(word: str, number: str) -> bool:
    """Whether ``word`` after ``number`` measures it (a unit, a currency) or is a per cent."""
    return bool(_COUNT_UNITS.match(word) or any(p.search(f"{number} {word}") for p in _MEASURING))


def counted_instead(sentence: str) -> list[str]:
    """What the sentence's numbers count, when every one of them counts a named thing:
    "five *people*", "908 *stores*"; ``[]`` otherwise.

    For each number (digits, or a cardinal word from two up) the phrase after it, past
    scale words ("40 million Ultamate Rewards *members*"), up to three words before an
    auxiliary, a preposition or a punctuation mark; its last word is what it counts. A
    number that dates ("in 2025", a bare year) or labels ("Section 230", "Boeing 747",
    "COVID-19", a score "3–1") is passed over. One that measures ("5 km", "$1.2 billion",
    "12 %", "500 Swiss francs", "22,500 MW") or names nothing ("a population of 1.86
    million", a table row of figures) means the sentence may give the amount asked for in
    its own words, so nothing is reported: only a sentence whose numbers all count other
    things is evidence of a mismatch.

    Args:
        sentence: The sentence that would be quoted.
    """
    text = _without_dates(_ONE_OF.sub(" ", sentence))
    out: list[str] = []
    for m in _COUNTING_NUMBER.finditer(text):
        number, before = m.group(1), text[: m.start()]
        rest = text[m.end() : m.end() + 80]
        label = _LABEL_BEFORE.search(before)
        if label and label.group(1).lower() in _NOT_LABELS:
            label = None  # "About 900 ships", "The 12 apostles": a sentence's first word
        if _FOUR_DIGIT_YEAR.fullmatch(number) or label:
            continue
        if _SCORE.match(rest):
            continue
        if _MONEY_BEFORE.search(before) or re.match(r"\s*[%％‰]", rest):
            return []
        clause = _CLAUSE_END.split(rest, maxsplit=1)[0]
        phrase: list[str] = []
        for w in _words(clause):
            lw = w.lower()
            if not phrase and lw in _SCALE_WORDS:
                continue
            if lw in _PHRASE_END or lw in _COUNT_END or lw[0].isdigit() or len(phrase) == 3:
                break
            if phrase and lw.endswith(("ed", "ing")):
                break  # a verb after the noun: "five people worked" (not "5,000 armed men")
            phrase.append(lw)
        if not phrase or any(_is_unit(w, number) for w in phrase):
            return []  # a bare amount or a measure: perhaps the one asked for
        out.append(phrase[-1])
    return out


def counted_problem(words: Sequence[str], instead: str | None = None) -> str:
    """The refusal reason when the quoted sentence names none of the counted ``words``
    (and counts ``instead`` another thing)."""
    if instead:
        return (
            f"the question counts '{' '.join(words)}', and the quoted sentence counts "
            f"'{instead}' instead"
        )
    return (
        f"the question counts '{' '.join(words)}', which the quoted sentence does not "
        "mention (nor a close paraphrase)"
    )


# ------------------------------------------------------------------------------------------
# numbers within a stated bound
# ------------------------------------------------------------------------------------------

#: Four digits that may be a year (the year rules read them, not the bounds or the measures).
_YEAR_DIGITS = re.compile(r"1[5-9]\d{2}|20\d{2}")

#: An amount: an optional currency sign, a number, an optional scale and an optional per cent
#: sign ("£1.5m", "65", "10%", "$2 billion"); one group, parsed by :func:`_amount`.
_AMOUNT = (
    r"((?:[£$€]\s?)?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s?(?:bn|m|k|million|billion|thousand)\b)?(?:\s?%|\s?per\s?cent\b)?)"
)
#: Not part of a longer code, date, phone number or version: "020-7946-0018",
#: "01-15-2024", "3.10-3.12", "X-150-300".
_FREE_BEFORE = r"(?<![\w.,/–—-])"
_FREE_AFTER = r"(?![\w/]|[-–—.,]\d)"
#: A number with a lower bound before it: "over 65", "more than £150", "at least 10".
_LOWER_BEFORE = re.compile(
    r"\b(?:over|above|more than|greater than|older than|exceeding|beyond|at least|"
    r"a minimum of|minimum(?: of)?|upwards of|no less than|not less than)\s+"
    + _AMOUNT
    + _FREE_AFTER,
    re.IGNORECASE,
)
#: A number with an upper bound before it: "under 18", "up to 30", "less than 5%".
_UPPER_BEFORE = re.compile(
    r"\b(?:under|below|less than|fewer than|younger than|up to|at most|a maximum of|"
    r"maximum(?: of)?|no more than|not more than)\s+" + _AMOUNT + _FREE_AFTER,
    re.IGNORECASE,
)
#: A number with its bound after it: "65 and over", "18 or under", "10+".
_BOUND_AFTER_NUMBER = re.compile(
    _FREE_BEFORE
    + _AMOUNT
    + r"(?:\s?(\+)|\s+(?:or|and)\s+(over|above|more|older|upwards|under|below|less|fewer|"
    r"younger)\b)",
    re.IGNORECASE,
)
#: Two numbers of a range: "between 10 and 20", "aged 16–18", "from £50 to £100".
_BETWEEN = re.compile(
    r"(?:\bbetween\s+"
    + _AMOUNT
    + r"\s+and\s+|"
    + _FREE_BEFORE
    + _AMOUNT
    + r"\s?(?:[–—-]|to\b)\s?)"
    + _AMOUNT
    + _FREE_AFTER,
    re.IGNORECASE,
)
_SCALES = MappingProxyType(
    {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
)
_BOUND_UNIT_WORDS = """
    second seconds minute minutes hour hours day days week weeks month months year years
    mm cm m km metre metres meter meters mile miles ft foot feet inch inches yard yards
    g kg gram grams kilogram kilograms lb lbs pound pounds oz ounce ounces tonne tonnes ton tons
    ml l litre litres liter liters gallon gallons pint pints kw kwh mph kph
"""


@functools.cache
def _bound_units() -> frozenset[str]:
    """Units a number's bound and the question's number must share when the question names
    one ("a 70 kg parcel" is not held by "members over 65"), as :func:`_unit_key` gives them."""
    return frozenset(_bound_unit_key(u) for u in _wordlist(_BOUND_UNIT_WORDS))


def _bound_unit_key(word: str) -> str:
    """A unit as bounds compare it: :func:`_unit_key` without a plural ``s`` ("days" / "day")."""
    key = _unit_key(word)
    return key[:-1] if len(key) > 2 and key.endswith("s") else key


@dataclass(frozen=True)
class NumberBound:
    """A range a text states for a number: ``low`` to ``high`` (either open: ``None``), of a
    kind (``"money"``, ``"percent"`` or ``""`` for a plain number), with the unit after it
    (``""``: none of :func:`_bound_units`), and the words stating it."""

    low: float | None
    high: float | None
    kind: str
    text: str
    unit: str = ""
    of_age: bool = False

    def holds(self, value: float, kind: str, unit: str = "") -> bool:
        """Whether ``value`` of ``kind`` lies in this range (its ends included); a value with
        a unit needs the range's unit. An age (unit ``"age"``: "my *13 year old*") is held by a
        range in years ("children *under 5 years*") or one stated of an age (``of_age``:
        "riders *aged 12 to 15*", "*65 and older*"), never by a count ("*up to 20* riders")."""
        if kind != self.kind:
            return False
        if unit == "age":
            if self.unit != "year" and not (self.unit == "" and self.of_age):
                return False
        elif unit and unit != self.unit:
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def _amount(written: str) -> tuple[float, str] | None:
    """The value and kind of an amount as :data:`_AMOUNT` matches it ("£1.5m" ->
    ``(1500000.0, "money")``); ``None`` for a year ("2014": left to the year rules)."""
    m = re.fullmatch(
        r"([£$€]\s?)?([\d,]+(?:\.\d+)?)\s?(bn|m|k|million|billion|thousand)?\s?(%|per\s?cent)?",
        written.strip(),
        re.IGNORECASE,
    )
    if m is None:
        return None
    kind = "money" if m.group(1) else "percent" if m.group(4) else ""
    if not kind and not m.group(3) and _YEAR_DIGITS.fullmatch(m.group(2)):
        return None
    number = _number(m.group(2))
    if math.isnan(number):
        return None
    scale = (m.group(3) or "").lower()
    if len(scale) <= 2 and kind != "money":
        scale = ""  # "5m" of a plain number may be metres
    return number * _SCALES.get(scale, 1.0), kind


def _unit_after(text: str, end: int) -> str:
    """The unit word right after ``text[:end]`` ("30 *days*"), or ``""``."""
    m = re.match(r"\s?-?\s?([A-Za-z]+)", text[end : end + 24])
    key = _bound_unit_key(m.group(1)) if m else ""
    return key if key in _bound_units() else ""


def stated_bounds(text: str) -> list[NumberBound]:
    """The ranges ``text`` states for a number: "members *over 65*", "orders *of £150 or
    more*", "*up to* 30 days", "children *aged 5–11*", "*between* 10 *and* 20 people",
    "*over £1.5m*".

    Years are no bound here (a passage's "since 2014" does not make 2022 mentioned); a range
    must run upwards and its two ends be of one kind ("£50 to £100", "10–20%"); numbers
    glued to other numbers are codes, dates or phone numbers, not ranges ("020-7946-0018",
    "01-15-2024", "ISBN 978-3-16-148410-0").
    """
    out: list[NumberBound] = []
    for pattern, low in ((_LOWER_BEFORE, True), (_UPPER_BEFORE, False)):
        for m in pattern.finditer(text):
            got = _amount(m.group(1))
            if got is not None:
                n, kind = got
                unit = _unit_after(text, m.end())
                age = _of_age(text, m.start(), m.end())
                out.append(
                    NumberBound(n if low else None, None if low else n, kind, m.group(0), unit, age)
                )
    for m in _BOUND_AFTER_NUMBER.finditer(text):
        got = _amount(m.group(1))
        if got is not None:
            n, kind = got
            up = m.group(2) == "+" or (m.group(3) or "").lower() in (
                "over",
                "above",
                "more",
                "older",
                "upwards",
            )
            unit = _unit_after(text, m.end(1))
            age = _of_age(text, m.start(), m.end())
            out.append(
                NumberBound(n if up else None, None if up else n, kind, m.group(0), unit, age)
            )
    for m in _BETWEEN.finditer(text):
        first = m.group(1) if m.group(1) is not None else m.group(2)
        last = m.group(3)
        sign = re.match(r"[£$€]", first) or re.match(r"[£$€]", last)
        percent = "%" in last or "cent" in last.lower()
        # "£50–100": both money; "10–20%": both per cents
        a = _amount(
            f"{sign.group(0) if sign and not re.match(r'[£$€]', first) else ''}{first}"
            + ("%" if percent and "%" not in first and "cent" not in first else "")
        )
        b = _amount(f"{sign.group(0) if sign and not re.match(r'[£$€]', last) else ''}{last}")
        if a is not None and b is not None and a[1] == b[1] and a[0] < b[0]:
            unit, age = _unit_after(text, m.end()), _of_age(text, m.start(), m.end())
            out.append(NumberBound(a[0], b[0], a[1], m.group(0), unit, age))
    return out


#: An age word just before a range ("riders *aged* 12 to 15", "*ages* 5-11", "*age* 65 and
#: over").
_AGE_BEFORE = re.compile(r"\b(?:aged|ages?)(?:\s+(?:of|from|between))?\s*$", re.IGNORECASE)


def _of_age(text: str, start: int, end: int) -> bool:
    """Whether the range ``text[start:end]`` is stated of an age: an age word before it, *older*
    or *younger* in it ("65 and older"), or *years old* after it ("5 to 11 year olds")."""
    return bool(
        _AGE_BEFORE.search(text[max(0, start - 24) : start])
        or re.search(r"\b(?:older|younger)\b", text[start:end], re.IGNORECASE)
        or _AGE_AFTER.match(text, end)
    )


def canonical_number(number: str) -> str:
    """A number as the number check compares it: no thousands separators, no leading or
    trailing decimal zeros ("1,200.50" -> "1200.5", "007" -> "7")."""
    whole, _, frac = number.replace(",", "").partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole


#: An age after a number: "13 year old", "13-year-old", "7 yr olds", "70 years of age".
_AGE_AFTER = re.compile(
    r"\s*-?\s*(?:years?|yrs?\.?)(?:[\s-]*olds?\b|\s+of\s+age\b(?!-))", re.IGNORECASE
)


def asked_amounts(question: str) -> dict[str, tuple[float, str, str]]:
    """Each number of ``question`` (in :func:`canonical_number`'s form)
    with its value, kind (``"money"``, ``"percent"``, ``""``) and unit (``""``: none of
    :func:`_bound_units`; ``"age"`` for "a 13 year old", :data:`_AGE_AFTER`); four-digit
    years and the question's own bounds ("*over 300* police", "*between 10 and 20*") left
    out: a range in the question is not a value a passage's range can hold."""
    out: dict[str, tuple[float, str, str]] = {}
    bounds = [
        m.span()
        for pattern in (_LOWER_BEFORE, _UPPER_BEFORE, _BOUND_AFTER_NUMBER, _BETWEEN)
        for m in pattern.finditer(question)
    ]
    for m in re.finditer(_FREE_BEFORE + _AMOUNT + _FREE_AFTER, question):
        if any(a <= m.start(1) < b for a, b in bounds):
            continue
        got = _amount(m.group(1))
        digits = re.search(r"[\d,]+(?:\.\d+)?", m.group(1))
        if got is None or digits is None:
            continue
        unit = "age" if _AGE_AFTER.match(question, m.end()) else _unit_after(question, m.end())
        out[canonical_number(digits.group(0))] = (got[0], got[1], unit)
    return out


def within_stated_bound(number: str, question: str, texts: Iterable[str]) -> NumberBound | None:
    """The first range of ``texts`` that holds the question's ``number``, or ``None``.

    "I'm 70, do I pay if my book is late?" asks about 70; "members over 65 pay no fines"
    states a range that holds it, so the number is not missing from the passages (the number
    check). The number's kind must be the range's ("£200" is held by "orders over £150", not
    by "over 150 stores"), and so must its unit when it has one ("a 70 kg parcel" is not held
    by "members over 65"); years are left to the year rules.

    Args:
        number: A number of the question, canonical (``"1200"`` for "1,200").
        question: The question, to read the number's kind and unit.
        texts: The passages' texts.
    """
    asked = asked_amounts(question).get(number)
    if asked is None:
        return None
    for text in texts:
        for bound in stated_bounds(text):
            if bound.holds(*asked):
                return bound
    return None


# ------------------------------------------------------------------------------------------
# dates and split years: one thing each, not their numbers
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AskedPeriod:
    """A date written in figures or a split year of a question, which the number check reads
    as one thing rather than as its numbers ("03/11/2025" is a day, not 3, 11 and 2025;
    "2023/24" a year, not 2023 and 24).

    Attributes:
        written: As the question writes it ("03/11/2025", "FY2023/24").
        start: Where it starts in the question.
        end: Where it ends.
        dates: A date: the days it may be (day or month first, when both are dates).
        years: A split year: its first and last year (``(2023, 2024)``).
    """

    written: str
    start: int
    end: int
    dates: tuple[date, ...] = ()
    years: tuple[int, int] | None = None


def asked_periods(question: str) -> list[AskedPeriod]:
    """The dates in figures (:data:`loaders.metadata.NUMERIC_DATE_RE`: "3/11/2025",
    "2025-11-03", "03.11.25") and the split years (:data:`loaders.metadata.SPLIT_YEAR_RE`:
    "2023/24", "2025–26", "FY25/26") of ``question``, in order."""
    out: list[AskedPeriod] = []
    for m in NUMERIC_DATE_RE.finditer(question):
        days = numeric_dates(m)
        if days:
            out.append(AskedPeriod(m.group(0), m.start(), m.end(), dates=days))
    for m in SPLIT_YEAR_RE.finditer(question):
        last = split_year(m)
        if last is not None and all(m.end() <= p.start or m.start() >= p.end for p in out):
            out.append(AskedPeriod(m.group(0).strip(), m.start(), m.end(), years=(last - 1, last)))
    return sorted(out, key=lambda p: p.start)


def without_periods(question: str, periods: Sequence[AskedPeriod]) -> str:
    """``question`` with each of ``periods`` blanked (its numbers are not asked about one by
    one); positions are kept."""
    for p in periods:
        question = question[: p.start] + " " * (p.end - p.start) + question[p.end :]
    return question


def split_years_in(text: str) -> set[tuple[int, int]]:
    """The split years ``text`` states, in any spelling ("Budget 2025/26", "2025-26",
    "2025–26", "FY2025/26", "FY25/26", "2025/2026" all give ``(2025, 2026)``)."""
    out = set()
    for m in SPLIT_YEAR_RE.finditer(text):
        last = split_year(m)
        if last is not None:
            out.add((last - 1, last))
    return out


def period_mentioned(period: AskedPeriod, texts: Iterable[str], numbers: Collection[str]) -> bool:
    """Whether the passages mention a date or split year of the question.

    A date is mentioned where a text states it in any common form, in either of its readings
    ("03/11/2025": "3 November 2025", "3rd Nov 2025", "November 3, 2025", "2025-11-03",
    "11 March 2025"; :func:`loaders.metadata.stated_dates`), or states its day and month
    ("3 November") and its year in the same text (a dated report's header: "2025"; not a
    year another passage mentions).
    A split year is mentioned where a text states it in any spelling (:func:`split_years_in`),
    or where the passages mention both its years ("April 2023 to March 2024").

    Args:
        period: From :func:`asked_periods`.
        texts: The passages' texts (with their headers and document names).
        numbers: The numbers the passages mention, canonical
            (:func:`chains.answerers.numbers_in`).
    """
    texts = list(texts)
    if period.years is not None:
        first, last = period.years
        if any(period.years in split_years_in(t) for t in texts):
            return True
        return str(first) in numbers and str(last) in numbers
    for text in texts:
        if not stated_dates(text).isdisjoint(period.dates):
            return True
        days = stated_days(text)
        if any(
            (d.month, d.day) in days and re.search(rf"(?<!\d){d.year}(?!\d)", text)
            for d in period.dates
        ):
            return True  # the day and month, and the year in the same passage or its header
    return False


# ------------------------------------------------------------------------------------------
# negation
# ------------------------------------------------------------------------------------------

_NEGATION_Q = re.compile(
    r"\b(not|cannot|never|no longer|none|neither|nor)\b|n['’]t\b", re.IGNORECASE
)
_NEGATION_S = re.compile(
    r"\b(not|no|never|none|neither|nor|nothing|nobody|without|cannot|unable|fail|fails|failed|"
    r"failure|lack|lacks|lacked|lacking|absent|absence|refuse|refused|refuses|except|excluding|"
    r"exclude|excluded|instead|rather than|unlike|only|prohibit|prohibited|forbid|forbidden|"
    r"ban|banned|avoid|avoided|prevent|prevented|deny|denied|reject|rejected|non-?\w+)\b"
    r"|n['’]t\b"
    # a privative participle or adjective: "unused", "unpaid", "untaken", "unavailable",
    # "uninsured" (not "united", "unified", "understood", nor an undoing: "unlocked",
    # "unpacked", "unveiled")
    r"|\bun(?!(?:it|ion|iform|ique|ivers|ifi|ify|der|lock|pack|load|plug|veil|earth|fold|wrap|"
    r"screw|zip|block|leash|tie|do|dress|wind|roll|seal|mask|box|furl|button|hook|tangle)"
    r"[a-z]*\b)[a-z]{2,}(?:ed|en|able|ible)\b"
    r"|\bun(?:paid|known|seen|said|sold|spent|heard|told|met|won|worn|sung|read)\b",
    re.IGNORECASE,
)


#: Where a clause of a question starts: after a sentence end, a comma, a semicolon, a colon
#: or a dash.
_CLAUSE_START = re.compile(r"(?:[.!?;:,]|\s[-–—])\s+")


#: How a clause telling the asker's situation opens: the asker ("I", "my", "we"), or a
#: condition ("if", "since", "because", "as", "when").
_SITUATION = re.compile(
    r"^\W*(?:i|i['’]m|i['’]ve|i['’]d|my|we|we['’]re|we['’]ve|our|if|since|because|as|when)\b",
    re.IGNORECASE,
)


def asking_clause(question: str) -> str:
    """The part of ``question`` that asks, without the asker's situation told before it.

    When a question ends with ``?`` and opens with a clause about the asker or a condition
    ("I don't want to keep emptying it, *can it drain by itself?*", "If I don't return it,
    *do I pay?*"), the part from its first clause opened by a wh-word or an auxiliary;
    otherwise the whole question: one that opens by asking ("Why doesn't it dry, is it
    broken?") or by naming what it asks about ("Products that don't contain nuts, do you
    have any?", "The warranty does not cover water damage, does it?"). A statement told after
    the last question mark is the asker's situation too: "latest I can get in on Tuesday? I
    don't finish work till 5.30" asks up to the ``?``.
    """
    text = question.strip()
    ends = [m.start() for m in _ASK_END.finditer(text)]
    if ends and not text.endswith("?") and text[: ends[-1]].count('"') % 2 == 0:
        text = text[: ends[-1] + 1]  # the statement after the ask
        question = text
    if not text.endswith("?") or not _SITUATION.match(text):
        return question
    for m in _CLAUSE_START.finditer(text[:-1]):
        if _QUESTION_START.match(text[m.end() :]):
            return text[m.end() :]
    return question


#: A question mark that ends an ask and has a statement after it: "…? don't finish work till
#: 5.30"; not one inside a quotation ("the leaflet 'Why wait?' says") or a web address.
_ASK_END = re.compile(r"\?+(?=\s+\S)")
#: A condition closing a question ("what's the price of a check-up *if I'm not NHS*?"):
#: the asker's situation, told after the ask.
_TRAILING_CONDITION = re.compile(r"[\s,]+(?:if|unless|in case|because)\b.*$", re.IGNORECASE | re.S)
#: An ask about the condition itself ("what if …", "what happens if …", "what do I do if …").
_ASKS_CONDITION = re.compile(
    r"^\W*(?:and\s+|so\s+)?what(?:\s+(?:happens|will happen|would happen|should i do|do i do|"
    r"can i do|do we do|should we do))?\W*$",
    re.IGNORECASE,
)


def without_trailing_condition(clause: str) -> str:
    """``clause`` without a condition told after the ask (``if``, ``unless``, ``in case``,
    ``because``): "what's the price of a normal check up *if im not nhs*" -> "what's the price
    of a normal check up". A question about the condition itself keeps it ("what happens if I
    don't pay?", "what if it doesn't start?"), and so does one set off by commas with the ask
    going on after it ("which members, if any, cannot vote?").
    """
    m = _TRAILING_CONDITION.search(clause)
    if m is None or m.start() == 0 or _ASKS_CONDITION.match(clause[: m.start()]):
        return clause
    if "," in m.group(0).lstrip(" ,"):
        return clause  # an aside, and the ask goes on: "which members, if any, cannot vote?"
    return clause[: m.start()]


#: A request written as an instruction, or a question closed by a full stop: it asks ("list
#: the services not covered", "Which items aren't covered.").
_REQUEST = re.compile(
    r"^\W*(?:please\s+)?(?:tell|list|show|give|name|find|explain|describe|identify|what|which|"
    r"who|whom|whose|when|where|why|how)\b",
    re.IGNORECASE,
)


def negation_problem(question: str, sentence: str) -> str | None:
    """Why an affirmative sentence cannot answer a negated question, or ``None``.

    "What does *not* cause strain?" asks for the exception; a sentence that says what *does*
    cause strain, with no negation, exclusion or privative word in it ("not", "no", "without",
    "fails", "except", "only", "non-", "unused", "unpaid", ...), answers the
    opposite question: "Can I take holiday I didn't use into next year?" is answered by "Up
    to 5 unused days carry over". Only the clause
    that asks is read (:func:`asking_clause`): in "I don't want to keep emptying it, can it
    drain by itself?" the negation is the asker's situation, not the question's; so is a
    condition told after the ask (:func:`without_trailing_condition`), but a negated one
    excludes what it negates: "what's the price of a check up *if I'm not NHS*?" is not answered
    by "NHS check-up (Band 1) — £27.40" (the first content words after the negation, read in
    any inflection), and is by "Private check-up — £52".

    A text that asks nothing (:func:`is_question`, and no request: "list the services not
    covered" asks) has no negated ask: "forgot my pin, can't log in to libby" tells the
    asker's problem, and a claim to check ("X does not cause Y") is checked by the evidence
    whichever way it reads.

    Args:
        question: The question text.
        sentence: The sentence that would be quoted.
    """
    if not is_question(question) and not _REQUEST.match(question):
        return None
    asked = asking_clause(question)
    ask = without_trailing_condition(asked)
    m = _NEGATION_Q.search(ask)
    if _NEGATION_S.search(sentence):
        return None
    if m is None:
        condition = asked[len(ask) :]
        cm = _NEGATION_Q.search(condition)
        if cm is None:
            return None
        negated = [w for w in tokenize(condition[cm.end() :])[:3] if content_word(w)]
        said = {stem(w) for w in tokenize(sentence)}
        hit = next((w for w in negated if stem(w) in said), None)
        if hit is None:
            return None
        return (
            f"the question's condition is negated ({condition.strip(' ,?')!r}), and the quoted "
            f"sentence states {hit!r} with no negation"
        )
    return (
        f"the question is negated ({m.group(0).strip()!r}), and the quoted sentence states "
        "no negation or exception"
    )


# ------------------------------------------------------------------------------------------
# contrast
# ------------------------------------------------------------------------------------------

#: Words that open a question (besides a final question mark).
_QUESTION_START = re.compile(
    r"^\W*(what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|"
    r"could|has|have|had|will|would|should|shall|may|might|must|in what|in which)\b",
    re.IGNORECASE,
)
_NUMBERED_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$")
#: Contractions, spelled out before the words are compared ("won't" is not "won").
_CONTRACTIONS = (
    (re.compile(r"\bwon['’]t\b", re.IGNORECASE), "will not"),
    (re.compile(r"\bcan['’]t\b", re.IGNORECASE), "can not"),
    (re.compile(r"\bshan['’]t\b", re.IGNORECASE), "shall not"),
    (re.compile(r"n['’]t\b", re.IGNORECASE), " not"),
)


def is_question(text: str) -> bool:
    """Whether ``text`` asks rather than states (a claim such as SciFact's "X increases Y").

    A final question mark asks; a final full stop or exclamation mark states ("Will Smith won
    an Oscar."); otherwise a wh-word or an auxiliary first asks ("how do i reset it"), unless
    it is written in capitals, as a name is ("WHO recommends zinc").
    """
    text = text.strip()
    if text.endswith("?"):
        return True
    if text.endswith((".", "!")):
        return False
    m = _QUESTION_START.search(text)
    return m is not None and not m.group(1).isupper()


@dataclass(frozen=True)
class ContrastLexicon:
    """The words of ``chains/contrast_terms.json``, ready to compare.

    Attributes:
        excludes: Word -> the words it excludes. A listed word excludes every listed word
            that shares its opposite's stem ("decrease" -> "increase", "increased",
            "increasing"), never an unlisted one ("greater" does not reach "great").
        counted: Words that exclude another only before the same word ("the *second* seat"
            / "the *first* seat", not "frames per *second*" / "the *first* man"); numbered
            ordinals ("18th", "19th") are counted too.
        compounds: Listed hyphenated words ("part-time"), each a pattern matching it written
            with a hyphen, a space or neither, and the one word it is compared as
            ("parttime"), and the word as listed.
    """

    excludes: Mapping[str, frozenset[str]]
    counted: frozenset[str]
    compounds: tuple[tuple[re.Pattern[str], str, str], ...] = ()


@functools.cache
def contrast_lexicon() -> ContrastLexicon:
    """The contrast words, read once from ``chains/contrast_terms.json``."""
    from importlib import resources

    data = json.loads(
        resources.files("chains").joinpath("contrast_terms.json").read_text(encoding="utf-8")
    )
    listed = [list(p) for p in data["pairs"]] + [list(c) for c in data["classes"].values()]
    compounds = tuple(
        (re.compile(r"\b" + r"[-\s]?".join(map(re.escape, w.split("-"))) + r"\b", re.I), joined, w)
        for w in sorted({w for g in listed for w in g if "-" in w})
        if (joined := w.replace("-", ""))
    )
    groups = [[w.replace("-", "") for w in g] for g in listed]
    family: dict[str, set[str]] = {}
    for group in groups:
        for w in group:
            family.setdefault(stem(w), set()).add(w)
    excludes: dict[str, set[str]] = {}
    for group in groups:
        for a in group:
            for b in group:
                if stem(b) != stem(a):
                    excludes.setdefault(a, set()).update(family[stem(b)])
    counted = {w for name in data["counted"] for w in data["classes"][name]}
    return ContrastLexicon(
        MappingProxyType({k: frozenset(v) for k, v in excludes.items()}),
        frozenset(counted),
        compounds,
    )


def _contrast_words(text: str) -> list[str]:
    """``text``'s lower-case words, contractions spelled out and listed hyphenated words
    joined ("part-time" and "part time" -> "parttime")."""
    for pattern, spelled in _CONTRACTIONS:
        text = pattern.sub(spelled, text)
    for pattern, joined, _ in contrast_lexicon().compounds:
        text = pattern.sub(joined, text)
    return tokenize(text)


_MONTH_WORDS = "|".join(w[:3] + r"\w*" for w in _MONTHS)
#: A year standing as one: after a preposition, "FY" or a month, before a colon (a column
#: header "2024: 8,214") or at a clause's end; "we sold 1850 units" has no year.
_YEAR_MENTION = re.compile(
    rf"(?:(?P<pre>\b(?:fy|fiscal(?: year)?|financial year|calendar(?: year)?|in|since|by|from|"
    rf"during|until|till|before|after|year|through|between|early|late|mid|{_MONTH_WORDS})\s*)|"
    r"[–/-]\s?)(?P<y>1[5-9]\d{2}|20\d{2})(?![\d])(?![.,]\d)"
    # after "of", "and", "to", "or": a year unless a noun follows ("of 2000 flyers"; "the end
    # of 2025 the co-op …" is a year)
    r"|\b(?:of|and|to|or)\s+(?P<y3>1[5-9]\d{2}|20\d{2})(?![\d])(?![.,]\d)"
    r"(?!\s+(?!(?:the|a|an|we|i|it|they|our|its|and|or|to|in|on|at|was|were|is|are|had|has|"
    r"have|when|with|for|by|as|from|compared|against|versus|vs)\b)[a-z])"
    r"|(?<![\w£$€.,])(?P<y2>1[5-9]\d{2}|20\d{2})(?=\s*(?:[:;)?!]|$))"
    r"|\bfy\s?(?P<yy>\d{2})\b",
    re.IGNORECASE,
)
_YEAR_RANGE = re.compile(
    r"\b(?:FY)?(1\d{3}|20\d{2})\s?(?:[–/-]|to|until|through|and)\s?(?:FY)?(1\d{3}|20\d{2}|\d{2})\b",
    re.IGNORECASE,
)
#: Words that make a number a bound, not a value: "open *after* 6pm", "*up to* 5 kg",
#: "*since* 2020", "*within* 2 miles".
_BOUND_BEFORE = re.compile(
    r"\b(after|before|since|from|over|under|within|up to|upto|at least|at most|more than|"
    r"less than|fewer than|below|above|until|till|by|beyond|exceeding|max(imum)?|min(imum)?|"
    r"between|than)\s*[£$€]?$",
    re.IGNORECASE,
)
_BOUND_AFTER = re.compile(
    r"^\s*(\+|or (more|less|over|under|above|below|fewer|later|earlier|after|before)\b|onwards?\b)",
    re.I,
)
_MEASURED = re.compile(
    r"(?<![\w.,/])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![.,]\d)"
    r"(?:st|nd|rd|th)?\+?[\s-]?(%|[°º˚]\s?[CF]\b|[A-Za-z]+)"
)
#: Unit abbreviations, spelled out before units are compared ("30 min" / "30 minutes").
_UNIT_WORDS = MappingProxyType(
    {
        "min": "minute",
        "mins": "minute",
        "hr": "hour",
        "hrs": "hour",
        "yr": "year",
        "yrs": "year",
        "sec": "second",
        "secs": "second",
        "kgs": "kg",
        "lbs": "lb",
        "c": "°c",
        "f": "°f",
    }
)
_RANGE_OF = re.compile(
    r"(?<![\w.,/])\d+(?:[.,]\d+)*(?:st|nd|rd|th)?\s?(?:[–-]|to|or|and)\s?\d+(?:[.,]\d+)*"
    r"(?:st|nd|rd|th)?\s?(%|[A-Za-z]+)",
    re.IGNORECASE,
)
_NOT_UNITS = frozenset(_wordlist("to or and th st nd rd of in at per a an the x by on for"))
_ASKED_UNIT = re.compile(r"\bhow (?:many|much|long|old|far|often)\s+(\w+)(?:\s+(\w+))?", re.I)
_WH_WORDS = frozenset(_wordlist("what which who whom whose when where why how"))


def _year_mentions(text: str) -> list[tuple[int, bool]]:
    """The years a text states, each with whether it is a bound ("*since* 2020", "*from*
    2024 onwards", "*before* 2010") rather than a year stated."""
    out = []
    for m in _YEAR_MENTION.finditer(text):
        if m.group("yy"):
            out.append((2000 + int(m.group("yy")), False))
            continue
        year = int(m.group("y") or m.group("y2") or m.group("y3"))
        pre = (m.group("pre") or "").strip().lower()
        bound = pre in ("since", "from", "until", "till", "by", "before", "after")
        bound = bound or _BOUND_AFTER.match(text[m.end() : m.end() + 16]) is not None
        out.append((year, bound))
    return out


def column_years(stated: str) -> set[int]:
    """The years a table row's column names state, in a row as stated with them
    (``"Rent — 2025 budget (£): 38,000; Owner: Priya"`` -> ``{2025}``; a split year
    ``2023/24`` gives both): the years of its :func:`column_periods`."""
    return {year for _, years in column_periods(stated) for year in years}


def column_periods(stated: str) -> list[tuple[str, frozenset[int]]]:
    """Each column name of a row as stated with them that states a period, with its years
    (``"Lights — Budget 2024/25: 14500; Actual 2024/25: 16220"`` ->
    ``[("Budget 2024/25", {2024, 2025}), ("Actual 2024/25", {2024, 2025})]``)."""
    cells = stated.split(" — ", 1)[-1]
    out = []
    for part in cells.split(";"):
        if ":" not in part:
            continue
        name = part.split(":", 1)[0].strip()
        years = frozenset(y for _, _, ys in written_periods(name) for y in ys)
        if years:
            out.append((name, years))
    return out


def _same_word(a: str, b: str) -> bool:
    """Whether two words are one (inflections and "actual" / "actually" alike)."""
    a, b = a.lower(), b.lower()
    if stem(a) == stem(b):
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and long_.startswith(short)


def column_kind_problem(question: str, stated: str) -> str | None:
    """Why a table row cannot answer a wh-question about one kind of column *for a period*
    when its column of that period is of another kind, or ``None``: "How much did we
    *actually* spend on lights in *2025/26*?" is not answered by a row whose columns are
    "Budget 2024/25", "Actual 2024/25" and "Budget 2025/26" (the actual figure of 2025/26 is
    not in it). The kind is a word of a column name besides its period ("actual",
    "budget", "forecast", "revenue"); a question naming none of them, or whose period's
    column names the kind, is not refused here. A question's split year ("2025/26") is that
    period; a single year is any period holding it.

    Args:
        question: The question text.
        stated: The row as stated with its column names.
    """
    if not is_question(question) or not _asks_wh(question):
        return None
    asked = written_periods(question)
    columns = column_periods(stated)
    if len(asked) != 1 or len(columns) < 2:
        return None
    start, end, period = asked[0]
    when = question[start:end]

    def holds(years: frozenset[int]) -> bool:
        return years == period if len(period) > 1 else period <= years

    def kind_words(name: str) -> list[str]:
        rest = name
        for start, end, _ in reversed(written_periods(name)):
            rest = rest[:start] + " " + rest[end:]
        return [w for w in _words(rest) if w[0].isalpha() and content_word(w.lower())]

    of_period = [name for name, years in columns if holds(years)]
    if not of_period:
        return None  # no column of the period: row_year_problem's to say
    kinds = {w.lower() for name, _ in columns for w in kind_words(name)}
    q_words = [w for w in _words(question) if w[0].isalpha()]
    asked_kinds = sorted({k for k in kinds if any(_same_word(k, w) for w in q_words)})
    if not asked_kinds:
        return None
    for name in of_period:
        own = kind_words(name)
        if all(any(_same_word(k, w) for w in own) for k in asked_kinds):
            return None
    return (
        f"the question asks about {' '.join(asked_kinds)} for {when}, and the quoted row's "
        f"column for {when} is {', '.join(repr(n) for n in of_period)}"
    )


def row_year_problem(question: str, stated: str) -> str | None:
    """Why a table row whose columns are of other years cannot answer a wh-question about a
    year, or ``None``: "What did we spend on rent in *2024*?" is not answered by "Rent and
    utilities — 2025 budget (£): 38,000" (the board minutes of November 2024 hold the 2025
    budget: the document's name states 2024, the row's column 2025). A row with a column
    of the asked year, or with no year in its column names, is not refused here.

    Args:
        question: The question text.
        stated: The row as stated with its column names.
    """
    if not is_question(question) or not _asks_wh(question):
        return None
    asked = {y for y, bound in _year_mentions(question) if not bound}
    if any(b for _, b in _year_mentions(question)) or _year_spans(question):
        return None  # "since 2020", "between 2019 and 2021": a span, not one year
    columns = column_years(stated)
    if not asked or not columns or asked & columns:
        return None
    y = min(asked)
    other = min(columns, key=lambda x: abs(x - y))
    return f"the question asks about {y}, and the quoted row's columns state {other} instead"


def _year_spans(text: str) -> list[tuple[int, int]]:
    """Year ranges a text states ("2019–2021", "FY2023/24", "between 2010 and 2015")."""
    out = []
    for m in _YEAR_RANGE.finditer(text):
        a, b = int(m.group(1)), m.group(2)
        end = int(b) if len(b) == 4 else a // 100 * 100 + int(b)
        if end > a:
            out.append((a, end))
    return out


def _number(text: str) -> float:
    try:
        return float(text.replace(",", ""))
    except ValueError:  # "4.2.1": a section or version number, never equal to a quantity
        return math.nan


def _measured(text: str) -> list[tuple[float, str, str, bool]]:
    """``(number, unit, unit as written, bound)`` for each number of a text with the unit
    word or sign after it ("20 °C" -> ``(20.0, "°c", "°C", False)``, "up to 5 kg" -> ``(5.0,
    "kg", "kg", True)``); a number in a range ("2–4 people") is a bound; years are left out.
    """
    ranged = {_unit_key(m.group(1)) for m in _RANGE_OF.finditer(text)}
    out = []
    for m in _MEASURED.finditer(text):
        written = m.group(2)
        unit = re.sub(r"^[°º˚]\s?", "°", written.lower())
        if _YEAR_DIGITS.fullmatch(m.group(1)) and unit not in ("%", "°c", "°f"):
            continue  # four digits that may be a year: left to the year rule
        if unit in GENERIC or unit in _NOT_UNITS or len(unit) > 20:
            continue
        value = _number(m.group(1))
        if math.isnan(value):
            continue
        key = _unit_key(unit)
        bound = (
            value == 1  # "£5 per user", "1 ticket costs £10": a rate, not a count asked about
            or _BOUND_BEFORE.search(text[max(0, m.start() - 16) : m.start()]) is not None
            or _BOUND_AFTER.match(text[m.end() : m.end() + 16]) is not None
            or key in ranged
        )
        out.append((value, key, written, bound))
    return out


def _unit_key(unit: str) -> str:
    """A unit as compared: abbreviations spelled out, then stemmed ("mins" -> "minut")."""
    unit = unit.lower()
    unit = _UNIT_WORDS.get(unit, unit)
    return stem(unit) if unit[:1].isalpha() else unit


def _asks_wh(question: str) -> bool:
    """Whether a question opens with a wh-word (after an optional clause ending in a comma:
    "In 2023, what …")."""
    for part in (question, question.split(",", 1)[-1]):
        m = _QUESTION_START.search(part)
        if m is not None and m.group(1).lower() in _WH_WORDS:
            return True
    return False


def numbered_problem(question: str, sentence: str, context: str = "") -> str | None:
    """Why a sentence stating another year or another quantity of the same unit cannot answer
    a wh-question, or ``None``.

    "How many units did Scotland sell in *2023*?" is not answered by "Scotland sold 7,480
    units in *2024*", nor "what is the extraction rate at *20 °C*?" by "20 litres a day at
    *30 °C*": the question names a year (or a number with its unit) the sentence does not
    state, and the sentence states another year (another number of that unit) instead.
    Not refused: a year the sentence's context states (its document's title, section, a
    row's column names: ``context``), a range of years containing the asked one
    ("2019–2021"), a bound in the question or the sentence ("open *after* 6pm", "parcels *up
    to* 5 kg", "*since* 2020", "groups of 2 *to* 6 people"), a number that stands as no year
    ("we sold 1850 units"), and any question that does not open with a wh-word ("is the
    warranty 3 years?" is answered by "the warranty lasts 2 years"). The unit a question
    asks for ("how many *days*") is the answer's, not a condition.

    Args:
        question: The question text.
        sentence: The sentence that would be quoted (a table row: as stated with its
            column names).
        context: Where the sentence stands (document name, title, section, page).
    """
    if not is_question(question) or not _asks_wh(question):
        return None
    q_years = _year_mentions(question)
    s_years = _year_mentions(sentence)
    asked = {y for y, _ in q_years}
    stated = {y for y, bound in s_years if not bound}
    # the asked year anywhere in the sentence or its context, however written ("2023
    # revenue", "annual_report_2023.pdf", "FY23")
    around = f"{sentence} {context}"
    known = {
        y
        for y in asked
        if re.search(rf"(?<![\d£$€.,]){y}(?!\d)|\bfy\s?{y % 100:02d}\b", around, re.I)
    }
    bounded = any(b for _, b in q_years) or any(b for _, b in s_years)
    q_spans = _year_spans(question)  # "between 2010 and 2015" asks about the years between
    within = any(a <= y <= b for y in stated for a, b in q_spans)
    if stated and asked and not known and not within and not bounded:
        spans = _year_spans(sentence)
        for y in sorted(asked):
            if not any(a <= y <= b for a, b in spans):
                other = min(stated - asked, key=lambda x: abs(x - y))
                return (
                    f"the question asks about {y}, and the quoted sentence states {other} instead"
                )
    asked_units = {stem(w.lower()) for m in _ASKED_UNIT.finditer(question) for w in m.groups() if w}
    said = _measured(sentence)
    for number, unit, written, bound in _measured(question):
        if bound or unit in asked_units:
            continue
        same = [(n, w, b) for n, u, w, b in said if u == unit]
        if not same or any(b for _, _, b in same) or any(n == number for n, _, _ in same):
            continue
        n, w, _ = same[0]
        return (
            f"the question asks about {number:g} {written}, and the quoted sentence states "
            f"{n:g} {w} instead"
        )
    return None


#: A question asking for a span of time ("how long …", "how many minutes …"): *before* and
#: *after* are then the two ends of the span asked about, not two sides of a contrast.
_ASKS_DURATION = re.compile(
    r"\bhow (?:long|soon)\b|\bhow much time\b"
    r"|\bhow many (?:seconds|minutes|hours|days|weeks|months|years)\b",
    re.IGNORECASE,
)
_SPAN_ENDS = frozenset({"before", "after"})
#: *before* / *after* followed by a length of time: the end of a span ("switches off *after 45
#: minutes*"), not a time on the other side of an event ("7 days *before surgery*").
_SPAN_END_LENGTH = re.compile(
    r"\b(?:before|after)\s+(?:about\s+|around\s+|roughly\s+|approximately\s+|only\s+|just\s+|"
    r"at\s+least\s+|at\s+most\s+)?(?:\d|an?\s|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|several|a\s+few)",
    re.IGNORECASE,
)


def contrast_problem(question: str, sentence: str, context: str = "") -> str | None:
    """Why a sentence stating the opposite of what the question asks cannot answer it, or
    ``None``.

    "What is an example of a *less* sophisticated defence?" is not answered by "Jawed
    vertebrates have even *more* sophisticated defences", nor "on Tuesday afternoons from 1pm
    to what?" by "on Wednesday afternoons from 2 pm to 6 pm": the question names a word of
    ``chains/contrast_terms.json`` (or a numbered ordinal: the 18th century), the sentence
    has no form of it and states a word that excludes it, which the question does not name.
    An ordinal or a number word must stand before the same word in both ("the second seat" /
    "the first seat"); the word after "how" asks for a measure ("how long", "how high"), not
    one side of it. In a question asking for a span of time, *before* and *after* name its
    two ends when the sentence puts a length of time after its own one: "how long does it
    keep the tea hot *before* it turns off?" is answered by "it switches off *after* 45
    minutes" (not "How long after surgery can I drive?" by "stop 7 days *before* surgery").
    Only questions are checked (:func:`is_question`): a
    claim contradicted by a sentence is answered by that sentence.

    The parts of a year are listed too (*Q1* … *Q4*, *H1* / *H2*); a year, or a number with
    its unit, that the sentence states instead of the one asked about is
    :func:`numbered_problem`'s (wh-questions only).

    Args:
        question: The question text.
        sentence: The sentence that would be quoted (a table row: as stated with its column
            names).
        context: Where the sentence stands (document name, title, section), for
            :func:`numbered_problem`.
    """
    if not is_question(question):
        return None
    lexicon = contrast_lexicon()
    duration = _ASKS_DURATION.search(question) is not None
    q_words = _contrast_words(question)
    s_words = _contrast_words(sentence)
    s_set = set(s_words)
    q_stems, s_stems = {stem(w) for w in q_words}, {stem(w) for w in s_words}
    for i, t in enumerate(q_words):
        if (i and q_words[i - 1] == "how") or t in s_set or stem(t) in s_stems:
            continue
        if t in _SPAN_ENDS and duration and _SPAN_END_LENGTH.search(sentence):
            continue  # "how long … *before* it turns off" / "it switches off *after* 45 minutes"
        numbered = _NUMBERED_ORDINAL.match(t) is not None
        if numbered:
            excluded: frozenset[str] = frozenset(w for w in s_words if _NUMBERED_ORDINAL.match(w))
        else:
            excluded = lexicon.excludes.get(t, frozenset())
        if not excluded:
            continue
        after = q_words[i + 1] if i + 1 < len(q_words) else None
        counted = numbered or t in lexicon.counted
        for j, u in enumerate(s_words):
            if u not in excluded or stem(u) in q_stems:  # the question names it too
                continue
            if counted and (after is None or j + 1 >= len(s_words) or s_words[j + 1] != after):
                continue
            written = {joined: w for _, joined, w in lexicon.compounds}
            return (
                f"the question asks about {written.get(t, t)!r}, and the quoted sentence "
                f"states {written.get(u, u)!r} instead"
            )
    return code_problem(question, sentence) or numbered_problem(question, sentence, context)


#: A question that asks for a date or a time ("when is …", "what day …", "which date …").
_ASKS_WHEN = re.compile(r"\b(?:when|what\s+(?:date|day|time)|which\s+(?:date|day))\b", re.I)
#: A labelled line: its label and the value after the colon ("Next meeting: Tuesday 1
#: December 2026, 10:00").
_LABEL_LINE = re.compile(r"\s*([^\W\d_][^:;\n]{0,40}?)\s*:\s+(\S.*)", re.S)


def restated_date_problem(question: str, sentence: str) -> str | None:
    """Why a labelled line giving the date of the thing a question names on that date cannot
    answer it, or ``None``.

    "What was discussed at the meeting on 1 December?" names the meeting by its day; "Next
    meeting: Tuesday 1 December 2026, 10:00" says when that meeting is — what the question
    already states — and nothing of what it asks. Refused when the question asks no date,
    time or place (*when*, "what day", *where*: the line's time and room answer those),
    names a day (:func:`loaders.metadata.stated_days`) and the
    sentence is a labelled line whose value states that day and whose label names a word of
    the question ("meeting"). A table row whose column is the day ("Tue 1 Dec: Sofia
    10:00-12:00") and a line whose label the question does not name ("What happens on 1
    December?") are not refused.

    Args:
        question: The question text.
        sentence: The sentence that would be quoted (as written).
    """
    if not is_question(question) or _ASKS_WHEN.search(question):
        return None
    if expected_measure(question) in ("place", "time"):
        return None  # "where is the meeting on 1 December?": the line's place answers it
    days = stated_days(question)
    m = _LABEL_LINE.fullmatch(sentence)
    if not days or m is None or not stated_days(m[2]) & days:
        return None
    asked = {stem(w) for w in tokenize(question) if content_word(w)}
    named = [w for w in tokenize(m[1]) if content_word(w) and stem(w) in asked]
    if not named or _says_more_than_when(m[2]):
        return None
    return (
        f"the question names the {named[-1]} by its day, and the quoted sentence only gives "
        "that day"
    )


#: A part of a labelled line's value that only says when or where ("Tuesday 1 December
#: 2026", "10:00", "Seminar Room 2"): a figure, a day or month name, a word for a place.
_WHEN_OR_WHERE = re.compile(
    rf"\d|(?i:\b(?:{'|'.join((*_DAYS, *_MONTHS))})\b)|(?i:\b(?:{_PLACE_WORDS})\b)"
)


def _says_more_than_when(value: str) -> bool:
    """Whether a labelled line's value says more than a date, a time and a place: a part of
    it (between commas, semicolons or dashes) holds none of them ("…, chaired by Sofia
    Reyes")."""
    parts = re.split(r"[,;]|\s[-–]\s", value)
    return any(p.strip() and _WHEN_OR_WHERE.search(p) is None for p in parts)


def code_problem(question: str, sentence: str) -> str | None:
    """Why a sentence about another code of the same series cannot answer, or ``None``.

    "What does error E2 mean?" is not answered by "E1 means the filter cartridge is missing"
    (a passage listing the codes holds both): the question names a code
    (:func:`question_codes`), the sentence names none of the question's codes and names
    another with the same letters (``E1``, ``LB-4``). A sentence naming a range of the
    series that holds the code ("E1 to E5 are sensor faults") is not flagged, nor one naming
    no code ("Check the water supply.").

    Args:
        question: The question text.
        sentence: The sentence that would be quoted.
    """
    asked = question_codes(question, code_series([sentence]))  # F5 beside F4 is a code
    if not asked:
        return None
    stated = codes_in(sentence)
    if stated & set(asked):
        return None
    for key, written in asked.items():
        letters, number = _code_parts(key)
        if number is None:
            continue
        same = sorted(
            (n, k)
            for k in stated
            for lt, n in [_code_parts(k)]
            if lt == letters and n is not None and n != number
        )
        if not same:
            continue
        if same[0][0] < number < same[-1][0]:
            continue  # "E1 to E5": a range (or a list) around the code asked about
        other = next(w for k, w in _written_codes(sentence).items() if k == same[0][1])
        return (
            f"the question asks about {written.upper()!r}, and the quoted sentence states "
            f"{other!r} instead"
        )
    return None


def _code_parts(key: str) -> tuple[str, int | None]:
    """A code key's letters and number (``"lb3"`` -> ``("lb", 3)``; ``"e2b"`` -> ``("e", 2)``)."""
    m = re.match(r"([a-z]+)(\d+)", key)
    return (m[1], int(m[2])) if m else (key, None)


def _written_codes(text: str) -> dict[str, str]:
    """The codes a passage writes, as written, by key (the first spelling of each)."""
    folded = text.translate(_CODE_FOLD)
    out: dict[str, str] = {}
    for m in _PASSAGE_CODE.finditer(folded):
        if not m[2].startswith(" ") or m[1].isupper():
            out.setdefault(_code_key(m[1], m[3]), m[0])
    return out


# ------------------------------------------------------------------------------------------
# focus terms
# ------------------------------------------------------------------------------------------

#: Words a question uses to ask, not to say what it is about (and the labels of a reporting
#: period, "FY 2023", "YTD", "TTM": the question constraints read periods, not the names check).
GENERIC = frozenset(
    _wordlist(
        """
    whose how many much long often who whom what which when where why can could would
    should may might must shall been being there they he she his her them you your we
    our us me my mine myself yours yourself ours these those if here yes please per via
    not no any some other others than then so such into about over after before
    between during under also just only very more most less least one ones name names
    named called call type types kind kinds sort example examples used use uses using
    make makes made get gets got give gives given known term terms word words mean means
    meaning refer refers referred describe described according considered say says said
    many much number amount percentage percent happen happened happens take took taken
    main major important part parts thing things way ways something someone anything
    first second last new old year years time times date day days
    fy cy ytd ttm ltm mtd qtd
        """
    )
)


def content_word(term: str) -> bool:
    """A token that says what a text is about: not a :data:`GENERIC` question word, not one
    letter, no digit (numbers are the number check's)."""
    return term not in GENERIC and len(term) > 1 and not any(c.isdigit() for c in term)


_SUFFIXES = (
    "ations",
    "ation",
    "ings",
    "ing",
    "ness",
    "ments",
    "ment",
    "ies",
    "ied",
    "ed",
    "es",
    "s",
    "ly",
    "al",
    "ic",
    "ian",
    "ity",
    "er",
    "ers",
    "ist",
    "ists",
)


def stem(word: str) -> str:
    """A crude English stem: lower case, ``-ies`` -> ``-y``, one common suffix and then a
    final ``e`` removed (``"founded"`` -> ``"found"``, ``"caches"`` and ``"cache"`` ->
    ``"cach"``, ``"cities"`` -> ``"city"``); words of four letters or fewer are kept."""
    w = word.lower()
    if len(w) <= 4:
        return w
    if w.endswith("ies"):
        return w[:-3] + "y"
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            w = w[: -len(suf)]
            break
    return w[:-1] if w.endswith("e") and len(w) > 4 else w


def held_weight(
    weights: Mapping[str, float], words: Collection[str], stems: Collection[str]
) -> float:
    """The weight of the words of ``weights`` that a text holds, as written (in ``words``)
    or inflected (their :func:`stem` in ``stems``, the stems of ``words``): "reserves" holds
    "reserve". The one reading of word coverage (the answerer's and the second stage's)."""
    return sum(w for t, w in weights.items() if t in words or stem(t) in stems)


@dataclass(frozen=True)
class FocusTerm:
    """A content word of the question that says what it is about.

    Attributes:
        term: Lower-case token (as the BM25 index tokenises).
        weight: Its importance (idf in the index, else a length heuristic).
        entity: Written with a capital inside the question (a name), or in quotes.
        unseen: The index has no passage containing it (only with idf weights).
        acronym: Written in capitals in the question (``SP``, ``ISIL``).
        code: A code of letters and digits (``E2``, ``LB-3``, ``TEA-014``; :func:`codes_in`),
            a name matched only as written: one digit apart is another model or error.
        segments: An acronym's parts as written, lower case, each a capital and the small
            letters after it (``TA`` -> ``("t", "a")``, ``SENCo`` -> ``("s", "e", "n",
            "co")``): what the words that spell it out start with (:func:`spelled_out`).
        documents_name: A name only because the documents write it as one: the question
            typed it in lower case (:func:`written_as_names`); a refusal says so.
    """

    term: str
    weight: float
    entity: bool = False
    unseen: bool = False
    acronym: bool = False
    code: bool = False
    segments: tuple[str, ...] = ()
    documents_name: bool = False


#: A code in a question: one to five capital letters, an optional hyphen, then digits with
#: at most two letters after them ("E2", "LB-3", "TEA-014", "M25", "COVID-19", "A4"). Not
#: read in a question: a code written with a space ("Section 230" and "Windows 10" are a
#: word and a number), codes of several parts ("H1N1", "WH-1000XM4").
_CODE = re.compile(r"(?<![\w-])([A-Za-z]{1,5})(-?)(\d{1,6}[A-Za-z]{0,2})(?![\w-])")
#: A code in a passage, where dashes are folded to "-" first (:func:`codes_in`): joined,
#: hyphenated, or spaced when its letters are capitals ("LB 3", not "lb 3 oz"); beside an
#: underscore or a hyphenated word ("LB-3_specs.pdf", "the LB-3-series").
_PASSAGE_CODE = re.compile(
    r"(?<![A-Za-z0-9])([A-Za-z]{1,5})(-?| +)(\d{1,6}[A-Za-z]{0,2})(?![A-Za-z0-9])"
)
#: Dashes, hyphens and spaces a passage may write inside a code, and subscript digits.
_CODE_FOLD = str.maketrans(
    {**dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212", "-"), "\u00a0": " "}
    | {chr(0x2080 + i): str(i) for i in range(10)}
)
#: Letters that label a period, left to the period rules: Q3, H1, FY2024, CY23.
_PERIOD_LETTERS = frozenset({"q", "h", "fy", "cy", "fq", "qtr"})
#: Chemical element symbols: a joined "code" spelled in them is a formula ("CO2", "CH4",
#: "SO2"), which documents also spell out ("carbon dioxide"): not read as a code.
_ELEMENT_SYMBOLS = (
    "h he li be b c n o f ne na mg al si p s cl ar k ca sc ti v cr mn fe co ni cu zn ga ge as "
    "se br kr rb sr y zr nb mo tc ru rh pd ag cd in sn sb te i xe cs ba la ce pr nd pm sm eu "
    "gd tb dy ho er tm yb lu hf ta w re os ir pt au hg tl pb bi po at rn fr ra ac th pa u np "
    "pu am cm bk cf es fm md no lr rf db sg bh hs mt ds rg cn nh fl mc lv ts og"
)
_ELEMENTS = frozenset(_ELEMENT_SYMBOLS.split())


def _formula(letters: str) -> bool:
    """Whether letters spell a sequence of element symbols ("co": C, O; "ch": C, H)."""
    word = letters.lower()
    ok = [True] + [False] * len(word)
    for i in range(1, len(word) + 1):
        ok[i] = any(ok[i - n] and word[i - n : i] in _ELEMENTS for n in (1, 2) if i >= n)
    return ok[-1]


def _code_key(letters: str, digits: str) -> str:
    """A code's key: lower case, without a plural "s" ("B-52s") or leading zeros ("E02")."""
    if len(digits) > 1 and digits.endswith("s") and digits[-2].isdigit():
        digits = digits[:-1]
    number = re.match(r"\d+", digits)
    if number is not None:
        digits = str(int(number[0])) + digits[number.end() :]
    return f"{letters}{digits}".lower()


#: Codes the documents write, as the numbers written with each series' letters
#: (``{"f": {1, 2, 3, 4}}`` for freezers F1 to F4; :func:`code_series`).
CodeSeries = Mapping[str, frozenset[int]]


def code_series(texts: Iterable[str]) -> dict[str, frozenset[int]]:
    """The series of codes ``texts`` write: each code's letters with the numbers written
    after them (``"Freezers F1 to F4"`` -> ``{"f": {1, 4}}``); read by :func:`question_codes`
    to tell a code from a chemical formula."""
    out: dict[str, set[int]] = {}
    for text in texts:
        for key in _written_codes(text):
            letters, number = _code_parts(key)
            if number is not None:
                out.setdefault(letters, set()).add(number)
    return {k: frozenset(v) for k, v in out.items()}


def _of_series(letters: str, digits: str, series: CodeSeries | None) -> bool:
    """Whether the documents write other codes of these letters (:func:`code_series`): the
    question's ``F5`` is then a code of the series F1 to F4, not fluorine."""
    number = re.match(r"\d+", digits)
    written = (series or {}).get(letters.lower(), frozenset())
    return number is not None and bool(written - {int(number[0])})


def _code_matches(question: str, series: CodeSeries | None = None) -> list[re.Match[str]]:
    """The matches of the codes a question names (see :func:`question_codes`)."""
    excluded = excluded_names(question)
    out = []
    for m in _CODE.finditer(question):
        letters = m[1]
        if not letters.isupper() or letters.lower() in _PERIOD_LETTERS:
            continue
        if letters.lower() in excluded:
            continue
        if not m[2] and _formula(letters) and not _of_series(letters, m[3], series):
            continue
        out.append(m)
    return out


def question_codes(question: str, series: CodeSeries | None = None) -> dict[str, str]:
    """The codes a question names, as written (lower case), by their key (``"lb3"``).

    A code is capital letters then digits, joined or hyphenated ("E2", "LB-3", "TEA-014",
    "M25"). Not codes: a word then a number ("mid-1970s", "pre-2020", and any code written
    in lower case), a period label ("Q3", "H1", "FY2024": the period rules read those), a
    number with a unit ("5kg", "10-K", "3rd": they begin with a digit), a chemical formula
    ("CO2", "CH4": documents spell them out) unless the documents write other codes of its
    letters (``series``, :func:`code_series`: "freezer F5" where they list F1 to F4; "B12"
    where they write "B6"), a code the question excludes ("other than the LB-3",
    :func:`excluded_names`).
    """
    out: dict[str, str] = {}
    for m in _code_matches(question, series):
        out.setdefault(_code_key(m[1], m[3]), m[0].lower())
    return out


def codes_in(text: str) -> set[str]:
    """The keys of the codes a passage writes: joined, hyphenated (any dash) or spaced."""
    return set(_written_codes(text))


#: A full stop that ends an abbreviation or an initial, not a sentence.
_ABBREVIATION_END = re.compile(
    r"(?:^|[\s(\"'“.])(?:[A-Za-z]|dr|mr|mrs|ms|st|mt|jr|sr|inc|corp|co|ltd|plc|vs|no|nos|"
    r"fig|figs|dept|approx|etc|e\.g|i\.e|cf|al)\.$",
    re.IGNORECASE,
)


def _opens_sentence(text: str, pos: int) -> bool:
    """Whether the word at ``pos`` opens a sentence of ``text`` (nothing but opening marks
    before it, or a sentence end ``.?!`` or a line break and white space)."""
    marks = "\"'“‘([ "
    window = text[max(0, pos - 40) : pos]  # a short window: linear over a long question
    before = window.rstrip(marks)
    if not before:
        return pos <= 40 or not text[:pos].strip(marks)
    if before[-1] == "." and _ABBREVIATION_END.search(before):
        return False  # "U.S. Treasury", "Dr. Smith", "vs. Boston"
    return before[-1] in ".?!\n" and len(window) > len(before)


#: A phrase that leaves out what it names: "outside the UK", "other than Apple", "except
#: Sundays". The name after it is the scope the question excludes, not a thing the answer
#: must mention ("We ship to the EU" answers "do you deliver outside the UK?").
_EXCLUDING = re.compile(
    r"\b(?i:outside(?:\s+of)?|other\s+than|except(?:\s+for)?|excluding|apart\s+from|"
    r"aside\s+from|besides)\s+(?:the\s+|a\s+|an\s+)?"
    r"((?:[A-Z][\w'’&.-]*)(?:\s+(?:of\s+|and\s+|the\s+)*[A-Z][\w'’&.-]*)*)"
)


def excluded_names(question: str) -> set[str]:
    """Tokens of the names the question excludes ("outside the *UK*", "other than *Apple
    Inc*"), unless the question also names them elsewhere."""
    inside: set[str] = set()
    spans = []
    for m in _EXCLUDING.finditer(question):
        inside.update(tokenize(m.group(1)))
        spans.append(m.span(1))
    if not inside:
        return set()
    rest = "".join(
        question[a:b]
        for a, b in zip(
            [0, *(e for _, e in spans)], [*(s for s, _ in spans), len(question)], strict=True
        )
    )
    return inside - set(tokenize(rest))


#: A contraction's or possessive's ending on a word ("I've", "what's", "Sam's", "don't").
_CONTRACTION = re.compile(r"(?:n['’]t|['’](?:s|ve|m|ll|d|re))$", re.IGNORECASE)
#: Words in quotes: double quotes, or single ones that open and close outside a word, so
#: the apostrophes of "what's my notice period now I've passed" quote nothing.
_QUOTED = re.compile(r"[\"“]([^\"”]{2,60})[\"”]|(?<![\w'’])['‘]([^'‘’]{2,60}?)['’](?![\w'’])")


#: A word of a text with its letters' case (:func:`written_as_names`); as :func:`tokenize`
#: splits words, so "Carr-Lane" is two.
_CASED_WORD = re.compile(r"\w+", re.UNICODE)
#: Marks that may stand between a sentence's, item's or cell's start and its first word.
_OPENING_MARKS = " \t\"'“‘([*•-–—#>"


def _title_case_line(line: str) -> bool:
    """Whether ``line`` is written in title case or in capitals ("Opening Hours and Events"):
    every word of four letters or more but a stop word opens with a capital, and there are
    two such words at least."""
    long = [
        w
        for w in _CASED_WORD.findall(line)
        if len(w) > 3 and w[:1].isalpha() and w.lower() not in STOPWORDS
    ]
    return len(long) > 1 and all(w[:1].isupper() for w in long)


def written_as_names(question: str, texts: Iterable[str]) -> set[str]:
    """The question's lower-case words that ``texts`` write only as names.

    A user types "a room at northgate library"; the documents write *Northgate* with a
    capital wherever it stands inside a sentence and never in lower case. Such a word is read
    as a name (:attr:`FocusTerm.entity`), as it is when the question capitalises it.

    The evidence is a capitalised word inside a running sentence whose whole run of
    capitalised words the question writes too: "northgate" from "… at Northgate for
    works" or "Northgate Library" (asked as "northgate library"), but not "charge" from
    "the High Income Child Benefit Charge", a name of which the question says one common
    word. A capital opening a sentence, a line, a list item or a table cell says nothing, nor
    does a line in title case or in capitals; one lower-case occurrence ("the north gate")
    makes the word a common one.

    Args:
        question: The question text.
        texts: The texts the question is answered from (its supplied passages with their
            headers).

    Returns:
        The words (as :func:`tokenize` spells them) the question writes in lower case and
        ``texts`` write only with a capital, at least once inside a sentence.
    """
    said = {w for w in _CASED_WORD.findall(question) if w.islower()}
    asked = {w for w in said if len(w) > 2 and w not in _NOT_NAMES and content_word(w)} - STOPWORDS
    if not asked:
        return set()
    capital: set[str] = set()
    lower: set[str] = set()
    for text in texts:
        for line in _without_addresses(text).splitlines():
            if _title_case_line(line):
                continue
            words = list(_CASED_WORD.finditer(line))
            for i, m in enumerate(words):
                word = m.group(0)
                low = word.lower()
                if low not in asked:
                    continue
                if word.islower():
                    lower.add(low)
                elif (
                    word[:1].isupper()
                    and not word.isupper()
                    and _run_inside_sentence(line, words, i, said)
                ):
                    capital.add(low)
    return capital - lower


def _run_inside_sentence(line: str, words: Sequence[re.Match[str]], i: int, said: set[str]) -> bool:
    """Whether the capitalised word ``words[i]`` of ``line`` stands in a run of capitalised
    words (:func:`_in_run`) that the question writes whole (``said``) and that opens no
    sentence, line, list item or table cell."""
    start = i
    while start > 0 and _in_run(line, words[start - 1], words[start]):
        start -= 1
    end = i
    while end + 1 < len(words) and _in_run(line, words[end], words[end + 1]):
        end += 1
    # a name's words joined by a linking word ("Bank of England", "Department for Education")
    if (nxt := _linked_name_word(line, words, end, 1)) is not None:
        end = nxt
    if (prev := _linked_name_word(line, words, start, -1)) is not None:
        start = prev
    named = {
        w.group(0).lower() for w in words[start : end + 1] if w.group(0).lower() not in _NAME_LINKS
    }
    if not named <= said:
        return False
    before = line[: words[start].start()].rstrip(_OPENING_MARKS)
    return bool(before) and before[-1] not in ".?!:;|" and not _ABBREVIATION_END.search(before)


#: Lower-case words that join the capitalised words of one name ("Bank *of* England",
#: "Department *for* Education", "Newcastle *upon* Tyne", "Bank *of the* West").
_NAME_LINKS = frozenset(_wordlist("of for upon the de du des del della di da von van der"))


def _linked_name_word(line: str, words: Sequence[re.Match[str]], i: int, step: int) -> int | None:
    """The index of the capitalised word that one or two linking words (:data:`_NAME_LINKS`)
    join to ``words[i]`` in direction ``step`` (``1``: after it, ``-1``: before it), or
    ``None``: "Bank" is joined to "England" in "the Bank of England base rate", so a question
    saying "bank" alone does not say that name whole."""
    j = i + step
    links = 0
    while 0 <= j < len(words) and links < 3:
        word = words[j].group(0)
        a, b = (words[j - step], words[j]) if step > 0 else (words[j], words[j - step])
        if line[a.end() : b.start()] != " ":
            return None
        if word.islower() and word in _NAME_LINKS:
            links += 1
            j += step
            continue
        if links and word[:1].isupper() and not word.isupper():
            return j
        return None
    return None


#: What marks an e-mail or web address, a path or a file name, written in lower case whatever
#: it names ("northgate.library@example.org", "northgate_closure.eml").
_ADDRESS_MARK = re.compile(r"[@/\\_]|\w\.\w")


def _without_addresses(text: str) -> str:
    """``text`` with each whitespace-separated piece that is an address or a file name
    blanked (:data:`_ADDRESS_MARK`; linear in the text's length)."""
    return re.sub(r"\S+", lambda m: " " if _ADDRESS_MARK.search(m.group(0)) else m.group(0), text)


def _in_run(line: str, a: re.Match[str], b: re.Match[str]) -> bool:
    """Whether words ``a`` and ``b`` (adjacent matches in ``line``) are one run of capitalised
    words: both open with a capital, neither is in capitals (a code or a postcode ends a
    run: "Northgate HV4 3PD"), and only a space or a hyphen stands between them."""
    return all(w.group(0)[:1].isupper() and not w.group(0).isupper() for w in (a, b)) and line[
        a.end() : b.start()
    ] in (" ", "-")


#: A legal form written after a capitalised word ("Greenleaf Trust Ltd.", "Acme, Inc.").
_LEGAL_FORM_AFTER_NAME = re.compile(
    r"(?<=[A-Za-z0-9&)])(,?\s+)([A-Za-z][A-Za-z.]{0,11})(?=[\s,;:?!)]|$)"
)


def without_legal_forms(question: str) -> str:
    """``question`` without the legal forms written after a capitalised name
    (:data:`loaders.metadata.LEGAL_FORMS`: ``Ltd``, ``Ltd.``, ``Inc.``, ``Limited``,
    ``GmbH``): a document names "Greenleaf Trust" without the "Ltd" a question adds, and
    the form is no term the answer must mention."""

    def drop(m: re.Match[str]) -> str:
        word = m.group(2)
        before = question[: m.start()].split()
        # after a capitalised word that does not open the question ("Is AS …" asks about AS)
        named = len(before) >= 2 and before[-1][:1].isupper()
        form = re.sub(r"[^a-z]", "", word.lower())
        written = word[:1].isupper() or form == "plc"
        return "" if named and written and form in LEGAL_FORMS else m.group(0)

    return _LEGAL_FORM_AFTER_NAME.sub(drop, question)


def focus_terms(
    question: str,
    idf: Mapping[str, float] | None = None,
    names: Collection[str] = (),
    series: CodeSeries | None = None,
) -> list[FocusTerm]:
    """The question's focus terms: content words minus wh-words and generic words.

    A name the question excludes (:func:`excluded_names`: "outside the UK") is a term, not a
    name: the answer need not mention it. Numbers are left to the number check. Weights are
    the index's idf when given (a term the index has never seen gets the largest weight: no
    passage can contain it), else ``log(1 + len(term))``. A code of letters and digits
    (:func:`question_codes`: "error code E2", "the LB-3") is a name too
    (:attr:`FocusTerm.code`), after the words; its letters are no term of their own unless
    the question also writes them alone ("LB-3" asks for the code, "LB3" and "LB 3" name it).

    Args:
        question: The question text.
        idf: Inverse document frequency per term (e.g. ``BM25Index.idf``); ``None`` = the
            length heuristic.
        names: Words the question writes in lower case that are names all the same
            (:func:`written_as_names`: "northgate" where the documents write *Northgate*).
        series: The codes the passages write (:func:`code_series`): a code spelled like a
            formula ("F5") is a code when they write others of its letters ("F1" … "F4").

    Returns:
        The words' terms in question order, then the codes', without duplicates.
    """
    question = without_legal_forms(question)  # "Greenleaf Trust Ltd." names Greenleaf Trust
    caps = set()
    acronyms = {m.group(0).lower() for m in re.finditer(r"\b[A-Z]{2,6}s?\b", question)}
    acronyms = {a[:-1] if a.endswith("s") and a[:-1] in acronyms else a for a in acronyms}
    segments = acronym_segments(question)
    acronyms |= set(segments)
    # a capital opening a sentence is grammar, not a name ("… capital? Define it as …")
    openers = {m.start() for m in _WORD.finditer(question) if _opens_sentence(question, m.start())}
    for m in _WORD.finditer(question):
        tok = _CONTRACTION.sub("", m.group(0))  # "I've" is "I", "Sam's" is "Sam"
        if (
            (m.start() not in openers or tok.isupper())
            and tok[:1].isupper()
            and tok.lower() not in _NOT_NAMES
        ):
            caps.update(tokenize(tok))
    for m in _QUOTED.finditer(question):
        caps.update(tokenize(m.group(1) or m.group(2)))
    excluded = excluded_names(question)
    read_as_names = set(names) - caps - excluded  # typed in lower case (written_as_names)
    caps |= read_as_names
    caps -= excluded
    acronyms -= excluded
    terms = [t for t in dict.fromkeys(tokenize(question)) if content_word(t)]
    top = max(idf.values(), default=1.0) if idf else 1.0
    out = []
    for t in terms:
        w = idf.get(t, top) if idf is not None else math.log(1 + len(t))
        out.append(
            FocusTerm(
                t,
                float(w),
                t in caps,
                idf is not None and t not in idf,
                t in acronyms,
                segments=segments.get(t, ()),
                documents_name=t in read_as_names,
            )
        )
    codes = _code_matches(question, series)
    if codes:
        # a code's letters ("lb" of "LB-3") are the code's, unless also written alone
        alone = set(tokenize(_CODE.sub(" ", question)))
        letters = {m[1].lower() for m in codes} - alone
        out = [t for t in out if t.term not in letters]
        for written in dict.fromkeys(m[0].lower() for m in codes):
            w = idf.get(written, top) if idf is not None else math.log(1 + len(written))
            out.append(FocusTerm(written, float(w), True, False, False, True))
    return out


def one_edit_apart(a: str, b: str) -> bool:
    """Whether two words differ by one inserted, deleted or substituted letter."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i + (len(a) == len(b)) :] == b[i + 1 :]


_CAPITALISED_RUN = re.compile(
    r"\b[A-Z][\w'’-]*(?:\s+(?:(?:of|the|and|for|de|du|la|von|van)\s+)*[A-Z][\w'’-]*)*"
)
_SKIP_IN_ACRONYM = frozenset({"of", "the", "and", "for", "de", "du", "la", "von", "van"})


_ACRONYM_WORD = re.compile(r"(?<![\w'’-])[A-Z][A-Za-z]{1,6}(?![\w'’-])")


def acronym_segments(question: str) -> dict[str, tuple[str, ...]]:
    """The acronyms of a question, each with its parts (:attr:`FocusTerm.segments`).

    An acronym is a word of two to six letters after its plural ``s`` with two capitals or
    more, the first of them leading (``TA``, ``PTA``, ``SENCo``, ``PhD``, ``ATMs``).

    Args:
        question: The question as written.

    Returns:
        ``{lower-case acronym: parts}``.
    """
    out: dict[str, tuple[str, ...]] = {}
    for m in _ACRONYM_WORD.finditer(question):
        word = m.group(0)
        if len(word) > 2 and word.endswith("s") and word[-2].isupper():
            word = word[:-1]  # "ATMs"
        if len(word) <= 6 and sum(c.isupper() for c in word) >= 2:
            out[word.lower()] = tuple(p.lower() for p in re.findall(r"[A-Z][a-z]*", word))
    return out


_LETTER_WORD = re.compile(r"[A-Za-z]+")


def spelled_out(segments: Sequence[str], text: str) -> bool:
    """Whether consecutive words of ``text`` spell out an acronym, in any case.

    Each part (:attr:`FocusTerm.segments`) starts one word, in order; *of*, *and*, *the*,
    *for* may stand between them; no spelling word is a stop word. "TA" is spelled out by
    "teaching assistant", "SENCo" by "special educational needs coordinator", "AGM" by
    "Annual General Meeting", "PTA" by "parent teacher association".

    Args:
        segments: The acronym's parts, lower case.
        text: Where to look.
    """
    if len(segments) < 2:
        return False
    words = [w.lower() for w in _LETTER_WORD.findall(text)]
    n = len(segments)
    for i, first in enumerate(words):
        if not first.startswith(segments[0]) or first in STOPWORDS or len(first) < 2:
            continue
        k, j = 1, i + 1
        while k < n and j < len(words):
            w = words[j]
            if w.startswith(segments[k]) and w not in STOPWORDS and len(w) >= 2:
                k += 1
            elif w not in _SKIP_IN_ACRONYM:
                break
            j += 1
        if k == n:
            return True
    return False


def acronyms_in(text: str) -> set[str]:
    """Initials of the runs of capitalised words in ``text`` (``"Warsaw Stock Exchange"`` ->
    ``"wse"``; ``"Islamic State of Iraq and the Levant"`` -> ``"isil"``), lower case, and
    every contiguous part of them of two letters or more."""
    out: set[str] = set()
    for m in _CAPITALISED_RUN.finditer(text.replace("_", " ")):
        words = [w for w in m.group(0).split() if w.lower() not in _SKIP_IN_ACRONYM]
        initials = "".join(w[0].lower() for w in words)
        for i in range(len(initials)):
            for j in range(i + 2, len(initials) + 1):
                out.add(initials[i:j])
    return out


@functools.lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """``word`` (lower case, as :func:`tokenize` gives it) without diacritics ("céloron" ->
    "celoron", "skłodowska" -> "sklodowska"), so a question typed without accents matches
    the passage that has them."""
    out = unicodedata.normalize("NFKD", word.replace("ł", "l").replace("ø", "o"))
    return "".join(c for c in out if not unicodedata.combining(c))


_CAPITAL_WORD = re.compile(r"\b[A-Z][\w'’-]*")
#: Endings that make a place's adjective or people from its name ("Kenya" / "Kenyan",
#: "China" / "Chinese", "Paris" / "Parisian", "West" / "Western").
_NAME_ENDINGS = ("ians", "ian", "ans", "an", "ese", "ish", "ic", "ern", "erners", "erner", "i")


def derived_name(a: str, b: str) -> bool:
    """Whether one name is the other with an ending of :data:`_NAME_ENDINGS` (a final vowel
    of the shorter may drop: "Canada" / "Canadian"); the shorter keeps four letters or
    more."""
    if len(a) > len(b):
        a, b = b, a
    if len(a) < 4 or a == b:
        return a == b
    forms = name_forms()
    if a in forms and b in forms and b not in forms[a]:
        return False  # "Niger" / "Nigerian": each is listed, in different groups
    for base in (a, a[:-1] if a[-1] in "aeiouy" else a):
        if len(base) >= 4 and b.startswith(base) and b[len(base) :] in _NAME_ENDINGS:
            return True
    return False


def misspelt_name(a: str, b: str) -> bool:
    """Whether two names with the same first letter differ by two swapped neighbours (five
    letters or more: "Hamaz" / "Hamza"), one left out or added letter (six or more: "Datnet"
    / "Datanet") or one other letter (seven or more); "Paris" / "Parts", "Wales" / "Walls"
    and "Boston" / "Bolton" do not."""
    if min(len(a), len(b)) < 5 or a[0] != b[0]:
        return False
    if len(a) != len(b):  # a letter left out or added (six letters or more)
        return min(len(a), len(b)) >= 6 and one_edit_apart(a, b)
    if len(a) >= 7 and one_edit_apart(a, b):  # "Boston" / "Bolton" are two towns
        return True
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    if len(diff) != 2:
        return False
    first, second = diff
    return second == first + 1 and a[first] == b[second] and a[second] == b[first]


@functools.cache
def name_forms() -> Mapping[str, frozenset[str]]:
    """Each listed name's other forms (``chains/name_forms.json``): ``"chinese"`` ->
    ``{"china", "prc"}``, ``"dutch"`` -> ``{"netherlands", "holland"}``; folded, lower case."""
    from importlib import resources

    data = json.loads(
        resources.files("chains").joinpath("name_forms.json").read_text(encoding="utf-8")
    )
    out: dict[str, set[str]] = {}
    for group in data["groups"]:
        forms = {fold(w.lower()) for w in group}
        for w in forms:
            out.setdefault(w, set()).update(forms - {w})
    return MappingProxyType({k: frozenset(v) for k, v in out.items()})


@functools.cache
def _places_data() -> tuple[dict[str, list[str]], dict[str, str]]:
    """``chains/places.json``: each place's direct parents, and other full names."""
    from importlib import resources

    data = json.loads(resources.files("chains").joinpath("places.json").read_text(encoding="utf-8"))
    return data["within"], data.get("aliases", {})


@functools.cache
def places_within() -> tuple[Mapping[str, frozenset[str]], Mapping[str, frozenset[str]]]:
    """Every listed place's ancestors and descendants (``chains/places.json``, written by
    ``tools/build_places.py`` from GeoNames): ``"lyon"`` -> ``{"france", "europe", "eu", …}``
    and ``"france"`` -> ``{"lyon", "paris", …}``; folded, lower case, transitive."""
    parents, _ = _places_data()
    up: dict[str, frozenset[str]] = {}

    def ancestors(place: str, seen: frozenset[str] = frozenset()) -> frozenset[str]:
        if place not in up:
            out: set[str] = set()
            for parent in parents.get(place, ()):
                if parent not in seen:
                    out |= {parent} | ancestors(parent, seen | {place})
            up[place] = frozenset(out)
        return up[place]

    down: dict[str, set[str]] = {}
    for place in parents:
        for a in ancestors(place):
            down.setdefault(a, set()).add(place)
    return MappingProxyType(up), MappingProxyType({k: frozenset(v) for k, v in down.items()})


def place_aliases() -> Mapping[str, str]:
    """Other full names of listed places: ``"united states"`` -> ``"usa"``."""
    return MappingProxyType(_places_data()[1])


@functools.cache
def _multiword_places() -> Mapping[str, tuple[tuple[str, ...], ...]]:
    """Listed places and aliases of two or more words, by their first word, longest first."""
    up, down = places_within()
    out: dict[str, list[tuple[str, ...]]] = {}
    for place in set(up) | set(down) | set(place_aliases()):
        words = tuple(place.split())
        if len(words) > 1:
            out.setdefault(words[0], []).append(words)
    return MappingProxyType({k: tuple(sorted(v, key=len, reverse=True)) for k, v in out.items()})


#: A word of a place name: letters of any script, inner hyphens and apostrophes
#: ("Zürich", "Aix-en-Provence", "Stoke-on-Trent").
_PLACE_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


@dataclass(frozen=True)
class _NamedPlace:
    """A place a text spells: its listed name and how it stands."""

    name: str  # as listed (aliases resolved)
    written: str  # as written, folded ("united states")
    capital: bool  # its first word is capitalised
    opens: bool  # its first word opens a sentence
    glued: bool  # a capitalised word follows it ("Mobile Phone", "Bath Spa Hotel")


def _place_mentions(text: str) -> list[_NamedPlace]:
    """Every listed place (or a name form of one) ``text`` spells, capitalised or not."""
    words = list(_PLACE_WORD.finditer(text))
    folded = [fold(m.group(0).lower()) for m in words]
    up, down = places_within()
    aliases, forms, multi = place_aliases(), name_forms(), _multiword_places()
    out: list[_NamedPlace] = []
    i = 0
    while i < len(words):
        found: list[str] = []
        n = 1
        for cand in multi.get(folded[i], ()):
            if tuple(folded[i : i + len(cand)]) == cand:
                found, n = [" ".join(cand)], len(cand)
                break
        if not found:
            found = [folded[i], *sorted(forms.get(folded[i], ()))]
        after = words[i + n] if i + n < len(words) else None
        glued = (
            after is not None
            and after.group(0)[:1].isupper()
            and not text[words[i + n - 1].end() : after.start()].strip()
            and after.group(0).lower() != "city"
        )
        first = words[i]
        for written in found:
            name = aliases.get(written, written)
            if name in up or name in down:
                out.append(
                    _NamedPlace(
                        name,
                        " ".join(folded[i : i + n]),
                        first.group(0)[:1].isupper(),
                        _opens_sentence(text, first.start()),
                        glued,
                    )
                )
                break
        i += n
    return out


@functools.lru_cache(maxsize=512)
def named_places(text: str, openers: bool = False) -> frozenset[str]:
    """The places ``text`` names, by their listed names: a place of many words ("South
    Africa", whose "Africa" is then no continent; "United States" is the USA), a capitalised
    word that is a place or one of its :func:`name_forms` ("German" -> Germany), in any script
    ("Zürich"). A city (a place containing none) must not open a sentence ("Reading the
    manual …" names no town) nor stand before another capitalised word ("Mobile Phone
    Policy", "Bath Spa Hotel", "Jackson Brown"); with ``openers``, a city opening a sentence
    counts (for telling whether a text names another place)."""
    _, down = places_within()
    out = set()
    for m in _place_mentions(text):
        if not m.capital:
            continue
        if m.name not in down and (m.glued or (m.opens and not openers)):
            continue
        out.add(m.name)
    return frozenset(out)


def place_covering(term: str, question: str, text: str, sentence: str | None = None) -> str | None:
    """A place of the quoted ``sentence`` that names the place ``term`` of the question stands
    for, or ``None``: one within it ("the Lyon distributor" is the French one; "our office in
    Glasgow" a Scottish one) or one containing it (a rule "in Europe" answers a question about
    Germany; "the UK" one about Wales). The term is read as the question's place of many words
    when it is one of its words ("Africa" of "South Africa" is South Africa, which Kenya is not
    in); its :func:`name_forms` count ("French" is France). Neighbours are never one another:
    Kenya is not South Africa, Scotland is not England.

    Not read: a place within it when the sentence also names another place off its line
    ("VAT in Germany is 19%, claims go to our Paris office" is not about France); a region
    when the passage (``text``) names another place of that region (a page on Warsaw calling
    it "one of the most liveable cities in Central Europe" is not about Berlin; "£30 in the
    UK, €35 elsewhere in Europe" is left unread for Germany).

    Args:
        term: A focus term of the question (folded, lower case).
        question: The question, for places of many words.
        text: The sentence, its passage and header.
        sentence: The quoted sentence and its header (default ``text``).
    """
    up, down = places_within()
    aliases = place_aliases()
    asked = {m.name for m in _place_mentions(question) if term in m.written.split()}
    if not asked:
        asked = {aliases.get(a, a) for a in {term} | set(name_forms().get(term, ()))}
    asked = {a for a in asked if a in up or a in down}
    if not asked:
        return None
    wider = set().union(*(up.get(a, ()) for a in asked))
    narrower = set().union(*(down.get(a, ()) for a in asked))
    line = asked | wider | narrower  # the asked place, what contains it, what it contains
    said = text if sentence is None else sentence
    named = named_places(said)
    if not named_places(said, openers=True) - line:
        for place in sorted(named & narrower):
            return place
    others = named_places(text, openers=True) - line
    for place in sorted(named & wider):
        if not others & down.get(place, frozenset()):
            return place
    return None


@functools.cache
def term_forms(kind: Literal["statement", "alias"]) -> Mapping[str, tuple[tuple[str, ...], ...]]:
    """Other wordings of a one-word question term, each as its words in order, from the
    package's two word lists (the ones the question constraints read):

    * ``"statement"`` — ``chains/financial_terms.json``: a one-word way of asking
      (``"cogs"``, ``"ppne"``, ``"eps"``) -> the statement line items of two words or more
      that report it ("cost of sales", "property, plant and equipment, net");
    * ``"alias"`` — ``chains/aliases.json``: a company's one-word alias (``"jnj"``,
      ``"google"``) -> the name its documents use ("Johnson & Johnson", "Alphabet").

    Words are as :func:`tokenize` gives them (no stop words), folded; keys of one letter are
    left out.
    """
    out: dict[str, list[tuple[str, ...]]] = {}

    def add(key: str, phrase: str) -> None:
        form = tuple(fold(w) for w in tokenize(phrase))
        forms = out.setdefault(fold(key), [])
        if form and form not in forms:
            forms.append(form)

    if kind == "statement":
        for asked, statement in statement_glossary():
            for ask in asked:
                words = tokenize(ask)
                if len(words) == 1 and len(words[0]) > 1:
                    # a line item of one word ("basic") says too little on its own
                    for item in statement:
                        if len(tokenize(item)) > 1:
                            add(words[0], item)
    else:
        for alias, name in load_aliases().items():
            words = tokenize(alias)
            if len(words) == 1 and len(words[0]) > 1:
                add(words[0], name)
    return MappingProxyType({k: tuple(v) for k, v in out.items()})


def lexically_uncovered(
    terms: Iterable[FocusTerm], text: str, question: str = "", sentence: str | None = None
) -> list[FocusTerm]:
    """Focus terms with no occurrence in ``text``, allowing inflections, typos, acronyms and
    the listed forms of a name.

    Words are compared without diacritics (:func:`fold`: "Celeron" / "Céloron"). A term is
    covered when a token of ``text`` equals it, shares its crude :func:`stem`,
    shares its first six letters (terms of six letters or more: "Normans" / "Normandy"), is
    one letter away from it with the same first letter (terms of seven letters or more, a
    misspelling: "Netonian" / "Newtonian"), for a name (:attr:`FocusTerm.entity`) is another
    form of it (:func:`name_forms`: "Dutch" / "Netherlands") or a capitalised word of
    ``text`` derived from it or misspelling it (:func:`derived_name`: "Chinese" / "China";
    :func:`misspelt_name`: "Hamaz" / "Hamza") or, given the ``question``, a place of ``text``
    within it or one of ``sentence`` containing it (:func:`place_covering`: "Lyon" / "French",
    "Europe" / "Germany"), for a term written in capitals in the
    question (an acronym), spells the initials of capitalised words of ``text`` ("WSE" /
    "Warsaw Stock Exchange"), or has a listed wording there, as a phrase (:func:`term_forms`:
    for an acronym the statement line items, "COGS" / "cost of sales"; for a name the
    company it abbreviates, "JnJ" / "Johnson & Johnson", not "Robert Johnson").

    Args:
        terms: From :func:`focus_terms`.
        text: The sentence, its passage and the passage's header, joined.
        question: The question the terms are of (places of many words); empty: no place is
            read as containing another.
        sentence: The quoted sentence with its header, where a region containing a place of
            the question counts (default ``text``).
    """
    toks = {fold(t) for t in tokenize(text)}
    codes: set[str] | None = None
    stems = {stem(t) for t in toks}
    prefixes = {t[:6] for t in toks if len(t) >= 6}
    long_toks = [t for t in toks if len(t) >= 6]
    initials: set[str] | None = None
    capitalised: set[str] | None = None
    joined: str | None = None
    out = []
    for ft in terms:
        if ft.code:  # as written, hyphens and spaces aside: "E4" does not name "E2"
            codes = codes_in(text) if codes is None else codes
            m = _CODE.fullmatch(ft.term)
            if m is None or _code_key(m[1], m[3]) not in codes:
                out.append(ft)
            continue
        t = fold(ft.term)
        if t in toks or stem(t) in stems or (len(t) >= 6 and t[:6] in prefixes):
            continue
        if len(t) >= 7 and any(u[0] == t[0] and one_edit_apart(t, u) for u in long_toks):
            continue
        if ft.entity:
            if not toks.isdisjoint(name_forms().get(t, ())):
                continue
            if capitalised is None:  # a name's other spellings are names too
                capitalised = {
                    fold(w) for m in _CAPITAL_WORD.finditer(text) for w in tokenize(m[0])
                }
            if any(derived_name(t, u) or misspelt_name(t, u) for u in capitalised):
                continue
            if question and place_covering(t, question, text, sentence) is not None:
                continue
        if ft.acronym and 2 <= len(t) <= 6:
            initials = acronyms_in(text) if initials is None else initials
            if t in initials or spelled_out(ft.segments or tuple(t), text):
                continue
        forms = (term_forms("statement").get(t, ()) if ft.acronym else ()) + (
            term_forms("alias").get(t, ()) if ft.entity else ()
        )
        if forms:
            if joined is None:
                joined = " " + " ".join(fold(w) for w in tokenize(text)) + " "
            if any(f" {' '.join(form)} " in joined for form in forms):
                continue
        out.append(ft)
    return out


def paraphrased(
    term_vector: Sequence[float] | np.ndarray,
    context_vectors: Sequence[Sequence[float]] | np.ndarray,
    threshold: float,
) -> bool:
    """Whether a term has a close paraphrase among context vectors (cosine >= threshold).

    Args:
        term_vector: The term's embedding.
        context_vectors: Embeddings of the context's words (and, if wanted, the sentence).
        threshold: Minimum cosine to count as the same meaning.
    """
    v = np.asarray(term_vector, dtype=np.float32)
    m = np.asarray(context_vectors, dtype=np.float32)
    if m.size == 0:
        return False
    m = m.reshape(-1, v.shape[0])
    v = v / (np.linalg.norm(v) or 1.0)
    norms = np.linalg.norm(m, axis=1)
    norms[norms == 0] = 1.0
    return bool(np.max((m @ v) / norms) >= threshold)


def essential(
    terms: Sequence[FocusTerm],
    missing: Sequence[FocusTerm],
    share: float,
    unseen: bool = True,
) -> list[FocusTerm]:
    """The missing terms a refusal rests on: names, terms no passage of the index contains
    (when ``unseen``), and terms carrying ``share`` or more of the question's focus weight.

    Args:
        terms: All focus terms of the question.
        missing: Those without a counterpart.
        share: Minimum share of the total weight for another term to be essential (above
            ``1`` no other term is).
        unseen: Count terms the index has never seen as essential.
    """
    total = sum(t.weight for t in terms) or 1.0
    return [t for t in missing if t.entity or (unseen and t.unseen) or t.weight / total >= share]


def focus_problem(missing: Sequence[FocusTerm]) -> str | None:
    """The refusal reason for essential focus terms without a counterpart, or ``None``.

    Example: ``"the question asks about 'prompt', which the quoted passage does not mention
    (nor a close paraphrase)"``; for names only (never paraphrased): ``"the question asks
    about 'kenya', which the quoted passage does not mention"``; a name typed in lower case
    says why it is one: ``"the question asks about 'northgate' (a name in the documents),
    which …"``.
    """
    if not missing:
        return None
    words = ", ".join(
        f"'{t.term}'" + (" (a name in the documents)" if t.documents_name else "")
        for t in missing[:4]
    )
    tail = "" if all(t.entity for t in missing) else " (nor a close paraphrase)"
    return f"the question asks about {words}, which the quoted passage does not mention{tail}"


#: Cosine between two single words' embeddings from which one paraphrases the other (a
#: focus term and a passage word; tuned on the SQuAD 2.0 calibration articles,
#: ``benchmarks/refusal_rules.py``): the focus check's threshold, and a degree of 1 in
#: :func:`paraphrase_degrees` (the graded focus rule, the reranker's paraphrase credit).
FOCUS_SIMILARITY = 0.7
#: Cosine at or below which a word is no paraphrase of another at all (a degree of 0).
COVERAGE_FLOOR = 0.35


def paraphrase_degrees(
    term_vectors: Sequence[Sequence[float]] | np.ndarray,
    context_vectors: Sequence[Sequence[float]] | np.ndarray,
    floor: float,
    full: float,
) -> np.ndarray:
    """How closely each term is paraphrased in a context, from 0 to 1.

    The best cosine of a term's embedding with the context's word embeddings, mapped
    linearly from ``floor`` (unrelated words: 0) to ``full`` (a paraphrase: 1) and clipped.

    Args:
        term_vectors: One embedding per term (rows).
        context_vectors: Embeddings of the context's words (rows).
        floor: Cosine at or below which a word does not paraphrase the term at all.
        full: Cosine at or above which it fully does (the binary rule's threshold).

    Raises:
        ValueError: ``floor`` is not below ``full``.
    """
    if not floor < full:
        raise ValueError(f"floor ({floor}) must be below full ({full})")
    t = np.asarray(term_vectors, dtype=np.float32)
    m = np.asarray(context_vectors, dtype=np.float32)
    if t.size == 0:
        return np.zeros(0, dtype=np.float32)
    t = t.reshape(t.shape[0], -1)
    if m.size == 0:
        return np.zeros(t.shape[0], dtype=np.float32)
    m = m.reshape(-1, t.shape[1])
    tn = np.linalg.norm(t, axis=1, keepdims=True)
    mn = np.linalg.norm(m, axis=1, keepdims=True)
    tn[tn == 0] = 1.0
    mn[mn == 0] = 1.0
    return paraphrase_credit(((t / tn) @ (m / mn).T).max(axis=1), floor, full)


def paraphrase_credit(
    cosines: np.ndarray, floor: float = COVERAGE_FLOOR, full: float = FOCUS_SIMILARITY
) -> np.ndarray:
    """How far one word says another, from the cosine of their embeddings: 0 at or below
    ``floor``, 1 from ``full``, linear between (elementwise; the second stage's paraphrase
    credit, and :func:`paraphrase_degrees`' grading)."""
    return np.clip((cosines - floor) / (full - floor), 0.0, 1.0)


def focus_coverage(terms: Sequence[FocusTerm], degrees: Mapping[str, float]) -> float:
    """The share of a question's focus weight that a text covers, from 0 to 1.

    ``sum(weight * degree) / sum(weight)`` over the focus terms, where a term's degree is 1
    when the text contains it (:func:`lexically_uncovered` finds it) and otherwise how
    closely a word of the text paraphrases it (:func:`paraphrase_degrees`). A graded
    version of :func:`focus_problem`'s yes/no: one missing light word costs little, a missing
    heavy term (the attribute or thing the question is about) costs its share. A question
    without focus terms is fully covered.

    Args:
        terms: From :func:`focus_terms`.
        degrees: Degree per term (``FocusTerm.term``) of the terms the text lacks
            lexically; terms not in it count as covered.
    """
    total = sum(t.weight for t in terms)
    if total <= 0:
        return 1.0
    return sum(t.weight * float(degrees.get(t.term, 1.0)) for t in terms) / total


def coverage_problem(coverage: float, threshold: float, missing: Sequence[str]) -> str | None:
    """The refusal reason when the quoted sentence covers too little of the question.

    Example: ``"the quoted sentence and its document cover 42 % of what the question asks
    about (below 60 %); not covered: 'prompt'"``.

    Args:
        coverage: The combined coverage (:func:`focus_coverage` of sentence and document).
        threshold: The minimum to quote.
        missing: The focus terms least covered, heaviest first (named in the reason).
    """
    if coverage >= threshold:
        return None
    words = ", ".join(f"'{t}'" for t in missing[:4])
    return (
        f"the quoted sentence and its document cover {coverage:.0%} of what the question asks "
        f"about (below {threshold:.0%})" + (f"; not covered: {words}" if words else "")
    )


# ------------------------------------------------------------------------------------------
# the asked thing: compounds kept together, a record's attribute stated for another
# ------------------------------------------------------------------------------------------

#: A word as the compound rules read it: letters, inner apostrophes and hyphens split off.
_COMPOUND_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
#: What may stand between the two words of a compound: a space or a hyphen, nothing else.
_COMPOUND_GAP = re.compile(r"[ \t]*-?[ \t]*")


def _plain_words(text: str) -> list[tuple[str, int, int]]:
    """The words of ``text`` as ``(lower-case word, start, end)``."""
    return [(m[0].lower(), m.start(), m.end()) for m in _COMPOUND_WORD.finditer(text)]


def _compound_member(word: str) -> bool:
    """A word that can be part of a compound the question asks about: a content word of
    three letters or more that is no stop word or :data:`GENERIC` question word."""
    return len(word) >= 3 and word not in STOPWORDS and content_word(word)


def compounds(text: str) -> list[tuple[str, str]]:
    """The compounds of two lower-case content words that ``text`` writes side by side
    ("gift cards", "season ticket", "car-park"), in order, as ``(modifier, head)``.

    Only a space or a hyphen may stand between them (a comma, an article or a stop word
    ends the compound: "book a room" is none), and neither word may be written with a
    capital (names are the names rule's: "Market Square" is a name, not a compound) but for
    the first word of a sentence or line ("Gift wrapping costs …").
    """
    words = _plain_words(text)
    out: list[tuple[str, str]] = []
    for (a, s0, e0), (b, s1, _) in itertools.pairwise(words):
        if not (_compound_member(a) and _compound_member(b)):
            continue
        if not _COMPOUND_GAP.fullmatch(text[e0:s1]):
            continue
        opens = _opens_sentence(text, s0) or text[:s0].rstrip(" \t\"'“‘([*•#>-").endswith("\n")
        if (text[s0].isupper() and not opens) or text[s1].isupper():
            continue
        out.append((a, b))
    return list(dict.fromkeys(out))


#: What may follow a compound that ends a noun phrase: the question's end, a clause mark,
#: or a preposition ("a season ticket *for* Market Square"); not an object's determiner
#: ("how many sheep graze *the* site": *graze* is a verb, "sheep graze" no compound).
_NOUN_PHRASE_END = re.compile(
    r"\s*(?:$|[?.!,;:)]|(?:for|of|at|in|on|to|from|with|about|per|by|near|during|after|"
    r"before|than|or|and)\b)",
    re.I,
)


def asked_compounds(question: str) -> list[tuple[str, str]]:
    """The compounds of a question (:func:`compounds`) that end a noun phrase: followed by
    the question's end, a clause mark or a preposition ("Do you sell *gift cards*?", "a
    *season ticket* for Market Square"), not by a word opening an object ("How many *sheep
    graze* the site?")."""
    words = _plain_words(question)
    ends = {(a, b): e for (a, _, _), (b, _, e) in itertools.pairwise(words)}
    out = []
    for mod, head in compounds(question):
        end = ends.get((mod, head))
        if end is not None and _NOUN_PHRASE_END.match(question, end):
            out.append((mod, head))
    return out


def _same_stem(a: str, b: str) -> bool:
    """Whether two lower-case words are one word inflected (:func:`stem`)."""
    return a == b or stem(a) == stem(b)


def compound_problem(question: str, sentence: str, context: str = "") -> str | None:
    """Why a sentence that holds the two words of a compound of the question only apart,
    each with another word, does not answer it, or ``None``.

    "Do you sell gift cards?" is not answered by "Gift wrapping costs £3.50 per item and
    includes a handwritten card.": the question's compound (*gift cards*, :func:`compounds`)
    is a thing of its own, and the sentence holds its words only in other things (*gift
    wrapping*, *handwritten card*). Refused only on that positive evidence: the sentence
    writes the compound's modifier before another word and its head after another word
    (two compounds of its own), and neither the sentence nor its ``context`` (its passage
    and header) writes the compound itself, joined ("giftcard") or apart by a space or
    hyphen, nor writes the head within three words after the modifier ("gift wrapping
    service costs" holds "wrapping cost"). A sentence with one word of it alone, or neither,
    is left to the other rules (it
    may paraphrase: "vouchers" for "gift cards"; "open" in "the library is open" is no
    compound).

    Args:
        question: The question.
        sentence: The quoted sentence (a table row as stated with its column names).
        context: Text around it that may write the compound (passage, header).
    """
    if not is_question(question):
        return None
    around = _plain_words(f"{sentence}\n{context}")
    words = [w for w, _, _ in _plain_words(sentence)]
    written = compounds(f"{sentence}\n{context}")
    said = compounds(sentence)
    for mod, head in asked_compounds(question):
        if any(_same_stem(w, mod + head) for w, _, _ in around):
            continue  # written joined: "giftcard", "carpark"
        if any(_same_stem(a, mod) and _same_stem(b, head) for a, b in written):
            continue
        if any(
            _same_stem(w, mod) and any(_same_stem(x, head) for x in words[i + 1 : i + 4])
            for i, w in enumerate(words)
        ):
            continue  # a word or two between: "gift wrapping *service costs*" holds them
        other_head = [b for a, b in said if _same_stem(a, mod) and not _same_stem(b, head)]
        other_mod = [f"{a} {b}" for a, b in said if _same_stem(b, head) and not _same_stem(a, mod)]
        if other_head and other_mod:
            return (
                f"the question asks about '{mod} {head}', and the quoted sentence speaks of "
                f"'{mod} {other_head[0]}' and '{other_mod[0]}' instead"
            )
    return None


#: A row stated with its label first: "Market Square — Spaces: 38; ...".
_LABEL_FIRST = re.compile(r"^\s*([^:;—–]+?)\s+[—–]\s+")
#: A row stated as column name and value pairs, its label the first value: "Site: Ridgeway; ...".
_FIRST_VALUE = re.compile(r"^\s*[^:;]{1,80}?:\s*([^;]+?)\s*(?:;|$)")


def row_label(stated: str) -> str:
    """The label of a table row as stated with its column names (its subject, the first
    cell): "Market Square" of "Market Square — Spaces: 38; Up to 1 hr: £1.20", "Ridgeway" of
    "Site: Ridgeway; Full plots: 24"; ``""`` when neither form is read."""
    m = _LABEL_FIRST.match(stated) or _FIRST_VALUE.match(stated)
    return m[1].strip() if m else ""


#: An aside in brackets: "(long stay)" of "Riverside (long stay)".
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def _holds_all(words: str, text: str) -> bool:
    """Whether ``text`` holds every content word of ``words`` outside brackets (inflections
    allowed: "Riverside" names "Riverside (long stay)"), and ``words`` has at least one."""
    terms = [FocusTerm(t, 1.0) for t in tokenize(_BRACKETED.sub(" ", words)) if content_word(t)]
    return bool(terms) and not lexically_uncovered(terms, text)


def other_record_problem(
    missing: Sequence[str], label: str, other_labels: Iterable[str], texts: Iterable[str]
) -> str | None:
    """Why a table row that lacks an asked word the documents state for another row's
    subject does not answer, or ``None``.

    A table row is a record about its label (:func:`row_label`): "How much is a season
    ticket for Market Square car park?" is not answered by the Market Square tariff row
    (spaces, hourly charges: no season ticket) when the passages say "Season tickets for
    Riverside cost £310 a year" and Riverside is another row of that table: the asked thing
    is stated, but for another record. Refused only on that evidence: a word the question
    asks about (``missing``: not in the row, its title or column names, nor paraphrased
    there) is in one of ``texts`` (the supplied passages' sentences outside table rows) that
    names another row's label and not this row's, and in none that names no other row (a
    row summing the others, "Total", "All sites", is no record). A word stated with no other
    record anywhere ("for up to 3 hours in any car park", "Parking is free on Sundays"), or
    never stated, is left to the other rules (the row's column may abbreviate or paraphrase
    it: *hr* for "hour", *SKU* for "product code").

    Args:
        missing: The question's content words the row lacks.
        label: The quoted row's label.
        other_labels: The labels of the other rows of its table.
        texts: Sentences of the supplied passages outside table rows.
    """
    others = [
        o
        for o in dict.fromkeys(other_labels)
        if o and not _holds_all(o, label) and not _TOTAL_LABEL.match(o)
    ]
    if not missing or not others:
        return None
    asked = [FocusTerm(w, 1.0) for w in missing]
    texts = list(texts)
    general: set[str] = set()  # asked words some text states of no other row
    found: list[tuple[str, str]] = []  # (word, the other row it is stated for)
    for text in texts:
        held = [t.term for t in asked if t not in lexically_uncovered(asked, text)]
        if not held or (label and _holds_all(label, text)):
            continue
        named = [o for o in others if _holds_all(o, text)]
        if named:
            found += [(w, named[0]) for w in held]
        else:
            general.update(held)
    for word, other in found:
        if word not in general:  # "Parking is free on Sundays": parking is no record's own
            return (
                f"the question asks about '{word}', which the quoted row ({label or 'a row'})"
                f" does not state; the documents state it for {other}"
            )
    return None


def row_qualifier_problem(
    question: str, missing: Sequence[FocusTerm], label: str, other_labels: Iterable[str]
) -> str | None:
    """Why a table row that matches a question but for a word qualifying what it asks
    about does not answer, or ``None``.

    A table row is a record about its label (:func:`row_label`); a question word the row
    lacks (``missing``: not in the row, its title or column names, nor paraphrased there)
    may be the very thing asked, which the row's match on the other words hides. Refused
    when the word is another row's label of the same table, which the question writes
    whole: "What is the *plumber's* Gas Safe number?" is not answered by the gas engineer's
    row when the table has a row "Plumber" (the question is about that record).

    Two wider kinds of evidence were measured and left out: a word qualifying a noun the
    row's label holds with another qualifier ("*pet* deposit" / "Holding deposit"), and a
    word no indexed passage contains after the question's first preposition ("the rent for
    41 Station Road's *garage*"). On the mixed-formats corpus they refused 10 of 72 right
    answers, each for a paraphrase the row states in other words ("a *kilo*" / "Price per
    kg", "the *latest* cut-off", "the *typical* order", "Cape Rooibos" / "the rooibos
    supplier's e-mail address").

    Args:
        question: The question.
        missing: The question's focus terms (no names, no codes) the row lacks.
        label: The quoted row's label.
        other_labels: The labels of the other rows of its table.
    """
    # the degree a "how" question asks for is the answer, no qualifier ("how *big* is …")
    said = re.findall(r"\w+", question.lower())
    degree = {b for a, b in itertools.pairwise(said) if a == "how"}
    missing = [t for t in missing if t.term not in degree]
    if not missing or not label:
        return None
    others = [
        o
        for o in dict.fromkeys(other_labels)
        if o and not _holds_all(o, label) and not _TOTAL_LABEL.match(o)
    ]
    for t in missing:
        for other in others:
            words = [w for w in tokenize(_BRACKETED.sub(" ", other)) if content_word(w)]
            if any(_same_stem(w, t.term) for w in words) and _holds_all(other, question):
                return (
                    f"the question asks about '{t.term}', which the quoted row ({label}) does "
                    f"not state; the table has a row for {other}"
                )
    return None


#: A row that sums the others ("Total", "Subtotal", "Grand total", "All sites"): no record.
_TOTAL_LABEL = re.compile(r"\s*(?:grand\s+|sub-?\s*)?totals?\b|\s*all\b|\s*overall\b", re.I)

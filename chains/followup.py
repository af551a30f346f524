"""Follow-up questions: turn "And the year before?" into a question that stands alone.

Pure functions (no model call, no I/O) used by the graph's ``condense`` node:

* :func:`condense_rule` — the offline rule. Given the previous turns' standalone questions it
  carries what a follow-up lacks and never invents anything:

  - **relative periods** ("the year before", "the previous quarter", "last year", "that
    year", "a year later", "the same quarter last year") are resolved against the period of
    the most recent earlier turn that names one (``FY2025`` → ``FY2024``, ``2023Q2`` →
    ``2023Q1``); with no earlier period (or a range, or a date) the phrase is left alone;
  - a **fragment** after a cue ("And in 2024?", "What about Adobe?", "How about the
    operating costs?", "Same for FY2021?") is substituted into the previous standalone
    question: its periods replace the previous periods, its names replace the previous
    names, its noun phrase replaces the previous subject noun phrase;
  - **days and times of day** (:mod:`chains.dayparts`) are a typed slot, like periods: a
    fragment's day ("And at weekends?", "On Sundays?") or time of day ("And after 6pm?")
    replaces the previous question's day or time phrase in that phrase's form ("the weekday
    rate" -> "the Sunday rate", "on a weekday" -> "at weekends"), or is appended when it
    has none; it never replaces a name or the subject;
  - **payment and size qualifiers** (:mod:`chains.qualifiers`: "privately", "on the NHS",
    "small", "XL") are typed slots too: a fragment's qualifier ("And on the NHS?", "And the
    medium ones?") replaces the previous question's qualifier of its kind in that
    qualifier's form ("a crown privately" -> "a crown on the NHS", "the private fee" -> "the
    NHS fee"), or is added when it has none;
  - **anaphora** in a full question (:func:`resolve_anaphora`) — one-anaphora ("the small
    ones", "which ones") and a pronoun ("those", "them", "it") in a question with a subject
    of its own — get the previous question's noun phrase (:func:`antecedent`) in their
    place: "How many boxes of the small ones are left?" after "Who supplies our nitrile
    gloves?" -> "How many boxes of the small nitrile gloves are left?"; a pronoun an earlier
    name may stand for is left to the next point;
  - a **full question that refers back** (a cue such as "And ...", a pronoun such as "it",
    "its", "they", "this", or "the company") gets the missing context appended in
    parentheses: the previous turn's names when it names none, the previous subject noun
    phrase when it has none of its own, and the previous period when it names none —
    ``"How do I clear it (inverter fault code E-217)?"`` (a cue before the question is
    dropped);
  - anything else (a first question, or a new question that does not refer back) is
    returned unchanged.

* :func:`check_rewrite` — whether a rewrite (the rule's, or a chat model's) keeps every named
  entity (capitalised tokens and codes; companies the :class:`~chains.constraints.Gazetteer`
  knows), number (:func:`chains.answerers.numbers_in`), period
  (:func:`chains.constraints.parse_periods`), day and time of day
  (:mod:`chains.dayparts`) of the question it rewrites.
* :func:`condense_with_model` — asks a chat model with the versioned prompt
  ``chains/prompts/condense_v1.md`` and accepts its rewrite only when :func:`check_rewrite`
  passes; otherwise the original question is used.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from chains.answerers import numbers_in
from chains.constraints import (
    Constraint,
    Gazetteer,
    months_span,
    parse_constraints,
    parse_periods,
)
from chains.dayparts import (
    SlotPhrase,
    as_adverbial,
    as_modifier,
    days_covered,
    render,
    slot_phrases,
    times_named,
)
from chains.models import describe_model_error
from chains.prompts import load_prompt
from chains.qualifiers import Qualifier, qualifiers_in, render_qualifier
from chains.watchdog import WatchedModel, watched

log = logging.getLogger(__name__)

#: The versioned prompt the model path renders.
CONDENSE_PROMPT = "condense_v1.md"
#: Earlier turns shown to the rewrite model (most recent last).
MODEL_HISTORY_TURNS = 6
#: Characters of each earlier answer shown to the rewrite model.
MODEL_ANSWER_CHARS = 400
#: A model rewrite longer than this many times the original (plus 200 characters) is refused.
MAX_REWRITE_GROWTH = 4

Method = Literal[
    "first_turn", "off", "unchanged", "rule", "model", "model_unchanged", "model_rejected"
]


@dataclass(frozen=True)
class Turn:
    """One earlier turn of the conversation.

    Attributes:
        question: What the user asked, as written.
        standalone: The standalone question that turn was answered with (``None``: unknown,
            e.g. a client-supplied history; it is recomputed with the rule).
        answer: The answer text, if known (shown to a rewrite model only).
    """

    question: str
    standalone: str | None = None
    answer: str | None = None


@dataclass(frozen=True)
class Condensed:
    """What the ``condense`` node did with one question.

    Attributes:
        original: The question as the user wrote it.
        standalone: The question retrieval, constraints and the answerer use.
        method: ``first_turn`` (no history), ``off`` (the ``condense`` knob is off),
            ``unchanged`` (the rule found nothing to
            carry), ``rule`` (the offline rule rewrote it), ``model`` (a chat model rewrote
            it), ``model_unchanged`` (the model returned it as it was) or ``model_rejected``
            (the model's rewrite dropped something, see ``rejected``; the original is used).
        history_turns: Earlier turns considered.
        carried: What the rule carried: ``names``, ``periods`` (resolved labels),
            ``subject``, ``relative`` (phrase → label), ``form`` (``fragment`` or
            ``context``).
        model_output: The rewrite model's raw output (model path only).
        rejected: Why the model's rewrite was refused ('' otherwise).
    """

    original: str
    standalone: str
    method: Method
    history_turns: int = 0
    carried: dict[str, Any] = field(default_factory=dict)
    model_output: str | None = None
    rejected: str = ""

    @property
    def rewritten(self) -> bool:
        """Whether the standalone question differs from the original."""
        return self.standalone != self.original

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly record (the trace's ``condense`` section)."""
        return {
            "original": self.original,
            "standalone": self.standalone,
            "method": self.method,
            "rewritten": self.rewritten,
            "history_turns": self.history_turns,
            "carried": dict(self.carried),
            "model_output": self.model_output,
            "rejected": self.rejected,
        }


# ---------------------------------------------------------------------------------------------
# tokens, names and subjects

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'’.\-]*[A-Za-z0-9]|[A-Za-z0-9]")
_POSSESSIVE = re.compile(r"['’]s?$")
_PERIOD_TOKEN = re.compile(r"^(?:(?:FY|CY)\s*'?\d{2,4}|Q[1-4]|H[12]|FY|CY|\d{4}Q[1-4])$", re.I)
_WH = {"what", "which", "who", "whom", "whose", "how", "when", "where", "why"}
_AUX = {
    "is", "was", "are", "were", "does", "did", "do", "has", "have", "had", "will", "would",
    "can", "could", "should", "must", "may", "might", "shall", "be", "been",
}  # fmt: skip
_DO = {"do", "does", "did"}
_HOW_WORDS = {"much", "many", "often", "long", "old", "big", "large", "far", "soon", "frequently"}
_DETERMINERS = {"the", "a", "an", "its", "their", "his", "her", "our", "my", "your", "this",
                "that", "these", "those", "any", "each", "every", "all"}  # fmt: skip
_PRONOUNS = {"i", "it", "they", "we", "you", "he", "she", "this", "that", "these", "those",
             "them", "there", "one", "someone", "anyone"}  # fmt: skip
_PREPOSITIONS = {
    "in", "for", "during", "at", "on", "by", "from", "to", "as", "with", "under", "over",
    "between", "compared", "versus", "vs", "than", "after", "before", "since", "until",
    "into", "per", "about", "within", "across", "if", "when", "and", "or",
}  # fmt: skip
_VERBS = {
    "mean", "means", "cost", "costs", "get", "gets", "give", "pay", "pays", "require",
    "requires", "need", "needs", "happen", "happens", "work", "works", "report", "reported",
    "change", "changed", "increase", "increased", "decrease", "decreased", "grow", "grew",
    "say", "says", "said", "do", "make", "made", "take", "took", "handle", "use", "used",
    "show", "shows", "include", "includes", "cover", "covers", "cleaned", "replaced", "held",
    "set", "approved", "elected", "founded", "located", "owned", "run", "spend", "spent",
    "earn", "earned", "generate", "generated", "produce", "produced", "apply", "applies",
}  # fmt: skip
#: Capitalised words that are question vocabulary, not names.
_NOT_NAMES = {
    "what", "which", "who", "whom", "whose", "how", "when", "where", "why", "and", "but", "so",
    "also", "ok", "okay", "then", "now", "thanks", "great", "same", "please", "tell", "give",
    "list", "show", "explain", "describe", "compare", "is", "are", "was", "were", "did", "does",
    "do", "can", "could", "would", "should", "will", "has", "have", "had", "the", "a", "an",
    "in", "for", "of", "on", "at", "by", "to", "i", "it", "its", "they", "their", "this",
    "that", "these", "those", "if", "there", "any", "again", "right", "sure", "yes", "no",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
    "friday", "saturday", "sunday", "mondays", "tuesdays", "wednesdays", "thursdays",
    "fridays", "saturdays", "sundays", "weekday", "weekdays", "weekend", "weekends",
}  # fmt: skip
_NAME_JOINERS = {"of", "&", "and", "de", "du", "la", "von", "van"}
#: Words that are never a name, however capitalised (prepositions, pronouns, determiners,
#: auxiliaries): a question that starts with one is not about someone called "From".
_FUNCTION_WORDS = _PREPOSITIONS | _PRONOUNS | _DETERMINERS | _AUX
#: Words a bare follow-up asks with ("In what year?", "Where?", "How many?"): a follow-up of
#: nothing else asks the previous question again about another aspect.
_ASPECT_WORDS = {
    "year", "years", "date", "day", "month", "time", "decade", "century", "period", "place",
    "country", "city", "location", "number", "amount", "percentage", "percent", "share",
    "reason", "way", "means", "cause", "purpose", "size", "age", "name", "who", "else",
}  # fmt: skip


@dataclass(frozen=True)
class _Tok:
    text: str
    word: str  # possessive stripped
    start: int
    end: int
    possessive: bool


def _tokens(text: str) -> list[_Tok]:
    out = []
    for m in _WORD.finditer(text):
        raw = m.group(0)
        tail = re.search(r"['’]s$|['’]$", raw)
        word = raw[: tail.start()] if tail else raw
        out.append(_Tok(raw, word, m.start(), m.start() + len(word), tail is not None))
    return out


def _is_name_word(tok: _Tok) -> bool:
    w = tok.word
    if not w or w.lower() in _NOT_NAMES or _PERIOD_TOKEN.match(w):
        return False
    if w.lower() in _FUNCTION_WORDS and not any(ch.isdigit() for ch in w):
        return False  # "From which language ...": capitalised because it starts the question
    if w[0].isupper():
        return True
    # codes such as 3M, E-217, SG-4410X: a digit and an upper-case letter
    return any(ch.isdigit() for ch in w) and any(ch.isupper() for ch in w)


#: A number that can be part of a name: a house number before it ("7 Orchard Close", "12b
#: Mill Lane") or a unit number after it ("Apartment 14", "Section 4").
_NAME_NUMBER = re.compile(r"\d{1,4}[a-z]?")
#: Words after a number that make it a quantity, not part of a name ("Adobe 3 million").
_MAGNITUDES = {"hundred", "thousand", "million", "billion", "trillion", "m", "bn", "k",
               "percent", "per", "pence", "pounds", "dollars"}  # fmt: skip


def _counts_next(toks: Sequence[_Tok], k: int, text: str) -> bool:
    """Whether the word at ``toks[k]`` (after a number and maybe a name) is what the number
    counts or measures: a lower-case plural noun ("3 Northwind sites", "Adobe 3 years") or a
    magnitude ("Adobe 3 million")."""
    if k >= len(toks) or text[toks[k - 1].end : toks[k].start].strip():
        return False
    word = toks[k].word
    if word.lower() in _MAGNITUDES:
        return True
    return (
        word.islower()
        and bool(_PLURAL.fullmatch(word))
        and word not in _NOT_PLURAL
        and word not in _FUNCTION_WORDS
    )


def _name_number(toks: Sequence[_Tok], k: int, text: str, periods: Sequence[Constraint]) -> bool:
    """Whether ``toks[k]`` is a number a name can hold: digits (and a letter), written
    alone (no currency sign, decimal or percent next to it), not a period."""
    if k < 0 or k >= len(toks) or not _NAME_NUMBER.fullmatch(toks[k].text):
        return False
    if any(p.span[0] <= toks[k].start < p.span[1] for p in periods):
        return False
    before = text[toks[k - 1].end if k else 0 : toks[k].start]
    after = text[toks[k].end : toks[k + 1].start if k + 1 < len(toks) else len(text)]
    measured = after.lstrip().startswith("%") or re.match(r"\s*[£$€¥.,:/]\s*\d", after)
    return before.strip() in ("", ",") and not measured


def _name_runs(text: str, toks: Sequence[_Tok]) -> list[tuple[int, int]]:
    """Runs of capitalised words and codes, as (first, last) token indices."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(toks):
        if not _is_name_word(toks[i]):
            i += 1
            continue
        j = i
        while j + 1 < len(toks):
            nxt = toks[j + 1]
            gap = text[toks[j].end : nxt.start]
            if toks[j].possessive or gap.strip() not in ("", "-"):
                break
            if _is_name_word(nxt):
                j += 1
                continue
            if (
                nxt.word.lower() in _NAME_JOINERS
                and j + 2 < len(toks)
                and _is_name_word(toks[j + 2])
                and not nxt.possessive
            ):
                j += 2
                continue
            break
        runs.append((i, j))
        i = j + 1
    return runs


def _with_numbers(
    text: str, toks: Sequence[_Tok], runs: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Name runs with the numbers that belong to them, and an address's parts joined.

    A number right before a run is its house number ("7 Orchard Close") and one right
    after it its unit number ("Apartment 14"), unless the word after them is what the
    number counts (:func:`_counts_next`) or the number itself counts the name (after a
    determiner, or before one plural word: "the 12 Trustees", "3 Directors"); a number
    that is a period is never taken. A run
    that holds such a number and is followed by a comma and another run is one address
    with it ("Apartment 14, Harbour View"; "22 Chapel Row, Leeds").
    """
    periods = _period_spans(text)
    spans: list[tuple[int, int]] = []
    for i, j in runs:
        if (
            not toks[j].possessive
            and j + 1 < len(toks)
            and not text[toks[j].end : toks[j + 1].start].strip()
            and _name_number(toks, j + 1, text, periods)
            and not _counts_next(toks, j + 2, text)
        ):
            j += 1
        if (
            i > 0
            and (not spans or spans[-1][1] < i - 1)
            and not text[toks[i - 1].end : toks[i].start].strip()
            and _name_number(toks, i - 1, text, periods)
            and not _counts_next(toks, j + 1, text)
            and not (i > 1 and toks[i - 2].word.lower() in _DETERMINERS)
            and not (i == j and _PLURAL.fullmatch(toks[j].word.lower()))
        ):
            i -= 1  # not a count: "the 12 Trustees", "3 Directors"
        spans.append((i, j))
    joined: list[tuple[int, int]] = []
    for i, j in spans:
        if joined:
            pi, pj = joined[-1]
            numbered = any(_NAME_NUMBER.fullmatch(toks[k].text) for k in range(pi, pj + 1))
            if (
                numbered
                and i == pj + 1
                and not toks[pj].possessive
                and text[toks[pj].end : toks[i].start].strip() == ","
            ):
                joined[-1] = (pi, j)
                continue
        joined.append((i, j))
    return joined


NameKind = Literal["numbered", "code", "plain"]


def _name_kind(name: str) -> NameKind:
    """The kind of a name, from its shape: ``numbered`` when it holds a house or unit number
    (an address, "Apartment 14"), ``code`` for one word with a digit ("E-217", "3M"), else
    ``plain``."""
    words = name.replace(",", " ").split()
    if len(words) > 1 and any(_NAME_NUMBER.fullmatch(w) for w in words):
        return "numbered"
    if len(words) == 1 and any(ch.isdigit() for ch in name):
        return "code"
    return "plain"


def names_in(text: str, gazetteer: Gazetteer | None = None) -> list[str]:
    """Named entities of a text: runs of capitalised words and codes, plus known companies.

    ``"What was Northwind's revenue at Fennick Farm in FY2024?"`` ->
    ``["Northwind", "Fennick Farm"]``. Question words, months and period labels are not
    names. A name keeps the numbers that are part of it (:func:`_with_numbers`): ``"When is
    the inspection at 7 Orchard Close?"`` -> ``["7 Orchard Close"]``, ``"And Apartment 14,
    Harbour View?"`` -> ``["Apartment 14, Harbour View"]``. With a gazetteer, the companies
    :func:`chains.constraints.parse_constraints` finds (as written) are added.

    Args:
        text: A question.
        gazetteer: The caller's gazetteer (optional).
    """
    toks = _tokens(text)
    found = [
        text[toks[i].start : toks[j].end]
        for i, j in _with_numbers(text, toks, _name_runs(text, toks))
    ]
    if gazetteer is not None and gazetteer.entities:
        for c in parse_constraints(text, gazetteer).companies:
            name = _POSSESSIVE.sub("", c.text.strip())
            if name and all(_norm(name) not in _norm(f) for f in found):
                found.append(name)
    return list(dict.fromkeys(found))


def _norm(text: str) -> str:
    text = re.sub(r"['’]s\b", "", text.lower())
    return " ".join(re.findall(r"[a-z0-9&]+", text))


def _period_spans(text: str) -> list[Constraint]:
    return parse_periods(text)


def subject_of(question: str, gazetteer: Gazetteer | None = None) -> tuple[int, int] | None:
    """The span of a question's subject noun phrase, if one can be read.

    Heuristic, on words: after the question word ("what", "how much"), auxiliaries
    ("was", "did"), determiners and a leading possessive name ("Northwind's") or period,
    the words up to the first preposition, auxiliary, verb, pronoun or period; after
    "do", "does" or "did" the last of those words is the verb that goes with it, when no
    verb stopped them.
    ``"What was Northwind's total revenue in 2025?"`` -> the span of ``total revenue``;
    ``"What does inverter fault code E-217 mean?"`` -> ``inverter fault code E-217``;
    ``"How much does the locksmith charge for a call-out?"`` -> ``locksmith``;
    ``"How do I clear it?"`` -> ``None``.
    """
    toks = _tokens(question)
    periods = _period_spans(question)
    names = names_in(question, gazetteer)

    def in_period(t: _Tok) -> bool:
        return any(p.span[0] <= t.start < p.span[1] for p in periods)

    i = 0
    while i < len(toks) and toks[i].word.lower() in {"and", "but", "so", "also", "then", "now",
                                                     "ok", "okay"}:  # fmt: skip
        i += 1
    if i < len(toks) and toks[i].word.lower() in _WH:
        wh = toks[i].word.lower()
        i += 1
        if wh == "how" and i < len(toks) and toks[i].word.lower() in _HOW_WORDS:
            i += 1
        elif (
            wh in ("who", "which", "what")
            and i < len(toks)
            and toks[i].word.lower() not in _AUX | _DETERMINERS
            and not _is_name_word(toks[i])
            and wh == "who"
        ):
            i += 1  # "who chairs the board": skip the verb
    # "How much does the locksmith charge …?": with do-support the verb follows the subject
    do_support = False
    while i < len(toks) and toks[i].word.lower() in _AUX:
        do_support = do_support or toks[i].word.lower() in _DO
        i += 1
    changed = True
    while changed and i < len(toks):
        changed = False
        t = toks[i]
        if (
            t.word.lower() in _DETERMINERS - {"this", "that", "these", "those"}
            or (
                t.word.lower() in {"this", "that", "these", "those"}
                and i + 1 < len(toks)
                and toks[i + 1].word.lower() not in _AUX | _PREPOSITIONS
            )
            or in_period(t)
            or (t.possessive and any(_norm(t.word) in _norm(n) for n in names))
        ):
            i += 1
            changed = True
        elif _is_name_word(t) and any(
            _norm(n) == _norm(question[t.start : u.end])
            for u in toks[i:]
            if u.possessive
            for n in names
        ):
            # a multi-word possessive name: "Fennick Farm's"
            while i < len(toks) and not toks[i].possessive:
                i += 1
            i += 1
            changed = True
    if i >= len(toks) or toks[i].word.lower() in _PRONOUNS | _AUX | _PREPOSITIONS | _WH:
        return None
    start = i
    end = i
    # whether the words taken may end with the verb: not when a verb, an auxiliary or a
    # word between two noun phrases (a verb) stopped them, nor "of" before a name
    verb_left_out = False
    while end < len(toks):
        t = toks[end]
        low = t.word.lower()
        if low in _AUX or low in _VERBS or low in _WH:
            verb_left_out = True
            break
        if in_period(t) or low in _PRONOUNS - {"one"} or (low in _PREPOSITIONS and low != "of"):
            break
        if (
            end > start
            and low not in {"of", "and", "&"}
            and end + 1 < len(toks)
            and toks[end + 1].word.lower() in _DETERMINERS - _PRONOUNS
        ):
            # a word between two noun phrases that is no "of" is a verb the lists do not
            # know: "Which part of the immune system | protects the brain?"
            verb_left_out = True
            break
        if low == "of" and (
            end + 1 >= len(toks) or in_period(toks[end + 1]) or _is_name_word(toks[end + 1])
        ):
            verb_left_out = True
            break
        gap = question[toks[end - 1].end : t.start] if end > start else ""
        if gap.strip() not in ("", "-"):
            break
        end += 1
        if t.possessive:
            verb_left_out = True
            break
    if end == start:
        return None
    if (
        do_support
        and not verb_left_out
        and end - start >= 2
        and toks[end - 1].word.islower()
        and not any(u.word.lower() in _VERBS for u in toks[end:])
    ):
        # "does the locksmith charge | for a call-out", "does the Main Hall open?": the
        # last word is the verb the question's "does" goes with (unless a known verb
        # comes later: "does a two-bedroom flat in Leeds cost?")
        end -= 1
    last = toks[end - 1]
    while end > start and toks[end - 1].word.lower() in {"of", "and", "&"}:
        end -= 1
        last = toks[end - 1]
    if end == start:
        return None
    return toks[start].start, last.end


# ---------------------------------------------------------------------------------------------
# periods


_PREP = r"(?:(?:in|for|during|over|of|from)\s+)?"
_RELATIVE: tuple[tuple[re.Pattern[str], str, int], ...] = (
    (re.compile(rf"\b{_PREP}(?:the\s+)?same\s+quarter\s+(?:a\s+year\s+(?:earlier|before|ago)|(?:of\s+)?(?:the\s+)?(?:previous|prior|preceding)\s+year|last\s+year)\b", re.I), "quarter", -4),  # noqa: E501
    (re.compile(rf"\b{_PREP}(?:the\s+)?(?:previous|prior|preceding|last)\s+quarter\b", re.I), "quarter", -1),  # noqa: E501
    (re.compile(rf"\b{_PREP}(?:the\s+)?quarter\s+(?:before|earlier|prior)(?:\s+that)?\b", re.I), "quarter", -1),  # noqa: E501
    (re.compile(rf"\b{_PREP}(?:the\s+)?(?:following|next|subsequent)\s+quarter\b", re.I), "quarter", 1),  # noqa: E501
    (re.compile(rf"\b{_PREP}(?:the\s+)?quarter\s+after(?:\s+that)?\b", re.I), "quarter", 1),
    (re.compile(rf"\b{_PREP}(?:the\s+)?(?:fiscal\s+)?year\s+(?:before|earlier|prior)(?:\s+that)?\b", re.I), "year", -1),  # noqa: E501
    (re.compile(rf"\b{_PREP}(?:the\s+)?(?:previous|prior|preceding)\s+(?:fiscal\s+)?year\b", re.I), "year", -1),  # noqa: E501
    (re.compile(rf"\b{_PREP}(?:a|one)\s+year\s+(?:earlier|before|prior)\b", re.I), "year", -1),
    (re.compile(rf"\b{_PREP}(?:the\s+)?(?:last|past)\s+(?:fiscal\s+)?year\b", re.I), "year", -1),
    (re.compile(rf"\b{_PREP}(?:the\s+)?(?:following|next|subsequent)\s+(?:fiscal\s+)?year\b", re.I), "year", 1),  # noqa: E501
    (re.compile(rf"\b{_PREP}(?:the\s+)?(?:fiscal\s+)?year\s+after(?:\s+that)?\b", re.I), "year", 1),
    (re.compile(rf"\b{_PREP}(?:a|one)\s+year\s+later\b", re.I), "year", 1),
    (re.compile(rf"\b{_PREP}(?:that|the\s+same)\s+(?:fiscal\s+)?year\b", re.I), "year", 0),
    (re.compile(rf"\b{_PREP}(?:that|the\s+same)\s+quarter\b", re.I), "quarter", 0),
    # "two years later", "3 quarters earlier", "five years before that"
    *(
        (
            re.compile(
                rf"\b{_PREP}(?:{word}|{n})\s+{unit}s\s+{when}(?:\s+that)?\b",
                re.I,
            ),
            unit,
            n if when.startswith("(?:later") else -n,
        )
        for word, n in (
            ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7),
            ("eight", 8), ("nine", 9), ("ten", 10),
        )
        for unit in ("year", "quarter")
        for when in ("(?:later|after)", "(?:earlier|before|prior)")  # not "ago": from today
    ),
)  # fmt: skip


def shift_period(label: str, unit: str, steps: int) -> str | None:
    """A period label moved by whole years or quarters (``None`` when it cannot be).

    ``("FY2025", "year", -1)`` -> ``FY2024``; ``("2023Q1", "quarter", -1)`` -> ``2022Q4``;
    ``("2023Q2", "quarter", -4)`` -> ``2022Q2``; ``("FY2025", "quarter", -1)`` -> ``None``.
    """
    m = re.fullmatch(r"(FY)?(\d{4})", label)
    if m:
        if unit != "year":
            return None
        return f"{m.group(1) or ''}{int(m.group(2)) + steps}"
    m = re.fullmatch(r"(\d{4})Q([1-4])", label)
    if m:
        index = (
            int(m.group(1)) * 4 + int(m.group(2)) - 1 + (steps if unit == "quarter" else 4 * steps)
        )
        return f"{index // 4}Q{index % 4 + 1}"
    m = re.fullmatch(r"(\d{4})H([12])", label)
    if m and unit == "year":
        return f"{int(m.group(1)) + steps}H{m.group(2)}"
    return None


def render_period(label: str) -> str:
    """How a resolved period is written into a question: ``in 2024``, ``in FY2024``,
    ``in Q1 2023``, ``in H2 2022``, ``in March 2025``, ``in October 2023 to December 2023``."""
    m = re.fullmatch(r"(\d{4})([QH])([1-4])", label)
    if m:
        return f"in {m.group(2)}{m.group(3)} {m.group(1)}"
    span = months_span(label)
    if span is not None:
        first, last = (f"{d:%B} {d.year}" for d in span)
        return f"in {first}" if first == last else f"in {first} to {last}"
    return f"in {label}"


def _base_period(history: Sequence[str]) -> Constraint | None:
    """The single period of the most recent earlier question that names one."""
    for q in reversed(history):
        ps = parse_periods(q)
        if ps:
            singles = [p for p in ps if p.relation == "single"]
            return singles[-1] if len(singles) == len(ps) and singles else None
    return None


def _counts_blanked(text: str) -> str:
    """``text`` with its relative period phrases (:data:`_RELATIVE`: "3 years earlier", "the
    year before") blanked out: the count in one is how far the period moves, resolved into
    the label the rewrite writes, not a figure the rewrite must keep."""
    chars = list(text)
    for pattern, _, _ in _RELATIVE:
        for m in pattern.finditer(text):
            chars[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(chars)


def resolve_relative_periods(question: str, history: Sequence[str]) -> tuple[str, dict[str, str]]:
    """Replace relative period phrases by the label they mean after the earlier turns.

    Args:
        question: The follow-up.
        history: Earlier standalone questions, oldest first.

    Returns:
        The question with each resolvable phrase replaced (``"the year before"`` ->
        ``"in 2024"`` after a question about 2025), and ``{phrase: label}``.
    """
    base = _base_period(history)
    if base is None:
        return question, {}
    label = base.values[0]
    taken: list[tuple[int, int, str, str]] = []
    for pattern, unit, steps in _RELATIVE:
        for m in pattern.finditer(question):
            if any(not (m.end() <= s or m.start() >= e) for s, e, _, _ in taken):
                continue
            new = shift_period(label, unit, steps)
            if new is not None:
                taken.append((m.start(), m.end(), m.group(0), new))
    out = question
    for s, e, _, new in sorted(taken, reverse=True):
        out = out[:s] + render_period(new) + out[e:]
    return out, {phrase: new for _, _, phrase, new in sorted(taken)}


# ---------------------------------------------------------------------------------------------
# the offline rule

_FILLER = re.compile(
    r"^\s*(?:(?:and|but|so|also|ok|okay|then|now|thanks|great|right|alright|sure)\b[,.!:]?\s*)+",
    re.I,
)
_ABOUT = re.compile(
    r"^\s*(?:(?:what|how)\s+about|what\s+of|(?:and\s+)?(?:the\s+)?same\s+(?:question\s+|thing\s+)?"
    r"for|as\s+for|(?:and\s+)?for|(?:and\s+)?in)\b\s*",
    re.I,
)
_QUESTION_START = re.compile(
    r"^\s*(?:what|which|who|whom|whose|how|when|where|why|is|are|was|were|do|does|did|can|"
    r"could|should|would|will|has|have|had|tell|give|list|show|explain|describe|compare|"
    r"please)\b",
    re.I,
)
_REFERENCE = re.compile(
    r"\b(?:it|its|they|their|them|theirs|he|she|his|her|him|these|those|this|"
    r"(?<=\s)that(?=\s*[?.!]*$)|(?:about|of|for|on|with|does|did|is|was|fix|clear|mean)\s+that"
    r")\b|\bthe\s+(?:company|firm|business|cooperative|co-op|group|same|latter|former)\b",
    re.I,
)
_TIME_DEMONSTRATIVE = re.compile(
    r"\b(?:this|that|these|those)\s+(?:year|quarter|month|week|time)s?\b", re.I
)
_FRAGMENT_STOP = {"the", "a", "an", "in", "for", "of", "then", "that", "same", "about", "to",
                  "its", "their", "there", "please", "one", "ones", "again"}  # fmt: skip


#: Words of a fragment that point at something without naming it ("What about the other
#: one?", "and the rest?"): a fragment of only these (and stop words) names nothing the rule
#: can put into the previous question, which it leaves as asked (it never invents).
_VAGUE = {"other", "others", "another", "former", "latter", "rest", "remaining", "else",
          "thing", "things", "stuff", "same", "both", "either", "neither", "each", "elsewhere",
          "otherwise"}  # fmt: skip


#: Words of a time phrase the rule did not resolve ("three years ago", "some months later"):
#: a fragment of only these (with a unit or "ago"/"later"/"earlier") names no period and no
#: subject.
_TIME_UNITS = {"ago", "later", "earlier", "year", "years", "quarter", "quarters", "month",
               "months", "week", "weeks", "day", "days"}  # fmt: skip
_TIME_WORDS = _TIME_UNITS | {"before", "after", "since", "some", "few", "several", "two", "three",
                             "four", "five", "six", "seven", "eight", "nine", "ten"}  # fmt: skip


def _names_nothing(fragment: str) -> bool:
    """Whether a fragment's words are all stop words, pronouns, :data:`_VAGUE` words and
    :data:`_TIME_WORDS` (and there is a :data:`_VAGUE` word or a :data:`_TIME_UNITS` one:
    "What about it?" and "And before it?" are the context path's)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*", fragment)]
    words = [w for w in words if not w.isdigit()]
    if not any(w in _VAGUE or w in _TIME_UNITS for w in words):
        return False
    allowed = _VAGUE | _TIME_WORDS | _FRAGMENT_STOP | _PRONOUNS | _PREPOSITIONS
    return all(w in allowed for w in words)


_PLURAL = re.compile(r"\b[a-z][a-z\-]{2,}[^s\W]s\b")
_NOT_PLURAL = {"does", "was", "has", "is", "this", "its", "yes", "as", "us", "his", "less",
               "thus", "plus", "across", "unless", "process", "business", "access", "loss",
               "gross", "status", "basis", "analysis"}  # fmt: skip
_DETERMINED = re.compile(r"\b(?:the|a|an|each|every|this|that|our|my)\s+[a-z][a-z\-]+", re.I)


def _has_reference(text: str, names: Sequence[str] = ()) -> bool:
    """Whether the question refers back to something it does not name itself.

    A pronoun with a possible antecedent earlier in the same question is not a reference:
    ``they``/``them``/``their`` after a plural word ("before contractors ... they"),
    ``it``/``its``/``this`` after a determined noun ("the policy ... it"), ``he``/``she``
    after a name.
    """
    return bool(_reference_spans(text, names))


def _reference_spans(text: str, names: Sequence[str] = ()) -> list[tuple[int, int]]:
    """The spans of the references :func:`_has_reference` finds."""
    spans: list[tuple[int, int]] = []
    clean = _TIME_DEMONSTRATIVE.sub(lambda m: " " * len(m.group(0)), text)
    for m in _REFERENCE.finditer(clean):
        word = m.group(0).lower().split()[-1]
        before = clean[: m.start()]
        if word in ("they", "them", "their", "theirs", "these", "those"):
            plurals = [w for w in _PLURAL.findall(before.lower()) if w not in _NOT_PLURAL]
            if plurals:
                continue
        else:
            determined = word in ("it", "its") and _DETERMINED.search(before)
            named = word in ("he", "she", "his", "her", "him") and any(n in before for n in names)
            if determined or named:
                continue
        spans.append((m.start(), m.end()))
    return spans


def _drop_slots(text: str, kinds: Collection[str]) -> str:
    """A phrase without its day or time-of-day phrases of the given kinds."""
    edits = [_removal(text, p.span) for p in slot_phrases(text) if p.kind in kinds]
    return _replace_spans(text, edits).strip() or text


def _only_slots(text: str) -> bool:
    """Whether a text is day and time-of-day phrases and payment and size qualifiers and
    nothing else ("On Sundays", "Saturday mornings", "After 6pm", "On the NHS")."""
    spans = [p.span for p in slot_phrases(text)]
    spans += [q.span for q in qualifiers_in(text) if not _overlaps(q.span, spans)]
    phrases = sorted(spans)
    rest = text
    for start, end in reversed(phrases):
        rest = rest[:start] + " " + rest[end:]
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*", rest)]
    return bool(phrases) and all(w in _FRAGMENT_STOP | _PREPOSITIONS for w in words)


def _is_bare(question: str) -> bool:
    """Whether a follow-up asks only "what/when/where/how many ..." with no content of its
    own: every word a question word, function word or aspect word (``"In what year?"``,
    ``"About when?"``, ``"And where?"``)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*", question)]
    if not words or len(words) > 5:
        return False
    allowed = _WH | _AUX | _FUNCTION_WORDS | _HOW_WORDS | _ASPECT_WORDS | _FRAGMENT_STOP
    return all(w in allowed for w in words) and any(w in _WH | _ASPECT_WORDS for w in words)


def _as_context(question: str) -> str:
    """A standalone question as a parenthetical: no final mark, inner parentheses flattened."""
    flat = re.sub(r"\s*\(([^()]*)\)", r"; \1", question)
    return re.sub(r"\s*[?!]+\s*(?=;|$)", "", flat).strip()


def _without_filler(question: str) -> str:
    """A full question without the cue it was said with ("And how do I clear it?" -> "How
    do I clear it?"): a standalone question starts with its question."""
    filler = _FILLER.match(question)
    if filler is None or not _QUESTION_START.match(question[filler.end() :]):
        return question
    rest = question[filler.end() :]
    return rest[:1].upper() + rest[1:]


def _end(text: str) -> tuple[str, str]:
    stripped = text.rstrip()
    m = re.search(r"[?.!]+$", stripped)
    return (stripped[: m.start()].rstrip(), m.group(0)) if m else (stripped, "")


def _append_context(question: str, items: Sequence[str]) -> str:
    body, mark = _end(question)
    return f"{body} ({'; '.join(items)}){mark or '?'}"


def _strip_determiner(text: str) -> str:
    return re.sub(r"^(?:the|a|an|its|their|his|her|our)\s+", "", text.strip(), flags=re.I)


def _replace_spans(text: str, edits: list[tuple[int, int, str]]) -> str:
    for s, e, new in sorted(edits, reverse=True):
        text = text[:s] + new + text[e:]
    return text


def _removal(text: str, span: tuple[int, int]) -> tuple[int, int, str]:
    """The edit that deletes a phrase of a text, with the space before it."""
    start, end = span
    while start > 0 and text[start - 1] == " ":
        start -= 1
    return start, end, ""


def _fill_slots(
    base: str,
    f_slots: Sequence[SlotPhrase],
    fills: Sequence[SlotPhrase],
    edits: list[tuple[int, int, str]],
    carried: dict[str, Any],
) -> list[str]:
    """Put a fragment's day and time-of-day phrases into the previous question.

    For each kind the fragment fills (a day, a time of day), the previous question's first
    phrase of that kind is replaced, written in that phrase's form ("the weekday rate" + "on
    Sundays" -> "the Sunday rate"; "on a weekday" + "at weekends" -> "at weekends"), and its
    other phrases of the kind are removed; with none, the fragment's phrase is appended. A
    day keeps the previous time of day it was said with unless the fragment names one ("on
    Saturday mornings" + "And Sundays?" -> "on Sunday mornings"). A kind the fragment
    states only as a modifier of its own noun phrase ("And the weekend rate?") removes the
    previous question's phrases of that kind. Phrases that an earlier edit (a name, the
    subject) already covers are left to it. Only day and time phrases are ever replaced.

    Args:
        base: The previous standalone question.
        f_slots: The fragment's day and time phrases.
        fills: Those of them that fill a slot (not modifiers).
        edits: The edits so far (extended in place).
        carried: What the rule carried (``days``/``times`` added).

    Returns:
        Adverbials to append at the end of the question.
    """
    appended: list[str] = []
    day = next((p for p in fills if p.kind == "day"), None)
    time = next((p for p in fills if p.kind == "time"), None)
    f_times = (day.times if day else ()) or (time.values if time else ())
    if day is not None:
        carried["days"] = list(day.values)
    if f_times:
        carried["times"] = list(f_times)

    def free(kind: str) -> list[SlotPhrase]:
        return [
            p for p in slot_phrases(base)
            if p.kind == kind and not any(p.span[0] < e and p.span[1] > s for s, e, _ in edits)
        ]  # fmt: skip

    mine = free("day")
    if day is not None:
        if not mine:
            appended.append(as_adverbial(day))
        else:
            first = mine[0]
            times = day.times or (first.times if time is None else ())
            if first.form == "modifier":
                new = render("day", day.values, times, modifier=True)
            elif times == day.times:
                new = as_adverbial(day)
            else:
                new = render("day", day.values, times, plural=first.plural or day.plural)
            edits.append((first.span[0], first.span[1], new or as_adverbial(day)))
            edits.extend(_removal(base, p.span) for p in mine[1:])
    elif any(p.kind == "day" for p in f_slots):
        edits.extend(_removal(base, p.span) for p in mine)
    mine = free("time")
    if time is not None:
        timed_day = next((p for p in free("day") if p.times), None)
        if mine:
            first = mine[0]
            new = as_modifier(time) if first.form == "modifier" else as_adverbial(time)
            if new is None:  # a clock time qualifies no noun: drop the modifier, append it
                edits.append(_removal(base, first.span))
                appended.append(as_adverbial(time))
            else:
                edits.append((first.span[0], first.span[1], new))
            edits.extend(_removal(base, p.span) for p in mine[1:])
        elif timed_day is not None:
            # "on Saturday mornings" + "in the evening" -> "on Saturday evenings"; + "after
            # 6pm" (a clock time qualifies no day) -> "on Saturdays after 6pm"
            clock = as_modifier(time) is None
            new = render(
                "day", timed_day.values, () if clock else time.values,
                plural=timed_day.plural, modifier=timed_day.form == "modifier",
            )  # fmt: skip
            edits.append((timed_day.span[0], timed_day.span[1], new or timed_day.text))
            if clock:
                appended.append(as_adverbial(time))
        else:
            appended.append(as_adverbial(time))
    elif (day is not None and day.times) or any(p.kind == "time" for p in f_slots):
        edits.extend(_removal(base, p.span) for p in mine)
    return appended


#: "the small ones", "which ones", "the blue one": a noun left out, to be read from the
#: previous question (one-anaphora). "the other one" names nothing (:data:`_VAGUE`).
_ONE_ANAPHOR = re.compile(
    r"\b(?P<det>the|these|those|which|what)\s+(?P<mods>(?:[a-z][a-z\-]*\s+){0,3}?)"
    r"(?P<one>ones|one)\b(?!\s+(?:of|who|that|which)\b)",
    re.I,
)
#: A pronoun that stands for a whole noun phrase ("for those", "do they cost", "is it"):
#: not a possessive, and a demonstrative only when no noun follows it.
_PRONOUN_ANAPHOR = re.compile(
    r"\b(?:it|they|them)\b|\b(?:these|those|this)\b(?=\s*(?:[?.!,]|$))"
    r"|(?<=\s)(?:these|those|this|that)(?=\s*[?.!]*$)",
    re.I,
)
_KEPT_DETERMINER = re.compile(r"\b(the|our|my|your|their|its|his|her)\s+$", re.I)
_COUNT_QUESTION = re.compile(r"^\W*(?:and\s+)?how\s+(?:many|much)\b", re.I)


def antecedent_span(question: str, gazetteer: Gazetteer | None = None) -> tuple[int, int] | None:
    """The span of what a question asks about: its subject (:func:`subject_of`), or in a
    "how many / how much X of Y" question the thing counted, Y ("How many boxes of the
    small gloves are left?" -> ``the small gloves``). ``None`` when no subject can be read."""
    span = subject_of(question, gazetteer)
    if span is None:
        return None
    start, end = span
    if _COUNT_QUESTION.match(question):
        counted = re.search(r"\bof\s+(?=\S)", question[start:end])
        if counted:
            start += counted.end()
            det = re.match(
                r"(?:the|a|an|our|my|your|their|its|his|her)\s+", question[start:end], re.I
            )
            if det:
                start += det.end()
    return start, end


def antecedent(question: str, gazetteer: Gazetteer | None = None) -> str | None:
    """What a question asks about, as a noun phrase a later pronoun can stand for.

    The words of :func:`antecedent_span` with the determiner before them ("Who supplies
    our nitrile gloves?" -> ``our nitrile gloves``; "a", "this", "which" become "the").
    ``None`` when no subject can be read.
    """
    span = antecedent_span(question, gazetteer)
    if span is None:
        return None
    start, end = span
    phrase = question[start:end]
    kept = _KEPT_DETERMINER.search(question[:start])
    if kept:
        return f"{kept.group(1).lower()} {phrase}"
    if re.search(r"\b(?:a|an|this|that|these|those|which|what)\s+$", question[:start], re.I):
        return f"the {phrase}"
    return phrase


def _drop_qualifiers(phrase: str, kinds: Collection[str]) -> str:
    """A noun phrase without its payment or size qualifiers of the given kinds."""
    edits = [_removal(phrase, q.span) for q in qualifiers_in(phrase) if q.kind in kinds]
    return _replace_spans(phrase, edits).strip() or phrase


PronounMode = Literal["all", "plural", "none"]
_PLURAL_PRONOUNS = {"they", "them", "these", "those"}


def resolve_anaphora(
    question: str,
    previous: str,
    gazetteer: Gazetteer | None = None,
    *,
    pronouns: PronounMode = "all",
) -> tuple[str, str | None]:
    """Put the previous question's noun phrase (:func:`antecedent`) where a follow-up only
    points at it, keeping the follow-up's own words.

    * one-anaphora — "the small ones", "which ones": the left-out noun is the antecedent's,
      after the follow-up's own modifiers, and a qualifier of the same kind as one of them
      (:mod:`chains.qualifiers`) is dropped from it ("the medium ones" after "the small
      gloves" -> "the medium gloves");
    * a pronoun that stands for a noun phrase and refers back (:func:`_has_reference`: not
      one with an antecedent earlier in the same question) — "it", "they", "them", "those"
      with no noun after it — is replaced by the antecedent ("What's the reorder level for
      those?" -> "… for the small nitrile gloves?"); with ``pronouns="plural"`` only a
      plural pronoun for a plural antecedent, with ``"none"`` no pronoun. Possessives
      ("its", "their") are left alone.

    Args:
        question: The follow-up (a full question, not a fragment).
        previous: The previous standalone question.
        gazetteer: The caller's gazetteer (optional).
        pronouns: Which pronouns are resolved (one-anaphora always is).

    Returns:
        The question with its anaphora replaced, and the antecedent used (``None``: nothing
        was replaced).
    """
    if pronouns not in ("all", "plural", "none"):
        raise ValueError(f"pronouns is 'all', 'plural' or 'none', got {pronouns!r}")
    found = antecedent(previous, gazetteer)
    if found is None:
        return question, None
    bare = _strip_determiner(found)
    edits: list[tuple[int, int, str]] = []
    for m in _ONE_ANAPHOR.finditer(question):
        mods = m.group("mods").split()
        if any(w.lower() in _VAGUE | _FRAGMENT_STOP | _PREPOSITIONS | _AUX for w in mods):
            continue  # "the other ones", "the same one": not a noun left out
        if not mods and m.group("det").lower() not in ("which", "what"):
            continue  # "the one", "those ones": which one is not said
        kinds = {q.kind for q in qualifiers_in(" ".join(mods))}
        noun = _drop_qualifiers(bare, kinds) if kinds else bare
        edits.append((m.start("one"), m.end("one"), noun))
    plural = bool(_PLURAL.search(bare.split()[-1].lower())) if bare.split() else False
    if pronouns != "none":
        refs = _reference_spans(question, names_in(question, gazetteer))
        for m in _PRONOUN_ANAPHOR.finditer(question):
            span = (m.start(), m.end())
            if not _overlaps(span, refs) or _overlaps(span, [(s, e) for s, e, _ in edits]):
                continue
            if pronouns == "plural" and not (plural and m.group(0).lower() in _PLURAL_PRONOUNS):
                continue
            edits.append((*span, found))
    if not edits:
        return question, None
    return _replace_spans(question, edits), found


def _overlaps(span: tuple[int, int], spans: Collection[tuple[int, int]]) -> bool:
    return any(span[0] < e and span[1] > s for s, e in spans)


def _fill_qualifiers(
    base: str,
    fills: Sequence[Qualifier],
    edits: list[tuple[int, int, str]],
    carried: dict[str, Any],
) -> list[str]:
    """Put a fragment's payment and size qualifiers (:mod:`chains.qualifiers`) into the
    previous question.

    For each kind the fragment names, the previous question's first qualifier of that kind
    is replaced, written in that qualifier's form ("a crown privately" + "on the NHS" -> "a
    crown on the NHS"; "the private fee" + "on the NHS" -> "the NHS fee"; "the small
    gloves" + "the medium ones" -> "the medium gloves"), and its other qualifiers of the
    kind are removed; with none, a modifier is put before what the previous question asks
    about (:func:`antecedent_span`: "boxes of gloves" + "the small ones" -> "boxes of small
    gloves") and an adverbial is appended. Only qualifiers are ever replaced, never a name
    or the subject.

    Args:
        base: The previous standalone question.
        fills: The fragment's qualifiers.
        edits: The edits so far (extended in place).
        carried: What the rule carried (``qualifiers`` added: kind -> value).

    Returns:
        Adverbials to append at the end of the question.
    """
    appended: list[str] = []
    taken = [(s, e) for s, e, _ in edits]
    mine = [q for q in qualifiers_in(base) if not _overlaps(q.span, taken)]
    for kind in dict.fromkeys(q.kind for q in fills):
        new = next(q for q in fills if q.kind == kind)
        carried.setdefault("qualifiers", {})[kind] = new.value
        same = [q for q in mine if q.kind == kind]
        if not same:
            # a modifier ("And the small ones?") qualifies what the previous question asks
            # about; an adverbial ("And on the NHS?") the question
            target = antecedent_span(base) if new.form == "modifier" else None
            if target is not None and not _overlaps(target, taken):
                edits.append((target[0], target[0], f"{new.text} "))
            else:
                appended.append(render_qualifier(kind, new.value, "adverbial"))
            continue
        first = same[0]
        edits.append((*first.span, render_qualifier(kind, new.value, first.form)))
        edits.extend(_removal(base, q.span) for q in same[1:])
    return appended


def _fragment(
    body: str, base: str, gazetteer: Gazetteer | None
) -> tuple[str, dict[str, Any]] | None:
    """Substitute a fragment's periods, names and noun phrase into the previous question.

    Returns ``None`` when the fragment holds nothing to substitute.
    """
    f_periods = parse_periods(body)
    f_slots = slot_phrases(body)
    # a day or time of day used as a modifier ("the weekend rate") stays in the noun phrase;
    # any other day or time phrase fills its slot of the previous question
    fills = [p for p in f_slots if p.form != "modifier"]
    # a payment or size qualifier fills its slot too ("And on the NHS?", "And the medium
    # ones?": "ones" is a stop word, so the qualifier is all the fragment says)
    f_quals = [q for q in qualifiers_in(body) if not _overlaps(q.span, [p.span for p in fills])]
    taken = [p.span for p in f_periods] + [p.span for p in fills] + [q.span for q in f_quals]
    f_names = [n for n in names_in(body, gazetteer) if not any(
        s <= body.find(n) < e for s, e in taken
    )]  # fmt: skip
    # what remains once periods, day/time phrases and names are taken out: a noun phrase,
    # or nothing
    rest = body
    for s, e in sorted(taken, reverse=True):
        rest = rest[:s] + " " + rest[e:]
    for n in f_names:
        rest = re.sub(rf"{re.escape(n)}(?:['’]s?)?", " ", rest)
    words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*", rest)]
    np_words = [
        w for w in words if w.lower() not in _FRAGMENT_STOP | _PRONOUNS | _PREPOSITIONS
    ]  # "before it" names nothing
    noun_phrase = _strip_determiner(" ".join(words)) if np_words else ""
    if f_quals and noun_phrase:
        # "the small print": the qualifier belongs to the fragment's own noun phrase
        words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*", body)]
        noun_phrase = _strip_determiner(" ".join(words))
        f_quals = []
    if not f_periods and not f_names and not noun_phrase and not fills and not f_quals:
        return None
    edits: list[tuple[int, int, str]] = []
    carried: dict[str, Any] = {"form": "fragment"}
    b_periods = parse_periods(base)
    b_names = names_in(base, gazetteer)
    appended_periods: list[str] = []
    appended_names: list[str] = []
    if f_periods:
        new_text = " and ".join(p.text for p in f_periods)
        if b_periods:
            first = b_periods[0]
            edits.append((first.span[0], b_periods[-1].span[1], new_text))
        else:
            appended_periods.append(
                new_text if re.match(r"(?i)^(in|for|during)\b", new_text) else f"in {new_text}"
            )
        carried["periods"] = [v for p in f_periods for v in p.values]
    else:
        carried["periods"] = [v for p in b_periods for v in p.values]
    if f_names:
        # of several names, the one of the fragment's kind ("7 Orchard Close" replaces the
        # address, not the agent named with it)
        kinds = {_name_kind(n) for n in f_names}
        same_kind = [n for n in b_names if _name_kind(n) in kinds]
        targets = b_names if len(b_names) == 1 else same_kind if len(kinds) == 1 else []
        if len(targets) == 1:
            old = targets[0]
            for m in re.finditer(rf"(?<![\w\-]){re.escape(old)}(?=['’]|\b|$)", base):
                if not any(m.start() < e and m.end() > s for s, e, _ in edits):
                    edits.append((m.start(), m.end(), " and ".join(f_names)))
        elif b_names:
            return None  # which of several names the fragment replaces is not known
        else:
            appended_names.extend(f_names)
        carried["names"] = f_names
    else:
        carried["names"] = b_names
    if noun_phrase:
        subj = subject_of(base, gazetteer)
        if subj is None or any(subj[0] < e and subj[1] > s for s, e, _ in edits):
            return None
        edits.append((subj[0], subj[1], noun_phrase))
        carried["subject"] = noun_phrase
    appended_slots = _fill_slots(base, f_slots, fills, edits, carried)
    appended_slots += _fill_qualifiers(base, f_quals, edits, carried)
    out = _replace_spans(base, edits)
    if appended_periods or appended_slots:
        body_out, mark = _end(out)
        out = f"{body_out} {' '.join(appended_periods + appended_slots)}{mark or '?'}"
    if appended_names:
        out = _append_context(out, appended_names)
    return out, carried


def condense_rule(
    question: str, history: Sequence[str], gazetteer: Gazetteer | None = None
) -> Condensed:
    """The offline rule (module docstring): the standalone form of a follow-up.

    Args:
        question: The current question, as written.
        history: Earlier turns' standalone questions, oldest first.
        gazetteer: The caller's gazetteer, to recognise company names (optional).

    Returns:
        The result; ``standalone == question`` when there is nothing to carry. A rewrite that
        would drop a name, number or period of the question (:func:`check_rewrite`) is not
        used.
    """
    history = [h for h in history if h and h.strip()]
    if not history:
        return Condensed(question, question, "first_turn")
    resolved, relative = resolve_relative_periods(question, history)
    if any(pattern.search(resolved) for pattern, _, _ in _RELATIVE):
        # a relative period with no earlier period to count from: nothing honest to add
        return Condensed(question, question, "unchanged", len(history))
    base = history[-1]
    filler = _FILLER.match(resolved)
    after_filler = resolved[filler.end() :] if filler else resolved
    about = _ABOUT.match(after_filler)
    body = after_filler[about.end() :] if about else after_filler
    cue = bool(filler or about)
    out: str | None = None
    carried: dict[str, Any] = {}
    is_fragment = (about is not None or filler is not None) and not _QUESTION_START.match(body)
    if not is_fragment and not _QUESTION_START.match(after_filler):
        # "The year before?", "On Sundays?", "Saturday mornings?"
        is_fragment = bool(relative) or _only_slots(_end(after_filler)[0])
    if is_fragment and not parse_periods(body) and _names_nothing(_end(body)[0]):
        return Condensed(
            question,
            question,
            "unchanged",
            len(history),
            {"refused": f"{_end(body)[0]!r} names nothing the earlier turns pin down"},
        )
    if is_fragment:
        done = _fragment(_end(body)[0], base, gazetteer)
        if done is not None:
            out, carried = done
    anaphor: str | None = None
    if out is None and not is_fragment and _QUESTION_START.match(after_filler):
        # a noun the follow-up only points at ("the small ones"; "for those" when the
        # question asks about its own subject and no earlier name is what it means) is the
        # previous question's noun phrase, put in its place
        # a pronoun that is the question's subject is what the context path carries a
        # subject for; one that an earlier name may mean ("How many members did it have?"
        # after a question about Northwind) is the names' unless it is plural and so is the
        # previous noun phrase
        pronouns: PronounMode = "all"
        if subject_of(after_filler, gazetteer) is None or names_in(resolved, gazetteer):
            pronouns = "none"
        elif names_in(base, gazetteer):
            pronouns = "plural"
        replaced, anaphor = resolve_anaphora(after_filler, base, gazetteer, pronouns=pronouns)
        if anaphor is not None:
            resolved = after_filler = replaced[:1].upper() + replaced[1:]
            filler = None
    own_names = names_in(resolved, gazetteer)
    bare = _is_bare(after_filler)
    if out is None and (
        anaphor is not None or cue or relative or bare or _has_reference(resolved, own_names)
    ):
        own_periods = parse_periods(resolved)
        own_subject = subject_of(after_filler, gazetteer)
        own_slot_kinds = {p.kind for p in slot_phrases(resolved)}
        own_qualifier_kinds = {q.kind for q in qualifiers_in(resolved)}
        items: list[str] = []
        prev_names: list[str] = []
        # the earliest turn context is carried from: a period is never carried from a turn
        # before it (an older question about something else)
        since = len(history) - 1
        for i in range(len(history) - 1, -1, -1):
            prev_names = names_in(history[i], gazetteer)
            if prev_names:
                break
        if not own_names and prev_names:
            items.extend(prev_names)
            carried["names"] = prev_names
            since = min(since, i)
        if own_subject is None:
            for j in range(len(history) - 1, -1, -1):
                h = history[j]
                span = subject_of(h, gazetteer)
                if span is not None:
                    # a day or time of day the question names itself replaces the
                    # subject's own ("How much is it on Sundays?" after "the weekday rate")
                    subject = _drop_slots(h[span[0] : span[1]], own_slot_kinds)
                    subject = _drop_qualifiers(subject, own_qualifier_kinds)
                    if _norm(subject) not in _norm(resolved) and all(
                        _norm(subject) != _norm(n) for n in items
                    ):
                        items.append(subject)
                        carried["subject"] = subject
                        since = min(since, j)
                    break
        if carried.get("subject") and "names" in carried:
            # a name the carried subject already holds ("inverter fault code E-217")
            keep = [n for n in carried["names"] if _norm(n) not in _norm(carried["subject"])]
            items = [i for i in items if i in keep or i == carried["subject"]]
            carried["names"] = keep
        if not own_periods and not own_names:
            base_period = _base_period(history[since:])
            if base_period is not None:
                items.append(render_period(base_period.values[0]))
                carried["periods"] = list(base_period.values)
        if anaphor is not None:
            carried["antecedent"] = anaphor
        elif not own_names and (
            (own_subject is None and bare) or (not items and not relative and not own_periods)
        ):
            # "In what year?" after "Who ranked Warsaw 32nd?" (the previous question asked
            # about another aspect), or a reference to something no name or subject of the
            # earlier turns pins down: the previous question's own words are the context
            items = [_as_context(base)]
            carried = {"previous": items[0]}
        if items:
            out = _append_context(_without_filler(resolved), items)
            carried["form"] = "context"
        elif relative:
            out = resolved
            carried["form"] = "relative"
    if out is None and anaphor is not None:
        out = resolved
        carried["antecedent"] = anaphor
        carried["form"] = "anaphora"
    if out is None:
        out = resolved if relative else question
        if relative:
            carried["form"] = "relative"
    if relative:
        carried["relative"] = relative
    if out == question:
        return Condensed(question, question, "unchanged", len(history))
    problem = check_rewrite(question, out, gazetteer)
    if problem:
        log.info(
            "follow-up rule output %r dropped something (%s); keeping %r", out, problem, question
        )
        return Condensed(question, question, "unchanged", len(history), {"refused": problem})
    return Condensed(question, out, "rule", len(history), carried)


def standalone_history(turns: Sequence[Turn], gazetteer: Gazetteer | None = None) -> list[str]:
    """Each earlier turn's standalone question, oldest first.

    A turn that recorded its standalone question keeps it; the others (a client-supplied
    history) are recomputed in order with :func:`condense_rule`.
    """
    out: list[str] = []
    for t in turns:
        if t.standalone:
            out.append(t.standalone)
        else:
            out.append(condense_rule(t.question, out, gazetteer).standalone)
    return out


# ---------------------------------------------------------------------------------------------
# the check


def check_rewrite(original: str, rewrite: str, gazetteer: Gazetteer | None = None) -> str:
    """Why a rewrite may not replace the question ('' when it may).

    The rewrite must keep every name (:func:`names_in`, and the companies the gazetteer
    finds), every number (:func:`chains.answerers.numbers_in`), every period label
    (:func:`chains.constraints.parse_periods`), every day it covers and every time of day
    (:func:`chains.dayparts.days_covered`, :func:`chains.dayparts.times_named`) of the
    original; relative periods are not labels, so "the year before" may become "2024", the
    count of one is no number to keep ("3 years earlier" may become "2022" as "three years
    earlier" may, :func:`_counts_blanked`), and "at weekends" may become "on Saturday and
    Sunday". It must be one non-empty question of reasonable length.

    Args:
        original: The question as written.
        rewrite: The proposed standalone question.
        gazetteer: The caller's gazetteer (optional).
    """
    text = rewrite.strip()
    if not text:
        return "empty rewrite"
    if "\n" in text:
        return "more than one line"
    if len(text) > MAX_REWRITE_GROWTH * len(original) + 200:
        return f"rewrite is {len(text)} characters for a {len(original)}-character question"
    norm = _norm(text)
    for name in names_in(original):
        if _norm(name) not in norm:
            return f"drops the name {name!r}"
    if gazetteer is not None and gazetteer.entities:
        before = {v for c in parse_constraints(original, gazetteer).companies for v in c.values}
        after = {v for c in parse_constraints(text, gazetteer).companies for v in c.values}
        if before - after:
            return f"drops the company {sorted(before - after)[0]!r}"
    missing_numbers = numbers_in(_counts_blanked(original)) - numbers_in(text)
    if missing_numbers:
        return f"drops the number {sorted(missing_numbers)[0]}"
    before_p = {v for p in parse_periods(original) for v in p.values}
    after_p = {v for p in parse_periods(text) for v in p.values}
    if before_p - after_p:
        return f"drops the period {sorted(before_p - after_p)[0]}"
    missing_days = days_covered(original) - days_covered(text)
    if missing_days:
        return f"drops the day {sorted(missing_days)[0]}"
    missing_times = times_named(original) - times_named(text)
    if missing_times:
        return f"drops the time of day {sorted(missing_times)[0]!r}"
    return ""


# ---------------------------------------------------------------------------------------------
# the model path


def model_messages(
    question: str, turns: Sequence[Turn], prompt_file: str = CONDENSE_PROMPT
) -> list[BaseMessage]:
    """The messages sent to the rewrite model (versioned prompt, recent turns only)."""
    prompt = load_prompt(prompt_file)
    lines: list[str] = []
    for t in list(turns)[-MODEL_HISTORY_TURNS:]:
        lines.append(f"User: {t.question.strip()}")
        if t.answer:
            answer = " ".join(t.answer.split())
            if len(answer) > MODEL_ANSWER_CHARS:
                answer = answer[:MODEL_ANSWER_CHARS] + " …"
            lines.append(f"Assistant: {answer}")
    return [
        SystemMessage(content=prompt.system),
        HumanMessage(
            content=prompt.user.format(history="\n".join(lines) or "(none)", question=question)
        ),
    ]


def parse_model_output(text: str) -> str:
    """The standalone question in a model's reply: the first non-empty line, without a
    ``Standalone question:`` label or surrounding quotes."""
    for line in text.strip().splitlines():
        line = line.strip()
        if not line:
            continue
        line = re.sub(r"^(?:standalone\s+question|question|rewrite|rewritten)\s*[:\-]\s*", "",
                      line, flags=re.I)  # fmt: skip
        return line.strip().strip("\"“”'`").strip()
    return ""


def condense_with_model(
    model: BaseChatModel | WatchedModel,
    question: str,
    turns: Sequence[Turn],
    gazetteer: Gazetteer | None = None,
    *,
    prompt_file: str = CONDENSE_PROMPT,
) -> Condensed:
    """Ask a chat model for the standalone question; keep it only if :func:`check_rewrite`
    passes, else use the original question. A model error is logged and the question used
    as written, except one no later call can fix (a stall past the deadline, a cancel, a
    refused key: :attr:`chains.models.ModelFailure.final`), which is raised: asking the
    same model for the answer would only fail the same way, after another wait.

    Args:
        model: The run's model behind its watchdog (:class:`chains.watchdog.WatchedModel`:
            the answering model's deadline, retries and cancel), or any LangChain chat model
            (then behind the watchdog with the default settings).
        question: The current question, as written.
        turns: The earlier turns, oldest first.
        gazetteer: The caller's gazetteer (optional).
        prompt_file: The versioned prompt in ``chains/prompts``.

    Raises:
        Exception: The model's error, when it is final (see above).
    """
    turns = list(turns)
    if not turns:
        return Condensed(question, question, "first_turn")
    prompt_id = load_prompt(prompt_file).id
    try:
        raw = watched(model).text(model_messages(question, turns, prompt_file))
    except Exception as exc:  # any other provider error: answer the question as written
        if describe_model_error(exc).final:
            raise
        log.warning("follow-up rewrite failed: %s: %s", type(exc).__name__, exc)
        return Condensed(
            question, question, "model_rejected", len(turns), {"prompt": prompt_id},
            rejected=f"model error: {type(exc).__name__}",
        )  # fmt: skip
    rewrite = parse_model_output(raw)
    carried: dict[str, Any] = {"prompt": prompt_id}
    problem = check_rewrite(question, rewrite, gazetteer)
    if problem:
        return Condensed(question, question, "model_rejected", len(turns), carried, raw, problem)
    method: Method = "model_unchanged" if rewrite == question.strip() else "model"
    return Condensed(question, rewrite, method, len(turns), carried, raw)

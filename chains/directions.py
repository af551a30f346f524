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

* **role** — a sentence that opens by casting the reader as an answerer: *You are an
  investment banker …*, *Assume that you are a public equities analyst.*, *Act as a …*
  (not *You are required to …*);
* **about the answer** — an imperative sentence that speaks of the answer or the question
  itself: *Answer in USD millions.*, *Give a response to the question by …*, *Round your
  answer …*; a head that only announces the question (*Here's the question:*, not
  *Security question:*); and the clause before a colon that speaks of the answer
  (*Please answer the following question: what is …?* keeps *what is …?*);
* **format** — an imperative sentence about the answer's form (*Round your answer to two
  decimal places.*, *State it in USD millions.*, *Be concise.*, *Cite your sources.*) and a
  parenthesis that only gives units or rounding (*(in USD millions)*);
* **fallback** — what to answer without an answer: a condition on the answerer or the
  documents lacking it and a reply that says only that (*If you don't know, say so.*, *Say
  so if you can't find it.*; not a condition on a topic: *If operating margin is not a
  useful metric …, then state that and explain why.*); a ban on guessing (*Please don't
  guess.*) is about the answer;
* **courtesy** — a greeting or thanks, as a sentence (*Hi!*, *Thanks in advance.*) or before
  the ask (*Hello, when …?*).

Where a direction says to look (*… by primarily using the statement of income*: a definite
noun phrase ending in a word for a part of a document) is kept: it follows the ask in
parentheses, as its **sources**.

A direction says only how to answer: once its answer, question, format and source phrases
are gone, only method words may be left (*using*, *primarily*, *information* …), so *Answer
using the 10-K of Apple Inc.* stays in the ask, and a role is someone who answers for a
living (*analyst*, *adviser* …; *You are an employee at the Dublin office.* stays).

A sentence is a direction only when the question keeps an ask beside it: a sentence ending
with ``?`` or following a *question:* marker — or, beside greetings, thanks, fallbacks and the
other habits of writing to a person only, or before a direction run on at the end without a
full stop (after a comma or at a capital: *the display shows E4 Thanks!*), any sentence left.
A question that is one sentence, or whose every sentence looks like a direction, is left
whole. Definitions (*X is defined as …*) and
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

Kind = Literal["role", "answer", "format", "fallback", "courtesy"]

#: A sentence that casts the reader, from its start: "You are an investment banker …",
#: "Assume that you are a public equities analyst.", "Act as a tax adviser." ("You are
#: required to wear a badge." is no role: a role is "a/an/the …").
#: Who a role casts the reader as: someone who answers questions for a living.
_ROLE_NOUN = (
    r"(?:analysts?|bankers?|experts?|assistants?|advis[eo]rs?|consultants?|accountants?|"
    r"auditors?|economists?|researchers?|investors?|lawyers?|specialists?|professionals?|"
    r"strategists?|managers?\s+of\s+a\s+fund|fund\s+managers?|tutors?|teachers?)"
)
#: A sentence that casts the reader, from its start: "You are an investment banker …",
#: "Assume that you are a public equities analyst.", "Act as a tax adviser." ("You are an
#: employee at the Dublin office." is the user's situation: no role noun).
_ROLE = re.compile(
    r"^(?:please\s+)?(?:(?:assume|imagine|pretend|suppose)\s+(?:that\s+)?)?"
    rf"(?:you\s+(?:are|were|’re|'re)|act\s+as)\s+(?:a|an|the)\s+(?:[\w-]+\s+){{0,3}}?{_ROLE_NOUN}\b",
    re.IGNORECASE,
)
#: A role named inside a direction: "… assuming the standpoint of an investment banking
#: analyst …".
_ROLE_PHRASE = re.compile(rf"\b(?:a|an|the)\s+(?:[\w-]+\s+){{0,3}}?{_ROLE_NOUN}\b", re.IGNORECASE)
#: An imperative that opens a direction (optionally after "please"), followed by a word that
#: makes it one ("Base your judgments", not "Base salary is paid in USD.").
_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:answer|respond|reply|give|provide|state|approach|help|base|use|"
    r"round|express|report|present|show|write|keep|limit|format|make|put|tell|rely|"
    r"consider|treat)\s+(?:the|a|an|your|my|our|it|this|these|that|us|me|to|in|into|by|on|"
    r"for|with|from|only|briefly|concisely|using|all|answers?|responses?|as)\b",
    re.IGNORECASE,
)
#: Words of such a sentence that speak of the answer or the question itself: "the
#: following question", "your answers", "a response", "answer in USD", "state answer"
#: (not "the question of overtime", "the answer key", "a reply within 30 days").
_ABOUT_ANSWER = re.compile(
    r"\b(?:the|this|following|above|below)\s+question\b(?!\s+(?:of|about|regarding|on)\b)|"
    r"\b(?:your|the|an?|my|our)\s+(?:answers?|responses?|reply)\b"
    r"(?!\s+(?:keys?|sheets?|books?|within|time|times|rates?|of)\b)|"
    r"^(?:please\s+)?(?:answer|respond|reply)\s+(?:in|with|using|by|as|only|briefly|"
    r"concisely|based|according|the\s+following|this\s+question|to\s+(?:the|this)\s+"
    r"(?:following\s+)?question)\b|"
    r"^(?:please\s+)?(?:state|give|provide|express|report|present)\s+(?:your\s+|the\s+)?"
    r"answers?\b",
    re.IGNORECASE,
)
#: Words a direction uses for how to answer, not for what: what may remain of a direction
#: once its answer, question, format and source phrases are gone. Any other word left over
#: ("Answer using the 10-K of Apple Inc.", "… for the Model X printer") keeps the sentence
#: in the ask.
_METHOD_WORDS = frozenset(
    [
        "please",
        "answer",
        "answers",
        "answering",
        "respond",
        "reply",
        "response",
        "responses",
        "give",
        "provide",
        "state",
        "approach",
        "help",
        "base",
        "basing",
        "based",
        "use",
        "using",
        "used",
        "rely",
        "relying",
        "relied",
        "consider",
        "treat",
        "round",
        "rounded",
        "express",
        "report",
        "present",
        "show",
        "shown",
        "write",
        "keep",
        "limit",
        "format",
        "make",
        "put",
        "tell",
        "following",
        "question",
        "questions",
        "asked",
        "ask",
        "asking",
        "information",
        "details",
        "detail",
        "data",
        "figures",
        "provided",
        "presented",
        "stated",
        "outlined",
        "described",
        "contained",
        "reported",
        "given",
        "clearly",
        "only",
        "primarily",
        "mainly",
        "solely",
        "strictly",
        "exclusively",
        "directly",
        "just",
        "also",
        "then",
        "first",
        "all",
        "off",
        "on",
        "of",
        "in",
        "into",
        "from",
        "within",
        "by",
        "with",
        "to",
        "for",
        "as",
        "at",
        "per",
        "the",
        "a",
        "an",
        "and",
        "or",
        "but",
        "so",
        "if",
        "your",
        "my",
        "our",
        "us",
        "me",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "which",
        "who",
        "whom",
        "what",
        "there",
        "is",
        "are",
        "be",
        "been",
        "being",
        "was",
        "were",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "can",
        "could",
        "should",
        "would",
        "will",
        "shall",
        "must",
        "may",
        "might",
        "not",
        "no",
        "any",
        "each",
        "access",
        "judgment",
        "judgments",
        "judgement",
        "judgements",
        "conclusions",
        "drawing",
        "draw",
        "reasoning",
        "perspective",
        "standpoint",
        "viewpoint",
        "role",
        "assuming",
        "assume",
        "position",
        "resource",
        "resources",
        "source",
        "sources",
        "decimal",
        "decimals",
        "place",
        "places",
        "nearest",
        "compute",
        "calculate",
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
    ]
)
#: Words of an imperative sentence about the answer's form: units, scale, rounding.
_FORMAT_WORD = re.compile(
    r"\b(?:in|into|as)\s+(?:units?\s+of\s+)?(?:usd|eur|gbp|dollars|euros|pounds|millions?|"
    r"billions?|thousands?|percent(?:age)?s?)(?:\s+(?:millions?|billions?|thousands?))?\b|"
    r"\bdecimal\s+places?\b|"
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
    r"^(?:(?:here(?:'s|’s|\s+is)\s+)?(?:the|my|our|this|your|an?|one)\s+)?(?:following\s+)?"
    r"(?:(?:quick|short|simple|small|brief)\s+)?(?:question(?:\s+is)?|"
    r"(?<=quick\s)one|(?<=short\s)one)\s*:\s*",
    re.IGNORECASE,
)
#: What the answerer, or the documents, may be without: the subject of a condition about the
#: answer ("if *you* don't know", "if *the documents* don't say", "if *it* isn't covered",
#: "if *there* is no answer"), never a topic ("if operating margin is not a useful metric",
#: "if an item arrives damaged": those are part of what is asked).
_FALLBACK_SUBJECT = (
    r"(?:you|it|this|that|there|nothing|none|the\s+(?:answer|information|info|documents?|"
    r"sources?|context|texts?|files?|data|question|passages?|evidence|handbook|manual|faq|"
    r"policy|report))"
)
#: The words such a condition is made of (after its subject): knowing, finding, saying, and
#: their negations and doubts. One of :data:`_FALLBACK_DOUBT` must be among them.
_FALLBACK_WORDS = frozenset(
    [
        "do",
        "does",
        "did",
        "don't",
        "doesn't",
        "didn't",
        "dont",
        "doesnt",
        "not",
        "no",
        "can",
        "can't",
        "cannot",
        "couldn't",
        "cant",
        "could",
        "is",
        "isn't",
        "are",
        "aren't",
        "was",
        "wasn't",
        "were",
        "weren't",
        "be",
        "been",
        "unable",
        "able",
        "to",
        "unsure",
        "uncertain",
        "sure",
        "know",
        "knows",
        "find",
        "found",
        "say",
        "says",
        "said",
        "state",
        "stated",
        "mention",
        "mentioned",
        "covered",
        "cover",
        "covers",
        "answer",
        "answers",
        "answered",
        "contain",
        "contains",
        "contained",
        "include",
        "includes",
        "included",
        "list",
        "listed",
        "give",
        "given",
        "provide",
        "provided",
        "specify",
        "specified",
        "available",
        "unavailable",
        "enough",
        "evidence",
        "information",
        "info",
        "clear",
        "unclear",
        "any",
        "anything",
        "in",
        "the",
        "a",
        "an",
        "there",
        "it",
        "this",
        "that",
        "documents",
        "document",
        "sources",
        "source",
        "text",
        "texts",
        "files",
        "context",
        "data",
        "exist",
        "exists",
        "present",
        "really",
        "fully",
        "completely",
        "100",
        "percent",
        "'re",
        "'s",
        "'m",
    ]
)
_FALLBACK_DOUBT = frozenset(
    [
        "not",
        "no",
        "don't",
        "doesn't",
        "didn't",
        "dont",
        "doesnt",
        "can't",
        "cannot",
        "couldn't",
        "cant",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "unable",
        "unsure",
        "uncertain",
        "unavailable",
        "unclear",
    ]
)
#: What to say then: "(then) (please) say so", "just say that you don't know", "state that
#: and explain why", "reply 'not found'", "let me know", "tell me".
_FALLBACK_REPLY = re.compile(
    r"^(?:then\s+)?(?:(?:please|just|simply|only)\s+)*(?:say|state|tell|answer|reply|"
    r"respond|write|return|explain|note|mention|indicate|admit|let\s+(?:me|us)\s+know|"
    r"flag|output)\b",
    re.IGNORECASE,
)
#: The words such a reply may hold besides a quoted phrase ("reply 'not found'").
_REPLY_WORDS = frozenset(
    [
        "so",
        "that",
        "this",
        "it",
        "why",
        "and",
        "explain",
        "me",
        "us",
        "you",
        "i",
        "we",
        "know",
        "don't",
        "do",
        "not",
        "dont",
        "the",
        "reason",
        "instead",
        "rather",
        "than",
        "guess",
        "guessing",
        "guessed",
        "clearly",
        "honestly",
        "say",
        "tell",
        "state",
        "answer",
        "reply",
        "with",
        "just",
        "simply",
        "please",
        "then",
        "unknown",
        "n/a",
        "none",
        "nothing",
        "found",
    ]
)
#: "Don't guess.", "Please don't make anything up.", "Do not speculate.", "Never invent
#: an answer." (kind ``answer``): how to answer, never what.
_PROHIBITION = re.compile(
    r"^(?:please\s+)?(?:do\s+not|don['’]?t|never|no)\s+(?:guess(?:ing)?|speculat(?:e|ing)|"
    r"hallucinat(?:e|ing)|mak(?:e|ing)\s+(?:anything|things|something|stuff|it|things)\s+"
    r"up|invent(?:ing)?\s+(?:anything|things|an?\s+answers?|answers?)|assum(?:e|ing)\s+"
    r"anything|use\s+(?:any\s+)?(?:outside|external|prior|general|your\s+own)\s+"
    r"knowledge)(?:\s*,?\s*please)?[.!]*$",
    re.IGNORECASE,
)
#: "Please be brief.", "Keep it short.", "Be concise.", "Cite your sources.", "Include
#: references." (kind ``format``): the answer's form.
_STYLE = re.compile(
    r"^(?:please\s+)?(?:(?:be|keep\s+(?:it|your\s+answer|the\s+answer|this))\s+"
    r"(?:(?:very|really|fairly|nice\s+and)\s+)?(?:brief|short|concise|succinct|simple|"
    r"precise|to\s+the\s+point)|(?:cite|quote|include|give|show|list|add)\s+(?:your\s+|"
    r"the\s+|all\s+)?(?:sources?|citations?|references?))(?:\s*,?\s*please)?[.!]*$",
    re.IGNORECASE,
)
#: A sentence of greetings and thanks only ("Hi!", "Thanks in advance.", "Thank you so much
#: for your help!"), kind ``courtesy``.
_COURTESY = re.compile(
    r"^(?:(?:hi|hello|hey|hiya|greetings|dear\s+\w+|good\s+(?:morning|afternoon|evening|"
    r"day)|thanks|thank\s+you|thx|many\s+thanks|cheers|much\s+appreciated)\b[\s,!.]*)"
    r"(?:(?:there|all|team|everyone|folks|so|very|much|in|advance|a|lot|for|your|the|any|"
    r"help|again|bot|assistant)\b[\s,!.]*)*$",
    re.IGNORECASE,
)
#: A greeting before the ask in the same sentence ("Hello, when do …", "Hi there, quick
#: one: …"): set apart as ``courtesy`` when an ask follows.
_COURTESY_HEAD = re.compile(
    r"^(?:hi|hello|hey|hiya|greetings|good\s+(?:morning|afternoon|evening))"
    r"(?:\s+(?:there|all|team|everyone|folks))?\s*[,!.:;\u2014-]+\s*",
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

#: The longest sentence read as a no-answer direction, and the end of a sentence searched
#: for a direction run on, in characters (they are short).
_FALLBACK_LONGEST = 200


#: A source that names no part of any document in particular: "the documents", "the provided
#: document", "the given text" (not kept as where to look).
_GENERIC_SOURCE = re.compile(
    r"^the\s+(?:(?:provided|given|supplied|attached|available|indexed|uploaded|relevant|"
    r"following|above|your|these|those)\s+)?documents?$",
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
    habit = _habit(s)
    if habit is not None:
        return habit
    role = _ROLE.search(s)
    if role and not _leftover(s[role.end() :]):
        return "role"
    if _IMPERATIVE.search(s) and not _leftover(s):
        if _ABOUT_ANSWER.search(s):
            return "answer"
        if _FORMAT_WORD.search(s):
            return "format"
    return None


def _habit(sentence: str) -> Kind | None:
    """The direction a sentence gives as people write to a person (a greeting or thanks, what
    to say without an answer, a ban on guessing, the answer's length or sources), or
    ``None``."""
    s = sentence.strip()
    if _COURTESY.match(s):
        return "courtesy"
    if _is_fallback(s):
        return "fallback"
    if _PROHIBITION.match(s):
        return "answer"
    if _STYLE.match(s):
        return "format"
    return None


def _run_on(sentence: str) -> int | None:
    """Where a direction (:func:`_kind`) run on at the end of ``sentence`` without a full stop
    starts: after a comma, or at a capital ("the display shows E4 Thanks!", "can I park
    there, thanks", "which hotel did Priya stay in Answer only from the documents."), within
    its last :data:`_FALLBACK_LONGEST` characters; ``None`` when there is none (or nothing
    would be left before it)."""
    floor = max(0, len(sentence) - _FALLBACK_LONGEST)
    for m in re.finditer(r"(?:,\s*|\s+)(?=[^\W\d_])", sentence[floor:]):
        at = floor + m.end()
        if not sentence[floor + m.start() : at].startswith(",") and not sentence[at].isupper():
            continue
        if sentence[:at].strip(" ,") and _kind(sentence[at:]) is not None:
            return at
    return None


def _words(text: str) -> list[str]:
    """Lower-case words of ``text``, apostrophes kept ("don't"; a curly one made straight)."""
    return re.findall(r"[\w'/]+", text.replace("\u2019", "'").lower())


def _is_fallback(sentence: str) -> bool:
    """Whether ``sentence`` says what to answer when there is no answer: a condition on the
    answerer or the documents lacking it, and a reply that says only that ("If you don't
    know, say so.", "Say so if you can't find it.", "If the documents don't say, please tell
    me.", "If there is no answer in the documents, reply 'not found'.").

    A condition on a topic ("If operating margin is not a useful metric …, then state that
    and explain why.", "If an item arrives damaged, note it …") is part of the ask."""
    text = " ".join(sentence.split()).rstrip(".!").strip()
    if len(text) > _FALLBACK_LONGEST:
        return False  # a sentence this long says more than what to answer without one
    first = re.match(
        r"^(?:and\s+|but\s+)?(?:if|in\s+case|when|whenever)\s+(?P<cond>.+?)"
        r"(?:\s*,\s*|\s+(?=then\b))(?P<reply>.+)$",
        text,
        re.IGNORECASE,
    )
    last = re.match(
        r"^(?P<reply>.+?)\s+(?:if|in\s+case|when|whenever)\s+(?P<cond>.+)$", text, re.IGNORECASE
    )
    return any(
        m is not None and _no_answer(m["cond"]) and _reply(m["reply"]) for m in (first, last)
    )


def _no_answer(condition: str) -> bool:
    """A condition on the answerer or the documents not having the answer."""
    m = re.match(_FALLBACK_SUBJECT + r"\b", condition.strip(), re.IGNORECASE)
    if m is None:
        return False
    rest = _words(condition.strip()[m.end() :])
    return all(w in _FALLBACK_WORDS for w in rest) and any(w in _FALLBACK_DOUBT for w in rest)


def _reply(reply: str) -> bool:
    """A reply that says only what to answer then ("say so", "just say that you don't know",
    "reply 'not found'")."""
    m = _FALLBACK_REPLY.match(reply.strip())
    if m is None:
        return False
    rest = re.sub(
        r"(['\"\u2018\u201c])[^'\"\u2019\u201d]{1,40}['\"\u2019\u201d]", " ", reply[m.end() :]
    )
    return all(w in _REPLY_WORDS for w in _words(rest))


def _leftover(text: str) -> list[str]:
    """The words of a would-be direction that say what to find, not how to answer: those
    left once its answer, question, format and source phrases and :data:`_METHOD_WORDS`
    are gone (a role's "investment banker" is gone with the role)."""
    for pattern in (_SOURCE, _FORMAT_WORD, _ABOUT_ANSWER, _ROLE, _ROLE_PHRASE):
        text = pattern.sub(" ", text)
    words = re.findall(r"[^\W\d_]+", text.lower())
    return [w for w in words if w not in _METHOD_WORDS and len(w) > 1]


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
    run_on = False  # the last sentence ended where a direction runs on without a full stop
    if sentences and _kind(sentences[-1][1]) is None:
        # "the display shows E4 Thanks!": a direction run on without a full stop
        start, last = sentences[-1]
        at = _run_on(last)
        if at is not None:
            sentences[-1:] = [(start, last[:at]), (start + at, last[at:])]
            run_on = True
    found: list[Direction] = []
    kept: list[tuple[int, str]] = []
    has_ask = False
    habits_only = True  # every direction found is one of a person's habits (_habit)
    for start, s in sentences:
        lead = len(s) - len(s.lstrip())
        start, s = start + lead, s.strip()
        greeting = _COURTESY_HEAD.match(s)
        if greeting and s[greeting.end() :].strip():
            # "Hello, when do I …?", "Hi there, quick one: …": the greeting apart
            found.append(Direction("courtesy", s[: greeting.end()].strip(), start))
            start, s = start + greeting.end(), s[greeting.end() :]
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
                habits_only = False
                continue
        if kind is None:
            kept.append((start, s))
            has_ask = has_ask or s.rstrip().endswith("?")
        else:
            found.append(Direction(kind, s.strip(), start))
            habits_only = habits_only and _habit(s) is not None
    # beside a person's habits only, or before a direction run on without a full stop, an
    # ask may be written without "?" ("the display shows E4. Thanks!", "which hotel did
    # Priya stay in Answer only from the documents."): any sentence left is one
    has_ask = has_ask or ((habits_only or run_on) and any(_words(s) for _, s in kept))
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
    ask = re.sub(r"\s+([?.,;:!])", r"\1", re.sub(r"\(\s*\)", "", ask)).rstrip(",;")
    if not re.search(r"\w", ask):  # nothing left but punctuation
        return whole
    if ask[0].islower():
        ask = ask[0].upper() + ask[1:]
    lower = ask.lower()
    sources: list[str] = []
    for d in sorted(found, key=lambda d: d.start):
        for m in _SOURCE.finditer(d.text):
            src = re.sub(r"\s+", " ", m.group(0)).strip()
            if _GENERIC_SOURCE.match(src):
                continue  # "the documents" says nothing of where to look
            if src.lower() not in lower and src not in sources:
                sources.append(src)
    if sources:
        ask = f"{ask} ({'; '.join(sources)})"
    return Directions(question, ask, tuple(sorted(found, key=lambda d: d.start)), tuple(sources))

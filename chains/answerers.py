"""Answer generators: the offline extractive default and any LangChain chat model.

Both turn ``(question, numbered passages, rendered messages)`` into raw text in the same
contract: prose with ``[n: "quote"]`` markers and a ``<summary>{...}</summary>`` block, so
the same validation and fallback ladder applies to either.

* :class:`ExtractiveAnswerer` (default; no model, no key, no network) quotes the passages'
  best-matching sentences verbatim with their ``[n]`` — never a question, a heading, a title or
  a caption (:mod:`chains.non_answers`; an FAQ question line points at the answer under it).
  It is extractive and says so in the
  result (``generator: extractive``); it never paraphrases and never adds knowledge.
* :class:`ChatModelAnswerer` wraps any ``BaseChatModel`` — an injected instance, or a
  ``init_chat_model`` string such as ``openai:gpt-4o-mini`` or ``ollama:llama3.1`` (the
  provider package is imported lazily, only when configured).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig

from chains import answer_checks as checks
from chains import non_answers
from chains.answer_checks import COVERAGE_FLOOR as COVERAGE_FLOOR  # re-exported
from chains.answer_checks import FOCUS_SIMILARITY as FOCUS_SIMILARITY  # re-exported
from chains.answer_checks import ExtractiveRules
from chains.assemble import Passage
from chains.citations import INSUFFICIENT
from chains.models import ModelSettings, build_chat_model, describe_model_error
from chains.streaming import unstreamed
from chains.watchdog import RETRYABLE_KINDS, WatchedModel, prime_client, split_parser
from chains.watchdog import ModelCancelledError as ModelCancelledError  # re-exported
from chains.watchdog import cancel_generations as cancel_generations  # re-exported
from chains.word_vectors import word_vectors
from citerag.core.lru import LRU
from citerag.core.text import STOPWORDS, tokenize
from citerag.stores.contract import SearchIndex, as_search_index
from loaders.row_text import (
    heading_context,
    recorded_rows,
    row_sentence_spans,
    row_span,
    row_statement,
    row_title,
    scored_texts,
    with_heading,
)
from loaders.sentences import sentence_spans

log = logging.getLogger(__name__)

#: A standalone number: not part of a word (``DMRT1``, ``B12``, ``FY2023``, ``1990s``), with
#: optional thousands separators and decimals.
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![A-Za-z0-9])"
    r"|(?<![A-Za-z0-9.,])\d+(?:\.\d+)?(?![A-Za-z0-9]|[.,]\d)"
)

#: A date written with dots, day first ("15.06.2027", the European form of a CSV export):
#: its day, month and year are numbers it writes (the pattern above reads none of them, as
#: the dots read as decimal points).
_DOTTED_DATE = re.compile(r"(?<![\w.,])(\d{1,2})\.(\d{1,2})\.(\d{4})(?![\w]|[.,]\d)")

#: Share of a question's focus weight (idf) that makes a non-name term essential.
FOCUS_SHARE = 0.4
#: Whether a focus term the index has never seen is essential.
FOCUS_UNSEEN = False
#: Graded focus rule: weight of the quoted sentence's own coverage (with its header) against
#: that of every supplied passage of its document.
COVERAGE_SENTENCE_WEIGHT = 0.5
#: An FAQ answer's sentences take their question line's score, less this per sentence after
#: the first (so the answer's first sentences are quoted, in order).
FAQ_STEP = 0.02
#: A further sentence is quoted when it scores within this much of the first (``margin``). Chosen
#: on 2026-12-06 on the calibration halves of the six unseen corpora
#: (``benchmarks/unseen_corpus``) by a stated rule: widen in steps of 0.05 while at least one in
#: four of the second sentences a step adds turns a wrong answer right (0.05 -> 0.10: 11 more
#: two-sentence answers, 4 made right; 0.10 -> 0.15: 8 more, 1 made right).
QUOTE_MARGIN = 0.10
#: FAQ heading questions whose vectors the answerer keeps (by text, oldest dropped first).
QUESTION_CACHE = 1024
#: Passages (best first) whose sentences the extractive answerer reads: the graph's
#: ``extractive_passages`` knob, whose default this is (its bounds are the knob's).
READ_PASSAGES = 3
#: The rules a sentence fails for its passage's terms: other passages are tried farther down.
_FOCUS_RULES = frozenset({"focus_check", "focus_names_check", "focus_coverage"})
#: The rules that read what kind of answer a question asks for (a weight, a count, a date).
_TYPE_RULES = frozenset({"answer_type_check", "quantity_check", "measure_check"})
#: The answer types ``quantity_check`` reads.
_QUANTITY_ONLY: tuple[checks.AnswerType, ...] = ("quantity",)


def numbers_in(text: str, min_digits: int = 1, clock: bool = False) -> set[str]:
    """Standalone numbers written in ``text``, in a canonical form.

    Thousands separators are removed, trailing decimal zeros and leading zeros dropped;
    digits inside words (``DMRT1``, ``FY2023``, ``1990s``) are not numbers here.
    ``"£1,200 in 2022 (E-217), 0.50"`` -> ``{"1200", "2022", "217", "0.5"}``; a date in
    figures gives its day, month and year in each spelling ("15/06/2027", "2027-06-15",
    "15.06.2027": ``{"15", "6", "2027"}``).

    Args:
        text: Any text.
        min_digits: Leave out numbers with fewer digits (``2`` skips "top 3", "type 1").
        clock: Also the hours of times of day written with *am* or *pm* ("gates close at
            11pm", "11.30pm": ``11``), which a passage states for a question's "after 11".
    """
    out = set()
    for m in _NUMBER.finditer(text):
        raw = m.group(0)
        if sum(ch.isdigit() for ch in raw) >= min_digits:
            out.add(checks.canonical_number(raw))
    for m in _DOTTED_DATE.finditer(text):
        out |= {checks.canonical_number(g) for g in m.groups() if len(g) >= min_digits}
    if clock:
        out |= {
            checks.canonical_number(h) for h in checks.clock_hours(text) if len(h) >= min_digits
        }
    return out


#: A number written as an operand of arithmetic: "365 * (average payables …)", "… / 2",
#: "x 100" (``/``, ``x`` and ``+`` only between spaces: "2023/24", "+1 nucleosomes", "8x"
#: are no operations; ``=`` alone is none: "status=3").
_NUM = r"(\d[\d,]*(?:\.\d+)?)"
_OPERAND = re.compile(
    rf"(?<![\w.,]){_NUM}(?=\s*[*×÷]|\s[/x+]\s)|(?:[*×÷]\s*|\s[/x+]\s+)\(?\s*{_NUM}(?![\w.,]?\d)"
)


def formula_constants(text: str) -> set[str]:
    """Numbers written as operands of arithmetic in ``text`` (canonical, as
    :func:`numbers_in`): the constants of a formula the question defines ("DPO is defined as:
    365 * (average accounts payable) / (COGS)"), which the user computes with, not a fact a
    passage must state."""
    return {checks.canonical_number(m.group(1) or m.group(2)) for m in _OPERAND.finditer(text)}


class Answerer(Protocol):
    """Produces raw answer text for numbered passages."""

    name: str

    def generate(self, question: str, passages: list[Passage], messages: list[BaseMessage]) -> str:
        """Return raw output (prose with markers + summary block)."""
        ...


@dataclass
class _Sentence:
    """One candidate sentence: its score, passage and text; ``scored`` is what it was scored
    by, ``stated`` what an answer says for it (a table row with its column names);
    ``opening`` the first statement of the FAQ answer it belongs to, when it is a later one."""

    score: float
    passage: Passage
    text: str
    vector: np.ndarray
    scored: str = ""
    stated: str = ""
    opening: _Sentence | None = None


#: Weight of the question without its context names in a sentence's cosine
#: (:class:`ExtractiveAnswerer` ``context_names``).
CONTEXT_NAMES = 0.5
#: A word written as a name in a question: a capital first ("Greenleaf", "3M" is a code).
_NAME_WORD = re.compile(r"(?<![\w'’])[A-Z][\w&.-]*(?:['’]s?)?")


def context_question(question: str, context: str) -> str | None:
    """The question without the names its passage's context already states, or ``None``.

    A name of the question (a word of letters written with a capital, its possessive with
    it; a code such as ``E2`` is no name) whose words all occur in ``context`` (a passage's
    document name, title, section and header) is taken out: within that passage every
    sentence stands under it, so it says which document, not which sentence ("Who is the
    director of Greenleaf Trust?" in Greenleaf Trust's report -> "Who is the director of
    ?"). ``None`` when no name is taken out, or fewer than two words would be left.

    Args:
        question: The question as asked.
        context: What the passage's context states (see :func:`_header`).
    """
    given = set(re.findall(r"[a-z0-9]+", context.lower()))
    out, cut = question, False
    for m in reversed(list(_NAME_WORD.finditer(question))):
        words = re.findall(r"[a-z0-9]+", re.sub(r"['’]s?$", "", m[0]).lower())
        if not words or any(w in STOPWORDS or w not in given or not w.isalpha() for w in words):
            continue
        out, cut = out[: m.start()] + out[m.end() :], True
    if not cut:
        return None
    out = " ".join(out.split())
    return out if len(re.findall(r"\w+", out)) >= 2 else None


def _insufficient(reason: str) -> str:
    block = {"confidence": "low", "sources": [], "insufficient_evidence": True, "reason": reason}
    return f"{INSUFFICIENT}\n<summary>{json.dumps(block)}</summary>"


#: The refusal rules' defaults (the constructor's keyword defaults).
_RULES = ExtractiveRules()


#: How a whole number is keyed among the words of :func:`coverage_words` ("#1500").
NUMBER_KEY = "#"


def coverage_words(text: str) -> set[str]:
    """The words of ``text`` as word coverage compares them: its tokens, except that a number
    written with separators is one word (``£1,500`` is ``#1500``, not ``1`` and ``500``, so
    it is not held by a row stating £2,500 and £1,800), and every number is also held whole
    (:func:`numbers_in`)."""
    words = set(tokenize(text))
    for m in _NUMBER.finditer(text):
        pieces = tokenize(m.group(0))
        if len(pieces) > 1:
            words -= set(pieces)
    return words | {NUMBER_KEY + n for n in numbers_in(text)}


def word_coverage(weights: Mapping[str, float], text: str) -> float:
    """The share of the question words' weight (``weights``: word -> weight, keyed as
    :func:`coverage_words` keys them) that ``text`` holds, a word's inflections counting as
    the word (:func:`chains.answer_checks.stem`: "reserves" holds "reserve", as the focus
    rules read words), a number only as the whole number; 0 for a question without words."""
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    held = coverage_words(text)
    return checks.held_weight(weights, held, {checks.stem(t) for t in held}) / total


class ExtractiveAnswerer:
    """Quote the best-matching sentences of the top passages (offline default).

    Before quoting, the answerer checks that the sentence answers the question rather than
    resembling it (:mod:`chains.answer_checks`): instruction-shaped sentences are never
    candidates (always); a number the question asks about must be in a passage
    (``require_question_numbers``); the sentence must hold the answer type the question asks
    for (``answer_type_check``; its *how many* half alone is ``quantity_check``) and name
    what a *how many* question counts (``counted_check``); the question's essential focus
    terms must occur, or have a close paraphrase, in the sentence's passage
    (``focus_check``). When no candidate sentence passes, the reply is "insufficient
    evidence" with the reason.
    """

    name = "extractive"

    def __init__(
        self,
        embeddings: Embeddings,
        store: Any | None = None,
        max_sentences: int = 2,
        margin: float = QUOTE_MARGIN,
        lexical_weight: float = 0.25,
        require_question_numbers: bool = _RULES.number_check,
        answer_type_check: bool = _RULES.answer_type_check,
        quantity_check: bool = _RULES.quantity_check,
        measure_check: bool = _RULES.measure_check,
        counted_check: bool = _RULES.counted_check,
        focus_check: bool = _RULES.focus_check,
        negation_check: bool = _RULES.negation_check,
        contrast_check: bool = _RULES.contrast_check,
        focus_names_check: bool = _RULES.focus_names_check,
        check_margin: float = 0.1,
        focus_margin: float = 0.25,
        type_margin: float = 0.3,
        focus_similarity: float = FOCUS_SIMILARITY,
        focus_share: float = FOCUS_SHARE,
        focus_unseen: bool = FOCUS_UNSEEN,
        focus_coverage: float = 0.0,
        coverage_sentence_weight: float | None = None,
        coverage_floor: float | None = None,
        idf_coverage: bool = True,
        read_passages: int = READ_PASSAGES,
        context_names: float = CONTEXT_NAMES,
    ) -> None:
        """Create the answerer. The refusal rules' defaults are :class:`ExtractiveRules`'.

        Args:
            embeddings: Embedding model for scoring sentences against the question.
            store: The index (:class:`~citerag.stores.contract.SearchIndex`; anything else is
                wrapped by :func:`~citerag.stores.contract.as_search_index`): precomputed
                sentence vectors and idf weights of focus terms; optional.
            max_sentences: Most sentences quoted.
            read_passages: How many of the supplied passages (best first) the sentences are
                read from (:data:`READ_PASSAGES`); the others still count where a rule reads
                every passage (a number the question asks about, a term's document).
            margin: A further sentence is quoted only if within this score of the first
                (:data:`QUOTE_MARGIN`: when two sentences score alike, the answer shows both
                rather than bet on one).
            lexical_weight: Weight of the share of question words a sentence contains.
            idf_coverage: Weigh that share by the index's idf of each word, as the
                second stage does (:class:`chains.rerank.SentenceReranker`): "serial" counts
                for more than "brewer" in a corpus of brewer documents, so the sentence
                naming the serial number beats the one naming the brewer. A word the index
                never saw weighs the mean of the others. ``False``, or an index without term
                statistics: every word weighs the same (the behaviour before 2026-12-05).
            context_names: Weight, in a sentence's cosine, of the question without the names
                its passage's context already states (document name, title, section:
                :func:`context_question`); ``0`` scores by the question as asked only. Within
                Greenleaf Trust's report, "Who is the director of Greenleaf Trust?" is about
                the director: "Greenleaf Trust is a small charity …" matches its name, "Our
                director is Priya Shah." what it asks.
            require_question_numbers: Reply "insufficient evidence" when a number the
                question asks about (a year, an amount, a code; two or more digits) appears
                in no passage: the passages are about something else ("revenue in 2022" vs a
                2025 report), and quoting the nearest sentence would answer a different
                question. See :meth:`missing_numbers`.
            answer_type_check: A *who* / *when* / *how many* question needs a sentence with
                a name / date / quantity the question does not already state
                (:func:`chains.answer_checks.answer_type_problem`).
            quantity_check: The *how many / how much / how long* half of
                ``answer_type_check``: such a question needs a sentence with a quantity
                (digits, written numbers, money, per cent; a duration for *how long*) that the
                question does not already state, and a count of things one that is no sum
                of money, per cent, label or time of day
                (:func:`chains.answer_checks.counts_nothing`).
                ``answer_type_check`` includes it.
            measure_check: A question asking for one kind of quantity (a height, a speed, a
                weight, a price, a temperature, an area, a percentage) needs a sentence with a
                unit of that kind (:func:`chains.answer_checks.measure_problem`): a year and a
                count do not give a height; one asking for a rate ("price per share") needs a
                sentence that names its unit.
            counted_check: A question counting something ("how many *ships* ...") needs a
                sentence that names it, or a word with cosine >= ``focus_similarity`` to one
                of its words (:func:`chains.answer_checks.counted_words`): a number of
                something else ("five employees" for "how many members") does not answer it.
                Refused only when the sentence counts another thing
                (:func:`chains.answer_checks.counted_instead`), not when its number counts
                nothing named ("net sales were $383.3 billion" for "how much revenue").
            focus_check: The question's essential focus terms (names, and terms carrying at
                least ``focus_share`` of its idf weight) must occur in the sentence's passage
                or its header, or have a word there with cosine >= ``focus_similarity``.
            negation_check: A negated question ("what does *not* ...") needs a sentence
                with a negation or exception in it
                (:func:`chains.answer_checks.negation_problem`).
            contrast_check: A question naming one of two words that exclude each other
                ("less", "Tuesday") needs a sentence that does not state the other instead
                (:func:`chains.answer_checks.contrast_problem`).
            focus_names_check: The names half of ``focus_check``, for questions only
                (:func:`chains.answer_checks.is_question`): a name or acronym the question
                asks about must occur in the sentence's passage or its header (or have a
                word there with cosine >= ``focus_similarity``); heavy common words are not
                required. A claim to check ("APOE4 increases AlphaBeta production") is not
                held to it: its shorthand is the claimant's, and the passage that refutes or
                supports it may spell it otherwise. ``focus_check`` includes it, for any
                input.
            check_margin: When the best sentence fails a check, sentences scoring within
                this much of it are tried in order before refusing.
            focus_margin: When every sentence tried so far failed only the focus check (its
                passage misses a term the question needs), sentences of other passages
                scoring within this much of the best are tried too (never fewer than
                ``check_margin`` reaches).
            type_margin: When every sentence tried so far was refused first by a rule reading
                the kind of answer asked for (``measure_check``, ``quantity_check``,
                ``answer_type_check``: "how heavy" and no weight; these rules run before the
                others), sentences scoring within this much of the best are tried too (never
                fewer than ``check_margin`` reaches): the one stating a weight may score below
                a sentence about the same thing ("Weight | 1.9 kg" under the product's
                overview).
            focus_similarity: Cosine between a term's and a word's embeddings that counts as
                a paraphrase.
            focus_share: Share of the question's focus weight that makes a term essential.
            focus_unseen: A focus term no passage of the index contains is essential.
            focus_coverage: The graded focus rule (``0`` = off): the quoted sentence must
                cover at least this share of the question's focus weight (idf), averaging
                the sentence's own coverage (with its header) and that of every supplied
                passage of its document, a paraphrase counting by how close it is
                (:func:`chains.answer_checks.focus_coverage`).
            coverage_sentence_weight: Weight of the sentence's own coverage in that average
                (default ``COVERAGE_SENTENCE_WEIGHT``).
            coverage_floor: Cosine at which a word starts to count as a paraphrase (default
                ``COVERAGE_FLOOR``; ``focus_similarity`` counts fully).

        Raises:
            ValueError: ``focus_coverage`` or ``coverage_sentence_weight`` outside 0..1; a
                margin (``margin``, ``check_margin``, ``focus_margin``, ``type_margin``)
                negative or not a finite number.
        """
        for name, value in (
            ("margin", margin),
            ("check_margin", check_margin),
            ("focus_margin", focus_margin),
            ("type_margin", type_margin),
        ):
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        if not 0.0 <= focus_coverage <= 1.0:
            raise ValueError(f"focus_coverage must be within 0..1, got {focus_coverage!r}")
        sw = (
            COVERAGE_SENTENCE_WEIGHT
            if coverage_sentence_weight is None
            else coverage_sentence_weight
        )
        if not 0.0 <= sw <= 1.0:
            raise ValueError(f"coverage_sentence_weight must be within 0..1, got {sw!r}")
        if (
            isinstance(read_passages, bool)
            or not isinstance(read_passages, int)
            or read_passages < 1
        ):
            raise ValueError(f"read_passages must be an integer >= 1, got {read_passages!r}")
        self.embeddings = embeddings
        self.store = store
        self.max_sentences = max_sentences
        self.read_passages = read_passages
        self.margin = margin
        self.lexical_weight = lexical_weight
        self.idf_coverage = idf_coverage
        if not 0.0 <= context_names <= 1.0:
            raise ValueError(f"context_names must be within 0..1, got {context_names!r}")
        self.context_names = context_names
        self.require_question_numbers = require_question_numbers
        self.answer_type_check = answer_type_check
        self.quantity_check = quantity_check
        self.measure_check = measure_check
        self.counted_check = counted_check
        self.focus_check = focus_check
        self.negation_check = negation_check
        self.contrast_check = contrast_check
        self.focus_names_check = focus_names_check
        self.check_margin = check_margin
        self.focus_margin = focus_margin
        self.type_margin = type_margin
        self.focus_similarity = focus_similarity
        self.focus_share = focus_share
        self.focus_unseen = focus_unseen
        self.focus_coverage = focus_coverage
        self.coverage_sentence_weight = sw
        self.coverage_floor = COVERAGE_FLOOR if coverage_floor is None else coverage_floor
        self._questions: LRU[str, np.ndarray] = LRU(QUESTION_CACHE)

    @property
    def store(self) -> SearchIndex | None:
        """The index read through the contract (``None``: none)."""
        return self._store

    @store.setter
    def store(self, value: Any) -> None:
        self._store = None if value is None else as_search_index(value)

    def _sentence_vectors(self, passage: Passage) -> tuple[list[tuple[int, int]], np.ndarray]:
        key = passage.candidate.key
        got = None if self.store is None else self.store.sentence_vectors_many([key]).get(key)
        if got is not None and len(got[0]):
            return got[0], np.asarray(got[1], dtype=np.float32)
        content = passage.candidate.content
        spans = row_sentence_spans(content, passage.candidate.meta) or [(0, len(content))]
        vecs = self.embeddings.embed_documents(scored_texts(content, spans, passage.candidate.meta))
        return spans, np.asarray(vecs, dtype=np.float32)

    @staticmethod
    def missing_numbers(question: str, passages: Sequence[Passage]) -> list[str]:
        """Numbers of two or more digits the question asks about that no passage mentions.

        A passage "mentions" a number in its text, its embedded header (title and section),
        its document name or its page number, or states a range that holds it ("I'm 70, do I
        pay?" / "members over 65 pay no fines": :func:`chains.answer_checks.within_stated_bound`);
        a split year states both its years ("Budget 2025/26" mentions 2026). A date in figures
        or a split year of the question is one thing, not its numbers ("03/11/2025",
        "2023/24"): mentioned where a passage states it in any spelling ("3 November 2025";
        "FY2023-24"), and listed as the question writes it when none does
        (:func:`chains.answer_checks.period_mentioned`).
        """
        periods = checks.asked_periods(question)
        asked = numbers_in(checks.without_periods(question, periods), min_digits=2)
        asked -= formula_constants(question)
        if not asked and not periods:
            return []
        present: set[str] = set()
        texts = [f"{p.candidate.document.page_content} {p.candidate.content}" for p in passages]
        wheres = [_where(p) for p in passages]
        for text, where in zip(texts, wheres, strict=True):
            present |= numbers_in(text, clock=True)
            present |= numbers_in(where)
        # a split year of the question needs its own span or both years written out: the
        # years inside other spans ("2023/24 … 2025/26") do not make 2024/25
        written = frozenset(present)
        spans = set().union(*(checks.split_years_in(t) for t in (*texts, *wheres)))
        present |= {str(year) for span in spans for year in span}
        missing = sorted(
            n for n in asked - present if checks.within_stated_bound(n, question, texts) is None
        )
        missing += [
            p.written for p in periods if not checks.period_mentioned(p, (*texts, *wheres), written)
        ]
        return missing

    # -- focus terms --------------------------------------------------------------------

    def _idf(self, question: str) -> dict[str, float] | None:
        if self.store is None or not self.store.has_term_statistics:
            return None  # the focus terms' length heuristic
        return dict(self.store.idf(set(tokenize(question))))  # terms the index never saw: absent

    def _word_weights(self, question: str, idf: Mapping[str, float] | None) -> dict[str, float]:
        """Each question word's weight in a sentence's word coverage (``idf_coverage``; ``idf``:
        :meth:`_idf` of the question)."""
        words = {w for w in coverage_words(question) if not w.isdigit()}  # numbers: whole
        if not self.idf_coverage or not idf:
            return dict.fromkeys(words, 1.0)
        mean = sum(idf.values()) / len(idf)
        return {w: idf.get(w.removeprefix(NUMBER_KEY), mean) for w in words}

    def _vectors(self, words: Sequence[str]) -> np.ndarray:
        """Embeddings of single words, one row each (:func:`chains.word_vectors.word_vectors`:
        cached per model, shared with the second stage)."""
        known = word_vectors(self.embeddings, words)
        out = [known[w] for w in words]
        return np.asarray(out, dtype=np.float32).reshape(len(words), -1)

    def _focus_reason(
        self,
        terms: list[checks.FocusTerm],
        sentence: _Sentence,
        cache: dict[tuple[int, str], list[str]],
        question: str = "",
    ) -> str | None:
        """Why the sentence's passage misses an essential focus term, or ``None``.

        A place the question names is also named by a place within it, or a region
        containing it, in the quoted sentence or its header
        (:func:`chains.answer_checks.place_covering`: "our Lyon distributor" is the French
        one; a rule for Europe answers a question about Germany).

        A table row is a record of its own: its context is the row as stated with its
        table's title and column names (and the passage's document, section and page), not
        the other rows around it, so the row of the Japanese supplier does not answer a
        question about the Chinese one because the Chinese supplier's row is in the same
        passage. For the same reason a sentence outside the table does not borrow a name
        from a row: "Standard delivery takes 5 working days." does not answer "How long does
        delivery to the Highlands take?" because a row below it reads "Highlands 8".
        """
        n = sentence.passage.number
        key = (n, sentence.text)  # a region counts in the sentence, not its whole passage
        if key not in cache:
            cand = sentence.passage.candidate
            if sentence.stated:
                # scored: the row with its table's title and column names (row_text)
                context = f"{sentence.scored}\n{sentence.stated}\n{_where(sentence.passage)}"
            else:  # the passage around it, without its table rows: each is its own record
                context = f"{_header(sentence.passage)}\n{_without_rows(cand.content, cand.meta)}"
            said = f"{sentence.scored or sentence.text}\n{_header(sentence.passage)}"
            missing = checks.lexically_uncovered(terms, context, question, said)
            # names only (no share of the weight makes a common word essential) unless the
            # whole focus check is on
            share = self.focus_share if self.focus_check else math.inf
            missing = checks.essential(terms, missing, share, self.focus_unseen)
            cache[key] = [t.term for t in self._unparaphrased(missing, context)]
        gone = [t for t in terms if t.term in cache[key]]
        return checks.focus_problem(gone)

    def _other_record_reason(
        self,
        terms: list[checks.FocusTerm],
        sentence: _Sentence,
        passages: Sequence[Passage],
        cache: dict[tuple[int, str], list[str]],
        question: str = "",
    ) -> str | None:
        """Why a table row the question names lacks the asked thing that the passages state
        for another named thing, or ``None`` (:func:`chains.answer_checks.other_record_problem`),
        or lacks a word qualifying what is asked that is another row's label
        (:func:`chains.answer_checks.row_qualifier_problem`).

        The row's context is read as the focus rules read it (the row with its table's
        title and column names, and the passage's document, section and page); a word the
        row lacks counts only without a close paraphrase there. The other records are the
        rows of the same table (same title) in the supplied passages of the row's document;
        the sentences that may state the word are those passages' sentences outside rows.
        """
        asked = [t for t in terms if not t.entity and not t.code]
        label = checks.row_label(sentence.stated)
        if not asked or not label:
            return None
        key = (sentence.passage.number, f"record:{sentence.text}")
        if key not in cache:
            context = f"{sentence.scored}\n{sentence.stated}\n{_where(sentence.passage)}"
            missing = checks.lexically_uncovered(asked, context)
            cache[key] = [t.term for t in self._unparaphrased(missing, context)] if missing else []
        if not cache[key]:
            return None
        lacking = [t for t in asked if t.term in cache[key]]
        title = _row_title_of(sentence)
        doc = _doc_key(sentence.passage)
        others: list[str] = []
        texts: list[str] = []
        for p in passages or (sentence.passage,):
            if _doc_key(p) != doc:
                continue
            meta = p.candidate.meta
            others.extend(
                checks.row_label(r[3]) for r in recorded_rows(meta) if row_title(r) == title
            )
            prose = _without_rows(p.candidate.content, meta)
            texts.extend(prose[s:e] for s, e in sentence_spans(prose))
        return checks.other_record_problem(
            cache[key], label, others, texts
        ) or checks.row_qualifier_problem(question, lacking, label, others)

    def _unparaphrased(self, missing: list[checks.FocusTerm], text: str) -> list[checks.FocusTerm]:
        """The terms of ``missing`` with no word of ``text`` at cosine >= ``focus_similarity``.

        A name (:attr:`~chains.answer_checks.FocusTerm.entity`) has no paraphrase: the words
        nearest to a name are neighbouring names ("Kenya" / "Africa", "Scotland" /
        "Britain"), not the same one; its other spellings are listed
        (:func:`chains.answer_checks.name_forms`), and :func:`lexically_uncovered` has
        already tried them.
        """
        common = [t for t in missing if not t.entity]
        if not common:
            return list(missing)
        words = [t for t in dict.fromkeys(tokenize(text)) if not t.isdigit()]
        ctx_vecs = self._vectors(words) if words else np.zeros((0, 1), np.float32)
        term_vecs = self._vectors([t.term for t in common])
        near = {
            t.term
            for t, v in zip(common, term_vecs, strict=True)
            if checks.paraphrased(v, ctx_vecs, self.focus_similarity)
        }
        return [t for t in missing if t.term not in near]

    def _degrees(self, terms: list[checks.FocusTerm], text: str) -> dict[str, float]:
        """Degree (0..1) of each focus term ``text`` lacks lexically: its closest paraphrase."""
        missing = checks.lexically_uncovered(terms, text)
        if not missing:
            return {}
        words = [t for t in dict.fromkeys(tokenize(text)) if not t.isdigit()]
        if not words:
            return {t.term: 0.0 for t in missing}
        degrees = checks.paraphrase_degrees(
            self._vectors([t.term for t in missing]),
            self._vectors(words),
            self.coverage_floor,
            self.focus_similarity,
        )
        # a name has no paraphrase (see _unparaphrased)
        return {
            t.term: 0.0 if t.entity else float(d) for t, d in zip(missing, degrees, strict=True)
        }

    def coverage(
        self,
        terms: list[checks.FocusTerm],
        sentence_text: str,
        passage: Passage,
        passages: Sequence[Passage],
        cache: dict[str, dict[str, float]] | None = None,
    ) -> tuple[float, list[str]]:
        """The graded focus rule's score of one sentence, and the terms it covers least.

        ``w * coverage(sentence + its header) + (1 - w) * coverage(every supplied passage of
        its document, headers included)``, ``w`` = ``coverage_sentence_weight``: the
        sentence must be about what the question asks, and a term its document defines
        elsewhere (an abbreviation spelled out in another chunk) still counts.

        Args:
            terms: The question's focus terms.
            sentence_text: The sentence that would be quoted.
            passage: Its passage.
            passages: Every supplied passage (those of the same document form its context).
            cache: Per-document degrees, reused across the sentences of one question.

        Returns:
            ``(coverage, terms)``: the score and the focus terms covered less than half,
            heaviest first.
        """
        doc = _doc_key(passage)
        cache = {} if cache is None else cache
        if doc not in cache:
            same = [p for p in passages if _doc_key(p) == doc]
            cache[doc] = self._degrees(terms, "\n".join(_full_text(p) for p in same))
        header = _header(passage)
        sent = self._degrees(terms, f"{sentence_text}\n{header}")
        w = self.coverage_sentence_weight
        score = w * checks.focus_coverage(terms, sent) + (1 - w) * checks.focus_coverage(
            terms, cache[doc]
        )
        both = {
            t.term: w * sent.get(t.term, 1.0) + (1 - w) * cache[doc].get(t.term, 1.0) for t in terms
        }
        weak = sorted((t for t in terms if both[t.term] < 0.5), key=lambda t: -t.weight)
        return score, [t.term for t in weak]

    def _counted_reason(self, question: str, sentence: str) -> str | None:
        """Why ``sentence`` does not count what the question counts, or ``None``."""
        words = checks.counted_words(question) if checks.is_question(question) else []
        if not words:
            return None
        instead = checks.counted_instead(sentence)
        if not instead:
            return None  # refused only on positive evidence: a number of another thing
        terms = [checks.FocusTerm(w, 1.0) for w in words]
        missing = checks.lexically_uncovered(terms, sentence)
        if len(missing) < len(terms) or len(self._unparaphrased(missing, sentence)) < len(terms):
            return None  # one counted word is in the sentence, or has a paraphrase there
        return checks.counted_problem(words, instead[0])

    def _names_apply(self, question: str) -> bool:
        """Whether ``focus_names_check`` reads this input: it is on and the input asks."""
        return self.focus_names_check and checks.is_question(question)

    def _problem(
        self,
        question: str,
        sentence: _Sentence,
        terms: list[checks.FocusTerm],
        cache: dict[tuple[int, str], list[str]],
        passages: Sequence[Passage] = (),
        coverage_cache: dict[str, dict[str, float]] | None = None,
    ) -> tuple[str, str] | None:
        """The first enabled check the sentence fails, as ``(rule, reason)``, or ``None``.

        The answer-type and unit checks read a table row as stated with its column names:
        a header carries the unit its cells leave out (``Amount (GBP): 112.00``,
        ``In stock (kg): 85``).
        """
        said = checks.header_units(sentence.stated) if sentence.stated else sentence.text
        # a question for a message's sender or date is answered by a name or a date, as
        # its header line gives them ("Welcome to our winter newsletter!" gives neither)
        field = non_answers.asked_message_field(question)
        if field and non_answers.is_field_line(
            sentence.text, sentence.passage.candidate.meta, field
        ):
            return None  # the header line of the field asked for: the answer, by structure
        typed = self.answer_type_check or field is not None
        if typed or self.quantity_check:
            kinds = None if typed else _QUANTITY_ONLY
            reason = checks.answer_type_problem(question, said, kinds)
            if reason:
                return ("answer_type_check" if kinds is None else "quantity_check"), reason
        if self.measure_check:
            reason = checks.measure_problem(question, said)
            if reason:
                return "measure_check", reason
        if self.counted_check:
            reason = self._counted_reason(question, sentence.text)
            if reason:
                return "counted_check", reason
        if self.negation_check:
            reason = checks.negation_problem(question, sentence.text)
            if reason:
                return "negation_check", reason
        if self.contrast_check:
            where = f"{_where(sentence.passage)} {_header(sentence.passage)} {sentence.scored}"
            if sentence.stated:  # a row's column years say which year it is about
                reason = checks.row_year_problem(question, sentence.stated)
                reason = reason or checks.column_kind_problem(question, sentence.stated)
                if reason:
                    return "contrast_check", reason
            reason = checks.contrast_problem(question, said, where)
            # "the meeting on 1 December" / "Next meeting: Tuesday 1 December": its day only
            reason = reason or checks.restated_date_problem(question, sentence.text)
            # a compound held only in pieces; a later statement of an FAQ answer is about
            # what its opening is about ("Choose it in the basket" after "Gift wrapping …")
            around = f"{_header(sentence.passage)}\n{sentence.passage.candidate.content}"
            for text in (said, sentence.opening.text if sentence.opening else ""):
                if not reason and text:
                    reason = checks.compound_problem(question, text, around)
            if reason:
                return "contrast_check", reason
            if sentence.stated and terms and checks.is_question(question):
                reason = self._other_record_reason(terms, sentence, passages, cache, question)
                if reason:
                    return "contrast_check", reason
        if (self.focus_check or self._names_apply(question)) and terms:
            reason = self._focus_reason(terms, sentence, cache, question)
            if reason:
                return ("focus_check" if self.focus_check else "focus_names_check"), reason
        if self.focus_coverage > 0 and terms:
            score, weak = self.coverage(
                terms, sentence.scored or sentence.text, sentence.passage, passages, coverage_cache
            )
            reason = checks.coverage_problem(score, self.focus_coverage, weak)
            if reason:
                return "focus_coverage", reason
        return None

    # -- answering ----------------------------------------------------------------------

    def _scored(
        self, question: str, passages: list[Passage], idf: Mapping[str, float] | None = None
    ) -> tuple[list[_Sentence], int]:
        """The passages' quotable sentences, best first, and how many were left out as
        questions, headings, titles, captions, bare yes/no replies or, for a question that is
        not about a message, an e-mail's sender, recipients and date (:mod:`chains.non_answers`).

        A heading glued onto the front of a stored span is cut off the quote; an FAQ
        question line is never quoted, its answer (the statements after it in the passage)
        taking its score instead. ``idf``: the question words' (:meth:`_idf`), which weigh
        its word coverage (``idf_coverage``).
        """
        q = np.asarray(self.embeddings.embed_query(question), dtype=np.float32)
        q /= np.linalg.norm(q) or 1.0
        q_terms = self._word_weights(question, idf)
        about_message = non_answers.asks_about_message(question)
        scored: list[_Sentence] = []
        dropped = 0
        without: dict[str, np.ndarray] = {}  # the question without context names -> vector
        for p in passages[: self.read_passages]:
            spans, vecs = self._sentence_vectors(p)
            sims = vecs @ q
            rest = context_question(question, _header(p)) if self.context_names else None
            if rest is not None:
                if rest not in without:
                    v = np.asarray(self.embeddings.embed_query(rest), dtype=np.float32)
                    without[rest] = v / (np.linalg.norm(v) or 1.0)
                w = self.context_names
                sims = (1.0 - w) * sims + w * (vecs @ without[rest])
            content = p.candidate.content
            meta = p.candidate.meta
            items: list[tuple[float, str, np.ndarray]] = []
            passes: list[float] = []  # what a question line passes to its answer
            kinds: list[non_answers.NonAnswer | None] = []
            # a table row's sentence is scored with its headers (loaders.row_text)
            row_scored = scored_texts(content, spans, meta)
            scored_by: list[str] = []
            stated: list[str] = []
            opens_line: list[bool] = []  # the sentence starts its line (a question line)
            heading = heading_context(meta)
            for (s0, e), sim, vec, by in zip(spans, sims, vecs, row_scored, strict=True):
                s = non_answers.leading_heading(content, s0, e, meta)
                s = non_answers.leading_reply(content, s, e)  # "Yes." is the FAQ's reply
                row = row_span(meta, s0, e)
                if row is None:  # not a table row's: scored by what is quoted
                    by = with_heading(content[s:e], heading)  # a short line with its heading
                    alone = content[s:e]
                else:  # a row's cells are quoted with their label: the whole row
                    s, e = row
                    alone = by
                sent = content[s:e]
                stated.append(row_statement(meta, s, e) or "")
                opens_line.append(not content[content.rfind("\n", 0, s) + 1 : s].strip())
                coverage = word_coverage(q_terms, by)
                # A heading or table cell is rarely an answer: prefer real sentences.
                short = 0.15 if len(alone.split()) < 5 else 0.0
                items.append((float(sim) + self.lexical_weight * coverage - short, sent, vec))
                passes.append(float(sim) + self.lexical_weight * coverage)
                scored_by.append(by)
                kind = non_answers.non_answer(content, s, e, meta)
                if kind is None and not about_message and non_answers.message_field(sent, meta):
                    kind = "message"  # "Date: …" says when the e-mail was sent, nothing more
                kinds.append(kind)
            scores = [score for score, _, _ in items]
            # The question of an FAQ pair passes its score to its answer: a question line,
            # or the heading the pair's question is written as (then the answer opens the
            # chunk). A short question is no weaker a question: no short-line penalty here.
            answers: list[list[int]] = []  # each FAQ answer's sentences, in order
            asked = non_answers.heading_question(meta, content)
            if asked:
                passed = self._question_score(asked, q, q_terms)
                follows = [j - 1 for j in non_answers.faq_answer_follows([None, *kinds], 0)]
                answers.append(follows)
                for r, j in enumerate(follows):
                    scores[j] = max(scores[j], passed - FAQ_STEP * r)
            for i, kind in enumerate(kinds):
                if kind == "question":  # its answer is what follows it
                    follows = non_answers.faq_answer_follows(kinds, i)
                    if opens_line[i]:  # a question line, not one asked inside a paragraph
                        answers.append(follows)
                    for r, j in enumerate(follows):
                        scores[j] = max(scores[j], passes[i] - FAQ_STEP * r)
            made: dict[int, _Sentence] = {}
            for i, ((_, sent, vec), score, kind, by, says) in enumerate(
                zip(items, scores, kinds, scored_by, stated, strict=True)
            ):
                if kind is None:
                    made[i] = _Sentence(score, p, sent, vec, by, says)
                    scored.append(made[i])
                else:
                    dropped += 1
            # a later sentence of an FAQ answer knows its opening: in a question-and-answer
            # pair of the structural model only, never after a question asked in prose (the
            # heading question is already None for a chunk continuing a long answer)
            pair = str(meta.get("block_type") or "").lower() == "qa_pair"
            for follows in answers if pair else []:
                if follows and follows[0] in made:
                    for j in follows[1:]:
                        if j in made:
                            made[j].opening = made[follows[0]]
        field = non_answers.asked_message_field(question)
        if field is not None:  # "when was the newsletter sent?": its Date line answers
            best: dict[str, float] = {}
            for t in scored:
                key = _doc_key(t.passage)
                best[key] = max(best.get(key, t.score), t.score)
            for t in scored:
                if non_answers.is_field_line(t.text, t.passage.candidate.meta, field):
                    t.score = max(t.score, best[_doc_key(t.passage)] + FAQ_STEP)
        scored.sort(key=lambda t: -t.score)
        return scored, dropped

    def _question_score(self, asked: str, q: np.ndarray, q_terms: Mapping[str, float]) -> float:
        """An FAQ heading question's score against the question (``q`` its unit vector):
        cosine plus ``lexical_weight`` times the (weighted) share of the question's words it
        holds."""
        vec = self._questions.get(asked)
        if vec is None:
            vec = np.asarray(self.embeddings.embed_documents([asked])[0], dtype=np.float32)
            vec /= np.linalg.norm(vec) or 1.0
            self._questions.put(asked, vec)
        return float(vec @ q) + self.lexical_weight * word_coverage(q_terms, asked)

    def generate(self, question: str, passages: list[Passage], messages: list[BaseMessage]) -> str:
        """Pick sentences by cosine and word overlap with the question; quote them verbatim.

        Instruction-shaped sentences, questions, headings, titles and captions
        (:mod:`chains.non_answers`) are dropped before choosing (an FAQ question line passes
        its score to the answer under it); the enabled checks then decide whether the best
        remaining sentences answer the question.
        """
        if not passages:
            block = {"confidence": "low", "sources": [], "insufficient_evidence": True}
            return f"<summary>{json.dumps(block)}</summary>"
        # "whats the price", "how much r paperbacks": the rules read the standard spelling;
        # sentences are scored by the question as typed (documents write "mins" and "hrs" too)
        asked = checks.standard_spelling(question)
        if self.require_question_numbers:
            constants = formula_constants(question)
            if constants:  # "DPO is defined as: 365 * (…) / (…)": figures to compute with
                return _insufficient(
                    "the question asks for a computation (a formula with "
                    f"{', '.join(sorted(constants, key=float))}); an extractive answer quotes "
                    "what the passages state and computes nothing"
                )
            missing = self.missing_numbers(question, passages)
            if missing:
                return _insufficient(
                    f"the question asks about {', '.join(missing)}, which no supplied passage "
                    "mentions"
                )
        idf = self._idf(question)  # once: the word coverage and the focus terms
        scored, dropped = self._scored(question, passages, idf)
        safe = [s for s in scored if not checks.is_instruction(s.text)]
        field = non_answers.asked_message_field(question)
        if field is not None:  # "who sent the newsletter?": its From line, when one is here
            field_lines = [
                s
                for s in safe
                if non_answers.is_field_line(s.text, s.passage.candidate.meta, field)
            ]
            safe = field_lines or safe
        if not scored and dropped:
            return _insufficient(
                "the only matching sentences are questions, headings, titles, captions, a "
                "bare yes or no (an FAQ's reply to its own question) or an e-mail's sender, "
                "recipients and date, which state no answer"
            )
        if not safe:
            return _insufficient(
                "the only matching sentences are instructions addressed to the reader or the "
                "assistant, which are never quoted (retrieved text is data, not instructions)"
            )
        wants_terms = self.focus_check or self._names_apply(asked) or self.focus_coverage > 0
        full = [_full_text(p) for p in passages] if wants_terms else []
        terms = (
            checks.focus_terms(
                asked,  # "whats the wifi called" asks about 'wifi', not about 'whats'
                idf,
                checks.written_as_names(question, full),
                checks.code_series(full),  # "freezer F5" where the passages list F1 … F4
            )
            if wants_terms
            else []
        )
        focus_cache: dict[tuple[int, str], list[str]] = {}
        coverage_cache: dict[str, dict[str, float]] = {}
        best = safe[0].score
        first_problem: str | None = None
        only_focus = True  # every sentence tried so far failed only for its passage's terms
        only_type = True  # … only for the kind of answer it gives
        chosen: list[_Sentence] = []
        for item in safe:
            reach = self.check_margin  # the wider reaches only ever widen it
            if first_problem and only_focus:
                reach = max(reach, self.focus_margin)
            elif first_problem and only_type:
                reach = max(reach, self.type_margin)
            if not chosen and item.score < best - reach:
                break
            if chosen and (
                len(chosen) >= self.max_sentences or item.score < chosen[0].score - self.margin
            ):
                break
            if any(item.text == c.text for c in chosen):
                continue
            problem = self._problem(asked, item, terms, focus_cache, passages, coverage_cache)
            if problem is not None:
                first_problem = first_problem or problem[1]
                only_focus = only_focus and problem[0] in _FOCUS_RULES
                only_type = only_type and problem[0] in _TYPE_RULES
                continue
            chosen.append(item)
        if not chosen:
            assert first_problem is not None  # the best sentence is always examined
            return _insufficient(first_problem)
        chosen = _with_opening(
            chosen,
            self.max_sentences,
            lambda s: self._problem(asked, s, terms, focus_cache, passages, coverage_cache) is None,
        )
        top = chosen[0].score
        # passage (rank) order; within a passage the best sentence first (a citation's own
        # quote is the first one the answer states: the best)
        chosen.sort(key=lambda t: t.passage.number)
        lines = []
        for item in chosen:
            quote = " ".join(item.text.split()).replace('"', '\\"')  # validate() unescapes
            # a table row is stated with its title and column names ("Price list — Earl Grey
            # — Pack: 1 kg; Price per kg: £28.50"); its citation quotes the row verbatim
            text = " ".join((item.stated or item.text).split())
            lines.append(f'{text} [{item.passage.number}: "{quote}"]')
        confidence = "high" if top >= 0.8 else "medium" if top >= 0.55 else "low"
        block = {
            "confidence": confidence,
            "sources": sorted({c.passage.number for c in chosen}),
            "insufficient_evidence": False,
        }
        return "\n".join(lines) + f"\n<summary>{json.dumps(block)}</summary>"


def _with_opening(
    chosen: list[_Sentence], max_sentences: int, passes: Callable[[_Sentence], bool]
) -> list[_Sentence]:
    """The chosen sentences, the best one preceded by its FAQ answer's opening statement.

    An FAQ answer states its answer first and qualifies it after ("Standard delivery takes
    three to five working days. Express delivery arrives the next working day if you order
    before 1 pm."): when the best sentence is a later one of its answer, the opening is
    quoted before it, in the slot of the next-best sentence if the quote is full (or moved
    before it when it was chosen already). An opening that is instruction-shaped or fails a
    check (``passes``) is left out: the best sentence is then quoted as it was.

    Args:
        chosen: The sentences that passed the checks, best first.
        max_sentences: Most sentences quoted.
        passes: Whether a sentence passes the answerer's enabled checks.
    """
    best = chosen[0]
    opening = best.opening
    if opening is None or max_sentences < 2:
        return chosen
    rest = [c for c in chosen[1:] if c.text != opening.text]
    fresh = len(rest) == len(chosen) - 1  # not chosen already: checked as any other sentence
    if fresh and (checks.is_instruction(opening.text) or not passes(opening)):
        return chosen
    lead = dataclasses.replace(opening, score=best.score, opening=None)
    return [lead, best, *rest][:max_sentences]


def _row_title_of(sentence: _Sentence) -> str | None:
    """The title of the table a quoted row belongs to (:func:`row_title`), ``None`` when the
    passage records no row stated as it is."""
    for r in recorded_rows(sentence.passage.candidate.meta):
        if r[3] == sentence.stated:
            return row_title(r)
    return None


def _doc_key(p: Passage) -> str:
    """The document a passage comes from (its id, else its name, else its number)."""
    m = p.candidate.meta
    return str(m.get("doc_id") or m.get("doc_name") or f"#{p.number}")


def _without_rows(content: str, meta: Mapping[str, Any] | None) -> str:
    """A passage's content with its recorded table rows left out (:func:`recorded_rows`)."""
    rows = sorted((r[0], r[1]) for r in recorded_rows(meta))
    if not rows:
        return content
    parts, last = [], 0
    for start, end in rows:
        parts.append(content[last:start])
        last = max(last, end)
    parts.append(content[last:])
    return "\n".join(parts)


def _header(p: Passage) -> str:
    """A passage's header: the embedded text before its content, and its document name,
    title, section and page."""
    cand = p.candidate
    embedded, content = cand.document.page_content, cand.content
    before = embedded.split(content, 1)[0] if content and content in embedded else ""
    return f"{before}\n{_where(p)}"


def _full_text(p: Passage) -> str:
    """A passage's content with its header."""
    return f"{_header(p)}\n{p.candidate.content}"


def _where(p: Passage) -> str:
    """A passage's document name, title, section and page, as text."""
    m = p.candidate.meta
    return " ".join(
        str(x) for x in (m.get("doc_name"), m.get("title"), m.get("section"), m.get("page")) if x
    )


#: Called with each piece of answer text as the model writes it.
TokenSink = Callable[[str], None]
#: Told why an answer's streamed text starts over within one call (its reason).
RestartSink = Callable[[str], None]


#: The JSON schema of a structured answer (the answer prompt's summary block as fields).
ANSWER_SCHEMA_FILE = "answer_schema_v1.json"
#: Structured attempts that may fail in a row before a model is answered in text only.
STRUCTURED_FAILURES_MAX = 2


def answer_schema() -> dict[str, Any]:
    """The structured answer's JSON schema (``chains/prompts/answer_schema_v1.json``)."""
    from importlib import resources

    text = resources.files("chains.prompts").joinpath(ANSWER_SCHEMA_FILE).read_text("utf-8")
    return dict(json.loads(text))


def contract_text(answer: dict[str, Any]) -> str:
    """A structured answer in the text contract the ladder parses: the prose, then the
    ``<summary>`` block with the other fields."""
    prose = str(answer.get("answer") or "").strip()
    sources = answer.get("sources")
    block = {
        "confidence": answer.get("confidence", "low"),
        "sources": [s for s in sources if isinstance(s, int)] if isinstance(sources, list) else [],
        "insufficient_evidence": bool(answer.get("insufficient_evidence", False)),
    }
    return f"{prose}\n<summary>{json.dumps(block)}</summary>"


class StructuredUnavailableError(RuntimeError):
    """The structured rung could not answer (no support, or output outside the schema)."""


class ChatModelAnswerer:
    """Any LangChain chat model behind the answer prompt, bounded in time.

    **Rungs.** Where the model supports structured output (``with_structured_output``: JSON
    schema, tool calling or JSON mode, whichever its LangChain class uses) and
    ``structured`` is ``auto``, the first rung asks for :func:`answer_schema` and turns the
    reply into the text contract (:func:`contract_text`); a model without support, one that
    refuses the request format (HTTP 400) or replies outside the schema falls back to the
    text prompt in the same attempt, and after :data:`STRUCTURED_FAILURES_MAX` such failures
    in a row (at once for no support or a 400) it is asked in text only. The ladder's own
    rungs (the block's parse, regex recovery, the retry) follow either way.

    **Deadline.** Every call goes through :attr:`watched` (:class:`chains.watchdog.
    WatchedModel`): a server that sends nothing for ``timeout_s`` (before its first chunk or
    between two) ends the attempt with :class:`~chains.models.ModelTimeoutError`, whatever
    its client does; a transport failure (connection, 429, 5xx) is retried there, never by
    falling back to the text prompt. The follow-up rewrite and the support judge use the same
    :attr:`watched`. Each piece of answer text goes to ``on_token`` as it arrives.
    """

    def __init__(
        self,
        model: BaseChatModel,
        name: str | None = None,
        *,
        settings: ModelSettings | None = None,
        spec: str = "",
        structured: str = "auto",
        retries: int = 0,
    ) -> None:
        """Wrap a chat model.

        Args:
            model: The chat model.
            name: Name for traces (defaults to the model's class and model name).
            settings: Its settings (``timeout_s`` is the watchdog's deadline).
            spec: The spec it was built from (for error messages).
            structured: ``auto`` (structured output first where the model supports it) or
                ``off`` (the text prompt only).
            retries: Retries of a transport failure made by the watchdog (a model built by
                :func:`make_answerer` from a spec: its client makes none; ``0`` for a model
                whose own client retries).

        Raises:
            ValueError: ``structured`` is neither ``auto`` nor ``off``, or ``retries`` < 0.
        """
        if structured not in ("auto", "off"):
            raise ValueError(f"structured must be 'auto' or 'off', not {structured!r}")
        self.model = model
        self.settings = settings or ModelSettings()
        self.spec = spec
        #: Every call to the model (answer, follow-up rewrite, support judge) goes through it.
        self.watched = WatchedModel(model, self.settings, spec, retries)
        self.structured = structured
        self._structured_runnable: Any = None
        self._structured_failures = 0 if structured == "auto" else STRUCTURED_FAILURES_MAX
        self._lock = threading.Lock()
        model_name = getattr(model, "model_name", None) or getattr(model, "model", None)
        self.name = name or f"{type(model).__name__}" + (f":{model_name}" if model_name else "")

    @property
    def tries_structured(self) -> bool:
        """Whether the next attempt starts with the structured rung."""
        return self._structured_failures < STRUCTURED_FAILURES_MAX

    def generate(
        self,
        question: str,
        passages: list[Passage],
        messages: list[BaseMessage],
        *,
        on_token: TokenSink | None = None,
        config: RunnableConfig | None = None,
        notes: list[str] | None = None,
        on_restart: RestartSink | None = None,
    ) -> str:
        """Ask the model (structured first where it can) and return the text contract.

        Args:
            question: The question (unused: it is in ``messages``).
            passages: The numbered passages (unused: they are in ``messages``).
            messages: The rendered prompt.
            on_token: Receives each piece of answer text as it arrives.
            config: The node's config (its callbacks, tracing included, see the model's
                run, tagged ``nostream``: LangGraph's ``stream_mode="messages"`` carries the
                draft the node streams instead of the raw tokens).
            notes: Receives what the rungs did (``structured``, ``text``, why a structured
                try fell back), for the trace.
            on_restart: Called with the reason when the structured rung falls back to the
                text prompt after some of its text went to ``on_token``: what was sent is
                not the answer, and the text prompt's pieces start it over.

        Raises:
            ModelTimeoutError: Nothing arrived within ``settings.timeout_s``.
            Exception: Whatever the model's client raised.
        """
        notes = notes if notes is not None else []
        config = unstreamed(config)  # the draft, not the raw tokens, is what streams
        if self.tries_structured:
            sent = [False]

            def sink(text: str) -> None:
                sent[0] = True
                if on_token is not None:
                    on_token(text)

            try:
                raw = self._structured(messages, sink, config)
            except StructuredUnavailableError as exc:
                reason = f"structured output unavailable, text prompt used: {exc}"
                notes.append(reason)
                if sent[0] and on_restart is not None:
                    on_restart(reason)
            else:
                with self._lock:
                    self._structured_failures = 0
                notes.append("structured")
                return raw
        notes.append("text")
        return self.watched.text(messages, config=config, on_token=on_token)

    def _structured(
        self, messages: list[BaseMessage], on_token: TokenSink | None, config: RunnableConfig | None
    ) -> str:
        """The structured rung: stream the schema's object, its ``answer`` as tokens.

        The model's chunks reset the stall clock as they arrive; the parser turns them into
        partial objects here, in the caller's thread.
        """
        try:
            with self._lock:
                if self._structured_runnable is None:
                    self._structured_runnable = self.model.with_structured_output(answer_schema())
                    prime_client(self.model)
            runnable = self._structured_runnable
        except NotImplementedError:
            self._give_up_structured(at_once=True)
            raise StructuredUnavailableError(f"{type(self.model).__name__} has none") from None
        shown = [""]
        final: list[Any] = [None]
        model_part, parser = split_parser(runnable)
        transport: list[BaseException] = []

        def chunks() -> Iterator[Any]:
            try:
                yield from self.watched.chunks(messages, config=config, runnable=model_part)
            except BaseException as exc:
                transport.append(exc)
                raise

        try:
            partials = chunks() if parser is None else parser.transform(chunks(), config)
            for partial in partials:
                final[0] = partial
                text = partial.get("answer") if isinstance(partial, dict) else None
                if isinstance(text, str) and text.startswith(shown[0]) and text != shown[0]:
                    delta, shown[0] = text[len(shown[0]) :], text
                    if on_token is not None:
                        on_token(delta)
        except Exception as exc:
            if not transport:  # the reply did not parse: outside the schema
                self._give_up_structured(at_once=False)
                raise StructuredUnavailableError(f"a reply outside the schema ({exc})") from exc
            failure = describe_model_error(exc, self.spec, self.settings)
            if failure.kind in RETRYABLE_KINDS or (failure.final and failure.kind != "bad_request"):
                raise  # a transport failure, a timeout, a key: the text prompt fares no better
            self._give_up_structured(at_once=failure.kind == "bad_request")
            raise StructuredUnavailableError(failure.reason) from exc
        obj = final[0]
        if not isinstance(obj, dict) or not isinstance(obj.get("answer"), str):
            self._give_up_structured(at_once=False)
            raise StructuredUnavailableError(f"a reply outside the schema ({str(obj)[:120]!r})")
        return contract_text(obj)

    def _give_up_structured(self, *, at_once: bool) -> None:
        with self._lock:
            self._structured_failures = (
                STRUCTURED_FAILURES_MAX if at_once else self._structured_failures + 1
            )
            if not self.tries_structured:
                log.info("%s: structured output off for this model (text prompt only)", self.name)


def make_answerer(
    spec: str | BaseChatModel | Answerer,
    embeddings: Embeddings,
    store: Any | None = None,
    temperature: float = 0.0,
    *,
    focus_coverage: float = 0.0,
    read_passages: int = READ_PASSAGES,
    settings: ModelSettings | None = None,
    structured: str = "auto",
    **rules: bool,
) -> Answerer:
    """Build an answerer from config.

    Args:
        spec: ``"extractive"``, ``"smollm2"`` / ``"local:<path>"`` (a local model, see
            :mod:`chains.local_llm`), an ``init_chat_model`` string (``provider:model``), a
            chat model instance, or an object with ``generate``.
        embeddings: Embedding model (for the extractive answerer).
        store: The store (precomputed sentence vectors).
        temperature: Sampling temperature for chat models (unless ``settings`` has one).
        focus_coverage: The extractive answerer's ``focus_coverage`` (``0`` = off).
        read_passages: How many passages the extractive answerer reads sentences from.
        settings: A chat model's endpoint, key variable, limits and deadline
            (:class:`chains.models.ModelSettings`).
        structured: A chat model's first rung: ``auto`` (structured output where supported)
            or ``off``.
        **rules: The extractive answerer's refusal rules by their knob names
            (:data:`chains.answer_checks.REFUSAL_RULES`: ``number_check`` is its
            ``require_question_numbers``, each other one the argument of that name); a rule
            not given takes its :class:`~chains.answer_checks.ExtractiveRules` default.

    Raises:
        ValueError: A rule that is not in ``REFUSAL_RULES``.
        ModelSetupError: A spec that is not one (:func:`chains.models.check_model_spec`) or
            a chat model that cannot be built (missing package or key); the message says
            what to do.
    """
    unknown = sorted(set(rules) - set(checks.REFUSAL_RULES))
    if unknown:
        raise ValueError(
            f"make_answerer: unknown refusal rule(s) {unknown}; "
            f"known: {', '.join(checks.REFUSAL_RULES)}"
        )
    chosen = dataclasses.replace(ExtractiveRules(), **{r: bool(v) for r, v in rules.items()})
    on = {r: getattr(chosen, r) for r in checks.REFUSAL_RULES}
    settings = settings or ModelSettings()
    if isinstance(spec, BaseChatModel):
        return ChatModelAnswerer(spec, settings=settings, structured=structured)
    if not isinstance(spec, str):
        return spec
    if spec in ("extractive", "", "default"):
        return ExtractiveAnswerer(
            embeddings,
            store,
            require_question_numbers=on.pop("number_check"),
            focus_coverage=focus_coverage,
            read_passages=read_passages,
            **on,
        )
    from chains.models import check_model_spec

    check_model_spec(spec)  # a bare name ('gpt-4o-mini') or 'openai:' is a setup error
    if spec == "smollm2" or spec.startswith("local:"):
        from chains.local_llm import load_local_chat_model

        return ChatModelAnswerer(
            load_local_chat_model(spec),
            name=spec,
            settings=settings,
            spec=spec,
            structured=structured,
        )
    # the watchdog retries (chains.watchdog), so an abandoned call's client never does
    client = dataclasses.replace(settings, max_retries=0)
    model = build_chat_model(spec, client, temperature=temperature)
    return ChatModelAnswerer(
        model,
        name=spec,
        settings=settings,
        spec=spec,
        structured=structured,
        retries=settings.max_retries,
    )

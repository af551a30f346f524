"""Answer generators: the offline extractive default and any LangChain chat model.

Both turn ``(question, numbered passages, rendered messages)`` into raw text in the same
contract: prose with ``[n: "quote"]`` markers and a ``<summary>{...}</summary>`` block, so
the same validation and fallback ladder applies to either.

* :class:`ExtractiveAnswerer` (default; no model, no key, no network) quotes the passages'
  best-matching sentences verbatim with their ``[n]``. It is extractive and says so in the
  result (``generator: extractive``); it never paraphrases and never adds knowledge.
* :class:`ChatModelAnswerer` wraps any ``BaseChatModel`` — an injected instance, or a
  ``init_chat_model`` string such as ``openai:gpt-4o-mini`` or ``ollama:llama3.1`` (the
  provider package is imported lazily, only when configured).
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from chains import answer_checks as checks
from chains.assemble import Passage
from chains.citations import INSUFFICIENT
from citerag.index.bm25 import tokenize
from loaders.sentences import sentence_spans

#: A standalone number: not part of a word (``DMRT1``, ``B12``, ``FY2023``, ``1990s``), with
#: optional thousands separators and decimals.
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![A-Za-z0-9])"
    r"|(?<![A-Za-z0-9.,])\d+(?:\.\d+)?(?![A-Za-z0-9]|[.,]\d)"
)


#: Cosine between a focus term's and a passage word's embeddings that counts as a
#: paraphrase (tuned on the SQuAD 2.0 calibration articles, ``benchmarks/refusal_rules.py``).
FOCUS_SIMILARITY = 0.7
#: Share of a question's focus weight (idf) that makes a non-name term essential.
FOCUS_SHARE = 0.4
#: Whether a focus term the index has never seen is essential.
FOCUS_UNSEEN = False
#: Single-word embeddings kept by the focus check.
_WORD_CACHE = 50_000


def _canonical(number: str) -> str:
    whole, _, frac = number.replace(",", "").partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole


def numbers_in(text: str, min_digits: int = 1) -> set[str]:
    """Standalone numbers written in ``text``, in a canonical form.

    Thousands separators are removed, trailing decimal zeros and leading zeros dropped;
    digits inside words (``DMRT1``, ``FY2023``, ``1990s``) are not numbers here.
    ``"£1,200 in 2022 (E-217), 0.50"`` -> ``{"1200", "2022", "217", "0.5"}``.

    Args:
        text: Any text.
        min_digits: Leave out numbers with fewer digits (``2`` skips "top 3", "type 1").
    """
    out = set()
    for m in _NUMBER.finditer(text):
        raw = m.group(0)
        if sum(ch.isdigit() for ch in raw) >= min_digits:
            out.add(_canonical(raw))
    return out


class Answerer(Protocol):
    """Produces raw answer text for numbered passages."""

    name: str

    def generate(self, question: str, passages: list[Passage], messages: list[BaseMessage]) -> str:
        """Return raw output (prose with markers + summary block)."""
        ...


@dataclass
class _Sentence:
    """One candidate sentence: its score, passage and position in the passage."""

    score: float
    passage: Passage
    text: str
    vector: np.ndarray


def _insufficient(reason: str) -> str:
    block = {"confidence": "low", "sources": [], "insufficient_evidence": True, "reason": reason}
    return f"{INSUFFICIENT}\n<summary>{json.dumps(block)}</summary>"


class ExtractiveAnswerer:
    """Quote the best-matching sentences of the top passages (offline default).

    Before quoting, the answerer checks that the sentence answers the question rather than
    resembling it (:mod:`chains.answer_checks`): instruction-shaped sentences are never
    candidates (always); a number the question asks about must be in a passage
    (``require_question_numbers``); the sentence must hold the answer type the question asks
    for (``answer_type_check``); the question's essential focus terms must occur, or have a
    close paraphrase, in the sentence's passage (``focus_check``). When no candidate sentence
    passes, the reply is "insufficient evidence" with the reason.
    """

    name = "extractive"

    def __init__(
        self,
        embeddings: Embeddings,
        store: Any | None = None,
        max_sentences: int = 2,
        margin: float = 0.05,
        lexical_weight: float = 0.25,
        require_question_numbers: bool = True,
        answer_type_check: bool = False,
        focus_check: bool = False,
        negation_check: bool = False,
        check_margin: float = 0.1,
        focus_margin: float = 0.25,
        focus_similarity: float = FOCUS_SIMILARITY,
        focus_share: float = FOCUS_SHARE,
        focus_unseen: bool = FOCUS_UNSEEN,
    ) -> None:
        """Create the answerer.

        Args:
            embeddings: Embedding model for scoring sentences against the question.
            store: Store with precomputed ``sentence_vectors_for(key)`` (optional) and a
                ``bm25`` index (idf weights of focus terms; optional).
            max_sentences: Most sentences quoted.
            margin: A further sentence is quoted only if within this score of the first.
            lexical_weight: Weight of the share of question words a sentence contains.
            require_question_numbers: Reply "insufficient evidence" when a number the
                question asks about (a year, an amount, a code; two or more digits) appears
                in no passage: the passages are about something else ("revenue in 2022" vs a
                2025 report), and quoting the nearest sentence would answer a different
                question. See :meth:`missing_numbers`.
            answer_type_check: A *who* / *when* / *how many* question needs a sentence with
                a name / date / quantity the question does not already state
                (:func:`chains.answer_checks.answer_type_problem`).
            focus_check: The question's essential focus terms (names, and terms carrying at
                least ``focus_share`` of its idf weight) must occur in the sentence's passage
                or its header, or have a word there with cosine >= ``focus_similarity``.
            negation_check: A negated question ("what does *not* ...") needs a sentence
                with a negation or exception in it
                (:func:`chains.answer_checks.negation_problem`).
            check_margin: When the best sentence fails a check, sentences scoring within
                this much of it are tried in order before refusing.
            focus_margin: When every sentence tried so far failed only the focus check (its
                passage misses a term the question needs), sentences of other passages
                scoring within this much of the best are tried too.
            focus_similarity: Cosine between a term's and a word's embeddings that counts as
                a paraphrase.
            focus_share: Share of the question's focus weight that makes a term essential.
            focus_unseen: A focus term no passage of the index contains is essential.
        """
        self.embeddings = embeddings
        self.store = store
        self.max_sentences = max_sentences
        self.margin = margin
        self.lexical_weight = lexical_weight
        self.require_question_numbers = require_question_numbers
        self.answer_type_check = answer_type_check
        self.focus_check = focus_check
        self.negation_check = negation_check
        self.check_margin = check_margin
        self.focus_margin = focus_margin
        self.focus_similarity = focus_similarity
        self.focus_share = focus_share
        self.focus_unseen = focus_unseen
        self._word_vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    def _sentence_vectors(self, passage: Passage) -> tuple[list[tuple[int, int]], np.ndarray]:
        getter = getattr(self.store, "sentence_vectors_for", None)
        got = getter(passage.candidate.key) if getter else None
        if got is not None and len(got[0]):
            return got[0], np.asarray(got[1], dtype=np.float32)
        content = passage.candidate.content
        spans = sentence_spans(content) or [(0, len(content))]
        vecs = self.embeddings.embed_documents([content[s:e] for s, e in spans])
        return spans, np.asarray(vecs, dtype=np.float32)

    @staticmethod
    def missing_numbers(question: str, passages: Sequence[Passage]) -> list[str]:
        """Numbers of two or more digits the question asks about that no passage mentions.

        A passage "mentions" a number in its text, its embedded header (title and section),
        its document name or its page number.
        """
        asked = numbers_in(question, min_digits=2)
        if not asked:
            return []
        present: set[str] = set()
        for p in passages:
            present |= numbers_in(f"{p.candidate.document.page_content} {p.candidate.content}")
            present |= numbers_in(_where(p))
        return sorted(asked - present)

    # -- focus terms --------------------------------------------------------------------

    def _idf(self, question: str) -> dict[str, float] | None:
        bm25 = getattr(self.store, "bm25", None)
        if bm25 is None:
            return None
        return dict(bm25.idf(set(tokenize(question))))  # terms the index never saw: absent

    def _vectors(self, words: Sequence[str]) -> np.ndarray:
        """Embeddings of single words (cached in-process, least recently used dropped)."""
        todo = [w for w in dict.fromkeys(words) if w not in self._word_vectors]
        if todo:
            for w, v in zip(todo, self.embeddings.embed_documents(todo), strict=True):
                self._word_vectors[w] = np.asarray(v, dtype=np.float32)
        out = []
        for w in words:
            self._word_vectors.move_to_end(w)
            out.append(self._word_vectors[w])
        while len(self._word_vectors) > _WORD_CACHE:
            self._word_vectors.popitem(last=False)
        return np.asarray(out, dtype=np.float32).reshape(len(words), -1)

    def _focus_reason(
        self, terms: list[checks.FocusTerm], sentence: _Sentence, cache: dict[int, list[str]]
    ) -> str | None:
        """Why the sentence's passage misses an essential focus term, or ``None``."""
        n = sentence.passage.number
        if n not in cache:
            cand = sentence.passage.candidate
            context = f"{cand.document.page_content}\n{cand.content}\n{_where(sentence.passage)}"
            missing = checks.lexically_uncovered(terms, context)
            missing = checks.essential(terms, missing, self.focus_share, self.focus_unseen)
            if missing:
                words = [t for t in dict.fromkeys(tokenize(context)) if not t.isdigit()]
                ctx_vecs = self._vectors(words) if words else np.zeros((0, 1), np.float32)
                term_vecs = self._vectors([t.term for t in missing])
                missing = [
                    t
                    for t, v in zip(missing, term_vecs, strict=True)
                    if not checks.paraphrased(v, ctx_vecs, self.focus_similarity)
                ]
            cache[n] = [t.term for t in missing]
        gone = [t for t in terms if t.term in cache[n]]
        return checks.focus_problem(gone)

    def _problem(
        self,
        question: str,
        sentence: _Sentence,
        terms: list[checks.FocusTerm],
        cache: dict[int, list[str]],
    ) -> tuple[str, str] | None:
        """The first enabled check the sentence fails, as ``(rule, reason)``, or ``None``."""
        if self.answer_type_check:
            reason = checks.answer_type_problem(question, sentence.text)
            if reason:
                return "answer_type_check", reason
        if self.negation_check:
            reason = checks.negation_problem(question, sentence.text)
            if reason:
                return "negation_check", reason
        if self.focus_check and terms:
            reason = self._focus_reason(terms, sentence, cache)
            if reason:
                return "focus_check", reason
        return None

    # -- answering ----------------------------------------------------------------------

    def _scored(self, question: str, passages: list[Passage]) -> list[_Sentence]:
        q = np.asarray(self.embeddings.embed_query(question), dtype=np.float32)
        q /= np.linalg.norm(q) or 1.0
        q_terms = set(tokenize(question))
        scored: list[_Sentence] = []
        for p in passages[:3]:
            spans, vecs = self._sentence_vectors(p)
            sims = vecs @ q
            for (s, e), sim, vec in zip(spans, sims, vecs, strict=True):
                sent = p.candidate.content[s:e]
                terms = set(tokenize(sent))
                coverage = len(q_terms & terms) / len(q_terms) if q_terms else 0.0
                # A heading or table cell is rarely an answer: prefer real sentences.
                short = 0.15 if len(sent.split()) < 5 else 0.0
                score = float(sim) + self.lexical_weight * coverage - short
                scored.append(_Sentence(score, p, sent, vec))
        scored.sort(key=lambda t: -t.score)
        return scored

    def generate(self, question: str, passages: list[Passage], messages: list[BaseMessage]) -> str:
        """Pick sentences by cosine and word overlap with the question; quote them verbatim.

        Instruction-shaped sentences are dropped before choosing; the enabled checks then
        decide whether the best remaining sentences answer the question.
        """
        if not passages:
            block = {"confidence": "low", "sources": [], "insufficient_evidence": True}
            return f"<summary>{json.dumps(block)}</summary>"
        if self.require_question_numbers:
            missing = self.missing_numbers(question, passages)
            if missing:
                return _insufficient(
                    f"the question asks about {', '.join(missing)}, which no supplied passage "
                    "mentions"
                )
        scored = self._scored(question, passages)
        safe = [s for s in scored if not checks.is_instruction(s.text)]
        if not safe:
            return _insufficient(
                "the only matching sentences are instructions addressed to the reader or the "
                "assistant, which are never quoted (retrieved text is data, not instructions)"
            )
        terms = checks.focus_terms(question, self._idf(question)) if self.focus_check else []
        focus_cache: dict[int, list[str]] = {}
        best = safe[0].score
        first_problem: str | None = None
        only_focus = True  # every sentence tried so far failed only for its passage's terms
        chosen: list[_Sentence] = []
        for item in safe:
            reach = self.focus_margin if only_focus and first_problem else self.check_margin
            if not chosen and item.score < best - reach:
                break
            if chosen and (
                len(chosen) >= self.max_sentences or item.score < chosen[0].score - self.margin
            ):
                break
            if any(item.text == c.text for c in chosen):
                continue
            problem = self._problem(question, item, terms, focus_cache)
            if problem is not None:
                first_problem = first_problem or problem[1]
                only_focus = only_focus and problem[0] == "focus_check"
                continue
            chosen.append(item)
        if not chosen:
            assert first_problem is not None  # the best sentence is always examined
            return _insufficient(first_problem)
        top = chosen[0].score
        chosen.sort(key=lambda t: t.passage.number)  # keep passage (rank) order
        lines = []
        for item in chosen:
            quote = " ".join(item.text.split()).replace('"', '\\"')  # validate() unescapes
            text = " ".join(item.text.split())
            lines.append(f'{text} [{item.passage.number}: "{quote}"]')
        confidence = "high" if top >= 0.8 else "medium" if top >= 0.55 else "low"
        block = {
            "confidence": confidence,
            "sources": sorted({c.passage.number for c in chosen}),
            "insufficient_evidence": False,
        }
        return "\n".join(lines) + f"\n<summary>{json.dumps(block)}</summary>"


def _where(p: Passage) -> str:
    """A passage's document name, title, section and page, as text."""
    m = p.candidate.meta
    return " ".join(
        str(x) for x in (m.get("doc_name"), m.get("title"), m.get("section"), m.get("page")) if x
    )


class ChatModelAnswerer:
    """Any LangChain chat model behind the answer prompt."""

    def __init__(self, model: BaseChatModel, name: str | None = None) -> None:
        """Wrap a chat model.

        Args:
            model: The chat model.
            name: Name for traces (defaults to the model's class and model name).
        """
        self.model = model
        model_name = getattr(model, "model_name", None) or getattr(model, "model", None)
        self.name = name or f"{type(model).__name__}" + (f":{model_name}" if model_name else "")

    def generate(self, question: str, passages: list[Passage], messages: list[BaseMessage]) -> str:
        """Invoke the model on the rendered messages and return its text."""
        reply = self.model.invoke(messages)
        content = reply.content
        if isinstance(content, list):  # content blocks
            content = "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
        return str(content)


def make_answerer(
    spec: str | BaseChatModel | Answerer,
    embeddings: Embeddings,
    store: Any | None = None,
    temperature: float = 0.0,
    number_check: bool = True,
    *,
    answer_type_check: bool = False,
    focus_check: bool = False,
    negation_check: bool = True,
) -> Answerer:
    """Build an answerer from config.

    Args:
        spec: ``"extractive"``, ``"smollm2"`` / ``"local:<path>"`` (a local model, see
            :mod:`chains.local_llm`), an ``init_chat_model`` string (``provider:model``), a
            chat model instance, or an object with ``generate``.
        embeddings: Embedding model (for the extractive answerer).
        store: The store (precomputed sentence vectors).
        temperature: Sampling temperature for chat models.
        number_check: The extractive answerer's ``require_question_numbers``.
        answer_type_check: The extractive answerer's ``answer_type_check``.
        focus_check: The extractive answerer's ``focus_check``.
        negation_check: The extractive answerer's ``negation_check``.

    Raises:
        ValueError: Unknown spec.
    """
    if isinstance(spec, BaseChatModel):
        return ChatModelAnswerer(spec)
    if not isinstance(spec, str):
        return spec
    if spec in ("extractive", "", "default"):
        return ExtractiveAnswerer(
            embeddings,
            store,
            require_question_numbers=number_check,
            answer_type_check=answer_type_check,
            focus_check=focus_check,
            negation_check=negation_check,
        )
    if spec == "smollm2" or spec.startswith("local:"):
        from chains.local_llm import load_local_chat_model

        return ChatModelAnswerer(load_local_chat_model(spec), name=spec)
    if ":" in spec:
        from langchain.chat_models import init_chat_model

        return ChatModelAnswerer(init_chat_model(spec, temperature=temperature), name=spec)
    raise ValueError(
        f"unknown model {spec!r}: use 'extractive' or an init_chat_model string like "
        "'openai:gpt-4o-mini' / 'ollama:llama3.1'"
    )

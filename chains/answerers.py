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
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

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


class ExtractiveAnswerer:
    """Quote the best-matching sentences of the top passages (offline default)."""

    name = "extractive"

    def __init__(
        self,
        embeddings: Embeddings,
        store: Any | None = None,
        max_sentences: int = 2,
        margin: float = 0.05,
        lexical_weight: float = 0.25,
        require_question_numbers: bool = True,
    ) -> None:
        """Create the answerer.

        Args:
            embeddings: Embedding model for scoring sentences against the question.
            store: Store with precomputed ``sentence_vectors_for(key)`` (optional).
            max_sentences: Most sentences quoted.
            margin: A further sentence is quoted only if within this score of the best.
            lexical_weight: Weight of the share of question words a sentence contains.
            require_question_numbers: Reply "insufficient evidence" when a number the
                question asks about (a year, an amount, a code; two or more digits) appears
                in no passage: the passages are about something else ("revenue in 2022" vs a
                2025 report), and quoting the nearest sentence would answer a different
                question. See :meth:`missing_numbers`.
        """
        self.embeddings = embeddings
        self.store = store
        self.max_sentences = max_sentences
        self.margin = margin
        self.lexical_weight = lexical_weight
        self.require_question_numbers = require_question_numbers

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
            m = p.candidate.meta
            where = " ".join(
                str(x)
                for x in (m.get("doc_name"), m.get("title"), m.get("section"), m.get("page"))
                if x
            )
            present |= numbers_in(f"{p.candidate.document.page_content} {p.candidate.content}")
            present |= numbers_in(where)
        return sorted(asked - present)

    def generate(self, question: str, passages: list[Passage], messages: list[BaseMessage]) -> str:
        """Pick sentences by cosine and word overlap with the question; quote them verbatim."""
        if not passages:
            block = {"confidence": "low", "sources": [], "insufficient_evidence": True}
            return f"<summary>{json.dumps(block)}</summary>"
        if self.require_question_numbers:
            missing = self.missing_numbers(question, passages)
            if missing:
                block = {
                    "confidence": "low",
                    "sources": [],
                    "insufficient_evidence": True,
                    "reason": f"the question asks about {', '.join(missing)}, which no "
                    "supplied passage mentions",
                }
                return f"{INSUFFICIENT}\n<summary>{json.dumps(block)}</summary>"
        q = np.asarray(self.embeddings.embed_query(question), dtype=np.float32)
        q /= np.linalg.norm(q) or 1.0
        q_terms = set(tokenize(question))
        scored: list[tuple[float, int, str]] = []
        for p in passages[:3]:
            spans, vecs = self._sentence_vectors(p)
            sims = vecs @ q
            for (s, e), sim in zip(spans, sims, strict=True):
                sent = p.candidate.content[s:e]
                terms = set(tokenize(sent))
                coverage = len(q_terms & terms) / len(q_terms) if q_terms else 0.0
                # A heading or table cell is rarely an answer: prefer real sentences.
                short = 0.15 if len(sent.split()) < 5 else 0.0
                score = float(sim) + self.lexical_weight * coverage - short
                scored.append((score, p.number, sent))
        scored.sort(key=lambda t: -t[0])
        best = scored[0][0]
        chosen: list[tuple[float, int, str]] = []
        for item in scored:
            if len(chosen) >= self.max_sentences or item[0] < best - self.margin:
                break
            if all(item[2] != c[2] for c in chosen):
                chosen.append(item)
        chosen.sort(key=lambda t: t[1])  # keep passage (rank) order
        lines = []
        for _, n, sent in chosen:
            quote = " ".join(sent.split()).replace('"', '\\"')  # validate() unescapes
            text = " ".join(sent.split())
            lines.append(f'{text} [{n}: "{quote}"]')
        confidence = "high" if best >= 0.8 else "medium" if best >= 0.55 else "low"
        block = {
            "confidence": confidence,
            "sources": sorted({n for _, n, _ in chosen}),
            "insufficient_evidence": False,
        }
        return "\n".join(lines) + f"\n<summary>{json.dumps(block)}</summary>"


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

    Raises:
        ValueError: Unknown spec.
    """
    if isinstance(spec, BaseChatModel):
        return ChatModelAnswerer(spec)
    if not isinstance(spec, str):
        return spec
    if spec in ("extractive", "", "default"):
        return ExtractiveAnswerer(embeddings, store, require_question_numbers=number_check)
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

"""Second-stage scorers over the retrieved shortlist.

* :class:`SentenceReranker` (offline default, named honestly: ``sentence-hybrid``): a
  **sentence-level** scorer. It compares the query with each sentence of a candidate, using
  sentence vectors precomputed at ingest (bi-encoder max-sim), adds how much of the query's
  idf weight the best-covering sentence contains (lexical coverage), and blends both with the
  whole chunk's cosine. It is finer-grained than chunk retrieval (an answer usually lives in
  one sentence) but it is *not* a cross-encoder: query and passage never meet inside a model.
  ``lexical_weight=0`` gives the pure embedding variant ``sentence-maxsim``.
* :class:`CrossEncoderReranker`: a sentence-transformers ``CrossEncoder`` loaded by Hugging
  Face name (e.g. ``cross-encoder/ms-marco-MiniLM-L-6-v2``) or local directory. No
  cross-encoder ships its weights on PyPI, so it is opt-in.
* :class:`NoReranker`: keep the first-stage order.

Every reranker writes ``scores["rerank"]`` and ``ranks["rerank"]`` and returns candidates best
first; :attr:`score_type` names what the number means (the gate is calibrated per type).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from langchain_core.embeddings import Embeddings

from chains.answer_checks import content_word, held_weight, paraphrase_credit, stem
from chains.candidates import Candidate
from chains.non_answers import heading_question
from chains.word_vectors import word_vectors
from citerag.core.lru import LRU
from citerag.core.text import tokenize
from citerag.stores.contract import SearchIndex, as_search_index
from loaders.row_text import row_sentence_spans, row_span, scored_texts

log = logging.getLogger(__name__)


def inflections(term: str) -> tuple[str, ...]:
    """The plural or singular forms of an English word (``shift`` / ``shifts``, ``policy`` /
    ``policies``, ``box`` / ``boxes``): what a keyword index without stemming tells apart.
    """
    if len(term) < 3 or not term.isalpha():
        return ()
    if term.endswith("ies"):
        return (term[:-3] + "y",)
    if term.endswith("es"):
        return (term[:-2], term[:-1])
    if term.endswith("s") and not term.endswith("ss"):
        return (term[:-1],)
    if term.endswith("y") and term[-2:-1] not in "aeiou":
        return (term[:-1] + "ies",)
    if term.endswith(("s", "x", "z", "ch", "sh")):
        return (term + "es",)
    return (term + "s",)


def _unit(rows: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1."""
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)


def coverage_weights(terms: Iterable[str], idf: Mapping[str, float]) -> dict[str, float]:
    """The weight of each query term in the sentence-coverage score.

    A term the index holds weighs its idf. A term it does not hold (``idf`` has no entry)
    whose plural or singular it does hold (:func:`inflections`) is read as that form. Any
    other content word (not a generic question word of
    :data:`chains.answer_checks.GENERIC`, not a number) weighs as much as the query's rarest
    indexed term, as the answer checks weigh it (:func:`chains.answer_checks.focus_terms`):
    no sentence can cover it, so it lowers every candidate's coverage alike, and a question
    whose distinctive word the index never saw is not "fully covered" by its common ones.

    Args:
        terms: The query's tokens (:func:`citerag.core.text.tokenize`).
        idf: Idf of the tokens the index holds (and of their inflections, when asked for).

    Returns:
        Weight per term (an inflection read in a term's place under its own spelling); empty
        when the index holds none of the terms (nothing can be covered).
    """
    wanted = sorted(set(terms))
    known = {t: idf[t] for t in wanted if t in idf}
    missing = []
    for t in wanted:
        if t in known:
            continue
        form = next((v for v in inflections(t) if v in idf), None)
        if form is not None:
            known[form] = idf[form]
        else:
            missing.append(t)
    if not known:
        return {}
    top = max(known.values())
    out = dict(known)
    for t in missing:
        if content_word(t):
            out[t] = top
    return out


class Reranker(Protocol):
    """A second-stage scorer."""

    name: str
    score_type: str

    def rerank(
        self, query: str, candidates: list[Candidate], query_vector: Sequence[float] | None = None
    ) -> list[Candidate]:
        """Score and sort candidates, best first."""
        ...


class NoReranker:
    """Keep the first-stage order; ``rerank`` is the fused score."""

    name = "none"
    score_type = "first-stage order (no second stage)"

    def rerank(
        self, query: str, candidates: list[Candidate], query_vector: Sequence[float] | None = None
    ) -> list[Candidate]:
        """Copy the first-stage order."""
        for rank, c in enumerate(candidates, start=1):
            c.scores["rerank"] = c.scores.get("dense", c.scores.get("rrf", 0.0))
            c.ranks["rerank"] = rank
        return list(candidates)


class SentenceReranker:
    """Sentence-level second stage: sentence max-sim + sentence lexical coverage + chunk cosine.

    ``rerank = w * max_sentence_cosine + (1 - w) * chunk_cosine + lex * max_sentence_coverage``

    where ``max_sentence_coverage`` is the largest share, over the candidate's sentences, of
    the query terms' idf weight (from the BM25 index; uniform weights without one) that one
    sentence contains. The question of an FAQ pair written as a heading
    (:func:`chains.non_answers.heading_question`, kept in the chunk's section path, not its
    content) counts as one of its sentences, as a question line inside the content does;
    its cosine is in ``scores["heading_question"]``.

    A table row is its own context: when the best sentence is a recorded row
    (:mod:`loaders.row_text`, scored with its table's title and column names), its cosine
    stands for the chunk's too when it is the higher, so an expenses sheet's other claims
    packed into the chunk do not weigh down the one asked about.
    """

    def __init__(
        self,
        embeddings: Embeddings,
        store: Any | None = None,
        sentence_weight: float = 0.5,
        lexical_weight: float = 0.3,
        cache_size: int = 4096,
        weigh_unseen: bool = True,
        paraphrase_top: int = 5,
    ) -> None:
        """Create the scorer.

        Args:
            embeddings: The index's embedding model (query and sentence vectors).
            store: The index (:class:`~citerag.stores.contract.SearchIndex`; anything else is
                wrapped by :func:`~citerag.stores.contract.as_search_index`): precomputed
                sentence vectors and idf; chunks without sentence vectors are embedded on
                the fly and cached. ``None``: no index (uniform term weights).
            sentence_weight: Weight of the best sentence against the whole chunk.
            lexical_weight: Weight of the best sentence's idf-weighted query-term coverage
                (0 = pure embedding ``sentence-maxsim``).
            cache_size: On-the-fly sentence vectors kept (by chunk key); the sentence terms
                and FAQ heading-question vectors are kept up to as many.
            weigh_unseen: A content word of the query that no indexed chunk holds counts in
                the coverage's total as heavily as the query's rarest indexed term
                (:func:`coverage_weights`): no sentence covers it, so a question about
                something the index never mentions ("How do I renew a passport?") is not
                fully covered by its one common word ("renew"). ``False``: such words are
                left out of the total (the behaviour before 2026-12-05).
            paraphrase_top: On the best this many candidates, a content word of the query
                that a sentence lacks is covered in part by the sentence's word closest to
                it in meaning (:func:`chains.answer_checks.paraphrase_credit`: "wine" by
                "alcohol", "loud" by "noise"; single-word embeddings of the same model,
                cached with the answerer's, :mod:`chains.word_vectors`); ``0``: words count
                only as written (or as their plural or singular).

        Raises:
            ValueError: ``cache_size`` or ``paraphrase_top`` is not an integer >= 0.
        """
        for name, value in (("cache_size", cache_size), ("paraphrase_top", paraphrase_top)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
        self.embeddings = embeddings
        self.store = store
        self.sentence_weight = sentence_weight
        self.lexical_weight = lexical_weight
        self.weigh_unseen = weigh_unseen
        self.paraphrase_top = paraphrase_top
        self.name = "sentence-hybrid" if lexical_weight else "sentence-maxsim"
        self.score_type = (
            f"blend: {sentence_weight:g} max sentence cosine + {1 - sentence_weight:g} chunk cosine"
            + (
                f" + {lexical_weight} max sentence idf coverage of the query"
                if lexical_weight
                else ""
            )
            + " (higher=better)"
        )
        # the served graph shares one reranker between request threads: thread-safe caches
        self._cache: LRU[str, tuple[list[tuple[int, int]], np.ndarray]] = LRU(cache_size)
        # Each sentence's word set, by (chunk key, chunk text): a served index sees the same
        # chunks again and again, and tokenising ~100 sentences was a quarter of this node.
        self._terms: LRU[tuple[Any, ...], list[frozenset[str]]] = LRU(cache_size)
        self._stems: LRU[frozenset[str], frozenset[str]] = LRU(cache_size)
        # An FAQ heading question's vector, by its text (embedded on first use)
        self._questions: LRU[str, np.ndarray] = LRU(cache_size)

    @property
    def store(self) -> SearchIndex | None:
        """The index read through the contract (``None``: none)."""
        return self._store

    @store.setter
    def store(self, value: Any) -> None:
        self._store = None if value is None else as_search_index(value)

    def _sentences(self, cands: list[Candidate]) -> list[tuple[list[tuple[int, int]], np.ndarray]]:
        out: list[tuple[list[tuple[int, int]], np.ndarray] | None] = []
        missing: list[int] = []
        # one call for the whole shortlist (one round trip on PostgreSQL)
        keys = [c.key for c in cands]
        fetched = {} if self.store is None else self.store.sentence_vectors_many(keys)
        for i, c in enumerate(cands):
            got = fetched.get(c.key)
            if got is None:
                got = self._cache.get(c.key)
            if got is None:
                missing.append(i)
            out.append(got)
        if missing:
            texts: list[str] = []
            spans_by: dict[int, list[tuple[int, int]]] = {}
            for i in missing:
                spans = row_sentence_spans(cands[i].content, cands[i].meta) or [
                    (0, len(cands[i].content))
                ]
                spans_by[i] = spans
                texts.extend(scored_texts(cands[i].content, spans, cands[i].meta))
            vecs = np.asarray(self.embeddings.embed_documents(texts), dtype=np.float32)
            row = 0
            for i in missing:
                n = len(spans_by[i])
                item = (spans_by[i], vecs[row : row + n])
                row += n
                out[i] = item
                self._cache.put(cands[i].key, item)
        return [o for o in out if o is not None]

    def _sentence_terms(
        self, cand: Candidate, spans: Sequence[tuple[int, int]]
    ) -> list[frozenset[str]]:
        """The BM25 terms of each sentence of a candidate (cached by key, text and spans)."""
        key = (cand.key, cand.content, tuple(spans))
        got = self._terms.get(key)
        if got is None:
            # a table row's sentence counts its headers too (loaders.row_text)
            got = [frozenset(tokenize(t)) for t in scored_texts(cand.content, spans, cand.meta)]
            self._terms.put(key, got)
        return got

    def _stem_set(self, terms: frozenset[str]) -> frozenset[str]:
        """A sentence's terms' stems (:func:`chains.answer_checks.stem`; cached)."""
        stems = self._stems.get(terms)
        if stems is None:
            stems = frozenset(stem(t) for t in terms)
            self._stems.put(terms, stems)
        return stems

    def _held(self, weights: Mapping[str, float], terms: frozenset[str]) -> float:
        """The weight of the query terms a sentence holds, as written or inflected
        (:func:`chains.answer_checks.stem`: "reserves" holds "reserve", as the answer
        checks read words)."""
        return held_weight(weights, terms, self._stem_set(terms))

    def _question_vectors(self, questions: Sequence[str | None]) -> dict[str, np.ndarray]:
        """The vectors of the shortlist's FAQ heading questions (one call for the missing)."""
        out = self._questions.get_many(q for q in questions if q)
        missing = sorted({q for q in questions if q and q not in out})
        if missing:
            vecs = np.asarray(self.embeddings.embed_documents(missing), dtype=np.float32)
            for text, vec in zip(missing, vecs, strict=True):
                out[text] = vec / (np.linalg.norm(vec) or 1.0)
            self._questions.put_many({text: out[text] for text in missing})
        return out

    def _query_weights(self, query: str) -> dict[str, float]:
        """The query words' weights in the coverage (:func:`coverage_weights`)."""
        terms = set(tokenize(query))
        if self.store is None:
            return dict.fromkeys(terms, 1.0)
        if not self.weigh_unseen:
            # terms absent from the index cannot be covered: weight 0 (no entry); an index
            # without term statistics weighs every term 1.0
            return self.store.idf(terms)
        asked = terms | {v for t in terms for v in inflections(t)}
        return coverage_weights(terms, self.store.idf(asked))

    def _paraphrased(
        self,
        candidates: list[Candidate],
        weights: Mapping[str, float],
        terms_of: Mapping[int, list[frozenset[str]]],
    ) -> None:
        """Add the paraphrase credit to the best ``paraphrase_top`` candidates' coverage."""
        total = sum(weights.values())
        asked = [t for t in weights if content_word(t)]
        top = sorted(candidates, key=lambda c: -c.scores["rerank"])[: self.paraphrase_top]
        words = {
            t
            for c in top
            for terms in terms_of.get(id(c), [])
            for t in terms
            if content_word(t) and t not in weights
        }
        if not asked or not words:
            return
        vecs = word_vectors(self.embeddings, [*asked, *sorted(words)])
        asked_vecs = _unit(np.stack([vecs[t] for t in asked]))
        asked_weights = np.array([weights[t] for t in asked])
        for c in top:
            best = c.scores.get("sentence_lexical", 0.0)
            sentences = terms_of.get(id(c), [])
            said = sorted({t for terms in sentences for t in terms if t in words})
            if not said:
                continue
            column = {t: j for j, t in enumerate(said)}
            # each asked word against each word of the candidate, graded once
            credit = paraphrase_credit(asked_vecs @ _unit(np.stack([vecs[t] for t in said])).T)
            for terms in sentences:
                cols = [column[t] for t in terms if t in column]
                stems = self._stem_set(terms)
                lacking = np.array([t not in terms and stem(t) not in stems for t in asked])
                if not cols or not lacking.any():
                    continue
                soft = float(asked_weights[lacking] @ credit[lacking][:, cols].max(axis=1))
                held = self._held(weights, terms)
                best = max(best, (held + soft) / total)
            gained = best - c.scores.get("sentence_lexical", 0.0)
            if gained > 0:
                # the trace shows how much of the coverage paraphrases gave
                c.scores["sentence_paraphrase"] = gained
                c.scores["sentence_lexical"] = best
                c.scores["rerank"] += self.lexical_weight * gained

    def rerank(
        self, query: str, candidates: list[Candidate], query_vector: Sequence[float] | None = None
    ) -> list[Candidate]:
        """Score candidates by their best sentences and overall cosine; best first."""
        if not candidates:
            return []
        q = np.asarray(
            query_vector if query_vector is not None else self.embeddings.embed_query(query),
            dtype=np.float32,
        )
        q /= np.linalg.norm(q) or 1.0
        w = self.sentence_weight
        weights = self._query_weights(query) if self.lexical_weight else {}
        total = sum(weights.values())
        # an FAQ pair whose question is its heading: the question counts as one of its
        # sentences, as a question line inside the content does (chains.non_answers)
        asked = [heading_question(c.meta, c.content) for c in candidates]
        question_vecs = self._question_vectors(asked)
        terms_of: dict[int, list[frozenset[str]]] = {}
        for c, (spans, vecs), hq in zip(
            candidates, self._sentences(candidates), asked, strict=True
        ):
            sims = vecs.astype(np.float32) @ q if len(spans) else np.zeros(0, np.float32)
            best = int(np.argmax(sims)) if sims.size else -1
            sent = float(sims[best]) if best >= 0 else c.scores.get("dense", 0.0)
            chunk = c.scores.get("dense", sent)
            if best >= 0 and row_span(c.meta, *spans[best]) is not None:
                # the best sentence is a table row: a record is its own context, not the
                # other rows packed into its chunk (loaders.row_text); a question about the
                # whole table keeps the chunk's cosine when it is the higher
                chunk = max(chunk, sent)
            if hq:
                c.scores["heading_question"] = float(question_vecs[hq] @ q)
                sent = max(sent, c.scores["heading_question"])
            c.scores["sentence"] = sent
            score = w * sent + (1 - w) * chunk
            if total > 0:
                sentence_terms = self._sentence_terms(c, spans)
                if hq:
                    sentence_terms = [*sentence_terms, frozenset(tokenize(hq))]
                terms_of[id(c)] = sentence_terms
                cover = (
                    max((self._held(weights, terms) for terms in sentence_terms), default=0.0)
                    / total
                )
                c.scores["sentence_lexical"] = cover
                score += self.lexical_weight * cover
            c.scores["rerank"] = score
        if total > 0 and self.paraphrase_top:
            self._paraphrased(candidates, weights, terms_of)
        ranked = sorted(candidates, key=lambda c: -c.scores["rerank"])
        for rank, c in enumerate(ranked, start=1):
            c.ranks["rerank"] = rank
        return ranked


class RerankerUnavailableError(RuntimeError):
    """A configured reranker cannot be loaded (its package missing, its model not found)."""


#: What to do instead when a cross-encoder cannot be loaded (the end of its error message).
_RERANKER_ALTERNATIVES = "or turn it off with --reranker sentence (the default) or none"


class CrossEncoderReranker:
    """A sentence-transformers cross-encoder reading (query, chunk content) pairs."""

    score_type = "cross-encoder relevance logit (unbounded, higher=better)"

    def __init__(self, model: str, device: str = "cpu", max_length: int = 512) -> None:
        """Load a cross-encoder by Hugging Face name or local directory.

        Raises:
            RerankerUnavailableError: sentence-transformers is not installed, or the model
                cannot be loaded (a mistyped name or directory, not downloaded while offline):
                one line naming it and what to do.
        """
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise RerankerUnavailableError(
                f"the cross-encoder reranker needs the sentence-transformers package ({exc}): "
                f"pip install sentence-transformers, {_RERANKER_ALTERNATIVES}"
            ) from exc
        self.model_name = model
        self.name = f"cross-encoder:{model}"
        if model.startswith(("/", "./", "../", "~")) and not Path(model).expanduser().is_dir():
            raise RerankerUnavailableError(
                f"cannot load the cross-encoder {model!r} (no such directory): give a local "
                f"model directory or a Hugging Face model name, {_RERANKER_ALTERNATIVES}"
            )
        try:
            self.model = CrossEncoder(model, device=device, max_length=max_length)
        except (OSError, ValueError) as exc:  # transformers' "not found" / "not a repo id"
            lines = str(exc).splitlines()
            raise RerankerUnavailableError(
                f"cannot load the cross-encoder {model!r} ({lines[0] if lines else exc!r}): "
                "give a Hugging Face model name (downloaded once online; HF_HUB_OFFLINE=1 "
                f"needs it in the cache) or a local model directory, {_RERANKER_ALTERNATIVES}"
            ) from exc

    def rerank(
        self, query: str, candidates: list[Candidate], query_vector: Sequence[float] | None = None
    ) -> list[Candidate]:
        """Score every (query, content) pair; best first."""
        if not candidates:
            return []
        scores = self.model.predict(
            [(query, c.content) for c in candidates], show_progress_bar=False
        )
        for c, s in zip(candidates, np.asarray(scores, dtype=np.float64).ravel(), strict=True):
            c.scores["rerank"] = float(s)
        ranked = sorted(candidates, key=lambda c: -c.scores["rerank"])
        for rank, c in enumerate(ranked, start=1):
            c.ranks["rerank"] = rank
        return ranked


def make_reranker(spec: str, embeddings: Embeddings, store: Any | None = None) -> Reranker:
    """Build a reranker from a config string.

    Args:
        spec: ``sentence`` (default, = ``sentence-hybrid``), ``sentence-maxsim`` (no lexical
            term), ``none``, or ``cross-encoder:<name or directory>``.
        embeddings: The index's embedding model.
        store: The store (for precomputed sentence vectors).

    Raises:
        ValueError: Unknown spec.
        RerankerUnavailableError: A cross-encoder that cannot be loaded.
    """
    if spec in ("sentence", "sentence-hybrid", "default"):
        return SentenceReranker(embeddings, store)
    if spec == "sentence-maxsim":
        return SentenceReranker(embeddings, store, lexical_weight=0.0)
    if spec in ("none", "", "off"):
        return NoReranker()
    if spec.startswith("cross-encoder:"):
        return CrossEncoderReranker(spec.split(":", 1)[1])
    raise ValueError(
        f"unknown reranker {spec!r}: use 'sentence', 'sentence-maxsim', 'none' or "
        "'cross-encoder:NAME'"
    )

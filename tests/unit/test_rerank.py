"""Second-stage arithmetic on hand-made vectors (a fixed-vector fake of the embedding model).

docs/concepts/answering-graph.md: ``sentence-hybrid = 0.5·max sentence cos + 0.5·chunk cos
+ 0.3·max sentence idf coverage``; ``sentence-maxsim`` drops the lexical term; ``none`` keeps
the first-stage order.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from chains.candidates import Candidate
from chains.rerank import (
    NoReranker,
    SentenceReranker,
    coverage_weights,
    inflections,
    make_reranker,
)
from loaders.row_text import ROW_TEXT_KEY
from loaders.sentences import sentence_spans
from tests.support.factories import FixedEmbeddings, make_candidate

QUERY = "What was revenue growth in 2025?"  # terms: revenue, growth, 2025
Q = [1.0, 0.0, 0.0]
IDF = {"revenue": 1.0, "growth": 2.0, "2025": 1.0}  # total 4

# content -> (first-stage cosine, one unit vector per sentence)
CHUNKS = {
    "a": (
        "Revenue grew strongly in 2025 across all regions. Growth in services was the main driver.",
        0.6,
        [[0.8, 0.6, 0.0], [0.0, 1.0, 0.0]],  # best sentence cos 0.8; coverage max(2/4, 2/4)
    ),
    "b": (
        "Revenue growth in 2025 was eleven percent overall.",
        0.7,
        [[0.6, 0.8, 0.0]],  # cos 0.6; coverage 4/4
    ),
    "c": (
        "Headcount rose to forty seven people this year.",
        0.95,
        [[0.2, math.sqrt(1 - 0.04), 0.0]],  # cos 0.2; coverage 0
    ),
}
HYBRID = {"a": 0.5 * 0.8 + 0.5 * 0.6 + 0.3 * 0.5, "b": 0.5 * 0.6 + 0.5 * 0.7 + 0.3 * 1.0}
HYBRID["c"] = 0.5 * 0.2 + 0.5 * 0.95
MAXSIM = {"a": 0.5 * 0.8 + 0.5 * 0.6, "b": 0.5 * 0.6 + 0.5 * 0.7, "c": 0.5 * 0.2 + 0.5 * 0.95}


class FakeBM25:
    def idf(self, terms):
        return {t: IDF[t] for t in terms if t in IDF}


class FakeStore:
    """Precomputed sentence vectors by chunk key, and idf from a BM25 stand-in."""

    def __init__(self, with_bm25: bool = True):
        self.bm25 = FakeBM25() if with_bm25 else None
        self.vectors = {}
        for key, (content, _, vecs) in CHUNKS.items():
            spans = sentence_spans(content)
            assert len(spans) == len(vecs)
            self.vectors[key] = (spans, np.asarray(vecs, dtype=np.float32))

    def sentence_vectors_for(self, key):
        return self.vectors.get(key)


def candidates(order: str = "cab") -> list[Candidate]:
    return [
        make_candidate(CHUNKS[k][0], key=k, scores={"dense": CHUNKS[k][1]}, ranks={"fused": i})
        for i, k in enumerate(order, start=1)
    ]


def as_written(embeddings, store=None, **kwargs) -> SentenceReranker:
    """The reranker with query words covered only as written (no paraphrase credit, which
    embeds single words): the arithmetic these tests check by hand."""
    return SentenceReranker(embeddings, store, paraphrase_top=0, **kwargs)


def query_only() -> FixedEmbeddings:
    """Embeds the question and nothing else: sentence vectors must come from the store."""
    return FixedEmbeddings({QUERY: Q})


def test_sentence_hybrid_blends_sentence_chunk_and_coverage():
    ranked = as_written(query_only(), FakeStore()).rerank(QUERY, candidates())
    assert [c.key for c in ranked] == ["b", "a", "c"]
    for c in ranked:
        assert c.scores["rerank"] == pytest.approx(HYBRID[c.key], abs=1e-6)
    a = next(c for c in ranked if c.key == "a")
    assert a.scores["sentence"] == pytest.approx(0.8)
    assert a.scores["sentence_lexical"] == pytest.approx(0.5)
    assert [c.ranks["rerank"] for c in ranked] == [1, 2, 3]
    assert a.ranks["fused"] == 2  # first-stage ranks are kept alongside


def test_sentence_maxsim_has_no_lexical_term_and_can_order_differently():
    reranker = SentenceReranker(query_only(), FakeStore(), lexical_weight=0.0)
    assert reranker.name == "sentence-maxsim"
    ranked = reranker.rerank(QUERY, candidates())
    assert [c.key for c in ranked] == ["a", "b", "c"]  # hybrid put b first
    for c in ranked:
        assert c.scores["rerank"] == pytest.approx(MAXSIM[c.key], abs=1e-6)
        assert "sentence_lexical" not in c.scores


def test_scores_hold_only_scores():
    """No positions disguised as float scores: every score is a similarity or a blend."""
    ranked = as_written(query_only(), FakeStore()).rerank(QUERY, candidates())
    for c in ranked:
        assert set(c.scores) == {"dense", "sentence", "sentence_lexical", "rerank"}


def test_without_bm25_query_terms_weigh_the_same():
    ranked = as_written(query_only(), FakeStore(with_bm25=False)).rerank(QUERY, candidates())
    by_key = {c.key: c for c in ranked}
    assert by_key["a"].scores["sentence_lexical"] == pytest.approx(2 / 3)  # revenue, 2025
    assert by_key["b"].scores["sentence_lexical"] == pytest.approx(1.0)
    assert by_key["a"].scores["rerank"] == pytest.approx(0.4 + 0.3 + 0.3 * 2 / 3, abs=1e-6)


def test_a_given_query_vector_is_used_and_normalised():
    emb = FixedEmbeddings({})  # any embed call would fail the test
    ranked = as_written(emb, FakeStore()).rerank(QUERY, candidates(), query_vector=[3, 0, 0])
    assert [c.key for c in ranked] == ["b", "a", "c"]
    assert ranked[0].scores["rerank"] == pytest.approx(HYBRID["b"], abs=1e-6)
    assert emb.calls == []


def test_sentences_without_precomputed_vectors_are_embedded_once_and_cached():
    vectors = {QUERY: Q}
    for content, _, vecs in CHUNKS.values():
        for (s, e), v in zip(sentence_spans(content), vecs, strict=True):
            vectors[content[s:e]] = v
    emb = FixedEmbeddings(vectors)
    reranker = SentenceReranker(emb, store=None, lexical_weight=0.0)
    first = reranker.rerank(QUERY, candidates())
    assert [c.key for c in first] == ["a", "b", "c"]
    assert {c.key: round(c.scores["rerank"], 6) for c in first} == {
        k: round(v, 6) for k, v in MAXSIM.items()
    }
    embedded = len(emb.calls)
    assert embedded == 1 + 4  # the question and the four sentences
    reranker.rerank(QUERY, candidates())
    assert len(emb.calls) == embedded + 1  # only the question again


def test_a_candidate_without_a_dense_score_uses_its_best_sentence_for_both_terms():
    cand = make_candidate(CHUNKS["b"][0], key="b")  # BM25-only hit, no cosine
    (ranked,) = as_written(query_only(), FakeStore()).rerank(QUERY, [cand])
    assert ranked.scores["rerank"] == pytest.approx(0.6 + 0.3 * 1.0, abs=1e-6)


def test_nothing_to_rerank():
    assert as_written(FixedEmbeddings({}), FakeStore()).rerank(QUERY, []) == []
    assert NoReranker().rerank(QUERY, []) == []


def test_no_reranker_keeps_the_first_stage_order():
    cands = candidates("cab")
    cands.append(make_candidate("BM25 only.", key="d", scores={"rrf": 0.01}))
    cands.append(make_candidate("Unscored.", key="e"))
    ranked = NoReranker().rerank(QUERY, cands)
    assert [c.key for c in ranked] == ["c", "a", "b", "d", "e"]
    assert ranked is not cands
    assert [c.ranks["rerank"] for c in ranked] == [1, 2, 3, 4, 5]
    assert [c.scores["rerank"] for c in ranked] == [0.95, 0.6, 0.7, 0.01, 0.0]


def test_score_types_name_the_weights():
    hybrid = SentenceReranker(query_only())
    assert hybrid.name == "sentence-hybrid"
    assert hybrid.score_type.startswith(
        "blend: 0.5 max sentence cosine + 0.5 chunk cosine + 0.3 max sentence idf coverage"
    )
    other = SentenceReranker(query_only(), sentence_weight=0.7, lexical_weight=0.2)
    assert other.score_type.startswith("blend: 0.7 max sentence cosine + 0.3 chunk cosine + 0.2")


@pytest.mark.parametrize(
    ("spec", "cls", "name"),
    [
        ("sentence", SentenceReranker, "sentence-hybrid"),
        ("sentence-hybrid", SentenceReranker, "sentence-hybrid"),
        ("default", SentenceReranker, "sentence-hybrid"),
        ("sentence-maxsim", SentenceReranker, "sentence-maxsim"),
        ("none", NoReranker, "none"),
        ("off", NoReranker, "none"),
    ],
)
def test_make_reranker(spec, cls, name):
    reranker = make_reranker(spec, query_only())
    assert isinstance(reranker, cls) and reranker.name == name


def test_make_reranker_rejects_unknown_specs():
    with pytest.raises(ValueError, match="unknown reranker 'bge'"):
        make_reranker("bge", query_only())


def test_sentence_terms_are_cached_and_a_changed_text_is_tokenised_again():
    reranker = as_written(query_only(), FakeStore())
    first = {c.key: c.scores["rerank"] for c in reranker.rerank(QUERY, candidates())}
    cached = dict(reranker._terms.items())
    assert len(cached) == 3
    again = {c.key: c.scores["rerank"] for c in reranker.rerank(QUERY, candidates())}
    assert again == first
    assert all(reranker._terms.get(k) is v for k, v in cached.items())  # reused, not rebuilt
    # same key, other text (a re-ingested chunk): its coverage comes from the new words
    changed = make_candidate(
        "Headcount rose in 2025.", key="a", scores={"dense": 0.6}, ranks={"fused": 1}
    )
    store = FakeStore()
    store.vectors["a"] = (sentence_spans(changed.content), np.asarray([[0.8, 0.6, 0.0]], "f4"))
    reranker.store = store
    (c,) = reranker.rerank(QUERY, [changed])
    assert c.scores["sentence_lexical"] == pytest.approx(1 / 4)  # only "2025"


def test_the_term_cache_is_bounded():
    reranker = as_written(query_only(), FakeStore(), cache_size=2)
    reranker.rerank(QUERY, candidates())
    assert len(reranker._terms) == 2


def test_an_faq_heading_question_counts_as_one_of_its_chunks_sentences():
    """'### Do you ship abroad?' is kept in the section path, not the content: the second
    stage scores it as a sentence of the pair's chunk, as a question line in the content."""
    query = "do you deliver outside the UK?"
    answer = "We ship to the EU, Norway and Switzerland."
    # a pair's sentences are scored as written; a section's short line with its heading
    # (loaders.row_text.with_heading)
    scored = f"Do you ship abroad?: {answer}"
    emb = FixedEmbeddings(
        {
            query: [1.0, 0.0],
            "Do you ship abroad?": [0.8, 0.6],
            answer: [0.5, math.sqrt(0.75)],
            scored: [0.5, math.sqrt(0.75)],
        }
    )

    def pair(block_type: str) -> Candidate:
        cand = make_candidate(
            answer,
            key=block_type,
            section="Help > Delivery > Do you ship abroad?",
            scores={"dense": 0.5},
        )
        cand.meta["block_type"] = block_type
        return cand

    reranker = SentenceReranker(emb, store=None, lexical_weight=0.0)
    faq, plain = (
        reranker.rerank(query, [pair("qa_pair")]),
        reranker.rerank(query, [pair("paragraph")]),
    )
    assert faq[0].scores["heading_question"] == pytest.approx(0.8)
    assert faq[0].scores["rerank"] == pytest.approx(0.5 * 0.8 + 0.5 * 0.5)
    assert "heading_question" not in plain[0].scores  # a section title is no FAQ question
    assert plain[0].scores["rerank"] == pytest.approx(0.5 * 0.5 + 0.5 * 0.5)
    assert emb.calls.count("Do you ship abroad?") == 1  # embedded once, then cached
    reranker.rerank(query, [pair("qa_pair")])
    assert emb.calls.count("Do you ship abroad?") == 1


def test_a_table_row_is_its_own_context():
    """When a candidate's best sentence is a table row, the row stands for the chunk too: the
    other rows packed into its chunk (an expenses sheet's other claims) are not its context,
    as they are not for the answerer's name rule (loaders.row_text)."""
    content = "Lena Kowalski Equipment 289.99\nTom Ellery Travel 31.40"
    rows = [
        [0, 30, "Expenses — Employee: Lena Kowalski; Category: Equipment; Amount: 289.99", "…"],
        [31, 54, "Expenses — Employee: Tom Ellery; Category: Travel; Amount: 31.40", "…"],
    ]
    store = FakeStore()
    store.vectors["t"] = ([(0, 30), (31, 54)], np.asarray([[0.8, 0.6, 0.0], [0.0, 1.0, 0.0]], "f4"))
    reranker = SentenceReranker(query_only(), store, lexical_weight=0.0)
    row_cand = make_candidate(content, key="t", scores={"dense": 0.3}, ranks={"fused": 1})
    row_cand.document.metadata[ROW_TEXT_KEY] = rows
    (c,) = reranker.rerank(QUERY, [row_cand])
    assert c.scores["rerank"] == pytest.approx(0.8, abs=1e-6)  # the row's cosine, twice
    # a question about the whole table: the chunk's cosine, when the higher, stays
    whole = make_candidate(content, key="t", scores={"dense": 0.9}, ranks={"fused": 1})
    whole.document.metadata[ROW_TEXT_KEY] = rows
    (c,) = reranker.rerank(QUERY, [whole])
    assert c.scores["rerank"] == pytest.approx(0.5 * 0.8 + 0.5 * 0.9, abs=1e-6)
    prose = make_candidate(content, key="t", scores={"dense": 0.3}, ranks={"fused": 1})
    (c,) = reranker.rerank(QUERY, [prose])
    assert c.scores["rerank"] == pytest.approx(0.5 * 0.8 + 0.5 * 0.3, abs=1e-6)


def test_a_content_word_the_index_never_saw_weighs_like_the_rarest_query_term():
    """ "How do I renew a passport?" over a library FAQ: "renew" alone no longer covers it."""
    assert coverage_weights(["renew", "passport"], {"renew": 3.0}) == {
        "renew": 3.0,
        "passport": 3.0,
    }
    # generic question words and numbers the index lacks stay out of the total, as before
    assert coverage_weights(["my", "vase", "2031"], {"vase": 2.0}) == {"vase": 2.0}
    # nothing indexed: nothing to cover
    assert coverage_weights(["passport"], {}) == {}


def test_an_unseen_word_is_read_as_its_indexed_plural_or_singular():
    weights = coverage_weights(
        ["saturday", "shifts", "policy"], {"saturdays": 2.5, "shift": 1.5, "policies": 2.0}
    )
    assert weights == {"saturdays": 2.5, "shift": 1.5, "policies": 2.0}


@pytest.mark.parametrize(
    ("word", "forms"),
    [
        ("shift", ("shifts",)),
        ("shifts", ("shift",)),
        ("policy", ("policies",)),
        ("policies", ("policy",)),
        ("day", ("days",)),
        ("boxes", ("box", "boxe")),
        ("box", ("boxes",)),
        ("glass", ("glasses",)),
        ("as", ()),
        ("e2", ()),
    ],
)
def test_inflections(word, forms):
    assert inflections(word) == forms


def test_an_unseen_query_word_lowers_every_candidates_coverage_alike():
    query = "What was revenue growth in 2025 per passport?"
    embeddings = FixedEmbeddings({query: Q})
    with_unseen = as_written(embeddings, FakeStore()).rerank(query, candidates())
    before = as_written(embeddings, FakeStore(), weigh_unseen=False).rerank(query, candidates())
    got = {c.key: c.scores["sentence_lexical"] for c in with_unseen}
    old = {c.key: c.scores["sentence_lexical"] for c in before}
    # "passport" weighs as much as "growth" (2.0): the total goes from 4 to 6
    assert old == pytest.approx({"a": 0.5, "b": 1.0, "c": 0.0})
    assert got == pytest.approx({"a": 2 / 6, "b": 4 / 6, "c": 0.0})
    assert [c.key for c in with_unseen] == [c.key for c in before]


class OneSentenceStore:
    """One chunk of one sentence, with its vector and the index's idf."""

    def __init__(self, content: str, idf: dict[str, float]):
        self.bm25 = type(
            "B", (), {"idf": lambda _, terms: {t: idf[t] for t in terms if t in idf}}
        )()
        self.vectors = {"k": (sentence_spans(content), np.asarray([[1.0, 0.0, 0.0]], np.float32))}

    def sentence_vectors_for(self, key):
        return self.vectors.get(key)


WINE = "Will you pay for wine with dinner?"
ALCOHOL = "Alcohol is never reimbursed."
#: single-word vectors: "alcohol" paraphrases "wine" (cosine 0.8), "reimbursed" half
#: paraphrases "pay" (0.6); "dinner" and "never" are near nothing
WORDS = {
    WINE: [1.0, 0.0, 0.0],
    "wine": [1.0, 0.0, 0.0, 0.0, 0.0],
    "alcohol": [0.8, 0.6, 0.0, 0.0, 0.0],
    "pay": [0.0, 0.0, 1.0, 0.0, 0.0],
    "reimbursed": [0.0, 0.0, 0.6, 0.8, 0.0],
    "dinner": [0.0, 0.0, 0.0, 0.0, 1.0],
    "never": [0.0, -1.0, 0.0, 0.0, 0.0],
}
#: "wine" is unseen: it weighs as the rarest indexed query word (2.0); total 1 + 2 + 2 = 5
WINE_IDF = {"pay": 1.0, "dinner": 2.0, "alcohol": 2.0, "never": 1.0, "reimbursed": 2.0}


def test_a_query_word_said_in_other_words_is_covered_in_part():
    store = OneSentenceStore(ALCOHOL, WINE_IDF)
    cand = make_candidate(ALCOHOL, key="k", scores={"dense": 0.5})
    emb = FixedEmbeddings(WORDS)
    (ranked,) = SentenceReranker(emb, store).rerank(WINE, [cand])
    # wine by alcohol: full credit (2.0); pay by reimbursed: (0.6 - 0.35) / 0.35 of 1.0
    expected = (2.0 + (0.6 - 0.35) / 0.35 * 1.0) / 5.0
    assert ranked.scores["sentence_lexical"] == pytest.approx(expected, abs=1e-5)
    assert ranked.scores["sentence_paraphrase"] == pytest.approx(expected, abs=1e-5)
    assert ranked.scores["rerank"] == pytest.approx(0.5 + 0.5 * 0.5 + 0.3 * expected, abs=1e-5)
    # each word is embedded once per model (chains.word_vectors): further queries, on this
    # reranker or another of the same model, reuse them
    reranker = SentenceReranker(emb, store)
    reranker.rerank(WINE, [make_candidate(ALCOHOL, key="k", scores={"dense": 0.5})])
    reranker.rerank(WINE, [make_candidate(ALCOHOL, key="k", scores={"dense": 0.5})])
    words = [c for c in emb.calls if c != WINE]
    assert sorted(words) == sorted(set(words)) == sorted(WORDS.keys() - {WINE})
    assert emb.calls.count(WINE) == 3  # the question, once per query


def test_without_the_paraphrase_credit_words_count_only_as_written():
    store = OneSentenceStore(ALCOHOL, WINE_IDF)
    cand = make_candidate(ALCOHOL, key="k", scores={"dense": 0.5})
    (ranked,) = as_written(FixedEmbeddings({WINE: [1.0, 0.0, 0.0]}), store).rerank(WINE, [cand])
    assert ranked.scores["sentence_lexical"] == 0.0


@pytest.mark.parametrize("value", [-1, 1.5, True, "5"])
def test_paraphrase_top_must_be_a_count(value):
    with pytest.raises(ValueError, match="paraphrase_top"):
        SentenceReranker(FixedEmbeddings({}), paraphrase_top=value)


def test_a_sentence_holds_a_query_word_in_another_inflection():
    """The coverage reads "reserves" as "reserve" (answer_checks.stem), as the answer checks
    read words; another word sharing a prefix is not the word."""
    reranker = as_written(query_only(), FakeStore())
    weights = {"reserve": 2.0, "club": 1.0}
    assert reranker._held(weights, frozenset({"reserves", "stood"})) == 2.0
    assert reranker._held(weights, frozenset({"reservoir", "club"})) == 1.0
    assert reranker._held(weights, frozenset({"reserve", "clubs"})) == 3.0


def test_a_cross_encoder_that_cannot_load_is_one_line_saying_what_to_do(
    tmp_path, monkeypatch
) -> None:
    """A mistyped directory, or sentence-transformers missing: one line naming the model or
    the package and how to turn reranking off (an OSError/ImportError traceback before)."""
    from chains.rerank import CrossEncoderReranker, RerankerUnavailableError, make_reranker

    missing = tmp_path / "no-such-model"
    with pytest.raises(RerankerUnavailableError) as exc:
        make_reranker(f"cross-encoder:{missing}", embeddings=None)  # type: ignore[arg-type]
    message = str(exc.value)
    assert "\n" not in message and str(missing) in message and "no such directory" in message
    assert message.endswith("or turn it off with --reranker sentence (the default) or none")

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # the import fails
    with pytest.raises(RerankerUnavailableError) as exc:
        CrossEncoderReranker("cross-encoder/ms-marco-MiniLM-L-6-v2")
    message = str(exc.value)
    assert "sentence-transformers package" in message
    assert "pip install sentence-transformers" in message and "--reranker sentence" in message

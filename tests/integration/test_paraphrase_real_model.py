"""The second stage's reading of users' words with the real embedding model and a real index.

"Will the company pay for a glass of wine with my dinner?" against "Alcohol is never
reimbursed." shares no word with it: the paraphrase credit (the real model's single-word
vectors) covers "wine" by "alcohol"; "passport" is said by no word of a library FAQ and gets
no credit. Over the sample corpus's real FAISS index, "passport" is a word the index never
saw, and it weighs in the coverage instead of being left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from chains.rerank import SentenceReranker
from citerag.core.text import tokenize
from tests.support.factories import make_candidate

pytestmark = pytest.mark.integration

WINE = "Will the company pay for a glass of wine with my dinner?"
ALCOHOL = "Alcohol is never reimbursed."
PASSPORT = "How do I renew a passport?"
LOANS = "Loans can be renewed online through the library app."


def _scores(reranker: SentenceReranker, question: str, content: str) -> dict[str, float]:
    (ranked,) = reranker.rerank(question, [make_candidate(content, key="k", scores={"dense": 0.3})])
    return ranked.scores


def test_a_word_said_otherwise_is_covered_by_its_paraphrase(embedding_model):
    emb = embedding_model.embeddings
    credited = _scores(SentenceReranker(emb), WINE, ALCOHOL)
    plain = _scores(SentenceReranker(emb, paraphrase_top=0), WINE, ALCOHOL)
    assert plain.get("sentence_lexical", 0.0) == 0.0
    assert credited["sentence_paraphrase"] > 0.1
    assert credited["rerank"] > plain["rerank"]
    # nothing in a library FAQ's sentence says "passport" ("renewed" is "renew"'s other form,
    # which the credit also reads)
    got = _scores(SentenceReranker(emb), PASSPORT, LOANS)
    assert got["sentence_lexical"] < 1.0


def test_a_word_the_index_never_saw_weighs_in_the_coverage(embedding_model, sample_index: Path):
    from citerag.stores.loaded import load_index

    store = load_index(sample_index, embedding_model).store
    question = "Can I buy shares with my passport?"
    idf = store.idf(set(tokenize(question)))  # can, buy, shares, my, passport
    assert "passport" not in idf and {"buy", "shares"} <= set(idf)  # the corpus never says it
    reranker = SentenceReranker(embedding_model.embeddings, store, paraphrase_top=0)
    before = SentenceReranker(
        embedding_model.embeddings, store, weigh_unseen=False, paraphrase_top=0
    )
    text = "Members can buy shares online."
    assert _scores(before, question, text)["sentence_lexical"] == pytest.approx(1.0)
    held = sum(idf.values())  # every indexed word of the question is in the sentence
    assert set(idf) <= set(tokenize(text))
    assert _scores(reranker, question, text)["sentence_lexical"] == pytest.approx(
        held / (held + max(idf.values()))
    )

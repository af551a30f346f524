"""bfloat16 forward passes: the real all-MiniLM-L6-v2 in fp32 and in bf16.

bf16 runs even where the CPU emulates it (slowly), so these tests need no special hardware.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from citerag.embeddings import embed_texts, load_embedding_model, span_pooler
from citerag.index.ingest import ingest

TEXTS = [
    "The small grey cat slept on the warm kitchen mat all afternoon.",
    "Interest rates on corporate bonds rose sharply during fiscal 2022.",
    "Revenue from subscriptions grew 12 % to $15.2 billion, driven by Creative Cloud.",
    "The board meets four times a year; the audit committee meets monthly.",
    "Short.",
]


@pytest.fixture(scope="module")
def fp32():
    return load_embedding_model(precision="fp32")


@pytest.fixture(scope="module")
def bf16():
    return load_embedding_model(precision="bf16")


def test_each_model_reports_its_precision(fp32, bf16):
    assert fp32.precision == "fp32" and bf16.precision == "bf16"
    assert fp32.name == bf16.name  # same model identity: an index is usable with either
    # bounded oneDNN kernel cache (a user's own setting would be kept)
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"]


def test_batched_vectors_stay_within_rounding_of_fp32(fp32, bf16):
    ref = np.asarray(fp32.embeddings.embed_documents(TEXTS), dtype=np.float32)
    got = np.asarray(bf16.embeddings.embed_documents(TEXTS), dtype=np.float32)
    assert got.dtype == np.float32 and got.shape == ref.shape
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)  # fp32 normalise
    cos = (got * ref).sum(axis=1)
    assert (cos > 0.9995).all(), cos
    assert not np.array_equal(got, ref)  # the batch really ran in bfloat16
    # each text still lands nearest its own fp32 vector (no rows mixed up)
    assert list((got @ ref.T).argmax(axis=1)) == list(range(len(TEXTS)))


def test_a_lone_question_runs_in_bf16_too(fp32, bf16):
    # weights cast once at load: a lone question is as fast in bf16 as a batch, no autocast
    import torch

    inner = next(iter(bf16.embeddings._client)).auto_model
    assert {p.dtype for p in inner.parameters()} == {torch.bfloat16}
    for text in TEXTS[:2]:
        got = np.asarray(bf16.embeddings.embed_query(text), dtype=np.float32)
        ref = np.asarray(fp32.embeddings.embed_query(text), dtype=np.float32)
        assert not np.array_equal(got, ref)  # it really ran in bfloat16
        assert float(got @ ref) > 0.9995
        assert abs(float(np.linalg.norm(got)) - 1.0) < 1e-5  # pooled and normalised in fp32


def test_word_piece_batches_and_span_pooling_go_through_bf16(fp32, bf16):
    ref = np.asarray(fp32.embeddings.embed_documents(TEXTS), dtype=np.float32)
    got = embed_texts(bf16.embeddings, TEXTS)
    assert ((got * ref).sum(axis=1) > 0.9995).all()
    pooler = span_pooler(bf16.embeddings)
    assert pooler is not None
    vectors, spans = pooler(TEXTS[:3], [[(0, 20)], [(0, 30)], [(0, 25)]])
    assert vectors.dtype == np.float32 and spans[0].dtype == np.float32
    assert ((vectors * ref[:3]).sum(axis=1) > 0.9995).all()


def test_the_manifest_records_the_precision_and_fp32_reads_the_index(tmp_path, fp32, bf16):
    from citerag.stores.loaded import load_index

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Notes\n\n" + " ".join(TEXTS) + "\n", encoding="utf-8")
    ingest([folder], tmp_path / "index", bf16, progress=False)
    manifest = json.loads((tmp_path / "index" / "current" / "manifest.json").read_text())
    assert manifest["embedding"]["precision"] == "bf16"
    assert manifest["embedding"]["model"] == bf16.name
    loaded = load_index(tmp_path / "index", fp32)  # the precision is information, not identity
    hits = loaded.store.similarity_search("bond interest rates", k=1)
    assert "Interest rates" in hits[0].page_content

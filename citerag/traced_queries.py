"""Questions through a traced copy of the encoder: the same model, without its Python overhead.

A question is a dozen word-pieces, and for inputs that small most of a sentence-transformers
``encode`` call is Python: ``encode``'s own bookkeeping (sorting, batching, device moves,
conversions) and the transformer's ~120 module calls with their hooks and decorators, all of
it holding the GIL. On this 2-core CPU a lone question took 9.3 ms through ``encode`` and
5.2 ms through the traced module (bfloat16 weights, one thread; 12.2 vs 8.5 ms in float32).
The traced module also runs entirely in C++, without the GIL, so a server's other requests
keep their core while a question is embedded.

:class:`TracedQueries` traces the model's transformer once (``torch.jit.trace`` then
``torch.jit.freeze``, ~0.2 s at load) and embeds questions as ``encode`` does: the model's
own ``preprocess`` (tokenisation, truncation to its window), the traced transformer, then the
model's remaining modules (pooling, normalisation) and ``normalize_embeddings``. The traced
module is the same weights at the same precision, so the vectors are the eager ones up to
float rounding (cosine 1.0 on the bundled model in bf16 and fp32). It is traced on a padded
batch (so the attention mask's general branch is the one recorded) and checked at load
against ``encode`` on other shapes — each probe alone, another batch size and order, a text
past the model's window — with cosine ≥ :data:`MIN_PROBE_COSINE`: a trace that froze a shape
or another branch fails the check, and the model keeps its eager path. Only questions take
this path; documents (ingest) go through ``encode`` as before.

:func:`traced_queries` returns ``None`` for a model it cannot vouch for: not on the CPU, not
a text transformer whose output is its last hidden state, a default prompt (the traced path
would drop it), ``truncate_dim``, inputs other than ``input_ids`` / ``attention_mask`` /
``token_type_ids``, a failed trace, or a check that disagrees with ``encode``. And
:meth:`SentenceEmbeddings.set_query_path` refuses a path for embeddings whose query encoding
asks for more than normalised vectors (a query prompt, a precision, ...).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from langchain_huggingface import HuggingFaceEmbeddings
from pydantic import PrivateAttr

log = logging.getLogger(__name__)

#: Inputs the traced transformer takes, in this order, when the model's ``preprocess`` makes them.
TRACED_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
#: Texts of different lengths (so the trace sees padding and keeps the attention mask's
#: general path), and the check against ``encode`` at load.
PROBES = (
    "Where is the fault code listed?",
    "The inverter reports error E-217 when the DC input voltage stays above the rated "
    "maximum for more than ten seconds, and it restarts once the voltage falls back.",
    "warranty",
)
#: Least cosine between a probe's traced and eager vectors for the traced path to be used
#: (the same weights through the same operations: 1.0 on the bundled model in bf16 and fp32;
#: a trace frozen on the wrong branch, e.g. one that ignores padding, is far below this).
MIN_PROBE_COSINE = 0.99999
#: ``encode_kwargs`` the traced path reproduces (anything else — a prompt, ``truncate_dim``,
#: a precision, ``normalize_embeddings=False`` ... — keeps questions on ``encode``).
PLAIN_ENCODE_KWARGS = {"normalize_embeddings": True, "batch_size": None}


class TracedQueries:
    """Embed questions with a traced, frozen copy of a sentence-transformers model's encoder.

    Build it with :func:`traced_queries`, which checks that the model is one it can trace and
    that the result agrees with ``encode``.
    """

    def __init__(self, client: Any, *, normalize: bool) -> None:
        """Trace ``client``'s first module (its transformer).

        Args:
            client: A ``SentenceTransformer`` whose first module is its ``Transformer``.
            normalize: L2-normalise the vectors (``encode``'s ``normalize_embeddings``).

        Raises:
            ValueError: ``client`` is not a model this class can trace (the message says why).
        """
        import torch

        modules = list(client)
        if not modules or type(modules[0]).__name__ != "Transformer":
            raise ValueError("the model's first module is not a sentence-transformers Transformer")
        first = modules[0]
        text = (getattr(first, "modality_config", None) or {}).get("text")
        if text != {"method": "forward", "method_output_name": "last_hidden_state"}:
            raise ValueError(f"the transformer's text output is not its last hidden state: {text}")
        if getattr(first, "module_output_name", "token_embeddings") != "token_embeddings":
            raise ValueError("the transformer does not output token embeddings")
        if getattr(client, "default_prompt_name", None):
            raise ValueError("the model has a default prompt, which the traced path would drop")
        if getattr(client, "truncate_dim", None):
            raise ValueError("the model truncates its vectors (truncate_dim)")
        if str(getattr(client, "device", "cpu")) != "cpu":
            raise ValueError("the model is not on the CPU")
        probe = first.preprocess(list(PROBES))
        extra = set(probe) - set(TRACED_INPUTS) - {"modality"}
        if extra or "input_ids" not in probe or "attention_mask" not in probe:
            raise ValueError(f"the model's inputs are not {TRACED_INPUTS}: {sorted(probe)}")
        self._keys = tuple(k for k in TRACED_INPUTS if k in probe)
        self._first = first
        self._rest = modules[1:]
        self._normalize = normalize

        keys = self._keys

        class _LastHidden(torch.nn.Module):
            def __init__(self, model: Any) -> None:
                super().__init__()
                self.model = model

            def forward(self, *inputs: Any) -> Any:
                return self.model(**dict(zip(keys, inputs, strict=True)), return_dict=False)[0]

        quiet = logging.getLogger("transformers")
        level = quiet.level
        with warnings.catch_warnings(record=True) as caught, torch.inference_mode():
            # TracerWarnings about branches on shapes: the padded probes take the general
            # branch, and traced_queries() compares the result with encode on other shapes.
            # (Tracing also reads every property of the model, and transformers logs about
            # some of them, e.g. an unset loss type: irrelevant to inference.)
            warnings.simplefilter("always")
            quiet.setLevel(max(level, logging.ERROR))
            try:
                traced = torch.jit.trace(
                    _LastHidden(first.model).eval(),
                    tuple(probe[k] for k in keys),
                    check_trace=False,
                )
                self._module = torch.jit.freeze(traced)
            finally:
                quiet.setLevel(level)
        #: What the tracer warned about (branches it froze), for the log.
        self.tracer_warnings = sorted({str(w.message).split(".")[0] for w in caught})

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` as ``encode`` would: one float32 row per text.

        Newlines become spaces first, as LangChain's ``HuggingFaceEmbeddings`` does.
        """
        import torch

        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        features = self._first.preprocess([t.replace("\n", " ") for t in texts])
        with torch.inference_mode():
            tokens = self._module(*(features[k] for k in self._keys))
            features["token_embeddings"] = tokens.float()
            for module in self._rest:
                features = module(features)
            vectors = features["sentence_embedding"]
            if self._normalize:
                vectors = torch.nn.functional.normalize(vectors, p=2, dim=1)
            return np.asarray(vectors.float().numpy(), dtype=np.float32)


def traced_queries(client: Any, *, normalize: bool = True) -> TracedQueries | None:
    """A traced question path for ``client``, or ``None`` where it cannot be vouched for.

    Args:
        client: A loaded ``SentenceTransformer`` (on the CPU).
        normalize: L2-normalise the vectors (as ``encode(normalize_embeddings=True)``).

    Returns:
        The traced path, checked against ``encode`` on shapes other than the one it was
        traced on (each probe alone, the probes in another order and batch size, a text that
        fills the model's window); ``None`` (and a log line saying why) if the model cannot
        be traced or any check disagrees.
    """
    window = int(getattr(client, "max_seq_length", 256) or 256)
    checks = [
        *([p] for p in PROBES),
        [PROBES[2], PROBES[0]],
        [" ".join(["inverter"] * (2 * window)), PROBES[0]],
    ]
    try:
        traced = TracedQueries(client, normalize=normalize)
        worst = 1.0
        for texts in checks:
            got = np.asarray(traced(texts), dtype=np.float64)
            ref = np.asarray(client.encode(texts, normalize_embeddings=normalize), np.float64)
            if got.shape != ref.shape:
                raise ValueError(f"traced vectors of shape {got.shape}, encode's {ref.shape}")
            norms = np.linalg.norm(got, axis=1) * np.linalg.norm(ref, axis=1)
            worst = min(worst, float(((got * ref).sum(axis=1) / norms).min()))
    except Exception as exc:  # any failure keeps the eager path
        log.info("questions stay on the eager encoder: %s", exc)
        return None
    if not worst >= MIN_PROBE_COSINE:
        log.warning(
            "questions stay on the eager encoder: the traced one disagrees (cosine %.7f)", worst
        )
        return None
    log.debug("traced question path (cosine %.7f; tracer: %s)", worst, traced.tracer_warnings)
    return traced


class SentenceEmbeddings(HuggingFaceEmbeddings):
    """LangChain's ``HuggingFaceEmbeddings`` whose questions may take a traced path.

    Documents (``embed_documents``) always go through sentence-transformers' ``encode``;
    questions (``embed_query``, ``embed_queries``) go through the :class:`TracedQueries` set
    with :meth:`set_query_path`, or through ``encode`` without one.
    """

    _query_path: TracedQueries | None = PrivateAttr(default=None)

    def __getstate__(self) -> dict[Any, Any]:
        """Pickle without the traced module (TorchScript does not pickle): a copy
        unpickled elsewhere embeds its questions through ``encode``."""
        state = dict(super().__getstate__())
        private = dict(state.get("__pydantic_private__") or {})
        private["_query_path"] = None
        state["__pydantic_private__"] = private
        return state

    @property
    def query_path(self) -> TracedQueries | None:
        """The traced question path, or ``None`` (questions go through ``encode``)."""
        return self._query_path

    def set_query_path(self, path: TracedQueries | None) -> None:
        """Send questions through ``path``; ``None`` = through ``encode``.

        Raises:
            ValueError: ``path`` is given but the query encoding asks for something the
                traced path does not do (a prompt, ``truncate_dim``, unnormalised vectors,
                ...: anything in ``query_encode_kwargs`` / ``encode_kwargs`` beyond
                :data:`PLAIN_ENCODE_KWARGS`, or a multi-process pool).
        """
        if path is not None:
            kwargs = self.query_encode_kwargs or self.encode_kwargs
            odd = {
                k: v
                for k, v in kwargs.items()
                if k not in PLAIN_ENCODE_KWARGS or PLAIN_ENCODE_KWARGS[k] not in (None, v)
            }
            if odd or self.multi_process or not kwargs.get("normalize_embeddings"):
                raise ValueError(
                    f"the traced question path cannot reproduce encode with {dict(kwargs)}"
                    + (" and multi_process" if self.multi_process else "")
                )
        self._query_path = path

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        """Embed several questions in one forward pass (the server's query batches)."""
        if not texts:
            return []
        if self._query_path is None:
            return self._embed(texts, self.query_encode_kwargs or self.encode_kwargs)
        return cast(list[list[float]], self._query_path(texts).tolist())

    def embed_query(self, text: str) -> list[float]:
        """Embed one question."""
        if self._query_path is None:
            return super().embed_query(text)
        return cast(list[float], self._query_path([text])[0].tolist())

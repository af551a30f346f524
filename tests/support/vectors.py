"""Comparing embedding vectors across batch compositions, at the model's precision."""

from __future__ import annotations

import numpy as np

#: Least cosine between two computations of one text's vector, per precision: float32 differs
#: only by rounding; bfloat16 batches (see ``citerag.embeddings``) by about 1e-5 of cosine.
MIN_COSINE = {"fp32": 1.0 - 1e-6, "int8": 1.0 - 1e-6, "bf16": 0.9995}


def assert_same_vectors(got: object, ref: object, precision: str) -> None:
    """Row by row, ``got`` is ``ref`` up to the rounding ``precision`` allows."""
    a = np.atleast_2d(np.asarray(got, dtype=np.float64))
    b = np.atleast_2d(np.asarray(ref, dtype=np.float64))
    assert a.shape == b.shape, (a.shape, b.shape)
    cos = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    assert (cos >= MIN_COSINE[precision]).all(), (precision, cos)

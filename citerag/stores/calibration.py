"""An index's own gate calibration, kept by its backend.

Written by ``citerag calibrate --write`` (:func:`write_calibration`), removed by ``citerag
calibrate --reset`` (:func:`reset_calibration`), read when a graph is built over the index
(:func:`read_calibration`). An index directory keeps it in ``INDEX/calibration.json``
(:mod:`citerag.stores.faiss.calibration`), a PostgreSQL index in its meta table. Its shape is
that of ``chains/gate_defaults.json``: score name (a reranker name such as
``sentence-hybrid``, or ``dense``) -> ``{"threshold": float, ...provenance}``; its entries
override the packaged defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citerag.stores.dispatch import backend_for
from citerag.stores.location import IndexLocation

#: The plot ``citerag calibrate --write`` draws beside an index directory's calibration
#: (removed with it by ``--reset``).
CALIBRATION_PLOT = "calibration.png"


def read_calibration(index_dir: IndexLocation) -> dict[str, Any]:
    """The index's calibrated thresholds (``{}`` when it has none).

    Entries without a ``threshold`` are ignored; an unreadable file is logged and ignored,
    so a damaged calibration falls back to the packaged defaults instead of failing.
    """
    raw = backend_for(index_dir).read_calibration()
    return {k: v for k, v in raw.items() if isinstance(v, dict) and "threshold" in v}


def write_calibration(index_dir: IndexLocation, entries: dict[str, dict[str, Any]]) -> Path | str:
    """Merge entries into the index's calibration atomically; return where they went (the
    file, or the store URL)."""
    return backend_for(index_dir).write_calibration(entries)


def reset_calibration(index_dir: IndexLocation) -> Path | str | None:
    """Remove the index's calibration, so the packaged defaults apply again.

    Returns:
        Where the calibration was (the file, or the store URL), or ``None`` when the index
        had none.
    """
    backend = backend_for(index_dir)
    where = backend.reset_calibration()
    if backend.directory is not None:  # the plot of thresholds no longer in effect goes too
        (backend.directory / CALIBRATION_PLOT).unlink(missing_ok=True)
    return where
